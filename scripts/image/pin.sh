# shellcheck shell=bash
# shellcheck disable=SC2034 # PIN_*: for the sourcing script
# The image's pin: what ties a loaded image to a checkout.  Sourced, never
# run, by make image (the labels it writes), make image-save (the file's
# name and the pre-work lines), scripts/image/run.sh and make doctor (the
# comparison); bash 3.2 (macOS's), and no lib.sh (doctor sources this).
#
# One image name, localhost/kit-lsm, loaded as :latest on each host; one
# saved file per architecture, kit-image-VERSION-ARCH.tar.gz, each with its
# .sha256 beside it.  Every image carries, as labels (the OCI ones where
# there is one):
#   org.opencontainers.image.revision	the kit's commit it was made from
#   org.opencontainers.image.version	the kit's tag there, else g<commit>
#   lsm-kit.kernel-sources		PIN_SOURCES' digest: what its kernels
#					are made of, as the checkout holds it
#   lsm-kit.packages			the Debian packages it installed (deps.sh's
#					list): a checkout that needs another
#					cannot install it in a container offline
#   lsm-kit.dirty			yes: made from uncommitted changes
# A checkout whose kernel sources have the image's digest boots the
# image's kernels; another one builds them in the container.  An arm64
# image gets the same labels from the same Containerfile.

PIN_LABEL_SOURCES=lsm-kit.kernel-sources
PIN_LABEL_PACKAGES=lsm-kit.packages

# PIN_SOURCES: the files of a checkout that the image's kernels (normal
# and bpf: scripts/image/inside.sh) are made of, as scripts/kernel/kernel.sh's
# kernel_inputs reads them: the series, toylsm's sources, the two flavours'
# config fragments, and the scripts that make the tree and build.  Folders:
# every file under them.  (A file kernel.sh comes to read for these
# flavours belongs here too.)
PIN_SOURCES="patches demo-lsm configs/kit.config configs/bpf.config scripts/kernel/kernel.sh scripts/kernel/tree.sh scripts/lib/lib.sh"

# pin_sha256: the SHA-256 of the standard input (sha256sum, or shasum).
pin_sha256() {
	if command -v sha256sum >/dev/null 2>&1; then sha256sum | cut -d' ' -f1
	else shasum -a 256 | cut -d' ' -f1
	fi
}

# pin_files KIT: PIN_SOURCES' files in checkout KIT, one path (relative) a
# line, sorted as C sorts.
pin_files() {
	local p
	(
		cd "$1" || exit 1
		for p in $PIN_SOURCES; do
			if [ -d "$p" ]; then find "$p" -type f
			elif [ -f "$p" ]; then echo "$p"
			fi
		done | LC_ALL=C sort
	)
}

# pin_list KIT: "DIGEST  PATH" for each of pin_files (sha256sum's format).
pin_list() {
	local f
	pin_files "$1" | while IFS= read -r f; do
		printf '%s  %s\n' "$(pin_sha256 <"$1/$f")" "$f"
	done
}

# pin_sources KIT: the digest of what the kernels of checkout KIT are made
# of: the SHA-256 of pin_list.  Content only: no path, date or commit.
pin_sources() { pin_list "$1" | pin_sha256; }

# pin_packages KIT [ARCH]: the Debian packages scripts/host/deps.sh installs
# on ARCH (default: this machine's), read from its PKGS=( ... ) list and
# ARCH's row of configs/arches.conf (deps.sh itself needs bash 4: a Mac's
# run.sh cannot run it), sorted, on one line.
pin_packages() {
	{
		awk '/^PKGS=\(/ { on = 1; next } on && /^\)/ { exit } on { sub(/#.*/, ""); for (i = 1; i <= NF; i++) print $i }' \
			"$1/scripts/host/deps.sh" 2>/dev/null
		awk -F'|' -v a="${2:-$(pin_arch)}" '
			/^[[:space:]]*(#|$)/ { next }
			!head { head = 1; next }
			{ gsub(/[[:space:]]/, "", $1) }
			$1 == a { n = split($5, p, " "); for (i = 1; i <= n; i++) print p[i] }' "$1/configs/arches.conf" 2>/dev/null
	} | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'
}

# pin_missing IMAGE-PACKAGES KIT [ARCH]: the packages checkout KIT needs
# on ARCH (the image's architecture; default: this machine's) that the
# image's list lacks, on one line (nothing: none lacks).
pin_missing() {
	local p out=
	for p in $(pin_packages "$2" "${3:-}"); do
		case " $1 " in *" $p "*) ;; *) out="$out $p" ;; esac
	done
	printf '%s' "${out# }"
}

# pin_commit KIT: the checkout's commit, or "unknown" (a copy without .git).
pin_commit() { git -C "$1" rev-parse HEAD 2>/dev/null || echo unknown; }

# pin_version KIT: the tag at the checkout's commit, else g<short commit>.
pin_version() {
	local t
	t=$(git -C "$1" describe --tags --exact-match HEAD 2>/dev/null) && { echo "$t"; return 0; }
	t=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) && { echo "g$t"; return 0; }
	echo unknown
}

# pin_dirty KIT: "yes" when the checkout has uncommitted changes in
# PIN_SOURCES (no clone of its commit makes the same kernels), else "no".
pin_dirty() {
	# shellcheck disable=SC2086 # PIN_SOURCES: words
	if [ -n "$(cd "$1" && git status --porcelain -- $PIN_SOURCES 2>/dev/null)" ]; then echo yes; else echo no; fi
}

# pin_arch: this machine's architecture as the OCI names it (amd64, arm64).
pin_arch() {
	case $(uname -m 2>/dev/null) in
	x86_64|amd64) echo amd64 ;;
	aarch64|arm64) echo arm64 ;;
	*) uname -m ;;
	esac
}

# pin_image_row ARCH KIT: ARCH's row of KIT's configs/arches.conf (its
# name), or nothing; pin_image_arches KIT: the rows, "amd64 and arm64".
pin_image_row() {
	awk -F'|' -v a="$1" '/^[[:space:]]*(#|$)/ { next } !head { head = 1; next }
		{ gsub(/[[:space:]]/, "", $1) } $1 == a { print $1; exit }' "$2/configs/arches.conf" 2>/dev/null
}
pin_image_arches() {
	awk -F'|' '/^[[:space:]]*(#|$)/ { next } !head { head = 1; next }
		{ gsub(/[[:space:]]/, "", $1); s = s (s ? " and " : "") $1 } END { print s }' "$1/configs/arches.conf" 2>/dev/null
}

# pin_image ENGINE: the kit's image for this machine, of one name on every
# architecture (make image tags localhost/kit-lsm:ARCH, and :latest for
# the machine's own; a file of make image-save loads as :ARCH): KIT_IMAGE
# when the caller set it, else the first of :ARCH and :latest whose
# architecture is this machine's.  Sets PIN_IMAGE to it (the default
# name, :latest, when none is loaded) and PIN_IMAGE_OTHER to the
# architecture of a kit image loaded for another machine, if that is
# all there is (the wrong file loaded: pin_other_advice).
pin_image() {
	local e=$1 name a t
	PIN_IMAGE_OTHER=
	if [ -n "${KIT_IMAGE_GIVEN:-}" ]; then PIN_IMAGE=$KIT_IMAGE_GIVEN; return 0; fi
	name=localhost/kit-lsm
	PIN_IMAGE=$name:latest
	for t in "$(pin_arch)" latest amd64 arm64; do
		a=$("$e" image inspect --format '{{.Architecture}}' "$name:$t" 2>/dev/null) || continue
		[ -n "$a" ] || continue
		if [ "$a" = "$(pin_arch)" ]; then PIN_IMAGE=$name:$t; PIN_IMAGE_OTHER=; return 0; fi
		PIN_IMAGE_OTHER=$a
	done
	return 0
}

# pin_other_advice: what to do when the kit's image loaded is another
# machine's (PIN_IMAGE_OTHER), a paragraph.
pin_other_advice() {
	printf 'The kit'"'"'s image loaded in this engine is the %s one, and this machine is %s (%s): load the file of this architecture, kit-image-VERSION-%s.tar.gz, from the same folder: scripts/image/run.sh load kit-image-VERSION-%s.tar.gz (make image-save writes one per architecture; make image ARCHES="amd64 arm64" makes both).' \
		"$PIN_IMAGE_OTHER" "$(pin_arch)" "$(uname -m 2>/dev/null)" "$(pin_arch)" "$(pin_arch)"
}

# pin_label ENGINE IMAGE LABEL: the image's label, or nothing.
pin_label() {
	"$1" image inspect --format "{{ index .Config.Labels \"$3\" }}" "$2" 2>/dev/null | sed 's/^<no value>$//' | head -1
}

# pin_compare ENGINE IMAGE KIT: whether checkout KIT boots IMAGE's kernels.
# Sets PIN_STATE (same, differ, unknown: an image without the label) and
# PIN_IMAGE_COMMIT, PIN_IMAGE_VERSION, PIN_IMAGE_SOURCES, PIN_SOURCES_NOW,
# and PIN_MISSING (the Debian packages the checkout needs and the image
# lacks: the container would try to install them, offline); prints nothing.
pin_compare() {
	PIN_IMAGE_SOURCES=$(pin_label "$1" "$2" "$PIN_LABEL_SOURCES")
	PIN_IMAGE_COMMIT=$(pin_label "$1" "$2" org.opencontainers.image.revision)
	PIN_IMAGE_VERSION=$(pin_label "$1" "$2" org.opencontainers.image.version)
	PIN_SOURCES_NOW=$(pin_sources "$3")
	PIN_IMAGE_PACKAGES=$(pin_label "$1" "$2" "$PIN_LABEL_PACKAGES")
	PIN_MISSING=
	# Against what the checkout needs on the image's architecture: the
	# arm64 image run on an x86_64 machine (under qemu-user) has arm64's
	# packages, and was refused for lacking amd64's (busybox-static, gdb).
	[ -z "$PIN_IMAGE_PACKAGES" ] ||
		PIN_MISSING=$(pin_missing "$PIN_IMAGE_PACKAGES" "$3" "$("$1" image inspect --format '{{.Architecture}}' "$2" 2>/dev/null)")
	if [ -z "$PIN_IMAGE_SOURCES" ]; then PIN_STATE=unknown
	elif [ "$PIN_IMAGE_SOURCES" = "$PIN_SOURCES_NOW" ]; then PIN_STATE=same
	else PIN_STATE=differ
	fi
}

# The cost of a checkout whose kernel sources differ from the image's: each
# kernel it boots is built in the container, cold (no ccache there).
# Measured on the kit's 2-core machine under load (docs/performance.md,
# "The bpf flavour"): normal 6 min 25 s, bpf 10 min 49 s.
PIN_BUILD_COST="the normal kernel about 6-7 minutes, and lab 13's bpf kernel about 11 more, on 2 cores (docs/performance.md, \"The bpf flavour (issue 42)\")"

# pin_version_of: the image's version to check out (its tag, else commit).
pin_version_of() {
	if [ -n "${PIN_IMAGE_VERSION:-}" ] && [ "$PIN_IMAGE_VERSION" != unknown ]; then echo "$PIN_IMAGE_VERSION"; else echo "$PIN_IMAGE_COMMIT"; fi
}

# pin_missing_advice: what to do about PIN_MISSING, a paragraph.
pin_missing_advice() {
	printf 'This checkout (commit %s) needs Debian packages that the image (the kit at %s) does not have: %s. A container has no network to install them. Check out the image'"'"'s version: git checkout %s; or make a new image from this checkout (make image).' \
		"$(pin_commit "$KIT")" "$(pin_version_of)" "$PIN_MISSING" "$(pin_version_of)"
}

# pin_advice KIT: what to do about PIN_STATE=differ, a paragraph: the files
# that differ (git, where the checkout has the image's commit), the
# image's version to check out, or the build to accept and its cost.
pin_advice() {
	local kit=$1 files='' at v
	v=${PIN_IMAGE_VERSION:-}
	[ -n "$v" ] && [ "$v" != unknown ] || v=$PIN_IMAGE_COMMIT
	if [ -n "$PIN_IMAGE_COMMIT" ] && [ "$PIN_IMAGE_COMMIT" != unknown ] &&
	   git -C "$kit" cat-file -e "$PIN_IMAGE_COMMIT^{commit}" 2>/dev/null; then
		# shellcheck disable=SC2086 # PIN_SOURCES: words
		files=$(cd "$kit" && git diff --name-only "$PIN_IMAGE_COMMIT" -- $PIN_SOURCES 2>/dev/null | head -5 | tr '\n' ' ')
	fi
	at=$(pin_commit "$kit")
	printf 'The image holds the kernels of the kit at %s (commit %s); this checkout (commit %s) has other kernel sources%s, so the container builds its kernels from them: %s.' \
		"$v" "${PIN_IMAGE_COMMIT:-unknown}" "$at" "${files:+ (${files% })}" "$PIN_BUILD_COST"
	printf ' Either check out the image'"'"'s version, whose kernels the image has (your own files are kept; git says so if one of them is in the way): git checkout %s.' "$v"
	printf ' Or accept the build: KIT_IMAGE_BUILD=1 scripts/image/run.sh ... (once: later runs of this checkout with the same sources go on).'
}
