#!/usr/bin/env bash
# Offline tests of scripts/guest/stacks.sh: strict stack names in APPEND
# and a lab's BOOTS.
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"

echo "1..1"
# Strict stack names (scripts/guest/stacks.sh): a word of APPEND or of a lab's
# BOOTS that is no stack of configs/stacks.conf and no parameter the kernel
# documents stops the run before any guest, naming the word and the
# table; stack names, parameters with a value and documented flags pass.
# Before, a typo booted the default stack under the name asked for.
# STACKS_SABOTAGE: a sed script applied to stacks.sh first.
stackcase() (
	S=$T/stacks
	rm -rf "$S" && mkdir -p "$S/kit" && cp -r "$K/scripts" "$K/tests" "$K/configs" "$S/kit/" || exit 1
	[ -z "${STACKS_SABOTAGE:-}" ] || sed -i "$STACKS_SABOTAGE" "$S/kit/scripts/guest/stacks.sh"
	export BUILD=$S/build FLAVOUR=normal
	mkdir -p "$BUILD/linux/Documentation/admin-guide" || exit 1
	printf '\tnokaslr\t\t[KNL]\n\tlsm.debug\t[SECURITY] Enable LSM initialization debugging output.\n' \
		>"$BUILD/linux/Documentation/admin-guide/kernel-parameters.txt"
	cd "$S/kit" || exit 1
	out=$(APPEND='selinux-apparmr' scripts/guest/run-guest.sh --cmd true 2>&1) &&
		{ echo "APPEND=selinux-apparmr: run-guest.sh went on"; exit 1; }
	grep -q '"selinux-apparmr": no stack of configs/stacks.conf' <<<"$out" ||
		{ echo "APPEND=selinux-apparmr: not the message: $out"; exit 1; }
	[ ! -e "$BUILD/logs/guest-run.log" ] || { echo "APPEND=selinux-apparmr: a guest was started"; exit 1; }
	out=$(APPEND='selinux-apparmor nokaslr lsm.debug lsm=capability,selinux kit.x=1' \
		scripts/guest/run-guest.sh --cmd true 2>&1)
	grep -q 'no kernel at' <<<"$out" ||
		{ echo "stack, flags and parameters: refused before the kernel check: $out"; exit 1; }
	# A lab whose BOOTS has a typo: refused at its config stage.
	mkdir -p labs/01-typo/solution && echo 'int main(void) { return 0; }' >labs/01-typo/solution/x.c &&
		printf 'TITLE=typo\nMINUTES=1\nSOURCE=x.c\nBOOTS=(default selinux-apparmr)\n' >labs/01-typo/lab.conf || exit 1
	out=$(LABS_DIR=$S/kit/labs SOLUTION=1 scripts/lab/lab.sh run 1 2>&1) &&
		{ echo "BOOTS=(default selinux-apparmr): lab.sh went on"; exit 1; }
	grep -q "labs/01-typo/lab.conf:4: BOOTS has \"selinux-apparmr\"" <<<"$out" ||
		{ echo "BOOTS typo: not the message: $out"; exit 1; }
	exit 0
)
sabotaged "a word of APPEND or of a lab's BOOTS that is no stack and no kernel parameter stops the run before a guest, named with configs/stacks.conf" \
	"a stacks.sh that lets every word through" stackcase STACKS_SABOTAGE '/\[\[ "\$w" == \*=\* \]\] && continue/a continue'
