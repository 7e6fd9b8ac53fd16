#!/usr/bin/env bash
# The comparison of scripts/test/selftests.sh (the kernel's own selftests on the
# pristine and the kit's kernel) fails on the wrong thing: on altered
# copies of a set of results, in a temporary folder, it must report a case
# whose outcome differs, a case that only one kernel reported, a failure on
# both kernels that tests/selftests/known does not explain, and pass on
# identical results; and that its parser reads the guest's output. TAP on
# stdout, run by `make test` (no guest, no build: under a second).
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
# The kit's own known file explains failures of the real runs; these
# made-up results start from an empty one (ST_KNOWN= below overrides it).
: >"$T/none"
export ST_KNOWN=$T/none
t() {	# t WANT(0|1) DESCRIPTION: compare $T/r, expect exit WANT
	"$K/scripts/test/selftests.sh" --compare "$T/r" >"$T/out" 2>&1
	rc=$?
	if { [ "$1" = 0 ] && [ $rc = 0 ]; } || { [ "$1" = 1 ] && [ $rc != 0 ]; }; then
		ok "$2"
	else
		notok "$2 (exit $rc)"; diag <"$T/out"
	fi
}
grep_out() {	# grep_out PATTERN DESCRIPTION
	if grep -qE "$1" "$T/out"; then ok "$2"; else notok "$2"; diag <"$T/out"; fi
}

# A guest log as the guest prints it, parsed by the script's own parser:
# a kselftest_harness program (a pass, a skip) and a plain program.
mkdir -p "$T/r"
cat >"$T/log" <<'EOL'
kit-selftests: landlock/base_test
KIT-ST-RESULTS
KIT-ST-BEGIN landlock/base_test
TAP version 13
1..2
#  RUN           global.inconsistent_attr ...
ok 1 global.inconsistent_attr
ok 2 global.cred_transfer # SKIP no keyrings
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0
KIT-ST-END landlock/base_test status=0
KIT-ST-BEGIN proc/read
KIT-ST-END proc/read status=0
KIT-ST-RESULTS-END
EOL
parse=$(sed -n '/^parse() {/,/^}/p' "$K/scripts/test/selftests.sh")
eval "$parse"
sed 's/$/\r/' "$T/log" >"$T/log.crlf"	# as the serial console writes it
parse "$T/log.crlf" >"$T/r/pristine-s.txt"
want='landlock/base_test/1_global.inconsistent_attr pass
landlock/base_test/2_global.cred_transfer skip
landlock/base_test/exit pass
proc/read/exit pass'
if [ "$(cat "$T/r/pristine-s.txt")" = "$want" ]; then
	ok "the parser reads a harness pass, a harness skip and exit statuses"
else
	notok "the parser read:"; diag <"$T/r/pristine-s.txt"
fi
cp "$T/r/pristine-s.txt" "$T/r/kit-s.txt"
t 0 "identical results pass"

sed 's/cred_transfer skip/cred_transfer fail/' "$T/r/pristine-s.txt" >"$T/r/kit-s.txt"
t 1 "a case that fails on the kit's kernel only is reported"
grep_out '^# \[s\] DIFF landlock/base_test/2_global.cred_transfer: pristine skip, kit fail' "... with its name and both outcomes"

grep -v 'proc/read' "$T/r/pristine-s.txt" >"$T/r/kit-s.txt"
t 1 "a case the kit's kernel never reported is reported"

sed 's/^proc\/read\/exit pass/proc\/read\/exit fail:1/' "$T/r/pristine-s.txt" >"$T/r/both.txt"
cp "$T/r/both.txt" "$T/r/pristine-s.txt"; cp "$T/r/both.txt" "$T/r/kit-s.txt"; rm "$T/r/both.txt"
t 1 "a failure on both kernels that tests/selftests/known does not explain is reported"
grep_out 'BOTHFAIL proc/read/exit' "... as unexplained"
printf '* proc/read/exit the reason\n' >"$T/known"
ST_KNOWN=$T/known t 0 "the same failure explained in the known file passes"
printf 's proc/read/exit the reason\n' >"$T/known"
ST_KNOWN=$T/known t 0 "... and explained for that stack only"
printf 'other proc/read/exit the reason\n' >"$T/known"
ST_KNOWN=$T/known t 1 "... but not by an explanation for another stack"
printf '* proc/self/exit an old reason\n* proc/read/exit the reason\n' >"$T/known"
ST_KNOWN=$T/known t 1 "an explanation of a failure that no longer happens is reported"
grep_out 'STALE proc/self/exit' "... as stale"

# The command line of each kernel: the kit's stack on the kit, the third
# column's on the pristine kernel (the kit's own stacks file: its
# "default" runs toylsm on the kit only), the second column's where the
# third is absent.
cl() {	# cl KERN STACK WANT DESCRIPTION
	got=$(ST_STACKS=${ST_STACKS:-$K/tests/selftests/stacks} "$K/scripts/test/selftests.sh" --cmdline "$1" "$2" 2>&1)
	if [ "$got" = "$3" ]; then ok "$4"; else notok "$4: got '$got'"; fi
}
printf 'a | lsm=x,toy\n# b | lsm=no\nb | lsm=x,toy | lsm=x\n' >"$T/stacks"
ST_STACKS=$T/stacks cl kit b "lsm=x,toy" "the kit boots a stack with its second column"
ST_STACKS=$T/stacks cl pristine b "lsm=x" "the pristine kernel with the third, when there is one"
ST_STACKS=$T/stacks cl pristine a "lsm=x,toy" "... else with the second"
kitdef=$(ST_STACKS=$K/tests/selftests/stacks "$K/scripts/test/selftests.sh" --cmdline kit default)
pridef=$(ST_STACKS=$K/tests/selftests/stacks "$K/scripts/test/selftests.sh" --cmdline pristine default)
if [[ "$kitdef" == *toylsm* ]] && [ "${kitdef//toylsm,/}" = "$pridef" ]; then
	ok "make selftests runs the kit's default stack with toylsm, the pristine kernel the same without it"
else
	notok "the default stack: kit '$kitdef', pristine '$pridef'"
fi

done_testing
