#!/usr/bin/env bash
# make why CMD='...' [APPEND='...'] [POLICY=SET] [SETUP='...'] [WHY='-k HOOK ...']:
# boot the guest, load the policy set SET (POLICY=: one of configs/policy,
# or a lab's as its last make lab N compiled it, lab12-work: its files,
# labels, owners and modes too), run SETUP (not traced), then CMD under the guest's
# /bin/why (guest/tools/why.c), which prints, for each system call that an
# LSM refused, the modules asked hook by hook, who said no and who was
# never asked.  CMD runs in `sh -c`; WHY passes options to why (why -h).
# SVG=FILE: also the walk as a picture, FILE (an SVG): each call why shows,
# its modules in walk order as columns, its hook walks as rows, each cell
# yes, no (errno), never asked, or not an LSM's answer.  why -t prints the
# walk table on the results channel (its lines are not shown here), and
# scripts/debug/why-svg.py draws it (through scripts/guest/results.py's walks()).  A
# FILE that cannot be written is refused before the guest boots, and FILE
# is written whole or not at all.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

[ -n "${CMD:-}" ] || die "make why needs CMD='...', the command to explain." \
	"For example: make why CMD='cat /etc/passwd' APPEND=smack (why's options: WHY='-a -k file_open')."
case "${CMD}${SETUP:-}" in
*KIT_WHY_EOF*) die "CMD and SETUP may not contain the word KIT_WHY_EOF." "Rename it." ;;
esac
svg=
if [ -n "${SVG:-}" ]; then
	svg=$SVG
	[[ "$svg" == /* ]] || svg=$PWD/$svg
	dir=$(dirname "$svg")
	[[ "$svg" == *.svg ]] ||
		die "SVG=$SVG: the picture's file name must end in .svg." "For example: SVG=build/why.svg"
	[ ! -d "$svg" ] || die "SVG=$SVG is a folder, not a file." "Name the file: SVG=${SVG%/}/why.svg"
	[ -d "$dir" ] || die "SVG=$SVG: the folder $dir does not exist (make why creates none)." \
		"Create it first, or name a file in an existing folder: SVG=build/why.svg"
	[ -w "$dir" ] && { [ ! -e "$svg" ] || [ -w "$svg" ]; } ||
		die "SVG=$SVG cannot be written (no permission)." "Name a file in a folder of yours."
fi
# POLICY=SET: run-guest.sh loads it before the script; a lab's set (the
# kit's own are in every guest) goes into this guest too.
sets=()
if [ -n "${POLICY:-}" ]; then
	name=${POLICY%%:*} lab=
	[[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9_.-]*$ ]] ||
		die "POLICY=$(printf '%q' "$name"): a set's name is letters, digits, '.', '_' and '-'." \
		    "For example POLICY=stack, or POLICY=lab12-work after make lab 12."
	for d in "$BUILD"/labs/[0-9]*/*/set/"$name"; do
		[ -d "$d" ] && lab=$d && break
	done
	if [ -n "$lab" ]; then
		sets=(--policy "$lab")
	elif [ ! -d "$KIT/configs/policy/$name" ]; then
		die "POLICY=$name: no such policy set." \
		    "The kit's: $(cd "$KIT/configs/policy" && printf '%s\n' */ | tr -d / | paste -sd' '); a lab's is compiled by its make lab N (POLICY=lab12-work: your copy of lab 12, as the last make lab 12 graded it)."
	fi
fi
"$KIT/scripts/kernel/kernel.sh"
mkdir -p "$BUILD/run"
script=$BUILD/run/why-script
{
	printf '#!/bin/sh\n'
	printf '%s\n' "${SETUP:-}"
	printf 'exec why %s sh -c "$(cat <<'\''KIT_WHY_EOF'\''\n%s\nKIT_WHY_EOF\n)"\n' \
		"${WHY:-}${svg:+ -t}" "$CMD"
} >"$script"
[ -n "$svg" ] || exec "$KIT/scripts/guest/run-guest.sh" --name why --script "$script" "${sets[@]}"
# The table's lines stay on the channel (build/logs/guest-why.out), off
# the terminal.
set +e
"$KIT/scripts/guest/run-guest.sh" --name why --script "$script" "${sets[@]}" | grep --line-buffered -av '^why-walk '
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
	say "no picture: the guest's run failed (status $rc); ${SVG} was not written"
	exit "$rc"
fi
"$KIT/scripts/debug/why-svg.py" "$LOGS/guest-why.out" "$svg" || exit 1
say "the walk as a picture: ${svg#"$PWD"/}"
