#!/usr/bin/env bash
# make lab-check [N]: check every lab (or lab N) offline, in seconds: no
# kernel build, no guest.  What a lab must be is written once, in
# labs/README.md ("How a lab is made"); this checks it:
#
#   conf     lab.conf, through its one reader (load_conf): known keys, good
#            values, BOOTS' words stacks of configs/stacks.conf (strictly:
#            without the tree too), the file and line of the first error;
#            each NEEDS text is in the series' headers (a lab on the
#            kit's kernel)
#   files    README.md, grade.c, solution/SOURCE; lab.h (KIND=user)
#   grader   grade.c defines lab_banner() and lab_show() (the harness,
#            labs/common/grader.h, calls both) and one STEP(n, ...) for
#            each step 1..S, S being the solution's highest TODO
#   markers  the solution's TODO n markers are 1..S, and scripts/lab/lab-skel.sh
#            makes the skeleton of every STEP=k (make skel N STEP=k), with
#            TODO k's placeholder in it; a policy's placeholder line
#            ("# END TODO n: LINE") looks like the line it stands for: the
#            same indentation, its words in the same columns where the
#            solved line pads them (nothing shows which lines to change)
#   compile  (KIND=user) the solution, every skeleton and every mistake,
#            each linked with the grader: C11, -Wall -Wextra -Werror,
#            static, as make lab builds them (scripts/guest/guest-cc.sh), against
#            the series' UAPI headers made from patches/ without a kernel
#            (scripts/kernel/series-uapi.sh); a lab on the reference kernel
#            (KERNEL=mainline) only when build/mainline/usr/include is
#            there.  KIND=kernel and KIND=policy: the grader alone (their
#            SOURCE needs the kernel's tree: Kbuild, or the policy
#            compilers built from it; tests/host/labs.sh builds them)
#   mistakes every mistakes/NAME.c or NAME.sed has "expect:" lines that
#            tests/host/lab-hints.sh can read, of steps 1..S; a .sed changes
#            the solution (given-NAME.sed: given/ too)
#   readme   "# Lab N: ...", the sections Goal, Background, Steps, Hints and
#            a discussion in that order, one numbered item of Steps per
#            step, every relative link to a file (and heading) that exists
#   index    labs/README.md's table has the lab's row: its number, its
#            TITLE (up to its first colon: the row may say more), "MINUTES
#            min", and BOOTS as the boots column's names; and no row is
#            there for a lab that does not exist
#
# Prints one line per lab ("ok" and its time, or its problems, each naming
# the file) and exits 1 if any lab has a problem.  LABS_DIR: another labs/
# folder (the tests).  checkpatch is not run: it is the tree's
# (tests/host/checkpatch.sh checks the labs' C once the tree is there).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
. "$KIT/scripts/guest/stacks.sh"
. "$KIT/scripts/lab/conf.sh"
. "$KIT/scripts/lab/build.sh"	# CFLAGS_LAB: the flags make lab adds for the attendee's file

LABS=${LABS_DIR:-$KIT/labs}
export LAB_CHECK=1	# load_conf: BOOTS checked strictly
WORK=$BUILD/lab-check
mkdir -p "$WORK"
UAPI=$WORK/uapi
"$KIT/scripts/kernel/series-uapi.sh" "$UAPI" || exit 1

PROBLEMS=()
problem() { PROBLEMS+=("$*"); }
now() { date +%s.%N; }

# The highest n of the solution's TODO markers, and all of them, sorted.
todo_numbers() { grep -rhoE '(/\*|#) TODO [0-9]+:' "$SOL" | sed -E 's|.* ([0-9]+):|\1|' | sort -n; }

# check_needs_offline: each NEEDS "header|text|why" of a lab on the kit's
# kernel is in the series' headers (make lab checks the same in the
# built kernel's, check_needs).
check_needs_offline() {
	local n h t why f
	[ -z "$KERNEL" ] || return 0
	for n in "${NEEDS[@]}"; do
		IFS='|' read -r h t why <<<"$n"
		f=$UAPI/$h
		[ -f "$f" ] || f=$GUEST_SYSINC/$h
		[ -f "$f" ] || f=$GUEST_ARCHINC/$h
		grep -q -- "$t" "$f" 2>/dev/null ||
			problem "$(rel "$LDIR")/lab.conf:$(conf_line NEEDS): NEEDS '$t' in <$h>, and the series' headers (scripts/kernel/series-uapi.sh) do not have it: fix the text, or the patch it names ($why)"
	done
}

check_files() {
	local f
	for f in README.md grade.c; do
		[ -f "$LDIR/$f" ] || problem "$(rel "$LDIR")/$f is missing (every lab has it: labs/README.md, \"How a lab is made\")"
	done
	kind_check_files	# a user-space lab: lab.h
}

check_grader() {
	local g=$LDIR/grade.c fn steps want
	[ -f "$g" ] || return 0
	for fn in lab_banner lab_show; do
		grep -qE "^static void $fn\(void\)" "$g" ||
			problem "$(rel "$g") has no 'static void $fn(void)': the harness (labs/common/grader.h) calls $fn() (lab_banner: the boot's banner before the steps; lab_show: what the functions return, the grader run without --grade)"
	done
	steps=$(grep -oE '^STEP\([0-9]+,' "$g" | tr -dc '0-9\n' | sort -n | paste -sd' ')
	want=$(seq 1 "$S" | paste -sd' ')
	[ "$steps" = "$want" ] ||
		problem "$(rel "$g") has STEP(n, ...) for steps '${steps:-none}', and the solution's TODO markers make steps $want: one STEP per TODO"
}

check_markers() {
	local nums k sk
	# (a policy lab's step may have a TODO in several files: once in each)
	nums=$(todo_numbers | uniq | paste -sd' ')
	[ -n "$nums" ] && [ "$nums" = "$(seq 1 "$S" | paste -sd' ')" ] ||
		{ problem "$(rel "$SOL"): the TODO markers number the steps '${nums:-none}'; they must be 1 to $S, none left out"; return 1; }
	for k in $(seq 1 "$S"); do
		sk=$WORK/$NN/skel-$k
		[ -d "$SOL" ] || sk+=.c
		if ! "$KIT/scripts/lab/lab-skel.sh" "$SOL" "$k" "$sk" 2>"$WORK/$NN/skel.err"; then
			problem "make skel $NUM STEP=$k fails: $(sed "s|$KIT/||g" "$WORK/$NN/skel.err" | head -2 | paste -sd' ')"
			continue
		fi
		grep -rqE "(/\*|#) TODO $k:" "$sk" ||
			problem "make skel $NUM STEP=$k has no 'TODO $k:' marker left for the attendee"
		[ -d "$SOL" ] || grep -qE "LAB_TODO(_NULL)?\($k\)" "$sk" ||
			problem "make skel $NUM STEP=$k has no LAB_TODO($k) placeholder (the grader's hint needs it)"
		SKELS+=("$sk")
	done
	[ ! -d "$SOL" ] || check_placeholders
}

# check_placeholders: in a policy lab's solution, each "# END TODO n:
# LINE" prints LINE with the marker's indentation (scripts/lab/lab-skel.sh);
# it must start where the block's first rule does, and where the file
# pads its rules' second words into a column (landlock.rules), have its
# second word in that column too.
check_placeholders() {
	local f msg
	while IFS= read -r -d '' f; do
		while IFS= read -r msg; do
			problem "$(rel "$f"):$msg"
		done < <(awk '
			function col2(s) { return match(s, /^[ \t]*[^ \t]+[ \t]+/) ? RLENGTH : 0 }
			function padded(s) { return match(s, /^[ \t]*[^ \t]+[ \t][ \t]+[^ \t]/) }
			function ind(s) { match(s, /^[ \t]*/); return RLENGTH }
			FNR == NR { if (!/^[ \t]*#/ && padded($0)) aligned[col2($0)] = 1; next }
			/^[ \t]*# TODO [0-9]+: / { blk = 1; solved = ""; next }
			blk && /^[ \t]*# END TODO [0-9]+ *: / {
				pre = $0; sub(/#.*/, "", pre)
				ph = $0; sub(/^[ \t]*# END TODO [0-9]+ *: /, "", ph)
				line = pre ph
				if (solved != "" && ind(line) != ind(solved))
					printf "%d: the placeholder \"%s\" is indented %d, the line it stands for %d: the skeleton shows which line to change\n", FNR, line, ind(line), ind(solved)
				else if (solved != "" && (col2(solved) in aligned) && col2(line) != col2(solved))
					printf "%d: the placeholder \"%s\" has its second word at column %d, the lines around it at %d: the skeleton shows which line to change\n", FNR, line, col2(line) + 1, col2(solved) + 1
				blk = 0; next
			}
			/^[ \t]*# END TODO / { blk = 0; next }
			blk && solved == "" && /[^ \t]/ && !/^[ \t]*#/ { solved = $0 }
		' "$f" "$f")
	done < <(find "$SOL" -type f -print0)
}

# compile NAME SRC: SRC compiled as make lab compiles the attendee's file,
# linked with the grader.
compile() {
	local name=$1 src=$2 d=$WORK/$NN/$1
	mkdir -p "$d"
	if ! KIT_UAPI=$INC "$KIT/scripts/guest/guest-cc.sh" -c "${CFLAGS_LAB[@]}" -I "$LDIR" -I "$LABS/common" \
		-o "$d/src.o" "$src" >"$d/cc.txt" 2>&1 ||
	   ! KIT_UAPI=$INC "$KIT/scripts/guest/guest-cc.sh" -o "$d/prog" "$d/src.o" "$WORK/$NN/grade.o" >>"$d/cc.txt" 2>&1; then
		[ "${MUST_FAIL:-0}" = 1 ] ||
			problem "$name ($(rel "$src")) does not compile with the kit's flags: $(grep -m1 -E 'error|undefined' "$d/cc.txt" | sed "s|$KIT/||g; s|$WORK/||g")"
		return 1
	fi
	[ "${MUST_FAIL:-0}" = 1 ] &&
		problem "$name ($(rel "$src")) compiles, and its 'expect: compile:' line says it must not"
	return 0
}

check_compile() {
	INC=$UAPI
	if [ -n "$KERNEL" ] && [ "$(flavour_get "$KERNEL" tree)" = mainline ]; then
		INC=$(FLAVOUR=$KERNEL flavour_dir)/usr/include
		if [ ! -f "$INC/linux/lsm.h" ]; then
			NOTES+=("not compiled: its headers are the reference kernel's (make mainline)")
			return 0
		fi
	fi
	[ -f "$LDIR/grade.c" ] || return 0
	if ! KIT_UAPI=$INC "$KIT/scripts/guest/guest-cc.sh" -c -o "$WORK/$NN/grade.o" -I "$LDIR" -I "$LABS/common" \
		"$LDIR/grade.c" >"$WORK/$NN/grade-cc.txt" 2>&1; then
		problem "$(rel "$LDIR")/grade.c does not compile with the kit's flags: $(grep -m1 -E 'error' "$WORK/$NN/grade-cc.txt" | sed "s|$KIT/||g")"
		return 0
	fi
	kind_check_compile
}

# given_changed FIXTURE OUT: whether a given-*.sed fixture changes the
# lab's given/ (applied to a copy in OUT.given); 1 for any other fixture.
given_changed() {
	[[ "$(basename "$1")" == given-* ]] && [ -d "$LDIR/given" ] || return 1
	rm -rf "$2.given"
	cp -r "$LDIR/given" "$2.given"
	find "$2.given" -type f -exec sed --sandbox -i -f "$1" {} + 2>/dev/null
	! diff -r -q "$2.given" "$LDIR/given" >/dev/null
}

# check_grader_alone: a kernel-side or policy lab's grader links alone
# (its SOURCE needs the kernel's tree: tests/host/labs.sh builds it).
check_grader_alone() {
	KIT_UAPI=$INC "$KIT/scripts/guest/guest-cc.sh" -o "$WORK/$NN/grader" "$WORK/$NN/grade.o" >"$WORK/$NN/grade-cc.txt" 2>&1 ||
		problem "$(rel "$LDIR")/grade.c does not link alone (a KIND=$KIND lab's grader runs alone): $(grep -m1 -E 'error|undefined' "$WORK/$NN/grade-cc.txt")"
	NOTES+=("KIND=$KIND: the grader compiled; $SOURCE needs the kernel's tree (tests/host/labs.sh)")
}

# check_compile_all: a user-space lab's solution, skeletons and mistakes,
# each linked with the grader.
check_compile_all() {
	local k f
	compile solution "$SOL" || true
	for k in "${!SKELS[@]}"; do compile "skeleton STEP=$((k + 1))" "${SKELS[$k]}" || true; done
	# A mistake with "expect: compile: TEXT" must not compile (TEXT is
	# checked by tests/host/lab-hints.sh, in the messages make lab shows).
	for f in "${MISTAKE_SRCS[@]}"; do
		MUST_FAIL=${f%%:*} compile "mistake ${f##*/}" "${f#*:}" || true
	done
}

# The mistakes: expect lines, and each .sed applied (its output compiled
# with the others, by check_compile).
check_mistakes() {
	local f b e step out n nocc
	for f in "$LDIR"/mistakes/*; do
		[ -e "$f" ] || continue
		b=mistakes/$(basename "$f")
		case "$f" in *.c|*.sed) ;; *)
			problem "$(rel "$LDIR")/$b: a fixture is NAME.c or NAME.sed (tests/host/lab-hints.sh grades nothing else)"; continue ;; esac
		n=0 nocc=0
		while IFS= read -r e; do
			n=$((n + 1))
			if [[ "$e" =~ ^(HINT=2\ )?step\ ([0-9]+)\ (passes|fails|hint:\ .+|not:\ .+)$ ]]; then
				step=${BASH_REMATCH[2]}
				[ "$step" -ge 1 ] && [ "$step" -le "$S" ] ||
					problem "$(rel "$LDIR")/$b: 'expect: $e' names step $step, and the lab has steps 1 to $S"
			elif [[ "$e" =~ ^compile:\ .+$ ]]; then
				nocc=1
			else
				problem "$(rel "$LDIR")/$b: 'expect: $e' is none of: step N passes, step N fails, step N hint: TEXT, step N not: TEXT (each may start with HINT=2), compile: TEXT"
			fi
		done < <(sed -n 's/^[ #*]*expect: //p' "$f")
		[ "$n" -gt 0 ] ||
			problem "$(rel "$LDIR")/$b has no 'expect:' line, so tests/host/lab-hints.sh would only compile it: say what the grader must do with it (expect: step N fails, expect: step N hint: TEXT)"
		case "$f" in
		*.c) kind_check_mistake "$nocc:$f" ;;
		*.sed)
			[[ "$(basename "$f")" != given-* ]] || [ -d "$LDIR/given" ] ||
				problem "$(rel "$LDIR")/$b: a given-*.sed edits given/, and this lab has none"
			out=$WORK/$NN/m-$(basename "$f" .sed)
			rm -rf "$out" "$out.c"
			if [ -d "$SOL" ]; then
				cp -r "$SOL" "$out"
				find "$out" -type f -exec sed --sandbox -i -f "$f" {} + 2>"$out.err"
			else
				out+=.c
				sed --sandbox -f "$f" "$SOL" >"$out" 2>"$out.err"
			fi
			if [ -s "$out.err" ]; then
				problem "$(rel "$LDIR")/$b does not run on the solution: $(head -1 "$out.err")"
			elif diff -r -q "$out" "$SOL" >/dev/null && ! given_changed "$f" "$out"; then
				problem "$(rel "$LDIR")/$b does not change the solution$([[ "$(basename "$f")" != given-* ]] || echo " or given/") (it no longer matches it: update the fixture)"
			else
				kind_check_mistake "$nocc:$out"
			fi ;;
		esac
	done
}

# anchors FILE: the anchors of a markdown file: its headings', as GitHub
# makes them, and its <a id="...">.
anchors() {
	grep -E '^#+ ' "$1" | sed -E 's/^#+ //' | tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9 _-]//g; s/ /-/g'
	grep -oE '<a (id|name)="[^"]+"' "$1" | sed -E 's/.*="//; s/"$//'
}

check_readme() {
	local r=$LDIR/README.md order link path anchor target items
	[ -f "$r" ] || return 0
	head -1 "$r" | grep -qE "^# Lab $NUM: " ||
		problem "$(rel "$r"): its first line is '$(head -1 "$r")'; it must be '# Lab $NUM: title'"
	order=$(grep -E '^## ' "$r" | sed 's/^## //' |
		grep -xE 'Goal|Background|Steps|Hints|Questions to discuss|Discussion' | sed 's/^Questions to discuss$/Discussion/' | paste -sd,)
	[ "$order" = "Goal,Background,Steps,Hints,Discussion" ] ||
		problem "$(rel "$r") has the sections '${order:-none}'; it needs ## Goal, ## Background, ## Steps, ## Hints and ## Questions to discuss (or ## Discussion), in that order"
	items=$(awk '/^## /{ on = ($0 == "## Steps") } on && /^[0-9]+\. /' "$r" | wc -l)
	[ "$items" = "$S" ] ||
		problem "$(rel "$r"): ## Steps has $items numbered item(s) (\"1. ...\"), and the lab has $S steps: one item per step"
	while IFS= read -r link; do
		path=${link%%#*} anchor=
		[[ "$link" == *'#'* ]] && anchor=${link#*#}
		case "$path" in http://*|https://*|mailto:*) continue ;; esac
		target=$LDIR/$path
		[ -n "$path" ] || target=$r
		if [ ! -e "$target" ]; then
			problem "$(rel "$r") links to $link, which does not exist"
		elif [ -n "$anchor" ] && [[ "$target" == *.md ]] && ! grep -qxF -- "$anchor" <<<"$(anchors "$target")"; then
			problem "$(rel "$r") links to $link, and $(rel "$target") has no heading or <a id> with that anchor"
		fi
	done < <(grep -oE '\]\([^) ]+\)' "$r" | sed -E 's/^\]\(//; s/\)$//')
}

# index_row N: lab N's row of labs/README.md's table of labs.
index_row() { grep -E "^\| *$1 *\|" "$LABS/README.md" | head -1; }

# shellcheck disable=SC2153 # TITLE and BOOTS are lab.conf's (load_conf), title and boots the row's
check_index() {
	local row title time boots want
	row=$(index_row "$NUM")
	if [ -z "$row" ]; then
		problem "labs/README.md has no row for lab $NUM in its table \"The path through the labs\": add '| $NUM | $TITLE ... | $MINUTES min | what to read | \`stack\`; ... |'"
		return
	fi
	IFS='|' read -r _ _ title time _ boots _ <<<"$row"
	title=$(sed -E 's/`//g; s/^ +| +$//g' <<<"$title")
	time=$(sed -E 's/^ +| +$//g' <<<"$time")
	# The row says more than make labs's line: it starts with TITLE's words
	# before its first colon (all of TITLE when it has none).
	[[ "$title" == "${TITLE%%:*}" || "$title" == "${TITLE%%:*}"[^A-Za-z0-9_]* ]] ||
		problem "labs/README.md's row of lab $NUM has the title '$title'; it must start with '${TITLE%%:*}' (lab.conf's TITLE, up to its first colon)"
	[ "$time" = "$MINUTES min" ] ||
		problem "labs/README.md's row of lab $NUM says '$time'; lab.conf says MINUTES=$MINUTES ('$MINUTES min')"
	boots=$(grep -oE '`[^`]+`' <<<"$boots" | tr -d '`' | paste -sd' ')
	want=$(printf '%s\n' "${BOOTS[@]}" | sed 's/^$/default/' | paste -sd' ')
	[ "$boots" = "$want" ] ||
		problem "labs/README.md's row of lab $NUM names the boots '$boots'; lab.conf's BOOTS are '$want'"
}

# check_lab DIR: every check of one lab; prints its line, 1 if a problem.
check_lab() {
	local t0 msg
	t0=$(now)
	lab_at "$1"
	mkdir -p "$WORK/$NN"
	NOTES=() SKELS=() MISTAKE_SRCS=()
	if ! msg=$(load_conf 2>&1 >/dev/null); then
		problem "$(sed -e '/^$/d' -e 's/^kit: error: //' -e 's/^ *//' <<<"$msg" | paste -sd' ' | tr -s ' ')"
	else
		load_conf
		S=$(todo_numbers | tail -1)
		S=${S:-0}
		check_needs_offline
		check_files
		check_markers
		check_grader
		check_mistakes
		check_compile
		check_readme
		check_index
	fi
	if [ ${#PROBLEMS[@]} -eq 0 ]; then
		printf 'kit: lab %2d %-28s ok (%s s)%s\n' "$NUM" "$(basename "$LDIR")" \
			"$(printf '%.1f' "$(echo "$(now) - $t0" | bc)")" "$([ ${#NOTES[@]} -eq 0 ] || printf '; %s' "${NOTES[@]}")"
		return 0
	fi
	printf 'kit: lab %2d %-28s %d problem(s) (%s s):\n' "$NUM" "$(basename "$LDIR")" "${#PROBLEMS[@]}" \
		"$(printf '%.1f' "$(echo "$(now) - $t0" | bc)")"
	printf '  - %s\n' "${PROBLEMS[@]}"
	return 1
}

T0=$(now)
if [ $# -gt 0 ]; then
	dirs=()
	for a in "$@"; do find_lab "$a"; dirs+=("$LDIR"); done
else
	mapfile -t dirs < <(lab_dirs)
fi
bad=0
for d in "${dirs[@]}"; do
	(check_lab "$d") || bad=$((bad + 1))
done
# The index's rows of labs that do not exist.
while IFS='|' read -r _ n _; do
	n=${n//[[:space:]]/}
	[ -n "$(ls -d "$LABS/$(printf '%02d' "$n")"-*/lab.conf 2>/dev/null)" ] && continue
	echo "kit: labs/README.md has a row for lab $n, and there is no labs/$(printf '%02d' "$n")-*/lab.conf: remove the row, or add the lab"
	bad=$((bad + 1))
done < <(grep -E '^\| *[0-9]+ *\|' "$LABS/README.md")
t=$(printf '%.1f' "$(echo "$(now) - $T0" | bc)")
if [ $bad -gt 0 ]; then
	die "lab-check: $bad problem line(s) above ($t s)." "Each names the file to fix; the lab contract is labs/README.md, \"How a lab is made\". Then run make lab-check again."
fi
say "lab-check: ${#dirs[@]} lab(s) ok ($t s)"
