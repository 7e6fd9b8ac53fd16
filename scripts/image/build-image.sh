#!/usr/bin/env bash
# make image: the kit's OCI image, tagged $KIT_IMAGE (localhost/kit-lsm:
# latest), from scripts/image/Containerfile: Debian 12, the kit's Debian
# packages, its built kernel (docs/image.md).  BASE=IMAGE builds on a
# local Debian 12 image instead of pulling debian:bookworm (a machine that
# reaches no registry: scripts/image/base.sh makes one with debootstrap).
#
# What the build reuses from this host, with podman: its kernel cache
# (an entry whose inputs, toolchain included, are the image's is taken,
# as another clone's is on a host; a kernel built is kept there) and its
# ccache (a kernel the image must build is then mostly look-ups); neither
# goes into the image but the entry it takes.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"
. "$KIT/scripts/image/pin.sh"

engine_arch
engine_pick
engine_limits
base=${BASE:-docker.io/library/debian:bookworm}
if [ -n "${BASE:-}" ] && ! "$ENGINE" image exists "$base" >/dev/null 2>&1 &&
   ! "$ENGINE" image inspect "$base" >/dev/null 2>&1; then
	die "BASE=$base: no such image in $ENGINE." \
	    "Make one without a registry: scripts/image/base.sh $base (as root; debootstrap), or leave BASE unset to pull debian:bookworm."
fi
engine_runtime "$base"
engine_build_net "$base"

ctx=$BUILD/image/context
say "image: build context $(rel "$ctx") (the kit's files, without build/ and .git)"
rm -rf "$ctx" && mkdir -p "$ctx"
tar -C "$KIT" --exclude=./build --exclude=./.git -cf - . | tar -C "$ctx" -xf -

# podman: the host's kernel cache and ccache, for the kernel step (which
# keeps the kernel it builds in that cache: the next make image takes it);
# docker's build mounts nothing, and builds its kernel cold.
vols=()
if [ "$ENGINE" = podman ]; then
	cache=${KIT_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kit-kernels}
	mkdir -p "$cache" && vols+=(-v "$cache:/seed-kernels")
	cc=$(ccache --get-config cache_dir 2>/dev/null || true)
	[ -z "$cc" ] || [ ! -d "$cc" ] || vols+=(-v "$cc:/ccache")
fi

# The pin (scripts/image/pin.sh), read from the checkout the context is.
commit=$(pin_commit "$KIT") version=$(pin_version "$KIT") sources=$(pin_sources "$KIT") dirty=$(pin_dirty "$KIT")
[ "$dirty" = no ] || say "image: WARNING: patches/, demo-lsm/, configs/ or the kernel scripts have uncommitted changes: no clone of $commit has this image's kernels (commit them, tag, then make image again)"
say "image: building $KIT_IMAGE with $ENGINE from $base (log: $(rel "$LOGS")/image-build.log)"
t=$SECONDS
rc=0
"$ENGINE" build -f "$KIT/scripts/image/Containerfile" --build-arg "BASE=$base" \
	--build-arg "KIT_COMMIT=$commit" --build-arg "KIT_VERSION=$version" \
	--build-arg "KIT_SOURCES=$sources" --build-arg "KIT_DIRTY=$dirty" \
	--build-arg "KIT_PACKAGES=$(pin_packages "$KIT")" -t "$KIT_IMAGE" \
	${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} ${ENGINE_NET[@]+"${ENGINE_NET[@]}"} \
	${vols[@]+"${vols[@]}"} "$ctx" >"$LOGS/image-build.log" 2>&1 &
pid=$!
tail -n +1 -f --pid=$pid "$LOGS/image-build.log" 2>/dev/null | grep --line-buffered '^kit: ' || true
wait $pid || rc=$?
rm -rf "$ctx"
if [ $rc != 0 ]; then
	tail -30 "$LOGS/image-build.log" >&2
	die "$ENGINE build failed (the log's end above; all of it: $LOGS/image-build.log)." \
	    "The first error in the log is the one to fix."
fi
size=$("$ENGINE" image inspect --format '{{.Size}}' "$KIT_IMAGE")
say "image $KIT_IMAGE ready: $((size / 1000000)) MB, built in $((SECONDS - t)) s; the kit at $version ($commit), kernel sources $sources"
say "run a lab in it: scripts/image/run.sh lab 1   (docs/image.md); one file for a USB stick: make image-save OUT=FILE"
