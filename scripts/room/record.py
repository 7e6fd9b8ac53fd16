"""What make join sends and make room accepts: one graded run of make lab,
as a JSON object (a "record"), and where an attendee's side keeps its
state.  Shared by scripts/room/server.py and scripts/room/client.py.

    {"v": 1,
     "id": "<32 hex digits: the run's own id, so a result sent twice is stored once>",
     "name": "Ada Lovelace",
     "line": "lab=2 result=fail passed=3 steps=6 graded=2026-12-05T10:15:52 what=copy kernel=normal boots=default,selinux-alone,none",
     "sent": "2026-12-05T10:16:01",          the laptop's clock when it was sent
     "step": 4,                              the first failing step, or null
     "title": "find the interface LSM's context",     that step's title, or ""
     "detail": "expected: 2 entries\\nseen: 1 entry\\nhint: ..."}   what make lab showed under it

"line" is a lab line of a progress file (scripts/progress/progress.py), checked
by the same function (lab_line) against the instructor's labs; "graded"
and "sent" are the laptop's local time, so the room places the run at
its own clock's now - (sent - graded), whatever the laptop's clock or
time zone.  Every string is stored as sent and escaped where it is shown
(HTML on the page, results.quoted() on a terminal).
"""
import datetime
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
from progress import WHEN, good_name, lab_line  # noqa: E402

KEYS = ('v', 'id', 'name', 'line', 'sent', 'step', 'title', 'detail')
ID = re.compile(r'^[0-9a-f]{32}$')
MAX_BODY = 16 * 1024            # bytes of one post
MAX_LINE = 400
MAX_TITLE = 200
MAX_DETAIL = 4000


def state_dir():
    """Where an attendee's side keeps its join record, its queue and what
    the room acknowledged: outside build/, so that make clean and make
    distclean keep it (KIT_ROOM_HOME: another folder, for the tests and
    for the image, whose run.sh mounts the host's folder there and names
    it in KIT_ROOM_SHOWN)."""
    d = os.environ.get('KIT_ROOM_HOME')
    if d:
        return d
    base = os.environ.get('XDG_STATE_HOME') or os.path.join(os.path.expanduser('~'), '.local', 'state')
    return os.path.join(base, 'lsm-kit', 'room')


def parse_when(text):
    return datetime.datetime.strptime(text, '%Y-%m-%dT%H:%M:%S')


def check(rec, labs):
    """(lab number, {lab line's KEY: value}) of a record, checked against
    LABS (progress.read_labs); ValueError says what is wrong, quoted."""
    if not isinstance(rec, dict) or set(rec) != set(KEYS):
        raise ValueError('a result is a JSON object with the keys %s' % ', '.join(KEYS))
    if rec['v'] != 1:
        raise ValueError('v is not 1: a kit of another version sent it')
    for k in ('id', 'name', 'line', 'sent', 'title', 'detail'):
        if not isinstance(rec[k], str):
            raise ValueError('%s is not a string' % k)
    if not ID.match(rec['id']):
        raise ValueError('id is not 32 hex digits')
    if not good_name(rec['name']):
        raise ValueError('the name is empty, over 40 characters or not printable '
                         '(control characters and bidi controls are not)')
    if len(rec['line']) > MAX_LINE or len(rec['title']) > MAX_TITLE or len(rec['detail']) > MAX_DETAIL:
        raise ValueError('line, title or detail is too long (%d, %d, %d characters at most)'
                         % (MAX_LINE, MAX_TITLE, MAX_DETAIL))
    if '\n' in rec['line'] or '\n' in rec['title']:
        raise ValueError('line and title are one line each')
    if not WHEN.match(rec['sent']):
        raise ValueError('sent is not YYYY-MM-DDTHH:MM:SS')
    num, run = lab_line(rec['line'], labs)
    if run['result'] == 'never':
        raise ValueError('result=never is no run')
    step = rec['step']
    if step is not None and (type(step) is not int or not 1 <= step <= labs[num].steps):
        raise ValueError('step is not null or a step of lab %d (1 to %d)' % (num, labs[num].steps))
    if step is not None and run['result'] not in ('fail', 'trouble'):
        raise ValueError('a run with result=%s has no failing step' % run['result'])
    return num, run
