#!/usr/bin/env bash
# Offline tests of the one parser, scripts/guest/results.py
# (scripts/lib/channel.py, labview.py): stored guest outputs and console
# logs of tests/data/ (a hang, kernel lines interleaved, a missing end
# line, a forged status line, a NUL in a value, a multi-line diagnostic,
# an Oops without kallsyms), a variant's record (scripts/lib/runrecord.py)
# and make lab's reading of it (scripts/lab/parse.sh).
# kit: offline
# shellcheck source=tests/host/tap.bash
. "$(dirname "$0")/tap.bash"
R=$K/scripts/guest/results.py

echo "1..11"
case_ "a hang: a section cut short fails (did not finish, planned tests missing)" \
	hang.out "$(want hang.count 0)" '$a KIT-END lsm_prctl status=0' "$R" count @
case_ "kernel lines interleaved with TAP are not results; a SKIP counts as skipped" \
	interleaved.log "$(want interleaved.count 0)" 's/^\[    1.300000\] //' "$R" count @
case_ "a missing end line fails its section; a non-zero exit without a failing test fails" \
	missing-end.out "$(want missing-end.count 0)" '3i KIT-END selftest_pass status=0' "$R" count @
case_ "the status line is believed only with this boot's nonce" \
	done.out "$(printf '3\nrc=0\n' >"$T/done.want"; echo "$T/done.want")" '$d' "$R" "done" @ 5a5a5a5a5a5a
case_ "the crash rule: a kernel WARNING line is a crash" \
	crash-yes.log "$(printf '%s\nrc=0\n' '[    2.100100] WARNING: CPU: 0 PID: 1 at security/toylsm/hooks.c:42 toylsm_file_open+0x1c/0x40' >"$T/crash.want"; echo "$T/crash.want")" \
	's/^\[[ 0-9.]*\] WARNING/WARNING/; /Call Trace/d' "$R" crash @
case_ "the crash rule: a program's own WARNING: line is not a crash" \
	crash-no.log "$(printf 'rc=1\n' >"$T/nocrash.want"; echo "$T/nocrash.want")" 's/^WARNING/[    3.000000] WARNING/' "$R" crash @
# run-guest.sh's verdict: both in one start of Python, each line prefixed.
case_ "the runner's verdict: the crash line and this boot's status, in one call" \
	crash-yes.log "$(printf 'crash %s\nstatus 3\nrc=0\n' '[    2.100100] WARNING: CPU: 0 PID: 1 at security/toylsm/hooks.c:42 toylsm_file_open+0x1c/0x40' >"$T/verdict.want"; echo "$T/verdict.want")" \
	's/^\[[ 0-9.]*\] WARNING/WARNING/; /Call Trace/d' "$R" verdict @ "$D/done.out" 5a5a5a5a5a5a

# The learner's view of a lab and its record: boot 1 with a NUL in a
# value (shown as \0), a step that needs an earlier one; boot 2 hung after
# step 1.  The folder holds the record and no other file (no .rc beside
# it); the view, the steps, the VARIANT line and the TAP are rendered
# from the record.
labview() {	# labview BOOT1: the outputs of results.py lab, in one text
	rm -rf "$T/lab"
	"$R" lab "$T/lab" work 90 "0:$1:default LSMs" "124:$D/lab-boot2.out:lsm=selinux"
	for c in boots steps variant tap; do echo "== record $c =="; "$R" record "$c" "$T/lab/run.json"; done
	ls "$T/lab"
}
out=$(labview "$D/lab-boot1.out" 2>&1)
sed -e 's/\x00/@/' "$D/lab-boot1.out" >"$T/lab-nonul.out"
bout=$(labview "$T/lab-nonul.out" 2>&1)
if [ "$out" != "$(cat "$D/lab.expected")" ]; then
	notok "a lab's learner view: PASS/FAIL lines, diagnostics, NULs shown as \\0, a hung boot's steps never graded"
	diff "$D/lab.expected" <(printf '%s\n' "$out") | diag 12
elif [ "$bout" = "$out" ]; then
	notok "a lab's learner view (a NUL replaced gives the same view: the case cannot fail)"
else
	ok "a lab's learner view: PASS/FAIL lines, diagnostics, NULs shown as \\0, a hung boot's steps never graded"
fi

# A step's multi-line diagnostic (the verifier's log under "seen:", with a
# kernel line between two of its lines) is kept line by line, as it came,
# in the record, the learner's view and the TAP rendered from it; a '#'
# line right after a result, under no diagnostic, is not
# (scripts/lib/channel.py, tap()).
lab_one() {	# lab_one CHANNEL: the learner's view and the TAP of one boot
	rm -rf "$T/one"
	"$R" lab "$T/one" work 90 "0:$1:bpf last" >/dev/null &&
		"$R" record boots "$T/one/run.json" && "$R" record tap "$T/one/run.json"
}
case_ "a multi-line diagnostic is kept whole: the verifier's reason on the learner's screen" \
	lab-multiline.out "$(want lab-multiline.expected 0)" 's/^#           R0 invalid/R0 invalid/' lab_one @

# make lab's report and exit status read the variant's VARIANT line
# (parse.sh's read_result), nothing eval'd: the verdict, its counts; a
# word it does not know stops it, named.
readresult() (
	die() { echo "die: $*"; exit 3; }
	rel() { echo "$1"; }
	. "$K/scripts/lab/parse.sh"
	line=$(labview "$D/lab-boot1.out" | sed -n '/^== record variant ==$/{n;p}')
	read_result "$line"
	got="$VERDICT $STEPS $PASSED [$FAILED_STEPS] $RESULTS_P $RESULTS_F"
	want="trouble 3 1 [2 3] 2 4"
	[ "$got" = "$want" ] || { echo "read: $got"; exit 1; }
	out=$(read_result "$line step=3") && { echo "an unknown word was read"; exit 1; }
	grep -q "unknown word 'step=3'" <<<"$out" || { echo "not the message: $out"; exit 1; }
	out=$(read_result '$(touch '"$T"'/pwned) verdict=pass') && { echo "no VARIANT line was read"; exit 1; }
	[ ! -e "$T/pwned" ] || { echo "the line was evaluated"; exit 1; }
	exit 0
)
scenario "make lab's report reads the variant's record: verdict, counts; nothing eval'd" readresult

# An Oops of a kernel without kallsyms (the lab kernel's): its addresses
# named from the vmlinux's symbols, on the host.  The stand-in vmlinux is
# x86_64's, made by the guest's compiler (lib.sh's GUEST_CC: the cross
# compiler on an arm64 host, configs/arches.conf).
# shellcheck disable=SC2016 # expanded by the inner bash
GUEST_CC=$(bash -c '. "$1/scripts/lib/lib.sh" && echo "$GUEST_CC"' _ "$K")
oops() {	# oops CONSOLE: results.py oops against a stand-in vmlinux
	"${GUEST_CC:-gcc}" -O0 -mcmodel=kernel -fno-pic -no-pie -nostdlib -static \
		-Wl,-Ttext=0xffffffff81000000 -o "$T/vmlinux" "$D/fake-vmlinux.c" || return 99
	"$R" oops "$1" "$T/vmlinux"
}
case_ "an Oops without kallsyms: its addresses named from vmlinux (RIP: toylsm_inode_unlink+0xc)" \
	oops.log "$(want oops.expected 0)" 's/0xffffffff8100000c/0xffffffff8100000e/' oops @
