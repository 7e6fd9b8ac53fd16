#!/usr/bin/env bash
# Print the QEMU accelerator to use: kvm only when a short probe boot with
# it really reaches the guest's status line, else tcg.  /dev/kvm existing is
# not enough: here QEMU fails with -cpu host and hangs with -cpu qemu64, so
# the probe has its own 10 s limit.  The answer is cached per kernel image,
# one cache per flavour: with one for all, a make lab 8 (the lab kernel)
# between two make run (the normal one) cost each of them a new probe, the
# whole 10 s where KVM hangs.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Parallel guests probe once: the others wait for the answer.
exec 8>"$BUILD/.accel.lock"
flock 8
cache=$STAMPS/accel-$FLAVOUR
key="$(uname -r) $(stat -c %Y "$(flavour_dir)/bzImage" 2>/dev/null)"
if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
	tail -1 "$cache"
	exit 0
fi
accel=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	ACCEL=kvm TIMEOUT=10 "$KIT/scripts/run-guest.sh" --quiet --name kvm-probe \
		--cmd true >/dev/null 2>&1 && accel=kvm
fi
printf '%s\n%s\n' "$key" "$accel" >"$cache"
echo "$accel"
