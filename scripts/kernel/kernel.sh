#!/usr/bin/env bash
# Configure and build the kit's kernel for one FLAVOUR (normal, debug, lab,
# gdb, lab-gdb; mainline: the reference kernel, Debian's 6.12 unpatched): tinyconfig + configs/kit.config (+ configs/<part>.config
# for each dash-separated part of the flavour: lab-gdb is lab.config then
# gdb.config), checked option by option, then bzImage and the UAPI headers.
# Thousands of lines of build output go to build/logs/kernel-<flavour>.log;
# the terminal gets a short progress line.  Outputs: build/bzImage, build/vmlinux and
# build/usr/include (other flavours: build/<flavour>/...).
set -euo pipefail
. "${0%/*}/../lib/lib.sh"

OUT=$(flavour_dir)
LOG=$LOGS/kernel-$FLAVOUR.log
FRAGS=("$KIT/configs/kit.config")
if [ "$FLAVOUR" != normal ]; then
	for part in ${FLAVOUR//-/ }; do FRAGS+=("$KIT/configs/$part.config"); done
fi
for f in "${FRAGS[@]}"; do
	[ -f "$f" ] || die "no config fragment $f for FLAVOUR=$FLAVOUR." "Use FLAVOUR=normal or add the fragment."
done
# The reference kernel (FLAVOUR=mainline): Debian's 6.12 source, unpatched,
# in a tree of its own; kit.config without the series-only options that
# configs/mainline.config names, then mainline.config.
DEPS=("$KIT/scripts/host/deps.sh") MKTREE=("$KIT/scripts/kernel/tree.sh") TARBALLS=("$TARBALL")
TREEDIGEST=("$STAMPS/series" "$TREE/.git/HEAD" "$STAMPS/series-head")
if [ "$FLAVOUR" = mainline ]; then
	# make run FLAVOUR=mainline APPEND=<a stack mainline cannot boot>:
	# say so before building anything (run-guest.sh checks it again).
	mainline_stack "$(stack_cmdline "${APPEND:-}")" quiet
	TREE=$MAINLINE_TREE
	DEPS=("$KIT/scripts/host/deps.sh" --mainline) MKTREE=("$KIT/scripts/kernel/tree-mainline.sh") TARBALLS=("$MAINLINE_TARBALL")
	TREEDIGEST=("$STAMPS/tree-mainline")
	only=$(sed -n 's/^# series-only://p' "$KIT/configs/mainline.config" | xargs)
	[ -n "$only" ] || die "configs/mainline.config has no '# series-only:' line." "Restore it from git."
	mkdir -p "$KOUT"
	grep -vE "^(# )?($(tr ' ' '|' <<<"$only"))[= ]" "$KIT/configs/kit.config" >"$KOUT/kit-mainline.config.tmp"
	cmp -s "$KOUT/kit-mainline.config.tmp" "$KOUT/kit-mainline.config" 2>/dev/null ||
		mv "$KOUT/kit-mainline.config.tmp" "$KOUT/kit-mainline.config"
	rm -f "$KOUT/kit-mainline.config.tmp"
	FRAGS[0]=$KOUT/kit-mainline.config
fi
KMAKE=(make -C "$TREE" O="$KOUT" ARCH=x86_64)
TARGETS=(bzImage headers)
# A gdb flavour: also scripts_gdb, the kernel's gdb helpers linked into the
# output folder (vmlinux-gdb.py, scripts/gdb/linux/constants.py), which
# only `make all` builds otherwise.  With DWARF (gdb's flavours, and bpf's,
# whose BTF pahole makes from it), ccache puts the compiler's working
# directory (the output folder, which names the clone) in its hash, unless
# -fdebug-prefix-map maps it: mapped to one fixed name, a clean clone's CI
# and the lab-gdb copy hit what another clone compiled.  gdb.sh maps the
# name back (set substitute-path).
[[ "$FLAVOUR" != *gdb* ]] || TARGETS+=(scripts_gdb)
if grep -qx 'CONFIG_DEBUG_INFO=y' "${FRAGS[@]}"; then
	KMAKE+=(KCFLAGS="-fdebug-prefix-map=$KOUT=/kit-kbuild")
fi
# The lab flavours need the lab files that lab-kernel.sh puts in the tree.
if [[ "$FLAVOUR" == lab || "$FLAVOUR" == lab-* ]] && [ ! -f "$TREE/security/toylsm/extra/Makefile" ]; then
	die "the lab kernel is built with a lab's files in it, by make lab 8 or make lab 9." \
	    "Run one of those (scripts/kernel/lab-kernel.sh does the build)."
fi

# Every option of the fragments must have landed with the asked value.
check_config() {
	local bad
	bad=$(config_mismatches "$KOUT/.config" "${FRAGS[@]}") && return 0
	printf '%s\n' "$bad" >&2
	rm -f "$STAMPS/config-$FLAVOUR"
	die "Kconfig dropped or changed $(grep -c . <<<"$bad") option(s) of the config fragment (above)." \
	    "Usually a missing dependency: look the option up with 'make -C build/linux O=$KOUT menuconfig' (search with /) and add what it depends on to the fragment."
}

# A lab flavour is another one plus one option (lab: the normal one;
# lab-gdb: gdb), so when it has to be configured (first build, or the
# fragments or the series changed) it starts from a copy of an up-to-date
# build of that other flavour's objects, building that first if needed
# (every other lab and make test need the normal one anyway), and Kbuild
# recompiles only what the option touches: seconds, not minutes.
# Kbuild's own .cmd files hold relative paths, but objtool's (tools/build)
# name the output folder absolutely: left as they are, objtool is rebuilt,
# and since every object depends on the objtool binary, so is everything.
# Renaming the folder in those files is what makes the copy usable.
seed_from_base() {
	local base n want f frags=("$KIT/configs/kit.config")
	case "$FLAVOUR" in
	lab) base=normal ;;
	lab-*) base=${FLAVOUR#lab-} ;;
	*) return 0 ;;
	esac
	n=$BUILD/kbuild/$base
	[ "$base" = normal ] || frags+=("$KIT/configs/$base.config")
	want=$(digest "${frags[@]}" "$STAMPS/series" "$TREE/.git/HEAD" \
		"$STAMPS/series-head")
	if ! stamp_ok "config-$base" "$want" || [ ! "$n/vmlinux" -nt "$n/.config" ]; then
		say "the $FLAVOUR kernel starts from the $base kernel's objects: building that first"
		FLAVOUR=$base "$KIT/scripts/kernel/kernel.sh" || return 0
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

configure() {
	local want
	want=$(digest "${FRAGS[@]}" "${TREEDIGEST[@]}")
	if stamp_ok "config-$FLAVOUR" "$want" && [ -f "$KOUT/.config" ]; then
		return 0
	fi
	seed_from_base
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
	check_config
	stamp_set "config-$FLAVOUR" "$want"
}

# progress_msg DONE EXPECT COLD: the progress line's text.  EXPECT is the
# count of the last cold build of this flavour here, or empty: a first build
# has no total to show (an estimate once said "1007/900 objects, 99%").  A
# build that outgrows the last count says so rather than pass 100%.
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

# Run make in the background; show objects built against the count of the
# last complete build, in place on a TTY, else every 15 s.
build() {
	local expect done=0 last=$SECONDS now pid rc msg
	local cold=0
	[ -f "$KOUT/vmlinux" ] || cold=1
	expect=$(cat "$STAMPS/objects-$FLAVOUR" 2>/dev/null || true)
	: >"$LOG"
	"${KMAKE[@]}" -j"${JOBS:-$(nproc)}" "${TARGETS[@]}" >>"$LOG" 2>&1 &
	pid=$!
	# Poll every 0.2 s, so that a no-op build is not kept waiting for up
	# to a second after make has finished; the log is read once a second.
	local tick=0
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
	[ $cold = 1 ] && echo "$done" >"$STAMPS/objects-$FLAVOUR"
	return 0
}

install_outputs() {
	local f
	mkdir -p "$OUT/usr"
	# Copy then rename, so that a guest starting now never reads half a file.
	for f in arch/x86/boot/bzImage vmlinux; do
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

# Whether Kbuild runs at all.  Kbuild with nothing to do still walks the
# whole tree: 3 s on an idle machine, 12-22 s beside another build, for
# every make run, make why and make lab.  So the kit keeps, per flavour, a
# stamp of everything the kernel is made of (stamps/kernel-FLAVOUR): when
# it matches and the outputs are the ones that build installed, nothing has
# changed and kernel.sh stops there.  Any difference runs the whole path
# below as before (deps, tree, configure, Kbuild), and only a build that
# succeeded stamps.  What the kernel is made of, in three parts:
#
# kernel_inputs: what the tree and the build are made from, read before
# tree.sh runs: the flavour, the make command line (tree, output folder,
# KCFLAGS), the environment Kbuild reads, the toolchain (the binaries'
# size and time, and the versions of the Debian packages the build runs:
# toolchain_versions), the config fragments, the scripts that build it
# (not deps.sh: what it installs is in the versions and the tarball), the
# source tarball, and for the kit's kernels the series (patches/series
# and its patches) and demo-lsm/'s sources.  Each on a line of its own.
# Not ccache, which changes no object (lib.sh), and not dpkg's whole
# database: installing an unrelated package once made every clone's next
# make lab restore its kernel from the cache (24-27 s).
kernel_inputs() {
	echo "flavour $FLAVOUR"
	echo "make ${KMAKE[*]} ${TARGETS[*]}"
	# (No line may stop the list under set -e: what fails prints its
	# message here, which no stamp holds.)  HOSTNAME is no HOST* variable
	# of Kbuild's: podman sets it to each container's id, which made every
	# container of the image miss the stamp and the kernel cache.
	env | { grep -E '^(K[A-Z0-9_]*|LLVM[A-Z0-9_]*|CROSS_COMPILE|HOST[A-Z0-9_]*|LOCALVERSION|ARCH|SUBARCH)=' || true; } |
		{ grep -vE '^(KIT_|HOSTNAME=)' || true; } | LC_ALL=C sort
	# shellcheck disable=SC2046 # command -v's paths, a word each
	without_ccache stat -L -c '%n %s %Y' $(without_ccache command -v gcc ld as make) \
		"$(without_ccache gcc -print-prog-name=cc1 2>&1)" "${TARBALLS[@]}" 2>&1 || true
	toolchain_versions
	sha256sum "${FRAGS[@]}" "$KIT/scripts/kernel/kernel.sh" "$KIT/scripts/lib/lib.sh" \
		"${MKTREE[0]}" 2>&1 || true
	echo "deps ${DEPS[*]}"
	[ "$FLAVOUR" = mainline ] && return 0
	echo "series $(series_digest)"
	echo "demo-lsm $(files_digest "$KIT/demo-lsm" "${TOYLSM_FILES[@]}")"
}

# tree_state: the tree as Kbuild will read it, after tree.sh: its HEAD,
# every file that differs from HEAD (git status, without taking the index
# lock, so that a git am of another run is never disturbed) with its
# content, and the toylsm mirror (with extra/, a kernel-side lab's files,
# where the configuration builds it: the lab flavours).  The reference
# tree is no git repository: any file under it changed (ctime, which no
# copy or touch can set back) since the last build began.
tree_state() {
	local skip=(! -path './extra/*') l
	grep -qx 'CONFIG_SECURITY_TOYLSM_EXTRA=y' "$KOUT/.config" 2>/dev/null && skip=()
	if [ "$FLAVOUR" = mainline ]; then
		echo "changed: $(find "$TREE" -cnewer "$STAMPS/kernel-$FLAVOUR.began" -print -quit 2>&1)"
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
	local files=("$OUT/bzImage" "$OUT/vmlinux" "$KOUT/.config" "$KOUT/vmlinux"
		     "$KOUT/arch/x86/boot/bzImage")
	[[ "$FLAVOUR" != *gdb* ]] || files+=("$KOUT/vmlinux-gdb.py" "$KOUT/scripts/gdb/linux/constants.py")
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
# what it is made of, so that another clone (CI's clean clone, a second
# checkout) with the same inputs takes it in seconds instead of building
# it again: a build from a warm ccache still runs Kbuild's own steps on
# every object (fixdep, objtool, the link), minutes per flavour.  The key
# is content only, never a path or a date: kernel_inputs with the clone's
# path replaced, the tree's git tree id (the same content gives the same
# id in every clone; commit dates differ) and its uncommitted files with
# their content, the toylsm mirror (with a lab's extra/).  The reference
# tree is no git repository: its key is its inputs (the tarball among
# them).  KIT_KERNEL_CACHE: another folder, or "off".  The newest
# KIT_KERNEL_CACHE_KEEP kernels of each flavour are kept (4; 40 of the
# lab flavour).
CACHE=${KIT_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kit-kernels}
cache_key() {
	kernel_inputs | unkit
	if [ "$FLAVOUR" != mainline ]; then
		read_tree tree_state | unkit |
			sed "1s/.*/tree $(git -C "$TREE" --no-optional-locks rev-parse 'HEAD^{tree}' 2>&1)/"
	fi
}
# unkit: the clone's path, where a path begins with it (at the start of a
# line or after a blank, = or :, and followed by /, a blank or the end),
# as @KIT@.  Not every occurrence of its text: the image mounts the
# checkout at /kit, and "s|/kit|@KIT@|g" made @KIT@/configs/kit.config
# @KIT@/configs@KIT@.config, so that no container of the image found the
# kernel the image was built with (keyed at /opt/kit/src).
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
	# The newest few of each flavour stay (ls -t: by the time of done):
	# the lab flavour has one kernel per lab step and mistake that make
	# test grades (labs 8 and 9), each a small one.
	keep=${KIT_KERNEL_CACHE_KEEP:-4}
	[ "$FLAVOUR" != lab ] || keep=${KIT_KERNEL_CACHE_KEEP:-40}
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
# reading their content and running git status over the tree's 78,640
# files (0.4 s of CPU of the 1.1 s a no-op make kernel took, and the rest
# in digests and dpkg-query: issue 45).  quick_env is what is no file: the
# flavour, the make command line, which tarball (TARBALL), the environment
# Kbuild reads, which gcc, ld, as and make are.  A change of any of these, or of any path of the
# list, asks the full stamp, which decides as before.
quick_env() {
	local v
	printf 'flavour %s\nmake %s %s\ntarball %s\n' "$FLAVOUR" "${KMAKE[*]}" "${TARGETS[*]}" "${TARBALLS[*]}"
	for v in $(compgen -e); do
		[[ $v =~ ^(K[A-Z0-9_]*|LLVM[A-Z0-9_]*|CROSS_COMPILE|HOST[A-Z0-9_]*|LOCALVERSION|ARCH|SUBARCH|GCC_EXEC_PREFIX|COMPILER_PATH|DPKG_ADMINDIR)$ ]] &&
			[[ $v != KIT_* && $v != HOSTNAME ]] && printf '%s=%s\n' "$v" "${!v}"
	done
	without_ccache type -P gcc ld as make
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
# tools/.  A folder Kbuild descended into but built nothing of (268 of
# drivers/ alone) is its Makefile and Kbuild file, and itself (a file added
# or removed).  A file of none of
# these (Documentation/, another architecture, a driver this kernel does
# not build) is no input: Kbuild would look at it no more than the stamp
# does.  Written after each build (the .cmd files read since the last one
# only, added to the folders found before: KOUT/.kit-depdirs, which the
# kernel cache and a lab flavour's copy take with the objects, so that a
# restored kernel's .cmd files are not all read again).
kernel_watch() {
	local f d t built paths=() skip=() newer deps=$KOUT/.kit-depdirs
	grep -qx 'CONFIG_SECURITY_TOYLSM_EXTRA=y' "$KOUT/.config" 2>/dev/null || skip=(-path "$TREE/security/toylsm/extra" -prune -o)
	for f in $(without_ccache type -P gcc ld as make) "$(without_ccache gcc -print-prog-name=cc1 2>/dev/null)"; do
		paths+=("$f" "$(readlink -f "$f")")
	done
	paths+=("${FRAGS[@]}" "$KIT/scripts/kernel/kernel.sh" "$KIT/scripts/lib/lib.sh" "${MKTREE[0]}" "${TARBALLS[@]}"
		"${DPKG_ADMINDIR:-/var/lib/dpkg}/status" "${DPKG_ADMINDIR:-/var/lib/dpkg}/updates"
		"$TREE/.git/HEAD" "$TREE/.git/packed-refs" "$TREE")
	[ "$FLAVOUR" = mainline ] || paths+=("$KIT/patches")
	# The .cmd files written since the last list (all, the first time).
	newer=()
	[ ! -f "$deps" ] || newer=(-newer "$deps")
	{ [ ! -f "$deps" ] || cat "$deps"
	  (cd "$KOUT" && find . -path ./tools -prune -o -name '.*.cmd' "${newer[@]}" -print0 |
		xargs -0r awk -v kout="$KOUT" -v tree="$TREE" -f "$KIT/scripts/kernel/kernel-deps.awk")
	} | LC_ALL=C sort -u >"$deps.tmp" && mv -f "$deps.tmp" "$deps"
	mapfile -t -O ${#paths[@]} paths < <(
		set +e	# a folder that is not there is left out, not the rest
		[ "$FLAVOUR" = mainline ] || find "$KIT/demo-lsm" -type d
		find "$TREE/.git/refs" "$TREE/security/toylsm" "${skip[@]}" -type d -print 2>/dev/null
		find "$TREE"/{include/uapi,arch/x86/include/uapi,scripts} \
			"$TREE"/tools/{objtool,lib,include,arch/x86,build,scripts} -type d 2>/dev/null
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
		printf '%s\n' "$OUT/bzImage" "$OUT/vmlinux" "$KOUT/.config" "$KOUT/vmlinux" "$KOUT/arch/x86/boot/bzImage"
		[[ "$FLAVOUR" != *gdb* ]] || printf '%s\n' "$KOUT/vmlinux-gdb.py" "$KOUT/scripts/gdb/linux/constants.py"
		find "$OUT/usr" -type d
	)
	watch_list "${paths[@]}" >"$STAMPS/$STAMP.watch"
}
# The outputs among the list: quick_ok compares them with the time of the
# build that installed them.
QUICK_OUTS=("$OUT/bzImage" "$OUT/vmlinux" "$OUT/usr" "$OUT/usr/*" "$KOUT/*")
# stamp_quick: the full stamp matched, or a build just stamped: a new quick stamp.
stamp_quick() {
	[ -f "$STAMPS/$STAMP.watch" ] && [ "${1:-}" != new ] || kernel_watch
	quick_set "$STAMP" "$env_now"
}

start=$SECONDS
STAMP=kernel-$FLAVOUR
env_now=$(quick_env)
if [ -f "$STAMPS/$STAMP" ] && quick_ok "$STAMP" "$env_now" "${QUICK_OUTS[@]}"; then
	say "kernel ($FLAVOUR) up to date: ${OUT#"$KIT"/}/bzImage (no input changed since its build)"
	exit 0
fi
# One build at a time per build folder: a second make kernel (another
# terminal, a lab) waits for the first instead of corrupting its output.
# The tree is shared by all flavours (lock held while it is updated); each
# flavour's output folder has a lock of its own.
exec 9>"$BUILD/.kernel-$FLAVOUR.lock"
if ! flock -n 9; then
	say "another $FLAVOUR kernel build is running in $BUILD; waiting for it"
	flock 9
fi
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
"${DEPS[@]}"
flock "$BUILD/.tree.lock" "${MKTREE[@]}"
key=$(cache_key | sum)
if cache_restore "$key"; then
	stamp_set "config-$FLAVOUR" "$(digest "${FRAGS[@]}" "${TREEDIGEST[@]}")"
	stamp_set "$STAMP" "$(printf '%s\n' "$inputs" "$(read_tree tree_state | sum)" "$(outputs_id | sum)")"
	stamp_quick new
	say "kernel ($FLAVOUR) ready: ${OUT#"$KIT"/}/bzImage, from the kernel cache (${CACHE/#"$HOME"/\~}, built by another clone with the same inputs; $((SECONDS - start)) s)"
	exit 0
fi
configure
# From here on, what Kbuild reads: a change made while it runs (ctime after
# this, for the reference tree; content, for the kit's) is seen next time.
touch "$STAMPS/$STAMP.began"
built=$(read_tree tree_state | sum)
build
install_outputs
stamp_set "$STAMP" "$(printf '%s\n' "$inputs" "$built" "$(outputs_id | sum)")"
stamp_quick new
# Kept under the key of what was built (the tree as Kbuild read it).
[ "$(cache_key | sum)" != "$key" ] || cache_store "$key"
say "kernel ($FLAVOUR) ready: ${OUT#"$KIT"/}/bzImage ($((SECONDS - start)) s)"
