#!/usr/bin/python3
"""The attendee's side of the room (make join, make lab, make progress).

    client.py join URL TOKEN NAME   make join: keep the room, its token and
                                    the name (record.state_dir(), outside
                                    build/), check that the room answers,
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

The state folder: join.json (room, token, name; mode 0600), queue/ (one
record a file, record.py's format, until the room has it), sent/ (the ids
the room acknowledged, each file its time), refused/ (records the room
refused, with its reason), last-error (the last attempt that failed).
A lab run never waits for the room: make lab starts `send` detached
(setsid), which writes the queue and tries; a room that does not answer
is tried again, every RETRY s, for FLUSH_FOR s, then at the next make
lab or make progress.
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402  nothing written beside the kit's scripts
import datetime
import fcntl
import hashlib
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
sys.path.insert(0, HERE)
from progress import good_name, lab_line_of  # noqa: E402
from record import state_dir  # noqa: E402
from quote import quoted  # noqa: E402
from safefile import BadInput, write_whole  # noqa: E402
import runrecord  # noqa: E402

TIMEOUT = float(os.environ.get('KIT_ROOM_TIMEOUT', '5'))
RETRY = float(os.environ.get('KIT_ROOM_RETRY', '20'))
FLUSH_FOR = float(os.environ.get('KIT_ROOM_FLUSH_FOR', str(4 * 3600)))
URL = re.compile(r'^http://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?/?$')
TOKEN = re.compile(r'^[A-Za-z0-9_-]{16,100}$')


def now_text():
    return datetime.datetime.now().strftime('%Y-%m-%dT%H:%M:%S')


def path(*parts):
    return os.path.join(state_dir(), *parts)


def joined():
    try:
        with open(path('join.json'), encoding='utf-8') as f:
            j = json.load(f)
        if URL.match(j['room']) and TOKEN.match(j['token']) and good_name(j['name']):
            return j
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def opener():
    # A room is on the room's network: no proxy of the environment.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def call(j, method, where, body=None):
    """(HTTP status, message) of one request to the room, or (None, why)."""
    req = urllib.request.Request(j['room'].rstrip('/') + where, data=body, method=method,
                                 headers={'Authorization': 'Bearer ' + j['token'],
                                          'Content-Type': 'application/json'})
    try:
        with opener().open(req, timeout=TIMEOUT) as r:
            status, data = r.status, r.read(4096)
    except urllib.error.HTTPError as e:
        status, data = e.code, e.read(4096)
    except (OSError, ValueError) as e:
        return None, str(getattr(e, 'reason', e))
    try:
        return status, str(json.loads(data.decode('utf-8')).get('message', ''))
    except (ValueError, UnicodeDecodeError, AttributeError):
        return status, 'the answer is not the room\'s'


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

def send_queue(j):
    """Send every queued record once; (sent, left, last failure or None)."""
    os.makedirs(path('sent'), exist_ok=True)
    os.makedirs(path('refused'), exist_ok=True)
    sent, left, failure = 0, 0, None
    for f in sorted(os.listdir(path('queue'))):
        if not f.endswith('.json'):
            continue
        q = path('queue', f)
        try:
            with open(q, encoding='utf-8') as fh:
                rec = json.load(fh)
        except (OSError, ValueError):
            continue
        if rec.get('name') != j['name']:
            rec['name'] = j['name']         # joined again under another name
        rec['sent'] = now_text()
        status, message = call(j, 'POST', '/api/result', json.dumps(rec).encode())
        if status == 200:
            write_whole(path('sent', rec['id']), now_text() + '\n', path('sent', '.tmp-%d' % os.getpid()))
            os.unlink(q)
            sent += 1
        elif status in (400, 411, 413):
            os.replace(q, path('refused', f))
            with open(path('refused', f + '.why'), 'w', encoding='utf-8') as w:
                w.write(message + '\n')
            failure = 'the room refused a result: %s' % message
        else:
            left += 1
            failure = ('the room does not answer (%s)' % message if status is None else
                       'the room answered %d: %s' % (status, message))
            if status is None or status == 401:
                left += sum(1 for g in os.listdir(path('queue')) if g.endswith('.json') and g > f)
                break
    if failure:
        write_whole(path('last-error'), '%s %s\n' % (now_text(), failure), path('.last-error.tmp'))
    elif sent and os.path.exists(path('last-error')):
        os.unlink(path('last-error'))
    return sent, left, failure


def flush(seconds):
    """Send the queue, again every RETRY s for SECONDS while something is
    left; one flusher at a time (the others leave it to that one)."""
    j = joined()
    if j is None:
        return 0
    os.makedirs(path('queue'), exist_ok=True)
    end = time.monotonic() + seconds
    while True:
        with open(path('lock'), 'w') as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return 0        # another flusher: it sends what is queued
            _, left, _ = send_queue(j)
        # A record queued after the listing above, while the lock was
        # held, is sent by the next round or by its own sender.
        if not left and not any(g.endswith('.json') for g in os.listdir(path('queue'))):
            return 0
        if time.monotonic() + RETRY > end:
            return 1
        time.sleep(RETRY)
        j = joined() or j


def detach(*args):
    """Run client.py ARGS... in the background, in a session of its own,
    so that nothing waits for it."""
    subprocess.Popen([sys.executable, os.path.abspath(__file__)] + list(args),
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True, close_fds=True)


# ---- the commands -----------------------------------------------------------

def cmd_join(url, token, name):
    if not URL.match(url):
        die('ROOM=%s is not the address make room printed (http://HOST:PORT)' % quoted(url),
            'Copy it from the instructor\'s screen, e.g. make join ROOM=http://192.168.1.10:8041 TOKEN=... NAME=...')
    if not TOKEN.match(token):
        die('TOKEN=%s is not a token of make room (its "token:" line)' % quoted(token, 40),
            'Copy the token from the instructor\'s screen.')
    if not good_name(name):
        die('NAME=%s: a name is 1 to 40 printable characters, without spaces at either end'
            % quoted(name, 60), 'Give the name the room should show, e.g. NAME=\'Ada Lovelace\'.')
    os.makedirs(state_dir(), mode=0o700, exist_ok=True)
    j = {'room': url.rstrip('/'), 'token': token, 'name': name, 'joined': now_text()}
    fd = os.open(path('join.json.tmp'), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        json.dump(j, f)
    os.replace(path('join.json.tmp'), path('join.json'))
    status, message = call(j, 'GET', '/api/ping')
    print('kit: joined the room %s as %s (kept in %s; make clean keeps it)'
          % (quoted(j['room']), quoted(name),
             quoted(os.environ.get('KIT_ROOM_SHOWN') or state_dir())))
    if status == 200:
        print('kit: the room answers. Each make lab N now sends its result there, in the background.')
    elif status == 401:
        die('the room refused the token: %s' % quoted(message, 200),
            'Check TOKEN= against the instructor\'s screen and run make join again.')
    else:
        print('kit: the room does not answer yet (%s): each make lab N still sends its result, '
              'which waits and goes when the room answers.' % quoted(
                  message if status is None else '%d: %s' % (status, message), 200))
    if os.path.isdir(path('queue')) and os.listdir(path('queue')):
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
            write_whole(path('last-error'), '%s cannot send %s: %s\n' % (now_text(), rpath, e),
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
                rows.append((int(d), 'in the room (acknowledged %s)' % f.read().strip().replace('T', ' ')))
        elif os.path.exists(path('queue', rid + '.json')):
            rows.append((int(d), 'waiting to be sent'))
        elif os.path.exists(path('refused', rid + '.json')):
            rows.append((int(d), 'refused by the room (%s)' % quoted(
                open(path('refused', rid + '.json.why'), encoding='utf-8').read().strip(), 120)))
        else:
            rows.append((int(d), 'not sent (graded before make join, or by another name)'))
    print()
    print('The room %s, as %s: each lab\'s last run' % (quoted(j['room']), quoted(j['name'])))
    for num, what in rows:
        print('  %3d  %s' % (num, what))
    if not rows:
        print('  (no graded run yet)')
    waiting = [f for f in os.listdir(path('queue'))] if os.path.isdir(path('queue')) else []
    if os.path.exists(path('last-error')):
        with open(path('last-error'), encoding='utf-8') as f:
            print('  last try: %s' % quoted(f.read().strip(), 200))
    if any(f.endswith('.json') for f in waiting):
        detach('flush')
        print('  %d result(s) wait; sending them in the background.' % sum(f.endswith('.json') for f in waiting))
    return 0


def die(what, todo):
    print('\nkit: error: %s' % what, file=sys.stderr)
    print('     %s' % todo, file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) == 4 and argv[0] == 'join':
        return cmd_join(argv[1], argv[2], argv[3])
    if len(argv) >= 2 and argv[0] == 'send':
        return cmd_send(argv[1:])
    if len(argv) in (1, 2) and argv[0] == 'flush':
        return flush(float(argv[1]) if len(argv) == 2 else FLUSH_FOR)
    if len(argv) == 2 and argv[0] == 'status':
        return cmd_status(argv[1])
    print('usage: client.py join URL TOKEN NAME | send RECORD... | flush [SECONDS] | status LABS_DIR',
          file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
