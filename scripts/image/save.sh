#!/usr/bin/env bash
# make image-save OUT=FILE: the kit's image as one file, for a USB stick or
# a share; a room loads it with no network: podman load -i FILE (or docker
# load -i FILE), then scripts/image/run.sh lab 1.  FILE ending in .gz is
# compressed (smaller, slower to write; load reads both).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"
. "$KIT/scripts/lib/carry.sh"

out=${1:-}
out_file image-save "$out"
engine_pick
"$ENGINE" image inspect "$KIT_IMAGE" >/dev/null 2>&1 ||
	die "$ENGINE has no image $KIT_IMAGE." "Build it first: make image"
tmp="$out.part"
rm -f "$tmp"
t=$SECONDS
say "writing $KIT_IMAGE to $out"
case "$out" in
*.gz) "$ENGINE" save "$KIT_IMAGE" | gzip -1 >"$tmp" ;;
*) if [ "$ENGINE" = podman ]; then podman save -q -o "$tmp" "$KIT_IMAGE"; else "$ENGINE" save -o "$tmp" "$KIT_IMAGE"; fi ;;
esac || { rm -f "$tmp"; die "$ENGINE save failed (above)." "Check the free space where OUT is (df -h)."; }
mv -f "$tmp" "$out"
say "$out: $(du -m "$out" | cut -f1) MB in $((SECONDS - t)) s; in the room: $ENGINE load -i $(basename "$out"), then scripts/image/run.sh lab 1"
