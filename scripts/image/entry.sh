#!/usr/bin/env bash
# The kit image's entry point: the attendee's checkout is at /kit; run the
# command given (make lab 1...) there.  On a checkout's first run, its
# build/ gets the patched 6.1 tree the image holds (a copy: seconds, where
# extracting the tarball and committing it takes minutes), with the stamps
# that describe it and the apparmor .deb; the kernel then comes from the
# image's kernel cache (KIT_KERNEL_CACHE), as on a host where another
# clone built it.  If the checkout's patches differ from the image's,
# tree.sh applies them to this tree and the kernel is built (minutes).
set -euo pipefail
say() { printf 'kit: %s\n' "$*"; }
KIT=${KIT_DIR:-/kit}
SEED=${KIT_IMAGE_SEED:-/opt/kit/src/build}

# podman and docker set HOSTNAME to the container's id, a new one per
# container; kernel.sh's stamp and cache key read Kbuild's HOST* variables
# (HOSTCC...) and would take it for a change of the build.
unset HOSTNAME
# docker run --user UID: a user with no home in the image.
if [ -z "${HOME:-}" ] || [ ! -w "$HOME" ]; then
	export HOME=/tmp/kit-home
	mkdir -p "$HOME"
fi

if [ ! -f "$KIT/Makefile" ] || [ ! -f "$KIT/scripts/lib/lib.sh" ]; then
	printf '\nkit: error: %s is not a checkout of the kit (no Makefile, no scripts/lib/lib.sh).\n' "$KIT" >&2
	printf '     Run the image from your checkout, mounted at /kit: scripts/image/run.sh lab 1 (docs/image.md).\n' >&2
	exit 2
fi

# seed: the image's tree into $KIT/build/linux, which does not exist.
seed() {
	local b=$KIT/build s t=$SECONDS
	[ -d "$SEED/linux/.git" ] || return 0
	mkdir -p "$b/stamps" "$b/deb"
	say "first run in this checkout: copying the image's patched 6.1 tree into build/linux (once)"
	rm -rf "$b/linux.seed"
	cp -a "$SEED/linux" "$b/linux.seed"
	# The copy's files have new inodes and ctimes, their mtimes kept:
	# git compares mtime and size only (a generated tree), or its first
	# status (kernel.sh's stamp) would read all 80,000 files again.
	git -C "$b/linux.seed" config core.checkStat minimal
	git -C "$b/linux.seed" config core.trustctime false
	git -C "$b/linux.seed" update-index -q --refresh >/dev/null 2>&1 || true
	# The stamps that describe this tree, not an older one's.
	for s in series series-head tree-mtimes toylsm-mirror; do
		[ ! -f "$SEED/stamps/$s" ] || cp "$SEED/stamps/$s" "$b/stamps/"
	done
	for s in "$SEED"/deb/*.deb; do [ -e "$b/deb/${s##*/}" ] || cp "$s" "$b/deb/"; done
	mv "$b/linux.seed" "$b/linux"
	say "build/linux ready ($((SECONDS - t)) s)"
}
# A build/ on a filesystem that folds case loses one of each pair of the
# tree's paths that differ only in case: refused (scripts/image/run.sh
# keeps such a checkout's build/ in a volume).
# (engine.sh: the image's copy, beside this file; not the checkout's,
# which may be older.)
# shellcheck source=scripts/image/engine.sh
. "$(dirname "$0")/engine.sh"
mkdir -p "$KIT/build"
if folds_case "$KIT/build"; then
	printf '\nkit: error: %s/build is on a filesystem that folds case (xt_connmark.h and xt_CONNMARK.h are one file there): the kernel'"'"'s tree cannot be kept in it.\n' "$KIT" >&2
	printf '     Run the image with scripts/image/run.sh, which keeps such a checkout'"'"'s build/ in a volume of the engine'"'"'s (docs/image.md, "Disk").\n' >&2
	exit 2
fi
[ -d "$KIT/build/linux/.git" ] || seed

# room_flush: make lab sends its result to the room (make join) from a
# detached process, which the container's end would kill.  In the
# container each sender tries once (KIT_ROOM_FLUSH_FOR=0, below; a
# request has KIT_ROOM_TIMEOUT s in all): wait for them, then send what
# still waits (a run whose sender did not start, make progress's queue),
# 3 s in all, so that a room that does not answer costs a run 3 s, not
# more.  What is not sent stays queued on the host (run.sh mounts the
# room's state) for the next run, whose sender sends the whole queue.
room_flush() {
	local end=$((${EPOCHREALTIME/./} + 3000000)) left
	while grep -qsa 'room/client\.py' /proc/[0-9]*/cmdline && [ "${EPOCHREALTIME/./}" -lt $((end - 1000000)) ]; do
		sleep 0.1
	done
	left=$(((end - ${EPOCHREALTIME/./}) / 100000))	# tenths of a second: 1 s at least
	[ "$left" -ge 10 ] || left=10
	timeout "$((left / 10)).$((left % 10))" "$KIT/scripts/room/client.py" flush 0 >/dev/null 2>&1 || true
}

cd "$KIT"
[ -n "${KIT_ROOM_HOME:-}" ] && [ -f "$KIT_ROOM_HOME/join.json" ] || exec "$@"
export KIT_ROOM_FLUSH_FOR=0 KIT_ROOM_TIMEOUT=${KIT_ROOM_TIMEOUT:-3}
rc=0
"$@" || rc=$?
room_flush
exit $rc
