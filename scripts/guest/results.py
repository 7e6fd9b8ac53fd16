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

The tests of this file are tests/host/results.sh, on stored logs in
tests/data/ (walks: tests/host/why-svg.sh, on stored channels of why -t).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from channel import count, crash, done, oops, verdict  # noqa: E402
from labview import lab  # noqa: E402
from safefile import BadInput  # noqa: E402
from transcript import transcript  # noqa: E402
from walks import walks  # noqa: E402


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
