#!/usr/bin/env bash
# Offline tests of scripts/kernel/tree.sh, on a fake kernel tarball and
# a one-patch series.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# tree.sh re-makes build/linux when patches/ change: work found there (an
# edit; an edit of the toylsm mirror) is saved and said, not reset away.
# On a fake kernel tarball and a one-patch series, in a scratch kit.
treecase() (
	T=$T/tree
	mkdir -p "$T/kit" "$T/src/linux-fake/security" "$T/kit/demo-lsm"
	cp -r "$K/scripts" "$T/kit/"
	printf 'hello\n' >"$T/src/linux-fake/README"
	printf 'config X\n' >"$T/src/linux-fake/security/Kconfig"
	tar -C "$T/src" -cJf "$T/fake.tar.xz" linux-fake
	# one patch of the series
	git -C "$T/src/linux-fake" init -q && git -C "$T/src/linux-fake" add -A &&
	git -C "$T/src/linux-fake" -c user.name=a -c user.email=a@b commit -qm base &&
	printf 'hello, patched\n' >"$T/src/linux-fake/README" &&
	git -C "$T/src/linux-fake" -c user.name=a -c user.email=a@b commit -qam 'README: patched' &&
	mkdir -p "$T/kit/patches" &&
	git -C "$T/src/linux-fake" format-patch -q -1 -o "$T/kit/patches" &&
	(cd "$T/kit/patches" && printf '%s\n' *.patch) >"$T/kit/patches/series"
	printf "int toy;\n" >"$T/kit/demo-lsm/toy.c"; printf "obj-y += toy.o\n" >"$T/kit/demo-lsm/Makefile"; printf "config TOY\n" >"$T/kit/demo-lsm/Kconfig"
	export BUILD=$T/kit/build TARBALL=$T/fake.tar.xz
	"$T/kit/scripts/kernel/tree.sh" >"$T/first.log" 2>&1 || { echo "first tree.sh failed"; cat "$T/first.log"; exit 1; }
	# work left in the tree: an edit, and an edit of the toylsm mirror
	printf 'my precious edit\n' >>"$BUILD/linux/README"
	sleep 1; printf 'int toy; /* edited in the tree */\n' >"$BUILD/linux/security/toylsm/toy.c"
	# the series changes: the tree is re-made
	printf '# a comment\n' >>"$T/kit/patches/series"
	e=$("$T/kit/scripts/kernel/tree.sh" 2>&1); rc=$?
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
