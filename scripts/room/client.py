#!/usr/bin/python3
"""The attendee's side of the room (make join, make lab, make progress).

    client.py join URL NAME         make join: join the room at URL under
                                    NAME with the room's token (asked on
                                    the terminal, or the first line of
                                    stdin: never on a command line, where
                                    ps shows it); keep what the room gives
                                    (record.state_dir(), outside build/);
                                    send what waits
    client.py send RECORD...        make lab, in the background, when a run
                                    ends: queue its result (from the record
                                    of the run, build/labs/NN/last-run.json:
                                    scripts/lib/runrecord.py) and send the
                                    queue (nothing if not joined)
    client.py flush [SECONDS]       send the queue, trying again for up to
                                    SECONDS (default: FLUSH_FOR) while the
                                    room does not answer; one at a time
    client.py status LABS_DIR       make progress: whether the room has
                                    each lab's last run (nothing if not
                                    joined); sends the queue in the
                                    background if something waits

The state folder (mode 0700): join.json (the room's address, its id, the
name, this laptop's attendee number and secret; mode 0600; before the
room first answered, the token instead: the join is made by the first
send that reaches it), queue/ (one record a file, record.py's format,
until the room has it), sent/ (the ids the room acknowledged, each file
its time), refused/ (records the room refused for good, with its
reason), last-error (the last attempt that failed).

Only the room's own answer counts (wire.py): JSON, application/json, its
id, and a MAC made with this laptop's secret; anything else (a captive
portal's 200, another server, a redirect, which is never followed) is a
room that did not answer, and the result waits.  A refusal for now (429,
503, a room that does not know this laptop) waits too; only a signed 400
or 413 (the record itself is wrong) is refused for good.  Every request
has an overall deadline (TIMEOUT s, however slowly the other side
trickles), and every string the other side sent is quoted before it is
shown.  A lab run never waits for the room: make lab starts `send`
detached (setsid, without the lab's locks), which writes the queue and
tries; a room that does not answer is tried again after RETRY s, then
twice as long each time up to 5 minutes, for FLUSH_FOR s, then at the
next make lab or make progress.
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402  nothing written beside the kit's scripts
import datetime
import fcntl
import getpass
import hashlib
import json
import os
import re
import socket
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
sys.path.insert(0, HERE)
from progress import good_name, lab_line_of  # noqa: E402
from record import state_dir  # noqa: E402
from quote import quoted  # noqa: E402
from safefile import BadInput, write_whole  # noqa: E402
import runrecord  # noqa: E402
import wire  # noqa: E402

TIMEOUT = float(os.environ.get('KIT_ROOM_TIMEOUT', '5'))
RETRY = float(os.environ.get('KIT_ROOM_RETRY', '20'))
FLUSH_FOR = float(os.environ.get('KIT_ROOM_FLUSH_FOR', str(4 * 3600)))
MAX_WAIT = 300
MAX_ANSWER = 64 * 1024
URL = re.compile(r'^http://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?/?$')


def now_text():
    return datetime.datetime.now().strftime('%Y-%m-%dT%H:%M:%S')


def path(*parts):
    return os.path.join(state_dir(), *parts)


def joined():
    """The join record (wire version 2), or None."""
    try:
        with open(path('join.json'), encoding='utf-8') as f:
            j = json.load(f)
        if j.get('v') == wire.VERSION and URL.match(j['room']) and good_name(j['name']) and (
                (j.get('pending') and wire.normal_token(j['token'])) or
                (wire.ROOM_ID.match(j['room_id']) and isinstance(j['attendee'], int)
                 and wire.MAC.match(j['secret']))):
            return j
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def keep(j):
    """The join record J, whole, mode 0600."""
    os.makedirs(state_dir(), mode=0o700, exist_ok=True)
    tmp = path('join.json.tmp-%d' % os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        json.dump(j, f)
    os.replace(tmp, path('join.json'))


# ---- one request --------------------------------------------------------------

class NoAnswer(Exception):
    """The room's answer could not be had, or is not the room's: the
    message says why, every string of the other side's quoted."""


def request(room, method, where, body=None, headers=()):
    """(HTTP status, the JSON object) of one request to ROOM (an http://
    address), whole within TIMEOUT s; NoAnswer otherwise.  No proxy of
    the environment, no redirect followed."""
    m = URL.match(room)
    host = m.group(1).strip('[]')
    port = int(m.group(2)[1:]) if m.group(2) else 80
    head = ['%s %s HTTP/1.1' % (method, where), 'Host: %s%s' % (m.group(1), m.group(2) or ''),
            'Connection: close', 'Accept: application/json', 'User-Agent: lsm-kit']
    head += ['%s: %s' % h for h in headers]
    if body is not None:
        head += ['Content-Type: application/json', 'Content-Length: %d' % len(body)]
    data = ('\r\n'.join(head) + '\r\n\r\n').encode('ascii') + (body or b'')
    end = time.monotonic() + TIMEOUT

    def left():
        t = end - time.monotonic()
        if t <= 0:
            raise socket.timeout()
        return t
    got = b''
    try:
        with socket.create_connection((host, port), timeout=left()) as s:
            s.settimeout(left())
            s.sendall(data)
            while True:
                s.settimeout(left())
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
                if len(got) > MAX_ANSWER:
                    raise NoAnswer('an answer of over %d KiB: not the room\'s' % (MAX_ANSWER >> 10))
                if whole(got):
                    break
    except socket.timeout:
        raise NoAnswer('no whole answer within %g s' % TIMEOUT) from None
    except OSError as e:
        raise NoAnswer(quoted(e.strerror or str(e), 120)) from None
    return answer(got)


def whole(got):
    """Whether GOT holds a whole answer (its headers and Content-Length
    bytes)."""
    head, sep, rest = got.partition(b'\r\n\r\n')
    if not sep:
        return False
    m = re.search(rb'(?im)^content-length:[ \t]*([0-9]{1,9})[ \t]*\r?$', head)
    return bool(m) and len(rest) >= int(m.group(1))


def answer(got):
    head, sep, rest = got.partition(b'\r\n\r\n')
    lines = head.decode('iso-8859-1').split('\r\n')
    m = re.match(r'^HTTP/1\.[01] ([0-9]{3})(?: |$)', lines[0])
    if not sep or not m:
        raise NoAnswer('an answer that is not HTTP (%s): not the room\'s' % quoted(lines[0], 60))
    status = int(m.group(1))
    fields = {}
    for line in lines[1:]:
        k, colon, v = line.partition(':')
        if colon:
            fields[k.strip().lower()] = v.strip()
    if 300 <= status < 400:
        raise NoAnswer('HTTP %d, a redirect to %s: the room never redirects (is ROOM= its address?)'
                       % (status, quoted(fields.get('location', '?'), 80)))
    ctype = fields.get('content-type', '').split(';')[0].strip().lower()
    if ctype != 'application/json':
        raise NoAnswer('HTTP %d, %s: not the room\'s answer (is ROOM= its address?)'
                       % (status, quoted(ctype or 'no Content-Type', 60)))
    size = fields.get('content-length', '')
    if not size.isdigit() or len(rest) < int(size):
        raise NoAnswer('HTTP %d, an answer cut short' % status)
    try:
        obj = json.loads(rest[:int(size)].decode('utf-8'))
    except (ValueError, UnicodeDecodeError):
        raise NoAnswer('HTTP %d, JSON that does not parse: not the room\'s answer' % status) from None
    if not isinstance(obj, dict):
        raise NoAnswer('HTTP %d, JSON that is not the room\'s answer' % status)
    return status, obj


def said(obj):
    """The message of an answer, quoted."""
    return quoted(str(obj.get('message', '')), 200)


def signed(j, what, *parts):
    return [('X-Kit-Attendee', str(j['attendee'])), ('X-Kit-Signature', wire.mac(j['secret'], what, *parts))]


def ping(j):
    """('ok', the name the room has) | ('down', why): no answer, or not
    the room's | ('unknown', why): the room answers, and does not know
    this laptop (a new room at that address, a name removed)."""
    n = wire.nonce()
    try:
        status, obj = request(j['room'], 'GET', '/api/ping', headers=signed(j, 'ping', n) + [('X-Kit-Nonce', n)])
    except NoAnswer as e:
        return 'down', str(e)
    if status == 200 and obj.get('room') == j['room_id'] and \
            wire.same(obj.get('pong'), wire.mac(j['secret'], 'pong', j['room_id'], n)):
        return 'ok', quoted(str(obj.get('name')))
    if status == 401 and isinstance(obj.get('room'), str) and wire.ROOM_ID.match(obj['room']):
        return 'unknown', 'HTTP %d: %s' % (status, said(obj))
    return 'down', 'HTTP %d, not the room\'s answer: %s' % (status, said(obj))


def join_room(room, name, token):
    """('joined', the join record) | ('wait', why) | ('refused', why): one
    join; only the room (its answer proves the token) joins or refuses."""
    n = wire.nonce()
    body = wire.body({'v': wire.VERSION, 'name': name, 'nonce': n, 'proof': wire.mac(token, 'join', n, name)})
    try:
        status, obj = request(room, 'POST', '/api/join', body)
    except NoAnswer as e:
        return 'wait', 'the room does not answer (%s)' % e
    rid = obj.get('room')
    if status == 200 and isinstance(rid, str) and wire.ROOM_ID.match(rid) and \
            isinstance(obj.get('attendee'), int) and isinstance(obj.get('secret'), str) and \
            wire.MAC.match(obj['secret']) and \
            wire.same(obj.get('proof'), wire.mac(token, 'joined', n, rid, obj['attendee'], obj['secret'])):
        return 'joined', {'v': wire.VERSION, 'room': room, 'room_id': rid, 'name': name,
                          'attendee': obj['attendee'], 'secret': obj['secret'], 'joined': now_text()}
    if isinstance(rid, str) and wire.same(obj.get('proof'), wire.mac(token, 'refused', n, rid,
                                                                     str(obj.get('message', '')))):
        if status in (429, 503):
            return 'wait', 'the room says: %s' % said(obj)
        return 'refused', 'the room refused it: %s' % said(obj)
    if status == 401:
        return 'refused', 'the room refused the token (%s): check it on the instructor\'s screen' % said(obj)
    return 'wait', 'HTTP %d, not the room\'s answer (%s): is ROOM= its address?' % (status, said(obj))


# ---- a run's record ---------------------------------------------------------

def run_id(name, data):
    """The id of a run's post: its record's bytes, as NAME sends them."""
    return hashlib.sha256(name.encode() + b'\0' + data).hexdigest()[:32]


def record_of(rpath, name):
    """The post (record.py) of the record of make lab's run RPATH
    (build/labs/NN/last-run.json), sent as NAME."""
    with open(rpath, 'rb') as f:
        data = f.read(runrecord.MAX_BYTES)
    t = runrecord.load(rpath)
    step, title, detail = None, '', []
    if t['verdict'] in ('fail', 'trouble'):
        # The first failing step, and the lines make lab showed under it
        # in the first boot that failed it.
        first = runrecord.first_failure(t)
        if first:
            step, title, detail = first[0], first[1], first[2][:40]
    elif t['verdict'] == 'compile':
        detail = runrecord.lines_of(t['compile'])[:20]
        title = 'does not compile'
    return {'v': 1, 'id': run_id(name, data),
            'name': name, 'line': lab_line_of(t['lab'], t), 'sent': '', 'step': step,
            'title': title[:200], 'detail': '\n'.join(detail)[:4000]}


def enqueue(rec):
    os.makedirs(path('queue'), exist_ok=True)
    if os.path.exists(path('sent', rec['id'])):
        return
    q = path('queue', rec['id'] + '.json')
    write_whole(q, json.dumps(rec), q + '.tmp-%d' % os.getpid())


# ---- sending ----------------------------------------------------------------

def post(j, rec):
    """('sent', message) | ('refused', why) | ('wait', why, seconds): one
    record to the room."""
    body = json.dumps(rec, ensure_ascii=False).encode('utf-8')
    try:
        status, obj = request(j['room'], 'POST', '/api/result', body, signed(j, 'post', body))
    except NoAnswer as e:
        return 'wait', 'the room does not answer (%s)' % e, 0
    mine = obj.get('room') == j['room_id']
    if status == 200 and mine and wire.same(obj.get('ack'), wire.mac(j['secret'], 'ack', j['room_id'], rec['id'])):
        return 'sent', said(obj)
    if status in (400, 413) and mine and obj.get('id') in (rec['id'], '') and wire.same(obj.get('refused'), wire.mac(
            j['secret'], 'refused', j['room_id'], str(obj.get('id', '')), str(obj.get('message', '')))):
        return 'refused', said(obj)
    if status == 401 and mine:
        return 'wait', ('the room does not know this laptop (%s): make join ROOM=%s NAME=... again'
                        % (said(obj), quoted(j['room']))), 0
    if status in (429, 503) and mine:
        after = obj.get('retry_after')
        return 'wait', 'the room says: %s' % said(obj), after if isinstance(after, int) else 0
    if not mine and isinstance(obj.get('room'), str) and wire.ROOM_ID.match(obj['room']):
        return 'wait', ('another room answers at %s (a new room? make join again): HTTP %d, %s'
                        % (quoted(j['room']), status, said(obj))), 0
    return 'wait', 'HTTP %d, not the room\'s answer (%s)' % (status, said(obj)), 0


def send_queue(j):
    """Send every queued record once; (sent, left, last failure or None,
    seconds the room asked to wait)."""
    for d in ('sent', 'refused', 'queue'):
        os.makedirs(path(d), exist_ok=True)
    queued = sorted(f for f in os.listdir(path('queue')) if f.endswith('.json'))
    sent, failure, after = 0, None, 0
    if j.get('pending') and queued:
        what, got = join_room(j['room'], j['name'], wire.normal_token(j['token']))
        if what != 'joined':
            failure = 'make join is not done: %s' % got
            queued, j = [], None
        else:
            keep(got)
            j = got
    for i, f in enumerate(queued):
        q = path('queue', f)
        try:
            with open(q, encoding='utf-8') as fh:
                rec = json.load(fh)
        except (OSError, ValueError):
            continue
        if rec.get('name') != j['name']:
            rec['name'] = j['name']         # joined again under another name
        rec['sent'] = now_text()
        what, *why = post(j, rec)
        if what == 'sent':
            write_whole(path('sent', rec['id']), now_text() + '\n', path('sent', '.tmp-%d' % os.getpid()))
            os.unlink(q)
            sent += 1
        elif what == 'refused':
            os.replace(q, path('refused', f))
            with open(path('refused', f + '.why'), 'w', encoding='utf-8') as w:
                w.write(why[0] + '\n')
            failure = 'the room refused a result: %s' % why[0]
        else:
            failure, after = why
            break
    left = sum(1 for g in os.listdir(path('queue')) if g.endswith('.json'))
    if failure:
        write_whole(path('last-error'), '%s %s\n' % (now_text(), failure), path('.last-error.tmp'))
    elif sent and os.path.exists(path('last-error')):
        os.unlink(path('last-error'))
    return sent, left, failure, after


def flush(seconds):
    """Send the queue, again after RETRY s (twice as long each time, up to
    MAX_WAIT, or as long as the room asked) for SECONDS while something is
    left; one flusher at a time (the others leave it to that one)."""
    j = joined()
    if j is None:
        return 0
    os.makedirs(path('queue'), exist_ok=True)
    end = time.monotonic() + seconds
    wait = RETRY
    while True:
        with open(path('lock'), 'w') as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return 0        # another flusher: it sends what is queued
            _, left, _, after = send_queue(j)
        # A record queued after the listing above, while the lock was
        # held, is sent by the next round or by its own sender.
        if not left and not any(g.endswith('.json') for g in os.listdir(path('queue'))):
            return 0
        pause = min(max(wait, after), MAX_WAIT)
        if time.monotonic() + pause > end:
            return 1
        time.sleep(pause)
        wait = min(wait * 2, MAX_WAIT)
        j = joined() or j


def detach(*args):
    """Run client.py ARGS... in the background, in a session of its own,
    so that nothing waits for it."""
    subprocess.Popen([sys.executable, os.path.abspath(__file__)] + list(args),
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)


# ---- the commands -----------------------------------------------------------

def read_token():
    """The room's token, typed on the terminal (not shown) or the first line
    of stdin; dies if it is not one."""
    if 'TOKEN' in os.environ:
        die('TOKEN= on a command line shows the room\'s token to everyone on this machine (ps), '
            'so make join does not take it there',
            'Run make join ROOM=... NAME=\'...\' without TOKEN=: it asks for the token (or give it '
            'on stdin: make join ROOM=... NAME=... <token.txt).')
    try:
        if sys.stdin.isatty():
            text = getpass.getpass('The room\'s token (on the instructor\'s screen): ')
        else:
            text = sys.stdin.readline(200)
    except (EOFError, KeyboardInterrupt, OSError):
        text = ''
    token = wire.normal_token(text)
    if token is None:
        die('that is not a token of make room (16 letters and digits, as xxxx-xxxx-xxxx-xxxx: %s)'
            % quoted(text.strip(), 40), 'Copy the token from the instructor\'s screen and run make join again.')
    return token


def cmd_join(url, name):
    if not URL.match(url):
        die('ROOM=%s is not the address make room printed (http://HOST:PORT)' % quoted(url),
            'Copy it from the instructor\'s screen, e.g. make join ROOM=http://192.168.1.10:8041 NAME=...')
    if not good_name(name):
        die('NAME=%s: a name is 1 to 40 printable characters, without spaces at either end'
            % quoted(name, 60), 'Give the name the room should show, e.g. NAME=\'Ada Lovelace\'.')
    room = url.rstrip('/')
    shown = quoted(os.environ.get('KIT_ROOM_SHOWN') or state_dir())
    old = joined()
    if old and not old.get('pending') and old['room'] == room and old['name'] == name:
        state, why = ping(old)
        if state == 'ok':
            print('kit: already in the room %s as %s (the room shows %s; kept in %s)'
                  % (quoted(room), quoted(name), why, shown))
            return 0
        if state == 'down':
            print('kit: already joined the room %s as %s (kept in %s); it does not answer now (%s): '
                  'results wait and go when it does.' % (quoted(room), quoted(name), shown, why))
            return 0
    token = read_token()
    what, got = join_room(room, name, token)
    if what == 'refused':
        die(got, 'Nothing was changed. Check ROOM=, NAME= and the token, and run make join again.')
    if what == 'joined':
        keep(got)
        print('kit: joined the room %s as %s (kept in %s; make clean keeps it)' % (quoted(room), quoted(name), shown))
        print('kit: the room answers. Each make lab N now sends its result there, in the background.')
    else:
        keep({'v': wire.VERSION, 'room': room, 'name': name, 'token': token, 'pending': True,
              'joined': now_text()})
        print('kit: the room %s does not answer yet (%s): kept in %s; each make lab N still sends its result, '
              'which waits and goes when the room answers.' % (quoted(room), got, shown))
    if os.path.isdir(path('queue')) and any(f.endswith('.json') for f in os.listdir(path('queue'))):
        detach('flush')
    return 0


def cmd_send(rpaths):
    j = joined()
    if j is None:
        return 0
    for rpath in rpaths:
        try:
            enqueue(record_of(rpath, j['name']))
        except (BadInput, OSError) as e:
            write_whole(path('last-error'), '%s cannot send %s: %s\n' % (now_text(), quoted(rpath), e),
                        path('.last-error.tmp'))
            return 1
    return flush(FLUSH_FOR)


def cmd_status(labs_dir):
    j = joined()
    if j is None:
        return 0
    rows = []
    for d in sorted(os.listdir(labs_dir)) if os.path.isdir(labs_dir) else []:
        # The record of the lab's last run; of a run graded by a kit older
        # than the record, its transcript, which that kit sent: the id is
        # of the file's bytes (run_id), nothing in it is read.
        rid = None
        for f in (runrecord.RECORD, runrecord.TRANSCRIPT):
            t = os.path.join(labs_dir, d, f)
            if d.isdigit() and os.path.isfile(t):
                try:
                    with open(t, 'rb') as fh:
                        rid = run_id(j['name'], fh.read(runrecord.MAX_BYTES))
                except OSError:
                    pass
                break
        if rid is None:
            continue
        if os.path.exists(path('sent', rid)):
            with open(path('sent', rid), encoding='utf-8') as f:
                rows.append((int(d), 'in the room (acknowledged by the room %s)' % f.read().strip().replace('T', ' ')))
        elif os.path.exists(path('queue', rid + '.json')):
            rows.append((int(d), 'waiting to be sent'))
        elif os.path.exists(path('refused', rid + '.json')):
            with open(path('refused', rid + '.json.why'), encoding='utf-8') as f:
                rows.append((int(d), 'refused by the room (%s)' % f.read().strip()))
        else:
            rows.append((int(d), 'not sent (graded before make join, or by another name)'))
    print()
    print('The room %s, as %s%s: each lab\'s last run' % (
        quoted(j['room']), quoted(j['name']), ' (make join not done yet: the room has not answered)'
        if j.get('pending') else ''))
    for num, what in rows:
        print('  %3d  %s' % (num, what))
    if not rows:
        print('  (no graded run yet)')
    waiting = [f for f in os.listdir(path('queue'))] if os.path.isdir(path('queue')) else []
    if os.path.exists(path('last-error')):
        with open(path('last-error'), encoding='utf-8') as f:
            print('  last try: %s' % f.read().strip()[:300])
    if any(f.endswith('.json') for f in waiting):
        detach('flush')
        print('  %d result(s) wait; sending them in the background.' % sum(f.endswith('.json') for f in waiting))
    return 0


def die(what, todo):
    print('\nkit: error: %s' % what, file=sys.stderr)
    print('     %s' % todo, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) == 3 and argv[0] == 'join':
        return cmd_join(argv[1], argv[2])
    if len(argv) >= 2 and argv[0] == 'send':
        return cmd_send(argv[1:])
    if len(argv) in (1, 2) and argv[0] == 'flush':
        return flush(float(argv[1]) if len(argv) == 2 else FLUSH_FOR)
    if len(argv) == 2 and argv[0] == 'status':
        return cmd_status(argv[1])
    print('usage: client.py join URL NAME (the token on the terminal or stdin) | send RECORD... | '
          'flush [SECONDS] | status LABS_DIR', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
