#!/usr/bin/env bash
# make bench: the figures of docs/performance.md, measured in one run, as a
# table (figure, value, goal, ratio) on the terminal and in build/bench.md.
# Guest (bench-guest.sh, tests/bench/boots.conf): lsm_module_list against
# getppid, lsm_self_attr against the same values through /proc, its cost
# per returned entry as the attribute-providing LSMs change, and the cost
# of one /proc/self/attr read.  Host (bench-host.sh): no-op make kernel,
# the kit's own time in a no-op make run and make why (wall minus the
# guest's, median of 7, with the load), touch of a toylsm file, boot to
# verdict, warm make lab 1 and its stages before the boots, the kit's own
# CPU in those runs; a guest boot's CPU against a bare boot of the same
# kernel and with KUnit (bench-boot.sh); the edit loop
# of demo-lsm/ (bench-edit.sh) where a private kit exists.
# A few minutes from a built kit.  BASELINE=1 adds the /proc read on the
# pristine 6.1 kernel (the flavour baseline; its first build takes minutes);
# TRACE=1 adds the cost of the LSM events (bench-trace.sh; minutes);
# COLD=1 adds a cold make test in a throw-away copy (bench-cold.sh; minutes,
# and it makes the private kit that the edit loop needs).  MAINLINE=1 adds
# the kit's lsm_self_attr and lsm_module_list against mainline 6.12's
# lsm_get_self_attr (one call per attribute) and lsm_list_modules, each in
# its own kernel's getppid units (bench-mainline.sh; the reference kernel,
# built first if missing: make mainline).  HOOKWALK=1 adds the hook walk
# (open+read+close, stat, fork+exec against getppid) on pristine 6.1, the
# kit's kernel and mainline 6.12 side by side, in rounds of interleaved
# boots, as a table of its own (bench-hookwalk.sh; both other kernels built
# first if missing; ROUNDS, default 5, as TRACE=1's).  BENCH_HOST=0
# leaves the host half out (for work on the guest half).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
say "bench: load at start $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (the machine is shared: a load above $(nproc) means noisy figures)"
"$KIT/scripts/kernel/kernel.sh" --flavour normal || exit 1
[ "${BASELINE:-0}" = 1 ] && { "$KIT/scripts/kernel/kernel.sh" --flavour baseline || exit 1; }
start=$SECONDS load0=$(load)

R=$BUILD/bench
out=$BUILD/bench.md
# A run that stops half-way leaves no table behind, not even the last one.
rm -rf "$R/normal" "$R/baseline" "$R/guest.md" "$R/host.md" "$R/hookwalk.md" "$out"
mkdir -p "$R"
FLAVOUR=normal "$KIT/scripts/bench/bench-guest.sh" || exit 1
[ "${BASELINE:-0}" = 1 ] && { FLAVOUR=baseline "$KIT/scripts/bench/bench-guest.sh" smack || exit 1; }

# get FLAVOUR BOOT NAME [FIELD]: a figure's median (FIELD 3), min (4), max (5).
get() { awk -v k="$3" -v f="${4:-3}" '$1 == "BENCH" && $2 == k {print $f}' "$R/$1/$2.txt" 2>/dev/null; }
# info FLAVOUR BOOT KEY [LINE]: a value of its BENCH-INFO (or BENCH-INFO-EXEC) line.
info() {
	awk -v k="$3" -v l="${4:-BENCH-INFO}" '$1 == l {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] } }' \
		"$R/$1/$2.txt" 2>/dev/null
}
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
rat() { printf '%s (%s-%s)' "$(get "$1" "$2" "$3")" "$(get "$1" "$2" "$3" 4)" "$(get "$1" "$2" "$3" 5)"; }
ns() { printf '%s ns (%s-%s)' "$(get "$1" "$2" "$3")" "$(get "$1" "$2" "$3" 4)" "$(get "$1" "$2" "$3" 5)"; }
verdict() { awk -v v="$1" -v g="$2" -v ge="${3:-0}" 'BEGIN { ok = ge ? v >= g : v <= g; printf "%s", ok ? "met" : "MISSED" }'; }
boots() { sed -e 's/#.*//' "$KIT/tests/bench/boots.conf" | awk -F'|' 'NF >= 2 {gsub(/ /, "", $1); print $1}'; }

G=$R/guest.md H=$R/host.md
: >"$G"
: >"$H"
{
	row "getppid() per call, the floor of any syscall [default]" "$(ns normal default getppid)" "floor" "1.00x"
	for b in $(boots); do
		r=$(get normal "$b" lsm_module_list/getppid)
		[ -n "$r" ] || continue
		row "lsm_module_list() per call, $(info normal "$b" lsms) LSMs [$b]" "$(ns normal "$b" lsm_module_list)" \
			"<= 1.5x getppid" "$(rat normal "$b" lsm_module_list/getppid)x getppid: $(verdict "$r" 1.5)"
	done
	for b in $(boots); do
		r=$(get normal "$b" procfs_all_attrs/lsm_self_attr)
		[ -n "$r" ] || continue
		row "lsm_self_attr() vs /proc: open+read+close of $(info normal "$b" attributes) file(s) [$b]" \
			"$(get normal "$b" lsm_self_attr) vs $(get normal "$b" procfs_all_attrs) ns" ">= 5x faster" \
			"$(rat normal "$b" procfs_all_attrs/lsm_self_attr)x faster: $(verdict "$r" 5 1)"
	done
	# Scaling: cost per call in units of the same boot's getppid (paired),
	# and per returned entry above the boot without any provider.
	z=$(get normal none lsm_self_attr/getppid)
	for b in $(boots); do
		r=$(get normal "$b" lsm_self_attr/getppid) e=$(info normal "$b" entries) g=$(get normal "$b" getppid)
		[ -n "$r" ] || continue
		per="" pe=""
		if [ "${e:-0}" -gt 0 ] && [ -n "$z" ]; then
			pe=$(calc %.2f "($r - $z) / $e")
			per="; per entry above [none]: $pe getppid = $(calc %.0f "$pe * $g") ns"
		fi
		row "lsm_self_attr() scaling: $(info normal "$b" providers) provider(s) ($(info normal "$b" names)) of $(info normal "$b" lsms) LSMs, $e entries [$b]" \
			"$(ns normal "$b" lsm_self_attr)" "linear in entries" "$(rat normal "$b" lsm_self_attr/getppid)x getppid$per"
		x=$(get normal "$b" lsm_self_attr_exec/getppid)
		[ -n "$x" ] && row "  with toylsm's exec label set: $(info normal "$b" entries BENCH-INFO-EXEC) entries [$b]" \
			"$(ns normal "$b" lsm_self_attr_exec)" "" \
			"$(rat normal "$b" lsm_self_attr_exec/getppid)x getppid; the added entry: $(calc %.2f "$x - $r") getppid = $(calc %.0f "($x - $r) * $g") ns"
	done
	# Linear in entries? A least-squares line through (entries, cost in
	# getppid units) of every boot, and how far the worst boot is off it.
	fit=$(for b in $(boots); do
		r=$(get normal "$b" lsm_self_attr/getppid) e=$(info normal "$b" entries)
		[ -n "$r" ] && [ -n "$e" ] && echo "$e $r $b"
	done | awk '{ x[NR] = $1; y[NR] = $2; n[NR] = $3; sx += $1; sy += $2; sxx += $1 * $1; sxy += $1 * $2 }
		END {
			if (NR < 3 || NR * sxx == sx * sx) exit
			k = (NR * sxy - sx * sy) / (NR * sxx - sx * sx); c = (sy - k * sx) / NR
			for (i = 1; i <= NR; i++) { d = y[i] - (c + k * x[i]); if (d < 0) d = -d
				if (d > w) { w = d; wn = n[i] } ; ss += (y[i] - sy / NR) ^ 2; sr += d * d }
			printf "%.2f %.2f %.2f %.2f %s %d", k, c, ss ? 1 - sr / ss : 1, w, wn, NR }')
	if [ -n "$fit" ]; then
		read -r k c r2 w wn nb <<<"$fit"
		row "lsm_self_attr() cost against entries returned, $nb boots (0-3 providers)" \
			"$c + $k x entries getppid" "linear in entries" \
			"R^2 $r2; worst boot [$wn] $w getppid off the line"
	fi
	row "lsm_self_attr() with 4 providers" "not measurable" "" \
		"needs SELinux and Smack together, which the series keeps exclusive (patch 0015 makes AppArmor stack with either: 3 providers)"
	# /proc/self/attr reads, and before vs after the series.
	for f in proc_current proc_named_current; do
		what="/proc/self/attr/current"
		[ $f = proc_named_current ] && what="/proc/self/attr/$(info normal smack named)/current"
		a=$(get normal smack $f/getppid)
		[ -n "$a" ] || continue
		row "pread of $what, with the series [smack]" "$(ns normal smack $f)" "" "$(rat normal smack $f/getppid)x getppid"
		bb=$(get baseline smack $f/getppid)
		if [ -n "$bb" ]; then
			row "  the same on pristine 6.1, no series [smack]" "$(ns baseline smack $f)" "" "$(rat baseline smack $f/getppid)x getppid"
			row "  after / before the series (in getppid units)" "$(calc %.2f "$a / $bb")" "~1 (ID compare vs strcmp)" \
				"raw ns after/before $(calc %.2f "$(get normal smack $f) / $(get baseline smack $f)")"
		elif [ "${BASELINE:-0}" != 1 ]; then
			row "  the same on pristine 6.1, no series" "not measured" "" "make bench BASELINE=1 (first build: minutes)"
		fi
	done
} >>"$G"

# MAINLINE=1: the kit's calls against mainline 6.12's, each in its own
# kernel's getppid units (bench-mainline.sh; needs the reference kernel,
# which it builds if missing: make mainline, 15-30 min the first time).
if [ "${MAINLINE:-0}" = 1 ]; then
	"$KIT/scripts/bench/bench-mainline.sh" "$G" || exit 1
else
	row "kit's lsm_self_attr / lsm_module_list against mainline 6.12's lsm_get_self_attr / lsm_list_modules" "not measured" "" \
		"make bench MAINLINE=1 (needs the reference kernel: make mainline)" >>"$G"
fi

# HOOKWALK=1: the hook walk on three kernels, a table of its own.
W=$R/hookwalk.md
: >"$W"
if [ "${HOOKWALK:-0}" = 1 ]; then
	"$KIT/scripts/bench/bench-hookwalk.sh" "$W" || exit 1
else
	row "the hook walk (open+read+close, stat, fork+exec) on pristine 6.1, the kit's kernel and mainline 6.12" "not measured" "" \
		"make bench HOOKWALK=1 (needs both other kernels: built first if missing)" >>"$G"
fi
load_guest=$(load)

if [ "${BENCH_HOST:-1}" = 1 ]; then
	"$KIT/scripts/bench/bench-host.sh" "$H" || row "host loop figures" "failed (above)" "" "" >>"$H"
	"$KIT/scripts/bench/bench-boot.sh" "$H" || row "guest boot CPU" "failed (above)" "" "" >>"$H"
	if [ "${COLD:-0}" = 1 ]; then
		"$KIT/scripts/bench/bench-cold.sh" "$H" || row "cold make test" "failed (above)" "" "" >>"$H"
	else
		row "cold make test (extract, git am, build, suites)" "not measured" "<= 8 min" "make bench COLD=1 (minutes)" >>"$H"
	fi
	"$KIT/scripts/bench/bench-edit.sh" "$H" || row "demo-lsm/ edit to verdict" "failed (above)" "" "" >>"$H"
fi

# TRACE=1: the cost of patch 0017's LSM events (bench-trace.sh; builds a
# kernel without tracing once, then minutes of boots).
if [ "${TRACE:-0}" = 1 ]; then
	"$KIT/scripts/bench/bench-trace.sh" "$G" || row "LSM events' cost" "failed (above)" "" "" >>"$G"
fi

{
	echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), accel $("$KIT/scripts/guest/accel.sh"), kernel $(git -C "$TREE" describe --always 2>/dev/null) of $(git -C "$KIT" rev-parse --short HEAD 2>/dev/null)."
	echo "Load (1 min) at start $load0, after the guest boots $load_guest, at the end $(load); $((SECONDS - start)) s in all."
	echo "Guest figures run under TCG, which inflates absolute times and gives syscalls a high fixed cost: quote the ratios."
	[ "${MAINLINE:-0}" = 1 ] &&
		echo "Kit against mainline 6.12: two kernels, each measured against its own getppid() in its own boot. TCG emulates every guest instruction, and a syscall's entry and exit cost more under it than the work inside, so the nanoseconds say more about QEMU and the host's load than about either kernel; a ratio to the same boot's getppid() cancels most of that, and only ratios compare across the two kernels."
	reps=$(awk -F'[ =]' '$1 == "BENCH-METHOD" {print $3; exit}' "$R/normal/default.txt")
	ms=$(awk -F'[ =]' '$1 == "BENCH-METHOD" {print $5; exit}' "$R/normal/default.txt")
	clk=$(awk -F'[ =]' '$1 == "BENCH-METHOD" {print $7; exit}' "$R/normal/default.txt")
	echo "Guest clock: CLOCK_MONOTONIC on clocksource $clk (jiffies means 4 ms steps: figures unusable)."
	echo "Guest values: median ns per operation over $reps repetitions of >= $ms ms each, (min-max) of the repetitions; ratios are paired (both operations in every repetition, ABBA order) and are the median of the $reps ratios."
	echo
	row figure value goal ratio
	row --- --- --- ---
	cat "$G" "$H" "$W"
} >"$out"
cat "$out"
say "written to $(rel "$out")"
failed=$(grep -c '| failed' "$out")
[ "$failed" = 0 ] || die "$failed figure(s) of the host loop failed: the rows that say 'failed' (the reason is above them)." \
	"Fix what failed and run make bench again; the table keeps the other figures."
