# shellcheck shell=bash
# make lab / make skel: the attendee's copy, labs/NN-*/work/SOURCE, made
# from the reference solution by scripts/lab/lab-skel.sh.  Sourced by
# scripts/lab/lab.sh.

# solved K: "step 1 solved" or "steps 1-K solved".
solved() { if [ "$1" -eq 1 ]; then echo "step 1 solved"; else echo "steps 1-$1 solved"; fi; }

# The number of steps: the highest n of the solution's "/* TODO n:" (or,
# in a policy, "# TODO n:") markers; SOL may be a folder.
count_steps() {
	grep -rhoE '(/\*|#) TODO [0-9]+:' "$SOL" | sed -E 's|.* ([0-9]+):|\1|' | sort -n | tail -1
}

# same_copy A B: the two copies (files or folders) hold the same.
same_copy() { diff -r -q "$1" "$2" >/dev/null 2>&1; }

# skeleton STEP OUT [BY]: the skeleton with the steps before STEP solved;
# a folder (a policy lab's) gets the header in each file that has markers.
# BY is the command that made it, skel (make skel N) or lab (make lab N),
# as its header says.
skeleton() {
	local step=$1 out=$2 by=${3:-skel} f
	if [ -d "$SOL" ]; then
		rm -rf "$out.tmp"
		"$KIT/scripts/lab/lab-skel.sh" "$SOL" "$step" "$out.tmp" || { rm -rf "$out.tmp"; die "could not make the skeleton of lab $NUM (above)." \
			"The TODO/END TODO markers of $(rel "$SOL") are wrong; this is the kit's bug."; }
		grep -rlE '# (TODO|DONE) [0-9]+:' "$out.tmp" | while IFS= read -r f; do
			{
				printf '# Your copy of %s, made by "make %s %d%s" on %s' "${f#"$out.tmp"/}" \
					"$by" "$NUM" "$([ "$step" -gt 1 ] && echo " STEP=$step")" "$(date '+%F %T')"
				[ "$step" -gt 1 ] && printf ', with %s' "$(solved $((step - 1)))"
				printf '.\n# Edit it, then run: make lab %d.  Resetting keeps a backup of it.\n' "$NUM"
				cat "$f"
			} >"$f.h" && mv "$f.h" "$f"
		done
		rm -rf "$out"
		mv "$out.tmp" "$out"
		return
	fi
	{
		printf '/*\n'
		printf ' * Your copy of lab %d, made by "make %s %d%s" on %s\n' \
			"$NUM" "$by" "$NUM" "$([ "$step" -gt 1 ] && echo " STEP=$step")" "$(date '+%F %T')"
		printf ' * from %s' "$(rel "$SOL")"
		[ "$step" -gt 1 ] && printf ', with %s' "$(solved $((step - 1)))"
		printf '.\n * Edit it, then run: make lab %d.  Resetting keeps a backup of it.\n */\n' "$NUM"
		"$KIT/scripts/lab/lab-skel.sh" "$SOL" "$step"
	} >"$out.tmp" || { rm -f "$out.tmp"; die "could not make the skeleton of lab $NUM (above)." \
		"The TODO/END TODO markers of $(rel "$SOL") are wrong; this is the kit's bug."; }
	mv "$out.tmp" "$out"
}

# reset_work STEP [BY]: a fresh working copy (BY: the command making it,
# skel or lab, for its header); an existing one is kept as a backup
# beside it (never overwritten: a second reset in the same second gets
# another name).
reset_work() {
	local step=${1:-1} by=${2:-skel} bak last n
	n=$(count_steps)
	case "$step" in ''|*[!0-9]*|0) die "STEP must be a step number (1 to $n), not '$step'." \
		"make skel $NUM STEP=3 gives you a copy with steps 1 and 2 solved." ;; esac
	[ "$step" -le "$n" ] || die "lab $NUM has $n steps, so STEP=$step does not exist." \
		"STEP=k gives a copy with the steps before k solved: STEP=$n leaves only the last step to you; SOLUTION=1 grades the complete solution."
	mkdir -p "$LDIR/work"
	if [ -e "$WORKF" ]; then
		last=$(first "$(printf '%s\n' "$WORKF".bak-* | sort -V | tail -1)")
		if [ -n "$last" ] && same_copy "$WORKF" "$last"; then
			say "your previous copy was already saved as $(rel "$last")"
		else
			bak=$WORKF.bak-$(date +%Y%m%d-%H%M%S)
			local k=1 b=$bak
			while [ -e "$b" ]; do k=$((k + 1)); b=$bak-$k; done
			cp -pr "$WORKF" "$b"
			say "your previous copy is kept as $(rel "$b")"
		fi
	fi
	skeleton "$step" "$WORKF" "$by"
	# What the copy is when untouched, for the verdict's first words.
	mkdir -p "$OUT" && source_sha "$WORKF" >"$OUT/skeleton.sha"
	if [ "$step" -gt 1 ]; then
		say "new copy: $(rel "$WORKF"), $(solved $((step - 1))), step $step is yours"
	else
		say "new copy: $(rel "$WORKF"), the untouched skeleton"
	fi
}

# pick_source: SRC and TAG of what make lab grades (STEP=k resets the
# copy first; a first run makes it); sets SRC and TAG.
pick_source() {
	if [ -n "${STEP:-}" ]; then
		reset_work "$STEP" lab
	elif [ ! -e "$WORKF" ] && [ "${SOLUTION:-0}" != 1 ]; then
		say "first run of lab $NUM: making your copy from the skeleton"
		reset_work 1 lab
	fi
	if [ "${SOLUTION:-0}" = 1 ]; then SRC=$SOL TAG=solution; else SRC=$WORKF TAG=work; fi
	[ "$TAG" = solution ] || check_work "$SRC"
}

# check_work SRC: the attendee's copy is what the kit compiles, copies
# into the guest and shows: their own regular files (a folder of them in
# a policy lab), no symbolic link, no device or FIFO, at most
# WORK_MAX_KB in all.  Anything else is refused before it is read.
WORK_MAX_KB=1024
check_work() {
	local src=$1 odd kb
	[ ! -L "$src" ] || die "$(rel "$src") is a symbolic link: the kit grades your own copy, not what a link points to." 		"Put the file itself there (make skel $NUM makes a fresh copy and keeps the old one as a backup)."
	if [ -d "$src" ]; then
		odd=$(find "$src" -mindepth 1 ! -type f ! -type d -print -quit)
		[ -z "$odd" ] || die "$(printf '%q' "$(rel "$odd")") is not a regular file (a link, a device or a FIFO): the kit reads only files in $(rel "$src")." 			"Replace it with a file, or remove it."
	else
		[ -f "$src" ] || die "$(rel "$src") is not a regular file." 			"Put your copy there as a file (make skel $NUM makes a fresh one)."
	fi
	kb=$(du -sk --apparent-size "$src" | cut -f1)
	[ "$kb" -le $WORK_MAX_KB ] || die "$(rel "$src") is $kb KB: more than the $WORK_MAX_KB KB a lab's copy may hold." 		"A lab's answer is a few KB; remove what does not belong there."
}
