#!/usr/bin/env bash
# make bench HOOKWALK=1: the hook walk's cost on three kernels side by
# side, pristine 6.1 (FLAVOUR=baseline), the kit's and mainline 6.12
# (FLAVOUR=mainline, built first if missing: make mainline), on the stacks
# of tests/bench/hookwalk.conf that each kernel runs as asked.
#   bench-hookwalk.sh TABLE   (appends the hook walk's tables to TABLE)
# Each boot runs lsm_bench --hookwalk (tests/bench/lsm_bench.c, through
# bench-guest.sh): open+read+close, stat and fork+exec, each paired with
# getppid() in every repetition.  ROUNDS (default 5) rounds of every boot,
# the list's order in odd rounds and backwards in even ones (ABBA), so that
# a kernel's boots of a stack are adjacent and a drift of the host's load
# does not favour one kernel.  The log, build/bench/hookwalk/hookwalk.log
# (one HOOKWALK line with round, kernel, boot, stack and the load before
# the boot, then its BENCH lines), goes through the one parser,
# scripts/bench/bench-hookwalk.awk.  10 boots a round: 45-70 s each round on 2
# CPUs at load 3-9 (TCG).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
T=${1:?usage: bench-hookwalk.sh TABLE}
ROUNDS=${ROUNDS:-5}
CONF=$KIT/tests/bench/hookwalk.conf
R=$BUILD/bench/hookwalk
LOG=$R/hookwalk.log
rm -rf "$R"
mkdir -p "$R"

"$KIT/scripts/kernel/kernel.sh" --flavour baseline || exit 1
[ -f "$BUILD/mainline/bzImage" ] ||
	say "bench: HOOKWALK=1 and the reference kernel is not built: building it now (make mainline; the first build is 15-30 min, docs/performance.md)"
"$KIT/scripts/kernel/kernel.sh" --flavour mainline || exit 1

# "boot kernel stack", one line per boot of a round, in the list's order.
mapfile -t boots < <(sed -e 's/#.*//' "$CONF" | awk -F'|' 'NF >= 4 {
	gsub(/ /, "", $1); gsub(/ /, "", $2); n = split($4, k, " ")
	for (i = 1; i <= n; i++) print $1, k[i], $2 }')
[ ${#boots[@]} -gt 0 ] || die "tests/bench/hookwalk.conf lists no boot." "Restore it: git checkout -- tests/bench/hookwalk.conf."
for b in "${boots[@]}"; do
	read -r _ k _ <<<"$b"
	case $k in baseline|normal|mainline) ;; *)
		die "tests/bench/hookwalk.conf names the kernel '$k'." "Its kernels are baseline (pristine 6.1), normal (the kit's) and mainline (6.12)." ;;
	esac
done

start=$SECONDS
for r in $(seq "$ROUNDS"); do
	order=("${boots[@]}")
	if [ $((r % 2)) = 0 ]; then
		order=()
		for ((i = ${#boots[@]} - 1; i >= 0; i--)); do order+=("${boots[i]}"); done
	fi
	say "bench: hook walk, round $r of $ROUNDS (${#order[@]} boots; load $(load))"
	for b in "${order[@]}"; do
		read -r name k stack <<<"$b"
		l=$(load)
		FLAVOUR=$k BENCH_BOOTS=$CONF BENCH_OUT=$R/$r/$k "$KIT/scripts/bench/bench-guest.sh" "$name" >/dev/null || exit 1
		{
			echo "HOOKWALK round=$r kernel=$k boot=$name stack=$stack load=$l"
			cat "$R/$r/$k/$name.txt"
		} >>"$LOG"
	done
done

{
	echo
	echo "### The hook walk, three kernels (HOOKWALK=1, $((SECONDS - start)) s)"
	echo
	awk -f "$KIT/scripts/bench/bench-hookwalk.awk" "$LOG" || exit 1
} >>"$T"
