#!/usr/bin/env bash
# make progress, offline (TAP): the attendee's view of stored transcripts
# of make lab (tests/data/progress/runs/NN.txt, put where make lab writes
# them, build/labs/NN/last-run.txt, for the stand-in labs of
# tests/data/progress/labs/), the progress file it writes, the room's table
# from a folder of such files (tests/data/progress/room/), the refusals of
# bad input, and the one line the lab driver adds to its transcripts
# (scripts/lab/report.sh: flavour and boots).  No QEMU, no network.
#
# Each check runs on the kit's scripts and then on a wrong implementation:
# a scratch copy of scripts/ with one sed applied to one file (the mutant
# named with the check), where it must fail.  A check that passes on its
# mutant cannot catch that mistake, and is reported as failing.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
D=$K/tests/data/progress
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

n=0 nm=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); echo "not ok $n $*"; }

# mutant FILE SED: a scratch kit whose FILE (under scripts/) is FILE with
# SED applied; prints its root.  A SED that changes nothing is an error.
mutant() {
	local m=$T/mutant-$((nm += 1))
	mkdir -p "$m/tests" && cp -r "$K/scripts" "$m/" && cp "$K/tests/stacks.conf" "$m/tests/" || return 1
	sed -e "$2" "$K/$1" >"$m/$1"
	if cmp -s "$K/$1" "$m/$1"; then echo "the mutant's sed changes nothing in $1: $2" >&2; return 1; fi
	echo "$m"
}
# check DESC FUNC FILE SED: FUNC KIT (a subshell that says what went wrong
# and exits non-zero) must pass with the kit's scripts and fail with the
# mutant of FILE by SED.
check() {
	local desc=$1 fn=$2 e m
	if ! e=$("$fn" "$K" 2>&1); then
		notok "$desc"
		sed 's/^/# /' <<<"$e" | head -12
		return
	fi
	if ! m=$(mutant "$3" "$4" 2>&1); then
		notok "$desc (no mutant: $m)"
		return
	fi
	if e=$("$fn" "$m" 2>&1); then
		notok "$desc (it passes on a wrong $3 too: $4)"
	else
		ok "$desc"
		# SHOW_MUTANTS=1: how the check failed on its mutant.
		[ -z "${SHOW_MUTANTS:-}" ] || sed 's/^/#   mutant: /' <<<"$e" | head -"${SHOW_MUTANTS_LINES:-6}"
	fi
	rm -rf "$m"
}

# The stand-in attendee's build/: the stored transcripts where make lab
# writes them (lab 7 never run).
B=$T/build
for f in "$D"/runs/*.txt; do
	mkdir -p "$B/labs/$(basename "$f" .txt)" && cp "$f" "$B/labs/$(basename "$f" .txt)/last-run.txt"
done
# progress KIT VAR=VALUE...: make progress with that kit's scripts, on the
# stand-in labs and build/.
progress() {
	local kit=$1
	shift
	env -u OUT -u FROM -u NAME BUILD="${PB:-$B}" LABS_DIR="$D/labs" "$@" "$kit/scripts/progress.sh"
}
# same WANT GOT: say the difference.
same() { diff -u "$1" "$2" >&2 && return 0; echo "(above: - expected, + seen)" >&2; return 1; }
# unchanged DIR SUM: DIR's names and contents are those of SUM.
tree_sum() { (cd "$1" && find . -printf '%p %s\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }

echo "1..15"

# 1. The attendee's view: every verdict make lab writes, the verdict taken
# only from the transcript's last line (lab 2's boot shows a program's own
# "verdict: PASS" line), a lab never run, a transcript older than the
# flavour and boots lines.  Mutant: the first verdict line believed.
view() (
	progress "$1" >"$T/view.out" 2>"$T/view.err" || { cat "$T/view.err"; exit 1; }
	same "$D/mine.expected" "$T/view.out"
)
check "the attendee's view: each lab's verdict, steps, when, kernel, boots; never run; a program's own verdict line not believed" \
	view scripts/results.py "s/    last = lines\[-1\]/    last = next((l for l in lines if l.startswith('verdict: ')), lines[-1])/"

# 2. The progress file: the name given, one line per lab, a reference run
# marked as such.  Mutant: every graded run written as the attendee's copy.
file() (
	rm -f "$T/ada.txt"
	progress "$1" OUT="$T/ada.txt" NAME='Ada Lovelace' >/dev/null 2>"$T/file.err" || { cat "$T/file.err"; exit 1; }
	sed 's/^written=....-..-..T..:..:..$/written=(now)/' "$T/ada.txt" >"$T/ada.norm"
	same "$D/ada.expected" "$T/ada.norm"
)
check "make progress OUT=FILE NAME=...: the file, one line per lab, a SOLUTION=1 run marked reference" \
	file scripts/progress.py "s/'what=' + t\['what'\]/'what=copy'/"

# 3. Without NAME=: user@host.  Mutant: the user alone.
defname() (
	rm -f "$T/def.txt"
	progress "$1" OUT="$T/def.txt" >/dev/null 2>&1 || exit 1
	want="name=$(id -un)@$(hostname | cut -d. -f1)"
	grep -qxF "$want" "$T/def.txt" || { echo "no line '$want' in:"; head -5 "$T/def.txt"; exit 1; }
)
check "make progress OUT=FILE without NAME=: the name is user@host" \
	defname scripts/progress.py "s/name = '%s@%s' % (getpass.getuser(), socket.gethostname().split('.')\[0\])/name = getpass.getuser()/"

# 4. The room's table: attendees x labs, a file of an older kit (fewer
# labs, comments), one name on two laptops told apart by file name.
# Mutant: a reference run shown as the attendee's pass.
roomcase() (
	cd "$D" && progress "$1" FROM=room >"$T/room.out" 2>"$T/room.err" || { cat "$T/room.err"; exit 1; }
	same "$D/room.expected" "$T/room.out"
)
check "make progress FROM=DIR: the room's table, attendees x labs, legend, a name met twice told apart" \
	roomcase scripts/progress.py "s/    if run\['what'\] == 'reference':/    if False:/"

# 5. What one laptop writes, the instructor's kit reads: the file of
# check 2 in a folder gives the cells of the attendee's view.  Mutant:
# the date written with a space, as the transcript has it.
roundtrip() (
	rm -rf "$T/rt" && mkdir -p "$T/rt"
	progress "$1" OUT="$T/rt/ada.txt" NAME='Ada Lovelace' >/dev/null 2>&1 || { echo "OUT= failed"; exit 1; }
	progress "$1" FROM="$T/rt" >"$T/rt.out" 2>&1 || { cat "$T/rt.out"; exit 1; }
	grep -Eq '^  Ada Lovelace +5/5 +3/6 +cc +1/4! +ref +\? +\. +2/2 +ng +2 ' "$T/rt.out" ||
		{ echo "Ada's row is not the attendee's view:"; cat "$T/rt.out"; exit 1; }
)
check "a file written by OUT= reads back with FROM=: the same cells as the attendee's view" \
	roundtrip scripts/progress.py "s/'graded=' + t\['graded'\].replace(' ', 'T')/'graded=' + t['graded']/"

# refused DIR WHAT GREP...: make progress FROM=DIR fails, prints nothing on
# stdout, names each GREP on stderr, and leaves DIR as it was.
refused() {
	local kit=$1 dir=$2 what=$3 g before out rc
	shift 3
	before=$(tree_sum "$dir")
	out=$(progress "$kit" FROM="$dir" 2>"$T/ref.err"); rc=$?
	[ $rc -ne 0 ] || { echo "$what: accepted (status 0)"; return 1; }
	[ -z "$out" ] || { echo "$what: printed a table anyway:"; echo "$out" | head -5; return 1; }
	for g in "$@"; do
		grep -qF -- "$g" "$T/ref.err" || { echo "$what: the error does not say '$g':"; cat "$T/ref.err"; return 1; }
	done
	[ "$before" = "$(tree_sum "$dir")" ] || { echo "$what: the folder changed"; return 1; }
}
# bad NAME SED: a room of ada.txt and bob.txt, plus NAME made of ada.txt by SED.
bad() {
	rm -rf "$T/bad" && mkdir -p "$T/bad" && cp "$D/room/ada.txt" "$D/room/bob.txt" "$T/bad/" &&
		sed -e "$2" "$D/room/ada.txt" >"$T/bad/$1"
}

# 6. A foreign file (a README, a compressed progress file) in the folder.
# Mutant: files that do not read are skipped in silence.
foreign() (
	bad README.md '1s/.*/# Notes for the room/'
	refused "$1" "$T/bad" "a README" "bad/README.md is not a progress file" "Take the file named out" || exit 1
	bad carol.txt '' && gzip -c "$D/room/bob.txt" >"$T/bad/carol.txt"
	refused "$1" "$T/bad" "a gzip" "bad/carol.txt is not a progress file" "it is not text" || exit 1
)
check "FROM=DIR with a foreign file (a README, a gzip): refused, the file named, nothing printed, DIR unchanged" \
	foreign scripts/progress.py 's/            errors.append(str(x))/            pass/'

# 7. A lab this kit does not have.  Mutant: such a line skipped.
unknownlab() (
	bad dan.txt 's/^lab=9 result=nograde/lab=12 result=nograde/'
	refused "$1" "$T/bad" "lab 12" "bad/dan.txt, line 14: lab 12 is no lab of this kit (its labs: 1, 2, 3, 4, 5, 6, 7, 8, 9)"
)
check "FROM=DIR with a file naming a lab this kit does not have: refused, file and line named" \
	unknownlab scripts/progress.py "s/            raise bad(i, 'lab %s is no lab of this kit/            continue; raise bad(i, 'lab %s is no lab of this kit/"

# 8. Numbers that do not add up (a hand-edited file).  Mutant: not checked.
addup() (
	bad eve.txt 's/^lab=2 result=fail passed=3 steps=6/lab=2 result=pass passed=7 steps=6/'
	refused "$1" "$T/bad" "passed=7 steps=6" "bad/eve.txt, line 7: passed=7 steps=6 do not add up for result=pass"
)
check "FROM=DIR with passed= over steps=: refused, file and line named" \
	addup scripts/progress.py "s/            if p > s or (r == 'pass' and not p == s > 0):/            if False:/"

# 9. A line cut short (a file copied before it was whole) and a lab listed
# twice.  Mutant: a later line of a lab replaces the earlier one.
cutshort() (
	bad fay.txt 's/^\(lab=4 result=trouble passed=1\).*/\1/'
	refused "$1" "$T/bad" "a cut line" "bad/fay.txt, line 9: a lab with result=trouble has the keys" || exit 1
	bad gus.txt '$a lab=1 result=never'
	refused "$1" "$T/bad" "lab 1 twice" "bad/gus.txt, line 15: lab 1 is listed twice" || exit 1
)
check "FROM=DIR with a lab line cut short, or a lab listed twice: refused, file and line named" \
	cutshort scripts/progress.py "s/        if num in runs:/        if False:/"

# 10. A file without a name, and a folder inside the folder.  Mutant: a
# file without name= named after the file.
noname() (
	bad hal.txt '/^name=/d'
	refused "$1" "$T/bad" "no name=" "bad/hal.txt has no name= line" || exit 1
	bad ivy.txt '' && rm "$T/bad/ivy.txt" && mkdir "$T/bad/old"
	refused "$1" "$T/bad" "a folder" "bad/old is not a file" || exit 1
)
check "FROM=DIR with a file without name=, or a folder in it: refused, named" \
	noname scripts/progress.py "s/        raise BadInput('%s has no name= line: whose is it?' % shown)/        name = os.path.basename(path)/"

# 11. A transcript that is not one: refused, named; OUT= not written, and
# an earlier progress file left as it was.  Mutant: such a lab shown as
# never run.
badrun() (
	PB=$T/b11 && rm -rf "$PB" && cp -r "$B" "$PB" && export PB
	printf 'kit-progress 1\nname=old\n' >"$T/old.txt" && cp "$T/old.txt" "$T/old.before"
	head -c 300 /dev/urandom | tr -d '\n' >"$PB/labs/03/last-run.txt"
	out=$(progress "$1" OUT="$T/old.txt" 2>"$T/e11"); rc=$?
	[ $rc -ne 0 ] && [ -z "$out" ] || { echo "a binary transcript: status $rc, output: $out"; exit 1; }
	grep -qF "labs/03/last-run.txt is not a transcript of make lab" "$T/e11" || { echo "not named:"; cat "$T/e11"; exit 1; }
	cmp -s "$T/old.txt" "$T/old.before" || { echo "OUT= was written"; exit 1; }
	printf 'lab 3 (Gamma), graded 2026-12-05 10:31:40\n' >"$PB/labs/03/last-run.txt"
	progress "$1" 2>"$T/e11" >/dev/null && { echo "a transcript without graded: accepted"; exit 1; }
	grep -qF 'labs/03/last-run.txt has no line "graded: ..."' "$T/e11" || { echo "not named:"; cat "$T/e11"; exit 1; }
	exit 0
)
check "a corrupt transcript in build/labs: refused, named; OUT= not written (the file there kept)" \
	badrun scripts/progress.py "s/        t = transcript(path, shown)/        t = None\n        try: t = transcript(path, shown)\n        except BadInput: pass\n        if t is None: out[num] = None; continue/"

# 12. Another lab's transcript in a lab's folder (a copy by hand).
# Mutant: not compared.
otherlab() (
	PB=$T/b12 && rm -rf "$PB" && cp -r "$B" "$PB" && export PB
	cp "$PB/labs/01/last-run.txt" "$PB/labs/07/" 2>/dev/null || { mkdir -p "$PB/labs/07" && cp "$PB/labs/01/last-run.txt" "$PB/labs/07/"; }
	progress "$1" >/dev/null 2>"$T/e12" && { echo "lab 1's transcript as lab 7's: accepted"; exit 1; }
	grep -qF "labs/07/last-run.txt is the transcript of lab 1, not of lab 7" "$T/e12" || { cat "$T/e12"; exit 1; }
)
check "build/labs/07 holding lab 1's transcript: refused, named" \
	otherlab scripts/progress.py "s/        if t\['lab'\] != num:/        if False:/"

# 13. OUT= naming a file that is not a progress file: kept as it was.
# Mutant: overwritten.
keepout() (
	printf 'my notes\n' >"$T/notes.txt"
	progress "$1" OUT="$T/notes.txt" >/dev/null 2>"$T/e13" && { echo "OUT=notes.txt: status 0"; exit 1; }
	[ "$(cat "$T/notes.txt")" = "my notes" ] || { echo "notes.txt was overwritten"; exit 1; }
	grep -qF "notes.txt exists and is not a progress file" "$T/e13" || { cat "$T/e13"; exit 1; }
)
check "OUT= naming an existing file that is not a progress file: refused, the file kept" \
	keepout scripts/progress.py "s/        if first.rstrip(b'\\\\n') != MAGIC.encode():/        if False:/"

# 14. A NAME that would break the file (a line break in it).  Mutant: not
# checked.
badname() (
	rm -f "$T/n.txt"
	progress "$1" OUT="$T/n.txt" NAME=$'Ada\nlab=1 result=never' >/dev/null 2>"$T/e14" && { echo "accepted"; exit 1; }
	[ ! -e "$T/n.txt" ] || { echo "the file was written"; exit 1; }
	grep -qF "give another NAME=" "$T/e14" || { cat "$T/e14"; exit 1; }
)
check "NAME= with a line break: refused, nothing written" \
	badname scripts/progress.py "s/                if not good_name(name):/                if False:/"

# 15. The driver's transcript head (scripts/lab/report.sh) records the
# kernel flavour and the boots as lab.conf names them, an empty entry as
# the kernel's default, and results.py reads them back.  Mutant: the
# driver without the flavour line.
head_() (
	kit=$1
	out=$(cd "$T" && KIT=$kit LOGS=$T/logs NUM=6 NN=06 TITLE="Zeta (kernel side)" FLAVOUR=lab T=$T/head.txt bash -c '
		echo "int x;" >src.c
		rel() { printf "%s\n" "$1"; }
		. "$KIT/scripts/lab/report.sh"
		BOOTS=(default "" selinux-apparmor)
		transcript_head src.c work && "$KIT/scripts/results.py" transcript "$T"' 2>&1) || { echo "$out"; exit 1; }
	for want in 'lab=6' 'title=Zeta (kernel side)' 'what=copy' 'flavour=lab' 'boots=default, default, selinux-apparmor' 'result=stopped'; do
		grep -qxF "$want" <<<"$out" || { echo "no '$want' in:"; echo "$out"; exit 1; }
	done
)
check "the transcript's head (scripts/lab/report.sh) records flavour and boots; results.py reads them back" \
	head_ scripts/lab/report.sh '/echo "flavour: /d'
