#!/usr/bin/env bash
# Offline tests of .ci/run: its reference-kernel stage runs every suite
# that waits for make mainline.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# .ci/run's reference-kernel stage, after make mainline, is the one run in
# CI of the host suites that wait for the reference kernel: make test, on a
# clean clone, skips them (build/linux-6.12 is not there yet).  Each suite
# that says so (it names "make mainline") is in that stage's ONLY=, and
# each name there is a suite or a boot.  (mainline-cites was not: CI never
# checked docs/mainline-next.md's 6.12 rows.)
# CI_SABOTAGE: a sed script applied to a copy of .ci/run.
refstage() (
	sed -e "${CI_SABOTAGE:-}" "$K/.ci/run" >"$T/ci-run"
	only=$(sed -n 's/.*env ONLY=\([^ ]*\) .*make test.*/\1/p' "$T/ci-run")
	[ -n "$only" ] || { echo ".ci/run: no 'env ONLY=... make test' line"; exit 1; }
	for f in $(grep -lE 'make mainline([^-]|$)' "$K"/tests/host/*.sh); do
		n=$(basename "$f" .sh)
		[ "$n" != ci ] || continue	# this case's own words
		[[ ",$only," == *",$n,"* ]] ||
			{ echo "tests/host/$n.sh waits for make mainline; .ci/run's reference stage has ONLY=$only"; exit 1; }
	done
	for n in ${only//,/ }; do
		[ -f "$K/tests/host/$n.sh" ] || grep -qE "^[[:space:]]*${n}[[:space:]]*\|" "$K/tests/boots.conf" ||
			{ echo ".ci/run's ONLY=$only: $n is no suite and no boot"; exit 1; }
	done
)
sabotaged "every host suite that waits for make mainline runs in .ci/run's reference-kernel stage" \
	"a .ci/run without abi" refstage CI_SABOTAGE 's/ONLY=abi,/ONLY=/' 'abi.sh waits for make mainline'
