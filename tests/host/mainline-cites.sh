#!/usr/bin/env bash
# The source citations of docs/mainline-next.md hold (TAP on stdout, run by
# `make test`).  A citation is a row of a "Where to look" table, a table
# that follows a line "<!-- cites -->":
#
#     <!-- cites -->
#     | tree | file | what to find there |
#     |---|---|---|
#     | 6.12 | `include/linux/lsm_count.h` | `MAX_LSM_COUNT`, no `CONFIG_SECURITY_TOYLSM` |
#
# The tree is one of
#     6.1+kit  build/linux, 6.1 with the series applied (make tree; TREE=)
#     6.12     build/linux-6.12, Debian's 6.12 unpatched (make mainline;
#              MAINLINE_TREE=)
#     patches  the kit itself: the file is a path in the repo (patches/...)
# and any other name in such a table is an error.  The file must exist in
# that tree, and hold each backquoted name of the third cell: as a whole
# word (no letter, digit or _ right before or after it); NAME() as "NAME(".
# A name written "no `NAME`" must NOT be in the file, and a third cell
# "no such file" says that the tree has no such file.  A tree that is not
# extracted is skipped, with the command that extracts it; the checker
# itself is first proved, on a made-up tree and page, to report a missing
# file, a missing name and a name that should be absent.
# Plain bash and POSIX awk only.
# kit: offline
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
B=${BUILD:-$K/build}
TREE=${TREE:-$B/linux}
MAINLINE_TREE=${MAINLINE_TREE:-$B/linux-6.12}
MDS=${MAINLINE_CITES_MDS:-docs/mainline-next.md}
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
# cite_verdict
# shellcheck source=tests/host/cites.bash
. "$K/tests/host/cites.bash"

# cites MD: "LINE US TREE US FILE US NAME US present|absent" for each name
# of each citation row (US: the unit separator, \037, so that an empty
# field stays a field); "LINE US TREE US FILE US US none" for a row without
# a name; "LINE US ? US TEXT" for a row that is not a citation.
cites() {
	awk -v OFS='\037' '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	/^<!-- cites -->[ \t]*$/ { want = 1; next }
	want && /^\|/ { intable = 1 }
	intable && !/^\|/ { intable = 0; want = 0 }
	!intable { next }
	{
		n = split($0, c, "|")
		# c[1] is empty (before the first |); c[2] tree, c[3] file, c[4] names
		tree = trim(c[2]); file = trim(c[3]); names = trim(c[4])
		if (tree == "tree" || tree ~ /^-+$/ || tree ~ /^:?-+:?$/) next
		if (n < 5 || file !~ /^`[^`]+`$/ || (tree != "6.1+kit" && tree != "6.12" && tree != "patches")) {
			print NR, "?", $0; next
		}
		file = substr(file, 2, length(file) - 2)
		if (names == "no such file") { print NR, tree, file, "", "nofile"; next }
		found = 0
		while (match(names, /(no +)?`[^`]+`/)) {
			item = substr(names, RSTART, RLENGTH)
			names = substr(names, RSTART + RLENGTH)
			how = "present"
			if (item ~ /^no +`/) { how = "absent"; sub(/^no +/, "", item) }
			print NR, tree, file, substr(item, 2, length(item) - 2), how
			found = 1
		}
		if (!found) print NR, tree, file, "", "none"
	}' "$1"
}

# holds FILE NAME: does FILE hold NAME as a whole word (NAME() as "NAME(")?
holds() {
	awk -v name="$2" '
	function w(ch) { return ch ~ /[A-Za-z0-9_]/ }
	BEGIN {
		if (name ~ /\(\)$/) name = substr(name, 1, length(name) - 1)
		first = w(substr(name, 1, 1)); last = w(substr(name, length(name), 1))
	}
	{
		s = $0; off = 0
		while ((i = index(s, name)) > 0) {
			before = off + i - 1; after = off + i + length(name)
			if (!(first && before > 0 && w(substr($0, before, 1))) &&
			    !(last && w(substr($0, after, 1)))) { found = 1; exit }
			s = substr(s, i + 1); off += i
		}
	}
	END { exit !found }' "$1"
}

# check TREE ROOT MD: "ok|not ok|skip<TAB>count<TAB>detail" for the rows of
# MD that cite TREE, whose files are under ROOT.
check() {
	local tree=$1 root=$2 md=$3 line t f name how bad="" count=0 rows="" gone=""
	while IFS=$'\037' read -r line t f name how; do
		if [ "$t" = "?" ]; then
			[ "$tree" = patches ] && bad+="line $line is not a citation (tree 6.1+kit, 6.12 or patches; a backquoted file): $f; "
			continue
		fi
		[ "$t" = "$tree" ] || continue
		case " $rows " in *" $line "*) ;; *) rows+=" $line" ;; esac
		if [[ "$f" == /* || "$f" == *..* ]]; then
			bad+="line $line: $f is not a path inside the tree; "
			continue
		fi
		if [ "$how" = nofile ]; then
			count=$((count + 1))
			[ ! -e "$root/$f" ] || bad+="line $line: $f exists in the $tree tree, the page says it does not; "
			continue
		fi
		if [ ! -f "$root/$f" ]; then
			case " $gone " in
			*" $line "*) ;;
			*) gone+=" $line"; bad+="line $line: $f does not exist in the $tree tree; " ;;
			esac
			continue
		fi
		case $how in
		none) bad+="line $line: no name to find in $f; " ;;
		present)
			count=$((count + 1))
			holds "$root/$f" "$name" || bad+="line $line: $name is not in $f ($tree); " ;;
		absent)
			count=$((count + 1))
			! holds "$root/$f" "$name" || bad+="line $line: $name is in $f ($tree), the page says it is not; " ;;
		esac
	done < <(cites "$md")
	local nrows
	nrows=$(wc -w <<<"$rows")
	if [ -n "$bad" ]; then
		printf 'not ok\t%s\t%s\n' "$nrows" "$bad"
	elif [ "$nrows" -eq 0 ]; then
		printf 'not ok\t0\tno citation of the %s tree found\n' "$tree"
	else
		printf 'ok\t%s\t%d row(s), %d name(s)\n' "$nrows" "$nrows" "$count"
	fi
}

mapfile -t MDLIST < <(tr ' ' '\n' <<<"$MDS" | sed '/^$/d')
echo "1..$((1 + 3 * ${#MDLIST[@]}))"

# The checker on a made-up tree and page: a right page passes; a missing
# file, a missing name, a name the page says is absent, a name that is
# only part of a longer word, a file said not to exist and an unknown tree
# are each reported.
mkdir -p "$T/t/security"
printf 'static int lsm_static_call_init(struct x *y)\nint MAX_LSM_COUNT_X;\n' >"$T/t/security/security.c"
{
	echo '<!-- cites -->'
	echo '| tree | file | what to find there |'
	echo '|---|---|---|'
	echo '| 6.12 | `security/security.c` | `lsm_static_call_init()`, no `security_hook_heads` |'
} >"$T/right.md"
st=0
[ "$(check 6.12 "$T/t" "$T/right.md" | cut -f1)" = ok ] || st=1
sed 's|`security/security.c`|`security/lsm_init.c`|' "$T/right.md" >"$T/w1.md"
sed 's|`lsm_static_call_init()`|`lsm_static_call_init_x()`|' "$T/right.md" >"$T/w2.md"
sed 's|no `security_hook_heads`|no `lsm_static_call_init`|' "$T/right.md" >"$T/w3.md"
sed 's|`lsm_static_call_init()`|`MAX_LSM_COUNT`|' "$T/right.md" >"$T/w4.md"
sed 's/^| 6.12 |/| 6.13 |/' "$T/right.md" >"$T/w5.md"
echo '| 6.12 | `security/lsm_init.c` | no such file |' >>"$T/right.md"
[ "$(check 6.12 "$T/t" "$T/right.md" | cut -f1)" = ok ] || st=1
sed 's#`security/lsm_init.c` | no such file#`security/security.c` | no such file#' "$T/right.md" >"$T/w6.md"
for w in w1 w2 w3 w4 w6; do
	[ "$(check 6.12 "$T/t" "$T/$w.md" | cut -f1)" = "not ok" ] || st=1
done
[ "$(check patches "$T/t" "$T/w5.md" | cut -f1)" = "not ok" ] || st=1
pass_if $st "the checker passes a right citation and reports a missing file, a missing name, a name said to be absent, a part of a longer word, a file said not to exist and an unknown tree"

for md in "${MDLIST[@]}"; do
	for tree in 6.1+kit 6.12 patches; do
		case $tree in
		6.1+kit) root=$TREE how="make tree" ;;
		6.12) root=$MAINLINE_TREE how="make mainline" ;;
		patches) root=$K how="" ;;
		esac
		if [ ! -f "$K/$md" ]; then
			notok "$md: no such page"
			continue
		fi
		if [ ! -f "$root/Makefile" ]; then
			skip "$md: citations of the $tree tree" "${root#"$K"/} is not extracted ($how extracts it)"
			continue
		fi
		IFS=$'\t' read -r v _ d < <(check "$tree" "$root" "$K/$md")
		cite_verdict "$md: citations of the $tree tree hold" "$v" "$d"
	done
done
