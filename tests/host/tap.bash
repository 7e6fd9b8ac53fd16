# The TAP lines of the host suites (tests/host/*.sh), sourced, never run
# (its name does not end in .sh: make test runs every tests/host/*.sh as
# a suite).  Every suite prints its results with these, and none other
# (tests/host/lint.sh checks it).  The suite prints its plan ("1..N")
# itself, first, or last with done_testing.
#
#	ok DESC, notok DESC	the next test passed, failed
#	skip DESC REASON	the next test skipped, with why
#	diag [N] <TEXT		TEXT as diagnostics ("# " before each line),
#				its first N lines (all without N)
#	pass_if STATUS DESC [FILE [N]]  ok DESC if STATUS is 0, else not ok
#				with FILE's last N lines (8) as diagnostics
#	scenario DESC FUNCTION	FUNCTION (a subshell that says what went
#				wrong and exits non-zero) decides the case
#				DESC; what it said, as diagnostics
#	sabotaged ...		the same, and it must fail on a broken copy (below)
#	done_testing		the plan, last: "1..(the tests so far)"
#
# Sourced first, it also sets what a suite needs unless the suite set it:
# K, the kit's top folder; D, the stored fixtures (tests/data); T, a
# scratch folder removed when the suite ends.
K=${K:-$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)}
D=${D:-$K/tests/data}
if [ -z "${T:-}" ]; then
	T=$(mktemp -d)
	trap 'rm -rf "$T"' EXIT
fi
TAP_N=0
ok() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N $*"; }
notok() { TAP_N=$((TAP_N + 1)); echo "not ok $TAP_N $*"; }
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N $1 # SKIP $2"; }
diag() { if [ -n "${1:-}" ]; then sed 's/^/# /' | head -n "$1"; else sed 's/^/# /'; fi; }
done_testing() { echo "1..$TAP_N"; }
pass_if() {
	if [ "$1" -eq 0 ]; then
		ok "$2"
	else
		notok "$2"
		[ -z "${3:-}" ] || tail -n "${4:-8}" "$3" | diag
	fi
}
scenario() {
	local e
	if e=$("$2" 2>&1); then
		ok "$1"
	else
		notok "$1"
		diag 12 <<<"$e"
	fi
}
# sabotaged DESC WHAT FUNCTION VAR SED [ERE]: FUNCTION (a subshell that
# says what went wrong and exits non-zero) must pass as it is, and fail
# when VAR=SED (a sed script it applies to its copy of a script: WHAT)
# is set, with a message matching ERE when one is given.
sabotaged() {
	local desc=$1 what=$2 fn=$3 var=$4 sed=$5 ere=${6:-} e be rc brc
	e=$("$fn" 2>&1); rc=$?
	# shellcheck disable=SC2030,SC2031 # the sabotage is for this call only
	be=$(export "$var=$sed"; "$fn" 2>&1); brc=$?
	if [ $rc -ne 0 ]; then
		notok "$desc"
		diag 8 <<<"$e"
	elif [ $brc -eq 0 ] || { [ -n "$ere" ] && ! grep -q -- "$ere" <<<"$be"; }; then
		notok "$desc ($what passes too: the case cannot fail)"
		diag 4 <<<"$be"
	else
		ok "$desc"
	fi
}

# The stored-fixture cases (the suites that need them set D, the fixtures
# folder, and T, a scratch folder).
# case DESC FIXTURE EXPECTED SED-SCRIPT CMD...: CMD with @ for the fixture;
# its stdout (and exit status, as a last line "rc=N") must equal EXPECTED
# on FIXTURE, and differ on FIXTURE broken by SED-SCRIPT.
case_() {
	local desc=$1 fix=$2 want=$3 brk=$4 out bout
	shift 4
	out=$(run "$D/$fix" "$@")
	sed -e "$brk" "$D/$fix" >"$T/broken-$fix"
	bout=$(run "$T/broken-$fix" "$@")
	if [ "$out" != "$(cat "$want")" ]; then
		notok "$desc"
		diff <(cat "$want") <(printf '%s\n' "$out") | diag 12
	elif [ "$bout" = "$out" ]; then
		notok "$desc (the broken fixture passes too: the case cannot fail)"
	else
		ok "$desc"
	fi
}
run() {	# run FIXTURE CMD...: CMD with @ replaced by FIXTURE; "rc=N" last
	local fix=$1 a args=()
	shift
	for a in "$@"; do args+=("${a//@/$fix}"); done
	"${args[@]}" 2>&1
	echo "rc=$?"
}
# The expectation files hold the output; "rc=N" is added here.
want() { { cat "$D/$1"; echo "rc=$2"; } >"$T/$1.want"; echo "$T/$1.want"; }
