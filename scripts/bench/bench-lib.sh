# shellcheck shell=bash
# Helpers of the bench*.sh scripts: table rows and number formats.
# Sourced, never run.

# The private copy of the kit that bench-cold.sh makes and bench-edit.sh
# edits (BENCH_COLD_DIR): COLD, and the kit in it, CK.
COLD=${BENCH_COLD_DIR:-$KIT/build/bench-cold}
# shellcheck disable=SC2034 # used by bench-cold.sh and bench-edit.sh
CK=$COLD/kit

# stale BIN: whether the guest program BIN must be compiled again: it is
# missing, it has no BIN.d, or a file its last compile read is newer or
# gone.  BIN.d is gcc's -MD list (guest-cc.sh -o BIN SRC -MD -MF BIN.d):
# the source and every header it included, the kit's (kit/*.h, wherever
# they live) and the kernel's UAPI alike, so that no script names them
# (a script that did watched guest/tests/*.h after the kit's headers had
# moved to guest/include/kit/: an edit of bench.h rebuilt nothing).
stale() {
	local bin=$1 f
	[ -x "$bin" ] && [ -s "$bin.d" ] || return 0
	# shellcheck disable=SC2013 # words: gcc puts several files on a line
	for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$bin.d"); do
		[ -e "$f" ] && [ ! "$f" -nt "$bin" ] || return 0
	done
	return 1
}

# row FIGURE VALUE GOAL RATIO: one row of the markdown table.
row() { printf '| %s | %s | %s | %s |\n' "$@"; }

# median: the median of the numbers on stdin, one a line.
median() { sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}'; }

# secs S: "12.3 s", or "6 min 12 s" from two minutes on.
secs() {
	awk -v s="$1" 'BEGIN {
		if (s >= 120) printf "%d min %02d s", int(s / 60), int(s) % 60
		else printf "%.1f s", s }'
}

# goal_ratio VALUE GOAL: "0.42 of goal: met" or "1.30 of goal: MISSED".
goal_ratio() {
	awk -v v="$1" -v g="$2" 'BEGIN {
		printf "%.2f of goal: %s", v / g, (v <= g) ? "met" : "MISSED" }'
}

# share PART WHOLE: "37%".
share() { awk -v p="$1" -v w="$2" 'BEGIN { if (w > 0) printf "%.0f%%", 100 * p / w }'; }

# timed CMD...: run CMD quietly and print its seconds; if it fails, print
# nothing and say so on stderr with the last lines of its output (a median
# of nothing is then empty).
timed() {
	local s rc out
	out=$(mktemp)
	s=$(date +%s.%N)
	"$@" >"$out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		echo "$(date +%s.%N) - $s" | bc
	else
		{
			echo "kit: bench: '$*' failed (exit $rc); its last lines:"
			tail -8 "$out" | sed 's/^/    /'
		} >&2
	fi
	rm -f "$out"
}

# load: the 1-minute load average now.
load() { cut -d' ' -f1 /proc/loadavg; }

# tsc_clock: the kernel command line that gives a TCG guest a usable clock.
# Under TCG the guest cannot calibrate its TSC (no HPET or PM timer in the
# kit's tinyconfig kernel, the PIT is too slow), so CLOCK_MONOTONIC falls
# back to jiffies: a 4 ms step, useless for short repetitions.  A TCG
# guest's TSC is the host's: tell the guest its rate (host "cpu MHz" with
# a constant TSC) and that it is reliable, and the clock is tsc-early.
# Nothing on a host without a constant TSC.
tsc_clock() {
	local mhz
	grep -qw constant_tsc /proc/cpuinfo || return 0
	mhz=$(awk -F': *' '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)
	[ -n "$mhz" ] && echo "tsc=reliable tsc_early_khz=$(awk -v m="$mhz" 'BEGIN {printf "%d", m * 1000}')"
}
