# shellcheck shell=bash
# The one parser of the kit's tables, configs/flavours.conf and
# configs/arches.conf: lines of cells split by "|", the first naming the
# columns, "#" comments and blank lines skipped, "-" for a cell with
# nothing.  Sourced by lib.sh, never run; each table has its own reader
# (scripts/lib/flavours.sh, scripts/lib/arches.sh), which asks this for
# the rows and then checks their values as its scripts need them.

# table_read FILE DIE ROWS CELL LINE NAMERE NAMEWHAT COLUMN...: FILE's
# rows, checked for their shape: the head is COLUMN..., every row has as
# many cells, none empty, its name (the first cell) matches NAMERE and is
# unique.  The names are appended to the array ROWS, the cells set in the
# associative array CELL (CELL[NAME/COLUMN]) and each row's line in LINE
# (LINE[NAME]); a table that breaks a rule is refused with DIE LINE WHAT
# (the reader's own error, naming the line).  NAMEWHAT: what a name that
# does not match is not ("no flavour name (a-z, 0-9 and -)").
table_read() {
	local file=$1 diefn=$2 namere=$6 namewhat=$7 line l=0 cells=() i c cols=() name
	local -n _rows=$3 _cell=$4 _line=$5
	local reader=${file##*/}
	reader=scripts/lib/${reader%.conf}.sh
	shift 7
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
			[ "${cols[*]}" = "$*" ] ||
				"$diefn" "$l" "the columns are '${cols[*]}', not the reader's '$*' ($reader: a new column is a word there too)."
			continue
		fi
		[ ${#cells[@]} -eq ${#cols[@]} ] ||
			"$diefn" "$l" "${#cells[@]} column(s), not ${#cols[@]} (a cell with nothing is \"-\")."
		name=${cells[0]}
		[[ $name =~ $namere ]] || "$diefn" "$l" "'$name' is $namewhat."
		[ -z "${_line[$name]:-}" ] || "$diefn" "$l" "a second row named $name (line ${_line[$name]})."
		_line["$name"]=$l
		_rows+=("$name")
		for i in "${!cols[@]}"; do
			[ -n "${cells[i]}" ] || "$diefn" "$l" "the $name row's ${cols[i]} is empty (write \"-\" for none)."
			_cell["$name/${cols[i]}"]=${cells[i]}
		done
	done <"$file"
	[ ${#_rows[@]} -gt 0 ] || "$diefn" "" "no row (and no head naming the columns)."
}
