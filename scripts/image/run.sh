#!/usr/bin/env bash
# Run the kit in its image, this checkout mounted at /kit: any make target.
#
#   scripts/image/run.sh lab 1            make lab 1 in the image
#   scripts/image/run.sh lab 1 SOLUTION=1
#   scripts/image/run.sh                  a shell in the image, at /kit
#   scripts/image/run.sh load FILE [SHA256]   load make image-save's file, its
#                                         digest checked first (FILE.sha256
#                                         beside it, or SHA256 given)
#
# podman (rootless too) or docker; KIT_ENGINE picks one, KIT_IMAGE another
# image (else the kit's for this machine's architecture, amd64 or arm64:
# localhost/kit-lsm:ARCH, or :latest when it is of that architecture).  The container has no network (the kit needs none; KIT_NETWORK=1
# keeps the engine's, and so does a checkout that joined a room), is removed
# when it ends, and gets /dev/kvm when this user may use it.  What this
# host needs besides (docs/image.md) is found here, not asked for: runc
# where the default runtime cannot start a container, the current
# rlimits where nothing may raise one.  Written for bash 3.2 too (macOS).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"
. "$KIT/scripts/image/pin.sh"
. "$KIT/scripts/lib/handed.sh"

engine_arch
engine_pick

# load FILE [SHA256]: the file checked (scripts/lib/handed.sh: a plain
# file, its SHA-256 the one beside it or given), then loaded.
if [ "${1:-}" = load ]; then
	[ -n "${2:-}" ] || die "run.sh load needs the image's file." "scripts/image/run.sh load kit-image-VERSION-amd64.tar.gz (its .sha256 beside it)"
	handed_file "$2" "the image's file" "${3:-${SHA256:-}}"
	say "loading it into $ENGINE (a minute or two; no network)"
	t=$SECONDS
	"$ENGINE" load -i "$2" >"$LOGS/image-load.log" 2>&1 || {
		tail -5 "$LOGS/image-load.log" >&2
		die "$ENGINE load failed (its message above; all of it: $LOGS/image-load.log)." \
		    "The file's digest was right: what the engine says is the cause. If it is the space where $ENGINE keeps its images, make doctor says how much is free there."
	}
	say "loaded in $((SECONDS - t)) s"
fi

# The image of this machine's architecture (one name: localhost/kit-lsm,
# tagged :amd64, :arm64 and :latest; pin.sh's pin_image), or what to load.
pin_image "$ENGINE"
# shellcheck disable=SC2153 # pin_image (pin.sh) sets it
KIT_IMAGE=$PIN_IMAGE
[ -z "$PIN_IMAGE_OTHER" ] || die "$ENGINE has the kit's image for $PIN_IMAGE_OTHER only, and this machine is $(pin_arch)." "$(pin_other_advice)"
"$ENGINE" image inspect "$KIT_IMAGE" >/dev/null 2>&1 ||
	die "$ENGINE has no image $KIT_IMAGE." \
	    "Load the file you were given: scripts/image/run.sh load FILE (its digest is checked; no network needed), or build it: make image."

# The pin (scripts/image/pin.sh): does this checkout boot the image's
# kernels?  If not, the container builds them: said before it starts,
# and it starts only when accepted (KIT_IMAGE_BUILD=1, remembered for
# this pair of image and sources in build/image-build-ok).
pin_compare "$ENGINE" "$KIT_IMAGE" "$KIT"
if [ -n "$PIN_MISSING" ]; then
	if [ "${1:-}" = load ] || [ $# = 0 ]; then say "WARNING: $(pin_missing_advice)"
	else die "this checkout needs Debian packages that the image does not have." "$(pin_missing_advice)"
	fi
fi
case $PIN_STATE in
same) [ "${1:-}" != load ] || say "the image is the kit at ${PIN_IMAGE_VERSION:-?} ($PIN_IMAGE_COMMIT): this checkout boots its kernels; next: scripts/image/run.sh lab 1" ;;
unknown) say "note: $KIT_IMAGE carries no digest of its kernels' sources (an image made before the pin): whether this checkout boots its kernels or builds them is not known" ;;
differ)
	ok=$BUILD/image-build-ok pair="$PIN_IMAGE_SOURCES $PIN_SOURCES_NOW"
	if [ "${1:-}" = load ]; then
		say "WARNING: $(pin_advice "$KIT")"
	elif [ "${KIT_IMAGE_BUILD:-0}" = 1 ]; then
		printf '%s\n' "$pair" >"$ok"
		say "this checkout's kernel sources differ from the image's: the container builds its kernels (accepted, KIT_IMAGE_BUILD=1)"
	elif [ -f "$ok" ] && [ "$(cat "$ok")" = "$pair" ]; then
		say "this checkout's kernel sources differ from the image's: its kernels are built in the container (accepted before: $ok)"
	elif [ $# -gt 0 ]; then
		die "this checkout's kernel sources are not the image's." "$(pin_advice "$KIT")"
	fi ;;
esac
[ "${1:-}" != load ] || exit 0

engine_limits
engine_runtime "$KIT_IMAGE"

flags=(--rm -i -v "$KIT:/kit" --security-opt label=disable)
# An image of another architecture than this machine's, named with
# KIT_IMAGE (the arm64 image tried on an x86_64 machine, under qemu-user
# through binfmt_misc: docs/image.md, "Apple silicon"): its platform said,
# as the engine wants it.
iarch=$("$ENGINE" image inspect --format '{{.Architecture}}' "$KIT_IMAGE" 2>/dev/null || true)
[ -z "$iarch" ] || [ "$iarch" = "$(pin_arch)" ] || flags+=(--platform "linux/$iarch")
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
# A checkout on a filesystem that folds case: build/ (the kernel's tree,
# objects and headers) kept off it, in a volume of the engine's, one per
# checkout (the engine's storage folds no case: on a Mac, podman machine's
# Linux disk); entry.sh refuses a build/ that folds.
if folds_case "$BUILD"; then
	vol=kit-build-$(printf '%s' "$KIT" | pin_sha256 | cut -c1-12)
	if ! "$ENGINE" volume inspect "$vol" >/dev/null 2>&1; then
		"$ENGINE" volume create "$vol" >/dev/null
		# A rootful docker's volume is root's; the run is the user's.
		[ "$ENGINE" != docker ] || [ "$(id -u)" = 0 ] ||
			"$ENGINE" run --rm --user 0 --network none --entrypoint chown -v "$vol:/v" "$KIT_IMAGE" "$(id -u):$(id -g)" /v >/dev/null
	fi
	flags+=(-v "$vol:/kit/build")
	say "this checkout is on a filesystem that folds case: its build/ is kept in $ENGINE's volume $vol, not in the checkout (docs/image.md, \"Disk\"; $ENGINE volume rm $vol frees it)"
fi
# Rootful docker: the container's root would own what it writes in the
# checkout; run as this user instead (rootless engines map root to it).
user=
if [ "$ENGINE" = docker ] && [ "$(id -u)" != 0 ] &&
   ! docker info --format '{{.SecurityOptions}}' 2>/dev/null | grep -q rootless; then
	user=1
	flags+=(--user "$(id -u):$(id -g)")
fi
# KVM, when this user may use it: the device, and the group that opens it
# (--user's process has no supplementary group; a rootless podman keeps
# the user's with keep-groups, which runc does not know).
kvm=${KIT_KVM_DEV:-/dev/kvm}
if [ -r "$kvm" ] && [ -w "$kvm" ]; then
	flags+=(--device "$kvm:/dev/kvm")
	if [ -n "$user" ]; then
		flags+=(--group-add "$(stat -c %g "$kvm")")
	elif [ "$ENGINE" = podman ] && [ "$(id -u)" != 0 ] && [[ " ${ENGINE_FLAGS[*]-} " != *" runc "* ]]; then
		flags+=(--group-add keep-groups)
	fi
fi
if [ $# -eq 0 ]; then set -- bash; else set -- make "$@"; fi
exec "$ENGINE" run ${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "${flags[@]}" "$KIT_IMAGE" "$@"
