#!/usr/bin/env bash
# Offline tests of .ci/run: its reference-kernel stage runs every suite
# that waits for make mainline; its first stages build no kernel.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..3"
# .ci/run's reference-kernel stage, after make mainline, is the one run in
# CI of the host suites that wait for the reference kernel: make test, on a
# clean clone, skips them (build/linux-6.12 is not there yet).  Each suite
# that says so (it names "make mainline") is in that stage's ONLY=, and
# each name there is a suite or a boot.  (mainline-cites was not: CI never
# checked docs/mainline-next.md's 6.12 rows.)
# CI_SABOTAGE: a sed script applied to a copy of .ci/run.
refstage() (
	sed -e "${CI_SABOTAGE:-}" "$K/.ci/run" >"$T/ci-run"
	only=$(sed -n 's/.*env ONLY=\([a-z][^ ]*\) .*make test.*/\1/p' "$T/ci-run")
	[ -n "$only" ] || { echo ".ci/run: no 'env ONLY=... make test' line"; exit 1; }
	while read -r f; do
		n=$(basename "$f" .sh)
		[ "$n" != ci ] || continue	# this case's own words
		[[ ",$only," == *",$n,"* ]] ||
			{ echo "tests/host/$n.sh waits for make mainline; .ci/run's reference stage has ONLY=$only"; exit 1; }
	done < <(grep -lE 'make mainline([^-]|$)' "$K"/tests/host/*.sh)
	for n in ${only//,/ }; do
		[ -f "$K/tests/host/$n.sh" ] || grep -qE "^[[:space:]]*${n}[[:space:]]*\|" "$K/tests/boots.conf" ||
			{ echo ".ci/run's ONLY=$only: $n is no suite and no boot"; exit 1; }
	done
)
sabotaged "every host suite that waits for make mainline runs in .ci/run's reference-kernel stage" \
	"a .ci/run without abi" refstage CI_SABOTAGE 's/ONLY=abi,/ONLY=/' 'abi.sh waits for make mainline'

# CI fails fast: right after make deps come the lint (with LINT=1: a
# missing linter fails it), the suites marked "# kit: offline" (read from
# the marks, not listed by hand) and make lab-check, before make test
# builds a kernel.  FAST_SABOTAGE: a sed script applied to a copy of .ci/run.
faststage() (
	sed -e "${FAST_SABOTAGE:-}" "$K/.ci/run" >"$T/ci-fast"
	mapfile -t st < <(sed -nE 's/^stage "([^"]*)".*/\1/p' "$T/ci-fast")
	want=("make deps BROWSER=1 LINT=1" "lint" "the offline suites" "make lab-check" "make test")
	[ "${st[*]:0:5}" = "${want[*]}" ] ||
		{ echo ".ci/run's first stages are: $(printf '"%s" ' "${st[@]:0:5}")"; exit 1; }
	grep -qx 'stage "lint" env LINT=1 ONLY=lint make test' "$T/ci-fast" ||
		{ echo ".ci/run's lint stage is not ONLY=lint make test with LINT=1"; exit 1; }
	grep -q "^offline=.*grep -lx '# kit: offline' tests/host/\*\.sh" "$T/ci-fast" ||
		{ echo ".ci/run does not read the offline suites from their marks"; exit 1; }
)
sabotaged "CI's first stages, before any kernel: the lint, the offline suites, make lab-check" \
	"a .ci/run with the lint after make test" faststage FAST_SABOTAGE \
	'/^stage "lint"/{h;d}; /^stage "make test" make test$/G' 'first stages are'

# Stopping CI stops its stage: .ci/run killed (TERM) while a stage runs
# leaves nothing that stage started running (killing .ci/run's bash once
# left its make test going, orphaned).  In a scratch checkout whose make
# is a stand-in that leaves a sleeper and sleeps.  STOP_SABOTAGE: a sed
# script applied to the copy of .ci/run.
stopcase() (
	S=$T/stop
	rm -rf "$S" && mkdir -p "$S/.ci" "$S/bin"
	sed -e "${STOP_SABOTAGE:-}" "$K/.ci/run" >"$S/.ci/run"
	tag=kit-ci-left-$$
	printf '#!/bin/bash\n(exec -a %s-bg sleep 60) >/dev/null 2>&1 &\nexec -a %s-fg sleep 60\n' "$tag" "$tag" >"$S/bin/make"
	chmod +x "$S/bin/make"
	PATH=$S/bin:$PATH bash "$S/.ci/run" >"$S/out" 2>&1 &
	ci=$!
	for _ in $(seq 100); do pgrep -f "^$tag-bg" >/dev/null && break; sleep 0.1; done
	pgrep -f "^$tag-bg" >/dev/null || { echo "the stand-in stage never started: $(tail -3 "$S/out")"; exit 1; }
	kill -TERM "$ci"
	for _ in $(seq 30); do pgrep -f "^$tag-" >/dev/null || break; sleep 0.1; done
	left=$(pgrep -af "^$tag-" || true)
	pkill -f "^$tag-" 2>/dev/null
	wait "$ci" 2>/dev/null
	[ -z "$left" ] || { echo "stopping .ci/run left its stage running: $left"; exit 1; }
	grep -q '^ci: stopped$' "$S/out" || { echo ".ci/run did not say it was stopped: $(tail -3 "$S/out")"; exit 1; }
)
sabotaged "stopping .ci/run stops its stage and everything the stage started" \
	"a .ci/run that runs a stage in .ci/run's own process group" stopcase STOP_SABOTAGE \
	's/^\trun "\$@" || rc=\$?/\t"$@" || rc=$?/' 'left its stage running'
