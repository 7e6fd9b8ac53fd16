#!/usr/bin/env bash
# Compile a guest program: static, plain C11, warnings are errors, against
# the kit kernel's UAPI headers (build/usr/include) and the kselftest
# harness of the extracted tree.  Usage: guest-cc.sh -o OUT SRC... [FLAGS]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
INC=$(flavour_dir)/usr/include
[ -f "$INC/linux/types.h" ] || INC=$BUILD/usr/include
[ -f "$INC/linux/types.h" ] || die "no UAPI headers in $INC." "Build the kernel first: make kernel."
exec gcc -std=c11 -static -O2 -g -Wall -Wextra -Werror \
	-fmax-errors=10 -pthread \
	-isystem "$INC" -isystem "$TREE/tools/testing/selftests" \
	-I "$KIT/tests/guest" "$@"
