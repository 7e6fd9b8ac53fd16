#!/usr/bin/env bash
# The judge of scripts/test/selftests-mainline.sh (mainline 6.12's LSM
# selftests on the reference kernel) fails on the wrong thing: on made-up
# results in a temporary folder it must pass all-pass results and a skip
# whose reason tests/selftests/mainline-skips states (for that stack, or
# "*"), and report a failure, a skip without a reason, a reason whose case
# did not skip, and a reason given for another stack.  No guest, no build.
# kit: offline
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
judge() {	# judge WANT_PROBLEMS PATTERN DESCRIPTION: judge $T/r for stack smack with $T/skips
	ST_MAINLINE_SKIPS=$T/skips "$K/scripts/test/selftests-mainline.sh" --judge smack "$T/r" >"$T/out" 2>&1
	if grep -qE "^SUMMARY [0-9]+ [0-9]+ [0-9]+ $1\$" "$T/out" && grep -qE "$2" "$T/out"; then
		ok "$3"
	else
		notok "$3"; diag <"$T/out"
	fi
}
ok='lsm/lsm_get_self_attr_test/1_global.size_null_lsm_get_self_attr pass
lsm/lsm_get_self_attr_test/exit pass'
: >"$T/skips"
printf '%s\n' "$ok" >"$T/r"
judge 0 '^SUMMARY 2 2 0 0$' "all cases pass: no problem"
printf '%s\nlsm/lsm_list_modules_test/5_global.correct_lsm_list_modules fail\nlsm/lsm_list_modules_test/exit fail:1\n' "$ok" >"$T/r"
judge 2 '^FAIL lsm/lsm_list_modules_test/5_global.correct_lsm_list_modules: fail$' "a failing case and its program's exit status are reported"
printf '%s\nlsm/lsm_set_self_attr_test/1_global.ctx_null_lsm_set_self_attr skip\n' "$ok" >"$T/r"
judge 1 '^SKIP lsm/lsm_set_self_attr_test/1_global.ctx_null_lsm_set_self_attr: skipped, no reason' "a skip without a stated reason is reported"
echo 'smack lsm/lsm_set_self_attr_test/1_global.ctx_null_lsm_set_self_attr made-up reason' >"$T/skips"
judge 0 '^SUMMARY 3 2 1 0$' "a skip with a reason for its stack counts as a skip"
echo '* lsm/lsm_set_self_attr_test/1_global.ctx_null_lsm_set_self_attr made-up reason' >"$T/skips"
judge 0 '^SUMMARY 3 2 1 0$' "... and with a reason for every stack (*)"
echo 'apparmor lsm/lsm_set_self_attr_test/1_global.ctx_null_lsm_set_self_attr made-up reason' >"$T/skips"
judge 1 '^SKIP ' "a reason given for another stack does not explain the skip"
printf '%s\n' "$ok" >"$T/r"
echo 'smack lsm/lsm_get_self_attr_test/exit made-up reason' >"$T/skips"
judge 1 '^STALE lsm/lsm_get_self_attr_test/exit: mainline-skips gives a reason, the case did not skip' "a stated reason whose case passed is reported stale"
done_testing
