#!/usr/bin/env bash
# The offline bundle (scripts/bundle/): make deps BUNDLE=FILE refuses what
# is not a bundle and writes nothing (offline, with a stand-in apt-get),
# then the whole path when its inputs exist, named by the environment: a
# bundle (make bundle OUT=FILE; KIT_TEST_BUNDLE=FILE), a local Debian 12
# base image made with debootstrap (scripts/image/base.sh; KIT_TEST_BASE)
# and podman: in a container of that bare Debian 12 with no network, the
# bundle installs (scripts/bundle/install.sh: a minbase system has no
# make) and make lab 1 SOLUTION=1 passes, its kernel taken from the
# bundle's when the bundle carries one.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
echo "1..4"

# A stand-in apt-get that logs its calls; a scratch copy of the scripts
# (BSAB: a sed script applied to its scripts/bundle/install.sh, HSAB to
# scripts/lib/handed.sh).
scratch() {
	rm -rf "${T:?}/kit" "${T:?}/bin" "${T:?}/b" "${T:?}/cache" && mkdir -p "$T/kit" "$T/bin"
	cp -r "$K/scripts" "$T/kit/"
	[ -z "${BSAB:-}" ] || sed -i "$BSAB" "$T/kit/scripts/bundle/install.sh"
	[ -z "${HSAB:-}" ] || sed -i "$HSAB" "$T/kit/scripts/lib/handed.sh"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$T" >"$T/bin/apt-get"
	chmod +x "$T/bin/apt-get"
	: >"$T/apt.log"
}
inst() { PATH=$T/bin:$PATH KIT_KERNEL_CACHE=$T/cache "$T/kit/scripts/bundle/install.sh" "$@" 2>&1; }
# bundle NAME [EDIT]: a small bundle as make bundle lays it out ($T/b,
# SHA256SUMS, a kernel entry with its links' list), EDIT (shell code run
# in $T/b after SHA256SUMS is written) applied, tarred as $T/NAME.tar
# with its .sha256 beside it (written before EDIT2, if the tar is to be
# spoilt after: a flipped byte).
bundle() {
	local name=$1 edit=${2:-} k=$T/b/kit-bundle/kernels/normal-abc
	rm -rf "${T:?}/b" && mkdir -p "$T/b/kit-bundle/debs" "$T/b/kit-bundle/apparmor" "$k/kbuild/arch/x86/boot" "$k/kbuild/arch/x86_64/boot"
	echo 'kit-bundle 1' >"$T/b/kit-bundle/manifest"
	printf 'Package: make\nVersion: 4.3-4.1\n\n' >"$T/b/kit-bundle/debs/Packages"
	echo deb >"$T/b/kit-bundle/debs/make_4.3-4.1_amd64.deb"
	echo deb >"$T/b/kit-bundle/apparmor/apparmor_1_amd64.deb"
	echo bz >"$k/kbuild/arch/x86/boot/bzImage"; : >"$k/done"; echo /old/clone >"$k/kit"
	printf 'kbuild/source\t/old/clone/build/linux\nkbuild/arch/x86_64/boot/bzImage\t../../x86/boot/bzImage\n' >"$k/links"
	# shellcheck disable=SC2094 # find skips SHA256SUMS: never read as it is written
	(cd "$T/b/kit-bundle" && find . -type f ! -name SHA256SUMS -printf '%P\0' | LC_ALL=C sort -z | xargs -0 sha256sum >SHA256SUMS)
	(cd "$T/b" && eval "$edit") || return 1
	tar -C "$T/b" -cf "$T/$name.tar" kit-bundle
	(cd "$T" && sha256sum "$name.tar" >"$name.tar.sha256")
}
# refused NAME ERE [ARGS]: install.sh refuses $T/NAME.tar with a message
# matching ERE, and installs nothing.
refused() {
	local name=$1 ere=$2 out
	shift 2
	out=$(inst "$T/$name.tar" "$@") && { echo "$name was taken: $out"; exit 1; }
	grep -qE -- "$ere" <<<"$(tr '\n' ' ' <<<"$out")" || { echo "$name: not the message /$ere/: $out"; exit 1; }
	[ ! -s "$T/apt.log" ] || { echo "$name: apt-get was called: $(cat "$T/apt.log")"; exit 1; }
	[ ! -e "$T/kit/build/deb" ] && [ ! -e "$T/cache" ] || { echo "$name: build/deb or the kernel cache was written"; exit 1; }
}

refuses() {
	scratch
	# A tar with a member outside kit-bundle/, a link to a bundle, no file.
	bundle evil 'echo x >evil' && tar -C "$T/b" -cf "$T/evil.tar" kit-bundle evil && (cd "$T" && sha256sum evil.tar >evil.tar.sha256)
	refused evil 'members outside kit-bundle/'
	bundle good
	ln -sf "$T/good.tar" "$T/link.tar"
	refused link 'symbolic link'
	refused missing 'no such file'
}
sabotaged "make deps BUNDLE=FILE refuses a symlink, a missing file and a tar that is no bundle, and calls no apt" \
	"an install.sh without the members' check" refuses HSAB 's/^\t\[ -z "\$bad" \] || die "\$f is not a kit file.*/:/' 'members outside\|was taken'

# The digest make bundle printed: required, and compared.  Before, a
# bundle with a flipped byte (a damaged stick) was unpacked and installed.
digest() {
	scratch
	bundle good
	good=$(cut -d' ' -f1 "$T/good.tar.sha256")
	cp "$T/good.tar" "$T/flip.tar" && cp "$T/good.tar.sha256" "$T/flip.tar.sha256"
	# One byte of a .deb's content (where tar's own header says it is).
	off=$(python3 -c 'import sys, tarfile
print([m.offset_data for m in tarfile.open(sys.argv[1]) if m.name.endswith(".deb")][0])' "$T/flip.tar")
	printf 'X' | dd of="$T/flip.tar" bs=1 seek="$off" conv=notrunc status=none
	refused flip "is not the file expected: its SHA-256 is [0-9a-f]{64}, and flip.tar.sha256 beside it says $good"
	cp "$T/good.tar" "$T/bare.tar"
	refused bare 'no digest to be checked against'
	refused good 'SHA-256 is [0-9a-f]{64}, and the digest given says 0{64}' "$(printf '0%.0s' $(seq 64))"
	refused good 'has 5 hex digits, not 64' abcde
	# The digest given wins over the file beside it (a swapped stick swaps both).
	out=$(inst "$T/good.tar" "$good") 
	grep -q "good.tar: SHA-256 $good, as the digest given says" <<<"$out" || { echo "the right digest was not taken: $out"; exit 1; }
}
sabotaged "make deps BUNDLE=FILE: the SHA-256 make bundle printed is required (SHA256=, else the .sha256 beside it); a flipped byte is refused with the digest expected and found" \
	"an install.sh that checks no digest" digest BSAB 's/^handed_file "\$file".*/:/' 'was taken\|not the message'

# Members: only plain files and folders, no setuid bit, no link; each
# file the one SHA256SUMS names, nothing else; the kernels' links made
# again inside their entry.  Before, a setuid file and a symlinked .deb
# (cp followed it: a root-only file copied into the user's checkout) were
# taken.
members() {
	scratch
	bundle suid 'chmod 4755 kit-bundle/debs/make_4.3-4.1_amd64.deb'
	refused suid 'setuid, setgid or sticky bit'
	bundle slink 'rm kit-bundle/apparmor/apparmor_1_amd64.deb && ln -s /etc/shadow kit-bundle/apparmor/apparmor_1_amd64.deb'
	refused slink 'neither a plain file nor a folder'
	bundle hard 'ln kit-bundle/manifest kit-bundle/debs/hard.deb'
	refused hard 'neither a plain file nor a folder|does not list'
	bundle extra 'echo x >kit-bundle/debs/extra.deb'
	refused extra 'files that the manifest does not list: .*extra.deb'
	bundle changed 'echo y >kit-bundle/debs/make_4.3-4.1_amd64.deb'
	refused changed "files whose content is not the manifest's: .*make_4.3-4.1_amd64.deb"
	bundle out 'printf "kbuild/evil\t../../../../etc\n" >kit-bundle/kernels/normal-abc/links && (cd kit-bundle && find . -type f ! -name SHA256SUMS -printf "%P\0" | LC_ALL=C sort -z | xargs -0 sha256sum >SHA256SUMS)'
	refused out 'points out of its entry'
	bundle abs 'printf "kbuild/evil\t/etc/shadow\n" >kit-bundle/kernels/normal-abc/links && (cd kit-bundle && find . -type f ! -name SHA256SUMS -printf "%P\0" | LC_ALL=C sort -z | xargs -0 sha256sum >SHA256SUMS)'
	refused abs 'points out of its entry'
	# The good one, as root on Debian 12 (apt-get a stand-in): installed,
	# its kernel's links made again.
	if [ "$(id -u)" = 0 ] && grep -qx 'VERSION_ID="12"' /etc/os-release 2>/dev/null; then
		bundle good
		out=$(inst "$T/good.tar") || { echo "the good bundle was refused: $out"; exit 1; }
		[ "$(readlink "$T/cache/normal-abc/kbuild/source")" = /old/clone/build/linux ] &&
			[ "$(cat "$T/cache/normal-abc/kbuild/arch/x86_64/boot/bzImage")" = bz ] ||
			{ echo "the kernel's links were not made again: $(find "$T/cache" -type l -printf '%p -> %l\n')"; exit 1; }
		[ ! -e "$T/cache/normal-abc/links" ] || { echo "the links' list was left in the cache"; exit 1; }
		[ -f "$T/kit/build/deb/apparmor_1_amd64.deb" ] && [ ! -L "$T/kit/build/deb/apparmor_1_amd64.deb" ] || { echo "no apparmor .deb in build/deb"; exit 1; }
	fi
}
sabotaged "make deps BUNDLE=FILE takes only plain files and folders with no setuid bit, each the one SHA256SUMS names; the kernels' links made again inside their entry" \
	"an install.sh that reads no member's type before extracting" members BSAB 's/^handed_tar "\$file" kit-bundle$/:/' 'was taken'

BASE=${KIT_TEST_BASE:-}
BUNDLE=${KIT_TEST_BUNDLE:-}
why=
[ -n "$BASE" ] && [ -n "$BUNDLE" ] || why="KIT_TEST_BASE and KIT_TEST_BUNDLE are not both set: a local Debian 12 base image (as root: scripts/image/base.sh localhost/kit-base-bookworm) and a bundle (make bundle OUT=FILE)"
[ -n "$why" ] || command -v podman >/dev/null 2>&1 || why="podman is not installed (the instructor's tool: apt-get install podman runc uidmap)"
[ -n "$why" ] || podman image exists "$BASE" 2>/dev/null ||
	why="no local Debian 12 base image $BASE (as root: scripts/image/base.sh $BASE)"
[ -n "$why" ] || [ -f "$BUNDLE" ] || why="no bundle $BUNDLE (make bundle OUT=build/kit-bundle.tar, on an up-to-date Debian 12 after make kernel, or in the image: KIT_NETWORK=1 scripts/image/run.sh bundle OUT=/kit/build/kit-bundle.tar)"
if [ -n "$why" ]; then
	skip "the bundle on a bare Debian 12 with no network: installed, then make lab 1 SOLUTION=1 passes" "$why"
	exit 0
fi

bare() {
	. "$K/scripts/lib/lib.sh"
	. "$K/scripts/image/engine.sh"
	engine_pick && engine_limits && engine_runtime "$BASE"
	mkdir -p "$T/kit" && tar -C "$K" --exclude=./build --exclude=./.git -cf - . | tar -C "$T/kit" -xf -
	t=$SECONDS
	podman run --rm --network none "${ENGINE_FLAGS[@]}" -v "$T/kit:/kit" -v "$BUNDLE:/kit-bundle.tar:ro" \
		"$BASE" bash -c 'cd /kit && s=$SECONDS && scripts/bundle/install.sh /kit-bundle.tar &&
			echo "figure: scripts/bundle/install.sh: $((SECONDS - s)) s" && s=$SECONDS &&
			make lab 1 SOLUTION=1 && echo "figure: make lab 1 SOLUTION=1 after it: $((SECONDS - s)) s"' >"$T/bare.out" 2>&1 ||
		{ tail -20 "$T/bare.out"; exit 1; }
	# The manifest's two lines, each once (the second once read the
	# first's output too: "bundle of the kit at bundle made ...").
	[ "$(grep -c '^kit: bundle of the kit at [0-9a-f]\{40\}$' "$T/bare.out")" = 1 ] &&
		[ "$(grep -c '^kit: bundle ' "$T/bare.out")" = 2 ] ||
		{ echo "the manifest's lines are not each said once:"; grep '^kit: bundle ' "$T/bare.out"; exit 1; }
	{
		echo "bundle: $(du -m "$BUNDLE" | cut -f1) MB, $(tar -xOf "$BUNDLE" kit-bundle/manifest | grep -E '^(debs|kernels):' | tr '\n' ' ')"
		echo "install and make lab 1 SOLUTION=1 on a bare Debian 12, no network: $((SECONDS - t)) s in all"
		sed -n 's/^figure: //p' "$T/bare.out"
		grep -E '^kit: (set-up from the bundle|kernel \(normal\) ready)' "$T/bare.out"
	} >"$T/figures"
	if tar -xOf "$BUNDLE" kit-bundle/manifest | grep -q '^kernels: normal-'; then
		grep -q 'from the kernel cache' "$T/bare.out" || { echo "the bundle's kernel was not used"; exit 1; }
	fi
}
scenario "the bundle on a bare Debian 12 with no network: installed, then make lab 1 SOLUTION=1 passes" bare
[ ! -s "$T/figures" ] || diag <"$T/figures"
