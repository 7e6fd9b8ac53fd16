#!/usr/bin/env bash
# Meta-tests of the guest runner: each wrong guest must be reported as a
# failure.  A runner that says "passed" here is broken, so these tests
# assert that it says "failed" (and this suite itself then passes).
K=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
RG=$K/scripts/guest/run-guest.sh
echo "1..15"
check() {	# check DESCRIPTION EXPECTED_RC ACTUAL_RC [STDERR_FILE PATTERN]
	if [ "$3" -eq "$2" ] && { [ -z "${4:-}" ] || grep -q "$5" "$4"; }; then
		ok "$1"
	else
		notok "$1 (expected exit $2, got $3)"
		[ -z "${4:-}" ] || diag <"$4" | tail -5
	fi
}
e=$(mktemp)

"$RG" --quiet --name meta-true --cmd true 2>"$e"
check "a guest command that succeeds exits 0" 0 $?
"$RG" --quiet --name meta-false --cmd false 2>"$e"
check "a guest command that fails passes its status (1) through" 1 $? "$e" "exited with 1"
"$RG" --quiet --name meta-notfound --cmd 'no-such-program' 2>"$e"
check "a guest command not found is 123, not the runner's 127" 123 $? "$e" "exited with 127: the guest's shell found no such command"
"$RG" --quiet --name meta-124 --cmd 'exit 124' 2>"$e"
check "a guest command's own 124 is not taken for a hang" 123 $? "$e" "exited with 124;"

out=$("$K/scripts/test/run-boot.sh" meta-fail "" selftest_fail 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q '^COUNTS [0-9]* 1 0' <<<"$out" && grep -q '^FAIL .*one_plus_one' <<<"$out"; then
	ok "a failing guest test is counted as failed"
else
	notok "a failing guest test is counted as failed (got: $(tr '\n' ' ' <<<"$out"))"
fi

TIMEOUT=8 "$RG" --quiet --name meta-hang --cmd 'sleep 600' 2>"$e"
check "a hung guest is a failure (timeout)" 124 $? "$e" "guest hung"
"$RG" --quiet --name meta-panic --cmd 'echo c >/proc/sysrq-trigger; sleep 30' 2>"$e"
check "a panicking guest is a failure" 125 $? "$e" "Kernel panic"
"$RG" --quiet --name meta-nosentinel --cmd 'reboot -f; sleep 30' 2>"$e"
check "a guest that never prints its status line is a failure" 126 $? "$e" "never reported"
"$RG" --quiet --name meta-forged --cmd 'echo "KIT-DONE 000000000000 status=0"; exit 3' 2>"$e"
check "a forged status line (wrong nonce) is not believed" 3 $?
"$RG" --quiet --name meta-nonl --cmd 'printf "no newline at the end"' 2>"$e"
check "output without a final newline does not hide the status line" 0 $?
out=$("$K/scripts/test/run-boot.sh" meta-kmsg "" 'sh:echo "1..0"; echo "kit meta-test: WARNING: CPU: 0 PID: 1 at fake.c:1" >/dev/kmsg' 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'FAIL .*kernel-log' <<<"$out"; then
	ok "the guest's own kernel-log check catches a WARNING line"
else
	notok "the guest's own kernel-log check catches a WARNING line (got: $(tr '\n' ' ' <<<"$out"))"
fi
# make run passes CMD to the guest untouched (make expanded $f to nothing),
# and SHELL=1 (make lab N SHELL=1) does not reach the kernel's make, which
# make run runs first (it failed: "make[1]: 1: No such file or directory").
out=$(make -s -C "$K" run CMD='for f in a b; do echo "item-$f"; done' 2>"$e"); rc=$?
if [ $rc -eq 0 ] && [ "$(grep '^item-' <<<"$out" | tr '\n' ' ')" = "item-a item-b " ]; then
	ok "make run passes CMD to the guest untouched (\$f is the guest's)"
else
	notok "make run passes CMD to the guest untouched (exit $rc, got: $(tr '\n' ' ' <<<"$out"))"
	diag <"$e" | tail -5
fi
out=$(make -s -C "$K" run SHELL=1 CMD='echo shell-ok' 2>"$e"); rc=$?
if [ $rc -eq 0 ] && grep -q '^shell-ok' <<<"$out"; then
	ok "SHELL=1 on make's command line does not reach the kernel's make"
else
	notok "SHELL=1 on make's command line does not reach the kernel's make (exit $rc)"
	diag <"$e" | tail -5
fi
# The reference kernel (FLAVOUR=mainline) is not booted with a stack it
# cannot have: refused before anything is built, with the reason, not
# booted as another stack.  (It needs no reference kernel to say so.)
for st in apparmor-smack:exclusive toylsm:"has toylsm"; do
	rm -f "$K/build/logs/guest-meta-mainline.log"
	FLAVOUR=mainline APPEND=${st%%:*} "$RG" --quiet --name meta-mainline --cmd true >/dev/null 2>"$e"; rc=$?
	if [ $rc -eq 1 ] && grep -q "${st#*:}" "$e" && [ ! -e "$K/build/logs/guest-meta-mainline.log" ]; then
		ok "FLAVOUR=mainline refuses the stack ${st%%:*} with its reason, boots nothing"
	else
		notok "FLAVOUR=mainline refuses the stack ${st%%:*} with its reason, boots nothing (exit $rc)"
		diag <"$e" | tail -5
	fi
done
rm -f "$e"
