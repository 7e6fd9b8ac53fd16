#!/usr/bin/env bash
# Each patch of the series builds on its own, as a maintainer requires (so
# that git bisect never stops on a broken commit): the kit's config
# (tinyconfig + configs/kit.config: the flavour series of
# configs/flavours.conf, whose tree each step gives kernel.sh with --tree)
# is built at every commit of build/linux, pristine + patch 1, + patch 2,
# ... in a worktree of its own (build/series-builds/tree) and one output
# folder (build/kbuild/series), so each step recompiles only what its
# patch touches.  The patches are
# built alone, as `git am` of patches/ gives them to someone without the
# kit: toylsm's sources (demo-lsm/, which is not part of the series and is
# written against the whole of it) are copied in from the patch that
# sources security/toylsm/Kconfig (patch 18) on, the kit's kernel being
# the last.  A step passes when bzImage builds and the
# compiler printed no warning.
#
# TAP on stdout, one line per patch; the logs are
# build/logs/series-build-NN.log.  Incremental, patch by patch: a patch
# that built is not built again while it, the patches before it and
# configs/kit.config (and from toylsm's patch on, demo-lsm/) are unchanged (the
# stamps series-build-NN), so a run that was stopped goes on where it
# stopped, and an edit of patch k builds k and the patches after it.
# JOBS=n as for kernel.sh.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"

W=$BUILD/series-builds/tree
G=(git -C "$W")

flock "$BUILD/.tree.lock" "$KIT/scripts/kernel/tree.sh" >/dev/null || exit 1
mapfile -t pfiles < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$KIT/patches/series" | grep -v '^$')
# step_digest N: what the build at patch N depends on.
step_digest() {
	local i files=("$KIT/configs/kit.config")
	for ((i = 0; i < $1; i++)); do files+=("$KIT/patches/${pfiles[$i]}"); done
	[ "$1" -lt "$toylsm_from" ] || mapfile -t -O "${#files[@]}" files < <(find "$KIT/demo-lsm" -type f | sort)
	cat "${files[@]}" | sha256sum | cut -d' ' -f1
}

mapfile -t commits < <(git -C "$TREE" rev-list --reverse pristine..HEAD)
[ ${#commits[@]} -gt 0 ] || die "build/linux has no patch on top of pristine." "Run make tree."
[ ${#commits[@]} -eq ${#pfiles[@]} ] ||
	die "build/linux has ${#commits[@]} patch(es), patches/series names ${#pfiles[@]}." "Run make tree."
# The first patch whose tree sources toylsm's Kconfig: from there on the
# tree needs toylsm's sources (the last patch if none does).
toylsm_from=${#commits[@]}
for ((i = 0; i < ${#commits[@]}; i++)); do
	if git -C "$TREE" grep -q 'security/toylsm/Kconfig' "${commits[$i]}" -- security/Kconfig; then
		toylsm_from=$((i + 1))
		break
	fi
done
if [ ! -d "$W/.git" ] && [ ! -f "$W/.git" ]; then
	rm -rf "$W"; mkdir -p "${W%/*}"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$W" pristine ||
		die "could not make the worktree $W." "Remove build/series-builds and try again."
fi

# toylsm's sources: in the tree from toylsm's patch on, gone before.
sync_toylsm() {
	if [ "$1" != toylsm ]; then
		rm -rf "$W/security/toylsm"
		return 0
	fi
	mkdir -p "$W/security/toylsm"
	(cd "$KIT/demo-lsm" && find . -type f \( -name '*.[ch]' -o -name Makefile -o -name Kconfig \) |
		cpio -pdmu --quiet "$W/security/toylsm" 2>/dev/null)
	return 0
}

echo "TAP version 13"
echo "1..${#commits[@]}"
n=0 bad=0 t0=$SECONDS
for c in "${commits[@]}"; do
	n=$((n + 1))
	log=$LOGS/series-build-$(printf %02d $n).log
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	t=$SECONDS
	stamp=series-build-$(printf %02d $n)
	want=$(step_digest $n)
	if stamp_ok "$stamp" "$want"; then
		echo "ok $n $subject (built before, unchanged since)"
		continue
	fi
	# Untracked toylsm files stay; the checkout updates only what the
	# patch changes, with new mtimes.
	"${G[@]}" checkout -q --detach "$c" || { echo "not ok $n $subject: checkout failed"; bad=$((bad + 1)); continue; }
	sync_toylsm "$([ "$n" -ge "$toylsm_from" ] && echo toylsm)"
	# The step's log: Kconfig's, Kbuild's, then kernel.sh's own lines.
	rm -f "$LOGS/config-series.log" "$LOGS/kernel-series.log"
	"$KIT/scripts/kernel/kernel.sh" --flavour series --tree "$W" >"$log.kit" 2>&1
	rc=$?
	cat "$LOGS/config-series.log" "$LOGS/kernel-series.log" "$log.kit" >"$log" 2>/dev/null
	rm -f "$log.kit"
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
		stamp_set "$stamp" "$want"
	fi
done
echo "# series-builds: $((SECONDS - t0)) s for ${#commits[@]} patches"
[ $bad -eq 0 ]
