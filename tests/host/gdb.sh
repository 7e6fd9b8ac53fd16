#!/usr/bin/env bash
# make gdb, driven by gdb in batch mode (scripts/debug/gdb.sh with GDB_BATCH):
# the debug-info kernel (FLAVOUR=gdb) boots with the stub, gdb stops at a
# breakpoint in security_file_open when the guest's shell opens
# /tmp/kit-gdb-probe, then prints the backtrace, the kernel's lx-ps and
# the kit's commands (scripts/debug/gdb-lsm.py), and lets the guest finish.
# Checked against what the guest itself says (its /sys/kernel/security/lsm,
# its /proc/self/attr/*/current, the toylsm rule it wrote) and the tree's
# sources (which modules register file_open):
#
#   - the breakpoint is hit, with security_file_open in frame 0 and the
#     open path (do_dentry_open, path_openat) under it;
#   - lsm hooks file_open lists the modules in the order of
#     /sys/kernel/security/lsm, filtered to those whose sources register
#     file_open (LSM_HOOK_INIT(file_open, ...) under security/NAME/);
#   - lsm active lists every module of /sys/kernel/security/lsm, in order;
#   - lsm task names the default interface LSM, and Smack's and toylsm's
#     labels as the guest's /proc/self/attr/<lsm>/current give them;
#   - lsm toylsm shows the rule the guest wrote;
#   - lx-ps (the kernel's own helper) lists the guest's init.
#
# A test that cannot fail is no test: each check is also run on a second
# session, the same guest debugged with a vmlinux without DWARF (the
# normal kernel's: the symbols missing), and must fail there, and on the
# good session against a wrong expectation (the order reversed, the
# second module with contexts, Smack's and toylsm's labels swapped,
# another rule, another PID), and must fail on it.
# docs/gdb.md's batch recipe (lsm break: a stop in the guest command's
# own open) is run as the page writes it, and checked likewise.
# Cost: the debug-info kernel (built here if missing: cold, about as long
# as the kit's kernel; docs/performance.md) and three boots under gdb.
K=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$K/build}
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

if ! command -v gdb >/dev/null; then
	echo "1..0 # SKIP gdb is not installed (make deps installs it)"
	exit 0
fi
N=9
echo "1..$N"
bail() {
	tail -n 15 "$2" | diag
	while [ "$TAP_N" -lt $N ]; do notok "$1"; done
	exit 1
}

FLAVOUR=gdb "$K/scripts/kernel/kernel.sh" >"$T/kernel.txt" 2>&1 ||
	bail "the debug-info kernel builds (make kernel FLAVOUR=gdb)" "$T/kernel.txt"
[ -f "$BUILD/vmlinux" ] || FLAVOUR=normal "$K/scripts/kernel/kernel.sh" >"$T/kernel.txt" 2>&1 ||
	bail "the kit's kernel builds (for the case without symbols)" "$T/kernel.txt"

# The guest: the module order, its labels, a toylsm rule, then the open
# that the breakpoint waits for.
CMD='cat /sys/kernel/security/lsm; echo
echo "smack=$(cat /proc/self/attr/smack/current)"
echo "toylsm=$(cat /proc/self/attr/toylsm/current)"
echo "init kitprobe rw" >/sys/kernel/security/toylsm/rules
echo probe >/tmp/kit-gdb-probe && cat /tmp/kit-gdb-probe'
# The breakpoint at the entry of security_file_open, where the file is
# in %rdi (the first argument, x86_64 ABI) whatever -Os made of `file`.
cat >"$T/batch" <<'EOF'
break *security_file_open if $_streq(((struct file *)$rdi)->f_path.dentry->d_name.name, "kit-gdb-probe")
continue
echo KIT-GDB-BT\n
bt
echo KIT-GDB-HOOKS\n
lsm hooks file_open
echo KIT-GDB-ACTIVE\n
lsm active
echo KIT-GDB-TASK\n
lsm task
echo KIT-GDB-TOYLSM\n
lsm toylsm
echo KIT-GDB-LXPS\n
lx-ps
echo KIT-GDB-END\n
delete
detach
EOF

session() {	# session NAME [VMLINUX]: gdb's output in $T/NAME.gdb, the guest's in $T/NAME.out
	GDB_VMLINUX=${2:-} FLAVOUR=gdb KIT_NOBUILD=1 GDB_BATCH=$T/batch CMD=$CMD \
		TIMEOUT=300 "$K/scripts/debug/gdb.sh" >"$T/$1.gdb" 2>&1
	cp "$BUILD/logs/guest-gdb.out" "$T/$1.out" 2>/dev/null || : >"$T/$1.out"
}
session good
session nosyms "$BUILD/vmlinux"

# docs/gdb.md's batch recipe, as the page writes it: the gdb file of its
# "cat >stop-in-probe.gdb <<'EOF'" and the make gdb line's CMD.
sed -n "/^    cat >stop-in-probe.gdb <<'EOF'\$/,/^    EOF\$/p" "$K/docs/gdb.md" |
	sed -e '1d' -e '$d' -e 's/^    //' >"$T/recipe.gdb"
RCMD=$(sed -n "s/^    make gdb CMD='\([^']*\)' GDB_BATCH=stop-in-probe.gdb\$/\1/p" "$K/docs/gdb.md")
if [ -s "$T/recipe.gdb" ] && [ -n "$RCMD" ]; then
	GDB_VMLINUX='' FLAVOUR=gdb KIT_NOBUILD=1 GDB_BATCH=$T/recipe.gdb CMD=$RCMD \
		TIMEOUT=300 "$K/scripts/debug/gdb.sh" >"$T/recipe.gdb.out" 2>&1
else
	echo "docs/gdb.md has no batch recipe (stop-in-probe.gdb, make gdb CMD=...)" >"$T/recipe.gdb.out"
fi

section() {	# section FILE NAME: the lines between KIT-GDB-NAME and the next marker
	awk -v s="KIT-GDB-$2" '$0 == s { on = 1; next } /^KIT-GDB-/ { on = 0 } on' "$1"
}
lsm_order() { head -1 "$1" | tr ',' ' '; }
# The modules whose sources register file_open (security/NAME/...).
hooked=$(cd "$BUILD/linux/security" && grep -rl --include='*.c' 'LSM_HOOK_INIT(file_open,' . |
	cut -d/ -f2 | sort -u | tr '\n' ' ')

# Each check: check_NAME GDB-OUTPUT GUEST-OUTPUT [wrong]; 0 = passes.
# With "wrong", the check expects something false (the reversed order,
# another module, another label...): it must then fail.
check_bt() {
	local b f=security_file_open
	[ "${3:-}" = wrong ] && f=security_inode_permission
	b=$(section "$1" BT)
	grep -qE "^#0 .*$f" <<<"$b" && grep -q 'do_dentry_open' <<<"$b" &&
		grep -q 'path_openat' <<<"$b"
}
want_order() {	# want_order GUEST-OUT [wrong] [FILTER...]: the expected modules
	local m out=() f
	for m in $(lsm_order "$1"); do
		if [ $# -gt 2 ]; then
			for f in "${@:3}"; do [ "$m" = "$f" ] && out+=("$m"); done
		else
			out+=("$m")
		fi
	done
	[ "$2" = wrong ] && mapfile -t out < <(printf '%s\n' "${out[@]}" | tac)
	echo "${out[*]}"
}
check_hooks() {
	local got want
	# shellcheck disable=SC2086 # $hooked: the modules, a word each
	want=$(want_order "$2" "${3:-}" $hooked)
	got=$(section "$1" HOOKS | sed -nE 's/^ +[0-9]+\. ([a-z]+) .*/\1/p' | tr '\n' ' ' | xargs)
	[ -n "$want" ] && [ "$got" = "$want" ]
}
check_active() {
	local got want
	want=$(want_order "$2" "${3:-}")
	got=$(section "$1" ACTIVE | sed -nE 's/^ +[0-9]+\. ([a-z]+) .*/\1/p' | tr '\n' ' ' | xargs)
	[ -n "$want" ] && [ "$got" = "$want" ]
}
check_interface() {	# the default: the first of lsm order with contexts
	local want
	want=$(want_order "$2" "" selinux smack apparmor toylsm | cut -d' ' -f"$([ "${3:-}" = wrong ] && echo 2 || echo 1)")
	[ -n "$want" ] && section "$1" TASK | grep -qE "^  interface LSM: $want \(none chosen: the default\)"
}
check_labels() {
	local smack toy t
	smack=$(sed -n 's/^smack=//p' "$2" | tr -d '\0') toy=$(sed -n 's/^toylsm=//p' "$2" | tr -d '\0')
	[ "${3:-}" = wrong ] && { t=$smack; smack=$toy; toy=$t; }
	t=$(section "$1" TASK)
	[ -n "$smack" ] && [ -n "$toy" ] &&
		grep -qE "^    slot [0-9] smack +[0-9]+  $smack\$" <<<"$t" &&
		grep -qE "^    slot [0-9] toylsm +[0-9]+  $toy\$" <<<"$t"
}
check_toylsm() {
	local r='  init kitprobe rw'
	[ "${3:-}" = wrong ] && r='  init kitprobe r'
	section "$1" TOYLSM | grep -qx "$r"
}
check_lxps() {
	local p=1
	[ "${3:-}" = wrong ] && p=2
	section "$1" LXPS | grep -qE "^0x[0-9a-f]+ +$p +init\$"
}

gdbcase() {	# gdbcase DESC CHECK: passes on the good session; fails without symbols and on a wrong expectation
	local desc=$1 c=$2
	if ! "$c" "$T/good.gdb" "$T/good.out"; then
		notok "$desc"
		diag <"$T/good.gdb" | grep -v '^# $' | tail -40
	elif "$c" "$T/nosyms.gdb" "$T/nosyms.out"; then
		notok "$desc (passes without the symbols too: the check cannot fail)"
	elif "$c" "$T/good.gdb" "$T/good.out" wrong; then
		notok "$desc (passes on a wrong expectation too: the check cannot fail)"
	else
		ok "$desc"
	fi
}

# The recipe stopped in the guest command's own open: security_file_open
# called from do_dentry_open, by the task probe (lsm task), and finish
# returned the walk's answer.  [wrong]: another task's name.
check_recipe() {
	local comm=probe
	[ "${2:-}" = wrong ] && comm='sh'
	grep -qE 'hit Breakpoint 1, security_file_open' "$1" && grep -qE '^#1 .* do_dentry_open' "$1" &&
		grep -qE "^task [0-9]+ \($comm\)\$" "$1" && grep -q '^Value returned is ' "$1"
}
desc="docs/gdb.md's batch recipe: lsm break file_open probe stops in the guest command's open (task probe), finish returns"
if ! check_recipe "$T/recipe.gdb.out"; then
	notok "$desc"
	tail -n 20 "$T/recipe.gdb.out" | diag
elif check_recipe "$T/good.gdb" || check_recipe "$T/recipe.gdb.out" wrong; then
	notok "$desc (passes on the file-name breakpoint's session or for another task too: the check cannot fail)"
else
	ok "$desc"
fi

if grep -q 'KIT-DONE .* status=0' "$T/good.out"; then
	ok "the guest under gdb ran its command to the end (status 0)"
else
	notok "the guest under gdb ran its command to the end (status 0)"
	tail -n 20 "$T/good.gdb" | diag
fi
gdbcase "gdb stops in security_file_open on the guest's open, with the open path in the backtrace" check_bt
gdbcase "lsm hooks file_open: the order of /sys/kernel/security/lsm, modules with file_open (${hooked% })" check_hooks
gdbcase "lsm active: every module of /sys/kernel/security/lsm, in order" check_active
gdbcase "lsm task: the default interface LSM (the first module with contexts)" check_interface
gdbcase "lsm task: Smack's and toylsm's labels as /proc/self/attr/*/current gives them" check_labels
gdbcase "lsm toylsm: the rule the guest wrote" check_toylsm
gdbcase "lx-ps (the kernel's vmlinux-gdb.py) lists the guest's init" check_lxps
