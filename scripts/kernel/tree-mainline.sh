#!/usr/bin/env bash
# Make build/linux-6.12: Debian's linux-source-6.12, unpatched, the
# reference kernel's source (FLAVOUR=mainline).  Extracted once; again only
# when the tarball changes (another Debian upload: its size and mtime).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

TARBALL=$MAINLINE_TARBALL
want=$(stat -c '%s %Y' "$TARBALL" 2>/dev/null || true)
[ -n "$want" ] || die "the reference kernel's source $TARBALL is missing." \
	"It comes with the Debian package linux-source-6.12 (Debian 12's security archive): run make deps MAINLINE=1 (as root), or apt-get install linux-source-6.12."
if stamp_ok tree-mainline "$want" && [ -f "$MAINLINE_TREE/Makefile" ]; then
	exit 0
fi
say "extracting $(basename "$TARBALL") into $(rel "$MAINLINE_TREE") (once; about a minute)"
tmp=$MAINLINE_TREE.tmp
rm -rf "$tmp" && mkdir -p "$tmp"
tar -C "$tmp" -xf "$TARBALL" ||
	die "could not unpack $TARBALL." "Check the disk space (df -h) and the tarball, then run the command again."
top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
[ -f "$top/Makefile" ] || die "$TARBALL holds no kernel tree." "Reinstall linux-source-6.12."
rm -rf "$MAINLINE_TREE"
mv "$top" "$MAINLINE_TREE"
rm -rf "$tmp"
stamp_set tree-mainline "$want"
say "reference tree: $(rel "$MAINLINE_TREE") ($(sed -n 's/^SUBLEVEL = //p' "$MAINLINE_TREE/Makefile" | sed 's/^/6.12./'))"
