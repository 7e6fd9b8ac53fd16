#!/usr/bin/env bash
# Generate a lab's skeleton from its reference solution, on stdout.
# Usage: lab-skel.sh SOLUTION.c [STEP]
#
# The solution marks the code of each step with a one-line comment
#	/* TODO n/m: what to do */
# (as linux-kernel-labs does): n is the step, m the number of lines after
# the marker that solve it.  The skeleton keeps the marker as
# "/* TODO n: what to do */" and drops those m lines, for every step n >=
# STEP (default 1); the steps before STEP stay solved, their marker reads
# "/* DONE n: ... */".  The kit's convention, checked here so that a wrong
# m cannot slip through: the line right after the m lines is the
# function's placeholder, "return LAB_TODO(n);" (or LAB_TODO_NULL(n)).
set -euo pipefail
src=${1:?usage: lab-skel.sh SOLUTION.c [STEP]}
step=${2:-1}
[ -f "$src" ] || { echo "lab-skel.sh: no file $src" >&2; exit 1; }
case "$step" in ''|*[!0-9]*) echo "lab-skel.sh: STEP must be a number, not '$step'" >&2; exit 1 ;; esac

awk -v step="$step" -v src="$src" '
function bad(msg) { printf "lab-skel.sh: %s:%d: %s\n", src, NR, msg > "/dev/stderr"; err = 1; exit 1 }
# Is this line a marker?  Sets n, m, pre, text.
function marker(line,   i, rest, num) {
	i = index(line, "/* TODO ")
	if (i == 0) return 0
	rest = substr(line, i + 8)
	if (rest !~ /^[0-9]+\/[0-9]+: /) return 0
	num = rest; sub(/:.*/, "", num)
	n = num; sub(/\/.*/, "", n); n += 0
	m = num; sub(/.*\//, "", m); m += 0
	pre = substr(line, 1, i - 1)
	text = rest; sub(/^[0-9]+\/[0-9]+: /, "", text)
	return 1
}
skip > 0 {
	if (marker($0)) bad("a TODO marker inside the " mm " lines of TODO " cur "/" mm " (is its line count too large?)")
	if (keep) print
	if (--skip == 0) { want = 1 }
	next
}
want {
	want = 0
	if ($0 !~ ("LAB_TODO(_NULL)?\\(" cur "\\)"))
		bad("TODO " cur "/" mm ": the line after its " mm " lines should be the placeholder \"return LAB_TODO(" cur ");\"; it is: " $0 " (is the line count right?)")
}
{
	if (marker($0)) {
		if (m < 1) bad("TODO " n "/" m ": the line count must be at least 1")
		cur = n; mm = m; skip = m; keep = (n < step)
		seen[n] = 1
		print pre (keep ? "/* DONE " : "/* TODO ") n ": " text
		next
	}
	print
}
END {
	if (err) exit 1
	if (skip > 0) bad("TODO " cur "/" mm " runs past the end of the file")
	if (want) bad("TODO " cur "/" mm " is not followed by its placeholder")
}' "$src"
