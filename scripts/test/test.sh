#!/usr/bin/env bash
# make test: build what is missing, run the host suites (tests/host/*.sh,
# TAP on stdout) and the guest boots of tests/boots.conf, and end with the
# plain line "N passed, N failed" (", N skipped" when any were skipped),
# after the reasons of the skips, grouped, each with its suites and tests.
# ONLY=name[,name] restricts the run to those suites or boots.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
# The flavour the boots run on: normal (make test) or debug (make
# test-debug), or another one given as FLAVOUR.
flavour_use "$FLAVOUR"

# One make test or make test-debug at a time in a clone: both write
# build/run/ and build/logs/ under the boots' names (lock 0 of the lock
# order, docs/hacking.md).  The lock is held by flock(1) around this
# script, which runs it with the lock's descriptor closed (-o): no program
# it starts inherits the lock, so a process a suite or a boot leaves
# behind (a room's server after a failed case) does not keep the next
# make test waiting for ever for a run that has ended.
lock=$BUILD/.test.lock
if [ "${KIT_TEST_LOCK:-}" != "$lock" ]; then
	flock -n "$lock" true || say "another make test or make test-debug is running in this clone; waiting for it"
	KIT_TEST_LOCK=$lock exec flock -o "$lock" bash "$0" "$@"
fi
unset KIT_TEST_LOCK

P=0 F=0 S=0 t0=$SECONDS
SKIPS=$(mktemp)
trap 'rm -f "$SKIPS"' EXIT
wanted() { [ -z "${ONLY:-}" ] || [[ ",$ONLY," == *",$1,"* ]]; }

# The kernel and the guest programs, unless every suite asked for is a host
# suite marked "# kit: offline" (ONLY=results runs in seconds on a fresh clone).
need_kernel=1
if [ -n "${ONLY:-}" ]; then
	need_kernel=0
	for n in ${ONLY//,/ }; do
		grep -qx '# kit: offline' "$KIT/tests/host/$n.sh" 2>/dev/null || need_kernel=1
	done
fi
# A boot that needs another kernel says so on its line of tests/boots.conf:
# kit.flavour=NAME (the BPF LSM's, TOMOYO's, LoadPin's and Lockdown's
# boots: kit.flavour=bpf). make test boots it on that kernel, which it
# builds first (or takes from the kernel cache); make test-debug boots it
# on the flavour that NAME's row of configs/flavours.conf names in its
# column test-debug, or skips it, saying so ("-": there is no debug
# variant of that kernel).  Another FLAVOUR boots the lines that ask for
# none, and skips the others.
boot_flavour() {	# boot_flavour APPEND: the NAME of kit.flavour=NAME, or nothing
	local w
	for w in $1; do
		[[ $w == kit.flavour=* ]] && { echo "${w#*=}"; return 0; }
	done
	return 0
}
boot_on() {	# boot_on NAME: the flavour a line asking for NAME boots on, or nothing (skipped)
	case $FLAVOUR in
	normal) echo "$1" ;;
	debug) flavour_get "$1" test-debug ;;
	*) [ "$1" != normal ] || echo "$FLAVOUR" ;;
	esac
}
if [ $need_kernel = 1 ]; then
	"$KIT/scripts/kernel/kernel.sh" --flavour "$FLAVOUR" || exit 1
	while IFS='|' read -r name append _; do
		[[ "$name" =~ ^[[:space:]]*(#|$) ]] && continue
		wanted "$(echo "$name" | xargs)" || continue
		fl=$(boot_flavour "$append")
		flavour_is "${fl:-normal}" ||
			die "tests/boots.conf: the boot $(echo "$name" | xargs) says kit.flavour=$fl, and configs/flavours.conf has no such flavour." \
			    "The flavours are: $(flavour_names | paste -sd' ')."
		boot_on "${fl:-normal}"
	done <"$KIT/tests/boots.conf" | sort -u | while read -r fl; do
		[ -z "$fl" ] || [ "$fl" = "$FLAVOUR" ] || "$KIT/scripts/kernel/kernel.sh" --flavour "$fl" || exit 1
	done || exit 1
	"$KIT/scripts/guest/build-guest.sh" || exit 1
fi
add() {	# add LABEL < parse output
	local out counts p f s
	out=$(cat)
	counts=$(printf '%s\n' "$out" | grep '^COUNTS' | tail -1)
	read -r _ p f s <<<"${counts:-COUNTS 0 1 0}"
	[ -n "$counts" ] || out+=$'\n'"FAIL $1: produced no results"
	printf '%s\n' "$out" | grep '^FAIL' | sed 's/^FAIL /  FAIL /'
	# Why tests were skipped, kept for the summary (by reason, at the end):
	# "REASON<tab>LABEL<tab>TEST", from "SKIP [boot] SECTION: TEST # SKIP
	# REASON" (a guest suite's, from run-boot.sh) or "SKIP SECTION: ..."
	# (a host suite's, whose one section is the suite: not repeated).
	printf '%s\n' "$out" | sed -n 's/^SKIP //p' | sed 's/^\[[^]]*\] //' | awk -v l="$1" '
		{ i = match($0, /# *[Ss][Kk][Ii][Pp]([^A-Za-z]|$)/); r = ""; t = $0
		  if (i) { r = substr($0, i + RLENGTH); t = substr($0, 1, i - 1) }
		  sub(/^[ :]+/, "", r); sub(/[ :]+$/, "", t)
		  n = l; sub(/^.*\//, "", n)
		  if (l ~ /^host\// && index(t, n ": ") == 1) t = substr(t, length(n) + 3)
		  print (r == "" ? "(no reason given)" : r) "\t" l "\t" t }' >>"$SKIPS"
	printf 'kit: %-28s %3d passed, %d failed%s\n' "$1" "$p" "$f" \
		"$([ "$s" -gt 0 ] && echo ", $s skipped")"
	P=$((P + p)) F=$((F + f)) S=$((S + s))
}

# The host suites do not depend on the flavour: they run with the normal one.
for t in "$KIT"/tests/host/*.sh; do
	n=$(basename "$t" .sh)
	[ "$FLAVOUR" = normal ] || continue
	wanted "$n" || continue
	log=$LOGS/host-$n.log
	{ echo "KIT-BEGIN $n"; bash "$t"; echo "KIT-END $n status=$?"; } >"$log" 2>&1
	add "host/$n" < <("$KIT/scripts/guest/results.py" count "$log")
done

# The boots, GUESTS at a time (lib.sh); their lines in the order of
# tests/boots.conf, each as soon as it and those before it have ended.
names=() outs=() next=0
flush() {	# print the finished boots at the head of the queue
	while [ $next -lt ${#names[@]} ] && [ -e "${outs[$next]}.done" ]; do
		add "guest/${names[$next]}" <"${outs[$next]}"
		next=$((next + 1))
	done
}
while IFS='|' read -r name append progs; do
	# Comments and blank lines first: xargs would choke on a quote in one.
	[[ "$name" =~ ^[[:space:]]*(#|$) ]] && continue
	name=$(echo "$name" | xargs)
	wanted "$name" || continue
	append=$(echo "$append" | xargs)
	out=$BUILD/run/results-$name
	mkdir -p "$BUILD/run"
	rm -f "$out" "$out.done"
	fl=$(boot_flavour "$append") append=${append//kit.flavour=$fl/}
	on=$(boot_on "${fl:-normal}")
	if [ -z "$on" ]; then
		printf 'SKIP [%s] boot # SKIP its line says kit.flavour=%s: make test boots it, FLAVOUR=%s has no variant of that kernel\nCOUNTS 0 0 1\n' \
			"$name" "$fl" "$FLAVOUR" >"$out"
		touch "$out.done"
		names+=("$name") outs+=("$out")
		flush
		continue
	fi
	slot
	# shellcheck disable=SC2086 # $progs: the boot's programs, a word each
	{ "$KIT/scripts/test/run-boot.sh" --flavour "$on" "$name" "$append" $progs >"$out"; touch "$out.done"; } </dev/null &
	names+=("$name") outs+=("$out")
	flush
done <"$KIT/tests/boots.conf"
while [ $next -lt ${#names[@]} ]; do
	wait -n || true
	flush
	# A boot whose job is gone without its .done (killed): a failure, not a hang.
	if [ -z "$(jobs -rp)" ] && [ $next -lt ${#names[@]} ] && [ ! -e "${outs[$next]}.done" ]; then
		echo "FAIL boot ${names[$next]}: its runner ended without a result" >>"${outs[$next]}"
		touch "${outs[$next]}.done"
	fi
done

# The skips, grouped by reason (most frequent first), each with where it
# was skipped: a suite or boot, and the tests.
if [ -s "$SKIPS" ]; then
	echo "kit: why $(grep -c . "$SKIPS") test(s) were skipped, by reason:"
	cut -f1 "$SKIPS" | LC_ALL=C sort | uniq -c | sort -k1,1nr -k2 | while read -r c r; do
		printf '  SKIP (%d) %s\n' "$c" "$r"
		# per suite or boot, in order: its tests, "(xN)" for a name met N times
		awk -F'\t' -v r="$r" '$1 == r {
			if (!($2 in m)) { o[++n] = $2; m[$2] = 0 }
			if (!(($2, $3) in c)) nm[$2, ++m[$2]] = $3
			c[$2, $3]++ }
			END { for (i = 1; i <= n; i++) { l = o[i]; s = ""
				for (j = 1; j <= m[l]; j++) { t = nm[l, j]
					s = s (j > 1 ? ", " : "") t (c[l, t] > 1 ? " (x" c[l, t] ")" : "") }
				printf "      %s: %s\n", l, s } }' "$SKIPS"
	done
fi
echo "kit: test time $((SECONDS - t0)) s; logs in $(rel "$LOGS")/"
if [ "$S" -gt 0 ]; then echo "$P passed, $F failed, $S skipped"; else echo "$P passed, $F failed"; fi
[ "$F" -eq 0 ] && [ "$P" -gt 0 ]
