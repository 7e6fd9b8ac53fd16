# shellcheck shell=bash
# make lab, stage "config": which lab, its lab.conf, its boots, and what
# its kernel must have.  Sourced by scripts/lab/lab.sh.

lab_dirs() {
	local d
	for d in "$LABS"/[0-9][0-9]-*/; do
		[ -f "$d/lab.conf" ] && printf '%s\n' "${d%/}"
	done
}

lab_numbers() {
	lab_dirs | sed -E 's|.*/0*([0-9]+)-[^/]*$|\1|' | paste -sd, | sed 's/,/, /g'
}

# find_lab ARG...: sets LDIR, NUM (3), NN (03), OUT or dies with the reason.
find_lab() {
	local arg=${1:-} d
	if [ $# -eq 0 ] || [ -z "$arg" ]; then
		die "which lab? Give its number, for example: make lab 1." \
		    "make labs lists the labs ($(lab_numbers)) with their titles."
	fi
	if [ $# -gt 1 ]; then
		die "one lab at a time: make lab N, not make lab $*." "make labs lists the labs."
	fi
	case "$arg" in
	*[!0-9]*) die "'$arg' is not a lab number." \
		      "Give the lab's number, for example make lab 1; make labs lists them ($(lab_numbers))." ;;
	esac
	NUM=$((10#$arg))
	NN=$(printf '%02d' "$NUM")
	d=$(first "$LABS/$NN"-*/)
	if [ -z "$d" ] || [ ! -f "$d/lab.conf" ]; then
		die "there is no lab $NUM." "The labs are $(lab_numbers); make labs lists them with their titles."
	fi
	LDIR=${d%/}
	OUT=$BUILD/labs/$NN
	mkdir -p "$OUT"
}

# lab.conf is the lab's settings as bash assignments, and load_conf is
# the one reader of it: make lab, make labs, make lab-check and every
# suite (tests/host/labs.sh, lab-hints.sh, checkpatch.sh) and make bench
# call it, so a value means the same everywhere.  Quote as bash does
# (TITLE="two words", SOURCE=x.c or SOURCE="x.c": the same).  The keys:
LAB_KEYS=(TITLE MINUTES SOURCE KIND KOBJS KINIT BOOTS NEEDS KERNEL VARIANT_SECONDS)

# conf_die LINE WHAT TODO: an error naming lab.conf and its line.
conf_die() {
	die "$(rel "$LDIR")/lab.conf${1:+:$1}: $2" \
	    "${3:+$3 }The keys and their values: labs/README.md, \"How a lab is made\"."
}

# conf_line KEY: the line of lab.conf that sets KEY last (nothing if none).
conf_line() {
	grep -nE "^[[:space:]]*$1\+?=" "$LDIR/lab.conf" | tail -1 | cut -d: -f1
}

# lab_at DIR: LDIR, NUM and NN of the lab in folder DIR (labs/NN-slug).
lab_at() {
	LDIR=${1%/}
	NN=$(basename "$LDIR" | cut -c1-2)
	NUM=$((10#$NN))
}

# conf_keys: die on a line of lab.conf that is no KEY=value (continuation
# lines of an array are indented), on an unknown key, and on any other
# variable the file sets; the file runs in a clean shell of its own first.
conf_keys() {
	local f=$LDIR/lab.conf l=0 line key known=" ${LAB_KEYS[*]} " set err
	while IFS= read -r line || [ -n "$line" ]; do
		l=$((l + 1))
		case "$line" in ''|'#'*|[[:space:]]*|')'*) continue ;; esac
		[[ "$line" =~ ^([A-Za-z_][A-Za-z0-9_]*)\+?= ]] ||
			conf_die "$l" "this line is no KEY=value: $line" "Each line sets one key (an array may go on over indented lines), or is a # comment."
		key=${BASH_REMATCH[1]}
		[ "$key" != FLAVOUR ] ||
			conf_die "$l" "FLAVOUR is the run's kernel, no key of lab.conf: the kernel a lab runs on is KERNEL=NAME (a flavour of configs/flavours.conf)." "Write KERNEL=${line#*=}."
		[[ "$known" == *" $key "* ]] ||
			conf_die "$l" "unknown key $key (the keys are ${LAB_KEYS[*]})." "A typo? Fix or remove the line."
	done <"$f"
	err=$(bash -n "$f" 2>&1) ||
		conf_die "" "bash cannot read it: $(head -2 <<<"$err" | sed "s|$f: ||" | paste -sd' ')" "Fix that line."
	set=$(env -i bash --norc --noprofile -c 'before=$(compgen -v); . "$1" >/dev/null 2>&1
		comm -13 <(printf "%s\n" "$before" | sort) <(compgen -v | sort)' conf "$f" |
		grep -vxE 'before|_|PIPESTATUS|BASH_[A-Z_]+' || true)
	for key in $set; do
		[[ "$known" == *" $key "* ]] ||
			conf_die "$(grep -nE "(^|[^A-Za-z0-9_])$key\+?=" "$f" | head -1 | cut -d: -f1)" \
				"it sets $key, which is no key of lab.conf (the keys are ${LAB_KEYS[*]})." "A typo? Fix or remove it."
	done
}

# load_conf: TITLE MINUTES SOURCE BOOTS NEEDS KIND KOBJS KINIT VARIANT_SECONDS of
# $LDIR/lab.conf, checked (a bad key or value is an error naming the file
# and the line), and the paths that follow from them (BIN, SOL, WORKF).
# KIND: user (a C file linked with the grader), kernel (a C file built
# into the lab kernel), policy (SOURCE is a folder of policy files:
# scripts/lab/policy.sh), bpf (SOURCE is BPF C, built on the host into a
# skeleton that the lab's loader.c and the grader load: scripts/lab/,
# on the bpf kernel).  KERNEL: the flavour its guests boot (lab_flavour).
load_conf() {
	local b w n h t why
	conf_keys
	TITLE='' MINUTES='' SOURCE='' BOOTS=("") NEEDS=() KIND=user KOBJS='' KINIT='' KERNEL='' VARIANT_SECONDS=10
	# shellcheck disable=SC1091 # the lab's own file, found at run time
	. "$LDIR/lab.conf" || conf_die "" "it has a syntax error (above)." "Fix it."
	[ -n "$TITLE" ] && [[ "$TITLE" != *$'\n'* ]] ||
		conf_die "$(conf_line TITLE)" "TITLE must be one line of text (make labs shows it)." "Write TITLE=\"The lab's title\"."
	[[ "$MINUTES" =~ ^[1-9][0-9]*$ ]] ||
		conf_die "$(conf_line MINUTES)" "MINUTES must be a number of minutes, not '$MINUTES'." "Write MINUTES=30."
	[[ "$VARIANT_SECONDS" =~ ^[1-9][0-9]{0,2}$ ]] ||
		conf_die "$(conf_line VARIANT_SECONDS)" "VARIANT_SECONDS must be a number of seconds (1-999), not '$VARIANT_SECONDS'." "Write VARIANT_SECONDS=20, or leave it out (10)."
	case "$KIND" in user|kernel|policy|bpf) ;; *)
		conf_die "$(conf_line KIND)" "KIND=$KIND: a lab is KIND=user (the default), kernel, policy or bpf." "Fix KIND." ;; esac
	case "$SOURCE" in ''|*/*|.*|*[[:space:]\'\"]*)
		conf_die "$(conf_line SOURCE)" "SOURCE must name a file (a policy lab: a folder) in solution/, not '$SOURCE'." "Write SOURCE=file.c." ;; esac
	if [ "$KIND" = policy ]; then
		[ -d "$LDIR/solution/$SOURCE" ] ||
			conf_die "$(conf_line SOURCE)" "SOURCE=$SOURCE, but $(rel "$LDIR")/solution/$SOURCE is no folder (a policy lab's SOURCE is its folder of policies)." "Each lab needs its reference solution in solution/."
	else
		[[ "$SOURCE" == *.c ]] ||
			conf_die "$(conf_line SOURCE)" "SOURCE=$SOURCE: the attendee's file of a C lab ends in .c." "Fix SOURCE."
		[ -f "$LDIR/solution/$SOURCE" ] ||
			conf_die "$(conf_line SOURCE)" "SOURCE=$SOURCE, but $(rel "$LDIR")/solution/$SOURCE does not exist." "Each lab needs its reference solution in solution/."
	fi
	if [ "$KIND" = kernel ]; then
		[ -n "$KOBJS" ] ||
			conf_die "$(conf_line KIND)" "a kernel-side lab names its objects: KOBJS=\"${SOURCE%.c}.o ...\"." "Add KOBJS."
		for w in $KOBJS; do
			[[ "$w" =~ ^[A-Za-z0-9_-]+\.o$ ]] ||
				conf_die "$(conf_line KOBJS)" "KOBJS has '$w', which is no object name (file.o)." "Fix KOBJS."
		done
		[ -z "$KINIT" ] || [[ "$KINIT" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
			conf_die "$(conf_line KINIT)" "KINIT must name a C function, not '$KINIT'." "Fix KINIT."
		[ -z "$KERNEL" ] ||
			conf_die "$(conf_line KERNEL)" "a kernel-side lab runs on the lab kernel: KERNEL=$KERNEL does not apply." "Remove KERNEL."
	else
		[ -z "$KOBJS$KINIT" ] ||
			conf_die "$(conf_line "$([ -n "$KOBJS" ] && echo KOBJS || echo KINIT)")" "KOBJS and KINIT are for a kernel-side lab (KIND=kernel), and this one is KIND=$KIND." "Remove them, or set KIND=kernel."
	fi
	case "$KERNEL" in ''|mainline|bpf) ;; *)
		conf_die "$(conf_line KERNEL)" "KERNEL=$KERNEL; a lab runs on the kit's kernel (no KERNEL), on the reference kernel (KERNEL=mainline) or on the BPF LSM's (KERNEL=bpf)." \
			"Fix lab.conf (a kernel-side lab says KIND=kernel instead)." ;; esac
	[ "$KIND" != bpf ] || [ "$KERNEL" = bpf ] ||
		conf_die "$(conf_line KIND)" "a BPF lab (KIND=bpf) runs on the kernel with the BPF LSM: it needs KERNEL=bpf." "Add KERNEL=bpf."
	if [ "$KIND" = bpf ] && [[ "$SOURCE" != *.bpf.c ]]; then
		conf_die "$(conf_line SOURCE)" "SOURCE=$SOURCE: a BPF lab's file is BPF C, NAME.bpf.c (its skeleton is NAME.skel.h)." "Fix SOURCE."
	fi
	for n in "${NEEDS[@]}"; do
		IFS='|' read -r h t why <<<"$n"
		[[ "$h" =~ ^[a-z0-9_/-]+\.h$ ]] && [ -n "$t" ] && [ -n "$why" ] ||
			conf_die "$(conf_line NEEDS)" "NEEDS has \"$n\"; each entry is \"header|text|what brings it\" (\"linux/lsm.h|struct lsm_ctx|patches/0005\")." "Fix NEEDS."
	done
	[ ${#BOOTS[@]} -gt 0 ] || BOOTS=("")
	check_stack_words "${BOOTS[*]}" "$(rel "$LDIR")/lab.conf:$(conf_line BOOTS): BOOTS" ${LAB_CHECK:+strict}
	BIN=${SOURCE%.c}
	# A policy lab's program is the grader, named after the lab (lab10),
	# not after its folder of policies; a BPF lab's, the grader with the
	# loader (lab13), not after its BPF C.
	# shellcheck disable=SC2034 # for the other stages (lab.sh sources them all)
	if [ "$KIND" = policy ] || [ "$KIND" = bpf ]; then BIN=lab$NUM; fi
	# shellcheck disable=SC2034 # for the other stages
	SOL=$LDIR/solution/$SOURCE
	# shellcheck disable=SC2034 # for the other stages
	WORKF=$LDIR/work/$SOURCE
	lab_flavour
	kind_load
}

# kind_load: the hooks of the lab's KIND (checked by load_conf), from
# scripts/lab/kind-KIND.sh: the one place that picks what differs between
# the kinds (docs/hacking.md, "The kinds' hooks").  Each kind file defines
# the same functions, so loading another lab's replaces them all.
kind_load() {
	. "$KIT/scripts/lab/kind-$KIND.sh"
}

# conf_get DIR KEY: the value of KEY in lab DIR's lab.conf, read by
# load_conf (an array: one element a line); for the suites, which read
# lab.conf through this and nothing else.  Exits non-zero, the reader's
# message on stderr, if lab.conf is wrong.
conf_get() {
	(
		lab_at "$1"
		load_conf
		case "$2" in
		BOOTS) printf '%s\n' "${BOOTS[@]}" ;;
		NEEDS) [ ${#NEEDS[@]} -eq 0 ] || printf '%s\n' "${NEEDS[@]}" ;;
		*) printf '%s\n' "${!2}" ;;
		esac
	)
}

# lab_flavour: FLAVOUR, the flavour of configs/flavours.conf that the
# lab's guests boot and whose UAPI headers its program is compiled
# against; every script lab.sh runs inherits it (flavour_dir, guest-cc.sh,
# run-guest.sh).  lab.conf's KERNEL (lab 11: mainline, lab 13: bpf),
# whatever FLAVOUR was given: the lab is written for that kernel.  A
# kernel-side lab's SOURCE goes into the lab kernel, which its guests boot
# (lab, build/lab/bzImage).  Otherwise the FLAVOUR lab.sh was started with
# (normal unless given).  FLAVOUR_ASKED keeps that one for the next lab
# read in the same run (make labs, make lab-check).
FLAVOUR_ASKED=$FLAVOUR
lab_flavour() {
	local f=$KERNEL
	[ "$KIND" != kernel ] || f=lab
	export FLAVOUR=${f:-$FLAVOUR_ASKED}
}

# lab_table: the labs, "NUMBER<TAB>STEPS<TAB>BOOTS<TAB>TITLE" a line: the steps as
# make lab counts them (the solution's TODO markers), the boots as the
# transcript names them (lab.conf's BOOTS, an empty entry "default", a
# space "+", joined by commas), so that a progress file's or a post's
# claim is checked against the lab's own (make progress, make room).
# Needs scripts/lab/work.sh (count_steps) sourced too.
lab_table() {
	local d b boots
	for d in $(lab_dirs); do
		(lab_at "$d"
		 load_conf >/dev/null
		 boots=()
		 for b in "${BOOTS[@]}"; do b=${b:-default}; boots+=("${b// /+}"); done
		 printf '%s\t%s\t%s\t%s\n' "$NUM" "$(count_steps)" \
			"$(IFS=,; echo "${boots[*]}")" "$TITLE")
	done
}

# boot_label I: how boot I is described.
boot_label() {
	local a
	a=$(stack_cmdline "${BOOTS[$1]}")
	if [ -z "$a" ]; then echo "default LSMs"; else echo "$a"; fi
}

# The kernel: built by the first run, rebuilt when its inputs changed;
# kernel.sh says at once (its stamp of every input) when nothing did.  Not
# a kernel-side lab's (kind_config): its kernel is built with each variant
# (build_variant).
ensure_kernel() {
	local fd
	fd=$(flavour_dir)
	[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] || need_mainline "$fd"
	[ -f "$fd/bzImage" ] || say "first run: building the kit's kernel (several minutes, once; offline afterwards)"
	"$KIT/scripts/kernel/kernel.sh" --flavour "$FLAVOUR" || die "the kernel could not be built (above), so lab $NUM cannot run." \
		"Fix what the message above says, or ask the instructor; then run make lab $NUM again."
}

# need_mainline DIR: a lab on the reference kernel (the tree mainline)
# never starts its half-hour build by itself; without it, say how to get
# it.  Once built, ensure_kernel keeps it up to date as it does the kit's.
need_mainline() {
	[ -f "$1/bzImage" ] && [ -f "$1/usr/include/linux/lsm.h" ] && return 0
	local first=
	[ -f "$MAINLINE_TARBALL" ] ||
		first="First, as root: make deps MAINLINE=1 (installs Debian's linux-source-6.12: 154 MB to download, the one step that needs the network). Then: "
	die "lab $NUM runs on the reference kernel, mainline 6.12 (the flavour $FLAVOUR), and it is not built yet ($(rel "$1")/bzImage is missing)." \
	    "${first}make mainline (once: 15-30 min on 2 idle cores with a cold ccache, about 7 min with a warm one, and 1.9 GB of disk; docs/performance.md has the measured times), then make lab $NUM again. Instructors: do it before the workshop (labs/README.md, \"Before the workshop\")."
}

# The lab's needs in the UAPI headers (NEEDS: "header|text|what brings it").
check_needs() {
	local n h t why inc
	inc=$(flavour_dir)/usr/include
	for n in "${NEEDS[@]}"; do
		IFS='|' read -r h t why <<<"$n"
		grep -q -- "$t" "$inc/$h" 2>/dev/null && continue
		[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] ||
			die "lab $NUM needs '$t' in <$h>, and the reference kernel's headers ($(rel "$inc")) do not have it." \
			    "It comes with $why. Check that $(basename "$MAINLINE_TARBALL") is a 6.8 or later tree (make mainline prints its version), then run make mainline and make lab $NUM again."
		die "lab $NUM needs '$t' in <$h>, and this kernel's headers ($(rel "$inc")) do not have it." \
		    "It comes with $why. Check that patches/series lists it, then run make kernel and make lab $NUM again."
	done
}

# stage_config: the kernel a user-space lab's guests boot, and its
# headers' NEEDS: ensure_kernel and check_needs (kind_config; a kernel-side
# lab's kernel is built with its source, in stage_build).
stage_config() { kind_config; }

# Run (not sourced): conf.sh LABDIR KEY prints the value, for the scripts
# that do not source lab.sh's parts (the suites, make bench).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	. "$(dirname "$0")/../lib/lib.sh"
	. "$KIT/scripts/guest/stacks.sh"
	FLAVOUR_ASKED=$FLAVOUR
	[ $# -eq 2 ] || die "usage: scripts/lab/conf.sh LABDIR KEY" "KEY is one of ${LAB_KEYS[*]}."
	[[ " ${LAB_KEYS[*]} " == *" $2 "* ]] || die "scripts/lab/conf.sh: $2 is no key of lab.conf." "KEY is one of ${LAB_KEYS[*]}."
	[ -f "$1/lab.conf" ] || die "no lab.conf in $1." "Give a lab's folder, labs/NN-slug."
	conf_get "$1" "$2"
fi
