#!/usr/bin/env bash
# The objects of another architecture's image's kernels, compiled here,
# natively, into ccache, before that image's build compiles them under
# qemu-user (make image ARCHES=arm64 on an x86_64 machine: every program
# of that build is emulated, a compile 14 times the CPU of a native one,
# docs/image.md, "Apple silicon").  Usage (build-image.sh runs it):
#
#   seed-ccache.sh ARCH 'CC VERSION LINE'   (CCACHE_DIR: the ccache the
#                                            image's build mounts)
#
# The image's kernel step (scripts/image/inside.sh, on ARCH) runs Kbuild
# itself, with ARCH's cross toolchain to x86_64 (configs/arches.conf), and
# its ccache finds each object compiled here when everything ccache hashes
# is the same: the compiler's identity, which both sides give ccache as
# its target and release (CCACHE_COMPILERCHECK: x86_64-linux-gnu 12.2.0
# here and there; Debian's amd64 gcc-12 12.2.0-14+deb12u1 differs from the
# arm64 cross compiler's 12.2.0-14 by one AArch64 stack-protector fix,
# CVE-2023-4039, and the code they make is the same); the command line
# (the same cross prefix, x86_64-linux-gnu-, which on an x86_64 host names
# its own gcc); the sources and headers, and among them the configuration,
# which records the compiler's version line (CONFIG_CC_VERSION_TEXT): given
# here as the image's compiler prints it (make image asks the image's
# packages' stage), on Kbuild's command line; the paths, relative to the
# kit (CCACHE_BASEDIR), with the image's layout (build/linux,
# build/kbuild/FLAVOUR); ccache's namespace for ARCH; and the locale,
# which ccache hashes (make image gives the image's step this host's:
# KIT_HOST_LOCALE, scripts/image/inside.sh).  The host programs
# (fixdep, objtool) are not seeded: ARCH's own, compiled in the image.
# The seed's Kbuild folders are build/kbuild/seed-ARCH-FLAVOUR (kept: a
# second make image recompiles nothing); kernel.sh --seed-for makes them,
# the one script that configures and builds a kernel.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
arch=${1:?usage: seed-ccache.sh ARCH 'CC VERSION LINE'} text=${2:?usage: seed-ccache.sh ARCH 'CC VERSION LINE'}
[ "$HOST_ARCH" = amd64 ] || die "seed-ccache.sh compiles the x86_64 guest's kernel natively: run it on an x86_64 host." ""
# ARCH's cross prefix (configs/arches.conf), and the compiler of that name
# here: this host's own gcc, under the triplet's name.
prefix=$(arch_row_get "$arch" cross)
if [ -z "$prefix" ] || [ "$("${prefix}gcc" -dumpmachine 2>/dev/null)" != "${prefix%-}" ]; then
	die "this host has no ${prefix:-(no prefix)}gcc making ${prefix%-} code (the $arch row's cross prefix, configs/arches.conf)." ""
fi
cc=${prefix}gcc
[[ $text =~ ^$cc\ \(Debian\ [0-9][0-9.+a-z~-]*\)\ ([0-9.]+)$ ]] ||
	die "the image's compiler says '$text', not $cc (Debian VERSION) RELEASE." "Its cross toolchain is configs/arches.conf's; check the image's packages."
[ "${BASH_REMATCH[1]}" = "$("$cc" -dumpfullversion)" ] ||
	die "the image's compiler is gcc ${BASH_REMATCH[1]}, this host's $("$cc" -dumpfullversion): their objects may differ, and none is seeded." "Build the image without the seed (its kernels compiled under emulation: hours), or on a host with the same release."
export CCACHE_COMPILERCHECK='%compiler% -dumpmachine -dumpfullversion' CCACHE_BASEDIR=$KIT
for f in normal bpf; do
	t=$SECONDS
	say "image ($arch): seeding ccache with the $f kernel's objects (native; log: $(rel "$LOGS")/seed-$arch-$f.log)"
	"$KIT/scripts/kernel/kernel.sh" --flavour "$f" --seed-for "$arch" "$text"
	out=$BUILD/kbuild/seed-$arch-$f
	grep -q "^CONFIG_CC_VERSION_TEXT=\"$text\"$" "$out/.config" ||
		die "the seed's configuration does not record the image's compiler ($text)." "Kbuild ignored CC_VERSION_TEXT on its command line: the seed would miss; see $out/.config."
	say "image ($arch): $f seeded in $((SECONDS - t)) s ($(grep -c '^  CC ' "$LOGS/seed-$arch-$f.log" || true) objects compiled)"
done
