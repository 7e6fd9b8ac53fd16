# shellcheck shell=bash
# The one reader of the table of kernels, configs/flavours.conf (its head
# says what each column means).  Sourced by lib.sh, never run.  Nothing
# else reads the table (tests/host/flavours.sh): a script asks
#
#   flavour_get NAME COLUMN   the value of COLUMN in flavour NAME's row
#                             (nothing for "-"); dies on a name or column
#                             the table does not have
#   flavour_use NAME          FLAVOUR=NAME for this script and the ones it
#                             runs (exported; KOUT follows), after checking
#                             that NAME is a row: call it in the script's
#                             own shell, where its die stops the script
#   flavour_names             the flavours, in the table's order
#   flavour_is NAME           whether NAME is a row (status; no message)
#
# The table is read once per shell, on the first question, in bash alone
# (no process: run-guest.sh asks for every boot), and checked whole then:
# a row with the wrong number of columns, an unknown tree, a fragment
# with no configs/NAME.config, a seed that is no row... is an error
# naming the table's line.

FLAVOURS_FILE=$KIT/configs/flavours.conf
# The columns the table must have, and what their values may be.
FLAVOUR_COLUMNS=(name tree fragments seed targets memory kunit timeout test-debug keep arch)
declare -gA FLAVOUR_CELL=() FLAVOUR_LINE=()
FLAVOUR_ROWS=()

# flavours_die LINE WHAT: an error naming the table's line.
flavours_die() {
	die "configs/flavours.conf${1:+:$1}: $2" \
	    "Fix that line; the head of configs/flavours.conf says what each column holds."
}

flavours_load() {
	[ ${#FLAVOUR_ROWS[@]} -eq 0 ] || return 0
	local line l=0 cells=() i c cols=() name
	[ -f "$FLAVOURS_FILE" ] || die "there is no $(rel "$FLAVOURS_FILE"), the table of the kit's kernels." \
		"Restore it: git checkout -- configs/flavours.conf."
	while IFS= read -r line || [ -n "$line" ]; do
		l=$((l + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		IFS='|' read -ra cells <<<"$line|"
		for i in "${!cells[@]}"; do
			c=${cells[i]}
			c=${c#"${c%%[![:space:]]*}"}
			cells[i]=${c%"${c##*[![:space:]]}"}
		done
		if [ ${#cols[@]} -eq 0 ]; then	# the head: the columns' names
			cols=("${cells[@]}")
			[ "${cols[*]}" = "${FLAVOUR_COLUMNS[*]}" ] ||
				flavours_die "$l" "the columns are '${cols[*]}', not the reader's '${FLAVOUR_COLUMNS[*]}' (scripts/lib/flavours.sh: a new column is a word there too)."
			continue
		fi
		[ ${#cells[@]} -eq ${#cols[@]} ] ||
			flavours_die "$l" "${#cells[@]} column(s), not ${#cols[@]} (a cell with nothing is \"-\")."
		name=${cells[0]}
		[[ $name =~ ^[a-z][a-z0-9-]*$ ]] || flavours_die "$l" "'$name' is no flavour name (a-z, 0-9 and -)."
		[ -z "${FLAVOUR_LINE[$name]:-}" ] || flavours_die "$l" "a second row named $name (line ${FLAVOUR_LINE[$name]})."
		FLAVOUR_LINE[$name]=$l
		FLAVOUR_ROWS+=("$name")
		for i in "${!cols[@]}"; do
			[ -n "${cells[i]}" ] || flavours_die "$l" "the $name row's ${cols[i]} is empty (write \"-\" for none)."
			FLAVOUR_CELL[$name/${cols[i]}]=${cells[i]}
		done
	done <"$FLAVOURS_FILE"
	[ ${#FLAVOUR_ROWS[@]} -gt 0 ] || flavours_die "" "no row (and no head naming the columns)."
	flavours_check
}

# flavours_check: each value of the table, as the readers need it.
flavours_check() {
	local n l v w
	for n in "${FLAVOUR_ROWS[@]}"; do
		l=${FLAVOUR_LINE[$n]}
		v=${FLAVOUR_CELL[$n/tree]}
		case $v in series|pristine|mainline|given) ;; *)
			flavours_die "$l" "$n: the tree '$v' is none of series, pristine, mainline, given." ;; esac
		for w in ${FLAVOUR_CELL[$n/fragments]}; do
			if ! [[ $w =~ ^[a-z0-9-]+$ ]] || [ ! -f "$KIT/configs/$w.config" ]; then
				flavours_die "$l" "$n: the fragment '$w' has no file configs/$w.config."
			fi
		done
		for w in seed test-debug; do
			v=${FLAVOUR_CELL[$n/$w]}
			[ "$v" = - ] || [ -n "${FLAVOUR_LINE[$v]:-}" ] ||
				flavours_die "$l" "$n: its $w '$v' is no flavour of the table."
		done
		# A seed's objects are a copy: built from the same tree.
		v=${FLAVOUR_CELL[$n/seed]}
		[ "$v" = - ] || [ "${FLAVOUR_CELL[$v/tree]}" = "${FLAVOUR_CELL[$n/tree]}" ] ||
			flavours_die "$l" "$n: its seed $v is built from another tree (${FLAVOUR_CELL[$v/tree]})."
		[[ ${FLAVOUR_CELL[$n/targets]} =~ ^(-|[A-Za-z_]+( [A-Za-z_]+)*)$ ]] ||
			flavours_die "$l" "$n: the targets '${FLAVOUR_CELL[$n/targets]}' are no Kbuild targets."
		[[ ${FLAVOUR_CELL[$n/memory]} =~ ^(-|[1-9][0-9]*[MG])$ ]] ||
			flavours_die "$l" "$n: the memory '${FLAVOUR_CELL[$n/memory]}' is not QEMU's -m (512M, 1G) or -."
		[[ ${FLAVOUR_CELL[$n/kunit]} =~ ^(on|off|-)$ ]] ||
			flavours_die "$l" "$n: kunit is on, off or -, not '${FLAVOUR_CELL[$n/kunit]}'."
		[[ ${FLAVOUR_CELL[$n/timeout]} =~ ^(kit\.timeout|kit\.timeout_debug|-)$ ]] ||
			flavours_die "$l" "$n: the timeout word is kit.timeout, kit.timeout_debug or -, not '${FLAVOUR_CELL[$n/timeout]}'."
		[[ ${FLAVOUR_CELL[$n/keep]} =~ ^(-|[1-9][0-9]*)$ ]] ||
			flavours_die "$l" "$n: keep is a count of kernels or -, not '${FLAVOUR_CELL[$n/keep]}'."
		# The guest's architecture: one so far (the head of the table).
		[ "${FLAVOUR_CELL[$n/arch]}" = x86_64 ] ||
			flavours_die "$l" "$n: the arch '${FLAVOUR_CELL[$n/arch]}': the kit's guests are x86_64 (a host of another architecture cross-compiles them)."
		# An installed kernel is booted: it needs what a boot reads.
		if [[ " ${FLAVOUR_CELL[$n/targets]} " == *" bzImage "* ]] && [ "${FLAVOUR_CELL[$n/tree]}" != given ]; then
			for w in memory kunit timeout keep; do
				[ "${FLAVOUR_CELL[$n/$w]}" != - ] ||
					flavours_die "$l" "$n: an installed kernel (targets has bzImage) needs a $w."
			done
		fi
	done
}

flavour_names() {
	flavours_load
	printf '%s\n' "${FLAVOUR_ROWS[@]}"
}

flavour_is() {	# flavour_is NAME
	flavours_load
	[ -n "$1" ] && [ -n "${FLAVOUR_LINE[$1]:-}" ]
}

flavour_get() {	# flavour_get NAME COLUMN
	flavours_load
	flavour_is "$1" ||
		die "there is no flavour '$1' (configs/flavours.conf)." "The flavours are: ${FLAVOUR_ROWS[*]}."
	[[ " ${FLAVOUR_COLUMNS[*]} " == *" $2 "* ]] ||
		die "flavour_get: configs/flavours.conf has no column '$2'." "Its columns: ${FLAVOUR_COLUMNS[*]}."
	[ "${FLAVOUR_CELL[$1/$2]}" = - ] || printf '%s\n' "${FLAVOUR_CELL[$1/$2]}"
}

flavour_use() {	# flavour_use NAME
	flavour_is "$1" ||
		die "there is no flavour '$1' (configs/flavours.conf)." "The flavours are: ${FLAVOUR_ROWS[*]}."
	export FLAVOUR=$1
	# shellcheck disable=SC2034 # lib.sh's, which the scripts read
	KOUT=$BUILD/kbuild/$FLAVOUR
}
