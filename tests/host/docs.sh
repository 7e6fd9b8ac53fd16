#!/usr/bin/env bash
# The docs stay true to the series (TAP on stdout, run by `make test`):
#  - every quoted excerpt in docs/*.md appears verbatim, in order, in the
#    patch file it names;
#  - every patch in patches/series has its section in docs/walkthrough.md,
#    under an anchored heading, in series order (and no section describes a
#    patch that is no longer in the series);
#  - every relative link in docs/, README.md and labs/ resolves to a file
#    in the repo, and a #fragment into a Markdown file names a heading or
#    an <a id> there;
#  - the pictures (fenced blocks that are not excerpts) are plain ASCII
#    without tabs, at most 80 columns, so they line up in a terminal;
#  - the repository stands alone: no file points at the design documents
#    outside it (the sibling folder "shared" and its ABI contract file,
#    patterns built below from parts), which a clone does not have.
# The checkers first prove on altered copies, in a temporary folder, that
# they report a stale excerpt, a missing section and a broken link.
#
# An excerpt is a fenced block whose info string names its patch:
#
#     ```diff from:patches/0006-LSM-Add-the-lsm_self_attr-system-call.patch
#     +static size_t lsm_ctx_size(size_t len)
#     [...]
#     +	return sizeof(struct lsm_ctx) + ALIGN(len + 1, 8);
#     ```
#
# Its lines must be lines of that patch, byte for byte and consecutive; a
# line "[...]" between them skips ahead: the next lines come later in the
# patch.  A walkthrough section names its patch on a line
# "**Patch:** [`NAME`](../patches/NAME)".  Plain bash and POSIX awk only.
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

# series_of ROOT: the patch names of ROOT/patches/series, in order.
series_of() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1/patches/series" 2>/dev/null | grep -v '^$'
}

# check_excerpts ROOT MD...: one line per excerpt found,
#   "ok|not ok<TAB>description<TAB>detail".
check_excerpts() {
	local root=$1; shift
	awk -v root="$root" -v series="$(series_of "$root" | tr '\n' ' ')" '
	function load(p,   f, n, l) {
		if (p in PN) return PN[p]
		f = root "/" p; n = 0
		while ((getline l < f) > 0) P[p, ++n] = l
		close(f)
		PN[p] = n
		return n
	}
	function is_line(p, l,   i) {
		for (i = 1; i <= PN[p]; i++) if (P[p, i] == l) return 1
		return 0
	}
	# Does chunk c (lines C[c, 1..CL[c]]) sit at patch line s?
	function at(p, c, s,   j) {
		for (j = 1; j <= CL[c]; j++) if (P[p, s + j - 1] != C[c, j]) return 0
		return 1
	}
	function report(   name, desc, n, pos, c, s, found, j, why) {
		name = src; sub(/^patches\//, "", name)
		fn = FILENAME
		if (index(fn, root "/") == 1) fn = substr(fn, length(root) + 2)
		desc = sprintf("%s:%d: excerpt of %s", fn, start, name)
		why = ""
		if (src !~ /^patches\/[^\/]+\.patch$/)
			why = "the marker must read from:patches/NAME.patch"
		else if (index(" " series " ", " " name " ") == 0)
			why = name " is not in patches/series"
		else if ((n = load(src)) == 0)
			why = src " does not exist or is empty"
		else if (nlines == 0)
			why = "the excerpt is empty"
		pos = 0
		for (c = 1; why == "" && c <= NC; c++) {
			if (CL[c] == 0) { why = "an empty part around [...]"; break }
			found = 0
			for (s = pos + 1; s + CL[c] - 1 <= n; s++)
				if (at(src, c, s)) { found = s; break }
			if (!found) {
				for (j = 1; j <= CL[c]; j++)
					if (!is_line(src, C[c, j])) {
						why = sprintf("excerpt line %d is not a line of the patch: %s", CO[c, j], C[c, j])
						break
					}
				if (why == "")
					why = sprintf("lines %d-%d of the excerpt are in the patch, but not together in this order%s", CO[c, 1], CO[c, CL[c]], pos ? " after the part before [...]" : "")
				break
			}
			pos = found + CL[c] - 1
		}
		if (why == "") printf "ok\t%s\t\n", desc
		else printf "not ok\t%s\t%s\n", desc, why
	}
	FNR == 1 { fence = 0 }
	fence == 2 && /^```[ \t]*$/ { report(); fence = 0; next }
	fence == 2 {
		nlines++
		if ($0 == "[...]") { NC++; CL[NC] = 0; next }
		CL[NC]++; C[NC, CL[NC]] = $0; CO[NC, CL[NC]] = nlines
		next
	}
	fence == 1 && /^```[ \t]*$/ { fence = 0; next }
	fence == 1 { next }
	/^```/ {
		if (match($0, /from:[^ \t]*/)) {
			src = substr($0, RSTART + 5, RLENGTH - 5)
			fence = 2; start = FNR; nlines = 0; NC = 1; CL[1] = 0
		} else fence = 1
		next
	}
	END { if (fence == 2) report() }
	' "$@"
}

# check_sections ROOT WALKTHROUGH: results as for check_excerpts.
check_sections() {
	local root=$1 md=$2
	awk -v series="$(series_of "$root" | tr '\n' ' ')" -v fn="${md#"$root"/}" '
	/^```/ { fence = !fence; next }
	fence { next }
	/^<a id="[^"]*"><\/a>[ \t]*$/ { anchor_line = FNR; next }
	/^#+ / { heading = FNR; anchored = (anchor_line == FNR - 1); htext = $0; next }
	/^\*\*Patch:\*\* / {
		if (!match($0, /\(\.\.\/patches\/[^)]*\)/)) { bad[++nbad] = FNR ": a Patch: line without a (../patches/NAME) link"; next }
		p = substr($0, RSTART + 12, RLENGTH - 13)
		cnt[p]++; order[++n] = p; line[p] = FNR
		hd[p] = heading; anc[p] = anchored
		if (secof[heading] != "") bad[++nbad] = FNR ": a second Patch: line under the heading of line " heading
		secof[heading] = p
	}
	END {
		ns = split(series, S, " ")
		for (i = 1; i <= ns; i++) {
			p = S[i]; inser[p] = i
			d = "walkthrough section for " p
			if (!(p in cnt)) printf "not ok\t%s\tno line \"**Patch:** [...](../patches/%s)\" in %s\n", d, p, fn
			else if (cnt[p] > 1) printf "not ok\t%s\t%d sections name it\n", d, cnt[p]
			else if (!hd[p]) printf "not ok\t%s\tline %d comes before any heading\n", d, line[p]
			else if (!anc[p]) printf "not ok\t%s\tthe heading on line %d has no <a id=\"...\"></a> on the line above it\n", d, hd[p]
			else printf "ok\t%s\t\n", d
		}
		why = ""; last = 0
		for (j = 1; j <= n; j++) {
			p = order[j]
			if (!(p in inser)) { why = why sprintf("line %d describes %s, which is not in patches/series\037", line[p], p); continue }
			if (inser[p] < last) why = why sprintf("%s (line %d) is out of series order\037", p, line[p])
			last = inser[p]
		}
		for (j = 1; j <= nbad; j++) why = why "line " bad[j] "\037"
		if (why == "") printf "ok\twalkthrough sections follow patches/series, none for other patches\t\n"
		else printf "not ok\twalkthrough sections follow patches/series, none for other patches\t%s\n", why
	}' "$md"
}

# md_anchors MD: the fragments a link may use into MD: the ids of
# <a id="..."> and GitHub-style slugs of the headings.
md_anchors() {
	awk '
	/^```/ { fence = !fence; next }
	fence { next }
	{
		s = $0
		while (match(s, /id="[^"]*"/)) { print substr(s, RSTART + 4, RLENGTH - 5); s = substr(s, RSTART + RLENGTH) }
	}
	/^#+ / {
		h = $0; sub(/^#+ +/, "", h); sub(/[ \t#]*$/, "", h)
		h = tolower(h); slug = ""
		for (i = 1; i <= length(h); i++) {
			c = substr(h, i, 1)
			if (c ~ /[a-z0-9_-]/) slug = slug c
			else if (c == " ") slug = slug "-"
		}
		if (slug in seen) { seen[slug]++; slug = slug "-" seen[slug] } else seen[slug] = 0
		print slug
	}' "$1"
}

# check_links ROOT MD...: one result per file.
check_links() {
	local root md out t ln path frag dir target why
	root=$(realpath "$1"); shift
	for md in "$@"; do
		why=""
		dir=$(dirname "$md")
		# file<TAB>line<TAB>target for each link outside fenced blocks and
		# code spans: inline [text](target) and reference [label]: target.
		out=$(awk '
		/^```/ { fence = !fence; next }
		fence { next }
		{
			s = $0
			gsub(/`[^`]*`/, "", s)
			if (match(s, /^ *\[[^]]+\]: +[^ ]+/)) {
				t = substr(s, RSTART, RLENGTH); sub(/^ *\[[^]]+\]: +/, "", t)
				print FNR "\t" t
			}
			while (match(s, /\]\([^) ]*\)/)) {
				print FNR "\t" substr(s, RSTART + 2, RLENGTH - 3)
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$md")
		while IFS=$'\t' read -r ln t; do
			[ -n "$t" ] || continue
			case "$t" in
			http://*|https://*|mailto:*) continue ;;
			'#'*) path=$md frag=${t#\#} ;;
			*'#'*) path=$dir/${t%%#*} frag=${t#*#} ;;
			*) path=$dir/$t frag= ;;
			esac
			target=$(realpath -m "$path")
			case "$target/" in
			"$root"/*) ;;
			*) why+="line $ln: $t points outside the repo"$'\037'; continue ;;
			esac
			if [ ! -e "$target" ]; then
				why+="line $ln: $t does not exist"$'\037'
			elif [ -n "$frag" ] && [ "${target%.md}" != "$target" ] &&
			     ! md_anchors "$target" | grep -qxF -- "$frag"; then
				why+="line $ln: $t: no heading or <a id> \"$frag\" in ${target#"$root"/}"$'\037'
			fi
		done <<<"$out"
		printf '%s\t%s\t%s\n' "$([ -z "$why" ] && echo ok || echo 'not ok')" \
			"relative links in ${md#"$root"/} resolve" "$why"
	done
}

# check_pictures ROOT MD...: one result per file.
check_pictures() {
	local root=$1; shift
	awk -v root="$root" '
	function out(   d) {
		fn = cur
		if (index(fn, root "/") == 1) fn = substr(fn, length(root) + 2)
		d = "pictures in " fn " are ASCII, tab-free, <= 80 columns"
		printf "%s\t%s\t%s\n", why == "" ? "ok" : "not ok", d, why
	}
	FNR == 1 { if (NR > 1) out(); cur = FILENAME; fence = 0; why = "" }
	/^```/ {
		if (fence) fence = 0
		else fence = ($0 ~ /from:/) ? 2 : 1
		next
	}
	fence == 1 {
		if (index($0, "\t")) why = why "line " FNR ": a tab\037"
		else if ($0 ~ /[^ -~]/) why = why "line " FNR ": not ASCII\037"
		else if (length($0) > 80) why = why "line " FNR ": " length($0) " columns\037"
	}
	END { if (NR > 0) out() }' "$@"
}

# The outside pointers, assembled so that this file does not hold them.
OUTSIDE_DIR='\.\./sha''red' OUTSIDE_ABI='ab''i\.md'
# check_standalone ROOT: one line, ok if no file under ROOT (build/ and
# .git aside) points outside the clone.
check_standalone() {
	local hits
	hits=$(grep -rIlE --exclude-dir=build --exclude-dir=.git \
		"$OUTSIDE_DIR|$OUTSIDE_ABI" "$1" 2>/dev/null | sed "s|^$1/||" | tr '\n' ' ')
	printf '%s\t%s\t%s\n' "$([ -z "$hits" ] && echo ok || echo 'not ok')" \
		"no file points at the design folder outside the clone" \
		"${hits:+in: $hits}"
}

# --- Self-tests: each checker must catch what it exists to catch. -------
R=()	# results: "status<TAB>description<TAB>detail"
self() {	# self DESCRIPTION EXPECT(ok|fail) OUTPUT
	local got=ok
	grep -q '^not ok' <<<"$3" && got=fail
	[ -n "$3" ] || got=none
	if [ "$got" = "$2" ]; then
		R+=("ok	self-test: $1	")
	else
		R+=("not ok	self-test: $1	expected $2, the checker said:"$'\037'"$(tr '\t\n' ' \037' <<<"$3")")
	fi
}

W=$K/docs/walkthrough.md
S=$T/self
mkdir -p "$S/patches" "$S/docs"
# The first excerpt of the walkthrough, and its patch, as the specimen.
spec=$(awk '/^```.*from:patches\// && !f { f = 1; print; next } f { print; if (/^```[ \t]*$/) exit }' "$W" 2>/dev/null)
spatch=$(sed -n '1s/.*from:\(patches\/[^ ]*\).*/\1/p' <<<"$spec")
if [ -n "$spatch" ] && [ -f "$K/$spatch" ]; then
	cp "$K/$spatch" "$S/$spatch"
	basename "$spatch" >"$S/patches/series"
	# The second line of the excerpt (its first quoted line), altered by one
	# character: a stale excerpt.
	quoted=$(sed -n 2p <<<"$spec")
	stale=${quoted%?}X
	[ "$stale" != "$quoted" ] || stale=${quoted%?}Y
	printf '%s\n' "$spec" >"$S/docs/good.md"
	awk -v q="$quoted" -v s="$stale" 'NR == 2 && $0 == q { $0 = s } 1' "$S/docs/good.md" >"$S/docs/stale.md"
	self "a true excerpt passes" ok "$(check_excerpts "$S" "$S/docs/good.md")"
	self "an excerpt with one character changed is reported" fail "$(check_excerpts "$S" "$S/docs/stale.md")"
	# The other way round: the patch is regenerated and the quoted line
	# changes under a document that did not.
	cp "$S/$spatch" "$S/orig.patch"
	awk -v q="$quoted" -v s="$stale" '$0 == q && !d { $0 = s; d = 1 } 1' "$S/orig.patch" >"$S/$spatch"
	self "a changed patch under an unchanged excerpt is reported" fail "$(check_excerpts "$S" "$S/docs/good.md")"
	cp "$S/orig.patch" "$S/$spatch"
	# Two parts of a [...] excerpt in the wrong order.
	{ sed -n 1p <<<"$spec"; sed -n 3p <<<"$spec"; echo '[...]'; sed -n 2p <<<"$spec"; echo '```'; } >"$S/docs/order.md"
	self "parts of an excerpt out of order are reported" fail "$(check_excerpts "$S" "$S/docs/order.md")"
	# A patch added to the series without a section.
	{ echo "<a id=\"x\"></a>"; echo "## x"; echo "**Patch:** [\`$(basename "$spatch")\`](../patches/$(basename "$spatch"))"; } >"$S/docs/walk.md"
	self "a walkthrough with a section for every patch passes" ok "$(check_sections "$S" "$S/docs/walk.md")"
	echo 0099-new.patch >>"$S/patches/series"
	self "a patch in the series without a section is reported" fail "$(check_sections "$S" "$S/docs/walk.md")"
else
	R+=("not ok	self-tests of the checkers	docs/walkthrough.md has no excerpt to use as a specimen")
fi
printf '<a id="here"></a>\n# Top\n[a](walk.md) [b](walk.md#x) [c](#top) [d](#here)\n' >"$S/docs/links.md"
self "links to files and anchors that exist pass" ok "$(check_links "$S" "$S/docs/links.md")"
printf '[a](nowhere.md)\n' >"$S/docs/broken.md"
self "a link to a missing file is reported" fail "$(check_links "$S" "$S/docs/broken.md")"
printf '[a](walk.md#no-such-anchor)\n' >"$S/docs/frag.md"
self "a link to a missing anchor is reported" fail "$(check_links "$S" "$S/docs/frag.md")"
mkdir -p "$S/alone/tests"
printf 'int main(void) { return 0; }\n' >"$S/alone/tests/t.c"
self "a tree that cites nothing outside passes" ok "$(check_standalone "$S/alone")"
printf '/* as %s/%s says */\n' '../sha''red' 'ab''i.md' >"$S/alone/tests/u.c"
self "a file citing the outside contract is reported" fail "$(check_standalone "$S/alone")"
printf '```\n\tx\n```\n' >"$S/docs/pic.md"
self "a picture with a tab is reported" fail "$(check_pictures "$S" "$S/docs/pic.md")"

# --- The real documents. -----------------------------------------------
shopt -s nullglob globstar
docs=("$K"/docs/*.md)
if [ ${#docs[@]} -eq 0 ]; then
	R+=("not ok	docs/ has Markdown files	there is no docs/*.md")
else
	mapfile -t -O "${#R[@]}" R < <(check_excerpts "$K" "${docs[@]}")
	if [ -f "$W" ]; then
		mapfile -t -O "${#R[@]}" R < <(check_sections "$K" "$W")
	else
		R+=("not ok	docs/walkthrough.md exists	")
	fi
	mapfile -t -O "${#R[@]}" R < <(check_pictures "$K" "${docs[@]}")
fi
linked=("${docs[@]}")
[ -f "$K/README.md" ] && linked+=("$K/README.md")
linked+=("$K"/labs/**/*.md)
mapfile -t -O "${#R[@]}" R < <(check_links "$K" "${linked[@]}")
mapfile -t -O "${#R[@]}" R < <(check_standalone "$K")

# make help's kernel entry (its line and the lines wrapped under it)
# names each flavour the docs build with "make kernel FLAVOUR=X" (issue
# 29, item 9: it said FLAVOUR=debug only, where docs/gdb.md says
# FLAVOUR=gdb for the debug-info kernel).
help=$(make -s -C "$K" help 2>/dev/null | awk '/^ *make kernel / { on = 1; print; next }
	on && /^          / { print; next } { on = 0 }' | tr -s ' \n' ' ')
while read -r fl; do
	d="make help's kernel line names FLAVOUR=$fl, which the docs build with make kernel"
	if grep -qE "FLAVOUR=$fl([^a-z-]|$)" <<<"$help"; then R+=("ok	$d	")
	else R+=("not ok	$d	make help says: $help"); fi
done < <(grep -rhozE 'make kernel[[:space:]]+FLAVOUR=[a-z-]+' "$K"/docs/*.md "$K/README.md" "$K"/labs/**/*.md |
	tr '\0' '\n' | sed -n 's/.*FLAVOUR=//p' | sort -u)

echo "1..${#R[@]}"
for r in "${R[@]}"; do
	IFS=$'\t' read -r st desc why <<<"$r"
	if [ "$st" = ok ]; then
		ok "$desc"
	else
		notok "$desc"
		[ -z "$why" ] || printf '%s\n' "$why" | tr '\037' '\n' | sed -e '/^$/d' | diag
	fi
done
