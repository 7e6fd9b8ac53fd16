#!/usr/bin/env bash
# Mainline's own LSM selftests on the reference kernel: tools/testing/
# selftests/lsm/ of Debian's 6.12 tree (lsm_get_self_attr_test,
# lsm_list_modules_test, lsm_set_self_attr_test), built statically on the
# host with their own Makefile against the reference kernel's UAPI headers,
# not edited, run in the guest of FLAVOUR=mainline (tests/selftests/
# guest.sh, as scripts/test/selftests.sh runs 6.1's) once per stack.  Every
# case must pass, or skip with a reason stated in tests/selftests/
# mainline-skips ("stack case reason"); a stated skip that no longer
# happens fails the run too.
#
#   selftests-mainline.sh [STACK...]   stacks of configs/stacks.conf that
#          mainline boots (default: smack apparmor selinux none)
#   selftests-mainline.sh --judge STACK RESULTS   judge stored results
# TAP; results per stack: build/selftests-mainline/STACK.txt ("case outcome").
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
export LC_ALL=C

OUTD=$BUILD/selftests-mainline
SKIPS=${ST_MAINLINE_SKIPS:-$KIT/tests/selftests/mainline-skips}
PROGS="lsm_get_self_attr_test lsm_list_modules_test lsm_set_self_attr_test"
mkdir -p "$OUTD"
t0=$SECONDS

# judge STACK RESULTS: the "case outcome" lines of one boot against
# tests/selftests/mainline-skips: a FAIL, SKIP (no reason) or STALE line
# for each problem, then "SUMMARY cases pass skip problems".
judge() {
	local stack=$1
	awk -v stack="$stack" -v skips="$SKIPS" '
		BEGIN {
			while ((getline l < skips) > 0) {
				if (l ~ /^[ \t]*(#|$)/) continue
				split(l, a, /[ \t]+/)
				if (a[1] == stack || a[1] == "*") { why[a[2]] = l; seen[a[2]] = 0 }
			}
		}
		{ total++ }
		$2 == "pass" { p++; next }
		$2 == "skip" && ($1 in why) { s++; seen[$1] = 1; next }
		$2 == "skip" { printf "SKIP %s: skipped, no reason in tests/selftests/mainline-skips\n", $1; u++; next }
		{ printf "FAIL %s: %s\n", $1, $2; u++ }
		END {
			for (c in seen) if (!seen[c]) { printf "STALE %s: mainline-skips gives a reason, the case did not skip\n", c; u++ }
			printf "SUMMARY %d %d %d %d\n", total, p, s, u
		}' "$2"
}

# --judge STACK RESULTS: judge stored results only (tests/host/
# selftests-mainline.sh shows the judge failing on the wrong thing).
if [ "${1:-}" = --judge ]; then
	[ -f "${3:-}" ] || die "selftests-mainline.sh --judge STACK RESULTS: no file '${3:-}'." "Give a results file (case outcome per line)."
	judge "$2" "$3"
	exit
fi

"$KIT/scripts/kernel/kernel.sh" --flavour mainline >/dev/null || exit 1
HDRS=$BUILD/mainline/usr/include
SRC=$MAINLINE_TREE/tools/testing/selftests/lsm

build_tests() {
	local want log=$LOGS/selftests-mainline-build.log p d=$OUTD/root/lsm
	want=$(cat "$SRC"/*.c "$SRC"/*.h "$SRC/Makefile" "$HDRS/linux/lsm.h" "$0" | sha256sum | cut -d' ' -f1)
	stamp_ok selftests-mainline-bin "$want" && [ -f "$OUTD/selftests.tar" ] && return 0
	say "selftests: building mainline 6.12's LSM selftests (static)"
	rm -rf "$OUTD/root" && mkdir -p "$d"
	make -C "$SRC" OUTPUT="$d" KHDR_INCLUDES="-isystem $HDRS" LDFLAGS=-static >"$log" 2>&1 ||
		die "mainline's LSM selftests do not build (log: $log)." "See the log's last lines."
	: >"$OUTD/root/programs"
	for p in $PROGS; do
		[ -x "$d/$p" ] || die "selftest lsm/$p was not built (log: $log)." "See the log."
		! readelf -l "$d/$p" | grep -q 'program interpreter' ||
			die "selftest lsm/$p is not static." "The guest has no shared libraries; see $log."
		echo "lsm $p" >>"$OUTD/root/programs"
	done
	tar -C "$OUTD/root" -cf "$OUTD/selftests.tar.tmp" . && mv -f "$OUTD/selftests.tar.tmp" "$OUTD/selftests.tar"
	stamp_set selftests-mainline-bin "$want"
}
build_tests

stacks=("$@")
[ ${#stacks[@]} -gt 0 ] || stacks=(smack apparmor selinux none)
echo "TAP version 13"
n=0 bad=0
for stack in "${stacks[@]}"; do
	grep -qE "^${stack}[[:space:]]*\|" "$KIT/configs/stacks.conf" ||
		die "no stack '$stack' in configs/stacks.conf." "Name one that mainline boots: smack, apparmor, selinux, none, no-attrs."
	t=$SECONDS
	TEST=1 TIMEOUT=${ST_TIMEOUT:-600} APPEND="$stack" \
		"$KIT/scripts/guest/run-guest.sh" --flavour mainline --quiet --name "selftests-mainline-$stack" \
		--script "$KIT/tests/selftests/guest.sh" --bin "$OUTD/selftests.tar" 2>"$OUTD/$stack.err"
	rc=$?
	"$KIT/scripts/test/selftests.sh" --parse "$LOGS/guest-selftests-mainline-$stack.out" >"$OUTD/$stack.txt"
	n=$((n + 1))
	if [ $rc -ne 0 ] || [ ! -s "$OUTD/$stack.txt" ]; then
		echo "not ok $n boot [$stack]: the guest failed (status $rc), $(wc -l <"$OUTD/$stack.txt") results: $(head -c 300 "$OUTD/$stack.err")"
		bad=$((bad + 1)); continue
	fi
	out=$(judge "$stack" "$OUTD/$stack.txt")
	read -r _ total p s u <<<"$(printf '%s\n' "$out" | grep '^SUMMARY')"
	if [ "$u" -eq 0 ] && [ "$total" -gt 0 ]; then
		echo "ok $n [$stack]: $total cases: $p pass, $s skip (reasons stated) in $((SECONDS - t)) s"
	else
		echo "not ok $n [$stack]: $u case(s) failed or skipped without a reason, of $total"
		bad=$((bad + 1))
	fi
	printf '%s\n' "$out" | grep -v '^SUMMARY' | sed "s/^/# [$stack] /"
done
echo "1..$n"
echo "# selftests-mainline: $((SECONDS - t0)) s in all"
[ "$bad" -eq 0 ]
