#!/usr/bin/env bash
# make room and make join, on loopback only (TAP): twenty attendees' records
# of make lab's graded runs (tests/host/room.py gen: as make lab writes
# them, graded minutes ago, for the stand-in labs of
# tests/data/progress/labs), each attendee's state in a scratch folder
# (KIT_ROOM_HOME), all twenty posting at once; the page's table (the
# order, the step, the stuck times), in headless Chromium too (Debian's
# chromium; a skip without it); hostile posts; a restart; a room that is
# down (a lab run is not slower, its result arrives when the room is
# back).  No guest.  ROOM_SCREENSHOT=FILE: keep Chromium's screenshot
# there (docs/room.png was made so).  ROOM_SABOTAGE='FILE|SED': the
# suite on a scratch copy of scripts/ whose FILE has SED applied, to show
# a case failing on wrong code (the report of issue 41 lists the runs).
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT
. "$K/tests/host/tap.bash"
SHOW_TIMES=${SHOW_TIMES:-}
export LABS_DIR=$K/tests/data/progress/labs XDG_STATE_HOME=$T/state KIT_ROOM_TIMEOUT=5
H=$K/tests/host/room.py
S=$K
if [ -n "${ROOM_SABOTAGE:-}" ]; then
	S=$T/kit && mkdir -p "$S" && cp -r "$K/scripts" "$S/" && mkdir -p "$S/tests" && cp "$K/configs/stacks.conf" "$S/tests/"
	f=${ROOM_SABOTAGE%%|*}
	sed -i -e "${ROOM_SABOTAGE#*|}" "$S/$f"
	cmp -s "$K/$f" "$S/$f" && { echo "1..0 # SKIP ROOM_SABOTAGE changes nothing in $f"; exit 0; }
fi
C=$S/scripts/room/client.py

# room PORT LOG: make room's script on loopback, the stand-in labs, the
# database $T/room.sqlite; sets URL and TOKEN from what it prints, and
# PID.
room() {
	DB=$T/room.sqlite PORT=$1 BIND=127.0.0.1 "$S/scripts/room/room.sh" >"$2" 2>"$2.err" &
	PID=$!
	PIDS+=("$PID")
	local i
	for i in $(seq 1 600); do
		grep -q '^token: ' "$2" 2>/dev/null && break
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	URL=$(sed -n 's|^kit: the room: \(http://[^ ]*\)/ .*|\1|p' "$2")
	TOKEN=$(sed -n 's/^token: //p' "$2")
	[ -n "$URL" ] && [ -n "$TOKEN" ]
}
# as N CMD...: client.py CMD... as attendee N (their own state folder).
as() { local n=$1; shift; KIT_ROOM_HOME=$T/home/$n "$C" "$@"; }
# nocontrol FILE: no byte a terminal acts on (C0 but tab and newline, DEL,
# C1, bidi controls).
nocontrol() {
	! LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1" >"$T/ctl" ||
		{ echo "raw control or bidi characters in $1:"; sed -n l "$T/ctl" | head -5; return 1; }
}

echo "1..9"
if ! room 0 "$T/room.out"; then
	notok "make room starts on loopback and prints its address and token"
	sed 's/^/# /' "$T/room.out" "$T/room.out.err" | head -12
	exit 0
fi
ok "make room starts on loopback and prints its address and token"

# 2. Twenty attendees join and post at once, each its runs in order:
# every result stored, none twice, each laptop's queue empty.
mkdir -p "$T/runs" "$T/home"
"$H" gen "$T/runs"
twenty() (
	for n in $(seq -w 1 20); do
		(as "$n" join "$URL" "$TOKEN" "Attendee $n" >"$T/join-$n.out" 2>&1 &&
		 KIT_ROOM_FLUSH_FOR=0 as "$n" send $(ls "$T/runs/a$n"/t*.json | sort -V)) &
	done
	wait
	want=$(find "$T/runs" -name "t*.json" | wc -l)
	got=$(/usr/bin/python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); print(d.execute("SELECT count(*) FROM runs").fetchone()[0], d.execute("SELECT count(*) FROM attendees").fetchone()[0])' "$T/room.sqlite")
	[ "$got" = "$want 20" ] || { echo "the room has $got runs and attendees, not $want 20"; exit 1; }
	for n in $(seq -w 1 20); do
		[ -z "$(ls "$T/home/$n/queue")" ] || { echo "attendee $n: results still queued"; cat "$T/home/$n/last-error"; exit 1; }
		[ "$(ls "$T/home/$n/sent" | wc -l)" = "$(ls "$T/runs/a$n" | wc -l)" ] || { echo "attendee $n: not every result acknowledged"; exit 1; }
	done
)
scenario "twenty attendees join and post their runs at once: every result stored once, every queue empty" twenty

# 3. The page: the longest stuck first, each one's lab and step, stuck
# since their first failing run of that step (a later run that did not
# compile or stopped does not reset it; a SOLUTION=1 pass does not count;
# a pass is not stuck).
pagecase() (
	"$H" check "$T/runs" "$URL/" || { "$H" rows "$URL/" | head -8; exit 1; }
)
scenario "the page: the longest stuck first, the step each is on, stuck since the first failing run of it" pagecase

# 4. The same page rendered by headless Chromium (Debian's chromium), its
# DOM checked the same way, and a screenshot.
if ! command -v chromium >/dev/null; then
	skip "the page in headless Chromium: the stuck times and the order, a screenshot" \
		"chromium is not installed (Debian package chromium: make deps BROWSER=1 installs it)"
else
	browser() (
		flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
		       --disable-sync --no-first-run --hide-scrollbars)
		timeout 120 chromium "${flags[@]}" --user-data-dir="$T/chr1" --dump-dom "$URL/" >"$T/dom.html" 2>"$T/chr.err" ||
			{ echo "chromium --dump-dom failed:"; tail -5 "$T/chr.err"; exit 1; }
		"$H" check "$T/runs" "$T/dom.html" || exit 1
		timeout 120 chromium "${flags[@]}" --user-data-dir="$T/chr2" --window-size=1500,1000 \
			--screenshot="$T/room.png" "$URL/" >/dev/null 2>>"$T/chr.err" ||
			{ echo "chromium --screenshot failed:"; tail -5 "$T/chr.err"; exit 1; }
		[ "$(head -c 8 "$T/room.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] &&
			[ "$(stat -c %s "$T/room.png")" -gt 20000 ] || { echo "no screenshot, or an empty one"; exit 1; }
		[ -z "${ROOM_SCREENSHOT:-}" ] || cp "$T/room.png" "$ROOM_SCREENSHOT"
	)
	scenario "the page in headless Chromium: the stuck times and the order, a screenshot" browser
fi

# 5. Hostile posts: without or with a wrong token, a name with a terminal
# escape or a bidi override, too long, too big, a detail too long, an
# escape in a value, a false count: refused; HTML, script, escapes, bidi
# in a FAIL's detail and SQL in a name: stored as given, shown escaped;
# 31 posts of one name in a minute: the last refused.  The room's own
# terminal shows nothing raw.
hostile() (
	"$H" hostile "$URL" "$TOKEN" "$T" || exit 1
	nocontrol "$T/room.out.err" || exit 1
	nocontrol "$T/room.out" || exit 1
)
scenario "hostile posts (no token, HTML, script, escapes, bidi, huge, SQL, too many): refused or shown escaped" hostile

# 6. A restart loses nothing: the same token, every row.
restart() (
	before=$("$H" rows "$URL/" | cut -f1,2 | sort)
	kill "$PID" && wait "$PID" 2>/dev/null
	old=$TOKEN
	room 0 "$T/room2.out" || { echo "it did not start again:"; cat "$T/room2.out.err"; exit 1; }
	[ "$TOKEN" = "$old" ] || { echo "a new token after a restart"; exit 1; }
	[ "$("$H" rows "$URL/" | cut -f1,2 | sort)" = "$before" ] || { echo "the rows changed after a restart"; exit 1; }
	echo "$URL $TOKEN $PID" >"$T/now"
)
scenario "a restart of make room keeps the token and every result" restart
read -r URL TOKEN PID <"$T/now" 2>/dev/null && PIDS+=("$PID")

# 7. The room down: a stand-in lab run (lab.sh's own hook line, a stored
# record, 0.3 s of "grading") is no slower than without a room, the
# room being a port that accepts and never answers; 7 runs each, the
# medians within 0.25 s (the earlier runs' detached senders take some
# CPU on a loaded machine).  SHOW_TIMES=1: the times, as a failure.
standin() {	# standin HOME: one run; its seconds (20: it took 20 s or more, and was stopped)
	local out rc
	out=$(KIT_ROOM_HOME=$1 KIT=$S R=$T/runs/a01/t2.json timeout 20 bash -c '
		hook=$(grep -E "^[[:space:]]*trap .*scripts/room/client.py\" send " "$KIT/scripts/lab/lab.sh" | sed "s/^[[:space:]]*//")
		[ -n "$hook" ] || { echo "no hook in scripts/lab/lab.sh" >&2; exit 1; }
		s=$(date +%s.%N)
		( eval "$hook"; sleep 0.3; exit 1 )
		echo "$(date +%s.%N) - $s" | bc'); rc=$?
	[ $rc -ne 124 ] || out=20
	[ -n "$out" ] && echo "$out"
}
downcase() (
	/usr/bin/python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1); print(s.getsockname()[1], flush=True); time.sleep(120)' >"$T/hole" &
	hole=$!
	for i in $(seq 1 50); do [ -s "$T/hole" ] && break; sleep 0.1; done
	as down join "http://127.0.0.1:$(cat "$T/hole")" "$TOKEN" "Down Under" >/dev/null 2>&1
	mkdir -p "$T/home/none"
	a=() b=()
	for i in 1 2 3 4 5 6 7; do
		x=$(standin "$T/home/none") && y=$(standin "$T/home/down") || exit 1
		a+=("$x") b+=("$y")
	done
	kill $hole
	ma=$(printf '%s\n' "${a[@]}" | sort -n | sed -n 4p) mb=$(printf '%s\n' "${b[@]}" | sort -n | sed -n 4p)
	echo "7 stand-in runs each, median: $ma s without a room, $mb s with the room down (a port that never answers)"
	echo "  without: ${a[*]}"
	echo "  down:    ${b[*]}"
	[ "$(echo "$mb <= $ma + 0.25" | bc)" = 1 ] || { echo "the runs with the room down are slower"; exit 1; }
	[ -n "$SHOW_TIMES" ] && exit 1
	exit 0
)
scenario "a lab run with the room down is no slower than without a room" downcase

# 8. Its result arrives when the room is back: the run's own sender
# tries again (every second here) until the room answers.
backcase() (
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	as late join "http://127.0.0.1:$port" "$TOKEN" "Late Larry" >"$T/late.out" 2>&1
	grep -q 'does not answer yet' "$T/late.out" || { echo "join with the room down:"; cat "$T/late.out"; exit 1; }
	KIT_ROOM_HOME=$T/home/late KIT_ROOM_RETRY=1 KIT_ROOM_FLUSH_FOR=120 \
		setsid -f "$C" send "$T/runs/a02/t2.json" </dev/null >/dev/null 2>&1
	for i in $(seq 1 100); do [ -n "$(ls "$T/home/late/queue" 2>/dev/null)" ] && break; sleep 0.1; done
	[ -n "$(ls "$T/home/late/queue")" ] || { echo "the result was not queued"; exit 1; }
	kill "$PID"; wait "$PID" 2>/dev/null
	room "$port" "$T/room3.out" || { echo "the room did not start on port $port"; cat "$T/room3.out.err"; exit 1; }
	echo "$PID" >"$T/pid3"
	for i in $(seq 1 300); do [ -z "$(ls "$T/home/late/queue")" ] && break; sleep 0.1; done
	[ -z "$(ls "$T/home/late/queue")" ] || { echo "still queued 30 s after the room came back"; exit 1; }
	"$H" rows "$URL/" | grep -q '^Late Larry	lab 2, step 4 of 6' || { echo "not on the page:"; "$H" rows "$URL/" | head -3; exit 1; }
	KIT_ROOM_HOME=$T/home/late BUILD=$T/b "$C" status "$T/none" | grep -q 'The room http://127.0.0.1' ||
		{ echo "make progress does not say the room"; exit 1; }
)
scenario "the result of a run made while the room was down arrives when it is back" backcase
[ -f "$T/pid3" ] && PIDS+=("$(cat "$T/pid3")")
# 9. A run's sender is not the lab's lock: make lab's EXIT trap starts it
# while the lab's lock (fd 8, build/labs/NN/.lock; fd 7, a kernel-side
# lab's) is open, and a sender that kept them would make the next make
# lab N wait for it for as long as the room does not answer (hours).  The
# hook of lab.sh, run under both locks with the room down; while its
# sender still runs, both locks must be free at once.
senders() {	# senders HOME: the pids of client.py processes of that state folder
	local p
	for p in /proc/[0-9]*; do
		tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx "KIT_ROOM_HOME=$1" &&
			grep -qa 'room/client.py' "$p/cmdline" 2>/dev/null && echo "${p#/proc/}"
	done
}
lockcase() (
	/usr/bin/python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1); print(s.getsockname()[1], flush=True); time.sleep(60)' >"$T/hole2" &
	hole=$!
	for i in $(seq 1 50); do [ -s "$T/hole2" ] && break; sleep 0.1; done
	as lockdown join "http://127.0.0.1:$(cat "$T/hole2")" "$TOKEN" "Locked Out" >/dev/null 2>&1
	KIT_ROOM_HOME=$T/home/lockdown KIT_ROOM_FLUSH_FOR=60 L=$T/lab.lock KIT=$S T=$T/runs/a01/t2.txt timeout 20 bash -c '
		hook=$(grep -E "^[[:space:]]*trap .*scripts/room/client.py\" send " "$KIT/scripts/lab/lab.sh" | sed "s/^[[:space:]]*//")
		[ -n "$hook" ] || { echo "no hook in scripts/lab/lab.sh" >&2; exit 1; }
		exec 7>"$L.kernel" 8>"$L"
		flock 7 && flock 8 && eval "$hook"
		exit 0' || { kill $hole; exit 1; }
	for i in $(seq 1 50); do [ -n "$(senders "$T/home/lockdown")" ] && break; sleep 0.1; done
	pids=$(senders "$T/home/lockdown")
	[ -n "$pids" ] || { kill $hole; echo "no sender runs: the case tests nothing"; exit 1; }
	bad=
	for l in "$T/lab.lock" "$T/lab.lock.kernel"; do
		flock -n "$l" true || bad+=" ${l##*/}"
	done
	kill $pids $hole 2>/dev/null
	[ -z "$bad" ] || { echo "the next make lab would wait: the room's sender (pid $pids) holds$bad"; exit 1; }
)
scenario "the room down: a run's sender keeps neither of the lab's locks (the next make lab N does not wait)" lockcase
exit 0
