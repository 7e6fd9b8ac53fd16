#!/usr/bin/env bash
# Every patch of the series passes scripts/checkpatch.pl --strict.  An
# error always fails; a warning or check passes only if the patch's commit
# message names its checkpatch type (e.g. FILE_PATH_CHANGES) to explain why
# it was kept.  And every C file of toylsm (demo-lsm/) and of the labs'
# kernel code (the reference solutions, the fixed kernel/ files, the
# placeholder) passes checkpatch.pl --strict -f with nothing at all.  The
# user-space C (the labs' graders and labs/common/*.h, guest/tools/*.c, the
# guest tests, the benchmarks, the ABI test) passes it too, less the types
# listed in UIGN below that concern the kernel alone or are plain
# user-space practice; those files are checked in parallel.
K=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
# CT: the tree whose checkpatch.pl checks, of the build folder in use
# (BUILD, as for every kit script); T is tap.bash's scratch folder.
CT=${BUILD:-$K/build}/linux
mapfile -t P < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$K/patches/series" | grep -v '^$')
if [ ${#P[@]} -eq 0 ]; then echo "1..0 # SKIP the series is empty"; exit 0; fi
# Without the tree nothing can be checked: say so as a failure, never as
# patches that passed.
if [ ! -x "$CT/scripts/checkpatch.pl" ]; then
	echo "1..1"
	notok "no $CT/scripts/checkpatch.pl: the tree is not extracted (make kernel does it)"
	exit 0
fi
# checkpatch's answers are kept, as ccache keeps objects: in
# ~/.cache/kit-checkpatch (KIT_CHECKPATCH_CACHE: another folder, or "off"),
# one file per question, named by a digest of checkpatch itself (with its
# spelling and const-struct lists), its arguments, and the bytes checked
# (a patch: with every patch of the series, which make the tree it reads).
# An answer is kept only when checkpatch ran to its end (status 0 or 1).
# The checker's own bad inputs below always run checkpatch afresh.
CACHE=${KIT_CHECKPATCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kit-checkpatch}
# Whether the SPDX check can run (spdxcheck.py's modules) is part of it.
spdx_ok=$(PATH=/usr/bin:$PATH /usr/bin/python3 -c 'import git, ply' 2>/dev/null && echo spdx)
# toolsum: the digest of the checker of tree $CT.
toolsum() {
	{ cat "$CT/scripts/checkpatch.pl" "$CT/scripts/spelling.txt" \
		"$CT/scripts/const_structs.checkpatch" "$CT/scripts/spdxcheck.py"; echo "$spdx_ok format 2"; } 2>/dev/null |
		sha256sum | cut -c1-64
}
TOOLSUM=$(toolsum)
SERIESSUM=$(cd "$K/patches" && cat "${P[@]}" 2>/dev/null | sha256sum | cut -c1-64)
# ckey CONTEXT FILE ARGS...: the name of FILE's answer.
ckey() {
	local ctx=$1 f=$2
	shift 2
	{ printf '%s\n' "$TOOLSUM" "$ctx" "$*"; cat "$f"; } | sha256sum | cut -c1-64
}
# checkpatch_cached CONTEXT FILE ARGS...: checkpatch ARGS FILE's output,
# then a line "rc=N" (its status); from the cache when it has the answer.
checkpatch_cached() {
	local ctx=$1 f=$2 key out rc
	shift 2
	key=$(ckey "$ctx" "$f" "$@")
	# Kept with the file's path as @FILE@: another clone's answer names
	# this clone's file.
	if [ "$CACHE" != off ] && [ -f "$CACHE/$key" ]; then
		sed "s|@FILE@|$f|g" "$CACHE/$key"
		return
	fi
	out=$(cd "$CT" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl "$@" "$f" 2>&1)
	rc=$?
	if [ "$CACHE" != off ] && { [ $rc = 0 ] || [ $rc = 1 ]; } && mkdir -p "$CACHE"; then
		printf '%s\nrc=%d\n' "$out" $rc | sed "s|$f|@FILE@|g" >"$CACHE/$key.$$" &&
			mv "$CACHE/$key.$$" "$CACHE/$key"
	fi
	printf '%s\nrc=%d\n' "$out" $rc
}

# The kernel C files checked whole (-f): toylsm and the labs' kernel code.
mapfile -t KF < <(cd "$K" && ls demo-lsm/*.[ch] labs/common/kernel/*.[ch] \
	labs/[0-9][0-9]-*/kernel/*.[ch] 2>/dev/null
	for d in labs/[0-9][0-9]-*/; do
		[ "$("$K/scripts/lab/conf.sh" "$d" KIND 2>/dev/null)" = kernel ] && ls "$d"solution/*.[ch]
	done)
# The user-space C files, checked whole with the types of UIGN ignored.
mapfile -t UF < <(cd "$K" && ls labs/[0-9][0-9]-*/grade.c labs/[0-9][0-9]-*/hints.c labs/common/*.h labs/common/grader/*.h guest/tools/*.c \
	guest/include/kit/*.h \
	guest/tests/*.[ch] tests/bench/*.c tests/abi/*.c 2>/dev/null)
# The checkpatch types that do not apply to user-space C, each with why.
UIGN=(
	# a user-visible message stays on one line, greppable (the kernel's rule too)
	LONG_LINE_STRING
	# libc has no ARRAY_SIZE(); sizeof(a) / sizeof(a[0]) is the C idiom
	ARRAY_SIZE
	# __packed, __aligned(), __printf(), __maybe_unused are kernel macros
	PREFER_DEFINED_ATTRIBUTE_MACRO
	# u32 and the like are kernel types; user space has uint32_t and the uapi __u32
	PREFER_KERNEL_TYPES
	# the ENOSYS rule is for kernel code; user space tests syscall() for ENOSYS
	ENOSYS
	# volatile sig_atomic_t is C's signal-handler flag; no READ_ONCE() here
	VOLATILE
	# a word that names a command or feature in a message is not a __func__
	EMBEDDED_FUNCTION_NAME
	# " \n" there is a strtok() delimiter set or fuzz input, data not a message
	QUOTED_WHITESPACE_BEFORE_NEWLINE
	# typedefs are plain C; lsm_side.c's name one ABI's types for two header sets
	NEW_TYPEDEFS
	# kselftest-style check macros name an argument in the check and in its
	# log line; binding it to a local would change the expression text the
	# harness prints on failure
	MACRO_ARG_REUSE
)
echo "1..$((${#P[@]} + ${#KF[@]} + ${#UF[@]} + 5))"

# complaints PATCH: the checkpatch lines that the patch does not explain.
complaints() {
	local out
	# Debian's /usr/bin/python3 (with python3-ply) for checkpatch's SPDX check, even
	# where a python3 of pyenv or a venv comes first in PATH.
	if [ "${2:-}" = fresh ]; then
		out=$(cd "$CT" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --show-types --terse \
			--no-summary "$1" 2>&1)
	else
		out=$(checkpatch_cached "series $SERIESSUM" "$1" --strict --show-types --terse --no-summary)
	fi
	printf '%s\n' "$out" | grep -E ': (ERROR|WARNING|CHECK):' | while read -r l; do
		type=$(sed -E 's/.*: (ERROR|WARNING|CHECK):([A-Z_]+):.*/\1 \2/' <<<"$l")
		case "$type" in
		ERROR*) echo "$l" ;;
		*) msg=$(sed '/^---$/q' "$1")
		   grep -q "${type#* }" <<<"$msg" || echo "$l" ;;
		esac
	done
}

# The checker itself must catch a bad patch (trailing space, a space
# where a tab belongs).
bad=$(mktemp --suffix=.patch)
cat >"$bad" <<'EOP'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Kit <kit@lsm-workshop.invalid>
Subject: [PATCH] lsm: a deliberately bad patch

A deliberately bad patch for the checker's own test.

Signed-off-by: Kit <kit@lsm-workshop.invalid>
---
 security/security.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/security/security.c b/security/security.c
--- a/security/security.c
+++ b/security/security.c
@@ -1,3 +1,4 @@
 // SPDX-License-Identifier: GPL-2.0-or-later
+    int bad_style = 1;  
 /*
  * Security plug functions
EOP
if [ -n "$(complaints "$bad" fresh)" ]; then
	ok "the checker flags a patch with style errors"
else
	notok "the checker flags a patch with style errors"
fi
rm -f "$bad"

# verdict DESC COMPLAINTS: the next test, DESC, passes when there are no
# complaints; else it fails with their first ten lines as diagnostics.
verdict() {
	if [ -z "$2" ]; then
		ok "$1"
	else
		notok "$1"
		printf '%s\n' "$2" | diag 10
	fi
}
for p in "${P[@]}"; do
	verdict "$p" "$(complaints "$K/patches/$p")"
done

# The series under the reference tree's checkpatch.pl too (6.12's, once
# make mainline has extracted build/linux-6.12; .ci/run's reference stage
# runs this suite again): a newer checker has rules 6.1's lacks (it found
# MACRO_ARG_UNUSED in patch 0017 and GIT_COMMIT_ID in 0019, which 6.1's
# passed).  The same rule: an error fails, a warning or check passes only
# if the commit message names its type.
CT61=$CT TOOLSUM61=$TOOLSUM
CT=${BUILD:-$K/build}/linux-6.12
if [ -x "$CT/scripts/checkpatch.pl" ]; then
	TOOLSUM=$(toolsum)
	bad=
	for p in "${P[@]}"; do
		b=$(complaints "$K/patches/$p")
		[ -z "$b" ] || bad+="$p: $b"$'\n'
	done
	if [ -z "$bad" ]; then
		ok "the series passes the reference tree's checkpatch.pl --strict (6.12), ${#P[@]} patches"
	else
		notok "the series passes the reference tree's checkpatch.pl --strict (6.12)"
		printf '%s' "$bad" | sed "s|$K/||" | diag 10
	fi
else
	skip "the series passes the reference tree's checkpatch.pl --strict (6.12)" \
		"no build/linux-6.12 (make mainline extracts it; CI's reference stage runs this suite then)"
fi
CT=$CT61 TOOLSUM=$TOOLSUM61

# file_complaints FILE: every checkpatch line about a whole file.
file_complaints() {
	checkpatch_cached file "$1" --strict --show-types --terse --no-summary -f |
		grep -E ': (ERROR|WARNING|CHECK):'
}

# flags TYPE TEXT DESC [WHY]: the -f checker, run afresh, must flag a C
# file holding TEXT with TYPE (WHY, if given, says what it means if not).
flags() {
	local badc
	badc=$(mktemp --suffix=.c)
	printf '%b' "$2" >"$badc"
	if CACHE=off file_complaints "$badc" | grep -q "$1"; then
		ok "the -f checker flags $3"
	else
		notok "the -f checker flags $3${4:+: $4}"
	fi
	rm -f "$badc"
}
# A --strict CHECK: a continuation line that does not line up with its
# open parenthesis.
flags PARENTHESIS_ALIGNMENT \
	'// SPDX-License-Identifier: GPL-2.0-only\nstatic int f(int a,\n\tint b)\n{\n\treturn a + b;\n}\n' \
	"a C file with a --strict check"
# The SPDX check runs (scripts/spdxcheck.py needs python3-git and
# python3-ply; without them checkpatch passes any license tag, silently).
flags SPDX_LICENSE_TAG '// SPDX-License-Identifier: GPL-2.0-bogus\nint kit_x;\n' \
	"an unknown SPDX license" \
	"the SPDX check did not run (make deps installs python3-git and python3-ply)"

for f in "${KF[@]}"; do
	verdict "checkpatch --strict -f $f" "$(file_complaints "$K/$f" | sed "s|$K/||")"
done

# The user-space files, in parallel (one checkpatch per file, as many at a
# time as CPUs): each run leaves its output and its exit status, and a run
# that left no status, or one that is neither 0 (clean) nor 1 (complaints),
# did not check the file.  The first file is a deliberately bad one (a
# trailing statement), so that the very runs that pass the real files are
# shown to catch a bad one.
ud=$(mktemp -d)
printf '// SPDX-License-Identifier: GPL-2.0-only\nint f(int a)\n{\n\tif (a) return 1;\n\treturn 0;\n}\n' >"$ud/bad.c"
ign=$(IFS=,; echo "${UIGN[*]}")
UARGS=(--strict --terse --show-types --no-summary --ignore "$ign" -f)
# Answers the cache has are copied to run N's files; the others run.
ufiles=("$ud/bad.c")
for f in "${UF[@]}"; do ufiles+=("$K/$f"); done
ukeys=()
for n in "${!ufiles[@]}"; do ukeys[n]=$(ckey file "${ufiles[n]}" "${UARGS[@]}"); done
for n in "${!ufiles[@]}"; do
	if [ "$n" -gt 0 ] && [ "$CACHE" != off ] && [ -f "$CACHE/${ukeys[n]}" ]; then
		sed -e '$d' -e "s|@FILE@|${ufiles[n]}|g" "$CACHE/${ukeys[n]}" >"$ud/$n.out"
		tail -1 "$CACHE/${ukeys[n]}" | sed 's/^rc=//' >"$ud/$n.rc"
	else
		printf '%s\0%s\0' "$n" "${ufiles[n]}"
	fi
done | (cd "$CT" && PATH=/usr/bin:$PATH xargs -0 -r -n 2 -P "$(nproc)" sh -c \
	'./scripts/checkpatch.pl --strict --terse --show-types --no-summary --ignore "$0" -f "$3" \
		>"$1/$2.out" 2>&1; echo $? >"$1/$2.rc"' "$ign" "$ud" 2>/dev/null)
# Keep the new answers (not the bad file's: it always runs).
for n in "${!ufiles[@]}"; do
	[ "$n" -gt 0 ] && [ "$CACHE" != off ] || continue
	rc=$(cat "$ud/$n.rc" 2>/dev/null)
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || continue
	[ -f "$CACHE/${ukeys[n]}" ] && continue
	mkdir -p "$CACHE" && { sed "s|${ufiles[n]}|@FILE@|g" "$ud/$n.out"; echo "rc=$rc"; } >"$CACHE/${ukeys[n]}.$$" &&
		mv "$CACHE/${ukeys[n]}.$$" "$CACHE/${ukeys[n]}"
done
# ucomplaints N: the complaints of run N, or why it did not check its file.
ucomplaints() {
	local rc
	rc=$(cat "$ud/$1.rc" 2>/dev/null)
	case "$rc" in
	0|1) grep -E ': (ERROR|WARNING|CHECK):' "$ud/$1.out" ;;
	*) echo "checkpatch did not run (exit status '${rc}'): $(tail -1 "$ud/$1.out" 2>/dev/null)" ;;
	esac
}
if ucomplaints 0 | grep -q ':TRAILING_STATEMENTS:'; then
	ok "the user-space checker flags a C file with a trailing statement"
else
	notok "the user-space checker flags a C file with a trailing statement"
fi
n=0
for f in "${UF[@]}"; do
	n=$((n + 1))
	bad=$(ucomplaints "$n")
	rc=$(cat "$ud/$n.rc" 2>/dev/null)
	# A run that ended with a status other than 0 fails even without a complaint.
	[ -n "$bad" ] || [ "$rc" = 0 ] || bad="checkpatch exited $rc with no complaint"
	verdict "checkpatch --strict -f (user space) $f" "$(printf '%s\n' "$bad" | sed "s|$K/||")"
done
rm -rf "$ud"
