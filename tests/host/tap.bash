# The TAP lines of the host suites (tests/host/*.sh), sourced, never run
# (its name does not end in .sh: make test runs every tests/host/*.sh as
# a suite).  The suite prints its plan ("1..N") itself.
#
#	ok DESC, notok DESC	the next test passed, failed
#	skip DESC REASON	the next test skipped, with why
#	scenario DESC FUNCTION	FUNCTION (a subshell that says what went
#				wrong and exits non-zero) decides the case
#				DESC; what it said, as diagnostics
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
scenario() {
	local e
	if e=$("$2" 2>&1); then
		ok "$1"
	else
		notok "$1"
		sed 's/^/# /' <<<"$e" | head -12
	fi
}
