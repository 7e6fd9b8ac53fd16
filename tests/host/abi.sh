#!/usr/bin/env bash
# The ABI side by side (scripts/test/abi.sh, make abi): first its checker,
# scripts/test/abi.py, on made-up answers and a made-up document, in a temporary
# folder: it must pass when the document lists exactly the differences, and
# fail on a difference the document leaves out, on a difference the
# document claims that the kernels do not show, on a wrong value, and on a
# document without the table.  Then the real thing: lsm_side on the kit's
# kernel and on the reference kernel (mainline 6.12), whose differing
# answers must be exactly those of docs/stacking-then-and-now.md (#abi).
# TAP on stdout.  ABI_OFFLINE=1: the checker's cases only.
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
res() {	# res WANT(0|1) DESCRIPTION: after a run that left its status in $rc
	if { [ "$1" = 0 ] && [ "$rc" = 0 ]; } || { [ "$1" = 1 ] && [ "$rc" != 0 ]; }; then
		ok "$2"
	else
		notok "$2 (exit $rc)"; diag <"$T/out"
	fi
}
has() {	# has PATTERN DESCRIPTION: in the last output
	if grep -qE "$1" "$T/out"; then ok "$2"; else notok "$2"; diag <"$T/out"; fi
}
chk() { /usr/bin/python3 "$K/scripts/test/abi.py" check "$T/kit" "$T/main" "$T/doc" >"$T/out" 2>&1; rc=$?; }

printf 'ABI\tkit\nlist: IDs by name\tcapability,smack\nsizeof(struct lsm_ctx)\t16\nKIT-DONE 1 status=0\n' >"$T/kit"
printf 'ABI\tmainline\nlist: IDs by name\tcapability,smack\nsizeof(struct lsm_ctx)\t32\n' >"$T/main"
doc() {	# doc ROW...: a document whose table has these rows
	{ echo "# made up"; echo "<!-- abi:begin -->"; echo "| question | kit | mainline |"; echo "|---|---|---|"
	  for r in "$@"; do echo "$r"; done; echo "<!-- abi:end -->"; echo "| ABI | not | read |"; } >"$T/doc"
}
doc '| ABI | `kit` | `mainline` |' '| sizeof(struct lsm_ctx) | 16 | 32 |'
chk; res 0 "abi.py check passes when the document lists exactly the two differences"
doc '| ABI | `kit` | `mainline` |'
chk; res 1 "abi.py check fails on a difference the document leaves out"
has 'not ok .*sizeof\(struct lsm_ctx\): the kernels differ \(kit .16., mainline .32.\), the document does not list it' "... and names it with both answers"
doc '| ABI | `kit` | `mainline` |' '| sizeof(struct lsm_ctx) | 16 | 32 |' '| list: IDs by name | capability,smack | capability |'
chk; res 1 "abi.py check fails on a difference the document claims and the kernels do not show"
has "list: IDs by name: the document \(line 7\) claims a difference, the kernels agree" "... with the document's line"
doc '| ABI | `kit` | `mainline` |' '| sizeof(struct lsm_ctx) | 16 | 24 |'
chk; res 1 "abi.py check fails on a documented difference with a wrong value"
doc '| ABI | `kit` | `mainline` |' '| sizeof(struct lsm_ctx) | 16 | 32 |' '| lsm_set_self_attr | none | 460 |'
chk; res 1 "abi.py check fails on a row the program never asked"
grep -v 'abi:begin' "$T/doc" >"$T/doc2" && mv "$T/doc2" "$T/doc"
chk; res 1 "abi.py check fails on a document without the table"
/usr/bin/python3 "$K/scripts/test/abi.py" table "$T/kit" "$T/main" >"$T/out" 2>&1; rc=$?
res 0 "abi.py table runs"
has '^\* sizeof\(struct lsm_ctx\) +16 +32$' "... and marks the row that differs"
has '^  list: IDs by name +capability,smack +capability,smack$' "... and not the row that agrees"

# The real kernels, when the reference kernel is built (make mainline):
# make test does not build a second kernel (minutes, and a 154 MB
# package); make abi CHECK=1 builds it, and so does .ci/run's
# reference-kernel stage, which then runs this suite.  Once it is built, a
# failure to boot or build is a failure.
if [ -f "$K/build/mainline/bzImage" ] && [ -z "${ABI_OFFLINE:-}" ]; then
	"$K/scripts/test/abi.sh" --check >"$T/out" 2>&1; rc=$?
	diag <"$T/out"
	res 0 "make abi CHECK=1: the kit's kernel and mainline 6.12 differ exactly as docs/stacking-then-and-now.md#abi says"
else
	skip "make abi CHECK=1" "the reference kernel is not built (make mainline, or make abi CHECK=1, builds it)"
fi
done_testing
