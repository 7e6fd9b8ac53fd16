#!/usr/bin/env bash
# make room and the instructor's other room targets, on this machine,
# with this kit's labs (scripts/lab/conf.sh's lab_table: the posts are
# checked against their steps and boots; lab.conf's MINUTES and the
# graders' step titles: the page's thresholds and titles).
#
#   room.sh [PORT=8041] [BIND=127.0.0.1] [DB=FILE] [ROSTER=FILE|none] [IDLE=20]
#                         make room: the room (scripts/room/server.py)
#   room.sh admin         make room-admin: the names (RENAME=OLD TO=NEW,
#                         MERGE=FROM TO=INTO, REMOVE=NAME: change them)
#   room.sh export        make room-export [OUT=FILE]: every run, as CSV
#   room.sh reset         make room-reset: the day so far kept as a file,
#                         then no runs (names, roster and tokens stay)
#
# BIND: the address it listens on; loopback by default (nobody else can
# post), the room's network address (or 0.0.0.0) for a workshop.  DB: the
# SQLite file that keeps the room (its key and tokens, the names, every
# result: a restart loses nothing), by default beside the attendees'
# state, outside build/ (make clean keeps it):
# ${XDG_STATE_HOME:-~/.local/state}/lsm-kit/room.sqlite.  ROSTER: a text
# file of the names expected, one a line (kept in DB; none: no roster).
# IDLE: minutes without a run before a row says "idle".
set -uo pipefail
# shellcheck source=scripts/lib/lib.sh
. "$(dirname "$0")/../lib/lib.sh"
# shellcheck source=scripts/guest/stacks.sh
. "$KIT/scripts/guest/stacks.sh"
# shellcheck source=scripts/lab/conf.sh
. "$KIT/scripts/lab/conf.sh"
# shellcheck source=scripts/lab/work.sh
. "$KIT/scripts/lab/work.sh"

# shellcheck disable=SC2034 # conf.sh's lab_dirs reads it
LABS=${LABS_DIR:-$KIT/labs}
DB=${DB:-${XDG_STATE_HOME:-$HOME/.local/state}/lsm-kit/room.sqlite}

# room_table: lab_table's lines, then each lab's "minutes<TAB>N<TAB>MINUTES"
# and "grader<TAB>N<TAB>PATH" (server.py reads the STEP titles there).
room_table() {
	local d
	lab_table || return 1
	for d in $(lab_dirs); do
		(lab_at "$d"
		 load_conf >/dev/null
		 printf 'minutes\t%s\t%s\n' "$NUM" "$MINUTES"
		 [ ! -f "$LDIR/grade.c" ] || printf 'grader\t%s\t%s\n' "$NUM" "$LDIR/grade.c") || return 1
	done
}

case "${1:-}" in
'')
	PORT=${PORT:-8041}
	BIND=${BIND:-127.0.0.1}
	IDLE=${IDLE:-20}
	[[ "$PORT" =~ ^[0-9]{1,5}$ ]] && [ "$PORT" -le 65535 ] ||
		die "PORT=$PORT is no port number." "Give one from 1024 to 65535 (0: any free one, printed), e.g. make room PORT=8041."
	[[ "$IDLE" =~ ^[1-9][0-9]{0,3}$ ]] ||
		die "IDLE=$IDLE is no number of minutes." "Give one, e.g. make room IDLE=20 (a row says idle after 20 minutes without a run)."
	mkdir -p "$(dirname "$DB")" && chmod 700 "$(dirname "$DB")" || die "cannot make the folder of DB=$DB." "Give another DB=FILE."
	table=$(room_table) || die "the labs could not be read (above)." "Fix the lab.conf named above."
	args=("$DB" "$BIND" "$PORT" --idle "$IDLE")
	[ -z "${ROSTER:-}" ] || args+=(--roster "$ROSTER")
	exec "$KIT/scripts/room/server.py" "${args[@]}" <<<"$table"
	;;
admin|export|reset)
	what=$1
	[ -f "$DB" ] || die "there is no room at DB=$DB yet." "make room starts one (the same DB=, if you gave one)."
	table=$(room_table) || die "the labs could not be read (above)." "Fix the lab.conf named above."
	exec "$KIT/scripts/room/admin.py" "$what" "$DB" <<<"$table"
	;;
*)
	die "room.sh: unknown command '$1'." "make room, make room-admin, make room-export, make room-reset (make help)."
	;;
esac
