#!/usr/bin/env bash
# The image's one build step (scripts/image/Containerfile's RUN), in
# /opt/kit/src, the kit's files as make image found them: the kit's
# Debian packages (scripts/deps.sh, the same list as a host's), the
# normal kernel (from the host's kernel-cache entries in kernels/ when
# their toolchain is this image's, else built here, with the host's
# ccache when make image mounts it at /ccache), then what a first run
# seeds an attendee's build/ with, in /opt/kit/seed: the patched tree,
# the stamps that describe it, the apparmor .deb.  The kit's files go:
# the attendee's checkout is mounted at /kit.
set -euo pipefail
src=/opt/kit/src
cd "$src"
export DEBIAN_FRONTEND=noninteractive KIT_KERNEL_CACHE=/opt/kit/kernels
# The host's ccache, mounted by make image (podman): used, never removed.
if mountpoint -q /ccache 2>/dev/null; then export CCACHE_DIR=/ccache; else export CCACHE_DIR=/tmp/ccache; fi
say() { printf 'kit: %s\n' "$*"; }

say "image: the kit's Debian packages"
apt-get update -q >/tmp/apt-update.log 2>&1 || { cat /tmp/apt-update.log; exit 1; }
scripts/deps.sh --install

mkdir -p "$KIT_KERNEL_CACHE"
if compgen -G "$src/kernels/*/done" >/dev/null; then
	say "image: kernel-cache entries from the host: $(cd "$src/kernels" && echo *)"
	mv "$src"/kernels/* "$KIT_KERNEL_CACHE"/
fi
touch /tmp/before-kernels
sleep 1
t=$SECONDS
say "image: the kit's kernel"
nice scripts/kernel.sh
say "image: kernel ready in $((SECONDS - t)) s"
# The entries this build did not use (done older than the build) go.
for e in "$KIT_KERNEL_CACHE"/*/; do
	[ "$e/done" -nt /tmp/before-kernels ] || rm -rf "$e"
done

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
rm -rf "$src" /tmp/* /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
say "image: done"
