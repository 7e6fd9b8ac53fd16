#!/usr/bin/env bash
# make why SVG=: the walk as a picture (scripts/debug/why-svg.py), offline, on
# stored results channels of real guest runs (tests/data/why-walks*.out,
# what /bin/why -t printed): the table as scripts/guest/results.py's walks()
# reads it, the picture's cells (their classes and words), the picture
# rendered by a real renderer, Debian's rsvg-convert (librsvg2-bin, make
# deps), to a PNG of the picture's size whose cells have their colours,
# why.sh's SVG= in a scratch kit (stand-ins for the kernel and the guest),
# and the walkthrough's picture, which is drawn from a stored channel.
#
# The checks of the picture must fail on deliberately wrong renderers (a
# never-asked cell drawn blank, a no painted green, an SVG that is not
# well formed): a check that cannot fail is no test.  Without rsvg-convert
# the PNG cases are skipped, with the reason.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
D=$K/tests/data
R=$K/scripts/guest/results.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ok, notok, skip, scenario (and the count n)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
RSVG=$(command -v rsvg-convert || true)
NORSVG="rsvg-convert is not installed (Debian's librsvg2-bin: make deps, as root)"

echo "1..9"

# The checker of a picture: SVG (the renderer's output for tests/data/
# why-walks.out and why-walks-framework.out), then, with rsvg-convert,
# its PNG.  Prints what is wrong; exit 1 if anything is.
cat >"$T/check.py" <<'EOF'
import struct, subprocess, sys, zlib
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
bad = []


def cells(svg):
    root = ET.parse(svg).getroot()
    out = {}
    for g in root.iter(NS + 'g'):
        cls = g.get('class', '').split()
        if 'cell' in cls:
            rect = g.find(NS + 'rect')
            text = g.find(NS + 'text')
            out[(g.get('data-row'), g.get('data-lsm'))] = (
                set(cls), text.text if text is not None else None,
                [float(rect.get(a)) for a in ('x', 'y', 'width', 'height')])
    return root, out


def png(path):
    """(width, height, pixel(x, y) -> (r, g, b)) of an 8-bit RGB(A) PNG."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, lace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and lace == 0, 'not 8-bit RGB(A)'
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def expect(cond, what):
    if not cond:
        bad.append(what)


def want_cell(c, key, classes, text):
    got = c.get(key)
    expect(got is not None, 'no cell for row %s, module %s' % key)
    if got:
        expect(set(classes) <= got[0], 'cell %s: classes %s, not %s' % (key, sorted(got[0]), classes))
        expect(got[1] == text, 'cell %s: text %r, not %r' % (key, got[1], text))


svg, fsvg, rsvg = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ''
for s in (svg, fsvg):
    try:
        ET.parse(s)
    except ET.ParseError as e:
        print('%s is not well formed XML (ParseError: %s)' % (s, e))
        sys.exit(1)
# Landlock refused the open() in file_open (row 6); smack, toylsm and
# apparmor, after it on the hook, were never asked; smack's ECHILD under
# RCU (row 2) is no refusal; capability has no file_open hook.
root, c = cells(svg)
want_cell(c, ('6', 'landlock'), ['cell', 'no', 'decider'], 'no EACCES')
for m in ('smack', 'toylsm', 'apparmor'):
    want_cell(c, ('6', m), ['cell', 'never'], 'never asked')
want_cell(c, ('2', 'smack'), ['cell', 'notref'], 'ECHILD: no refusal')
want_cell(c, ('1', 'apparmor'), ['cell', 'yes'], 'yes')
want_cell(c, ('6', 'capability'), ['cell', 'nohook'], None)
expect(sum('decider' in v[0] for v in c.values()) == 1, 'not exactly one decider cell')
expect(len(c) == 6 * 6, '%d cells, not 6 rows of 6 modules' % len(c))
hooks = [t.text for t in root.iter(NS + 'text') if t.get('class') == 'hook']
expect(hooks == ['file_alloc_security'] + ['inode_permission'] * 4 + ['file_open'],
       'the rows are %s' % hooks)
cols = [t.text for t in root.iter(NS + 'text') if t.get('class') == 'col']
expect(cols == ['capability', 'landlock', 'yama', 'smack', 'toylsm', 'apparmor'],
       'the columns are %s' % cols)
# The framework's answer to secid_to_secctx: one cell across the row.
froot, fc = cells(fsvg)
want_cell(fc, ('2', '*'), ['cell', 'framework'],
          "not an LSM's answer: the framework, ENODATA (secid 0: the module asked keeps no label here)")
if ('2', '*') in fc:
    expect(fc[('2', '*')][2][2] == 6 * fc[('1', 'apparmor')][2][2], 'the framework cell does not span the row')
if rsvg:
    for s, p in ((svg, svg + '.png'), (fsvg, fsvg + '.png')):
        r = subprocess.run([rsvg, '-o', p, s], capture_output=True, text=True)
        expect(r.returncode == 0, 'rsvg-convert refused %s: %s' % (s, r.stderr.strip()[:200]))
    if not bad:
        w, h, px = png(svg + '.png')
        expect((w, h) == (int(root.get('width')), int(root.get('height'))),
               'the PNG is %dx%d, the SVG %sx%s' % (w, h, root.get('width'), root.get('height')))
        expect((w, h) == (1174, 354), 'the PNG is %dx%d, not 1174x354' % (w, h))
        # Inside each cell, off its frame and its words: its fill.
        for key, rgb in ((('6', 'landlock'), (0xf4, 0xa6, 0xa6)), (('6', 'toylsm'), (0xd9, 0xd9, 0xd9)),
                         (('1', 'smack'), (0xb9, 0xe4, 0xb5)), (('6', 'capability'), (0xff, 0xff, 0xff))):
            x, y, cw, ch = c[key][2]
            got = px(int(x + 8), int(y + 8))
            expect(all(abs(a - b) <= 6 for a, b in zip(got, rgb)),
                   'PNG pixel of cell %s is #%02x%02x%02x, not #%02x%02x%02x' % ((key,) + got + rgb))
        # The refusal's frame is black.
        x, y, cw, ch = c[('6', 'landlock')][2]
        expect(max(px(int(x), int(y + ch / 2))) < 60, 'the refusal has no black frame in the PNG')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF

# render DIR: the renderer in DIR (a copy of scripts/: debug/why-svg.py and its library) on
# both stored channels, then the checker; its complaints on stdout.
render() {
	local dir=$1
	"$dir/debug/why-svg.py" "$D/why-walks.out" "$T/w.svg" 2>&1 &&
		"$dir/debug/why-svg.py" "$D/why-walks-framework.out" "$T/f.svg" 2>&1 &&
		/usr/bin/python3 "$T/check.py" "$T/w.svg" "$T/f.svg" "${2:-}" 2>&1
}
# mutant NAME SED: a copy of the renderer changed by SED
mutant() {
	rm -rf "${T:?}/${1:?}" && cp -r "$K/scripts" "$T/$1" &&
		sed -i -e "$2" "$T/$1/debug/why-svg.py" && ! cmp -s "$K/scripts/debug/why-svg.py" "$T/$1/debug/why-svg.py"
}

# 1. The table as the guest printed it, read by the one parser.
t_table() {
	local want='1 6 file_open landlock no EACCES
1 6 file_open smack never -
1 6 file_open toylsm never -
1 6 file_open apparmor never -'
	[ "$("$R" walks "$D/why-walks.out" | grep ' file_open ')" = "$want" ] ||
		{ echo "file_open's cells:"; "$R" walks "$D/why-walks.out"; exit 1; }
	[ "$("$R" walks "$D/why-walks.out" | wc -l)" = 10 ] || { echo "not 10 cells"; exit 1; }
	# a broken fixture (Landlock's answer changed) is seen
	sed 's/ landlock no EACCES$/ landlock yes ok/' "$D/why-walks.out" >"$T/broken.out"
	[ "$("$R" walks "$T/broken.out" | grep ' file_open ')" != "$want" ] || { echo "the broken fixture passes"; exit 1; }
}
scenario "results.py walks: the stored table, cell by cell (and not on a broken copy)" t_table

# 2. Lines with another token are not the table.
t_token() {
	local tok
	tok=$(sed -n 's/^why-walk begin //p' "$D/why-walks.out")
	# The command printed a table of its own, before why's and in it.
	{ printf 'why-walk begin 0123456789abcdef\nwhy-walk 0123456789abcdef call 1 1 openat -1 EPERM fake\nwhy-walk end 0123456789abcdef 1\n'
	  sed "/^why-walk $tok row 1 6 /a why-walk 0123456789abcdef cell 1 6 capability no EPERM" "$D/why-walks.out"
	} >"$T/forged.out"
	grep -q 'capability no EPERM' "$T/forged.out" || { echo "the forged line was not added"; exit 1; }
	[ "$("$R" walks "$T/forged.out")" = "$("$R" walks "$D/why-walks.out")" ] ||
		{ echo "a forged line was read:"; "$R" walks "$T/forged.out"; exit 1; }
}
scenario "results.py walks: a command's lines with another token are not read" t_token

# 3. A table cut short: a clear error, and OUT is not touched.
t_cut() {
	local e
	grep -v '^why-walk end ' "$D/why-walks.out" >"$T/cut.out"
	echo old >"$T/keep.svg"
	e=$("$K/scripts/debug/why-svg.py" "$T/cut.out" "$T/keep.svg" 2>&1) && { echo "exit 0 on a cut table"; exit 1; }
	grep -q 'has no end line (why -t was cut short)' <<<"$e" || { echo "message: $e"; exit 1; }
	[ "$(cat "$T/keep.svg")" = old ] || { echo "keep.svg was changed"; exit 1; }
	e=$("$K/scripts/debug/why-svg.py" "$D/done.out" "$T/keep.svg" 2>&1) && { echo "exit 0 without a table"; exit 1; }
	grep -q 'has no walk table' <<<"$e" || { echo "message: $e"; exit 1; }
	[ "$(cat "$T/keep.svg")" = old ] && [ -z "$(find "$T" -mindepth 1 -maxdepth 1 -name '*.tmp')" ] || { echo "left a file behind"; exit 1; }
	# why showed no call (nothing refused): nothing to draw
	sed -e '/^why-walk [0-9a-f]* [a-z]* /d' -e 's/^\(why-walk end [0-9a-f]*\) 1$/\1 0/' "$D/why-walks.out" >"$T/none.out"
	[ "$("$R" walks "$T/none.out"; echo $?)" = 0 ] || { echo "the empty table is not one"; exit 1; }
	e=$("$K/scripts/debug/why-svg.py" "$T/none.out" "$T/keep.svg" 2>&1) && { echo "exit 0 with no call"; exit 1; }
	grep -q 'why showed no system call, so there is no walk to draw; nothing written' <<<"$e" &&
		[ "$(cat "$T/keep.svg")" = old ] || { echo "message: $e"; exit 1; }
}
scenario "why-svg.py: a table cut short, missing or empty is a clear error, and the old picture stays" t_cut

# 4. The picture's cells, as SVG (no renderer needed).
t_svg() { render "$K/scripts"; }
scenario "the picture: each cell's kind and words, the refusal framed, the framework's cell across the row" t_svg

# 5. Rendered by rsvg-convert.
t_png() { render "$K/scripts" "$RSVG"; }
if [ -n "$RSVG" ]; then
	scenario "rsvg-convert renders it: the PNG has the picture's size, each cell its colour" t_png
else
	skip "rsvg-convert renders it: the PNG has the picture's size, each cell its colour" "$NORSVG"
fi

# 6. The checks fail on deliberately wrong renderers.
t_mutants() {
	local out
	mutant never "s/kind = cells\[-1\]\[0\]/kind = 'nohook' if cells[-1][0] == 'never' else cells[-1][0]/" ||
		{ echo "mutant never: sed changed nothing"; exit 1; }
	out=$(render "$T/never" "$RSVG") && { echo "a never-asked cell drawn blank passes"; exit 1; }
	grep -q "cell ('6', 'toylsm'): classes" <<<"$out" || { echo "mutant never: $out"; exit 1; }
	mutant broken 's|<text class="verdict" x=|<text class="verdict" <x=|' ||
		{ echo "mutant broken: sed changed nothing"; exit 1; }
	out=$(render "$T/broken" "$RSVG") && { echo "an SVG that is not well formed passes"; exit 1; }
	grep -q "ParseError" <<<"$out" || { echo "mutant broken: $out"; exit 1; }
	[ -n "$RSVG" ] || exit 0
	mutant green "s/'no': ('#f4a6a6'/'no': ('#b9e4b5'/" || { echo "mutant green: sed changed nothing"; exit 1; }
	out=$(render "$T/green" "$RSVG") && { echo "a no painted green passes"; exit 1; }
	grep -q "PNG pixel of cell ('6', 'landlock')" <<<"$out" || { echo "mutant green: $out"; exit 1; }
	# rsvg-convert itself refuses what is no SVG (the picture's checks
	# above would stop at the XML first)
	printf '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect></svg>\n' >"$T/bad.svg"
	! "$RSVG" -o "$T/bad.png" "$T/bad.svg" 2>/dev/null || { echo "rsvg-convert accepts broken XML"; exit 1; }
}
scenario "the checks fail on wrong renderers: never asked drawn blank, broken XML, a no painted green (PNG)" t_mutants

# 7-8. why.sh's SVG=, in a scratch kit: the kernel and the guest are
# stand-ins (the guest's channel is a stored one).
mkdir -p "$T/kit/build/logs"
cp -r "$K/scripts" "$T/kit/"
printf '#!/bin/sh\necho kernel.sh ran\n' >"$T/kit/scripts/kernel/kernel.sh"
cat >"$T/kit/scripts/guest/run-guest.sh" <<EOF
#!/bin/sh
# the stand-in guest: why -t asked for? then the stored channel
echo "booted \$*" >"$T/booted"
grep -q 'exec why .*-t ' "\$4" || { echo "no -t in the script"; exit 9; }
cp "$D/why-walks.out" "$T/kit/build/logs/guest-why.out"
cat "$T/kit/build/logs/guest-why.out"
exit \${GUEST_RC:-0}
EOF
chmod +x "$T/kit/scripts/kernel/kernel.sh" "$T/kit/scripts/guest/run-guest.sh"
t_bad_paths() {
	local s e
	mkdir -p "$T/adir.svg"
	for s in "$T/nofolder/why.svg" "$T/why.png" "$T/adir.svg"; do
		rm -f "$T/booted"
		e=$(cd "$T" && CMD=true SVG=$s "$T/kit/scripts/debug/why.sh" 2>&1) && { echo "SVG=$s: exit 0"; exit 1; }
		grep -q "kit: error: SVG=$s" <<<"$e" || { echo "SVG=$s: $e"; exit 1; }
		[ ! -e "$T/booted" ] && ! grep -q 'kernel.sh ran' <<<"$e" || { echo "SVG=$s: built or booted"; exit 1; }
	done
	[ ! -e "$T/nofolder" ] && [ ! -e "$T/why.png" ] && [ -z "$(ls -A "$T/adir.svg")" ] ||
		{ echo "a bad SVG= created something"; exit 1; }
}
scenario "make why SVG=: a bad path (no folder, not .svg, a folder) is a clear error before any boot, and creates nothing" t_bad_paths
t_make_why() {
	local e
	e=$(cd "$T" && CMD=true SVG=out.svg "$T/kit/scripts/debug/why.sh" 2>&1) || { echo "$e"; exit 1; }
	! grep -q '^why-walk ' <<<"$e" || { echo "table lines on the terminal"; exit 1; }
	grep -q '=> refused by landlock in file_open' <<<"$e" && grep -q 'kit: the walk as a picture: out.svg' <<<"$e" ||
		{ echo "$e"; exit 1; }
	/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$T/out.svg" &&
		grep -q 'class="cell no decider" data-call="1" data-row="6" data-hook="file_open" data-lsm="landlock"' "$T/out.svg" ||
		{ echo "out.svg is not the picture"; exit 1; }
	# A guest that failed: no picture, the old one kept
	echo old >"$T/out.svg"
	e=$(cd "$T" && GUEST_RC=124 CMD=true SVG=out.svg "$T/kit/scripts/debug/why.sh" 2>&1) && { echo "exit 0"; exit 1; }
	grep -q 'no picture: the guest' <<<"$e" && [ "$(cat "$T/out.svg")" = old ] || { echo "$e"; exit 1; }
}
scenario "make why SVG=: the picture written, the table's lines kept off the terminal; none when the guest failed" t_make_why
t_policy() {
	local p e
	mkdir -p "$T/kit/configs/policy/stack" "$T/kit/build/labs/12/12-x/set/lab12-work"
	for p in nosuch ../configs/policy/stack 'a b' '$(touch x)'; do
		rm -f "$T/booted"
		e=$(cd "$T" && POLICY=$p CMD=true SVG=p.svg "$T/kit/scripts/debug/why.sh" 2>&1) && { echo "POLICY=$p: exit 0"; exit 1; }
		grep -q "kit: error: POLICY=.*\(no such policy set\|a set's name is\)" <<<"$e" || { echo "POLICY=$p: $e"; exit 1; }
		[ ! -e "$T/booted" ] && [ ! -e "$T/x" ] || { echo "POLICY=$p: booted"; exit 1; }
	done
	(cd "$T" && POLICY=stack CMD=true SVG=p.svg "$T/kit/scripts/debug/why.sh" >/dev/null 2>&1) &&
		grep -q '^booted --name why --script [^ ]*$' "$T/booted" || { echo "POLICY=stack: $(cat "$T/booted")"; exit 1; }
	(cd "$T" && POLICY=lab12-work CMD=true SVG=p.svg "$T/kit/scripts/debug/why.sh" >/dev/null 2>&1) &&
		grep -q -- "--policy $T/kit/build/labs/12/12-x/set/lab12-work" "$T/booted" ||
		{ echo "POLICY=lab12-work: $(cat "$T/booted")"; exit 1; }
}
scenario "make why POLICY=: a kit's set boots, a lab's compiled set goes into the guest, a bad or unknown name is a clear error before any boot" t_policy

# 9. The walkthrough's picture is the renderer's, of a stored channel.
t_doc() {
	"$K/scripts/debug/why-svg.py" "$D/why-walks-smack.out" "$T/doc.svg" || exit 1
	cmp -s "$T/doc.svg" "$K/docs/why-open.svg" || {
		echo "docs/why-open.svg is not what scripts/debug/why-svg.py draws of tests/data/why-walks-smack.out;"
		echo "regenerate it: scripts/debug/why-svg.py tests/data/why-walks-smack.out docs/why-open.svg"
		exit 1
	}
}
scenario "docs/why-open.svg is drawn by scripts/debug/why-svg.py from a stored channel" t_doc
