#!/usr/bin/env bash
# A Debian 12 base image made without any container registry: debootstrap
# (--variant=minbase) from Debian's archive, apt's sources set as Debian's
# own debian:bookworm image sets them (the main archive, its updates and
# the security archive), then imported into the container engine.  For a
# machine that reaches Debian's archive but no registry (make image
# BASE=NAME); a real user's make image pulls debian:bookworm instead.
#
#   base.sh NAME [DIR]    DIR: where the root is made (default
#                         build/image/bookworm-root, -ARCH for another
#                         architecture; a root already made there,
#                         complete, is reused)
#   ARCH=arm64 base.sh NAME-arm64   the arm64 base of make image
#                         ARCHES=arm64 BASE=NAME, on any machine: on an
#                         x86_64 one debootstrap's second stage runs under
#                         qemu-user (Debian's qemu-user-static, binfmt_misc
#                         mounted), and the root is imported as arm64's
#
# The instructor's tools: debootstrap and podman or docker (Debian
# packages of the same names; as root).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"

name=${1:?usage: base.sh NAME [DIR]}
arch=${ARCH:-$(dpkg --print-architecture 2>/dev/null || echo amd64)}
native=$(dpkg --print-architecture 2>/dev/null || echo amd64)
root=${2:-$BUILD/image/bookworm-root}
[ "$arch" = "$native" ] || [ -n "${2:-}" ] || root=$root-$arch
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
[ "$(id -u)" = 0 ] || die "debootstrap makes a root file system: run it as root." \
	"As root: scripts/image/base.sh $name"
command -v debootstrap >/dev/null ||
	die "debootstrap is not installed (the base image is made with it)." \
	    "As root: apt-get install debootstrap"
engine_pick

# debootstrap's last step writes the root's sources.list: a root without
# it is a half-made one (an interrupted run), made again.
if [ ! -f "$root/etc/apt/sources.list" ] && [ ! -f "$root/etc/apt/sources.list.d/debian.sources" ]; then
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	emul=
	[ "$arch" = "$native" ] || emul=", its second stage under qemu-user"
	say "debootstrap --arch $arch --variant=minbase bookworm into $(rel "$root") (minutes; once$emul)"
	debootstrap --arch "$arch" --variant=minbase bookworm "$root" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1 ||
		die "debootstrap failed (log: $LOGS/debootstrap.log)." \
		    "Check that $MIRROR is reachable, then run this again."
fi
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<SRC
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
say "importing $(rel "$root") as $name"
tar -C "$root" -c . | "$ENGINE" import --arch "$arch" --change 'CMD ["/bin/bash"]' - "$name" >"$LOGS/image-import.log" 2>&1 ||
	die "$ENGINE import failed." "See its message above."
say "base image $name: $("$ENGINE" image inspect --format '{{.Size}}' "$name" | awk '{ printf "%d MB\n", $1 / 1e6 }')"
