#!/usr/bin/python3
"""make room: the instructor's room, a web server that keeps every graded
run the attendees' kits send (make join) and serves the page the
projector shows.

    server.py DB BIND PORT [--roster FILE|none] [--idle MIN] < kit

kit: the instructor's labs as scripts/room/room.sh writes them: lab_table's
"NUMBER<TAB>STEPS<TAB>BOOTS<TAB>TITLE" lines (a post is checked against
them: progress.lab_line), "minutes<TAB>NUMBER<TAB>M" (lab.conf's MINUTES)
and "step<TAB>NUMBER<TAB>K<TAB>TITLE" (the grader's STEP titles).

    GET  /             the room (page.py); /a/N attendee N's last FAIL
    POST /api/join     a name, with the room's token: the attendee's secret
    POST /api/result   one record (record.py), signed with that secret
    GET  /api/ping     a signed ping: the room's signed answer
    POST /api/admin/OP the instructor's changes (admin.py): names, rename,
                       merge, remove, reset; with the instructor's token
The wire, and why only the room's own answer counts: wire.py.

The HTTP stack is Debian's python3-waitress (docs/facilitator.md says why
it and not the standard library's http.server): one thread reads every
connection, a request reaches a worker only once it is whole (headers at
most 8 KiB, a body at most BODY bytes), so slow uploads hold no worker.
Around it, this file keeps a conference network's abuse bounded:

  connections  at most PER_ADDR from one address (a new one past it is
               closed at once) and CONNS in all (below the open-file
               limit, which it raises to the hard limit, so accept()
               never fails with EMFILE); past CONNS, a connection from an
               address with fewer than FEW open closes the oldest idle
               one of the address with the most, so held connections
               never lock the projector out
  deadlines    a request must be whole REQUEST_DEADLINE s after its first
               byte; a connection with nothing for IDLE_CLOSE s is closed
  rates        RATE posts a minute an attendee, FAILS refused requests a
               minute an address, JOINS joins a minute an address: past
               them a 429 the kit retries
  the page     rendered from the standings (store.py) at most once every
               PAGE_CACHE s, however many ask
  the log      one line per kind of refusal per minute, then how many more
               (Quiet); a stored run is one line (30 a minute at most)
  the database mode 0600, bounded (store.py)

Every string a post gave is escaped where it is shown (page.py) and
quoted on the terminal; SQL only with parameters; no request, however
malformed (a lone surrogate, a broken pipe), reaches the terminal as a
traceback.
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402  nothing written beside the kit's scripts
import argparse
import errno
import fcntl
import json
import logging
import os
import re
import resource
import signal
import sqlite3
import stat
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
sys.path.insert(0, HERE)
from progress import good_name  # noqa: E402
from quote import quoted  # noqa: E402
from record import MAX_BODY, check, parse_when  # noqa: E402
import page  # noqa: E402
import store  # noqa: E402
import wire  # noqa: E402

try:
    from waitress.channel import HTTPChannel
    from waitress.server import TcpWSGIServer
except ImportError:
    print('\nkit: error: make room needs Debian\'s python3-waitress, which is not installed.\n'
          '     Run: sudo make deps (it installs the kit\'s packages), then make room again.',
          file=sys.stderr)
    sys.exit(1)

REFRESH = int(os.environ.get('KIT_ROOM_REFRESH', '15'))
PAGE_CACHE = 2.0
CONNS = 1000
PER_ADDR = 32
FEW = 8
REQUEST_DEADLINE = 10.0
IDLE_CLOSE = 10
BODY = 64 * 1024
RATE = 60
FAILS = 60
JOINS = 30
THREADS = 6


class Quiet:
    """The room's terminal: at most BURST lines of one kind a minute, then
    one line saying how many more there were."""

    def __init__(self, out):
        self.out = out
        self.lock = threading.Lock()
        self.kinds = {}

    def say(self, text):
        try:
            self.out.write(text + '\n')
            self.out.flush()
        except (OSError, ValueError):
            pass

    def note(self, kind, text, burst=1):
        """TEXT (or what the function TEXT returns: made only if shown)."""
        now = time.monotonic()
        with self.lock:
            w = self.kinds.get(kind)
            if w is not None and now - w[0] >= 60:
                self.close(kind, w)
                w = None
            if w is None:
                w = self.kinds[kind] = [now, 0, 0]
            if w[1] < burst:
                w[1] += 1
                self.say(text() if callable(text) else text)
            else:
                w[2] += 1

    def close(self, kind, w):
        if w[2]:
            self.say('room: and %d more of "%s" in that minute' % (w[2], kind))
        del self.kinds[kind]

    def tick(self):
        now = time.monotonic()
        with self.lock:
            for kind, w in list(self.kinds.items()):
                if now - w[0] >= 60:
                    self.close(kind, w)


class QuietHandler(logging.Handler):
    """waitress's own log, through Quiet: one line a minute per message."""

    def __init__(self, quiet):
        super().__init__(logging.WARNING)
        self.quiet = quiet

    def emit(self, record):
        try:
            text = record.getMessage()
        except Exception:           # a record that cannot format itself
            text = str(record.msg)
        kind = 'server: ' + re.sub(r'[0-9]+', 'N', text)[:60]
        self.quiet.note(kind, 'room: the server: %s' % quoted(text, 200))


class Rates:
    """At most LIMIT events a minute per key."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seen = {}
        self.swept = time.monotonic()

    def allow(self, key, limit):
        now = time.monotonic()
        with self.lock:
            if now - self.swept > 60:
                self.seen = {k: v for k, v in self.seen.items() if v and now - v[-1] < 60}
                self.swept = now
            times = [t for t in self.seen.get(key, ()) if now - t < 60]
            ok = len(times) < limit
            if ok:
                times.append(now)
            self.seen[key] = times
            return ok


# ---- the application --------------------------------------------------------

class Answer(Exception):
    def __init__(self, status, obj):
        super().__init__(status)
        self.status, self.obj = status, obj


REASONS = {200: 'OK', 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed',
           409: 'Conflict', 411: 'Length Required', 413: 'Payload Too Large', 429: 'Too Many Requests',
           500: 'Internal Server Error', 503: 'Service Unavailable'}


class Room:
    def __init__(self, kit, db, quiet, idle):
        self.kit, self.db, self.quiet, self.idle = kit, db, quiet, idle
        self.rates = Rates()
        self.cache = (None, 0.0, b'')
        self.cache_lock = threading.Lock()

    # -- WSGI
    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        try:
            status, ctype, data, more = self.route(environ, path)
        except Answer as a:
            status, ctype, data, more = a.status, 'application/json', wire.body(a.obj), []
        except Exception as e:      # never a traceback on the instructor's terminal
            self.quiet.note('error', 'room: an error answering %s: %s'
                            % (quoted(path, 80), quoted(repr(e), 200)))
            status, ctype, data, more = 500, 'application/json', wire.body(
                {'ok': False, 'room': self.db.room_id, 'message': 'the room failed: the kit tries again'}), []
        headers = [('Content-Type', ctype + '; charset=utf-8'), ('Content-Length', str(len(data))),
                   ('Cache-Control', 'no-store'), ('X-Content-Type-Options', 'nosniff'),
                   ('Referrer-Policy', 'no-referrer'), ('X-Frame-Options', 'DENY')] + more
        if ctype == 'text/html':
            headers.append(('Content-Security-Policy', page.CSP))
        start_response('%d %s' % (status, REASONS.get(status, 'Error')), headers)
        return [data]

    def route(self, environ, path):
        method = environ.get('REQUEST_METHOD', '')
        addr = environ.get('REMOTE_ADDR', '?')
        if method in ('GET', 'HEAD'):
            if path == '/':
                return 200, 'text/html', self.room_page(), []
            m = re.fullmatch(r'/a/([0-9]{1,9})', path)
            if m:
                return self.attendee(int(m.group(1)))
            if path == '/api/ping':
                return self.ping(environ, addr)
            if path.startswith('/api/'):
                raise Answer(405, {'ok': False, 'message': 'POST, not GET'})
            return 404, 'text/html', page.page('Not found', '<p>Nothing here. <a href="/">The room</a></p>'
                                              ).encode(), []
        if method != 'POST':
            raise Answer(405, {'ok': False, 'message': 'GET or POST only'})
        if path == '/api/result':
            return self.result(environ, addr)
        if path == '/api/join':
            return self.join(environ, addr)
        if path.startswith('/api/admin/'):
            return self.admin(environ, addr, path[len('/api/admin/'):])
        raise Answer(404, {'ok': False, 'message': 'no such request'})

    def refuse(self, addr, kind, status, message, **more):
        """A refusal to an unknown sender: at most FAILS a minute an address."""
        self.quiet.note(kind, lambda: 'room: refused (%s) from %s: %s' % (kind, quoted(addr, 60), quoted(message, 160)))
        if not self.rates.allow(('fail', addr), FAILS):
            raise Answer(429, {'ok': False, 'message': 'too many refused requests; wait a minute'})
        raise Answer(status, dict(ok=False, message=message, **more))

    def read_body(self, environ, addr):
        """The request's body, whole (waitress refused one over BODY)."""
        try:
            size = int(environ.get('CONTENT_LENGTH') or '')
        except ValueError:
            self.refuse(addr, 'no length', 411, 'a Content-Length is needed')
        if not 0 < size <= BODY:
            self.refuse(addr, 'no length', 411, 'a body of 1 to %d bytes is needed' % BODY)
        return environ['wsgi.input'].read(size)

    # -- pages
    def room_page(self):
        now = time.time()
        with self.cache_lock:
            people, absent, version = self.db.snapshot()
            key, made, data = self.cache
            if key == version and now - made < PAGE_CACHE:
                return data
            data = page.room_page(self.kit, people, absent, now, REFRESH, self.idle).encode('utf-8')
            self.cache = (version, now, data)
            return data

    def attendee(self, who):
        p = self.db.person(who)
        if p is None:
            return 404, 'text/html', page.page('No such attendee', '<p>No such attendee. '
                                               '<a href="/">The room</a></p>').encode(), []
        runs, fail = self.db.runs_of(who)
        return 200, 'text/html', page.attendee_page(self.kit, p, runs, fail, time.time()).encode('utf-8'), []

    # -- the attendees' requests
    def signer(self, environ, addr, what, *parts):
        """(attendee the post goes to, secret) of a request signed with an
        attendee's secret (X-Kit-Attendee, X-Kit-Signature over WHAT,
        PARTS); refused otherwise."""
        who = environ.get('HTTP_X_KIT_ATTENDEE', '')
        sig = environ.get('HTTP_X_KIT_SIGNATURE', '')
        got = self.db.secret(int(who)) if re.fullmatch(r'[0-9]{1,9}', who) else None
        if got is None or not wire.same(sig, wire.mac(got[1], what, *parts)):
            self.refuse(addr, 'not signed', 401,
                        'this room does not know the laptop that sent it (a new room, or a name the '
                        'instructor removed?): make join again', room=self.db.room_id)
        if got[0] not in self.db.people:
            self.refuse(addr, 'not signed', 401, 'this name is no longer in the room: make join again',
                        room=self.db.room_id)
        return got

    def ping(self, environ, addr):
        n = environ.get('HTTP_X_KIT_NONCE', '')
        if not wire.NONCE.match(n):
            self.refuse(addr, 'bad ping', 400, 'a ping has a nonce (X-Kit-Nonce)')
        who, secret = self.signer(environ, addr, 'ping', n)
        raise Answer(200, {'ok': True, 'room': self.db.room_id, 'name': self.db.name_of(who),
                           'pong': wire.mac(secret, 'pong', self.db.room_id, n)})

    def result(self, environ, addr):
        data = self.read_body(environ, addr)
        who, secret = self.signer(environ, addr, 'post', data)
        rid = self.db.room_id

        def refused(status, message, run=''):
            self.quiet.note('refused result', 'room: refused a result of %s: %s'
                            % (quoted(self.db.name_of(who) or '?'), quoted(message, 160)))
            raise Answer(status, {'ok': False, 'room': rid, 'id': run, 'message': message,
                                  'refused': wire.mac(secret, 'refused', rid, run, message)})
        if len(data) > MAX_BODY:
            refused(413, 'a result is at most %d bytes' % MAX_BODY)
        try:
            rec = json.loads(data.decode('utf-8'))
            json.dumps(rec, ensure_ascii=False).encode('utf-8')     # a lone surrogate fails here
        except (ValueError, UnicodeError, RecursionError):
            refused(400, 'not JSON (UTF-8)')
        run_id = rec.get('id') if isinstance(rec, dict) and isinstance(rec.get('id'), str) \
            and re.fullmatch(r'[0-9a-f]{32}', rec['id']) else ''
        if not self.rates.allow(('post', who), RATE):
            self.quiet.note('rate', 'room: %s sends more than %d results a minute: the kit sends the rest later'
                            % (quoted(self.db.name_of(who) or '?'), RATE))
            raise Answer(429, {'ok': False, 'room': rid, 'message': 'too many results a minute; the kit '
                               'sends it again later', 'retry_after': 30})
        try:
            num, run = check(rec, self.kit.labs)
            age = (parse_when(rec['sent']) - parse_when(run['graded'])).total_seconds()
        except ValueError as e:
            refused(400, str(e), run_id)
        if age < 0:
            refused(400, 'graded is after sent', run_id)
        full = self.db.full()
        if full:
            self.quiet.note('full', 'room: a result waits: %s; make room-admin REMOVE=... frees room '
                            '(or make room-reset)' % full)
            raise Answer(503, {'ok': False, 'room': rid, 'message': 'the room is full for now (%s); the kit '
                               'sends it again later' % full, 'retry_after': 60})
        now = time.time()
        try:
            said = self.db.add(who, rec, num, run, now - age, now)
        except KeyError:
            self.refuse(addr, 'not signed', 401, 'this name is no longer in the room: make join again', room=rid)
        if said == 'stored':
            self.quiet.note('stored', 'room: %s: %s' % (quoted(self.db.name_of(who) or '?'),
                                                        quoted(rec['line'], 120)), burst=30)
        raise Answer(200, {'ok': True, 'room': rid, 'id': rec['id'], 'message': said,
                           'ack': wire.mac(secret, 'ack', rid, rec['id'])})

    def join(self, environ, addr):
        data = self.read_body(environ, addr)
        try:
            req = json.loads(data.decode('utf-8'))
            json.dumps(req, ensure_ascii=False).encode('utf-8')
        except (ValueError, UnicodeError, RecursionError):
            req = None
        if not (isinstance(req, dict) and req.get('v') == wire.VERSION and isinstance(req.get('name'), str)
                and isinstance(req.get('nonce'), str) and wire.NONCE.match(req['nonce'])):
            self.refuse(addr, 'bad join', 400, 'not a join of this kit\'s version (make join)')
        name, n, rid = req['name'], req['nonce'], self.db.room_id
        token = wire.normal_token(self.db.token)
        if not wire.same(req.get('proof'), wire.mac(token, 'join', n, name)):
            self.refuse(addr, 'wrong token', 401, 'the room\'s token is not that one: check it on the '
                        'instructor\'s screen')
        if not self.rates.allow(('join', addr), JOINS):
            raise Answer(429, {'ok': False, 'room': rid, 'message': 'too many joins from this address a minute',
                               'retry_after': 60})

        def said(status, message, **more):
            raise Answer(status, dict(ok=status == 200, room=rid, message=message,
                                      proof=wire.mac(token, 'refused', n, rid, message), **more))
        if not good_name(name):
            said(400, 'a name is 1 to 40 printable characters, without spaces at either end')
        status, message, who, secret = self.db.join(name, addr, time.time())
        if status != 200:
            self.quiet.note('join ' + str(status), 'room: a join as %s refused: %s'
                            % (quoted(name), quoted(message, 160)))
            said(status, message, **({'retry_after': 60} if status == 503 else {}))
        self.quiet.note('joined', 'room: %s joined (from %s)' % (quoted(name), quoted(addr, 60)), burst=30)
        raise Answer(200, {'ok': True, 'room': rid, 'attendee': who, 'name': name, 'secret': secret,
                           'proof': wire.mac(token, 'joined', n, rid, who, secret)})

    # -- the instructor's
    def admin(self, environ, addr, op):
        given = environ.get('HTTP_AUTHORIZATION', '')
        if not (given.startswith('Bearer ') and wire.same(given[7:].strip(), self.db.admin_token)):
            self.refuse(addr, 'admin token', 401, 'not the instructor\'s token')
        data = self.read_body(environ, addr)
        try:
            req = json.loads(data.decode('utf-8'))
        except (ValueError, UnicodeError):
            req = None
        if not isinstance(req, dict) or not all(isinstance(v, str) for v in req.values()):
            raise Answer(400, {'ok': False, 'message': 'an admin request is a JSON object of strings'})
        try:
            if op == 'names':
                rows, absent = self.db.listing()
                raise Answer(200, {'ok': True, 'names': rows, 'absent': absent})
            if op == 'rename':
                message = self.db.rename(req.get('from', ''), req.get('to', ''))
            elif op == 'merge':
                message = self.db.merge(req.get('from', ''), req.get('to', ''))
            elif op == 'remove':
                message = self.db.remove(req.get('name', ''))
            elif op == 'reset':
                message = self.db.reset(time.time())
            else:
                raise Answer(404, {'ok': False, 'message': 'no such admin request'})
        except store.Refused as e:
            raise Answer(400, {'ok': False, 'message': str(e)})
        self.quiet.note('admin', 'room: the instructor: %s %s: %s'
                        % (op, quoted(json.dumps(req, ensure_ascii=False), 160), quoted(message, 200)), burst=30)
        raise Answer(200, {'ok': True, 'message': message})


# ---- the connections --------------------------------------------------------

class Channel(HTTPChannel):
    """waitress's channel, counted per address, with the time its
    request began."""
    began = None

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.host = addr[0] if isinstance(addr, tuple) else str(addr)
        server.by_host.setdefault(self.host, {})[id(self)] = self

    def received(self, data):
        if self.request is None and self.began is None:
            self.began = time.time()
        done = super().received(data)
        if self.request is None:
            self.began = None
        return done

    def del_channel(self, map=None):
        super().del_channel(map)
        mine = self.server.by_host.get(getattr(self, 'host', None))
        if mine is not None:
            mine.pop(id(self), None)
            if not mine:
                del self.server.by_host[self.host]


class Server(TcpWSGIServer):
    """waitress's server: it never stops accepting (it makes room by
    closing the oldest idle connection instead), and closes a request
    that is not whole after REQUEST_DEADLINE s."""
    channel_class = Channel

    def __init__(self, app, quiet, conns, **kw):
        self.by_host = {}
        self.quiet = quiet
        self.conns = conns
        self.pause = 0.0
        super().__init__(app, **kw)

    def readable(self):
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return self.accepting and now >= self.pause

    def maintenance(self, now):
        super().maintenance(now)
        for ch in list(self.active_channels.values()):
            if not ch.requests and ch.began is not None and now - ch.began > REQUEST_DEADLINE:
                ch.will_close = True
                self.quiet.note('slow request', lambda: 'room: closed a connection from %s: its request was '
                                'not whole after %d s' % (quoted(ch.host, 60), REQUEST_DEADLINE))
        self.quiet.tick()

    def evict(self):
        """Close the oldest idle connection of the address with the most;
        False if it has none."""
        if not self.by_host:
            return False
        host = max(self.by_host, key=lambda h: len(self.by_host[h]))
        now = time.time()
        for ch in list(self.by_host.get(host, {}).values()):
            if not ch.requests and now - ch.creation_time > 0.5:
                ch.handle_close()
                return True
        return False

    def handle_accept(self):
        """Accept what waits (64 at most a turn: a backlog that held
        connections keep full would make a new one wait for the SYN's
        retransmission, seconds), each admitted or closed at once."""
        for _ in range(64):
            try:
                v = self.accept()
            except OSError as e:
                if e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    self.evict()
                    self.pause = time.time() + 0.05
                    self.quiet.note('accept', 'room: no file descriptor left for a connection (%s): closed '
                                    'the oldest idle one' % os.strerror(e.errno))
                return
            if v is None:
                return
            self.admit(*v)

    def admit(self, conn, addr):
        host = addr[0]
        mine = len(self.by_host.get(host, ()))
        if mine >= PER_ADDR or (len(self.active_channels) >= self.conns and (mine >= FEW or not self.evict())):
            conn.close()
            self.quiet.note('connections', lambda: 'room: refused a connection from %s: %s' % (
                quoted(host, 60), 'it has %d open' % mine if mine >= PER_ADDR else '%d open in all' % self.conns))
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)


def open_files():
    """Raise the open-file limit to its hard limit (8192 at most): the
    connections the room may hold."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard if hard != resource.RLIM_INFINITY else 8192, 8192)
    if soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return soft


def read_roster(path):
    """The names of ROSTER=FILE, in its order; SystemExit with the line at
    fault (quoted) if it is not a roster."""
    def bad(what, todo='A roster is a text file, one name a line (# comments and blank lines are skipped).'):
        print('\nkit: error: ROSTER=%s: %s' % (quoted(path), what), file=sys.stderr)
        print('     %s' % todo, file=sys.stderr)
        sys.exit(1)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        bad('cannot be opened (%s; a link is not followed)' % e.strerror)
    with os.fdopen(fd, 'rb') as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            bad('is not a regular file')
        data = f.read(64 * 1024 + 1)
    if len(data) > 64 * 1024:
        bad('is over 64 KiB')
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        bad('is not UTF-8 text')
    names = []
    for i, line in enumerate(text.split('\n'), 1):
        name = line.strip()
        if not name or name.startswith('#'):
            continue
        if not good_name(name):
            bad('line %d: %s is no name (1 to 40 printable characters)' % (i, quoted(name, 60)))
        if name in names:
            bad('line %d: %s is there twice' % (i, quoted(name, 60)))
        names.append(name)
    if len(names) > store.MAX_ROSTER:
        bad('has %d names; a roster has %d at most' % (len(names), store.MAX_ROSTER))
    return names


def open_store(db, labs):
    try:
        return store.Store(db, labs)
    except store.OldRoom:
        old = '%s-kit1-%s.sqlite' % (db[:-7] if db.endswith('.sqlite') else db, time.strftime('%Y-%m-%d-%H%M%S'))
        for side in ('', '-wal', '-shm'):
            if os.path.exists(db + side):
                os.replace(db + side, old + side)
        print('kit: %s was the room of an older kit: kept as %s; this is a new room (everyone joins again)'
              % (quoted(db), quoted(old)))
        return store.Store(db, labs)


def main(argv):
    ap = argparse.ArgumentParser(prog='server.py', description='make room (scripts/room/room.sh runs it)')
    ap.add_argument('db')
    ap.add_argument('bind')
    ap.add_argument('port', type=int)
    ap.add_argument('--roster')
    ap.add_argument('--idle', type=int, default=page.IDLE // 60)
    a = ap.parse_args(argv)
    os.umask(0o077)
    kit = store.Kit(sys.stdin)
    roster = None
    if a.roster and a.roster != 'none':
        roster = read_roster(a.roster)
    quiet = Quiet(sys.stderr)
    lock = open(a.db + '.lock', 'a')
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print('\nkit: error: another make room uses the database %s' % quoted(a.db), file=sys.stderr)
        print('     Stop it first (Ctrl-C where it runs), or give this one another: make room DB=FILE.',
              file=sys.stderr)
        return 1
    try:
        db = open_store(a.db, kit.labs)
    except (sqlite3.Error, OSError, ValueError) as e:
        print('\nkit: error: the room\'s database %s cannot be used: %s' % (quoted(a.db), quoted(str(e), 200)),
              file=sys.stderr)
        print('     Give another: make room DB=FILE.', file=sys.stderr)
        return 1
    if roster is not None or a.roster == 'none':
        db.set_roster(roster or [])
    logging.getLogger('waitress').addHandler(QuietHandler(quiet))
    logging.getLogger('waitress').setLevel(logging.WARNING)
    logging.getLogger('waitress').propagate = False
    files = open_files()
    room = Room(kit, db, quiet, a.idle * 60)
    try:
        srv = Server(room, quiet, min(CONNS, max(64, files - 64)), host=a.bind, port=a.port, threads=THREADS,
                     ident='kit-room', connection_limit=1 << 30, channel_timeout=IDLE_CLOSE,
                     cleanup_interval=1, max_request_header_size=8192, max_request_body_size=BODY,
                     asyncore_use_poll=True, asyncore_loop_timeout=1, expose_tracebacks=False,
                     log_socket_errors=False, backlog=1024, clear_untrusted_proxy_headers=True)
    except (OSError, ValueError) as e:
        print('\nkit: error: cannot listen on %s port %d: %s' % (quoted(a.bind), a.port,
                                                                  getattr(e, 'strerror', None) or e),
              file=sys.stderr)
        print('     Another make room (or another server) may have the port: give another, '
              'make room PORT=N.', file=sys.stderr)
        return 1
    port = int(srv.effective_port)
    host = '[%s]' % a.bind if ':' in a.bind else a.bind
    local = {'0.0.0.0': '127.0.0.1', '::': '[::1]'}.get(a.bind, host)
    db.set_meta('listen', 'http://%s:%d' % (local, port))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print('kit: the room: http://%s:%d/  (database %s: a restart keeps it)' % (host, port, quoted(a.db)))
    print('token: %s' % db.token)
    if a.bind in ('127.0.0.1', '::1', 'localhost'):
        print('kit: it listens on this machine only (loopback): the attendees\' laptops cannot reach it.')
        print('     For the room: make room BIND=<this machine\'s address on the room\'s network> '
              '(or BIND=0.0.0.0: every interface).')
    else:
        print('kit: each attendee, once: make join ROOM=http://%s:%d NAME=\'Their Name\'   (it asks for the token)'
              % (host if a.bind not in ('0.0.0.0', '::') else '<this machine\'s address>', port))
    if db.roster:
        print('kit: the roster: %d name(s)' % len(db.roster))
    print('kit: open the address above on the projector; make room-admin renames, merges and removes '
          'names; Ctrl-C stops the room.', flush=True)
    try:
        srv.run()
    finally:
        srv.task_dispatcher.shutdown()
        db.db.close()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
