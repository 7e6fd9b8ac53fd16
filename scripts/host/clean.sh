#!/usr/bin/env bash
# make clean: remove build outputs but keep the extracted source trees
# (build/linux, and build/linux-6.12 of make mainline), which take a
# minute each to re-create.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
(cd "$BUILD" && rm -rf kbuild run guest usr bzImage vmlinux initramfs.cpio.gz \
	debug lab lab-kernel.stage baseline labs logs mainline abi selftests-mainline)
find "$STAMPS" -type f ! -name series ! -name series-head ! -name tree-mtimes ! -name toylsm-mirror ! -name tree-mainline -delete 2>/dev/null || true
say "build outputs removed (build/linux and build/linux-6.12 kept; make distclean removes them too)"
