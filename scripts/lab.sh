#!/usr/bin/env bash
# The workshop's labs (labs/NN-slug/): list them, reset an attendee's copy,
# build, boot and grade it.
#
#   lab.sh list          the labs, with titles, times and your last result
#   lab.sh run N         build your copy (labs/NN-*/work/FILE), boot the
#                        guest once per BOOTS entry of lab.conf, grade, and
#                        print the verdict; exit 0 only if every step passes
#   lab.sh skel N        a fresh copy of the skeleton (yours is backed up)
#   lab.sh check N TAG=FILE...
#                        grade several sources in the same boots, for
#                        tests/host/labs.sh; prints one VARIANT line each
#
# Environment (the Makefile passes its command-line variables): SOLUTION=1
# grades the reference solution instead of your copy; STEP=k resets your
# copy to a skeleton with the steps before k solved (with run: then grades
# it); KIT_SHELL=1 boots a guest shell with the lab's program instead of
# grading (APPEND=... adds to its kernel command line); TIMEOUT=s per boot.
#
# Everything a run produces is in build/labs/NN/: the transcript of the last
# graded run (last-run.txt), its TAP (last-run.tap) and the binaries.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

LABS=${LABS_DIR:-$KIT/labs}	# LABS_DIR: for tests/host/labs.sh only
START=$(date +%s.%N)

rel() { printf '%s\n' "${1#"$KIT"/}"; }

lab_dirs() {
	local d
	for d in "$LABS"/[0-9][0-9]-*/; do
		[ -f "$d/lab.conf" ] && printf '%s\n' "${d%/}"
	done
}

lab_numbers() {
	lab_dirs | sed -E 's|.*/0*([0-9]+)-[^/]*$|\1|' | paste -sd, | sed 's/,/, /g'
}

# find_lab ARG...: sets LDIR, NUM (3), NN (03) or dies with the reason.
find_lab() {
	local arg=${1:-} d
	if [ $# -eq 0 ] || [ -z "$arg" ]; then
		die "which lab? Give its number, for example: make lab 1." \
		    "make labs lists the labs ($(lab_numbers)) with their titles."
	fi
	if [ $# -gt 1 ]; then
		die "one lab at a time: make lab N, not make lab $*." "make labs lists the labs."
	fi
	case "$arg" in
	*[!0-9]*) die "'$arg' is not a lab number." \
		      "Give the lab's number, for example make lab 1; make labs lists them ($(lab_numbers))." ;;
	esac
	NUM=$((10#$arg))
	NN=$(printf '%02d' "$NUM")
	d=$(ls -d "$LABS/$NN"-*/ 2>/dev/null | head -1)
	if [ -z "$d" ] || [ ! -f "$d/lab.conf" ]; then
		die "there is no lab $NUM." "The labs are $(lab_numbers); make labs lists them with their titles."
	fi
	LDIR=${d%/}
	OUT=$BUILD/labs/$NN
	mkdir -p "$OUT"
}

# load_conf: TITLE MINUTES SOURCE BOOTS NEEDS of $LDIR/lab.conf.
load_conf() {
	TITLE='' MINUTES='?' SOURCE='' BOOTS=("") NEEDS=() KIND=user KOBJS=''
	# shellcheck disable=SC1091
	. "$LDIR/lab.conf" || die "$(rel "$LDIR")/lab.conf has a syntax error (above)." "Fix it."
	[ -n "$SOURCE" ] && [ -f "$LDIR/solution/$SOURCE" ] ||
		die "$(rel "$LDIR")/lab.conf names SOURCE=$SOURCE, but $(rel "$LDIR")/solution/$SOURCE does not exist." \
		    "Each lab needs its reference solution in solution/."
	[ ${#BOOTS[@]} -gt 0 ] || BOOTS=("")
	BIN=${SOURCE%.c}
	SOL=$LDIR/solution/$SOURCE
	WORKF=$LDIR/work/$SOURCE
	# A kernel-side lab's SOURCE goes into the lab kernel; its guests boot
	# that kernel (build/lab/bzImage).
	if [ "$KIND" = kernel ]; then export FLAVOUR=lab; fi
}

# One kernel-side run at a time per build folder: the lab kernel holds one
# lab's file, so a second run must not rebuild it before the first booted.
lock_lab_kernel() {
	[ "$KIND" = kernel ] || return 0
	exec 7>"$BUILD/.lab-kernel-run.lock"
	flock -n 7 || { say "another kernel-side lab run is using the lab kernel; waiting for it"; flock 7; }
	[ -f "$BUILD/lab/bzImage" ] ||
		say "first kernel-side lab: building the lab kernel (once; from a copy of the kit's kernel, under a minute when that one is built)"
}

# skeleton STEP OUTFILE: the skeleton with the steps before STEP solved.
skeleton() {
	local step=$1 out=$2
	{
		printf '/*\n'
		printf ' * Your copy of lab %d, made by "make skel %d%s" on %s\n' \
			"$NUM" "$NUM" "$([ "$step" -gt 1 ] && echo " STEP=$step")" "$(date '+%F %T')"
		printf ' * from %s' "$(rel "$SOL")"
		[ "$step" -gt 1 ] && printf ', with %s' "$(solved $((step - 1)))"
		printf '.\n * Edit it, then run: make lab %d.  Resetting keeps a backup of it.\n */\n' "$NUM"
		"$KIT/scripts/lab-skel.sh" "$SOL" "$step"
	} >"$out.tmp" || { rm -f "$out.tmp"; die "could not make the skeleton of lab $NUM (above)." \
		"The TODO/END TODO markers of $(rel "$SOL") are wrong; this is the kit's bug."; }
	mv "$out.tmp" "$out"
}

# solved K: "step 1 solved" or "steps 1-K solved".
solved() { if [ "$1" -eq 1 ]; then echo "step 1 solved"; else echo "steps 1-$1 solved"; fi; }

# The number of steps: the highest n of the solution's "/* TODO n:" markers.
count_steps() {
	grep -oE '/\* TODO [0-9]+:' "$SOL" | sed -E 's|.* ([0-9]+):|\1|' | sort -n | tail -1
}

# reset_work STEP: a fresh working copy; an existing one is kept as a
# backup beside it (never overwritten: a second reset in the same second
# gets another name).
reset_work() {
	local step=${1:-1} bak last n
	n=$(count_steps)
	case "$step" in ''|*[!0-9]*|0) die "STEP must be a step number (1 to $n), not '$step'." \
		"make skel $NUM STEP=3 gives you a copy with steps 1 and 2 solved." ;; esac
	[ "$step" -le "$n" ] || die "lab $NUM has $n steps, so STEP=$step does not exist." \
		"STEP=k gives a copy with the steps before k solved: STEP=$n leaves only the last step to you; SOLUTION=1 grades the complete solution."
	mkdir -p "$LDIR/work"
	if [ -f "$WORKF" ]; then
		last=$(ls -1v "$WORKF".bak-* 2>/dev/null | tail -1)
		if [ -n "$last" ] && cmp -s "$WORKF" "$last"; then
			say "your previous copy was already saved as $(rel "$last")"
		else
			bak=$WORKF.bak-$(date +%Y%m%d-%H%M%S)
			local k=1 b=$bak
			while [ -e "$b" ]; do k=$((k + 1)); b=$bak-$k; done
			cp -p "$WORKF" "$b"
			say "your previous copy is kept as $(rel "$b")"
		fi
	fi
	skeleton "$step" "$WORKF"
	if [ "$step" -gt 1 ]; then
		say "new copy: $(rel "$WORKF"), $(solved $((step - 1))), step $step is yours"
	else
		say "new copy: $(rel "$WORKF"), the untouched skeleton"
	fi
}

# The kernel: built by the first run, rebuilt when its inputs changed.
# kernel.sh itself is a no-op when nothing changed, but takes ~6 s to say
# so; a warm run checks the inputs' times against its last success instead.
ensure_kernel() {
	local fd stamp=$STAMPS/lab-kernel
	# A kernel-side lab's kernel is built with each variant (build_variant).
	[ "$KIND" = kernel ] && return 0
	fd=$(flavour_dir)
	if [ -f "$fd/bzImage" ] && [ -f "$fd/usr/include/linux/types.h" ] && [ -f "$stamp" ] &&
	   [ ! "$fd/bzImage" -nt "$stamp" ] &&
	   [ -z "$(find "$KIT/patches" "$KIT/configs" "$KIT/demo-lsm" -newer "$stamp" -print -quit 2>/dev/null)" ]; then
		return 0
	fi
	[ -f "$fd/bzImage" ] || say "first run: building the kit's kernel (several minutes, once; offline afterwards)"
	"$KIT/scripts/kernel.sh" || die "the kernel could not be built (above), so lab $NUM cannot run." \
		"Fix what the message above says, or ask the instructor; then run make lab $NUM again."
	touch "$stamp"
}

# The lab's needs in the UAPI headers (NEEDS: "header|text|what brings it").
check_needs() {
	local n h t why inc
	inc=$(flavour_dir)/usr/include
	for n in "${NEEDS[@]}"; do
		IFS='|' read -r h t why <<<"$n"
		grep -q -- "$t" "$inc/$h" 2>/dev/null ||
			die "lab $NUM needs '$t' in <$h>, and this kernel's headers ($(rel "$inc")) do not have it." \
			    "It comes with $why. Check that patches/series lists it, then run make kernel and make lab $NUM again."
	done
}

CFLAGS_LAB=(-Wno-unused-parameter)

# The grader's object, rebuilt when it or a header it uses changed.
build_grader() {
	local o=$OUT/grade.o inc
	inc=$(flavour_dir)/usr/include
	if [ -f "$o" ] && [ -z "$(find "$LDIR/grade.c" "$LDIR/lab.h" "$LABS/common" "$KIT/tests/guest" \
		"$inc/linux/lsm.h" "$inc/asm/unistd_64.h" -newer "$o" -print -quit 2>/dev/null)" ]; then
		return 0
	fi
	"$KIT/scripts/guest-cc.sh" -c -o "$o.$$.tmp" -I "$LDIR" -I "$LABS/common" \
		"$LDIR/grade.c" 2>"$OUT/grade-cc.$$.txt" || {
		cat "$OUT/grade-cc.$$.txt" >&2
		rm -f "$o.$$.tmp" "$OUT/grade-cc.$$.txt"
		die "the grader of lab $NUM does not compile (above)." "That is the kit's bug, not yours: tell the instructor."
	}
	rm -f "$OUT/grade-cc.$$.txt"
	mv "$o.$$.tmp" "$o"
}

# build_variant TAG SRC: $OUT/TAG/$BIN-TAG, or 1 with the compiler's
# messages in $OUT/TAG/compile.txt.  For a kernel-side lab, SRC is built
# into the lab kernel (scripts/lab-kernel.sh; exits if that fails for a
# reason that is not SRC's) and $BIN-TAG is the grader alone.
build_variant() {
	local tag=$1 src=$2 d=$OUT/$1 rc
	mkdir -p "$d"
	rm -f "$d/$BIN-$tag" "$d/src.o"
	cp "$src" "$d/$BIN-$tag.c"
	if [ "$KIND" = kernel ]; then
		rc=0
		"$KIT/scripts/lab-kernel.sh" "$NUM" "$src" 2>"$d/compile.txt" || rc=$?
		case $rc in
		0) check_needs; build_grader ;;
		2) return 1 ;;
		*) cat "$d/compile.txt" >&2
		   die "the lab kernel could not be built (above), and that is not your file's fault." \
		       "Fix what the message says, or ask the instructor; then run make lab $NUM again." ;;
		esac
		"$KIT/scripts/guest-cc.sh" -o "$d/$BIN-$tag" "$OUT/grade.o" \
			>>"$d/compile.txt" 2>&1 || return 1
		return 0
	fi
	"$KIT/scripts/guest-cc.sh" -c "${CFLAGS_LAB[@]}" -I "$LDIR" -I "$LABS/common" \
		-o "$d/src.o" "$src" >"$d/compile.txt" 2>&1 || return 1
	"$KIT/scripts/guest-cc.sh" -o "$d/$BIN-$tag" "$d/src.o" "$OUT/grade.o" \
		>>"$d/compile.txt" 2>&1 || return 1
}

# boot_all TAG=FILE...: run every built variant's grader in every boot (in
# parallel).  Each boot's results channel (build/logs/guest-lab-NN-MODE-bI.out)
# has one KIT-BEGIN/KIT-END section of TAP per variant; $OUT/boot-MODE-I.rc
# is the runner's status (124-127: the boot went wrong).  $MODE names the
# guests (run or check).
boot_all() {
	local v tag src script=$OUT/guest-$MODE.sh i pids=() bins=() a
	{
		echo '#!/bin/sh'
		echo '# generated by scripts/lab.sh: run each variant'"'"'s grader'
		for v in "$@"; do
			tag=${v%%=*} src=${v#*=}
			[ -x "$OUT/$tag/$BIN-$tag" ] || continue
			printf 'echo "KIT-BEGIN %s"\n' "$tag"
			printf '/kit/bin/%s --grade --file %q --src /kit/bin/%s\n' \
				"$BIN-$tag" "$(rel "$src")" "$BIN-$tag.c"
			printf 'echo "KIT-END %s status=$?"\n' "$tag"
			bins+=(--bin "$OUT/$tag/$BIN-$tag" --bin "$OUT/$tag/$BIN-$tag.c")
		done
		echo 'exit 0'
	} >"$script"
	chmod +x "$script"
	for i in "${!BOOTS[@]}"; do
		a=${BOOTS[$i]}
		APPEND="$a" TIMEOUT=${TIMEOUT:-90} "$KIT/scripts/run-guest.sh" --quiet \
			--name "lab-$NN-$MODE-b$((i + 1))" --script "$script" "${bins[@]}" \
			>"$OUT/boot-$MODE-$((i + 1)).err" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}"
		echo $? >"$OUT/boot-$MODE-$((i + 1)).rc"
	done
}

# boot_label I: how boot I is described.
boot_label() {
	local a
	a=$(stack_cmdline "${BOOTS[$1]}")
	if [ -z "$a" ]; then echo "default LSMs"; else echo "$a"; fi
}

# evaluate TAG: scripts/results.py grades the variant from every boot's
# channel: $OUT/TAG/result.tap, boot-I.txt (the learner's view), boot-I.rc,
# steps.tsv; sets STEPS, PASSED (steps that pass in every boot),
# FAILED_STEPS, RESULTS_P/F and BOOT_TROUBLE (boots that did not grade).
evaluate() {
	local tag=$1 i specs=() rc
	for i in "${!BOOTS[@]}"; do
		rc=$(cat "$OUT/boot-$MODE-$((i + 1)).rc" 2>/dev/null || echo 126)
		specs+=("$rc:$LOGS/guest-lab-$NN-$MODE-b$((i + 1)).out:$(boot_label "$i")")
	done
	eval "$("$KIT/scripts/results.py" lab "$OUT/$tag" "$tag" "${TIMEOUT:-90}" "${specs[@]}")"
}

# The verdict lines of a boot's text, hints included, without the banner
# (which names the boot's LSMs).
verdicts() { grep -v -E '^(KIT-|lab [0-9]+: )' "$1"; }

elapsed() { printf '%.1f' "$(echo "$(date +%s.%N) - $START" | bc)"; }

# show_compile_error TAG SRC: the compiler's messages and one paragraph.
show_compile_error() {
	local d=$OUT/$1 src=$2 first
	sed "s|$KIT/||g" "$d/compile.txt" >&2
	first=$(grep -m1 -E ': (fatal )?error: ' "$d/compile.txt" | sed "s|$KIT/||g")
	die "$(rel "$src") does not compile, so lab $NUM was not graded." \
	    "The first error is the one to fix (later ones often follow from it): ${first:-see the messages above}. Warnings count as errors here (-Werror). Then run make lab $NUM again."
}

cmd_list() {
	local d total=0 last res
	echo "The labs (make lab N to grade yours; SOLUTION=1, SHELL=1, STEP=k; make skel N STEP=k):"
	echo
	for d in $(lab_dirs); do
		LDIR=$d NUM=$(basename "$d" | sed -E 's/^0*([0-9]+)-.*/\1/') NN=$(basename "$d" | cut -c1-2)
		load_conf
		last=$BUILD/labs/$NN/last-run.txt res=
		if [ -f "$last" ]; then
			res=$(sed -n 's/^verdict: //p' "$last" | tail -1)
			grep -q '^graded: the reference' "$last" && res+=" (reference solution)"
		fi
		printf '  %2d  %-44s %3s min  %s\n' "$NUM" "$TITLE" "$MINUTES" "${res:+last run: $res}"
		[[ "$MINUTES" =~ ^[0-9]+$ ]] && total=$((total + MINUTES))
	done
	echo
	echo "  $total min in all. Each lab's README.md: labs/NN-*/README.md; for instructors: labs/README.md."
}

cmd_skel() {
	find_lab "$@"
	load_conf
	reset_work "${STEP:-1}"
	say "edit it, then run: make lab $NUM"
}

cmd_shell() {
	local d=$OUT/shell
	if [ "$KIND" = kernel ]; then
		build_variant shell "$1" || show_compile_error shell "$1"
		say "in the guest: '$BIN-shell' shows what the lab's code did, '$BIN-shell --grade' grades it"
		exec "$KIT/scripts/run-guest.sh" --shell --bin "$d/$BIN-shell"
	fi
	build_grader
	mkdir -p "$d"
	"$KIT/scripts/guest-cc.sh" -c "${CFLAGS_LAB[@]}" -I "$LDIR" -I "$LABS/common" \
		-o "$d/src.o" "$1" >"$d/compile.txt" 2>&1 &&
	"$KIT/scripts/guest-cc.sh" -o "$d/$BIN" "$d/src.o" "$OUT/grade.o" >>"$d/compile.txt" 2>&1 ||
		show_compile_error shell "$1"
	say "in the guest: '$BIN' shows what your functions return, '$BIN --grade' grades them"
	exec "$KIT/scripts/run-guest.sh" --shell --bin "$d/$BIN"
}

cmd_run() {
	local src tag T i rc v t
	find_lab "$@"
	load_conf
	if [ -n "${STEP:-}" ]; then
		reset_work "$STEP"
	elif [ ! -f "$WORKF" ] && [ "${SOLUTION:-0}" != 1 ]; then
		say "first run of lab $NUM: making your copy from the skeleton"
		reset_work 1
	fi
	if [ "${SOLUTION:-0}" = 1 ]; then src=$SOL tag=solution; else src=$WORKF tag=work; fi
	lock_lab_kernel
	ensure_kernel
	[ "$KIND" = kernel ] || check_needs
	if [ "${KIT_SHELL:-}" = 1 ]; then cmd_shell "$src"; fi

	exec 8>"$OUT/.lock"
	flock -n 8 || { say "another run of lab $NUM is going on; waiting for it"; flock 8; }
	[ "$KIND" = kernel ] || build_grader
	T=$OUT/last-run.txt
	{
		echo "lab $NUM ($TITLE), graded $(date '+%F %T')"
		echo "source: $(rel "$src") (sha256 $(sha256sum <"$src" | cut -c1-16))"
		echo "graded: $([ "$tag" = solution ] && echo "the reference solution" || echo "your copy")"
		echo "console logs: $(rel "$LOGS")/guest-lab-$NN-run-b*.log"
	} >"$T"
	rm -rf "${OUT:?}/$tag"
	[ "$KIND" = kernel ] &&
		say "building the lab kernel with $(rel "$src") (after an edit: about a minute)"
	if ! build_variant "$tag" "$src"; then
		{ echo "compile: FAILED"; cat "$OUT/$tag/compile.txt"; echo "verdict: does not compile"; } >>"$T"
		show_compile_error "$tag" "$src"
	fi
	echo "kernel: $(rel "$(flavour_dir)")/bzImage of $(date -r "$(flavour_dir)/bzImage" '+%F %T')" >>"$T"
	say "grading $(rel "$src") in ${#BOOTS[@]} boot(s)"
	MODE=run; boot_all "$tag=$src"
	evaluate "$tag"
	cp "$OUT/$tag/result.tap" "$OUT/last-run.tap"
	for i in "${!BOOTS[@]}"; do
		t=$OUT/$tag/boot-$((i + 1)).txt
		rc=$(cat "$OUT/$tag/boot-$((i + 1)).rc" 2>/dev/null || echo 126)
		echo
		echo "== boot $((i + 1)) of ${#BOOTS[@]}: $(boot_label "$i") =="
		{ echo; echo "== boot $((i + 1)) of ${#BOOTS[@]}: $(boot_label "$i") =="; cat "$t"; } >>"$T"
		# On the terminal, a later boot with the same verdicts as the
		# first is one line; the transcript has everything.
		if [ "$i" -gt 0 ] && [ "$rc" -lt 124 ] && [ -s "$t" ] &&
		   cmp -s <(verdicts "$OUT/$tag/boot-1.txt") <(verdicts "$t"); then
			grep -E '^lab [0-9]+: ' "$t" | head -1
			echo "(the same results as boot 1)"
		else
			cat "$t"
		fi
		if [ "$rc" -ge 124 ]; then
			echo "-- the runner's report --"
			cat "$OUT/boot-run-$((i + 1)).err"
			# The lab kernel has no kallsyms: name the Oops's
			# addresses from its vmlinux here.
			if [ "$KIND" = kernel ] && [ "$rc" = 125 ] && [ -f "$(flavour_dir)/vmlinux" ]; then
				echo "-- the kernel's report, addresses named from $(rel "$(flavour_dir)")/vmlinux --"
				"$KIT/scripts/results.py" oops "$LOGS/guest-lab-$NN-run-b$((i + 1)).log" \
					"$(flavour_dir)/vmlinux" | sed 's/^\[ *[0-9.]*\] //'
			fi
		fi | tee -a "$T"
	done
	echo
	v="$PASSED/$STEPS steps"
	if [ -n "$BOOT_TROUBLE" ]; then
		echo "verdict: FAIL, a boot went wrong ($v)" >>"$T"
		printf '%s' "$BOOT_TROUBLE" | sed 's/; $//; s/^/  /' >&2
		[ "$KIND" = kernel ] && die "lab $NUM could not be graded completely: the lab kernel hung, crashed or stopped early (above; $(elapsed) s)." \
		    "Your code runs in that kernel, so an Oops or panic there is most likely in it: the console log named above shows the Oops and its Call Trace, with the function's name. Transcript: $(rel "$T")."
		die "lab $NUM could not be graded completely: a guest hung, crashed or stopped early (above; $(elapsed) s)." \
		    "A hang or panic in a user-space lab is rarely your code's fault: run make lab $NUM again; if it persists, look at the console log named above and ask the instructor. Transcript: $(rel "$T")."
	fi
	if [ "$STEPS" -eq 0 ]; then
		echo "verdict: FAIL, no step graded" >>"$T"
		die "the grader of lab $NUM printed no verdicts ($(elapsed) s): the program stopped before its first step." \
		    "Code that runs before main() or kills its own process can do that; the transcript $(rel "$T") and the console logs $(rel "$LOGS")/guest-lab-$NN-run-b*.log show what it printed."
	fi
	if [ "$PASSED" -eq "$STEPS" ] && [ "$RESULTS_F" -eq 0 ]; then
		echo "verdict: PASS $v" >>"$T"
		say "lab $NUM PASSED: all $STEPS steps, in ${#BOOTS[@]} boot(s) ($(elapsed) s). Transcript: $(rel "$T")"
		[ "$tag" = work ] && [ -n "$(ls -d "$LABS/$(printf '%02d' $((NUM + 1)))"-*/ 2>/dev/null)" ] &&
			say "next: make lab $((NUM + 1))"
		exit 0
	fi
	echo "verdict: FAIL $v" >>"$T"
	local first=${FAILED_STEPS%% *}
	local which="step $first"
	[ "$first" != "$FAILED_STEPS" ] && which="steps ${FAILED_STEPS// /, }"
	say "lab $NUM: $PASSED of $STEPS steps pass; failing: $which ($(elapsed) s)."
	if [ "$tag" = work ]; then
		local catch
		catch="make lab $NUM STEP=$((first + 1)) gives a copy with $(solved "$first") (yours is kept as a backup)"
		[ "$first" -ge "$STEPS" ] && catch="the reference answer is $(rel "$SOL")"
		printf '     %s\n' "Read the hint under the first FAIL, edit $(rel "$WORKF"), then run make lab $NUM again. Stuck on step $first? $catch. Transcript: $(rel "$T")." | fold -s -w 76 | sed '2,$s/^/     /'
	else
		printf '     %s\n' "The reference solution fails: that is the kit's bug (or the kernel's). Transcript: $(rel "$T")." | fold -s -w 76 | sed '2,$s/^/     /'
	fi
	exit 1
}

# variant_line TAG: the VARIANT line of tests/host/labs.sh.
variant_line() {
	local tag=$1
	if [ ! -x "$OUT/$tag/$BIN-$tag" ]; then
		echo "VARIANT $tag compile=fail dir=$(rel "$OUT/$tag")"
		return
	fi
	evaluate "$tag"
	echo "VARIANT $tag compile=ok steps=$STEPS boots=${#BOOTS[@]} passed=$PASSED failed_steps=${FAILED_STEPS// /,} results_pass=$RESULTS_P results_fail=$RESULTS_F trouble=$([ -n "$BOOT_TROUBLE" ] && echo yes || echo no) dir=$(rel "$OUT/$tag")"
}

# check N TAG=FILE...: grade several sources in one set of boots (a
# kernel-side lab: one kernel and one set of boots per source).
cmd_check() {
	local n=$1 v tag src
	shift
	MODE=check
	find_lab "$n"
	load_conf
	# The lock order (docs/hacking.md): the lab kernel's, then the lab's.
	lock_lab_kernel >&2
	exec 8>"$OUT/.lock-check"
	flock 8
	if [ "$KIND" = kernel ]; then
		for v in "$@"; do
			tag=${v%%=*} src=${v#*=}
			rm -rf "${OUT:?}/$tag"
			build_variant "$tag" "$src" >&2 || true
			[ -x "$OUT/$tag/$BIN-$tag" ] && boot_all "$v"
			variant_line "$tag"
		done
		return
	fi
	ensure_kernel >&2
	check_needs
	build_grader
	for v in "$@"; do
		tag=${v%%=*} src=${v#*=}
		rm -rf "${OUT:?}/$tag"
		build_variant "$tag" "$src" || true
	done
	boot_all "$@"
	for v in "$@"; do
		variant_line "${v%%=*}"
	done
}

case "${1:-}" in
list) cmd_list ;;
run) shift; cmd_run "$@" ;;
skel) shift; cmd_skel "$@" ;;
check) shift; [ $# -ge 2 ] || die "usage: lab.sh check N TAG=FILE..." "See the top of scripts/lab.sh."; cmd_check "$@" ;;
*) die "lab.sh: unknown command '${1:-}'." "Use make labs, make lab N or make skel N (make help lists the targets)." ;;
esac
