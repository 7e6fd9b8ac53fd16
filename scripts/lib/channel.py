"""The kit's one parser of what a guest (or a host suite) reports: the
sections of TAP between KIT-BEGIN and KIT-END, the KIT-DONE status line,
the crash rule (scripts/guest/crash.ere) and a crash report's addresses.
The format is described in scripts/guest/results.py, the command that
runs it, and in docs/hacking.md, "One channel, one format, one parser"."""
import contextlib
import io
import os
import re
import sys

from quote import visible

KERNEL_LINE = re.compile(r'^\[ *[0-9]+\.[0-9]+\] ')
RESULT = re.compile(r'^(not )?ok ([0-9]+)\b ?-? ?(.*)$')
PLAN = re.compile(r'^1\.\.([0-9]+)')
# The kselftest harness names a test on its "#  RUN NAME ..." line; its
# result line for a skip carries the reason only ("ok 4 # SKIP why").
RUN = re.compile(r'^#  RUN +(\S+) \.\.\.')
# A whole section skipped: "1..0 # SKIP why" (TAP's skip_all).
SKIP_ALL = re.compile(r'^1\.\.0\b\s*#\s*skip\b\s*(.*)$', re.I)
DIAG_KEYS = ('expected:', 'seen:', 'trace:', 'hint:', 'kit:', '|')
CRASH_ERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'guest', 'crash.ere')


def read_lines(path):
    """The lines of a results stream or console log, kernel lines dropped."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return []
    lines = []
    for raw in data.replace(b'\r', b'').split(b'\n'):
        line = visible(raw)
        if not KERNEL_LINE.match(line):
            lines.append(line)
    if lines and lines[-1] == '':
        lines.pop()
    return lines


class Section:
    def __init__(self, name):
        self.name = name
        self.lines = []
        self.status = None      # None: it never ended


def sections(lines):
    """The KIT-BEGIN/KIT-END sections, in order; a section that is begun
    again before it ended, or never ended, keeps status None."""
    out, cur = [], None
    for line in lines:
        if line.startswith('KIT-BEGIN '):
            cur = Section(line[len('KIT-BEGIN '):].strip())
            out.append(cur)
        elif line.startswith('KIT-END ') and cur is not None:
            m = re.match(r'KIT-END (\S+) status=([0-9]+)', line)
            if m and m.group(1) == cur.name:
                cur.status = int(m.group(2))
                cur = None
        elif cur is not None:
            cur.lines.append(line)
    return out


class Result:
    def __init__(self, ok, num, title):
        self.ok, self.num, self.title = ok, num, title
        self.skip = bool(re.search(r'# *skip', title, re.I))
        self.diags = []         # "expected: ...", "| output", ...


def tap(lines):
    """(plan, results, comments before the first result) of TAP lines.
    A '# key: ...' line after a result is that result's diagnostic; the
    '#' lines right after a diagnostic that start with no key (the
    verifier's log under a multi-line 'seen:') go on with it, kept as they
    came (a grader indents them under the text), up to the next line that
    is no comment or is the kselftest harness's '#  RUN'."""
    plan, results, preamble, running = 0, [], [], None
    diag = False                # the line before was a diagnostic
    for line in lines:
        m = PLAN.match(line)
        if m:
            plan += int(m.group(1))
            diag = False
            continue
        m = RESULT.match(line)
        if m:
            title = m.group(3)
            if running and (not title or title.startswith('#')):
                title = (running + ' ' + title).rstrip()
            running = None
            results.append(Result(not m.group(1), int(m.group(2)), title))
            diag = False
            continue
        m = RUN.match(line)
        if m:
            running = m.group(1)
        if not line.startswith('#'):
            diag = False
            continue
        body = line[2:] if line.startswith('# ') else line[1:]
        if results and body.lstrip().startswith(DIAG_KEYS):
            results[-1].diags.append(body)
            diag = True
        elif results and diag and not m:
            results[-1].diags.append(body)
        else:
            diag = False
            if not results:
                preamble.append(body)
    return plan, results, preamble


def count(path):
    """FAIL lines and COUNTS of every section (make test's view)."""
    npass = nfail = nskip = 0
    for sec in sections(read_lines(path)):
        plan, results, _ = tap(sec.lines)
        sfail = 0
        whole = [m.group(1) for m in map(SKIP_ALL.match, sec.lines) if m]
        if whole and not results:
            print('SKIP %s: the whole suite # SKIP %s' % (sec.name, whole[0]))
            nskip += 1
        for r in results:
            if not r.ok:
                print('FAIL %s: %s' % (sec.name, r.title))
                sfail += 1
            elif r.skip:
                print('SKIP %s: %s' % (sec.name, r.title))
                nskip += 1
            else:
                npass += 1
        if plan > len(results):
            print('FAIL %s: %d planned test(s) never reported'
                  % (sec.name, plan - len(results)))
            sfail += plan - len(results)
        if sec.status is None:
            print('FAIL %s: did not finish (the guest stopped in it, or its end line is missing)'
                  % sec.name)
            sfail += 1
        elif sec.status != 0 and sfail == 0:
            print('FAIL %s: exited with status %d without a failing test'
                  % (sec.name, sec.status))
            sfail += 1
        nfail += sfail
    print('COUNTS %d %d %d' % (npass, nfail, nskip))
    return 0


def done(path, nonce):
    """The status of this boot's KIT-DONE line, or nothing (exit 1)."""
    want = re.compile(r'^KIT-DONE %s status=([0-9]+)' % re.escape(nonce))
    status = None
    for line in read_lines(path):
        m = want.match(line)
        if m:
            status = m.group(1)
    if status is None:
        return 1
    print(status)
    return 0


def crash_rule():
    with open(CRASH_ERE) as f:
        return re.compile('|'.join(l.strip() for l in f
                                   if l.strip() and not l.startswith('#')))


def kernel_lines(path):
    """The kernel's lines of console log PATH (those with a timestamp),
    visible; None if it cannot be read."""
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    return [l for l in (visible(raw) for raw in data.replace(b'\r', b'').split(b'\n'))
            if KERNEL_LINE.match(l)]


def crash(path):
    """The first kernel line (with a timestamp) that breaks the crash rule."""
    rule = crash_rule()
    lines = kernel_lines(path)
    if lines is None:
        return 1
    for line in lines:
        if rule.search(line):
            print(line[:160])
            return 0
    return 1


def verdict(console, channel, nonce):
    """crash() of CONSOLE and done() of CHANNEL, each line prefixed."""
    for word, func, args in (('crash', crash, (console,)),
                             ('status', done, (channel, nonce))):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            found = func(*args) == 0
        if found:
            print(word, out.getvalue().rstrip('\n'))
    return 0


ADDR = re.compile(r'\b(?:0x)?(ffffffff[0-9a-f]{8})\b')


def oops(path, vmlinux):
    """The crash report of a console log, addresses named by nm VMLINUX."""
    import bisect
    import subprocess
    try:
        nm = subprocess.run(['nm', '-n', '--defined-only', vmlinux], capture_output=True,
                            text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print('results.py: cannot read the symbols of %s: %s' % (vmlinux, e), file=sys.stderr)
        return 1
    syms, bounds = [], []
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3:
            bounds.append(int(parts[0], 16))
            if parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
    addrs = [a for a, _ in syms]

    def name(m):
        a = int(m.group(1), 16)
        i = bisect.bisect_right(addrs, a) - 1
        if i < 0:
            return m.group(0)
        j = bisect.bisect_right(bounds, addrs[i])
        end = bounds[j] if j < len(bounds) else a + 1
        return '%s+0x%x/0x%x' % (syms[i][1], a - addrs[i], end - addrs[i])

    rule = crash_rule()
    on, shown = False, 0
    lines = kernel_lines(path)
    if lines is None:
        return 1
    for line in lines:
        if not on and rule.search(line):
            on = True
        if on and shown < 40:
            print(ADDR.sub(name, line))
            shown += 1
    return 0 if on else 1
