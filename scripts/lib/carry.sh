# shellcheck shell=bash
# What make image and make bundle share, carrying the kit to machines that
# have no network: the OUT file they write, the host they read, the
# kernels they take.  Sourced after lib.sh, never run.

# out_file TARGET OUT: die unless OUT names a file to write (not a link,
# not a folder, in a folder that exists).
out_file() {
	local t=$1 out=$2
	[ -n "$out" ] || die "make $t needs OUT=FILE, the file to write." "Example: make $t OUT=/media/usb/kit-${t%-save}.tar"
	[ ! -L "$out" ] || die "OUT=$out is a symbolic link." "Name a plain file (it is written, then renamed into place)."
	[ ! -d "$out" ] || die "OUT=$out is a folder." "Name the file to write in it, e.g. OUT=$out/kit-${t%-save}.tar"
	[ -d "$(dirname "$out")" ] || die "OUT=$out: no folder $(dirname "$out")." "Create it first."
}

# debian12 WHAT ADVICE: die unless this host is Debian 12 with apt and dpkg.
debian12() {
	local ID='' VERSION_ID='' PRETTY_NAME=''
	command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
		die "$1: this host has no apt-get or dpkg (it is not Debian)." "$2"
	. /etc/os-release 2>/dev/null || true
	[ "$ID" = debian ] && [ "$VERSION_ID" = 12 ] ||
		die "$1: the packages are Debian 12's; this host is ${PRETTY_NAME:-unknown}." "$2"
}

# checkout_cache_entries FLAVOUR...: the kernel-cache entries
# (scripts/kernel/kernel.sh's cache, KIT_KERNEL_CACHE) of this checkout's built
# kernels, one folder a line: for each flavour, the entry whose bzImage is
# the one build/kbuild/FLAVOUR holds (a restore copies the entry's, a build
# stores its own: the same file either way; the build's time in it tells
# two builds of the same inputs apart).  Nothing for a flavour not built.
KIT_KERNEL_CACHE_DIR=${KIT_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kit-kernels}
checkout_cache_entries() {
	local f mine e
	for f in "$@"; do
		mine=$BUILD/kbuild/$f/arch/x86/boot/bzImage
		[ -f "$mine" ] && [ -d "$KIT_KERNEL_CACHE_DIR" ] || continue
		for e in "$KIT_KERNEL_CACHE_DIR/$f"-*/; do
			e=${e%/}
			[ -f "$e/done" ] && cmp -s "$e/kbuild/arch/x86/boot/bzImage" "$mine" && echo "$e"
		done
	done
	return 0
}

# toolchain_packages PACKAGES-FILE: the packages of an apt index (Packages)
# that kernel.sh's stamp and cache key name with their versions
# (KERNEL_TOOLCHAIN: gcc, binutils, perl...), "NAME VERSION" a line.
toolchain_packages() {
	local -a tc
	local p v g
	read -r -a tc <<<"$(sed -n 's/^KERNEL_TOOLCHAIN=(\(.*\))$/\1/p' "$KIT/scripts/kernel/kernel.sh" | tr -d "'")"
	[ ${#tc[@]} -gt 0 ] || die "scripts/kernel/kernel.sh has no KERNEL_TOOLCHAIN=(...) line." "Restore it from git."
	awk '/^Package: /{ p = $2 } /^Version: /{ print p, $2 }' "$1" | LC_ALL=C sort -u | while read -r p v; do
		for g in "${tc[@]}"; do
			# shellcheck disable=SC2053 # a glob on purpose
			if [[ $p == $g ]]; then echo "$p $v"; break; fi
		done
	done
}
