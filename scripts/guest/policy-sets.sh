#!/usr/bin/env bash
# Compile the policy sets of configs/policy/ on the host into
# build/policy/SET/, which scripts/guest/initramfs.sh packs into every guest as
# /etc/policy/SET/ (the guest's /bin/policy loads them, guest/tools/policy.c):
#   apparmor/NAME            each profile, compiled by apparmor_parser for the
#   apparmor/NAME.complain   guest kernel's features (configs/policy/
#                            apparmor.features), as written and with -C
#   selinux/policy           the binary policy: the kernel's classes (mdp)
#                            + selinux/kit.te, compiled by checkpolicy
#                            (ALL_CLASSES in it: a rule once per class;
#                            ALL_CLASSES-C1-C2: but classes C1 and C2)
#   selinux/policy.conf      the same as text, as checkpolicy read it
#   smack.rules toylsm.rules landlock.rules files run   copied as they are
# Only when an input changed.  Nothing here touches the host's kernel: the
# parser only writes its output (-S, -Q), checkpolicy only writes a file.
#
#   policy.sh             compile every set
#   policy.sh --capture   boot the guest and store its AppArmor features in
#                         configs/policy/apparmor.features (after a change to
#                         the kernel's AppArmor)
#   policy.sh --set DIR OUT
#                         compile the one set in folder DIR (a copy a learner
#                         edits, for lab 10) into OUT/NAME, NAME being DIR's
#                         own name; always, and without touching build/policy
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"

SRC=$KIT/configs/policy
OUTD=$BUILD/policy
FEATURES=$SRC/apparmor.features

if [ "${1:-}" = --capture ]; then
	"$KIT/scripts/kernel/kernel.sh"
	APPEND=apparmor "$KIT/scripts/guest/run-guest.sh" --quiet --name policy-features \
		--cmd 'policy features' ||
		die "the guest could not print its AppArmor features." "See build/logs/guest-policy-features.log."
	# The channel's last line is the status line; a blank line comes before it.
	sed '/^KIT-DONE /d' "$LOGS/guest-policy-features.out" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$FEATURES"
	say "AppArmor features of the guest kernel stored in $(rel "$FEATURES")"
	exit 0
fi

ONE=
if [ "${1:-}" = --set ]; then
	[ $# = 3 ] && [ -d "$2" ] || die "usage: policy.sh --set DIR OUT (DIR: a folder holding a policy set)." "See the top of scripts/guest/policy-sets.sh."
	ONE=$(cd "$2" && pwd) OUTD=$(mkdir -p "$3" && cd "$3" && pwd)/$(basename "$ONE")
	SRC=$(dirname "$ONE")
fi

# apparmor_parser: Debian's apparmor package, downloaded and unpacked
# into build/tools/apparmor/ by scripts/host/deps.sh (never installed: its
# maintainer scripts would load profiles into the host's kernel).
PARSER=$BUILD/tools/apparmor/sbin/apparmor_parser
[ -x "$PARSER" ] || "$KIT/scripts/host/deps.sh"
[ -x "$PARSER" ] || die "no apparmor_parser at $(rel "$PARSER")." "Run make deps (it downloads Debian's apparmor package once)."
command -v checkpolicy >/dev/null || die "checkpolicy is not installed." "Run make deps (as root), or: apt-get install checkpolicy"

# mdp, the kernel's "make dummy policy" tool: we keep only the part of
# its output that lists the kernel's classes, initial SIDs, permissions
# and policy capabilities (everything before its one type, base_t).
MDP=$BUILD/tools/mdp
MDPSRC=$TREE/scripts/selinux/mdp/mdp.c
if [ ! -x "$MDP" ] || [ "$MDPSRC" -nt "$MDP" ] ||
   [ "$TREE/security/selinux/include/classmap.h" -nt "$MDP" ]; then
	[ -f "$MDPSRC" ] || flock "$BUILD/.tree.lock" "$KIT/scripts/kernel/tree.sh"
	mkdir -p "$BUILD/tools"
	[ -f "$KOUT/include/generated/autoconf.h" ] || "$KIT/scripts/kernel/kernel.sh"
	gcc -O2 -o "$MDP" -I"$TREE/include/uapi" -I"$TREE/include" \
		-I"$TREE/security/selinux/include" -I"$KOUT/include" "$MDPSRC" ||
		die "could not build the kernel's scripts/selinux/mdp." "Check that gcc works, then run make again."
fi

if [ -z "$ONE" ]; then
	# Names and contents, whatever the names hold (a quote, a blank).
	want=$({ files_digest "$SRC"; digest "$KIT/scripts/guest/policy-sets.sh" "$MDP" "$PARSER"; } | sha256sum | cut -d' ' -f1)
	stamp_ok policy "$want" && [ -d "$OUTD" ] && exit 0
fi

[ -f "$FEATURES" ] || die "no $(rel "$FEATURES")." "Capture the guest kernel's AppArmor features: scripts/guest/policy-sets.sh --capture"
rm -rf "$OUTD.tmp" && mkdir -p "$OUTD.tmp"
T=$OUTD.tmp
"$MDP" "$T/mdp.conf" "$T/mdp.fc" >/dev/null
n=$(grep -n '^type base_t;' "$T/mdp.conf" | cut -d: -f1)
head -n $((n - 1)) "$T/mdp.conf" >"$T/flask.conf"
classes=$(grep '^class ' "$T/flask.conf" | awk '{print $2}' | sort -u | paste -sd' ')

t0=$(date +%s%N)
if [ -n "$ONE" ]; then sets=("$ONE"); else sets=("$SRC"/*/); fi
for set in "${sets[@]}"; do
	set=$(basename "$set") d=$SRC/$set o=$T/$set
	mkdir -p "$o"
	# Smack's and toylsm's rules are checked by their kernels at load,
	# in the guest; checked here first, a bad line (or one written in
	# the other module's language) is named with its file and line.
	"$KIT/scripts/lab/policy-check.py" rules "$d" >&2 ||
		die "a rule of $(rel "$d")/smack.rules or toylsm.rules is wrong (above: the file, the line and why)." \
		    "Fix that line; a rule is SUBJECT OBJECT ACCESS in both files (Smack: letters of rwxatlb; toylsm: of rwxt)."
	for f in smack.rules toylsm.rules landlock.rules files run; do
		[ ! -f "$d/$f" ] || cp "$d/$f" "$o/$f"
	done
	if [ -d "$d/apparmor" ]; then
		mkdir -p "$o/apparmor"
		for p in "$d"/apparmor/*; do
			b=$(basename "$p")
			for mode in enforce complain; do
				out=$o/apparmor/$b flag=()
				[ $mode = enforce ] || { out+=.complain; flag=(-C); }
				"$PARSER" --config-file=/dev/null -Q -K -S -M "$FEATURES" \
					"${flag[@]}" "$p" >"$out" 2>"$T/aa.err" || {
					cat "$T/aa.err" >&2
					"$KIT/scripts/lab/policy-check.py" apparmor "$p" "$T/aa.err" >&2
					die "apparmor_parser refused $(rel "$p") (its message is above)." \
					    "Fix the profile; the syntax is in apparmor.d(5): make man PAGE=apparmor.d (the apparmor package's page, unpacked in build/tools)."
				}
			done
		done
	fi
	if [ -f "$d/selinux/kit.te" ]; then
		mkdir -p "$o/selinux"
		{
			echo "# generated by scripts/guest/policy-sets.sh: the kernel's classes and permissions (mdp),"
			echo "# then $(rel "$d")/selinux/kit.te with ALL_CLASSES written once per class"
			cat "$T/flask.conf"
			# ALL_CLASSES: once per class; ALL_CLASSES-a-b: but a and b.
			# The #line lines make checkpolicy's messages name kit.te
			# and its own line numbers: checkpolicy reads "#line 1
			# FILE" (only 1) as the file's name, and "#line N" as "the
			# next line is N".
			awk -v cl="$classes" -v te="$d/selinux/kit.te" 'BEGIN { n = split(cl, c, " "); print "#line 1 \"" te "\""; print "#line 1" }
				/ALL_CLASSES/ && !/^[[:space:]]*#/ {
					match($0, /ALL_CLASSES(-[a-z0-9_]+)*/)
					m = substr($0, RSTART, RLENGTH); split(m, but, "-"); skip = ""
					for (j in but) if (but[j] != "ALL_CLASSES") skip = skip " " but[j] " "
					for (i = 1; i <= n; i++) {
						if (index(skip, " " c[i] " ")) continue
						l = $0; sub(/ALL_CLASSES(-[a-z0-9_]+)*/, c[i], l); print l
					}
					print "#line " NR + 1
					next
				}
				{ print }' "$d/selinux/kit.te"
		} >"$o/selinux/policy.conf"
		# Initial SIDs the kernel no longer uses (unusedN) have no context:
		# checkpolicy says so for each, which is expected.
		checkpolicy -c 33 -o "$o/selinux/policy" "$o/selinux/policy.conf" 2>&1 |
			grep -v 'No context assigned to SID unused' >"$T/se.err" || true
		[ -s "$o/selinux/policy" ] && ! grep -q . "$T/se.err" || {
			cat "$T/se.err" >&2
			"$KIT/scripts/lab/policy-check.py" selinux "$d/selinux/kit.te" \
				"$o/selinux/policy.conf" "$T/se.err" >&2
			die "checkpolicy refused $(rel "$d")/selinux/kit.te (its message is above, with the line of kit.te)." \
			    "Fix the policy; the statements kit.te uses are explained at its top. Debian has no offline reference of this language: checkpolicy(8) (make man PAGE=checkpolicy) lists only the compiler's options."
		}
	fi
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
rm -f "$T/mdp.conf" "$T/mdp.fc" "$T/flask.conf" "$T/aa.err" "$T/se.err"
if [ -n "$ONE" ]; then
	rm -rf "$OUTD" && mv "$T/$(basename "$ONE")" "$OUTD" && rm -rf "$T"
	say "policy set $(rel "$ONE") compiled in $ms ms into $(rel "$OUTD")"
	exit 0
fi
rm -rf "$OUTD" && mv "$T" "$OUTD"
echo "$ms" >"$BUILD/policy.ms"
stamp_set policy "$want"
say "policy sets compiled in $ms ms: $(cd "$OUTD" && printf '%s\n' * | paste -sd' ')"
