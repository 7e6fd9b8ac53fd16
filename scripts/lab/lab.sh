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
# grading (APPEND=... adds to its kernel command line); GDB=1 (a
# kernel-side lab) boots the lab kernel with debug info under gdb instead
# (scripts/debug/gdb.sh; the guest runs the grader, or CMD); TIMEOUT=s per boot;
# HINT=2: each FAIL's hints give the exact line to write as well (by
# default, HINT=1, they say what the kernel saw and where to look; in
# check mode a TAG ending in -hint2 is graded with HINT=2).
#
# A run is four stages, as in the kernel's tools/testing/kunit/kunit.py;
# each is a function of one file of scripts/lab/, and stage() records its
# status and time (in the record's stages, the transcript's "stages:" line):
#
#   config  scripts/lab/conf.sh    the lab, its lab.conf, the kernel, NEEDS
#   build   scripts/lab/build.sh   the grader and the attendee's program
#                                  (a kernel-side lab: the lab kernel)
#   run     scripts/lab/boot.sh    one guest per boot, in parallel
#   parse   scripts/lab/parse.sh   scripts/guest/results.py grades each boot
#
# scripts/lab/work.sh makes the attendee's copy; scripts/lab/report.sh
# writes the record of the run (scripts/lib/runrecord.py renders the
# transcript from it), prints the result and lists the labs.  What a
# lab's kind (lab.conf's KIND) changes is in one file of hooks per kind,
# scripts/lab/kind-{user,kernel,policy}.sh, which load_conf sources
# (docs/hacking.md, "The kinds' hooks"); scripts/lab/policy.sh is the
# work of a policy lab (KIND=policy: the attendee edits policy files, not
# C).
#
# Everything a run produces is in build/labs/NN/: the record of the last
# graded run (last-run.json), its transcript (last-run.txt) and TAP
# (last-run.tap), rendered from it, and the binaries.
set -uo pipefail
. "${0%/*}/../lib/lib.sh"
. "$KIT/scripts/guest/stacks.sh"
for part in conf work build boot parse report policy; do
	. "$KIT/scripts/lab/$part.sh"
done

# shellcheck disable=SC2034 # for the stages sourced above
LABS=${LABS_DIR:-$KIT/labs}	# LABS_DIR: for tests/host/labs.sh only
START=${EPOCHREALTIME/./}	# microseconds
STAGES=()

# elapsed [T0]: seconds since T0 (microseconds; START), one decimal, no
# process started.
elapsed() {
	local d=$(((${EPOCHREALTIME/./} - ${1:-$START} + 50000) / 100000))
	printf '%d.%d' $((d / 10)) $((d % 10))
}

# stage NAME FUNCTION ARG...: run one stage in this shell; its status is
# the function's, and "NAME:SECONDS:STATUS" goes to STAGES (the record's
# stages: scripts/lab/report.sh record_end).
stage() {
	local name=$1 t0 rc=0
	shift
	t0=${EPOCHREALTIME/./}
	"$@" || rc=$?
	STAGES+=("$name:$(elapsed "$t0"):$rc")
	return $rc
}

# The locks a lab run takes: levels 1 and 2 of "The lock order" in
# docs/hacking.md (the one place it is written down; the scripts lab.sh
# runs take levels 3-7).  lab_lock refuses to take a lock above one this
# run holds, so that a change that breaks the order fails at once.
HELD=0
lab_lock() {	# lab_lock LEVEL FD FILE [MESSAGE while waiting]
	local level=$1 fd=$2 file=$3 msg=${4:-}
	[ "$level" -gt "$HELD" ] ||
		die "lab.sh takes lock $level ($(rel "$file")) while it holds lock $HELD." \
		    "That breaks the lock order of docs/hacking.md: this is the kit's bug."
	eval "exec $fd>\"\$file\""
	if ! flock -n "$fd"; then
		[ -n "$msg" ] && say "$msg"
		flock "$fd"
	fi
	HELD=$level
}

# stage_build TAG SRC: the grader (a kernel-side lab: with the variant)
# and the variant; 1 if SRC does not compile.
stage_build() {
	kind_build_grader
	build_variant "$1" "$2"
}

cmd_skel() {
	find_lab "$@"
	load_conf
	reset_work "${STEP:-1}"
	say "edit it, then run: make lab $NUM"
}

cmd_run() {
	find_lab "$@"
	load_conf
	case ${HINT:-1} in 1|2) ;; *) die "HINT must be 1 or 2, not '$HINT'." \
		"make lab $NUM shows what the kernel saw and where to look; make lab $NUM HINT=2 the line to write as well." ;; esac
	# A lab on the reference kernel says so before it makes a copy that
	# the attendee would then edit with nothing to grade it on.
	[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] || need_mainline "$(flavour_dir)"
	pick_source
	kind_lock	# a kernel-side lab: lock 1, the lab kernel
	stage config stage_config
	if [ "${KIT_SHELL:-}" = 1 ]; then boot_shell "$SRC"; fi
	if [ "${GDB:-}" = 1 ]; then boot_gdb "$SRC"; fi

	lab_lock 2 8 "$OUT/.lock" "another run of lab $NUM is going on; waiting for it"
	# shellcheck disable=SC2034 # T: read by scripts/lab/report.sh's messages
	T=$OUT/last-run.txt R=$OUT/last-run.json
	record_start "$SRC" "$TAG"
	# make join: however the run ends, the room gets its record's result,
	# from a process of its own that this run never waits for
	# (scripts/room/client.py: nothing if not joined; queued if the room
	# does not answer).  It gets none of this run's locks (fds 7 and 8):
	# a sender retrying for hours while the room is down would hold them,
	# and the next make lab N would wait for it (tests/host/room.sh).
	trap 'setsid -f "$KIT/scripts/room/client.py" send "$R" </dev/null >/dev/null 2>&1 7>&- 8>&-' EXIT
	rm -rf "${OUT:?}/$TAG"
	kind_build_note "$SRC"
	if ! stage build stage_build "$TAG" "$SRC"; then
		evaluate "$TAG"		# its record: the compiler's messages
		record_end "$TAG"
		show_compile_error "$TAG" "$SRC"
	fi
	# shellcheck disable=SC2034 # read by record_end (scripts/lab/report.sh)
	KERNEL_LINE="$(rel "$(flavour_dir)")/bzImage of $(date -r "$(flavour_dir)/bzImage" '+%F %T')"
	say "grading $(rel "$SRC") in ${#BOOTS[@]} boot(s)"
	MODE=run
	stage run boot_all "$TAG=$SRC"
	stage parse evaluate "$TAG"
	record_end "$TAG"	# the record, its transcript and TAP; the boots on the terminal
	verdict "$TAG"
}

# check N TAG=FILE...: grade several sources (kind_check_variants: in one
# set of boots, check_variants_together; a kernel-side lab: one kernel and
# one set of boots per source).
cmd_check() {
	local n=$1
	shift
	# shellcheck disable=SC2034 # for the stages (boot.sh, parse.sh)
	MODE=check
	find_lab "$n"
	load_conf
	kind_lock >&2
	lab_lock 2 8 "$OUT/.lock-check"
	kind_check_variants "$@"
}

# check_variants_together TAG=FILE...: every variant built, then graded in
# one set of boots.
check_variants_together() {
	local v tag src
	stage_config >&2
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
check) shift; [ $# -ge 2 ] || die "usage: lab.sh check N TAG=FILE..." "See the top of scripts/lab/lab.sh."; cmd_check "$@" ;;
*) die "lab.sh: unknown command '${1:-}'." "Use make labs, make lab N or make skel N (make help lists the targets)." ;;
esac
