#!/usr/bin/env bash
# Boot the kit's kernel with the busybox initramfs under QEMU, run one
# command or script in the guest, and give the verdict on the host.
#
#   run-guest.sh [--cmd 'CMD' | --script FILE | --shell] [--bin FILE]...
#                [--policy DIR]... [--name NAME] [--quiet] [--gdb SOCKET]
#                [--flavour NAME]
# --flavour NAME: the kernel of that flavour (configs/flavours.conf),
# default FLAVOUR, else normal; its row gives the guest's memory and
# whether the KUnit suites run at boot.
# Environment: APPEND (extra kernel command line; a stack name of
# configs/stacks.conf stands for its line), TIMEOUT (s, default 120),
# ACCEL (kvm|tcg, default: probed), TEST=1 (panic_on_warn),
# POLICY=SET[:MODULE,...] (/bin/policy loads that policy set first, in
# the guest, before the command or the script: "policy load SET
# MODULE..."; a set of configs/policy/, or one given with --policy).
# --shell with lines piped in (not a terminal): they run as a script,
# one after the other, instead of being typed at a prompt before it is
# there (the serial console echoes and garbles them).
# --policy DIR: a policy set compiled by scripts/guest/policy-sets.sh --set (lab 10's
# copy), which the guest holds as /etc/policy/NAME, NAME being DIR's name.
#
# The guest's command writes to a serial port of its own (ttyS1, the
# results channel: build/logs/guest-NAME.out, shown on the terminal unless
# --quiet); the console (ttyS0: the kernel's messages) goes to
# build/logs/guest-NAME.log.  Fail closed: the exit status is the guest
# command's own status only if the channel has the status line with this
# boot's nonce and the console's kernel lines break no rule of
# scripts/guest/crash.ere (panic, oops, BUG, WARNING...).  Otherwise:
#   124 the guest hung (host timeout)   125 the kernel panicked or warned
#   126 no status line from the guest   127 QEMU could not start
# These four belong to the runner: a guest command that itself exits with
# 124-127 (a shell says 127 for "command not found", 126 for "not
# executable") is reported as 123, with a line on stderr naming its own
# status, so that "QEMU could not start" never means "no such program".
# With --quiet, a guest command that fails gets that one line too.
# --gdb SOCKET: QEMU's gdb stub listens on the unix socket SOCKET and the
# guest's CPUs wait for gdb before the first instruction (scripts/debug/gdb.sh,
# make gdb); TIMEOUT then defaults to 0, no limit: a person is stepping.
set -uo pipefail
. "${0%/*}/../lib/lib.sh"

# parse_args ARG...: the options above into mode, cmd, script, name,
# quiet, bins, sets, gdbsock, and FLAVOUR (flavour_use).
parse_args() {
	mode=cmd cmd=true script='' name=run quiet=0 bins=() sets=() gdbsock=''
	local fl=$FLAVOUR
	while [ $# -gt 0 ]; do
		case "$1" in
		--flavour) fl=$2; shift ;;
		--cmd) mode=cmd cmd=$2; shift ;;
		--script) mode=script script=$2; shift ;;
		--shell) mode=shell ;;
		--bin) bins+=("$2"); shift ;;
		--policy) sets+=("$2"); shift ;;
		--name) name=$2; shift ;;
		--quiet) quiet=1 ;;
		--gdb) gdbsock=$2; shift ;;
		*) die "run-guest.sh: unknown argument '$1'." "See the usage at the top of scripts/guest/run-guest.sh." ;;
		esac
		shift
	done
	flavour_use "$fl"
}

# setup: the kernel, the paths of this run, the base initramfs; dies
# before anything boots on a word of APPEND that is no stack and no kernel
# parameter (scripts/guest/stacks.sh), or a stack mainline cannot boot.
setup() {
	OUT=$(flavour_dir)
	. "$KIT/scripts/guest/stacks.sh"
	check_stack_words "${APPEND:-}" APPEND
	[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] || mainline_stack "$(stack_cmdline "${APPEND:-}")" quiet
	KERNEL=$OUT/bzImage
	if [ -n "$gdbsock" ]; then TIMEOUT=${TIMEOUT:-0}; else TIMEOUT=${TIMEOUT:-120}; fi
	LOG=$LOGS/guest-$name.log
	RES=$LOGS/guest-$name.out
	WORK=$BUILD/run/$name
	[ -f "$KERNEL" ] || die "no kernel at $KERNEL." "Build it first: make kernel FLAVOUR=$FLAVOUR."
	command -v "$GUEST_QEMU" >/dev/null ||
		die "$GUEST_QEMU is not installed." "Run make deps (as root), or: apt-get install qemu-system-x86"
	"$KIT/scripts/guest/initramfs.sh" || exit 1
}

# make_initrd: the base initramfs and, appended as a second archive, the
# payload: /kit/run (the command or script), the programs in /kit/bin and
# the policy sets in /etc/policy; $WORK/initrd.cpio.gz.
make_initrd() {
	rm -rf "$WORK" && mkdir -p "$WORK"
	{
		echo "dir /kit/bin 0755 0 0"
		pol=
		if [ -n "${POLICY:-}" ]; then
			[[ "$POLICY" =~ ^[A-Za-z0-9._-]+(:[a-z]+(,[a-z]+)*)?$ ]] ||
				die "POLICY=$POLICY is not SET or SET:MODULE,... (letters, digits, . _ -)." \
				    "For example: POLICY=stack, or POLICY=lab12-work:apparmor,toylsm."
			pol="policy load ${POLICY%%:*}"
			[[ "$POLICY" != *:* ]] || pol+=" ${POLICY#*:}"
			pol="${pol//,/ } || exit \$?"
		fi
		case "$mode" in
		cmd) printf '#!/bin/sh\n%s\n%s\n' "$pol" "$cmd" >"$WORK/run" ;;
		script) { printf '#!/bin/sh\n%s\n' "$pol"; cat "$script"; } >"$WORK/run" ;;
		esac
		[ "$mode" = shell ] || echo "file /kit/run $WORK/run 0755 0 0"
		for b in "${bins[@]}"; do
			[ -f "$b" ] || die "guest program $b does not exist." "Build it first."
			n=${b##*/}
			[[ "$b" == /* ]] || b=$(realpath "$b")
			echo "file /kit/bin/$n $b 0755 0 0"
		done
		for d in "${sets[@]}"; do
			[ -d "$d" ] || die "policy set $d does not exist." "Compile it first: scripts/guest/policy-sets.sh --set."
			d=$(realpath "$d")
			cpio_tree "$d" "/etc/policy/$(basename "$d")"
		done
	} >"$WORK/payload.list"
	"$KIT/scripts/guest/initramfs.sh" -p "$WORK/payload.list" "$WORK/payload.cpio.gz" || exit 1
	cat "$BUILD/initramfs.cpio.gz" "$WORK/payload.cpio.gz" >"$WORK/initrd.cpio.gz"
}

# qemu_args: accel, and QEMU (the command line) for this run.
qemu_args() {
	accel=${ACCEL:-$("$KIT/scripts/guest/accel.sh")}
	# TCG runs both virtual CPUs on one host thread (thread=single), not on
	# a thread each (its default for more than one CPU): with a thread each,
	# the guest's second CPU was seen to execute the int3 that x86's
	# text_poke_bp() had already taken out again ("int3: 0000 [#1] SMP" in
	# trace_sched_wakeup, then a panic) whenever a trace event was switched
	# on or off: in 2 of 3 boots of guest/tests/guest_smp.c on an idle host,
	# and in a lab 10 grading on a busy one (CI).  One thread also does not
	# take both of a 2-core host's cores from the builds beside it.
	case "$accel" in
	kvm) accel_args=(-accel kvm -cpu host) ;;
	*) accel_args=(-accel 'tcg,thread=single') ;;
	esac
	mem=$(flavour_get "$FLAVOUR" memory)
	[ -n "$mem" ] || die "the $FLAVOUR kernel is never booted (configs/flavours.conf: no memory)." "Boot another flavour."
	printf -v nonce '%08x%04x' "$SRANDOM" $((SRANDOM & 0xffff))
	# no_timer_check: at boot, x86 checks that the timer interrupt ticks a few
	# times while it waits a fixed number of TSC cycles; a TCG guest on a busy
	# host gets too few ticks and panics ("IO-APIC + timer doesn't work!"),
	# seen twice in one make test at load 5-7.  The check is for broken
	# boards' timer wiring, which QEMU's is not.
	append="console=ttyS0 panic=-1 oops=panic loglevel=5 printk.time=1 no_timer_check kit.nonce=$nonce"
	# The kernel's KUnit suites (CONFIG_KUNIT=y) run at boot only where a
	# test reads them: a boot that asks for kunit.enable=1 (the kernel
	# keeps the last value; tests/boots.conf), and a flavour whose row
	# says kunit on (the lab kernel: lab 9 grades its suites).
	[ "$(flavour_get "$FLAVOUR" kunit)" = on ] || append+=" kunit.enable=0"
	[ "${TEST:-0}" = 1 ] && append+=" panic_on_warn=1"
	append+=" $(stack_cmdline "${APPEND:-}")"	# stack names: configs/stacks.conf
	[ "$(flavour_get "$FLAVOUR" tree)" != mainline ] || mainline_stack "$append"
	# Two CPUs, as two sockets: the kit's kernel has no ACPI and finds its
	# CPUs in the MP table, where SeaBIOS lists one entry per socket, so
	# QEMU's default for -smp 2 (one socket of two cores) gave the guest one
	# CPU.  toylsm_concurrent fails when the guest sees fewer than two.
	# KIT_SMP=1: one CPU (make bench compares the boot times).
	smp=${KIT_SMP:-2}
	QEMU=("$GUEST_QEMU" "${accel_args[@]}" -m "$mem" -smp "$smp,sockets=$smp" -no-reboot
	      -kernel "$KERNEL" -initrd "$WORK/initrd.cpio.gz" -append "$append"
	      -net none)
	# The stub on a unix socket, not -s's TCP port 1234: two guests (two
	# clones, two helpers) can each have one, and no other user can attach.
	# It works under TCG as under KVM.
	if [ -n "$gdbsock" ]; then
		rm -f "$gdbsock"
		QEMU+=(-S -chardev "socket,id=kitgdb,path=$gdbsock,server=on,wait=off" -gdb chardev:kitgdb
		       -pidfile "$WORK/qemu.pid")
	fi
}

# boot: QEMU under the time limit, the console in $LOG and the results
# channel in $RES; sets rc (timeout's) and secs; the guest's own time and
# CPU (QEMU's, user and system, ms) in $WORK/seconds and $WORK/cpu-ms.
boot() {
	start=${EPOCHREALTIME/./}
	children_cpu cpu0 "$WORK/times"
	: >"$LOG"; : >"$RES"
	if [ $quiet = 1 ]; then
		chan=(-serial "file:$RES")
	else
		chan=(-chardev "stdio,id=kitres,signal=off,logfile=$RES" -serial chardev:kitres)
	fi
	timeout -k 5 "$TIMEOUT" "${QEMU[@]}" -display none -monitor none \
		-serial "file:$LOG" "${chan[@]}" </dev/null 2>"$WORK/qemu.err"
	rc=$?
	[ -s "$WORK/qemu.err" ] && cat "$WORK/qemu.err" >>"$LOG"
	: >>"$LOG"; : >>"$RES"
	children_cpu cpu1 "$WORK/times"
	start=$((${EPOCHREALTIME/./} - start))
	printf -v secs '%d.%06d' $((start / 1000000)) $((start % 1000000))
	echo "$secs" >"$WORK/seconds"
	# shellcheck disable=SC2154 # cpu0 and cpu1 are children_cpu's (printf -v)
	echo $((cpu1 - cpu0)) >"$WORK/cpu-ms"
}

fail() {	# fail CODE WHY
	{
		echo "---- last 25 lines of the guest console ----"
		tail -25 "$LOG"
		echo "--------------------------------------------"
		if [ $quiet = 1 ] && [ -s "$RES" ]; then
			echo "---- last 10 lines the guest's command wrote ----"
			tail -10 "$RES"
			echo "-------------------------------------------------"
		fi
		printf 'kit: guest FAILED (%s): %s\n' "$name" "$2"
		printf 'kit: full console log: %s (the command'"'"'s output: %s)\n' "$LOG" "$RES"
	} >&2
	exit "$1"
}

# verdict: the run's exit status, from rc, the console and the channel.
verdict() {
	# The crash rule (scripts/guest/crash.ere) counts kernel lines only (they carry a
	# [time] prefix, printk.time=1), so that a program printing "WARNING:"
	# does not look like a kernel warning.
	R=$KIT/scripts/guest/results.py
	if [ "$TIMEOUT" != 0 ] && { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
		fail 124 "no verdict within ${TIMEOUT}s: the guest hung (raise TIMEOUT=... if it is just slow)"
	fi
	# The crash rule and the status line in one start of Python (results.py
	# verdict: "crash LINE", "status N"); a parser that fails says neither, and
	# the run fails as one without a status line.
	splat='' status=''
	while IFS= read -r v; do
		case "$v" in
		"crash "*) splat=${v#crash } ;;
		"status "*) status=${v#status } ;;
		esac
	done < <("$R" verdict "$LOG" "$RES" "$nonce")
	if [ -n "$splat" ]; then
		fail 125 "the kernel reported: ${splat:0:120}"
	fi
	if [ ! -s "$RES" ] && [ "$rc" -ne 0 ] && ! grep -aq 'Linux version' "$LOG"; then
		fail 127 "QEMU could not start the guest (exit $rc); its message is above"
	fi
	[ -n "$status" ] ||
		fail 126 "the guest never reported its exit status (it powered off, crashed or was cut short)"
	[ "$quiet" = 1 ] || say "guest exited with status $status (${secs%.*}.${secs:${#secs}-6:1} s, $accel)"
	if [ "$status" -ge 124 ] && [ "$status" -le 127 ]; then
		hint=""
		[ "$status" = 127 ] && hint=": the guest's shell found no such command (a program missing from /kit/bin?)"
		[ "$status" = 126 ] && hint=": the guest's shell could not execute the program"
		printf 'kit: guest (%s): its command exited with %s%s; reported as 123 (124-127 are the runner'"'"'s verdicts). Console log: %s\n' \
			"$name" "$status" "$hint" "$LOG" >&2
		exit 123
	fi
	[ "$quiet" = 1 ] && [ "$status" -ne 0 ] &&
		printf 'kit: guest (%s): its command exited with %s. Console log: %s\n' "$name" "$status" "$LOG" >&2
	exit "$status"
}

parse_args "$@"
setup
if [ "$mode" = shell ] && [ ! -t 0 ]; then
	mode=script script=$BUILD/run/$name-stdin
	mkdir -p "$BUILD/run" && cat >"$script" || die "cannot keep the piped lines in $script." "Is build/ writable?"
	say "the guest shell's input is not a terminal: its lines run as a script, one after the other (the guest powers off at their end; their exit status is the last line's)"
fi
make_initrd
qemu_args
if [ "$mode" = shell ]; then
	say "booting a guest shell ($accel). Leave with 'exit', or Ctrl-A then X."
	exec "${QEMU[@]}" -nographic -serial mon:stdio
fi
boot
verdict
