#!/usr/bin/env bash
# Offline tests of the graders' harness, labs/common/grader.h, built and
# run on the host.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# The graders' harness, built and run on the host: TAP out, "needs step k"
# instead of a wrong hint, NULs in a step's output shown (not cut).
grader() {	# grader SRC: build SRC with labs/common/grader.h and grade
	gcc -std=c11 -Wall -Wextra -Werror -I "$K/labs/common" -I "$K/guest/include" -o "$T/grader" "$1" || return 99
	"$T/grader" --grade
}
case_ "the graders' harness: TAP, diagnostics, needs step k, NULs shown" \
	fake-grade.c "$(want fake-grade.expected 1)" '/lab_needs(1);/d' grader @
