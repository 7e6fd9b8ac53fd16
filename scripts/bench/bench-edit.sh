#!/usr/bin/env bash
# The edit loop of a kernel-side change: edit one line of demo-lsm/label.c
# (its title comment), `make kernel`, boot a guest that reads toylsm's
# label, verdict.  Runs in the private kit copy that bench-cold.sh left in
# BENCH_COLD_DIR (never in a shared build: the edit would reach everyone's
# kernel), after syncing the kit's current files into it.  Three edits
# (two changes, then back to the original); median and parts.  Appends
# rows to the file $1; without a private copy, one row that says how to
# get one.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
ROWS=${1:?usage: bench-edit.sh ROWS-FILE}
. "$KIT/scripts/bench/bench-lib.sh"
FIG="edit one line of demo-lsm/ (a comment) to guest verdict"

if [ ! -f "$CK/build/bzImage" ]; then
	row "$FIG" "not measured" "<= 60 s" "needs the private kit of make bench COLD=1 (once)" >>"$ROWS"
	exit 0
fi
# The kit's files as they are now; untimed, so a changed series may take
# minutes here.
(cd "$KIT" && git ls-files -c -o --exclude-standard | while read -r f; do [ -e "$f" ] && echo "$f"; done) |
	rsync -a --checksum --files-from=- "$KIT/" "$CK/" ||
	die "could not sync the kit into $CK." "Remove $COLD and run make bench COLD=1 again."
say "edit: bringing the private kit in $(rel "$COLD") up to date (untimed)"
env -u BUILD -u FLAVOUR "$CK/scripts/kernel/kernel.sh" >"$COLD/edit-sync.log" 2>&1 ||
	die "the private kit's kernel does not build (log: $COLD/edit-sync.log)." "See its last lines."

F=$CK/demo-lsm/label.c
k=() b=() tot=()
for i in 1 2 3; do
	if [ $i -lt 3 ]; then
		sed -i "3s/.*/ * toylsm - Labels and secids (bench edit $i)/" "$F"
	else
		cp "$KIT/demo-lsm/label.c" "$F"
	fi
	tk=$(env -u BUILD -u FLAVOUR bash -c 'time -p "$0"' "$CK/scripts/kernel/kernel.sh" 2>&1 >"$COLD/edit-$i.log" |
		awk '/^real/ {print $2}')
	objs=$(grep -c '^  CC ' "$CK/build/logs/kernel-normal.log")
	tb=$(timed env -u BUILD -u FLAVOUR "$CK/scripts/guest/run-guest.sh" --quiet --name bench-edit \
		--cmd 'grep -q . /proc/self/attr/toylsm/current')
	[ -n "$tk" ] && [ -n "$tb" ] || die "edit $i: make kernel or the guest failed (logs in $COLD, $CK/build/logs)." "See their last lines."
	k+=("$tk") b+=("$tb") tot+=("$(echo "$tk + $tb" | bc)")
done
cmp -s "$KIT/demo-lsm/label.c" "$F" || die "edit: $F was not restored." "Copy it from demo-lsm/label.c."
mt=$(printf '%s\n' "${tot[@]}" | median)
mk=$(printf '%s\n' "${k[@]}" | median)
mb=$(printf '%s\n' "${b[@]}" | median)
{
	row "$FIG (median of 3)" "$(secs "$mt")" "<= 60 s" "$(goal_ratio "$mt" 60)"
	row "  edit: make kernel ($objs object(s) recompiled, relink, bzImage)" "$(secs "$mk")" "" "$(share "$mk" "$mt")"
	row "  edit: boot to verdict" "$(secs "$mb")" "" "$(share "$mb" "$mt")"
} >>"$ROWS"
