"""What a transcript of make lab (build/labs/NN/last-run.txt) written by a
kit older than the record of a graded run (runrecord.py) says of its run:
make progress and make labs read a lab that has no last-run.json with
transcript() (runrecord.load_last), so that the runs graded before the
kit was updated are still shown.  The kit itself writes no transcript
that anything reads back: this reads the wording of those older kits
(tests/data/progress/runs/*.txt), and is never changed with the
transcript's wording."""
import re

from safefile import BadInput


TRANSCRIPT_HEAD = re.compile(r'^lab ([0-9]+) \((.*)\), graded '
                             r'([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})$')
# The verdict lines the older kits' scripts/lab/report.sh wrote, last in
# the transcript.
VERDICTS = (
    (re.compile(r'^verdict: PASS ([0-9]+)/([0-9]+) steps$'), 'pass'),
    (re.compile(r'^verdict: FAIL ([0-9]+)/([0-9]+) steps$'), 'fail'),
    (re.compile(r'^verdict: FAIL, a boot went wrong \(([0-9]+)/([0-9]+) steps\)$'), 'trouble'),
    (re.compile(r'^verdict: FAIL, no step graded$'), 'nograde'),
    (re.compile(r'^verdict: does not compile$'), 'compile'),
)
GRADED = {'your copy': 'copy', 'the reference solution': 'reference'}


def transcript(path, shown=None):
    """What a transcript of an older make lab says of its run, as the
    fields of a record (runrecord.py) that make progress reads: lab
    (int), title, when ("YYYY-MM-DD HH:MM:SS"), graded (copy or
    reference), flavour and boots (a list of {"name": ...}; None in a
    transcript written before they were recorded), verdict (pass, fail,
    trouble, nograde, compile, or stopped: no verdict, the run ended
    before one), passed and steps (ints, or None).  Its head is the
    "key: value" lines above the first boot; its verdict, the last line
    (a run wrote it last, so a line of a program's output that looks like
    one is not taken).
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
    t = {'lab': int(m.group(1)), 'title': m.group(2), 'when': m.group(3), 'graded': None,
         'flavour': None, 'boots': None, 'verdict': 'stopped', 'passed': None, 'steps': None}
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
            t['graded'] = GRADED[value]
        elif key == 'flavour':
            t['flavour'] = value
        elif key == 'boots':
            t['boots'] = [{'name': b} for b in value.split(', ')]
    if t['graded'] is None:
        raise BadInput('%s has no line "graded: ..." (your copy or the reference solution): '
                       'it is not a whole transcript of make lab' % shown)
    last = lines[-1]
    if last.startswith('verdict: '):
        for rx, result in VERDICTS:
            v = rx.match(last)
            if v:
                t['verdict'] = result
                if v.groups():
                    t['passed'], t['steps'] = int(v.group(1)), int(v.group(2))
                break
        else:
            raise BadInput('%s: its verdict %s is none that make lab writes' % (shown, repr(last)))
        if t['passed'] is not None and (t['passed'] > t['steps'] or (
                t['verdict'] == 'pass' and not t['passed'] == t['steps'] > 0)):
            raise BadInput('%s: its verdict %s does not add up' % (shown, repr(last)))
    return t
