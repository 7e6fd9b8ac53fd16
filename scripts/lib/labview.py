"""A lab's variant graded from each boot's results channel: its record
(runrecord.py: OUT/run.json) and the VARIANT line that make lab's report
and lab.sh check read (scripts/lab/parse.sh)."""
import os
import re

from channel import read_lines, sections, tap
from quote import visible
import runrecord


# The runner's own statuses (their meaning: scripts/guest/run-guest.sh's head),
# in the learner's words.
TROUBLE = {
    124: 'the guest hung (no verdict within %s s)',
    125: 'the kernel panicked or warned',
    126: 'the guest stopped before the grader finished',
    127: 'QEMU could not start',
}
# The grader's banner, its first comment (labs/common/grader.h): shown
# for a boot whose results are the same as the first boot's.
BANNER = re.compile(r'^lab [0-9]+: ')


def lab(out, tag, timeout, boots):
    """Grade variant TAG from each boot's results (RC:FILE:LABEL)."""
    os.makedirs(out, exist_ok=True)
    rec = runrecord.empty(tag)
    per_boot, steps = [], 0
    for spec in boots:
        rc, path, label = spec.split(':', 2)
        rc = int(rc) if rc.isdigit() else 126
        sec = next((s for s in sections(read_lines(path)) if s.name == tag), None)
        plan, results, preamble = tap(sec.lines) if sec else (0, [], [])
        if sec is not None and sec.status is None and rc < 124:
            rc = 126
        b = runrecord.boot(label, status=rc)
        if rc >= 124:
            why = TROUBLE.get(rc, 'failed')
            b['trouble'] = why % timeout if '%' in why else why
        b['preamble'] = preamble
        b['banner'] = next((l for l in preamble if BANNER.match(l)), None)
        b['results'], b['passed'] = len(results), sum(1 for r in results if r.ok)
        per_boot.append((b, results))
        steps = max(steps, plan, max((r.num for r in results), default=0))
    bad, rp, rf = set(), 0, 0
    for b, results in per_boot:
        byn = {}
        for r in results:
            byn.setdefault(r.num, r)
        for k in range(1, steps + 1):
            r = byn.get(k)
            if r is None:
                b['steps'].append({'step': k, 'title': '', 'result': 'FAIL', 'never_graded': True,
                                   'hint': False, 'diags': []})
            else:
                b['steps'].append({'step': k, 'title': r.title, 'result': 'PASS' if r.ok else 'FAIL',
                                   'never_graded': False,
                                   'hint': any(not d.startswith('|') for d in r.diags),
                                   'diags': list(r.diags)})
            if r is not None and r.ok:
                rp += 1
            else:
                rf += 1
                bad.add(k)
        if steps == 0:
            rf += 1
        rec['boots'].append(b)
    rec.update(steps=steps, passed=steps - len(bad), failed_steps=sorted(bad),
               results_pass=rp, results_fail=rf)
    rec['verdict'] = runrecord.verdict_of(rec)
    return finish(out, rec)


def uncompiled(out, tag):
    """The record of variant TAG that did not compile: its compiler's
    messages (OUT/compile.txt)."""
    rec = runrecord.empty(tag)
    try:
        with open(os.path.join(out, 'compile.txt'), 'rb') as f:
            rec['compile'] = '\n'.join(visible(l) for l in f.read(1024 * 1024).split(b'\n'))
    except OSError:
        rec['compile'] = ''
    rec['verdict'] = runrecord.verdict_of(rec)
    return finish(out, rec)


def finish(out, rec):
    runrecord.write(os.path.join(out, 'run.json'), rec)
    print(runrecord.variant_line(rec))
    return 0
