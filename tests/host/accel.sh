#!/usr/bin/env bash
# Offline tests of scripts/guest/accel.sh: one KVM probe per flavour,
# configuration, device and QEMU.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# accel.sh's answer (kvm or tcg) is kept per flavour under what decides
# it: the flavour's configuration, the KVM device, QEMU and the host's
# kernel; a new image of the same configuration (each lab kernel make test
# grades, each edit of a kernel-side lab) asks no new probe, which costs
# 10 s where KVM hangs.  A stand-in run-guest.sh counts the probes (and
# fails them: KVM does not work); KIT_KVM_DEV is a file that stands for
# the device.  ACCEL_SABOTAGE: a sed script applied to accel.sh first.
accelcase() (
	S=$T/accel
	rm -rf "$S" && mkdir -p "$S/kit" && cp -r "$K/scripts" "$S/kit/" || exit 1
	[ -z "${ACCEL_SABOTAGE:-}" ] || sed -i "$ACCEL_SABOTAGE" "$S/kit/scripts/guest/accel.sh"
	printf '#!/bin/sh\necho probe >>"%s"\nexit 1\n' "$S/probes" >"$S/kit/scripts/guest/run-guest.sh"
	chmod +x "$S/kit/scripts/guest/run-guest.sh"
	: >"$S/kvm" && : >"$S/probes"
	export BUILD=$S/build KIT_KVM_DEV=$S/kvm FLAVOUR=normal
	mkdir -p "$BUILD/kbuild/normal" "$BUILD/kbuild/lab" "$BUILD/lab" || exit 1
	echo 'CONFIG_A=y' >"$BUILD/kbuild/normal/.config"
	echo image-1 >"$BUILD/bzImage"
	probes() { grep -c . "$S/probes"; }
	step() {	# step WHAT N: accel.sh says tcg and the probes are N
		local a
		a=$("$S/kit/scripts/guest/accel.sh" 2>&1)
		[ "$a" = tcg ] || { echo "$1: accel.sh said '$a', not tcg"; exit 1; }
		[ "$(probes)" = "$2" ] || { echo "$1: $(probes) probe(s), not $2"; exit 1; }
	}
	step "the first question" 1
	step "the same question again" 1
	echo image-2 >"$BUILD/bzImage" && touch -d '+1 min' "$BUILD/bzImage"
	step "a new image of the same configuration" 1
	echo 'CONFIG_B=y' >>"$BUILD/kbuild/normal/.config"
	step "the configuration changed" 2
	chmod 600 "$S/kvm"	# a new ctime, as when the device comes back
	step "the KVM device changed" 3
	echo 'CONFIG_A=y' >"$BUILD/kbuild/lab/.config" && echo lab >"$BUILD/lab/bzImage"
	FLAVOUR=lab step "another flavour" 4
	FLAVOUR=normal step "back to the first flavour" 4
	rm -f "$S/kvm"
	echo 'CONFIG_C=y' >>"$BUILD/kbuild/normal/.config"
	step "no KVM device: no probe" 4
	exit 0
)
sabotaged "accel.sh probes KVM once per flavour, configuration, device and QEMU, not once per image" \
	"an accel.sh keyed on the image" accelcase ACCEL_SABOTAGE 's|^\tconfig=$(sha256sum.*|\tconfig=$(stat -c %Y "$(flavour_dir)/bzImage")|' '^a new image of the same configuration: 2 probe'
