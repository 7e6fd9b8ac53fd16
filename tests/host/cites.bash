# What the citation checkers (tests/host/citations.sh, mainline-cites.sh)
# share, sourced, never run (its name does not end in .sh: make test runs
# every tests/host/*.sh as a suite).
#
# cite_verdict I DESC VERDICT DETAIL: test I of a page, from its check's
# answer: VERDICT ok gives "ok I DESC (DETAIL)"; anything else "not ok I
# DESC" with DETAIL's problems (each ending "; ") one per diagnostic line.
cite_verdict() {
	if [ "$3" = ok ]; then
		echo "ok $1 $2 ($4)"
	else
		echo "not ok $1 $2"
		printf '%s\n' "$4" | sed -e 's/; /\n/g' | sed -e '/^$/d' -e 's/^/# /'
	fi
}
