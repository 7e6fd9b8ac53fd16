#!/usr/bin/env bash
# Offline tests of make test (scripts/test/test.sh): its lock, its
# parallel boots, its skip summary.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..3"
# make test and make test-debug write the same build/run/ and build/logs/
# files: a second run in the same clone waits for the first (lock 0 of
# docs/hacking.md).  Held here by flock for 3 s, around a nested make test
# of an offline suite in a scratch build/.
lockcase() (
	B=$T/lock
	mkdir -p "$B"
	flock "$B/.test.lock" sleep 3 &
	# until the lock is taken (a busy machine may start flock late)
	while flock -n "$B/.test.lock" true; do sleep 0.1; done
	s=$SECONDS
	e=$(BUILD=$B ONLY=selftests-mainline "$K/scripts/test/test.sh" 2>&1); rc=$?
	wait
	[ $rc -eq 0 ] || { echo "the nested make test failed: $(tail -2 <<<"$e")"; exit 1; }
	grep -q 'is running in this clone; waiting for it' <<<"$e" || { echo "no waiting message"; exit 1; }
	[ $((SECONDS - s)) -ge 2 ] || { echo "it did not wait for the lock"; exit 1; }
)
scenario "a second make test in the same clone waits for the first, and says so" lockcase

# make test's boots run GUESTS at a time; their lines come out in the
# order of tests/boots.conf whatever order they end in, and a boot whose
# runner is killed is a failure, not a hang.  In a scratch kit whose
# run-boot.sh is a stand-in: "slow" ends last, "killed" kills its runner.
ordercase() (
	S=$T/order
	mkdir -p "$S/tests/host"
	cp -r "$K/scripts" "$S/"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	cat >"$S/scripts/test/run-boot.sh" <<'EOS'
#!/bin/sh
case $1 in
slow) sleep 2; echo "COUNTS 1 0 0" ;;
fast) echo "COUNTS 2 0 0" ;;
killed) sleep 1; kill -9 $PPID ;;
esac
EOS
	printf '# name | append | programs\nslow | | x\nkilled | | x\nfast | | x\n' >"$S/tests/boots.conf"
	BUILD=$S/build GUESTS=3 ONLY=slow,killed,fast timeout 60 "$S/scripts/test/test.sh" 2>&1 | grep -v -e '^kit: test time' -e ' Killed '
)
e=$(ordercase 2>&1)
want=$(printf 'kit: %-28s %3d passed, %d failed\n' guest/slow 1 0
	echo '  FAIL boot killed: its runner ended without a result'
	echo '  FAIL guest/killed: produced no results'
	printf 'kit: %-28s %3d passed, %d failed\n' guest/killed 0 1 guest/fast 2 0
	echo '3 passed, 1 failed')
if [ "$e" = "$want" ]; then
	ok "make test's boots in parallel: results in boots.conf order, a killed runner a failure"
else
	notok "make test's boots in parallel: results in boots.conf order, a killed runner a failure"
	diff <(echo "$want") <(echo "$e") | diag 10
fi

# make test's summary: why each test was skipped, grouped by reason (most
# frequent first; a test name met twice in a suite once, "(x2)"), for host
# suites and guest boots alike: a guest skip
# named from the harness's "#  RUN" line, a reason-less skip said to be
# one, a host suite skipped whole ("1..0 # SKIP").  In a scratch kit whose
# run-guest.sh is a stand-in that returns the stored channel of a boot
# (FIXTURE), run through the real run-boot.sh, results.py and test.sh.
skipsum() {	# skipsum FIXTURE: make test's output on it, times left out
	local S=$T/skips
	rm -rf "$S"
	mkdir -p "$S/tests/host"
	cp -r "$K/scripts" "$S/"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	printf '#!/bin/sh\n# stand-in: the stored channel\nwhile [ $# -gt 0 ]; do [ "$1" = --name ] && n=$2; shift; done\ncp "$SKIPFIX" "$BUILD/logs/guest-$n.out"\n' \
		>"$S/scripts/guest/run-guest.sh"
	printf '# kit: offline\necho 1..4\necho "ok 1 lab 11 solution: # SKIP the reference kernel is not built"\necho "ok 2 lab 1"\necho "ok 3 lab 11 step 1: # SKIP the reference kernel is not built"\necho "ok 4 lab 11 step 1: # SKIP the reference kernel is not built"\n' \
		>"$S/tests/host/fake.sh"
	printf '# kit: offline\necho "1..0 # SKIP gdb is not installed"\n' >"$S/tests/host/whole.sh"
	printf 'b1 | | lsm_prctl\nb2 | smack | lsm_prctl\n' >"$S/tests/boots.conf"
	BUILD=$S/build SKIPFIX=$1 GUESTS=1 ONLY=fake,whole,b1,b2 "$S/scripts/test/test.sh" 2>&1 | grep -v '^kit: test time'
}
case_ "make test's summary: why each test was skipped, by reason, host suites and guest boots alike" \
	skips-boot.out "$(want skips.expected 0)" '/^#  RUN/d' skipsum @
