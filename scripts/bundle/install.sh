#!/usr/bin/env bash
# make deps BUNDLE=FILE: the kit's set-up from a bundle (make bundle), with
# no network: the kit's Debian packages from the bundle's debs/ (apt reads
# it as its only repository: nothing is fetched), then the toolchain
# packages upgraded to the bundle's versions where older (the kernels it
# carries match that toolchain), the apparmor .deb into build/deb/, the
# kernels into the kernel cache of the user who runs the labs (sudo's
# SUDO_USER, else this one).  As root.  Run it directly on a host without
# make: scripts/bundle/install.sh FILE [SHA256].
# The file is another person's (a USB stick): before anything is
# installed, scripts/lib/handed.sh checks its SHA-256 (SHA256, the digest
# make bundle printed, else FILE.sha256 beside it), that its members are
# plain files and folders under kit-bundle/ with no setuid bit, and after
# extraction every file against the bundle's SHA256SUMS; the kernels'
# links are made again from their list, each inside its entry.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/lib/carry.sh"
. "$KIT/scripts/lib/handed.sh"

file=${1:-}
[ -n "$file" ] || die "no bundle given." "Usage: make deps BUNDLE=FILE SHA256=DIGEST (or scripts/bundle/install.sh FILE DIGEST); make one with make bundle OUT=FILE."
handed_plain "$file" "the bundle"

handed_file "$file" "the bundle" "${2:-${SHA256:-}}"
handed_tar "$file" kit-bundle
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
chmod 755 "$w"	# apt's _apt user reads the repository
say "unpacking $file"
tar -C "$w" --no-same-owner --no-same-permissions -xf "$file" || die "could not unpack $file (a truncated copy?)." "Copy it again and compare its size with the original."
b=$w/kit-bundle
[ -f "$b/manifest" ] && [ -f "$b/debs/Packages" ] && [ -f "$b/SHA256SUMS" ] ||
	die "BUNDLE=$file has no manifest, debs/Packages or SHA256SUMS: not a bundle of make bundle (or one made before SHA256SUMS)." "Use the file make bundle wrote."
handed_sums "$b" "$b/SHA256SUMS"
say "every file of the bundle is the one its SHA256SUMS names"
# The kernels' links, from each entry's list: a relative link must stay in
# its entry; an absolute one must name the clone that built it (the entry's
# file kit), which the kernel cache's restore renames to the user's.
for e in "$b"/kernels/*/; do
	e=${e%/}
	[ -f "$e/links" ] || continue
	old=$(head -1 "$e/kit" 2>/dev/null)
	case $old in /*) ;; *) die "kernel ${e##*/}: its file kit names no folder." "Use the file make bundle wrote." ;; esac
	while IFS=$'\t' read -r l t; do
		case /$l/ in */../*|*/./*|//*) die "kernel ${e##*/}: a link named $(handed_q "$l")." "Use the file make bundle wrote." ;; esac
		case $t in
		/*) [[ $t == "$old"/* && /$t/ != */../* ]] ;;
		*) [[ $(realpath -m "$e/$(dirname "$l")/$t") == "$e"/* ]] ;;
		esac || die "kernel ${e##*/}: the link $(handed_q "$l") points out of its entry ($(handed_q "$t"))." "Use the file make bundle wrote."
		[ ! -e "$e/$l" ] && [ ! -L "$e/$l" ] || die "kernel ${e##*/}: the link $(handed_q "$l") is also a file." "Use the file make bundle wrote."
		mkdir -p "$e/$(dirname "$l")" && ln -s "$t" "$e/$l"
	done <"$e/links"
	rm "$e/links"
done
debian12 "the bundle holds Debian 12 packages" "On another system, use the kit's image (docs/image.md)."
[ "$(id -u)" = 0 ] || die "installing packages needs root." "Run as root: make deps BUNDLE=$file SHA256=$HANDED_SHA256   (or sudo scripts/bundle/install.sh $file $HANDED_SHA256)"
sed -n 's/^made: /kit: bundle made /p; t; s/^kit: /kit: bundle of the kit at /p' "$b/manifest"

mkdir -p "$w/etc/sources.list.d" "$w/lists/partial"
# trusted=yes: the index has no signature, but it and every .deb are the
# ones SHA256SUMS names, and the bundle's own digest was checked above.
echo "deb [trusted=yes] file:$b/debs ./" >"$w/etc/sources.list"
APT=(apt-get -q -o Dir::Etc::SourceList="$w/etc/sources.list" -o Dir::Etc::SourceParts="$w/etc/sources.list.d"
     -o Dir::State::Lists="$w/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
export DEBIAN_FRONTEND=noninteractive
"${APT[@]}" update >"$LOGS/bundle-install.log" 2>&1 ||
	die "apt could not read the bundle's packages (log: $LOGS/bundle-install.log)." "Copy the bundle again."
mapfile -t pkgs < <("$KIT/scripts/host/deps.sh" --list)
say "installing the kit's packages from the bundle (log: $(rel "$LOGS")/bundle-install.log)"
"${APT[@]}" install -y --no-install-recommends "${pkgs[@]}" >>"$LOGS/bundle-install.log" 2>&1 ||
	die "apt could not install the kit's packages from the bundle (log: $LOGS/bundle-install.log)." \
	    "The log's 'E:' lines say what is missing; a bundle made for this kit on an up-to-date Debian 12 has all of it."
# The kernel build's toolchain (kernel.sh's KERNEL_TOOLCHAIN, the packages
# its cache key names with their versions) at the bundle's versions where
# the installed one is older: the bundle's kernels were built with them.
mapfile -t up < <(toolchain_packages "$b/debs/Packages" | cut -d' ' -f1)
[ ${#up[@]} -eq 0 ] || "${APT[@]}" install -y --no-install-recommends --only-upgrade "${up[@]}" >>"$LOGS/bundle-install.log" 2>&1 ||
	die "apt could not bring the toolchain to the bundle's versions (log: $LOGS/bundle-install.log)." "See the log's 'E:' lines."
say "packages installed"

# Owned by whoever runs the labs: sudo's user, else root.
owner=$(id -u):$(id -g) home=$HOME
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
	owner=$(id -u "$SUDO_USER"):$(id -g "$SUDO_USER")
	home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
fi
mkdir -p "$BUILD/deb"
for d in "$b"/apparmor/apparmor_*.deb; do
	[ -f "$d" ] || continue
	cp -P "$d" "$BUILD/deb/" && chown "$owner" "$BUILD/deb" "$BUILD/deb/${d##*/}"
done
cache=${KIT_KERNEL_CACHE:-$home/.cache/kit-kernels}
n=0
for e in "$b"/kernels/*/; do
	[ -f "$e/done" ] || continue
	e=${e%/}
	mkdir -p "$cache"
	rm -rf "${cache:?}/${e##*/}" && cp -a "$e" "$cache/" && chown -R "$owner" "$cache/${e##*/}"
	n=$((n + 1))
done
[ -z "${SUDO_USER:-}" ] || chown "$owner" "$cache" "$(dirname "$cache")" 2>/dev/null || true
say "set-up from the bundle done: $n kernel(s) in ${cache}; next: make lab 1"
