# make help: the Makefile's targets by room, each room under its "##@ ROOM:
# what" line, each target with the text of its "## " comment, wrapped to
# 79 columns (tests/host/lint.sh checks both).
BEGIN {
	W = 79; C = 22	# the width; the column of the texts
	print "The kit's targets, by room (scripts/ROOM/ does the work: docs/hacking.md)."
}
/^##@ / { sub(/^##@ +/, ""); printf "\n%s\n", $0; next }
/^[a-z][a-z-]*:.*## / {
	name = $0; sub(/:.*/, "", name)
	text = $0; sub(/^[^#]*## /, "", text)
	show(sprintf("  make %s", name), text)
}
# show HEAD TEXT: HEAD, then TEXT's words from column C, a new line
# (indented to C) before a word that would pass column W.
function show(head, text,   n, w, i, line) {
	n = split(text, w, " ")
	line = sprintf("%-" C "s", head)
	if (length(head) >= C) { print head; line = sprintf("%" C "s", "") }
	for (i = 1; i <= n; i++) {
		if (length(line) > C && length(line) + 1 + length(w[i]) > W) {
			print line
			line = sprintf("%" C "s", "")
		}
		line = line (length(line) > C ? " " : "") w[i]
	}
	print line
}
