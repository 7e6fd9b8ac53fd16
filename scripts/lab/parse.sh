# shellcheck shell=bash
# make lab, stage "parse": scripts/guest/results.py reads every boot's results
# channel and grades a variant.  Sourced by scripts/lab/lab.sh.

# evaluate TAG: scripts/guest/results.py grades variant TAG from every boot's
# results channel and runner status ($OUT/boot-MODE-I.rc) into
# $OUT/TAG/: result (the one result), result.tap, boot-I.txt (the
# learner's view), steps.tsv; read_result reads the result.
evaluate() {
	local tag=$1 i specs=() rc
	for i in "${!BOOTS[@]}"; do
		rc=$(cat "$OUT/boot-$MODE-$((i + 1)).rc" 2>/dev/null || echo 126)
		specs+=("$rc:$LOGS/guest-lab-$NN-$MODE-b$((i + 1)).out:$(boot_label "$i")")
	done
	"$KIT/scripts/guest/results.py" lab "$OUT/$tag" "$tag" "${TIMEOUT_USED:-${TIMEOUT:-90}}" "${specs[@]}" ||
		die "grading lab $NUM's results failed (scripts/guest/results.py lab)." "This is the kit's bug: the lines above say where."
	read_result "$OUT/$tag/result"
}

# read_result FILE: STEPS, PASSED (steps that pass in every boot),
# FAILED_STEPS, RESULTS_P/F, BOOT_RC (each boot's runner status: 124-127,
# docs/hacking.md) and BOOT_TROUBLE (a line a boot that did not grade),
# from results.py's "KEY VALUE" lines.  Nothing is eval'd.
read_result() {
	local k v
	STEPS=0 PASSED=0 FAILED_STEPS= RESULTS_P=0 RESULTS_F=0 BOOT_TROUBLE= BOOT_RC=()
	while read -r k v; do
		case $k in
		steps) STEPS=$v ;;
		passed) PASSED=$v ;;
		failed_steps) FAILED_STEPS=$v ;;
		results_pass) RESULTS_P=$v ;;
		results_fail) RESULTS_F=$v ;;
		boot) v=${v#* }; BOOT_RC+=("${v%% *}") ;;
		trouble) BOOT_TROUBLE+="$v"$'\n' ;;
		'#'*|'') ;;
		*) die "$(rel "$1"): unknown line '$k $v'." "scripts/guest/results.py lab writes it: this is the kit's bug." ;;
		esac
	done <"$1"
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
