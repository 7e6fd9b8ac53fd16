#!/usr/bin/env bash
# make doctor: the pre-flight check an attendee runs before the day (as the
# Linux Foundation's ready-for.sh does for its courses).  Each fact of this
# host on a line of its own, "ok", "note" (works, but know this) or "FIX"
# (what to do, exactly); then READY or the count of what to fix.  Exit 0
# when nothing needs fixing.  It changes nothing and reaches no network.
# Written for bash 3.2 (macOS's), so that it can say what a Mac lacks;
# never sources lib.sh, whose build/ it must not create.  The numbers it
# checks against are measured (below; docs/image.md, "Disk").
set -u
KIT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/host/host-facts.sh
. "$KIT/scripts/host/host-facts.sh"
# shellcheck source=scripts/image/pin.sh
. "$KIT/scripts/image/pin.sh"

# Free disk: the labs need the extracted tree (2.0 GB), the normal and
# lab kernels' objects, the kernel cache's copies (175 MB a normal
# kernel) and ccache: 2.3 GB of build/ and 0.5 GB of caches measured
# after a first make test's normal kernel (2026-12-06), so 5 GB with a
# margin (NEED_GB).  make test and its debug, gdb, pristine and reference
# kernels need more; FULL_GB is an estimate, not a measurement of a whole
# make test (docs/performance.md).
NEED_GB=${KIT_DISK_NEED_GB:-5}
FULL_GB=${KIT_DISK_FULL_GB:-15}
MEM_NEED_MB=2048	# two 512 MB guests and a kernel build
MEM_GOOD_MB=4096	# labs/README.md's 4 GB: three guests at once

fixes=0
# Names a host chose are printed as they are only after control
# characters are made visible (an os-release is text another person wrote).
clean() { printf '%s' "$*" | LC_ALL=C tr -c '[:print:]' '?'; }
line() {	# line KIND WHAT TEXT
	clean "$3" | fold -s -w 78 | awk -v k="$1" -v w="$2" '
		NR == 1 { printf "  %-5s %-11s %s\n", k, w, $0; next } { printf "%20s%s\n", "", $0 }'
	[ "$1" != FIX ] || fixes=$((fixes + 1))
}

echo "make doctor: can this machine run the LSM workshop kit? (nothing is changed)"

# Architecture: everything else depends on it.  The guest is x86_64 on
# every host; configs/arches.conf says how this one makes and boots it
# (on arm64: cross-built, QEMU's TCG), and the line names that route.
p=$(host_arch_problem)
if [ -n "$p" ]; then line FIX arch "$p"; else line ok arch "$(host_arch_route)"; fi
# The row's name (amd64, arm64): the image's tag, the file's name.
row=$(host_arch_row)
row=${row%% *}
# What a Mac needs for the image: the engine's Linux VM, with the cores
# and memory the kit needs (2 cores, 4 GB: MEM_GOOD_MB below), on Apple
# silicon an arm64 VM, which runs the kit's arm64 image natively.
MAC_VM="podman machine init --cpus 2 --memory 4096 --disk-size 60, then podman machine start (or Docker Desktop: Settings, Resources: 2 CPUs, 4 GB of memory, a 60 GB disk)"

# The system, and which way the kit runs here: natively (Debian 12), or
# in the image (anything else with podman or docker).
read -r os_id _ os_pretty <<<"$(host_os)"
engine=$(host_engine)
native=$(host_native_problem)
wsl=
host_wsl && wsl=" (in WSL)"
if [ -z "$native" ]; then
	line ok system "$os_pretty$wsl: the kit runs natively"
	way=native
elif [ -n "$engine" ]; then
	line note system "$os_pretty$wsl is not Debian 12: the kit runs here in its container image, with $engine (docs/image.md, \"Running it\")"
	way=image
elif [ "$os_id" = darwin ]; then
	line FIX system "$native Install podman first (brew install podman, or Podman Desktop from podman.io), and make its Linux VM: $MAC_VM."
	way=image
else
	line FIX system "$native Install podman (or docker) first: with your system's package manager, or Podman Desktop / Docker Desktop on Windows and macOS."
	way=image
fi
if [ "$os_id" = darwin ] && [ -z "$p" ]; then
	if [ "$row" = arm64 ]; then
		line note macOS "Apple silicon: the image runs in podman machine's (or Docker Desktop's) Linux VM, arm64 like this Mac, so the kit's arm64 image runs there natively, its x86_64 guest under QEMU's TCG (docs/image.md, \"Apple silicon\"). The VM needs 2 cores, 4 GB of memory and the disk below: $MAC_VM"
	else
		line note macOS "the image runs in podman machine's (or Docker Desktop's) Linux VM: give that VM 2 cores, 4 GB of memory and the disk below: $MAC_VM"
	fi
fi

# bash: the kit's own scripts need 4.2 (make doctor itself runs on 3.2).
if [ "$way" = native ]; then
	b=$(host_bash_problem)
	if [ -n "$b" ]; then line FIX bash "$b"; else line ok bash "${KIT_BASH_VERSION:-$BASH_VERSION}"; fi
fi

# Free disk where the checkout is, against the route's need (the image's
# route: below, where the engine keeps its images too).
disk_free_gb() {	# disk_free_gb PATH: free GB there, or nothing
	df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print int($4 / 1024 / 1024) }'
}
if [ "$way" = native ]; then
	gb=$(disk_free_gb "$KIT")
	if [ -z "$gb" ]; then
		line note disk "could not read the free space of $KIT (df)"
	elif [ "$gb" -lt "$NEED_GB" ]; then
		line FIX disk "$gb GB free where the kit is ($KIT): the labs need $NEED_GB GB (the kernel's tree, its objects, the kernel cache, ccache; make test about $FULL_GB GB, an estimate). Free some space, or clone the kit onto a larger disk."
	elif [ "$gb" -lt "$FULL_GB" ]; then
		line ok disk "$gb GB free: enough for the labs ($NEED_GB GB); make test and its extra kernels need more (about $FULL_GB GB, an estimate)"
	else
		line ok disk "$gb GB free"
	fi
fi

# Cores and memory.
cores=$(nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)
if [ "$cores" -lt 2 ]; then
	line note cores "1 core: everything works, kernel builds and guests at half the speed the docs give"
else
	line ok cores "$cores"
fi
mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo 2>/dev/null)
if [ -z "$mem_kb" ]; then
	line note memory "unknown (no /proc/meminfo)"
elif [ $((mem_kb / 1024)) -lt "$MEM_NEED_MB" ]; then
	line FIX memory "$((mem_kb / 1024)) MB: the kit needs $MEM_NEED_MB MB (a kernel build and two 512 MB guests); close programs, or give the VM more"
elif [ $((mem_kb / 1024)) -lt "$MEM_GOOD_MB" ]; then
	line note memory "$((mem_kb / 1024)) MB: enough; make test runs fewer guests at once (GUESTS=1) below 4 GB"
else
	line ok memory "$((mem_kb / 1024)) MB"
fi

# KVM: never required; without it the guests run under TCG.  KVM runs a
# guest of the host's own architecture only: on arm64, TCG whatever there is.
kvm=${KIT_KVM_DEV:-/dev/kvm}
if [ -n "$row" ] && [ "$row" != amd64 ]; then
	line note kvm "the guest is x86_64 and this host $row: QEMU runs it under TCG (KVM runs a guest of the host's own architecture only), as on an x86_64 host without KVM, where the docs' times were measured (docs/image.md, \"Apple silicon\")"
elif [ ! -e "$kvm" ]; then
	why="no $kvm"
	if [ -r /proc/cpuinfo ] && ! grep -qwE 'vmx|svm' /proc/cpuinfo; then
		why="$why: the CPU shows no vmx or svm flag (a virtual machine without nested virtualisation, or virtualisation off in the firmware)"
	fi
	line note kvm "$why. The guests run under QEMU's TCG (software): a boot takes seconds, everything works; the timings in the docs are TCG's"
elif [ ! -r "$kvm" ] || [ ! -w "$kvm" ]; then
	g=$(stat -c %G "$kvm" 2>/dev/null)
	if [ "$g" = root ] || [ -z "$g" ]; then
		line note kvm "$kvm is there but root's alone (group ${g:-unknown}): the guests run under TCG. A kvm group that may use it is the administrator's choice (Debian: the device is root:kvm 0660, and users join kvm)"
	else
		line note kvm "$kvm is there but not yours to use (group $g): the guests run under TCG. To use KVM: sudo usermod -aG $g $(id -un), then log in again"
	fi
else
	line ok kvm "$kvm usable (make run probes it once and uses it only if a guest really boots)"
fi

# The image's route: the engine can run a container (else its own message,
# and what to do), where it keeps its images and how (vfs: a full copy per
# layer), the disk there and in the checkout, the image loaded, and whether
# this checkout boots its kernels (scripts/image/pin.sh).  The figures are
# measured (docs/image.md, "Disk").
IMAGE_GB=${KIT_DISK_IMAGE_GB:-5}	# the loaded image with overlay: 4.2 GB
IMAGE_VFS_GB=${KIT_DISK_IMAGE_VFS_GB:-18}	# with vfs: 16.7 GB measured
CHECKOUT_GB=${KIT_DISK_CHECKOUT_GB:-4}	# build/ after labs 1 and 13 in the image: 3.3 GB
image_checks() {
	local e=$engine out rc msg driver root gb need img
	# The image of this machine's architecture (pin.sh's pin_image: the
	# one name, tagged :amd64, :arm64 and :latest).
	pin_image "$e"
	img=$PIN_IMAGE
	out=$("$e" info 2>&1); rc=$?
	msg=$(printf '%s\n' "$out" | grep -iE 'error|cannot|denied|no subuid|not found|connect' | head -2 | tr '\n' ' ')
	if [ $rc != 0 ]; then
		msg=${msg:-$(printf '%s\n' "$out" | tail -2 | tr '\n' ' ')}
		case $out in
		*"podman machine"*|*"Cannot connect to Podman"*)
			line FIX engine "podman cannot reach its Linux VM: \"$msg\". Start it: podman machine start (the first time: podman machine init --cpus 2 --memory 4096 --disk-size 60, then podman machine start)" ;;
		*"permission denied while trying to connect to the Docker daemon"*)
			line FIX engine "docker cannot be used by $(id -un): \"$msg\". The daemon's socket is its group's: sudo usermod -aG docker $(id -un), then log out and in (that group is as strong as root), or use rootless podman" ;;
		*"Is the docker daemon running"*|*"Cannot connect to the Docker daemon"*)
			line FIX engine "docker's daemon is not running: \"$msg\". Start it: sudo systemctl start docker (Docker Desktop: start the application)" ;;
		*)
			line FIX engine "$e cannot run here: \"$msg\". Check that '$e info' works, then run make doctor again" ;;
		esac
		return 0
	fi
	# Rootless podman needs subordinate IDs for the image's users.
	if [ "$e" = podman ] && [ "$(id -u)" != 0 ] && [ -r "${KIT_SUBUID:-/etc/subuid}" ] &&
	   ! grep -qE "^($(id -un)|$(id -u)):" "${KIT_SUBUID:-/etc/subuid}"; then
		line FIX engine "rootless podman has no subordinate IDs for $(id -un) (none in ${KIT_SUBUID:-/etc/subuid}${msg:+; podman says: \"$msg\"}): the image's files cannot be owned by its users, and its load fails. As root: usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $(id -un), then podman system migrate"
		return 0
	fi
	line ok engine "$e runs containers"
	case $e in
	podman) driver=$("$e" info --format '{{.Store.GraphDriverName}}' 2>/dev/null) root=$("$e" info --format '{{.Store.GraphRoot}}' 2>/dev/null) ;;
	*) driver=$("$e" info --format '{{.Driver}}' 2>/dev/null) root=$("$e" info --format '{{.DockerRootDir}}' 2>/dev/null) ;;
	esac
	need=$IMAGE_GB
	if [ "$driver" = vfs ]; then
		need=$IMAGE_VFS_GB
		line note storage "$e stores images with the vfs driver: a full copy of each layer, so the image takes about $IMAGE_VFS_GB GB (16.7 GB measured, not 4.2) and each container starts slower (rootless runs 3-5 times the root ones' time here). fuse-overlayfs (Debian, Ubuntu: apt-get install fuse-overlayfs; then podman system reset, which removes every image) makes it overlay"
	fi
	if [ "$os_id" = darwin ] || [ -z "$root" ] || [ ! -d "$root" ]; then
		line note disk "$e keeps its images ${root:+in $root }in its VM or out of reach: check that it has $need GB free for the image (docs/image.md, \"Disk\")"
	else
		gb=$(disk_free_gb "$root")
		if [ -n "$gb" ] && [ "$gb" -lt "$need" ]; then
			line FIX disk "$gb GB free where $e keeps its images ($root): the loaded image needs about $need GB (docs/image.md, \"Disk\"). Free some space there"
		elif [ -n "$gb" ]; then
			line ok disk "$gb GB free where $e keeps its images ($root; the image: about $need GB)"
		fi
	fi
	gb=$(disk_free_gb "$KIT")
	if [ -n "$gb" ] && [ "$gb" -lt "$CHECKOUT_GB" ]; then
		line FIX disk "$gb GB free where the kit is ($KIT): its build/ takes about $CHECKOUT_GB GB in the image's route (the kernel's tree and objects; docs/image.md, \"Disk\"). Free some space, or clone the kit onto a larger disk"
	elif [ -n "$gb" ]; then
		line ok disk "$gb GB free where the kit is (its build/: about $CHECKOUT_GB GB)"
	fi
	if [ -n "$PIN_IMAGE_OTHER" ]; then
		line FIX image "$(pin_other_advice)"
		return 0
	fi
	if ! "$e" image inspect "$img" >/dev/null 2>&1; then
		line FIX image "the kit's image ($row) is not loaded in $e: scripts/image/run.sh load kit-image-VERSION-$row.tar.gz (the instructor's file for $row machines, its .sha256 beside it; the digest is checked), or build it: make image"
		return 0
	fi
	pin_compare "$e" "$img" "$KIT"
	[ -z "$PIN_MISSING" ] || line FIX image "$(pin_missing_advice)"
	case $PIN_STATE in
	same) line ok image "$img is loaded; this checkout boots its kernels (the kit at ${PIN_IMAGE_VERSION:-?})" ;;
	unknown) line note image "$img is loaded, but carries no digest of its kernels' sources (made before the pin): whether this checkout boots its kernels or builds them is not known" ;;
	differ)
		if [ -f "$KIT/build/image-build-ok" ] && [ "$(cat "$KIT/build/image-build-ok")" = "$PIN_IMAGE_SOURCES $PIN_SOURCES_NOW" ]; then
			line note image "$img is loaded; this checkout's kernels are built in the container (accepted: build/image-build-ok)"
		else
			line FIX image "$(pin_advice "$KIT")"
		fi ;;
	esac
}

# Packages (natively) or the image (otherwise).
if [ "$way" = native ]; then
	missing=$("$KIT/scripts/host/deps.sh" --missing 2>&1 | xargs)
	if [ -z "$missing" ]; then
		line ok packages "all of the kit's Debian packages are installed"
	elif [ "$(id -u)" = 0 ]; then
		line FIX packages "missing: $missing. Run: make deps   (with the network, or make deps BUNDLE=FILE from the room's bundle)"
	elif command -v sudo >/dev/null 2>&1; then
		line FIX packages "missing: $missing. Run: sudo make deps   (then make lab 1 as yourself)"
	else
		line FIX packages "missing: $missing, and you are not root and have no sudo: ask whoever administers this machine to run make deps in this folder, or use the image"
	fi
	# The kernel source's version against the series' base (tree.sh's
	# SERIES_BASE, read, not copied): Debian 12 without bookworm-security
	# has an older linux-source-6.1, which make tree refuses.
	base=$(sed -n 's/^SERIES_BASE=//p' "$KIT/scripts/kernel/tree.sh")
	src=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
	src=${src%%-*}
	case $src.$base in
	*[!0-9.]*|*..*) ;;	# not installed, or no version: deps' line says it
	6.1.*.6.1.*)
		if [ "${src##*.}" -lt "${base##*.}" ]; then
			line FIX source "linux-source-6.1 is $src, older than $base, the version the series is made for (Debian 12 without its security archive). As root: echo 'deb http://security.debian.org/debian-security bookworm-security main' >/etc/apt/sources.list.d/bookworm-security.list; apt-get update; apt-get install linux-source-6.1"
		elif [ "${src##*.}" -gt "${base##*.}" ]; then
			line note source "linux-source-6.1 is $src, newer than $base, the version the series is made for: make tree tries the series three-way and names a patch that needs a refresh"
		else
			line ok source "linux-source-6.1 is $src, the version the series is made for"
		fi ;;
	esac
	if [ ! -x "$KIT/build/tools/apparmor/sbin/apparmor_parser" ] &&
	   ! ls "$KIT"/build/deb/apparmor_*.deb >/dev/null 2>&1; then
		line note apparmor "AppArmor's parser is downloaded (apt-get download apparmor, 1 MB) on the first make lab: have the network then, or use the room's bundle"
	fi
	# Another architecture's guest packages (configs/arches.conf's debs:
	# amd64's busybox, lab 13's libraries), downloaded by make deps.
	if [ -n "$row" ] && [ "$row" != amd64 ] && ! ls "$KIT"/build/deb/busybox-static_*_amd64.deb >/dev/null 2>&1; then
		line note guest "the x86_64 guest's busybox and lab 13's static libraries are amd64's packages, downloaded by make deps (as root: dpkg --add-architecture amd64 once, nothing of amd64 installed): run it with the network (the room's bundle is for x86_64 hosts)"
	fi
	if [ -e "$KIT/build" ] && [ ! -w "$KIT/build" ]; then
		line FIX build/ "$KIT/build is not yours to write (make was run as root?): sudo chown -R $(id -un): $KIT/build"
	fi
elif [ -n "$engine" ]; then
	image_checks
fi

echo
if [ "$fixes" -eq 0 ]; then
	route=
	[ -z "$row" ] || [ "$row" = amd64 ] || route=" ($row: the x86_64 guest cross-built, under TCG)"
	if [ "$way" = native ]; then
		echo "READY: this machine can run the kit$route. Next: make lab 1 (README.md, \"Set-up: two commands\")."
	else
		echo "READY: this machine can run the kit in its ${row:+$row }image$route. Next: scripts/image/run.sh lab 1 (docs/image.md, \"Running it\")."
	fi
	exit 0
fi
echo "NOT READY: $fixes thing(s) to fix, each on a FIX line above. Run make doctor again after fixing them."
exit 1
