#!/usr/bin/env bash
# make bench: what a guest's boot costs in CPU (issue 45), QEMU's user and
# system time, which the host's load hardly moves: the empty guest of a
# make run (run-guest.sh, build/run/NAME/cpu-ms) against a bare boot of
# the same bzImage (a busybox initramfs whose init says so on the serial
# port and powers off, command line "panic=-1 no_timer_check": what the
# kit's initramfs and command line add), and the same guest with the
# kernel's KUnit suites run at boot (kunit.enable=1, which the kit gives
# only to the boots whose tests read them).  In rounds (BENCH_BOOT_ROUNDS,
# default 5), the three boots of a round in a rotating order; each figure
# the median of the rounds, each comparison the median of the rounds'
# ratios or differences.  Appends table rows to the file $1.
set -uo pipefail
. "${0%/*}/../lib/lib.sh"
. "$KIT/scripts/bench/bench-lib.sh"
ROWS=${1:?usage: bench-boot.sh ROWS-FILE}
ROUNDS=${BENCH_BOOT_ROUNDS:-5}
W=$BUILD/run/bench-bare
CPUF=$W/times

"$KIT/scripts/guest/initramfs.sh" >/dev/null || exit 1
rm -rf "$W" && mkdir -p "$W"
printf '#!/bin/sh\necho bare-boot-ok >/dev/ttyS0\n/bin/busybox reboot -f\n' >"$W/init"
cat >"$W/list" <<EOF
dir /bin 0755 0 0
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
nod /dev/ttyS0 0600 0 0 c 4 64
file /bin/busybox /bin/busybox 0755 0 0
slink /bin/sh busybox 0777 0 0
file /init $W/init 0755 0 0
EOF
"$BUILD/tools/gen_init_cpio" "$W/list" | gzip -1 -n >"$W/initrd.cpio.gz" || exit 1
case "$("$KIT/scripts/guest/accel.sh")" in
kvm) accel=(-accel kvm -cpu host) ;;
*) accel=(-accel 'tcg,thread=single') ;;
esac

# bare: the bare boot's CPU (ms), or nothing if it did not say it ran.
bare() {
	local c0 c1
	rm -f "$W/console"
	children_cpu c0 "$CPUF"
	timeout 120 qemu-system-x86_64 "${accel[@]}" -m 512M -smp 2,sockets=2 -no-reboot \
		-kernel "$BUILD/bzImage" -initrd "$W/initrd.cpio.gz" -append "panic=-1 no_timer_check" \
		-net none -display none -monitor none -serial "file:$W/console" </dev/null >/dev/null 2>&1
	children_cpu c1 "$CPUF"
	grep -q bare-boot-ok "$W/console" 2>/dev/null && echo $((c1 - c0))
}
# kit [APPEND]: make run's empty guest's CPU (ms), or nothing if it failed.
kit() {
	APPEND=${1:-} "$KIT/scripts/guest/run-guest.sh" --quiet --name bench-cpu --cmd true >/dev/null 2>&1 &&
		cat "$BUILD/run/bench-cpu/cpu-ms"
}

say "bench: guest boot CPU, make run's empty guest against a bare boot and with KUnit ($ROUNDS rounds)"
l0=$(load) ks=() bs=() us=() kb=() ku=()
for i in $(seq "$ROUNDS"); do
	for j in 0 1 2; do
		case $(((i + j) % 3)) in
		0) x=$(kit) && ks+=("$x") ;;
		1) x=$(bare) && bs+=("$x") ;;
		2) x=$(kit kunit.enable=1) && us+=("$x") ;;
		esac
		[ -n "$x" ] || { say "bench: a boot failed (round $i); no boot CPU figures"; ks=(); break 2; }
	done
	kb+=("$(echo "${ks[-1]} / ${bs[-1]}" | bc -l)") ku+=("$((us[-1] - ks[-1]))")
done
med() { printf '%s\n' "$@" | median; }
{
	if [ ${#ks[@]} -gt 0 ]; then
		row "guest boot CPU, QEMU's user+system: make run's empty guest against a bare boot of the same bzImage (busybox init, panic=-1 no_timer_check; $ROUNDS rounds, load $l0-$(load))" \
			"$(awk -v k="$(med "${ks[@]}")" -v b="$(med "${bs[@]}")" 'BEGIN { printf "%.2f s vs %.2f s", k / 1000, b / 1000 }')" "" \
			"$(printf '%s\n' "${kb[@]}" | sort -g | awk -v m="$(med "${kb[@]}")" '{ a[NR] = $1 }
				END { printf "%.2fx (median of the rounds'"'"' ratios; %.2f-%.2f): what the kit'"'"'s initramfs and command line add", m, a[1], a[NR] }')"
		row "  the same guest with the kernel's KUnit suites at boot (kunit.enable=1; the kit runs them only for the tests that read them)" \
			"$(awk -v u="$(med "${us[@]}")" 'BEGIN { printf "%.2f s", u / 1000 }')" "" \
			"$(printf '%s\n' "${ku[@]}" | sort -g | awk -v d="$(med "${ku[@]}")" '{ a[NR] = $1 }
				END { printf "%+.2f s (median of the rounds'"'"' differences; %+.2f to %+.2f)", d / 1000, a[1] / 1000, a[NR] / 1000 }')"
	else
		row "guest boot CPU against a bare boot" "failed (a boot did not finish)" "" ""
	fi
} >>"$ROWS"
