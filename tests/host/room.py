#!/usr/bin/python3
"""tests/host/room.sh's helper (not a suite: make test runs tests/host/*.sh):
records of make lab's graded runs for twenty attendees, hostile posts, and
the room page's rows.

    room.py gen DIR              DIR/aNN/tK.json: attendee NN's runs, as
                                 make lab's records (the
                                 stand-in labs of tests/data/progress:
                                 lab 1, 5 steps; lab 2, 6 steps), graded
                                 minutes ago; DIR/expected: when, then
                                 "NAME<TAB>ON<TAB>STUCK MINUTES or -" in
                                 the room's order
    room.py rows URL|FILE        the page's rows: "NAME<TAB>ON<TAB>STUCK
                                 TEXT<TAB>SECONDS"
    room.py check DIR URL|FILE   the rows against DIR/expected: the order,
                                 each one's step, stuck minutes (plus
                                 the minutes since gen)
    room.py hostile URL TOKEN DIR   hostile posts (no token, HTML, script,
                                 terminal escapes, bidi, huge, SQL, too
                                 many): each refused or stored as given,
                                 then shown escaped (DIR: for files)
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402
import datetime
import html
import json
import os
import re
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts', 'lib'))
import runrecord  # noqa: E402  the records make lab writes

OPEN = urllib.request.build_opener(urllib.request.ProxyHandler({}))
LABS = {1: ('Alpha: which LSMs are active', 5, ['default', 'apparmor']),
        2: ('Beta: a title long enough to be cut in the attendee table', 6,
            ['default', 'selinux-alone', 'none'])}


def when(t):
    return datetime.datetime.fromtimestamp(t).strftime('%Y-%m-%d %H:%M:%S')


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
                s = {'step': k, 'title': 'step %d' % k, 'result': 'PASS', 'never_graded': False,
                     'hint': False, 'diags': []}
                if result != 'pass' and k == failstep:
                    s.update(title='step %d of lab %d' % (k, lab), result='FAIL', hint=True,
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
    now = time.time()
    expected = []
    for i in range(1, 21):
        name = 'Attendee %02d' % i
        a = os.path.join(d, 'a%02d' % i)
        os.makedirs(a)
        s = (2 * i + 3) * 60 + 30          # how long they are stuck, if they are
        runs = [transcript(1, now - 90 * 60, 'pass', uniq='%02d-1' % i)]
        if i % 5 == 0:                     # lab 2 passed: not stuck
            runs += [transcript(2, now - 60 * 60, 'fail', 3, uniq='%02d-2' % i),
                     transcript(2, now - i * 60, 'pass', uniq='%02d-3' % i)]
            expected.append((name, 'lab 2 passed', '-'))
        elif i % 7 == 0:                   # on step 3 since S, after step 2; a compile error since
            runs += [transcript(2, now - 80 * 60, 'fail', 2, uniq='%02d-2' % i),
                     transcript(2, now - s, 'fail', 3, uniq='%02d-3' % i),
                     transcript(2, now - 60, 'compile', uniq='%02d-4' % i)]
            expected.append((name, 'lab 2, step 3 of 6', s // 60))
        else:                              # on step k since S, failed twice; then a run stopped
            k = i % 4 + 2
            runs += [transcript(2, now - s, 'fail', k, uniq='%02d-2' % i),
                     transcript(2, now - s / 2, 'fail', k, uniq='%02d-3' % i),
                     transcript(2, now - 30, 'stopped', uniq='%02d-4' % i)]
            if i == 3:                     # SOLUTION=1 passes: not theirs, not counted
                runs.append(transcript(2, now - 20, 'pass', what='reference', uniq='03-5'))
            expected.append((name, 'lab 2, step %d of 6' % k, s // 60))
        for n, t in enumerate(runs, 1):
            with open(os.path.join(a, 't%d.json' % n), 'w') as f:
                f.write(t)
    stuck = sorted((e for e in expected if e[2] != '-'), key=lambda e: -e[2])
    done = sorted((e for e in expected if e[2] == '-'), key=lambda e: e[0].lower())
    with open(os.path.join(d, 'expected'), 'w') as f:
        f.write('%d\n' % now)
        for e in stuck + done:
            f.write('%s\t%s\t%s\n' % e)
    return 0


ROW = re.compile(r'<tr[^>]*data-stuck="([0-9]*)"[^>]*>\s*<td class="name"><a href="/a/[0-9]+">(.*?)</a></td>'
                 r'\s*<td class="on">(.*?)</td>\s*<td class="stuck">(.*?)</td>', re.S)


def fetch(url):
    with OPEN.open(url, timeout=20) as r:
        return r.read().decode('utf-8')


def page_of(where):
    if where.startswith('http://'):
        return fetch(where)
    with open(where, encoding='utf-8') as f:
        return f.read()


def rows(where):
    return [(html.unescape(m.group(2)), html.unescape(m.group(3)), html.unescape(m.group(4)),
             m.group(1)) for m in ROW.finditer(page_of(where))]


def check(d, where):
    with open(os.path.join(d, 'expected')) as f:
        made = int(f.readline())
        want = [l.rstrip('\n').split('\t') for l in f]
    # Stuck times grow while the test runs: up to its minutes so far, + 1.
    slack = int((time.time() - made) // 60) + 1
    got = rows(where)
    if [g[0] for g in got] != [w[0] for w in want]:
        print('the order is not the longest stuck first:\n  want: %s\n  seen: %s'
              % (', '.join(w[0] for w in want), ', '.join(g[0] for g in got)))
        return 1
    bad = 0
    for (name, on, stuck), (_, gon, gstuck, secs) in zip(want, got):
        if gon != on:
            print('%s: on "%s", not "%s"' % (name, gon, on))
            bad = 1
        if stuck == '-':
            if gstuck or secs:
                print('%s: stuck "%s", but they passed' % (name, gstuck))
                bad = 1
            continue
        m = re.fullmatch(r'([0-9]+) min', gstuck)
        if not m or not int(stuck) <= int(m.group(1)) <= int(stuck) + slack:
            print('%s: stuck "%s", not %s min (or up to %d more: the test\'s own time)'
                  % (name, gstuck, stuck, slack))
            bad = 1
    return bad


def post(url, token, body, auth=True):
    headers = {'Content-Type': 'application/json'}
    if token is not None:
        headers['Authorization'] = 'Bearer ' + token
    req = urllib.request.Request(url + '/api/result', data=body, method='POST', headers=headers)
    try:
        with OPEN.open(req, timeout=20) as r:
            return r.status, json.loads(r.read())['message']
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read())['message']
        except ValueError:
            return e.code, ''


def record(name, n, **over):
    rec = {'v': 1, 'id': '%032x' % n, 'name': name,
           'line': 'lab=2 result=fail passed=2 steps=6 graded=%s what=copy kernel=normal '
                   'boots=default,selinux-alone,none' % when(time.time() - 300).replace(' ', 'T'),
           'sent': when(time.time()).replace(' ', 'T'), 'step': 3, 'title': 'step 3', 'detail': 'seen: x'}
    rec.update(over)
    return json.dumps(rec).encode()


def hostile(url, token, d):
    bad = []

    def expect(what, got, status):
        if got[0] != status:
            bad.append('%s: status %s (%s), not %d' % (what, got[0], got[1], status))
    expect('no token', post(url, None, record('Nobody', 1)), 401)
    expect('a wrong token', post(url, ('y' if token[0] == 'x' else 'x') + token[1:], record('Nobody', 2)), 401)
    expect('a name with a terminal escape', post(url, token, record('Eve\x1b]0;pwned\x07', 3)), 400)
    expect('a name with a bidi override', post(url, token, record('Eve\u202egnp.exe', 4)), 400)
    expect('a name of 41 characters', post(url, token, record('E' * 41, 5)), 400)
    expect('a post of 20 KiB', post(url, token, record('Eve', 6, detail='x' * 20000)), 413)
    expect('a detail of 5000 characters', post(url, token, record('Eve', 7, detail='x' * 5000)), 400)
    expect('a result with an escape', post(url, token, record('Eve', 8, line='lab=2 result=\x1b[2J')), 400)
    expect('5/5 pass of a lab of 6 steps', post(url, token, record(
        'Eve', 9, step=None, line='lab=2 result=pass passed=5 steps=5 graded=2026-12-05T10:00:00 what=copy '
        'kernel=normal boots=default,selinux-alone,none')), 400)
    expect('not JSON', post(url, token, b'<html>'), 400)
    # Stored as given, shown escaped: HTML, script, escapes and bidi in
    # the detail (a program's output under a FAIL), SQL in a name.
    expect('an HTML name', post(url, token, record('<script>alert(1)</script>', 10, detail=(
        '</pre><script>alert(2)</script>\nseen: \x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\nseen: abc\u202eexe.txt'))), 200)
    expect('an SQL name', post(url, token, record("Robert'); DROP TABLE runs;--", 11)), 200)
    expect('the same result again', post(url, token, record("Robert'); DROP TABLE runs;--", 11)), 200)
    # Too many: 30 a minute a name.
    seen = [post(url, token, record('Speedy', 100 + k))[0] for k in range(31)]
    if seen[:30] != [200] * 30 or seen[30] != 429:
        bad.append('31 posts of one name in a minute: %s, not 30 x 200 then 429' % seen)
    page = fetch(url + '/')
    for raw in ('<script>', '\x1b', '\u202e'):
        if raw in page:
            bad.append('the room page has a raw %r' % raw)
    if '&lt;script&gt;alert(1)&lt;/script&gt;' not in page:
        bad.append('the HTML name is not shown escaped on the page')
    if 'Robert&#x27;); DROP TABLE runs;--' not in page:
        bad.append('the SQL name is not shown as given')
    who = re.search(r'<a href="(/a/[0-9]+)">&lt;script&gt;', page)
    if not who:
        bad.append('no row opens the HTML name\'s page')
    else:
        a = fetch(url + who.group(1))
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


def main(argv):
    if argv[:1] == ['gen']:
        return gen(argv[1])
    if argv[:1] == ['rows']:
        for r in rows(argv[1]):
            print('\t'.join(r))
        return 0
    if argv[:1] == ['check']:
        return check(argv[1], argv[2])
    if argv[:1] == ['hostile']:
        return hostile(argv[1], argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
