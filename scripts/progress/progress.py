#!/usr/bin/python3
"""make progress: each lab's last graded run, for the attendee; one small
file of it for the instructor; the room's table from a folder of those.

    progress.py mine LABS_DIR [OUT NAME]   < labs
        the attendee's labs, from LABS_DIR/NN/last-run.json (the record of
        each lab's last graded run: scripts/lib/runrecord.py; a lab graded
        by a kit older than the record, from its last-run.txt); with OUT,
        also writes the progress file OUT under the name NAME
    progress.py room DIR                   < labs
        the room's table, attendees x labs, from every progress file in DIR

"labs" on stdin: the kit's labs, one "NUMBER<TAB>STEPS<TAB>BOOTS<TAB>TITLE"
a line (scripts/progress/progress.sh reads them from labs/*/lab.conf and the
solutions' TODO markers; BOOTS as a progress file writes them).

The progress file (labs/README.md, "Where the room is") is lines of text:

    kit-progress 1
    # comment lines and blank lines are ignored
    name=Ada Lovelace
    written=2026-12-05T10:31:02
    lab=1 result=pass passed=5 steps=5 graded=2026-12-05T10:02:11 what=copy kernel=normal boots=default,apparmor
    lab=3 result=never

The first line is exactly "kit-progress 1".  A lab line is words
KEY=VALUE: result is pass, fail, trouble (a boot hung or crashed),
nograde (the grader graded no step), compile (does not compile), stopped
(no verdict: the run ended before one) or never (never graded; then no
other key); passed and steps with pass, fail and trouble; graded (when),
what (copy: the attendee's copy; reference: SOLUTION=1), kernel (the
flavour) and boots (lab.conf's BOOTS, a space inside one written "+";
kernel and boots are "?" when an older kit's transcript predates them)
with every result but never; lab_line_of() writes such a line of a
record, for the progress file and the room's post alike.  A lab the file
does not list counts as never run.  A lab line whose steps= or boots=
are not the lab's (lab.conf's BOOTS, the solution's steps: "5/5 pass" of
a lab of 6 steps is no pass), or anything else in a file, a lab this
kit does not have, a lab listed twice: the file is refused, named, with
its line.  In a folder (room), a file is
read only if it is a regular file (a symlink, a FIFO, a device or a
folder is refused without being opened, let alone followed), no content
of a file that is not a progress file is shown, every string a file
gives (its name too) goes through results.quoted() before it reaches the
terminal, and the table shows every good file with the refused ones
listed under it.  The tests are tests/host/progress.sh.
"""
import datetime
import getpass
import os
import re
import signal
import socket
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from kitpath import rel  # noqa: E402
from quote import quoted  # noqa: E402
from safefile import BadInput, write_whole  # noqa: E402
from runrecord import boot_names, load_last  # noqa: E402


class Refused(BadInput):
    """A wrong OUT= or NAME=: the message says what to give instead."""


MAGIC = 'kit-progress 1'
RESULTS = ('pass', 'fail', 'trouble', 'nograde', 'compile', 'stopped', 'never')
COUNTED = ('pass', 'fail', 'trouble')           # those with passed= and steps=
WHEN = re.compile(r'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$')
WORD = re.compile(r'^[A-Za-z0-9._+-]+$')
MAX_BYTES = 64 * 1024


class Lab(str):
    """A lab's title (a str, as the tables print it), with its steps (int)
    and boots (the list of a progress file's boots=)."""


def read_labs(stream):
    """{number: Lab} of the "NUMBER<TAB>STEPS<TAB>BOOTS<TAB>TITLE" lines
    on stdin."""
    labs = {}
    for line in stream:
        num, steps, boots, title = line.rstrip('\n').split('\t', 3)
        labs[int(num)] = Lab(title)
        labs[int(num)].steps = int(steps)
        labs[int(num)].boots = boots.split(',')
    return labs


def good_name(name):
    return (0 < len(name) <= 40 and name == name.strip() and
            all(c.isprintable() for c in name))


# ---- the attendee's side --------------------------------------------------

def mine(labs_dir, labs):
    """{lab: its last run's record or None (never graded)}; BadInput for
    the first record that is not one, or is another lab's."""
    out = {}
    for num in sorted(labs):
        folder = os.path.join(labs_dir, '%02d' % num)
        t = load_last(folder, rel(folder))
        if t is not None and t['lab'] != num:
            raise BadInput('%s holds the run of lab %d, not of lab %d' % (rel(folder), t['lab'], num))
        out[num] = t
    return out


def result_text(t):
    if t is None:
        return 'never run'
    r = t['verdict']
    if r == 'pass':
        return 'PASS %d/%d' % (t['passed'], t['steps'])
    if r == 'fail':
        return 'FAIL %d/%d' % (t['passed'], t['steps'])
    if r == 'trouble':
        return 'FAIL %d/%d, a boot went wrong' % (t['passed'], t['steps'])
    return {'nograde': 'FAIL, no step graded', 'compile': 'does not compile',
            'stopped': 'no verdict: stopped or running'}[r]


def cut(text, width):
    return text if len(text) <= width else text[:width - 3] + '...'


def show_mine(runs, labs):
    """One line per lab; under a graded one, its kernel and boots."""
    rows = [('lab', 'title', 'last graded run', 'when', None)]
    for num in sorted(labs):
        t = runs[num]
        if t is None:
            rows.append((str(num), cut(labs[num], 32), result_text(t), '', None))
            continue
        res = result_text(t)
        if t['graded'] == 'reference':
            res += ' (SOLUTION=1)'
        if t['flavour'] is None and t['boots'] is None:
            where = '(kernel and boots not recorded: a transcript older than make progress)'
        else:
            where = 'kernel %s; boots %s' % (t['flavour'] or '?',
                                             ', '.join(boot_names(t)) if t['boots'] else '?')
        rows.append((str(num), cut(labs[num], 32), res, t['when'][:16], where))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    print('Your labs: the last graded run of each (make lab N writes build/labs/NN/last-run.txt)')
    print()
    for r in rows:
        print(('  %*s  %-*s  %-*s  %s' % (widths[0], r[0], widths[1], r[1], widths[2], r[2],
                                          r[3])).rstrip())
        if r[4]:
            print('  %*s    %s' % (widths[0], '', r[4]))
    passed = sum(1 for t in runs.values() if t and t['verdict'] == 'pass' and t['graded'] == 'copy')
    never = sum(1 for t in runs.values() if t is None)
    print()
    print('  %d of %d labs pass with your copy; %d never graded.' % (passed, len(labs), never))


def lab_line_of(num, t):
    """The lab line of a progress file (and of the room's post) of lab
    NUM's last run T (a record, or None: never graded)."""
    if t is None:
        return 'lab=%d result=never' % num
    words = ['lab=%d' % num, 'result=' + t['verdict']]
    if t['verdict'] in COUNTED:
        words += ['passed=%d' % t['passed'], 'steps=%d' % t['steps']]
    names = boot_names(t)
    words += ['graded=' + t['when'].replace(' ', 'T'), 'what=' + t['graded'],
              'kernel=' + (t['flavour'] or '?'),
              'boots=' + (','.join(b.replace(' ', '+') for b in names) if names else '?')]
    return ' '.join(words)


def progress_lines(runs, name, now):
    lines = [MAGIC,
             '# make progress OUT=FILE wrote this for the instructor, who reads a folder of them',
             '# with make progress FROM=DIR (labs/README.md, "Where the room is")',
             'name=' + name, 'written=' + now]
    lines += [lab_line_of(num, runs[num]) for num in sorted(runs)]
    return ''.join(l + '\n' for l in lines)


def write_progress(out, text):
    """OUT, atomically; a file there that is not a progress file is kept."""
    shown = rel(out)
    if os.path.isdir(out):
        raise Refused('OUT=%s is a folder; give a file name, e.g. OUT=%s/progress-NAME.txt'
                       % (shown, shown.rstrip('/')))
    if os.path.exists(out):
        try:
            with open(out, 'rb') as f:
                first = f.readline(len(MAGIC) + 2)
        except OSError as e:
            raise Refused('OUT=%s cannot be read: %s; give another OUT=' % (shown, e.strerror))
        if first.rstrip(b'\n') != MAGIC.encode():
            raise Refused('OUT=%s exists and is not a progress file, so it was left as it is; '
                          'give another OUT=' % shown)
    try:
        write_whole(out, text, '%s.tmp-%d' % (out, os.getpid()))
    except OSError as e:
        raise Refused('OUT=%s cannot be written: %s; give another OUT=' % (shown, e.strerror))


# ---- the instructor's side --------------------------------------------------

def read_regular(path, shown):
    """The bytes of PATH if it is a regular file of at most MAX_BYTES, read
    without following a symlink (O_NOFOLLOW) and without blocking on a
    FIFO (O_NONBLOCK), the type checked on what was opened (fstat), not
    on the name; else BadInput (SHOWN, already quoted, names it)."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput('%s is %s, not a file: refused without reading it (FROM= holds '
                           'progress files only)' % (shown, kind_of(st.st_mode)))
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as e:
        raise BadInput('%s cannot be read: %s' % (shown, e.strerror))
    with os.fdopen(fd, 'rb') as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise BadInput('%s is %s, not a file: refused' % (shown, kind_of(st.st_mode)))
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise BadInput('%s is not a progress file of make progress: it is over %d KiB'
                       % (shown, MAX_BYTES // 1024))
    return data


def kind_of(mode):
    for test, what in ((stat.S_ISLNK, 'a symbolic link'), (stat.S_ISDIR, 'a folder'),
                       (stat.S_ISFIFO, 'a FIFO'), (stat.S_ISSOCK, 'a socket'),
                       (stat.S_ISCHR, 'a device'), (stat.S_ISBLK, 'a device')):
        if test(mode):
            return what
    return 'no regular file'


def lab_line(line, labs):
    """(number, {KEY: value}) of a lab line of a progress file (make
    room's posts are such a line too), checked against LABS (read_labs):
    ValueError says what is wrong, every string it quotes through
    quoted()."""
    run = {}
    for w in line.split(' '):
        k, eq, v = w.partition('=')
        if not eq or k in run or k not in ('lab', 'result', 'passed', 'steps', 'graded',
                                           'what', 'kernel', 'boots'):
            raise ValueError('%s is no KEY=VALUE of a lab line, or is given twice' % quoted(w, 40))
        run[k] = v
    if not run.get('lab', '').isdigit() or int(run['lab']) not in labs:
        raise ValueError('lab %s is no lab of this kit (its labs: %s)'
                         % (quoted(run.get('lab', '?'), 40), ', '.join(str(n) for n in sorted(labs))))
    num = int(run['lab'])
    r = run.get('result')
    if r not in RESULTS:
        raise ValueError('result=%s is none of %s' % (quoted(r or '', 40), ', '.join(RESULTS)))
    keys = {'lab', 'result'}
    if r != 'never':
        keys |= {'graded', 'what', 'kernel', 'boots'}
    if r in COUNTED:
        keys |= {'passed', 'steps'}
    if set(run) != keys:
        raise ValueError('a lab with result=%s has the keys %s, not %s'
                         % (r, ' '.join(sorted(keys)), ' '.join(sorted(run))))
    if r in COUNTED:
        if not (run['passed'].isdigit() and run['steps'].isdigit()):
            raise ValueError('passed= and steps= must be numbers')
        p, s = int(run['passed']), int(run['steps'])
        if p > s or (r == 'pass' and not p == s > 0):
            raise ValueError('passed=%d steps=%d do not add up for result=%s' % (p, s, r))
        run['passed'], run['steps'] = p, s
        if s != labs[num].steps:
            raise ValueError('steps=%d, but lab %d has %d steps: not a result of this kit\'s lab %d'
                             % (s, num, labs[num].steps, num))
    if r != 'never':
        if not WHEN.match(run['graded']):
            raise ValueError('graded= is not YYYY-MM-DDTHH:MM:SS')
        if run['what'] not in ('copy', 'reference'):
            raise ValueError('what= is neither copy nor reference')
        if not (WORD.match(run['kernel']) or run['kernel'] == '?'):
            raise ValueError('kernel= is not one word')
        if not all(WORD.match(b) for b in run['boots'].split(',')) and run['boots'] != '?':
            raise ValueError('boots= is not a list of stack names')
        if run['boots'] != '?' and run['boots'].split(',') != labs[num].boots:
            raise ValueError('boots=%s, but lab %d boots %s: not a run of this kit\'s lab %d'
                             % (run['boots'], num, ','.join(labs[num].boots), num))
    return num, run


def read_progress(path, shown, labs):
    """(name, written, {lab: dict}) of one progress file, or BadInput.
    Of a file whose first line is not MAGIC, nothing is shown: it may be
    anything the attendee put there."""
    try:
        text = read_regular(path, shown).decode('utf-8')
    except UnicodeDecodeError:
        raise BadInput('%s is not a progress file of make progress: it is not text' % shown)
    lines = text.split('\n')
    if lines[0] != MAGIC:
        raise BadInput('%s is not a progress file of make progress: its first line is not "%s"'
                       % (shown, MAGIC))
    name = written = None
    runs = {}

    def bad(i, why):
        return BadInput('%s, line %d: %s' % (shown, i, why))
    for i, line in enumerate(lines[1:], 2):
        if not line.strip() or line.startswith('#'):
            continue
        if line.startswith('name='):
            if name is not None or not good_name(line[5:]):
                raise bad(i, 'a second name= line' if name is not None else
                          'the name is empty, over 40 characters or not printable')
            name = line[5:]
            continue
        if line.startswith('written='):
            if written is not None or not WHEN.match(line[8:]):
                raise bad(i, 'a second written= line' if written is not None else
                          'written= is not YYYY-MM-DDTHH:MM:SS')
            written = line[8:]
            continue
        if not line.startswith('lab='):
            raise bad(i, '%s is no line of a progress file (name=, written= or lab=)' % quoted(line, 40))
        try:
            num, run = lab_line(line, labs)
        except ValueError as e:
            raise bad(i, str(e))
        if num in runs:
            raise bad(i, 'lab %d is listed twice' % num)
        runs[num] = run
    if name is None:
        raise BadInput('%s has no name= line: whose is it?' % shown)
    return name, written, runs


def cell(run):
    if run is None or run['result'] == 'never':
        return '.'
    if run['what'] == 'reference':
        return 'ref'
    r = run['result']
    if r in COUNTED:
        return '%d/%d%s' % (run['passed'], run['steps'], '!' if r == 'trouble' else '')
    return {'nograde': 'ng', 'compile': 'cc', 'stopped': '?'}[r]


def room(folder, labs):
    """The table of every good progress file in FOLDER, the refused ones
    listed under it; BadInput if there is no good one."""
    where = quoted(folder)
    if not os.path.isdir(folder):
        raise BadInput('FROM=%s is not a folder' % where)
    entries = sorted(e for e in os.listdir(folder) if not e.startswith('.'))
    errors, people = [], []
    for e in entries:
        path = os.path.join(folder, e)
        try:
            people.append((quoted(e),) + read_progress(path, quoted(path), labs))
        except BadInput as x:
            errors.append(str(x))
    if not people:
        raise BadInput('\n'.join(errors + ['FROM=%s holds no progress file (make progress OUT=FILE '
                                            'writes one on each laptop)' % where]))
    nums = sorted(labs)
    names = {}
    for p in people:
        names[p[1]] = names.get(p[1], 0) + 1
    rows = []
    for fname, name, written, runs in sorted(people, key=lambda p: (p[1].lower(), p[0])):
        label = quoted(name) if names[name] == 1 else '%s (%s)' % (quoted(name), fname)
        cells = [cell(runs.get(n)) for n in nums]
        done = sum(1 for n in nums if runs.get(n) and runs[n]['result'] == 'pass'
                   and runs[n]['what'] == 'copy')
        rows.append((label, cells, str(done), written.replace('T', ' ')[5:16] if written else '?'))
    allpass = [str(sum(1 for p in people if p[3].get(n) and p[3][n]['result'] == 'pass'
                       and p[3][n]['what'] == 'copy')) for n in nums]
    wn = max(len('attendee'), max(len(r[0]) for r in rows))
    wc = max(3, max(len(c) for r in rows for c in r[1]))
    print('The room: %d attendee(s), from %s; each lab\'s last graded run'
          % (len(people), where))
    print()
    head = '  %-*s ' % (wn, 'attendee') + ''.join(' %*s' % (wc, n) for n in nums)
    print(head + '  passed  written')
    for label, cells, done, written in rows:
        print('  %-*s ' % (wn, label) + ''.join(' %*s' % (wc, c) for c in cells) +
              '  %6s  %s' % (done, written))
    print('  %-*s ' % (wn, 'all pass') + ''.join(' %*s' % (wc, c) for c in allpass))
    print()
    print('  5/5 steps passed of the steps (their copy); 2/5! a boot hung or crashed;')
    print('  cc does not compile; ng no step graded; ? no verdict (stopped or running);')
    print('  ref the last run graded the reference solution (SOLUTION=1); . never run.')
    print('  passed: labs whose every step passes with their copy; all pass: attendees.')
    if errors:
        print()
        print('  Not in the table: %d file(s) of %s refused (take each out of the folder, or ask '
              'its attendee for a new one: make progress OUT=FILE):' % (len(errors), where))
        for e in errors:
            print('    ' + e)


ADVICE = {
    'mine': 'Run make lab N again (it writes that record anew) or remove the file named. '
            'Nothing was written.',
    'room': 'No table: not one file of the folder is a progress file of this kit. Take each '
            'file named out (or ask its attendee for a new one: make progress OUT=FILE).',
}


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)     # make progress | head
    mode = argv[0] if argv else ''
    try:
        labs = read_labs(sys.stdin)
        if len(argv) in (2, 4) and argv[0] == 'mine':
            runs = mine(argv[1], labs)
            if len(argv) == 4:
                out, name = argv[2], argv[3]
                if not name:
                    name = '%s@%s' % (getpass.getuser(), socket.gethostname().split('.')[0])
                if not good_name(name):
                    raise Refused('NAME=%s: a name is 1 to 40 printable characters, '
                                  'without spaces at either end; give another NAME=' % repr(name))
                now = datetime.datetime.now().strftime('%Y-%m-%dT%H:%M:%S')
                write_progress(out, progress_lines(runs, name, now))
            show_mine(runs, labs)
            if len(argv) == 4:
                print()
                print('kit: wrote %s for the instructor (name=%s); make progress FROM=DIR '
                      'shows a folder of them as a table' % (rel(argv[2]), name))
            return 0
        if len(argv) == 2 and argv[0] == 'room':
            room(argv[1], labs)
            return 0
    except BadInput as e:
        print(file=sys.stderr)
        for m in str(e).split('\n'):
            print('kit: error: %s' % m, file=sys.stderr)
        if not isinstance(e, Refused):
            print('     %s' % ADVICE.get(mode, ''), file=sys.stderr)
        return 1
    print('usage: progress.py mine LABS_DIR [OUT NAME] | room DIR  (labs on stdin)', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
