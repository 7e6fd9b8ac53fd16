#!/usr/bin/env bash
# Check that the Debian packages the kit needs are installed.  As root,
# install the missing ones with apt-get; otherwise print the one apt-get line
# to run and fail.  Usage: deps.sh [--install | --missing | --list]
# (--install: always try apt; --missing: list the missing packages, install
# nothing, download nothing: make doctor's question; --list: the packages,
# one a line).  make deps BUNDLE=FILE installs from an offline bundle
# instead: scripts/bundle/install.sh.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
# shellcheck source=scripts/host/host-facts.sh
. "$KIT/scripts/host/host-facts.sh"

# A host the kit cannot run on says why at once, before any apt-get (on a
# host without apt or dpkg the first error once blamed "Debian's package
# mirror", then "a truncated .deb").  Above the first bash-4 feature.
problem=$(host_arch_problem)$(host_bash_problem)
[ -z "$problem" ] || die "$problem" "make doctor checks the rest of this host."

# Run as root in a checkout that is someone else's (sudo make deps, then
# make lab as that user): what this run made in build/ is given back to the
# checkout's owner, or the user's next run could not take its locks
# ("build/.kernel-normal.lock: Permission denied").
give_back_build() {
	local owner
	[ "$(id -u)" = 0 ] || return 0
	owner=$(stat -c %u:%g "$KIT" 2>/dev/null) || return 0
	[ "$owner" != 0:0 ] || return 0
	find "$BUILD" -xdev -user 0 -exec chown -h "$owner" {} + 2>/dev/null || true
}
trap give_back_build EXIT

# What each package is for, so that nothing is here by habit.
PKGS=(
	linux-source-6.1	# the kernel source tarball the series applies to
	git			# the patched tree is a git repository (git am)
	xz-utils		# unpacks the source tarball
	gcc make libc6-dev	# the kernel's host programs; on an x86_64 host the kernel and static guest programs too
	ccache			# a recompile of an already compiled object is a look-up
	bison flex bc		# Kconfig, and the kernel build's own tools
	libelf-dev		# objtool (x86_64 stack validation), built for the host
	libssl-dev		# the kernel tree's sign-file, which Kbuild builds with MODULE_SIG: the bpf flavour's Lockdown selects it
	openssl			# and the module-signing key Kbuild makes with MODULE_SIG (GENKEY: openssl req), absent from a minimal Debian 12
	dwarves			# pahole: the bpf flavour's BTF (DEBUG_INFO_BTF, configs/bpf.config), which BPF LSM programs attach by
	perl			# scripts/checkpatch.pl and kernel build helpers
	python3			# the kit's host tools (scripts/*.py), run as /usr/bin/python3: Debian's, never a pyenv or venv one first in PATH
	python3-ply python3-git	# checkpatch's SPDX check (scripts/spdxcheck.py imports both; without one it passes everything, silently)
	python3-waitress	# make room's HTTP server (scripts/room/server.py): reads a whole request before a worker sees it
	qemu-system-x86		# the guest (qemu-system-x86_64, on every host: configs/arches.conf)
	cpio gzip		# the initramfs
	libcap-dev libcap-ng-dev	# static libcap, libcap-ng: the kernel's selftests (make selftests)
	checkpolicy		# compiles the kit's SELinux policy (configs/policy/*/selinux); no service
	librsvg2-bin		# rsvg-convert: make test renders make why SVG='s picture to PNG (tests/host/why-svg.sh)
	clang llvm		# lab 13: its BPF C, compiled on the host (clang -target bpf; llvm-strip for bpftool's skeleton)
	bpftool			# lab 13: vmlinux.h from the bpf flavour's BTF, and the skeleton of the compiled program (scripts/lab/)
	libbpf-dev zlib1g-dev	# lab 13: libbpf.a and libz.a, linked into the static loader that runs in the guest (libelf.a: libelf-dev, above); on another host, their headers (the libraries: amd64's, below)
)
# This host's way to the x86_64 guest (configs/arches.conf): on an x86_64
# host busybox-static (the guest's userland) and gdb (make gdb); on an
# arm64 host the cross toolchain to x86_64 and gdb-multiarch.
! arch_known || read -ra more <<<"$(arch_get packages)"
PKGS+=(${more[@]+"${more[@]}"})

# --list: the packages, one a line (make bundle downloads their closure).
[ "${1:-}" != --list ] || { printf '%s\n' "${PKGS[@]}"; exit 0; }

# apparmor_parser compiles the kit's AppArmor profiles (configs/policy/*/
# apparmor) for the guest's kernel.  Debian's apparmor package is
# downloaded and unpacked into build/tools/apparmor/ (apt-get download +
# dpkg -x), never installed: installing it runs maintainer scripts and a
# service that load profiles into the host's kernel, which the kit must
# never touch.  The parser needs nothing but libc (ldd), and nothing else
# from the package.  Downloaded once (as any user), then offline.
apparmor_parser() {
	local dir=$BUILD/tools/apparmor deb
	[ -x "$dir/sbin/apparmor_parser" ] && return 0
	mkdir -p "$BUILD/deb"
	deb=$(compgen -G "$BUILD/deb/apparmor_*.deb" | tail -1) || true
	if [ -z "$deb" ]; then
		problem=$(host_native_problem)
		[ -z "$problem" ] || die "$problem" "make doctor checks the rest of this host."
		(cd "$BUILD/deb" && apt-get download -q apparmor >"$LOGS/apt-download.log" 2>&1) ||
			die "could not download Debian's apparmor package (log: $LOGS/apt-download.log)." \
			    "Check that Debian's package mirror is reachable (as root, apt-get update may help), then run make again."
		deb=$(compgen -G "$BUILD/deb/apparmor_*.deb" | tail -1)
	fi
	# dpkg -x creates its target but not the target's parent.
	mkdir -p "$BUILD/tools" && rm -rf "$dir.tmp" && dpkg -x "$deb" "$dir.tmp" >"$LOGS/dpkg-x.log" 2>&1 &&
		mv "$dir.tmp" "$dir" ||
		die "could not unpack $(basename "$deb") into $(rel "$dir") (log: $LOGS/dpkg-x.log)." \
		    "Delete $(basename "$deb") from build/deb/ (it may be truncated) and run make again."
	say "apparmor_parser unpacked from $(basename "$deb") into $(rel "$dir")"
}

# The guest's own packages on a host of another architecture (the table's
# debs: amd64's busybox-static, and the static libbpf.a, libelf.a, libz.a
# of lab 13's loader): downloaded into build/deb/ and unpacked into
# GUEST_ROOT (build/tools/x86_64), never installed, as apparmor's is.
# apt-get download of another architecture's package needs that
# architecture in dpkg's list (dpkg --add-architecture amd64, then
# apt-get update: root's, which make deps does once).  Downloaded once,
# then offline; the image carries them in its build/deb/.
guest_debs() {
	local debs p f want=() missing=() arch
	read -ra debs <<<"$(arch_get debs)"
	[ ${#debs[@]} -gt 0 ] || return 0
	for p in "${debs[@]}"; do
		f=$(compgen -G "$BUILD/deb/${p%%:*}_*_${p#*:}.deb" | tail -1) || true
		if [ -n "$f" ]; then want+=("$f"); else missing+=("$p"); fi
	done
	if [ ${#missing[@]} -gt 0 ]; then
		problem=$(host_native_problem)
		[ -z "$problem" ] || die "$problem" "make doctor checks the rest of this host."
		arch=${missing[0]#*:}
		if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
			[ "$(id -u)" = 0 ] || die "the guest's packages ${missing[*]} are downloaded as $arch's, which dpkg does not list yet." \
				"Run as root: make deps   (it runs dpkg --add-architecture $arch and apt-get update once; nothing of $arch is installed)."
			say "dpkg --add-architecture $arch (the guest's packages are downloaded, never installed)"
			{ dpkg --add-architecture "$arch" && apt-get update -q; } >"$LOGS/apt-arch.log" 2>&1 ||
				die "dpkg --add-architecture $arch and apt-get update failed (log: $LOGS/apt-arch.log)." \
				    "Check that Debian's package mirror is reachable, then run make deps again."
		fi
		mkdir -p "$BUILD/deb"
		(cd "$BUILD/deb" && apt-get download -q "${missing[@]}" >"$LOGS/apt-download-guest.log" 2>&1) ||
			die "could not download the guest's packages ${missing[*]} (log: $LOGS/apt-download-guest.log)." \
			    "As root, apt-get update may help (the $arch lists); then run make deps again."
		guest_debs
		return
	fi
	[ "$(cat "$GUEST_ROOT/.debs" 2>/dev/null)" = "${want[*]##*/}" ] && return 0
	rm -rf "$GUEST_ROOT.tmp"
	mkdir -p "$GUEST_ROOT.tmp" || die "could not make $(rel "$GUEST_ROOT")." "Check the disk, then run make again."
	for f in "${want[@]}"; do
		dpkg -x "$f" "$GUEST_ROOT.tmp" >>"$LOGS/dpkg-x.log" 2>&1 ||
			die "could not unpack ${f##*/} into $(rel "$GUEST_ROOT") (log: $LOGS/dpkg-x.log)." \
			    "Delete ${f##*/} from build/deb/ (it may be truncated) and run make again."
	done
	echo "${want[*]##*/}" >"$GUEST_ROOT.tmp/.debs"
	rm -rf "$GUEST_ROOT" && mv "$GUEST_ROOT.tmp" "$GUEST_ROOT"
	say "the guest's packages unpacked into $(rel "$GUEST_ROOT"): ${want[*]##*/}"
}

# --mainline: also the reference kernel's source (FLAVOUR=mainline, make
# mainline): 154 MB to download, 150 MB installed, only when it is used.
# MAINLINE=1 (make deps MAINLINE=1) installs it with the others.
args=() listonly=0
for a in "$@"; do
	case "$a" in
	--mainline) PKGS+=(linux-source-6.12) ;;	# Debian 12: bookworm-security
	--missing) listonly=1 ;;
	*) args+=("$a") ;;
	esac
done
[ "${MAINLINE:-0}" = 1 ] && PKGS+=(linux-source-6.12)
# BROWSER=1 (make deps BROWSER=1; CI): chromium, the headless browser in
# which tests/host/room.sh renders make room's page (the stuck times, the
# order, the screenshot of docs/room.png); without it that one test is a
# skip, with the reason.  Not for the workshop itself: any browser shows the page.
[ "${BROWSER:-0}" = 1 ] && PKGS+=(chromium)
# LINT=1 (make deps LINT=1; CI): shellcheck and pyflakes3, the lint of
# the kit's own scripts (tests/host/lint.sh, CI's first stage); without
# them that suite's two cases are skips, with the reason.  Not for the
# workshop itself.
[ "${LINT:-0}" = 1 ] && PKGS+=(shellcheck pyflakes3)
set -- "${args[@]}"

# One dpkg-query for all of them (one per package cost a fifth of a second
# on every make run).  A package dpkg does not know is not listed.
missing=()
declare -A installed=()
while read -r p st; do
	[ "$st" != "install ok installed" ] || installed[$p]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PKGS[@]}" 2>/dev/null || true)
for p in "${PKGS[@]}"; do
	[ -n "${installed[$p]:-}" ] || missing+=("$p")
done
if [ "$listonly" = 1 ]; then
	[ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
	exit 0
fi
# Packages to install on a host that has no apt, or not Debian 12's:
# the real cause, not apt-get's failure.
if [ ${#missing[@]} -gt 0 ]; then
	problem=$(host_native_problem)
	[ -z "$problem" ] || die "$problem" "Missing here: ${missing[*]}. make doctor checks the rest of this host."
fi
apparmor_parser
[ ${#missing[@]} -gt 0 ] || guest_debs

[ ${#missing[@]} -eq 0 ] && [ "${1:-}" != --install ] && exit 0
[ ${#missing[@]} -eq 0 ] && { say "all packages present"; exit 0; }

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	die "missing Debian packages: ${missing[*]}" \
	    "Run as root: apt-get update && $line   then run make again."
fi

say "installing missing packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" \
		>"$LOGS/apt.log" 2>&1; then
	# The package lists of a fresh machine may be empty or stale.
	apt-get update -q >>"$LOGS/apt.log" 2>&1 || true
	apt-get install -y -q --no-install-recommends "${missing[@]}" \
		>>"$LOGS/apt.log" 2>&1 ||
		die "apt-get could not install: ${missing[*]} (log: $LOGS/apt.log)" \
		    "Check that Debian's package mirror is reachable, then run: $line"
fi
say "packages installed"
guest_debs
