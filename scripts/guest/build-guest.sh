#!/usr/bin/env bash
# Build the guest test programs guest/tests/*.c into build/guest/, each only
# when its source, a local header, one of the kit's library ($KITINC) or
# the kernel's UAPI headers are newer.
# Usage: build-guest.sh [NAME...]   (default: all)
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
OUTD=$BUILD/guest
mkdir -p "$OUTD"
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in "$KIT"/guest/tests/*.c; do names+=("$(basename "$f" .c)"); done
fi
hdrs=$(flavour_dir)/usr/include/linux/lsm.h
[ -f "$hdrs" ] || hdrs=$(flavour_dir)/usr/include/linux/types.h
for n in "${names[@]}"; do
	src=$KIT/guest/tests/$n.c bin=$OUTD/$n
	[ -f "$src" ] || die "no guest test guest/tests/$n.c." "Check the program names in tests/boots.conf."
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$hdrs" ] &&
	   [ -z "$(find "$KIT/guest/tests" "$KITINC" -name '*.h' -newer "$bin" -print -quit)" ]; then
		continue
	fi
	"$KIT/scripts/guest/guest-cc.sh" -o "$bin" "$src" ||
		die "guest/tests/$n.c does not compile (compiler output above)." "Fix the first error shown."
done
