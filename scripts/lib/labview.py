"""A lab's variant graded from each boot's results: the learner's view
(boot-I.txt), result.tap, steps.tsv and the one result file that make
lab's report reads (scripts/lab/parse.sh)."""
import os

from channel import read_lines, sections, tap


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
    res = ['# scripts/lib/labview.py: variant %s, %d boot(s)' % (tag, len(boots)),
           'steps %d' % steps, 'passed %d' % (steps - len(bad)),
           'failed_steps %s' % ' '.join(str(k) for k in sorted(bad)),
           'results_pass %d' % rp, 'results_fail %d' % rf]
    res += ['boot %d %d %s' % (i + 1, b[0], b[1]) for i, b in enumerate(per_boot)]
    res += ['trouble %s' % t for t in trouble]
    with open(os.path.join(out, 'result'), 'w') as f:
        f.write(''.join(l + '\n' for l in res))
    return 0
