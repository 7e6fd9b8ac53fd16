#!/usr/bin/env bash
# The image's tree step (scripts/image/Containerfile): the patched 6.1
# tree, made by the kit's own scripts/kernel/tree.sh in /opt/kit/src/build/linux,
# where it stays: a first run copies it into the attendee's build/
# (scripts/image/entry.sh), with the stamps tree.sh wrote.  Its objects in
# one pack instead of 80,000 loose files: one file copies faster.
set -euo pipefail
cd /opt/kit/src
printf 'kit: image: the patched tree\n'
nice scripts/kernel/tree.sh
git -C build/linux repack -a -d -q --window=0
git -C build/linux prune-packed
