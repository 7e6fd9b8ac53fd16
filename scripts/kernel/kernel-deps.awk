# The folders of the tree that Kbuild's .cmd files (cwd: the output folder
# KOUT) list as read: the source_ line and the deps_ block of each object,
# which fixdep wrote from the compiler's own record (headers, included
# sources, linker scripts).  One folder a line, under TREE; the
# $(wildcard include/config/...) lines (the output folder's) and the
# toolchain's own headers are left out.  scripts/kernel/kernel.sh's kernel_watch.
# awk -v kout=KOUT -v tree=TREE -f kernel-deps.awk FILE.cmd...

# norm PATH: PATH without "." and "dir/.." parts (it is absolute).
function norm(p,    n, i, k, part, out) {
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "" || part[i] == ".") continue
		if (part[i] == "..") { if (k > 0) k--; continue }
		out[++k] = part[i]
	}
	p = ""
	for (i = 1; i <= k; i++) p = p "/" out[i]
	return p
}
function take(t,    p) {
	if (t == "" || t == "\\" || substr(t, 1, 2) == "$(") return
	p = norm(substr(t, 1, 1) == "/" ? t : kout "/" t)
	if (index(p, tree "/") != 1) return
	sub(/\/[^\/]*$/, "", p)
	if (!(p in seen)) { seen[p] = 1; print p }
}
FNR == 1 { inblock = 0 }
/^source_[^ ]* := / { take($3); next }
/^deps_[^ ]* := *\\?$/ { inblock = 1; next }
inblock && /^$/ { inblock = 0; next }
inblock { take($1) }
