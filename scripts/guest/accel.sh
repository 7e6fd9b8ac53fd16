#!/usr/bin/env bash
# Print the QEMU accelerator to use: kvm only when a short probe boot with
# it really reaches the guest's status line, else tcg.  /dev/kvm existing is
# not enough: here QEMU fails with -cpu host and hangs with -cpu qemu64, so
# the probe has its own 10 s limit.  The answer is kept per flavour (with
# one for all, a make lab 8, the lab kernel, between two make run, the
# normal one, cost each of them a new probe) under what decides it: the
# host's kernel, QEMU, the KVM device, and the flavour's configuration.
# Not the image: each build made one, so each edit of a kernel-side lab,
# and each of the lab kernels make test grades, cost the probe's whole
# 10 s where KVM hangs.  KIT_KVM_DEV: another device (tests/host/accel.sh).
set -uo pipefail
. "${0%/*}/../lib/lib.sh"

cache=$STAMPS/accel-$FLAVOUR
kvm=${KIT_KVM_DEV:-/dev/kvm}
# answer: the kept answer, the last line of $cache.
answer() { local l a=; while IFS= read -r l; do a=$l; done <"$cache"; echo "$a"; }
# Every guest asks, so first lib.sh's quick stamp (issue 45): none of
# what the key below reads has changed (by ctime: the configuration, QEMU,
# the device and its folder, where it may appear), nor the host's kernel,
# nor which QEMU PATH names.
read -r osrelease </proc/sys/kernel/osrelease || osrelease=
qenv="$osrelease $kvm $(type -P "$GUEST_QEMU")"
if quick_ok "accel-$FLAVOUR" "$qenv" "$cache"; then answer; exit 0; fi
# remember: the key's paths for the quick stamp, then the answer.
remember() {
	local q
	q=$(command -v "$GUEST_QEMU")
	watch_list "$KOUT/.config" "$(flavour_dir)/bzImage" "$q" "$(readlink -f "$q")" "$kvm" "${kvm%/*}/." "$cache" \
		>"$STAMPS/accel-$FLAVOUR.watch"
	quick_set "accel-$FLAVOUR" "$qenv"
	answer
}

# Parallel guests probe once: the others wait for the answer.
exec 8>"$BUILD/.accel.lock"
flock 8
quick_begin "accel-$FLAVOUR"
if [ -f "$KOUT/.config" ]; then
	config=$(sha256sum <"$KOUT/.config" | cut -d' ' -f1)
else	# no configuration to read (an image from elsewhere): the image
	config=$(stat -c '%s %Y' "$(flavour_dir)/bzImage" 2>&1)
fi
key="$(uname -r) | $(stat -L -c '%s %Y' "$(command -v "$GUEST_QEMU")" 2>&1) | $(stat -L -c '%i %z' "$kvm" 2>&1) | $config"
if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
	remember
	exit 0
fi
# KVM runs a guest of the host's own architecture only: an arm64 host
# boots the x86_64 guest under TCG, /dev/kvm or not (lib.sh's GUEST_KVM).
accel=tcg
if [ "$GUEST_KVM" = 1 ] && [ -r "$kvm" ] && [ -w "$kvm" ]; then
	ACCEL=kvm TIMEOUT=10 "$KIT/scripts/guest/run-guest.sh" --quiet --name kvm-probe \
		--cmd true >/dev/null 2>&1 && accel=kvm
fi
printf '%s\n%s\n' "$key" "$accel" >"$cache"
remember
