#!/usr/bin/env bash
# The graders' hints are true for the mistake they are shown for, and the
# graders catch the mistakes learners made (TAP).
#
# Each labs/NN-*/mistakes/NAME.c or NAME.sed is one mistake a learner made:
#   NAME.c    a whole variant of the lab's file; a user-space lab's may
#             #include "../solution/FILE.c" with the one function it gets
#             wrong renamed away by a #define;
#   NAME.sed  a sed script applied to the reference solution (it must
#             change it; a kernel-side lab's file is copied into the tree,
#             so it cannot #include the solution); a policy lab's solution
#             is a folder: the script is applied to each of its files.
#             given-NAME.sed (a policy lab): applied to each file of the
#             lab's given/ as well (it must change it): a learner's edit
#             of what the lab gives.
# Its comment lines "expect: ..." say what the grader must do with it:
#   expect: step N passes          step N passes in every boot
#   expect: step N fails           step N fails in some boot
#   expect: step N hint: TEXT      step N fails, and under its FAIL in that
#                                  boot some line contains TEXT
#   expect: step N not: TEXT       no boot shows TEXT under step N's FAIL
#   expect: compile: TEXT          it does not compile, and the messages
#                                  make lab shows (compile.txt) contain TEXT
#   expect: HINT=2 step N ...      the same, graded as by make lab N HINT=2
#                                  (the variant TAG-hint2 of scripts/lab/lab.sh
#                                  check), where a hint gives the exact line
# All mistakes of a lab are graded in one set of boots (scripts/lab/lab.sh
# check), with the reference solution beside them for a user-space lab
# (it must pass every step: tests/host/labs.sh proves it for the kernel
# labs, where each variant is a kernel build and a boot of its own).
# HINT_LABS=GLOB (e.g. '0[1-7]') restricts the run to those labs' numbers.
K=$(cd "$(dirname "$0")/../.." && pwd)
LAB=$K/scripts/lab/lab.sh
G=${HINT_LABS:-[0-9][0-9]}	# HINT_LABS='0[1-7]': only those labs
# shellcheck disable=SC2086 # $G is a glob (HINT_LABS)
mapfile -t FIX < <(ls "$K"/labs/$G-*/mistakes/*.c "$K"/labs/$G-*/mistakes/*.sed 2>/dev/null)
if [ ${#FIX[@]} -eq 0 ]; then echo "1..0 # SKIP no mistakes/ fixtures"; exit 0; fi

expects() { sed -n 's/^[ #*]*expect: //p' "$1"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
vdir() { local d; d=$(field "$1" dir); case $d in /*) echo "$d" ;; *) echo "$K/$d" ;; esac; }
# lab.conf is read by its one reader, load_conf (scripts/lab/conf.sh).
conf() { "$K/scripts/lab/conf.sh" "$1" "$2"; }
is_kernel() { [ "$(conf "$1" KIND 2>/dev/null)" = kernel ]; }

# From the variant's record (DIR/run.json, scripts/lib/runrecord.py):
# failure DIR N: what the learner reads under step N's FAIL in each boot
# that fails it, its title and its diagnostics, "BOOT<TAB>N<TAB>LINE".
failure() { "$K/scripts/guest/results.py" record failure "$1/run.json" "$2" 2>/dev/null; }
passes() {	# passes DIR N: PASS in every boot
	"$K/scripts/guest/results.py" record steps "$1/run.json" 2>/dev/null |
		awk -F'\t' -v s="$2" '$2 == s { n++; if ($3 != "PASS") bad = 1 } END { exit !(n && !bad) }'
}
graded() { [ -n "$("$K/scripts/guest/results.py" record steps "$1/run.json" 2>/dev/null)" ]; }

plan=0
mapfile -t LABDIRS < <(printf '%s\n' "${FIX[@]}" | sed 's|/mistakes/.*||' | sort -u)
for d in "${LABDIRS[@]}"; do is_kernel "$d" || plan=$((plan + 1)); done
for f in "${FIX[@]}"; do plan=$((plan + 1 + $(expects "$f" | wc -l))); done
echo "1..$plan"
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

# A lab on the reference kernel (lab.conf KERNEL=mainline: lab 11) is
# graded when that kernel is built (make mainline), and skipped, with the
# reason, when it is not (tests/host/labs.sh does the same).
no_reference() {
	[ "$(conf "$1" KERNEL)" = mainline ] || return 1
	[ ! -f "${BUILD:-$K/build}/mainline/bzImage" ] || [ ! -f "${BUILD:-$K/build}/mainline/usr/include/linux/lsm.h" ]
}
for d in "${LABDIRS[@]}"; do
	name=$(basename "$d")
	num=$((10#${name%%-*}))
	if no_reference "$d"; then
		k=0
		is_kernel "$d" || k=1
		for f in "$d"/mistakes/*.c "$d"/mistakes/*.sed; do
			[ -f "$f" ] && k=$((k + 1 + $(expects "$f" | wc -l)))
		done
		for _ in $(seq 1 "$k"); do
			skip "$name:" "runs on the reference kernel (lab.conf KERNEL=mainline), which is not built: make mainline (after make deps MAINLINE=1), 15-30 min cold"
		done
		continue
	fi
	src=$(conf "$d" SOURCE) || exit 1
	gen=$K/build/labs/$(printf '%02d' "$num")/hint-src
	rm -rf "$gen"
	mkdir -p "$gen"
	variants=() tags=() bad=()
	is_kernel "$d" || variants+=("solution=$d/solution/$src")
	for f in "$d"/mistakes/*.c "$d"/mistakes/*.sed; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		tag=m-${b%.*}
		case "$f" in
		*.sed)	out=$gen/$tag.c
			if [ -d "$d/solution/$src" ]; then
				out=$gen/$tag
				cp -r "$d/solution/$src" "$out"
				find "$out" -type f -exec sed --sandbox -i -f "$f" {} + 2>"$gen/$tag.err"
				# given-NAME.sed: the lab's given/ edited too, as a
				# learner could; the variant's set takes OUT.given/
				# for given/ (scripts/lab/policy.sh).
				if [[ $b == given-* ]]; then
					cp -r "$d/given" "$out.given"
					find "$out.given" -type f -exec sed --sandbox -i -f "$f" {} + 2>>"$gen/$tag.err"
					diff -r -q "$out.given" "$d/given" >/dev/null && echo "given/ unchanged" >>"$gen/$tag.err"
				fi
			else
				sed --sandbox -f "$f" "$d/solution/$src" >"$out" 2>"$gen/$tag.err"
			fi
			# A given-*.sed must change given/ (above), the solution
			# may stay as it is; any other must change the solution.
			if [ -s "$gen/$tag.err" ] ||
				{ [[ $b != given-* ]] && diff -r -q "$out" "$d/solution/$src" >/dev/null; }; then
				bad+=("$tag"); continue
			fi
			variants+=("$tag=$out") ;;
		*)	out=$f; variants+=("$tag=$f") ;;
		esac
		tags+=("$tag")
		! expects "$f" | grep -q '^HINT=2 ' || variants+=("$tag-hint2=$out")
	done
	out=$("$LAB" check "$num" "${variants[@]}" 2>"$gen/check.err")
	if ! is_kernel "$d"; then
		v=$(grep '^VARIANT solution ' <<<"$out")
		if [ -n "$v" ] && [ "$(field "$v" steps)" = "$(field "$v" passed)" ] &&
		   [ "$(field "$v" trouble)" = no ] && [ "$(field "$v" results_fail)" = 0 ]; then
			ok "$name: beside its mistakes, the reference solution passes every step"
		else
			notok "$name: beside its mistakes, the reference solution passes every step (${v:-no result})"
			tail -5 "$gen/check.err" | diag
		fi
	fi
	for f in "$d"/mistakes/*.c "$d"/mistakes/*.sed; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		tag=m-${b%.*}
		v=$(grep "^VARIANT $tag " <<<"$out")
		if [[ " ${bad[*]} " == *" $tag "* ]]; then
			notok "$name/$b: the sed script changes the solution (it no longer matches it: update the fixture)"
			while read -r e; do notok "$name/$b: $e (not graded)"; done < <(expects "$f")
			continue
		fi
		if expects "$f" | grep -q '^compile: '; then
			if [ "$(field "$v" compile)" = fail ]; then
				ok "$name/$b: does not compile"
			else
				notok "$name/$b: does not compile (${v:-no result})"
			fi
		elif [ "$(field "$v" compile)" = ok ] && [ "$(field "$v" trouble)" = no ]; then
			ok "$name/$b: compiles and is graded in every boot"
		else
			notok "$name/$b: compiles and is graded in every boot (${v:-no result})"
			tail -5 "$gen/check.err" | diag
		fi
		vd1=$(vdir "$v") v2=$(grep "^VARIANT $tag-hint2 " <<<"$out")
		while read -r e0; do
			e=${e0#HINT=2 } vd=$vd1 why=
			[ "$e" = "$e0" ] || { vd=$(vdir "$v2"); [ -n "$v2" ] || why="not graded with HINT=2"; }
			if [[ $e == "compile: "* ]]; then
				if grep -qF -- "${e#compile: }" "$vd/compile.txt" 2>/dev/null; then
					ok "$name/$b: $e0"
				else
					notok "$name/$b: $e0 (not in ${vd#"$K"/}/compile.txt)"
					head -6 "$vd/compile.txt" 2>/dev/null | diag
				fi
				continue
			fi
			step=$(sed -E 's/^step ([0-9]+) .*/\1/' <<<"$e")
			graded "$vd" || why=${why:-"no boot graded it"}
			[ -n "$why" ] || case "$e" in
			"step $step passes")
				passes "$vd" "$step" || why="it fails" ;;
			"step $step fails")
				passes "$vd" "$step" && why="it passes" ;;
			"step $step hint: "*)
				t=${e#"step $step hint: "}
				failure "$vd" "$step" | cut -f3- | grep -qF -- "$t" ||
					why="no boot shows that under step $step's FAIL" ;;
			"step $step not: "*)
				t=${e#"step $step not: "}
				hit=$(failure "$vd" "$step" | grep -F -- "$t" | head -1 | cut -f1)
				[ -z "$hit" ] || why="boot $hit shows it" ;;
			*)	why="cannot read this expect line" ;;
			esac
			if [ -z "$why" ]; then
				ok "$name/$b: $e0"
			else
				notok "$name/$b: $e0 ($why)"
				failure "$vd" "$step" | head -16 | sed 's/^\([0-9]*\)\t[0-9]*\t/# boot \1: /'
			fi
		done < <(expects "$f")
	done
done
