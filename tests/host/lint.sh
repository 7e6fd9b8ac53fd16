#!/usr/bin/env bash
# The kit's lint (docs/hacking.md, "Lint"): every shell script clean
# under shellcheck at its default severity (style; the checks wrong for
# the kit as a whole are disabled in .shellcheckrc, each with its
# reason), every Python file clean under pyflakes3, every inline
# `shellcheck disable` with its reason; every host suite prints its TAP
# with tests/host/tap.bash and no helper of its own; no script but
# lib.sh computes a path relative to the kit (rel); make help fits in 80
# columns and lists every target, by room.  Each check is shown failing on a
# seeded error.  CI runs this suite first (.ci/run), with LINT=1: there a
# missing shellcheck or pyflakes3 is a failure, elsewhere a skip that
# says to run make deps LINT=1.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..6"

# files ROOT shell|python: the tracked files of ROOT (a git work tree) of
# that language, by name (*.sh, *.bash; *.py) or by their #! line (.ci/run,
# guest/init), one a line, relative to ROOT.
files() {
	local ere
	case $2 in
	shell) ere='\.(sh|bash)$' ;;
	python) ere='\.py$' ;;
	esac
	(cd "$1" && git ls-files -z | xargs -0r awk -v lang="$2" -v ere="$ere" '
		FNR == 1 {
			if (FILENAME ~ ere ||
			    (lang == "shell" && $0 ~ /^#![^ ]*([ \/]env +)?(ba|da)?sh( |$)/) ||
			    (lang == "python" && $0 ~ /^#!.*python/))
				print FILENAME
			nextfile
		}' | LC_ALL=C sort)
}

# lint_shell ROOT: shellcheck on each shell script of ROOT alone (what it
# reports of one file must not depend on which others are in the run), a
# CPU's worth at a time, from ROOT (its .shellcheckrc); prints the
# findings, status 1 if there is one.
lint_shell() {
	local out
	out=$(cd "$1" && files . shell | tr '\n' '\0' | xargs -0r -n 1 -P "$(nproc)" shellcheck -f gcc 2>&1)
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
# lint_python ROOT: pyflakes3 on every Python file of ROOT.
lint_python() {
	(cd "$1" && files . python | tr '\n' '\0' | xargs -0r pyflakes3 2>&1)
}
# need TOOL: the tool is there; else a skip (a failure with LINT=1, CI's).
need() {
	command -v "$1" >/dev/null && return 0
	if [ "${LINT:-0}" = 1 ]; then
		notok "$2 ($1 is not installed: make deps LINT=1 installs it)"
	else
		skip "$2" "$1 is not installed (make deps LINT=1 installs it; CI's first stage runs this suite with it)"
	fi
	return 1
}

# A scratch kit: its .shellcheckrc, a clean script, and in each case a
# seeded error, in a git work tree of its own.
scratch() {
	rm -rf "$T/s" && mkdir -p "$T/s/scripts/x" "$T/s/tools" &&
		cp "$K/.shellcheckrc" "$T/s/" &&
		printf '#!/usr/bin/env bash\nset -u\necho "kit: $*"\n' >"$T/s/scripts/x/ok.sh" &&
		printf 'import os\n\nprint(os.sep)\n' >"$T/s/scripts/x/ok.py" &&
		git -C "$T/s" init -q && "$@" && git -C "$T/s" add -A
}

# 1. shellcheck: the kit clean; a seeded finding in a .sh file and in a
# script known by its #! line alone (as .ci/run is) each fail the lint.
if need shellcheck "every shell script is clean under shellcheck (.shellcheckrc)"; then
	shcase() (
		out=$(lint_shell "$K") || { echo "$out"; exit 1; }
		n=$(files "$K" shell | wc -l)
		[ "$n" -gt 90 ] || { echo "only $n shell scripts found"; exit 1; }
		files "$K" shell | grep -qx '.ci/run' && files "$K" shell | grep -qx 'guest/init' ||
			{ echo "the lint list misses .ci/run or guest/init"; exit 1; }
		seed() {
			printf 'cd /tmp\necho $1\n' >>"$T/s/scripts/x/ok.sh" &&
				printf '#!/bin/sh\nfor a in $(cat /proc/cmdline); do :; done\n' >"$T/s/tools/run"
		}
		scratch seed || exit 1
		out=$(lint_shell "$T/s") && { echo "the seeded errors passed"; exit 1; }
		grep -q 'scripts/x/ok.sh:4:.*SC2164' <<<"$out" && grep -q 'scripts/x/ok.sh:5:.*SC2086' <<<"$out" &&
			grep -q 'tools/run:2:.*SC2013' <<<"$out" || { echo "not the seeded findings: $out"; exit 1; }
		scratch true && lint_shell "$T/s" >/dev/null || { echo "the scratch kit without them fails"; exit 1; }
	)
	scenario "every shell script is clean under shellcheck (.shellcheckrc); a seeded finding fails, in a .sh file and in a script known by its #! line" shcase
fi

# 2. pyflakes3: the kit clean; a seeded unused import and an undefined
# name fail.
if need pyflakes3 "every Python file is clean under pyflakes3"; then
	pycase() (
		out=$(lint_python "$K") || { echo "$out"; exit 1; }
		[ "$(files "$K" python | wc -l)" -gt 10 ] || { echo "too few Python files found"; exit 1; }
		seed() { printf 'import sys\n\nprint(undefined_name)\n' >"$T/s/scripts/x/bad.py"; }
		scratch seed || exit 1
		out=$(lint_python "$T/s") && { echo "the seeded errors passed"; exit 1; }
		grep -q "bad.py:1:.*'sys' imported but unused" <<<"$out" && grep -q "bad.py:3:.*undefined name 'undefined_name'" <<<"$out" ||
			{ echo "not the seeded findings: $out"; exit 1; }
	)
	scenario "every Python file is clean under pyflakes3; a seeded unused import and undefined name fail" pycase
fi

# 3. An inline disable says why, on its line: "# shellcheck disable=SCnnnn
# # reason" (the class-wide ones are .shellcheckrc's, with theirs).
# DISABLE_SABOTAGE: a sed script applied to a copy of the kit's files.
reasons() {	# reasons ROOT: the inline disables without a reason
	(cd "$1" && git ls-files -z -- . ':!.shellcheckrc' | xargs -0r grep -nE '^[[:space:]]*# shellcheck disable=' |
		grep -vE 'disable=[A-Z0-9,]+ +# *[^ ]')
}
disablecase() (
	out=$(reasons "$K") && { echo "inline disables without a reason:"; echo "$out"; exit 1; }
	seed() { printf '#!/bin/sh\n# shellcheck disable=SC2086\necho $1\n# shellcheck disable=SC2086 # a word each\necho $2\n' >"$T/s/tools/run"; }
	scratch seed || exit 1
	out=$(reasons "$T/s") || { echo "a disable without a reason passed"; exit 1; }
	[ "$out" = "tools/run:2:# shellcheck disable=SC2086" ] || { echo "not the seeded line: $out"; exit 1; }
)
scenario "every inline shellcheck disable gives its reason (a seeded one without fails)" disablecase

# 4. One TAP helper: every suite sources tap.bash, and none prints a TAP
# line or defines ok, notok or skip itself.  tap.bash makes T, a scratch
# folder, and an EXIT trap that removes "$T": a suite that sets T again
# after it (checkpatch.sh's T was build/linux) or a trap without "$T"
# would remove what T then names, or leave the scratch folder behind.
taphelper() {	# taphelper ROOT: the suites that do not use tap.bash alone
	local f bad=0
	for f in "$1"/tests/host/*.sh; do
		grep -qE '^\. "(\$K/tests/host|\$\(dirname "\$0"\))/tap\.bash"' "$f" ||
			{ echo "${f#"$1"/} does not source tests/host/tap.bash"; bad=1; }
		grep -nE '^[[:space:]]*((ok|notok|skip)\(\)|(echo|printf) ["'"'"'](not )?ok [0-9$])' "$f" |
			sed "s|^|${f#"$1"/}:|; s|\$|: its own TAP (tap.bash's ok, notok, skip)|" | grep . && bad=1
		awk -v f="${f#"$1"/}" '/^\. .*tap\.bash"/ { src = 1; next }
			src && (/^T=/ || (/^trap / && !/"\$T"/)) { print f ":" FNR ": " $0 ": after tap.bash, which made T and its trap"; bad = 1 }
			END { exit bad }' "$f" || bad=1
	done
	return $bad
}
tapcase() (
	out=$(taphelper "$K") || { echo "$out"; exit 1; }
	mkdir -p "$T/t/tests/host" && cp "$K"/tests/host/*.sh "$T/t/tests/host/" &&
		printf 'n=0\nok() { n=$((n + 1)); echo "ok $n $*"; }\n' >>"$T/t/tests/host/ci.sh" &&
		sed -i '/tap\.bash"$/d' "$T/t/tests/host/tree.sh" &&
		printf 'echo "not ok 3 x"\n' >>"$T/t/tests/host/lib.sh" &&
		printf 'T=${BUILD:-$K/build}/linux\n' >>"$T/t/tests/host/stacks.sh" || exit 1
	out=$(taphelper "$T/t") && { echo "the seeded suites passed"; exit 1; }
	grep -q '^tests/host/ci.sh:[0-9]*:ok()' <<<"$out" && grep -q '^tests/host/tree.sh does not source' <<<"$out" &&
		grep -q '^tests/host/lib.sh:[0-9]*:echo "not ok 3' <<<"$out" &&
		grep -q '^tests/host/stacks.sh:[0-9]*: T=.*after tap.bash' <<<"$out" || { echo "not the seeded suites: $out"; exit 1; }
)
scenario "every host suite prints its TAP with tests/host/tap.bash alone, and keeps its T (seeded: an own ok(), no tap.bash, an echoed 'not ok', T set again)" tapcase

# 5. One path helper: no script of scripts/ strips "$KIT"/ itself; lib.sh's
# rel does (scripts/lib/kitpath.py's, for Python).  kernel.sh's four
# messages wait for its restructuring (issue 50, part 2) to land first.
selfrel() {	# selfrel ROOT: the lines of ROOT's scripts that strip "$KIT"/ themselves
	(cd "$1" && grep -rnF '#"$KIT"/}' scripts | grep -vE '^scripts/lib/lib\.sh:[0-9]+:rel\(\) ' |
		grep -v '^scripts/kernel/kernel\.sh:[0-9]*:.*say "kernel (\$FLAVOUR) \(up to date\|ready\): \${OUT#"\$KIT"/}/bzImage')
}
relcase() (
	out=$(selfrel "$K") && { echo "scripts that strip \"\$KIT\"/ themselves (use rel):"; echo "$out"; exit 1; }
	mkdir -p "$T/r" && cp -r "$K/scripts" "$T/r/" &&
		printf 'say "log: ${LOG#"$KIT"/}"\n' >>"$T/r/scripts/bench/bench.sh" || exit 1
	out=$(selfrel "$T/r") || { echo "a seeded \${LOG#\"\$KIT\"/} passed"; exit 1; }
	grep -q '^scripts/bench/bench.sh:' <<<"$out" || { echo "not the seeded line: $out"; exit 1; }
)
scenario "no script but lib.sh's rel strips the kit's path itself (a seeded \${LOG#\"\$KIT\"/} fails)" relcase

# 6. make help: every line fits in 80 columns, every target of the
# Makefile is listed once, under a heading that names a room of scripts/
# ("lab: the labs").
helpcheck() {	# helpcheck MAKEFILE: what is wrong with its make help
	local out t bad=0
	out=$(make -s -C "$K" -f "$1" help 2>&1) || { echo "make help failed: $out"; return 1; }
	awk 'length($0) > 79 { printf "make help, line %d: %d columns: %s\n", NR, length($0), $0; bad = 1 } END { exit bad }' <<<"$out" || bad=1
	awk '/^  make / && !room { print "make help lists " $1 " " $2 " under no heading"; bad = 1 }
		/^[a-z]+: / { room = $1 } END { exit bad }' <<<"$out" || bad=1
	while read -r t; do
		[ -d "$K/scripts/$t" ] || { echo "make help's heading '$t:' is no room of scripts/"; bad=1; }
	done < <(sed -nE 's/^([a-z]+): .*/\1/p' <<<"$out")
	while read -r t; do
		[ "$(grep -cE "^  make $t( |$)" <<<"$out")" = 1 ] || { echo "make help lists 'make $t' $(grep -cE "^  make $t( |$)" <<<"$out") times"; bad=1; }
	done < <(sed -nE 's/^([a-z-]+):.*## .*/\1/p' "$1")
	return $bad
}
helpcase() (
	out=$(helpcheck "$K/Makefile") || { echo "$out"; exit 1; }
	sed -e 's/^\(kernel:.*## \)/\1averyveryveryveryveryveryveryveryveryveryveryveryveryverylongword /' \
		-e 's/^##@ bench:/##@ benches:/' -e '/^##@ host:/d' "$K/Makefile" >"$T/Makefile" || exit 1
	out=$(helpcheck "$T/Makefile") && { echo "the seeded make help passed"; exit 1; }
	grep -q 'columns: *make kernel' <<<"$out" && grep -q "heading 'benches:' is no room" <<<"$out" &&
		grep -q 'lists make help under no heading' <<<"$out" || { echo "not the seeded faults: $out"; exit 1; }
)
scenario "make help: every line within 80 columns, every target listed once under a room's heading (seeded: a long word, a heading that is no room, targets under none)" helpcase
