#!/usr/bin/env bash
# Offline tests of scripts/lib/lib.sh: the series' UAPI headers
# (series_headers), the path helper (rel, and its Python twin
# kitpath.py's) and first.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..4"
# The base initramfs is shared by every flavour: its probe is compiled
# against the series' headers even when the reference kernel (FLAVOUR=
# mainline, whose <linux/lsm.h> has no LSM_ID_TOYLSM) boots it and its
# headers are the newest (stop 26's CI: make mainline-tests rebuilt probe
# against 6.12's headers and every boot failed to compile it).
hdrcase() (
	B=$T/hdr
	mk() { mkdir -p "$B/$1/usr/include/linux" && : >"$B/$1/usr/include/linux/lsm.h"; }
	pick() { BUILD=$B FLAVOUR=$1 bash -c '. "$1/scripts/lib/lib.sh" && series_headers' _ "$K"; }
	mkdir -p "$B" && mk mainline
	[ -z "$(pick mainline)" ] || { echo "only mainline's headers, and they were picked: $(pick mainline)"; exit 1; }
	mk debug
	[ "$(pick mainline)" = "$B/debug/usr/include" ] || { echo "mainline boot, debug built: got '$(pick mainline)'"; exit 1; }
	mk .
	for f in mainline normal debug baseline; do
		[ "$(pick $f)" = "$B/./usr/include" ] || [ "$(pick $f)" = "$B/usr/include" ] ||
			{ echo "FLAVOUR=$f: got '$(pick $f)', not the normal flavour's"; exit 1; }
	done
)
scenario "the shared initramfs's probe: the series' headers for every flavour, never the reference kernel's" hdrcase

# rel: a path as messages show it, relative to the kit when it is in it,
# else as it is; scripts/lib/kitpath.py's rel, the Python scripts', says
# the same of each.  A path that only begins with the kit's name
# (KIT-old/x) is not in it.  REL_SABOTAGE and PYREL_SABOTAGE: sed scripts
# applied to copies of lib.sh and kitpath.py.
relcase() (
	mkdir -p "$T/rel/scripts/lib" &&
		sed -e "${REL_SABOTAGE:-}" "$K/scripts/lib/lib.sh" >"$T/rel/scripts/lib/lib.sh" &&
		sed -e "${PYREL_SABOTAGE:-}" "$K/scripts/lib/kitpath.py" >"$T/rel/scripts/lib/kitpath.py" || exit 1
	R=$T/rel
	paths=("$R/build/logs/x.log" "$R/labs" "$R" "$R-old/x" "/etc/os-release" "$R/a b/c")
	want=("build/logs/x.log" "labs" "$R" "$R-old/x" "/etc/os-release" "a b/c")
	mapfile -t sh < <(BUILD=$T/rel-build bash -c '. "$1/scripts/lib/lib.sh" && shift && for p; do rel "$p"; done' _ "$R" "${paths[@]}")
	mapfile -t py < <(/usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1] + "/scripts/lib"); import kitpath
for p in sys.argv[2:]: print(kitpath.rel(p))' "$R" "${paths[@]}")
	for i in "${!paths[@]}"; do
		[ "${sh[i]:-}" = "${want[i]}" ] || { echo "lib.sh: rel ${paths[i]} gave '${sh[i]:-}', not '${want[i]}'"; exit 1; }
		[ "${py[i]:-}" = "${want[i]}" ] || { echo "kitpath.py: rel ${paths[i]} gave '${py[i]:-}', not '${want[i]}'"; exit 1; }
	done
)
sabotaged "lib.sh's rel: a path in the kit relative to it, any other as it is" \
	"a rel that strips the kit's name without its slash" relcase REL_SABOTAGE 's|^rel() { printf .%s\\n. "${1#"$KIT"/}"; }|rel() { printf "%s\\n" "${1#"$KIT"}"; }|' 'lib.sh: rel'
sabotaged "kitpath.py's rel says what lib.sh's says" \
	"a kitpath.py that takes KIT-old/x for a path in the kit" relcase PYREL_SABOTAGE 's|full.startswith(KIT + os.sep)|full.startswith(KIT)|' 'kitpath.py: rel'

# first: the first of its arguments that exists (a glob's first match),
# or nothing when none does (a glob that matched nothing).
# FIRST_SABOTAGE: a sed script applied to a copy of lib.sh.
firstcase() (
	mkdir -p "$T/first/b" "$T/first/c" "$T/fk/scripts/lib" &&
		sed -e "${FIRST_SABOTAGE:-}" "$K/scripts/lib/lib.sh" >"$T/fk/scripts/lib/lib.sh" || exit 1
	got=$(BUILD=$T/rel-build bash -c '. "$1/scripts/lib/lib.sh" && first "$2"/*/ && echo "[$(first "$2"/*.none)]"' _ "$T/fk" "$T/first")
	[ "$got" = "$T/first/b/"$'\n''[]' ] || { echo "first gave: $got"; exit 1; }
)
sabotaged "first: a glob's first match, nothing when it matched nothing" \
	"a first that gives its first argument" firstcase FIRST_SABOTAGE 's|for p; do \[ -e "$p" \] && |for p; do |' 'first gave'
