#!/usr/bin/env bash
# make bench HOOKWALK=1's arithmetic, offline (TAP): a stored log of four
# rounds (tests/data/bench-hookwalk.log: three kernels on [none] and
# [smack], the kit kernel's stacked boot, easy numbers) through its one
# parser, scripts/bench-hookwalk.awk, against
# tests/data/bench-hookwalk.expected (computed apart from the parser, and
# checked by hand: e.g. kit/pristine open+read+close [smack], per round
# 11/10, 12/10, 11/11, 9.9/9: lower median 1.10, spread 1.00-1.20; the
# kit's fork+exec [smack] - [none], per round 100, -100, -40, -120:
# -100 (-120 to 100)).  Then each check runs on a wrong parser, a copy
# with one sed applied (the mutant named with the check), where it must
# fail: a check that passes on its mutant cannot catch that mistake, and
# is reported as failing.  No QEMU, no network.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
D=$K/tests/data
P=scripts/bench-hookwalk.awk
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

n=0 nm=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); echo "not ok $n $*"; }

# table PARSER: the tables of the stored logs; fails (with a diff) unless
# they are the expected ones: the easy log, and a real run's
# (tests/data/bench-hookwalk-run.log, make bench HOOKWALK=1 ROUNDS=7 of
# 2026-12-05, its table in docs/performance.md; a separate computation
# in Python, not kept, gave the same tables).
table() {
	local got f
	for f in bench-hookwalk bench-hookwalk-run; do
		got=$(awk -f "$1" "$D/$f.log" 2>&1) || { echo "the parser failed on $f.log: $got"; return 1; }
		diff <(cat "$D/$f.expected") <(printf '%s\n' "$got") >"$T/diff" && continue
		echo "the tables differ from tests/data/$f.expected (< expected, > got):"
		head -12 "$T/diff"
		return 1
	done
}
# check DESC SED: the kit's parser must give the expected tables, and the
# parser with SED applied must not.  A SED that changes nothing is an error.
check() {
	local desc=$1 m=$T/mutant-$((nm += 1)).awk e
	if ! e=$(table "$K/$P"); then
		notok "$desc"
		sed 's/^/# /' <<<"$e" | head -14
		return
	fi
	sed -e "$2" "$K/$P" >"$m"
	if cmp -s "$K/$P" "$m"; then
		notok "$desc (the mutant's sed changes nothing in $P: $2)"
	elif table "$m" >/dev/null; then
		notok "$desc (it passes on a wrong $P too: $2)"
	else
		ok "$desc"
	fi
}

check "the median of the rounds: the lower middle of an even count" \
	's|a\[int((n + 1) / 2)\]|a[int(n / 2) + 1]|g'
check "the spread: min and max of the rounds, sorted" \
	's|a\[j\] > t|a[j] < t|'
check "a kernel/kernel ratio: the second kernel over the first" \
	's|s = s " " y / x|s = s " " x / y|'
check "a kernel/kernel ratio pairs the two boots of the same round" \
	's|x = v\[rounds\[r\], k1|x = v[rounds[1], k1|'
check "a kernel cell: the ratio to its own getppid, not the ns" \
	's|name = ops\[o\] "/getppid"|name = ops[o]|'
check "≈ when the spread of a kernel/kernel ratio includes 1 (its ends too)" \
	's|last_lo <= 1 \&\& last_hi >= 1|last_lo < 1 \&\& last_hi > 1|'
check "the load: the lowest and highest before a boot" \
	's|l < lmin|l > lmin|'
check "a module's own share: its boot minus [none], same kernel and round" \
	's|v\[rounds\[r\], k, b, name\] - v\[rounds\[r\], k, b0, name\]|v[rounds[r], k, b0, name] - v[rounds[r], k, b, name]|'
check "the stacked boot against [smack] on the same kernel" \
	's|cross(kk, base, kk, b, name)|cross(kk, b, kk, base, name)|'

# A log without any HOOKWALK block is refused, not a table of dashes.
if out=$(printf 'BENCH getppid 1 1 1\n' | awk -f "$K/$P" 2>&1); then
	notok "a log without HOOKWALK blocks is refused (got: $out)"
else
	ok "a log without HOOKWALK blocks is refused"
fi
echo "1..$n"
