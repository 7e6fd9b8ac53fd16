#!/usr/bin/env bash
# make lab-check, the offline check of the labs (scripts/lab/lab-check.sh), and
# lab.conf's one reader (scripts/lab/conf.sh): no kernel build, no guest.
#   - every lab of labs/ passes it (its time in the line);
#   - the series' UAPI headers it compiles against (scripts/kernel/series-uapi.sh)
#     are the bytes a kernel built with the series installs (when one is
#     built), and a series without a syscall's line gives others;
#   - a scratch user-space lab (tests/data/lab-scratch/: its folder and one
#     row of labs/README.md's index, in a scratch copy of labs/) passes it,
#     and make labs lists it;
#   - each trap a contributor fell into, made in a copy of that lab, is
#     caught with a message naming the file (and the line): a typo in
#     BOOTS, an unknown key, a grader without lab_show(), a mistake without
#     "expect:", a skeleton that does not compile, the index out of step...;
#     a quoted SOURCE="x.c" is read as x.c by every reader;
#   - nothing reads lab.conf but its reader (a sed of SOURCE= broke both
#     lab suites on a quoted value).
# Every case that passes on the scratch lab is shown failing on its trap.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$K/scripts/lab/lab-check.sh
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

mapfile -t DIRS < <(printf '%s\n' "$K"/labs/[0-9][0-9]-*/ | sed 's|/$||')

# The traps: trap_ NAME FILE (in the scratch kit's labs/) SED-SCRIPT
# MESSAGE.  The scratch lab is labs/99-scratch; its index row is the last.
TN=() TF=() TS=() TM=()
trap_() { TN+=("$1") TF+=("$2") TS+=("$3") TM+=("$4"); }
trap_ "a typo in BOOTS" 99-scratch/lab.conf 's/^BOOTS=(default none)/BOOTS=(default nnone)/' \
	'lab.conf:7: BOOTS has "nnone": no stack of configs/stacks.conf has that name'
trap_ "an unknown key" 99-scratch/lab.conf '$a BOOT=(default)' 'lab.conf:9: unknown key BOOT'
trap_ "lab.conf's old FLAVOUR= (the kernel is KERNEL=)" 99-scratch/lab.conf '$a FLAVOUR=bpf' \
	"lab.conf:9: FLAVOUR is the run's kernel, no key of lab.conf: the kernel a lab runs on is KERNEL=NAME"
trap_ "a KERNEL no lab runs on" 99-scratch/lab.conf '$a KERNEL=gdb' \
	"lab.conf:9: KERNEL=gdb; a lab runs on the kit's kernel (no KERNEL), on the reference kernel (KERNEL=mainline) or on the BPF LSM's (KERNEL=bpf)"
trap_ "MINUTES that is no number" 99-scratch/lab.conf 's/^MINUTES=5/MINUTES=5min/' \
	"lab.conf:5: MINUTES must be a number of minutes, not '5min'"
trap_ "VARIANT_SECONDS that is no number" 99-scratch/lab.conf "\$a VARIANT_SECONDS=20s" \
	"lab.conf:9: VARIANT_SECONDS must be a number of seconds (1-999), not '20s'"
trap_ "SOURCE naming no file of solution/" 99-scratch/lab.conf 's/^SOURCE=scratch.c/SOURCE=scrach.c/' \
	'lab.conf:6: SOURCE=scrach.c, but '
trap_ "a NEEDS text the series' headers lack" 99-scratch/lab.conf 's/|struct lsm_ctx|/|struct lsm_context|/' \
	"NEEDS 'struct lsm_context' in <linux/lsm.h>, and the series' headers"
trap_ "a grader without lab_show()" 99-scratch/grade.c '/^static void lab_show(void)/,/^}/d' \
	"grade.c has no 'static void lab_show(void)'"
trap_ "a grader without a step's STEP()" 99-scratch/grade.c '/^STEP(2,/,/^}/d' \
	"grade.c has STEP(n, ...) for steps '1', and the solution's TODO markers make steps 1 2"
trap_ "a mistake without expect:" 99-scratch/mistakes/adds-one.sed '/expect:/d' \
	"mistakes/adds-one.sed has no 'expect:' line"
trap_ "an expect: line of a step that does not exist" 99-scratch/mistakes/adds-one.sed \
	's/expect: step 1 passes/expect: step 3 passes/' "'expect: step 3 passes' names step 3, and the lab has steps 1 to 2"
trap_ "an expect: line no one can read" 99-scratch/mistakes/adds-one.sed \
	's/expect: step 1 passes/expect: step 1 is fine/' "'expect: step 1 is fine' is none of"
trap_ "a HINT=2 expect: line of a step that does not exist" 99-scratch/mistakes/adds-one.sed \
	's/expect: step 1 passes/expect: HINT=2 step 3 passes/' "'expect: HINT=2 step 3 passes' names step 3, and the lab has steps 1 to 2"
trap_ "a mistake said not to compile that compiles" 99-scratch/mistakes/adds-one.sed \
	's/expect: step 1 passes/expect: compile: error: expected expression/' \
	"compiles, and its 'expect: compile:' line says it must not"
trap_ "a mistake that no longer changes the solution" 99-scratch/mistakes/adds-one.sed \
	's/return 2 \\\* x;/return 3 * x;/' 'mistakes/adds-one.sed does not change the solution'
trap_ "a mistake that runs a command (sed's e: a lab folder is someone else's)" 99-scratch/mistakes/adds-one.sed \
	'$a 1e touch /tmp/kit-lab-check-sed-ran' 'e/r/w commands disabled in sandbox mode'
trap_ "a mistake that does not compile" 99-scratch/mistakes/adds-one.sed 's/return x + 1;/return x + ;/' \
	"mistake m-adds-one.c"
trap_ "a skeleton that does not compile (a variable outside the TODO block)" 99-scratch/solution/scratch.c \
	's|^\t/\* TODO 2: return x doubled \*/|\tint y = 2 * x;\n&|; s|^\treturn 2 \* x;|\treturn y;|' \
	"99/skel-1.c:17:13: error: unused variable"
trap_ "a malformed TODO marker" 99-scratch/solution/scratch.c \
	's|/\* TODO 2: return x doubled \*/|/* TODO 2 return x doubled */|' "make skel 99 STEP=1 fails: lab-skel.sh"
trap_ "a README without a Hints section" 99-scratch/README.md '/^## Hints/d' \
	"README.md has the sections 'Goal,Background,Steps,Discussion'"
trap_ "a README whose Steps miss a step" 99-scratch/README.md '/^2\. /d' "## Steps has 1 numbered item(s)"
trap_ "a README link to a heading that does not exist" 99-scratch/README.md \
	's/#the-path-through-the-labs/#the-path-through-labs/' \
	"links to ../README.md#the-path-through-labs, and $T/labs/99-scratch/../README.md has no heading or <a id> with that anchor"
trap_ "no index row" README.md '/^| 99 |/d' "labs/README.md has no row for lab 99"
trap_ "an index row whose time is not MINUTES" README.md '/^| 99 |/s/| 5 min |/| 6 min |/' \
	"row of lab 99 says '6 min'; lab.conf says MINUTES=5"
trap_ "an index row whose boots are not BOOTS" README.md '/^| 99 |/s/`none`/`apparmor`/' \
	"row of lab 99 names the boots 'default apparmor'; lab.conf's BOOTS are 'default none'"
trap_ "an index row whose title is not TITLE" README.md '/^| 99 |/s/| Scratch: your/| Scratched: your/' \
	"row of lab 99 has the title 'Scratched: your process ID"
trap_ "an index row of a lab that does not exist" README.md '/^| 99 |/{p;s/^| 99 |/| 98 |/}' \
	"labs/README.md has a row for lab 98, and there is no labs/98-*/lab.conf"
echo "1..$((${#DIRS[@]} + 8 + ${#TN[@]}))"

# 1. Every lab of the kit.
t0=$SECONDS
out=$("$CHECK" 2>&1)
rc=$?
for d in "${DIRS[@]}"; do
	b=$(basename "$d")
	l=$(grep -E "^kit: lab +[0-9]+ $b " <<<"$out")
	if grep -q ' ok (' <<<"$l"; then
		ok "make lab-check: $b${l#*"$b"}"
	else
		notok "make lab-check: $b"
		awk -v b="$b" '$0 ~ "^kit: lab +[0-9]+ " b " " { on = 1; next } /^kit: / { on = 0 } on' <<<"$out" | diag 12
	fi
done
echo "# make lab-check, all $((${#DIRS[@]})) labs: $((SECONDS - t0)) s (exit $rc), load $(cut -d' ' -f1-3 /proc/loadavg)"

# 2. The series' headers: the bytes of a built kernel's, when one is built.
# The same script in a scratch kit whose patch 0008 lost the line of
# lsm_module_list in syscall_64.tbl must then differ.
BUILT=${BUILD:-$K/build}/usr/include
desc="scripts/kernel/series-uapi.sh gives the bytes that a kernel built with the series installs (build/usr/include)"
if [ ! -f "$BUILT/linux/lsm.h" ]; then
	ok "$desc # SKIP no kernel built here (make kernel) to compare with"
else
	mkdir -p "$T/sab/scripts" && cp -r "$K/scripts/." "$T/sab/scripts/" && cp -r "$K/patches" "$T/sab/"
	sed -i '/^+452\tcommon\|^+452\t64/d' "$T/sab/patches/"0008-*.patch
	BUILD=$T/b1 "$K/scripts/kernel/series-uapi.sh" "$T/uapi" >/dev/null 2>&1
	BUILD=$T/b2 "$T/sab/scripts/kernel/series-uapi.sh" "$T/uapi-sab" >/dev/null 2>&1
	same() { local f; [ -n "$(ls -A "$1" 2>/dev/null)" ] || return 1
		for f in $(cd "$1" && find . -type f); do cmp -s "$1/$f" "$BUILT/$f" || return 1; done; }
	if ! same "$T/uapi"; then
		notok "$desc"
		for f in $(cd "$T/uapi" && find . -type f); do diff "$T/uapi/$f" "$BUILT/$f" | head -4 | sed "s|^|# $f: |"; done
	elif same "$T/uapi-sab"; then
		notok "$desc (a series without lsm_module_list's syscall gives them too: the case cannot fail)"
	else
		ok "$desc ($(cd "$T/uapi" && find . -type f | sed 's|^\./||' | sort | paste -sd' '))"
	fi
fi

# 3. The scratch lab, in a scratch copy of labs/ (LABS_DIR), BUILD apart.
export BUILD=$T/build
fresh() {
	rm -rf "$T/labs"
	mkdir -p "$T/labs"
	(cd "$K/labs" && find . -path '*/work' -prune -o -type f -print | cpio -pdm --quiet "$T/labs")
	cp -r "$K/tests/data/lab-scratch" "$T/labs/99-scratch"
	# The index row: after the last row of the table (number 99: after
	# any lab the kit will have).
	awk -v last="$(grep -nE '^\| *[0-9]+ *\|' "$K/labs/README.md" | tail -1 | cut -d: -f1)" \
		'{ print } NR == last { print "| 99 | Scratch: your process ID, twice (a test'"'"'s lab) | 5 min | nothing | `default`; `none` |" }' \
		"$K/labs/README.md" >"$T/labs/README.md"
}
fresh
out=$(LABS_DIR=$T/labs "$CHECK" 99 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -qE '^kit: lab 99 99-scratch +ok ' <<<"$out"; then
	ok "a scratch user-space lab (its folder and one index row) passes make lab-check ($(grep -m1 -oE 'ok \([0-9.]+ s\)' <<<"$out"))"
else
	notok "a scratch user-space lab (its folder and one index row) passes make lab-check (exit $rc)"
	diag 12 <<<"$out"
fi
l=$(LABS_DIR=$T/labs make -s -C "$K" labs 2>&1 | grep -E '^ +99 +Scratch: your process ID, twice +5 min')
mv "$T/labs/99-scratch" "$T/99-away"
l2=$(LABS_DIR=$T/labs make -s -C "$K" labs 2>&1 | grep -E '^ +99 ')
mv "$T/99-away" "$T/labs/99-scratch"
if [ -n "$l" ] && [ -z "$l2" ]; then
	ok "make labs lists the scratch lab ($(tr -s ' ' <<<"$l"))"
else
	notok "make labs lists the scratch lab, and not once its folder is gone ('$l', then '$l2')"
fi

# 4. The traps, one at a time on a fresh copy.
for i in "${!TN[@]}"; do
	name=${TN[$i]} file=${TF[$i]} script=${TS[$i]} msg=${TM[$i]}
	fresh
	cp "$T/labs/$file" "$T/orig"
	sed -i -e "$script" "$T/labs/$file"
	if cmp -s "$T/orig" "$T/labs/$file"; then
		notok "$name: the trap changes $file (update the trap's sed script)"
		continue
	fi
	num=99
	out=$(LABS_DIR=$T/labs "$CHECK" "$num" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -qF -- "$msg" <<<"$out"; then
		ok "$name: caught ($(grep -m1 -F -- "$msg" <<<"$out" | sed 's/^ *- //' | cut -c1-150))"
	else
		notok "$name: caught, with '$msg' (exit $rc)"
		diag 10 <<<"$out"
	fi
done

# 5. A quoted SOURCE="scratch.c" is bash's scratch.c for every reader:
# make lab-check, make labs, and scripts/lab/conf.sh, which the suites,
# lab-kernel.sh and make bench ask.  (Before, labs.sh and lab-hints.sh
# read it with sed: "scratch.c", quotes and all.)
fresh
sed -i 's/^SOURCE=scratch.c/SOURCE="scratch.c"/' "$T/labs/99-scratch/lab.conf"
out=$(LABS_DIR=$T/labs "$CHECK" 99 2>&1); rc=$?
src=$("$K/scripts/lab/conf.sh" "$T/labs/99-scratch" SOURCE 2>&1)
sed -i 's/^SOURCE="scratch.c"/SOURCE="scratch.c/' "$T/labs/99-scratch/lab.conf"
bsrc=$("$K/scripts/lab/conf.sh" "$T/labs/99-scratch" SOURCE 2>&1); brc=$?
if [ $rc -eq 0 ] && [ "$src" = scratch.c ] && [ $brc -ne 0 ] && grep -q 'bash cannot read it' <<<"$bsrc"; then
	ok "a quoted SOURCE=\"scratch.c\" passes make lab-check and reads as scratch.c; an unclosed quote is an error naming lab.conf"
else
	notok "a quoted SOURCE=\"scratch.c\" passes make lab-check (exit $rc) and reads as scratch.c (got '$src'); an unclosed quote is an error (exit $brc: $bsrc)"
	diag 6 <<<"$out"
fi

# 5b. A policy lab's given-*.sed edits given/ (the learner's edit that
# the grader must refuse) and may leave the solution as it is (lab 12's
# given-vault-unlabelled.sed); one that changes neither is refused.
fresh
ln -sfn "$K/guest" "$T/guest"	# the README's link to guest/tools/why.c
g=$T/labs/12-diagnose-the-denial/mistakes/given-vault-unlabelled.sed
out=$(LABS_DIR=$T/labs "$CHECK" 12 2>&1); rc=$?
sed -i 's|vault/key|vault/nokey|' "$g"
bout=$(LABS_DIR=$T/labs "$CHECK" 12 2>&1); brc=$?
if [ $rc -eq 0 ] && [ $brc -ne 0 ] &&
	grep -q 'given-vault-unlabelled.sed does not change the solution or given/' <<<"$bout"; then
	ok "a given-*.sed that edits only given/ passes make lab-check; one that edits nothing is refused"
else
	notok "a given-*.sed that edits only given/ passes make lab-check (exit $rc); one that edits nothing is refused (exit $brc)"
	diag <<<"$out$bout" | grep -v '^# kit: lab 12 .* ok ' | head -8
fi

# 5c. A policy skeleton's placeholders look like the lines around them:
# lab 12's, as they were (the lines to change indented 4 where the
# profile's are 2; "read /tmp/lab12/out" where the sandbox's rules pad
# read into read,write's column), are refused, each with its line; the
# lab as it is passes (5b).
fresh
ln -sfn "$K/guest" "$T/guest"
p=$T/labs/12-diagnose-the-denial/solution/policy
sed -i -E 's|^(  # END TODO [0-9]+:) (/tmp)|\1   \2|' "$p/apparmor/probe"
sed -i 's|^# END TODO 3: read       /tmp/lab12/out$|# END TODO 3: read /tmp/lab12/out|' "$p/landlock.rules"
bout=$(LABS_DIR=$T/labs "$CHECK" 12 2>&1); brc=$?
if [ $rc -eq 0 ] && [ $brc -ne 0 ] &&
	grep -q 'apparmor/probe:17: the placeholder "    /tmp/lab12/data/\*.txt r," is indented 4, the line it stands for 2' <<<"$bout" &&
	grep -q 'landlock.rules:19: the placeholder "read /tmp/lab12/out" has its second word at column 6, the lines around it at 12' <<<"$bout"; then
	ok "a policy skeleton's placeholder indented or aligned unlike the lines around it is refused, with its line"
else
	notok "a policy skeleton's placeholder indented or aligned unlike the lines around it is refused (exit $brc)"
	diag 8 <<<"$bout"
fi

# 6. Nothing reads lab.conf but scripts/lab/conf.sh: no sed, grep, awk,
# cut or source of it in the scripts, the suites, CI or the Makefile.
# The pattern must find the read that broke on a quoted SOURCE.
reads() { grep -nE '(^|[;&|(`$ ]|\$\()(sed|grep|awk|cut|head|tail|cat|source|\.) [^#|;]*lab\.conf' "$@" | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#'; }
old='	src=$(sed -n '"'"'s/^SOURCE=//p'"'"' "$d/lab.conf")'
# (This suite edits its scratch lab.conf with sed -i: it is left out.)
found=$(cd "$K" && reads scripts/*.sh scripts/lab/*.sh tests/host/*.sh .ci/* Makefile 2>/dev/null |
	grep -vE '^(scripts/lab/conf.sh|tests/host/lab-check.sh):')
if [ -n "$found" ]; then
	notok "nothing reads lab.conf but its reader, scripts/lab/conf.sh"
	diag 8 <<<"$found"
elif [ -z "$(printf '%s\n' "$old" >"$T/old.sh"; reads "$T/old.sh")" ]; then
	notok "nothing reads lab.conf but its reader (the pattern misses the old sed of SOURCE=: the case cannot fail)"
else
	ok "nothing reads lab.conf but its reader, scripts/lab/conf.sh"
fi

# 7. What differs between the kinds of lab (lab.conf's KIND) is in one
# file of hooks per kind, scripts/lab/kind-KIND.sh (docs/hacking.md, "The
# kinds' hooks"): each kind load_conf accepts has its file; each file,
# sourced as kind_load sources it (the others source kind-user.sh first),
# leaves every hook that any of them defines or the driver calls defined;
# and no script of make lab or make lab-check tests KIND but load_conf
# (its reader, which picks the kind file).  Shown failing on two mutants:
# the user kind's file without a hook that another kind does not
# redefine, and a stage file that tests KIND again.
kinds() (
	cd "$1" || exit 1
	local kinds k hooks f h miss='' defined
	kinds=$(sed -nE 's/^[[:space:]]*case "\$KIND" in ([a-z|]+)\).*/\1/p' scripts/lab/conf.sh | tr '|' ' ')
	[ -n "$kinds" ] || { echo "no 'case \"\$KIND\" in KIND|...)' in scripts/lab/conf.sh"; exit 1; }
	hooks=$( { cat scripts/lab/kind-*.sh | sed -nE 's/^(kind_[a-z_]+)\(\).*/\1/p'
		grep -hvE '^[[:space:]]*#' scripts/lab/lab.sh scripts/lab/*.sh scripts/lab/lab-check.sh |
			grep -oE '(^|[^a-z_])kind_[a-z_]+' | grep -oE 'kind_[a-z_]+'; } |
		grep -vx kind_load | sort -u)
	for k in $kinds; do
		f=scripts/lab/kind-$k.sh
		[ -f "$f" ] || { miss+=" $f (missing)"; continue; }
		# shellcheck disable=SC2016 # expanded by the inner bash
		defined=$(KIT=$PWD bash -c '. "$KIT/$1" && declare -F' _ "$f" | awk '{ print $3 }')
		for h in $hooks; do
			grep -qx "$h" <<<"$defined" || miss+=" $f:$h"
		done
	done
	[ -z "$miss" ] || { echo "hooks missing:$miss"; exit 1; }
	f=$(grep -nE '(\[|test |case )[^]#]*\$\{?KIND([^A-Za-z0-9_]|$)' scripts/lab/lab.sh scripts/lab/*.sh scripts/lab/lab-check.sh |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' | grep -v '^scripts/lab/conf.sh:')
	[ -z "$f" ] || { echo "KIND tested outside load_conf:"; echo "$f"; exit 1; }
	echo "$(wc -w <<<"$hooks") hooks, kinds $kinds"
)
mutant() {	# mutant FILE SED: a copy of the kit's scripts with FILE edited
	rm -rf "$T/kinds" && mkdir -p "$T/kinds" && cp -r "$K/scripts" "$T/kinds/" &&
		sed -i "$2" "$T/kinds/$1"
}
good=$(kinds "$K" 2>&1); grc=$?
mutant scripts/lab/kind-user.sh '/^kind_gdb()/d' && bad1=$(kinds "$T/kinds" 2>&1); b1=$?
mutant scripts/lab/boot.sh 's/^\(\t*\)mapfile -t -O/\1[ "$KIND" != policy ] || mapfile -t -O/' && bad2=$(kinds "$T/kinds" 2>&1); b2=$?
if [ $grc -eq 0 ] && [ $b1 -ne 0 ] && grep -q 'kind-policy.sh:kind_gdb' <<<"$bad1" &&
   [ $b2 -ne 0 ] && grep -q '^scripts/lab/boot.sh:' <<<"$bad2"; then
	ok "each kind's file leaves every hook defined ($good); only load_conf tests KIND (mutants caught: a hook left out of the user kind's file, a KIND test in boot.sh)"
else
	notok "each kind's file leaves every hook defined and only load_conf tests KIND"
	printf '%s\n' "kit ($grc): $good" "no kind_gdb in kind-user.sh ($b1): $bad1" "a KIND test in boot.sh ($b2): $bad2" | diag 12
fi
