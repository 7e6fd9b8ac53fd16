#!/usr/bin/env bash
# Offline tests of make bench's rebuild of its guest programs
# (scripts/bench/bench-lib.sh's stale()).
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# make bench compiles its guest programs (lsm_bench, hook_bench) again
# when a file their last compile read is newer: stale() in bench-lib.sh
# reads gcc's -MD list, so a kit header counts wherever it lives.  (The
# scripts named the headers: bench-guest.sh watched guest/tests/*.h, and
# an edit of guest/include/kit/bench.h rebuilt nothing.)
# STALE_SABOTAGE: a sed script applied to a copy of bench-lib.sh.
benchstale() (
	sed -e "${STALE_SABOTAGE:-}" "$K/scripts/bench/bench-lib.sh" >"$T/bench-lib.sh"
	# shellcheck disable=SC2034 # bench-lib.sh's
	KIT=$K
	# shellcheck source=/dev/null
	. "$T/bench-lib.sh"
	mkdir -p "$T/st/kit"
	printf '#define N 1\n' >"$T/st/kit/h.h"
	printf '#include "kit/h.h"\nint main(void) { return N - 1; }\n' >"$T/st/p.c"
	gcc -I "$T/st" -o "$T/st/p" "$T/st/p.c" -MD -MF "$T/st/p.d" || { echo "gcc failed"; exit 1; }
	touch -d '-1 min' "$T/st/p.c" "$T/st/kit/h.h"
	! stale "$T/st/p" || { echo "stale right after its compile"; exit 1; }
	touch "$T/st/kit/h.h"
	stale "$T/st/p" || { echo "not stale after an edit of the header it includes"; exit 1; }
	for f in bench-guest.sh bench-trace.sh; do
		grep -q 'if stale "$BIN"' "$K/scripts/bench/$f" && grep -q -- '-MD -MF "$BIN.d"' "$K/scripts/bench/$f" ||
			{ echo "scripts/bench/$f does not compile with -MD and ask stale()"; exit 1; }
	done
)
sabotaged "make bench rebuilds a guest program when a header it includes changed" \
	"a stale() that looks at no file's time" benchstale STALE_SABOTAGE \
	's/\[ ! "\$f" -nt "\$bin" \]/true/' 'not stale after an edit'
