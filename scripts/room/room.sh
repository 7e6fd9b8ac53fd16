#!/usr/bin/env bash
# make room: the instructor's room (scripts/room/server.py), on this
# machine, with this kit's labs (scripts/lab/conf.sh's lab_table: the
# posts are checked against their steps and boots).
#
#   make room [PORT=8041] [BIND=127.0.0.1] [DB=FILE]
#
# BIND: the address it listens on; loopback by default (nobody else can
# post), the room's network address (or 0.0.0.0) for a workshop.  DB: the
# SQLite file that keeps the token and every result (a restart loses
# nothing), by default beside the attendees' state, outside build/
# (make clean keeps it): ${XDG_STATE_HOME:-~/.local/state}/lsm-kit/room.sqlite.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/guest/stacks.sh"
. "$KIT/scripts/lab/conf.sh"
. "$KIT/scripts/lab/work.sh"

LABS=${LABS_DIR:-$KIT/labs}
PORT=${PORT:-8041}
BIND=${BIND:-127.0.0.1}
[[ "$PORT" =~ ^[0-9]{1,5}$ ]] && [ "$PORT" -le 65535 ] ||
	die "PORT=$PORT is no port number." "Give one from 1024 to 65535 (0: any free one, printed), e.g. make room PORT=8041."
DB=${DB:-${XDG_STATE_HOME:-$HOME/.local/state}/lsm-kit/room.sqlite}
mkdir -p "$(dirname "$DB")" || die "cannot make the folder of DB=$DB." "Give another DB=FILE."
table=$(lab_table) || die "the labs could not be read (above)." "Fix the lab.conf named above."
exec "$KIT/scripts/room/server.py" "$DB" "$BIND" "$PORT" <<<"$table"
