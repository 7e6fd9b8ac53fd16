#!/usr/bin/env bash
# The pristine 6.1 kernel, the one place that builds it: the baseline of
# `make bench BASELINE=1` and the "before" kernel of the selftest comparison
# (scripts/test/selftests.sh).  The pristine 6.1 source (tag "pristine" of
# build/linux, checked out once as a git worktree at build/linux-baseline),
# no patch series, configured like the kit's kernel minus what needs the
# series (toylsm and its KUnit test).  Kbuild output in
# build/kbuild/baseline, the image at build/baseline/bzImage, so that
# FLAVOUR=baseline run-guest.sh boots it, and its UAPI headers in
# build/kbuild/baseline/usr/include (the selftests are compiled against
# them).  The first build takes minutes; afterwards this is a no-op that
# checks one stamp.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

BTREE=$BUILD/linux-baseline
BKOUT=$BUILD/kbuild/baseline
BOUT=$BUILD/baseline
FRAG=$BOUT/baseline.config
LOG=$LOGS/kernel-baseline.log
GIT=(git -C "$TREE" -c advice.detachedHead=false)
mkdir -p "$BOUT"

exec 9>"$BUILD/.kernel-baseline.lock"
if ! flock -n 9; then
	say "another baseline build is running in $BUILD; waiting for it"
	flock 9
fi
# The pristine tag comes with the kit's tree (make tree).
[ -d "$TREE/.git" ] || flock "$BUILD/.tree.lock" "$KIT/scripts/kernel/tree.sh"
pristine=$("${GIT[@]}" rev-parse -q --verify 'pristine^{commit}') ||
	die "build/linux has no tag 'pristine'." "Run make tree (or make distclean, then make tree)."

# kit.config without the series' parts: no toylsm (in the list of LSMs
# too), no KUnit test of the lsmblob bookkeeping (patch 0016).
sed -e '/TOYLSM/d' -e '/LSMBLOB/d' \
    -e '/^CONFIG_LSM=/{s/toylsm,//; s/,toylsm//}' "$KIT/configs/kit.config" >"$FRAG.tmp"
if cmp -s "$FRAG.tmp" "$FRAG"; then rm -f "$FRAG.tmp"; else mv -f "$FRAG.tmp" "$FRAG"; fi
want=$(printf '%s\n' "$pristine" | cat - "$FRAG" | sha256sum | cut -d' ' -f1)
if stamp_ok baseline "$want" && [ -f "$BOUT/bzImage" ] &&
   [ -f "$BKOUT/usr/include/linux/landlock.h" ]; then
	exit 0
fi

start=$SECONDS
if [ "$(git -C "$BTREE" rev-parse -q --verify HEAD 2>/dev/null)" != "$pristine" ]; then
	say "baseline: checking out the pristine tree at $(rel "$BTREE") (once)"
	rm -rf "$BTREE"
	"${GIT[@]}" worktree prune
	"${GIT[@]}" worktree add -q --detach "$BTREE" "$pristine" >/dev/null ||
		die "could not check out tag pristine of $TREE at $BTREE." \
		    "Check the disk space (df -h); remove $BTREE and run make bench BASELINE=1 again."
fi

KMAKE=(make -C "$BTREE" O="$BKOUT" ARCH=x86_64)
say "baseline: configuring (tinyconfig + kit.config without toylsm)"
mkdir -p "$BKOUT"
{
	"${KMAKE[@]}" tinyconfig &&
	"$BTREE/scripts/kconfig/merge_config.sh" -m -O "$BKOUT" "$BKOUT/.config" "$FRAG" &&
	"${KMAKE[@]}" olddefconfig
} >"$LOGS/config-baseline.log" 2>&1 ||
	die "configuring the baseline kernel failed (log: $LOGS/config-baseline.log)." "See its last lines."
bad=0
config_mismatches "$BKOUT/.config" "$FRAG" >&2 || bad=1
[ $bad = 0 ] || die "Kconfig changed option(s) of the baseline fragment (above)." \
	"The fragment is configs/kit.config minus toylsm; an option that needs the series must be filtered out in scripts/bench/bench-baseline.sh."

say "baseline: building the pristine 6.1 kernel (several minutes on 2 CPUs; log: $(rel "$LOG"))"
"${KMAKE[@]}" -j"${JOBS:-$(nproc)}" bzImage headers >"$LOG" 2>&1 || {
	tail -30 "$LOG" >&2
	die "the baseline kernel build failed (full log: $LOG)." "The first 'error:' line in the log says why."
}
cp -p "$BKOUT/arch/x86/boot/bzImage" "$BOUT/.bzImage.tmp"
mv -f "$BOUT/.bzImage.tmp" "$BOUT/bzImage"
stamp_set baseline "$want"
say "baseline kernel ready: $(rel "$BOUT")/bzImage ($((SECONDS - start)) s)"
