#!/usr/bin/env bash
# Offline tests of make test (scripts/test/test.sh): its lock, its
# parallel boots, its skip summary, the flavour each boot runs on and
# the time it is given (scripts/test/run-boot.sh), as configs/flavours.conf
# says.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..6"
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

# The lock is make test's own: a process a suite or a boot leaves running
# (a room's server after a failed case, seen at stop 59) must not hold it,
# or the next make test in the clone waits for ever for a run that has
# ended.  In a scratch kit whose host suite and boot runner each leave a
# sleeper behind; the lock must be free once make test has returned.
leftcase() (
	S=$T/left
	rm -rf "$S" && mkdir -p "$S/tests/host" && cp -r "$K/scripts" "$K/configs" "$S/" || exit 1
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	printf '# kit: offline\necho 1..1\n(exec -a kit-left-suite sleep 60) >/dev/null 2>&1 </dev/null &\necho "ok 1 leaves a sleeper"\n' \
		>"$S/tests/host/leaves.sh"
	printf '#!/bin/bash\n(exec -a kit-left-boot sleep 60) >/dev/null 2>&1 </dev/null &\necho "COUNTS 1 0 0"\n' \
		>"$S/scripts/test/run-boot.sh"
	printf 'b1 | | x\n' >"$S/tests/boots.conf"
	BUILD=$S/build GUESTS=1 ONLY=leaves,b1 timeout 60 "$S/scripts/test/test.sh" >"$S/out" 2>&1
	rc=$?
	free=yes
	flock -n "$S/build/.test.lock" true || free=no
	pkill -f '^kit-left-(suite|boot)' 2>/dev/null
	[ $rc = 0 ] || { echo "make test failed (exit $rc): $(tail -3 "$S/out")"; exit 1; }
	[ $free = yes ] || { echo "make test's lock is held after it returned, by what a suite or boot left running"; exit 1; }
	exit 0
)
scenario "make test's lock is free when it returns, whatever its suites and boots left running" leftcase

# make test's boots run GUESTS at a time; their lines come out in the
# order of tests/boots.conf whatever order they end in, and a boot whose
# runner is killed is a failure, not a hang.  In a scratch kit whose
# run-boot.sh is a stand-in: "slow" ends last, "killed" kills its runner.
ordercase() (
	S=$T/order
	mkdir -p "$S/tests/host"
	cp -r "$K/scripts" "$K/configs" "$S/"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	cat >"$S/scripts/test/run-boot.sh" <<'EOS'
#!/bin/sh
[ "$1" != --flavour ] || shift 2
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
	cp -r "$K/scripts" "$K/configs" "$S/"
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

# The flavour each boot runs on, and the time it is given: make test boots
# a line on the kernel its kit.flavour= names (normal without one), make
# test-debug on the flavour that names' row gives in its column
# test-debug, or skips it ("-": bpf); a line's extra time is the word the
# row of the flavour it runs on names in its column timeout (kit.timeout,
# or kit.timeout_debug for debug), whatever that flavour is.  Before, every
# flavour but normal read kit.timeout_debug: a bpf boot's kit.timeout=300
# was ignored.  In a scratch kit whose run-guest.sh is a stand-in that
# records its flavour and TIMEOUT, through the real test.sh and run-boot.sh.
# FLAVOURS_SABOTAGE: a sed script applied to the scratch kit's table.
flavourcase() (
	S=$T/flavours
	rm -rf "$S" && mkdir -p "$S/tests/host" && cp -r "$K/scripts" "$K/configs" "$S/" || exit 1
	[ -z "${FLAVOURS_SABOTAGE:-}" ] || sed -i "$FLAVOURS_SABOTAGE" "$S/configs/flavours.conf"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	cat >"$S/scripts/guest/run-guest.sh" <<'EOS'
#!/bin/sh
# stand-in: records the flavour and the limit; one passing test
f=${FLAVOUR:-normal}
while [ $# -gt 0 ]; do case $1 in --flavour) f=$2; shift ;; --name) n=$2; shift ;; esac; shift; done
echo "$n $f $TIMEOUT" >>"$BUILD/booted"
printf 'KIT-BEGIN t\n1..1\nok 1 t\nKIT-END t status=0\n' >"$BUILD/logs/guest-$n.out"
EOS
	printf 'plain | default | p\nslow | default kit.timeout=300 kit.timeout_debug=900 | p\nbpfslow | default kit.timeout=300 kit.timeout_debug=900 kit.flavour=bpf | p\n' >"$S/tests/boots.conf"
	run() {	# run FLAVOUR: the boots of that make test, sorted
		rm -f "$S/build/booted"
		env BUILD="$S/build" FLAVOUR="$1" GUESTS=1 ONLY=plain,slow,bpfslow "$S/scripts/test/test.sh" >"$S/out" 2>&1
		sort "$S/build/booted" 2>/dev/null
	}
	got=$(run normal)
	want=$(printf '%s\n' 'boot-bpfslow bpf 300' 'boot-plain normal 120' 'boot-slow normal 300')
	[ "$got" = "$want" ] || { echo "make test's boots:"; diff <(echo "$want") <(echo "$got"); exit 1; }
	got=$(run debug)
	want=$(printf '%s\n' 'boot-plain debug 120' 'boot-slow debug 900')
	[ "$got" = "$want" ] || { echo "make test-debug's boots:"; diff <(echo "$want") <(echo "$got"); exit 1; }
	grep -q 'SKIP (1) its line says kit.flavour=bpf: make test boots it, FLAVOUR=debug has no variant of that kernel' "$S/out" ||
		{ echo "make test-debug did not say why bpfslow was skipped: $(grep SKIP "$S/out")"; exit 1; }
	exit 0
)
sabotaged "make test boots a line on its kit.flavour's kernel, make test-debug on the row's test-debug flavour or not at all; a boot's extra time is its flavour's timeout word" \
	"a table whose bpf row reads kit.timeout_debug" flavourcase FLAVOURS_SABOTAGE \
	's/^\(bpf\( *|[^|]*\)\{6\}| \)kit.timeout /\1kit.timeout_debug/' "make test's boots"
sabotaged "make test-debug skips a line whose flavour has no debug variant (test-debug -), as the table says" \
	"a table whose bpf row names debug as its test-debug" flavourcase FLAVOURS_SABOTAGE \
	's/^\(bpf\( *|[^|]*\)\{7\}| \)- /\1debug/' "make test-debug's boots"
