#!/usr/bin/env bash
# Generate a lab's skeleton from its reference solution.
# Usage: lab-skel.sh SOLUTION [STEP [OUT]]
#
# SOLUTION is a C file, or a folder of files (a policy lab's set: each
# file in it is treated alone, and OUT, a folder, is required).  The
# solution marks the code of each step as a block:
#	/* TODO n: what to do */		# TODO n: what to do
#	... the code that solves step n ...	... the rules of step n ...
#	/* END TODO n */			# END TODO n
# (the second form in files whose comments start with #: policies).
# For every step n >= STEP (default 1) the skeleton keeps the first marker,
# drops the block and its end marker, and writes the placeholder in their
# place, with the marker's indentation: "return LAB_TODO(n);" (C), nothing
# (#), or what the end marker names after a colon ("/* END TODO 3: return
# LAB_TODO_NULL(3); */", "/* END TODO 1: LAB_TODO(1); */" in a void
# function).  The steps before STEP stay solved; their first marker reads
# "DONE n: ...", and their end marker goes.  A marker out of place
# (nested, unended, an end without its start, a step twice in one file)
# is an error naming the file and line.  The skeleton goes to stdout, or
# to OUT.
set -euo pipefail
src=${1:?usage: lab-skel.sh SOLUTION [STEP [OUT]]}
step=${2:-1}
out=${3:-}
[ -e "$src" ] || { echo "lab-skel.sh: no file $src" >&2; exit 1; }
case "$step" in ''|*[!0-9]*) echo "lab-skel.sh: STEP must be a number, not '$step'" >&2; exit 1 ;; esac

skel_file() {	# skel_file FILE: its skeleton on stdout
awk -v step="$step" -v src="$1" '
function bad(msg) { printf "lab-skel.sh: %s:%d: %s\n", src, NR, msg > "/dev/stderr"; err = 1; exit 1 }
/\/\* *(TODO|END TODO) / && !/\/\* (TODO [0-9]+: .*\*\/|END TODO [0-9]+( *\*\/|: .*\*\/))/ {
	bad("a malformed marker: " $0 " (the forms are /* TODO n: what to do */ and /* END TODO n */)")
}
/^[ \t]*# *(TODO|END TODO) / && !/^[ \t]*# (TODO [0-9]+: .*|END TODO [0-9]+ *(: .*)?)$/ {
	bad("a malformed marker: " $0 " (the forms are # TODO n: what to do and # END TODO n)")
}
/\/\* TODO [0-9]+: / || /^[ \t]*# TODO [0-9]+: / {
	hash = ($0 ~ /^[ \t]*# TODO /)
	i = hash ? index($0, "# TODO ") : index($0, "/* TODO ")
	open = hash ? "# TODO " : "/* TODO "
	if (cur) bad("TODO " (substr($0, i + length(open)) + 0) " starts inside the block of TODO " cur " (its END TODO " cur " is missing?)")
	pre = substr($0, 1, i - 1)
	rest = substr($0, i + length(open))
	cur = rest; sub(/:.*/, "", cur); cur += 0
	if (cur < 1) bad("TODO 0: steps count from 1")
	if (cur in seen) bad("TODO " cur " appears twice")
	seen[cur] = 1
	keep = (cur < step)
	print pre (hash ? "# " : "/* ") (keep ? "DONE " : "TODO ") rest
	next
}
/\/\* END TODO [0-9]+/ || /^[ \t]*# END TODO [0-9]+/ {
	n = $0; sub(/.*END TODO /, "", n); sub(/[^0-9].*/, "", n); n += 0
	if (n != cur) bad("END TODO " n " without its TODO " n ": ... before it" (cur ? " (the open block is TODO " cur ")" : ""))
	ph = hash ? "" : "return LAB_TODO(" cur ");"
	if (match($0, /END TODO [0-9]+ *: /)) {
		ph = substr($0, RSTART + RLENGTH); sub(/ *\*\/.*/, "", ph)
		if (!hash && ph !~ ("LAB_TODO(_NULL)?\\(" cur "\\)")) bad("END TODO " cur ": the placeholder \"" ph "\" does not name LAB_TODO(" cur ")")
	}
	if (!keep && ph != "") print pre ph
	cur = 0
	next
}
cur && !keep { next }
{ print }
END {
	if (err) exit 1
	if (cur) { NR = "end"; bad("TODO " cur " has no END TODO " cur) }
}' "$1"
}

if [ -f "$src" ]; then
	if [ -n "$out" ]; then skel_file "$src" >"$out"; else skel_file "$src"; fi
	exit 0
fi
[ -n "$out" ] || { echo "lab-skel.sh: $src is a folder: name the folder to write, lab-skel.sh $src $step OUT" >&2; exit 1; }
rm -rf "$out"
cp -r "$src" "$out"
while IFS= read -r -d '' f; do
	skel_file "$src/$f" >"$out/$f"
done < <(cd "$src" && find . -type f -print0)
