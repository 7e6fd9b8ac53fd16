#!/usr/bin/env bash
# Every caller the series converts compiles, without a warning.  The kit's
# kernel builds only what its small config needs: NFS, NFSD, ceph, FUSE,
# binder, cachefiles, netfilter, NetLabel, IMA, TOMOYO, LoadPin, BPF... are
# changed by the series and compiled by no kit kernel.  This check
# configures a kernel that has them (the flavour callers of
# configs/flavours.conf: tinyconfig + configs/kit.config +
# configs/callers.config, each option checked; kernel.sh --configure) in
# its own Kbuild folder, build/kbuild/callers, and compiles (kernel.sh
# --kbuild) exactly the objects of the .c files
# that patches/ changes (read from the patches themselves, so a patch that
# starts touching a new file is covered the day it does), plus the files
# that are generated from the series' hook list (EXTRA below).  No image
# is linked, nothing is booted.
#
#   compile-check.sh           TAP: one line per object, "not ok" on an
#                              error, a warning, an object not built, or
#                              one that the configuration does not build
#
# The objects are removed before each run, so every one is compiled again
# and its warnings are seen again; with ccache (lib.sh) a rerun whose
# sources did not change is a cache look-up per object, warnings replayed.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"

OUT=$BUILD/kbuild/callers
LOG=$LOGS/compile-check.log
# Compiled from include/linux/lsm_hook_defs.h, which the series changes:
# the BPF LSM's stubs, one per hook.
EXTRA=(kernel/bpf/bpf_lsm.c)
CALLERS=("$KIT/scripts/kernel/kernel.sh" --flavour callers --kbuild)
t0=$SECONDS

# One compile check at a time in a build folder (lock 5 of
# docs/hacking.md): kernel.sh takes the flavour's own lock for each of
# its runs, and a second check would remove this one's objects between them.
exec 9>"$BUILD/.compile-check.lock"
flock 9
# The packages, the tree and the configuration (again only when the
# fragments or the series changed).
"$KIT/scripts/kernel/kernel.sh" --flavour callers --configure || exit 1

# The .c files the series changes, in patch order, from patches/series.
mapfile -t files < <(
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$KIT/patches/series" | grep -v '^$' |
	while read -r p; do grep -E '^diff --git ' "$KIT/patches/$p"; done |
	awk '{ f = $4; sub(/^b\//, "", f); if (f ~ /\.c$/ && !seen[f]++) print f }')
files+=("${EXTRA[@]}")
[ ${#files[@]} -gt 0 ] || die "no .c file found in patches/." "Check patches/series."

objs=()
for f in "${files[@]}"; do
	[ -f "$TREE/$f" ] || continue	# a file a patch deletes
	objs+=("${f%.c}.o")
	rm -f "$OUT/${f%.c}.o"
done
# Kbuild compiles an object asked for by name even when the configuration
# does not build it (code under a disabled option then compiles to
# nothing): a dry run of the objects' folders, while the objects are
# missing, lists the ones the configuration really builds.
# The dry run needs the generated headers and tools, which a dry run does
# not make: in a fresh folder it would list nothing. Make them first.
mapfile -t dirs < <(printf '%s\n' "${objs[@]}" | sed 's|/[^/]*$|/|' | sort -u)
"${CALLERS[@]}" -j"${JOBS:-$(nproc)}" prepare >"$LOGS/compile-check-prepare.log" 2>&1 ||
	die "preparing the compile check's folder failed (log: $LOGS/compile-check-prepare.log)." "Its last lines say why."
"${CALLERS[@]}" -n -k "${dirs[@]}" >"$LOGS/compile-check-dry.log" 2>&1
say "compile check: ${#objs[@]} objects (log: $(rel "$LOG"))"
# -k: every object is tried even after one failed, so that one run names
# all of them.
"${CALLERS[@]}" -k -j"${JOBS:-$(nproc)}" "${objs[@]}" >"$LOG" 2>&1
rc=$?

echo "TAP version 13"
echo "1..$((${#objs[@]} + 1))"
n=0 fails=0
for o in "${objs[@]}"; do
	n=$((n + 1))
	c=${o%.o}.c
	# The compiler names the source relative to the tree or absolutely.
	w=$(grep -E "(^|/)$c:[0-9]+(:[0-9]+)?: (warning|error):" "$LOG" | sort -u)
	if ! grep -qF "${o%/*}/.${o##*/}.d" "$LOGS/compile-check-dry.log"; then
		echo "not ok $n $c: the configuration does not build it (an option missing from configs/callers.config)"
		fails=$((fails + 1))
	elif [ ! -f "$OUT/$o" ]; then
		why="not built"
		grep -qE "(^|/)$c:[0-9]+(:[0-9]+)?: error:" "$LOG" && why="does not compile"
		echo "not ok $n $c: $why"; fails=$((fails + 1))
	elif [ -n "$w" ]; then
		echo "not ok $n $c: compiles with $(printf '%s\n' "$w" | wc -l) warning(s)"; fails=$((fails + 1))
	else
		echo "ok $n $c"
	fi
	[ -z "$w" ] || printf '%s\n' "$w" | head -5 | sed 's/^/# /'
done
# Anything else the compiler or make complained about (a header the
# objects include, a missing rule) fails the check too.
n=$((n + 1))
other=$(grep -E ': (warning|error):|\*\*\* ' "$LOG" | grep -vE "$(printf '(^|/)%s:|' "${files[@]}" | sed 's/|$//')" | sort -u)
if [ $rc -eq 0 ] && [ -z "$other" ]; then
	echo "ok $n nothing else warned (make exited 0)"
else
	echo "not ok $n make exited $rc; other messages:"; fails=$((fails + 1))
	printf '%s\n' "$other" | head -10 | sed 's/^/# /'
fi
echo "# compile check: $((SECONDS - t0)) s (${#objs[@]} objects, ${#files[@]} files)"
[ $fails -eq 0 ]
