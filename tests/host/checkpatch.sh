#!/usr/bin/env bash
# Every patch of the series passes scripts/checkpatch.pl --strict.  An
# error always fails; a warning or check passes only if the patch's commit
# message names its checkpatch type (e.g. FILE_PATH_CHANGES) to explain why
# it was kept.
K=$(cd "$(dirname "$0")/../.." && pwd)
# The tree of the build folder in use (BUILD, as for every kit script).
T=${BUILD:-$K/build}/linux
mapfile -t P < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$K/patches/series" | grep -v '^$')
if [ ${#P[@]} -eq 0 ]; then echo "1..0 # SKIP the series is empty"; exit 0; fi
# Without the tree nothing can be checked: say so as a failure, never as
# patches that passed.
if [ ! -x "$T/scripts/checkpatch.pl" ]; then
	echo "1..1"
	echo "not ok 1 no $T/scripts/checkpatch.pl: the tree is not extracted (make kernel does it)"
	exit 0
fi
echo "1..$((${#P[@]} + 1))"

# complaints PATCH: the checkpatch lines that the patch does not explain.
complaints() {
	local out
	# Debian's python3 (with python3-ply) for checkpatch's SPDX check, even
	# where a python3 of pyenv or a venv comes first in PATH.
	out=$(cd "$T" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --show-types --terse \
		--no-summary "$1" 2>&1)
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
if [ -n "$(complaints "$bad")" ]; then
	echo "ok 1 the checker flags a patch with style errors"
else
	echo "not ok 1 the checker flags a patch with style errors"
fi
rm -f "$bad"

i=1
for p in "${P[@]}"; do
	i=$((i + 1))
	bad=$(complaints "$K/patches/$p")
	if [ -z "$bad" ]; then
		echo "ok $i $p"
	else
		echo "not ok $i $p"
		printf '%s\n' "$bad" | sed 's/^/# /' | head -10
	fi
done
