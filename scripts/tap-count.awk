# Count TAP results in a guest console log or a host suite's output.
# Sections are delimited by "KIT-SUITE-BEGIN name" and
# "KIT-SUITE-END name status=N".  A section fails where a test says
# "not ok", where fewer results than its plan ("1..N") came out, where it
# exited non-zero without a failing test, or where it never ended.
# Prints one "FAIL ..." line per failure, then "COUNTS pass fail skip".
function finish(st) {
	if (plan > seen) {
		printf "FAIL %s: %d planned test(s) never reported\n", cur, plan - seen
		fail += plan - seen; sfail++
	}
	if (st != 0 && sfail == 0) {
		printf "FAIL %s: exited with status %d without a failing test\n", cur, st
		fail++
	}
	insec = 0
}
/^KIT-SUITE-BEGIN / {
	if (insec) { printf "FAIL %s: did not finish\n", cur; fail++ }
	cur = $2; plan = 0; seen = 0; sfail = 0; insec = 1; next
}
/^KIT-SUITE-END / {
	st = $3; sub(/status=/, "", st); finish(st + 0); next
}
!insec { next }
/^1\.\.[0-9]+/ { n = $0; sub(/^1\.\./, "", n); plan += n + 0; next }
/^ok [0-9]+/ {
	seen++
	if ($0 ~ /# [Ss][Kk][Ii][Pp]/) skip++; else pass++
	next
}
/^not ok [0-9]+/ {
	seen++; fail++; sfail++
	line = $0; sub(/^not ok [0-9]+ /, "", line)
	printf "FAIL %s: %s\n", cur, line
	next
}
END {
	if (insec) { printf "FAIL %s: did not finish (guest stopped in it)\n", cur; fail++ }
	printf "COUNTS %d %d %d\n", pass, fail, skip
}
