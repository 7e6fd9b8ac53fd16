#!/usr/bin/env bash
# Offline tests of scripts/kernel/tree.sh, on a fake kernel tarball and
# a one-patch series.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..4"
# tree.sh re-makes build/linux when patches/ change: work found there (an
# edit; an edit of the toylsm mirror) is saved and said, not reset away.
# On a fake kernel tarball and a one-patch series, in a scratch kit.
treecase() (
	W=$T/tree
	mkdir -p "$W/kit" "$W/src/linux-fake/security" "$W/kit/demo-lsm"
	cp -r "$K/scripts" "$W/kit/"
	printf 'hello\n' >"$W/src/linux-fake/README"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\n' >"$W/src/linux-fake/Makefile"
	printf 'config X\n' >"$W/src/linux-fake/security/Kconfig"
	tar -C "$W/src" -cJf "$W/fake.tar.xz" linux-fake
	# one patch of the series
	git -C "$W/src/linux-fake" init -q && git -C "$W/src/linux-fake" add -A &&
	git -C "$W/src/linux-fake" -c user.name=a -c user.email=a@b commit -qm base &&
	printf 'hello, patched\n' >"$W/src/linux-fake/README" &&
	git -C "$W/src/linux-fake" -c user.name=a -c user.email=a@b commit -qam 'README: patched' &&
	mkdir -p "$W/kit/patches" &&
	git -C "$W/src/linux-fake" format-patch -q -1 -o "$W/kit/patches" &&
	(cd "$W/kit/patches" && printf '%s\n' *.patch) >"$W/kit/patches/series"
	printf "int toy;\n" >"$W/kit/demo-lsm/toy.c"; printf "obj-y += toy.o\n" >"$W/kit/demo-lsm/Makefile"; printf "config TOY\n" >"$W/kit/demo-lsm/Kconfig"
	export BUILD=$W/kit/build TARBALL=$W/fake.tar.xz
	"$W/kit/scripts/kernel/tree.sh" >"$W/first.log" 2>&1 || { echo "first tree.sh failed"; cat "$W/first.log"; exit 1; }
	# work left in the tree: an edit, and an edit of the toylsm mirror
	printf 'my precious edit\n' >>"$BUILD/linux/README"
	sleep 1; printf 'int toy; /* edited in the tree */\n' >"$BUILD/linux/security/toylsm/toy.c"
	# the series changes: the tree is re-made
	printf '# a comment\n' >>"$W/kit/patches/series"
	e=$("$W/kit/scripts/kernel/tree.sh" 2>&1); rc=$?
	b=$(git -C "$BUILD/linux" branch --list 'saved/*' | tr -d ' *')
	saved=$(git -C "$BUILD/linux" show "$b:README" 2>/dev/null)
	ok=1
	[ $rc -eq 0 ] || { echo "tree.sh failed: $e"; ok=0; }
	grep -q 'my precious edit' <<<"$saved" || { echo "the edit is not on a saved/ branch (branch: '$b')"; ok=0; }
	grep -q 'WARNING: build/linux had work' <<<"$e" || { echo "no WARNING about the tree's work"; ok=0; }
	grep -q 'my precious edit' "$BUILD/linux/README" && { echo "the tree was not re-made"; ok=0; }
	ls "$BUILD"/toylsm-saved/toy.c.* >/dev/null 2>&1 || { echo "the mirror's edit was not saved"; ok=0; }
	grep -q 'security/toylsm/toy.c was edited in the tree' <<<"$e" || { echo "no WARNING about the mirror"; ok=0; }
	[ $ok = 1 ]
)
scenario "tree.sh: work found in build/linux (and its toylsm mirror) is saved with a WARNING when the series is re-applied" treecase

# versioned SUBLEVEL APPLIES: tree.sh in a scratch kit on a fake tarball
# of Linux 6.1.SUBLEVEL and a one-patch series that applies to it (APPLIES
# yes) or not; its output in $T/v/out, its status returned.
versioned() {
	local v=$T/v src=$T/v/src/linux-6.1.$1
	rm -rf "$v" && mkdir -p "$v/kit/demo-lsm" "$v/kit/patches" "$src"
	cp -r "$K/scripts" "$v/kit/"
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = %s\n' "$1" >"$src/Makefile"
	printf 'one\ntwo\nthree\n' >"$src/README"
	tar -C "$v/src" -cJf "$v/fake.tar.xz" "linux-6.1.$1"
	git -C "$src" init -q && git -C "$src" add -A &&
	git -C "$src" -c user.name=a -c user.email=a@b commit -qm base || return 1
	printf 'one\ntwo, patched\nthree\n' >"$src/README"
	git -C "$src" -c user.name=a -c user.email=a@b commit -qam 'README: patched' &&
	git -C "$src" format-patch -q -1 -o "$v/kit/patches" || return 1
	# Not applying: the line it changes is another in the patch.
	[ "$2" = yes ] || sed -i 's/^-two$/-two-of-another-tree/' "$v/kit/patches"/*.patch
	(cd "$v/kit/patches" && printf '%s\n' *.patch) >"$v/kit/patches/series"
	BUILD=$v/kit/build TARBALL=$v/fake.tar.xz "$v/kit/scripts/kernel/tree.sh" >"$v/out" 2>&1
}
older() (
	! versioned 176 yes || { echo "tree.sh applied the series to Linux 6.1.176: $(cat "$T/v/out")"; exit 1; }
	grep -q 'Linux 6.1.176, older than 6.1.192' "$T/v/out" || { echo "the version is not named: $(cat "$T/v/out")"; exit 1; }
	grep -q "deb http://security.debian.org/debian-security bookworm-security main" "$T/v/out" || { echo "no sources line: $(cat "$T/v/out")"; exit 1; }
	! grep -qi 'refresh' "$T/v/out" || { echo "a patch is blamed: $(cat "$T/v/out")"; exit 1; }
)
newer() (
	! versioned 200 no || { echo "tree.sh applied a patch that does not apply: $(cat "$T/v/out")"; exit 1; }
	grep -q 'does not apply to Linux 6.1.200, even three-way: it needs a refresh against 6.1.200' "$T/v/out" ||
		{ echo "the patch and the version are not named: $(cat "$T/v/out")"; exit 1; }
	grep -q '0001-README-patched.patch' "$T/v/out" || { echo "the patch is not named: $(cat "$T/v/out")"; exit 1; }
	versioned 200 yes || { echo "a newer tree the series applies to was refused: $(cat "$T/v/out")"; exit 1; }
	grep -q 'WARNING: the kernel source is Linux 6.1.200, newer than 6.1.192' "$T/v/out" || { echo "no warning: $(cat "$T/v/out")"; exit 1; }
)
notlinux() (
	versioned x yes && { echo "a tree with no version was taken"; exit 1; }
	grep -q 'not a Linux source tree' "$T/v/out" || { echo "not said: $(cat "$T/v/out")"; exit 1; }
)
scenario "tree.sh: an older 6.1 source (no bookworm-security) is named as such, with the sources line, before any patch is blamed" older
scenario "tree.sh: a newer 6.1 source gets the series three-way; a patch that still fails is named as needing a refresh there" newer
scenario "tree.sh: a tarball whose Makefile names no version is refused as no Linux source" notlinux
