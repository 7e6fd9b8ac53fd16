#!/usr/bin/env bash
# Make build/linux: the pristine 6.1 source as a git repository (tag
# "pristine"), with patches/ applied in `series` order by git am, and
# demo-lsm/ mirrored at security/toylsm/.
#
# When the series changes, the tree goes back to the pristine commit and the
# whole series is applied again.  Files whose content comes out identical get
# their old mtime back, so that Kbuild rebuilds only what really changed.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

GIT=(git -C "$TREE" -c user.name=kit -c user.email=kit@localhost
     -c advice.detachedHead=false)

extract() {
	[ -r "$TARBALL" ] || die "the kernel source tarball $TARBALL is missing." \
		"It comes with the Debian package linux-source-6.1: run make deps (as root), or set TARBALL=/path/to/linux-source-6.1.tar.xz."
	say "extracting $(basename "$TARBALL") (once; about a minute)"
	local tmp=$BUILD/linux.tmp
	rm -rf "$tmp" && mkdir -p "$tmp"
	tar -C "$tmp" -xf "$TARBALL" ||
		die "could not unpack $TARBALL." "Check the disk space (df -h) and the tarball, then run make tree again."
	local top
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
	(
		cd "$top"
		git init -q
		# A throwaway repository: git's automatic gc would pack its
		# ~80,000 loose objects in the background while the kernel
		# builds, competing with it for the CPUs.
		git config gc.auto 0
		git config maintenance.auto false
		printf 'security/toylsm/\n' >>.git/info/exclude
		git add -A -f
		git -c user.name=kit -c user.email=kit@localhost commit -q \
			-m "pristine linux-source-6.1 ($(basename "$TARBALL"))"
		git tag pristine
	) || die "could not make the pristine git repository in $top." "Remove $tmp and run make tree again."
	# Only a complete, committed tree takes the final name.
	rm -rf "$TREE"
	mv "$top" "$TREE"
	rm -rf "$tmp"
}

# series_patches and series_digest (the patches and their digest): lib.sh,
# which kernel.sh shares.

# The Linux version the series is made for: Debian 12's linux-source-6.1
# as bookworm-security carries it (README.md).  Another one is named as
# such before a patch is tried: an older one (the main archive's alone)
# is refused with the sources line that brings this one; a newer one
# (Debian updated linux-source-6.1) gets the series three-way, and a
# patch that still does not apply is named as needing a refresh there.
SERIES_BASE=6.1.192
NEWER=

# tree_version: the pristine tree's version, VERSION.PATCHLEVEL.SUBLEVEL
# of its Makefile (nothing: its Makefile names none).  awk reads it all:
# git show, cut short, would fail the pipe.
tree_version() {
	"${GIT[@]}" show pristine:Makefile 2>/dev/null | awk -F' *= *' '
		$1 == "VERSION" && v == "" { v = $2 }
		$1 == "PATCHLEVEL" && p == "" { p = $2 }
		$1 == "SUBLEVEL" && s == "" { s = $2 }
		END { if (v ~ /^[0-9]+$/ && p ~ /^[0-9]+$/ && s ~ /^[0-9]+$/) print v "." p "." s }'
}

check_version() {
	local v again="remove build/linux (rm -rf build/linux: its saved/ branches go too), then run make tree again"
	v=$(tree_version)
	[ "$v" != "$SERIES_BASE" ] || return 0
	[ -n "$v" ] || die "build/linux is not a Linux source tree: its Makefile names no VERSION, PATCHLEVEL and SUBLEVEL (it was made from $TARBALL)." \
		"Install Debian 12's linux-source-6.1 (make deps, as root), $again."
	case $v in
	6.1.*) ;;
	*) die "the kernel source is Linux $v; the series is made for Linux $SERIES_BASE, Debian 12's linux-source-6.1 (build/linux was made from $TARBALL)." \
		"Use /usr/src/linux-source-6.1.tar.xz (make deps installs it; unset TARBALL), $again." ;;
	esac
	if [ "${v##*.}" -lt "${SERIES_BASE##*.}" ]; then
		# The commands unfolded (die folds its advice): they are pasted.
		printf '\nkit: error: %s\n' "the kernel source is Linux $v, older than $SERIES_BASE, the one the series is made for: Debian 12's linux-source-6.1 without the security archive (bookworm-security)." >&2
		printf '     %s\n' "As root, add that archive and install its linux-source-6.1:" \
			"  echo 'deb http://security.debian.org/debian-security bookworm-security main' >/etc/apt/sources.list.d/bookworm-security.list" \
			"  apt-get update && apt-get install linux-source-6.1" "then $again." >&2
		exit 1
	fi
	NEWER=$v
	echo "kit: WARNING: the kernel source is Linux $v, newer than $SERIES_BASE, the one the series is made for (Debian updated linux-source-6.1): the series is tried three-way." >&2
}

# Remember content hash and mtime of every file the applied series touches.
save_mtimes() {
	local f
	"${GIT[@]}" diff --name-only pristine HEAD 2>/dev/null | while read -r f; do
		[ -f "$TREE/$f" ] || continue
		printf '%s %s %s\n' "$(sha1sum <"$TREE/$f" | cut -c1-40)" \
			"$(stat -c %.9Y "$TREE/$f")" "$f"
	done >"$STAMPS/tree-mtimes"
}

restore_mtimes() {
	local sum mt f
	[ -f "$STAMPS/tree-mtimes" ] || return 0
	while read -r sum mt f; do
		[ -f "$TREE/$f" ] || continue
		[ "$(sha1sum <"$TREE/$f" | cut -c1-40)" = "$sum" ] &&
			touch -m -d "@$mt" "$TREE/$f"
	done <"$STAMPS/tree-mtimes"
	# Not the status of the last file's comparison: under set -e, a last
	# file whose content changed made tree.sh exit 1, silently.
	return 0
}

# build/linux is generated: the series is re-applied from patches/ when they
# change.  Work found there first (edits, or commits on top of the series)
# is not thrown away: it is committed on a branch saved/DATE, and said
# loudly (docs/hacking.md says how to carry it into patches/).
save_work() {
	local head b
	[ -f "$STAMPS/series-head" ] || return 0
	head=$(cat "$STAMPS/series-head")
	if [ -z "$("${GIT[@]}" status --porcelain --untracked-files=no 2>/dev/null)" ] &&
	   [ "$("${GIT[@]}" rev-parse HEAD)" = "$head" ]; then
		return 0
	fi
	b=saved/$(date +%Y%m%d-%H%M%S)
	"${GIT[@]}" checkout -q -b "$b" 2>/dev/null || "${GIT[@]}" branch -f "$b"
	"${GIT[@]}" commit -q -a -m "kit: work found in build/linux before re-applying patches/" 2>/dev/null || true
	"${GIT[@]}" checkout -q --detach 2>/dev/null || true
	{
		echo
		echo "kit: WARNING: build/linux had work that is not in patches/ (edits, or commits on the series)."
		echo "     It is saved as branch $b of build/linux, not lost; the tree is now re-made from patches/."
		echo "     To keep it: git -C build/linux log $b; carry it into patches/ (docs/hacking.md)."
		echo
	} >&2
}

apply_series() {
	local want p n=0 msg
	want=$(series_digest)
	if stamp_ok series "$want" &&
	   [ "$("${GIT[@]}" rev-parse HEAD)" = "$(cat "$STAMPS/series-head" 2>/dev/null)" ]; then
		return 0
	fi
	save_work
	save_mtimes
	rm -f "$STAMPS/series" "$STAMPS/series-head"
	[ -d "$TREE/.git/rebase-apply" ] && "${GIT[@]}" am --abort >/dev/null 2>&1 || true
	"${GIT[@]}" reset -q --hard pristine
	"${GIT[@]}" clean -q -fdx -e security/toylsm/
	for p in $(series_patches); do
		[ -f "$KIT/patches/$p" ] || die "patches/series names $p, which is not in patches/." "Fix patches/series or add the patch."
		if ! msg=$("${GIT[@]}" am -q --whitespace=nowarn ${NEWER:+-3} "$KIT/patches/$p" 2>&1); then
			"${GIT[@]}" am --abort >/dev/null 2>&1 || true
			printf '%s\n' "$msg" | head -20 >&2
			[ -z "$NEWER" ] || die "patch $p does not apply to Linux $NEWER, even three-way: it needs a refresh against $NEWER (the series is made for $SERIES_BASE; git am said the above)." \
			    "Tell the kit's maintainers, naming $p and $NEWER. To go on now: refresh $p against the tree, left at the last patch that applied ($n of the series) (cd build/linux, fix, git format-patch), then run make tree."
			die "patch $p does not apply (git am said the above)." \
			    "The tree is left at the last patch that applied ($n of the series). Refresh $p against that tree (cd build/linux, fix, git format-patch), then run make tree."
		fi
		n=$((n + 1))
	done
	restore_mtimes
	# The index then holds the times git am left, not the restored ones:
	# refreshed once here, so that reading the tree's state (git status,
	# kernel.sh's digest) compares times, not every such file's content.
	"${GIT[@]}" update-index -q --refresh >/dev/null || true
	stamp_set series "$want"
	"${GIT[@]}" rev-parse HEAD >"$STAMPS/series-head"
	say "tree: pristine + $n patch(es) applied"
}

# Mirror demo-lsm/ into security/toylsm/, copying only files that differ so
# that an edit rebuilds only what it touches.  A copy gets a new mtime, not
# demo-lsm/'s: a file put back with an older one (cp -p, rsync -a, tar, or
# the restore of an edit made in the tree, below) must still be newer than
# its object, or Kbuild keeps the object of the other content.  What was
# copied is recorded (stamps/toylsm-mirror: a digest per file), so that an
# edit made in the tree is told by its content, not by its mtime.  When the
# mirror's sources already equal demo-lsm/'s, name for name and byte for
# byte (two digests, a few ms), there is nothing to copy or warn about.
MIRROR_REC=$STAMPS/toylsm-mirror
sync_toylsm() {
	local src=$KIT/demo-lsm dst=$TREE/security/toylsm f rel
	ls "$src"/*.[ch] "$src"/Makefile "$src"/Kconfig >/dev/null 2>&1 || return 0
	mkdir -p "$dst"
	[ "$(files_digest "$src" "${TOYLSM_FILES[@]}")" != \
	  "$(files_digest "$dst" ! -path './extra/*' "${TOYLSM_FILES[@]}")" ] || return 0
	find "$src" -type f "${TOYLSM_FILES[@]}" | while read -r f; do
		rel=${f#"$src"/}
		mkdir -p "$(dirname "$dst/$rel")"
		if ! cmp -s "$f" "$dst/$rel"; then
			# Edited in the tree, not in demo-lsm/: keep a copy, say so.
			if [ -f "$dst/$rel" ] && edited_in_tree "$rel" "$f"; then
				mkdir -p "$BUILD/toylsm-saved"
				cp -p "$dst/$rel" "$BUILD/toylsm-saved/${rel//\//_}.$(date +%Y%m%d-%H%M%S)"
				echo "kit: WARNING: build/linux/security/toylsm/$rel was edited in the tree; demo-lsm/$rel is the source. Your version is saved in build/toylsm-saved/ (edit demo-lsm/, see docs/hacking.md)." >&2
			fi
			cp "$f" "$dst/$rel"
		fi
	done
	find "$dst" -type f | while read -r f; do
		rel=${f#"$dst"/}
		[ -e "$src/$rel" ] || case "$rel" in *.o|*.cmd|.*|extra/*) ;; *) rm -f "$f" ;; esac
	done
	(cd "$dst" && find . -type f ! -path './extra/*' "${TOYLSM_FILES[@]}" -print0 |
		LC_ALL=C sort -z | xargs -0r sha256sum) >"$MIRROR_REC"
}

# edited_in_tree REL SRC: the mirror's REL is not what the last sync copied
# there.  Without a record of it (a mirror synced before the record
# existed, with cp -p), a mirror file newer than its source.
edited_in_tree() {
	local was
	was=$(awk -v r="./$1" '$2 == r { print $1 }' "$MIRROR_REC" 2>/dev/null)
	if [ -z "$was" ]; then
		[ "$TREE/security/toylsm/$1" -nt "$2" ]
		return
	fi
	[ "$(sha256sum <"$TREE/security/toylsm/$1" | cut -d' ' -f1)" != "$was" ]
}

[ -d "$TREE/.git" ] && "${GIT[@]}" rev-parse -q --verify pristine >/dev/null || extract
check_version
apply_series
sync_toylsm
