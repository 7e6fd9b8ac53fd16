#!/usr/bin/env bash
# Pack the guest's base initramfs (busybox, initramfs/init and the tool
# /bin/why, built from initramfs/why.c) from initramfs/files.list into
# build/initramfs.cpio.gz, only when an input changed.  With -p LIST OUT:
# pack a payload archive from a gen_init_cpio list instead (run-guest.sh
# uses it for /kit/run and the programs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Guests started in parallel (a lab's boots) may all get here at once: one
# packs, the others wait and then find the stamp up to date.
exec 8>"$BUILD/.initramfs.lock"
flock 8

GEN=$BUILD/tools/gen_init_cpio
if [ ! -x "$GEN" ] || [ "$TREE/usr/gen_init_cpio.c" -nt "$GEN" ]; then
	[ -f "$TREE/usr/gen_init_cpio.c" ] || "$KIT/scripts/tree.sh"
	mkdir -p "$BUILD/tools"
	gcc -O2 -o "$GEN" "$TREE/usr/gen_init_cpio.c" ||
		die "could not build gen_init_cpio from the kernel tree." "Check that gcc works, then run make again."
fi

if [ "${1:-}" = -p ]; then
	(cd "$KIT" && "$GEN" "$2") | gzip -1 -n >"$3"
	exit 0
fi

# The guest's own tools, built here (static C, as the guest tests are,
# but without the kernel's headers): why (initramfs/why.c).
WHY=$BUILD/tools/why
if [ ! -x "$WHY" ] || [ "$KIT/initramfs/why.c" -nt "$WHY" ] || [ "$KIT/tests/guest/lsm_trace.h" -nt "$WHY" ]; then
	gcc -std=c11 -static -O2 -Wall -Wextra -Werror -I "$KIT/tests/guest" -o "$WHY.tmp" "$KIT/initramfs/why.c" &&
		mv "$WHY.tmp" "$WHY" ||
		die "initramfs/why.c does not compile (compiler output above)." "Fix the first error shown."
fi

# probe (initramfs/probe.c), policy (initramfs/policy.c), labels
# (initramfs/labels.c: a file's label in every module), and the
# policy sets compiled by scripts/policy.sh, packed as /etc/policy/SET/.
# probe calls the kit kernel's LSM system calls (tests/guest/lsm_abi.h):
# it needs the series' UAPI headers (series_headers in lib.sh: the same
# ones whichever flavour boots this initramfs, the reference kernel too).
INC=$(series_headers)
[ -n "$INC" ] || { FLAVOUR=normal "$KIT/scripts/kernel.sh" && INC=$BUILD/usr/include; }
for t in probe policy labels; do
	T=$BUILD/tools/$t
	if [ ! -x "$T" ] || [ "$KIT/initramfs/$t.c" -nt "$T" ] ||
	   { [ $t = probe ] && [ "$KIT/tests/guest/lsm_abi.h" -nt "$T" ]; } ||
	   { [ $t = probe ] && [ "$KIT/tests/guest/lsm_names.h" -nt "$T" ]; } ||
	   { [ $t = probe ] && [ "$INC/linux/lsm.h" -nt "$T" ]; }; then
		gcc -std=c11 -static -O2 -Wall -Wextra -Werror -isystem "$INC" \
			-I "$KIT/tests/guest" -o "$T.tmp" "$KIT/initramfs/$t.c" &&
			mv "$T.tmp" "$T" ||
			die "initramfs/$t.c does not compile (compiler output above)." "Fix the first error shown."
	fi
done
"$KIT/scripts/policy.sh"
POLLIST=$BUILD/policy.list
{
	echo "file /bin/probe $BUILD/tools/probe 0755 0 0"
	echo "file /bin/policy $BUILD/tools/policy 0755 0 0"
	echo "file /bin/labels $BUILD/tools/labels 0755 0 0"
	echo "dir /etc/policy 0755 0 0"
	(cd "$BUILD/policy" && find . -mindepth 1 | sort) | while read -r f; do
		f=${f#./}
		if [ -d "$BUILD/policy/$f" ]; then echo "dir /etc/policy/$f 0755 0 0"
		else echo "file /etc/policy/$f $BUILD/policy/$f 0644 0 0"; fi
	done
} >"$POLLIST"

OUTF=$BUILD/initramfs.cpio.gz
LIST=$KIT/initramfs/files.list
inputs=("$LIST" "$WHY" "$BUILD/tools/probe" "$BUILD/tools/policy" "$BUILD/tools/labels" "$POLLIST" "$STAMPS/policy")
while read -r kind dst src _; do
	[ "$kind" = file ] || continue
	case "$src" in /*) inputs+=("$src") ;; *) inputs+=("$KIT/$src") ;; esac
done < <(grep -v '^#' "$LIST")
want=$(digest "${inputs[@]}" "$GEN")
stamp_ok initramfs "$want" && [ -f "$OUTF" ] && exit 0
[ -x /bin/busybox ] || die "/bin/busybox is missing." "Install busybox-static: make deps (as root)."
(cd "$KIT" && "$GEN" <(cat "$LIST" "$POLLIST"; echo "file /bin/why $WHY 0755 0 0")) |
	gzip -1 -n >"$OUTF.tmp.$$" ||
	die "packing the initramfs failed." "Check initramfs/files.list: every source path must exist."
mv "$OUTF.tmp.$$" "$OUTF"
stamp_set initramfs "$want"
say "initramfs packed: ${OUTF#"$KIT"/}"
