# shellcheck shell=bash
# make lab: what the learner sees, and the transcript
# (build/labs/NN/last-run.txt) that keeps all of it.  Sourced by
# scripts/lab/lab.sh.

# source_sha SRC: the first 16 hex digits of the sha256 of the learner's
# file, or of a policy lab's folder (its files' names and contents).  Not
# named digest: lab.sh sources this file after lib.sh, whose digest FILE...
# (the stamps') its functions still call.
source_sha() {
	if [ -d "$1" ]; then files_digest "$1"; else digest "$1"; fi | cut -c1-16
}

# transcript_head SRC TAG: the first lines of the transcript ($T).  The
# "key: value" lines above the first boot are what make progress reads
# (scripts/guest/results.py transcript): the kernel flavour, and the boots as
# lab.conf's BOOTS names them (an empty entry is the kernel's default).
transcript_head() {
	local b boots=()
	for b in "${BOOTS[@]}"; do boots+=("${b:-default}"); done
	{
		echo "lab $NUM ($TITLE), graded $(date '+%F %T')"
		echo "source: $(rel "$1") (sha256 $(source_sha "$1"))"
		echo "graded: $([ "$2" = solution ] && echo "the reference solution" || echo "your copy")"
		echo "console logs: $(rel "$LOGS")/guest-lab-$NN-run-b*.log"
		echo "flavour: $FLAVOUR"
		echo "boots: $(printf '%s, ' "${boots[@]}" | sed 's/, $//')"
	} >"$T"
}

# The verdict lines of a boot's text, hints included, without the banner
# (which names the boot's LSMs).
verdicts() { grep -v -E '^(KIT-|lab [0-9]+: )' "$1"; }

# show_boots TAG: each boot's results; on the terminal, a later boot with
# the same verdicts as the first is one line; the transcript has all.
show_boots() {
	local tag=$1 i t rc
	for i in "${!BOOTS[@]}"; do
		t=$OUT/$tag/boot-$((i + 1)).txt
		rc=${BOOT_RC[$i]:-126}
		echo
		echo "== boot $((i + 1)) of ${#BOOTS[@]}: $(boot_label "$i") =="
		{ echo; echo "== boot $((i + 1)) of ${#BOOTS[@]}: $(boot_label "$i") =="; cat "$t"; } >>"$T"
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
			kind_crash_report "$i" "$rc"	# a kernel-side lab: the Oops's names
		fi | tee -a "$T"
	done
	echo
}

# advise TEXT: a paragraph under the last "kit:" line.
advise() { printf '     %s\n' "$1" | fold -s -w 76 | sed '2,$s/^/     /'; }

# verdict TAG: the verdict line of the transcript, the learner's advice;
# exits 0 only if every step passes in every boot.
verdict() {
	local tag=$1 v="$PASSED/$STEPS steps" first which catch
	if [ -n "$BOOT_TROUBLE" ]; then
		echo "verdict: FAIL, a boot went wrong ($v)" >>"$T"
		printf '%s' "$BOOT_TROUBLE" | sed 's/; $//; s/^/  /' >&2
		kind_boot_trouble	# a kernel-side lab: its own message, and exits
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
	first=${FAILED_STEPS%% *}
	which="step $first"
	[ "$first" != "$FAILED_STEPS" ] && which="steps ${FAILED_STEPS// /, }"
	say "lab $NUM: $PASSED of $STEPS steps pass; failing: $which ($(elapsed) s)."
	if [ "$tag" = work ] && [ "$(cat "$OUT/skeleton.sha" 2>/dev/null)" = "$(source_sha "$SRC")" ]; then
		say "set-up works: the kernel is built, and the guest booted and graded your copy in ${#BOOTS[@]} boot(s)."
		advise "Your copy $(rel "$WORKF") is still the untouched skeleton, so its steps fail until you write them: that is expected (make then says \"Error 1\": the lab does not pass yet). Read labs/$(basename "$LDIR")/README.md, write step 1 in your copy, then run make lab $NUM again."
	elif [ "$tag" = work ]; then
		catch="make lab $NUM STEP=$((first + 1)) gives a copy with $(solved "$first") (yours is kept as a backup)"
		[ "$first" -ge "$STEPS" ] && catch="the reference answer is $(rel "$SOL")"
		advise "Read the hint under the first FAIL, edit $(rel "$WORKF"), then run make lab $NUM again. Stuck on step $first? $catch. Transcript: $(rel "$T")."
	else
		advise "The reference solution fails: that is the kit's bug (or the kernel's). Transcript: $(rel "$T")."
	fi
	exit 1
}

# cmd_list: the labs, with titles, times and the last verdict.
cmd_list() {
	local d total=0 last res
	echo "The labs (make lab N to grade yours; SOLUTION=1, SHELL=1, STEP=k; make skel N STEP=k):"
	echo
	for d in $(lab_dirs); do
		lab_at "$d"
		load_conf
		last=$BUILD/labs/$NN/last-run.txt res=
		if [ -f "$last" ]; then
			res=$(sed -n 's/^verdict: //p' "$last" | tail -1)
			grep -q '^graded: the reference' "$last" && res+=" (reference solution)"
		fi
		[ "$FLAVOUR" = mainline ] && [ ! -f "$(flavour_dir)/bzImage" ] &&
			res="needs the reference kernel: make mainline${res:+; last run: $res}" && last=
		printf '  %2d  %-44s %3s min  %s\n' "$NUM" "$TITLE" "$MINUTES" "${res:+${last:+last run: }$res}"
		[[ "$MINUTES" =~ ^[0-9]+$ ]] && total=$((total + MINUTES))
	done
	echo
	echo "  $total min in all. Each lab's README.md: labs/NN-*/README.md; for instructors: labs/README.md."
}
