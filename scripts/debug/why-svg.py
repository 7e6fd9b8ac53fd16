#!/usr/bin/python3
"""The walk as a picture: make why SVG=FILE.

    why-svg.py CHANNEL OUT.svg

draws, from the walk tables that /bin/why -t printed on the guest's
results channel (CHANNEL: build/logs/guest-why.out), each call why showed:
the modules in walk order as columns, the call's hook walks as rows (every
walk, in the order they began, as why -v lists them), and in each cell
what the module answered there:

    yes             it answered 0
    no ERRNO        it refused (red; the refusal that failed the call
                    has a black frame)
    never asked     it is on the hook, and the walk ended before it
    not a refusal   a negative answer that is no "no": ECHILD under RCU,
                    a "no such value", a "not mine"
    the framework   not an LSM's answer: the framework answered the hook
                    itself, no module was asked (one cell across the row)
    (blank)         the module has no such hook
    ?               the walk's end is not in the trace: whether the
                    module is on the hook is not known
    called          a hook that returns nothing (why -V)

The table is read by scripts/guest/results.py's walks(), the kit's one parser of
what comes back from a guest; the events were read in the guest by
guest/include/kit/lsm_trace.h, the same parser as why's text:
nothing here reads an event.  OUT is written whole or not at all (a file beside it, renamed).
Each cell is an SVG group with the classes "cell KIND" (and "decider")
and data-call, data-row, data-hook, data-lsm: tests/host/why-svg.sh checks
them, and the PNG that rsvg-convert makes of the picture.
"""
import os
import sys
from xml.sax.saxutils import escape, quoteattr

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lib'))
from safefile import BadInput, write_whole  # noqa: E402
from walks import walks  # noqa: E402  the one parser of the channel's walk tables

MARGIN = 16
CELL_W, CELL_H = 124, 30
HEAD_H = 26             # the row of module names
TITLE_H = 40            # two lines: the call, the verdict
GAP = 24                # between two calls
CHAR_W = 7              # a character of the 12 px labels, wide enough
LEGEND_H = 26

# kind: (fill, text colour, legend)
STYLE = {
    'yes': ('#b9e4b5', '#12461a', 'yes: answered 0'),
    'no': ('#f4a6a6', '#6b0a0a', 'no: refused, with its errno'),
    'never': ('#d9d9d9', '#444444', 'never asked: the walk ended before it'),
    'notref': ('#f6e08a', '#5a4a00', 'not a refusal (ECHILD, no value, not mine)'),
    'framework': ('#b8cfee', '#14325c', "not an LSM's answer: the framework's"),
    'value': ('#e4e4fb', '#222255', 'a positive answer'),
    'called': ('#d6ecf7', '#1b3d4f', 'called (returns nothing)'),
    'nohook': ('#ffffff', '#999999', 'blank: no such hook'),
    'unknown': ('#f3f3f3', '#666666', "?: the walk's end is not in the trace"),
}
LEGEND_ORDER = ('yes', 'no', 'never', 'notref', 'framework', 'nohook', 'unknown', 'value', 'called')


def cell_text(kind, values):
    if kind == 'yes':
        return 'yes'
    if kind == 'no':
        return 'no ' + values
    if kind == 'never':
        return 'never asked'
    if kind == 'notref':
        return values + ': no refusal'
    if kind == 'value':
        return '= ' + values
    if kind == 'called':
        return 'called'
    if kind == 'unknown':
        return '?'
    return ''


def cell_title(kind, values, lsm, hook):
    words = {
        'yes': '%s answered 0 in %s' % (lsm, hook),
        'no': '%s refused %s with %s' % (lsm, hook, values),
        'never': '%s is on %s and was never asked: the walk ended before it' % (lsm, hook),
        'notref': '%s answered %s in %s: not a refusal' % (lsm, values, hook),
        'value': '%s answered %s in %s' % (lsm, values, hook),
        'called': '%s was called in %s (it returns nothing)' % (lsm, hook),
        'nohook': '%s has no %s hook' % (lsm, hook),
        'unknown': "the end of this %s walk is not in the trace: %s was not asked so far" % (hook, lsm),
    }
    return words[kind]


def fold(text, n):
    """@text in lines of at most @n characters, broken at spaces."""
    lines, cur = [], ''
    for word in text.split(' '):
        if cur and len(cur) + 1 + len(word) > n:
            lines.append(cur)
            cur = word
        else:
            cur = (cur + ' ' + word) if cur else word
    lines.append(cur)
    return lines


def draw(calls):
    """The SVG of @calls (results.walks()), as a string."""
    label_w = max([200] + [30 + CHAR_W * len(r['hook']) for c in calls for r in c['rows']])
    ncols = max([1] + [len(c['cols']) for c in calls])
    legend_w = sum(40 + 6 * len(STYLE[k][2]) for k in LEGEND_ORDER[:5])
    width = max(2 * MARGIN + label_w + ncols * CELL_W, 2 * MARGIN + legend_w)
    out, y = [], MARGIN
    for c in calls:
        x0 = MARGIN + label_w
        head = '%s[%d] %s = %d%s' % (c['comm'], c['pid'], c['sys'], c['ret'],
                                      '' if c['verdict'] == 'ok' else ' ' + c['verdict'])
        if c['verdict'] == 'unfinished':
            head = '%s[%d] %s (did not return while traced)' % (c['comm'], c['pid'], c['sys'])
        if c['refused']:
            r, lsm, err, hook = c['refused']
            verdict = 'refused by %s in %s: %s (row %d)' % (lsm, hook, err, r)
        elif c['unrefused']:
            verdict = 'no LSM refused: ' + c['unrefused']
        else:
            verdict = 'no LSM refused'
        out.append('<g class="call" data-call="%d">' % c['k'])
        out.append('<text class="title" x="%d" y="%d" font-size="14" font-weight="bold">%s</text>'
                   % (MARGIN, y + 15, escape(head)))
        lines = fold(verdict, max(40, (width - 2 * MARGIN) // 7))
        for i, line in enumerate(lines):
            out.append('<text class="verdict" x="%d" y="%d" font-size="12">%s</text>'
                       % (MARGIN, y + 33 + 16 * i, escape(line)))
        y += TITLE_H + 16 * (len(lines) - 1)
        out.append('<text class="corner" x="%d" y="%d" font-size="11" fill="#555555">'
                   'hook \\ modules in walk order &#8594;</text>' % (MARGIN, y + 17))
        for i, lsm in enumerate(c['cols']):
            out.append('<text class="col" x="%d" y="%d" font-size="12" font-weight="bold" '
                       'text-anchor="middle">%s</text>' % (x0 + i * CELL_W + CELL_W // 2, y + 17,
                                                             escape(lsm)))
        y += HEAD_H
        for row in c['rows']:
            decider = c['refused'] and c['refused'][0] == row['r']
            out.append('<text class="hook" x="%d" y="%d" font-size="12"%s>%s</text>'
                       % (MARGIN, y + 19, ' font-weight="bold"' if decider else '',
                          escape(row['hook'])))
            if row['kind'] == 'framework' and '*' in row['cells']:
                _, value = row['cells']['*'][0]
                err, _, reason = value.partition(' ')
                fill, ink, _ = STYLE['framework']
                w = len(c['cols']) * CELL_W
                text = "not an LSM's answer: the framework, %s (%s)" % (err, reason)
                if len(text) * 6.2 > w - 10:
                    text = text[:max(8, int((w - 10) / 6.2) - 1)] + '…'
                out.append('<g class="cell framework" data-call="%d" data-row="%d" data-hook=%s '
                           'data-lsm="*"><title>%s</title>' % (c['k'], row['r'], quoteattr(row['hook']),
                                                               escape('the framework answered %s itself with %s (%s): no module was asked' % (row['hook'], err, reason))))
                out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#888888"/>'
                           % (x0, y, w, CELL_H, fill))
                out.append('<text x="%d" y="%d" font-size="11" fill="%s" text-anchor="middle">%s</text></g>'
                           % (x0 + w // 2, y + 19, ink, escape(text)))
                y += CELL_H
                continue
            for i, lsm in enumerate(c['cols']):
                cells = row['cells'].get(lsm, [])
                if cells:
                    kind = cells[-1][0]
                    values = ', '.join(v for _, v in cells)
                else:
                    kind, values = ('unknown' if row['kind'] == 'open' else 'nohook'), ''
                hit = decider and lsm == c['refused'][1] and kind == 'no'
                fill, ink, _ = STYLE[kind]
                x = x0 + i * CELL_W
                out.append('<g class="cell %s%s" data-call="%d" data-row="%d" data-hook=%s data-lsm=%s>'
                           '<title>%s</title>' % (kind, ' decider' if hit else '', c['k'], row['r'],
                                                  quoteattr(row['hook']), quoteattr(lsm),
                                                  escape(cell_title(kind, values, lsm, row['hook']))))
                out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="%s" '
                           'stroke-width="%d"/>' % (x, y, CELL_W, CELL_H, fill,
                                                    '#000000' if hit else '#888888', 3 if hit else 1))
                out.append('<text x="%d" y="%d" font-size="11" fill="%s" text-anchor="middle"%s>%s</text></g>'
                           % (x + CELL_W // 2, y + 19, ink, ' font-weight="bold"' if hit else '',
                              escape(cell_text(kind, values))))
            y += CELL_H
        out.append('</g>')
        y += GAP
    # The legend, in two lines
    out.append('<g class="legend">')
    for line, kinds in enumerate((LEGEND_ORDER[:5], LEGEND_ORDER[5:])):
        x = MARGIN
        for k in kinds:
            fill, _, words = STYLE[k]
            out.append('<rect x="%d" y="%d" width="14" height="14" fill="%s" stroke="#888888"/>'
                       % (x, y + line * LEGEND_H, fill))
            out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x + 20, y + line * LEGEND_H + 11,
                                                                         escape(words)))
            x += 40 + 6 * len(words)
    out.append('</g>')
    height = y + 2 * LEGEND_H + MARGIN
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
            'font-family="DejaVu Sans, sans-serif">\n'
            '<rect class="background" width="%d" height="%d" fill="#ffffff"/>\n%s\n</svg>\n'
            % (width, height, width, height, width, height, '\n'.join(out)))


def main(argv):
    if len(argv) != 2:
        print('usage: why-svg.py CHANNEL OUT.svg', file=sys.stderr)
        return 2
    chan, dest = argv
    folder = os.path.dirname(os.path.abspath(dest))
    if os.path.isdir(dest) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        print('why-svg.py: cannot write %s: %s' % (dest, 'it is a folder' if os.path.isdir(dest)
                                                   else 'its folder %s does not exist or cannot be written' % folder),
              file=sys.stderr)
        return 1
    try:
        calls = walks(chan)
    except BadInput as e:
        print('why-svg.py: %s' % e, file=sys.stderr)
        return 1
    if not calls:
        print('why-svg.py: why showed no system call, so there is no walk to draw; nothing written to %s'
              ' (WHY=-a shows every call in which a module was asked)' % dest, file=sys.stderr)
        return 1
    try:
        write_whole(dest, draw(calls),
                    os.path.join(folder, '.%s.%d.tmp' % (os.path.basename(dest), os.getpid())))
    except OSError as e:
        print('why-svg.py: cannot write %s: %s' % (dest, e.strerror), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
