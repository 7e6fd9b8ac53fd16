# shellcheck shell=bash
# make lab, KIND=user (the default): the attendee's C file is linked with
# the grader (build/labs/NN/TAG/BIN-TAG) and runs in a guest of the kit's
# kernel.  One of the four kind files (docs/hacking.md, "The kinds'
# hooks"): this one defines every hook, and the other kinds' files source
# it before they define what differs for them; load_conf sources the one
# of the lab's KIND (kind_load, scripts/lab/conf.sh).

# lab.sh: the locks and stages.
kind_lock() { :; }
kind_config() {
	ensure_kernel
	check_needs
}
kind_build_note() { :; }
kind_build_grader() { build_grader; }
kind_build_variant() {	# kind_build_variant TAG SRC: in $OUT/TAG, made empty
	local tag=$1 src=$2 d=$OUT/$1
	cp "$src" "$d/$BIN-$tag.c"
	link_program "$d" "$src" "$d/$BIN-$tag"
}
kind_check_variants() { check_variants_together "$@"; }

# boot.sh: what a guest gets beyond the grader; the shell; gdb.
kind_payload() { :; }
kind_shell() {
	local d=$OUT/shell
	build_grader
	mkdir -p "$d"
	link_program "$d" "$1" "$d/$BIN" || show_compile_error shell "$1"
	say "in the guest: '$BIN' shows what your functions return, '$BIN --grade' grades them"
	exec "$KIT/scripts/guest/run-guest.sh" --shell --bin "$d/$BIN"
}
kind_gdb() { die_gdb_user_space; }

# build.sh and report.sh: the learner's advice.
kind_compile_advice() { echo " Warnings count as errors here (-Werror)."; }
kind_crash_report() { :; }
kind_boot_trouble() { :; }	# verdict()'s own: a guest hung, rarely the attendee's code

# scripts/lab/lab-check.sh.
kind_check_files() {
	[ -f "$LDIR/lab.h" ] ||
		problem "$(rel "$LDIR")/lab.h is missing: a user-space lab's lab.h declares the functions the attendee writes"
}
kind_check_compile() { check_compile_all; }
kind_check_mistake() { MISTAKE_SRCS+=("$1"); }	# NOCC:FILE, compiled by check_compile_all
