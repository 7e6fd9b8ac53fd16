#!/usr/bin/env bash
# make doctor and the first error on a foreign host (TAP), on simulated
# hosts: stand-ins first in PATH for the host's own commands (uname, df,
# dpkg-query, apt-get), a PATH without apt and dpkg, an os-release of
# another system (KIT_OS_RELEASE), bash 3.2 (KIT_BASH_VERSION).  Each host
# must get its FIX line with the words that name the cause, and
# scripts/host/deps.sh, which every build path runs first, must stop at once
# naming it too (it once blamed "Debian's package mirror", then "a
# truncated .deb", on a host without apt).  And the sudo case: make deps
# as root in a user's checkout leaves build/ that user's.  Nothing is
# installed and no network is reached: apt-get is a stand-in that fails.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

# make deps' own options, which a caller may have set (CI's make test
# LINT=1): each simulated host's package list is the default one.
unset LINT BROWSER

# A PATH of the host's commands without apt, dpkg and container engines
# ($T/noapt), and a folder for each case's stand-ins in front of it.
mkdir -p "$T/noapt"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[ -d "$d" ] || continue
	for f in "$d"/*; do
		b=${f##*/}
		case $b in apt*|dpkg*|podman|docker) continue ;; esac
		[ -x "$f" ] && [ ! -e "$T/noapt/$b" ] && ln -s "$f" "$T/noapt/$b"
	done
done
# The kit, in a scratch copy whose build/ is its own.
KS=$T/kit
mkdir -p "$KS" && cp -r "$K/scripts" "$K/Makefile" "$KS/" && mkdir -p "$KS/configs" && cp "$K/configs/arches.conf" "$KS/configs/" &&
	mkdir -p "$KS/build/tools/apparmor/sbin" &&
	printf '#!/bin/sh\n' >"$KS/build/tools/apparmor/sbin/apparmor_parser" &&
	chmod +x "$KS/build/tools/apparmor/sbin/apparmor_parser"

# host NAME LINE...: a folder of stand-ins, each LINE "cmd|shell body".
host() {
	local h=$T/host-$1 l
	shift
	mkdir -p "$h"
	for l in "$@"; do
		printf '#!/bin/sh\n%s\n' "${l#*|}" >"$h/${l%%|*}"
		chmod +x "$h/${l%%|*}"
	done
	echo "$h"
}
os() {	# os ID VERSION PRETTY: an os-release file
	printf 'PRETTY_NAME="%s"\nID=%s\nVERSION_ID="%s"\n' "$3" "$1" "$2" >"$T/os-$1-$2"
	echo "$T/os-$1-$2"
}
DEB12=$(os debian 12 'Debian GNU/Linux 12 (bookworm)')
# dpkg-query that knows every package installed, or none.
ALL='dpkg-query|for a; do case $a in -*) ;; *) echo "$a install ok installed";; esac; done'
NONE='dpkg-query|exit 1'
APTFAIL='apt-get|echo "E: Unable to locate package linux-source-6.1" >&2; exit 100'
BIGDISK='df|printf "Filesystem 1024-blocks Used Available Capacity Mounted\n/dev/x 999999999 1 900000000 1%% /\n"'

# expect DESC WANT-RC ERE CMD...: CMD's exit status is WANT-RC and its
# output, read as one line, matches ERE.
expect() {
	local desc=$1 want=$2 ere=$3 out rc
	shift 3
	out=$("$@" 2>&1); rc=$?
	# One line: a message folded to the terminal's width is one message.
	if [ "$rc" = "$want" ] && tr -s ' \n' '  ' <<<"$out" | grep -qE -- "$ere"; then
		ok "$desc"
	else
		notok "$desc"
		echo "# exit $rc (want $want); want /$ere/ in:"
		diag 12 <<<"$out"
	fi
}
doctor() {	# doctor STANDINS [VAR=VALUE...]: make doctor on that host
	local h=$1
	shift
	env "$@" PATH="$h:$T/noapt" bash "$KS/scripts/host/doctor.sh"
}
deps() {	# deps STANDINS [VAR=VALUE...]: scripts/host/deps.sh on that host
	local h=$1
	shift
	env "$@" PATH="$h:$T/noapt" BUILD="$KS/build" bash "$KS/scripts/host/deps.sh"
}

echo "1..35"

good=$(host good "$ALL" "$BIGDISK" 'apt-get|exit 0' 'dpkg|exit 0')
expect "make doctor on a Debian 12 host with every package: READY" 0 ' READY: this machine can run the kit' \
	doctor "$good" KIT_OS_RELEASE="$DEB12"

# dpkg-query that knows every package, linux-source-6.1 at version $1.
srcv() { echo 'dpkg-query|case "$2" in -f*Version*) echo '"$1"' ;; *) for a; do case $a in -*) ;; *) echo "$a install ok installed";; esac; done ;; esac'; }
old=$(host oldsrc "$(srcv 6.1.176-1)" "$BIGDISK" 'apt-get|exit 0' 'dpkg|exit 0')
expect "make doctor with linux-source-6.1 6.1.176 (no bookworm-security): FIX, the version and the sources line" 1 \
	'FIX +source +linux-source-6.1 is 6.1.176, older than 6.1.192.*bookworm-security main.*apt-get install linux-source-6.1.*NOT READY' \
	doctor "$old" KIT_OS_RELEASE="$DEB12"
new=$(host newsrc "$(srcv 6.1.200-1)" "$BIGDISK" 'apt-get|exit 0' 'dpkg|exit 0')
expect "make doctor with linux-source-6.1 6.1.200: a note (three-way), READY" 0 \
	'note +source +linux-source-6.1 is 6.1.200, newer than 6.1.192.*three-way.*READY' \
	doctor "$new" KIT_OS_RELEASE="$DEB12"

noapt=$(host noapt "$BIGDISK")
expect "make doctor without apt and dpkg (Fedora, Arch): names the cause and the image" 1 \
	'FIX +system +this host \(Fedora Linux 41\) has no apt-get and dpkg.*container image' \
	doctor "$noapt" KIT_OS_RELEASE="$(os fedora 41 'Fedora Linux 41')"
expect "scripts/host/deps.sh without apt and dpkg: its first error names the cause, not a package mirror" 1 \
	'has no apt-get and dpkg' deps "$noapt" KIT_OS_RELEASE="$(os fedora 41 'Fedora Linux 41')"

deb13=$(host deb13 "$NONE" "$APTFAIL" "$BIGDISK" 'dpkg|exit 0')
D13=$(os debian 13 'Debian GNU/Linux 13 (trixie)')
expect "make doctor on Debian 13: not Debian 12, no linux-source-6.1, the image" 1 \
	'FIX +system +this host is Debian GNU/Linux 13 \(trixie\), not Debian 12: .*linux-source-6.1' \
	doctor "$deb13" KIT_OS_RELEASE="$D13"
expect "scripts/host/deps.sh on Debian 13 with packages missing: says Debian 13 has no linux-source-6.1, before apt-get" 1 \
	'not Debian 12: the kit.s kernel source, Debian.s linux-source-6.1' deps "$deb13" KIT_OS_RELEASE="$D13"
# A stand-in engine: info answers (or fails with FAKE_INFO_ERR), its
# storage driver and folder (FAKE_DRIVER, FAKE_ROOT), the image loaded
# when FAKE_SOURCES is set, with those kernel sources, tagged FAKE_TAG
# (default: every tag) and of architecture FAKE_ARCH (default amd64).
ENGINE_SH='case "$1 $2" in
"info ") [ -z "$FAKE_INFO_ERR" ] || { echo "$FAKE_INFO_ERR" >&2; exit 125; }; echo host: ok ;;
"info --format") case "$3" in *Driver*) echo "${FAKE_DRIVER:-overlay}" ;; *Root*) echo "${FAKE_ROOT:-/}" ;; esac ;;
"image inspect") [ -n "$FAKE_SOURCES" ] || { echo "Error: no such image" >&2; exit 125; }
	for a; do img=$a; done
	[ -z "$FAKE_TAG" ] || [ "$img" = "localhost/kit-lsm:$FAKE_TAG" ] || { echo "Error: no such image $img" >&2; exit 125; }
	case "$4" in *kernel-sources*) echo "$FAKE_SOURCES" ;; *revision*) echo 0123456789abcdef0123456789abcdef01234567 ;; *version*) echo v1.0 ;;
	*Architecture*) echo "${FAKE_ARCH:-amd64}" ;; esac ;;
esac
exit 0'
podman=$(host podman "$NONE" "$APTFAIL" "$BIGDISK" 'dpkg|exit 0' "podman|$ENGINE_SH")
expect "make doctor on Debian 13 with podman: the image's way, and the image not loaded: run.sh load" 1 \
	'note +system .*runs here in its container image, with podman.*FIX +image +the kit.s image \(amd64\) is not loaded in podman: scripts/image/run.sh load kit-image-VERSION-amd64.tar.gz' \
	doctor "$podman" KIT_OS_RELEASE="$D13"
# The image's host, ready: the next step is run.sh's, not make lab 1
# (which said "make lab 1" there, a command that cannot work).
SOURCES=$(. "$KS/scripts/image/pin.sh" && pin_sources "$KS")
expect "make doctor on an image host, the image loaded with this checkout's kernels: READY, next scripts/image/run.sh lab 1" 0 \
	'ok +engine +podman runs containers.*ok +image .*boots its kernels.*READY: .*Next: scripts/image/run.sh lab 1' \
	doctor "$podman" KIT_OS_RELEASE="$D13" FAKE_SOURCES="$SOURCES"
expect "make doctor, the image's kernels not this checkout's: the image's version to check out, or the build to accept" 1 \
	'FIX +image +The image holds the kernels of the kit at v1.0 .*git checkout v1.0.*KIT_IMAGE_BUILD=1' \
	doctor "$podman" KIT_OS_RELEASE="$D13" FAKE_SOURCES=0000
# Each engine that cannot run a container: its own message, and why.
expect "make doctor, podman's VM not started (macOS, Windows): the engine's message and podman machine start" 1 \
	'FIX +engine +podman cannot reach its Linux VM: "Cannot connect to Podman.*podman machine start' \
	doctor "$podman" KIT_OS_RELEASE="$D13" FAKE_INFO_ERR='Cannot connect to Podman. Please verify your connection to the Linux system using `podman system connection list`, or try `podman machine init` and `podman machine start` to manage a new Linux VM'
docker=$(host docker "$NONE" "$APTFAIL" "$BIGDISK" 'dpkg|exit 0' "docker|$ENGINE_SH")
expect "make doctor, a user not in the docker group: the socket's permission, and the group to join" 1 \
	'FIX +engine +docker cannot be used by .*permission denied while trying to connect to the Docker daemon socket.*usermod -aG docker' \
	doctor "$docker" KIT_OS_RELEASE="$D13" FAKE_INFO_ERR='permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/info": dial unix /var/run/docker.sock: connect: permission denied'
expect "make doctor, docker's daemon not running: said, and how to start it" 1 \
	'FIX +engine +docker.s daemon is not running: "Cannot connect to the Docker daemon.*systemctl start docker' \
	doctor "$docker" KIT_OS_RELEASE="$D13" FAKE_INFO_ERR='Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?'
printf 'someone:100000:65536\n' >"$T/subuid"
rootless=$(host rootless "$NONE" "$APTFAIL" "$BIGDISK" 'dpkg|exit 0' "podman|$ENGINE_SH" \
	'id|case "$1" in -u) echo 4242 ;; -un) echo alice ;; *) /usr/bin/id "$@" ;; esac')
expect "make doctor, rootless podman with no subordinate IDs: said, and the usermod line" 1 \
	'FIX +engine +rootless podman has no subordinate IDs for alice .*usermod --add-subuids 100000-165535 --add-subgids 100000-165535 alice' \
	doctor "$rootless" KIT_OS_RELEASE="$D13" KIT_SUBUID="$T/subuid" FAKE_SOURCES="$SOURCES"
expect "make doctor, the vfs storage driver: said, with what it costs" 0 \
	'note +storage +podman stores images with the vfs driver: .*16.7 GB measured' \
	doctor "$podman" KIT_OS_RELEASE="$D13" FAKE_SOURCES="$SOURCES" FAKE_DRIVER=vfs
# The disk where the engine keeps its images, apart from the checkout's.
enginedisk=$(host enginedisk "$NONE" "$APTFAIL" 'dpkg|exit 0' "podman|$ENGINE_SH" \
	'df|for a; do :; done; case "$a" in */store) f=1048576 ;; *) f=900000000 ;; esac; printf "Filesystem 1024-blocks Used Available Capacity Mounted\n/dev/x 999999999 1 %s 1%% /\n" "$f"')
mkdir -p "$T/store"
expect "make doctor, 1 GB free where the engine keeps its images: the disk there, not the checkout's" 1 \
	"FIX +disk +1 GB free where podman keeps its images \\($T/store\\): the loaded image needs about [0-9]+ GB" \
	doctor "$enginedisk" KIT_OS_RELEASE="$D13" FAKE_SOURCES="$SOURCES" FAKE_ROOT="$T/store"

# arm64 hosts (configs/arches.conf): the x86_64 guest cross-built, under
# TCG.  An arm64 Debian 12 runs the kit natively: READY naming the route,
# or the cross toolchain's packages to install; an Apple-silicon Mac and
# an arm64 Linux other than Debian 12 run its arm64 image: READY naming
# it, or exactly what to do (no engine: podman and its VM's command line
# with the cores and memory; no image: the arm64 file to load; the amd64
# image loaded: the other file).  The kit before arm64 hosts refused each.
# (lib.sh, which deps.sh sources, reads bash's HOSTTYPE, not uname: the
# stand-in's answer is given to it as KIT_HOST_ARCH.)
UNAME_ARM='uname|case "$1" in -m) echo aarch64;; *) echo Linux;; esac'
arm=$(host arm "$ALL" "$BIGDISK" "$UNAME_ARM" 'apt-get|exit 0' 'dpkg|exit 0')
expect "make doctor on an arm64 Debian 12 with its packages: READY, naming the cross-built x86_64 guest under TCG" 0 \
	"ok +arch +aarch64 \(arm64\): the guest is x86_64 on every host, cross-built here with Debian.s x86_64-linux-gnu-gcc.*note +kvm +the guest is x86_64 and this host arm64: QEMU runs it under TCG.*READY: this machine can run the kit \(arm64: the x86_64 guest cross-built, under TCG\)" \
	doctor "$arm" KIT_OS_RELEASE="$DEB12" KIT_HOST_ARCH=aarch64
armnone=$(host armnone "$NONE" "$BIGDISK" "$UNAME_ARM" "$APTFAIL" 'dpkg|exit 0')
expect "make doctor on an arm64 Debian 12 without packages: the cross toolchain to install, and make deps" 1 \
	'FIX +packages +missing: .*gcc-x86-64-linux-gnu binutils-x86-64-linux-gnu libc6-dev-amd64-cross gdb-multiarch. Run: (sudo )?make deps.*note +guest +the x86_64 guest.s busybox and lab 13.s static libraries are amd64.s' \
	doctor "$armnone" KIT_OS_RELEASE="$DEB12" KIT_HOST_ARCH=aarch64
expect "scripts/host/deps.sh on arm64 Debian 12: goes on (no refusal of the architecture), to its packages" 1 \
	'apt-get could not install: .*gcc-x86-64-linux-gnu' deps "$armnone" KIT_OS_RELEASE="$DEB12" KIT_HOST_ARCH=aarch64
MAC='uname|case "$1" in -m) echo arm64;; -s) echo Darwin;; *) echo Darwin;; esac'
macnone=$(host macnone "$MAC" "$BIGDISK" 'sw_vers|echo 15.1')
expect "make doctor on an Apple-silicon Mac without an engine: podman, and its VM's line with 2 cores and 4 GB" 1 \
	'ok +arch +arm64 \(arm64\): the guest is x86_64.*FIX +system +.*Install podman first \(brew install podman.*podman machine init --cpus 2 --memory 4096 --disk-size 60, then podman machine start \(or Docker Desktop: Settings, Resources: 2 CPUs, 4 GB' \
	doctor "$macnone" KIT_OS_RELEASE=/nonexistent
mac=$(host mac "$MAC" "$BIGDISK" 'sw_vers|echo 15.1' "podman|$ENGINE_SH")
expect "make doctor on an Apple-silicon Mac, podman's VM up, no image: the arm64 file to load" 1 \
	'note +macOS +Apple silicon: .*the kit.s arm64 image runs there natively.*FIX +image +the kit.s image \(arm64\) is not loaded in podman: scripts/image/run.sh load kit-image-VERSION-arm64.tar.gz' \
	doctor "$mac" KIT_OS_RELEASE=/nonexistent
expect "make doctor on an Apple-silicon Mac with the amd64 image loaded: the arm64 file instead" 1 \
	'FIX +image +The kit.s image loaded in this engine is the amd64 one, and this machine is arm64 .*kit-image-VERSION-arm64.tar.gz' \
	doctor "$mac" KIT_OS_RELEASE=/nonexistent FAKE_SOURCES="$SOURCES" FAKE_ARCH=amd64
expect "make doctor on an Apple-silicon Mac with the arm64 image: READY in its arm64 image, next run.sh lab 1" 0 \
	'ok +image +localhost/kit-lsm:arm64 is loaded; this checkout boots its kernels.*READY: this machine can run the kit in its arm64 image \(arm64: the x86_64 guest cross-built, under TCG\). Next: scripts/image/run.sh lab 1' \
	doctor "$mac" KIT_OS_RELEASE=/nonexistent FAKE_SOURCES="$SOURCES" FAKE_ARCH=arm64 FAKE_TAG=arm64
FEDARM=$(os fedora 41 'Fedora Linux Asahi Remix 41')
asahi=$(host asahi "$NONE" "$BIGDISK" "$UNAME_ARM" "podman|$ENGINE_SH")
expect "make doctor on an arm64 Linux that is not Debian 12 (Asahi), no image: the arm64 file to load" 1 \
	'note +system +Fedora Linux Asahi Remix 41 is not Debian 12: the kit runs here in its container image.*FIX +image +the kit.s image \(arm64\) is not loaded in podman: scripts/image/run.sh load kit-image-VERSION-arm64.tar.gz' \
	doctor "$asahi" KIT_OS_RELEASE="$FEDARM"
expect "make doctor on an arm64 Linux that is not Debian 12 (Asahi), the arm64 image loaded: READY" 0 \
	'READY: this machine can run the kit in its arm64 image' \
	doctor "$asahi" KIT_OS_RELEASE="$FEDARM" FAKE_SOURCES="$SOURCES" FAKE_ARCH=arm64 FAKE_TAG=arm64
riscv=$(host riscv "$ALL" "$BIGDISK" 'uname|case "$1" in -m) echo riscv64;; *) echo Linux;; esac' 'apt-get|exit 0' 'dpkg|exit 0')
expect "make doctor on a host the table lacks (riscv64): the architectures the kit has" 1 \
	'FIX +arch +this is a riscv64 machine: .*x86_64 \(amd64\) and arm64 \(aarch64\)' doctor "$riscv" KIT_OS_RELEASE="$DEB12"
expect "scripts/host/deps.sh on riscv64: stops at once, naming the architecture" 1 \
	'this is a riscv64 machine' deps "$riscv" KIT_OS_RELEASE="$DEB12"

small=$(host small "$ALL" 'apt-get|exit 0' 'dpkg|exit 0' \
	'df|printf "Filesystem 1024-blocks Used Available Capacity Mounted\n/dev/x 9999999 1 2097152 1%% /\n"')
expect "make doctor with 2 GB free: the disk the labs need" 1 \
	'FIX +disk +2 GB free where the kit is .*the labs need [0-9]+ GB' doctor "$small" KIT_OS_RELEASE="$DEB12"

expect "make doctor with bash 3.2 (macOS's): too old, the image" 1 \
	'FIX +bash +bash 3.2 is too old' doctor "$good" KIT_OS_RELEASE="$DEB12" KIT_BASH_VERSION=3.2
expect "scripts/host/deps.sh with bash 3.2: too old, before its first bash-4 feature" 1 \
	'bash 3.2 is too old' deps "$good" KIT_OS_RELEASE="$DEB12" KIT_BASH_VERSION=3.2

# A hostile os-release (another person's text): its escapes shown, not run.
evil=$(os debian 12x "$(printf 'Evil\033]0;pwned\007\033[2J')")
out=$(doctor "$good" KIT_OS_RELEASE="$evil" 2>&1)
if grep -q $'\033' <<<"$out"; then notok "make doctor prints an os-release's escape sequences to the terminal"
else ok "make doctor shows an os-release's control characters as ?, never sends them to the terminal"; fi

# The sudo case: make deps as root in a checkout owned by a user leaves
# build/ that user's, and the user's next run can take its locks; a
# build/ root kept is refused with what to do, not "Permission denied".
sudocase() (
	[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 0; }
	U=$T/user && cp -r "$KS" "$U" && rm -rf "$U/build/stamps" "$U/build/logs" && chown -R 4242:4242 "$U" || exit 1
	chmod 755 "$T"
	env PATH="$good:$T/noapt" KIT_OS_RELEASE="$DEB12" BUILD="$U/build" bash "$U/scripts/host/deps.sh" >/dev/null 2>&1 ||
		{ echo "deps.sh as root failed"; exit 1; }
	left=$(find "$U/build" -user 0)
	[ -z "$left" ] || { echo "make deps as root left root's files in the user's build/: $left"; exit 1; }
	setpriv --reuid=4242 --regid=4242 --clear-groups bash -c \
		'. "$1/scripts/lib/lib.sh" && exec 9>"$BUILD/.kernel-normal.lock"' _ "$U" ||
		{ echo "the user cannot take the kernel's lock after sudo make deps"; exit 1; }
	chown 0:0 "$U/build/stamps"
	out=$(setpriv --reuid=4242 --regid=4242 --clear-groups bash -c '. "$1/scripts/lib/lib.sh"' _ "$U" 2>&1) &&
		{ echo "a root-owned build/stamps was not refused"; exit 1; }
	tr -s ' \n' '  ' <<<"$out" | grep -q 'is not writable by .*sudo chown -R' || { echo "not the message: $out"; exit 1; }
	exit 0
)
scenario "sudo make deps in a user's checkout leaves build/ the user's; a root-owned build/ is refused with the fix" sudocase

# Every section that what the kit says on a host cites (FILE.md, "Heading",
# in doctor's, the image's and the bundle's scripts) is a heading of that
# file: doctor once sent every image host to README.md's "Set-up on any
# host", which does not exist.
cites() {
	local f h bad='' n=0
	while IFS= read -r c; do
		f=${c%%, *} h=${c#*, } h=${h//\\/} h=${h#\"} h=${h%\"}
		n=$((n + 1))
		grep -qxE "#+ $(printf '%s' "$h" | sed 's/[][\.*^$()+?{}|]/\\&/g')" "$K/$f" 2>/dev/null || bad="$bad $f: \"$h\";"
	done < <(cat "$K"/scripts/host/*.sh "$K"/scripts/image/* "$K"/scripts/bundle/*.sh "$K"/scripts/lib/handed.sh |
		grep -oE '[A-Za-z0-9_./-]+\.md, \\?"[^"\\]+\\?"' | sort -u)
	[ "$n" -gt 3 ] || { echo "only $n citations found: the pattern is wrong"; exit 1; }
	[ -z "$bad" ] || { echo "cited sections that do not exist:$bad"; exit 1; }
}
scenario "the sections doctor, run.sh, make image-save and the bundle cite exist (FILE.md, \"Heading\")" cites

# KVM owned by root alone (this machine's /dev/kvm: root:root 0600): no
# advice to join the group root (doctor once said "usermod -aG root").
kvmroot() (
	[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 0; }
	: >"$T/kvm" && chmod 600 "$T/kvm" && chmod 755 "$T" && chmod -R a+rX "$KS" "$T/host-good" "$DEB12"
	out=$(setpriv --reuid=4242 --regid=4242 --clear-groups env HOME=/ PATH="$good:$T/noapt" \
		KIT_OS_RELEASE="$DEB12" KIT_KVM_DEV="$T/kvm" bash "$KS/scripts/host/doctor.sh" 2>&1)
	tr -s ' \n' '  ' <<<"$out" | grep -q "note kvm $T/kvm is there but root's alone" || { echo "not said: $out"; exit 1; }
	! grep -q 'usermod -aG root' <<<"$out" || { echo "the advice is to join root: $out"; exit 1; }
)
scenario "make doctor, a KVM device that is root's alone: no advice to join the group root" kvmroot

# A flavour whose options make Kbuild build the tree's sign-file (MODULE_SIG,
# which Lockdown selects: configs/bpf.config) needs OpenSSL's headers, and
# deps.sh must install them: without libssl-dev, make image on a bare
# Debian 12 failed at the bpf kernel ("openssl/opensslv.h: No such file"),
# where every host that had built it had the package by chance; then,
# with the headers, at its signing key ("GENKEY certs/signing_key.pem:
# openssl: not found"): a minimal Debian 12 has no openssl program.
signfile() {
	local p
	grep -lqE '^CONFIG_(MODULE_SIG|SECURITY_LOCKDOWN_LSM)=y' "$K"/configs/*.config || { echo "no flavour signs modules: the case tests nothing"; exit 1; }
	for p in libssl-dev openssl; do
		bash "$K/scripts/host/deps.sh" --list | grep -qx "$p" ||
			{ echo "a flavour builds sign-file and its key ($(grep -lE '^CONFIG_(MODULE_SIG|SECURITY_LOCKDOWN_LSM)=y' "$K"/configs/*.config | xargs -n1 basename | tr '\n' ' ')), and deps.sh installs no $p"; exit 1; }
	done
}
scenario "the packages include OpenSSL's headers and program, which the tree's sign-file and signing key need for the bpf flavour (MODULE_SIG, selected by Lockdown)" signfile
