#!/usr/bin/env bash
# Each patch of the series builds on its own, as a maintainer requires (so
# that git bisect never stops on a broken commit): the kit's config
# (tinyconfig + configs/kit.config) is built at every commit of
# build/linux, pristine + patch 1, + patch 2, ... in a worktree of its own
# (build/series-builds/tree) and one output folder (build/kbuild/series),
# so each step recompiles only what its patch touches.  From the patch
# that adds the toylsm hooks and security/toylsm/Kconfig on, demo-lsm/ is
# copied in, as tree.sh does for the kit's kernel.  A step passes when
# bzImage builds and the compiler printed no warning.
#
# TAP on stdout, one line per patch; the logs are
# build/logs/series-build-NN.log.  Incremental: nothing is built again
# while patches/, demo-lsm/ and configs/kit.config are unchanged (the
# stamp series-builds).  JOBS=n as for kernel.sh.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

JOBS=${JOBS:-$(nproc)}
W=$BUILD/series-builds/tree
O=$BUILD/kbuild/series
G=(git -C "$W")

flock "$BUILD/.tree.lock" "$KIT/scripts/tree.sh" >/dev/null || exit 1
want=$(cat "$KIT"/patches/* "$KIT/configs/kit.config" \
	$(find "$KIT/demo-lsm" -type f | sort) | sha256sum | cut -d' ' -f1)
if stamp_ok series-builds "$want"; then
	echo "# series-builds: up to date (every patch built on its own for these patches)"
	exit 0
fi

mapfile -t commits < <(git -C "$TREE" rev-list --reverse pristine..HEAD)
[ ${#commits[@]} -gt 0 ] || die "build/linux has no patch on top of pristine." "Run make tree."
if [ ! -d "$W/.git" ] && [ ! -f "$W/.git" ]; then
	rm -rf "$W"; mkdir -p "${W%/*}"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$W" pristine ||
		die "could not make the worktree $W." "Remove build/series-builds and try again."
fi

# toylsm's sources, where the tree's Kconfig asks for them.
sync_toylsm() {
	grep -q 'security/toylsm/Kconfig' "$W/security/Kconfig" || return 0
	mkdir -p "$W/security/toylsm"
	(cd "$KIT/demo-lsm" && find . -type f \( -name '*.[ch]' -o -name Makefile -o -name Kconfig \) |
		cpio -pdmu --quiet "$W/security/toylsm" 2>/dev/null)
	return 0
}

KMAKE=(make -C "$W" O="$O" ARCH=x86_64 "${KCC[@]}")
echo "TAP version 13"
echo "1..${#commits[@]}"
n=0 bad=0 t0=$SECONDS
for c in "${commits[@]}"; do
	n=$((n + 1))
	log=$LOGS/series-build-$(printf %02d $n).log
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	t=$SECONDS
	# Untracked toylsm files stay; the checkout updates only what the
	# patch changes, with new mtimes.
	"${G[@]}" checkout -q --detach "$c" || { echo "not ok $n $subject: checkout failed"; bad=$((bad + 1)); continue; }
	sync_toylsm
	mkdir -p "$O"
	{
		"${KMAKE[@]}" tinyconfig &&
		"$W/scripts/kconfig/merge_config.sh" -m -O "$O" "$O/.config" "$KIT/configs/kit.config" &&
		"${KMAKE[@]}" olddefconfig &&
		"${KMAKE[@]}" -j"$JOBS" bzImage
	} >"$log" 2>&1
	rc=$?
	# The compiler's and the linker's warnings; Kconfig's own notes on
	# merging the fragment (".config:N:warning: override: ...") are not.
	warn=$(grep -v '^\.config:' "$log" | grep -c 'warning:')
	if [ $rc -ne 0 ]; then
		echo "not ok $n $subject: the build failed ($log): $(grep -m1 'error' "$log")"
		bad=$((bad + 1))
	elif [ "$warn" -gt 0 ]; then
		echo "not ok $n $subject: $warn warning(s) ($log): $(grep -v '^\.config:' "$log" | grep -m1 'warning:')"
		bad=$((bad + 1))
	else
		echo "ok $n $subject ($((SECONDS - t)) s)"
	fi
done
echo "# series-builds: $((SECONDS - t0)) s for ${#commits[@]} patches"
[ $bad -eq 0 ] || exit 1
stamp_set series-builds "$want"
