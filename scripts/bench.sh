#!/usr/bin/env bash
# make bench: the figures of docs/performance.md, measured in one run.
# Guest: lsm_module_list vs getppid, lsm_self_attr vs the same values read
# through /proc (tests/bench/lsm_bench.c), on the default boot and a boot
# per lsm= in BENCH_BOOTS.  Host: make kernel with nothing changed, boot to
# verdict of an empty guest (median of 3).  Prints a table and writes it
# to build/bench.md.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
"$KIT/scripts/kernel.sh" || exit 1
mkdir -p "$BUILD/guest"
"$KIT/scripts/guest-cc.sh" -I "$KIT/tests/guest" -o "$BUILD/guest/lsm_bench" "$KIT/tests/bench/lsm_bench.c" || exit 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
row() { printf '| %s | %s | %s | %s |\n' "$@"; }

out=$BUILD/bench.md
{
	echo "# make bench, $(date -u +%Y-%m-%d), $(nproc) CPUs, accel $("$KIT/scripts/accel.sh")"
	echo
	echo "Guest figures run under TCG, which inflates absolute times: quote the ratios."
	echo
	row figure value goal ratio
	row --- --- --- ---
} >"$out"

for boot in "default:" ${BENCH_BOOTS:-apparmor:lsm=landlock,yama,apparmor selinux:lsm=selinux,landlock}; do
	name=${boot%%:*} append=${boot#*:}
	APPEND="tsc=reliable $append" "$KIT/scripts/run-guest.sh" --quiet \
		--name "bench-$name" --bin "$BUILD/guest/lsm_bench" --cmd lsm_bench ||
		die "the benchmark boot '$name' failed." "See $LOGS/guest-bench-$name.log."
	log=$LOGS/guest-bench-$name.log
	get() { awk -v k="$1" '$1 == "BENCH" && $2 == k {print $3}' "$log"; }
	info=$(grep -a '^BENCH-INFO' "$log" | cut -d' ' -f2-)
	g=$(get getppid) m=$(get lsm_module_list) s=$(get lsm_self_attr) p=$(get procfs_all_attrs)
	{
		row "[$name] $info" "" "" ""
		row "[$name] getppid() per call" "${g} ns" "floor" ""
		row "[$name] lsm_module_list() per call" "${m} ns" "<= 1.5x getppid" \
			"$(echo "scale=2; $m / $g" | bc)x"
		if [ -n "$p" ]; then
			row "[$name] lsm_self_attr(), all attributes" "${s} ns" "" ""
			row "[$name] same values via /proc (open+read+close each)" "${p} ns" \
				"syscall >= 5x faster" "$(echo "scale=1; $p / $s" | bc)x faster"
		fi
	} >>"$out"
done

t=$( { for i in 1 2 3; do s=$(date +%s.%N); "$KIT/scripts/kernel.sh" >/dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; done; } | median)
row "make kernel, nothing changed (median of 3)" "${t%.*}.$(echo "${t#*.}" | cut -c1) s" "<= 15 s" "" >>"$out"
t=$( { for i in 1 2 3; do "$KIT/scripts/run-guest.sh" --quiet --name bench-empty --cmd true; cat "$BUILD/run/bench-empty/seconds"; done; } | median)
row "boot to verdict, empty guest (median of 3)" "${t%.*}.$(echo "${t#*.}" | cut -c1) s" "" "" >>"$out"
cat "$out"
say "written to ${out#"$KIT"/}"
