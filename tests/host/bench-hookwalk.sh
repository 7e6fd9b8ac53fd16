#!/usr/bin/env bash
# make bench HOOKWALK=1's arithmetic, offline (TAP): a stored log of four
# rounds (tests/data/bench-hookwalk.log: three kernels on [none] and
# [smack], the kit kernel's stacked boot, easy numbers) through its one
# parser, scripts/bench/bench-hookwalk.awk, against
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
P=scripts/bench/bench-hookwalk.awk
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ok, notok (and the count n)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
nm=0

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
		diag 14 <<<"$e"
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

# The runner, scripts/bench/bench-hookwalk.sh, in a scratch kit whose kernels
# and guests are stand-ins (kernel.sh says yes,
# bench-guest.sh records its call and writes fixed BENCH lines): every
# boot of tests/bench/hookwalk.conf once a round, the list's order in
# round 1 and backwards in round 2, each block headed by its round,
# kernel, boot and stack, and the table made from them.
runner() {	# runner KIT: the scratch kit's copy of KIT's scripts
	local s=$T/runner-$((nm += 1)) want got
	mkdir -p "$s/tests/bench" && cp -r "$1/scripts" "$s/" && cp "$K/tests/bench/hookwalk.conf" "$s/tests/bench/" || return 1
	printf '#!/bin/sh\nexit 0\n' >"$s/scripts/kernel/kernel.sh"
	cat >"$s/scripts/bench/bench-guest.sh" <<'GUEST'
#!/bin/sh
mkdir -p "$BENCH_OUT" && echo "$FLAVOUR $1" >>"$BUILD/order"
printf 'BENCH getppid 100 90 110\nBENCH open_read_close/getppid 10 9 11\nBENCH stat/getppid 4 3 5\nBENCH exec/getppid 900 800 1000\n' >"$BENCH_OUT/$1.txt"
GUEST
	chmod +x "$s/scripts/"*.sh
	BUILD=$s/build ROUNDS=2 "$s/scripts/bench/bench-hookwalk.sh" "$s/table.md" >"$s/out" 2>&1 ||
		{ echo "bench-hookwalk.sh failed:"; tail -5 "$s/out"; return 1; }
	want=$(sed -e 's/#.*//' "$K/tests/bench/hookwalk.conf" | awk -F'|' 'NF >= 4 {
		gsub(/ /, "", $1); n = split($4, k, " "); for (i = 1; i <= n; i++) print k[i], $1 }')
	want=$(printf '%s\n%s\n' "$want" "$(tac <<<"$want")")
	got=$(cat "$s/build/order")
	[ "$got" = "$want" ] || { echo "the boots' order, round 1 then round 2:"; diff <(echo "$want") <(echo "$got") | head -8; return 1; }
	grep -q '^HOOKWALK round=2 kernel=normal boot=stacked stack=default load=' "$s/build/bench/hookwalk/hookwalk.log" ||
		{ echo "no HOOKWALK line for round 2's stacked boot in the log"; return 1; }
	grep -q '^2 round(s) of 10 boot(s)' "$s/table.md" || { echo "the table does not say 2 rounds of 10 boots:"; head -5 "$s/table.md"; return 1; }
	grep -qF '| 1.00 (1.00-1.00) ≈ |' "$s/table.md" || { echo "no ratio of 1 in the table of equal boots"; return 1; }
}
if ! e=$(runner "$K" 2>&1); then
	notok "the runner: every boot once a round, ABBA, a block per boot"
	diag 12 <<<"$e"
else
	mkdir -p "$T/wrong/scripts"
	cp -r "$K/scripts/." "$T/wrong/scripts/"
	sed -i 's/if \[ \$((r % 2)) = 0 \]; then/if false; then/' "$T/wrong/scripts/bench/bench-hookwalk.sh"
	if cmp -s "$K/scripts/bench/bench-hookwalk.sh" "$T/wrong/scripts/bench/bench-hookwalk.sh"; then
		notok "the runner: every boot once a round, ABBA (the mutant's sed changes nothing)"
	elif runner "$T/wrong" >/dev/null 2>&1; then
		notok "the runner: every boot once a round, ABBA (it passes on a runner without the backward rounds too)"
	else
		ok "the runner: every boot once a round, ABBA, a block per boot"
	fi
fi

# A log without any HOOKWALK block is refused, not a table of dashes.
if out=$(printf 'BENCH getppid 1 1 1\n' | awk -f "$K/$P" 2>&1); then
	notok "a log without HOOKWALK blocks is refused (got: $out)"
else
	ok "a log without HOOKWALK blocks is refused"
fi
done_testing
