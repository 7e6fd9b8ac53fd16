# shellcheck shell=bash
# The one reader of the table of host architectures, configs/arches.conf
# (its head says what each column means).  Sourced by lib.sh, never run.
# Nothing else reads the table (tests/host/arches.sh): a script asks
#
#   arch_host             this host's row (amd64, arm64), or nothing when
#                         the table has none for it (deps.sh and make
#                         doctor then say why, host_arch_problem)
#   arch_get COLUMN       the value of COLUMN in this host's row (nothing
#                         for "-"); dies on a host or column the table
#                         does not have
#   arch_set VAR COLUMN   VAR = that value, without a subshell
#   arch_names            the rows, in the table's order
#   arch_known            whether this host has a row (status)
#
# This host is bash's HOSTTYPE (uname -m's name, no process: every script
# sources lib.sh), or KIT_HOST_ARCH, a name of the host or uname column
# (tests/host/arches.sh, kernel.sh's and deps.sh's tests stand in for an
# arm64 host with it).  Read once per shell, in bash alone, and checked
# whole then: a row with the wrong number of columns, a guest that is no
# x86_64, a cross prefix that is no prefix... is an error naming the line.
# Sourcing it runs nothing of bash 4 (scripts/image/run.sh sources lib.sh
# on macOS's bash 3.2, and asks nothing of the table).

ARCHES_FILE=$KIT/configs/arches.conf
ARCH_COLUMNS=(host uname guest cross packages debs qemu gdb ccache)
ARCH_ROWS=()
ARCH_HOST=

arches_die() {	# arches_die LINE WHAT
	die "configs/arches.conf${1:+:$1}: $2" \
	    "Fix that line; the head of configs/arches.conf says what each column holds."
}

arches_load() {
	[ ${#ARCH_ROWS[@]} -eq 0 ] || return 0
	local line l=0 cells=() i c cols=() name
	declare -gA ARCH_CELL=() ARCH_LINE=()
	[ -f "$ARCHES_FILE" ] || die "there is no $(rel "$ARCHES_FILE"), the table of host architectures." \
		"Restore it: git checkout -- configs/arches.conf."
	while IFS= read -r line || [ -n "$line" ]; do
		l=$((l + 1))
		[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
		IFS='|' read -ra cells <<<"$line|"
		for i in "${!cells[@]}"; do
			c=${cells[i]}
			c=${c#"${c%%[![:space:]]*}"}
			cells[i]=${c%"${c##*[![:space:]]}"}
		done
		if [ ${#cols[@]} -eq 0 ]; then
			cols=("${cells[@]}")
			[ "${cols[*]}" = "${ARCH_COLUMNS[*]}" ] ||
				arches_die "$l" "the columns are '${cols[*]}', not the reader's '${ARCH_COLUMNS[*]}' (scripts/lib/arches.sh: a new column is a word there too)."
			continue
		fi
		[ ${#cells[@]} -eq ${#cols[@]} ] ||
			arches_die "$l" "${#cells[@]} column(s), not ${#cols[@]} (a cell with nothing is \"-\")."
		name=${cells[0]}
		[[ $name =~ ^[a-z][a-z0-9]*$ ]] || arches_die "$l" "'$name' is no Debian architecture name."
		[ -z "${ARCH_LINE[$name]:-}" ] || arches_die "$l" "a second row named $name (line ${ARCH_LINE[$name]})."
		ARCH_LINE[$name]=$l
		ARCH_ROWS+=("$name")
		for i in "${!cols[@]}"; do
			[ -n "${cells[i]}" ] || arches_die "$l" "the $name row's ${cols[i]} is empty (write \"-\" for none)."
			ARCH_CELL[$name/${cols[i]}]=${cells[i]}
		done
	done <"$ARCHES_FILE"
	[ ${#ARCH_ROWS[@]} -gt 0 ] || arches_die "" "no row (and no head naming the columns)."
	arches_check
	# This host's row.
	local m=${KIT_HOST_ARCH:-${HOSTTYPE:-}}
	for name in "${ARCH_ROWS[@]}"; do
		[ "$m" = "$name" ] || [ "$m" = "${ARCH_CELL[$name/uname]}" ] || continue
		ARCH_HOST=$name
		break
	done
}

arches_check() {
	local n l w
	for n in "${ARCH_ROWS[@]}"; do
		l=${ARCH_LINE[$n]}
		[[ ${ARCH_CELL[$n/uname]} =~ ^[a-z0-9_]+$ ]] ||
			arches_die "$l" "$n: '${ARCH_CELL[$n/uname]}' is no uname -m name."
		# The guest: one architecture on every host (docs/hacking.md).
		[ "${ARCH_CELL[$n/guest]}" = x86_64 ] ||
			arches_die "$l" "$n: the guest '${ARCH_CELL[$n/guest]}': the kit's guest is x86_64 on every host (docs/hacking.md, \"The guest's architecture\")."
		[[ ${ARCH_CELL[$n/cross]} =~ ^(-|[a-z0-9_]+-linux-gnu-)$ ]] ||
			arches_die "$l" "$n: the cross prefix '${ARCH_CELL[$n/cross]}' is no TRIPLET- (x86_64-linux-gnu-) or -."
		for w in ${ARCH_CELL[$n/packages]} ${ARCH_CELL[$n/debs]}; do
			[[ $w =~ ^(-|[a-z0-9][a-z0-9+.-]*(:[a-z0-9]+)?)$ ]] ||
				arches_die "$l" "$n: '$w' is no Debian package name."
		done
		for w in ${ARCH_CELL[$n/debs]}; do
			[ "$w" = - ] || [[ $w == *:* ]] ||
				arches_die "$l" "$n: the guest's package '$w' names no architecture (PACKAGE:ARCH)."
		done
		for w in qemu gdb; do
			[[ ${ARCH_CELL[$n/$w]} =~ ^[a-z0-9_.-]+$ ]] ||
				arches_die "$l" "$n: the $w '${ARCH_CELL[$n/$w]}' is no program name."
		done
		[[ ${ARCH_CELL[$n/ccache]} =~ ^(-|[a-z0-9_-]+)$ ]] ||
			arches_die "$l" "$n: the ccache namespace '${ARCH_CELL[$n/ccache]}' is no word."
	done
}

arch_names() {
	arches_load
	printf '%s\n' "${ARCH_ROWS[@]}"
}

# arch_known: this host has a row (status only; a scratch kit of the host
# suites without the table has none, and is an x86_64 host's: lib.sh).
arch_known() { [ -f "$ARCHES_FILE" ] && arches_load && [ -n "$ARCH_HOST" ]; }

# arch_host: the row whose host or uname name is this host's.
arch_host() {
	case ${KIT_HOST_ARCH:-$HOSTTYPE} in x86_64|amd64) [ -f "$ARCHES_FILE" ] || { echo amd64; return 0; } ;; esac
	arches_load
	[ -z "$ARCH_HOST" ] || printf '%s\n' "$ARCH_HOST"
}

arch_get() {	# arch_get COLUMN
	local v
	arch_set v "$1"
	[ -z "$v" ] || printf '%s\n' "$v"
}

# arch_row_get ROW COLUMN: COLUMN of another host's row (nothing for
# "-"): what an x86_64 host compiles for the arm64 image's ccache
# (kernel.sh --seed-for, scripts/image/seed-ccache.sh).
arch_row_get() {
	arches_load
	[ -n "${ARCH_LINE[$1]:-}" ] ||
		die "configs/arches.conf has no row '$1'." "Its rows: ${ARCH_ROWS[*]}."
	[[ " ${ARCH_COLUMNS[*]} " == *" $2 "* ]] ||
		die "arch_row_get: configs/arches.conf has no column '$2'." "Its columns: ${ARCH_COLUMNS[*]}."
	[ "${ARCH_CELL[$1/$2]}" = - ] || printf '%s\n' "${ARCH_CELL[$1/$2]}"
}
# arch_set VAR COLUMN: VAR = arch_get COLUMN, without a subshell (lib.sh
# asks on every script's start).
arch_set() {
	arches_load
	[ -n "$ARCH_HOST" ] || die "this host's architecture, ${KIT_HOST_ARCH:-${HOSTTYPE:-unknown}}, has no row in configs/arches.conf." \
		"The kit runs on the hosts the table names: ${ARCH_ROWS[*]}. make doctor says what to use instead."
	[[ " ${ARCH_COLUMNS[*]} " == *" $2 "* ]] ||
		die "arch_get: configs/arches.conf has no column '$2'." "Its columns: ${ARCH_COLUMNS[*]}."
	local _arch_v=${ARCH_CELL[$ARCH_HOST/$2]}
	[ "$_arch_v" != - ] || _arch_v=
	printf -v "$1" '%s' "$_arch_v"
}
