#!/usr/bin/env bash
# The labs are graded honestly (TAP).  For every lab labs/NN-*/:
# - the skeleton can be generated for every STEP and every variant compiles;
# - the reference solution passes every step in every boot of lab.conf;
# - the untouched skeleton fails at least one step, with a hint printed;
# - the skeleton of STEP=k (k > 1) passes steps 1..k-1 and fails step k,
#   so the TODO markers of each step strip what that step needs, no more.
# All variants of a lab are graded in the same boots (scripts/lab/lab.sh check).
# Then lab.sh itself: bad input, a compile error, a reset that keeps a copy.
# CHECK_LABS=GLOB (e.g. '10') grades only those labs' numbers (lab.sh's own
# checks still run).
K=$(cd "$(dirname "$0")/../.." && pwd)
LAB=$K/scripts/lab/lab.sh
G=${CHECK_LABS:-[0-9][0-9]}
mapfile -t DIRS < <(find "$K/labs" -mindepth 1 -maxdepth 1 -type d -name "$G-*" | LC_ALL=C sort)
if [ ${#DIRS[@]} -eq 0 ]; then echo "1..0 # SKIP no labs"; exit 0; fi

# lab.conf is read by its one reader, load_conf (scripts/lab/conf.sh).
conf() { "$K/scripts/lab/conf.sh" "$1" "$2"; }
steps_of() {	# the highest n of the solution's "/* TODO n:" ("# TODO n:") markers
	local src
	src=$(conf "$1" SOURCE 2>/dev/null) || return 0
	grep -rhoE '(/\*|#) TODO [0-9]+:' "$1/solution/$src" | sed -E 's|.* ([0-9]+):|\1|' | sort -n | tail -1
}

T0=$(mktemp -d)
plan=0
for d in "${DIRS[@]}"; do S=$(steps_of "$d"); plan=$((plan + 2 + ${S:-0})); done
plan=$((plan + 9))
echo "1..$plan"
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
# a variant's result folder: absolute when BUILD lives outside the clone
vdir() { local d; d=$(field "$1" dir); case $d in /*) echo "$d" ;; *) echo "$K/$d" ;; esac; }
# From the variant's record (DIR/run.json, scripts/lib/runrecord.py), its
# steps as results.py renders them, "boot step PASS|FAIL hinted" a line:
steps_of_record() { "$K/scripts/guest/results.py" record steps "$1/run.json" 2>/dev/null; }
# has_hint DIR STEP: some boot shows step STEP failing with an explanation
# (an expected/seen/hint/kit line) under it.
has_hint() { steps_of_record "$1" | awk -F'\t' -v s="$2" '$2 == s && $3 == "FAIL" && $4 == 1 { f = 1 } END { exit !f }'; }
# step_result DIR STEP: PASS if the step passes in every boot, else FAIL.
step_result() {
	steps_of_record "$1" | awk -F'\t' -v s="$2" '$2 == s { n++; if ($3 != "PASS") bad = 1 }
		END { print (n && !bad) ? "PASS" : "FAIL" }'
}

# A lab on the reference kernel (lab.conf KERNEL=mainline: lab 11) is
# graded when that kernel is built (make mainline), and skipped, with the
# reason, when it is not: make test builds no second kernel (its cold
# build is 15-30 min; docs/performance.md).
no_reference() {
	[ "$(conf "$1" KERNEL)" = mainline ] || return 1
	[ ! -f "${BUILD:-$K/build}/mainline/bzImage" ] || [ ! -f "${BUILD:-$K/build}/mainline/usr/include/linux/lsm.h" ]
}
for d in "${DIRS[@]}"; do
	name=$(basename "$d")
	num=$((10#${name%%-*}))
	if ! src=$(conf "$d" SOURCE 2>"$T0/conf.err"); then
		notok "$name: lab.conf is read ($(grep -v '^$' "$T0/conf.err" | sed 's/^ *//' | paste -sd' '))"
		notok "$name: not graded"
		continue
	fi
	S=$(steps_of "$d")
	if no_reference "$d"; then
		for _ in $(seq 1 $((S + 2))); do
			skip "$name:" "runs on the reference kernel (lab.conf KERNEL=mainline), which is not built: make mainline (after make deps MAINLINE=1), 15-30 min cold"
		done
		continue
	fi
	gen=$K/build/labs/$(printf '%02d' "$num")/check-src
	mkdir -p "$gen"
	variants=("solution=$d/solution/$src") genok=1
	for k in $(seq 1 "$S"); do
		# a policy lab's SOURCE is a folder: its skeleton is one too
		out=$gen/skel-$k.c
		[ ! -d "$d/solution/$src" ] || out=$gen/skel-$k
		"$K/scripts/lab/lab-skel.sh" "$d/solution/$src" "$k" "$out" 2>"$gen/skel-$k.err" || genok=0
		variants+=("skel$k=$out")
	done
	out=$("$LAB" check "$num" "${variants[@]}" 2>"$gen/check.err")
	rc=$?
	if [ $rc -ne 0 ] && ! grep -q '^VARIANT' <<<"$out"; then
		notok "$name: lab.sh check ran (exit $rc)"
		tail -n 8 "$gen/check.err" | diag
		for k in $(seq 0 "$S"); do notok "$name: not graded"; done
		continue
	fi
	bad=$(grep '^VARIANT' <<<"$out" | grep -v 'compile=ok' | awk '{print $2}' | paste -sd' ')
	if [ $genok = 1 ] && [ -z "$bad" ]; then
		ok "$name: the skeleton of every STEP (1-$S) is generated and compiles"
	else
		notok "$name: the skeleton of every STEP (1-$S) is generated and compiles (failed: ${bad:-generation})"
		cat "$gen"/skel-*.err 2>/dev/null | diag 5
	fi

	v=$(grep '^VARIANT solution ' <<<"$out")
	vd=$(vdir "$v")
	if [ "$(field "$v" steps)" = "$S" ] && [ "$(field "$v" passed)" = "$S" ] &&
	   [ "$(field "$v" results_fail)" = 0 ] && [ "$(field "$v" trouble)" = no ]; then
		ok "$name: the reference solution passes all $S steps in $(field "$v" boots) boot(s)"
	else
		notok "$name: the reference solution passes all $S steps (got: ${v#VARIANT })"
		"$K/scripts/guest/results.py" record failure "$vd/run.json" 2>/dev/null |
			sed 's/^\([0-9]*\)\t\([0-9]*\)\t/# boot \1, step \2: /' | head -10
	fi

	for k in $(seq 1 "$S"); do
		v=$(grep "^VARIANT skel$k " <<<"$out")
		vd=$(vdir "$v")
		why=
		if [ "$(field "$v" compile)" != ok ]; then
			why="does not compile"
		elif [ "$(field "$v" trouble)" != no ]; then
			why="a boot went wrong"
		else
			for j in $(seq 1 $((k - 1))); do
				[ "$(step_result "$vd" "$j")" = PASS ] || why+="step $j (solved) fails; "
			done
			[ "$(step_result "$vd" "$k")" = FAIL ] || why+="step $k passes although its TODO is stripped; "
			has_hint "$vd" "$k" || why+="no hint under step $k's FAIL; "
		fi
		if [ "$k" = 1 ]; then desc="the untouched skeleton fails step 1, with a hint"
		else desc="the skeleton of STEP=$k passes steps 1-$((k - 1)) and fails step $k, with a hint"; fi
		if [ -z "$why" ]; then ok "$name: $desc"; else notok "$name: $desc (${why%; })"; fi
	done
done

# lab.sh itself, on a scratch copy of lab 1 numbered 91 (the attendees'
# copies and transcripts are not touched).
trap 'rm -rf "$T" "$T0" "$K/build/labs/91" "$K/build/labs/98"' EXIT
mkdir -p "$T/labs"
cp -r "$K/labs/common" "$T/labs/"
all=("$K"/labs/[0-9][0-9]-*/)
cp -r "${all[0]}" "$T/labs/91-scratch"
rm -rf "$T/labs/91-scratch/work"
L() { LABS_DIR=$T/labs "$LAB" "$@"; }

e=$(L run 92 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'there is no lab 92' <<<"$e"; then ok "lab.sh: a wrong lab number is an error that says so"
else notok "lab.sh: a wrong lab number is an error that says so (exit $rc: $e)"; fi

e=$(L run x 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q "'x' is not a lab number" <<<"$e"; then ok "lab.sh: a lab 'number' that is not a number is an error"
else notok "lab.sh: a lab 'number' that is not a number is an error (exit $rc: $e)"; fi

L skel 91 >/dev/null 2>&1
fs=("$T"/labs/91-scratch/work/*.c)
wf=${fs[0]}
echo '/* my precious work */' >>"$wf"
e=$(L skel 91 2>&1); rc=$?
fs=("$wf".bak-*)
bak=${fs[0]}
[ -e "$bak" ] || bak=
if [ $rc -eq 0 ] && [ -n "$bak" ] && grep -q 'my precious work' "$bak" && ! grep -q 'my precious work' "$wf" &&
   grep -q "kept as" <<<"$e"; then
	ok "lab.sh: resetting keeps the old copy as a backup and says where"
else
	notok "lab.sh: resetting keeps the old copy as a backup and says where (exit $rc: $e)"
fi

e=$(STEP=99 L skel 91 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'STEP=99 does not exist' <<<"$e"; then ok "lab.sh: a STEP beyond the last step is an error"
else notok "lab.sh: a STEP beyond the last step is an error (exit $rc: $e)"; fi

# The attendee's copy is refused before anything reads it when it is a
# symbolic link (to a file of someone else's, or /dev/zero) or too big.
cp "$wf" "$T/real.c" && rm "$wf" && ln -s "$T/real.c" "$wf"
e=$(L run 91 2>&1); rc=$?
rm "$wf" && cp "$T/real.c" "$wf"
if [ $rc -ne 0 ] && grep -q 'is a symbolic link' <<<"$e" && ! grep -qE 'compil|grading' <<<"$e"; then
	ok "lab.sh: a copy that is a symbolic link is refused before it is read"
else
	notok "lab.sh: a copy that is a symbolic link is refused before it is read (exit $rc)"
	tail -n 4 <<<"$e" | diag
fi
head -c 1100000 /dev/zero | tr '\0' ' ' >>"$wf"
e=$(L run 91 2>&1); rc=$?
cp "$T/real.c" "$wf"
if [ $rc -ne 0 ] && grep -q 'more than the 1024 KB' <<<"$e" && ! grep -qE 'compil|grading' <<<"$e"; then
	ok "lab.sh: a copy over 1 MB is refused before it is compiled"
else
	notok "lab.sh: a copy over 1 MB is refused before it is compiled (exit $rc)"
	tail -n 4 <<<"$e" | diag
fi

printf 'int lab_broken(void) { return missing_symbol; }\n' >"$wf"
e=$(L run 91 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'does not compile' <<<"$e" && grep -q "missing_symbol" <<<"$e" &&
   ! grep -q 'grading' <<<"$e"; then
	ok "lab.sh: a compile error shows the compiler's message and stops before booting"
else
	notok "lab.sh: a compile error shows the compiler's message and stops before booting (exit $rc)"
	tail -n 5 <<<"$e" | diag
fi

# A kernel-side lab (lab 8, copied as 98): an error in the attendee's
# kernel file is shown under the attendee's file name, and nothing boots.
kl=
for d in "${all[@]}"; do
	[ "$(conf "$d" KIND 2>/dev/null)" = kernel ] && { kl=${d%/}; break; }
done
if [ -z "$kl" ]; then
	skip "lab.sh: a kernel lab's compile error" "no kernel-side lab"
	skip "lab.sh: a kernel lab's oops" "no kernel-side lab"
	exit 0
fi
cp -r "$kl" "$T/labs/98-kscratch"
rm -rf "$T/labs/98-kscratch/work"
L skel 98 >/dev/null 2>&1
fs=("$T"/labs/98-kscratch/work/*.c)
kf=${fs[0]}
printf 'int lab_broken(void) { return missing_symbol; }\n' >>"$kf"
e=$(L run 98 2>&1); rc=$?
if [ $rc -ne 0 ] && grep -q 'does not compile' <<<"$e" &&
   grep -q "98-kscratch/work/$(basename "$kf"):[0-9]*:[0-9]*: error: .missing_symbol" <<<"$e" &&
   ! grep -q 'grading' <<<"$e"; then
	ok "lab.sh: a kernel lab's compile error names the attendee's file and stops before booting"
else
	notok "lab.sh: a kernel lab's compile error names the attendee's file and stops before booting (exit $rc)"
	tail -n 8 <<<"$e" | diag
fi

# The attendee's kernel code oopses (a NULL write in its hook, which the
# grader's first unlink() runs): a failed boot, said to be in their code.
fs=("$T"/labs/98-kscratch/solution/*.c)
sol=${fs[0]}
awk '{ print } /^\ttoylsm_unlink_audit\(&ad, dentry\);/ { print "\t*(volatile int *)0 = 1;" }' \
	"$sol" >"$kf"
e=$(L run 98 2>&1); rc=$?
# The lab kernel has no kallsyms: lab.sh names the addresses (RIP) itself.
if grep -q 'volatile int' "$kf" && [ $rc -ne 0 ] && grep -q 'the lab kernel hung, crashed' <<<"$e" &&
   grep -q 'RIP: [0-9]*:hook_inode_unlink+0x' <<<"$e" && ! grep -q 'PASSED' <<<"$e"; then
	ok "lab.sh: a kernel lab whose code oopses fails, names the function (hook_inode_unlink+0x...), and says the Oops is most likely in it"
else
	notok "lab.sh: a kernel lab whose code oopses fails, names the function (hook_inode_unlink+0x...), and says the Oops is most likely in it (exit $rc)"
	tail -n 8 <<<"$e" | diag
fi
