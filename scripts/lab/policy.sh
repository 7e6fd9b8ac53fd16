# shellcheck shell=bash
# make lab, a policy lab (lab.conf KIND=policy, labs 10 and 12): what differs from
# a C lab, all here.  Sourced by scripts/lab/lab.sh.
#
# The attendee's SOURCE is a folder of policy files (work/policy/: an
# AppArmor profile, an SELinux .te, Smack and toylsm rules), not a C file;
# its skeleton comes from solution/SOURCE/ as a C file's does
# (scripts/lab/lab-skel.sh, "# TODO n:" markers).  The lab's folder given/
# holds the files of the set the attendee does not edit (files, run).
# A variant TAG is built as:
#   $OUT/TAG/src/$BIN-TAG/   given/ and the attendee's folder, one set
#   $OUT/TAG/set/$BIN-TAG/   that set compiled by scripts/guest/policy-sets.sh --set
#                            on the host (apparmor_parser, checkpolicy),
#                            which the guest holds as /etc/policy/$BIN-TAG
#   $OUT/TAG/$BIN-TAG        the grader alone; it loads the set named as
#                            itself (policy load $BIN-TAG)
#   $OUT/TAG/$BIN-TAG.c      the attendee's files one after the other
#                            ("==> FILE <==" before each), where the
#                            grader's hints look up what a TODO says
# A parser's error names the attendee's file and line.

# policy_build TAG SRC: the variant's set and grader; 1 with the parsers'
# messages in $OUT/TAG/compile.txt if the set does not compile.
policy_build() {
	local tag=$1 src=$2 d=$OUT/$1 name=$BIN-$1 f
	rm -rf "$d/src" "$d/set"
	mkdir -p "$d/src/$name"
	cp -r "$src/." "$d/src/$name/"
	# An editor's backups (FILE~, .FILE.swp) are not the attendee's policy.
	find "$d/src/$name" \( -name '*~' -o -name '.*' -o -name '*.bak-*' \) -type f -delete
	# given/ last: a file of the same name in the attendee's folder does
	# not replace the lab's labels.  SRC.given/, when there is one, stands
	# for given/: tests/host/lab-hints.sh's given-*.sed fixtures, a
	# learner's edit of given/ (the grader must refuse it).
	local given=$LDIR/given
	[ ! -d "${src%/}.given" ] || given=${src%/}.given
	[ ! -d "$given" ] || cp -r "$given/." "$d/src/$name/"
	(cd "$src" && find . -type f ! -name '*~' ! -name '.*' | sort) | while IFS= read -r f; do
		printf '==> %s <==\n' "${f#./}"
		cat "$src/$f"
	done >"$d/$BIN-$tag.c"
	if ! "$KIT/scripts/guest/policy-sets.sh" --set "$d/src/$name" "$d/set" >"$d/compile.raw" 2>&1; then
		# The parsers name the assembled copy: name the attendee's file.
		sed -e "s|$d/src/$name/|$(rel "$src")/|g" -e "s|$(rel "$d/src/$name")/|$(rel "$src")/|g" \
			-e "s|$KIT/||g" "$d/compile.raw" >"$d/compile.txt"
		return 1
	fi
	"$KIT/scripts/guest/guest-cc.sh" -o "$d/$BIN-$tag" "$OUT/grade.o" >"$d/compile.txt" 2>&1
}

# policy_payload TAG: run-guest.sh's arguments for the variant's set.
policy_payload() {
	printf '%s\n' --policy "$OUT/$1/set/$BIN-$1"
}

# policy_shell SRC: a guest shell with SRC's set and the grader
# (KIT_SHELL=1); does not return.
policy_shell() {
	local pay
	mapfile -t pay < <(policy_payload shell)
	build_grader
	build_variant shell "$1" || show_compile_error shell "$1"
	say "in the guest: '$BIN-shell' loads your policies and shows the table, '$BIN-shell --grade' grades them; policy run $BIN-shell probe read PATH tries one access (the lab's README names the paths)"
	exec "$KIT/scripts/guest/run-guest.sh" --shell --bin "$OUT/shell/$BIN-shell" "${pay[@]}"
}
