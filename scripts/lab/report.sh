# shellcheck shell=bash
# make lab: what the learner sees, and the record of the run
# (build/labs/NN/last-run.json, scripts/lib/runrecord.py) that keeps all
# of it, with its transcript (last-run.txt).  Sourced by scripts/lab/lab.sh.

# source_sha SRC: the first 16 hex digits of the sha256 of the learner's
# file, or of a policy lab's folder (its files' names and contents).  Not
# named digest: lab.sh sources this file after lib.sh, whose digest FILE...
# (the stamps') its functions still call.
source_sha() {
	if [ -d "$1" ]; then files_digest "$1"; else digest "$1"; fi | cut -c1-16
}

# record_start SRC TAG: the record of this run as it begins (its verdict:
# stopped), and the head of its transcript: scripts/guest/results.py
# record start, scripts/lib/runrecord.py.  The boots as lab.conf's BOOTS
# names them (an empty entry is the kernel's default).
record_start() {
	local i b each=()
	for i in "${!BOOTS[@]}"; do
		b=${BOOTS[$i]}
		each+=("boot=${b:-default}"$'\t'"$(boot_label "$i")")
	done
	"$KIT/scripts/guest/results.py" record start "$OUT" lab="$NUM" title="$TITLE" \
		graded="$([ "$2" = solution ] && echo reference || echo copy)" \
		source="$(rel "$1")" sha256="$(source_sha "$1")" \
		console="$(rel "$LOGS")/guest-lab-$NN-run-b*.log" flavour="$FLAVOUR" "${each[@]}" ||
		die "make lab could not write the record of this run in $(rel "$OUT") (above)." "This is the kit's bug, or the disk is full."
}

# record_end TAG: the record of this run as it ends, from its head and
# variant TAG's record, written last, after the transcript ($T) and its
# TAP that are rendered from it; on the terminal, each boot's results (a
# later boot with the same verdicts as the first is one line; the
# transcript has all) and, of a boot that went wrong, the runner's
# report (a kernel-side lab: the Oops's addresses named,
# kind_crash_report).
record_end() {
	local tag=$1 i rc args=()
	if [ "$VERDICT" != compile ]; then
		args+=("kernel=$KERNEL_LINE")
		for i in "${STAGES[@]}"; do args+=("stage=$i"); done
		# the runner's report of each boot (the record keeps those of the
		# boots that went wrong), and the Oops's names of a crashed one
		for i in "${!BOOTS[@]}"; do
			args+=("report=$i:$OUT/boot-run-$((i + 1)).err")
			rc=$(cat "$OUT/boot-run-$((i + 1)).rc" 2>/dev/null || echo 126)
			[ "$rc" -ge 124 ] || continue
			kind_crash_report "$i" "$rc" >"$OUT/boot-run-$((i + 1)).oops"
			args+=("oops=$i:$OUT/boot-run-$((i + 1)).oops")
		done
	fi
	"$KIT/scripts/guest/results.py" record end "$OUT" "$OUT/$tag/run.json" "${args[@]}" ||
		die "make lab could not write the record of this run in $(rel "$OUT") (above)." "This is the kit's bug, or the disk is full."
}

# advise TEXT: a paragraph under the last "kit:" line.
advise() { printf '     %s\n' "$1" | fold -s -w 76 | sed '2,$s/^/     /'; }

# verdict TAG: the learner's advice on the verdict (the record's, which
# record_end has written and shown: read_result's VERDICT); exits 0 only
# if every step passes in every boot.
verdict() {
	local tag=$1 first which catch
	if [ "$VERDICT" = trouble ]; then
		kind_boot_trouble	# a kernel-side lab: its own message, and exits
		die "lab $NUM could not be graded completely: a guest hung, crashed or stopped early (above; $(elapsed) s)." \
		    "A hang or panic in a user-space lab is rarely your code's fault: run make lab $NUM again; if it persists, look at the console log named above and ask the instructor. Transcript: $(rel "$T")."
	fi
	if [ "$VERDICT" = nograde ]; then
		die "the grader of lab $NUM printed no verdicts ($(elapsed) s): the program stopped before its first step." \
		    "Code that runs before main() or kills its own process can do that; the transcript $(rel "$T") and the console logs $(rel "$LOGS")/guest-lab-$NN-run-b*.log show what it printed."
	fi
	if [ "$VERDICT" = pass ]; then
		say "lab $NUM PASSED: all $STEPS steps, in ${#BOOTS[@]} boot(s) ($(elapsed) s). Transcript: $(rel "$T")"
		[ "$tag" = work ] && [ -n "$(ls -d "$LABS/$(printf '%02d' $((NUM + 1)))"-*/ 2>/dev/null)" ] &&
			say "next: make lab $((NUM + 1))"
		exit 0
	fi
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
	local d total=0 last=1 res nn text
	local -A runs=()
	while IFS=$'\t' read -r nn text; do runs[$nn]=$text; done < <("$KIT/scripts/guest/results.py" record list "$BUILD/labs")
	echo "The labs (make lab N to grade yours; SOLUTION=1, SHELL=1, STEP=k; make skel N STEP=k):"
	echo
	for d in $(lab_dirs); do
		lab_at "$d"
		load_conf
		last=1 res=${runs[$NN]:-}
		[ "$FLAVOUR" = mainline ] && [ ! -f "$(flavour_dir)/bzImage" ] &&
			res="needs the reference kernel: make mainline${res:+; last run: $res}" && last=
		printf '  %2d  %-44s %3s min  %s\n' "$NUM" "$TITLE" "$MINUTES" "${res:+${last:+last run: }$res}"
		[[ "$MINUTES" =~ ^[0-9]+$ ]] && total=$((total + MINUTES))
	done
	echo
	echo "  $total min in all. Each lab's README.md: labs/NN-*/README.md; for instructors: labs/README.md."
}
