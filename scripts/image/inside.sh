#!/usr/bin/env bash
# The image's kernel step (scripts/image/Containerfile), in /opt/kit/src,
# the kit's files as make image found them, after the packages' and the
# tree's steps: the kernels the labs boot without building them (the
# normal one; bpf, lab 13's, whose build is the longest: 8-15 min), each
# from the host's kernel cache (podman's build mounts it at /seed-kernels)
# when an entry has this image's inputs, toolchain included, else built
# here (with the host's ccache, when mounted at /ccache) and kept there
# too.  Labs 8 and 9 build theirs from the normal one's objects; gdb's and
# the debug and reference kernels are not in the image (docs/image.md).  Then only what a first run
# seeds an attendee's build/ with stays in /opt/kit/src/build: the tree,
# the stamps that describe it, the apparmor .deb (scripts/image/entry.sh).
set -euo pipefail
src=/opt/kit/src
cd "$src"
export KIT_KERNEL_CACHE=/opt/kit/kernels
# The host's ccache, mounted by make image (podman): used, never removed.
if mountpoint -q /ccache 2>/dev/null; then export CCACHE_DIR=/ccache; else export CCACHE_DIR=/tmp/ccache; fi
# An image of another architecture than the machine that builds it (the
# arm64 image on an x86_64 machine, under qemu-user): every program of
# the build is emulated, a compile 14 times the CPU of a native one.  Its
# kernels' objects were compiled natively by make image first
# (scripts/image/seed-ccache.sh), into the mounted ccache, under the
# compilers' identity as ccache reads it here: the target and the release
# (x86_64-linux-gnu 12.2.0, which the seed's and this cross compiler
# share), not the binary's size and time.  What misses (the host
# programs, built for arm64) is compiled here.
if [ "$(uname -m)" != x86_64 ] && [ "$CCACHE_DIR" = /ccache ]; then
	export CCACHE_COMPILERCHECK='%compiler% -dumpmachine -dumpfullversion'
	ccache -z >/dev/null 2>&1 || true
fi
say() { printf 'kit: %s\n' "$*"; }

# The kernels compile under the host's locale (make image passes it:
# KIT_HOST_LOCALE, words of NAME=VALUE), which ccache hashes: else no
# object of the host's ccache is a hit.  A word that is no locale
# variable or value is refused; perl's warning for a locale the image
# has not generated (en_US.UTF-8) is silenced, its fallback is C.
# (tests/host/image.sh runs these lines.)
unset LANG LC_ALL LC_CTYPE LC_MESSAGES
for w in ${KIT_HOST_LOCALE:-}; do
	[[ $w =~ ^(LANG|LC_ALL|LC_CTYPE|LC_MESSAGES)=[A-Za-z0-9_.@-]*$ ]] ||
		{ say "image: error: KIT_HOST_LOCALE: '$w' is no locale setting (NAME=VALUE, NAME one of LANG LC_ALL LC_CTYPE LC_MESSAGES)"; exit 1; }
	export "${w?}"
done
export PERL_BADLANG=0

# The host's kernel cache (make image mounts it with podman) is the cache
# of this build: an entry with this image's inputs, toolchain included, is
# taken (a second clone's way), and a kernel built here is kept there for
# the next make image.  The image's own cache gets the one used.
cache=$KIT_KERNEL_CACHE
mountpoint -q /seed-kernels 2>/dev/null && cache=/seed-kernels
mkdir -p "$KIT_KERNEL_CACHE"
for f in normal bpf; do
	t=$SECONDS
	say "image: the kit's kernel ($f)"
	KIT_KERNEL_CACHE=$cache FLAVOUR=$f scripts/kernel/kernel.sh
	if [ "$cache" != "$KIT_KERNEL_CACHE" ]; then
		for e in "$cache/$f"-*/; do
			e=${e%/}
			if [ -f "$e/done" ] && cmp -s "$e/kbuild/arch/x86/boot/bzImage" "build/kbuild/$f/arch/x86/boot/bzImage"; then
				cp -a "$e" "$KIT_KERNEL_CACHE/"
				say "image: kernel-cache entry ${e##*/} (kept in the host's cache too)"
			fi
		done
	fi
	compgen -G "$KIT_KERNEL_CACHE/$f-*/done" >/dev/null ||
		{ say "image: error: no $f kernel in the image's kernel cache"; exit 1; }
	say "image: kernel ($f) ready in $((SECONDS - t)) s"
done
[ -z "${CCACHE_COMPILERCHECK:-}" ] ||
	say "image: ccache here: $(ccache -s 2>/dev/null | grep -E '^ *(Hits|Misses):' | sed 's/^ *//' | paste -sd';' | tr -s ' ')"

cp scripts/image/entry.sh scripts/image/engine.sh /opt/kit/
# (Read while the kit's files are here: they go next.)
guest_debs=$(. scripts/lib/lib.sh && arch_get debs)
# The seed: build/linux, four stamps, build/deb; the rest goes (the
# attendee's checkout is mounted at /kit).
find "$src" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
find "$src/build" -mindepth 1 -maxdepth 1 ! -name linux ! -name stamps ! -name deb -exec rm -rf {} +
find "$src/build/stamps" -mindepth 1 ! -name series ! -name series-head ! -name tree-mtimes ! -name toylsm-mirror -exec rm -rf {} +
# build/deb: the apparmor .deb, and on another host than x86_64 the guest's
# own (configs/arches.conf's debs: amd64's busybox, lab 13's libraries),
# which make deps in the checkout unpacks (no network in the container).
keep=(! -name 'apparmor_*.deb')
for d in $guest_debs; do keep+=(! -name "${d%%:*}_*_${d#*:}.deb"); done
find "$src/build/deb" -mindepth 1 "${keep[@]}" -exec rm -rf {} +
# The checkout is the attendee's, its files another user's: git must
# still read the tree (tree.sh, kernel.sh's stamp).
git config --system safe.directory '*'
# Another user (docker's --user) restores from the cache: it reads every
# file (Kbuild makes the bpf kernel's certs/signing_key.pem 0600: a
# docker-group user's restore failed on it and compiled the kernel, 436
# s) and touches done.  (tests/host/image.sh runs these chmod lines.)
chmod -R a+rX "$KIT_KERNEL_CACHE"
chmod 1777 "$KIT_KERNEL_CACHE"
find "$KIT_KERNEL_CACHE" -name 'done' -exec chmod 666 {} +
rm -rf /tmp/*
say "image: done"
