#!/usr/bin/env bash
# The line numbers that the labs' READMEs and docs/ cite for toylsm's code
# are true (TAP on stdout, run by `make test`).  A citation is a
# backquoted name followed by "(line N", after a backquoted
# `demo-lsm/FILE` that says where it is:
#
#     `demo-lsm/policy.c`: `toylsm_check()` (line 188): ...
#
# NAME() is a function: line N must be its definition (the line that
# starts with its type and has "NAME(", not a declaration); NAME[] an
# array; "enum NAME" an enum.  A function the file only calls is cited
# at its first call.  A backquoted path outside demo-lsm/ ends
# the file's scope (the tree's files are not checked).  The checker first
# proves on an altered copy that it reports a wrong line.
# Plain bash and POSIX awk only.
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"
# cite_verdict
# shellcheck source=tests/host/cites.bash
. "$K/tests/host/cites.bash"

# citations MD: "FILE<TAB>NAME<TAB>LINE" for each citation of demo-lsm/.
citations() {
	awk '
	{ text = text $0 "\n" }
	END {
		cur = ""
		while (1) {
			p1 = match(text, /`[^`\n]+`[ \t\n]*\(line [0-9]+/); l1 = RLENGTH
			p2 = match(text, /`[A-Za-z0-9_.\/-]+\/[A-Za-z0-9_.-]+\.[ch]`/); l2 = RLENGTH
			if (!p1 && !p2) break
			if (p2 && (!p1 || p2 < p1)) {
				f = substr(text, p2 + 1, l2 - 2)
				cur = (f ~ /^demo-lsm\//) ? f : ""
				text = substr(text, p2 + l2)
				continue
			}
			c = substr(text, p1, l1)
			text = substr(text, p1 + l1)
			name = c; sub(/^`/, "", name); sub(/`.*/, "", name)
			n = c; sub(/.*\(line /, "", n)
			if (cur != "" && name !~ /\//) print cur "\t" name "\t" n
		}
	}' "$1"
}

# defline ROOT FILE NAME: the line where NAME is defined in ROOT/FILE.
defline() {
	awk -v name="$3" '
	function q(s) { gsub(/[][.()*+?^$|\\]/, "\\\\&", s); return s }
	BEGIN {
		if (name ~ /\[\]$/) { n = substr(name, 1, length(name) - 2); re = "(^|[^A-Za-z0-9_])" q(n) "\\[\\]" }
		else if (name ~ /^enum /) re = "^" q(name) "([^A-Za-z0-9_]|$)"
		else { n = name; sub(/\(\)$/, "", n); re = "^[A-Za-z_].*(^|[^A-Za-z0-9_])" q(n) "\\(" }
	}
	$0 ~ re && $0 !~ /;[ \t]*$/ { print NR; found = 1; exit }
	# A function that the file only calls (setup.c calls the lab hooks):
	# the first call.
	!call && name ~ /\(\)$/ && $0 ~ "(^|[^A-Za-z0-9_])" q(n) "\\(" { call = NR }
	END { if (!found && call) print call }' "$1/$2"
}

# check ROOT MD: "ok|not ok<TAB>MD<TAB>detail".
check() {
	local root=$1 md=$2 f name n got bad="" count=0
	while IFS=$'\t' read -r f name n; do
		count=$((count + 1))
		if [ ! -f "$root/$f" ]; then
			bad+="$f does not exist (cited for $name); "
			continue
		fi
		got=$(defline "$root" "$f" "$name")
		[ "$got" = "$n" ] ||
			bad+="$name is at line ${got:-?} of $f, not $n; "
	done < <(citations "$root/$md")
	if [ -z "$bad" ]; then
		printf 'ok\t%s\t%d citation(s)\n' "$md" "$count"
	else
		printf 'not ok\t%s\t%s\n' "$md" "$bad"
	fi
}

mapfile -t MDS < <(cd "$K" && grep -l -E '\(line [0-9]+' labs/*/README.md docs/*.md README.md 2>/dev/null)
echo "1..$((${#MDS[@]} + 1))"

# The checker reports a wrong line: a copy of demo-lsm/ and a README that
# cites a real function one line off, and one that cites it right.
mkdir -p "$T/demo-lsm"
cs=("$K"/demo-lsm/*.c)
f=${cs[0]}
cp "$f" "$T/demo-lsm/"
fn=$(grep -m1 -E '^[a-z].*[a-z_]+\(' "$f" | grep -v ';' | sed -E 's/.*[^a-z_]([a-z_]+)\(.*/\1/')
ln=$(defline "$K" "demo-lsm/${f##*/}" "$fn()")
printf '`demo-lsm/%s`: `%s()` (line %d)\n' "${f##*/}" "$fn" "$((ln + 1))" >"$T/wrong.md"
printf '`demo-lsm/%s`: `%s()`\n(line %d)\n' "${f##*/}" "$fn" "$ln" >"$T/right.md"
w=$(check "$T" wrong.md) r=$(check "$T" right.md)
if [ -n "$fn" ] && [ -n "$ln" ] && [ "${w%%$'\t'*}" = "not ok" ] && [ "${r%%$'\t'*}" = ok ] &&
   [ "${r##*$'\t'}" = "1 citation(s)" ]; then
	ok "the checker reports a citation one line off ($fn in ${f##*/}) and passes the right one"
else
	notok "the checker reports a citation one line off and passes the right one"
	printf '%s\n%s\n' "$w" "$r" | diag
fi

for md in "${MDS[@]}"; do
	res=$(check "$K" "$md")
	IFS=$'\t' read -r v m d <<<"$res"
	cite_verdict "$m: line numbers of demo-lsm/ true" "$v" "$d"
done
