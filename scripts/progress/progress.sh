#!/usr/bin/env bash
# make progress: each lab's last graded run (build/labs/NN/last-run.json,
# the records make lab writes), for the attendee.
#
#   make progress                      the table of your labs
#   make progress OUT=FILE [NAME=...]  the same, and FILE: one small progress
#                                      file for the instructor (NAME defaults
#                                      to user@host)
#   make progress FROM=DIR             the room: attendees x labs, from a
#                                      folder of such files
#
# The labs are those of labs/ (their titles from lab.conf, read by
# scripts/lab/conf.sh as make labs reads them); scripts/progress/progress.py does
# the rest, and documents the file's format.  No network: files only.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/guest/stacks.sh"
. "$KIT/scripts/lab/conf.sh"
. "$KIT/scripts/lab/work.sh"	# count_steps, for lab_table

# shellcheck disable=SC2034 # for conf.sh's lab_dirs
LABS=${LABS_DIR:-$KIT/labs}	# LABS_DIR: for tests/host/progress.sh only
[ -z "${OUT:-}" ] || [ -z "${FROM:-}" ] ||
	die "make progress takes OUT=FILE (write your progress file) or FROM=DIR (read a folder of them), not both."

if [ -n "${FROM:-}" ]; then
	lab_table | "$KIT/scripts/progress/progress.py" room "$FROM"
elif [ -n "${OUT:-}" ]; then
	lab_table | "$KIT/scripts/progress/progress.py" mine "$BUILD/labs" "$OUT" "${NAME:-}" || exit
else
	lab_table | "$KIT/scripts/progress/progress.py" mine "$BUILD/labs" || exit
fi
# make join: whether the room has each lab's last run (nothing if not joined).
[ -n "${FROM:-}" ] || "$KIT/scripts/room/client.py" status "$BUILD/labs"
