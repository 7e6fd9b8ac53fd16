#!/usr/bin/env bash
# make bundle OUT=FILE: everything a Debian 12 x86_64 host without network
# needs for the kit, in one file (docs/image.md, "The bundle"):
#   debs/       the closure of the kit's packages (scripts/host/deps.sh --list:
#               linux-source-6.1, the 6.1 source, among them), as apt
#               resolves it on a system with nothing installed, so that
#               any Debian 12 finds there whatever it lacks; with an apt
#               index (Packages): a repository apt reads from the file
#   apparmor/   Debian's apparmor .deb, which the kit unpacks, never installs
#   kernels/    the kernel-cache entries of this checkout's built kernels
#               (make kernel first), which the room's machines take
#               instead of building, if their toolchain is this host's
#   manifest    what is in it, for whom
#   SHA256SUMS  every other file's SHA-256 (sha256sum's lines)
# Only plain files and folders: the kernels' symbolic links are listed in
# their entry's file links (PATH, a tab, TARGET), made again on install;
# no setuid, setgid or sticky bit.  The file's own SHA-256 is printed and
# written beside it (OUT.sha256): make deps BUNDLE=FILE SHA256=DIGEST
# (scripts/bundle/install.sh) checks it, and every file against
# SHA256SUMS, before it installs anything (scripts/lib/handed.sh).
# FLAVOURS="normal gdb...": the kernels to carry (default: normal).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/lib/carry.sh"

out=${1:-}
out_file bundle "$out"
debian12 "make bundle resolves the packages with this host's apt" \
	"Make the bundle on a Debian 12 host, or in the kit's image: KIT_NETWORK=1 scripts/image/run.sh bundle OUT=/kit/build/kit-bundle.tar"
[ "$(dpkg --print-architecture)" = amd64 ] || die "the kit's bundle is for amd64 (x86_64) hosts; this host is $(dpkg --print-architecture)." ""

t=$SECONDS
w=$BUILD/bundle
rm -rf "$w" && mkdir -p "$w/kit-bundle/debs" "$w/kit-bundle/apparmor" "$w/kit-bundle/kernels" "$w/state/lists/partial" "$w/state/archives/partial"
b=$w/kit-bundle
mapfile -t pkgs < <("$KIT/scripts/host/deps.sh" --list)

# The closure: apt as on a system with nothing installed (an empty dpkg
# status), downloading only, into the bundle.  No lock of the host's dpkg
# is taken: nothing is installed.
: >"$w/state/status"
# A system whose package lists were emptied (the kit's image): read them.
if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null && [ "$(id -u)" = 0 ]; then
	say "bundle: apt-get update (this system has no package lists)"
	apt-get update -q >"$LOGS/bundle-apt.log" 2>&1 || die "apt-get update failed (log: $LOGS/bundle-apt.log)." "Check that Debian's archive is reachable."
fi
say "bundle: downloading the closure of ${#pkgs[@]} packages (log: $(rel "$LOGS")/bundle-apt.log)"
apt-get -q -y --no-install-recommends --download-only \
	-o Dir::State::status="$w/state/status" -o Dir::Cache::archives="$w/state/archives" \
	-o Debug::NoLocking=1 -o APT::Get::AllowUnauthenticated=0 \
	install "${pkgs[@]}" >>"$LOGS/bundle-apt.log" 2>&1 ||
	die "apt-get could not download the packages (log: $LOGS/bundle-apt.log)." \
	    "Check that Debian's archive is reachable (as root, apt-get update may help), then run make bundle again."
mv "$w"/state/archives/*.deb "$b/debs/"

# apt's index of the folder, as dpkg-scanpackages writes it.
for d in "$b"/debs/*.deb; do
	dpkg-deb -f "$d"
	printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "${d##*/}" "$(stat -c %s "$d")" "$(sha256sum <"$d" | cut -d' ' -f1)"
done >"$b/debs/Packages"

deb=$(compgen -G "$BUILD/deb/apparmor_*.deb" | tail -1) || true
if [ -n "$deb" ]; then cp "$deb" "$b/apparmor/"
else (cd "$b/apparmor" && apt-get download -q apparmor >>"$LOGS/bundle-apt.log" 2>&1) ||
	die "could not download Debian's apparmor package (log: $LOGS/bundle-apt.log)." "Check that Debian's archive is reachable."
fi

read -r -a flavours <<<"${FLAVOURS:-normal}"
kernels=()
while IFS= read -r e; do
	cp -al "$e" "$b/kernels/" 2>/dev/null || cp -a "$e" "$b/kernels/"
	# The links (the Kbuild folder's source, arch/x86_64/boot/bzImage): a
	# list, not links, in the bundle (removing a link from a hard-linked
	# copy leaves the cache's alone).
	(cd "$b/kernels/${e##*/}" && find . -type l -printf '%P\t%l\n' >links && find . -type l -delete)
	kernels+=("${e##*/}")
done < <(checkout_cache_entries "${flavours[@]}")
# The kernels carried were built with this host's toolchain; a machine
# that installs the bundle gets the bundle's: a version that differs makes
# the kernels' cache key differ there.
if [ ${#kernels[@]} -gt 0 ]; then
	stale=$(toolchain_packages "$b/debs/Packages" | while read -r p v; do
		i=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) || continue
		[ "$i" = "$v" ] || printf ' %s %s (the bundle has %s)' "$p" "$i" "$v"
	done)
	[ -z "$stale" ] || say "bundle: WARNING: this host's kernels were built with${stale}: the room's machines will not take them and will build their own (minutes). Upgrade this host first (apt-get upgrade), run make kernel, then make bundle again."
fi
[ ${#kernels[@]} -gt 0 ] ||
	say "bundle: WARNING: no built kernel of this checkout in the kernel cache (${flavours[*]}): each machine will build its own (minutes). Run make kernel, then make bundle again."

{
	echo "kit-bundle 1"
	echo "made: $(date -u +%Y-%m-%dT%H:%MZ) on $(. /etc/os-release; echo "$PRETTY_NAME") $(uname -m)"
	echo "kit: $(git -C "$KIT" rev-parse HEAD 2>/dev/null || echo unknown)"
	echo "packages: ${pkgs[*]}"
	echo "debs: $(find "$b/debs" -name '*.deb' | wc -l) ($(du -sm "$b/debs" | cut -f1) MB)"
	echo "apparmor: $(cd "$b/apparmor" && echo *.deb)"
	echo "kernels: ${kernels[*]:-none}"
	echo "linux-source: $(cd "$b/debs" && ls linux-source-6.1_*.deb 2>/dev/null || echo none)"
} >"$b/manifest"
say "bundle: the SHA-256 of every file (SHA256SUMS)"
(cd "$b" && find . -type f ! -name SHA256SUMS -printf '%P\0' | LC_ALL=C sort -z | xargs -0r sha256sum) >"$b/SHA256SUMS"

say "bundle: writing $out"
rm -f "$out.sha256"
tar -C "$w" --owner=0 --group=0 --numeric-owner --mode='ug-s,-t' -cf "$out.part" kit-bundle ||
	{ rm -f "$out.part"; die "could not write $out (above)." "Check the free space there (df -h)."; }
mv -f "$out.part" "$out"
sum=$(sha256sum <"$out" | cut -d' ' -f1)
printf '%s  %s\n' "$sum" "$(basename "$out")" >"$out.sha256"
n=$(find "$b/debs" -name '*.deb' | wc -l)
rm -rf "$w"
say "bundle $out: $(du -m "$out" | cut -f1) MB ($n packages, kernels: ${kernels[*]:-none}) in $((SECONDS - t)) s"
say "bundle SHA-256: $sum (also in $(basename "$out").sha256: copy it with the bundle; give the digest itself to the room, on the screen or the email)"
say "on each machine, as root, with no network: make deps BUNDLE=$(basename "$out") SHA256=$sum   (or scripts/bundle/install.sh $(basename "$out") $sum)"
