"""make room's pages, from the standings (store.py): the room (what the
projector shows) and an attendee's.  HTML only; server.py serves them.

The room: one row per attendee (and per roster name that never joined),
the longest stuck first; for each, the lab and step they are on with the
step's title (the instructor's kit's grader), how long they have been
stuck there, since when, their last run and whether they are idle (no
run for IDLE minutes while the room moved on), then each lab's last run.
Above the table, the lab in progress (the lab most attendees are on) in
one row: passed, stuck, working, not started.  Stuck turns yellow past
the step's share of the lab's time (lab.conf's MINUTES / its steps) and
red past twice that.  Every time is the room's clock.  The page reloads
its table itself every REFRESH s (a script the CSP allows by its hash),
keeping its scroll position; when the room does not answer it keeps the
last table and says so (without scripts: a plain reload).  Every string a
post gave is escaped: quoted() as on a terminal, then html.escape().
"""
import base64
import hashlib
import html
import time

from progress import cell
from quote import quoted

IDLE = 20 * 60
ROWS_NOTE = 'the longest stuck first'


def duration(secs):
    m = int(secs // 60)
    return '%d min' % m if m < 60 else '%d h %02d min' % (m // 60, m % 60)


def clock(t, now):
    """HH:MM of T (the room's clock), with the date if it is not NOW's day."""
    lt = time.localtime(t)
    same = lt[:3] == time.localtime(now)[:3]
    return time.strftime('%H:%M' if same else '%m-%d %H:%M', lt)


def esc(text, limit=None):
    """A string a post gave, for HTML: its hidden characters shown as
    quoted() shows them, then HTML-escaped."""
    return html.escape(quoted(text, limit), quote=True)


def result_word(r):
    if r['result'] in ('pass', 'fail', 'trouble'):
        return '%s %d/%d%s' % ('PASS' if r['result'] == 'pass' else 'FAIL', r['passed'], r['steps'],
                               ' (a boot went wrong)' if r['result'] == 'trouble' else '')
    return {'nograde': 'FAIL, no step graded', 'compile': 'does not compile',
            'stopped': 'no verdict'}.get(r['result'], r['result'])


def share(kit, lab):
    """Seconds: a step's share of LAB's time (MINUTES / steps); 10 min for
    a lab this kit does not have."""
    lab_ = kit.labs.get(lab)
    if lab_ is None or lab not in kit.minutes or not lab_.steps:
        return 600.0
    return kit.minutes[lab] * 60.0 / lab_.steps


STYLE = '''*{box-sizing:border-box}
body{font:13px/1.25 sans-serif;margin:.5em .6em;background:#fff;color:#111}
h1{font-size:1.35em;margin:0 0 .2em}h1 small{font-weight:normal;color:#555;font-size:.7em}
p{margin:.25em 0}p.sum{font-size:1.1em;background:#eef3ff;padding:.2em .4em;border:1px solid #bcd}
p.legend{color:#444;font-size:.85em}p#stale{background:#fdd;padding:.2em .4em}
table{border-collapse:collapse;table-layout:fixed;width:100%}
th,td{border:1px solid #bbb;padding:2px 3px;text-align:center;unicode-bidi:isolate;
white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
th{background:#f3f3f3;font-weight:600}
col.name{width:140px}col.stuck{width:62px}col.since{width:48px}col.last{width:128px}col.lab{width:31px}
td.lab{font-size:12px;padding:2px 1px}
td.name,td.on,td.last{text-align:left}
tr.s1 td.stuck{background:#ffe08a}tr.s2 td.stuck{background:#ff9b8a;font-weight:bold}
tr.idle td.last{background:#dde3f0;font-style:italic}
tr.absent td{color:#777;font-style:italic}
td.pass{background:#c8f0c8}td.fail{background:#fff3f0}td.ref{color:#777}
a{color:#114;text-decoration:none}
pre{background:#f4f4f4;padding:.6em;white-space:pre-wrap}'''
SCRIPT = '''(function () {
  var room = document.getElementById('room');
  var stale = document.getElementById('stale');
  var period = 1000 * Number(room.getAttribute('data-refresh'));
  function tick() {
    var ctl = new AbortController();
    var timer = setTimeout(function () { ctl.abort(); }, 10000);
    fetch(location.pathname + location.search, {cache: 'no-store', signal: ctl.signal})
      .then(function (r) { if (!r.ok) { throw new Error('HTTP ' + r.status); } return r.text(); })
      .then(function (text) {
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById('room');
        if (!next) { throw new Error('not the room'); }
        var x = window.scrollX, y = window.scrollY;
        room.replaceWith(next);
        room = next;
        window.scrollTo(x, y);
        stale.hidden = true;
      })
      .catch(function (e) {
        var why = e.name === 'AbortError' ? 'no answer in 10 s' : e.message;
        stale.textContent = 'The room did not answer (' + why + '): this is its table of ' +
          room.getAttribute('data-clock') + ' (the room\\'s clock); trying again every ' +
          room.getAttribute('data-refresh') + ' s.';
        stale.hidden = false;
      })
      .finally(function () { clearTimeout(timer); setTimeout(tick, period); });
  }
  setTimeout(tick, period);
})();'''


def digest(text):
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


CSP = ("default-src 'none'; style-src 'sha256-%s'; script-src 'sha256-%s'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'" % (digest(STYLE), digest(SCRIPT)))


def page(title, body, refresh=None):
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width">\n'
            + ('<noscript><meta http-equiv="refresh" content="%d"></noscript>\n' % refresh if refresh else '')
            + '<title>%s</title>\n<style>%s</style></head>\n<body>\n%s\n' % (html.escape(title), STYLE, body)
            + ('<script>%s</script>\n' % SCRIPT if refresh else '')
            + '</body></html>\n')


def in_progress(people, now):
    """The lab most attendees with a run in the last 2 hours are on (the
    higher one of a tie), or None."""
    count = {}
    for p in people:
        if p.lab is not None and p.last_at is not None and now - p.last_at < 2 * 3600:
            count[p.lab] = count.get(p.lab, 0) + 1
    return max(count, key=lambda n: (count[n], n)) if count else None


def summary(kit, people, absent, now):
    lab = in_progress(people, now)
    if lab is None:
        return ''
    passed = stuck = working = never = other = 0
    for p in people:
        if lab in p.passed:
            passed += 1
        elif p.lab == lab:
            if p.since is not None and now - p.since >= share(kit, lab):
                stuck += 1
            else:
                working += 1
        elif lab not in p.cells:
            never += 1
        else:
            other += 1
    never += len(absent)
    title = kit.labs.get(lab)
    return ('<p class="sum" id="summary">Lab %d%s in progress: <b>%d passed</b>, <b>%d stuck</b>, '
            '%d working, %d not started%s (of %d)</p>'
            % (lab, ' (%s)' % html.escape(title) if title else '', passed, stuck, working, never,
               ', %d moved on without passing' % other if other else '', len(people) + len(absent)))


def on_text(kit, p):
    if p.lab is None:
        return 'only SOLUTION=1 runs' if p.runs else 'joined, no run yet'
    lab = kit.labs.get(p.lab)
    if lab is None:
        return 'lab %d (not in this kit)' % p.lab
    if p.step is None and p.since is None:
        return 'lab %d passed' % p.lab
    if p.step is None:
        return 'lab %d' % p.lab
    title = kit.steps.get((p.lab, p.step), '')
    return 'lab %d, step %d of %d%s' % (p.lab, p.step, lab.steps, ': ' + title if title else '')


def room_page(kit, people, absent, now, refresh, idle=IDLE):
    """The room's page (kit: labs, steps, minutes; people and absent:
    store.snapshot())."""
    nums = sorted(kit.labs)
    latest = max((p.last_at for p in people if p.last_at is not None), default=None)
    rows = []
    for p in people:
        stuck = None if p.since is None else max(0.0, now - p.since)
        rows.append(((0, -stuck) if stuck is not None else (1, 0), p.name.lower(), p.id, p, stuck))
    rows.sort(key=lambda r: r[:3])
    roster = any(p.roster for p in people) or absent
    out = ['<div id="room" data-refresh="%d" data-clock="%s">' % (refresh, time.strftime('%H:%M:%S', time.localtime(now))),
           '<h1>The room <small>%s (the room\'s clock); %d attendee(s)%s; %s; reloads every %d s</small></h1>'
           % (time.strftime('%H:%M:%S', time.localtime(now)), len(people),
              ', %d on the roster not joined' % len(absent) if absent else '', ROWS_NOTE, refresh),
           summary(kit, people, absent, now),
           '<table id="rows"><colgroup><col class="name"><col class="on"><col class="stuck">'
           '<col class="since"><col class="last">' + '<col class="lab">' * len(nums) + '</colgroup>'
           '<thead><tr><th>attendee</th><th>on</th><th>stuck</th><th>since</th><th>last run</th>'
           + ''.join('<th>%d</th>' % n for n in nums) + '</tr></thead><tbody>']
    for _, _, _, p, stuck in rows:
        cls = []
        if stuck is not None:
            s = share(kit, p.lab)
            cls.append('s2' if stuck >= 2 * s else 's1' if stuck >= s else '')
        quiet = None
        if p.last_at is not None and latest is not None and now - p.last_at >= idle and latest > p.last_at:
            quiet = now - p.last_at
            cls.append('idle')
        last = ''
        if p.last_at is not None:
            last = html.escape(result_word(p.last)) if p.last else 'SOLUTION=1'
            if quiet is not None:
                last = 'idle %s; %s' % (duration(quiet), last)
        cells = []
        for n in nums:
            r = p.cells.get(n)
            c = cell(r) if r else '.'
            kind = '' if r is None else ' ref' if r['what'] == 'reference' else \
                ' pass' if r['result'] == 'pass' else ' fail'
            cells.append('<td class="lab%s">%s</td>' % (kind, html.escape(c)))
        mark = ' *' if roster and not p.roster else ''
        on = on_text(kit, p)
        out.append('<tr class="%s" data-stuck="%s"><td class="name" title="%s"><a href="/a/%d">%s</a>%s</td>'
                   '<td class="on" title="%s">%s</td><td class="stuck">%s</td><td>%s</td>'
                   '<td class="last">%s</td>%s</tr>'
                   % (' '.join(c for c in cls if c), '' if stuck is None else int(stuck), esc(p.name),
                      p.id, esc(p.name), mark, html.escape(on), html.escape(on),
                      '' if stuck is None else duration(stuck),
                      '' if p.since is None else clock(p.since, now), last, ''.join(cells)))
    for name in absent:
        out.append('<tr class="absent" data-stuck=""><td class="name" title="%s">%s</td><td class="on">'
                   'not joined (on the roster)</td><td class="stuck"></td><td></td><td class="last"></td>%s</tr>'
                   % (esc(name), esc(name), '<td class="lab">.</td>' * len(nums)))
    out.append('</tbody></table>')
    yellow = sorted({(p.lab, share(kit, p.lab)) for p in people if p.lab in kit.minutes})
    out.append('<p class="legend">stuck: since the first failing run of the step they are on; yellow past '
               'the step\'s share of the lab\'s time (lab.conf\'s MINUTES / its steps: %s), red past twice '
               'that. idle: no run for %d min while others ran. A name opens their last FAIL%s. Cells: '
               'each lab\'s last run, steps passed of the steps; cc does not compile; ng no step graded; '
               '? no verdict; ref SOLUTION=1; . never sent.</p>'
               % (', '.join('lab %d %s' % (n, duration(s) if s % 60 == 0 else '%d min %02d s' % (s // 60, s % 60))
                            for n, s in yellow) or 'none yet', idle // 60,
                  '; * not on the roster' if roster else ''))
    out.append('</div>')
    out.append('<p id="stale" hidden></p>')
    return page('The room', '\n'.join(out), refresh=refresh)


def attendee_page(kit, p, runs, fail, now):
    """Attendee P's page: their last FAIL with what make lab showed under
    it, then their newest runs (store.runs_of)."""
    out = ['<h1>%s</h1><p><a href="/">back to the room</a> (times: the room\'s clock)</p>' % esc(p.name)]
    if fail:
        lab = kit.labs.get(fail['lab'])
        head = 'lab %d (%s), graded %s: %s' % (fail['lab'], lab if lab is not None else 'not in this kit',
                                                clock(fail['at'], now), result_word(fail))
        out.append('<h2>The last FAIL</h2><p>%s</p>' % html.escape(head))
        if fail['step'] is not None:
            title = kit.steps.get((fail['lab'], fail['step']))
            out.append('<p>FAIL step %d of %s: %s</p>' % (
                fail['step'], fail['steps'] if fail['steps'] is not None else '?',
                html.escape(title) if title else esc(fail['title'], 200)))
        out.append('<pre>%s</pre>' % '\n'.join(esc(line) for line in fail['detail'].split('\n')))
    else:
        out.append('<p>No failing run of their copy.</p>')
    out.append('<h2>Runs, newest first</h2><table><tr><th>lab</th><th>graded</th><th>result</th>'
               '<th>step</th></tr>')
    for r in runs:
        out.append('<tr><td>%d</td><td>%s</td><td>%s%s</td><td>%s</td></tr>'
                   % (r['lab'], clock(r['at'], now), html.escape(result_word(r)),
                      ' (SOLUTION=1)' if r['what'] == 'reference' else '',
                      '' if r['step'] is None else r['step']))
    out.append('</table>')
    return page('%s: the room' % quoted(p.name), '\n'.join(out))
