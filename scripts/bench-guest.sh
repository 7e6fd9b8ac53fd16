#!/usr/bin/env bash
# The guest half of make bench: boot FLAVOUR's kernel once per line of
# tests/bench/boots.conf (or only the boots named as arguments) and run
# tests/bench/lsm_bench in it.  Its BENCH lines land in
# build/bench/<flavour>/<boot>.txt; bench.sh makes the table.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
D=$BUILD/bench/$FLAVOUR
BIN=$BUILD/bench/lsm_bench
mkdir -p "$D"
# The program is the same for every kernel: built against the series'
# UAPI headers, it finds out at run time whether the syscalls exist.
if [ ! -x "$BIN" ] || [ "$KIT/tests/bench/lsm_bench.c" -nt "$BIN" ] ||
   [ "$KIT/tests/guest/lsm_abi.h" -nt "$BIN" ] || [ "$BUILD/usr/include/linux/lsm.h" -nt "$BIN" ]; then
	FLAVOUR=normal "$KIT/scripts/guest-cc.sh" -o "$BIN" "$KIT/tests/bench/lsm_bench.c" ||
		die "tests/bench/lsm_bench.c does not compile (above)." "Fix the first error shown."
fi

# Under TCG the guest cannot calibrate its TSC (no HPET or PM timer in the
# kit's tinyconfig kernel, the PIT is too slow), so CLOCK_MONOTONIC falls
# back to jiffies: a 4 ms step, useless for short repetitions.  A TCG
# guest's TSC is the host's: tell the guest its rate (host "cpu MHz" with
# a constant TSC) and that it is reliable, and the clock is tsc-early.
clock=
if grep -qw constant_tsc /proc/cpuinfo; then
	mhz=$(awk -F': *' '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
	[ -n "$mhz" ] && clock="tsc=reliable tsc_early_khz=$(awk -v m="$mhz" 'BEGIN {printf "%d", m * 1000}')"
fi

wanted() { [ $# -eq 1 ] || [[ " ${*:2} " == *" $1 "* ]]; }
while IFS='|' read -r name append args; do
	name=$(echo "$name" | xargs)
	case "$name" in ''|'#'*) continue ;; esac
	wanted "$name" "$@" || continue
	append=$(echo "$append" | xargs) args=$(echo "$args" | xargs)
	rm -f "$D/$name.txt"
	say "bench: boot '$name' ($FLAVOUR kernel${append:+, $append})"
	APPEND="$clock $append" "$KIT/scripts/run-guest.sh" --quiet \
		--name "bench-$FLAVOUR-$name" --bin "$BIN" --cmd "lsm_bench $args" ||
		die "the benchmark boot '$name' ($FLAVOUR) failed (above)." \
		    "Its console log: $LOGS/guest-bench-$FLAVOUR-$name.log."
	grep -a '^BENCH' "$LOGS/guest-bench-$FLAVOUR-$name.log" | tr -d '\r' >"$D/$name.txt"
	grep -q '^BENCH getppid ' "$D/$name.txt" ||
		die "boot '$name' printed no figures." "See $LOGS/guest-bench-$FLAVOUR-$name.log."
done <"$KIT/tests/bench/boots.conf"
