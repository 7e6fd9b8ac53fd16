#!/usr/bin/env bash
# make image-save OUT=DIR (or OUT=FILE.tar.gz): the kit's image as one
# compressed file for a USB stick or a share, with its SHA-256 beside it
# and the pre-work email's lines.  In DIR it writes
#   kit-image-VERSION-ARCH.tar.gz          the image (docker/podman save, gzip)
#   kit-image-VERSION-ARCH.tar.gz.sha256   its SHA-256, as sha256sum writes it
#   prework-VERSION.txt                    the email's lines: the clone at the
#                                          image's version, each ARCH's file
#                                          of that version in DIR with its
#                                          size and digest, the commands
# (scripts/image/pin.sh: VERSION is the kit's tag, else g<commit>; a second
# architecture's file of the same version lands beside the first, and the
# pre-work lines name both).  A room loads it with no network:
# scripts/image/run.sh load FILE (the digest checked first), then
# scripts/image/run.sh lab 1.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/image/engine.sh"
. "$KIT/scripts/image/pin.sh"
. "$KIT/scripts/lib/carry.sh"

out=${1:-}
[ -n "$out" ] || die "make image-save needs OUT=DIR (a folder: the file is named there) or OUT=FILE.tar.gz." "Example: make image-save OUT=/media/usb"
engine_pick
# The images: each architecture's that make image made (localhost/kit-lsm:
# amd64, :arm64), one file each; KIT_IMAGE given: that one; an image made
# before the architectures' tags: :latest.
images=()
if [ -n "$KIT_IMAGE_GIVEN" ]; then
	images=("$KIT_IMAGE")
else
	for a in $(pin_image_arches "$KIT" | sed 's/ and / /g'); do
		! "$ENGINE" image inspect "${KIT_IMAGE%:*}:$a" >/dev/null 2>&1 || images+=("${KIT_IMAGE%:*}:$a")
	done
	[ ${#images[@]} -gt 0 ] || images=("$KIT_IMAGE")
fi
if [ ${#images[@]} -gt 1 ] && { [ ! -d "$out" ] || [ -L "$out" ]; }; then
	die "OUT=$out: there are ${#images[@]} images (${images[*]}), one file each: give a folder." "Example: make image-save OUT=$(dirname "$out")"
fi
mb() { awk -v b="$1" 'BEGIN { printf "%d MB", b / 1e6 }'; }
# save IMAGE: its file in OUT, with the .sha256 beside it (sets version,
# commit and dir, the pre-work lines' below).
save() {
	local img=$1 arch o name tmp t raw sum size secs q=()
	"$ENGINE" image inspect "$img" >/dev/null 2>&1 ||
		die "$ENGINE has no image $img." "Build it first: make image"
	label() { pin_label "$ENGINE" "$img" "$1"; }
	version=$(label org.opencontainers.image.version) commit=$(label org.opencontainers.image.revision)
	sources=$(label "$PIN_LABEL_SOURCES")
	arch=$("$ENGINE" image inspect --format '{{.Architecture}}' "$img" 2>/dev/null || pin_arch)
	if [ -z "$sources" ] || [ -z "$version" ]; then die "$img carries no pin (the kit's version and kernel-sources labels): it was made before them." \
		    "Make it again: make image (the layers are cached: seconds, unless the kit changed)."
	fi
	[ "$(label lsm-kit.dirty)" != yes ] ||
		say "WARNING: $img was made from uncommitted kernel sources: no clone of $commit boots its kernels (commit, tag, make image, then save)"
	if [ -d "$out" ] && [ ! -L "$out" ]; then
		o=${out%/}/kit-image-$version-$arch.tar.gz
	else
		o=$out
		out_file image-save "$o"
		case $o in *.tar.gz) ;; *) die "OUT=$o: the file is compressed (gzip): name it .tar.gz, or give a folder." "Example: make image-save OUT=$(dirname "$o")" ;; esac
	fi
	dir=$(cd "$(dirname "$o")" && pwd) name=$(basename "$o")
	tmp=$o.part
	rm -f "$tmp" "$o.sha256"
	t=$SECONDS
	say "writing $img (the kit at $version, $arch) to $o"
	# The raw size is counted on the way (wc, a process substitution,
	# writes its one line at the end: waited for, 10 s at most).
	[ "$ENGINE" != podman ] || q=(-q)
	if ! "$ENGINE" save ${q[@]+"${q[@]}"} "$img" 2>"$tmp.err" | tee >(wc -c >"$tmp.raw") | gzip -1 >"$tmp"; then
		cat "$tmp.err" >&2
		rm -f "$tmp" "$tmp.raw" "$tmp.err"
		die "$ENGINE save failed (its message above)." "Check the free space where OUT is (df -h)."
	fi
	for _ in $(seq 100); do [ -s "$tmp.raw" ] && break; sleep 0.1; done
	raw=$(cat "$tmp.raw" 2>/dev/null)
	raw=${raw:-0}
	rm -f "$tmp.raw" "$tmp.err"
	mv -f "$tmp" "$o"
	secs=$((SECONDS - t))
	sum=$(pin_sha256 <"$o")
	printf '%s  %s\n' "$sum" "$name" >"$o.sha256"
	size=$(stat -c %s "$o")
	say "$o: $(mb "$size") compressed ($(mb "$raw") as the engine saves it), in $secs s"
	say "SHA-256 $sum (in $name.sha256)"
}
for i in "${images[@]}"; do save "$i"; done

# The pre-work lines: the clone at the image's version (the tag, else the
# commit), and every architecture's file of this version in this folder.
url=${KIT_CLONE_URL:-$(git -C "$KIT" remote get-url origin 2>/dev/null || echo '<the kit'"'"'s address>')}
pw=$dir/prework-$version.txt
ref=$version
case $ref in g*) ref=$commit ;; esac
{
	echo "# The pre-work email's lines for the kit at $version (make image-save, $(date -u +%Y-%m-%d))."
	echo "# The clone, at the image's version: its kernels are the image's (no kernel build on the laptop)."
	echo "    git clone $url lsm-kit && cd lsm-kit && git checkout $ref"
	echo "    make doctor"
	echo "# The image, one file per architecture (the laptop's: uname -m; x86_64 is amd64):"
	for f in "$dir"/kit-image-"$version"-*.tar.gz; do
		if [ ! -f "$f" ] || [ ! -f "$f.sha256" ]; then continue; fi
		echo "#   $(basename "$f"): $(mb "$(stat -c %s "$f")"), SHA-256 $(cut -d' ' -f1 "$f.sha256")"
	done
	echo "# Loaded from the checkout, the file of the laptop's architecture (the digest is checked first; no network needed):"
	for f in "$dir"/kit-image-"$version"-*.tar.gz; do
		[ -f "$f" ] || continue
		echo "    scripts/image/run.sh load /path/to/$(basename "$f")"
	done
	echo "    scripts/image/run.sh lab 1"
	echo "# Disk: the file, the loaded image and the checkout's build/ (docs/image.md, \"Disk\")."
} >"$pw"
say "the pre-work email's lines: $pw"
say "in the room: scripts/image/run.sh load kit-image-$version-ARCH.tar.gz (the machine's architecture: amd64, arm64), then scripts/image/run.sh lab 1"
