#!/usr/bin/env bash
# Configure and build one kernel of the table configs/flavours.conf.  The
# one script that runs Kbuild's configure steps (tinyconfig, merge_config,
# olddefconfig, the check that every option landed) or Kbuild on a
# kernel's output folder: the others call it (tests/host/kernel.sh fails
# on a second one).
#
#   kernel.sh [--flavour NAME]   NAME's kernel, built when one of its inputs
#                changed, and installed: build/bzImage (normal) or
#                build/NAME/bzImage, with vmlinux and the UAPI headers
#                (usr/include).  NAME: a row of configs/flavours.conf;
#                without --flavour, FLAVOUR (make kernel FLAVOUR=bpf), else
#                normal.
#   kernel.sh --flavour NAME --configure
#                its Kbuild folder (build/kbuild/NAME) configured, nothing
#                built (compile-check.sh)
#   kernel.sh --flavour NAME --kbuild ARG...
#                Kbuild run in that folder with ARG... (targets, -k, -n,
#                -jN) and nothing else: no stamp, no install (compile-check's
#                objects, bench-host.sh's Kbuild with nothing to do)
#   kernel.sh --flavour NAME --tree DIR
#                a flavour whose tree is "given": DIR (series-builds.sh's
#                worktree at one patch) configured and built, every time;
#                nothing installed, stamped or cached
#   kernel.sh --flavour NAME --seed-for ARCH 'CC VERSION LINE'
#                on an x86_64 host, NAME's objects compiled as the image of
#                host architecture ARCH (configs/arches.conf) will compile
#                them, into ccache: its cross prefix and ccache namespace,
#                the image's compiler's version line on Kbuild's command
#                line, the folder build/kbuild/seed-ARCH-NAME (the depth of
#                the image's build/kbuild/NAME); nothing installed, stamped
#                or cached (scripts/image/seed-ccache.sh)
#
# Build output goes to build/logs/kernel-NAME.log, the configure steps' to
# config-NAME.log; the terminal gets a short progress line.  JOBS=n:
# Kbuild's -j (default: one per CPU).  docs/hacking.md, "When Kbuild runs"
# and "The kernel cache", says what the stamps and the cache decide;
# docs/performance.md what they save.
set -euo pipefail
. "${0%/*}/../lib/lib.sh"

# The sequence, in order; each step is a function below.
main() {
	parse_args "$@"
	setup			# the flavour's row: tree, fragments, targets, make line
	case $mode in
	configure) lock; prepare_tree; configure; return ;;
	kbuild) lock; kbuild "${KBUILD_ARGS[@]}"; return ;;
	given) lock; configure; build; return ;;
	seed) lock; prepare_tree; configure; build; return ;;
	esac
	# (A step that finds the kernel up to date ends the run: exit 0.)
	quick_up_to_date	# nothing listed changed since the last check: done
	lock			# one build per flavour and build folder
	full_up_to_date		# every input's content as at the last build: done
	prepare_tree		# deps.sh, then the tree
	from_cache		# another clone built these inputs: taken, done
	configure		# tinyconfig + the fragments, each option checked
	build			# Kbuild, with a progress line
	install_outputs		# bzImage, vmlinux, the UAPI headers
	keep			# the stamps, and the kernel cache's copy
}

# parse_args ARG...: mode (full, configure, kbuild, given, seed), NAME,
# GIVEN (the tree of --tree), KBUILD_ARGS, SEED_ARCH and SEED_CC
# (--seed-for's).
parse_args() {
	mode=full NAME=$FLAVOUR GIVEN='' KBUILD_ARGS=() SEED_ARCH='' SEED_CC=
	while [ $# -gt 0 ]; do
		case $1 in
		--flavour) [ $# -ge 2 ] || usage "--flavour needs a name"; NAME=$2; shift ;;
		--configure) mode=configure ;;
		--kbuild) mode=kbuild; shift; KBUILD_ARGS=("$@"); break ;;
		--tree) [ $# -ge 2 ] || usage "--tree needs a folder"; mode=given GIVEN=$2; shift ;;
		--seed-for) [ $# -ge 3 ] || usage "--seed-for needs an architecture and a compiler's version line"
			mode=seed SEED_ARCH=$2 SEED_CC=$3; shift 2 ;;
		*) usage "unknown argument '$1'" ;;
		esac
		shift
	done
}
usage() {
	die "kernel.sh: $1." "Usage: kernel.sh [--flavour NAME] [--configure | --kbuild ARG... | --tree DIR | --seed-for ARCH 'CC VERSION LINE'] (the head of scripts/kernel/kernel.sh)."
}

# setup: the flavour's row of configs/flavours.conf as this run needs it.
# FLAVOUR, KOUT, OUT (where it is installed), LOG, TARGETS, the tree
# (tree_of), FRAGS (fragments), KMAKE (Kbuild's command line), STAMP.
setup() {
	local tree arch c
	flavour_use "$NAME"
	tree=$(flavour_get "$FLAVOUR" tree)
	arch=$(flavour_get "$FLAVOUR" arch)
	read -ra TARGETS <<<"$(flavour_get "$FLAVOUR" targets)"
	case $mode/$tree in
	given/given) ;;
	*/given) die "the $FLAVOUR kernel is built on a tree its caller makes (configs/flavours.conf: tree given)." \
		"Give it: kernel.sh --flavour $FLAVOUR --tree DIR (make series-builds does)." ;;
	given/*) die "--tree is for a flavour whose tree is \"given\"; $FLAVOUR's is $tree." \
		"Leave --tree out: kernel.sh makes $FLAVOUR's tree itself." ;;
	esac
	[ $mode != full ] || [ ${#TARGETS[@]} -gt 0 ] ||
		die "the $FLAVOUR kernel is never built whole or installed (configs/flavours.conf: no targets)." \
		    "Configure it with kernel.sh --flavour $FLAVOUR --configure and compile what you need with --kbuild (make compile-check does)."
	OUT=$(flavour_dir)
	LOG=$LOGS/kernel-$FLAVOUR.log
	STAMP=kernel-$FLAVOUR
	# The row's columns that decide the build (the stamps hold them).
	ROW=$(for c in tree fragments seed targets arch; do echo "$c $(flavour_get "$FLAVOUR" "$c")"; done)
	SRCARCH=$(srcarch "$arch")
	[ $mode != seed ] || seed_setup
	tree_of "$tree"
	fragments
	KMAKE=(make -C "$TREE" O="$KOUT" ARCH="$arch")
	[ $mode != seed ] || KMAKE+=(CROSS_COMPILE="$SEED_PREFIX" "CC_VERSION_TEXT=$SEED_CC")
	# The programs the build runs: the host's (Kbuild's host programs,
	# fixdep and objtool, are built for the host with its gcc) and, on a
	# host of another architecture, the guest's cross toolchain (lib.sh:
	# CROSS_COMPILE, from configs/arches.conf, which Kbuild reads from the
	# environment).  The host's architecture is a line of the key
	# (kernel_inputs): a Kbuild folder's host programs are the host's.
	TOOLS=(gcc ld as make)
	[ -z "${CROSS_COMPILE:-}" ] || TOOLS+=("${CROSS_COMPILE}gcc" "${CROSS_COMPILE}ld" "${CROSS_COMPILE}as")
	IMAGE=arch/$SRCARCH/boot/bzImage
	GDB_HELPERS=
	[[ " ${TARGETS[*]} " != *" scripts_gdb "* ]] || GDB_HELPERS=1
	# With DWARF (gdb's flavours, and bpf's, whose BTF pahole makes from
	# it), ccache puts the compiler's working directory (the output
	# folder, which names the clone) in its hash, unless
	# -fdebug-prefix-map maps it: mapped to one fixed name, another
	# clone (CI's, a lab flavour's copy) hits what this one compiled.
	# gdb.sh maps the name back (set substitute-path).
	if grep -qx 'CONFIG_DEBUG_INFO=y' "${FRAGS[@]}"; then
		KMAKE+=(KCFLAGS="-fdebug-prefix-map=$KOUT=/kit-kbuild")
	fi
	# A kernel with toylsm's extension point builds a lab's files, which
	# lab-kernel.sh puts in the tree first.
	if [ $mode = full ] && grep -qx 'CONFIG_SECURITY_TOYLSM_EXTRA=y' "${FRAGS[@]}" &&
	   [ ! -f "$TREE/security/toylsm/extra/Makefile" ]; then
		die "the $FLAVOUR kernel is built with a lab's files in it, by make lab 8 or make lab 9." \
		    "Run one of those (scripts/kernel/lab-kernel.sh does the build)."
	fi
	return 0
}

# seed_setup: --seed-for's folder, log, stamp names, cross prefix and
# ccache namespace (ARCH's row of configs/arches.conf).  Only an x86_64
# host compiles the same objects as another host's cross compiler does.
seed_setup() {
	[ "$HOST_ARCH" = amd64 ] ||
		die "kernel.sh --seed-for compiles the x86_64 guest's kernel natively: run it on an x86_64 host." ""
	SEED_PREFIX=$(arch_row_get "$SEED_ARCH" cross)
	[ -n "$SEED_PREFIX" ] || die "the $SEED_ARCH row of configs/arches.conf has no cross prefix: its image compiles as this host does, and needs no seed." ""
	KOUT=$BUILD/kbuild/seed-$SEED_ARCH-$FLAVOUR
	LOG=$LOGS/seed-$SEED_ARCH-$FLAVOUR.log
	STAMP=seed-$SEED_ARCH-$FLAVOUR
	ns=$(arch_row_get "$SEED_ARCH" ccache)
	if [ -n "$ns" ]; then export CCACHE_NAMESPACE=$ns; else unset CCACHE_NAMESPACE; fi
}

# srcarch ARCH: the folder of arch/ that Kbuild's ARCH builds from.
srcarch() {
	case $1 in
	x86_64) echo x86 ;;
	*) die "kernel.sh: no guest architecture $1 yet." "configs/flavours.conf's head says where another one goes." ;;
	esac
}

# tree_of TREE: the flavour's tree (the column "tree"): TREE, what
# installs its source (DEPS) and makes it (MKTREE), its tarball, the
# files whose digest says the tree changed (TREEDIGEST), whether it is
# a git repository (TREE_GIT) and holds the series (SERIES).
tree_of() {
	TREE_GIT=1 SERIES=
	case $1 in
	series)
		DEPS=("$KIT/scripts/host/deps.sh") MKTREE=("$KIT/scripts/kernel/tree.sh") TARBALLS=("$TARBALL")
		TREEDIGEST=("$STAMPS/series" "$TREE/.git/HEAD" "$STAMPS/series-head")
		SERIES=1 ;;
	pristine)
		TREE=$PRISTINE_TREE
		DEPS=("$KIT/scripts/host/deps.sh") MKTREE=("$KIT/scripts/kernel/tree-pristine.sh") TARBALLS=("$TARBALL")
		TREEDIGEST=("$STAMPS/tree-pristine") ;;
	mainline)
		# make run FLAVOUR=mainline APPEND=<a stack mainline cannot
		# boot>: say so before building anything (run-guest.sh checks
		# it again).
		mainline_stack "$(stack_cmdline "${APPEND:-}")" quiet
		TREE=$MAINLINE_TREE
		DEPS=("$KIT/scripts/host/deps.sh" --mainline) MKTREE=("$KIT/scripts/kernel/tree-mainline.sh") TARBALLS=("$MAINLINE_TARBALL")
		TREEDIGEST=("$STAMPS/tree-mainline") TREE_GIT= ;;
	given)
		[ -f "$GIVEN/Makefile" ] || die "kernel.sh --tree $GIVEN: no kernel tree there (no Makefile)." "Give the folder of a kernel tree."
		TREE=$(cd "$GIVEN" && pwd)
		DEPS=() MKTREE=() TARBALLS=() TREEDIGEST=() ;;
	esac
}

# fragments: FRAGS, the flavour's config fragments (configs/NAME.config)
# in order.  A fragment's "# drop: CONFIG_X ..." line leaves those
# options out of the fragments before it, which then go in as a copy,
# KOUT/NAME.config (rewritten only when it changes: the quick stamp
# watches it).
fragments() {
	local w i j drop copy all=()
	for w in $(flavour_get "$FLAVOUR" fragments); do all+=("$KIT/configs/$w.config"); done
	FRAGS=()
	for ((i = 0; i < ${#all[@]}; i++)); do
		drop=
		for ((j = i + 1; j < ${#all[@]}; j++)); do drop+=" $(drop_line "${all[j]}")"; done
		read -ra drop <<<"$drop"
		if [ ${#drop[@]} -eq 0 ]; then FRAGS+=("${all[i]}"); continue; fi
		copy=$KOUT/${all[i]##*/}
		mkdir -p "$KOUT"
		grep -vE "^(# )?($(IFS='|'; echo "${drop[*]}"))[= ]" "${all[i]}" >"$copy.tmp" || true
		cmp -s "$copy.tmp" "$copy" 2>/dev/null || mv "$copy.tmp" "$copy"
		rm -f "$copy.tmp"
		FRAGS+=("$copy")
	done
}
# drop_line FRAGMENT: the options of its "# drop:" line (read in bash: a
# no-op make run reads every fragment).
drop_line() {
	local l
	while IFS= read -r l; do
		[[ $l == '# drop:'* ]] && { echo "${l#'# drop:'}"; return 0; }
	done <"$1"
	return 0
}

# lock: one run per flavour and build folder: a second make kernel
# (another terminal, a lab) waits for the first instead of corrupting its
# output.  The tree has a lock of its own (prepare_tree, read_tree).
lock() {
	exec 9>"$BUILD/.kernel-$FLAVOUR.lock"
	if ! flock -n 9; then
		say "another $FLAVOUR kernel build is running in $BUILD; waiting for it"
		flock 9
	fi
}

# quick_up_to_date: the quick stamp says nothing the kernel is made of
# changed since the last check (lib.sh's quick_ok; kernel_watch below):
# the run ends.  The outputs among its list are compared with the time
# of the build that installed them.
quick_up_to_date() {
	local outs=("$OUT/bzImage" "$OUT/vmlinux" "$OUT/usr" "$OUT/usr/*" "$KOUT/*")
	start=$SECONDS
	env_now=$(quick_env)
	if [ -f "$STAMPS/$STAMP" ] && quick_ok "$STAMP" "$env_now" "${outs[@]}"; then
		say "kernel ($FLAVOUR) up to date: ${OUT#"$KIT"/}/bzImage (no input changed since its build)"
		exit 0
	fi
}

# full_up_to_date: the full stamp (kernel_inputs, tree_state, outputs_id)
# matches: a new quick stamp, and the run ends.  Otherwise both are
# dropped, and the whole path runs.
full_up_to_date() {
	quick_begin "$STAMP"
	inputs=$(kernel_inputs | sum)
	if [ -f "$STAMPS/$STAMP" ] &&
	   stamp_ok "$STAMP" "$(printf '%s\n' "$inputs" "$(read_tree tree_state | sum)" "$(outputs_id | sum)")"; then
		stamp_quick
		say "kernel ($FLAVOUR) up to date: ${OUT#"$KIT"/}/bzImage (no input changed since its build)"
		exit 0
	fi
	quick_drop "$STAMP"
	rm -f "$STAMPS/$STAMP"
}

# prepare_tree: the packages, then the flavour's tree (under the tree's
# lock, lock 7 of docs/hacking.md).
prepare_tree() {
	"${DEPS[@]}"
	flock "$BUILD/.tree.lock" "${MKTREE[@]}"
}

# from_cache: this flavour's kernel of the same inputs, from the kernel
# cache (cache_restore), with its stamps: the run ends.
from_cache() {
	key=$(cache_key | sum)
	cache_restore "$key" || return 0
	stamp_set "config-$FLAVOUR" "$(digest "${FRAGS[@]}" "${TREEDIGEST[@]}")"
	stamp_set "$STAMP" "$(printf '%s\n' "$inputs" "$(read_tree tree_state | sum)" "$(outputs_id | sum)")"
	stamp_quick new
	say "kernel ($FLAVOUR) ready: ${OUT#"$KIT"/}/bzImage, from the kernel cache (${CACHE/#"$HOME"/\~}, built by another clone with the same inputs; $((SECONDS - start)) s)"
	exit 0
}

# configure: tinyconfig, the fragments merged (merge_config.sh), olddefconfig,
# and every option of the fragments checked; again only when the
# fragments or the tree changed (the stamp config-FLAVOUR), every time on
# a given tree, which is not checked (a patch before toylsm's has none
# of its options).
configure() {
	local want=
	if [ $mode = full ] || [ $mode = configure ]; then
		want=$(digest "${FRAGS[@]}" "${TREEDIGEST[@]}")
		if stamp_ok "config-$FLAVOUR" "$want" && [ -f "$KOUT/.config" ]; then
			return 0
		fi
		seed_from_base
	fi
	say "configuring ($FLAVOUR): tinyconfig + ${FRAGS[*]##*/}"
	mkdir -p "$KOUT"
	{
		"${KMAKE[@]}" tinyconfig &&
		"$TREE/scripts/kconfig/merge_config.sh" -m -O "$KOUT" \
			"$KOUT/.config" "${FRAGS[@]}" &&
		"${KMAKE[@]}" olddefconfig
	} >"$LOGS/config-$FLAVOUR.log" 2>&1 ||
		{ tail -20 "$LOGS/config-$FLAVOUR.log" >&2
		  die "configuring the kernel failed (log: $LOGS/config-$FLAVOUR.log)." "See the lines above."; }
	[ $mode = given ] && return 0
	check_config
	[ $mode = seed ] && return 0
	stamp_set "config-$FLAVOUR" "$want"
}

# check_config: every option of the fragments landed with the asked value.
check_config() {
	local bad
	bad=$(config_mismatches "$KOUT/.config" "${FRAGS[@]}") && return 0
	printf '%s\n' "$bad" >&2
	rm -f "$STAMPS/config-$FLAVOUR"
	die "Kconfig dropped or changed $(grep -c . <<<"$bad") option(s) of the config fragments ${FRAGS[*]##*/} (above)." \
	    "Usually a missing dependency: look the option up with 'make -C $(rel "$TREE") O=$(rel "$KOUT") menuconfig' (search with /) and add what it depends on to the fragment."
}

# config_mismatches DOTCONFIG FRAGMENT...: every option the fragments ask
# for that DOTCONFIG does not have, one "  OPT: asked 'X', got 'Y'" line
# each; status 1 if there is one.  The fragments are read as
# merge_config.sh merges them: a later fragment overrides an earlier one,
# so an option is checked against the last line that names it.
config_mismatches() {
	local dotconfig=$1 line opt got bad=0
	local -A asked=()
	local -a order=()
	shift
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) opt=${line%%=*}; asked[$opt]=$line ;;
		"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; asked[$opt]="" ;;
		*) continue ;;
		esac
		[[ " ${order[*]} " == *" $opt "* ]] || order+=("$opt")
	done < <(cat "$@")
	for opt in "${order[@]}"; do
		got=$(grep -E "^$opt=" "$dotconfig" || true)
		[ "$got" = "${asked[$opt]}" ] ||
			{ echo "  $opt: asked '${asked[$opt]:-not set}', got '${got:-not set}'"; bad=1; }
	done
	return $bad
}

# seed_from_base: a flavour with a seed (configs/flavours.conf: lab from
# normal, lab-gdb from gdb) is that one plus a fragment, so its first
# configure (or one after the fragments or the series changed) starts
# from a copy of an up-to-date build of the seed's objects, building
# that first if needed, and Kbuild recompiles only what the fragment
# touches.  Kbuild's own .cmd files hold relative paths, but objtool's
# (tools/build) name the output folder absolutely: left as they are,
# objtool is rebuilt, and with it (every object depends on its binary)
# everything; the copy renames the folder in them.
seed_from_base() {
	local base n want w frags=()
	base=$(flavour_get "$FLAVOUR" seed)
	[ -n "$base" ] || return 0
	n=$BUILD/kbuild/$base
	for w in $(flavour_get "$base" fragments); do frags+=("$KIT/configs/$w.config"); done
	want=$(digest "${frags[@]}" "${TREEDIGEST[@]}")
	if ! stamp_ok "config-$base" "$want" || [ ! "$n/vmlinux" -nt "$n/.config" ]; then
		say "the $FLAVOUR kernel starts from the $base kernel's objects: building that first"
		"$KIT/scripts/kernel/kernel.sh" --flavour "$base" || return 0
	fi
	say "$FLAVOUR kernel: starting from a copy of the $base kernel's objects"
	rm -rf "$KOUT.tmp"
	if flock "$BUILD/.kernel-$base.lock" cp -a "$n" "$KOUT.tmp" &&
	   (cd "$KOUT.tmp" && grep -rlIZ --include='*.cmd' --include='*.d' -F "$n" . |
		OLD=$n NEW=$KOUT xargs -0r perl -pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/g'); then
		rm -rf "$KOUT"
		mv "$KOUT.tmp" "$KOUT"
		# The gdb helpers' links name the source tree, not the folder;
		# constants.py is generated: both stay valid in the copy.
	else
		rm -rf "$KOUT.tmp"
		say "copying the $base kernel's objects failed; building the $FLAVOUR kernel in its own folder"
	fi
}

# build: Kbuild in the background, the objects compiled against the count
# of the last cold build shown in place on a TTY, else every 15 s.
build() {
	local expect done=0 last=$SECONDS now pid rc msg tick=0 cold=0
	[ -f "$KOUT/vmlinux" ] || cold=1
	expect=$(cat "$STAMPS/objects-$FLAVOUR" 2>/dev/null || true)
	# From here on, what Kbuild reads: a change made while it runs (ctime
	# after this, for the reference tree; content, for the others) is
	# seen next time.
	touch "$STAMPS/$STAMP.began"
	[ $mode = given ] || built=$(read_tree tree_state | sum)
	: >"$LOG"
	"${KMAKE[@]}" -j"${JOBS:-$(nproc)}" "${TARGETS[@]}" >>"$LOG" 2>&1 &
	pid=$!
	# Every 0.2 s, so that a no-op build is not kept waiting after make
	# has finished; the log is read once a second.
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.2
		tick=$((tick + 1))
		[ $((tick % 5)) -eq 0 ] || continue
		done=$(grep -c '^  CC ' "$LOG" || true)
		msg=$(progress_msg "$done" "$expect" "$cold")
		now=$SECONDS
		if [ -t 1 ]; then
			printf '\rkit: building kernel (%s): %s  ' "$FLAVOUR" "$msg"
		elif [ $((now - last)) -ge 15 ]; then
			printf 'kit: building kernel (%s): %s\n' "$FLAVOUR" "$msg"
			last=$now
		fi
	done
	rc=0; wait "$pid" || rc=$?
	[ -t 1 ] && printf '\n'
	if [ $rc -ne 0 ]; then
		echo "---- last 40 lines of $LOG ----" >&2
		tail -40 "$LOG" >&2
		die "the kernel build failed (full log: $LOG)." \
		    "The first 'error:' line in the log is the one to fix; then run make kernel again."
	fi
	# A cold build sets the expectation for the next cold build.
	[ $cold = 1 ] && [ $mode != seed ] && echo "$done" >"$STAMPS/objects-$FLAVOUR"
	return 0
}

# progress_msg DONE EXPECT COLD: the progress line's text.  EXPECT is the
# count of the last cold build of this flavour here, or empty: a first
# build has no total to show, and a build that outgrows the last count
# says so rather than pass 100%.
progress_msg() {
	local done=$1 expect=$2 cold=$3
	if [ "$cold" != 1 ]; then
		echo "$done object(s) recompiled"
	elif [ -z "$expect" ]; then
		echo "$done objects compiled (a first build here: no total known yet)"
	elif [ "$done" -gt "$expect" ]; then
		echo "$done objects compiled (the last full build compiled $expect)"
	else
		echo "$done/$expect objects, $((done * 100 / expect))%"
	fi
}

# kbuild ARG...: Kbuild in the flavour's configured folder, nothing else.
kbuild() {
	[ -f "$KOUT/.config" ] || die "the $FLAVOUR kernel's folder $(rel "$KOUT") is not configured." \
		"Configure it first: kernel.sh --flavour $FLAVOUR --configure (or build it: kernel.sh --flavour $FLAVOUR)."
	"${KMAKE[@]}" "$@"
}

install_outputs() {
	local f
	mkdir -p "$OUT/usr"
	# Copy then rename, so that a guest starting now never reads half a file.
	for f in "$IMAGE" vmlinux; do
		if [ "$KOUT/$f" -nt "$OUT/${f##*/}" ]; then
			cp -p "$KOUT/$f" "$OUT/.${f##*/}.tmp"
			mv -f "$OUT/.${f##*/}.tmp" "$OUT/${f##*/}"
		fi
	done
	# The UAPI headers, as headers_install would lay them out; cpio -p
	# leaves files that did not change alone.
	(cd "$KOUT/usr" && find include -name '*.h' | cpio -pdm --quiet "$OUT/usr" 2>/dev/null) || true
	[ -f "$OUT/usr/include/linux/types.h" ] ||
		die "the UAPI headers were not installed in $OUT/usr/include." "Run make clean, then make kernel."
}

# keep: the stamps of what was built, and the kernel cache's copy, kept
# under the key of the tree as Kbuild read it.
keep() {
	stamp_set "$STAMP" "$(printf '%s\n' "$inputs" "$built" "$(outputs_id | sum)")"
	stamp_quick new
	[ "$(cache_key | sum)" != "$key" ] || cache_store "$key"
	say "kernel ($FLAVOUR) ready: ${OUT#"$KIT"/}/bzImage ($((SECONDS - start)) s)"
}

# What the stamps read (docs/hacking.md, "When Kbuild runs").
#
# kernel_inputs: what the tree and the build are made from, read before
# the tree is made: the flavour and its row's build columns, the host's
# architecture (lib.sh's HOST_ARCH, else bash's HOSTTYPE: the Kbuild
# folder holds host programs, fixdep and objtool, built for it), the make
# command line (tree, output folder, KCFLAGS), the environment Kbuild
# reads (CROSS_COMPILE among it: a host's cross toolchain), the toolchain
# (the binaries' size and time, and the versions of the Debian
# packages the build runs: toolchain_versions), the config fragments, the
# scripts that build it (not deps.sh: what it installs is in the
# versions and the tarball), the source tarball, and for a tree with the
# series the series (patches/series and its patches) and demo-lsm/'s
# sources.  Each on a line of its own.  Not ccache, which changes no
# object (lib.sh), and not dpkg's whole database, which an unrelated
# package changes.
# host_line: the host's architecture, a line of the stamp and of the
# kernel cache's key.  A Kbuild folder holds host programs (fixdep,
# objtool) built for the host that built it: an arm64 host must never
# take an x86_64 host's kernel, nor one an x86_64 host its (a cache or
# home may be shared: the image's build mounts the host's).
host_line() { echo "host ${HOST_ARCH:-$HOSTTYPE}"; }
kernel_inputs() {
	echo "flavour $FLAVOUR"
	echo "$ROW"
	host_line
	echo "make ${KMAKE[*]} ${TARGETS[*]}"
	# (No line may stop the list under set -e: what fails prints its
	# message here, which no stamp holds.)  HOSTNAME is no variable of
	# Kbuild's (a container's id, in podman).
	env | { grep -E '^(K[A-Z0-9_]*|LLVM[A-Z0-9_]*|CROSS_COMPILE|HOST[A-Z0-9_]*|LOCALVERSION|ARCH|SUBARCH)=' || true; } |
		{ grep -vE '^(KIT_|HOSTNAME=)' || true; } | LC_ALL=C sort
	# shellcheck disable=SC2046 # command -v's paths, a word each
	without_ccache stat -L -c '%n %s %Y' $(without_ccache command -v "${TOOLS[@]}") \
		"$(without_ccache gcc -print-prog-name=cc1 2>&1)" "${TARBALLS[@]}" 2>&1 || true
	[ -z "${CROSS_COMPILE:-}" ] ||
		without_ccache stat -L -c '%n %s %Y' "$(without_ccache "${CROSS_COMPILE}gcc" -print-prog-name=cc1 2>&1)" 2>&1 || true
	toolchain_versions
	sha256sum "${FRAGS[@]}" "$KIT/scripts/kernel/kernel.sh" "$KIT/scripts/lib/lib.sh" \
		"$KIT/scripts/lib/flavours.sh" "${MKTREE[0]}" 2>&1 || true
	echo "deps ${DEPS[*]}"
	[ -n "$SERIES" ] || return 0
	echo "series $(series_digest)"
	echo "demo-lsm $(files_digest "$KIT/demo-lsm" "${TOYLSM_FILES[@]}")"
}

# tree_state: the tree as Kbuild will read it, after the tree is made: a
# git tree's HEAD, every file that differs from HEAD (git status, without
# taking the index lock, so that a git am of another run is never
# disturbed) with its content, and the toylsm mirror (with extra/, a
# kernel-side lab's files, where the configuration builds it).  The
# reference tree is no git repository: any file under it changed (ctime,
# which no copy or touch can set back) since the last build began.
tree_state() {
	local skip=(! -path './extra/*') l
	grep -qx 'CONFIG_SECURITY_TOYLSM_EXTRA=y' "$KOUT/.config" 2>/dev/null && skip=()
	if [ -z "$TREE_GIT" ]; then
		echo "changed: $(find "$TREE" -cnewer "$STAMPS/$STAMP.began" -print -quit 2>&1)"
		return 0
	fi
	git -C "$TREE" --no-optional-locks rev-parse HEAD 2>&1 || true
	{ git -C "$TREE" --no-optional-locks status --porcelain -z -uno --no-renames 2>&1 || true; } |
		tr '\0' '\n' | while IFS= read -r l; do
			echo "$l"
			[ ! -f "$TREE/${l:3}" ] || sha256sum <"$TREE/${l:3}"
		done
	echo "toylsm $(files_digest "$TREE/security/toylsm" "${skip[@]}")"
}

# outputs_id: the outputs the last build installed, as they are now (size,
# time, inode): a bzImage or a header removed or replaced since is no
# up-to-date kernel.
outputs_id() {
	local files=("$OUT/bzImage" "$OUT/vmlinux" "$KOUT/.config" "$KOUT/vmlinux" "$KOUT/$IMAGE")
	[ -z "$GDB_HELPERS" ] || files+=("$KOUT/vmlinux-gdb.py" "$KOUT/scripts/gdb/linux/constants.py")
	stat -L -c '%n %s %Y %i' "${files[@]}" 2>&1 || true
	echo "headers $( (cd "$OUT/usr" && find include -type f -printf '%p %s %T@ %i\n') 2>&1 |
		LC_ALL=C sort | sha256sum | cut -d' ' -f1)"
}

# read_tree CMD...: CMD with the tree's lock held, shared: another run's
# tree.sh, which holds it alone, is never read half-way (lock 7 of
# docs/hacking.md, under this flavour's).
read_tree() {
	local rc=0
	exec 8>"$BUILD/.tree.lock"
	flock -s 8
	"$@" || rc=$?
	exec 8>&-
	return $rc
}
sum() { sha256sum | cut -d' ' -f1; }

# The kernel cache: a built kernel (its Kbuild folder and its installed
# outputs) kept per machine, as ccache keeps objects, under the digest of
# what it is made of, so that another clone with the same inputs takes
# it in seconds instead of building it again.  The key is content only,
# never a path or a date: kernel_inputs with the clone's path replaced,
# the tree's git tree id (the same content gives the same id in every
# clone; commit dates differ) and its uncommitted files with their
# content, the toylsm mirror (with a lab's extra/).  The reference tree
# is no git repository: its key is its inputs (the tarball among them).
# KIT_KERNEL_CACHE: another folder, or "off".  The newest
# KIT_KERNEL_CACHE_KEEP kernels of each flavour are kept (else its row's
# keep).
CACHE=${KIT_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kit-kernels}
cache_key() {
	kernel_inputs | unkit
	if [ -n "$TREE_GIT" ]; then
		read_tree tree_state | unkit |
			sed "1s/.*/tree $(git -C "$TREE" --no-optional-locks rev-parse 'HEAD^{tree}' 2>&1)/"
	fi
}
# unkit: the clone's path, where a path begins with it (at the start of a
# line or after a blank, = or :, and followed by /, a blank or the end),
# as @KIT@.  Not every occurrence of its text: the image mounts the
# checkout at /kit, whose text begins /kit/configs/kit.config too.
unkit() {
	KIT_PATH=$KIT perl -pe 's/(^|[\s=:])\Q$ENV{KIT_PATH}\E(?=\/|\s|$)/$1\@KIT\@/g'
}

# cache_restore KEY: the kernel of KEY into this clone, if the cache has
# it.  The Kbuild folder's files name the clone that built it (the .cmd
# files' dependencies, the Makefile, the source link): renamed to this
# one, as seed_from_base does for a flavour's copy.  Every file gets one
# time, now, after the tree's: Kbuild finds each object as new as what it
# depends on (up to date) and the tree's later edits newer (rebuilt).
cache_restore() {
	local key=$1 e old now
	e=$CACHE/$FLAVOUR-$key
	[ "$CACHE" != off ] && [ -f "$e/done" ] || return 1
	old=$(cat "$e/kit")
	rm -rf "$KOUT.tmp" && mkdir -p "$(dirname "$KOUT")" &&
	cp -r "$e/kbuild" "$KOUT.tmp" &&
	(cd "$KOUT.tmp" && grep -rlIZ -F "$old" . | OLD=$old NEW=$KIT xargs -0r perl -pi -e 's/\Q$ENV{OLD}\E(?![\w.+-])/$ENV{NEW}/g') &&
	(cd "$KOUT.tmp" && find . -type l -lname "$old/*" -printf '%p\t%l\n' |
		while IFS=$'\t' read -r l t; do ln -sfn "$KIT${t#"$old"}" "$l"; done) || {
		rm -rf "$KOUT.tmp"
		say "the kernel cache's copy could not be taken (${e}); building instead"
		return 1
	}
	now=$(date +%s.%N)
	find "$KOUT.tmp" -exec touch -h -d "@$now" {} +
	rm -rf "$KOUT" && mv "$KOUT.tmp" "$KOUT"
	install_outputs
	touch "$e/done"	# recently used: kept longest
	return 0
}

# cache_store KEY: this flavour's kernel, just built, into the cache.
cache_store() {
	local key=$1 e tmp old keep
	[ "$CACHE" != off ] || return 0
	e=$CACHE/$FLAVOUR-$key
	[ -f "$e/done" ] && return 0
	mkdir -p "$CACHE" || return 0
	tmp=$(mktemp -d "$CACHE/.new-XXXXXX") && chmod 755 "$tmp" || return 0
	if cp -r "$KOUT" "$tmp/kbuild" && echo "$KIT" >"$tmp/kit" && : >"$tmp/done"; then
		rm -rf "$e" && mv "$tmp" "$e" 2>/dev/null || rm -rf "$tmp"
	else
		rm -rf "$tmp"
		say "could not keep the kernel in the cache ${CACHE} (disk full?); the build itself is fine"
	fi
	# The newest few of each flavour stay (ls -t: by the time of done).
	keep=${KIT_KERNEL_CACHE_KEEP:-$(flavour_get "$FLAVOUR" keep)}
	# shellcheck disable=SC2012 # ls -t sorts by time; the names are the cache's own
	for old in $(cd "$CACHE" && ls -dt -- "$FLAVOUR"-[0-9a-f]*/done 2>/dev/null |
		     tail -n +$((keep + 1))); do
		rm -rf "${CACHE:?}/${old%/done}"
	done
}

# toolchain_versions: each installed package the kernel build runs, with
# its version (compiler, assembler and linker, make, libc's headers,
# libelf for objtool, Kconfig's bison and flex, bc and perl of the build's
# scripts, pahole for BTF).  A host without dpkg says so in one line.
KERNEL_TOOLCHAIN=(gcc 'gcc-[0-9]*' 'cpp-[0-9]*' binutils 'binutils-x86-64*' libc6-dev make libelf-dev bison flex bc perl dwarves)
toolchain_versions() {
	{ dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' "${KERNEL_TOOLCHAIN[@]}" 2>&1 || true; } |
		awk 'NF != 2' | LC_ALL=C sort
}

# The quick stamp (lib.sh's quick_ok): what the stamp above reads, as a
# list of paths whose ctime a no-op compares, in one find, instead of
# reading their content and running git status over the tree.  quick_env
# is what is no file: the flavour and its row, the make command line,
# which tarball, the host's architecture, the environment Kbuild reads,
# which gcc, ld, as and make are.  A change of any of these, or of any path of the list, asks the
# full stamp, which decides as before.
quick_env() {
	local v
	printf 'flavour %s\nmake %s %s\ntarball %s\n' "$FLAVOUR" "${KMAKE[*]}" "${TARGETS[*]}" "${TARBALLS[*]}"
	host_line
	printf '%s\n' "$ROW"
	for v in $(compgen -e); do
		[[ $v =~ ^(K[A-Z0-9_]*|LLVM[A-Z0-9_]*|CROSS_COMPILE|HOST[A-Z0-9_]*|LOCALVERSION|ARCH|SUBARCH|GCC_EXEC_PREFIX|COMPILER_PATH|DPKG_ADMINDIR)$ ]] &&
			[[ $v != KIT_* && $v != HOSTNAME ]] && printf '%s=%s\n' "$v" "${!v}"
	done
	without_ccache type -P "${TOOLS[@]}"
}

# kernel_watch: quick_ok's list for this flavour.  The kit's inputs of
# kernel_inputs (the scripts, fragments, tarball; patches/ and demo-lsm/ as
# folders), the toolchain (each binary and what its link names) and
# dpkg's database (DPKG_ADMINDIR: what dpkg-query reads); the tree's HEAD
# and refs; the outputs outputs_id names.  And of the tree, what Kbuild
# reads for this kernel, by its own record: each folder it built in (the
# output folder's folders: every folder Kbuild descends into gets one, its
# Makefile with it), each folder of a file that an object's .cmd file lists
# as read (fixdep's record: headers, included sources), each Kconfig file
# of include/config/auto.conf.cmd, the toylsm mirror, and whole: the UAPI
# headers (make headers installs them all), scripts/ and objtool's part of
# tools/.  A folder Kbuild descended into but built nothing of is its
# Makefile and Kbuild file, and itself (a file added or removed).  A file
# of none of these (Documentation/, another architecture, a driver this
# kernel does not build) is no input: Kbuild would look at it no more
# than the stamp does.  Written after each build (the .cmd files read
# since the last one only, added to the folders found before:
# KOUT/.kit-depdirs, which the kernel cache and a seeded flavour's copy
# take with the objects, so that a restored kernel's .cmd files are not
# all read again).
kernel_watch() {
	local f d t built paths=() skip=() newer deps=$KOUT/.kit-depdirs src=$SRCARCH
	grep -qx 'CONFIG_SECURITY_TOYLSM_EXTRA=y' "$KOUT/.config" 2>/dev/null || skip=(-path "$TREE/security/toylsm/extra" -prune -o)
	for f in $(without_ccache type -P "${TOOLS[@]}") "$(without_ccache gcc -print-prog-name=cc1 2>/dev/null)" \
		${CROSS_COMPILE:+"$(without_ccache "${CROSS_COMPILE}gcc" -print-prog-name=cc1 2>/dev/null)"}; do
		paths+=("$f" "$(readlink -f "$f")")
	done
	paths+=("${FRAGS[@]}" "$KIT/scripts/kernel/kernel.sh" "$KIT/scripts/lib/lib.sh" "$KIT/scripts/lib/flavours.sh"
		"$FLAVOURS_FILE" "${MKTREE[0]}" "${TARBALLS[@]}"
		"${DPKG_ADMINDIR:-/var/lib/dpkg}/status" "${DPKG_ADMINDIR:-/var/lib/dpkg}/updates"
		"$TREE/.git/HEAD" "$TREE/.git/packed-refs" "$TREE")
	[ -z "$SERIES" ] || paths+=("$KIT/patches")
	# The .cmd files written since the last list (all, the first time).
	newer=()
	[ ! -f "$deps" ] || newer=(-newer "$deps")
	{ [ ! -f "$deps" ] || cat "$deps"
	  (cd "$KOUT" && find . -path ./tools -prune -o -name '.*.cmd' "${newer[@]}" -print0 |
		xargs -0r awk -v kout="$KOUT" -v tree="$TREE" -f "$KIT/scripts/kernel/kernel-deps.awk")
	} | LC_ALL=C sort -u >"$deps.tmp" && mv -f "$deps.tmp" "$deps"
	mapfile -t -O ${#paths[@]} paths < <(
		set +e	# a folder that is not there is left out, not the rest
		[ -z "$SERIES" ] || find "$KIT/demo-lsm" -type d
		find "$TREE/.git/refs" "$TREE/security/toylsm" "${skip[@]}" -type d -print 2>/dev/null
		find "$TREE"/{include/uapi,arch/"$src"/include/uapi,scripts} \
			"$TREE"/tools/{objtool,lib,include,arch/"$src",build,scripts} -type d 2>/dev/null
		# A folder of the output holding nothing but built-in.a (and
		# modules.order): Kbuild read its Makefile (or Kbuild file) and
		# built none of its sources.
		(cd "$KOUT" && find . -path ./tools -prune -o -type d ! -name '.*' -printf '%P\n') |
			while IFS= read -r d; do
				t=$TREE${d:+/$d}
				[ -d "$t" ] || continue
				built=
				for f in "$KOUT/${d:-.}"/*; do
					[ -f "$f" ] && [[ ${f##*/} != @(built-in.a|modules.order) ]] && { built=1; break; }
				done
				if [ -n "$built" ]; then
					printf '%s\n' "$t"
				else
					printf '%s\n' "$t/." "$t/Makefile" "$t/Kbuild"
				fi
			done
		sed -n 's|^\t\([^ ]*Kconfig[^ ]*\)\( \\\)\{0,1\}$|'"$TREE"'/\1|p' "$KOUT/include/config/auto.conf.cmd" 2>/dev/null
		cat "$deps"
		printf '%s\n' "$OUT/bzImage" "$OUT/vmlinux" "$KOUT/.config" "$KOUT/vmlinux" "$KOUT/$IMAGE"
		[ -z "$GDB_HELPERS" ] || printf '%s\n' "$KOUT/vmlinux-gdb.py" "$KOUT/scripts/gdb/linux/constants.py"
		find "$OUT/usr" -type d
	)
	watch_list "${paths[@]}" >"$STAMPS/$STAMP.watch"
}
# stamp_quick: the full stamp matched, or a build just stamped: a new quick stamp.
stamp_quick() {
	[ -f "$STAMPS/$STAMP.watch" ] && [ "${1:-}" != new ] || kernel_watch
	quick_set "$STAMP" "$env_now"
}

main "$@"
