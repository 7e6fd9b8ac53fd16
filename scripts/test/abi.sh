#!/usr/bin/env bash
# make abi: the same questions about the LSM system calls (which modules,
# in which order, with which IDs; the task's contexts; the size probe;
# flags; an unknown ID), asked of the kit's kernel and of the reference
# kernel, mainline 6.12 (FLAVOUR=mainline), booted with the same stack.
# tests/abi/lsm_side.c is built twice, each time against that kernel's own
# UAPI headers (the kit's lsm_self_attr/lsm_module_list, mainline's
# lsm_get_self_attr/lsm_list_modules), and the answers are printed in two
# columns, '*' where they differ.
#
#   abi.sh [--check] [STACK]   STACK: a stack of configs/stacks.conf that
#                              mainline can boot too (default: smack)
# --check: the rows that differ must be exactly the ones of the table in
# docs/stacking-then-and-now.md (#abi): TAP, exit 1 otherwise.
# --bench: instead of the questions, what reading every attribute (kit:
# one lsm_self_attr(); mainline: one lsm_get_self_attr() per attribute)
# and the module list cost, in units of each kernel's getppid() (median of
# 41 paired repetitions, with their spread; the guests get the TSC clock
# of make bench).  make bench MAINLINE=1 puts the same figures, for two
# stacks, in its table (scripts/bench/bench-mainline.sh).
# Answers: build/abi/{normal,mainline}.txt (--bench: bench-*.txt).
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"

check=0 stack=smack bench=0
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1 ;;
	--bench) bench=1 ;;
	-*) die "abi.sh: unknown option '$1'." "Usage: abi.sh [--check|--bench] [STACK]" ;;
	*) stack=$1 ;;
	esac
	shift
done
grep -qE "^${stack}[[:space:]]*\|" "$KIT/configs/stacks.conf" ||
	die "no stack '$stack' in configs/stacks.conf." "Name one of its stacks that mainline boots too: smack, apparmor, selinux, none, no-attrs."
# The document's table is what the smack stack shows (module lists and
# values differ from stack to stack).
[ $check = 0 ] || [ "$stack" = smack ] ||
	die "make abi CHECK=1 compares with docs/stacking-then-and-now.md, whose table is the smack stack's; STACK=$stack answers other questions differently." \
	    "Leave STACK out with CHECK=1, or run make abi STACK=$stack without CHECK=1."
DOC=$KIT/docs/stacking-then-and-now.md
OUTD=$BUILD/abi
mkdir -p "$OUTD"

for fl in normal mainline; do
	"$KIT/scripts/kernel/kernel.sh" --flavour "$fl" || exit 1
	bin=$OUTD/lsm_side-$fl
	FLAVOUR=$fl "$KIT/scripts/guest/guest-cc.sh" -o "$bin" "$KIT/tests/abi/lsm_side.c" ||
		die "tests/abi/lsm_side.c does not compile against the $fl kernel's headers (above)." "Fix the first error shown."
done
if [ $bench = 1 ]; then
	. "$KIT/scripts/bench/bench-lib.sh"
	for fl in normal mainline; do
		APPEND="$(tsc_clock) $stack" "$KIT/scripts/guest/run-guest.sh" --flavour "$fl" --quiet --name "abi-bench-$fl" \
			--bin "$OUTD/lsm_side-$fl" --cmd "/kit/bin/lsm_side-$fl --bench" || exit 1
		cp "$LOGS/guest-abi-bench-$fl.out" "$OUTD/bench-$fl.txt"
	done
	say "every attribute and the module list against getppid, paired, stack $stack ($(stack_cmdline "$stack")), accel $("$KIT/scripts/guest/accel.sh")"
	exec /usr/bin/python3 "$KIT/scripts/test/abi.py" table "$OUTD/bench-normal.txt" "$OUTD/bench-mainline.txt"
fi
for fl in normal mainline; do
	APPEND=$stack "$KIT/scripts/guest/run-guest.sh" --flavour "$fl" --quiet --name "abi-$fl" \
		--bin "$OUTD/lsm_side-$fl" --cmd "/kit/bin/lsm_side-$fl" || exit 1
	cp "$LOGS/guest-abi-$fl.out" "$OUTD/$fl.txt"
done
say "the same questions on both kernels, stack $stack ($(stack_cmdline "$stack"))"
/usr/bin/python3 "$KIT/scripts/test/abi.py" table "$OUTD/normal.txt" "$OUTD/mainline.txt" || exit 1
[ $check = 1 ] || exit 0
/usr/bin/python3 "$KIT/scripts/test/abi.py" check "$OUTD/normal.txt" "$OUTD/mainline.txt" "$DOC"
