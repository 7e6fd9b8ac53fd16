"""The record of a graded run: what make lab found, once, as data.

make lab writes one record per run, build/labs/NN/last-run.json, and
one per variant it grades, build/labs/NN/TAG/run.json (lab.sh check
grades several in the same boots; a run grades one).  Everything else a
run leaves is rendered from it here: the transcript (last-run.txt, as
the learner read it before the record existed), its TAP
(last-run.tap), the boots on the terminal, the VARIANT line of lab.sh
check (which make lab's own report reads too: scripts/lab/parse.sh
read_result), the line make labs shows; make progress
(scripts/progress/progress.py) and the room's post
(scripts/room/client.py record_of) read the record's fields.  No
reader parses the text a renderer wrote, so a change of wording is a
change of one renderer.

The record is JSON (docs/hacking.md, "The record of a graded run"):

    {"kit-record": 1,
     "lab": 2, "title": "...", "graded": "copy" | "reference",
     "when": "2026-12-05 10:15:52", "source": "labs/02-.../work/b.c",
     "sha256": "9f1d0c2e77a1b3c4", "console": "build/logs/guest-lab-02-run-b*.log",
     "flavour": "normal", "kernel": "build/bzImage of ..." | null,
     "stages": [{"name": "config", "seconds": 0.3, "status": 0}, ...],
     "variant": "work", "verdict": "fail", "steps": 6, "passed": 3,
     "failed_steps": [4, 5, 6], "results_pass": 9, "results_fail": 9,
     "compile": null | "the compiler's messages",
     "boots": [{"name": "default", "label": "default LSMs", "status": 0,
                "trouble": null | "the guest hung (...)",
                "preamble": ["lab 2: ...; this boot: ..."], "banner": "lab 2: ..." | null,
                "results": 6, "passed": 3,
                "steps": [{"step": 1, "title": "...", "result": "PASS",
                           "never_graded": false, "hint": false, "diags": ["seen: ..."]}],
                "report": null | "the runner's report", "oops": null | "..."}]}

A variant's record has the same keys, the run's (lab to stages) null or
empty.  verdict: pass, fail, trouble (a boot hung, crashed or stopped),
nograde (no step graded), compile (does not compile), stopped (no
verdict: the run stopped or is running; the record make lab writes
first).
"""
import datetime
import json
import os
import re

from safefile import BadInput, write_whole

FORMAT = 1
VERDICTS = ('pass', 'fail', 'trouble', 'nograde', 'compile', 'stopped')
COUNTED = ('pass', 'fail', 'trouble')           # with passed and steps
GRADED = {'copy': 'your copy', 'reference': 'the reference solution'}
WHEN = re.compile(r'^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$')
MAX_BYTES = 16 * 1024 * 1024
NEVER = '(never graded: the grader stopped before this step)'
RECORD, TRANSCRIPT, TAP = 'last-run.json', 'last-run.txt', 'last-run.tap'


def empty(variant):
    """A record with nothing known yet."""
    return {'kit-record': FORMAT, 'lab': None, 'title': None, 'graded': None, 'when': None,
            'source': None, 'sha256': None, 'console': None, 'flavour': None, 'kernel': None,
            'stages': [], 'variant': variant, 'verdict': 'stopped', 'steps': 0, 'passed': 0,
            'failed_steps': [], 'results_pass': 0, 'results_fail': 0, 'compile': None,
            'boots': []}


def boot(label, name=None, status=None):
    return {'name': name, 'label': label, 'status': status, 'trouble': None, 'preamble': [],
            'banner': None, 'results': 0, 'passed': 0, 'steps': [], 'report': None,
            'oops': None}


def verdict_of(rec):
    """The verdict of a graded variant, as make lab gives it."""
    if rec['compile'] is not None:
        return 'compile'
    if any(b['trouble'] for b in rec['boots']):
        return 'trouble'
    if rec['steps'] == 0:
        return 'nograde'
    if rec['passed'] == rec['steps'] and rec['results_fail'] == 0:
        return 'pass'
    return 'fail'


# ---- reading and writing -----------------------------------------------------

def write(path, rec):
    write_whole(path, json.dumps(rec, indent=1, ensure_ascii=False) + '\n',
                '%s.tmp-%d' % (path, os.getpid()))


def _is(v, kind):
    return isinstance(v, kind) and not (kind is int and isinstance(v, bool))


def load(path, shown=None):
    """The record in PATH, its types checked; BadInput names the file (as
    SHOWN) and what is wrong."""
    shown = shown or path
    try:
        with open(path, 'rb') as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise BadInput('%s cannot be read: %s' % (shown, e.strerror))
    if len(data) > MAX_BYTES:
        raise BadInput('%s is not a record of make lab: it is over %d MiB'
                       % (shown, MAX_BYTES // 1024 // 1024))
    try:
        rec = json.loads(data.decode('utf-8'))
    except (UnicodeDecodeError, ValueError):
        raise BadInput('%s is not a record of make lab: it is not JSON' % shown)
    if not isinstance(rec, dict) or rec.get('kit-record') != FORMAT:
        raise BadInput('%s is not a record of make lab (format %d)' % (shown, FORMAT))
    why = problem(rec)
    if why:
        raise BadInput('%s: %s' % (shown, why))
    return rec


def problem(rec):
    """What is wrong with REC, or None."""
    want = empty('')
    if set(rec) != set(want):
        return 'its keys are not a record\'s (%s)' % ', '.join(sorted(set(rec) ^ set(want)))
    for k in ('lab', 'title', 'graded', 'when', 'source', 'sha256', 'console', 'flavour',
              'kernel', 'compile'):
        if rec[k] is not None and not _is(rec[k], int if k == 'lab' else str):
            return '%s has the wrong type' % k
    for k in ('steps', 'passed', 'results_pass', 'results_fail'):
        if not _is(rec[k], int) or rec[k] < 0:
            return '%s is not a count' % k
    if not _is(rec['variant'], str) or rec['verdict'] not in VERDICTS:
        return 'its variant or verdict is not one make lab writes'
    if rec['graded'] is not None and rec['graded'] not in GRADED:
        return 'graded is neither copy nor reference'
    if rec['when'] is not None and not WHEN.match(rec['when']):
        return 'when is not YYYY-MM-DD HH:MM:SS'
    if rec['passed'] > rec['steps'] or (rec['verdict'] == 'pass' and not
                                         rec['passed'] == rec['steps'] > 0):
        return 'passed=%d steps=%d do not add up for %s' % (rec['passed'], rec['steps'],
                                                            rec['verdict'])
    if not (isinstance(rec['failed_steps'], list) and all(_is(k, int) for k in rec['failed_steps'])):
        return 'failed_steps is not a list of steps'
    if not isinstance(rec['stages'], list) or not all(
            isinstance(s, dict) and _is(s.get('name'), str) and _is(s.get('status'), int) and
            isinstance(s.get('seconds'), (int, float)) for s in rec['stages']):
        return 'stages is not a list of stages'
    if not isinstance(rec['boots'], list):
        return 'boots is not a list'
    for b in rec['boots']:
        if not isinstance(b, dict) or set(b) != set(boot('')):
            return 'a boot is not a boot of a record'
        if not _is(b['label'], str) or not all(
                b[k] is None or _is(b[k], str) for k in ('name', 'trouble', 'banner', 'report', 'oops')):
            return 'a boot\'s text has the wrong type'
        if (b['status'] is not None and not _is(b['status'], int)) or not (
                _is(b['results'], int) and _is(b['passed'], int)):
            return 'a boot\'s status or counts are not numbers'
        if not (isinstance(b['preamble'], list) and all(_is(l, str) for l in b['preamble'])):
            return 'a boot\'s preamble is not lines'
        if not isinstance(b['steps'], list) or len(b['steps']) != (rec['steps'] if b['steps'] else 0):
            return 'a boot does not list every step'
        for k, s in enumerate(b['steps'], 1):
            if not (isinstance(s, dict) and s.get('step') == k and _is(s.get('title'), str) and
                    s.get('result') in ('PASS', 'FAIL') and isinstance(s.get('never_graded'), bool)
                    and isinstance(s.get('hint'), bool) and isinstance(s.get('diags'), list) and
                    all(_is(d, str) for d in s['diags'])):
                return 'step %d of a boot is not a step of a record' % k
    return None


def load_last(folder, shown):
    """The record of lab folder FOLDER (build/labs/NN): its last-run.json;
    else, from a kit older than the record, its last-run.txt read by
    transcript.py; else None (never graded).  SHOWN: FOLDER as a message
    names it."""
    path = os.path.join(folder, RECORD)
    if os.path.exists(path):
        return load(path, os.path.join(shown, RECORD))
    old = os.path.join(folder, TRANSCRIPT)
    if os.path.exists(old):
        from transcript import transcript
        return transcript(old, os.path.join(shown, TRANSCRIPT))
    return None


def boot_names(rec):
    """The boots as lab.conf names them, or None (a transcript older than
    make progress did not record them)."""
    if rec['boots'] is None:
        return None
    return [b['name'] for b in rec['boots']]


# ---- the run: first the head, then the whole --------------------------------

def start(folder, lab, title, graded, source, sha256, console, flavour, boots):
    """The record of a run that has begun (verdict stopped), and its
    transcript (the head): BOOTS, (name, label) each."""
    rec = empty('work' if graded == 'copy' else 'solution')
    rec.update(lab=lab, title=title, graded=graded, source=source, sha256=sha256,
               console=console, flavour=flavour,
               when=datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S'),
               boots=[boot(label, name) for name, label in boots])
    save(folder, rec)
    return rec


def finish(folder, variant, kernel, stages, reports, oopses):
    """The record of a run that ended, from its head (written by start())
    and the record of the variant it graded; transcript, TAP, record, in
    that order: the record last.  STAGES: (name, seconds, status);
    REPORTS, OOPSES: {boot index: text}."""
    rec = load(os.path.join(folder, RECORD))
    names = [b['name'] for b in rec['boots']]
    for k in ('variant', 'verdict', 'steps', 'passed', 'failed_steps', 'results_pass',
              'results_fail', 'compile'):
        rec[k] = variant[k]
    if variant['compile'] is None:
        if len(variant['boots']) != len(names):
            raise BadInput('the variant was graded in %d boot(s), the run has %d'
                           % (len(variant['boots']), len(names)))
        rec['boots'] = variant['boots']
        for i, b in enumerate(rec['boots']):
            b['name'] = names[i]
            if b['status'] is not None and b['status'] >= 124:
                b['report'], b['oops'] = reports.get(i, ''), oopses.get(i, '')
        rec['kernel'] = kernel
        rec['stages'] = [{'name': n, 'seconds': s, 'status': st} for n, s, st in stages]
    save(folder, rec, with_tap=variant['compile'] is None)
    return rec


def save(folder, rec, with_tap=False):
    write_whole(os.path.join(folder, TRANSCRIPT), transcript_text(rec),
                os.path.join(folder, '.%s.tmp-%d' % (TRANSCRIPT, os.getpid())))
    if with_tap:
        write_whole(os.path.join(folder, TAP), tap_text(rec),
                    os.path.join(folder, '.%s.tmp-%d' % (TAP, os.getpid())))
    write(os.path.join(folder, RECORD), rec)


# ---- renderings ---------------------------------------------------------------

def lines_of(text):
    """The lines of TEXT as cat shows them (a last newline ends a line)."""
    if not text:
        return []
    return (text[:-1] if text.endswith('\n') else text).split('\n')


def step_title(s):
    return NEVER if s['never_graded'] else s['title']


def view(b, steps):
    """Boot B's results as the learner reads them: its comments, a line
    per step with the diagnostics under it, the count."""
    out = list(b['preamble'])
    for s in b['steps']:
        out.append('%s  %d/%d  %s' % (s['result'], s['step'], steps, step_title(s)))
        out.extend('        ' + d for d in s['diags'])
    if b['results']:
        out.append('%d of %d steps pass' % (b['passed'], steps))
    return out


def verdict_text(rec):
    """The verdict as the transcript's last line says it, without
    "verdict: "; '' for a run without one."""
    v, counts = rec['verdict'], '%s/%s steps' % (rec['passed'], rec['steps'])
    return {'pass': 'PASS ' + counts, 'fail': 'FAIL ' + counts,
            'trouble': 'FAIL, a boot went wrong (%s)' % counts,
            'nograde': 'FAIL, no step graded', 'compile': 'does not compile',
            'stopped': ''}[v]


def trouble_lines(rec):
    return ['boot %d (%s): %s' % (i + 1, b['label'], b['trouble'])
            for i, b in enumerate(rec['boots']) if b['trouble']]


def boots_text(rec, terminal=False):
    """Every boot under its header; on the terminal (TERMINAL), a later
    boot with the same results as the first is one line."""
    out = []
    first = rec['boots'][0] if rec['boots'] else None
    for i, b in enumerate(rec['boots']):
        out += ['', '== boot %d of %d: %s ==' % (i + 1, len(rec['boots']), b['label'])]
        shown = view(b, rec['steps'])
        if terminal and i > 0 and (b['status'] or 0) < 124 and shown and same(b, first):
            out += [b['banner']] if b['banner'] is not None else []
            out.append('(the same results as boot 1)')
        else:
            out += shown
        if b['report'] is not None:     # a run's boot that went wrong (finish())
            out.append("-- the runner's report --")
            out += lines_of(b['report']) + lines_of(b['oops'])
    return out


def same(a, b):
    """A and B give the learner the same results (their banners aside)."""
    def results(x):
        return ([l for l in x['preamble'] if l != x['banner']], x['steps'], x['results'] > 0,
                x['passed'])
    return results(a) == results(b)


def transcript_text(rec):
    """The transcript (build/labs/NN/last-run.txt): the run's head, then
    the compiler's messages or the kernel, the stages and every boot,
    then the verdict."""
    out = ['lab %d (%s), graded %s' % (rec['lab'], rec['title'], rec['when']),
           'source: %s (sha256 %s)' % (rec['source'], rec['sha256']),
           'graded: %s' % GRADED[rec['graded']],
           'console logs: %s' % rec['console'],
           'flavour: %s' % rec['flavour'],
           'boots: %s' % ', '.join(boot_names(rec))]
    if rec['verdict'] == 'compile':
        out += ['compile: FAILED'] + lines_of(rec['compile'])
    elif rec['verdict'] != 'stopped':
        out.append('kernel: %s' % rec['kernel'])
        out.append('stages: %s' % '; '.join('%s %.1f s (status %d)' % (s['name'], s['seconds'],
                                                                        s['status'])
                                            for s in rec['stages']))
        out += boots_text(rec)
    if rec['verdict'] != 'stopped':
        out.append('verdict: ' + verdict_text(rec))
    return ''.join(l + '\n' for l in out)


def tap_text(rec):
    """The variant's results as TAP: a test per boot and step."""
    steps, n = rec['steps'], 0
    out = ['1..%d' % (steps * len(rec['boots']) if steps else len(rec['boots']))]
    for i, b in enumerate(rec['boots']):
        for s in b['steps']:
            n += 1
            if s['never_graded']:
                out.append('not ok %d boot %d step %d: never graded' % (n, i + 1, s['step']))
                continue
            out.append('%s %d boot %d step %d: %s' % ('ok' if s['result'] == 'PASS' else 'not ok',
                                                       n, i + 1, s['step'], s['title']))
            out.extend('# ' + d for d in s['diags'])
        if steps == 0:
            n += 1
            out.append('not ok %d boot %d: the grader printed nothing' % (n, i + 1))
    return ''.join(l + '\n' for l in out)


def variant_line(rec):
    """The VARIANT line of lab.sh check (without its dir=): what
    tests/host/labs.sh and lab-hints.sh, and make lab's own report
    (scripts/lab/parse.sh read_result), read of a graded variant."""
    if rec['verdict'] == 'compile':
        return 'VARIANT %s compile=fail verdict=compile' % rec['variant']
    return ('VARIANT %s compile=ok verdict=%s steps=%d boots=%d passed=%d failed_steps=%s '
            'results_pass=%d results_fail=%d trouble=%s'
            % (rec['variant'], rec['verdict'], rec['steps'], len(rec['boots']), rec['passed'],
               ','.join(str(k) for k in rec['failed_steps']), rec['results_pass'],
               rec['results_fail'], 'yes' if rec['verdict'] == 'trouble' else 'no'))


def step_rows(rec):
    """(boot, step, PASS or FAIL, whether a hint is shown) of every boot
    and step."""
    return [(i + 1, s['step'], s['result'], s['hint'])
            for i, b in enumerate(rec['boots']) for s in b['steps']]


def failure(rec, step=None):
    """(boot, step, line) of what the learner reads under each FAIL (of
    STEP only, if given): its title, then its diagnostics."""
    out = []
    for i, b in enumerate(rec['boots']):
        for s in b['steps']:
            if s['result'] == 'FAIL' and step in (None, s['step']):
                out.append((i + 1, s['step'], step_title(s)))
                out.extend((i + 1, s['step'], d) for d in s['diags'])
    return out


def first_failure(rec):
    """(step, title, diagnostics) of the first failing step, in the first
    boot that fails it; None if no step fails."""
    for k in sorted(rec['failed_steps']):
        for b in rec['boots']:
            for s in b['steps']:
                if s['step'] == k and s['result'] == 'FAIL':
                    return k, step_title(s), s['diags']
    return None
