#!/usr/bin/env bash
# make gdb: the guest under gdb.  The debug-info kernel (FLAVOUR=gdb:
# kit.config + configs/gdb.config, build/kbuild/gdb) boots with QEMU's gdb
# stub on a unix socket (build/run/gdb.sock), its CPUs stopped before the
# first instruction; gdb starts on the host with that build's vmlinux, the
# kernel's own helpers (vmlinux-gdb.py: lx-dmesg, lx-ps, lx-symbols...)
# and the kit's (scripts/debug/gdb-lsm.py: lsm hooks, lsm active, lsm task,
# lsm toylsm), prints a short banner and waits for you.
#
#   make gdb [CMD='...'] [APPEND='...']   one terminal: the guest runs CMD
#                      (default: a few commands that open files) in the
#                      background, its output in build/logs/guest-gdb.out,
#                      its console in build/logs/guest-gdb.log; gdb here
#   make gdb GUEST=1 [CMD='...']          two terminals, the first: the
#                      guest alone, its console here (a shell without CMD),
#                      waiting for gdb
#   make gdb ATTACH=1                     two terminals, the second: gdb,
#                      attached to the guest of the first
#
# Environment: FLAVOUR (gdb, the default, or another flavour with the
# kernel's gdb helpers, scripts_gdb in its row of configs/flavours.conf:
# lab-gdb for make lab N GDB=1, which builds that kernel first), KIT_NOBUILD=1 (the kernel is built already: lab.sh,
# the test), GDB_BINS (guest programs, space separated, to /kit/bin),
# GDB_BATCH=FILE (gdb runs FILE's commands in batch mode, then the guest
# gets a minute to finish; exit status gdb's), GDB_VMLINUX (another
# vmlinux, e.g. one without DWARF: the test's case of missing symbols),
# ACCEL, TIMEOUT.
set -euo pipefail
[ "${FLAVOUR:-normal}" != normal ] || FLAVOUR=gdb
. "$(dirname "$0")/../lib/lib.sh"
flavour_use "$FLAVOUR"
[[ " $(flavour_get "$FLAVOUR" targets) " == *" scripts_gdb "* ]] ||
	die "make gdb boots a debug-info kernel with the kernel's gdb helpers: FLAVOUR=gdb (the default) or lab-gdb (make lab 8 GDB=1), not '$FLAVOUR'." \
	    "Leave FLAVOUR out (configs/flavours.conf: a flavour whose targets have scripts_gdb)."

SOCK=$BUILD/run/gdb.sock
NAME=gdb

# The debugger of the guest's x86_64 vmlinux: gdb, or on another host
# gdb-multiarch (configs/arches.conf; lib.sh's GUEST_GDB).
command -v "$GUEST_GDB" >/dev/null ||
	die "$GUEST_GDB is not installed." "Run make deps (as root), or: apt-get install $GUEST_GDB"

# The guest's command when none is given: a few opens, so that a
# breakpoint in a file hook has something to stop at.
DEFAULT_CMD='cat /sys/kernel/security/lsm; echo; cat /proc/self/attr/current; echo; ls /kit/bin'

BINS=()
for b in ${GDB_BINS:-}; do BINS+=(--bin "$b"); done

start_guest() {	# start_guest [--shell]: run-guest.sh with the stub; does not return
	mkdir -p "$BUILD/run"
	if [ "${1:-}" = --shell ]; then
		exec "$KIT/scripts/guest/run-guest.sh" --name "$NAME" --gdb "$SOCK" --shell "${BINS[@]}"
	fi
	exec "$KIT/scripts/guest/run-guest.sh" --name "$NAME" --gdb "$SOCK" \
		--cmd "${CMD:-$DEFAULT_CMD}" "${BINS[@]}"
}

# The gdb command line: the debug-info vmlinux of this flavour's build
# folder (next to it, the vmlinux-gdb.py that CONFIG_GDB_SCRIPTS links),
# the kernel's helpers and the kit's, then the stub.  kernel.sh compiles
# it with the output folder named /kit-kbuild (a ccache matter): gdb finds
# the sources through the real folder.
gdb_args() {
	local vmlinux=${GDB_VMLINUX:-$KOUT/vmlinux}
	[ -f "$vmlinux" ] && [ -f "$KOUT/vmlinux-gdb.py" ] ||
		die "no debug-info kernel at $(rel "$KOUT") (vmlinux and vmlinux-gdb.py)." \
		    "Run make gdb (it builds it), or make kernel FLAVOUR=$FLAVOUR."
	GDB=("$GUEST_GDB" -q -nx
	     -iex "set auto-load safe-path $KOUT:$TREE/scripts/gdb"
	     -iex "set pagination off"
	     -iex "set confirm off"
	     -iex "set substitute-path /kit-kbuild $KOUT"
	     -ex "file $vmlinux")
	# The kernel's helpers: auto-loaded next to $KOUT/vmlinux; sourced
	# when another vmlinux is given.
	[ "$vmlinux" -ef "$KOUT/vmlinux" ] || GDB+=(-ex "source $KOUT/vmlinux-gdb.py")
	GDB+=(
	     -ex "source $KIT/scripts/debug/gdb-lsm.py"
	     -ex "target remote $SOCK")
}

banner() {
	mkdir -p "$BUILD/run"
	cat >"$BUILD/run/gdb-banner.txt" <<EOF
kit: gdb is attached to the guest ($FLAVOUR kernel), stopped before its first
     instruction. The kernel's helpers (lx-dmesg, lx-ps...) and the kit's
     (help lsm) are loaded.
       break security_file_open       stop in a hook (or a module's:
                                      break toylsm_file_open)
       continue (c)                   run the guest; Ctrl-C stops it again
       bt, info args, finish, next    where it stopped, and step
       lsm hooks file_open            the modules on a hook, in walk order
       lsm active | lsm task | lsm toylsm   modules and slots, a task's
                                      interface LSM and secids, toylsm
       quit (q)                       leave gdb; the guest is stopped
EOF
	if [ "${1:-}" = one ]; then
		cat >>"$BUILD/run/gdb-banner.txt" <<EOF
     The guest runs: ${CMD:-$DEFAULT_CMD}
     Its output: $(rel "$LOGS/guest-$NAME.out"); its console: $(rel "$LOGS/guest-$NAME.log")
     (tail -f them in another terminal, or see docs/gdb.md for two terminals).
EOF
	fi
}
# After the connection, so that it is the last thing above the prompt.
banner_args() { GDB+=(-ex "python print(open('$BUILD/run/gdb-banner.txt').read(), end='')"); }

wait_socket() {	# wait_socket PID: until the stub listens (or the guest died)
	local _
	for _ in $(seq 1 600); do
		[ -S "$SOCK" ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

if [ "${GUEST:-0}" = 1 ]; then
	[ "${KIT_NOBUILD:-0}" = 1 ] || "$KIT/scripts/kernel/kernel.sh" --flavour "$FLAVOUR"
	say "the guest waits for gdb on $(rel "$SOCK"). In another terminal, in $(rel "$KIT")/: make gdb ATTACH=1"
	if [ -z "${CMD:-}" ]; then
		say "then its shell is here (leave: exit, or Ctrl-A then X)"
		start_guest --shell
	fi
	start_guest
fi

if [ "${ATTACH:-0}" = 1 ]; then
	[ -S "$SOCK" ] ||
		die "no guest waits for gdb ($(rel "$SOCK") is not there)." \
		    "Start one first, in another terminal: make gdb GUEST=1"
	gdb_args
	banner
	banner_args
	exec "${GDB[@]}"
fi

# One terminal: the guest in the background, in a session of its own so
# that Ctrl-C (which stops the guest through gdb) does not reach QEMU.
[ "${KIT_NOBUILD:-0}" = 1 ] || "$KIT/scripts/kernel/kernel.sh" --flavour "$FLAVOUR"
gdb_args
mkdir -p "$BUILD/run"
rm -f "$SOCK"
setsid "$KIT/scripts/guest/run-guest.sh" --name "$NAME" --gdb "$SOCK" --quiet \
	--cmd "${CMD:-$DEFAULT_CMD}" "${BINS[@]}" >"$BUILD/run/gdb-guest.txt" 2>&1 &
guest=$!
stop_guest() {
	local pidf=$BUILD/run/$NAME/qemu.pid
	if kill -0 "$guest" 2>/dev/null && [ -f "$pidf" ]; then
		kill "$(cat "$pidf")" 2>/dev/null || true
	fi
	wait "$guest" 2>/dev/null || true
}
trap stop_guest EXIT
if ! wait_socket "$guest"; then
	cat "$BUILD/run/gdb-guest.txt" >&2 || true
	die "the guest did not start its gdb stub (above)." "See $(rel "$LOGS/guest-$NAME.log")."
fi
rc=0
if [ -n "${GDB_BATCH:-}" ]; then
	"${GDB[@]}" -batch -x "$GDB_BATCH" </dev/null || rc=$?
else
	banner one
	banner_args
	"${GDB[@]}" || rc=$?
fi
# A batch (the test) leaves the guest running to its end: give it a minute.
if [ -n "${GDB_BATCH:-}" ] && [ $rc = 0 ]; then
	for _ in $(seq 1 600); do kill -0 "$guest" 2>/dev/null || break; sleep 0.1; done
fi
# gdb has left: a guest that is still running was stopped by it.
if kill -0 "$guest" 2>/dev/null; then
	stop_guest
	say "gdb has left; the guest was stopped (its output: $(rel "$LOGS/guest-$NAME.out"))."
else
	wait "$guest" && g=0 || g=$?
	cat "$BUILD/run/gdb-guest.txt"
	say "the guest finished (run-guest.sh status $g); its output: $(rel "$LOGS/guest-$NAME.out")"
fi
exit "$rc"
