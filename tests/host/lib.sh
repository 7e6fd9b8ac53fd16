#!/usr/bin/env bash
# Offline tests of scripts/lib/lib.sh's choice of the series' UAPI
# headers (series_headers).
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# The base initramfs is shared by every flavour: its probe is compiled
# against the series' headers even when the reference kernel (FLAVOUR=
# mainline, whose <linux/lsm.h> has no LSM_ID_TOYLSM) boots it and its
# headers are the newest (stop 26's CI: make mainline-tests rebuilt probe
# against 6.12's headers and every boot failed to compile it).
hdrcase() (
	B=$T/hdr
	mk() { mkdir -p "$B/$1/usr/include/linux" && : >"$B/$1/usr/include/linux/lsm.h"; }
	pick() { BUILD=$B FLAVOUR=$1 bash -c '. "$1/scripts/lib/lib.sh" && series_headers' _ "$K"; }
	mkdir -p "$B" && mk mainline
	[ -z "$(pick mainline)" ] || { echo "only mainline's headers, and they were picked: $(pick mainline)"; exit 1; }
	mk debug
	[ "$(pick mainline)" = "$B/debug/usr/include" ] || { echo "mainline boot, debug built: got '$(pick mainline)'"; exit 1; }
	mk .
	for f in mainline normal debug baseline; do
		[ "$(pick $f)" = "$B/./usr/include" ] || [ "$(pick $f)" = "$B/usr/include" ] ||
			{ echo "FLAVOUR=$f: got '$(pick $f)', not the normal flavour's"; exit 1; }
	done
)
scenario "the shared initramfs's probe: the series' headers for every flavour, never the reference kernel's" hdrcase
