#!/usr/bin/env bash
# Offline tests of scripts/kernel/kernel.sh, in scratch kits on a stand-
# in Kbuild (tests/data/kbuild-standin.mk): its stamp, its quick stamp,
# the kernel cache, ccache, the configuration check (config_mismatches),
# its progress line, its modes (--configure, --kbuild, --tree) and the
# table of flavours it reads; and that no other script configures or
# builds a kernel.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..12"
# The check that a configuration has what its fragments ask for (kernel.sh's
# config_mismatches, for every flavour): a later fragment overrides an
# earlier one, as merge_config.sh merges them; an option dropped is named.
sed -n '/^config_mismatches() {/,/^}/p' "$K/scripts/kernel/kernel.sh" >"$T/mismatches.sh"
# shellcheck disable=SC2016 # expanded by the inner bash
case_ "config fragments: the last fragment's value is the one asked; an option dropped is named" \
	config-merged.config "$(want config-merged.expected 0)" '/BPF_LSM=/d' \
	bash -c '. "$1" && config_mismatches "$2" "$3/tests/data/config-kit.frag" "$3/tests/data/config-callers.frag"' _ "$T/mismatches.sh" @ "$K"

# kernel.sh runs Kbuild only when an input of the kernel changed (its stamp
# of every input, stamps/kernel-FLAVOUR): each kind of input still
# rebuilds, with the change in the kernel, and what is no input (a README,
# a guest test, a touch) does not run Kbuild at all.  In a scratch kit on a
# fake kernel tarball whose Makefile is a stand-in for Kbuild
# (tests/data/kbuild-standin.mk: it counts its runs, rebuilds by mtime as
# Kbuild does, and its "bzImage" holds the sources it was built from).
# SABOTAGE: a sed script applied to the scratch kit's kernel.sh first.
# shellcheck disable=SC2030,SC2031 # what a case exports stays in its subshell, by design
kbuildcase() (
	S=$T/kb
	rm -rf "$S"
	F=$S/src/linux-fake
	mkdir -p "$S/kit" "$F/security" "$F/scripts/kconfig"
	cp -r "$K/scripts" "$S/kit/"
	printf '#!/bin/sh\nexit 0\n' >"$S/kit/scripts/host/deps.sh"	# no dpkg, no network
	[ -z "${SABOTAGE:-}" ] || sed -i "$SABOTAGE" "$S/kit/scripts/kernel/kernel.sh"
	cp "$D/kbuild-standin.mk" "$F/Makefile"
	printf '#!/bin/sh\n# stand-in: merge_config.sh -m -O DIR BASE FRAGMENT...\nd=$3; shift 4; cat "$@" >>"$d/.config"\n' \
		>"$F/scripts/kconfig/merge_config.sh"
	chmod +x "$F/scripts/kconfig/merge_config.sh"
	printf 'hello\n' >"$F/README"
	printf 'config X\n' >"$F/security/Kconfig"
	mkdir -p "$F/Documentation" "$F/drivers"
	printf 'notes\n' >"$F/Documentation/notes.txt"
	printf 'obj-$(CONFIG_UNBUILT) += unbuilt.o\n' >"$F/drivers/Makefile"
	printf 'int unbuilt;\n' >"$F/drivers/unbuilt.c"
	tar -C "$S/src" -cJf "$S/fake.tar.xz" linux-fake
	g() { git -C "$F" -c user.name=a -c user.email=a@b "$@"; }
	g init -q && g add -A && g commit -qm base &&
	printf 'hello, patched\n' >"$F/README" && g commit -qam 'README: patched' &&
	mkdir -p "$S/kit/patches" && g format-patch -q -1 -o "$S/kit/patches" &&
	(cd "$S/kit/patches" && printf '%s\n' *.patch) >"$S/kit/patches/series" || exit 1
	cd "$S/kit" || exit 1
	mkdir -p configs demo-lsm guest/tests docs labs/common/kernel labs/08-fake/solution
	echo 'CONFIG_TOY=y' >configs/kit.config
	echo 'CONFIG_SECURITY_TOYLSM_EXTRA=y' >configs/lab.config
	echo 'CONFIG_DEBUG_STANDIN=y' >configs/debug.config
	echo 'CONFIG_DEBUG_INFO=y' >configs/dwarf.config
	echo 'CONFIG_CALLER_STANDIN=y' >configs/callers.config
	printf '# drop: CONFIG_TOY\n' >configs/untoy.config
	# The scratch kit's table of kernels: the real one's columns, and
	# flavours of the stand-in's fragments; zeta's name says nothing of
	# what it is built with (its row does).
	# shellcheck disable=SC2016 # expanded by the inner bash
	{ bash -c '. "$1/scripts/lib/lib.sh" && IFS="|" && echo "${FLAVOUR_COLUMNS[*]}"' _ "$K"
	  cat <<-EOF
	normal  | series | kit       | -      | bzImage headers | 512M | off | kit.timeout       | debug | 4  | x86_64
	debug   | series | kit debug | -      | bzImage headers | 1G   | off | kit.timeout_debug | debug | 4  | x86_64
	lab     | series | kit lab   | normal | bzImage headers | 512M | on  | kit.timeout       | -     | 40 | x86_64
	dwarf   | series | kit dwarf | -      | bzImage headers | 512M | off | kit.timeout       | -     | 4  | x86_64
	zeta    | series | kit debug untoy | - | bzImage headers | 512M | off | kit.timeout       | -     | 4  | x86_64
	callers | series | kit callers | -    | -               | -    | -   | -                 | -     | -  | x86_64
	series  | given  | kit       | -      | bzImage         | -    | -   | -                 | -     | -  | x86_64
	EOF
	} >configs/flavours.conf
	echo 'int toy;' >demo-lsm/toy.c
	echo 'obj-y += toy.o' >demo-lsm/Makefile
	echo 'config TOY' >demo-lsm/Kconfig
	echo '# kit' >README.md
	echo 'int main(void) { return 0; }' >guest/tests/guest.c
	echo 'int todo;' >labs/common/kernel/todo.c
	printf 'TITLE=fake\nMINUTES=1\nKIND=kernel\nSOURCE=hook.c\nKOBJS=hook.o\nKINIT=\n' >labs/08-fake/lab.conf
	echo 'int hook_v1;' >labs/08-fake/solution/hook.c
	export BUILD=$S/kit/build TARBALL=$S/fake.tar.xz LABS_DIR=$S/kit/labs
	export KIT_KERNEL_CACHE=${CACHECASE:-off}	# cachecase: below
	unset KCFLAGS
	# dpkg's answers, from a stand-in database ("STATUS NAME VERSION"
	# lines): dpkg-query -W prints the lines whose name matches a pattern.
	mkdir -p "$S/bin"
	mkdir -p "$S/dpkg"
	printf 'ii gcc-12 12.2.0-14\nii make 4.3-4.1\n' >"$S/dpkg/status"
	cat >"$S/bin/dpkg-query" <<-EOF
	#!/bin/sh
	while read -r st name ver; do
		for a; do case \$name in \$a) echo "\$st  \$name \$ver"; break;; esac; done
	done <"\${DPKG_ADMINDIR:-/var/lib/dpkg}/status"
	EOF
	chmod +x "$S/bin/dpkg-query"
	# git, counting the runs of git status (the full stamp's look at the
	# whole tree, which a no-op must not need: kernel.sh's quick stamp).
	printf '#!/bin/sh\ncase " $* " in *" status "*) echo "$*" >>"%s";; esac\nexec %s "$@"\n' \
		"$S/git-status.log" "$(command -v git)" >"$S/bin/git"
	chmod +x "$S/bin/git"
	export PATH=$S/bin:$PATH DPKG_ADMINDIR=$S/dpkg KIT_QUICK_SLACK_MS=50
	runs() { { wc -l <"$BUILD/kbuild/$1/kbuild-runs"; } 2>/dev/null || echo 0; }
	# kb WANT DESC [VAR=VALUE...]: kernel.sh (normal, or FLAVOUR=...)
	# ran Kbuild WANT times (1 or 0); the first miss ends the case.
	kb() {
		local want=$1 desc=$2 fl=normal v a out
		shift 2
		for v in "$@"; do case $v in FLAVOUR=*) fl=${v#*=} ;; esac; done
		a=$(runs "$fl")
		out=$(env FLAVOUR=normal "$@" scripts/kernel/kernel.sh 2>&1) ||
			{ echo "$desc: kernel.sh failed: $out"; exit 1; }
		[ $(($(runs "$fl") - a)) = "$want" ] ||
			{ echo "$desc: Kbuild ran $(($(runs "$fl") - a)) time(s), not $want"; exit 1; }
		printf '%s\n' "$out" >"$S/last.out"
	}
	has() {	# has TEXT [FILE]: the kernel built has TEXT in it
		grep -qF -- "$1" "${2:-$BUILD/bzImage}" || { echo "the kernel was built without '$1'"; exit 1; }
	}
	hasnt() {
		! grep -qF -- "$1" "${2:-$BUILD/bzImage}" || { echo "the kernel still has '$1'"; exit 1; }
	}
	kb 1 "the first build"
	[ -z "${CACHECASE:-}" ] || exit 0	# cachecase goes on from here
	kb 0 "nothing changed"
	grep -q 'up to date' "$S/last.out" || { echo "no 'up to date' message: $(cat "$S/last.out")"; exit 1; }
	# The first run made the tree after its quick stamp began: the run
	# above asked the full stamp once; from here, the quick one answers.
	: >"$S/git-status.log"
	kb 0 "nothing changed, a second time"
	[ ! -s "$S/git-status.log" ] || { echo "nothing changed: the no-op ran git status over the tree"; exit 1; }
	echo 'ii podman 4.3.1' >>"$S/dpkg/status"
	kb 0 "a package the build does not run installed (podman)"
	sed -i 's/^ii gcc-12 .*/ii gcc-12 12.2.0-15/' "$S/dpkg/status"
	kb 1 "the compiler's package upgraded (gcc-12)"
	echo 'more' >>README.md
	kb 0 "the kit's README edited"
	echo '/* more */' >>guest/tests/guest.c
	kb 0 "a guest test edited"
	echo 'notes' >demo-lsm/notes.txt
	kb 0 "a file of demo-lsm/ that is no source (notes.txt) added"
	touch demo-lsm/toy.c
	kb 0 "demo-lsm/toy.c touched, same content"
	cp -p demo-lsm/toy.c "$S/toy.c.v1"
	echo 'int toy2;' >demo-lsm/toy.c
	kb 1 "a demo-lsm/ file edited"
	has 'int toy2;'
	cp "$S/toy.c.v1" demo-lsm/toy.c && touch -d 2000-01-01 demo-lsm/toy.c
	kb 1 "a demo-lsm/ file put back, with an old mtime"
	has 'int toy;' && hasnt 'int toy2;'
	echo '#define TOY 1' >demo-lsm/toy.h
	kb 1 "a file added to demo-lsm/"
	has '#define TOY 1'
	sed -i 's/^+hello, patched$/+hello, patched again/' patches/0001-*.patch
	kb 1 "a patch changed"
	has 'hello, patched again'
	echo 'CONFIG_NEW=y' >>configs/kit.config
	kb 1 "a config fragment changed"
	has 'CONFIG_NEW=y'
	kb 0 "HOSTNAME set (a container's id), which Kbuild does not read" HOSTNAME=c0ffee
	kb 1 "KCFLAGS set" KCFLAGS=-O1
	kb 0 "KCFLAGS the same" KCFLAGS=-O1
	kb 1 "KCFLAGS unset"
	cp -p "$TARBALL" "$S/fake-copy.tar.xz"
	kb 1 "another source tarball named (TARBALL)" TARBALL="$S/fake-copy.tar.xz"
	kb 1 "the first tarball again"
	kb 1 "another flavour (debug)" FLAVOUR=debug
	has 'CONFIG_DEBUG_STANDIN=y' "$BUILD/debug/bzImage"
	kb 0 "the debug flavour again" FLAVOUR=debug
	# A flavour with DWARF (gdb's, bpf's): the compiler maps the output
	# folder, which names the clone, to one name in the debug info, so that
	# ccache's hash leaves the clone out; a flavour without DWARF gets no
	# KCFLAGS from kernel.sh.  Once only gdb's flavours had the map: every
	# clean clone compiled bpf's kernel cold when its cache key changed.
	kb 1 "a flavour with DWARF (dwarf)" FLAVOUR=dwarf
	grep -qxF -- "-fdebug-prefix-map=$BUILD/kbuild/dwarf=/kit-kbuild" "$BUILD/kbuild/dwarf/.kcflags" ||
		{ echo "a flavour with DWARF was built without the prefix map: KCFLAGS '$(cat "$BUILD/kbuild/dwarf/.kcflags")'"; exit 1; }
	[ ! -s "$BUILD/kbuild/debug/.kcflags" ] || [ -z "$(tr -d '[:space:]' <"$BUILD/kbuild/debug/.kcflags")" ] ||
		{ echo "a flavour without DWARF got KCFLAGS '$(cat "$BUILD/kbuild/debug/.kcflags")'"; exit 1; }
	kb 0 "the normal flavour after the debug one"
	echo 'edited in the tree' >>"$BUILD/linux/README"
	kb 1 "a file of build/linux edited (not committed)"
	has 'edited in the tree'
	kb 0 "the same edit, nothing else"
	echo 'more notes' >>"$BUILD/linux/Documentation/notes.txt"
	kb 0 "a file of build/linux that Kbuild does not read edited (Documentation/)"
	echo 'int unbuilt2;' >>"$BUILD/linux/drivers/unbuilt.c"
	kb 0 "a source of build/linux in a folder Kbuild descends into but builds nothing of edited"
	echo 'obj-y += unbuilt.o' >>"$BUILD/linux/drivers/Makefile"
	kb 1 "the Makefile of that folder edited"
	has 'obj-y += unbuilt.o'
	echo 'config Y' >>"$BUILD/linux/security/Kconfig"
	kb 1 "a Kconfig file of build/linux edited"
	has 'config Y'
	echo 'int toy; /* in the tree */' >"$BUILD/linux/security/toylsm/toy.c"
	kb 1 "a file of the toylsm mirror edited in the tree"
	grep -q 'security/toylsm/toy.c was edited in the tree' "$S/last.out" ||
		{ echo "no WARNING about the mirror's edit"; exit 1; }
	has 'int toy;' && hasnt '/* in the tree */'
	rm "$BUILD/bzImage"
	kb 1 "the installed bzImage removed"
	[ -f "$BUILD/bzImage" ] || { echo "no bzImage installed again"; exit 1; }
	# A kernel-side lab: its file in the lab kernel, and only there.
	lk() {	# lk WANT DESC: lab-kernel.sh with the lab's file as it is now
		local a
		a=$(runs lab)
		scripts/kernel/lab-kernel.sh 8 labs/08-fake/solution/hook.c >"$S/last.out" 2>&1 ||
			{ echo "$2: lab-kernel.sh failed: $(cat "$S/last.out")"; exit 1; }
		[ $(($(runs lab) - a)) = "$1" ] || { echo "$2: Kbuild ran $(($(runs lab) - a)) time(s), not $1"; exit 1; }
	}
	lk 1 "the lab kernel, first build"
	has 'int hook_v1;' "$BUILD/lab/bzImage"
	lk 0 "the lab kernel, the same lab file"
	echo 'int hook_v2;' >labs/08-fake/solution/hook.c
	lk 1 "the lab's kernel file changed"
	has 'int hook_v2;' "$BUILD/lab/bzImage"
	kb 0 "the normal flavour after a change of the lab kernel's files"
	hasnt 'hook_v' "$BUILD/bzImage"
	# The table decides what a flavour is built with, not its name: zeta
	# is kit.config without CONFIG_TOY (untoy's "# drop:" line), then
	# debug's fragment.  A row changed is a kernel to build.
	kb 1 "a flavour whose row names its fragments (zeta)" FLAVOUR=zeta
	has 'CONFIG_DEBUG_STANDIN=y' "$BUILD/zeta/bzImage" && hasnt 'CONFIG_TOY=y' "$BUILD/zeta/bzImage"
	kb 0 "zeta again" FLAVOUR=zeta
	sed -i 's/^zeta \(.*\)| kit debug untoy |/zeta \1| kit untoy |/' configs/flavours.conf
	kb 1 "zeta's row changed (no debug fragment)" FLAVOUR=zeta
	hasnt 'CONFIG_DEBUG_STANDIN=y' "$BUILD/zeta/bzImage"
	# The modes the other scripts use: --configure (compile-check.sh), then
	# --kbuild (its objects); --tree (series-builds.sh: every time, nothing
	# installed or stamped); and a flavour that is never built whole.
	out=$(scripts/kernel/kernel.sh --flavour callers 2>&1) &&
		{ echo "kernel.sh built the callers flavour whole: $out"; exit 1; }
	grep -q 'never built whole' <<<"$out" || { echo "no reason for refusing callers: $out"; exit 1; }
	scripts/kernel/kernel.sh --flavour callers --configure >"$S/last.out" 2>&1 ||
		{ echo "--configure failed: $(cat "$S/last.out")"; exit 1; }
	if ! grep -qx 'CONFIG_CALLER_STANDIN=y' "$BUILD/kbuild/callers/.config" || [ "$(runs callers)" != 0 ]; then
		echo "--configure: no configured folder, or Kbuild ran"; exit 1
	fi
	if ! scripts/kernel/kernel.sh --flavour callers --kbuild bzImage >"$S/last.out" 2>&1 || [ "$(runs callers)" != 1 ]; then
		echo "--kbuild bzImage did not run Kbuild once: $(cat "$S/last.out")"; exit 1
	fi
	if [ -e "$BUILD/callers" ] || [ -e "$BUILD/stamps/kernel-callers" ]; then
		echo "--kbuild installed or stamped something"; exit 1
	fi
	out=$(scripts/kernel/kernel.sh --flavour series 2>&1) &&
		{ echo "kernel.sh built the series flavour without its tree: $out"; exit 1; }
	for _ in 1 2; do
		scripts/kernel/kernel.sh --flavour series --tree "$BUILD/linux" >"$S/last.out" 2>&1 ||
			{ echo "--tree failed: $(cat "$S/last.out")"; exit 1; }
	done
	if [ "$(runs series)" != 2 ] || [ -e "$BUILD/series" ] || [ -e "$BUILD/stamps/kernel-series" ]; then
		echo "--tree twice: Kbuild ran $(runs series) time(s), not 2, or something was installed or stamped"; exit 1
	fi
	echo '# a comment' >>scripts/kernel/kernel.sh
	kb 1 "kernel.sh itself changed"
	exit 0
)
# The kernel cache (kernel.sh): a second clone with the same inputs takes
# the first one's kernel without running Kbuild, renamed to itself (no
# path of the first clone left in its Kbuild folder) and up to date for
# Kbuild (a forced run recompiles nothing); a clone whose demo-lsm/ or
# patch differs builds its own.  CACHE_SABOTAGE: a sed script applied to
# both clones' kernel.sh.
# shellcheck disable=SC2030,SC2031 # what a case exports stays in its subshell, by design
cachecase() (
	CACHECASE=$T/kcache
	rm -rf "$CACHECASE"
	export CACHECASE
	SABOTAGE=${CACHE_SABOTAGE:-} kbuildcase >/dev/null || { echo "the first clone's build failed"; exit 1; }
	A=$T/kb/kit B=$T/kb2/kit
	rm -rf "$T/kb2" && mkdir -p "$T/kb2" && cp -r "$A" "$B" && rm -rf "$B/build" || exit 1
	# A name that begins with the first clone's path without being under
	# it, as /kit-kbuild (the debug info's name of the output folder) is
	# for the image's /kit: the restore keeps it.
	for e in "$CACHECASE"/normal-*/kbuild; do printf '%s %s\n' "$A-kbuild" "$A/x" >"$e/anchor.txt"; done
	[ -z "${CACHE_SABOTAGE:-}" ] || sed -i "$CACHE_SABOTAGE" "$B/scripts/kernel/kernel.sh"
	cd "$B" || exit 1
	export BUILD=$B/build TARBALL=$T/kb/fake.tar.xz LABS_DIR=$B/labs KIT_KERNEL_CACHE=$CACHECASE
	export PATH=$T/kb/bin:$PATH DPKG_ADMINDIR=$T/kb/dpkg	# kbuildcase's dpkg-query
	unset KCFLAGS
	# Kbuild ran in this clone: kernel.sh wrote its log (the stand-in's
	# run counter is in the Kbuild folder, which the cache copies).
	ran() { [ -f "$BUILD/logs/kernel-normal.log" ] && echo 1 || echo 0; }
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "second clone: kernel.sh failed: $out"; exit 1; }
	[ "$(ran)" = 0 ] || { echo "second clone, same inputs: Kbuild ran"; exit 1; }
	grep -q 'from the kernel cache' <<<"$out" || { echo "no 'from the kernel cache' message: $out"; exit 1; }
	cmp -s "$A/build/bzImage" "$B/build/bzImage" || { echo "the restored bzImage differs from the first clone's"; exit 1; }
	! grep -rqF "$A/" "$B/build/kbuild/normal" || { echo "the restored Kbuild folder names the first clone: $(grep -rlF "$A/" "$B/build/kbuild/normal" | head -2)"; exit 1; }
	[ "$(cat "$B/build/kbuild/normal/anchor.txt")" = "$A-kbuild $B/x" ] ||
		{ echo "the restore renamed a path that only begins with the first clone's: '$(cat "$B/build/kbuild/normal/anchor.txt")'"; exit 1; }
	[ "$(readlink "$B/build/kbuild/normal/source")" = "$B/build/linux" ] ||
		{ echo "the restored source link points at $(readlink "$B/build/kbuild/normal/source")"; exit 1; }
	rm "$BUILD/stamps/kernel-normal"
	KIT_KERNEL_CACHE=off FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "the forced Kbuild run failed"; exit 1; }
	[ "$(ran)" = 1 ] || { echo "the forced Kbuild run did not run Kbuild"; exit 1; }
	! grep -q 'CC      stand-in' "$BUILD/logs/kernel-normal.log" ||
		{ echo "Kbuild, run on the restored folder, recompiled it (its files older than the tree?)"; exit 1; }
	# A second clone whose demo-lsm/ differs: its own kernel.
	rm -rf "$BUILD"
	echo 'int toy_b;' >demo-lsm/toy.c
	FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "second clone, demo-lsm edited: kernel.sh failed"; exit 1; }
	[ "$(ran)" = 1 ] || { echo "second clone, demo-lsm/ edited: Kbuild ran 0 times"; exit 1; }
	grep -qF 'int toy_b;' "$BUILD/bzImage" || { echo "second clone, demo-lsm/ edited: the first clone's kernel was taken"; exit 1; }
	# and a patch changed: its own kernel too.
	rm -rf "$BUILD"
	sed -i 's/^+hello, patched.*$/+hello from clone b/' patches/0001-*.patch
	FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "second clone, patch changed: kernel.sh failed"; exit 1; }
	grep -qF 'hello from clone b' "$BUILD/bzImage" || { echo "second clone, patch changed: a cached kernel was taken"; exit 1; }
	exit 0
)
sabotaged "the kernel cache: a clone with the same inputs takes another's kernel without Kbuild, renamed to itself and up to date; a different demo-lsm/ or patch builds its own" \
	"a cache key that is the same for every kernel" cachecase CACHE_SABOTAGE '/^cache_key() {/a echo one key; return' 'demo-lsm/ edited: Kbuild ran 0 times'
sabotaged "the kernel cache's restore renames the first clone's paths, not a name that only begins with it (/kit-kbuild for /kit)" \
	"a restore that renames every occurrence" cachecase CACHE_SABOTAGE 's/(?!\[\\w.+-\])//' 'only begins with the first'

# The host's architecture is in the stamp and in the kernel cache's key:
# a Kbuild folder holds host programs (fixdep, objtool) built for the
# host that built it, so an arm64 host (KIT_HOST_ARCH=arm64, lib.sh) never
# takes an x86_64 host's kernel, even where nothing else tells the two
# toolchains apart: here the table's arm64 row has no cross prefix and no
# ccache namespace, the same stand-in compiler and packages.
# HOST_SABOTAGE: a sed script applied to both clones' kernel.sh.
# shellcheck disable=SC2030,SC2031 # what a case exports stays in its subshell, by design
hostcase() (
	CACHECASE=$T/kcache-host
	rm -rf "$CACHECASE"
	export CACHECASE
	SABOTAGE=${HOST_SABOTAGE:-} KIT_HOST_ARCH=amd64 kbuildcase >"$T/hostcase.out" 2>&1 ||
		{ echo "the x86_64 host's first build failed"; exit 1; }
	A=$T/kb/kit B=$T/kb-arm/kit
	export TARBALL=$T/kb/fake.tar.xz KIT_KERNEL_CACHE=$CACHECASE
	export PATH=$T/kb/bin:$PATH DPKG_ADMINDIR=$T/kb/dpkg	# kbuildcase's dpkg-query
	unset KCFLAGS
	sed -e '/^arm64 /s/| x86_64-linux-gnu- |/| - |/' -e '/^arm64 /s/| host-arm64$/| -/' \
		"$K/configs/arches.conf" >"$A/configs/arches.conf"
	grep -q '^arm64 .*| - *| ' "$A/configs/arches.conf" || { echo "the test's arm64 row kept its cross prefix"; exit 1; }
	rm -rf "$T/kb-arm" && mkdir -p "$T/kb-arm" && cp -r "$A" "$B" && rm -rf "$B/build" || exit 1
	cd "$B" || exit 1
	export BUILD=$B/build LABS_DIR=$B/labs
	out=$(KIT_HOST_ARCH=arm64 FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "the arm64 clone: kernel.sh failed: $out"; exit 1; }
	! grep -q 'from the kernel cache' <<<"$out" ||
		{ echo "the arm64 host took the x86_64 host's kernel from the kernel cache"; exit 1; }
	[ -f "$BUILD/logs/kernel-normal.log" ] || { echo "the arm64 clone: Kbuild did not run"; exit 1; }
	cd "$A" || exit 1
	export BUILD=$A/build LABS_DIR=$A/labs
	out=$(KIT_HOST_ARCH=arm64 FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "the x86_64 clone, on arm64: kernel.sh failed: $out"; exit 1; }
	! grep -q 'up to date' <<<"$out" ||
		{ echo "the x86_64 host's kernel was up to date for an arm64 host: $out"; exit 1; }
	n=$(find "$CACHECASE" -maxdepth 2 -path '*/normal-*/done' | wc -l)
	[ "$n" = 2 ] || { echo "the kernel cache holds $n normal kernel(s), not one per host"; exit 1; }
	exit 0
)
sabotaged "the stamp and the kernel cache key on the host's architecture: an arm64 host never takes an x86_64 host's kernel" \
	"a kernel.sh whose keys leave the host out" hostcase HOST_SABOTAGE 's/^host_line() {.*/host_line() { :; }/' \
	'took the x86_64 host'"'"'s kernel'

# ccache installed half-way (make deps installs it in a fresh machine's
# first run) changes no compiler command line: the clone's next run
# compiles nothing, and a second clone with ccache takes the first one's
# kernel from the cache.  KIT_CCACHE=0 stands for "not installed yet"
# (lib.sh then leaves ccache out, as it does when it is missing).  It
# once did not: CC="ccache gcc" on the make line made the next make test
# recompile the whole kernel, and keyed the cache on it.
# CCACHE_SABOTAGE: a sed script applied to both clones' kernel.sh.
# shellcheck disable=SC2030,SC2031 # what a case exports stays in its subshell, by design
ccachecase() (
	CACHECASE=$T/kcache-cc
	rm -rf "$CACHECASE"
	export CACHECASE
	SABOTAGE=${CCACHE_SABOTAGE:-} KIT_CCACHE=0 kbuildcase >/dev/null ||
		{ echo "the first build, without ccache, failed"; exit 1; }
	A=$T/kb/kit
	cd "$A" || exit 1
	export BUILD=$A/build TARBALL=$T/kb/fake.tar.xz LABS_DIR=$A/labs KIT_KERNEL_CACHE=$CACHECASE
	export PATH=$T/kb/bin:$PATH DPKG_ADMINDIR=$T/kb/dpkg	# kbuildcase's dpkg-query
	unset KCFLAGS KIT_CCACHE
	rm -f "$BUILD/logs/kernel-normal.log"
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "the run with ccache failed: $out"; exit 1; }
	! grep -q 'CC      stand-in' "$BUILD/logs/kernel-normal.log" 2>/dev/null ||
		{ echo "the run after ccache was installed recompiled the kernel"; exit 1; }
	# The second clone's path is the start of another input's, the
	# tarball $T/kb/fake.tar.xz, as the image's /kit is of
	# /kit/configs/kit.config's text: the key names the clone as @KIT@
	# only where a path begins with it (kernel.sh's unkit).
	B=$T/kb/fake
	rm -rf "$B" && cp -r "$A" "$B" && rm -rf "$B/build" && cd "$B" || exit 1
	export BUILD=$B/build LABS_DIR=$B/labs
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "second clone: kernel.sh failed: $out"; exit 1; }
	grep -q 'from the kernel cache' <<<"$out" ||
		{ echo "a second clone with ccache did not take the first clone's kernel from the cache"; exit 1; }
	exit 0
)
sabotaged "ccache installed after the first build: the next run compiles nothing, and another clone takes the kernel from the cache" \
	"a kernel.sh with CC=\"ccache gcc\" on its make line" ccachecase CCACHE_SABOTAGE \
	'/^\tKMAKE=(make -C/a [ "${KIT_CCACHE:-1}" = 0 ] || KMAKE+=(CC="ccache gcc")' 'recompiled the kernel'

# kbuildcase once unsabotaged for the three cases below (its scratch kit
# is remade by each run; only the result is kept).
kbuildonce() {
	[ -n "${SABOTAGE:-}" ] && { kbuildcase; return; }
	[ -f "$T/kbuild.rc" ] || { kbuildcase >"$T/kbuild.out" 2>&1; echo $? >"$T/kbuild.rc"; }
	cat "$T/kbuild.out"
	return "$(cat "$T/kbuild.rc")"
}
# The case must fail where the digest misses an input: on a kernel.sh
# whose stamp leaves demo-lsm/ out, at the demo-lsm/ edit.
sabotaged "kernel.sh runs Kbuild when a patch, a demo-lsm/ file, a config fragment, a lab's kernel file, the flavour, KCFLAGS, the compiler's package or the tree changed, and not for a README, a guest test, a touch or an unrelated package" \
	"a kernel.sh whose digest leaves demo-lsm/ out" kbuildonce SABOTAGE '/echo "demo-lsm /d' '^a demo-lsm/ file edited: Kbuild ran 0'
# The quick stamp (lib.sh's quick_ok) answers the no-op without git status
# over the tree, and still sees an edit of the tree: shown failing with no
# quick stamp, and with one that leaves the tree's folders out.
sabotaged "a no-op make kernel reads no content (no git status over the tree), yet sees each input change above" \
	"a kernel.sh without its quick stamp" kbuildonce SABOTAGE 's/quick_ok "\$STAMP"/false \&\& &/' 'the no-op ran git status'
sabotaged "a flavour with DWARF maps its output folder out of the debug info (-fdebug-prefix-map), so that another clone's ccache hits" \
	"a kernel.sh that maps gdb's flavours only" kbuildonce SABOTAGE \
	"s/^\tif grep -qx 'CONFIG_DEBUG_INFO=y' .*/\tif [[ \"\\\$FLAVOUR\" == *gdb* ]]; then/" 'built without the prefix map'
sabotaged "the quick stamp watches the tree as Kbuild read it: the folders it built in, the files its .cmd files list, its Makefiles and Kconfig files" \
	"a kernel.sh whose quick stamp leaves the tree's folders out" kbuildonce SABOTAGE \
	's/\[ -d "\$t" \] || continue/continue/; s/ "\$TREE")$/)/; /kernel-deps.awk")$/s/-f /-f \/dev\/null /' \
	'^a file of build/linux edited (not committed): Kbuild ran 0'

# The table decides what a flavour is built with (its row's fragments),
# not its name's parts, as kernel.sh once did (lab-gdb: lab.config, then
# gdb.config): shown failing with that kernel.sh, on the flavour zeta.
# shellcheck disable=SC2016 # a sed script
sabotaged "a flavour is built with its row's fragments of configs/flavours.conf, whatever its name; a row changed is a kernel to build" \
	"a kernel.sh that takes the fragments from the flavour's name" kbuildonce SABOTAGE \
	's/for w in $(flavour_get "$FLAVOUR" fragments); do all+=/for w in kit $([ "$FLAVOUR" = normal ] || echo "${FLAVOUR\/\/-\/ }"); do all+=/' \
	'^a flavour whose row names its fragments (zeta): kernel.sh failed'

# kernel.sh's progress line: no total invented for a first build (it once
# said "1007/900 objects, 99%"), none passed when a build outgrows the last.
# KERNEL_SABOTAGE: a sed script applied to a copy of scripts/kernel/kernel.sh.
progress() (
	sed -n '/^progress_msg() {/,/^}/p' "$K/scripts/kernel/kernel.sh" >"$T/progress.sh"
	[ -z "${KERNEL_SABOTAGE:-}" ] || sed -i "$KERNEL_SABOTAGE" "$T/progress.sh"
	. "$T/progress.sh"
	chk() { local got; got=$(progress_msg "$1" "$2" "$3"); [ "$got" = "$4" ] || { echo "progress_msg $1 '$2' $3: '$got', not '$4'"; exit 1; }; }
	chk 1007 "" 1 "1007 objects compiled (a first build here: no total known yet)"
	chk 1020 1016 1 "1020 objects compiled (the last full build compiled 1016)"
	chk 508 1016 1 "508/1016 objects, 50%"
	chk 12 1016 0 "12 object(s) recompiled"
)
sabotaged "the kernel build's progress line: no invented total, none passed" \
	"a progress_msg that divides by a missing total" progress KERNEL_SABOTAGE 's/-z "\$expect"/-z "$expect$expect" -a 1 = 0/; s/"\$done" -gt "\$expect"/0 -gt 1/'

# kernel.sh is the one script that configures or builds a kernel: Kbuild's
# configure steps (tinyconfig, merge_config, olddefconfig, the check that
# every option landed: config_mismatches) and Kbuild on a kernel's output
# folder (make ... O=) appear on no code line (a comment may name them)
# of another script, the Makefile or CI.  Shown failing on a copy with
# two second builders, as bench-trace.sh's own configure and
# bench-host.sh's bare make were.
builders() {	# builders ROOT: such lines outside kernel.sh
	(cd "$1" && grep -rnE '(tinyconfig|merge_config|olddefconfig|config_mismatches)|(^|[^A-Za-z_])make([[:space:]][^#]*)?[[:space:]]O=' \
		scripts Makefile .ci 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' | grep -v '^scripts/kernel/kernel.sh:')
}
onebuilder() (
	local found
	found=$(builders "$K")
	[ -z "$found" ] || { echo "configured or built outside kernel.sh:"; echo "$found"; exit 1; }
	rm -rf "$T/b" && mkdir -p "$T/b" && cp -r "$K/scripts" "$K/Makefile" "$K/.ci" "$T/b/" || exit 1
	# shellcheck disable=SC2016 # the seeded lines, as written
	printf '\t"$TREE/scripts/kconfig/merge_config.sh" -m -O "$NK" "$NK/.config" "$FRAG"\n' >>"$T/b/scripts/bench/bench-trace.sh"
	# shellcheck disable=SC2016 # the seeded lines, as written
	printf 't=$(timed make -C "$TREE" O="$KOUT" ARCH=x86_64 bzImage)\n' >>"$T/b/scripts/bench/bench-host.sh"
	found=$(builders "$T/b")
	if ! grep -q '^scripts/bench/bench-trace.sh:.*merge_config' <<<"$found" ||
	   ! grep -q '^scripts/bench/bench-host.sh:.*make -C' <<<"$found"; then
		echo "the seeded second builders were not found: '$found'"; exit 1
	fi
)
scenario "kernel.sh alone runs Kbuild's configure steps and Kbuild (seeded second builders in bench-trace.sh and bench-host.sh found)" onebuilder
