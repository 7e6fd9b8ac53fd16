#!/usr/bin/env bash
# The words of APPEND (and of a lab's BOOTS, a boot line of
# tests/boots.conf), strictly: each one is a stack of configs/stacks.conf,
# a parameter with a value (lsm=..., kit.timeout=300), or a parameter
# without one that the kernel documents (nokaslr, lsm.debug: a line of
# the tree's Documentation/admin-guide/kernel-parameters.txt).  Any other
# word is a typo: before, it went to the kernel as it was, which ignored
# it, and the guest booted the default stack under the name asked for
# (an order-dependent lab passed on two identical boots).  Without the
# tree (a clone that has built nothing yet) only the stack names are
# known, and other words wait for the check run-guest.sh makes.
#
# Sourced (check_stack_words WORDS WHERE [strict]), or run: stacks.sh WORDS.
# strict (the offline lab check, which has no tree): a word that is no
# stack and no parameter with a value is an error even without the tree.

# check_stack_words WORDS WHERE [strict]: die, naming WHERE, on the first
# unknown word.
check_stack_words() {
	local w doc='' names='' n
	for w in $1; do
		[[ "$w" == *=* ]] && continue
		# The stacks' names, one a line (read here: every guest asks).
		if [ -z "$names" ]; then
			while IFS= read -r n; do
				[[ "$n" == *'|'* && "$n" != *([[:space:]])#* ]] || continue
				n=${n%%|*}
				names+=${names:+$'\n'}${n//[ $'\t']/}
			done <"$KIT/configs/stacks.conf"
		fi
		[[ $'\n'$names$'\n' == *$'\n'"$w"$'\n'* ]] && continue
		# The kernel's own list, of the tree of the flavour that boots.
		if [ -z "$doc" ]; then
			doc=$TREE/Documentation/admin-guide/kernel-parameters.txt
			[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] || doc=$MAINLINE_TREE/Documentation/admin-guide/kernel-parameters.txt
		fi
		if [ ! -f "$doc" ]; then
			[ "${3:-}" = strict ] || continue
			die "$2 has \"$w\": no stack of configs/stacks.conf has that name (and without the tree, $(rel "$doc"), no kernel parameter without a value can be checked)." \
			    "Use a stack's name ($(paste -sd, <<<"$names" | sed 's/,/, /g')); a kernel parameter goes in a stack's line of configs/stacks.conf, or with its value (lsm=...)."
		fi
		awk -v w="$w" '/^\t/ && $1 == w { f = 1; exit } END { exit !f }' "$doc" && continue
		die "$2 has \"$w\": no stack of configs/stacks.conf has that name, and the kernel documents no such parameter ($(rel "$doc"))." \
		    "Use a stack's name ($(paste -sd, <<<"$names" | sed 's/,/, /g')) or a kernel parameter, such as lsm=capability,selinux."
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	. "$(dirname "$0")/../lib/lib.sh"
	check_stack_words "${1:-}" "APPEND"
fi
