#!/usr/bin/env bash
# The series' UAPI headers without a kernel build, for the offline lab
# check (scripts/lab/lab-check.sh).  Usage: series-uapi.sh OUT
#
# Debian's linux-libc-dev (a dependency of libc6-dev, which make deps
# installs) holds the UAPI headers of the same 6.1 that the kit patches;
# a kernel built with the series installs the same files, but for the
# ones the series changes.  So OUT gets only those, made from patches/
# on each call (no copy in the tree to drift from the series):
#   - every header under include/uapi/ a patch touches: Debian's copy (none
#     for a new file), the patches' hunks of it applied in the order of
#     patches/series (git apply), then headers_install.sh's rewriting
#     (__user dropped, _UAPI guards...);
#   - asm/unistd_64.h: Debian's, with a "#define __NR_NAME NR" for each
#     line the patches add to arch/x86/entry/syscalls/syscall_64.tbl (ABI
#     common or 64), as scripts/syscallhdr.sh would write it.
# A compiler given -isystem OUT before the system's include path sees the
# series' headers.  tests/host/lab-check.sh compares OUT with the headers
# of a kernel the kit built, when there is one: they must be the same bytes.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
out=${1:?usage: series-uapi.sh OUT}
# The guest's system headers (lib.sh: Debian's own on an x86_64 host,
# the cross compiler's, /usr/x86_64-linux-gnu/include, on an arm64 one).
SYS=${KIT_SYSTEM_INCLUDE:-$GUEST_SYSINC}	# a stand-in, for tests only
ARCH_INC=$GUEST_ARCHINC
[ -z "${KIT_SYSTEM_INCLUDE:-}" ] || ARCH_INC=$SYS/x86_64-linux-gnu
[ -f "$SYS/linux/prctl.h" ] && [ -f "$ARCH_INC/asm/unistd_64.h" ] ||
	die "no UAPI headers of Debian's linux-libc-dev in $SYS." \
	    "As root: make deps (libc6-dev brings linux-libc-dev); then run this again."

mapfile -t patches < <(series_patches)
[ ${#patches[@]} -gt 0 ] || die "patches/series names no patch." "The series' headers come from patches/; restore it (git checkout patches)."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The UAPI files the series touches; Debian's copy of each it changes.
mapfile -t files < <(cd "$KIT/patches" && sed -n 's|^diff --git a/\(include/uapi/[^ ]*\) b/.*|\1|p' "${patches[@]}" | sort -u)
for f in "${files[@]}"; do
	mkdir -p "$tmp/$(dirname "$f")"
	[ ! -f "$SYS/${f#include/uapi/}" ] || cp "$SYS/${f#include/uapi/}" "$tmp/$f"
done
for p in "${patches[@]}"; do
	grep -q '^diff --git a/include/uapi/' "$KIT/patches/$p" || continue
	(cd "$tmp" && git apply --include='include/uapi/*' "$KIT/patches/$p" 2>"$tmp/apply.err") ||
		die "patches/$p does not apply to Debian's UAPI headers ($SYS): $(head -3 "$tmp/apply.err" | paste -sd' ')." \
		    "The series is written against 6.1 and linux-libc-dev should be 6.1 too ($(dpkg-query -W -f='${Version}' linux-libc-dev 2>/dev/null || echo unknown) here)."
done

rm -rf "$out"
mkdir -p "$out/asm"
for f in "${files[@]}"; do
	[ -f "$tmp/$f" ] || continue	# a file the series removes
	if grep -q '__KERNEL__' "$tmp/$f"; then
		die "$f (after the series) has a __KERNEL__ block, which series-uapi.sh does not strip (headers_install runs unifdef)." \
		    "Teach scripts/kernel/series-uapi.sh unifdef, or keep the header free of kernel-only parts."
	fi
	mkdir -p "$out/$(dirname "${f#include/uapi/}")"
	# scripts/headers_install.sh's rewriting, as in 6.1.
	sed -E -e '
		s/([[:space:](])(__user|__force|__iomem)[[:space:]]/\1/g
		s/__attribute_const__([[:space:]]|$)/\1/g
		s@^#include <linux/compiler(|_types).h>@@
		s/(^|[^a-zA-Z0-9])__packed([^a-zA-Z0-9_]|$)/\1__attribute__((packed))\2/g
		s/(^|[[:space:](])(inline|asm|volatile)([[:space:](]|$)/\1__\2__\3/g
		s@#(ifndef|define|endif[[:space:]]*/[*])[[:space:]]*_UAPI@#\1 @
	' "$tmp/$f" >"$out/${f#include/uapi/}"
done

# The x86_64 system call numbers the series adds.
tbl=$(cd "$KIT/patches" && awk '
	/^diff --git / { on = ($0 ~ / a\/arch\/x86\/entry\/syscalls\/syscall_64\.tbl /); next }
	on && /^-[0-9]/ { print "removed " $0 }
	on && /^\+[0-9]/ { sub(/^\+/, ""); if ($2 == "common" || $2 == "64") print "#define __NR_" $3 " " $1 }' "${patches[@]}")
if grep -q '^removed ' <<<"$tbl"; then
	die "the series removes a line of syscall_64.tbl ($(grep -m1 '^removed ' <<<"$tbl")), which series-uapi.sh cannot follow." \
	    "Teach scripts/kernel/series-uapi.sh to drop the line from asm/unistd_64.h too."
fi
if [ -n "$tbl" ]; then
	awk -v add="$tbl" '{ line[NR] = $0; if ($0 ~ /^#define __NR_/) last = NR }
		END { for (i = 1; i <= NR; i++) { print line[i]; if (i == last) print add } }' \
		"$ARCH_INC/asm/unistd_64.h" >"$out/asm/unistd_64.h"
fi
