#!/usr/bin/env bash
# Compile a guest program (x86_64 on every host: configs/arches.conf's
# cross compiler on another): static, plain C11, warnings are errors, against
# the kit kernel's UAPI headers (build/usr/include), the kselftest
# harness of the extracted tree and the kit's C library ($KITINC, whose
# headers are included as "kit/NAME.h").  Usage: guest-cc.sh -o OUT SRC...
# [FLAGS]
# KIT_UAPI=DIR: against DIR (scripts/kernel/series-uapi.sh: the headers the series
# changes) over Debian's UAPI headers instead, without a kernel build (the
# offline lab check, scripts/lab/lab-check.sh).
set -euo pipefail
. "${0%/*}/../lib/lib.sh"
if [ -n "${KIT_UAPI:-}" ]; then
	INC=$KIT_UAPI
else
	INC=$(flavour_dir)/usr/include
	[ -f "$INC/linux/types.h" ] || INC=$BUILD/usr/include
	[ -f "$INC/linux/types.h" ] || die "no UAPI headers in $INC." "Build the kernel first: make kernel."
fi
# The guest's compiler: the host's gcc on an x86_64 host, the cross
# compiler elsewhere, whose static libraries beyond libc's (lab 13's
# libbpf.a, libelf.a, libz.a) are amd64's, unpacked (lib.sh: GUEST_CC,
# GUEST_LIBDIR; configs/arches.conf).
libs=()
[ "$GUEST_ROOT" = / ] || libs=(-L "$GUEST_LIBDIR")
exec "$GUEST_CC" -std=c11 -static -O2 -g -Wall -Wextra -Werror \
	-fmax-errors=10 -pthread \
	-isystem "$INC" -isystem "$TREE/tools/testing/selftests" \
	-I "$KITINC" "$@" ${libs[@]+"${libs[@]}"}
