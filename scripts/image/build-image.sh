#!/usr/bin/env bash
# make image: the kit's OCI image, from scripts/image/Containerfile: Debian
# 12, the kit's Debian packages, its built kernels (docs/image.md).  One
# name for every architecture, tagged localhost/kit-lsm:ARCH, and :latest
# for this machine's own; ARCHES="amd64 arm64" (dpkg's names, rows of
# configs/arches.conf) makes each (default: this machine's; another
# architecture's is built under qemu-user through binfmt_misc, Debian's
# qemu-user-static, and its kernels' objects are first compiled here,
# natively: scripts/image/seed-ccache.sh).  BASE=IMAGE builds on a local
# Debian 12 image instead of pulling debian:bookworm (a machine that
# reaches no registry: scripts/image/base.sh makes one with debootstrap;
# another architecture's base is IMAGE-ARCH, ARCH=arm64 base.sh makes it).
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
hostarch=$(pin_arch)
read -ra arches <<<"${ARCHES:-$hostarch}"
for a in "${arches[@]}"; do
	arch_names | grep -qx -- "$a" ||
		die "ARCHES=${ARCHES:-}: '$a' is no architecture of configs/arches.conf." "Its architectures: $(arch_names | xargs)."
	[ "$a" = "$hostarch" ] || [ "$ENGINE" = podman ] ||
		die "the $a image is built here under emulation with podman only (its build mounts this host's ccache, which the native seed fills)." "Install podman, or build the $a image on a $a machine."
done

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

ctx=$BUILD/image/context
say "image: build context $(rel "$ctx") (the kit's files, without build/ and .git)"
rm -rf "$ctx" && mkdir -p "$ctx"
tar -C "$KIT" --exclude=./build --exclude=./.git -cf - . | tar -C "$ctx" -xf -

# The locale the host's kernels were compiled under: ccache hashes LANG,
# LC_ALL, LC_CTYPE and LC_MESSAGES (a compiler's messages follow them), so
# a kernel step without the host's misses every object the host's ccache
# holds (seen: a build's 25 minutes of misses, the host's LANG=C.UTF-8,
# the step's none).  inside.sh compiles under these.
locale=$(env | grep -E '^(LANG|LC_ALL|LC_CTYPE|LC_MESSAGES)=' | LC_ALL=C sort | paste -sd' ' || true)

# The pin (scripts/image/pin.sh), read from the checkout the context is.
commit=$(pin_commit "$KIT") version=$(pin_version "$KIT") sources=$(pin_sources "$KIT") dirty=$(pin_dirty "$KIT")
[ "$dirty" = no ] || say "image: WARNING: patches/, demo-lsm/, configs/ or the kernel scripts have uncommitted changes: no clone of $commit has this image's kernels (commit them, tag, then make image again)"

# build ARCH TAG [TARGET]: podman/docker build of the Containerfile for
# ARCH (its stage TARGET only, when given), tagged TAG; the log's kit:
# lines on the terminal.
build() {
	local a=$1 tag=$2 target=${3:-} rc=0 pid
	local opts=(--platform "linux/$a" --build-arg "BASE=$base")
	[ -z "$target" ] || opts+=(--target "$target")
	"$ENGINE" build -f "$KIT/scripts/image/Containerfile" "${opts[@]}" \
		--build-arg "KIT_COMMIT=$commit" --build-arg "KIT_VERSION=$version" \
		--build-arg "KIT_SOURCES=$sources" --build-arg "KIT_DIRTY=$dirty" \
		--build-arg "KIT_HOST_LOCALE=$locale" \
		--build-arg "KIT_PACKAGES=$(pin_packages "$KIT" "$a")" -t "$tag" \
		${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} ${ENGINE_NET[@]+"${ENGINE_NET[@]}"} \
		${vols[@]+"${vols[@]}"} "$ctx" >>"$LOGS/image-build-$a.log" 2>&1 &
	pid=$!
	tail -n +1 -f --pid=$pid "$LOGS/image-build-$a.log" 2>/dev/null | grep --line-buffered '^kit: ' || true
	wait $pid || rc=$?
	if [ $rc != 0 ]; then
		tail -30 "$LOGS/image-build-$a.log" >&2
		die "$ENGINE build of the $a image failed (the log's end above; all of it: $LOGS/image-build-$a.log)." \
		    "The first error in the log is the one to fix."
	fi
}

name=${KIT_IMAGE%:*}
for a in "${arches[@]}"; do
	base=${BASE:-docker.io/library/debian:bookworm}
	[ -z "${BASE:-}" ] || [ "$a" = "$hostarch" ] || base=$BASE-$a
	if [ -n "${BASE:-}" ] && ! "$ENGINE" image exists "$base" >/dev/null 2>&1 &&
	   ! "$ENGINE" image inspect "$base" >/dev/null 2>&1; then
		die "BASE=$BASE: no image $base (the $a one) in $ENGINE." \
		    "Make one without a registry: ARCH=$a scripts/image/base.sh $base (as root; debootstrap), or leave BASE unset to pull debian:bookworm."
	fi
	# The probes run a container of the base, of its architecture; the
	# runtime they find (runc here) is kept for the build.
	ENGINE_FLAGS+=(--platform "linux/$a")
	engine_runtime "$base"
	engine_build_net "$base"
	f=()
	for w in "${ENGINE_FLAGS[@]}"; do [ "$w" = --platform ] || [ "$w" = "linux/$a" ] || f+=("$w"); done
	ENGINE_FLAGS=(${f[@]+"${f[@]}"})
	: >"$LOGS/image-build-$a.log"
	t=$SECONDS
	if [ "$a" != "$hostarch" ]; then
		# Another architecture: its packages' stage first, whose cross
		# compiler's version line the native seed of its kernels' objects
		# gives Kbuild (scripts/image/seed-ccache.sh).
		say "image: the $a image is built under emulation (qemu-user): its packages first (log: $(rel "$LOGS")/image-build-$a.log)"
		build "$a" "$name:$a-deps" deps
		# shellcheck disable=SC2016 # the container's shell expands it
		cctext=$("$ENGINE" run --rm --platform "linux/$a" --network none --entrypoint bash \
			${ENGINE_FLAGS[@]+"${ENGINE_FLAGS[@]}"} "$name:$a-deps" -c '. /opt/kit/src/scripts/lib/lib.sh && LC_ALL=C "${CROSS_COMPILE}gcc" --version | head -1')
		[ -z "${cc:-}" ] || CCACHE_DIR=$cc "$KIT/scripts/image/seed-ccache.sh" "$a" "$cctext"
	fi
	say "image: building $name:$a with $ENGINE from $base (log: $(rel "$LOGS")/image-build-$a.log)"
	build "$a" "$name:$a"
	[ "$a" != "$hostarch" ] || "$ENGINE" tag "$name:$a" "$KIT_IMAGE"
	size=$("$ENGINE" image inspect --format '{{.Size}}' "$name:$a")
	say "image $name:$a ready: $((size / 1000000)) MB, built in $((SECONDS - t)) s; the kit at $version ($commit), kernel sources $sources"
done
rm -rf "$ctx"
say "run a lab in it: scripts/image/run.sh lab 1   (docs/image.md); one file per architecture for a USB stick: make image-save OUT=DIR"
