# shellcheck shell=bash
# make lab, stage "parse": scripts/guest/results.py reads every boot's results
# channel and grades a variant.  Sourced by scripts/lab/lab.sh.

# evaluate TAG: variant TAG's record ($OUT/TAG/run.json: scripts/lib/runrecord.py),
# graded by scripts/guest/results.py from every boot's results channel and
# runner status ($OUT/boot-MODE-I.rc), or, when its program was not built,
# with the compiler's messages ($OUT/TAG/compile.txt); read_result reads
# the VARIANT line results.py prints of it.
evaluate() {
	local tag=$1 i specs=() rc line
	if [ -x "$OUT/$tag/$BIN-$tag" ]; then
		for i in "${!BOOTS[@]}"; do
			rc=$(cat "$OUT/boot-$MODE-$((i + 1)).rc" 2>/dev/null || echo 126)
			specs+=("$rc:$LOGS/guest-lab-$NN-$MODE-b$((i + 1)).out:$(boot_label "$i")")
		done
		line=$("$KIT/scripts/guest/results.py" lab "$OUT/$tag" "$tag" "${TIMEOUT_USED:-${TIMEOUT:-90}}" "${specs[@]}")
	else
		line=$("$KIT/scripts/guest/results.py" uncompiled "$OUT/$tag" "$tag")
	fi || die "grading lab $NUM's results failed (scripts/guest/results.py lab)." "This is the kit's bug: the lines above say where."
	read_result "$line"
}

# read_result LINE: VERDICT (pass, fail, trouble, nograde, compile),
# STEPS, PASSED (steps that pass in every boot), FAILED_STEPS, RESULTS_P/F
# and VARIANT_LINE, from a variant's VARIANT line (its record's, rendered
# by scripts/lib/runrecord.py).  Nothing is eval'd.
# shellcheck disable=SC2034 # read by scripts/lab/report.sh and lab.sh
read_result() {
	local w k v words
	VERDICT='' STEPS=0 PASSED=0 FAILED_STEPS='' RESULTS_P=0 RESULTS_F=0 VARIANT_LINE=$1
	read -r -a words <<<"$1"
	if [ "${words[0]:-}" != VARIANT ] || [ ${#words[@]} -lt 3 ]; then
		die "results.py printed '$1', not a VARIANT line." "scripts/lib/runrecord.py writes it: this is the kit's bug."
	fi
	for w in "${words[@]:2}"; do
		k=${w%%=*} v=${w#*=}
		case $k in
		compile|boots|trouble) ;;
		verdict) VERDICT=$v ;;
		steps) STEPS=$v ;;
		passed) PASSED=$v ;;
		failed_steps) FAILED_STEPS=${v//,/ } ;;
		results_pass) RESULTS_P=$v ;;
		results_fail) RESULTS_F=$v ;;
		*) die "results.py's VARIANT line has an unknown word '$w'." "scripts/lib/runrecord.py writes it: this is the kit's bug." ;;
		esac
	done
}

# variant_line TAG: the VARIANT line of tests/host/labs.sh: the variant's
# record's, and where it is.
variant_line() {
	evaluate "$1"
	echo "$VARIANT_LINE dir=$(rel "$OUT/$1")"
}
