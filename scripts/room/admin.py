#!/usr/bin/python3
"""The instructor's side of make room, besides the page (room.sh runs it):

    admin.py admin DB < kit     make room-admin: the names in the room and
                                the roster's absent ones; with RENAME=OLD
                                TO=NEW, MERGE=FROM TO=INTO or REMOVE=NAME
                                (environment), that change, made by the
                                running room (make room) with the
                                instructor's token, which this reads from
                                DB (mode 0600) and never takes from a
                                command line
    admin.py export DB < kit    make room-export: every run as CSV, into
                                OUT (default: room-DATE.csv beside DB);
                                the room may run or not
    admin.py reset DB < kit     make room-reset: the day so far kept as a
                                file beside DB, then no runs; names,
                                roster and tokens stay (the laptops that
                                joined post on); through the running room,
                                or on DB when no room runs

kit: as server.py reads it (store.Kit).  MERGE: FROM's runs become INTO's
and FROM's laptop posts as INTO from then on (an attendee who joined
twice, from two laptops or under two spellings).  REMOVE: the name, its
runs and its laptop's right to post are gone (a name nobody owns; the
laptop gets "make join again").
"""
import sys
sys.dont_write_bytecode = True      # noqa: E402  nothing written beside the kit's scripts
import fcntl
import json
import os
import sqlite3
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'progress'))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'lib'))
sys.path.insert(0, HERE)
from quote import quoted  # noqa: E402
from client import NoAnswer, request  # noqa: E402
import store  # noqa: E402


def die(what, todo):
    print('\nkit: error: %s' % what, file=sys.stderr)
    print('     %s' % todo, file=sys.stderr)
    sys.exit(1)


def meta(db):
    try:
        con = sqlite3.connect('file:%s?mode=ro' % db.replace('?', '%3f').replace('#', '%23'), uri=True)
        try:
            return dict(con.execute('SELECT key, value FROM meta'))
        finally:
            con.close()
    except sqlite3.Error as e:
        die('DB=%s is not a room of this kit (%s)' % (quoted(db), e), 'Give the DB= make room was given.')


def running(db):
    """Whether a make room holds DB (its lock)."""
    try:
        with open(db + '.lock', 'a') as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True


def call(db, op, **args):
    """The running room's answer to admin request OP."""
    m = meta(db)
    if 'listen' not in m or not running(db):
        die('make room is not running on DB=%s' % quoted(db), 'Start it (make room, with the same DB=), then run this again.')
    try:
        status, obj = request(m['listen'], 'POST', '/api/admin/' + op, json.dumps(args).encode(),
                              [('Authorization', 'Bearer ' + m['admin'])])
    except NoAnswer as e:
        die('the room at %s does not answer: %s' % (quoted(m['listen']), e), 'Is make room running? Start it, then run this again.')
    if status != 200 or not obj.get('ok'):
        die('the room refused it: %s' % quoted(str(obj.get('message', '')), 200), 'Nothing was changed.')
    return obj


def cmd_admin(db):
    env = {k: os.environ.get(k) for k in ('RENAME', 'MERGE', 'REMOVE', 'TO')}
    ops = [k for k in ('RENAME', 'MERGE', 'REMOVE') if env[k]]
    if len(ops) > 1:
        die('one change at a time: %s' % ', '.join(ops), 'make room-admin RENAME=OLD TO=NEW, MERGE=FROM TO=INTO or REMOVE=NAME.')
    if ops and ops[0] != 'REMOVE' and not env['TO']:
        die('%s= needs TO=' % ops[0], 'make room-admin %s=\'...\' TO=\'...\'' % ops[0])
    if ops == ['RENAME']:
        obj = call(db, 'rename', **{'from': env['RENAME'], 'to': env['TO']})
        print('kit: %s is now %s' % (quoted(env['RENAME']), quoted(env['TO'])))
    elif ops == ['MERGE']:
        obj = call(db, 'merge', **{'from': env['MERGE'], 'to': env['TO']})
        print('kit: %s merged into %s: its runs are theirs, its laptop posts as them'
              % (quoted(env['MERGE']), quoted(env['TO'])))
    elif ops == ['REMOVE']:
        obj = call(db, 'remove', name=env['REMOVE'])
        print('kit: %s removed, with its runs; its laptop must join again to post' % quoted(env['REMOVE']))
    obj = call(db, 'names')
    print('The room\'s names (%d):' % len(obj['names']))
    print('  %-42s %5s  %-16s %s' % ('name', 'runs', 'joined', ''))
    for name, runs, joined, into, roster in obj['names']:
        print('  %-42s %5d  %-16s %s' % (quoted(name), runs, time.strftime('%m-%d %H:%M', time.localtime(joined)),
                                       ('merged into %s' % quoted(into)) if into else
                                       ('' if roster or not (obj['absent'] or any(r[4] for r in obj['names']))
                                        else 'not on the roster')))
    if obj['absent']:
        print('On the roster, not joined: %s' % ', '.join(quoted(n) for n in obj['absent']))
    print('Change one: make room-admin RENAME=\'OLD\' TO=\'NEW\' | MERGE=\'FROM\' TO=\'INTO\' | REMOVE=\'NAME\'')
    return 0


def cmd_export(db, kit):
    out = os.environ.get('OUT') or os.path.join(os.path.dirname(os.path.abspath(db)),
                                                'room-%s.csv' % time.strftime('%Y-%m-%d-%H%M'))
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError as e:
        die('cannot write OUT=%s: %s' % (quoted(out), e.strerror),
            'Give a file that does not exist yet: make room-export OUT=day1.csv.')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8', newline='') as f:
            n = store.export(db, kit.labs, kit.steps, f)
    except sqlite3.Error as e:
        os.unlink(out)
        die('DB=%s cannot be read: %s' % (quoted(db), e), 'Give the DB= make room was given.')
    print('kit: %d run(s) of the room written to %s (CSV; times: the room\'s clock)' % (n, quoted(out)))
    return 0


def cmd_reset(db, kit):
    if running(db):
        keep = call(db, 'reset')['message']
    else:
        with open(db + '.lock', 'a') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            try:
                s = store.Store(db, kit.labs)
            except store.OldRoom:
                die('DB=%s is an older kit\'s room' % quoted(db), 'make room keeps it aside by itself and starts a new one.')
            keep = s.reset(time.time())
            s.db.close()
    print('kit: the day so far is kept in %s; the room has no runs now (its names, roster and token stay: '
          'the laptops that joined post on)' % quoted(keep))
    return 0


def main(argv):
    if len(argv) != 2 or argv[0] not in ('admin', 'export', 'reset'):
        print('usage: admin.py admin|export|reset DB < kit', file=sys.stderr)
        return 2
    what, db = argv
    kit = store.Kit(sys.stdin)
    if what == 'admin':
        return cmd_admin(db)
    if what == 'export':
        return cmd_export(db, kit)
    return cmd_reset(db, kit)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
