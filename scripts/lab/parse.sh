# shellcheck shell=bash
# make lab, stage "parse": scripts/results.py reads every boot's results
# channel and grades a variant.  Sourced by scripts/lab.sh.

# evaluate TAG: $OUT/TAG/result.tap, boot-I.txt (the learner's view),
# boot-I.rc, steps.tsv; sets STEPS, PASSED (steps that pass in every
# boot), FAILED_STEPS, RESULTS_P/F and BOOT_TROUBLE (boots that did not
# grade).
evaluate() {
	local tag=$1 i specs=() rc
	for i in "${!BOOTS[@]}"; do
		rc=$(cat "$OUT/boot-$MODE-$((i + 1)).rc" 2>/dev/null || echo 126)
		specs+=("$rc:$LOGS/guest-lab-$NN-$MODE-b$((i + 1)).out:$(boot_label "$i")")
	done
	eval "$("$KIT/scripts/results.py" lab "$OUT/$tag" "$tag" "${TIMEOUT_USED:-${TIMEOUT:-90}}" "${specs[@]}")"
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
