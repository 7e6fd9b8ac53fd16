#!/usr/bin/env bash
# Offline tests of make lab's own logic (scripts/lab/lab.sh, work.sh,
# report.sh) in scratch kits.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..3"
# make lab 11 (the reference kernel's lab) on a machine without that
# kernel: refused with what to do, before an attendee's copy is made
# (it used to make work/ first, to be edited with nothing to grade it on).
refcase() (
	mkdir -p "$T/ref/labs" "$T/ref/build"
	cp -r "$K/labs/common" "$K"/labs/11-* "$T/ref/labs/"
	rm -rf "$T"/ref/labs/11-*/work
	e=$(LABS_DIR=$T/ref/labs BUILD=$T/ref/build "$K/scripts/lab/lab.sh" run 11 2>&1); rc=$?
	[ $rc -ne 0 ] || { echo "lab.sh run 11 succeeded without the reference kernel"; exit 1; }
	grep -q 'not built yet' <<<"$e" || { echo "no 'not built yet' message: $e"; exit 1; }
	! ls -d "$T"/ref/labs/11-*/work >/dev/null 2>&1 || { echo "a work/ copy was made before the refusal"; exit 1; }
)
scenario "make lab 11 without the reference kernel: refused, and no copy made" refcase

# The attendee's copy says which command made it (issue 29, item 9): make
# lab N makes the first copy (and STEP=k's), make skel N the others; a
# header that always said "make skel" was untrue after a first make lab.
# WORK_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
madeby() (
	W=$T/madeby
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$W/work.sh"
	[ -z "${WORK_SABOTAGE:-}" ] || sed -i "$WORK_SABOTAGE" "$W/work.sh"
	say() { :; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	# shellcheck disable=SC1091
	. "$W/work.sh"
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c
	unset STEP SOLUTION
	pick_source >/dev/null
	grep -q 'made by "make lab 7" on' "$WORKF" || { echo "first make lab: $(sed -n 2p "$WORKF")"; exit 1; }
	reset_work 2 >/dev/null
	grep -q 'made by "make skel 7 STEP=2" on' "$WORKF" || { echo "make skel: $(sed -n 2p "$WORKF")"; exit 1; }
	STEP=2 pick_source >/dev/null
	grep -q 'made by "make lab 7 STEP=2" on' "$WORKF" || { echo "make lab STEP=2: $(sed -n 2p "$WORKF")"; exit 1; }
)
sabotaged "the attendee's copy names the command that made it: make lab N (a first run, STEP=k) or make skel N" \
	"a work.sh that always says make skel" madeby WORK_SABOTAGE 's/"make %s %d%s"/"make skel %d%s"/; s/"\$by" "\$NUM"/"$NUM"/'

# A first make lab ends with the skeleton's FAILs and make's "Error 1":
# its last words say that set-up worked and the steps fail until written
# (issue 40), while the copy is untouched; once edited, the usual advice.
# FIRST_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
firstwords() (
	W=$T/first
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$K/scripts/lab/report.sh" "$W/"
	[ -z "${FIRST_SABOTAGE:-}" ] || sed -i "$FIRST_SABOTAGE" "$W/work.sh"
	say() { echo "kit: $*"; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	elapsed() { echo 9; }
	# shellcheck disable=SC1091
	. "$K/scripts/lib/lib.sh" && . "$W/work.sh" && . "$W/report.sh"
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c OUT=$W/out T=$W/t.txt LABS=$W
	unset STEP SOLUTION
	pick_source >/dev/null
	BOOTS=(default) STEPS=3 PASSED=0 RESULTS_F=3 FAILED_STEPS="1 2 3" BOOT_TROUBLE=
	out=$(verdict work)
	grep -q 'set-up works' <<<"$out" || { echo "the untouched skeleton's run: $out"; exit 1; }
	echo '/* my step 1 */' >>"$WORKF"
	out=$(verdict work)
	! grep -q 'set-up works' <<<"$out" || { echo "an edited copy is called the untouched skeleton: $out"; exit 1; }
	grep -q 'Read the hint under the first FAIL' <<<"$out" || { echo "an edited copy: not the usual advice: $out"; exit 1; }
)
sabotaged "a first make lab on the untouched skeleton says set-up worked and the steps fail until written; an edited copy gets the usual advice" \
	"a work.sh that keeps no digest of the skeleton" firstwords FIRST_SABOTAGE '/skeleton.sha/d' "the untouched skeleton's run"
