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
echo "1..2"

# A stand-in apt-get that logs its calls; a scratch copy of the scripts
# (BSAB: a sed script applied to its scripts/bundle/install.sh).
refuses() {
	rm -rf "${T:?}/kit" "${T:?}/bin" "${T:?}/b" && mkdir -p "$T/kit" "$T/bin" "$T/b/kit-bundle/debs"
	cp -r "$K/scripts" "$T/kit/"
	[ -z "${BSAB:-}" ] || sed -i "$BSAB" "$T/kit/scripts/bundle/install.sh"
	printf '#!/bin/sh\necho "apt-get $*" >>"%s/apt.log"\n' "$T" >"$T/bin/apt-get"
	chmod +x "$T/bin/apt-get"
	: >"$T/apt.log"
	inst() { PATH=$T/bin:$PATH "$T/kit/scripts/bundle/install.sh" "$@" 2>&1; }
	# A tar with a member outside kit-bundle/, and a link to a bundle.
	echo 'x' >"$T/b/evil" && echo 'kit-bundle 1' >"$T/b/kit-bundle/manifest" && : >"$T/b/kit-bundle/debs/Packages"
	tar -C "$T/b" -cf "$T/evil.tar" kit-bundle evil
	tar -C "$T/b" -cf "$T/good.tar" kit-bundle
	ln -s "$T/good.tar" "$T/link.tar"
	out=$(inst "$T/link.tar") && { echo "a symlink was taken: $out"; exit 1; }
	grep -q 'symbolic link' <<<"$out" || { echo "no clear word for a symlink: $out"; exit 1; }
	out=$(inst "$T/missing.tar") && { echo "a missing file was taken"; exit 1; }
	if [ "$(id -u)" = 0 ] && grep -qx 'VERSION_ID="12"' /etc/os-release 2>/dev/null; then
		out=$(inst "$T/evil.tar") && { echo "a tar with a member outside kit-bundle/ was taken: $out"; exit 1; }
		grep -q 'members outside kit-bundle/' <<<"$out" || { echo "no clear word for a foreign tar: $out"; exit 1; }
	fi
	[ ! -s "$T/apt.log" ] || { echo "apt-get was called: $(cat "$T/apt.log")"; exit 1; }
	[ ! -e "$T/kit/build/deb" ] || { echo "build/deb was written"; exit 1; }
}
sabotaged "make deps BUNDLE=FILE refuses a symlink, a missing file and a tar that is no bundle, and calls no apt" \
	"an install.sh without the members' check" refuses BSAB 's/^\[ -z "\$bad" \] \&\& /[ -n . ] || /' 'members outside\|was taken'

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
