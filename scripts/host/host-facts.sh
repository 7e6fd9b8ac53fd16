# shellcheck shell=bash
# What this host is, as the kit needs to know it: architecture, operating
# system, bash, package manager.  Sourced by scripts/host/deps.sh (which every
# build path runs first, so that a foreign host's first error names the
# real cause) and by scripts/host/doctor.sh (make doctor).  Written for
# bash 3.2, macOS's: no associative arrays, no ${x,,}, no mapfile.  The
# facts come from the host's own commands and files, found in PATH, so a
# test simulates a host with stand-ins (tests/host/doctor.sh); the one
# file, /etc/os-release, is KIT_OS_RELEASE there.

OS_RELEASE=${KIT_OS_RELEASE:-/etc/os-release}

# host_arch: the machine, as uname -m says it.
host_arch() { uname -m 2>/dev/null || echo unknown; }

# host_os: "ID VERSION_ID PRETTY_NAME" from os-release ("darwin" on
# macOS, which has none; "unknown" elsewhere).
host_os() {
	local id='' ver='' pretty=''
	if [ -r "$OS_RELEASE" ]; then
		id=$(sed -n 's/^ID=//p' "$OS_RELEASE" | tr -d '"' | head -1)
		ver=$(sed -n 's/^VERSION_ID=//p' "$OS_RELEASE" | tr -d '"' | head -1)
		pretty=$(sed -n 's/^PRETTY_NAME=//p' "$OS_RELEASE" | tr -d '"' | head -1)
	elif [ "$(uname -s 2>/dev/null)" = Darwin ]; then
		id=darwin pretty="macOS $(sw_vers -productVersion 2>/dev/null)"
	fi
	echo "${id:-unknown} ${ver:--} ${pretty:-an unknown system}"
}

# host_is_debian12: Debian 12 (bookworm), where the kit's packages are.
host_is_debian12() {
	local id ver
	read -r id ver _ <<<"$(host_os)"
	[ "$id" = debian ] && [ "$ver" = 12 ]
}

# host_wsl: Windows' WSL (its kernel names Microsoft).
host_wsl() { grep -qi microsoft /proc/version 2>/dev/null; }

# host_has_apt: apt-get and dpkg-query, which the kit installs with.
host_has_apt() { command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; }

# host_engine: the container engine there is (KIT_ENGINE, as
# scripts/image/run.sh takes it; else podman first), or nothing.
host_engine() {
	if [ -n "${KIT_ENGINE:-}" ]; then
		command -v "$KIT_ENGINE" >/dev/null 2>&1 && echo "$KIT_ENGINE"
	elif command -v podman >/dev/null 2>&1; then echo podman
	elif command -v docker >/dev/null 2>&1; then echo docker
	fi
}

# What to do on a host that cannot build the kit itself: the image.
IMAGE_ADVICE="run the kit in its container image instead (docs/image.md, \"Running it\": podman or docker, the checkout mounted at /kit)"

# host_arch_row: this host's row of configs/arches.conf, the table of host
# architectures ("HOST CROSS": amd64 -, arm64 x86_64-linux-gnu-), or
# nothing.  Read with awk, not scripts/lib/arches.sh (bash 4): make doctor
# runs on macOS's bash 3.2 too.
host_arch_row() {
	awk -F'|' -v m="$(host_arch)" '
		/^[[:space:]]*(#|$)/ { next }
		{ for (i = 1; i <= NF; i++) gsub(/^[[:space:]]+|[[:space:]]+$/, "", $i) }
		!head { head = 1; next }
		$1 == m || $2 == m { print $1, $4; exit }' "$KIT/configs/arches.conf" 2>/dev/null
}

# host_arch_route: how the x86_64 guest is made and booted on this host,
# for make doctor's line, or nothing on a host the table lacks.
host_arch_route() {
	# shellcheck disable=SC2046 # two words, no glob
	set -- $(host_arch_row)
	case ${2:-} in
	'') ;;
	-) echo "$(host_arch): the x86_64 guest is built with this host's own gcc" ;;
	*) echo "$(host_arch) ($1): the guest is x86_64 on every host, cross-built here with Debian's ${2}gcc, its busybox and lab 13's libraries amd64's, booted by qemu-system-x86_64 under TCG (no KVM for another architecture's guest; docs/hacking.md)" ;;
	esac
}

# host_arch_problem: why this architecture cannot run the kit, or nothing.
host_arch_problem() {
	local m
	m=$(host_arch)
	[ -z "$(host_arch_row)" ] || return 0
	echo "this is a $m machine: the kit builds and boots an x86_64 guest, with a toolchain for it on the hosts of configs/arches.conf only: x86_64 (amd64) and arm64 (aarch64). Use one of those."
}

# host_native_problem: why this host cannot install the kit's packages
# itself (not Debian 12, no apt), or nothing.  The image has them.
host_native_problem() {
	local pretty
	read -r _ _ pretty <<<"$(host_os)"
	if ! host_has_apt; then
		echo "this host ($pretty) has no apt-get and dpkg: the kit installs its compiler, QEMU and Debian 12's kernel source (linux-source-6.1) from Debian 12's packages, so it cannot set itself up here; $IMAGE_ADVICE."
	elif ! host_is_debian12; then
		echo "this host is $pretty, not Debian 12: the kit's kernel source, Debian's linux-source-6.1 (6.1.192), is a Debian 12 package that $pretty does not have, so make deps cannot install it; $IMAGE_ADVICE."
	fi
}

# host_bash_problem: a bash too old for the kit's scripts, or nothing.
host_bash_problem() {
	local v=${KIT_BASH_VERSION:-${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}}
	case $v in
	[0-4].*|5.0) echo "bash $v is too old for the kit's scripts (they need bash 5.1 or later, for \$EPOCHREALTIME and \$SRANDOM; Debian 12 has 5.2, macOS ships 3.2): $IMAGE_ADVICE." ;;
	esac
}
