#!/usr/bin/env bash
# The host half of make bench, on the kit's own build (BUILD): `make kernel`
# with nothing changed (median of 3, and the steps its stamp saves), the
# kit's own time in a warm make run and make why (wall minus the guest's,
# median of 7), after touching one toylsm file, boot to verdict of an
# empty guest (median of 3), and a warm `make lab 1` (median of 3 after
# one warm-up run, and its stages before the boots).
# Also the kit's own CPU in those runs (all its processes but the guests'
# QEMU). Appends table rows to the file $1.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
ROWS=${1:?usage: bench-host.sh ROWS-FILE}
. "$KIT/scripts/bench/bench-lib.sh"
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
timed "$KIT/scripts/kernel/kernel.sh" --flavour normal >/dev/null	# the first may still find work
t=$(runs "$KIT/scripts/kernel/kernel.sh" --flavour normal | median)
# What the stamp saves: the path a no-op took before it (and takes when an
# input changed), one step at a time.
t_deps=$(timed "$KIT/scripts/host/deps.sh")
t_tree=$(timed flock "$BUILD/.tree.lock" "$KIT/scripts/kernel/tree.sh")
t_kbuild=$(timed "$KIT/scripts/kernel/kernel.sh" --flavour normal --kbuild -j"$(nproc)" bzImage headers)
t_old=
[ -n "$t_deps" ] && [ -n "$t_tree" ] && [ -n "$t_kbuild" ] &&
	t_old=$(awk -v a="$t_deps" -v b="$t_tree" -v c="$t_kbuild" 'BEGIN { printf "%.2f", a + b + c }')
{
	row "make kernel, nothing changed (median of $N): kernel.sh's stamp of its inputs says up to date" "$(fmt "$t")" "<= 15 s" "${t:+$(goal_ratio "$t" 15)}"
	row "  without the stamp (what it saves), one run of each step:" "$(fmt "$t_old")" "" ""
	row "    deps.sh (one dpkg-query)" "$(fmt "$t_deps")" "" "$(share "$t_deps" "$t_old")"
	row "    tree.sh (series digest, toylsm mirror digests)" "$(fmt "$t_tree")" "" "$(share "$t_tree" "$t_old")"
	row "    Kbuild make bzImage headers, nothing to compile" "$(fmt "$t_kbuild")" "" "$(share "$t_kbuild" "$t_old")"
} >>"$ROWS"

# The kit's own time in a warm guest run: the wall time of the make
# command minus the guest's own (QEMU start to power-off, which
# run-guest.sh writes to build/run/NAME/seconds), NOOP runs after a
# warm-up; median and (min-max), against the guest's median, with the
# load around the runs.  And the kit's own CPU (issue 45): the user and
# system time of every process of the make command (children_cpu, lib.sh)
# minus its guests' QEMU (build/run/NAME/cpu-ms): the load moves the wall
# figure, hardly this one.
NOOP=${BENCH_NOOP_RUNS:-7}
CPUF=$(mktemp)
# guests_cpu DIR...: the CPU (ms) of the guests whose run folders are DIR...
guests_cpu() { cat "${@/%//cpu-ms}" | awk '{ t += $1 } END { print t + 0 }'; }
# spread: "median min max" of the numbers on stdin, one a line.
spread() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)], a[1], a[NR] }'; }
overhead() {	# overhead NAME TARGET...: "median min max guest-median load0 load1 cpu-median cpu-min cpu-max guest-cpu-median" (s)
	local name=$1 i s w c0 c1 l0 os=() gs=() cs=() gcs=()
	shift
	make -s -C "$KIT" "$@" >/dev/null 2>&1 || return 1
	l0=$(load)
	for i in $(seq "$NOOP"); do
		s=${EPOCHREALTIME/./}
		children_cpu c0 "$CPUF"
		make -s -C "$KIT" "$@" >/dev/null 2>&1 || return 1
		children_cpu c1 "$CPUF"
		w=$((${EPOCHREALTIME/./} - s))
		gs+=("$(cat "$BUILD/run/$name/seconds")") gcs+=("$(guests_cpu "$BUILD/run/$name")") || return 1
		os+=("$(echo "$w / 1000000 - ${gs[-1]}" | bc -l)") cs+=("$(echo "($c1 - $c0 - ${gcs[-1]}) / 1000" | bc -l)")
	done
	printf '%s %s %s %s %s %s\n' "$(printf '%s\n' "${os[@]}" | spread)" \
		"$(printf '%s\n' "${gs[@]}" | median)" "$l0" "$(load)" "$(printf '%s\n' "${cs[@]}" | spread)" \
		"$(printf '%s\n' "${gcs[@]}" | median | awk '{ print $1 / 1000 }')"
}
for what in "run CMD=true" "why CMD=true"; do
	name=${what%% *}
	say "bench: make $what with nothing changed, the kit's own time and CPU ($NOOP runs after a warm-up)"
	# shellcheck disable=SC2086 # $what: a target and its variables, a word each
	if read -r m lo hi g l0 l1 cm clo chi gc < <(overhead "$name" $what); then
		row "make $what, nothing changed: the kit's own CPU, user+system of all its processes but the guest's QEMU (median of $NOOP, load $l0-$l1)" \
			"$(printf '%.2f s (%.2f-%.2f)' "$cm" "$clo" "$chi")" "<= 0.5 s" \
			"$(awk -v m="$cm" -v g="$gc" 'BEGIN { printf "%.2f x the guest'"'"'s own %.1f s of CPU", m / g, g }'); $(goal_ratio "$cm" 0.5)"
		row "  the same runs: the kit's own time, wall minus the guest's" \
			"$(printf '%.2f s (%.2f-%.2f)' "$m" "$lo" "$hi")" "<= 1.5 s" \
			"$(awk -v m="$m" -v g="$g" 'BEGIN { printf "%.2f x the guest'"'"'s own %.1f s", m / g, g }'); $(goal_ratio "$m" 1.5)"
	else
		row "make $what, nothing changed: the kit's own CPU and time" "failed" "<= 0.5 s" ""
	fi >>"$ROWS"
done

# Touching a toylsm file changes its mtime only: tree.sh copies a file of
# demo-lsm/ only when its content differs, so nothing is recompiled.
say "bench: make kernel after touching demo-lsm/label.c"
# Kbuild's log is written only when Kbuild runs.
mark=$(mktemp)
touch "$KIT/demo-lsm/label.c"
t=$(timed "$KIT/scripts/kernel/kernel.sh" --flavour normal)
if [ "$LOGS/kernel-normal.log" -nt "$mark" ]; then
	what="Kbuild ran: $(grep -c '^  CC ' "$LOGS/kernel-normal.log") object(s) recompiled"
else
	what="Kbuild not run: the stamp knows the content"
fi
rm -f "$mark"
row "make kernel after touch demo-lsm/label.c (same content; $what)" \
	"$(fmt "$t")" "<= 15 s" "${t:+$(goal_ratio "$t" 15)}" >>"$ROWS"

say "bench: boot to verdict of an empty guest ($N runs)"
w=() q=()
for i in $(seq "$N"); do
	x=$(timed "$KIT/scripts/guest/run-guest.sh" --quiet --name bench-empty --cmd true)
	[ -n "$x" ] || { w=() q=(); break; }	# a failed boot: no median of the others
	w+=("$x") q+=("$(cat "$BUILD/run/bench-empty/seconds")")
done
t=$(printf '%s\n' "${w[@]}" | median) tq=$(printf '%s\n' "${q[@]}" | median)
{
	row "boot to verdict, empty guest: run-guest.sh (median of $N)" "$(fmt "$t")" "" ""
	row "  boot: QEMU start to power-off" "$(fmt "$tq")" "" "$(share "$tq" "$t")"
} >>"$ROWS"

# What the second CPU costs a boot (issue 34): the guest's own time with
# one CPU and with two, in pairs (ABBA), the median of the ratios.
PAIRS=${BENCH_SMP_PAIRS:-4}
say "bench: an empty guest with one CPU and with two ($PAIRS pairs, ABBA)"
smp_boot() {	# smp_boot N: the guest's own seconds with N CPUs
	KIT_SMP=$1 "$KIT/scripts/guest/run-guest.sh" --quiet --name bench-smp --cmd \
		"[ \$(grep -c ^processor /proc/cpuinfo) = $1 ]" >/dev/null 2>&1 || return 1
	cat "$BUILD/run/bench-smp/seconds"
}
ratios=() ones=() twos=() l0=$(load)
for i in $(seq "$PAIRS"); do
	if [ $((i % 2)) = 1 ]; then a=$(smp_boot 1) b=$(smp_boot 2); else b=$(smp_boot 2) a=$(smp_boot 1); fi
	[ -n "$a" ] && [ -n "$b" ] || { ratios=(); break; }
	ones+=("$a") twos+=("$b") ratios+=("$(echo "$b / $a" | bc -l)")
done
if [ ${#ratios[@]} -gt 0 ]; then
	row "boot to power-off of an empty guest, two CPUs against one ($PAIRS ABBA pairs, load $l0-$(load))" \
		"$(printf '%.2f s vs %.2f s' "$(printf '%s\n' "${twos[@]}" | median)" "$(printf '%s\n' "${ones[@]}" | median)")" "" \
		"$(printf '%.2f' "$(printf '%s\n' "${ratios[@]}" | median)")x (median of the pairs' ratios)"
else
	row "boot of an empty guest, two CPUs against one" "failed (a guest did not see the CPUs it was given)" "" ""
fi >>"$ROWS"

say "bench: warm make lab 1 ($N runs after a warm-up)"
# lab: one warm run, timed; its config and build stages (the kit's own
# work before the boots: the kernel's stamp, the grader, the attendee's
# program) from the record of the run (its stages), into $KL_STAGES.
KL_STAGES=$(mktemp) KL_CPU=$(mktemp)
boots=$("$KIT/scripts/lab/conf.sh" "$KIT/labs/01-active-lsms" BOOTS | grep -c '^')
lab() {	# also the kit's own CPU of the run (its boots' QEMU left out), s, into $KL_CPU
	local c0 c1 b=() i
	children_cpu c0 "$CPUF"
	make -s -C "$KIT" lab 1 SOLUTION=1 || return 1
	children_cpu c1 "$CPUF"
	for i in $(seq "$boots"); do b+=("$BUILD/run/lab-01-run-b$i"); done
	echo "($c1 - $c0 - $(guests_cpu "${b[@]}")) / 1000" | bc -l >>"$KL_CPU"
	"$KIT/scripts/guest/results.py" record seconds "$BUILD/labs/01/last-run.json" config build >>"$KL_STAGES"
}
timed lab >/dev/null
: >"$KL_STAGES"
: >"$KL_CPU"
t=$(runs lab | median)
tb='' ts='' tc=''
[ -n "$t" ] && tb=$(cat "$BUILD/run/lab-01-run-b1/seconds" 2>/dev/null) ts=$(median <"$KL_STAGES") tc=$(spread <"$KL_CPU")
rm -f "$KL_STAGES" "$KL_CPU"
{
	if [ -n "$tc" ]; then
		read -r cm clo chi <<<"$tc"
		row "warm make lab 1: the kit's own CPU, all its processes but its $boots guests' QEMU (median of $N)" \
			"$(printf '%.2f s (%.2f-%.2f)' "$cm" "$clo" "$chi")" "<= 0.5 s" "$(goal_ratio "$cm" 0.5)"
	fi
	row "warm make lab 1 ($boots boots in parallel; median of $N)" "$(fmt "$t")" "<= 5 s" "${t:+$(goal_ratio "$t" 5)}"
	row "  lab: its config and build stages (the kernel's stamp, grader, program), median" "$(fmt "$ts")" "<= 1.5 s" "${ts:+$(goal_ratio "$ts" 1.5)}"
	row "  lab: one of its guests, QEMU start to power-off" "$(fmt "$tb")" "" "${tb:+$(share "$tb" "$t")}"
} >>"$ROWS"

# The kernel-side lab loop: a one-line edit of lab 8's file to the verdict
# of make lab 8 (lab-kernel.sh recompiles the file and relinks the lab
# kernel, then one boot grades it).  On a scratch copy of the labs
# (LABS_DIR), so that no attendee's work/ copy is touched; the first run,
# untimed, may build the lab kernel from scratch.
KL=$(mktemp -d)
trap 'rm -rf "$KL" "$CPUF"' EXIT
cp -r "$KIT/labs/common" "$KIT"/labs/08-* "$KIT"/labs/09-* "$KL/" 2>/dev/null
F=$(first "$KL"/08-*/solution/*.c)
if [ -n "$F" ]; then
	say "bench: kernel-side lab, one-line edit to verdict ($N edits after a warm-up)"
	mkdir -p "$(dirname "$F")/../work"
	W=$(dirname "$F")/../work/$(basename "$F")
	cp "$F" "$W"
	klab() { LABS_DIR=$KL "$KIT/scripts/lab/lab.sh" run 8 >/dev/null 2>&1; }
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
