#!/usr/bin/env bash
# scripts/guest/policy-sets.sh --set DIR OUT, which compiles a policy set from any
# folder (a copy a learner edits, for lab 10), on copies of
# configs/policy/stack in a temporary folder (TAP on stdout):
#  - a copy as it is compiles to the same binaries as build/policy/stack
#    (the SELinux policy and the AppArmor profile, byte for byte), and the
#    same check fails on a copy with one more rule;
#  - a profile line without its comma, and an unknown permission in
#    kit.te, each fail with the compiler's own message and exit 1, and
#    leave OUT/NAME of the run before untouched.
#  - the digest that decides whether the sets are compiled again (no
#    --set) hashes a file whose name has a quote and a blank, and an edit
#    of it compiles them again (issue 43: `find | xargs cat` failed on
#    such a name), in a scratch copy of the kit's scripts and sets.
# Nothing is loaded anywhere: apparmor_parser and checkpolicy only write
# files (scripts/guest/policy-sets.sh).
K=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
P=$K/scripts/guest/policy-sets.sh
echo "1..11"
d=$T
"$P" >"$d/log" 2>&1 || { echo "Bail out! scripts/guest/policy-sets.sh failed: $(tail -3 "$d/log" | tr '\n' ' ')"; exit 1; }
B=$K/build/policy/stack

same() {	# same OUT/NAME: its binaries are build/policy/stack's
	cmp -s "$1/selinux/policy" "$B/selinux/policy" &&
		cmp -s "$1/apparmor/probe" "$B/apparmor/probe" &&
		cmp -s "$1/apparmor/probe.complain" "$B/apparmor/probe.complain"
}

mkdir -p "$d/src"
cp -r "$K/configs/policy/stack" "$d/src/copy"
"$P" --set "$d/src/copy" "$d/out" >"$d/log" 2>&1
pass_if $? "a copy of the set compiles (exit 0)" "$d/log"
same "$d/out/copy"
pass_if $? "a copy of the set compiles to build/policy/stack's binaries"

cp -r "$K/configs/policy/stack" "$d/src/more"
echo '  /tmp/kit/apparmor-secret r,' >"$d/line"
sed -i "/^  \/tmp\/kit\/public rw,/r $d/line" "$d/src/more/apparmor/probe"
sed -i 's|^allow probe_t secret_t:file getattr;|&\nallow probe_t secret_t:file read;|' "$d/src/more/selinux/kit.te"
"$P" --set "$d/src/more" "$d/out" >"$d/log" 2>&1 && ! same "$d/out/more"
pass_if $? "the same check fails on a copy with one more rule in each module" "$d/log"

cp -r "$d/out/copy" "$d/before"
sed -i 's|^  /tmp/kit/public rw,|  /tmp/kit/public rw|' "$d/src/copy/apparmor/probe"
"$P" --set "$d/src/copy" "$d/out" >"$d/log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q 'AppArmor parser error.*missing an end of line' "$d/log" &&
	grep -q "apparmor_parser refused" "$d/log" && diff -r -q "$d/before" "$d/out/copy" >/dev/null
pass_if $? "a profile line without its comma: exit 1, the parser's message, OUT/NAME untouched" "$d/log"

cp "$K/configs/policy/stack/apparmor/probe" "$d/src/copy/apparmor/probe"
sed -i 's|^allow probe_t secret_t:file getattr;|allow probe_t secret_t:file { getattr reed };|' "$d/src/copy/selinux/kit.te"
"$P" --set "$d/src/copy" "$d/out" >"$d/log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "permission reed is not defined for class file" "$d/log" &&
	grep -q "checkpolicy refused" "$d/log" && diff -r -q "$d/before" "$d/out/copy" >/dev/null
pass_if $? "an unknown permission in kit.te: exit 1, checkpolicy's message, OUT/NAME untouched" "$d/log"

"$P" --set "$d/no-such-folder" "$d/out" >"$d/log" 2>&1
[ $? = 1 ] && grep -q "usage: policy.sh --set DIR OUT" "$d/log"
pass_if $? "a folder that does not exist: exit 1 and the usage" "$d/log"

# The pointers the kit prints or writes lead somewhere (issue 29, item 5):
# the manual pages it names are readable offline with make man, and the
# pointers that led nowhere ("man apparmor.d", where the page is only
# unpacked; "checkpolicy(8) describes the language", a list of options)
# are gone.
"$K/scripts/host/man.sh" apparmor.d >"$d/man" 2>&1 </dev/null &&
	grep -q 'apparmor.d - syntax of security profiles' "$d/man"
pass_if $? "make man PAGE=apparmor.d shows the apparmor package's page, offline" "$d/man"
: >"$d/pages"
mapfile -t PAGES < <(grep -rhoE 'make man PAGE=[a-z0-9_.-]*[a-z0-9]' \
	"$K/scripts" "$K/labs" "$K/guest" "$K/configs" "$K/README.md" "$K/docs" 2>/dev/null |
	sed 's/^make man PAGE=//' | sort -u)
bad=0
for p in "${PAGES[@]}"; do
	"$K/scripts/host/man.sh" "$p" >/dev/null 2>>"$d/pages" </dev/null || { echo "make man PAGE=$p fails" >>"$d/pages"; bad=1; }
done
[ ${#PAGES[@]} -gt 0 ] && [ $bad = 0 ]
pass_if $? "every make man PAGE=... the kit prints or writes opens a page (${PAGES[*]:-none found})" "$d/pages"
grep -rnE '"man apparmor\.d"|`man apparmor\.d`|\(man apparmor\.d|checkpolicy\(8\) describes' \
	"$K/scripts" "$K/labs" "$K/guest" "$K/README.md" --exclude-dir=work >"$d/dead" 2>/dev/null
[ ! -s "$d/dead" ]
pass_if $? "no pointer says man apparmor.d (no such page on the host) or that checkpolicy(8) describes the language" "$d/dead"

# The digest of the sets, in a scratch kit (its own build folder; the
# parser, mdp and the tree are this kit's): a set holding a file named
# with a quote and a blank compiles, and an edit of that file alone
# compiles the sets again (a new stamp), as the edit of any file does.
S=$d/kit
mkdir -p "$S/configs" "$S/build/stamps"
cp -r "$K/scripts" "$S/scripts"
cp -r "$K/configs/policy" "$S/configs/policy"
ln -s "$K/build/tools" "$S/build/tools"
ln -s "$K/build/linux" "$S/build/linux"
note="$S/configs/policy/stack/it's a note"
echo one >"$note"
BUILD=$S/build "$S/scripts/guest/policy-sets.sh" >"$d/log" 2>&1 && [ -s "$S/build/stamps/policy" ]
pass_if $? "the sets compile with a file named with a quote and a blank in one" "$d/log"
s1=$(cat "$S/build/stamps/policy" 2>/dev/null)
echo two >"$note"
BUILD=$S/build "$S/scripts/guest/policy-sets.sh" >"$d/log" 2>&1 && grep -q 'policy sets compiled' "$d/log" &&
	[ "$(cat "$S/build/stamps/policy")" != "$s1" ]
pass_if $? "an edit of that file alone compiles the sets again" "$d/log"
