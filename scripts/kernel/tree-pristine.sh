#!/usr/bin/env bash
# Make build/linux-baseline: the pristine 6.1 source without the series,
# the tree "pristine" of configs/flavours.conf (FLAVOUR=baseline: make
# selftests' "before" kernel, make bench BASELINE=1).  It is the tag
# pristine of build/linux (scripts/kernel/tree.sh makes it), checked out
# once as a git worktree; again only when the tag moves (another tarball).
# Run under the tree's lock (kernel.sh: flock build/.tree.lock), as tree.sh.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

GIT=(git -C "$TREE" -c advice.detachedHead=false)
# The pristine tag comes with the kit's tree.
[ -d "$TREE/.git" ] || "$KIT/scripts/kernel/tree.sh"
pristine=$("${GIT[@]}" rev-parse -q --verify 'pristine^{commit}') ||
	die "build/linux has no tag 'pristine'." "Run make tree (or make distclean, then make tree)."
if [ "$(git -C "$PRISTINE_TREE" rev-parse -q --verify HEAD 2>/dev/null)" != "$pristine" ]; then
	say "checking out the pristine tree at $(rel "$PRISTINE_TREE") (once)"
	rm -rf "$PRISTINE_TREE"
	"${GIT[@]}" worktree prune
	"${GIT[@]}" worktree add -q --detach "$PRISTINE_TREE" "$pristine" >/dev/null ||
		die "could not check out tag pristine of $TREE at $PRISTINE_TREE." \
		    "Check the disk space (df -h); remove $PRISTINE_TREE and run the command again."
fi
# kernel.sh's digest of the tree (its configure stamp): the commit.
stamp_ok tree-pristine "$pristine" || stamp_set tree-pristine "$pristine"
