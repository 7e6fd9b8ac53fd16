# shellcheck shell=bash
# make lab, KIND=kernel (labs 8, 9): the attendee's C file is built into
# the lab kernel (scripts/kernel/lab-kernel.sh, build/lab/bzImage), and the
# grader runs alone in a guest of that kernel.  One of the four kind
# files (docs/hacking.md, "The kinds' hooks"): the user kind's hooks, then
# what differs here; load_conf sources the one of the lab's KIND
# (kind_load, scripts/lab/conf.sh).
# shellcheck source=scripts/lab/kind-user.sh
. "$KIT/scripts/lab/kind-user.sh"

# lab.sh: the locks and stages.
# Lock 1: the lab kernel holds one lab's file, so a second run must not
# rebuild it before the first booted.
kind_lock() {
	lab_lock 1 7 "$BUILD/.lab-kernel-run.lock" \
		"another kernel-side lab run is using the lab kernel; waiting for it"
	[ -f "$BUILD/lab/bzImage" ] ||
		say "first kernel-side lab: building the lab kernel (once; from a copy of the kit's kernel, under a minute when that one is built)"
}
# The kernel is built with each variant (kind_build_variant), and its
# headers' NEEDS checked then.
kind_config() { :; }
kind_build_note() {	# kind_build_note SRC
	say "building the lab kernel with $(rel "$1") (after an edit: about a minute)"
}
# The grader is built once the lab kernel is (its headers), with the variant.
kind_build_grader() { :; }
# kind_build_variant TAG SRC: exits if the lab kernel fails for a reason
# that is not SRC's; BIN-TAG is the grader alone.
kind_build_variant() {
	local tag=$1 src=$2 d=$OUT/$1 rc=0
	cp "$src" "$d/$BIN-$tag.c"
	"$KIT/scripts/kernel/lab-kernel.sh" "$NUM" "$src" 2>"$d/compile.txt" || rc=$?
	case $rc in
	0) check_needs; build_grader ;;
	2) return 1 ;;
	*) cat "$d/compile.txt" >&2
	   die "the lab kernel could not be built (above), and that is not your file's fault." \
	       "Fix what the message says, or ask the instructor; then run make lab $NUM again." ;;
	esac
	"$KIT/scripts/guest/guest-cc.sh" -o "$d/$BIN-$tag" "$OUT/grade.o" >>"$d/compile.txt" 2>&1
}
# One kernel and one set of boots per variant.
kind_check_variants() {
	local v tag src
	for v in "$@"; do
		tag=${v%%=*} src=${v#*=}
		rm -rf "${OUT:?}/$tag"
		build_variant "$tag" "$src" >&2 || true
		[ -x "$OUT/$tag/$BIN-$tag" ] && boot_all "$v"
		variant_line "$tag"
	done
}

# boot.sh: the shell; gdb.
kind_shell() {
	build_variant shell "$1" || show_compile_error shell "$1"
	say "in the guest: '$BIN-shell' shows what the lab's code did, '$BIN-shell --grade' grades it"
	exec "$KIT/scripts/guest/run-guest.sh" --shell --bin "$OUT/shell/$BIN-shell"
}
kind_gdb() { :; }

# report.sh: the learner's advice.
# kind_crash_report I RC: the lab kernel has no kallsyms: name the Oops's
# addresses of boot I (from 0; the runner's status RC) from its vmlinux.
kind_crash_report() {
	[ "$2" = 125 ] && [ -f "$(flavour_dir)/vmlinux" ] || return 0
	echo "-- the kernel's report, addresses named from $(rel "$(flavour_dir)")/vmlinux --"
	"$KIT/scripts/guest/results.py" oops "$LOGS/guest-lab-$NN-run-b$(($1 + 1)).log" \
		"$(flavour_dir)/vmlinux" | sed 's/^\[ *[0-9.]*\] //'
}
kind_boot_trouble() {
	die "lab $NUM could not be graded completely: the lab kernel hung, crashed or stopped early (above; $(elapsed) s)." \
	    "Your code runs in that kernel, so an Oops or panic there is most likely in it: the console log named above shows the Oops and its Call Trace, with the function's name. Transcript: $(rel "$T")."
}

# scripts/lab/lab-check.sh: SOURCE needs Kbuild (tests/host/labs.sh builds
# it): the grader alone.
kind_check_files() { :; }
kind_check_compile() { check_grader_alone; }
kind_check_mistake() { :; }
