#!/usr/bin/env bash
# Offline tests of the skeleton generator, scripts/lab/lab-skel.sh, on
# stored solutions.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..2"
# The skeleton generator: a good solution, and malformed markers.
case_ "the skeleton: blocks dropped, placeholders written, earlier steps DONE" \
	skel-good.c "$(want skel-good.step2 0)" 's|/\* END TODO 2: .*|/* END TODO 2 */|' "$K/scripts/lab/lab-skel.sh" @ 2
e=$("$K/scripts/lab/lab-skel.sh" "$D/skel-bad-marker.c" 2>&1 >/dev/null); rc1=$?
e2=$("$K/scripts/lab/lab-skel.sh" "$D/skel-unended.c" 2>&1 >/dev/null); rc2=$?
"$K/scripts/lab/lab-skel.sh" "$D/skel-good.c" >/dev/null 2>&1; rc3=$?
if [ $rc1 -ne 0 ] && grep -q 'skel-bad-marker.c:12: a malformed marker' <<<"$e" &&
   [ $rc2 -ne 0 ] && grep -q 'skel-unended.c:11: TODO 2 starts inside the block of TODO 1' <<<"$e2" &&
   [ $rc3 -eq 0 ]; then
	ok "the skeleton: a malformed or unended TODO marker is an error naming its line (a good one is not)"
else
	notok "the skeleton: a malformed or unended TODO marker is an error naming its line (got $rc1: $e / $rc2: $e2 / good: $rc3)"
fi
