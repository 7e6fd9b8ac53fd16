#!/usr/bin/env bash
# Pack the guest's base initramfs (busybox, guest/init and the tool
# /bin/why, built from guest/tools/why.c) from guest/files.list into
# build/initramfs.cpio.gz, only when an input changed.  With -p LIST OUT:
# pack a payload archive from a gen_init_cpio list instead (run-guest.sh
# uses it for /kit/run and the programs).
set -euo pipefail
. "${0%/*}/../lib/lib.sh"

GEN=$BUILD/tools/gen_init_cpio
OUTF=$BUILD/initramfs.cpio.gz
# pack LIST OUT: a gen_init_cpio list into a gzip'd archive.
pack() { (cd "$KIT" && "$GEN" "$1") | gzip -1 -n >"$2"; }

# Every run packs its payload (-p), with gen_init_cpio as it is when that
# is up to date: no lock, no stamp.  The base archive: lib.sh's quick
# stamp first (what the stamps below read, by ctime, in one find: issue
# 45), the stamps themselves when it cannot tell.
if [ "${1:-}" = -p ] && [ -x "$GEN" ] && [ ! "$TREE/usr/gen_init_cpio.c" -nt "$GEN" ]; then
	pack "$2" "$3"
	exit 0
fi
QOUTS=("$BUILD/tools/*" "$BUILD/policy" "$BUILD/policy/*" "$OUTF" "$BUILD/policy.list" "$STAMPS/*")
[ "${1:-}" = -p ] || ! quick_ok initramfs "$KIT" "${QOUTS[@]}" || exit 0

# Guests started in parallel (a lab's boots) may all get here at once: one
# packs, the others wait and then find the stamp up to date.  Lock 3 of
# docs/hacking.md's lock order: what the tools need (tree, kernel, policy
# compilers) is built under the locks below it.
exec 8>"$BUILD/.initramfs.lock"
flock 8

if [ ! -x "$GEN" ] || [ "$TREE/usr/gen_init_cpio.c" -nt "$GEN" ]; then
	[ -f "$TREE/usr/gen_init_cpio.c" ] || flock "$BUILD/.tree.lock" "$KIT/scripts/kernel/tree.sh"
	mkdir -p "$BUILD/tools"
	gcc -O2 -o "$GEN" "$TREE/usr/gen_init_cpio.c" ||
		die "could not build gen_init_cpio from the kernel tree." "Check that gcc works, then run make again."
fi

if [ "${1:-}" = -p ]; then
	pack "$2" "$3"
	exit 0
fi
quick_begin initramfs

# The guest's own tools, built here (static C, as the guest tests are, with
# the guest's compiler: lib.sh's GUEST_CC, a cross compiler on an arm64
# host; gen_init_cpio above is the host's own, it runs here), each
# when its source or a header of the kit's library ($KITINC, "kit/NAME.h")
# is newer than it: why (guest/tools/why.c), without the kernel's headers.
# tool_stale BIN SRC: BIN is to be built again.
tool_stale() {
	[ ! -x "$1" ] || [ "$2" -nt "$1" ] || [ -n "$(find "$KITINC" -name '*.h' -newer "$1" -print -quit)" ]
}
WHY=$BUILD/tools/why
if tool_stale "$WHY" "$KIT/guest/tools/why.c"; then
	"$GUEST_CC" -std=c11 -static -O2 -Wall -Wextra -Werror -I "$KITINC" -o "$WHY.tmp" "$KIT/guest/tools/why.c" &&
		mv "$WHY.tmp" "$WHY" ||
		die "guest/tools/why.c does not compile (compiler output above)." "Fix the first error shown."
fi

# probe (guest/tools/probe.c), policy (guest/tools/policy.c), labels
# (guest/tools/labels.c: a file's label in every module), and the
# policy sets compiled by scripts/guest/policy-sets.sh, packed as /etc/policy/SET/.
# probe calls the kit kernel's LSM system calls (kit/lsm_abi.h):
# it needs the series' UAPI headers (series_headers in lib.sh: the same
# ones whichever flavour boots this initramfs, the reference kernel too).
INC=$(series_headers)
[ -n "$INC" ] || { "$KIT/scripts/kernel/kernel.sh" --flavour normal && INC=$BUILD/usr/include; }
for t in probe policy labels; do
	T=$BUILD/tools/$t
	if tool_stale "$T" "$KIT/guest/tools/$t.c" ||
	   { [ $t = probe ] && [ "$INC/linux/lsm.h" -nt "$T" ]; }; then
		"$GUEST_CC" -std=c11 -static -O2 -Wall -Wextra -Werror -isystem "$INC" \
			-I "$KITINC" -o "$T.tmp" "$KIT/guest/tools/$t.c" &&
			mv "$T.tmp" "$T" ||
			die "initramfs/$t.c does not compile (compiler output above)." "Fix the first error shown."
	fi
done
"$KIT/scripts/guest/policy-sets.sh"
POLLIST=$BUILD/policy.list
{
	echo "file /bin/probe $BUILD/tools/probe 0755 0 0"
	echo "file /bin/policy $BUILD/tools/policy 0755 0 0"
	echo "file /bin/labels $BUILD/tools/labels 0755 0 0"
	cpio_tree "$BUILD/policy" /etc/policy
} >"$POLLIST"

# The list, with the guest's busybox where it names the host's: on a host
# whose own is of another architecture (arm64), amd64's, unpacked by
# make deps into GUEST_ROOT (configs/arches.conf's debs).
BUSYBOX=${GUEST_ROOT%/}/bin/busybox
LIST=$BUILD/files.list
sed "s|^file /bin/busybox /bin/busybox |file /bin/busybox $BUSYBOX |" "$KIT/guest/files.list" >"$LIST.tmp"
if cmp -s "$LIST.tmp" "$LIST" 2>/dev/null; then rm -f "$LIST.tmp"; else mv -f "$LIST.tmp" "$LIST"; fi
inputs=("$KIT/guest/files.list" "$LIST" "$WHY" "$BUILD/tools/probe" "$BUILD/tools/policy" "$BUILD/tools/labels" "$POLLIST" "$STAMPS/policy")
while read -r kind _ src _; do
	[ "$kind" = file ] || continue
	case "$src" in /*) inputs+=("$src") ;; *) inputs+=("$KIT/$src") ;; esac
done < <(grep -v '^#' "$LIST")
want=$(digest "${inputs[@]}" "$GEN")

# quick_set's list: what the tools, policy.sh and the archive are made
# of (the sources, the kit's headers, the series' headers, the policy
# sets, the compilers policy.sh runs, these scripts) and what they make.
quick() {
	local l
	mapfile -t l < <(find "$KIT/guest" "$KIT/configs/policy" -type d
		printf '%s\n' "${inputs[@]}" "$GEN" "$TREE/usr/gen_init_cpio.c" "$INC/linux/lsm.h" \
			"$KIT/scripts/guest/initramfs.sh" "$KIT/scripts/guest/policy-sets.sh" "$KIT/scripts/lab/policy-check.py" "$KIT/scripts/lib/lib.sh" \
			"$BUILD/tools/apparmor/sbin/apparmor_parser" "$BUILD/tools/mdp" "$TREE/scripts/selinux/mdp/mdp.c" \
			"$TREE/security/selinux/include/classmap.h" "$OUTF"
		find "$BUILD/policy" -type d)
	watch_list "${l[@]}" >"$STAMPS/initramfs.watch"
	quick_set initramfs "$KIT"
}
if stamp_ok initramfs "$want" && [ -f "$OUTF" ]; then
	quick
	exit 0
fi
[ -x "$BUSYBOX" ] || die "$BUSYBOX is missing: the guest's busybox." "Install it: make deps (as root; configs/arches.conf says what this host needs)."
pack <(cat "$LIST" "$POLLIST"; echo "file /bin/why $WHY 0755 0 0") "$OUTF.tmp.$$" ||
	die "packing the initramfs failed." "Check guest/files.list: every source path must exist."
mv "$OUTF.tmp.$$" "$OUTF"
stamp_set initramfs "$want"
quick
say "initramfs packed: $(rel "$OUTF")"
