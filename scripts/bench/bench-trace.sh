#!/usr/bin/env bash
# make bench TRACE=1: the cost of the LSM events of patch 0017.
#   bench-trace.sh TABLE   (appends rows to the markdown TABLE)
# The kit's kernel with the events compiled in and off is compared with
# the same series built without tracing (the flavour notrace of
# configs/flavours.conf: configs/kit.config minus its tracing block, no
# CONFIG_TRACEPOINTS, so the trace_*() calls are empty): Kbuild output
# build/kbuild/notrace, image build/notrace/bzImage, built by kernel.sh
# (with ccache, only the objects that tracing changes are compiled).
# tests/bench/hook_bench.c runs in ROUNDS (default 9) pairs of boots, the
# two kernels alternating (ABBA); each boot gives the median ns of its
# hook loop (open, read, close, stat, a signal, getppid). Two kernels
# cannot share a boot, so the off-cost is the median over the rounds of
# the ratio of the two boots' medians. In the kit kernel's boots the loop
# is also timed paired with the lsm:* events on: the on-cost.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
T=${1:?usage: bench-trace.sh TABLE}
ROUNDS=${ROUNDS:-9}
NK=$BUILD/kbuild/notrace NOUT=$BUILD/notrace
mkdir -p "$BUILD/bench/trace"
"$KIT/scripts/kernel/kernel.sh" --flavour notrace || exit 1
! grep -q '^CONFIG_TRACEPOINTS=y' "$NK/.config" ||
	die "the kernel without tracing has CONFIG_TRACEPOINTS (configs/notrace.config drops kit.config's tracing block; something else selects it)." \
	    "See $NK/.config; configs/notrace.config's drop: line must name every option of kit.config's block '# Tracing, for the LSM events'."
BIN=$BUILD/bench/hook_bench
if stale "$BIN"; then
	FLAVOUR=normal "$KIT/scripts/guest/guest-cc.sh" -o "$BIN" "$KIT/tests/bench/hook_bench.c" \
		-MD -MF "$BIN.d" ||
		die "tests/bench/hook_bench.c does not compile (above)." "Fix the first error shown."
fi

# boot FLAVOUR ROUND ARGS: hook_bench's BENCH lines in trace/FLAVOUR-ROUND.txt
boot() {
	local f=$1 r=$2 out
	shift 2
	out=$BUILD/bench/trace/$f-$r.txt
	"$KIT/scripts/guest/run-guest.sh" --flavour "$f" --quiet --name "bench-trace-$f" \
		--bin "$BIN" --cmd "hook_bench $*" ||
		die "hook_bench failed on the $f kernel (round $r)." "Its output: $LOGS/guest-bench-trace-$f.out."
	grep -a '^BENCH' "$LOGS/guest-bench-trace-$f.out" >"$out"
}
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
fig() { awk -v k="$2" -v f="${3:-3}" '$1 == "BENCH" && $2 == k {print $f}' "$1"; }
R=$BUILD/bench/trace
rm -f "$R"/*.txt
for r in $(seq "$ROUNDS"); do
	say "bench: trace round $r of $ROUNDS"
	# ABBA: which kernel boots first alternates, so that a drift of the
	# host's load does not favour one of them.
	if [ $((r % 2)) = 1 ]; then
		boot normal "$r" --trace
		boot notrace "$r"
	else
		boot notrace "$r"
		boot normal "$r" --trace
	fi
done
offs=() ons=() lines=()
for r in $(seq "$ROUNDS"); do
	a=$(fig "$R/normal-$r.txt" loop) b=$(fig "$R/notrace-$r.txt" loop)
	offs+=("$(calc '%.3f' "$a / $b")")
	ons+=("$(fig "$R/normal-$r.txt" on/off)")
	lines+=("$a/$b")
done
off=$(printf '%s\n' "${offs[@]}" | median)
on=$(printf '%s\n' "${ons[@]}" | median)
{
	row "hook loop, events compiled in and off / kernel without tracing (median of $ROUNDS boot pairs; each pair's ratio: ${offs[*]}; ns ${lines[*]})" \
		"$off" "<= 1.02" "$(goal_ratio "$off" 1.02)"
	row "hook loop, lsm:* events on / off (paired in each repetition; median of the $ROUNDS kit-kernel boots' medians: ${ons[*]})" \
		"$on" "" ""
	row "bzImage: kit kernel / without tracing" \
		"$(stat -c %s "$BUILD/bzImage") / $(stat -c %s "$NOUT/bzImage") bytes" "" \
		"$(calc '%.3f' "$(stat -c %s "$BUILD/bzImage") / $(stat -c %s "$NOUT/bzImage")")"
} >>"$T"
