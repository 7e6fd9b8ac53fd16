#!/usr/bin/env bash
# The host half of make bench, on the kit's own build (BUILD): `make kernel`
# with nothing changed (median of 3, and where its time goes), after
# touching one toylsm file, boot to verdict of an empty guest (median of
# 3), and a warm `make lab 1` (median of 3 after one warm-up run).
# Appends table rows to the file $1.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
ROWS=${1:?usage: bench-host.sh ROWS-FILE}
. "$KIT/scripts/bench-lib.sh"
N=${BENCH_RUNS:-3}

runs() {	# runs CMD...: N timed runs, one figure a line; nothing if one fails
	local i x out=()
	for i in $(seq "$N"); do
		x=$(timed "$@")
		[ -n "$x" ] || return 1
		out+=("$x")
	done
	printf '%s\n' "${out[@]}"
}
fmt() { if [ -n "$1" ]; then secs "$1"; else echo failed; fi; }

say "bench: make kernel with nothing changed ($N runs)"
timed "$KIT/scripts/kernel.sh" >/dev/null	# the first may still find work
t=$(runs "$KIT/scripts/kernel.sh" | median)
# Where a no-op goes: the steps of kernel.sh, one run each.
t_deps=$(timed "$KIT/scripts/deps.sh")
t_tree=$(timed flock "$BUILD/.tree.lock" "$KIT/scripts/tree.sh")
t_kbuild=$(timed flock "$BUILD/.kernel-normal.lock" \
	make -C "$TREE" O="$KOUT" ARCH=x86_64 -j"$(nproc)" bzImage headers)
{
	row "make kernel, nothing changed (median of $N)" "$(fmt "$t")" "<= 15 s" "${t:+$(goal_ratio "$t" 15)}"
	row "  no-op: deps.sh (dpkg-query per package)" "$(fmt "$t_deps")" "" "$(share "$t_deps" "$t")"
	row "  no-op: tree.sh (series digest, demo-lsm/ sync)" "$(fmt "$t_tree")" "" "$(share "$t_tree" "$t")"
	row "  no-op: Kbuild make bzImage headers" "$(fmt "$t_kbuild")" "" "$(share "$t_kbuild" "$t")"
	if [ -n "$t" ] && [ -n "$t_deps" ] && [ -n "$t_tree" ] && [ -n "$t_kbuild" ]; then
		t_rest=$(awk -v a="$t" -v b="$t_deps" -v c="$t_tree" -v d="$t_kbuild" 'BEGIN { r = a - b - c - d; printf "%.2f", r < 0 ? 0 : r }')
		row "  no-op: the rest (config check, progress poll, outputs; median minus the steps)" "$(fmt "$t_rest")" "" "$(share "$t_rest" "$t")"
	fi
} >>"$ROWS"

# Touching a toylsm file changes its mtime only: tree.sh copies a file of
# demo-lsm/ only when its content differs, so nothing is recompiled.
say "bench: make kernel after touching demo-lsm/label.c"
touch "$KIT/demo-lsm/label.c"
t=$(timed "$KIT/scripts/kernel.sh")
objs=$(grep -c '^  CC ' "$LOGS/kernel-normal.log")
row "make kernel after touch demo-lsm/label.c (same content: $objs object(s) recompiled)" \
	"$(fmt "$t")" "<= 15 s" "${t:+$(goal_ratio "$t" 15)}" >>"$ROWS"

say "bench: boot to verdict of an empty guest ($N runs)"
w=() q=()
for i in $(seq "$N"); do
	x=$(timed "$KIT/scripts/run-guest.sh" --quiet --name bench-empty --cmd true)
	[ -n "$x" ] || { w=() q=(); break; }	# a failed boot: no median of the others
	w+=("$x") q+=("$(cat "$BUILD/run/bench-empty/seconds")")
done
t=$(printf '%s\n' "${w[@]}" | median) tq=$(printf '%s\n' "${q[@]}" | median)
{
	row "boot to verdict, empty guest: run-guest.sh (median of $N)" "$(fmt "$t")" "" ""
	row "  boot: QEMU start to power-off" "$(fmt "$tq")" "" "$(share "$tq" "$t")"
} >>"$ROWS"

say "bench: warm make lab 1 ($N runs after a warm-up)"
lab() { make -s -C "$KIT" lab 1 SOLUTION=1; }
timed lab >/dev/null
t=$(runs lab | median)
tb=
[ -n "$t" ] && tb=$(cat "$BUILD/run/lab-01-run-b1/seconds" 2>/dev/null)
boots=$(grep -c '^' <(. "$KIT/labs/01-active-lsms/lab.conf"; printf '%s\n' "${BOOTS[@]}"))
{
	row "warm make lab 1 ($boots boots in parallel; median of $N)" "$(fmt "$t")" "<= 5 s" "${t:+$(goal_ratio "$t" 5)}"
	row "  lab: one of its guests, QEMU start to power-off" "$(fmt "$tb")" "" "${tb:+$(share "$tb" "$t")}"
} >>"$ROWS"

# The kernel-side lab loop: a one-line edit of lab 8's file to the verdict
# of make lab 8 (lab-kernel.sh recompiles the file and relinks the lab
# kernel, then one boot grades it).  On a scratch copy of the labs
# (LABS_DIR), so that no attendee's work/ copy is touched; the first run,
# untimed, may build the lab kernel from scratch.
KL=$(mktemp -d)
trap 'rm -rf "$KL"' EXIT
cp -r "$KIT/labs/common" "$KIT"/labs/08-* "$KIT"/labs/09-* "$KL/" 2>/dev/null
F=$(ls "$KL"/08-*/solution/*.c 2>/dev/null | head -1)
if [ -n "$F" ]; then
	say "bench: kernel-side lab, one-line edit to verdict ($N edits after a warm-up)"
	mkdir -p "$(dirname "$F")/../work"
	W=$(dirname "$F")/../work/$(basename "$F")
	cp "$F" "$W"
	klab() { LABS_DIR=$KL "$KIT/scripts/lab.sh" run 8 >/dev/null 2>&1; }
	klab
	kt=()
	for i in $(seq "$N"); do
		# A change of code (the result does not change): + 0 * i.
		sed "s/toylsm_current_label(),\$/toylsm_current_label() + 0 * $i,/" "$F" >"$W"
		cmp -s "$F" "$W" && { kt=(); break; }
		x=$(timed klab)
		[ -n "$x" ] || { kt=(); break; }
		kt+=("$x")
	done
	t=
	[ ${#kt[@]} -gt 0 ] && t=$(printf '%s\n' "${kt[@]}" | median)
	objs=$(grep -c '^  CC ' "$LOGS/kernel-lab.log" 2>/dev/null)
	row "kernel-side lab: one-line edit of lab 8's file to verdict (median of $N; $objs object(s) recompiled)" \
		"$(fmt "$t")" "<= 90 s" "${t:+$(goal_ratio "$t" 90)}" >>"$ROWS"
fi
