# shellcheck shell=bash
# make lab, stage "build": the grader's object and one program per variant
# (a kernel-side lab: the lab kernel with the variant's source, and the
# grader alone).  Sourced by scripts/lab/lab.sh.

CFLAGS_LAB=(-Wno-unused-parameter)

# The grader's object, rebuilt when it or a file it includes changed: the
# lab folder's own C (grade.c, hints.c, lab.h), labs/common, the library.
build_grader() {
	local o=$OUT/grade.o inc
	inc=$(flavour_dir)/usr/include
	if [ -f "$o" ] && [ -z "$(find "$LDIR" -maxdepth 1 -name '*.[ch]' -newer "$o" -print -quit)" ] &&
	   [ -z "$(find "$LABS/common" "$KITINC" \
		"$inc/linux/lsm.h" "$inc/asm/unistd_64.h" -newer "$o" -print -quit 2>/dev/null)" ]; then
		return 0
	fi
	"$KIT/scripts/guest/guest-cc.sh" -c -o "$o.$$.tmp" -I "$LDIR" -I "$LABS/common" \
		"$LDIR/grade.c" 2>"$OUT/grade-cc.$$.txt" || {
		cat "$OUT/grade-cc.$$.txt" >&2
		rm -f "$o.$$.tmp" "$OUT/grade-cc.$$.txt"
		die "the grader of lab $NUM does not compile (above)." "That is the kit's bug, not yours: tell the instructor."
	}
	rm -f "$OUT/grade-cc.$$.txt"
	mv "$o.$$.tmp" "$o"
}

# compile_hints DIR: the lines of the lab's compile-hints file
# (labs/NN-*/compile-hints: "ERE<tab>TEXT", # comments) whose ERE matches
# the compiler's messages, appended to DIR/compile.txt as "kit: hint:
# TEXT": what a compiler error most likely means in that lab (lab 11: a
# NULL %s argument in step 6 that comes from step 2).
compile_hints() {
	local f=$LDIR/compile-hints re text
	[ -f "$f" ] || return 0
	while IFS=$'\t' read -r re text; do
		[[ -z $re || $re == \#* ]] && continue
		if grep -qE -- "$re" "$1/compile.txt"; then printf 'kit: hint: %s\n' "$text" >>"$1/compile.txt"; fi
	done <"$f"
}

# link_program DIR SRC PROG: SRC compiled with the grader into PROG, the
# compiler's messages in DIR/compile.txt (and the lab's compile hints that
# apply); 1 if it does not compile.
link_program() {
	local d=$1 src=$2 prog=$3
	"$KIT/scripts/guest/guest-cc.sh" -c "${CFLAGS_LAB[@]}" -I "$LDIR" -I "$LABS/common" \
		-o "$d/src.o" "$src" >"$d/compile.txt" 2>&1 || { compile_hints "$d"; return 1; }
	"$KIT/scripts/guest/guest-cc.sh" -o "$prog" "$d/src.o" "$OUT/grade.o" \
		>>"$d/compile.txt" 2>&1 || return 1
}

# build_variant TAG SRC: $OUT/TAG/$BIN-TAG, or 1 with the compiler's
# messages in $OUT/TAG/compile.txt.  The lab's kind makes it
# (kind_build_variant): a user-space lab links SRC with the grader; a
# kernel-side lab builds SRC into the lab kernel (scripts/kernel/lab-kernel.sh;
# exits if that fails for a reason that is not SRC's) and $BIN-TAG is the
# grader alone; a policy lab compiles its set (policy_build).
build_variant() {
	local tag=$1 d=$OUT/$1
	mkdir -p "$d"
	rm -f "$d/$BIN-$tag" "$d/src.o"
	kind_build_variant "$tag" "$2"
}

# show_compile_error TAG SRC: the compiler's messages and one paragraph.
show_compile_error() {
	local d=$OUT/$1 src=$2 first werror
	werror=$(kind_compile_advice)
	sed "s|$KIT/||g" "$d/compile.txt" >&2
	# A C compiler's error; in a policy lab, the kit's FILE:LINE: error:
	# line (scripts/lab/policy-check.py) before apparmor_parser's or
	# checkpolicy's own, which may name a later line.
	first=$(grep -m1 -E ': (fatal )?error: ' "$d/compile.txt" ||
		grep -m1 -E 'parser error for |:ERROR ' "$d/compile.txt")
	first=${first//"$KIT"\//}
	die "$(rel "$src") does not compile, so lab $NUM was not graded." \
	    "The first error is the one to fix (later ones often follow from it): ${first:-see the messages above}.$werror Then run make lab $NUM again."
}
