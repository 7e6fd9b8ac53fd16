#!/usr/bin/python3
"""The kit's one parser of what a guest (or a host suite) reports.

Everything comes back in one format: sections of TAP (kselftest's, which
the guest tests and the labs' graders print) between

    KIT-BEGIN <name>
    ... TAP: "1..N", "ok k title", "not ok k title", "# diagnostic" ...
    KIT-END <name> status=<n>

and, from the guest's init, one "KIT-DONE <nonce> status=<n>" line at the
end.  In a guest these lines come over a serial port of their own (ttyS1,
scripts/guest/run-guest.sh), so kernel messages are not in them; lines that carry
a kernel timestamp ("[    1.234] ...") are ignored all the same, so that a
console log can be read too.  A NUL or another control byte in a line is
shown as \\0 or \\xNN, never cut.

    results.py count FILE           FAIL and SKIP lines, then "COUNTS pass fail skip"
                                    (a skipped test without a name is named
                                    from the harness's "#  RUN NAME" line;
                                    a section "1..0 # SKIP why" is one skip)
    results.py done FILE NONCE      the status of "KIT-DONE NONCE status=n"
    results.py crash FILE           the first kernel line that breaks the
                                    crash rule (scripts/guest/crash.ere); exit 0
                                    if there is one, 1 if not
    results.py verdict CONSOLE CHANNEL NONCE
                                    both, in one start of Python (a tenth
                                    of a second each): "crash LINE" if
                                    CONSOLE breaks the rule, "status N"
                                    if CHANNEL has this boot's status line
                                    (run-guest.sh's verdict)
    results.py oops FILE VMLINUX    the kernel's report from the first crash
                                    line on, its addresses named from
                                    VMLINUX's symbols (the lab kernel has
                                    no kallsyms): 0xffffffff81234567 ->
                                    toylsm_inode_unlink+0x1c/0x60
    results.py lab OUT TAG TIMEOUT RC:FILE:LABEL...
                                    grade variant TAG of a lab from each
                                    boot's results: OUT/result (the one
                                    result: "KEY VALUE" lines, steps,
                                    passed, failed_steps, results_pass,
                                    results_fail, "boot I RC LABEL" a
                                    boot, "trouble TEXT" a boot that did
                                    not grade), OUT/result.tap,
                                    OUT/boot-I.txt (the learner's view),
                                    OUT/steps.tsv
    results.py transcript FILE      what make lab's transcript
                                    (build/labs/NN/last-run.txt) says of
                                    its run, one "key=value" a line: lab,
                                    title, graded, what, flavour, boots,
                                    result, passed, steps (make progress,
                                    scripts/progress/progress.py, reads it with
                                    transcript()); a file that is no
                                    transcript: its reason, exit 1

The tests of this file are tests/host/glue.sh, on stored logs in
tests/data/ (walks: tests/host/why-svg.sh, on stored channels of why -t).
"""
import contextlib
import io
import os
import re
import sys
import unicodedata

KERNEL_LINE = re.compile(r'^\[ *[0-9]+\.[0-9]+\] ')
RESULT = re.compile(r'^(not )?ok ([0-9]+)\b ?-? ?(.*)$')
PLAN = re.compile(r'^1\.\.([0-9]+)')
# The kselftest harness names a test on its "#  RUN NAME ..." line; its
# result line for a skip carries the reason only ("ok 4 # SKIP why").
RUN = re.compile(r'^#  RUN +(\S+) \.\.\.')
# A whole section skipped: "1..0 # SKIP why" (TAP's skip_all).
SKIP_ALL = re.compile(r'^1\.\.0\b\s*#\s*skip\b\s*(.*)$', re.I)
DIAG_KEYS = ('expected:', 'seen:', 'trace:', 'hint:', 'kit:', '|')
HERE = os.path.dirname(os.path.abspath(__file__))


def visible(raw):
    """bytes -> text, with NULs and control bytes (but tabs) made visible."""
    text = raw.decode('utf-8', errors='backslashreplace')
    out = []
    for c in text:
        if c == '\0':
            out.append('\\0')
        elif (ord(c) < 32 and c != '\t') or ord(c) == 127:
            out.append('\\x%02x' % ord(c))
        else:
            out.append(c)
    return ''.join(out)


# quoted(): the characters a terminal must not be given as they are.
C_ESCAPES = {'\a': '\\a', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f',
             '\r': '\\r', '"': '\\"', '\\': '\\\\'}


def hidden(c):
    """C cannot go to a terminal as it is: a control character (C0, DEL,
    C1: escape sequences, OSC 52 writes the clipboard), a format
    character (the bidi overrides and isolates that reorder what follows,
    zero-width ones), a line or paragraph separator, a byte that was not
    UTF-8 (a lone surrogate of surrogateescape), a private or unassigned
    code point."""
    return unicodedata.category(c) in ('Cc', 'Cf', 'Zl', 'Zp', 'Cs', 'Co', 'Cn')


def quoted(text, limit=None):
    """TEXT, a string from a file or a post someone else wrote (a name, a
    value, a file's own name), as the kit shows it on a terminal: the one
    quoting function for that (make progress, make room, make join).  As
    git's quote_path and GNU ls's c quoting: a string with no hidden
    character (hidden()), no backslash and no double quote is shown as
    it is; any other in double quotes, C escapes (\\n, \\t, \\", \\\\), a
    control byte in octal (ESC: \\033), a byte that was not UTF-8 as
    \\xNN, anything else hidden as \\uXXXX (U+202E, the right-to-left
    override: \\u202e).  LIMIT: cut to that many characters first
    ("..." added), never inside an escape."""
    if limit is not None and len(text) > limit:
        text = text[:max(limit - 3, 0)] + '...'
    if not any(hidden(c) or c in '"\\' for c in text):
        return text
    out = []
    for c in text:
        o = ord(c)
        if c in C_ESCAPES:
            out.append(C_ESCAPES[c])
        elif 0xdc80 <= o <= 0xdcff:
            out.append('\\x%02x' % (o - 0xdc00))
        elif o < 0x20 or o == 0x7f:
            out.append('\\%03o' % o)
        elif hidden(c):
            out.append('\\u%04x' % o if o <= 0xffff else '\\U%08x' % o)
        else:
            out.append(c)
    return '"%s"' % ''.join(out)


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
    A '# key: ...' line after a result is that result's diagnostic."""
    plan, results, preamble, running = 0, [], [], None
    for line in lines:
        m = PLAN.match(line)
        if m:
            plan += int(m.group(1))
            continue
        m = RESULT.match(line)
        if m:
            title = m.group(3)
            if running and (not title or title.startswith('#')):
                title = (running + ' ' + title).rstrip()
            running = None
            results.append(Result(not m.group(1), int(m.group(2)), title))
            continue
        m = RUN.match(line)
        if m:
            running = m.group(1)
        if line.startswith('#'):
            body = line[2:] if line.startswith('# ') else line[1:]
            if results and body.lstrip().startswith(DIAG_KEYS):
                results[-1].diags.append(body)
            elif not results:
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
    with open(os.path.join(HERE, 'crash.ere')) as f:
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


# The runner's own statuses (their meaning: scripts/guest/run-guest.sh's head),
# in the learner's words.
TROUBLE = {
    124: 'the guest hung (no verdict within %s s)',
    125: 'the kernel panicked or warned',
    126: 'the guest stopped before the grader finished',
    127: 'QEMU could not start',
}


def lab(out, tag, timeout, boots):
    """Grade variant TAG from each boot's results (RC:FILE:LABEL)."""
    os.makedirs(out, exist_ok=True)
    per_boot, steps, trouble = [], 0, []
    for i, spec in enumerate(boots):
        rc, path, label = spec.split(':', 2)
        rc = int(rc) if rc.isdigit() else 126
        sec = next((s for s in sections(read_lines(path)) if s.name == tag), None)
        plan, results, preamble = tap(sec.lines) if sec else (0, [], [])
        if sec is not None and sec.status is None and rc < 124:
            rc = 126
        per_boot.append((rc, label, plan, results, preamble))
        steps = max(steps, plan, max((r.num for r in results), default=0))
        if rc >= 124:
            why = TROUBLE.get(rc, 'failed')
            trouble.append('boot %d (%s): %s' % (i + 1, label, why % timeout if '%' in why else why))
    bad, n, rp, rf = set(), 0, 0, 0
    tapl = ['1..%d' % (steps * len(boots) if steps else len(boots))]
    tsv = []
    for i, (rc, label, plan, results, preamble) in enumerate(per_boot):
        byn = {}
        for r in results:
            byn.setdefault(r.num, r)
        view = list(preamble)
        for k in range(1, steps + 1):
            n += 1
            r = byn.get(k)
            if r is None:
                tapl.append('not ok %d boot %d step %d: never graded' % (n, i + 1, k))
                view.append('FAIL  %d/%d  (never graded: the grader stopped before this step)'
                            % (k, steps))
                rf += 1
                bad.add(k)
                tsv.append('%d\t%d\tFAIL\t0' % (i + 1, k))
                continue
            word = 'PASS' if r.ok else 'FAIL'
            tapl.append('%s %d boot %d step %d: %s'
                        % ('ok' if r.ok else 'not ok', n, i + 1, k, r.title))
            tapl.extend('# ' + d for d in r.diags)
            view.append('%s  %d/%d  %s' % (word, k, steps, r.title))
            view.extend('        ' + d for d in r.diags)
            hinted = any(not d.startswith('|') for d in r.diags)
            tsv.append('%d\t%d\t%s\t%d' % (i + 1, k, word, hinted))
            if r.ok:
                rp += 1
            else:
                rf += 1
                bad.add(k)
        if steps == 0:
            n += 1
            tapl.append('not ok %d boot %d: the grader printed nothing' % (n, i + 1))
            rf += 1
        if results:
            view.append('%d of %d steps pass' % (sum(1 for r in results if r.ok), steps))
        with open(os.path.join(out, 'boot-%d.txt' % (i + 1)), 'w') as f:
            f.write(''.join(l + '\n' for l in view))
    with open(os.path.join(out, 'result.tap'), 'w') as f:
        f.write(''.join(l + '\n' for l in tapl))
    with open(os.path.join(out, 'steps.tsv'), 'w') as f:
        f.write(''.join(l + '\n' for l in tsv))
    # The one result of the variant, which make lab's report and exit
    # status read (scripts/lab/parse.sh, read_result): "KEY VALUE" lines.
    res = ['# scripts/guest/results.py lab: variant %s, %d boot(s)' % (tag, len(boots)),
           'steps %d' % steps, 'passed %d' % (steps - len(bad)),
           'failed_steps %s' % ' '.join(str(k) for k in sorted(bad)),
           'results_pass %d' % rp, 'results_fail %d' % rf]
    res += ['boot %d %d %s' % (i + 1, b[0], b[1]) for i, b in enumerate(per_boot)]
    res += ['trouble %s' % t for t in trouble]
    with open(os.path.join(out, 'result'), 'w') as f:
        f.write(''.join(l + '\n' for l in res))
    return 0


def write_whole(path, text, tmp):
    """TEXT into PATH whole or not at all: written to TMP (a name in the
    same folder), then renamed over PATH.  OSError (TMP removed) if it
    cannot be."""
    try:
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class BadInput(Exception):
    """A file that is not what it should be; the message names it."""


TRANSCRIPT_HEAD = re.compile(r'^lab ([0-9]+) \((.*)\), graded '
                             r'([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})$')
# The verdict lines scripts/lab/report.sh writes, last in the transcript.
VERDICTS = (
    (re.compile(r'^verdict: PASS ([0-9]+)/([0-9]+) steps$'), 'pass'),
    (re.compile(r'^verdict: FAIL ([0-9]+)/([0-9]+) steps$'), 'fail'),
    (re.compile(r'^verdict: FAIL, a boot went wrong \(([0-9]+)/([0-9]+) steps\)$'), 'trouble'),
    (re.compile(r'^verdict: FAIL, no step graded$'), 'nograde'),
    (re.compile(r'^verdict: does not compile$'), 'compile'),
)
GRADED = {'your copy': 'copy', 'the reference solution': 'reference'}


def transcript(path, shown=None):
    """What a transcript of make lab says of its run, as a dict:
    lab (int), title, graded ("YYYY-MM-DD HH:MM:SS"), what (copy or
    reference), flavour and boots (list; None in a transcript written
    before they were recorded), result (pass, fail, trouble, nograde,
    compile, or stopped: no verdict, the run ended before one), passed
    and steps (ints, or None).  Its head is the "key: value" lines above
    the first boot; its verdict, the last line (a run writes it last, so
    a line of a program's output that looks like one is not taken).
    BadInput names the file (as SHOWN) and the line that is wrong."""
    shown = shown or path
    try:
        with open(path, 'rb') as f:
            data = f.read()
    except OSError as e:
        raise BadInput('%s cannot be read: %s' % (shown, e.strerror))
    try:
        lines = data.decode('utf-8').split('\n')
    except UnicodeDecodeError:
        raise BadInput('%s is not a transcript of make lab: it is not text' % shown)
    if lines and lines[-1] == '':
        lines.pop()
    m = TRANSCRIPT_HEAD.match(lines[0]) if lines else None
    if not m:
        raise BadInput('%s is not a transcript of make lab: its first line is %s, not '
                       '"lab N (TITLE), graded YYYY-MM-DD HH:MM:SS"'
                       % (shown, repr(lines[0][:60]) if lines else 'missing (the file is empty)'))
    t = {'lab': int(m.group(1)), 'title': m.group(2), 'graded': m.group(3), 'what': None,
         'flavour': None, 'boots': None, 'result': 'stopped', 'passed': None, 'steps': None}
    for line in lines[1:]:
        if line.startswith('== boot '):
            break
        key, sep, value = line.partition(': ')
        if not sep:
            continue
        if key == 'graded':
            if value not in GRADED:
                raise BadInput('%s: "graded: %s" is neither "your copy" nor "the reference solution"'
                               % (shown, value))
            t['what'] = GRADED[value]
        elif key == 'flavour':
            t['flavour'] = value
        elif key == 'boots':
            t['boots'] = value.split(', ')
    if t['what'] is None:
        raise BadInput('%s has no line "graded: ..." (your copy or the reference solution): '
                       'it is not a whole transcript of make lab' % shown)
    last = lines[-1]
    if last.startswith('verdict: '):
        for rx, result in VERDICTS:
            v = rx.match(last)
            if v:
                t['result'] = result
                if v.groups():
                    t['passed'], t['steps'] = int(v.group(1)), int(v.group(2))
                break
        else:
            raise BadInput('%s: its verdict %s is none that make lab writes' % (shown, repr(last)))
        if t['passed'] is not None and (t['passed'] > t['steps'] or (
                t['result'] == 'pass' and not t['passed'] == t['steps'] > 0)):
            raise BadInput('%s: its verdict %s does not add up' % (shown, repr(last)))
    return t


WALK_BEGIN = re.compile(r'^why-walk begin ([0-9a-f]{16})$')
CELL_KINDS = ('yes', 'no', 'never', 'notref', 'value', 'called', 'framework')
ROW_KINDS = ('walk', 'alone', 'framework', 'void', 'open')


def walks(path, shown=None):
    """The walk tables of the last "why-walk begin TOKEN" block of a
    channel (or any file) that ends with its "why-walk end TOKEN N": a
    list of calls, each a dict: k, pid, sys, ret (int), verdict ("ok",
    an errno's name, "unfinished"), comm, cols (the modules in walk
    order), rows (each a dict: r, hook, kind, cells: {lsm: [(kind,
    value)]}, a framework row's one cell under "*", its value the errno
    and the reason), refused ((row, lsm, errno, hook) or None),
    unrefused (why no LSM refused it, or None).  Lines with another
    token (a command's output that looks like the table) are not read.
    BadInput names the line that is wrong, or says there is no table."""
    shown = shown or path
    lines = read_lines(path)
    start = None
    for i, line in enumerate(lines):
        if WALK_BEGIN.match(line):
            start = i
    if start is None:
        raise BadInput('%s has no walk table (no line "why-walk begin TOKEN": '
                       'was why run with -t, and did it finish?)' % shown)
    token = WALK_BEGIN.match(lines[start]).group(1)
    calls, byk, end = [], {}, None
    for n, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith('why-walk end '):
            m = re.match(r'^why-walk end %s ([0-9]+)$' % token, line)
            if m:
                end = int(m.group(1))
                break
            continue
        if not line.startswith('why-walk %s ' % token):
            continue
        f = line.split(' ')
        what = f[2] if len(f) > 2 else ''

        def bad(why):
            return BadInput('%s, line %d: %s: %s' % (shown, n, why, line[:100]))
        try:
            k = int(f[3])
            if what == 'call':
                if len(f) < 9:
                    raise bad('a call line has 7 fields')
                c = {'k': k, 'pid': int(f[4]), 'sys': f[5], 'ret': int(f[6]),
                     'verdict': f[7], 'comm': ' '.join(f[8:]), 'cols': [],
                     'rows': [], 'refused': None, 'unrefused': None}
                if k in byk:
                    raise bad('call %d twice' % k)
                byk[k] = c
                calls.append(c)
                continue
            if k not in byk:
                raise bad('no call %d before it' % k)
            c = byk[k]
            if what == 'cols':
                c['cols'] = f[4:]
            elif what == 'row':
                if len(f) != 7 or f[6] not in ROW_KINDS or int(f[4]) != len(c['rows']) + 1:
                    raise bad('not the next row, "row K R HOOK KIND"')
                c['rows'].append({'r': int(f[4]), 'hook': f[5], 'kind': f[6], 'cells': {}})
            elif what == 'cell':
                r = int(f[4])
                if len(f) < 8 or f[6] not in CELL_KINDS or not 1 <= r <= len(c['rows']):
                    raise bad('not a cell of a row, "cell K R LSM KIND VALUE"')
                if f[5] != '*' and f[5] not in c['cols']:
                    raise bad('module %s is no column of call %d' % (f[5], k))
                c['rows'][r - 1]['cells'].setdefault(f[5], []).append(
                    (f[6], ' '.join(f[7:])))
            elif what == 'refused':
                if len(f) != 8 or not 1 <= int(f[4]) <= len(c['rows']):
                    raise bad('not "refused K R LSM ERRNO HOOK"')
                c['refused'] = (int(f[4]), f[5], f[6], f[7])
            elif what == 'unrefused':
                c['unrefused'] = ' '.join(f[4:])
            else:
                raise bad('no such line of the table')
        except (ValueError, IndexError):
            raise bad('a number is missing where the table has one')
    if end is None:
        raise BadInput('%s: the walk table that begins on line %d has no end line '
                       '(why -t was cut short)' % (shown, start + 1))
    if end != len(calls):
        raise BadInput('%s: the walk table says %d call(s) and has %d' % (shown, end, len(calls)))
    return calls


def main(argv):
    usage = 'usage: results.py count FILE | done FILE NONCE | crash FILE | verdict CONSOLE CHANNEL NONCE | oops FILE VMLINUX | lab OUT TAG TIMEOUT RC:FILE:LABEL... | transcript FILE | walks FILE'
    if len(argv) >= 2 and argv[0] == 'count':
        return count(argv[1])
    if len(argv) == 3 and argv[0] == 'done':
        return done(argv[1], argv[2])
    if len(argv) == 2 and argv[0] == 'crash':
        return crash(argv[1])
    if len(argv) == 4 and argv[0] == 'verdict':
        return verdict(argv[1], argv[2], argv[3])
    if len(argv) == 3 and argv[0] == 'oops':
        return oops(argv[1], argv[2])
    if len(argv) >= 5 and argv[0] == 'lab':
        return lab(argv[1], argv[2], argv[3], argv[4:])
    if len(argv) == 2 and argv[0] in ('transcript', 'walks'):
        try:
            got = (transcript if argv[0] == 'transcript' else walks)(argv[1])
        except BadInput as e:
            print('results.py: %s' % e, file=sys.stderr)
            return 1
        if argv[0] == 'transcript':
            for k, v in got.items():
                print('%s=%s' % (k, ', '.join(v) if isinstance(v, list) else ('' if v is None else v)))
            return 0
        for c in got:
            for row in c['rows']:
                for lsm, cells in row['cells'].items():
                    for kind, value in cells:
                        print(c['k'], row['r'], row['hook'], lsm, kind, value)
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
