#!/usr/bin/env bash
# The series changes nothing it should not: the kernel's own selftests
# (tests/selftests/programs), built statically from the pristine 6.1 tree
# and left as they are, run in the guest on the pristine 6.1 kernel
# (FLAVOUR=baseline of configs/flavours.conf: kit.config minus toylsm) and on the
# kit's kernel, with the same lsm= stacks (tests/selftests/stacks); the
# results must be the same case by case.  A case that fails on both kernels
# must be explained in tests/selftests/known (a reason outside the series),
# or it fails the run too; an explanation that no longer applies fails it.
#
#   selftests.sh [STACK...]          build what is missing, run, compare
#   selftests.sh --compare DIR       compare the results already in DIR
#   selftests.sh --parse LOG         one guest log's "case outcome" lines
#
# Output: TAP, one line per stack and kernel boot, and one per differing or
# unexplained case; build/selftests/report.md has the table.  Exit 1 when
# anything differs.  Results per kernel and stack:
# build/selftests/results/{pristine,kit}-STACK.txt, one "case outcome" a line.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
# The kernel's selftests are built with their own Makefiles, static
# against libcap and libcap-ng: on a host of another architecture than the
# guest's those are amd64's, which the kit does not fetch (CI runs make
# selftests, on x86_64; configs/arches.conf).
[ "${CROSS_COMPILE:-}" = "" ] ||
	die "make selftests runs on an x86_64 host only: its programs link amd64's static libcap and libcap-ng, which this $HOST_ARCH host's kit does not download." \
	    "Run it on an x86_64 machine (CI does); make test runs every guest suite here."
export LC_ALL=C	# sort and join agree on the order

SRC=$KIT/tests/selftests
OUTD=$BUILD/selftests
RES=$OUTD/results
PROGS=$SRC/programs
KNOWN=${ST_KNOWN:-$SRC/known}	# ST_KNOWN: another file (the host suite's tests)
STACKS=${ST_STACKS:-$SRC/stacks}	# ST_STACKS: likewise
mkdir -p "$RES"

# parse LOG: the guest's console log to "case outcome" lines, sorted.  A
# case is suite/program/N name for a TAP result line of the program
# (kselftest_harness and ksft_* both print "ok N name", "not ok N name",
# "ok N name # SKIP why"), plus suite/program/exit with the program's exit
# status: pass (0), skip (4, kselftest's KSFT_SKIP), or fail:N.  Lines
# before KIT-ST-RESULTS (the guest's live progress) do not count.
parse() {
	awk '
	{ sub(/\r$/, "") }	# the serial console ends lines with CR LF
	/^KIT-ST-RESULTS$/ { on = 1; next }
	/^KIT-ST-RESULTS-END$/ { on = 0; next }
	!on { next }
	/^KIT-ST-BEGIN / { prog = $2; next }
	/^KIT-ST-END / {
		st = $3; sub(/status=/, "", st)
		o = (st == 0) ? "pass" : (st == 4) ? "skip" : "fail:" st
		print prog "/exit " o; prog = ""; next
	}
	prog == "" { next }
	/^(not )?ok [0-9]+/ {
		line = $0; bad = (line ~ /^not /)
		sub(/^(not )?ok /, "", line)
		o = bad ? "fail" : "pass"
		if (line ~ /# *[Ss][Kk][Ii][Pp]/) o = "skip"
		sub(/ *# *([Ss][Kk][Ii][Pp]|TODO).*$/, "", line)
		gsub(/ /, "_", line)
		print prog "/" line " " o
	}' "$1" | sort
}
# A splat in the kernel log fails the boot in run-guest.sh (status 125),
# which fails the run: it needs no case of its own.

# compare DIR: the results in DIR/{pristine,kit}-STACK.txt, against the
# explanations of tests/selftests/known; TAP lines, then "COMPARED n bad".
compare() {
	local dir=$1 n=0 bad=0 stack f p k out
	for f in "$dir"/pristine-*.txt; do
		[ -f "$f" ] || continue
		stack=${f##*/pristine-}; stack=${stack%.txt}
		k=$dir/kit-$stack.txt
		n=$((n + 1))
		if [ ! -f "$k" ]; then
			echo "not ok $n $stack: no results from the kit's kernel"; bad=$((bad + 1)); continue
		fi
		# join on the case: "case pristine kit", "-" where one lacks it.
		out=$(join -a1 -a2 -e - -o 0,1.2,2.2 "$f" "$k" | awk -v stack="$stack" -v known="$KNOWN" '
			BEGIN {
				while ((getline l < known) > 0) {
					if (l ~ /^[ \t]*(#|$)/) continue
					split(l, a, /[ \t]+/)
					kn[a[1] " " a[2]] = 1; seen[a[1] " " a[2]] = 0
				}
			}
			function explained(c,   s) {
				for (s in kn) {
					split(s, b, " ")
					if ((b[1] == "*" || b[1] == stack) && b[2] == c) { seen[s] = 1; return 1 }
				}
				return 0
			}
			{
				total++
				if ($2 != $3) { printf "DIFF %s: pristine %s, kit %s\n", $1, $2, $3; d++; next }
				if ($2 ~ /^fail/) {
					if (explained($1)) { kf++; next }
					printf "BOTHFAIL %s: %s on both kernels, not explained in tests/selftests/known\n", $1, $2; u++
					next
				}
				if ($2 == "pass") p++; else s++
			}
			END {
				for (x in seen) {
					split(x, b, " ")
					if ((b[1] == "*" || b[1] == stack) && !seen[x]) {
						printf "STALE %s: tests/selftests/known explains a failure that no longer happens\n", b[2]; u++
					}
				}
				printf "SUMMARY %d %d %d %d %d %d\n", total, p, s, kf, d + 0, u + 0
			}')
		read -r _ total p s kf d u <<<"$(printf '%s\n' "$out" | grep '^SUMMARY')"
		if [ "$total" -eq 0 ]; then
			echo "not ok $n $stack: no results at all"; bad=$((bad + 1)); continue
		fi
		if [ "$d" -eq 0 ] && [ "$u" -eq 0 ]; then
			echo "ok $n $stack: $total cases identical on both kernels ($p pass, $s skip, $kf known failures)"
		else
			echo "not ok $n $stack: $d case(s) differ, $u unexplained; of $total"
			bad=$((bad + 1))
		fi
		printf '%s\n' "$out" | grep -v '^SUMMARY' | sed "s/^/# [$stack] /"
		printf '| %s | %d | %d | %d | %d | %d | %d |\n' "$stack" "$total" "$p" "$s" "$kf" "$d" "$u" >>"$dir/table.md"
	done
	[ "$n" -gt 0 ] || { echo "not ok 1 no results in $dir"; bad=1; n=1; }
	echo "COMPARED $n $bad"
}

# cmdline KERN STACK: the kernel command line KERN (pristine or kit) boots
# STACK with: column 2 of tests/selftests/stacks, or for the pristine
# kernel column 3 when there is one (the same stack without the series'
# own module).
cmdline() {
	local line kitline pristline
	line=$(awk -F'|' -v s="$2" '!/^[ \t]*#/ && NF > 1 { x = $1; gsub(/[ \t]/, "", x); if (x == s) { print; exit } }' "$STACKS")
	[ -n "$line" ] || die "no stack '$2' in tests/selftests/stacks." "Name one of its first column."
	IFS='|' read -r _ kitline pristline <<<"$line"
	kitline=$(echo "$kitline" | xargs) pristline=$(echo "${pristline:-}" | xargs)
	[ -n "$kitline" ] || die "stack '$2' of tests/selftests/stacks has no command line." "Give it one in the second column."
	if [ "$1" = pristine ] && [ -n "$pristline" ]; then echo "$pristline"; else echo "$kitline"; fi
}

# --cmdline KERN STACK: print it (tests/host/selftests-compare.sh).
if [ "${1:-}" = --cmdline ]; then
	cmdline "${2:-}" "${3:-}"
	exit
fi

# --parse LOG: the "case outcome" lines of one guest log (scripts/
# selftests-mainline.sh reads its guests with the same parser).
if [ "${1:-}" = --parse ]; then
	[ -f "${2:-}" ] || die "selftests.sh --parse LOG: no file '${2:-}'." "Give a guest's results log (build/logs/guest-*.out)."
	parse "$2"
	exit
fi

if [ "${1:-}" = --compare ]; then
	[ -d "${2:-}" ] || die "selftests.sh --compare DIR: no folder '${2:-}'." "Give the folder that holds pristine-STACK.txt and kit-STACK.txt."
	rm -f "$2/table.md"
	out=$(compare "$2")
	printf '%s\n' "$out" | grep -v '^COMPARED'
	read -r _ n bad <<<"$(printf '%s\n' "$out" | grep '^COMPARED')"
	[ "$bad" -eq 0 ]
	exit
fi

t0=$SECONDS
# Both kernels: the kit's (normal flavour) and the pristine one.
"$KIT/scripts/kernel/kernel.sh" --flavour normal >/dev/null || exit 1
t=$SECONDS
"$KIT/scripts/kernel/kernel.sh" --flavour baseline || exit 1
echo "# pristine kernel: $((SECONDS - t)) s (0-3 s when it is up to date)"
BTREE=$PRISTINE_TREE
HDRS=$BUILD/kbuild/baseline/usr/include

# The programs: each suite's own Makefile (lib.mk), from the pristine tree,
# static; prctl's Makefile builds in its source folder, so its three
# programs are compiled here with the same (make's default) rule.
build_tests() {
	local want suite prog d log=$LOGS/selftests-build.log
	want=$(printf '%s\n' "$(git -C "$BTREE" rev-parse HEAD)" | cat - "$PROGS" "$0" "$HDRS/linux/landlock.h" | sha256sum | cut -d' ' -f1)
	stamp_ok selftests-bin "$want" && [ -f "$OUTD/selftests.tar" ] && return 0
	say "selftests: building the pristine 6.1 selftests (static)"
	rm -rf "$OUTD/root" && mkdir -p "$OUTD/root"
	: >"$log"
	while read -r suite; do
		d=$OUTD/root/$suite; mkdir -p "$d"
		if [ "$suite" = prctl ]; then
			while read -r prog; do
				gcc -static -o "$d/$prog" "$BTREE/tools/testing/selftests/prctl/$prog.c" >>"$log" 2>&1 ||
					die "the selftest prctl/$prog does not build (log: $log)." "See the log's last lines."
			done < <(awk -v s=prctl '$1 == s { print $2 }' "$PROGS")
			continue
		fi
		make -C "$BTREE/tools/testing/selftests/$suite" OUTPUT="$d" \
			KHDR_INCLUDES="-isystem $HDRS" LDFLAGS=-static >>"$log" 2>&1 ||
			die "the selftests of $suite do not build (log: $log)." \
			    "The static libraries come from libcap-dev and libcap-ng-dev (make deps installs them)."
	done < <(awk '!/^#/ && NF { print $1 }' "$PROGS" | sort -u)
	while read -r suite prog; do
		case "$suite" in ''|'#'*) continue ;; esac
		[ -x "$OUTD/root/$suite/$prog" ] || die "selftest $suite/$prog was not built (log: $log)." "Check tests/selftests/programs."
		! readelf -l "$OUTD/root/$suite/$prog" | grep -q 'program interpreter' ||
			die "selftest $suite/$prog is not static." "The guest has no shared libraries; see $log."
	done <"$PROGS"
	cp "$PROGS" "$OUTD/root/programs"
	tar -C "$OUTD/root" -cf "$OUTD/selftests.tar.tmp" . && mv -f "$OUTD/selftests.tar.tmp" "$OUTD/selftests.tar"
	stamp_set selftests-bin "$want"
}
build_tests

stacks=("$@")
if [ ${#stacks[@]} -eq 0 ]; then
	mapfile -t stacks < <(awk -F'|' '!/^[ \t]*#/ && NF > 1 { gsub(/[ \t]/, "", $1); print $1 }' "$STACKS")
fi
echo "TAP version 13"
# one_boot KERN STACK APPEND: one guest, its results in $RES/KERN-STACK.txt
# and its verdict ("ok"/"not ok" without a number) in $RES/KERN-STACK.line.
one_boot() {
	local kern=$1 stack=$2 append=$3 fl=normal t=$SECONDS rc
	[ "$kern" = pristine ] && fl=baseline
	TEST=1 TIMEOUT=${ST_TIMEOUT:-1500} APPEND="$append" \
		"$KIT/scripts/guest/run-guest.sh" --flavour "$fl" --quiet --name "selftests-$kern-$stack" \
		--script "$SRC/guest.sh" --bin "$OUTD/selftests.tar" 2>"$OUTD/$kern-$stack.err"
	rc=$?
	# The results channel (ttyS1), not the console: run-guest.sh.
	parse "$LOGS/guest-selftests-$kern-$stack.out" >"$RES/$kern-$stack.txt"
	if [ $rc -ne 0 ]; then
		echo "not ok boot $kern [$stack]: the guest failed (status $rc): $(head -c 300 "$OUTD/$kern-$stack.err")"
	elif [ ! -s "$RES/$kern-$stack.txt" ]; then
		echo "not ok boot $kern [$stack]: no result in $(rel "$LOGS")/guest-selftests-$kern-$stack.out"
	else
		echo "ok boot $kern [$stack]: $(wc -l <"$RES/$kern-$stack.txt") results in $((SECONDS - t)) s"
	fi >"$RES/$kern-$stack.line"
}
# The boots, GUESTS at a time (lib.sh), reported in a fixed order.
order=()
for stack in "${stacks[@]}"; do
	for kern in pristine kit; do
		append=$(cmdline "$kern" "$stack") || exit 1
		rm -f "$RES/$kern-$stack.line"
		slot
		one_boot "$kern" "$stack" "$append" </dev/null &
		order+=("$kern-$stack")
	done
done
wait
n=0 fails=0
for b in "${order[@]}"; do
	n=$((n + 1))
	line=$(cat "$RES/$b.line" 2>/dev/null) || line="not ok boot ${b%%-*} [${b#*-}]: its runner ended without a verdict"
	case "$line" in not\ ok*) fails=$((fails + 1)) ;; esac
	case "$line" in not\ ok\ *) echo "not ok $n ${line#not ok }" ;; ok\ *) echo "ok $n ${line#ok }" ;; *) echo "$line" ;; esac
done
rm -f "$RES/table.md"
# Only the stacks of this run are compared.
cmpd=$OUTD/compare; rm -rf "$cmpd"; mkdir -p "$cmpd"
for stack in "${stacks[@]}"; do cp "$RES"/{pristine,kit}-"$stack".txt "$cmpd/" 2>/dev/null; done
out=$(compare "$cmpd")
printf '%s\n' "$out" | grep -v '^COMPARED' | awk -v n=$n '/^(not )?ok [0-9]+/ { sub(/ok [0-9]+/, "ok " ++n) } { print }'
read -r _ m bad <<<"$(printf '%s\n' "$out" | grep '^COMPARED')"
{
	echo "| stack | cases | pass | skip | known failures | differ | unexplained |"
	echo "|---|---|---|---|---|---|---|"
	cat "$cmpd/table.md" 2>/dev/null
} >"$OUTD/report.md"
echo "1..$((n + m))"
echo "# selftests: $((SECONDS - t0)) s in all; table in $(rel "$OUTD")/report.md"
[ "$fails" -eq 0 ] && [ "$bad" -eq 0 ]
