# Shared helpers for the kit's scripts: paths, messages, stamps.
# Sourced, never run.  Every script that fails says what happened and what
# to do in one paragraph, then exits non-zero (die).  Its variables are
# for the scripts that source it (shellcheck, which reads lib.sh alone,
# calls them unused: SC2034).

KIT=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)
BUILD=${BUILD:-$KIT/build}
# shellcheck disable=SC2034 # for the sourcing scripts
TREE=$BUILD/linux
# The kit's user-space C library (guest/include/kit/: the LSM ABI, the
# LSM names, the trace parser, the timing, files and Landlock helpers),
# included as "kit/NAME.h" by the guest's tools, the tests and the graders.
# shellcheck disable=SC2034 # for the sourcing scripts
KITINC=$KIT/guest/include
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
# The reference kernel (the tree "mainline" of configs/flavours.conf):
# Debian's 6.12, unpatched, in a tree of its own (scripts/kernel/tree-mainline.sh).
MAINLINE_TARBALL=${MAINLINE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# shellcheck disable=SC2034 # for the sourcing scripts
MAINLINE_TREE=$BUILD/linux-6.12
# The tree "pristine": the tag pristine of build/linux, checked out
# without the series (scripts/kernel/tree-pristine.sh).
# shellcheck disable=SC2034 # for the sourcing scripts
PRISTINE_TREE=$BUILD/linux-baseline
# FLAVOUR: which row of configs/flavours.conf, the table of the kit's
# kernels (scripts/lib/flavours.sh reads it), and nothing else.
FLAVOUR=${FLAVOUR:-normal}
STAMPS=$BUILD/stamps
LOGS=$BUILD/logs
. "$KIT/scripts/lib/flavours.sh"

# Outputs of one flavour: the normal kernel lands at build/bzImage, others at
# build/<flavour>/bzImage, each with its own Kbuild output folder.  (A name
# only: the scripts that build or boot a flavour check it is a row,
# flavour_use.)
flavour_dir() {
	if [ "$FLAVOUR" = normal ]; then echo "$BUILD"; else echo "$BUILD/$FLAVOUR"; fi
}
# shellcheck disable=SC2034 # for the sourcing scripts
KOUT=$BUILD/kbuild/$FLAVOUR

# series_headers: the UAPI headers of a kernel built with the series (the
# normal flavour's, else the debug or gdb flavour's), or nothing.  The base
# initramfs is one file for every flavour, so its tools (probe) are always
# compiled against these, never against the flavour that boots them: the
# reference kernel's <linux/lsm.h> (FLAVOUR=mainline) has mainline's IDs,
# not the kit's (no LSM_ID_TOYLSM).
series_headers() {
	local f d
	for f in normal debug gdb; do
		d=$(FLAVOUR=$f flavour_dir)/usr/include
		[ -f "$d/linux/lsm.h" ] && { echo "$d"; return 0; }
	done
	return 0
}

[ -d "$STAMPS" ] && [ -d "$LOGS" ] || mkdir -p "$STAMPS" "$LOGS" 2>/dev/null || true


# Debian's ccache, when it is installed (make deps installs it), turns a
# recompile of an object that an earlier build already compiled, in this
# clone or in another one, into a look-up: kernel developers use it for the
# same reason.  It is used the way Debian sets it up for this, through its
# folder of compiler links (/usr/lib/ccache/gcc...) put first in PATH, so
# that the compiler's command line stays plain `gcc` with or without it:
# Kbuild compares every object's command line with the one it was built
# with (its .cmd files), so a build before ccache was installed and one
# after must say the same (CC="ccache gcc" once made a fresh machine's
# second run recompile the whole kernel, and kept its kernel-cache entry
# from every clone with ccache).  The folder is put in PATH even when it
# does not exist yet: a run that installs ccache uses it at once, and a
# host without it compiles with gcc.  CCACHE_BASEDIR makes the paths under
# the kit relative, so that two clones share hits.  KIT_CCACHE=0 turns it
# off; KIT_CCACHE_DIR names another folder of links (tests/host/kernel.sh).
KIT_CCACHE_DIR=${KIT_CCACHE_DIR:-/usr/lib/ccache}
if [ "${KIT_CCACHE:-1}" != 0 ] && [[ ":$PATH:" != *":$KIT_CCACHE_DIR:"* ]]; then
	export CCACHE_BASEDIR=$KIT PATH=$KIT_CCACHE_DIR:$PATH
fi
# without_ccache CMD...: CMD with the compiler links out of PATH (which gcc
# the toolchain is, for a stamp: the link would name ccache's binary).
without_ccache() {
	local p=":$PATH:"
	p=${p//":$KIT_CCACHE_DIR:"/:}
	p=${p#:}
	PATH=${p%:} "$@"
}

# Guests that run at once (make test's boots, make selftests'): GUESTS, or
# one per CPU.  Under TCG a guest's busy vCPU is one host thread, and the
# suites' programs mostly run one at a time, so one guest leaves the other
# CPU idle; each guest keeps its own folder (build/run/NAME) and logs.
# The debug flavour too: with 2 KASAN guests at once, beside another make
# test, every boot of make test-debug stayed within its time limit
# (kit.timeout_debug in tests/boots.conf).
# (Asked when first needed: nproc is a process, and lib.sh is sourced by
# every script of a make run.)
# slot: wait until fewer than GUESTS of this shell's background jobs run.
slot() {
	: "${GUESTS:=$(nproc)}"
	while [ "$(jobs -rp | wc -l)" -ge "$GUESTS" ]; do wait -n || true; done
}

# children_cpu VAR FILE: VAR = the CPU time (user + system, in ms) of the
# children this shell has waited for so far (the times builtin, through
# FILE: no process started).  The difference around a command is its CPU.
children_cpu() {
	local u s x t=0
	times >"$2"
	{ read -r _ _; read -r u s; } <"$2"
	for x in "$u" "$s"; do	# "1m2.345s": 3 decimals
		x=${x%s} && x=${x/./}
		t=$((t + 10#${x%%m*} * 60000 + 10#${x#*m}))
	done
	printf -v "$1" '%d' "$t"
}

# die "what happened" "what to do": a one-paragraph error and exit 1.
die() {
	printf '\nkit: error: %s\n' "$1" >&2
	[ -n "${2:-}" ] && printf '     %s\n' "$2" | fold -s -w 76 | sed '2,$s/^/     /' >&2
	exit 1
}

say() { printf 'kit: %s\n' "$*"; }

# rel PATH: PATH as messages show it, relative to the kit when it is in it
# (build/logs/x.log), else as it is.  scripts/lib/kitpath.py's rel is its
# twin, for the Python scripts.
rel() { printf '%s\n' "${1#"$KIT"/}"; }

# first PATH...: the first PATH that exists, or nothing: a glob's first
# match (a glob that matches nothing is itself, which does not exist).
first() {
	local p
	for p; do [ -e "$p" ] && { printf '%s\n' "$p"; return 0; }; done
	return 0
}

# The guest is x86_64 on every host; this host's way of making and booting
# it is its row of configs/arches.conf (scripts/lib/arches.sh): on an arm64
# host, Debian's cross toolchain to x86_64 (CROSS_COMPILE, which Kbuild
# and GUEST_CC read), the guest's busybox and static libraries unpacked
# from amd64's packages (GUEST_ROOT), and a ccache namespace of its own.
# The table decides, not the caller's environment: a CROSS_COMPILE left
# from other work would build another kernel.  A host the table lacks
# gets none of these (deps.sh and make doctor say why it cannot run).  A
# scratch kit of the host suites without the table is an x86_64 host's.
# (Not on a bash older than 5: scripts/image/run.sh runs on macOS's 3.2,
# and needs none of this; every other script stops on such a bash first,
# deps.sh's host_bash_problem.)
. "$KIT/scripts/lib/arches.sh"
if [ "${BASH_VERSINFO[0]}" -ge 5 ]; then
	case ${KIT_HOST_ARCH:-$HOSTTYPE} in
	x86_64|amd64) arch_known || ARCH_HOST=amd64 ;;
	*) arches_load ;;
	esac
fi
HOST_ARCH=$ARCH_HOST
# shellcheck disable=SC2034 # for the sourcing scripts
GUEST_ROOT=/ GUEST_ARCH=x86_64 GUEST_QEMU=qemu-system-x86_64 GUEST_GDB=gdb GUEST_KVM=1
unset CROSS_COMPILE
# shellcheck disable=SC2034 # for the sourcing scripts
if [ -n "$HOST_ARCH" ] && arch_known; then
	arch_set GUEST_ARCH guest
	# KVM runs a guest of the host's own architecture only.
	arch_set _a uname
	[ "$_a" = "$GUEST_ARCH" ] || GUEST_KVM=0
	arch_set GUEST_QEMU qemu
	arch_set GUEST_GDB gdb
	arch_set _a cross
	[ -z "$_a" ] || export CROSS_COMPILE=$_a
	arch_set _a debs
	[ -z "$_a" ] || GUEST_ROOT=$BUILD/tools/$GUEST_ARCH
	arch_set _a ccache
	[ -z "$_a" ] || export CCACHE_NAMESPACE=$_a
	unset _a
fi
# The compiler of the guest's programs (static, x86_64); the folder of the
# guest's static libraries (libbpf.a, libelf.a, libz.a: lab 13); the
# guest's system headers and those of its architecture (asm/), as
# Debian lays them out for its own compiler (/usr/include) and for a
# cross compiler (/usr/TRIPLET/include).
# shellcheck disable=SC2034 # for the sourcing scripts
GUEST_CC=${CROSS_COMPILE:-}gcc
# shellcheck disable=SC2034 # for the sourcing scripts
GUEST_SYSINC=/usr/include GUEST_ARCHINC=/usr/include/$GUEST_ARCH-linux-gnu
# shellcheck disable=SC2034 # for the sourcing scripts
if [ -n "${CROSS_COMPILE:-}" ]; then
	GUEST_SYSINC=/usr/${CROSS_COMPILE%-}/include GUEST_ARCHINC=/usr/${CROSS_COMPILE%-}/include
fi
# shellcheck disable=SC2034 # for the sourcing scripts
GUEST_LIBDIR=${GUEST_ROOT%/}/usr/lib/$GUEST_ARCH-linux-gnu

# A stamp holds a digest of the inputs of a step; the step runs again only
# when the digest differs.  digest FILE... prints one digest for all files.
digest() {
	cat "$@" 2>/dev/null | sha256sum | cut -d' ' -f1
}

stamp_ok() {	# stamp_ok NAME DIGEST
	[ -f "$STAMPS/$1" ] && [ "$(cat "$STAMPS/$1")" = "$2" ]
}

stamp_set() {	# stamp_set NAME DIGEST
	printf '%s\n' "$2" >"$STAMPS/$1"
}

# A quick stamp says, without reading any content, that nothing a step
# reads has changed since the step last checked its inputs: one find over
# a list of paths (NUL-separated, stamps/NAME.watch; a folder stands for
# itself and its entries, so that a file added or removed changes it too;
# FOLDER/. for the folder alone),
# by ctime, which every write, copy, rename or touch sets to now and none
# can set back.  The step's full stamp (its digests of content) is what
# decides when the quick one cannot: a ctime is no content (a touch, an
# unrelated package installed), so "changed" only means "ask the full
# stamp", and a full stamp that matches records a new quick one.
#   quick_begin NAME            before the step reads any input
#   quick_set NAME ENV          the inputs read since quick_begin are the
#                               stamped ones, the outputs complete; ENV is
#                               what else decides (environment, command line)
#   quick_ok NAME ENV [PATTERN...]  nothing listed changed since: no path
#                               missing, none newer than quick_begin's time
#                               (2 s earlier, below), and the
#                               paths that match a PATTERN (find -path: the
#                               step's outputs) none newer than quick_set
#   quick_drop NAME             the next quick_ok fails
# KIT_QUICK_SLACK_MS: quick_begin's time is that much earlier (2000: a
# file system's timestamps may be coarse; a write in the same tick as
# quick_begin must still count as later).  tests/host/kernel.sh runs with
# less, each of its steps after the last one's end.
quick_begin() {
	local t=$((${EPOCHREALTIME/./} - ${KIT_QUICK_SLACK_MS:-2000} * 1000))
	touch -d "@$((t / 1000000)).$(printf '%06d' $((t % 1000000)))" "$STAMPS/$1.seen.new"
}
quick_set() {
	[ -f "$STAMPS/$1.seen.new" ] && [ -f "$STAMPS/$1.watch" ] || return 0
	printf '%s' "$2" >"$STAMPS/$1.env"
	mv -f "$STAMPS/$1.seen.new" "$STAMPS/$1.seen"
	: >"$STAMPS/$1.done"
}
quick_ok() {
	local q=$STAMPS/$1 env=$2 saved='' p out=()
	shift 2
	[ -f "$q.seen" ] && [ -f "$q.done" ] && [ -f "$q.watch" ] && [ -f "$q.env" ] || return 1
	IFS= read -r -d '' saved <"$q.env" || true
	[ "$saved" = "$env" ] || return 1
	for p; do out+=(-o -path "$p"); done
	[ ${#out[@]} -gt 0 ] || out=(-o -false)
	# shellcheck disable=SC2185 # the paths are -files0-from's: find takes no other
	[ -z "$(find -files0-from "$q.watch" -maxdepth 1 \( -name . -prune -o -true \) \
		-cnewer "$q.seen" \( ! \( "${out[@]:1}" \) -o -cnewer "$q.done" \) -print -quit 2>&1)" ]
}
quick_drop() {
	rm -f "$STAMPS/$1.seen" "$STAMPS/$1.done"
}
# watch_list PATH...: the paths that exist, NUL-separated, sorted, once
# each (quick_ok's list: a path missing later counts as changed).
watch_list() {
	local p
	for p; do [ -e "$p" ] && printf '%s\0' "$p"; done | LC_ALL=C sort -zu
}

# cpio_tree DIR DEST: gen_init_cpio lines (usr/gen_init_cpio.c's format)
# that put the folder DIR, with all it holds, at DEST in a guest's
# initramfs: folders 0755, files 0644, root's, in sorted order.
cpio_tree() {
	local d=$1 dest=$2 f
	echo "dir $dest 0755 0 0"
	(cd "$d" && find . -mindepth 1 | LC_ALL=C sort) | while IFS= read -r f; do
		f=${f#./}
		if [ -d "$d/$f" ]; then echo "dir $dest/$f 0755 0 0"
		else echo "file $dest/$f $d/$f 0644 0 0"; fi
	done
}

# files_digest DIR [FIND-TEST...]: one digest of the names and contents of
# the files under DIR that the find tests select (all files without any):
# unlike digest, a file renamed, added or removed changes it as an edit
# does.  A missing DIR gives a digest of its own.
files_digest() {
	local d=$1
	shift
	[ -d "$d" ] || { echo "no folder $d" | sha256sum | cut -d' ' -f1; return 0; }
	(cd "$d" && find . -type f "$@" -print0 | LC_ALL=C sort -z | xargs -0r sha256sum) |
		sha256sum | cut -d' ' -f1
}

# The files of demo-lsm/ that scripts/kernel/tree.sh mirrors into the tree's
# security/toylsm/ (find tests): the only ones the kernel is built from.
# shellcheck disable=SC2034 # for the sourcing scripts
TOYLSM_FILES=( \( -name '*.[ch]' -o -name Makefile -o -name Kconfig -o -name .kunitconfig \) )

# The series: the patches of patches/series, in its order.
series_patches() {
	[ -f "$KIT/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$KIT/patches/series" | grep -v '^$' || true
}

# series_digest: patches/series and every patch it names (content; the
# names are in series).
series_digest() {
	local p files=("$KIT/patches/series")
	for p in $(series_patches); do files+=("$KIT/patches/$p"); done
	digest "${files[@]}"
}

# stack_cmdline WORDS: WORDS with each name of configs/stacks.conf replaced by
# that stack's kernel command line ("default" by nothing); other words stay.
# (No process started: make lab asks it for every boot's label.)
stack_cmdline() {
	local w out=() name line_ words ws
	read -ra ws <<<"$*"
	for w in "${ws[@]}"; do
		while IFS='|' read -r name line_; do
			[[ $name != *([[:space:]])#* ]] || continue
			name=${name//[[:space:]]/}
			[ "$name" = "$w" ] || continue
			read -ra words <<<"$line_"
			[ ${#words[@]} -eq 0 ] || out+=("${words[*]}")
			w=
			break
		done <"$KIT/configs/stacks.conf"
		[ -n "$w" ] && out+=("$w")
	done
	echo "${out[*]}"
}

# The reference kernel (FLAVOUR=mainline) boots only the stacks that
# mainline 6.12 has: it has no toylsm, and it keeps SELinux, Smack and
# AppArmor exclusive (the first of them in lsm= runs, the others are
# skipped without a word).  A stack that asks for more is refused here,
# rather than booting another stack under its name.
mainline_stack() {	# mainline_stack CMDLINE [quiet]: die if mainline cannot boot it
	local w lsm=
	for w in $1; do [[ "$w" != lsm=* ]] || lsm=${w#lsm=}; done	# the kernel keeps the last
	if [ -z "$lsm" ]; then
		[ -n "${2:-}" ] || say "mainline: no lsm=, so CONFIG_LSM (configs/no-series.config): Landlock, Yama and Smack; the kit's default stack also has toylsm and AppArmor, which mainline cannot stack with Smack" >&2
		return 0
	fi
	if [[ ",$lsm," == *,apparmor,* ]] && [[ ",$lsm," == *,smack,* || ",$lsm," == *,selinux,* ]]; then
		die "the stack ${APPEND:-} (lsm=$lsm) has AppArmor with Smack or SELinux: mainline 6.12 keeps the three exclusive (LSM_FLAG_EXCLUSIVE) and would run only the first of them; the kit's patch 0015 is what lets them stack." \
		    "Use one of the three per boot on FLAVOUR=mainline (stacks apparmor, smack, selinux of configs/stacks.conf)."
	fi
	case ",$lsm," in
	*,toylsm,*)
		die "the stack ${APPEND:-} (lsm=$lsm) has toylsm, the kit's own module: mainline 6.12 has none, and would boot without it." \
		    "Use a stack without toylsm on FLAVOUR=mainline (configs/stacks.conf: smack, apparmor, selinux, none, no-attrs...)." ;;
	esac
	return 0
}

# build/ must be this user's to write: a run as root in someone else's
# checkout (sudo make lab) leaves files the owner cannot replace, and the
# next run failed on a lock with "Permission denied".
for d in "$BUILD" "$STAMPS" "$LOGS"; do
	[ -w "$d" ] && continue
	me=$(id -un 2>/dev/null || id -u)
	die "$d is not writable by $me (it belongs to $(stat -c %U "$d" 2>/dev/null || echo another user): was make run as root in this checkout?)." \
	    "Give build/ back to yourself: sudo chown -R $me: ${BUILD}   then run make again. (make deps as root gives back what it makes; other targets are meant to run as you.)"
done
