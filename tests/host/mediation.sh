#!/usr/bin/env bash
# docs/toylsm.md's "Mediation, hook by hook" against the kit's tree (TAP
# on stdout, run by `make test`; issue 43): every hook that SELinux
# (security/selinux/hooks.c) or Smack (security/smack/smack_lsm.c)
# registers with LSM_HOOK_INIT in build/linux is in exactly one row of
# the table, and that row has exactly one of its two columns ("toylsm
# checks", "not mediated"). A hook of a "checks" row is one that toylsm
# registers (demo-lsm/*.c), and such a row names guest tests
# ("FILE.c: NAME", separated by ";") that exist in guest/tests/. A name
# in the table that no module registers is a typo, and fails too.
# The checker first proves, on altered copies of the page, that it
# fails for a row removed, a row with both columns, a checked hook
# toylsm does not register and a guest test that does not exist. The
# rows that a label's other names need (issue 54) are each in a row of
# their own, in their column (new_rows), shown failing the same way.
set -u
K=$(cd "$(dirname "$0")/../.." && pwd -P)
. "$K/tests/host/tap.bash"
TREE=${BUILD:-$K/build}/linux

echo "1..9"
if [ ! -f "$TREE/security/smack/smack_lsm.c" ]; then
	mkdir -p "${BUILD:-$K/build}"
	flock "${BUILD:-$K/build}/.tree.lock" "$K/scripts/kernel/tree.sh" >"$T/tree.log" 2>&1 ||
		{ echo "Bail out! no tree in $TREE and scripts/kernel/tree.sh failed: $(tail -2 "$T/tree.log" | tr '\n' ' ')"; exit 1; }
fi

# check PAGE: what is wrong with PAGE's table, one line each; exit 1 if
# anything is.
check() {
	python3 - "$1" "$TREE" "$K" <<'EOF'
import glob, os, re, sys

page, tree, kit = sys.argv[1:4]
hook_re = re.compile(r'LSM_HOOK_INIT\(\s*([a-z0-9_]+)\s*,')

def hooks(paths):
    out = set()
    for p in paths:
        with open(p, encoding='utf-8', errors='replace') as f:
            out |= set(hook_re.findall(f.read()))
    return out

selinux = hooks([os.path.join(tree, 'security/selinux/hooks.c')])
smack = hooks([os.path.join(tree, 'security/smack/smack_lsm.c')])
toylsm = hooks(glob.glob(os.path.join(kit, 'demo-lsm/*.c')))
if len(selinux) < 100 or len(smack) < 50:
    sys.exit('the hook lists of the tree look wrong: %d SELinux, %d Smack hooks'
             % (len(selinux), len(smack)))
tests = set()
for p in glob.glob(os.path.join(kit, 'guest/tests/*.c')):
    with open(p, encoding='utf-8', errors='replace') as f:
        for m in re.finditer(r'^TEST(?:_F)?(?:_TIMEOUT)?\(\s*(?:[a-z0-9_]+\s*,\s*)?([a-z0-9_]+)',
                             f.read(), re.M):
            tests.add(os.path.basename(p) + ': ' + m.group(1))

bad = []
rows = {}
section = False
with open(page, encoding='utf-8') as f:
    for n, line in enumerate(f, 1):
        if line.startswith('## '):
            section = line.strip() == '## Mediation, hook by hook'
            continue
        if not section or not line.startswith('| `'):
            continue
        cells = [c.strip() for c in line.rstrip('\n').split('|')[1:-1]]
        if len(cells) != 4:
            bad.append('line %d: %d cells, not 4' % (n, len(cells)))
            continue
        names = re.findall(r'`([a-z0-9_]+)`', cells[0])
        checks, free, named = cells[1], cells[2], cells[3]
        if bool(checks) == bool(free):
            bad.append('line %d (%s): %s' % (n, ', '.join(names),
                       'both columns filled' if checks else 'neither column filled'))
        for h in names:
            if h in rows:
                bad.append('%s: in two rows, lines %d and %d' % (h, rows[h], n))
            rows[h] = n
            if h not in selinux | smack | toylsm:
                bad.append('%s (line %d): no module registers such a hook' % (h, n))
            if checks and h not in toylsm:
                bad.append('%s (line %d): "toylsm checks", but toylsm registers no such hook' % (h, n))
        if checks:
            given = [t.strip() for t in named.split(';') if t.strip()]
            if not given:
                bad.append('line %d (%s): checked, but no guest test named' % (n, ', '.join(names)))
            for t in given:
                if t not in tests:
                    bad.append('line %d: no guest test "%s" in guest/tests/' % (n, t))
        elif named:
            bad.append('line %d (%s): a guest test for a row that checks nothing' % (n, ', '.join(names)))
for h in sorted((selinux | smack) - set(rows)):
    who = ' and '.join(m for m, s in (('SELinux', selinux), ('Smack', smack)) if h in s)
    bad.append('%s (%s): in no row of the table' % (h, who))
if not rows:
    bad.append('no table under "## Mediation, hook by hook"')
print('\n'.join(bad))
print('%d hooks of SELinux and Smack, %d rows' % (len(selinux | smack), len(set(rows.values()))),
      file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}

# new_rows PAGE: what is wrong with the rows of issue 54 in PAGE's
# table, one line each; exit 1 if anything is. Each hook (file_ioctl
# with its 32-bit twin) has a row of its own: a checked one where toylsm
# answers (file_ioctl, task_to_inode, the terminal at a relabel in
# bprm_committing_creds), "not mediated" with the reason for
# inode_mknod and uring_override_creds, which says that io_uring is off
# in the kit's kernel.
# shellcheck disable=SC2016 # the backquotes are the page's, not the shell's
new_rows() {
	local row col hooks bad=0
	for row in 'checked:`file_ioctl`, `file_ioctl_compat`' 'checked:`task_to_inode`' \
		'checked:`bprm_committing_creds`' 'free:`inode_mknod`' 'free:`uring_override_creds`'; do
		col=${row%%:*}
		hooks=${row#*:}
		if [ "$col" = checked ]; then
			grep -qE "^\| $hooks \| [^ |]" "$1" ||
				{ echo "$hooks: no checked row of its own"; bad=1; }
		else
			grep -qE "^\| $hooks \| \| [^ |]" "$1" ||
				{ echo "$hooks: no \"not mediated\" row of its own"; bad=1; }
		fi
	done
	grep -qE '^\| `uring_override_creds` \|.*CONFIG_IO_URING' "$1" ||
		{ echo 'uring_override_creds: its row does not say that io_uring (CONFIG_IO_URING) is off'; bad=1; }
	return $bad
}

# sabotaged DESC SED WANT [CHECKER]: CHECKER (check unless given) fails
# on the page edited by SED, and says WANT (an ERE).
sabotaged() {
	local checker=${4:-check}
	sed -E "$2" "$K/docs/toylsm.md" >"$T/page.md"
	if cmp -s "$T/page.md" "$K/docs/toylsm.md"; then
		notok "$1 # the edit changed nothing: fix this test"
	elif "$checker" "$T/page.md" >"$T/out" 2>/dev/null; then
		notok "$1 # the check passed"
	elif grep -qE "$3" "$T/out"; then
		ok "$1"
	else
		notok "$1"
		diag 5 <"$T/out"
	fi
}

sabotaged "the check fails for a row removed (file_lock's)" \
	'/^\| `file_lock` \|/d' '^file_lock \(SELinux and Smack\): in no row'
sabotaged "the check fails for a row with both columns" \
	's/^(\| `file_fcntl` \| )\|/\1fcntl: r |/' 'file_fcntl\): both columns filled'
sabotaged "the check fails for a checked hook that toylsm does not register" \
	's/^\| `path_notify` \| \| (.*) \| \|$/| `path_notify` | r | | toylsm_holes.c: truncation_needs_w |/' \
	'^path_notify .*toylsm registers no such hook'
sabotaged "the check fails for a guest test that does not exist" \
	's/toylsm_holes.c: truncation_needs_w/toylsm_holes.c: no_such_test/' 'no guest test "toylsm_holes.c: no_such_test"'
# shellcheck disable=SC2016 # the backquotes are the page's, not the shell's
sabotaged "the rows of issue 54 fail for inode_mknod back in the row of inode_create" \
	'/^\| `inode_mknod` \|/d; s/^\| `inode_create`, /| `inode_create`, `inode_mknod`, /' \
	'^`inode_mknod`: no "not mediated" row' new_rows
# shellcheck disable=SC2016 # the backquotes are the page's, not the shell's
sabotaged "the rows of issue 54 fail for a uring_override_creds row that does not say io_uring is off" \
	's/^(\| `uring_override_creds` \|.*)CONFIG_IO_URING/\1CONFIG_X/' 'io_uring \(CONFIG_IO_URING\) is off' new_rows
new_rows_of_the_page() { new_rows "$K/docs/toylsm.md"; }
scenario "the rows of issue 54 (file_ioctl, task_to_inode, bprm_committing_creds, inode_mknod, uring_override_creds) are rows of their own, each in its column" \
	new_rows_of_the_page

check "$K/docs/toylsm.md" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc = 0 ]; then
	ok "every hook of SELinux and Smack is in one row of docs/toylsm.md's table, in one column ($(cat "$T/err"))"
else
	notok "every hook of SELinux and Smack is in one row of docs/toylsm.md's table, in one column"
	cat "$T/out" "$T/err" | diag 30
fi

# The table and the stats file agree: a hook with a line in "stats"
# (demo-lsm's TOYLSM_HOOK_STAT) checks rules, so its row is a checked one.
stats_rows() {
	local h bad=0
	while read -r h; do
		grep -qE "^\| ([^|]*, )?\`$h\`[^|]*\| [^ |]" "$K/docs/toylsm.md" ||
			{ echo "$h has a stats line but no checked row"; bad=1; }
	done < <(grep -ho 'TOYLSM_HOOK_STAT([a-z0-9_]*)' "$K"/demo-lsm/*.c | sed 's/.*(\(.*\))/\1/' | sort -u)
	return $bad
}
scenario "every hook with a line in stats is a checked row of the table" stats_rows
