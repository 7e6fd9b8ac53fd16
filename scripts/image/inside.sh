#!/usr/bin/env bash
# The image's kernel step (scripts/image/Containerfile), in /opt/kit/src,
# the kit's files as make image found them, after the packages' step: the
# normal kernel, from the host's kernel cache (podman's build mounts it at
# /seed-kernels) when an entry has this image's inputs, toolchain
# included, else built here (with the host's ccache, when mounted at
# /ccache) and kept there too; then what a first run seeds an attendee's build/
# with, in /opt/kit/seed: the patched tree, the stamps that describe it,
# the apparmor .deb.  The kit's files go: the attendee's checkout is
# mounted at /kit.
set -euo pipefail
src=/opt/kit/src
cd "$src"
export KIT_KERNEL_CACHE=/opt/kit/kernels
# The host's ccache, mounted by make image (podman): used, never removed.
if mountpoint -q /ccache 2>/dev/null; then export CCACHE_DIR=/ccache; else export CCACHE_DIR=/tmp/ccache; fi
say() { printf 'kit: %s\n' "$*"; }

# The host's kernel cache (make image mounts it with podman) is the cache
# of this build: an entry with this image's inputs, toolchain included, is
# taken (a second clone's way), and a kernel built here is kept there for
# the next make image.  The image's own cache gets the one used.
cache=$KIT_KERNEL_CACHE
mountpoint -q /seed-kernels 2>/dev/null && cache=/seed-kernels
t=$SECONDS
say "image: the kit's kernel"
KIT_KERNEL_CACHE=$cache nice scripts/kernel.sh
mkdir -p "$KIT_KERNEL_CACHE"
if [ "$cache" != "$KIT_KERNEL_CACHE" ]; then
	for e in "$cache"/normal-*/; do
		if [ -f "$e/done" ] && cmp -s "$e/kbuild/arch/x86/boot/bzImage" build/kbuild/normal/arch/x86/boot/bzImage; then
			cp -a "${e%/}" "$KIT_KERNEL_CACHE/"
			say "image: kernel-cache entry ${e##*/normal-} (kept in the host's cache too)"
		fi
	done
fi
say "image: kernel ready in $((SECONDS - t)) s"

say "image: the seed of an attendee's build/"
seed=/opt/kit/seed
mkdir -p "$seed/stamps" "$seed/deb"
mv build/linux "$seed/linux"
# One pack instead of 80,000 loose objects: a first run copies the tree
# into the attendee's build/ (entry.sh), and one file copies faster.
git -C "$seed/linux" repack -a -d -q --window=0 && git -C "$seed/linux" prune-packed
for s in series series-head tree-mtimes toylsm-mirror; do
	[ ! -f "build/stamps/$s" ] || cp "build/stamps/$s" "$seed/stamps/"
done
cp build/deb/apparmor_*.deb "$seed/deb/"
cp scripts/image/entry.sh /opt/kit/entry.sh

# The checkout is the attendee's, its files another user's: git must
# still read the tree (tree.sh, kernel.sh's stamp).
git config --system safe.directory '*'
# Another user (docker's --user) restores from the cache: it touches done.
chmod 1777 "$KIT_KERNEL_CACHE"
find "$KIT_KERNEL_CACHE" -name 'done' -exec chmod 666 {} +
cd /
rm -rf "$src" /tmp/*
say "image: done"
