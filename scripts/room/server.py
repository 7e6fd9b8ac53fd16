#!/usr/bin/python3
"""make room: the instructor's room, a small web server (Python's
http.server and sqlite3, nothing else) that stores every graded run the
attendees' kits send (make join) and serves the page the projector shows.

    server.py DB BIND PORT < labs        (scripts/room/room.sh runs it)

labs: progress.py's "NUMBER<TAB>STEPS<TAB>BOOTS<TAB>TITLE" lines, of the
instructor's kit: a post is checked against them (progress.lab_line).

    GET  /             the room: attendees x labs, the step each is on and
                       how long they have been stuck there, the longest
                       stuck first; reloads itself every REFRESH seconds
    GET  /a/N          attendee N: their last FAIL (the step, what make
                       lab showed under it) and their runs
    GET  /api/ping     with the token: {"ok": true} (make join's check)
    POST /api/result   with the token ("Authorization: Bearer TOKEN"): one
                       record (scripts/room/record.py); 200 stored (or
                       already stored), 400 refused (the reason), 401 no or
                       a wrong token, 413 too big, 429 too many, 503 busy

Stuck: the attendee's last run of their copy (SOLUTION=1 runs do not
count) names the lab and the step they are on (its first failing step;
a run that did not compile, or stopped, keeps the step of the run before).
They have been stuck since their first failing run of that step: going
back from the last run of that lab, up to a pass or a run that failed on
another step.  A pass: not stuck.  Times are the room's clock
(record.py: now - (sent - graded)), so a laptop's clock does not matter.

The database (DB) keeps the token, the attendees and every run: a
restart loses nothing and keeps the token.  Bounds: MAX_ATTENDEES names,
MAX_RUNS runs each, record.MAX_BODY bytes a post, RATE posts a minute a
name and RATE_ADDR an address, MAX_BUSY requests at once, TIMEOUT s a
request.  Every string a post gave is escaped: html.escape() on the page
(after results.quoted(), so a control or bidi character shows as its
escape), quoted() on the terminal.  SQL only with parameters.
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402  nothing written beside the kit's scripts
import base64
import hashlib
import hmac
import html
import http.server
import json
import os
import re
import secrets
import signal
import socketserver
import sqlite3
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
sys.path.insert(0, HERE)
from progress import cell, read_labs  # noqa: E402
from record import MAX_BODY, check, parse_when  # noqa: E402
from quote import quoted  # noqa: E402

REFRESH = 15
MAX_ATTENDEES = 300
MAX_RUNS = 3000
RATE = 30
RATE_ADDR = 600
MAX_BUSY = 16
TIMEOUT = 10

SCHEMA = '''
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attendees (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, attendee INTEGER NOT NULL REFERENCES attendees(id),
    lab INTEGER NOT NULL, result TEXT NOT NULL, passed INTEGER, steps INTEGER,
    step INTEGER, title TEXT NOT NULL, detail TEXT NOT NULL, what TEXT NOT NULL,
    kernel TEXT NOT NULL, boots TEXT NOT NULL, graded TEXT NOT NULL,
    at REAL NOT NULL, received REAL NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_attendee ON runs (attendee, at);
'''


class Room:
    """The database, behind one lock."""

    def __init__(self, path, labs):
        self.labs = labs
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute('PRAGMA journal_mode=WAL')
        self.db.execute('PRAGMA synchronous=FULL')
        self.db.executescript(SCHEMA)
        row = self.db.execute('SELECT value FROM meta WHERE key = ?', ('token',)).fetchone()
        if row:
            self.token = row[0]
        else:
            self.token = secrets.token_urlsafe(18)
            self.db.execute('INSERT INTO meta (key, value) VALUES (?, ?)', ('token', self.token))
        self.rates = {}

    def allowed(self, key, limit, now):
        """At most LIMIT posts a minute for KEY (a name, an address)."""
        times = [t for t in self.rates.get(key, []) if now - t < 60]
        if len(times) >= limit:
            self.rates[key] = times
            return False
        times.append(now)
        self.rates[key] = times
        if len(self.rates) > 10 * MAX_ATTENDEES:      # forget the idle ones
            self.rates = {k: v for k, v in self.rates.items() if v and now - v[-1] < 60}
        return True

    def store(self, rec, addr):
        """(HTTP status, message) of one post, the record parsed (JSON)."""
        try:
            num, run = check(rec, self.labs)
        except ValueError as e:
            return 400, str(e)
        now = time.time()
        try:
            age = (parse_when(rec['sent']) - parse_when(run['graded'])).total_seconds()
        except ValueError:
            return 400, 'graded or sent is no date'
        if age < 0:
            return 400, 'graded is after sent'
        with self.lock:
            if not self.allowed(('addr', addr), RATE_ADDR, now) or not self.allowed(('name', rec['name']), RATE, now):
                return 429, 'too many results a minute; the kit sends it again later'
            with self.db:
                self.db.execute('BEGIN IMMEDIATE')
                if self.db.execute('SELECT 1 FROM runs WHERE id = ?', (rec['id'],)).fetchone():
                    return 200, 'already stored'
                row = self.db.execute('SELECT id FROM attendees WHERE name = ?', (rec['name'],)).fetchone()
                if row is None:
                    if self.db.execute('SELECT count(*) FROM attendees').fetchone()[0] >= MAX_ATTENDEES:
                        return 400, 'the room is full (%d attendees)' % MAX_ATTENDEES
                    who = self.db.execute('INSERT INTO attendees (name) VALUES (?)', (rec['name'],)).lastrowid
                else:
                    who = row[0]
                    if self.db.execute('SELECT count(*) FROM runs WHERE attendee = ?',
                                       (who,)).fetchone()[0] >= MAX_RUNS:
                        return 400, 'this attendee has %d results already' % MAX_RUNS
                self.db.execute(
                    'INSERT INTO runs (id, attendee, lab, result, passed, steps, step, title, detail, '
                    'what, kernel, boots, graded, at, received) '
                    'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                    (rec['id'], who, num, run['result'], run.get('passed'), run.get('steps'),
                     rec['step'], rec['title'], rec['detail'], run['what'], run['kernel'],
                     run['boots'], run['graded'], now - age, now))
        return 200, 'stored'

    def snapshot(self):
        """{attendee id: (name, [runs as dicts, oldest first])}."""
        with self.lock:
            names = dict(self.db.execute('SELECT id, name FROM attendees').fetchall())
            cur = self.db.execute('SELECT attendee, lab, result, passed, steps, step, title, detail, '
                                  'what, graded, at FROM runs ORDER BY attendee, at, received')
            cols = [d[0] for d in cur.description]
            rows = [dict(zip(cols, r)) for r in cur.fetchall()]
        out = {i: (n, []) for i, n in names.items()}
        for r in rows:
            out[r['attendee']][1].append(r)
        return out


def standing(runs, now):
    """(lab, step, stuck seconds or None, since, last run) of one
    attendee's runs (oldest first); lab None: no run of their copy."""
    copies = [r for r in runs if r['what'] == 'copy']
    if not copies:
        return None, None, None, None, None
    last = copies[-1]
    lab = last['lab']
    if last['result'] == 'pass':
        return lab, None, None, None, last
    mine = [r for r in copies if r['lab'] == lab]
    step = next((r['step'] for r in reversed(mine) if r['step'] is not None), None)
    streak = []
    for r in reversed(mine):
        if r['result'] == 'pass' or (r['step'] is not None and r['step'] != step):
            break
        streak.append(r)
    onstep = [r for r in streak if r['step'] == step] or streak
    since = min(r['at'] for r in onstep)
    return lab, step, max(0.0, now - since), since, last


def duration(secs):
    m = int(secs // 60)
    return '%d min' % m if m < 60 else '%d h %02d min' % (m // 60, m % 60)


def clock(t, now):
    """HH:MM of T, with the date if it is not NOW's day."""
    lt = time.localtime(t)
    same = lt[:3] == time.localtime(now)[:3]
    return time.strftime('%H:%M' if same else '%m-%d %H:%M', lt)


def esc(text, limit=None):
    """A string a post gave, for HTML: its hidden characters shown as
    results.quoted() shows them, then HTML-escaped."""
    return html.escape(quoted(text, limit), quote=True)


def result_word(r):
    if r['result'] in ('pass', 'fail', 'trouble'):
        return '%s %d/%d%s' % ('PASS' if r['result'] == 'pass' else 'FAIL', r['passed'], r['steps'],
                               ' (a boot went wrong)' if r['result'] == 'trouble' else '')
    return {'nograde': 'FAIL, no step graded', 'compile': 'does not compile',
            'stopped': 'no verdict'}[r['result']]


STYLE = '''body{font-family:sans-serif;margin:1em;background:#fff;color:#111}
h1{font-size:1.6em;margin:0 0 .4em}h1 small{font-weight:normal;color:#555;font-size:.6em}
table{border-collapse:collapse;font-size:1.15em}
th,td{border:1px solid #bbb;padding:.25em .5em;text-align:center;unicode-bidi:isolate}
td.name,td.on{text-align:left}
tr.s10 td.stuck{background:#ffe08a}tr.s20 td.stuck{background:#ff9b8a;font-weight:bold}
td.pass{background:#c8f0c8}td.fail{background:#fff3f0}td.ref{color:#777}
a{color:#114;text-decoration:none}p.legend{color:#444;font-size:.9em}
pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap}'''
STYLE_HASH = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
CSP = ("default-src 'none'; style-src 'sha256-%s'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'" % STYLE_HASH)


def page(title, body, refresh=True):
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            + ('<meta http-equiv="refresh" content="%d">\n' % REFRESH if refresh else '')
            + '<title>%s</title>\n<style>%s</style></head>\n<body>\n%s\n</body></html>\n'
            % (html.escape(title), STYLE, body))


def room_page(room, now):
    people = room.snapshot()
    nums = sorted(room.labs)
    rows = []
    for who, (name, runs) in people.items():
        lab, step, stuck, since, last = standing(runs, now)
        lastof = {}
        for r in runs:
            lastof[r['lab']] = r
        rows.append((-(stuck if stuck is not None else -1), name.lower(), who, name, lab, step,
                     stuck, since, last, lastof))
    rows.sort(key=lambda r: r[:3])
    out = ['<h1>The room <small>%d attendee(s); %s; the longest stuck first; reloads every %d s</small></h1>'
           % (len(rows), time.strftime('%H:%M:%S', time.localtime(now)), REFRESH),
           '<table id="room"><thead><tr><th>attendee</th><th>on</th><th>stuck</th><th>since</th>'
           '<th>last run</th>' + ''.join('<th>%d</th>' % n for n in nums) + '</tr></thead><tbody>']
    for _, _, who, name, lab, step, stuck, since, last, lastof in rows:
        cls = ''
        if stuck is not None:
            cls = ' class="s20"' if stuck >= 20 * 60 else ' class="s10"' if stuck >= 10 * 60 else ''
        if lab is None:
            on = 'only SOLUTION=1 runs'
        elif step is None and stuck is None:
            on = 'lab %d passed' % lab
        elif step is None:
            on = 'lab %d' % lab
        else:
            on = 'lab %d, step %d of %d' % (lab, step, room.labs[lab].steps)
        cells = []
        for n in nums:
            r = lastof.get(n)
            c = cell(r) if r else '.'
            kind = '' if r is None else ' class="ref"' if r['what'] == 'reference' else \
                ' class="pass"' if r['result'] == 'pass' else ' class="fail"'
            cells.append('<td%s>%s</td>' % (kind, html.escape(c)))
        out.append('<tr%s data-stuck="%s"><td class="name"><a href="/a/%d">%s</a></td><td class="on">%s</td>'
                   '<td class="stuck">%s</td><td>%s</td><td>%s</td>%s</tr>'
                   % (cls, '' if stuck is None else int(stuck), who, esc(name), html.escape(on),
                      '' if stuck is None else duration(stuck),
                      '' if since is None else clock(since, now),
                      html.escape(result_word(last)) if last else '', ''.join(cells)))
    out.append('</tbody></table>')
    out.append('<p class="legend">stuck: since the first failing run of the step they are on '
               '(yellow 10 min, red 20 min); a name opens their last FAIL. Cells: each lab\'s last '
               'run, steps passed of the steps; cc does not compile; ng no step graded; ? no verdict; '
               'ref SOLUTION=1; . never sent.</p>')
    return page('The room', '\n'.join(out))


def attendee_page(room, who, now):
    people = room.snapshot()
    if who not in people:
        return None
    name, runs = people[who]
    fails = [r for r in runs if r['result'] != 'pass' and r['what'] == 'copy']
    out = ['<h1>%s</h1><p><a href="/">back to the room</a></p>' % esc(name)]
    if fails:
        r = fails[-1]
        head = 'lab %d (%s), graded %s: %s' % (r['lab'], room.labs[r['lab']], r['graded'].replace('T', ' '),
                                                result_word(r))
        out.append('<h2>The last FAIL</h2><p>%s</p>' % html.escape(head))
        if r['step'] is not None:
            out.append('<p>FAIL step %d of %d: %s</p>' % (r['step'], r['steps'], esc(r['title'], 200)))
        out.append('<pre>%s</pre>' % '\n'.join(esc(l) for l in r['detail'].split('\n')))
    else:
        out.append('<p>No failing run of their copy.</p>')
    out.append('<h2>Runs, newest first</h2><table><tr><th>lab</th><th>graded</th><th>result</th>'
               '<th>step</th></tr>')
    for r in reversed(runs[-50:]):
        out.append('<tr><td>%d</td><td>%s</td><td>%s%s</td><td>%s</td></tr>'
                   % (r['lab'], html.escape(r['graded'].replace('T', ' ')), html.escape(result_word(r)),
                      ' (SOLUTION=1)' if r['what'] == 'reference' else '',
                      '' if r['step'] is None else r['step']))
    out.append('</table>')
    return page('%s: the room' % quoted(name), '\n'.join(out), refresh=False)


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = 'kit-room'
    sys_version = ''
    timeout = TIMEOUT
    protocol_version = 'HTTP/1.0'

    def log_message(self, fmt, *args):
        # The request line is the client's: quoted, as everything else.
        sys.stderr.write('room: %s %s\n' % (self.client_address[0], quoted(fmt % args, 300)))

    def send(self, status, body, ctype='application/json'):
        data = body.encode('utf-8')
        self.send_response(status)
        self.send_header('Content-Type', ctype + '; charset=utf-8')
        self.send_header('Content-Length', str(len(data)))
        self.send_header('Cache-Control', 'no-store')
        self.send_header('X-Content-Type-Options', 'nosniff')
        self.send_header('Referrer-Policy', 'no-referrer')
        if ctype == 'text/html':
            self.send_header('Content-Security-Policy', CSP)
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(data)

    def reply(self, status, message, **more):
        self.send(status, json.dumps(dict(ok=status == 200, message=message, **more)) + '\n')

    def authorised(self):
        given = self.headers.get('Authorization', '')
        ok = given.startswith('Bearer ') and hmac.compare_digest(
            given[7:].strip().encode('utf-8', 'replace'), self.server.room.token.encode())
        if not ok:
            self.reply(401, 'no token or a wrong one: make join ROOM=... TOKEN=... NAME=... with the '
                       'token make room printed')
        return ok

    def busy(fn):
        def wrapped(self):
            if not self.server.slots.acquire(timeout=2):
                self.reply(503, 'the room is busy; the kit sends it again later')
                return
            try:
                fn(self)
            finally:
                self.server.slots.release()
        return wrapped

    @busy
    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        now = time.time()
        if path == '/':
            self.send(200, room_page(self.server.room, now), 'text/html')
        elif re.fullmatch(r'/a/[0-9]{1,9}', path):
            body = attendee_page(self.server.room, int(path[3:]), now)
            if body is None:
                self.send(404, page('No such attendee', '<p>No such attendee. <a href="/">The room</a></p>',
                                    refresh=False), 'text/html')
            else:
                self.send(200, body, 'text/html')
        elif path == '/api/ping':
            if self.authorised():
                self.reply(200, 'the room answers')
        else:
            self.send(404, page('Not found', '<p>Nothing here. <a href="/">The room</a></p>', refresh=False),
                      'text/html')

    do_HEAD = do_GET

    @busy
    def do_POST(self):
        if urllib.parse.urlsplit(self.path).path != '/api/result':
            self.reply(404, 'POST /api/result only')
            return
        if not self.authorised():
            return
        try:
            size = int(self.headers.get('Content-Length', ''))
        except ValueError:
            self.reply(411, 'a Content-Length is needed')
            return
        if not 0 < size <= MAX_BODY:
            self.reply(413, 'a result is at most %d bytes' % MAX_BODY)
            return
        try:
            rec = json.loads(self.rfile.read(size).decode('utf-8'))
        except (ValueError, UnicodeDecodeError):
            self.reply(400, 'not JSON (UTF-8)')
            return
        status, message = self.server.room.store(rec, self.client_address[0])
        if status == 200 and message == 'stored':
            r = rec
            sys.stderr.write('room: %s: %s\n' % (quoted(r['name']), quoted(r['line'], 120)))
        self.reply(status, message)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 64


def main(argv):
    signal.signal(signal.SIGINT, lambda *a: sys.exit(0))
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    if len(argv) != 3 or not argv[2].isdigit():
        print('usage: server.py DB BIND PORT < labs', file=sys.stderr)
        return 2
    db, bind, port = argv[0], argv[1], int(argv[2])
    labs = read_labs(sys.stdin)
    try:
        room = Room(db, labs)
    except sqlite3.Error as e:
        print('kit: error: the room\'s database %s cannot be used: %s' % (quoted(db), e), file=sys.stderr)
        return 1
    try:
        srv = Server((bind, port), Handler)
    except OSError as e:
        print('\nkit: error: cannot listen on %s port %d: %s' % (quoted(bind), port, e.strerror),
              file=sys.stderr)
        print('     Another make room (or another server) may have the port: give another, '
              'make room PORT=N.', file=sys.stderr)
        return 1
    srv.room = room
    srv.slots = threading.BoundedSemaphore(MAX_BUSY)
    port = srv.server_address[1]
    host = '[%s]' % bind if ':' in bind else bind
    print('kit: the room: http://%s:%d/  (database %s: a restart keeps it)' % (host, port, db))
    print('token: %s' % room.token)
    if bind in ('127.0.0.1', '::1', 'localhost'):
        print('kit: it listens on this machine only (loopback): the attendees\' laptops cannot reach it.')
        print('     For the room: make room BIND=<this machine\'s address on the room\'s network> '
              '(or BIND=0.0.0.0: every interface).')
    else:
        print('kit: each attendee, once: make join ROOM=http://%s:%d TOKEN=%s NAME=\'Their Name\''
              % (host if bind not in ('0.0.0.0', '::') else '<this machine\'s address>', port, room.token))
    print('kit: open the address above on the projector; Ctrl-C stops the room.', flush=True)
    srv.serve_forever()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
