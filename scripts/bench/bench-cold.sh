#!/usr/bin/env bash
# make bench COLD=1: a cold `make test`, as an attendee's first run does it,
# in a throw-away copy of the kit (BENCH_COLD_DIR, default
# build/bench-cold/kit, with its own build/): extract and git am (tree.sh),
# configure and build the kernel (kernel.sh), then the suites (test.sh).
# Costs minutes and both CPUs.  Appends table rows to the file $1; the copy
# stays, so that bench-edit.sh can measure an edit of demo-lsm/ in a kit
# that is not shared with anyone.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
ROWS=${1:?usage: bench-cold.sh ROWS-FILE}
. "$KIT/scripts/bench/bench-lib.sh"

say "cold: a fresh copy of the kit in $COLD (its build/ from scratch; minutes)"
rm -rf "$COLD" && mkdir -p "$CK" || die "could not make $COLD." "Check the path and the disk space (df -h)."
# The kit's files as in the working tree, tracked and new, without build/.
(cd "$KIT" && git ls-files -c -o --exclude-standard | while read -r f; do [ -e "$f" ] && echo "$f"; done |
	cpio -pdm --quiet "$CK") ||
	die "could not copy the kit to $CK." "Check the disk space (df -h)."

# step NAME CMD...: run one step of the cold build with its own build dir,
# its output in $COLD/NAME.log; sets T to its seconds.
step() {
	local name=$1 s
	shift
	s=$(date +%s.%N)
	env -u BUILD -u FLAVOUR "$@" >"$COLD/$name.log" 2>&1
	RC=$?
	T=$(echo "$(date +%s.%N) - $s" | bc)
}
load0=$(cut -d' ' -f1 /proc/loadavg)
step tree "$CK/scripts/kernel/tree.sh"
t_tree=$T
[ $RC = 0 ] || die "cold: tree.sh failed (log: $COLD/tree.log)." "See its last lines."
step kernel "$CK/scripts/kernel/kernel.sh"
t_kernel=$T
[ $RC = 0 ] || die "cold: kernel.sh failed (log: $COLD/kernel.log)." "See its last lines."
step test "$CK/scripts/test/test.sh"
t_test=$T rc_test=$RC
verdict=$(tail -1 "$COLD/test.log")
total=$(echo "$t_tree + $t_kernel + $t_test" | bc)
load1=$(cut -d' ' -f1 /proc/loadavg)
{
	row "cold make test, total (clean copy; load $load0 -> $load1)" "$(secs "$total")" "<= 8 min" \
		"$(goal_ratio "$total" 480)"
	row "  cold: extract + git am of the series (tree.sh)" "$(secs "$t_tree")" "" "$(share "$t_tree" "$total")"
	row "  cold: configure + build the kernel (kernel.sh)" "$(secs "$t_kernel")" "" "$(share "$t_kernel" "$total")"
	row "  cold: the suites, $verdict (test.sh)" "$(secs "$t_test")" "" "$(share "$t_test" "$total")"
	row "cold make kernel (extract, git am, configure, build)" "$(secs "$(echo "$t_tree + $t_kernel" | bc)")" "" ""
} >>"$ROWS"
[ "$rc_test" = 0 ] || say "cold: make test did not pass in the copy ($verdict); log: $COLD/test.log"
exit 0
