#!/usr/bin/env bash
# The image's kernel step (scripts/image/Containerfile), in /opt/kit/src,
# the kit's files as make image found them, after the packages' step: the
# normal kernel, taken from the host's kernel cache (podman's build mounts
# it at /seed-kernels, read-only) when an entry has this image's inputs,
# toolchain included, else built here (with the host's ccache, when
# mounted at /ccache); then what a first run seeds an attendee's build/
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

# The host's entries, linked: kernel.sh takes one whose key is this
# image's; the one it took is copied in below, the links go.
mkdir -p "$KIT_KERNEL_CACHE"
for e in /seed-kernels/normal-*/; do
	[ -f "$e/done" ] && ln -s "${e%/}" "$KIT_KERNEL_CACHE/"
done
t=$SECONDS
say "image: the kit's kernel"
nice scripts/kernel.sh 2> >(grep -v 'cannot touch.*seed-kernels' >&2)
mine=build/kbuild/normal/arch/x86/boot/bzImage
for e in "$KIT_KERNEL_CACHE"/*; do
	[ -L "$e" ] || continue
	l=$(readlink "$e")
	rm "$e"
	if cmp -s "$l/kbuild/arch/x86/boot/bzImage" "$mine"; then
		cp -a "$l" "$e"
		say "image: the kernel is the host's kernel-cache entry ${e##*/}"
	fi
done
say "image: kernel ready in $((SECONDS - t)) s"

say "image: the seed of an attendee's build/"
seed=/opt/kit/seed
mkdir -p "$seed/stamps" "$seed/deb"
mv build/linux "$seed/linux"
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
find "$KIT_KERNEL_CACHE" -name done -exec chmod 666 {} +
cd /
rm -rf "$src" /tmp/*
say "image: done"
