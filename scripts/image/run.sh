#!/usr/bin/env bash
# Run the kit in its image, this checkout mounted at /kit: any make target.
#
#   scripts/image/run.sh lab 1            make lab 1 in the image
#   scripts/image/run.sh lab 1 SOLUTION=1
#   scripts/image/run.sh                  a shell in the image, at /kit
#
# podman (rootless too) or docker; KIT_ENGINE picks one, KIT_IMAGE another
# image.  The container has no network (the kit needs none; KIT_NETWORK=1
# keeps the engine's, and so does a checkout that joined a room), is removed
# when it ends, and gets /dev/kvm when this user may use it.  What this
# host needs besides (docs/image.md) is found here, not asked for: runc
# where the default runtime cannot start a container, the current
# rlimits where nothing may raise one.  Written for bash 3.2 too (macOS).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"

engine_arch
engine_pick
"$ENGINE" image inspect "$KIT_IMAGE" >/dev/null 2>&1 ||
	die "$ENGINE has no image $KIT_IMAGE." \
	    "Load the file you were given: $ENGINE load -i FILE (no network needed), or build it: make image."
engine_limits
engine_runtime "$KIT_IMAGE"

flags=(--rm -i -v "$KIT:/kit" --security-opt label=disable)
# The room (make join, scripts/room/): the attendee's join record and the
# results waiting for the room stay on this host, where a run without the
# image keeps them (record.py's state_dir), so that they outlive the
# container; entry.sh sends what waits before the container ends.
room=${KIT_ROOM_HOME:-${XDG_STATE_HOME:-$HOME/.local/state}/lsm-kit/room}
mkdir -p "$room" && chmod 700 "$room"
flags+=(-v "$room:/kit-room" -e KIT_ROOM_HOME=/kit-room -e "KIT_ROOM_SHOWN=$room")
# No network: the kit needs none, but for the room (make join, and every
# run of a checkout that joined one: its results go there).  KIT_NETWORK=1
# keeps the engine's for anything, for what fetches (make bundle in the
# image: KIT_NETWORK=1 run.sh bundle OUT=...).
net=${KIT_NETWORK:-0}
{ [ -f "$room/join.json" ] || [ "${1:-}" = join ]; } && net=1
[ "$net" = 1 ] || flags+=(--network none)
[ -t 0 ] && [ -t 1 ] && flags+=(-t)
[ -r /dev/kvm ] && [ -w /dev/kvm ] && flags+=(--device /dev/kvm)
# Rootful docker: the container's root would own what it writes in the
# checkout; run as this user instead (rootless engines map root to it).
if [ "$ENGINE" = docker ] && [ "$(id -u)" != 0 ] &&
   ! docker info --format '{{.SecurityOptions}}' 2>/dev/null | grep -q rootless; then
	flags+=(--user "$(id -u):$(id -g)")
fi
if [ $# -eq 0 ]; then set -- bash; else set -- make "$@"; fi
exec "$ENGINE" run ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "${flags[@]}" "$KIT_IMAGE" "$@"
