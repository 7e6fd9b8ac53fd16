# shellcheck shell=bash
# make lab, stage "config": which lab, its lab.conf, its boots, and what
# its kernel must have.  Sourced by scripts/lab.sh.

rel() { printf '%s\n' "${1#"$KIT"/}"; }

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
	d=$(ls -d "$LABS/$NN"-*/ 2>/dev/null | head -1)
	if [ -z "$d" ] || [ ! -f "$d/lab.conf" ]; then
		die "there is no lab $NUM." "The labs are $(lab_numbers); make labs lists them with their titles."
	fi
	LDIR=${d%/}
	OUT=$BUILD/labs/$NN
	mkdir -p "$OUT"
}

# load_conf: TITLE MINUTES SOURCE BOOTS NEEDS KIND KOBJS of $LDIR/lab.conf,
# and the paths that follow from them (BIN, SOL, WORKF).  KIND: user (a C
# file linked with the grader), kernel (a C file built into the lab
# kernel), policy (SOURCE is a folder of policy files: scripts/lab/policy.sh).
load_conf() {
	TITLE='' MINUTES='?' SOURCE='' BOOTS=("") NEEDS=() KIND=user KOBJS=''
	# shellcheck disable=SC1091
	. "$LDIR/lab.conf" || die "$(rel "$LDIR")/lab.conf has a syntax error (above)." "Fix it."
	[ -n "$SOURCE" ] && [ -e "$LDIR/solution/$SOURCE" ] ||
		die "$(rel "$LDIR")/lab.conf names SOURCE=$SOURCE, but $(rel "$LDIR")/solution/$SOURCE does not exist." \
		    "Each lab needs its reference solution in solution/."
	[ ${#BOOTS[@]} -gt 0 ] || BOOTS=("")
	local b
	for b in "${BOOTS[@]}"; do check_stack_words "$b" "$(rel "$LDIR")/lab.conf's BOOTS"; done
	BIN=${SOURCE%.c}
	# A policy lab's program is the grader, named after the lab (lab10),
	# not after its folder of policies.
	if [ "$KIND" = policy ]; then BIN=lab$NUM; fi
	SOL=$LDIR/solution/$SOURCE
	WORKF=$LDIR/work/$SOURCE
	# A kernel-side lab's SOURCE goes into the lab kernel; its guests boot
	# that kernel (build/lab/bzImage).
	if [ "$KIND" = kernel ]; then export FLAVOUR=lab; fi
	lab_flavour
}

# lab_flavour: lab.conf's FLAVOUR (lab 11: mainline), the kernel the lab's
# guests boot and whose UAPI headers its program is compiled against.
# This is the one place that reads it; every script lab.sh runs inherits
# it (flavour_dir, guest-cc.sh, run-guest.sh).  Without the key, the
# FLAVOUR lab.sh was started with (normal unless given), as before; a
# kernel-side lab's is lab (above).
FLAVOUR_ASKED=$FLAVOUR
lab_flavour() {
	local want
	want=$(sed -n 's/^FLAVOUR=//p' "$LDIR/lab.conf" | tail -1)
	case "$want" in
	'') [ "$KIND" = kernel ] || export FLAVOUR=$FLAVOUR_ASKED ;;
	mainline) export FLAVOUR=mainline ;;	# whatever FLAVOUR was given: the lab is written for this kernel
	*) die "$(rel "$LDIR")/lab.conf says FLAVOUR=$want; a lab runs on the kit's kernel (no FLAVOUR) or on the reference kernel (FLAVOUR=mainline)." \
	       "Fix lab.conf (a kernel-side lab says KIND=kernel instead)." ;;
	esac
}

# boot_label I: how boot I is described.
boot_label() {
	local a
	a=$(stack_cmdline "${BOOTS[$1]}")
	if [ -z "$a" ]; then echo "default LSMs"; else echo "$a"; fi
}

# The kernel: built by the first run, rebuilt when its inputs changed;
# kernel.sh says at once (its stamp of every input) when nothing did.
ensure_kernel() {
	local fd
	# A kernel-side lab's kernel is built with each variant (build_variant).
	[ "$KIND" = kernel ] && return 0
	fd=$(flavour_dir)
	[ "$FLAVOUR" = mainline ] && need_mainline "$fd"
	[ -f "$fd/bzImage" ] || say "first run: building the kit's kernel (several minutes, once; offline afterwards)"
	"$KIT/scripts/kernel.sh" || die "the kernel could not be built (above), so lab $NUM cannot run." \
		"Fix what the message above says, or ask the instructor; then run make lab $NUM again."
}

# need_mainline DIR: a lab on the reference kernel (FLAVOUR=mainline)
# never starts its half-hour build by itself; without it, say how to get
# it.  Once built, ensure_kernel keeps it up to date as it does the kit's.
need_mainline() {
	[ -f "$1/bzImage" ] && [ -f "$1/usr/include/linux/lsm.h" ] && return 0
	local first=
	[ -f "$MAINLINE_TARBALL" ] ||
		first="First, as root: make deps MAINLINE=1 (installs Debian's linux-source-6.12: 154 MB to download, the one step that needs the network). Then: "
	die "lab $NUM runs on the reference kernel, mainline 6.12 (lab.conf: FLAVOUR=mainline), and it is not built yet ($(rel "$1")/bzImage is missing)." \
	    "${first}make mainline (once: 15-30 min on 2 idle cores with a cold ccache, about 7 min with a warm one, and 1.9 GB of disk; docs/performance.md has the measured times), then make lab $NUM again. Instructors: do it before the workshop (labs/README.md, \"Before the workshop\")."
}

# The lab's needs in the UAPI headers (NEEDS: "header|text|what brings it").
check_needs() {
	local n h t why inc
	inc=$(flavour_dir)/usr/include
	for n in "${NEEDS[@]}"; do
		IFS='|' read -r h t why <<<"$n"
		grep -q -- "$t" "$inc/$h" 2>/dev/null && continue
		[ "$FLAVOUR" = mainline ] &&
			die "lab $NUM needs '$t' in <$h>, and the reference kernel's headers ($(rel "$inc")) do not have it." \
			    "It comes with $why. Check that $(basename "$MAINLINE_TARBALL") is a 6.8 or later tree (make mainline prints its version), then run make mainline and make lab $NUM again."
		die "lab $NUM needs '$t' in <$h>, and this kernel's headers ($(rel "$inc")) do not have it." \
		    "It comes with $why. Check that patches/series lists it, then run make kernel and make lab $NUM again."
	done
}

# stage_config: the kernel a user-space lab's guests boot, and its
# headers' NEEDS (a kernel-side lab's kernel is built with its source, in
# stage_build).
stage_config() {
	ensure_kernel
	[ "$KIND" = kernel ] || check_needs
}
