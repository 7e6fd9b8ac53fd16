# What the citation checkers (tests/host/citations.sh, mainline-cites.sh)
# share, sourced, never run (its name does not end in .sh: make test runs
# every tests/host/*.sh as a suite), after tests/host/tap.bash.
#
# cite_verdict DESC VERDICT DETAIL: the next test, a page's, from its
# check's answer: VERDICT ok gives "ok DESC (DETAIL)"; anything else "not
# ok DESC" with DETAIL's problems (each ending "; ") one per diagnostic line.
cite_verdict() {
	if [ "$2" = ok ]; then
		ok "$1 ($3)"
	else
		notok "$1"
		printf '%s\n' "$3" | sed -e 's/; /\n/g' | sed -e '/^$/d' | diag
	fi
}
