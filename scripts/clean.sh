#!/usr/bin/env bash
# make clean: remove build outputs but keep the extracted pristine source
# tree (build/linux), which takes a minute to re-create.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rm -rf "$BUILD"/kbuild "$BUILD"/run "$BUILD"/guest "$BUILD"/usr \
	"$BUILD"/bzImage "$BUILD"/vmlinux "$BUILD"/initramfs.cpio.gz \
	"$BUILD"/debug "$BUILD"/lab "$BUILD"/lab-kernel.stage "$BUILD"/baseline \
	"$BUILD"/labs "$BUILD"/logs
find "$STAMPS" -type f ! -name series ! -name series-head ! -name tree-mtimes -delete 2>/dev/null || true
say "build outputs removed (build/linux kept; make distclean removes it too)"
