#!/usr/bin/env bash
# make progress, offline (TAP): the attendee's view of stored records of
# make lab's runs (tests/data/progress/runs/NN.json, put where make lab
# writes them, build/labs/NN/last-run.json, for the stand-in labs of
# tests/data/progress/labs/) and of transcripts of kits older than the
# record (runs/NN.txt, as build/labs/NN/last-run.txt), the progress file
# it writes, the room's table from a folder of such files
# (tests/data/progress/room/), the refusals of bad input, and the head of
# the record the lab driver writes (scripts/lab/report.sh: flavour and
# boots).  No QEMU, no network.
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

nm=0
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

# mutant FILE SED: a scratch kit whose FILE (under scripts/) is FILE with
# SED applied; prints its root.  A SED that changes nothing is an error.
mutant() {
	local m=$T/mutant-$((nm += 1))
	mkdir -p "$m/configs" && cp -r "$K/scripts" "$m/" && cp "$K/configs/stacks.conf" "$m/configs/" || return 1
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
		diag 12 <<<"$e"
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
		[ -z "${SHOW_MUTANTS:-}" ] || diag "${SHOW_MUTANTS_LINES:-6}" <<<"$e" | sed 's/^# /#   mutant: /'
	fi
	rm -rf "$m"
}

# The stand-in attendee's build/: the stored records and older kits'
# transcripts where make lab writes them (lab 7 never run).
B=$T/build
for f in "$D"/runs/*.json "$D"/runs/*.txt; do
	r=$(basename "$f") && mkdir -p "$B/labs/${r%.*}" && cp "$f" "$B/labs/${r%.*}/last-run.${r##*.}"
done
# progress KIT VAR=VALUE...: make progress with that kit's scripts, on the
# stand-in labs and build/, joined to no room (make join's state: none).
progress() {
	local kit=$1
	shift
	env -u OUT -u FROM -u NAME BUILD="${PB:-$B}" LABS_DIR="$D/labs" KIT_ROOM_HOME="$T/no-room" "$@" "$kit/scripts/progress/progress.sh"
}
# same WANT GOT: say the difference.
same() { diff -u "$1" "$2" >&2 && return 0; echo "(above: - expected, + seen)" >&2; return 1; }
# unchanged DIR SUM: DIR's names and contents are those of SUM.
tree_sum() { (cd "$1" && find . -printf '%p %s\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum); }

echo "1..21"

# 1. The attendee's view: every verdict make lab writes, from records and
# from older kits' transcripts, the verdict of a transcript taken only
# from its last line (lab 2's boot shows a program's own "verdict: PASS"
# line), a lab never run, a transcript older than the flavour and boots
# lines.  Mutant: the first verdict line believed.
view() (
	progress "$1" >"$T/view.out" 2>"$T/view.err" || { cat "$T/view.err"; exit 1; }
	same "$D/mine.expected" "$T/view.out"
)
check "the attendee's view: each lab's verdict, steps, when, kernel, boots; never run; a program's own verdict line not believed" \
	view scripts/lib/transcript.py "s/    last = lines\[-1\]/    last = next((l for l in lines if l.startswith('verdict: ')), lines[-1])/"

# 2. The progress file: the name given, one line per lab, a reference run
# marked as such.  Mutant: every graded run written as the attendee's copy.
file() (
	rm -f "$T/ada.txt"
	progress "$1" OUT="$T/ada.txt" NAME='Ada Lovelace' >/dev/null 2>"$T/file.err" || { cat "$T/file.err"; exit 1; }
	sed 's/^written=....-..-..T..:..:..$/written=(now)/' "$T/ada.txt" >"$T/ada.norm"
	same "$D/ada.expected" "$T/ada.norm"
)
check "make progress OUT=FILE NAME=...: the file, one line per lab, a SOLUTION=1 run marked reference" \
	file scripts/progress/progress.py "s/'what=' + t\['graded'\]/'what=copy'/"

# 3. Without NAME=: user@host.  Mutant: the user alone.
defname() (
	rm -f "$T/def.txt"
	progress "$1" OUT="$T/def.txt" >/dev/null 2>&1 || exit 1
	want="name=$(id -un)@$(hostname | cut -d. -f1)"
	grep -qxF "$want" "$T/def.txt" || { echo "no line '$want' in:"; head -5 "$T/def.txt"; exit 1; }
)
check "make progress OUT=FILE without NAME=: the name is user@host" \
	defname scripts/progress/progress.py "s/name = '%s@%s' % (getpass.getuser(), socket.gethostname().split('.')\[0\])/name = getpass.getuser()/"

# 4. The room's table: attendees x labs, a file of an older kit (fewer
# labs, comments), one name on two laptops told apart by file name.
# Mutant: a reference run shown as the attendee's pass.
roomcase() (
	cd "$D" && progress "$1" FROM=room >"$T/room.out" 2>"$T/room.err" || { cat "$T/room.err"; exit 1; }
	same "$D/room.expected" "$T/room.out"
)
check "make progress FROM=DIR: the room's table, attendees x labs, legend, a name met twice told apart" \
	roomcase scripts/progress/progress.py "s/    if run\['what'\] == 'reference':/    if False:/"

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
	roundtrip scripts/progress/progress.py "s/'graded=' + t\['when'\].replace(' ', 'T')/'graded=' + t['when']/"

# refused DIR WHAT GREP...: make progress FROM=DIR prints the table of
# the good files (Ada's and Bob's rows), then, under it, the refused
# ones, each GREP among them; says nothing of "Nothing was printed"; and
# leaves DIR as it was.  (Before issue 41, one bad file stopped the whole
# table.)
refused() {
	local kit=$1 dir=$2 what=$3 g before rc
	shift 3
	before=$(tree_sum "$dir")
	progress "$kit" FROM="$dir" >"$T/ref.out" 2>&1; rc=$?
	[ $rc -eq 0 ] || { echo "$what: status $rc, no table:"; head -5 "$T/ref.out"; return 1; }
	grep -q '^  Ada Lovelace  ' "$T/ref.out" && grep -q '^  bob@debian-07  ' "$T/ref.out" ||
		{ echo "$what: the good files' rows are not all in the table:"; cat "$T/ref.out"; return 1; }
	! grep -q 'Nothing was printed' "$T/ref.out" || { echo "$what: 'Nothing was printed'"; return 1; }
	sed -n '/^  Not in the table: /,$p' "$T/ref.out" >"$T/ref.err"
	for g in "$@"; do
		grep -qF -- "$g" "$T/ref.err" || { echo "$what: the list under the table does not say '$g':"; cat "$T/ref.out"; return 1; }
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
	refused "$1" "$T/bad" "a README" "bad/README.md is not a progress file" "take each out of the folder" || exit 1
	bad carol.txt '' && gzip -c "$D/room/bob.txt" >"$T/bad/carol.txt"
	refused "$1" "$T/bad" "a gzip" "bad/carol.txt is not a progress file" "it is not text" || exit 1
)
check "FROM=DIR with a foreign file (a README, a gzip): the good rows shown, the file listed under them, DIR unchanged" \
	foreign scripts/progress/progress.py 's/            errors.append(str(x))/            pass/'

# 7. A lab this kit does not have.  Mutant: such a line skipped.
unknownlab() (
	bad dan.txt 's/^lab=9 result=nograde/lab=12 result=nograde/'
	refused "$1" "$T/bad" "lab 12" "bad/dan.txt, line 14: lab 12 is no lab of this kit (its labs: 1, 2, 3, 4, 5, 6, 7, 8, 9)"
)
check "FROM=DIR with a file naming a lab this kit does not have: listed under the table, file and line named" \
	unknownlab scripts/progress/progress.py "s/        raise ValueError('lab %s is no lab of this kit/        return 0, {}; raise ValueError('lab %s is no lab of this kit/"

# 8. Numbers that do not add up (a hand-edited file).  Mutant: not checked.
addup() (
	bad eve.txt 's/^lab=2 result=fail passed=3 steps=6/lab=2 result=pass passed=7 steps=6/'
	refused "$1" "$T/bad" "passed=7 steps=6" "bad/eve.txt, line 7: passed=7 steps=6 do not add up for result=pass"
)
check "FROM=DIR with passed= over steps=: listed under the table, file and line named" \
	addup scripts/progress/progress.py "s/        if p > s or (r == 'pass' and not p == s > 0):/        if False:/"

# 9. A line cut short (a file copied before it was whole) and a lab listed
# twice.  Mutant: a later line of a lab replaces the earlier one.
cutshort() (
	bad fay.txt 's/^\(lab=4 result=trouble passed=1\).*/\1/'
	refused "$1" "$T/bad" "a cut line" "bad/fay.txt, line 9: a lab with result=trouble has the keys" || exit 1
	bad gus.txt '$a lab=1 result=never'
	refused "$1" "$T/bad" "lab 1 twice" "bad/gus.txt, line 15: lab 1 is listed twice" || exit 1
)
check "FROM=DIR with a lab line cut short, or a lab listed twice: listed under the table, file and line named" \
	cutshort scripts/progress/progress.py "s/        if num in runs:/        if False:/"

# 10. A file without a name, and a folder inside the folder.  Mutant: a
# file without name= named after the file.
noname() (
	bad hal.txt '/^name=/d'
	refused "$1" "$T/bad" "no name=" "bad/hal.txt has no name= line" || exit 1
	bad ivy.txt '' && rm "$T/bad/ivy.txt" && mkdir "$T/bad/old"
	refused "$1" "$T/bad" "a folder" "bad/old is a folder, not a file" || exit 1
)
check "FROM=DIR with a file without name=, or a folder in it: listed under the table, named" \
	noname scripts/progress/progress.py "s/        raise BadInput('%s has no name= line: whose is it?' % shown)/        name = os.path.basename(path)/"

# 11. A record or an older kit's transcript that is not one: refused,
# named; OUT= not written, and an earlier progress file left as it was.
# Mutant: such a lab shown as never run.
badrun() (
	PB=$T/b11 && rm -rf "$PB" && cp -r "$B" "$PB" && export PB
	printf 'kit-progress 1\nname=old\n' >"$T/old.txt" && cp "$T/old.txt" "$T/old.before"
	head -c 300 /dev/urandom | tr -d '\n' >"$PB/labs/03/last-run.json"
	out=$(progress "$1" OUT="$T/old.txt" 2>"$T/e11"); rc=$?
	[ $rc -ne 0 ] && [ -z "$out" ] || { echo "a binary record: status $rc, output: $out"; exit 1; }
	grep -qF "labs/03/last-run.json is not a record of make lab" "$T/e11" || { echo "not named:"; cat "$T/e11"; exit 1; }
	cmp -s "$T/old.txt" "$T/old.before" || { echo "OUT= was written"; exit 1; }
	sed 's/"passed": 5,/"passed": 6,/' "$D/runs/01.json" >"$PB/labs/03/last-run.json"
	progress "$1" 2>"$T/e11" >/dev/null && { echo "a record of 6/5 steps: accepted"; exit 1; }
	grep -qF 'labs/03/last-run.json: passed=6 steps=5 do not add up for pass' "$T/e11" || { echo "not named:"; cat "$T/e11"; exit 1; }
	cp "$D/runs/03.json" "$PB/labs/03/last-run.json"
	printf 'lab 4 (Delta), graded 2026-12-05 10:31:40\n' >"$PB/labs/04/last-run.txt"
	progress "$1" 2>"$T/e11" >/dev/null && { echo "a transcript without graded: accepted"; exit 1; }
	grep -qF 'labs/04/last-run.txt has no line "graded: ..."' "$T/e11" || { echo "not named:"; cat "$T/e11"; exit 1; }
	exit 0
)
check "a corrupt record, or older transcript, in build/labs: refused, named; OUT= not written (the file there kept)" \
	badrun scripts/progress/progress.py "s/        t = load_last(folder, rel(folder))/        t = None\n        try: t = load_last(folder, rel(folder))\n        except BadInput: pass/"

# 12. Another lab's record in a lab's folder (a copy by hand), or another
# lab's transcript of an older kit.  Mutant: not compared.
otherlab() (
	PB=$T/b12 && rm -rf "$PB" && cp -r "$B" "$PB" && export PB
	mkdir -p "$PB/labs/07" && cp "$PB/labs/01/last-run.json" "$PB/labs/07/"
	progress "$1" >/dev/null 2>"$T/e12" && { echo "lab 1's record as lab 7's: accepted"; exit 1; }
	grep -qF "labs/07 holds the run of lab 1, not of lab 7" "$T/e12" || { cat "$T/e12"; exit 1; }
	rm "$PB/labs/07/last-run.json" && cp "$PB/labs/02/last-run.txt" "$PB/labs/07/"
	progress "$1" >/dev/null 2>"$T/e12" && { echo "lab 2's transcript as lab 7's: accepted"; exit 1; }
	grep -qF "labs/07 holds the run of lab 2, not of lab 7" "$T/e12" || { cat "$T/e12"; exit 1; }
)
check "build/labs/07 holding lab 1's record (lab 2's older transcript): refused, named" \
	otherlab scripts/progress/progress.py "s/        if t is not None and t\['lab'\] != num:/        if False:/"

# 13. OUT= naming a file that is not a progress file: kept as it was.
# Mutant: overwritten.
keepout() (
	printf 'my notes\n' >"$T/notes.txt"
	progress "$1" OUT="$T/notes.txt" >/dev/null 2>"$T/e13" && { echo "OUT=notes.txt: status 0"; exit 1; }
	[ "$(cat "$T/notes.txt")" = "my notes" ] || { echo "notes.txt was overwritten"; exit 1; }
	grep -qF "notes.txt exists and is not a progress file" "$T/e13" || { cat "$T/e13"; exit 1; }
)
check "OUT= naming an existing file that is not a progress file: refused, the file kept" \
	keepout scripts/progress/progress.py "s/        if first.rstrip(b'\\\\n') != MAGIC.encode():/        if False:/"

# 14. A NAME that would break the file (a line break in it).  Mutant: not
# checked.
badname() (
	rm -f "$T/n.txt"
	progress "$1" OUT="$T/n.txt" NAME=$'Ada\nlab=1 result=never' >/dev/null 2>"$T/e14" && { echo "accepted"; exit 1; }
	[ ! -e "$T/n.txt" ] || { echo "the file was written"; exit 1; }
	grep -qF "give another NAME=" "$T/e14" || { cat "$T/e14"; exit 1; }
)
check "NAME= with a line break: refused, nothing written" \
	badname scripts/progress/progress.py "s/                if not good_name(name):/                if False:/"

# 15. The driver's record of a run as it begins (scripts/lab/report.sh
# record_start) holds the kernel flavour and the boots as lab.conf names
# them, an empty entry as the kernel's default, and results.py reads
# them back; its transcript has the head.  Mutant: the driver naming the
# normal flavour whatever the lab's.
head_() (
	kit=$1
	out=$(cd "$T" && rm -rf out && mkdir out && KIT=$kit OUT=$T/out LOGS=$T/logs NUM=6 NN=06 TITLE="Zeta (kernel side)" FLAVOUR=lab bash -c '
		echo "int x;" >src.c
		rel() { printf "%s\n" "$1"; }
		boot_label() { echo "label $1"; }
		. "$KIT/scripts/lab/report.sh"
		BOOTS=(default "" selinux-apparmor)
		record_start src.c work && "$KIT/scripts/guest/results.py" record show "$OUT/last-run.json"' 2>&1) || { echo "$out"; exit 1; }
	for want in 'lab=6' 'title=Zeta (kernel side)' 'graded=copy' 'flavour=lab' 'boots=default, default, selinux-apparmor' 'verdict=stopped'; do
		grep -qxF "$want" <<<"$out" || { echo "no '$want' in:"; echo "$out"; exit 1; }
	done
	grep -qxF 'flavour: lab' "$T/out/last-run.txt" || { echo "the transcript's head:"; cat "$T/out/last-run.txt"; exit 1; }
)
check "the record's head (scripts/lab/report.sh) holds flavour and boots; results.py reads them back" \
	head_ scripts/lab/report.sh 's/flavour="$FLAVOUR"/flavour=normal/'

# Issue 41: an attendee's file is hostile input.  Each case below got
# through on the code before it (shown in the commit that added them).

# nocontrol FILE: FILE has no byte a terminal would act on: C0 controls
# but tab and newline, DEL, the C1 controls (UTF-8 \xc2\x80-\x9f), the
# bidi embeddings, overrides and isolates (U+202A-202E, U+2066-2069).
nocontrol() {
	! LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1" >"$T/ctl" ||
		{ echo "raw control or bidi characters reach the terminal, in:"; sed -n l "$T/ctl" | head -5; return 1; }
}

# 16. Terminal escapes in lab= and result= values, in a file's own name
# (shown when two files give one name), a bidi override and a C1 CSI in
# a file name: every one shown escaped, in quotes.  Mutant: quoted()
# passes its text through.
escapes() (
	bad ada2.txt 's/^lab=1 .*/lab=1\x1b]0;pwned\x07\x1b[2J/'
	cp "$D/room/ada.txt" "$T/bad/$(printf 'ada\033]52;c;cm0gLXJmIH4=\007.txt')"
	sed 's/^lab=3 .*/lab=3 result=\x1b[2J\x1b[HThe-room:all-pass/' "$D/room/ada.txt" >"$T/bad/$(printf 'evil\342\200\256txt.exe')"
	cp "$T/bad/bob.txt" "$T/bad/$(printf 'c1\302\233J.txt')" && printf 'lab=5 result=\033[41mpass\n' >>"$T/bad/$(printf 'c1\302\233J.txt')"
	progress "$1" FROM="$T/bad" >"$T/esc.out" 2>&1 || { cat "$T/esc.out"; exit 1; }
	nocontrol "$T/esc.out" || exit 1
	for g in 'lab "1\033]0;pwned\a\033[2J" is no lab' 'Ada Lovelace ("ada\033]52;c;cm0gLXJmIH4=\a.txt")' \
		'bad/evil\u202etxt.exe", line 8' 'result="\033[2J\033[HThe-room:all-pass" is none of' 'bad/c1\u009bJ.txt"' 'result="\033[41mpass" is none of'; do
		grep -qF -- "$g" "$T/esc.out" || { echo "not shown escaped: $g"; sed -n l "$T/esc.out"; exit 1; }
	done
)
check "FROM=DIR: terminal escapes (OSC title, OSC 52, clear screen, C1 CSI) and a bidi override in values and file names shown escaped" \
	escapes scripts/lib/quote.py 's/^def quoted(text, limit=None):$/&\n    return text/'

# 17. Symlinks (to a secret file, to a good progress file) and a FIFO:
# refused without being followed or opened, the secret never shown, no
# hang.  Mutant: the name's type not checked and the link followed.
links() (
	bad dan.txt '' && rm "$T/bad/dan.txt"
	printf 'API_TOKEN=s3cr3t-41\n' >"$T/secret.txt"
	ln -s "$T/secret.txt" "$T/bad/eve.txt"
	ln -s "$D/room/cy.txt" "$T/bad/cy.txt"
	mkfifo "$T/bad/fay.txt"
	refused "$1" "$T/bad" "links" "bad/eve.txt is a symbolic link, not a file" "bad/cy.txt is a symbolic link" \
		"bad/fay.txt is a FIFO, not a file" || exit 1
	! grep -q 's3cr3t' "$T/ref.out" || { echo "the secret is shown:"; grep s3cr3t "$T/ref.out"; exit 1; }
	! grep -q '^  cy  ' "$T/ref.out" || { echo "the linked file's row is in the table"; exit 1; }
)
check "FROM=DIR: a symlink (to a secret, to a progress file) or a FIFO refused unread, the secret not shown, no hang" \
	links scripts/progress/progress.py 's/st = os.lstat(path)/st = os.stat(path)/; s/os.O_NOFOLLOW | //'

# 18. A file that is not a progress file: none of its content shown.
# Mutant: its first line shown, as before issue 41.
nocontent() (
	bad notes.txt '' && printf 'API_TOKEN=s3cr3t-41\nmore\n' >"$T/bad/notes.txt"
	refused "$1" "$T/bad" "notes" 'bad/notes.txt is not a progress file of make progress: its first line is not "kit-progress 1"' || exit 1
	! grep -q 's3cr3t' "$T/ref.out" || { echo "its content is shown:"; grep s3cr3t "$T/ref.out"; exit 1; }
)
check "FROM=DIR: a file that is not a progress file is named, none of its content shown" \
	nocontent scripts/progress/progress.py 's/its first line is not "%s"/its first line is %s, not "%s"/; s/% (shown, MAGIC))$/% (shown, lines[0], MAGIC))/'

# 19, 20. A result's steps and boots against the lab's: stand-in lab 2
# has 6 steps and 3 boots; "5/5 pass" of it, or "6/6" in one boot, is no
# pass.  Mutants: not compared.
claimsteps() (
	bad eve.txt 's/^lab=2 result=fail passed=3 steps=6/lab=2 result=pass passed=5 steps=5/'
	refused "$1" "$T/bad" "5/5 of lab 2" "bad/eve.txt, line 7: steps=5, but lab 2 has 6 steps" || exit 1
	grep -Eq '^  all pass +2 +1 ' "$T/ref.out" || { echo "the claim counts as a pass:"; cat "$T/ref.out"; exit 1; }
)
check "FROM=DIR: a file claiming 5/5 pass for a lab of 6 steps is listed, not counted as a pass" \
	claimsteps scripts/progress/progress.py 's/        if s != labs\[num\].steps:/        if False:/'
claimboots() (
	bad eve.txt 's/^lab=2 result=fail passed=3 steps=6 \(.*\) boots=.*/lab=2 result=pass passed=6 steps=6 \1 boots=default/'
	refused "$1" "$T/bad" "6/6 of lab 2 in one boot" "bad/eve.txt, line 7: boots=default, but lab 2 boots default,selinux-alone,none" || exit 1
)
check "FROM=DIR: a file claiming a pass in other boots than the lab's is listed, not counted" \
	claimboots scripts/progress/progress.py "s/        if run\['boots'\] != '?' and run\['boots'\].split(',') != labs\[num\].boots:/        if False:/"

# 21. The kit's own lab 12 (6 steps, 2 boots), the issue's case: "5/5
# pass" refused, the right count accepted.  Mutant: the steps not
# counted from the solution's TODO markers.
lab12() (
	rm -rf "$T/l12" && mkdir -p "$T/l12"
	w='graded=2026-12-05T10:00:00 what=copy kernel=normal boots=default,selinux-apparmor'
	printf 'kit-progress 1\nname=Mallory\nlab=12 result=pass passed=5 steps=5 %s\n' "$w" >"$T/l12/mallory.txt"
	printf 'kit-progress 1\nname=Ada\nlab=12 result=pass passed=6 steps=6 %s\n' "$w" >"$T/l12/ada.txt"
	progress "$1" LABS_DIR="$K/labs" FROM="$T/l12" >"$T/l12.out" 2>&1 || { cat "$T/l12.out"; exit 1; }
	grep -qF 'l12/mallory.txt, line 3: steps=5, but lab 12 has 6 steps' "$T/l12.out" &&
		grep -Eq '^  Ada +(\. +){11}6/6 +(\. +)*1 ' "$T/l12.out" || { cat "$T/l12.out"; exit 1; }
)
check "FROM=DIR with the kit's labs: \"5/5 pass\" of lab 12 (6 steps, 2 boots) refused, 6/6 counted" \
	lab12 scripts/lab/conf.sh 's/"$(count_steps)"/5/'
