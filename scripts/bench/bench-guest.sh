#!/usr/bin/env bash
# The guest half of make bench: boot FLAVOUR's kernel once per line of
# tests/bench/boots.conf (or only the boots named as arguments) and run
# tests/bench/lsm_bench.c in it.  Its BENCH lines land in
# build/bench/<flavour>/<boot>.txt; bench.sh makes the table.
# BENCH_BOOTS, BENCH_OUT: another list of boots in the same format (a
# fourth field is left to its reader) and another folder for the lines
# (bench-hookwalk.sh: tests/bench/hookwalk.conf, one folder per round).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
D=${BENCH_OUT:-$BUILD/bench/$FLAVOUR}
CONF=${BENCH_BOOTS:-$KIT/tests/bench/boots.conf}
BIN=$BUILD/bench/lsm_bench
mkdir -p "$D"
# The program is the same for every kernel: built against the series'
# UAPI headers, it finds out at run time whether the syscalls exist.
SRC=$KIT/tests/bench/lsm_bench.c
[ -f "$SRC" ] || die "the benchmark program's source $(rel "$SRC") is missing." \
	"Restore it: git checkout -- tests/bench/lsm_bench.c (a binary left in ${BIN%/*} is not used without its source)."
if stale "$BIN"; then
	rm -f "$BIN"
	FLAVOUR=normal "$KIT/scripts/guest/guest-cc.sh" -o "$BIN" "$SRC" -MD -MF "$BIN.d" ||
		die "tests/bench/lsm_bench.c does not compile (above)." "Fix the first error shown."
fi
[ -x "$BIN" ] || die "no benchmark program at $BIN after compiling it." "Check that ${BIN%/*} is writable."

# A clock with nanosecond steps under TCG (bench-lib.sh, tsc_clock).
clock=$(tsc_clock)

wanted() { [ $# -eq 1 ] || [[ " ${*:2} " == *" $1 "* ]]; }
while IFS='|' read -r name append args _; do
	# Comments first: xargs refuses a line with an apostrophe.
	[[ "$name" =~ ^[[:space:]]*(#|$) ]] && continue
	name=$(echo "$name" | xargs)
	wanted "$name" "$@" || continue
	append=$(echo "$append" | xargs) args=$(echo "$args" | xargs)
	rm -f "$D/$name.txt"
	say "bench: boot '$name' ($FLAVOUR kernel${append:+, $append})"
	log=$LOGS/guest-bench-$FLAVOUR-$name.log out=$LOGS/guest-bench-$FLAVOUR-$name.out
	APPEND="$clock $append" "$KIT/scripts/guest/run-guest.sh" --flavour "$FLAVOUR" --quiet \
		--name "bench-$FLAVOUR-$name" --bin "$BIN" --cmd "lsm_bench $args"
	rc=$?
	case $rc in
	0) ;;
	124|125|126) die "the benchmark boot '$name' ($FLAVOUR kernel) failed: run-guest.sh exit $rc (124 hang, 125 kernel splat, 126 no status line; above); no table is made from a partial run." \
		"Its console log: $log." ;;
	*) echo "---- lsm_bench's own lines in the guest console ----" >&2
	   grep -a -v -E '^KIT-|^$' "$out" | tail -15 >&2
	   die "lsm_bench exited with status $rc in boot '$name' ($FLAVOUR kernel), expected 0 (123: the guest's own 124-127, e.g. no such program; its message is above); no table is made from a partial run." \
		"Its console log: $log." ;;
	esac
	grep -a '^BENCH' "$out" >"$D/$name.txt"
	grep -q '^BENCH getppid ' "$D/$name.txt" ||
		die "boot '$name' ($FLAVOUR kernel) ran but printed no figures (expected a line 'BENCH getppid ...')." "See $out (and the console, $log)."
done <"$CONF"
