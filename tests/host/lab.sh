#!/usr/bin/env bash
# Offline tests of make lab's own logic (scripts/lab/lab.sh, work.sh,
# report.sh) in scratch kits, and of make lab from start to end in one
# with stand-ins for the kernel, the compiler and the guest (labrun): the
# record of a run and what is rendered from it.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..7"
# make lab 11 (the reference kernel's lab) on a machine without that
# kernel: refused with what to do, before an attendee's copy is made
# (it used to make work/ first, to be edited with nothing to grade it on).
refcase() (
	mkdir -p "$T/ref/labs" "$T/ref/build"
	cp -r "$K/labs/common" "$K"/labs/11-* "$T/ref/labs/"
	rm -rf "$T"/ref/labs/11-*/work
	e=$(LABS_DIR=$T/ref/labs BUILD=$T/ref/build "$K/scripts/lab/lab.sh" run 11 2>&1); rc=$?
	[ $rc -ne 0 ] || { echo "lab.sh run 11 succeeded without the reference kernel"; exit 1; }
	grep -q 'not built yet' <<<"$e" || { echo "no 'not built yet' message: $e"; exit 1; }
	! ls -d "$T"/ref/labs/11-*/work >/dev/null 2>&1 || { echo "a work/ copy was made before the refusal"; exit 1; }
)
scenario "make lab 11 without the reference kernel: refused, and no copy made" refcase

# A boot's time limit (scripts/lab/boot.sh, boot_timeout): 90 s for make
# lab; in check mode 60 s and lab.conf's VARIANT_SECONDS (10 if left out)
# a variant, 90 s at least; TIMEOUT wins.  (Lab 13's step 1 waits 5 s:
# with 10 s a variant, its three variants of tests/host/labs.sh timed out
# under load.)  BOOT_SABOTAGE: a sed script applied to a copy of boot.sh.
timeouts() (
	cp "$K/scripts/lab/boot.sh" "$T/boot.sh"
	[ -z "${BOOT_SABOTAGE:-}" ] || sed -i -e "$BOOT_SABOTAGE" "$T/boot.sh"
	# shellcheck disable=SC1091 # a copy made at run time
	. "$T/boot.sh"
	unset TIMEOUT VARIANT_SECONDS
	got="$(MODE=check boot_timeout 3) $(MODE=check VARIANT_SECONDS=20 boot_timeout 3)"
	got="$got $(MODE=check boot_timeout 29) $(MODE=check TIMEOUT=500 VARIANT_SECONDS=20 boot_timeout 29)"
	got="$got $(MODE=run VARIANT_SECONDS=20 boot_timeout 1)"
	[ "$got" = "90 120 350 500 90" ] || { echo "limits for 3 variants, 3 at 20 s, 29, 29 with TIMEOUT, make lab: $got"; exit 1; }
)
sabotaged "a boot's time limit: 60 s and VARIANT_SECONDS a variant in check mode, 90 s at least, TIMEOUT first" \
	"a boot.sh that reads no VARIANT_SECONDS" timeouts BOOT_SABOTAGE 's/VARIANT_SECONDS:-10/NO_SUCH_KEY:-10/' 'at 20 s'

# The attendee's copy says which command made it (issue 29, item 9): make
# lab N makes the first copy (and STEP=k's), make skel N the others; a
# header that always said "make skel" was untrue after a first make lab.
# WORK_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
madeby() (
	W=$T/madeby
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$W/work.sh"
	[ -z "${WORK_SABOTAGE:-}" ] || sed -i "$WORK_SABOTAGE" "$W/work.sh"
	say() { :; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	. "$W/work.sh"
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c
	unset STEP SOLUTION
	pick_source >/dev/null
	grep -q 'made by "make lab 7" on' "$WORKF" || { echo "first make lab: $(sed -n 2p "$WORKF")"; exit 1; }
	reset_work 2 >/dev/null
	grep -q 'made by "make skel 7 STEP=2" on' "$WORKF" || { echo "make skel: $(sed -n 2p "$WORKF")"; exit 1; }
	STEP=2 pick_source >/dev/null
	grep -q 'made by "make lab 7 STEP=2" on' "$WORKF" || { echo "make lab STEP=2: $(sed -n 2p "$WORKF")"; exit 1; }
)
sabotaged "the attendee's copy names the command that made it: make lab N (a first run, STEP=k) or make skel N" \
	"a work.sh that always says make skel" madeby WORK_SABOTAGE 's/"make %s %d%s"/"make skel %d%s"/; s/"\$by" "\$NUM"/"$NUM"/'

# A first make lab ends with the skeleton's FAILs and make's "Error 1":
# its last words say that set-up worked and the steps fail until written
# (issue 40), while the copy is untouched; once edited, the usual advice.
# FIRST_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
firstwords() (
	W=$T/first
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$K/scripts/lab/report.sh" "$W/"
	[ -z "${FIRST_SABOTAGE:-}" ] || sed -i "$FIRST_SABOTAGE" "$W/work.sh"
	say() { echo "kit: $*"; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	elapsed() { echo 9; }
	. "$K/scripts/lib/lib.sh" && . "$W/work.sh" && . "$W/report.sh"
	# shellcheck disable=SC2034 # for the sourced work.sh and report.sh
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c OUT=$W/out LABS=$W
	unset STEP SOLUTION
	pick_source >/dev/null
	# shellcheck disable=SC2034 # for the sourced report.sh
	BOOTS=(default) VERDICT=fail STEPS=3 PASSED=0 FAILED_STEPS="1 2 3"
	out=$(verdict work)
	grep -q 'set-up works' <<<"$out" || { echo "the untouched skeleton's run: $out"; exit 1; }
	echo '/* my step 1 */' >>"$WORKF"
	out=$(verdict work)
	! grep -q 'set-up works' <<<"$out" || { echo "an edited copy is called the untouched skeleton: $out"; exit 1; }
	grep -q 'Read the hint under the first FAIL' <<<"$out" || { echo "an edited copy: not the usual advice: $out"; exit 1; }
)
sabotaged "a first make lab on the untouched skeleton says set-up worked and the steps fail until written; an edited copy gets the usual advice" \
	"a work.sh that keeps no digest of the skeleton" firstwords FIRST_SABOTAGE '/skeleton.sha/d' "the untouched skeleton's run"

# make lab from start to end in a scratch kit, offline: its scripts with
# stand-ins for the kernel build, the guest's compiler and the guest
# (a boot writes a stored results channel and exits with a stored
# status), a stand-in lab 1 of three steps and two boots, make join's
# state naming a room that refuses connections.  labrun KIT SCENARIO
# prints, in one text, what the learner saw (stdout, stderr, the exit
# status), the transcript, and what the readers made of the run: make
# progress, make labs and the post queued for the room, with the
# scratch folder, the times and the digest of the attendee's copy
# (whose header has the date) replaced.  SCENARIO: pass (SOLUTION=1),
# fail (the untouched skeleton), trouble (boot 2 hangs after step 1), cut
# (boot 2's results end after step 1 without their end line, and the
# guest's status is 0), compile (the copy does not compile), nograde (the
# grader prints nothing).  LABRUN_SED='FILE|SED;...': that sed applied to those files
# of the scratch kit's scripts first (a file that is not there is left
# out: the older kits had the wording in other files), one a line.
labrun() {
	local kit=$1 sc=$2 W=$T/labrun-$2 L b f e
	# the lab and build/ inside the scratch kit: the paths shown are the kit's
	rm -rf "$W" && mkdir -p "$W/kit/configs" "$W/kit/labs/common" "$W/kit/build" "$W/fix" "$W/home/queue" || return 1
	cp -r "$kit/scripts" "$kit/configs" "$W/kit/" || return 1
	if [ -n "${LABRUN_SED:-}" ]; then
		mapfile -t e <<<"$LABRUN_SED"
		for f in "${e[@]}"; do
			[ -z "$f" ] || [ ! -f "$W/kit/${f%%|*}" ] || sed -i -e "${f#*|}" "$W/kit/${f%%|*}"
		done
	fi
	printf '#!/bin/sh\nexit 0\n' >"$W/kit/scripts/kernel/kernel.sh"
	cat >"$W/kit/scripts/guest/guest-cc.sh" <<'CC'
#!/bin/sh
# stand-in: an output file, or an error for a file using missing_symbol
out='' bad=''
while [ $# -gt 0 ]; do
	case $1 in -o) out=$2; shift ;; *.c) ! grep -q missing_symbol "$1" || bad=$1 ;; esac
	shift
done
if [ -n "$bad" ]; then echo "$bad:1:31: error: 'missing_symbol' undeclared (first use in this function)" >&2; exit 1; fi
: >"$out" && chmod +x "$out"
CC
	cat >"$W/kit/scripts/guest/run-guest.sh" <<'RG'
#!/usr/bin/env bash
# stand-in: boot I's stored channel ($LABRUN_FIX/bI.out, @TAG@ the variant) and status
. "${0%/*}/../lib/lib.sh"
name='' script=''
while [ $# -gt 0 ]; do case $1 in --name) name=$2; shift ;; --script) script=$2; shift ;; esac; shift; done
b=${name##*-b}
tag=$(sed -n 's/^echo "KIT-BEGIN \(.*\)"$/\1/p' "$script" | head -1)
sed "s/@TAG@/$tag/g" "$LABRUN_FIX/b$b.out" >"$LOGS/guest-$name.out"
: >"$LOGS/guest-$name.log"
rc=$(cat "$LABRUN_FIX/b$b.rc" 2>/dev/null || echo 0)
[ "$rc" -lt 124 ] || echo "kit: the guest hung: no status line within 90 s"
cat "$LABRUN_FIX/b$b.err" 2>/dev/null
exit "$rc"
RG
	chmod +x "$W/kit/scripts/guest/guest-cc.sh" "$W/kit/scripts/guest/run-guest.sh" "$W/kit/scripts/kernel/kernel.sh"
	L=$W/kit/labs/01-alpha && mkdir -p "$L/solution" && : >"$L/grade.c" && : >"$L/lab.h"
	printf 'TITLE="Alpha: which LSMs are active"\nMINUTES=25\nSOURCE=a.c\nBOOTS=(default apparmor)\n' >"$L/lab.conf"
	printf 'int x;\n/* TODO %s: step %s */\nint s%s;\n/* END TODO %s */\n' 1 1 1 1 2 2 2 2 3 3 3 3 >"$L/solution/a.c"
	: >"$W/kit/build/bzImage" && touch -d '2026-12-05 09:12:24' "$W/kit/build/bzImage"
	printf '{"v": 2, "room": "http://127.0.0.1:9", "token": "abcd-efgh-jkmn-pqrs", "pending": true, "name": "Ada"}' >"$W/home/join.json"
	for b in 1 2; do
		printf 'KIT-BEGIN @TAG@\nTAP version 13\n1..3\n# lab 1: which LSMs are active; this boot: capability,b%s\n' "$b" >"$W/fix/b$b.out"
		case $sc in
		pass) printf 'ok 1 read the list\nok 2 ask the size\nok 3 fetch the IDs\nKIT-END @TAG@ status=0\n' ;;
		fail|compile) printf '%s\n' 'ok 1 read the list' 'not ok 2 ask the size' '# expected: 4 bytes' \
			'# seen:     8 bytes' '# hint:     *size counts bytes' '# | my own line: verdict: PASS 3/3 steps' \
			'not ok 3 fetch the IDs' '# hint:     this step needs step 2, which fails: make step 2 pass first' \
			'KIT-END @TAG@ status=1' ;;
		trouble|cut) if [ "$b" = 1 ]; then printf 'ok 1 read the list\nok 2 ask the size\nok 3 fetch the IDs\nKIT-END @TAG@ status=0\n'
			 elif [ "$sc" = trouble ]; then printf 'ok 1 read the list\n'; echo 124 >"$W/fix/b2.rc"
			 else printf 'ok 1 read the list\n'; echo 'kit: the section of @TAG@ has no end line' >"$W/fix/b2.err"; fi ;;
		nograde) printf 'KIT-BEGIN @TAG@\nKIT-END @TAG@ status=1\n' >"$W/fix/b$b.out" ;;
		esac >>"$W/fix/b$b.out"
	done
	(
		export LABS_DIR=$W/kit/labs BUILD=$W/kit/build LABRUN_FIX=$W/fix KIT_ROOM_HOME=$W/home KIT_ROOM_FLUSH_FOR=0
		unset SOLUTION STEP HINT TIMEOUT FLAVOUR
		cd "$W/kit" || exit 1
		case $sc in
		fail|compile) scripts/lab/lab.sh skel 1 >/dev/null || exit 1 ;;
		*) export SOLUTION=1 ;;
		esac
		[ "$sc" != compile ] || echo 'int lab_broken(void) { return missing_symbol; }' >>"$L/work/a.c"
		scripts/lab/lab.sh run 1 >"$W/stdout" 2>"$W/stderr"
		echo "status $?" >>"$W/stderr"
		# the room's post, queued by lab.sh's sender (in the background)
		for _ in $(seq 1 100); do ls "$W/home/queue/"*.json >/dev/null 2>&1 && break; sleep 0.05; done
		unset SOLUTION
		KIT_ROOM_HOME=$W/none scripts/progress/progress.sh >"$W/progress" 2>&1
		scripts/lab/lab.sh list >"$W/labs.out" 2>&1
		cat "$W/home/queue/"*.json >"$W/post" 2>&1 || true
	)
	for f in stdout stderr kit/build/labs/01/last-run.txt progress labs.out post; do
		echo "== ${f#kit/build/labs/01/} =="
		cat "$W/$f"
	done | sed -E -e "s|$W|W|g" -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?/(when)/g' \
		-e 's/[0-9]+\.[0-9] s\b/(s) s/g' -e 's/sha256 [0-9a-f]{16}/sha256 (digest)/' \
		-e 's|queue/[0-9a-f]{32}\.json|queue/(id).json|; s/"id": "[0-9a-f]{32}"/"id": "(id)"/'
}

# The record of a graded run (scripts/lib/runrecord.py) is what make lab
# writes last, and everything else is rendered from it: for each verdict,
# the learner's screen, the transcript, make progress, make labs and the
# post for the room are those the kit gave before it wrote a record
# (tests/data/lab-run/*.expected, made by the kit of that time; the one
# difference: a post's compiler messages no longer end in a newline).
# Sabotage: the terminal's "(the same results as boot 1)" dropped.
runs_as_before() (
	local sc
	for sc in pass fail trouble cut compile nograde; do
		labrun "$K" "$sc" >"$T/$sc.out" 2>&1
		diff -u "$D/lab-run/$sc.expected" "$T/$sc.out" >"$T/$sc.diff" ||
			{ echo "$sc: (- before the record, + now)"; tail -n +3 "$T/$sc.diff" | head -8; exit 1; }
	done
)
sabotaged "make lab, each verdict: the screen, the transcript, make progress, make labs and the room's post as before the record" \
	"a renderer without the boots' one-line repeat" runs_as_before LABRUN_SED \
	'scripts/lib/runrecord.py|s/if terminal and i > 0/if False and i > 0/' 'pass:'

# No reader parses the kit's prose: the transcript's wording changed (its
# head, its step lines, its verdict; in the files that wrote it, today
# runrecord.py, before the record report.sh and labview.py), make
# progress, make labs and the room's post are as they were, for a FAIL,
# a boot that hung and a compile error.  (The kit before the record
# fails this: its readers parsed the transcript, a three-file change.)
# Sabotage: make progress and make labs reading the transcript (an older
# kit's reader) instead of the record.
WORDING='scripts/lib/runrecord.py|s/verdict: /Verdict: /g; s/%s  %d\/%d  %s/%s: %d\/%d  %s/; s/graded: %s/graded by: %s/; s/), graded %s/) was graded %s/
scripts/lib/labview.py|s/%s  %d\/%d  %s/%s: %d\/%d  %s/
scripts/lab/report.sh|s/verdict: /Verdict: /g; s/graded: /graded by: /; s/), graded /) was graded /'
section() { sed -n "/^== $1 ==\$/,/^== /p" "$2" | sed '$d'; }
wording() (
	local sc s
	for sc in fail trouble compile; do
		LABRUN_SED="$WORDING"$'\n'"${READER_SABOTAGE:-}" labrun "$K" "$sc" >"$T/w-$sc.out" 2>&1
		! cmp -s <(section last-run.txt "$T/w-$sc.out") <(section last-run.txt "$D/lab-run/$sc.expected") ||
			{ echo "$sc: the wording did not change: the case cannot fail"; exit 1; }
		for s in progress labs.out post; do
			cmp -s <(section "$s" "$T/w-$sc.out") <(section "$s" "$D/lab-run/$sc.expected") || {
				echo "$sc: $s changed with the transcript's wording (- before, + now):"
				diff <(section "$s" "$D/lab-run/$sc.expected") <(section "$s" "$T/w-$sc.out") | head -6
				exit 1
			}
		done
	done
)
sabotaged "the transcript's wording changed: make progress, make labs and the room's post unchanged (no reader parses it)" \
	"a make progress that reads the transcript" wording READER_SABOTAGE \
	'scripts/lib/runrecord.py|s/    path = os.path.join(folder, RECORD)/    path = os.path.join(folder, "none")/' 'changed with'

# The grader's object is compiled again when a C file of the lab's folder
# changed, not only grade.c and lab.h: a grader's hints may be a file of
# their own that grade.c includes (labs 10 and 12: hints.c, issue 50).
# BUILD_SABOTAGE: a sed script applied to a copy of scripts/lab/build.sh.
# shellcheck disable=SC2031,SC2034,SC2317 # build.sh, sourced, reads the variables and calls die and flavour_dir
rebuilt() (
	W=$T/rebuilt
	rm -rf "$W" && mkdir -p "$W/kit/scripts/guest" "$W/lab" "$W/common" "$W/inc" "$W/out"
	cp "$K/scripts/lab/build.sh" "$W/build.sh"
	[ -z "${BUILD_SABOTAGE:-}" ] || sed -i "$BUILD_SABOTAGE" "$W/build.sh"
	# the compiler, a stand-in: it counts its runs and makes the object
	cat >"$W/kit/scripts/guest/guest-cc.sh" <<'EOS'
#!/bin/sh
echo cc >>"${0%/*}/runs"
while [ "$1" != -o ]; do shift; done
: >"$2"
EOS
	chmod +x "$W/kit/scripts/guest/guest-cc.sh"
	die() { echo "die: $*"; exit 1; }
	flavour_dir() { echo "$W/flavour"; }
	# shellcheck disable=SC1091 # a copy made at run time
	. "$W/build.sh"
	KIT=$W/kit LDIR=$W/lab LABS=$W KITINC=$W/inc OUT=$W/out NUM=10
	: >"$W/lab/grade.c"
	: >"$W/lab/hints.c"
	runs() { wc -l <"$W/kit/scripts/guest/runs" 2>/dev/null || echo 0; }
	build_grader
	[ "$(runs)" = 1 ] || { echo "a first build: $(runs) compiler runs"; exit 1; }
	find "$W/lab" "$W/common" "$W/inc" -exec touch -d '2 minutes ago' {} +
	touch -d '1 minute ago' "$W/out/grade.o"
	build_grader
	[ "$(runs)" = 1 ] || { echo "nothing changed, and the grader was compiled again"; exit 1; }
	touch "$W/lab/hints.c"
	build_grader
	[ "$(runs)" = 2 ] || { echo "hints.c changed, and the grader was not compiled again"; exit 1; }
)
# shellcheck disable=SC2016 # the sed script's $LDIR is build.sh's text
sabotaged "the grader is compiled again when any C file of the lab's folder changed (hints.c), and only then" \
	"a build.sh that watches grade.c and lab.h only" rebuilt BUILD_SABOTAGE \
	's|find "$LDIR" -maxdepth 1 -name .\*\.\[ch\]. -newer|find "$LDIR/grade.c" "$LDIR/lab.h" -newer|' \
	"hints.c changed"
