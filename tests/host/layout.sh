#!/usr/bin/env bash
# Offline tests of the kit's layout (docs/hacking.md, "The house in
# rooms"): the map there matches the tree; every script of scripts/ is
# one level down, in its room, and no two have one name; and no script,
# doc or lab names a path of the kit that does not exist (a path left
# behind by a move).  Each check is shown failing on a broken copy.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..3"

# map ROOT MAP LISTED: the entries of MAP's code block under "## The house in
# rooms" that are not in ROOT, and the folders of ROOT (its top level,
# scripts/, guest/, guest/include/, labs/common, tests/) that are not in
# the map.
map() {
	python3 - "$1" "$2" "$3" <<'PY'
import os, re, sys
root, doc, listed = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(doc, encoding='utf-8').read()
m = re.search(r'^## The house in rooms\n(.*?)^```\n(.*?)^```', text, re.M | re.S)
if not m:
    print('%s: no code block under "## The house in rooms"' % doc)
    sys.exit(1)
entries = [l.split()[0] for l in m.group(2).split('\n') if l and not l[0].isspace()]
bad = 0
for e in entries:
    if not os.path.exists(os.path.join(root, e)):
        print('the map names %s, which is not in the tree' % e)
        bad = 1
# the folders of the tracked files (LISTED: git ls-files): a folder
# that only build outputs made is none of the kit's
dirs = set()
for f in open(listed).read().split('\n'):
    parts = f.split('/')[:-1]
    for i in range(1, len(parts) + 1):
        dirs.add('/'.join(parts[:i]) + '/')
want = sorted(d for d in dirs if d.count('/') == 1 or
              (d.count('/') == 2 and d.split('/')[0] in ('scripts', 'guest', 'tests')) or
              d == 'guest/include/kit/')
for w in want:
    if w not in entries and w.rstrip('/') + '/' not in entries:
        print('the folder %s is not in the map' % w)
        bad = 1
sys.exit(bad)
PY
}
t_map() {
	sed -e "${MAP_SABOTAGE:-}" "$K/docs/hacking.md" >"$T/hacking.md"
	(cd "$K" && git ls-files) >"$T/files"
	map "$K" "$T/hacking.md" "$T/files"
}
sabotaged "docs/hacking.md's map of the house names every folder, and only folders that exist" \
	"a map without scripts/room/" t_map MAP_SABOTAGE '/^scripts\/room\//d' 'scripts/room/ is not in the map'

# rooms ROOT: scripts of ROOT/scripts not one level down, and names met twice.
rooms() {
	local bad=0 f n
	declare -A seen
	while IFS= read -r f; do
		n=${f##*/}
		[[ $f == scripts/*/* && $f != scripts/*/*/* ]] ||
			{ echo "$f is not one level down in scripts/ (scripts/ROOM/NAME)"; bad=1; }
		[ -z "${seen[$n]:-}" ] || { echo "$f and ${seen[$n]} have one name"; bad=1; }
		seen[$n]=$f
	done < <(cd "$1" && find scripts -type f ! -name '*.pyc' | LC_ALL=C sort)
	return $bad
}
t_rooms() {
	rooms "$K" || exit 1
	rm -rf "$T/r" && mkdir -p "$T/r" && cp -r "$K/scripts" "$T/r/" &&
		cp "$K/scripts/lab/build.sh" "$T/r/scripts/image/build.sh" && touch "$T/r/scripts/loose.sh"
	out=$(rooms "$T/r") && { echo "a second build.sh and a script at scripts/'s top passed"; exit 1; }
	grep -q 'have one name' <<<"$out" && grep -q 'scripts/loose.sh is not one level down' <<<"$out" ||
		{ echo "not the complaints: $out"; exit 1; }
}
scenario "every script is one level down in its room of scripts/, and no two have one name (a copy with two build.sh and a loose script fails)" t_rooms

# paths ROOT FILE...: the paths of the kit that FILEs name and ROOT does
# not have.  A path is a word that begins with a folder of the kit
# (after $KIT/, $K/ or ../); words with a variable, a glob or a
# placeholder (NN, NAME), an attendee's work/ copy, and the kernel's own
# scripts/ that the kit cites (KERNEL_SCRIPTS) are not paths of the kit;
# of a suite's, only scripts/ paths are checked (its scratch kits name
# made-up labs and files).
paths() {
	python3 - "$@" <<'PY'
import os, re, sys
root, files = sys.argv[1], sys.argv[2:]
rooms = set(os.listdir(os.path.join(root, 'scripts')))
# The kernel's own scripts/ that the kit cites (the tree's, not the kit's;
# a new citation is added here).
KERNEL_SCRIPTS = re.compile(r'scripts/(selinux|gdb|kconfig)(/|$)|scripts/(spdxcheck\.py|checkpatch\.pl|'
                            r'syscallhdr\.sh|syscall\.tbl|headers_install\.sh|config)$')
top = ('scripts', 'tests', 'guest', 'labs', 'docs', 'configs', 'demo-lsm', 'patches', 'initramfs')
rx = re.compile(r'(?<![A-Za-z0-9_./$-])(?:\$KIT/|\$K/|\$\{KIT\}/|(?:\.\./)+)?((?:%s)/[A-Za-z0-9_./-]*[A-Za-z0-9_/])'
                % '|'.join(top))
bad = 0
for f in files:
    try:
        lines = open(os.path.join(root, f), encoding='utf-8').read().split('\n')
    except (UnicodeDecodeError, OSError):
        continue
    for i, l in enumerate(lines, 1):
        for m in rx.finditer(l):
            p = m.group(1).rstrip('.')
            rest = re.match(r'[^\s"\'`)\]]*', l[m.end():]).group(0)
            if any(c in rest for c in '$*{<[') or re.search(r'NN|NAME|KIND|FILE|SET|ROOM|\bF\b', p) or '/work/' in p + '/':
                continue
            parts = p.split('/')
            if f.startswith('tests/') and parts[0] != 'scripts':
                continue    # the suites' scratch kits name made-up files
            if parts[0] == 'scripts' and len(parts) > 1 and parts[1] not in rooms and KERNEL_SCRIPTS.match(p):
                continue
            full = os.path.join(root, p)
            if os.path.exists(full):
                continue
            if parts[0] in ('patches', 'labs') and len(parts) == 2 and re.fullmatch(r'[0-9]{2,4}', parts[1]) and \
                    any(n.startswith(parts[1] + '-') for n in os.listdir(os.path.join(root, parts[0]))):
                continue
            print('%s:%d: %s does not exist' % (f, i, p))
            bad = 1
sys.exit(bad)
PY
}
t_paths() {
	local files
	mapfile -t files < <(cd "$K" && git ls-files -- scripts docs guest labs configs README.md Makefile .ci tests/host \
		':!*.png' ':!*.svg' ':!tests/host/layout.sh' ':!labs/*/mistakes/*')
	paths "$K" "${files[@]}" || exit 1
	mkdir -p "$T/p/docs" && cp -r "$K/scripts" "$K/patches" "$T/p/" &&
		printf 'Run scripts/kernel.sh, then scripts/guest/run-guest.sh; see initramfs/why.c.\n' >"$T/p/docs/x.md"
	out=$(paths "$T/p" docs/x.md) && { echo "a doc naming scripts/kernel.sh passed"; exit 1; }
	grep -q 'scripts/kernel.sh does not exist' <<<"$out" && grep -q 'initramfs/why.c does not exist' <<<"$out" &&
		! grep -q run-guest <<<"$out" || { echo "not the complaints: $out"; exit 1; }
}
scenario "no script, doc or lab names a path of the kit that does not exist (a doc naming the old scripts/kernel.sh fails)" t_paths
