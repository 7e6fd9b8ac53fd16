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
                                    boot's results: its record (OUT/run.json,
                                    scripts/lib/runrecord.py); prints its
                                    VARIANT line (runrecord.variant_line)
    results.py uncompiled OUT TAG   the record of variant TAG that did
                                    not compile (OUT/compile.txt); prints
                                    its VARIANT line
    results.py record start DIR KEY=VALUE...
                                    make lab's run has begun: DIR/last-run.json
                                    (verdict stopped) and its transcript
                                    DIR/last-run.txt; KEYs lab, title,
                                    graded (copy, reference), source,
                                    sha256, console, flavour, and boot
                                    (NAME<TAB>LABEL) once a boot
    results.py record end DIR VARIANT KEY=VALUE...
                                    the run has ended: its record from the
                                    head and the variant's record VARIANT
                                    (run.json); the transcript, its TAP
                                    (last-run.tap), then the record; prints
                                    the boots as the learner sees them (a
                                    boot that went wrong: its line on
                                    stderr); KEYs kernel, stage
                                    (NAME:SECONDS:STATUS), report and oops
                                    (I:FILE, boot I from 0)
    results.py record variant|steps|boots|tap|show FILE
                                    a record's VARIANT line; its steps,
                                    "BOOT<TAB>STEP<TAB>PASS|FAIL<TAB>HINTED"
                                    a line; its boots as the transcript
                                    shows them; its TAP; its fields,
                                    "key=value" a line
    results.py record failure FILE [STEP]
                                    what the learner reads under each FAIL
                                    (of STEP), "BOOT<TAB>STEP<TAB>LINE": the
                                    title, then each diagnostic
    results.py record seconds FILE STAGE...
                                    the seconds of those stages, summed
    results.py record list LABS     the last run of each lab of LABS
                                    (build/labs), "NN<TAB>VERDICT" a line
                                    (make labs)

The tests of this file are tests/host/results.sh, on stored logs in
tests/data/ (walks: tests/host/why-svg.sh, on stored channels of why -t).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from channel import count, crash, done, oops, verdict  # noqa: E402
from quote import visible  # noqa: E402
from labview import lab, uncompiled  # noqa: E402
from safefile import BadInput  # noqa: E402
from walks import walks  # noqa: E402
import runrecord  # noqa: E402


def main(argv):
    usage = ('usage: results.py count FILE | done FILE NONCE | crash FILE | verdict CONSOLE CHANNEL NONCE | '
             'oops FILE VMLINUX | lab OUT TAG TIMEOUT RC:FILE:LABEL... | uncompiled OUT TAG | '
             'record start|end|variant|steps|boots|tap|show|failure|seconds|list ... | walks FILE')
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
    if len(argv) == 3 and argv[0] == 'uncompiled':
        return uncompiled(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == 'record':
        try:
            return record(argv[1:], usage)
        except BadInput as e:
            print('results.py: %s' % e, file=sys.stderr)
            return 1
    if len(argv) == 2 and argv[0] == 'walks':
        try:
            got = walks(argv[1])
        except BadInput as e:
            print('results.py: %s' % e, file=sys.stderr)
            return 1
        for c in got:
            for row in c['rows']:
                for lsm, cells in row['cells'].items():
                    for kind, value in cells:
                        print(c['k'], row['r'], row['hook'], lsm, kind, value)
        return 0
    print(usage, file=sys.stderr)
    return 2


def keys(args, known):
    """{KEY: [VALUE...]} of KEY=VALUE arguments, each KEY one of KNOWN; a
    byte that is not UTF-8 or a control character (a tab aside) in a
    VALUE is shown as \\xNN, as in a guest's channel (quote.visible)."""
    got = {}
    for a in args:
        k, eq, v = a.partition('=')
        if not eq or k not in known:
            raise BadInput('%s is no KEY=VALUE of %s' % (visible(os.fsencode(a))[:60], ', '.join(known)))
        got.setdefault(k, []).append(visible(os.fsencode(v)))
    return got


def indexed(values):
    """{I: the text of FILE} of I:FILE values (a file that cannot be read:
    what the kit could not read)."""
    out = {}
    for v in values:
        i, _, path = v.partition(':')
        if not i.isdigit():
            raise BadInput('%s is not I:FILE' % v)
        try:
            with open(path, 'rb') as f:
                out[int(i)] = '\n'.join(visible(l) for l in f.read(64 * 1024).split(b'\n'))
        except OSError as e:
            out[int(i)] = '(%s: %s)\n' % (path, e.strerror)
    return out


def record(argv, usage):
    """results.py record ...: write make lab's record, or render one."""
    sub, args = argv[0], argv[1:]
    if sub == 'start' and args:
        need = ('lab', 'title', 'graded', 'source', 'sha256', 'console', 'flavour')
        k = keys(args[1:], need + ('boot',))
        one = {n: v[-1] for n, v in k.items()}
        boots = [tuple(b.split('\t', 1)) for b in k.get('boot', [])]
        if (set(need) - set(one) or not one['lab'].isdigit() or one['graded'] not in runrecord.GRADED
                or any(len(b) != 2 for b in boots)):
            raise BadInput('record start needs %s=VALUE each (lab a number, graded copy or '
                           'reference), and boot=NAME<TAB>LABEL a boot' % '=, '.join(need))
        runrecord.start(args[0], int(one['lab']), one['title'], one['graded'], one['source'],
                        one['sha256'], one['console'], one['flavour'], boots)
        return 0
    if sub == 'end' and len(args) >= 2:
        k = keys(args[2:], ('kernel', 'stage', 'report', 'oops'))
        stages = []
        for s in k.get('stage', []):
            try:
                name, secs, status = s.split(':')
                stages.append((name, float(secs), int(status)))
            except ValueError:
                raise BadInput('stage=%s is not NAME:SECONDS:STATUS' % s)
        rec = runrecord.finish(args[0], runrecord.load(args[1]), (k.get('kernel') or [None])[-1],
                               stages, indexed(k.get('report', [])), indexed(k.get('oops', [])))
        if rec['verdict'] != 'compile':
            print('\n'.join(runrecord.boots_text(rec, terminal=True) + ['']))
        if rec['verdict'] == 'trouble':
            sys.stdout.flush()
            for line in runrecord.trouble_lines(rec):
                print('  ' + line, file=sys.stderr)
        return 0
    if sub == 'list' and len(args) == 1:
        for d in sorted(os.listdir(args[0])) if os.path.isdir(args[0]) else []:
            if not (len(d) == 2 and d.isdigit()):
                continue
            try:
                rec = runrecord.load_last(os.path.join(args[0], d), d)
            except BadInput:
                print('%s\tunreadable (make progress says why)' % d)
                continue
            if rec is not None:
                print('%s\t%s%s' % (d, runrecord.verdict_text(rec),
                                     ' (reference solution)' if rec['graded'] == 'reference' else ''))
        return 0
    if len(args) < 1:
        print(usage, file=sys.stderr)
        return 2
    rec = runrecord.load(args[0])
    if sub == 'variant' and len(args) == 1:
        print(runrecord.variant_line(rec))
    elif sub == 'steps' and len(args) == 1:
        for row in runrecord.step_rows(rec):
            print('%d\t%d\t%s\t%d' % row)
    elif sub == 'tap' and len(args) == 1:
        sys.stdout.write(runrecord.tap_text(rec))
    elif sub == 'boots' and len(args) == 1:
        print('\n'.join(runrecord.boots_text(rec)[1:]))
    elif sub == 'show' and len(args) == 1:
        for k in ('lab', 'title', 'graded', 'when', 'flavour', 'variant', 'verdict', 'passed', 'steps'):
            print('%s=%s' % (k, '' if rec[k] is None else rec[k]))
        print('boots=%s' % ', '.join(str(n) for n in runrecord.boot_names(rec)))
    elif sub == 'failure' and len(args) in (1, 2):
        for row in runrecord.failure(rec, int(args[1]) if len(args) == 2 else None):
            print('%d\t%d\t%s' % row)
    elif sub == 'seconds' and len(args) >= 2:
        print('%.1f' % sum(s['seconds'] for s in rec['stages'] if s['name'] in args[1:]))
    else:
        print(usage, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
