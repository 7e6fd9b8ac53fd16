"""The walk tables of /bin/why -t (make why SVG=): scripts/debug/why-svg.py
draws them."""
import re

from channel import read_lines
from safefile import BadInput


WALK_BEGIN = re.compile(r'^why-walk begin ([0-9a-f]{16})$')
CELL_KINDS = ('yes', 'no', 'never', 'notref', 'value', 'called', 'framework')
ROW_KINDS = ('walk', 'alone', 'framework', 'void', 'open')


def walks(path, shown=None):
    """The walk tables of the last "why-walk begin TOKEN" block of a
    channel (or any file) that ends with its "why-walk end TOKEN N": a
    list of calls, each a dict: k, pid, sys, ret (int), verdict ("ok",
    an errno's name, "unfinished"), comm, cols (the modules in walk
    order), rows (each a dict: r, hook, kind, cells: {lsm: [(kind,
    value)]}, a framework row's one cell under "*", its value the errno
    and the reason), refused ((row, lsm, errno, hook) or None),
    unrefused (why no LSM refused it, or None).  Lines with another
    token (a command's output that looks like the table) are not read.
    BadInput names the line that is wrong, or says there is no table."""
    shown = shown or path
    lines = read_lines(path)
    start = None
    for i, line in enumerate(lines):
        if WALK_BEGIN.match(line):
            start = i
    if start is None:
        raise BadInput('%s has no walk table (no line "why-walk begin TOKEN": '
                       'was why run with -t, and did it finish?)' % shown)
    token = WALK_BEGIN.match(lines[start]).group(1)
    calls, byk, end = [], {}, None
    for n, line in enumerate(lines[start + 1:], start + 2):
        if line.startswith('why-walk end '):
            m = re.match(r'^why-walk end %s ([0-9]+)$' % token, line)
            if m:
                end = int(m.group(1))
                break
            continue
        if not line.startswith('why-walk %s ' % token):
            continue
        f = line.split(' ')
        what = f[2] if len(f) > 2 else ''

        def bad(why):
            return BadInput('%s, line %d: %s: %s' % (shown, n, why, line[:100]))
        try:
            k = int(f[3])
            if what == 'call':
                if len(f) < 9:
                    raise bad('a call line has 7 fields')
                c = {'k': k, 'pid': int(f[4]), 'sys': f[5], 'ret': int(f[6]),
                     'verdict': f[7], 'comm': ' '.join(f[8:]), 'cols': [],
                     'rows': [], 'refused': None, 'unrefused': None}
                if k in byk:
                    raise bad('call %d twice' % k)
                byk[k] = c
                calls.append(c)
                continue
            if k not in byk:
                raise bad('no call %d before it' % k)
            c = byk[k]
            if what == 'cols':
                c['cols'] = f[4:]
            elif what == 'row':
                if len(f) != 7 or f[6] not in ROW_KINDS or int(f[4]) != len(c['rows']) + 1:
                    raise bad('not the next row, "row K R HOOK KIND"')
                c['rows'].append({'r': int(f[4]), 'hook': f[5], 'kind': f[6], 'cells': {}})
            elif what == 'cell':
                r = int(f[4])
                if len(f) < 8 or f[6] not in CELL_KINDS or not 1 <= r <= len(c['rows']):
                    raise bad('not a cell of a row, "cell K R LSM KIND VALUE"')
                if f[5] != '*' and f[5] not in c['cols']:
                    raise bad('module %s is no column of call %d' % (f[5], k))
                c['rows'][r - 1]['cells'].setdefault(f[5], []).append(
                    (f[6], ' '.join(f[7:])))
            elif what == 'refused':
                if len(f) != 8 or not 1 <= int(f[4]) <= len(c['rows']):
                    raise bad('not "refused K R LSM ERRNO HOOK"')
                c['refused'] = (int(f[4]), f[5], f[6], f[7])
            elif what == 'unrefused':
                c['unrefused'] = ' '.join(f[4:])
            else:
                raise bad('no such line of the table')
        except (ValueError, IndexError):
            raise bad('a number is missing where the table has one')
    if end is None:
        raise BadInput('%s: the walk table that begins on line %d has no end line '
                       '(why -t was cut short)' % (shown, start + 1))
    if end != len(calls):
        raise BadInput('%s: the walk table says %d call(s) and has %d' % (shown, end, len(calls)))
    return calls
