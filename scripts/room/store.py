"""make room's database and what the page is made from: the attendees,
their runs, the roster, and each attendee's standing, kept up to date as
runs arrive (the page never reads the runs).  Used by server.py (the
room) and admin.py (make room-admin, room-export, room-reset).

The database (SQLite, mode 0600: it holds the room's key) keeps:

  meta        the key, the room's token, the instructor's token, where
              the room listens (for admin.py), the schema
  attendees   id, name (unique), gen (their secret's generation), when
              and from where they joined, merged_into (a name merged into
              another: its laptop's posts go to that one)
  roster      the names the instructor expects (make room ROSTER=FILE)
  runs        (attendee, id) each run once; lab, result, passed, steps,
              step, what, kernel, boots, graded (the laptop's clock), at
              (the room's clock: received - (sent - graded)), received,
              detail (what make lab showed under the failing step; kept
              only for each attendee's newest failing run of a lab)

Bounds: MAX_NAMES names that are not on the roster; MAX_RUNS runs an
attendee (the oldest go first: a day has some hundreds); MAX_TOTAL runs
and MAX_DB_BYTES in all, above which a post is refused for now (503: the
kit sends it again), and the room's terminal says why.
"""
import csv
import os
import re
import sqlite3
import stat
import threading
import time

import wire
from progress import good_name, read_labs

MAX_NAMES = 300
MAX_RUNS = 1000
MAX_TOTAL = 150000
MAX_DB_BYTES = 256 * 1024 * 1024
MAX_ROSTER = 500
SCHEMA_VERSION = '2'

SCHEMA = '''
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attendees (
    id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, gen INTEGER NOT NULL DEFAULT 0,
    joined REAL NOT NULL, addr TEXT NOT NULL DEFAULT '', merged_into INTEGER);
CREATE TABLE IF NOT EXISTS roster (name TEXT PRIMARY KEY, pos INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    attendee INTEGER NOT NULL, id TEXT NOT NULL, lab INTEGER NOT NULL, result TEXT NOT NULL,
    passed INTEGER, steps INTEGER, step INTEGER, title TEXT NOT NULL, detail TEXT NOT NULL,
    what TEXT NOT NULL, kernel TEXT NOT NULL, boots TEXT NOT NULL, graded TEXT NOT NULL,
    at REAL NOT NULL, received REAL NOT NULL, PRIMARY KEY (attendee, id));
CREATE INDEX IF NOT EXISTS runs_by_attendee ON runs (attendee, at);
'''
LITE = ('lab', 'result', 'passed', 'steps', 'step', 'what', 'at')


STEP = re.compile(r'^STEP\(([0-9]+),\s*"((?:[^"\\]|\\.)*)"\)')


class Kit:
    """The instructor's labs, as room.sh's room_table gives them: labs
    (progress.read_labs: {number: title with .steps and .boots}), minutes
    ({number: lab.conf's MINUTES}), steps ({(number, k): the grader's
    STEP(k, "title")})."""

    def __init__(self, stream):
        lines, self.minutes, self.steps = [], {}, {}
        for line in stream:
            f = line.rstrip('\n').split('\t')
            if f[0] == 'minutes':
                self.minutes[int(f[1])] = int(f[2])
            elif f[0] == 'grader':
                with open(f[2], encoding='utf-8', errors='replace') as g:
                    for m in filter(None, map(STEP.match, g)):
                        self.steps[(int(f[1]), int(m.group(1)))] = re.sub(r'\\(.)', r'\1', m.group(2))
            else:
                lines.append(line)
        self.labs = read_labs(lines)


class OldRoom(Exception):
    """The database is an older kit's room (no schema 2)."""


class Refused(Exception):
    """An admin request that cannot be done; the message says why."""


def private_file(path):
    """PATH as a regular file of mode 0600 (created if missing); OSError
    or ValueError (a link, not a regular file) otherwise."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
        return
    if not stat.S_ISREG(st.st_mode):
        raise ValueError('it is not a regular file (a link, a folder, a device?)')
    if stat.S_IMODE(st.st_mode) != 0o600:
        os.chmod(path, 0o600)


def standing(runs):
    """(lab, step, since, last) of one attendee's runs (oldest first):
    lab None: no run of their copy (SOLUTION=1 runs do not count); step
    None and since None: the last run passed; since: the room's time of
    their first failing run of the step they are on, going back from the
    last run of that lab up to a pass or a run that failed on another
    step (a run that did not compile, or stopped, keeps the step of the
    run before)."""
    copies = [r for r in runs if r['what'] == 'copy']
    if not copies:
        return None, None, None, None
    last = copies[-1]
    lab = last['lab']
    if last['result'] == 'pass':
        return lab, None, None, last
    mine = [r for r in copies if r['lab'] == lab]
    step = next((r['step'] for r in reversed(mine) if r['step'] is not None), None)
    streak = []
    for r in reversed(mine):
        if r['result'] == 'pass' or (r['step'] is not None and r['step'] != step):
            break
        streak.append(r)
    onstep = [r for r in streak if r['step'] == step] or streak
    return lab, step, min(r['at'] for r in onstep), last


class Person:
    """One attendee (or an absent roster name, id None) as the page shows
    them."""
    __slots__ = ('id', 'name', 'roster', 'joined', 'lab', 'step', 'since', 'last', 'last_at',
                 'cells', 'passed', 'runs')

    def __init__(self, who, name, joined):
        self.id, self.name, self.joined = who, name, joined
        self.roster = False
        self.lab = self.step = self.since = self.last = self.last_at = None
        self.cells, self.passed, self.runs = {}, set(), 0

    def update(self, runs):
        self.lab, self.step, self.since, self.last = standing(runs)
        self.last_at = runs[-1]['at'] if runs else None
        self.cells = {}
        self.passed = set()
        for r in runs:
            self.cells[r['lab']] = r
            if r['what'] == 'copy' and r['result'] == 'pass':
                self.passed.add(r['lab'])
        self.runs = len(runs)


class Store:
    """The database, and the standings made from it, behind one lock."""

    def __init__(self, path, labs, now=None):
        self.path = path
        self.labs = labs
        self.lock = threading.Lock()
        private_file(path)
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
        tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables:
            version = None
            if 'meta' in tables:
                row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
                version = row and row[0]
            if version != SCHEMA_VERSION:
                self.db.close()
                raise OldRoom(path)
        self.db.execute('PRAGMA journal_mode=WAL')
        self.db.execute('PRAGMA synchronous=FULL')
        self.db.executescript(SCHEMA)
        for side in ('-wal', '-shm'):
            if os.path.exists(path + side):
                os.chmod(path + side, 0o600)
        meta = dict(self.db.execute('SELECT key, value FROM meta'))
        fresh = {'schema': SCHEMA_VERSION, 'key': wire.nonce() + wire.nonce(),
                 'token': wire.new_token(), 'admin': wire.nonce() + wire.nonce()}
        for k, v in fresh.items():
            if k not in meta:
                self.db.execute('INSERT INTO meta (key, value) VALUES (?, ?)', (k, v))
                meta[k] = v
        self.key = meta['key']
        self.token = meta['token']
        self.admin_token = meta['admin']
        self.room_id = wire.room_id(self.key)
        self.version = 0            # bumped by every change the page shows
        self.load()

    # ---- the standings ----------------------------------------------------

    def load(self):
        """Every attendee's standing, from the database (at start-up, and
        after an admin change): the one scan of every run."""
        self.people, self.alias = {}, {}
        for who, name, joined, into in self.db.execute(
                'SELECT id, name, joined, merged_into FROM attendees'):
            if into is None:
                self.people[who] = Person(who, name, joined)
            else:
                self.alias[who] = into
        self.roster = [r[0] for r in self.db.execute('SELECT name FROM roster ORDER BY pos')]
        self.mark_roster()
        cur = self.db.cursor()
        cur.row_factory = sqlite3.Row
        who, runs = None, []
        for row in cur.execute('SELECT attendee, %s FROM runs ORDER BY attendee, at, received' % ', '.join(LITE)):
            if row[0] != who:
                if who in self.people:
                    self.people[who].update(runs)
                who, runs = row[0], []
            runs.append(row)
        if who in self.people:
            self.people[who].update(runs)
        self.total = self.db.execute('SELECT count(*) FROM runs').fetchone()[0]
        self.version += 1

    def mark_roster(self):
        names = set(self.roster)
        for p in self.people.values():
            p.roster = p.name in names
        self.version += 1

    def refresh(self, who):
        """Attendee WHO's standing again, from their runs only."""
        cur = self.db.cursor()
        cur.row_factory = sqlite3.Row
        self.people[who].update(cur.execute(
            'SELECT %s FROM runs WHERE attendee = ? ORDER BY at, received' % ', '.join(LITE), (who,)).fetchall())
        self.version += 1

    def snapshot(self):
        """(people, absent roster names, version): copies the page may read
        without the lock."""
        with self.lock:
            people = list(self.people.values())
            names = {p.name for p in people}
            absent = [n for n in self.roster if n not in names]
            return people, absent, self.version

    def person(self, who):
        with self.lock:
            return self.people.get(who)

    def runs_of(self, who, limit=50):
        """An attendee's newest LIMIT runs, newest first, and their last
        failing run of their copy (with its detail), for their page."""
        with self.lock:
            cols = ('lab', 'result', 'passed', 'steps', 'step', 'what', 'at', 'title', 'detail')
            runs = [dict(zip(cols, r)) for r in self.db.execute(
                'SELECT %s FROM runs WHERE attendee = ? ORDER BY at DESC, received DESC LIMIT ?'
                % ', '.join(cols), (who, limit))]
            row = self.db.execute(
                "SELECT %s FROM runs WHERE attendee = ? AND what = 'copy' AND result != 'pass' "
                'ORDER BY at DESC, received DESC LIMIT 1' % ', '.join(cols), (who,)).fetchone()
        return runs, dict(zip(cols, row)) if row else None

    # ---- attendees --------------------------------------------------------

    def secret(self, who):
        """(attendee the posts go to, their secret) of attendee id WHO, or
        None if the room does not know it."""
        with self.lock:
            row = self.db.execute('SELECT gen, merged_into FROM attendees WHERE id = ?', (who,)).fetchone()
        if row is None:
            return None
        return row[1] if row[1] is not None else who, wire.attendee_secret(self.key, who, row[0])

    def join(self, name, addr, now):
        """(status, message, attendee id or None, secret or None)."""
        with self.lock:
            row = self.db.execute('SELECT id FROM attendees WHERE name = ?', (name,)).fetchone()
            if row is not None:
                return (409, 'the name %s is taken in this room: if it is yours (another laptop, a '
                        'new checkout), ask the instructor (make room-admin), or join under another name'
                        % name, None, None)
            if name not in self.roster and \
                    sum(1 for p in self.people.values() if not p.roster) >= MAX_NAMES:
                return (503, 'the room is full (%d names not on its roster): the instructor is told; '
                        'the kit tries again' % MAX_NAMES, None, None)
            who = self.db.execute('INSERT INTO attendees (name, gen, joined, addr) VALUES (?, 0, ?, ?)',
                                  (name, now, addr)).lastrowid
            p = Person(who, name, now)
            p.roster = name in self.roster
            self.people[who] = p
            self.version += 1
            return 200, 'joined', who, wire.attendee_secret(self.key, who, 0)

    def name_of(self, who):
        with self.lock:
            p = self.people.get(who)
            return p.name if p else None

    # ---- runs -------------------------------------------------------------

    def full(self):
        """Why a post cannot be stored now (the room's own limits), or None."""
        if self.total >= MAX_TOTAL:
            return 'the room holds %d runs, its limit' % MAX_TOTAL
        try:
            size = os.stat(self.path).st_size + os.stat(self.path + '-wal').st_size
        except OSError:
            size = 0
        if size >= MAX_DB_BYTES:
            return 'the room\'s database is %d MB, its limit' % (size >> 20)
        return None

    def add(self, who, rec, num, run, at, now):
        """Store one checked run of attendee WHO: 'stored' or 'already
        stored'."""
        with self.lock:
            if who not in self.people:
                raise KeyError(who)
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                if self.db.execute('SELECT 1 FROM runs WHERE attendee = ? AND id = ?',
                                   (who, rec['id'])).fetchone():
                    return 'already stored'
                self.db.execute(
                    'INSERT INTO runs (attendee, id, lab, result, passed, steps, step, title, detail, '
                    'what, kernel, boots, graded, at, received) '
                    'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                    (who, rec['id'], num, run['result'], run.get('passed'), run.get('steps'),
                     rec['step'], rec['title'], rec['detail'], run['what'], run['kernel'],
                     run['boots'], run['graded'], at, now))
                self.total += 1
                # Only the newest failing run of a lab keeps its detail.
                self.db.execute(
                    "UPDATE runs SET detail = '' WHERE attendee = ? AND lab = ? AND detail != '' AND at < "
                    "(SELECT max(at) FROM runs WHERE attendee = ? AND lab = ? AND detail != '')",
                    (who, num, who, num))
                n = self.db.execute('SELECT count(*) FROM runs WHERE attendee = ?', (who,)).fetchone()[0]
                if n > MAX_RUNS:
                    gone = self.db.execute(
                        'DELETE FROM runs WHERE rowid IN (SELECT rowid FROM runs WHERE attendee = ? '
                        'ORDER BY at, received LIMIT ?)', (who, n - MAX_RUNS)).rowcount
                    self.total -= gone
            self.refresh(who)
            return 'stored'

    # ---- the instructor's changes (admin.py, through the server) ----------

    def _named(self, name):
        row = self.db.execute('SELECT id, merged_into FROM attendees WHERE name = ?', (name,)).fetchone()
        if row is None:
            raise Refused('no attendee is named %s' % name)
        if row[1] is not None:
            raise Refused('%s was merged into another name: change that one' % name)
        return row[0]

    def rename(self, old, new):
        if not good_name(new):
            raise Refused('a name is 1 to 40 printable characters, without spaces at either end')
        with self.lock:
            who = self._named(old)
            if self.db.execute('SELECT 1 FROM attendees WHERE name = ?', (new,)).fetchone():
                raise Refused('the name %s is taken (merge the two instead?)' % new)
            self.db.execute('UPDATE attendees SET name = ? WHERE id = ?', (new, who))
            self.people[who].name = new
            self.mark_roster()
        return 'renamed'

    def merge(self, src, dst):
        """SRC's runs become DST's; SRC's laptop posts as DST from now on."""
        with self.lock:
            a, b = self._named(src), self._named(dst)
            if a == b:
                raise Refused('a name cannot be merged into itself')
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                self.db.execute('DELETE FROM runs WHERE attendee = ? AND id IN '
                                '(SELECT id FROM runs WHERE attendee = ?)', (a, b))
                self.db.execute('UPDATE runs SET attendee = ? WHERE attendee = ?', (b, a))
                self.db.execute('UPDATE attendees SET merged_into = ? WHERE id = ? OR merged_into = ?',
                                (b, a, a))
            del self.people[a]
            for k, v in list(self.alias.items()):
                if v == a:
                    self.alias[k] = b
            self.alias[a] = b
            self.total = self.db.execute('SELECT count(*) FROM runs').fetchone()[0]
            self.refresh(b)
        return 'merged'

    def remove(self, name):
        """NAME, its runs and the names merged into it: gone; its laptop's
        secret no longer posts."""
        with self.lock:
            who = self._named(name)
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                gone = self.db.execute('DELETE FROM runs WHERE attendee = ?', (who,)).rowcount
                self.db.execute('DELETE FROM attendees WHERE id = ? OR merged_into = ?', (who, who))
            del self.people[who]
            self.alias = {k: v for k, v in self.alias.items() if v != who}
            self.total -= gone
            self.version += 1
        return 'removed'

    def set_roster(self, names):
        with self.lock:
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                self.db.execute('DELETE FROM roster')
                self.db.executemany('INSERT INTO roster (name, pos) VALUES (?, ?)',
                                    [(n, i) for i, n in enumerate(names)])
            self.roster = list(names)
            self.mark_roster()

    def set_meta(self, key, value):
        with self.lock:
            self.db.execute('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', (key, value))

    def listing(self):
        """(name, runs, joined, merged into or '', on the roster) of every
        name, and the absent roster names."""
        with self.lock:
            names = dict(self.db.execute('SELECT id, name FROM attendees'))
            counts = dict(self.db.execute('SELECT attendee, count(*) FROM runs GROUP BY attendee'))
            rows = [(n, counts.get(i, 0), j, names.get(m, '') if m is not None else '', n in self.roster)
                    for i, n, j, m in self.db.execute(
                        'SELECT id, name, joined, merged_into FROM attendees ORDER BY name')]
            absent = [n for n in self.roster if n not in set(names.values())]
        return rows, absent

    def reset(self, now):
        """The day so far kept as a file beside the database (its path
        returned); then no runs.  Names, roster and tokens stay: the
        laptops that joined post on."""
        with self.lock:
            keep = '%s-%s.sqlite' % (self.path[:-7] if self.path.endswith('.sqlite') else self.path,
                                     time.strftime('%Y-%m-%d-%H%M%S', time.localtime(now)))
            os.close(os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
            out = sqlite3.connect(keep)
            try:
                self.db.backup(out)
            finally:
                out.close()
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                self.db.execute('DELETE FROM runs')
            self.db.execute('VACUUM')
            for p in self.people.values():
                p.update([])
            self.total = 0
            self.version += 1
        return keep


# ---- the CSV of make room-export ---------------------------------------------

def csv_cell(v):
    """A cell as a spreadsheet may read it: a text that a spreadsheet would
    take for a formula (=, +, -, @, a tab or CR first) gets a ' first."""
    if isinstance(v, str) and v[:1] in ('=', '+', '-', '@', '\t', '\r'):
        return "'" + v
    return v


def export(db_path, labs, steps, out):
    """Every run of the room at DB_PATH, oldest first, then each name
    without a run and each roster name that never joined, as CSV on the
    text stream OUT; the number of runs."""
    db = sqlite3.connect('file:%s?mode=ro' % db_path.replace('?', '%3f').replace('#', '%23'), uri=True)
    try:
        names = dict(db.execute('SELECT id, name FROM attendees'))
        roster = {r[0] for r in db.execute('SELECT name FROM roster')}
        w = csv.writer(out, lineterminator='\n')
        w.writerow(['attendee', 'on the roster', 'lab', 'lab title', 'graded (room clock)', 'result',
                    'steps passed', 'steps', 'failing step', 'step title', 'what', 'kernel', 'boots'])
        n = 0
        for row in db.execute('SELECT attendee, lab, at, result, passed, steps, step, what, kernel, boots '
                              'FROM runs ORDER BY at, received'):
            who, lab, at, result, passed, nsteps, step, what, kernel, boots = row
            name = names.get(who, '?')
            w.writerow([csv_cell(x) for x in (
                name, 'yes' if name in roster else 'no', lab, labs.get(lab, '(not in this kit)'),
                time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(at)), result,
                '' if passed is None else passed, '' if nsteps is None else nsteps,
                '' if step is None else step, steps.get((lab, step), '') if step is not None else '',
                what, kernel, boots)])
            n += 1
        ran = {r[0] for r in db.execute('SELECT DISTINCT attendee FROM runs')}
        for name in sorted(n for i, n in names.items() if i not in ran):
            w.writerow([csv_cell(name), 'yes' if name in roster else 'no', '', '', '', 'no run', '', '', '', '',
                        '', '', ''])
        for name in sorted(roster - set(names.values())):
            w.writerow([csv_cell(name), 'yes', '', '', '', 'never joined', '', '', '', '', '', '', ''])
    finally:
        db.close()
    return n
