#!/usr/bin/env bash
# Configure and build the kit's kernel for one FLAVOUR (normal, debug, lab,
# gdb, lab-gdb; mainline: the reference kernel, Debian's 6.12 unpatched): tinyconfig + configs/kit.config (+ configs/<part>.config
# for each dash-separated part of the flavour: lab-gdb is lab.config then
# gdb.config), checked option by option, then bzImage and the UAPI headers.
# Thousands of lines of build output go to build/logs/kernel-<flavour>.log;
# the terminal gets a short progress line.  Outputs: build/bzImage, build/vmlinux and
# build/usr/include (other flavours: build/<flavour>/...).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=$(flavour_dir)
LOG=$LOGS/kernel-$FLAVOUR.log
JOBS=${JOBS:-$(nproc)}
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
DEPS=("$KIT/scripts/deps.sh") MKTREE=("$KIT/scripts/tree.sh")
TREEDIGEST=("$STAMPS/series" "$TREE/.git/HEAD" "$STAMPS/series-head")
if [ "$FLAVOUR" = mainline ]; then
	# make run FLAVOUR=mainline APPEND=<a stack mainline cannot boot>:
	# say so before building anything (run-guest.sh checks it again).
	mainline_stack "$(stack_cmdline "${APPEND:-}")" quiet
	TREE=$MAINLINE_TREE
	DEPS=("$KIT/scripts/deps.sh" --mainline) MKTREE=("$KIT/scripts/tree-mainline.sh")
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
KMAKE=(make -C "$TREE" O="$KOUT" ARCH=x86_64 "${KCC[@]}")
TARGETS=(bzImage headers)
# A gdb flavour: also scripts_gdb, the kernel's gdb helpers linked into the
# output folder (vmlinux-gdb.py, scripts/gdb/linux/constants.py), which
# only `make all` builds otherwise.  With DWARF, ccache puts the compiler's
# working directory (the output folder, which names the clone) in its hash,
# unless -fdebug-prefix-map maps it: mapped to one fixed name, a clean
# clone's CI and the lab-gdb copy hit what another clone compiled.  gdb.sh
# maps the name back (set substitute-path).
if [[ "$FLAVOUR" == *gdb* ]]; then
	TARGETS+=(scripts_gdb)
	KMAKE+=(KCFLAGS="-fdebug-prefix-map=$KOUT=/kit-kbuild")
fi
# The lab flavours need the lab files that lab-kernel.sh puts in the tree.
if [[ "$FLAVOUR" == lab || "$FLAVOUR" == lab-* ]] && [ ! -f "$TREE/security/toylsm/extra/Makefile" ]; then
	die "the lab kernel is built with a lab's files in it, by make lab 8 or make lab 9." \
	    "Run one of those (scripts/lab-kernel.sh does the build)."
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
		FLAVOUR=$base "$KIT/scripts/kernel.sh" || return 0
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

# Run make in the background; show objects built against the count of the
# last complete build (or an estimate), in place on a TTY, else every 15 s.
build() {
	local expect done=0 last=$SECONDS now pct pid rc msg
	local cold=0
	[ -f "$KOUT/vmlinux" ] || cold=1
	expect=$(cat "$STAMPS/objects-$FLAVOUR" 2>/dev/null || echo 900)
	: >"$LOG"
	"${KMAKE[@]}" -j"$JOBS" "${TARGETS[@]}" >>"$LOG" 2>&1 &
	pid=$!
	# Poll every 0.2 s, so that a no-op build is not kept waiting for up
	# to a second after make has finished; the log is read once a second.
	local tick=0
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.2
		tick=$((tick + 1))
		[ $((tick % 5)) -eq 0 ] || continue
		done=$(grep -c '^  CC ' "$LOG" || true)
		pct=$((done * 100 / expect)); [ $pct -gt 99 ] && pct=99
		if [ $cold = 1 ]; then
			msg=$(printf '%d/%d objects, %d%%' "$done" "$expect" "$pct")
		else
			msg="$done object(s) recompiled"
		fi
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

start=$SECONDS
# One build at a time per build folder: a second make kernel (another
# terminal, a lab) waits for the first instead of corrupting its output.
# The tree is shared by all flavours (lock held while it is updated); each
# flavour's output folder has a lock of its own.
exec 9>"$BUILD/.kernel-$FLAVOUR.lock"
if ! flock -n 9; then
	say "another $FLAVOUR kernel build is running in $BUILD; waiting for it"
	flock 9
fi
"${DEPS[@]}"
flock "$BUILD/.tree.lock" "${MKTREE[@]}"
configure
build
install_outputs
say "kernel ($FLAVOUR) ready: ${OUT#"$KIT"/}/bzImage ($((SECONDS - start)) s)"
