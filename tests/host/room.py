#!/usr/bin/python3
"""tests/host/room.sh's helper (not a suite: make test runs tests/host/*.sh):
stand-in labs and the records of graded runs for twenty attendees, the room's
page read back, and the attacks of issue 53's review, on loopback only,
each bounded in count and time.  The room's wire is written out here
again from scripts/room/wire.py's description (not imported), so that
the test is the specification's, not the code's.

    room.py labs SRC DIR         DIR: the stand-in labs of SRC
                                 (tests/data/progress/labs) with graders
                                 whose STEP titles the page must show
    room.py gen DIR              DIR/aNN/tK.json: attendee NN's runs, as
                                 make lab's records (scripts/lib/runrecord.py),
                                 graded minutes ago; DIR/roster; DIR/expected
    room.py transcript FILE UNIQ a pass of lab 2, graded now
    room.py rows URL|FILE        the page's rows, one a line: CLASS, then
                                 the cells, tab-separated
    room.py check DIR URL|FILE   the page against DIR/expected
    room.py join URL NAME        join as NAME (the token on stdin): prints
                                 the join record's JSON
    room.py time URL             the seconds of one GET
    room.py unfake DB            remove the names "Fake NNN" (make room-admin's way)
    room.py hostile URL DIR      hostile posts (DIR/eve.json: a joined
                                 attendee's record)
    room.py impersonate URL TOKEN DIR   posting as someone else, every way
                                 an attendee could try (the room's token,
                                 their own secret with another's name, the
                                 other's number with their own secret)
    room.py fake MODE PORTFILE LOG   a server that is not the room: ok200,
                                 portal, redirect, trickle, escape; LOG:
                                 what it was sent
    room.py seed DB KIT RUNS NAMES   RUNS runs of NAMES attendees straight
                                 into a new room's database (store.py)
    room.py load URL SECONDS HELD SLOW FLOOD   the attacks at once, from
                                 127.0.0.2 and up, for SECONDS; then the
                                 projector's page 10 times from 127.0.0.1:
                                 the median and the worst
    room.py attack KIND URL ...  one attack: surrogate, pipes
    room.py chromium URL DIR PID   the page in headless Chromium (its
                                 DevTools protocol on a pipe): 1024x768,
                                 the rows that fit, the scroll position
                                 kept over a reload, the room stopped and
                                 back (PID: SIGSTOP, SIGCONT), no script
                                 or CSP error, DIR/dom.html, DIR/room.png
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402
import base64
import datetime
import hashlib
import hmac
import html
import html.parser
import json
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts', 'lib'))
import runrecord  # noqa: E402  the records make lab writes

LABS = {1: ('Alpha: which LSMs are active', 5, ['default', 'apparmor']),
        2: ('Beta: a title long enough to be cut in the attendee table', 6,
            ['default', 'selinux-alone', 'none'])}
STEPS = {1: ['read the list', 'count the IDs', 'fetch the IDs', 'name them', 'compare'],
         2: ['probe the size', 'fetch the buffer', 'say "hello" to the walk', 'find the context',
             'check the flags', 'every module']}
ROSTER_ABSENT = ['Absent Alice', 'Absent Bob', 'Zed Absent']
NOT_ON_ROSTER = 'Attendee 19'


def when(t):
    return datetime.datetime.fromtimestamp(t).strftime('%Y-%m-%d %H:%M:%S')


def mac(key, *parts):
    msg = b'\0'.join(p if isinstance(p, bytes) else str(p).encode('utf-8') for p in parts)
    return hmac.new(key.encode() if isinstance(key, str) else key, msg, hashlib.sha256).hexdigest()


def token_of(text):
    return re.sub(r'[\s-]', '', text).lower()


# ---- stand-in labs and runs -----------------------------------------------------

def labs(src, d):
    shutil.copytree(src, d)
    for num, titles in STEPS.items():
        sub = [e for e in os.listdir(d) if e.startswith('%02d-' % num)][0]
        with open(os.path.join(d, sub, 'grade.c'), 'w') as f:
            for k, t in enumerate(titles, 1):
                f.write('STEP(%d, "%s")\n{\n}\n' % (k, t.replace('"', '\\"')))
    return 0


def transcript(lab, t, result, failstep=None, what='copy', uniq='', detail=None):
    """The record of a run of make lab (scripts/lib/runrecord.py), as JSON."""
    title, steps, boots = LABS[lab]
    rec = runrecord.empty('work' if what == 'copy' else 'solution')
    rec.update(lab=lab, title=title, when=when(t), graded=what, flavour='normal',
               source='labs/0%d-x/work/x.c' % lab, sha256=uniq,
               console='build/logs/guest-lab-0%d-run-b*.log' % lab,
               boots=[runrecord.boot(b, b) for b in boots])
    if result == 'compile':
        rec['compile'] = 'x.c:3:1: error: expected ; before }\n'
    elif result != 'stopped':           # stopped: interrupted, no verdict
        bad = set()
        for b in rec['boots']:
            b['status'], b['results'] = 0, steps
            for k in range(1, steps + 1):
                s = {'step': k, 'title': STEPS[lab][k - 1], 'result': 'PASS', 'never_graded': False,
                     'hint': False, 'diags': []}
                if result != 'pass' and k == failstep:
                    s.update(result='FAIL', hint=True,
                             diags=detail or ['expected: 2 entries', 'seen: 1 entry',
                                              'hint: look at step %d' % k])
                elif result != 'pass' and k > failstep:
                    s.update(title='(never graded: the grader needs step %d first)' % failstep,
                             result='FAIL', hint=True, diags=[])
                b['steps'].append(s)
                if s['result'] == 'FAIL':
                    bad.add(k)
            b['passed'] = steps - len(bad)
        rec.update(steps=steps, passed=steps - len(bad), failed_steps=sorted(bad),
                   results_pass=len(rec['boots']) * (steps - len(bad)),
                   results_fail=len(rec['boots']) * len(bad))
    rec['verdict'] = runrecord.verdict_of(rec) if result != 'stopped' else 'stopped'
    return json.dumps(rec)


def gen(d):
    """Twenty attendees on lab 2 (30 minutes, 6 steps: a step's share is
    5 minutes, yellow from 5, red from 10): each stuck on a step for
    2i+3.5 minutes, but every fifth, who passed (the twentieth 88 minutes
    ago: idle); one not on the roster; three on the roster never join."""
    now = time.time()
    expected = []
    share = 30 * 60 / 6
    for i in range(1, 21):
        name = 'Attendee %02d' % i
        a = os.path.join(d, 'a%02d' % i)
        os.makedirs(a)
        s = (2 * i + 3) * 60 + 30          # how long they are stuck, if they are
        runs = [transcript(1, now - 90 * 60, 'pass', uniq='%02d-1' % i)]
        if i == 20:                        # passed 88 minutes ago, nothing since: idle
            runs += [transcript(2, now - 89 * 60, 'fail', 3, uniq='20-2'),
                     transcript(2, now - 88 * 60, 'pass', uniq='20-3')]
            expected.append((name, 'idle', 'lab 2 passed', '-'))
        elif i % 5 == 0:                   # lab 2 passed: not stuck
            runs += [transcript(2, now - 60 * 60, 'fail', 3, uniq='%02d-2' % i),
                     transcript(2, now - i * 60, 'pass', uniq='%02d-3' % i)]
            expected.append((name, '', 'lab 2 passed', '-'))
        elif i % 7 == 0:                   # on step 3 since S, after step 2; a compile error since
            runs += [transcript(2, now - 80 * 60, 'fail', 2, uniq='%02d-2' % i),
                     transcript(2, now - s, 'fail', 3, uniq='%02d-3' % i),
                     transcript(2, now - 60, 'compile', uniq='%02d-4' % i)]
            expected.append((name, 's2' if s >= 2 * share else 's1', 'lab 2, step 3 of 6: ' + STEPS[2][2], s // 60))
        else:                              # on step k since S, failed twice; then a run stopped
            k = i % 4 + 2
            runs += [transcript(2, now - s, 'fail', k, uniq='%02d-2' % i),
                     transcript(2, now - s / 2, 'fail', k, uniq='%02d-3' % i),
                     transcript(2, now - 30, 'stopped', uniq='%02d-4' % i)]
            if i == 3:                     # SOLUTION=1 passes: not theirs, not counted
                runs.append(transcript(2, now - 20, 'pass', what='reference', uniq='03-5'))
            expected.append((name, 's2' if s >= 2 * share else 's1',
                             'lab 2, step %d of 6: %s' % (k, STEPS[2][k - 1]), s // 60))
        for n, t in enumerate(runs, 1):
            with open(os.path.join(a, 't%d.json' % n), 'w') as f:
                f.write(t)
    stuck = sorted((e for e in expected if e[3] != '-'), key=lambda e: -e[3])
    done = sorted((e for e in expected if e[3] == '-'), key=lambda e: e[0].lower())
    with open(os.path.join(d, 'roster'), 'w') as f:
        f.write('# the day\'s names\n\n')
        for e in expected:
            if e[0] != NOT_ON_ROSTER:
                f.write(e[0] + '\n')
        f.write('\n'.join(ROSTER_ABSENT) + '\n')
    with open(os.path.join(d, 'expected'), 'w') as f:
        f.write('%d\n' % now)
        f.write('summary\tLab 2 (%s) in progress: 4 passed, 16 stuck, 0 working, 3 not started (of 23)\n'
                % LABS[2][0])
        for e in stuck + done:
            f.write('%s\t%s\t%s\t%s\n' % e)
        for n in ROSTER_ABSENT:
            f.write('%s\tabsent\tnot joined (on the roster)\t-\n' % n)
    return 0


# ---- the page -----------------------------------------------------------------------

class Rows(html.parser.HTMLParser):
    """The rows of table#rows: (the row's class, [(cell text, cell class)]),
    and the summary line."""

    def __init__(self):
        super().__init__()
        self.rows, self.summary = [], None
        self.intable = self.inbody = False
        self.cell = None
        self.insum = False
        self.sumtext = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'table' and a.get('id') == 'rows':
            self.intable = True
        elif tag == 'tbody' and self.intable:
            self.inbody = True
        elif tag == 'tr' and self.inbody:
            self.rows.append((a.get('class') or '', []))
        elif tag == 'td' and self.inbody:
            self.cell = [[], a.get('class') or '']
        elif tag == 'p' and a.get('id') == 'summary':
            self.insum = True

    def handle_endtag(self, tag):
        if tag == 'td' and self.cell is not None:
            self.rows[-1][1].append((''.join(self.cell[0]), self.cell[1]))
            self.cell = None
        elif tag == 'table':
            self.intable = self.inbody = False
        elif tag == 'p' and self.insum:
            self.insum = False
            self.summary = ''.join(self.sumtext)

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0].append(data)
        if self.insum:
            self.sumtext.append(data)


OPEN_PLAIN = None


def get(url, source=None, timeout=20):
    """(status, headers, body) of a GET, from SOURCE (an address of
    127/8) if given."""
    m = re.match(r'http://([^/:]+|\[[^]]+\]):([0-9]+)(/.*)?$', url)
    host, port, where = m.group(1).strip('[]'), int(m.group(2)), m.group(3) or '/'
    s = socket.create_connection((host, port), timeout=timeout, source_address=(source, 0) if source else None)
    with s:
        s.sendall(('GET %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n\r\n' % (where, host, port)).encode())
        data = b''
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            c = s.recv(65536)
            if not c:
                break
            data += c
    head, _, body = data.partition(b'\r\n\r\n')
    lines = head.decode('iso-8859-1').split('\r\n')
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(':') for line in lines[1:])}
    return status, headers, body


def page_of(where):
    if where.startswith('http://'):
        status, _, body = get(where)
        if status != 200:
            raise SystemExit('GET %s: HTTP %d' % (where, status))
        return body.decode('utf-8')
    with open(where, encoding='utf-8') as f:
        return f.read()


def rows(where):
    p = Rows()
    p.feed(page_of(where))
    return p


def check(d, where):
    with open(os.path.join(d, 'expected')) as f:
        made = int(f.readline())
        summary = f.readline().rstrip('\n').split('\t')[1]
        want = [line.rstrip('\n').split('\t') for line in f]
    # Stuck times grow while the test runs: up to its minutes so far, + 1.
    slack = int((time.time() - made) // 60) + 1
    got = rows(where)
    names = [r[1][0][0].rstrip(' *') for r in got.rows]
    bad = []
    if names != [w[0] for w in want]:
        bad.append('the order is not the longest stuck first, then the others, then the absent:\n  want: %s\n'
                   '  seen: %s' % (', '.join(w[0] for w in want), ', '.join(names)))
    if got.summary != summary:
        bad.append('the summary row: "%s", not "%s"' % (got.summary, summary))
    for (name, cls, on, stuck), (gcls, cells) in zip(want, got.rows):
        if len(cells) < 5:
            bad.append('%s: %d cells' % (name, len(cells)))
            continue
        shown, gon, gstuck, glast = cells[0][0], cells[1][0], cells[2][0], cells[4][0]
        if shown.endswith(' *') != (name == NOT_ON_ROSTER):
            bad.append('%s: "%s": the mark of a name not on the roster is %s' % (
                name, shown, 'missing' if name == NOT_ON_ROSTER else 'wrong'))
        if gon != on:
            bad.append('%s: on "%s", not "%s"' % (name, gon, on))
        if cls in ('s1', 's2'):
            # the class of the time shown: lab 2's step share is 5 minutes
            m = re.fullmatch(r'([0-9]+) min', gstuck)
            cls = 's2' if m and int(m.group(1)) >= 10 else 's1'
            if cls not in gcls.split() or ({'s1', 's2'} - {cls}) & set(gcls.split()):
                bad.append('%s: stuck %s, the row\'s class is "%s", not %s (yellow from 5 min, red from 10)'
                           % (name, gstuck, gcls, cls))
        elif cls and cls not in gcls.split():
            bad.append('%s: the row\'s class is "%s", without %s' % (name, gcls, cls))
        if cls == 'idle' and not re.match(r'idle 1 h 2[89] min; PASS 6/6', glast):
            bad.append('%s: last run "%s", not "idle 1 h 28 min; PASS 6/6"' % (name, glast))
        if cls != 'idle' and 'idle' in gcls.split():
            bad.append('%s: idle, but they ran a minute ago' % name)
        if stuck == '-':
            if gstuck:
                bad.append('%s: stuck "%s", but they are not' % (name, gstuck))
            continue
        m = re.fullmatch(r'([0-9]+) min', gstuck)
        if not m or not int(stuck) <= int(m.group(1)) <= int(stuck) + slack:
            bad.append('%s: stuck "%s", not %s min (or up to %d more: the test\'s own time)'
                       % (name, gstuck, stuck, slack))
    for b in bad:
        print(b)
    return 1 if bad else 0


# ---- the wire, from the attendee's side ---------------------------------------------

def call(url, method, where, body=None, headers=(), source=None, timeout=20):
    """(status, JSON object or None, raw body) of one request."""
    m = re.match(r'http://([^/:]+|\[[^]]+\]):([0-9]+)$', url.rstrip('/'))
    host, port = m.group(1).strip('[]'), int(m.group(2))
    head = ['%s %s HTTP/1.1' % (method, where), 'Host: %s:%d' % (host, port), 'Connection: close']
    head += ['%s: %s' % h for h in headers]
    if body is not None:
        head += ['Content-Type: application/json', 'Content-Length: %d' % len(body)]
    s = socket.create_connection((host, port), timeout=timeout, source_address=(source, 0) if source else None)
    data = b''
    with s:
        s.sendall(('\r\n'.join(head) + '\r\n\r\n').encode() + (body or b''))
        try:
            while True:
                c = s.recv(65536)
                if not c:
                    break
                data += c
        except (ConnectionResetError, socket.timeout):
            pass
    head, _, raw = data.partition(b'\r\n\r\n')
    first = head.split(b'\r\n')[0].split()
    status = int(first[1]) if len(first) > 1 else 0
    try:
        obj = json.loads(raw)
    except ValueError:
        obj = None
    return status, obj, raw


def join(url, name, token, source=None):
    """(status, the join's answer, raw).  A room of a kit before issue 53
    has no join (404): the answer is then {"legacy": ...}, with which post()
    posts as that kit's laptops did, the room's token and the name."""
    n = os.urandom(16).hex()
    body = json.dumps({'v': 2, 'name': name, 'nonce': n, 'proof': mac(token_of(token), 'join', n, name)}).encode()
    st, obj, raw = call(url, 'POST', '/api/join', body, source=source)
    if st == 404 and obj and obj.get('message') == 'POST /api/result only':
        return 200, {'legacy': token, 'name': name, 'attendee': 0, 'secret': '', 'room': ''}, raw
    return st, obj, raw


def record(name, n, lab=2, **over):
    rec = {'v': 1, 'id': '%032x' % n, 'name': name,
           'line': 'lab=2 result=fail passed=2 steps=6 graded=%s what=copy kernel=normal '
                   'boots=default,selinux-alone,none' % when(time.time() - 300).replace(' ', 'T'),
           'sent': when(time.time()).replace(' ', 'T'), 'step': 3, 'title': 'step 3', 'detail': 'seen: x'}
    if lab == 1:
        rec.update(line='lab=1 result=pass passed=5 steps=5 graded=%s what=copy kernel=normal '
                   'boots=default,apparmor' % when(time.time() - 60).replace(' ', 'T'), step=None, title='',
                   detail='')
    rec.update(over)
    return json.dumps(rec).encode('ascii')


def post(url, j, body, source=None):
    """(status, answer, raw) of a post signed as the join record J (of a
    kit before issue 53: with its token)."""
    if j.get('legacy'):
        return call(url, 'POST', '/api/result', body, [('Authorization', 'Bearer ' + j['legacy'])], source=source)
    return call(url, 'POST', '/api/result', body, [('X-Kit-Attendee', str(j['attendee'])),
                                                   ('X-Kit-Signature', mac(j['secret'], 'post', body))],
                source=source)


def cmd_join(url, name):
    status, obj, raw = join(url, name, sys.stdin.readline().strip())
    if status != 200 or not obj:
        print('join as %s: HTTP %d %r' % (name, status, raw[:200]), file=sys.stderr)
        return 1
    print(json.dumps(obj))
    return 0


def hostile(url, d):
    """Posts of a joined attendee (d/eve.json) that are refused, or stored
    as given and shown escaped."""
    with open(os.path.join(d, 'eve.json')) as f:
        eve = json.load(f)
    bad = []

    def expect(what, got, status):
        if got[0] != status:
            bad.append('%s: HTTP %s (%s), not %d' % (what, got[0], got[1] and got[1].get('message'), status))
    expect('no signature', call(url, 'POST', '/api/result', record('Eve', 1)), 401)
    expect('a wrong signature', call(url, 'POST', '/api/result', record('Eve', 2), [
        ('X-Kit-Attendee', str(eve['attendee'])), ('X-Kit-Signature', '0' * 64)]), 401)
    expect('a name with a terminal escape', post(url, eve, record('Eve\x1b]0;pwned\x07', 3)), 400)
    expect('a name with a bidi override', post(url, eve, record('Eve\u202egnp.exe', 4)), 400)
    expect('a name of 41 characters', post(url, eve, record('E' * 41, 5)), 400)
    expect('a post of 20 KiB', post(url, eve, record('Eve', 6, detail='x' * 20000)), 413)
    expect('a detail of 5000 characters', post(url, eve, record('Eve', 7, detail='x' * 5000)), 400)
    expect('a result with an escape', post(url, eve, record('Eve', 8, line='lab=2 result=\x1b[2J')), 400)
    expect('5/5 pass of a lab of 6 steps', post(url, eve, record(
        'Eve', 9, step=None, line='lab=2 result=pass passed=5 steps=5 graded=2026-12-05T10:00:00 what=copy '
        'kernel=normal boots=default,selinux-alone,none')), 400)
    expect('not JSON', post(url, eve, b'<html>'), 400)
    expect('a lone surrogate', post(url, eve, record('Eve', 12, detail='seen: \ud800')), 400)
    expect('a lab this kit does not have', post(url, eve, record(
        'Eve', 13, line='lab=99 result=fail passed=2 steps=6 graded=2026-12-05T10:00:00 what=copy '
        'kernel=normal boots=default')), 400)
    # A signed refusal: the laptop may file it as refused for good.
    st, obj, _ = post(url, eve, record('Eve', 14, detail='x' * 5000))
    if not (obj and obj.get('refused') == mac(eve['secret'], 'refused', eve['room'], '%032x' % 14,
                                              obj.get('message', ''))):
        bad.append('a refusal that is not signed with the laptop\'s secret: %r' % obj)
    # Stored as given, shown escaped: HTML, script, escapes and bidi in
    # the detail (a program's output under a FAIL).
    st, obj, _ = post(url, eve, record('Eve', 10, detail=(
        '</pre><script>alert(2)</script>\nseen: \x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\nseen: abc\u202eexe.txt')))
    expect('HTML and escapes in a detail', (st, obj), 200)
    if not (obj and obj.get('ack') == mac(eve['secret'], 'ack', eve['room'], '%032x' % 10)):
        bad.append('an acknowledgement that is not signed with the laptop\'s secret: %r' % obj)
    expect('the same result again', post(url, eve, record('Eve', 10)), 200)
    # Too many: 60 a minute an attendee; then a 429 (for now, not for good).
    seen = [post(url, eve, record('Eve', 100 + k, lab=1))[0] for k in range(61)]
    k = seen.index(429) if 429 in seen else 61
    if not 40 <= k <= 60 or seen[:k] != [200] * k or set(seen[k:]) != {429}:
        bad.append('61 posts of one attendee in a minute (after some 15 refused): %s, not 200s, then 429s '
                   'once 60 were sent' % seen)
    page = page_of(url + '/')
    for raw in ('<script>alert', '\x1b', '\u202e'):
        if raw in page:
            bad.append('the room page has a raw %r' % raw)
    name = html.escape(eve['name'], quote=True)
    who = re.search(r'<a href="(/a/[0-9]+)">%s</a>' % re.escape(name), page)
    if not who:
        bad.append('no row opens %s\'s page' % eve['name'])
    else:
        a = page_of(url + who.group(1))
        for raw in ('<script>', '\x1b', '\u202e', '\x07'):
            if raw in a:
                bad.append('its page has a raw %r' % raw)
        for shown in ('&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;', '\\033[2J\\033]52;c;', 'abc\\u202eexe.txt'):
            if shown not in a:
                bad.append('its page does not show %s' % shown)
    with open(os.path.join(d, 'hostile-page.html'), 'w') as f:
        f.write(page)
    for b in bad:
        print(b)
    return 1 if bad else 0


def unfake(db):
    """Remove the names "Fake NNN" through the running room's admin
    requests (the instructor's token from DB), as make room-admin would."""
    import sqlite3
    con = sqlite3.connect(db)
    m = dict(con.execute('SELECT key, value FROM meta'))
    names = [r[0] for r in con.execute("SELECT name FROM attendees WHERE name LIKE 'Fake %'")]
    con.close()
    for n in names:
        st, obj, _ = call(m['listen'], 'POST', '/api/admin/remove', json.dumps({'name': n}).encode(),
                          [('Authorization', 'Bearer ' + m['admin'])])
        if st != 200:
            print('remove %s: HTTP %d %s' % (n, st, obj))
            return 1
    return 0


def impersonate(url, token, d):
    """Eve (d/eve.json) posts a lab 1 pass as Bob (d/bob.json, who has no
    run of lab 1) every way she can; Bob's row must not change, nor his
    rate: his own post goes through after hers."""
    with open(os.path.join(d, 'eve.json')) as f:
        eve = json.load(f)
    with open(os.path.join(d, 'bob.json')) as f:
        bob = json.load(f)
    tries = [
        ('the room\'s token, name Bob', call(url, 'POST', '/api/result', record(bob['name'], 501, lab=1),
                                             [('Authorization', 'Bearer ' + token)])),
        ('her own secret, name Bob', post(url, eve, record(bob['name'], 502, lab=1))),
        ('Bob\'s number, her secret', call(url, 'POST', '/api/result', record(bob['name'], 503, lab=1), [
            ('X-Kit-Attendee', str(bob['attendee'])),
            ('X-Kit-Signature', mac(eve['secret'], 'post', record(bob['name'], 503, lab=1)))])),
    ]
    # 70 posts as Bob (more than his rate a minute) from the room's token
    for k in range(70):
        call(url, 'POST', '/api/result', record(bob['name'], 600 + k, lab=1), [('Authorization', 'Bearer ' + token)])
    bad = []
    for what, (status, obj, raw) in tries:
        if status == 200 and not (obj and obj.get('room') == eve['room'] and what.startswith('her own')):
            bad.append('%s: HTTP 200 (%s)' % (what, obj and obj.get('message')))
    p = rows(url + '/')
    for cls, cells in p.rows:
        if cells and cells[0][0].rstrip(' *') == bob['name'] and len(cells) > 5 and cells[5][0] != '.':
            bad.append('Bob\'s row shows a run of lab 1 ("%s") he never sent' % cells[5][0])
    st, obj, _ = post(url, bob, record(bob['name'], 700, lab=1))
    if st != 200:
        bad.append('Bob\'s own post after Eve\'s: HTTP %d (%s)' % (st, obj and obj.get('message')))
    for b in bad:
        print(b)
    return 1 if bad else 0


# ---- servers that are not the room ------------------------------------------------------

def fake(mode, portfile, log):
    """MODE: ok200 (a JSON 200 of no room), portal (a captive portal's
    200 page), redirect (302 to a second listener, which logs what it is
    sent in LOG.followed), trickle (an answer's header a byte every 0.4 s), escape (a
    status line and a body with terminal escapes)."""
    srv = socket.socket()
    srv.bind(('127.0.0.1', 0))
    srv.listen(16)
    other = socket.socket()
    other.bind(('127.0.0.1', 0))
    other.listen(16)
    with open(portfile + '.tmp', 'w') as f:
        f.write('%d\n' % srv.getsockname()[1])
    os.replace(portfile + '.tmp', portfile)
    out = open(log, 'ab', buffering=0)

    def read(c, to=out):
        c.settimeout(5)
        data = b''
        try:
            while b'\r\n\r\n' not in data:
                x = c.recv(4096)
                if not x:
                    break
                data += x
            m = re.search(rb'(?i)content-length: *([0-9]+)', data)
            if m:
                while len(data.partition(b'\r\n\r\n')[2]) < int(m.group(1)):
                    x = c.recv(4096)
                    if not x:
                        break
                    data += x
        except OSError:
            pass
        to.write(data + b'\n----\n')
        return data

    # What the redirect's target is sent: a log of its own (LOG.followed),
    # so that a retry to the server itself (the client's background
    # flush) is not taken for a followed redirect.
    followed = open(log + '.followed', 'ab', buffering=0)

    def serve_other():
        while True:
            c, _ = other.accept()
            read(c, followed)
            c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n'
                      b'{"ok": true, "message": "got"}\n')
            c.close()
    threading.Thread(target=serve_other, daemon=True).start()
    end = time.monotonic() + 300
    srv.settimeout(5)
    while time.monotonic() < end:
        try:
            c, _ = srv.accept()
        except socket.timeout:
            continue

        def answer(c):
            read(c)
            try:
                if mode == 'ok200':
                    body = b'{"ok": true, "message": "stored"}\n'
                    c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n'
                              % len(body) + body)
                elif mode == 'portal':
                    body = b'<html><body>Welcome to the conference Wi-Fi</body></html>\n'
                    c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n'
                              % len(body) + body)
                elif mode == 'redirect':
                    c.sendall(b'HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:%d/api/result\r\n'
                              b'Content-Length: 0\r\n\r\n' % other.getsockname()[1])
                elif mode == 'trickle':
                    for b in b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ' + b'a' * 1000:
                        c.sendall(bytes([b]))
                        time.sleep(0.4)
                elif mode == 'escape':
                    c.sendall(b'HTTP/1.1 2\x1b]0;pwned\x07\x1b[2J00 OK\r\nContent-Type: application/json\r\n'
                              b'Content-Length: 40\r\n\r\n{"message": "\\u001b[31mred\\u001b[0m"}\n')
            except OSError:
                pass
            c.close()
        threading.Thread(target=answer, args=(c,), daemon=True).start()
    return 0


# ---- load ---------------------------------------------------------------------------------

def seed(db, kit, runs, names):
    """RUNS runs of NAMES attendees into a new room's database DB, in one
    transaction: a room after a day of a flood.  The names joined as the
    kit's store.py joins them (a kit before issue 53: its server.py's
    schema, names without secrets)."""
    for sub in ('room', 'progress', 'lib'):
        sys.path.insert(0, os.path.join(kit, 'scripts', sub))
    import progress  # noqa: E402  the kit's
    labs = progress.read_labs(['1\t5\tdefault,apparmor\tAlpha\n', '2\t6\tdefault,selinux-alone,none\tBeta\n'])
    now = time.time()
    if os.path.exists(os.path.join(kit, 'scripts', 'room', 'store.py')):
        import store  # noqa: E402
        s = store.Store(db, labs)
        who = [s.join('Flood %03d' % i, '127.0.0.9', now)[2] for i in range(names)]
        con = s.db
    else:
        import server  # noqa: E402  the old one's Room: its schema
        con = server.Room(db, labs).db
        who = [con.execute('INSERT INTO attendees (name) VALUES (?)', ('Flood %03d' % i,)).lastrowid
               for i in range(names)]
    rows = []
    for k in range(runs):
        at = now - 3600 + k * 3600.0 / runs
        rows.append((who[k % names], '%032x' % k, 2, 'fail', 2, 6, 3, 'step 3', 'seen: x' * 50, 'copy', 'normal',
                     'default,selinux-alone,none', when(at).replace(' ', 'T'), at, at))
    with con:
        con.execute('BEGIN')
        con.executemany('INSERT INTO runs (attendee, id, lab, result, passed, steps, step, title, detail, what, '
                        'kernel, boots, graded, at, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                        rows)
    con.close()
    return 0


def raise_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def attackers(url, held, slow, flood, stop, counts):
    """Threads: HELD connections kept open (a new one for each the room
    closes) from 127.0.0.2-11; SLOW uploads a byte every 5 s from
    127.0.0.12-27; FLOOD loops of GET / from 127.0.0.28-43."""
    m = re.match(r'http://127\.0\.0\.1:([0-9]+)', url)
    port = int(m.group(1))

    def connect(src):
        s = socket.socket()
        s.setblocking(False)
        s.bind((src, 0))
        try:
            s.connect(('127.0.0.1', port))
        except BlockingIOError:
            pass
        return s

    def holder():
        sel = selectors.DefaultSelector()
        n = 0
        while not stop.is_set():
            while len(sel.get_map()) < held and not stop.is_set():
                try:
                    s = connect('127.0.0.%d' % (2 + n % 10))
                except OSError:
                    counts['held-fail'] = counts.get('held-fail', 0) + 1
                    break
                n += 1
                counts['held'] = n
                sel.register(s, selectors.EVENT_READ)
            for key, _ in sel.select(timeout=0.2):
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b''
                if not data:
                    sel.unregister(key.fileobj)
                    key.fileobj.close()
        for key in list(sel.get_map().values()):
            key.fileobj.close()

    def slowpoke(i):
        while not stop.is_set():
            s = socket.socket()
            try:
                s.settimeout(10)
                s.bind(('127.0.0.%d' % (12 + i), 0))
                s.connect(('127.0.0.1', port))
                s.sendall(b'POST /api/result HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                          b'Content-Length: 10000\r\n\r\n')
                counts['slow'] = counts.get('slow', 0) + 1
                while not stop.is_set():
                    s.sendall(b'x')
                    if stop.wait(5):
                        break
            except OSError:
                pass
            finally:
                s.close()

    def flooder(i):
        while not stop.is_set():
            try:
                get(url + '/', source='127.0.0.%d' % (28 + i), timeout=10)
                counts['flood'] = counts.get('flood', 0) + 1
            except OSError:
                counts['flood-fail'] = counts.get('flood-fail', 0) + 1
    ts = [threading.Thread(target=holder, daemon=True)]
    ts += [threading.Thread(target=slowpoke, args=(i,), daemon=True) for i in range(slow)]
    ts += [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(flood)]
    for t in ts:
        t.start()
    return ts


def load(url, seconds, held, slow, flood):
    """The attacks (a process of their own) for SECONDS, and the page
    fetched 10 times from 127.0.0.1 meanwhile (after SECONDS/3): prints
    the median and the worst, and the attackers' counts; 1 if the
    median is 1 s or more, or a fetch failed."""
    raise_files()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        stop, counts = threading.Event(), {}
        attackers(url, held, slow, flood, stop, counts)
        time.sleep(seconds)
        stop.set()
        os.write(w, json.dumps(counts).encode())
        os._exit(0)
    os.close(w)
    time.sleep(seconds / 3.0)
    times, failed = [], []
    for _ in range(10):
        t = time.monotonic()
        try:
            status, _, body = get(url + '/', timeout=20)
            if status != 200 or b'id="rows"' not in body:
                failed.append('HTTP %d' % status)
        except OSError as e:
            failed.append(str(e))
        times.append(time.monotonic() - t)
        time.sleep(max(0.0, (seconds * 2 / 3.0 - 1) / 10 - times[-1]))
    counts = json.loads(os.read(r, 4096) or b'{}')
    os.waitpid(pid, 0)
    med = statistics.median(times)
    print('the page, 10 loads during the attack: median %.3f s, worst %.3f s; attackers: %s'
          % (med, max(times), ', '.join('%s %s' % kv for kv in sorted(counts.items()))))
    for f in failed:
        print('a load failed: %s' % f)
    return 0 if med < 1.0 and not failed else 1


def attack(kind, url, *rest):
    """surrogate: a lone surrogate in a post's JSON (signed: d/eve.json);
    pipes N: N requests closed before their answer is read."""
    if kind == 'pipes':
        m = re.match(r'http://127\.0\.0\.1:([0-9]+)', url)
        for i in range(int(rest[0])):
            s = socket.create_connection(('127.0.0.1', int(m.group(1))), timeout=5,
                                         source_address=('127.0.0.%d' % (50 + i % 20), 0))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b'\x01\x00\x00\x00\x00\x00\x00\x00')
            s.sendall(b'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
            s.close()           # a reset, before the page is sent
        return 0
    with open(os.path.join(rest[0], 'eve.json')) as f:
        eve = json.load(f)
    body = record(eve['name'], 900, detail='seen: \ud800 \udfff')
    st, obj, _ = post(url, eve, body)
    print('HTTP %d: %s' % (st, obj and obj.get('message')))
    return 0 if st == 400 else 1


# ---- headless Chromium, through its DevTools protocol on a pipe ----------------------------------

class Chromium:
    def __init__(self, scratch):
        a_r, a_w = os.pipe()        # to the browser (its fd 3)
        b_r, b_w = os.pipe()        # from the browser (its fd 4)

        def fds():
            os.dup2(a_r, 3)
            os.dup2(b_w, 4)
        self.err = open(os.path.join(scratch, 'chromium.err'), 'wb')
        self.p = subprocess.Popen(
            ['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
             '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
             '--remote-debugging-pipe', '--user-data-dir=' + os.path.join(scratch, 'chromium-profile'),
             'about:blank'], stdin=subprocess.DEVNULL, stdout=self.err, stderr=self.err,
            preexec_fn=fds, pass_fds=(3, 4))
        os.close(a_r)
        os.close(b_w)
        self.w, self.r = a_w, b_r
        self.n = 0
        self.buf = b''
        self.events = []
        self.session = None

    def recv(self, deadline):
        while b'\0' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError('the browser did not answer in time')
            sel = selectors.DefaultSelector()
            sel.register(self.r, selectors.EVENT_READ)
            if not sel.select(left):
                continue
            data = os.read(self.r, 1 << 20)
            if not data:
                raise EOFError('the browser closed its pipe')
            self.buf += data
        msg, _, self.buf = self.buf.partition(b'\0')
        return json.loads(msg)

    def send(self, method, params=None, timeout=30, session=True):
        self.n += 1
        msg = {'id': self.n, 'method': method, 'params': params or {}}
        if session and self.session:
            msg['sessionId'] = self.session
        os.write(self.w, json.dumps(msg).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(deadline)
            if m.get('id') == self.n:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})
            self.events.append(m)

    def wait_event(self, name, timeout=30):
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get('method') == name:
                del self.events[i]
                return m
        while True:
            m = self.recv(deadline)
            if m.get('method') == name:
                return m
            self.events.append(m)

    def js(self, expr, timeout=30):
        r = self.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True, 'awaitPromise': True},
                      timeout=timeout)
        if 'exceptionDetails' in r:
            raise RuntimeError('%s: %s' % (expr[:60], r['exceptionDetails']))
        return r['result'].get('value')

    def close(self):
        try:
            self.send('Browser.close', session=False, timeout=5)
        except Exception:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def chromium(url, d, pid):
    """The page at 1024x768 in headless Chromium: its rows that fit, its
    DOM (dom.html) and a screenshot (room.png); its reload keeps the
    scroll position; the room stopped, it says so and keeps its table,
    and reloads again when the room is back; no script error, no CSP
    report."""
    bad = []
    b = Chromium(d)
    try:
        target = b.send('Target.createTarget', {'url': 'about:blank'}, session=False)['targetId']
        b.session = b.send('Target.attachToTarget', {'targetId': target, 'flatten': True}, session=False)['sessionId']
        b.send('Emulation.setDeviceMetricsOverride', {'width': 1024, 'height': 768, 'deviceScaleFactor': 1,
                                                      'mobile': False})
        for domain in ('Page', 'Runtime', 'Log'):
            b.send(domain + '.enable')
        b.send('Page.navigate', {'url': url + '/'})
        b.wait_event('Page.loadEventFired')
        fit = b.js('Array.from(document.querySelectorAll("#rows tbody tr")).filter('
                   'r => r.getBoundingClientRect().bottom <= window.innerHeight).length')
        total = b.js('document.querySelectorAll("#rows tbody tr").length')
        wide = b.js('document.documentElement.scrollWidth')
        print('1024x768: %d of the %d rows fit, the page is %d px wide' % (fit, total, wide))
        if fit < 20:
            bad.append('only %d rows fit at 1024x768, not 20' % fit)
        if wide > 1024:
            bad.append('the page is %d px wide: wider than 1024' % wide)
        with open(os.path.join(d, 'dom.html'), 'w') as f:
            f.write(b.js('document.documentElement.outerHTML'))
        shot = b.send('Page.captureScreenshot', {'format': 'png'})['data']
        with open(os.path.join(d, 'room.png'), 'wb') as f:
            f.write(base64.b64decode(shot))
        # The reload keeps the scroll position (a window of 400 px).
        b.send('Emulation.setDeviceMetricsOverride', {'width': 1024, 'height': 400, 'deviceScaleFactor': 1,
                                                      'mobile': False})
        b.js('window.scrollTo(0, 150)')
        y0, c0 = b.js('window.scrollY'), b.js('document.getElementById("room").dataset.clock')
        period = int(b.js('document.getElementById("room").dataset.refresh'))
        deadline = time.monotonic() + 4 * period + 5
        while time.monotonic() < deadline and b.js('document.getElementById("room").dataset.clock') == c0:
            time.sleep(0.5)
        c1, y1 = b.js('document.getElementById("room").dataset.clock'), b.js('window.scrollY')
        print('scrolled to %s at %s; after the reload of %s: %s' % (y0, c0, c1, y1))
        if y0 < 100:
            bad.append('the page did not scroll (%s): the case tests nothing' % y0)
        if c1 == c0:
            bad.append('the table was not reloaded in %d s' % (4 * period + 5))
        if y1 != y0:
            bad.append('the reload moved the page from %s to %s' % (y0, y1))
        # The room stopped: the table stays, a line says so; back: reloaded.
        os.kill(pid, signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 4 * period + 15
            while time.monotonic() < deadline and b.js('document.getElementById("stale").hidden'):
                time.sleep(0.5)
            stale = b.js('document.getElementById("stale").hidden ? "" : document.getElementById("stale").textContent')
            rows_left = b.js('document.querySelectorAll("#rows tbody tr").length')
        finally:
            os.kill(pid, signal.SIGCONT)
        print('the room stopped: "%s"; %s rows still shown' % (stale, rows_left))
        if 'did not answer' not in (stale or '') or rows_left != total:
            bad.append('with the room stopped the page does not keep its table and say so')
        deadline = time.monotonic() + 4 * period + 15
        while time.monotonic() < deadline and not b.js('document.getElementById("stale").hidden'):
            time.sleep(0.5)
        if not b.js('document.getElementById("stale").hidden'):
            bad.append('the room back, the page does not reload again')
        errors = [m for m in b.events if m.get('method') == 'Runtime.exceptionThrown' or (
            m.get('method') == 'Log.entryAdded' and m['params']['entry'].get('level') == 'error'
            and 'ERR_CONNECTION' not in m['params']['entry'].get('text', '')
            and 'Failed to fetch' not in m['params']['entry'].get('text', '')
            and 'Failed to load resource' not in m['params']['entry'].get('text', ''))]
        for e in errors[:5]:
            bad.append('the browser reported: %s' % json.dumps(e['params'])[:300])
    except (RuntimeError, TimeoutError, EOFError, OSError) as e:
        bad.append('the browser: %s' % e)
    finally:
        b.close()
    for x in bad:
        print(x)
    return 1 if bad else 0


def main(argv):
    cmds = {'labs': (labs, 2), 'gen': (gen, 1),
            'transcript': (lambda f, u: open(f, 'w').write(transcript(2, time.time(), 'pass', uniq=u)) and 0, 2), 'check': (check, 2), 'join': (cmd_join, 2),
            'hostile': (hostile, 2), 'unfake': (unfake, 1), 'impersonate': (impersonate, 3), 'fake': (fake, 3),
            'seed': (lambda db, kit, runs, names: seed(db, kit, int(runs), int(names)), 4),
            'load': (lambda u, s, h, sl, f: load(u, float(s), int(h), int(sl), int(f)), 5),
            'chromium': (lambda u, d, p: chromium(u, d, int(p)), 3)}
    if argv[:1] == ['rows']:
        p = rows(argv[1])
        try:
            print('summary\t%s' % p.summary)
            for cls, cells in p.rows:
                print('\t'.join([cls] + [c[0] for c in cells]))
            sys.stdout.flush()
        except BrokenPipeError:         # grep -q has seen enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if argv[:1] == ['time'] and len(argv) == 2:
        t = time.monotonic()
        status, _, _ = get(argv[1])
        print('%.3f' % (time.monotonic() - t))
        return 0 if status == 200 else 1
    if argv[:1] == ['attack'] and len(argv) >= 3:
        return attack(*argv[1:])
    if argv[:1] and argv[0] in cmds and len(argv) == cmds[argv[0]][1] + 1:
        return cmds[argv[0]][0](*argv[1:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
