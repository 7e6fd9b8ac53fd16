# shellcheck shell=bash
# make lab, KIND=bpf (lab 13): SOURCE is BPF C, compiled on the host with
# clang against the bpf flavour's BTF and turned into a skeleton by
# bpftool (scripts/lab/bpf-build.sh); the lab's loader.c, built with that
# skeleton, and the grader are linked with libbpf.a into one static
# program (build/labs/NN/TAG/BIN-TAG) that runs in a guest of the bpf
# flavour (lab.conf: FLAVOUR=bpf).  One of the four kind files
# (docs/hacking.md, "The kinds' hooks"): the user kind's hooks, then what
# differs here; load_conf sources the one of the lab's KIND (kind_load,
# scripts/lab/conf.sh).
# shellcheck source=scripts/lab/kind-user.sh
. "$KIT/scripts/lab/kind-user.sh"

# bpf_todos SRC: the steps whose placeholder LAB_TODO(n) is still in SRC,
# a bit each (1 << n), for the grader (loader.h's lab_bpf_todos).  A BPF
# program cannot tell the grader it reached its placeholder (in a boot
# without bpf in lsm= it never runs), so the source says it.
bpf_todos() {
	local n mask=0
	# The code, not its comments (a solution's "END TODO n: LAB_TODO(n);",
	# a placeholder commented out with //): the preprocessor's own reading,
	# which expands nothing with -fpreprocessed; steps 1 to 9 only.
	for n in $(gcc -fpreprocessed -dD -E -P -x c "$1" 2>/dev/null |
		grep -oE 'LAB_TODO\([1-9]\)' | tr -dc '0-9\n' | sort -un); do
		mask=$((mask | (1 << n)))
	done
	echo "$mask"
}

# skel_has SKEL PART VAR: the skeleton's struct NAME__PART (rodata, bss)
# has VAR, which loader.c uses.
skel_has() {
	awk -v part="__$2 {" -v var="$3;" '
		index($0, part) { inside = 1; next }
		inside && /^\t}/ { inside = 0 }
		inside && index($0, " " var) { found = 1 }
		END { exit !found }' "$1"
}

# bpf_link DIR SRC PROG [CC-ENV...]: SRC built (scripts/lab/bpf-build.sh:
# DIR/guard.bpf.o, DIR/guard.skel.h; the skeleton's name is the lab's
# SOURCE without .bpf.c), the lab's loader.c compiled with it, linked
# with the grader's object (GRADE_O) and libbpf into PROG; the messages
# in DIR/compile.txt; 1 if something does not build.
bpf_link() {
	local d=$1 src=$2 prog=$3 name=${SOURCE%.bpf.c} rc=0
	shift 3
	"$KIT/scripts/lab/bpf-build.sh" "$src" "$d" "$name" || rc=$?
	[ $rc != 2 ] || exit 2	# this host lacks something (build.sh said what): not the file's fault
	[ $rc = 0 ] || { compile_hints "$d"; return 1; }
	# The loader sets target_tgid before the load (the skeleton's rodata)
	# and reads refused (its bss): a file that changed either would fail
	# in the kit's loader.c, which is not the learner's to fix.
	if ! skel_has "$d/$name.skel.h" rodata target_tgid || ! skel_has "$d/$name.skel.h" bss refused; then
		printf '%s:1: error: %s\n' "$(rel "$src")" \
			"the loader needs 'const volatile __u32 target_tgid;' (it sets it before loading) and '__u64 refused;' (a global it reads, not static, not initialised): keep the two declarations as the lab's file has them" \
			>>"$d/compile.txt"
		return 1
	fi
	env "$@" "$KIT/scripts/guest/guest-cc.sh" -c -DLAB_BPF_TODOS="$(bpf_todos "$src")" -I "$d" -I "$LDIR" \
		-o "$d/loader.o" "$LDIR/loader.c" >>"$d/compile.txt" 2>&1 || return 1
	env "$@" "$KIT/scripts/guest/guest-cc.sh" -o "$prog" "$d/loader.o" "$GRADE_O" -lbpf -lelf -lz \
		>>"$d/compile.txt" 2>&1 || return 1
}

# lab.sh: the stages.
kind_build_variant() {	# kind_build_variant TAG SRC: in $OUT/TAG, made empty
	local tag=$1 src=$2 d=$OUT/$1
	cp "$src" "$d/$BIN-$tag.c"
	GRADE_O=$OUT/grade.o bpf_link "$d" "$src" "$d/$BIN-$tag"
}

# boot.sh: the shell.
kind_shell() {
	local d=$OUT/shell
	build_grader
	mkdir -p "$d"
	GRADE_O=$OUT/grade.o bpf_link "$d" "$1" "$d/$BIN" || show_compile_error shell "$1"
	# The flavour's own lsm= has no bpf (the program would never run):
	# the lab's first stack unless APPEND names one.
	if [ -z "${APPEND:-}" ]; then
		export APPEND=${BOOTS[0]}
		say "the shell boots the stack $APPEND (lab.conf's first; bpf in lsm=); another: make lab $NUM SHELL=1 APPEND=NAME (configs/stacks.conf)"
	fi
	say "in the guest: '$BIN' loads your program and shows what it refuses, '$BIN --grade' grades it"
	exec "$KIT/scripts/guest/run-guest.sh" --shell --bin "$d/$BIN"
}

# build.sh and report.sh: the learner's advice.
kind_compile_advice() { echo " clang's warnings count as errors here (-Werror); the verifier's complaints come at load time, in the guest."; }

# scripts/lab/lab-check.sh: the solution, every skeleton and every mistake
# built as make lab builds them, with the grader, once the bpf flavour's
# BTF is there (make kernel FLAVOUR=bpf): vmlinux.h is made from it.
kind_check_files() {
	local f
	for f in loader.c loader.h; do
		[ -f "$LDIR/$f" ] ||
			problem "$(rel "$LDIR")/$f is missing: a BPF lab's loader (the skeleton's user) is the lab's own"
	done
}
kind_check_compile() {
	local k f
	if [ ! -f "$(FLAVOUR=bpf flavour_dir)/vmlinux" ]; then
		NOTES+=("not compiled: BPF C is built against the bpf flavour's BTF (make kernel FLAVOUR=bpf)")
		return 0
	fi
	bpf_check solution "$SOL"
	for k in "${!SKELS[@]}"; do bpf_check "skeleton STEP=$((k + 1))" "${SKELS[$k]}"; done
	# A mistake with "expect: compile: TEXT" must not build (TEXT is checked
	# by tests/host/lab-hints.sh, in the messages make lab shows).
	for f in "${MISTAKE_SRCS[@]}"; do MUST_FAIL=${f%%:*} bpf_check "mistake ${f##*/}" "${f#*:}"; done
}

# bpf_check NAME SRC: lab-check's build of one variant (MUST_FAIL=1: one
# that must not build).
bpf_check() {
	local d=$WORK/$NN/$1
	rm -rf "$d" && mkdir -p "$d"
	if GRADE_O=$WORK/$NN/grade.o bpf_link "$d" "$2" "$d/prog" KIT_UAPI="$INC"; then
		[ "${MUST_FAIL:-0}" != 1 ] || problem "$1 ($(rel "$2")) builds, but its 'expect: compile:' says it must not"
	elif [ "${MUST_FAIL:-0}" != 1 ]; then
		problem "$1 ($(rel "$2")) does not build as make lab builds it: $(grep -m1 -E 'error|undefined' "$d/compile.txt" | sed "s|$KIT/||g; s|$WORK/||g")"
	fi
}
