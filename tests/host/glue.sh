#!/usr/bin/env bash
# Offline tests of the kit's glue (as the kernel's kunit_tool_test.py does
# for kunit.py): stored guest outputs and console logs (tests/data/) run
# through the one parser, scripts/guest/results.py, and stored solutions through
# the skeleton generator, scripts/lab/lab-skel.sh; and the scripts' own logic
# (tree.sh, kernel.sh's stamp, test.sh and its skip summary, lab.sh,
# lib.sh) in scratch kits with stand-ins for Kbuild, the kernel and the
# guests.  No QEMU, no network.
#
# Each case compares with a stored expectation, then runs again on a
# broken copy of its fixture (the line that matters removed or changed)
# and must then NOT match: a case that cannot fail is no test.
# kit: offline
K=$(cd "$(dirname "$0")/../.." && pwd)
D=$K/tests/data
R=$K/scripts/guest/results.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ok, notok, scenario (and the count n)
# shellcheck source=tests/host/tap.bash
. "$K/tests/host/tap.bash"

# case DESC FIXTURE EXPECTED SED-SCRIPT CMD...: CMD with @ for the fixture;
# its stdout (and exit status, as a last line "rc=N") must equal EXPECTED
# on FIXTURE, and differ on FIXTURE broken by SED-SCRIPT.
case_() {
	local desc=$1 fix=$2 want=$3 brk=$4 out bout
	shift 4
	out=$(run "$D/$fix" "$@")
	sed -e "$brk" "$D/$fix" >"$T/broken-$fix"
	bout=$(run "$T/broken-$fix" "$@")
	if [ "$out" != "$(cat "$want")" ]; then
		notok "$desc"
		diff <(cat "$want") <(printf '%s\n' "$out") | sed 's/^/# /' | head -12
	elif [ "$bout" = "$out" ]; then
		notok "$desc (the broken fixture passes too: the case cannot fail)"
	else
		ok "$desc"
	fi
}
run() {	# run FIXTURE CMD...: CMD with @ replaced by FIXTURE; "rc=N" last
	local fix=$1 a args=()
	shift
	for a in "$@"; do args+=("${a//@/$fix}"); done
	"${args[@]}" 2>&1
	echo "rc=$?"
}
# The expectation files hold the output; "rc=N" is added here.
want() { { cat "$D/$1"; echo "rc=$2"; } >"$T/$1.want"; echo "$T/$1.want"; }

echo "1..34"

case_ "a hang: a section cut short fails (did not finish, planned tests missing)" \
	hang.out "$(want hang.count 0)" '$a KIT-END lsm_prctl status=0' "$R" count @
case_ "kernel lines interleaved with TAP are not results; a SKIP counts as skipped" \
	interleaved.log "$(want interleaved.count 0)" 's/^\[    1.300000\] //' "$R" count @
case_ "a missing end line fails its section; a non-zero exit without a failing test fails" \
	missing-end.out "$(want missing-end.count 0)" '3i KIT-END selftest_pass status=0' "$R" count @
case_ "the status line is believed only with this boot's nonce" \
	done.out "$(printf '3\nrc=0\n' >"$T/done.want"; echo "$T/done.want")" '$d' "$R" done @ 5a5a5a5a5a5a
case_ "the crash rule: a kernel WARNING line is a crash" \
	crash-yes.log "$(printf '%s\nrc=0\n' '[    2.100100] WARNING: CPU: 0 PID: 1 at security/toylsm/hooks.c:42 toylsm_file_open+0x1c/0x40' >"$T/crash.want"; echo "$T/crash.want")" \
	's/^\[[ 0-9.]*\] WARNING/WARNING/; /Call Trace/d' "$R" crash @
case_ "the crash rule: a program's own WARNING: line is not a crash" \
	crash-no.log "$(printf 'rc=1\n' >"$T/nocrash.want"; echo "$T/nocrash.want")" 's/^WARNING/[    3.000000] WARNING/' "$R" crash @
# run-guest.sh's verdict: both in one start of Python, each line prefixed.
case_ "the runner's verdict: the crash line and this boot's status, in one call" \
	crash-yes.log "$(printf 'crash %s\nstatus 3\nrc=0\n' '[    2.100100] WARNING: CPU: 0 PID: 1 at security/toylsm/hooks.c:42 toylsm_file_open+0x1c/0x40' >"$T/verdict.want"; echo "$T/verdict.want")" \
	's/^\[[ 0-9.]*\] WARNING/WARNING/; /Call Trace/d' "$R" verdict @ "$D/done.out" 5a5a5a5a5a5a

# The check that a configuration has what its fragments ask for (kernel.sh,
# compile-check.sh, bench-baseline.sh): a later fragment overrides an
# earlier one, as merge_config.sh merges them; an option dropped is named.
case_ "config fragments: the last fragment's value is the one asked; an option dropped is named" \
	config-merged.config "$(want config-merged.expected 0)" '/BPF_LSM=/d' \
	bash -c '. "$1/scripts/lib/lib.sh" && config_mismatches "$2" "$1/tests/data/config-kit.frag" "$1/tests/data/config-callers.frag"' _ "$K" @

# The learner's view of a lab and its one result: boot 1 with a NUL in a
# value (shown as \0), a step that needs an earlier one; boot 2 hung after
# step 1.  The folder holds those files and no other (no .rc beside the
# result).
labview() {	# labview BOOT1: the outputs of results.py lab, in one text
	rm -rf "$T/lab"
	"$R" lab "$T/lab" work 90 "0:$1:default LSMs" "124:$D/lab-boot2.out:lsm=selinux"
	for f in result boot-1.txt boot-2.txt steps.tsv result.tap; do echo "== $f =="; cat "$T/lab/$f"; done
	ls "$T/lab"
}
out=$(labview "$D/lab-boot1.out" 2>&1)
sed -e 's/\x00/@/' "$D/lab-boot1.out" >"$T/lab-nonul.out"
bout=$(labview "$T/lab-nonul.out" 2>&1)
if [ "$out" != "$(cat "$D/lab.expected")" ]; then
	notok "a lab's learner view: PASS/FAIL lines, diagnostics, NULs shown as \\0, a hung boot's steps never graded"
	diff "$D/lab.expected" <(printf '%s\n' "$out") | sed 's/^/# /' | head -12
elif [ "$bout" = "$out" ]; then
	notok "a lab's learner view (a NUL replaced gives the same view: the case cannot fail)"
else
	ok "a lab's learner view: PASS/FAIL lines, diagnostics, NULs shown as \\0, a hung boot's steps never graded"
fi

# make lab's report and exit status read that one result (parse.sh's
# read_result), nothing eval'd: the verdict's counts, each boot's runner
# status (the boot that hung: 124), the boot that did not grade; a line
# it does not know stops it, named.
readresult() (
	die() { echo "die: $*"; exit 3; }
	rel() { echo "$1"; }
	# shellcheck disable=SC1091
	. "$K/scripts/lab/parse.sh"
	labview "$D/lab-boot1.out" >/dev/null
	read_result "$T/lab/result"
	got="$STEPS $PASSED [$FAILED_STEPS] $RESULTS_P $RESULTS_F [${BOOT_RC[*]}] [$BOOT_TROUBLE]"
	want="3 1 [2 3] 2 4 [0 124] [boot 2 (lsm=selinux): the guest hung (no verdict within 90 s)
]"
	[ "$got" = "$want" ] || { echo "read: $got"; exit 1; }
	echo 'step 3' >>"$T/lab/result"
	out=$(read_result "$T/lab/result") && { echo "an unknown line was read"; exit 1; }
	grep -q "unknown line 'step 3'" <<<"$out" || { echo "not the message: $out"; exit 1; }
	exit 0
)
scenario "make lab's report reads the one result: counts, each boot's status, trouble; nothing eval'd" readresult

# The graders' harness, built and run on the host: TAP out, "needs step k"
# instead of a wrong hint, NULs in a step's output shown (not cut).
grader() {	# grader SRC: build SRC with labs/common/grader.h and grade
	gcc -std=c11 -Wall -Wextra -Werror -I "$K/labs/common" -I "$K/guest/include" -o "$T/grader" "$1" || return 99
	"$T/grader" --grade
}
case_ "the graders' harness: TAP, diagnostics, needs step k, NULs shown" \
	fake-grade.c "$(want fake-grade.expected 1)" '/lab_needs(1);/d' grader @

# An Oops of a kernel without kallsyms (the lab kernel's): its addresses
# named from the vmlinux's symbols, on the host.
oops() {	# oops CONSOLE: results.py oops against a stand-in vmlinux
	gcc -O0 -mcmodel=kernel -fno-pic -no-pie -nostdlib -static \
		-Wl,-Ttext=0xffffffff81000000 -o "$T/vmlinux" "$D/fake-vmlinux.c" || return 99
	"$R" oops "$1" "$T/vmlinux"
}
case_ "an Oops without kallsyms: its addresses named from vmlinux (RIP: toylsm_inode_unlink+0xc)" \
	oops.log "$(want oops.expected 0)" 's/0xffffffff8100000c/0xffffffff8100000e/' oops @

# The skeleton generator: a good solution, and malformed markers.
case_ "the skeleton: blocks dropped, placeholders written, earlier steps DONE" \
	skel-good.c "$(want skel-good.step2 0)" 's|/\* END TODO 2: .*|/* END TODO 2 */|' "$K/scripts/lab/lab-skel.sh" @ 2
e=$("$K/scripts/lab/lab-skel.sh" "$D/skel-bad-marker.c" 2>&1 >/dev/null); rc1=$?
e2=$("$K/scripts/lab/lab-skel.sh" "$D/skel-unended.c" 2>&1 >/dev/null); rc2=$?
"$K/scripts/lab/lab-skel.sh" "$D/skel-good.c" >/dev/null 2>&1; rc3=$?
if [ $rc1 -ne 0 ] && grep -q 'skel-bad-marker.c:12: a malformed marker' <<<"$e" &&
   [ $rc2 -ne 0 ] && grep -q 'skel-unended.c:11: TODO 2 starts inside the block of TODO 1' <<<"$e2" &&
   [ $rc3 -eq 0 ]; then
	ok "the skeleton: a malformed or unended TODO marker is an error naming its line (a good one is not)"
else
	notok "the skeleton: a malformed or unended TODO marker is an error naming its line (got $rc1: $e / $rc2: $e2 / good: $rc3)"
fi

# tree.sh re-makes build/linux when patches/ change: work found there (an
# edit; an edit of the toylsm mirror) is saved and said, not reset away.
# On a fake kernel tarball and a one-patch series, in a scratch kit.
treecase() (
	T=$T/tree
	mkdir -p "$T/kit" "$T/src/linux-fake/security" "$T/kit/demo-lsm"
	cp -r "$K/scripts" "$T/kit/"
	printf 'hello\n' >"$T/src/linux-fake/README"
	printf 'config X\n' >"$T/src/linux-fake/security/Kconfig"
	tar -C "$T/src" -cJf "$T/fake.tar.xz" linux-fake
	# one patch of the series
	git -C "$T/src/linux-fake" init -q && git -C "$T/src/linux-fake" add -A &&
	git -C "$T/src/linux-fake" -c user.name=a -c user.email=a@b commit -qm base &&
	printf 'hello, patched\n' >"$T/src/linux-fake/README" &&
	git -C "$T/src/linux-fake" -c user.name=a -c user.email=a@b commit -qam 'README: patched' &&
	mkdir -p "$T/kit/patches" &&
	git -C "$T/src/linux-fake" format-patch -q -1 -o "$T/kit/patches" &&
	(cd "$T/kit/patches" && ls *.patch) >"$T/kit/patches/series"
	printf "int toy;\n" >"$T/kit/demo-lsm/toy.c"; printf "obj-y += toy.o\n" >"$T/kit/demo-lsm/Makefile"; printf "config TOY\n" >"$T/kit/demo-lsm/Kconfig"
	export BUILD=$T/kit/build TARBALL=$T/fake.tar.xz
	"$T/kit/scripts/kernel/tree.sh" >"$T/first.log" 2>&1 || { echo "first tree.sh failed"; cat "$T/first.log"; exit 1; }
	# work left in the tree: an edit, and an edit of the toylsm mirror
	printf 'my precious edit\n' >>"$BUILD/linux/README"
	sleep 1; printf 'int toy; /* edited in the tree */\n' >"$BUILD/linux/security/toylsm/toy.c"
	# the series changes: the tree is re-made
	printf '# a comment\n' >>"$T/kit/patches/series"
	e=$("$T/kit/scripts/kernel/tree.sh" 2>&1); rc=$?
	b=$(git -C "$BUILD/linux" branch --list 'saved/*' | tr -d ' *')
	saved=$(git -C "$BUILD/linux" show "$b:README" 2>/dev/null)
	ok=1
	[ $rc -eq 0 ] || { echo "tree.sh failed: $e"; ok=0; }
	grep -q 'my precious edit' <<<"$saved" || { echo "the edit is not on a saved/ branch (branch: '$b')"; ok=0; }
	grep -q 'WARNING: build/linux had work' <<<"$e" || { echo "no WARNING about the tree's work"; ok=0; }
	grep -q 'my precious edit' "$BUILD/linux/README" && { echo "the tree was not re-made"; ok=0; }
	ls "$BUILD"/toylsm-saved/toy.c.* >/dev/null 2>&1 || { echo "the mirror's edit was not saved"; ok=0; }
	grep -q 'security/toylsm/toy.c was edited in the tree' <<<"$e" || { echo "no WARNING about the mirror"; ok=0; }
	[ $ok = 1 ]
)
scenario "tree.sh: work found in build/linux (and its toylsm mirror) is saved with a WARNING when the series is re-applied" treecase

# The base initramfs is shared by every flavour: its probe is compiled
# against the series' headers even when the reference kernel (FLAVOUR=
# mainline, whose <linux/lsm.h> has no LSM_ID_TOYLSM) boots it and its
# headers are the newest (stop 26's CI: make mainline-tests rebuilt probe
# against 6.12's headers and every boot failed to compile it).
hdrcase() (
	B=$T/hdr
	mk() { mkdir -p "$B/$1/usr/include/linux" && : >"$B/$1/usr/include/linux/lsm.h"; }
	pick() { BUILD=$B FLAVOUR=$1 bash -c '. "$1/scripts/lib/lib.sh" && series_headers' _ "$K"; }
	mkdir -p "$B" && mk mainline
	[ -z "$(pick mainline)" ] || { echo "only mainline's headers, and they were picked: $(pick mainline)"; exit 1; }
	mk debug
	[ "$(pick mainline)" = "$B/debug/usr/include" ] || { echo "mainline boot, debug built: got '$(pick mainline)'"; exit 1; }
	mk .
	for f in mainline normal debug baseline; do
		[ "$(pick $f)" = "$B/./usr/include" ] || [ "$(pick $f)" = "$B/usr/include" ] ||
			{ echo "FLAVOUR=$f: got '$(pick $f)', not the normal flavour's"; exit 1; }
	done
)
scenario "the shared initramfs's probe: the series' headers for every flavour, never the reference kernel's" hdrcase

# make lab 11 (the reference kernel's lab) on a machine without that
# kernel: refused with what to do, before an attendee's copy is made
# (it used to make work/ first, to be edited with nothing to grade it on).
refcase() (
	mkdir -p "$T/ref/labs" "$T/ref/build"
	cp -r "$K/labs/common" "$K"/labs/11-* "$T/ref/labs/"
	rm -rf "$T"/ref/labs/11-*/work
	e=$(LABS_DIR=$T/ref/labs BUILD=$T/ref/build "$K/scripts/lab/lab.sh" run 11 2>&1); rc=$?
	[ $rc -ne 0 ] || { echo "lab.sh run 11 succeeded without the reference kernel"; exit 1; }
	grep -q 'not built yet' <<<"$e" || { echo "no 'not built yet' message: $e"; exit 1; }
	! ls -d "$T"/ref/labs/11-*/work >/dev/null 2>&1 || { echo "a work/ copy was made before the refusal"; exit 1; }
)
scenario "make lab 11 without the reference kernel: refused, and no copy made" refcase

# make test and make test-debug write the same build/run/ and build/logs/
# files: a second run in the same clone waits for the first (lock 0 of
# docs/hacking.md).  Held here by flock for 3 s, around a nested make test
# of an offline suite in a scratch build/.
lockcase() (
	B=$T/lock
	mkdir -p "$B"
	flock "$B/.test.lock" sleep 3 &
	# until the lock is taken (a busy machine may start flock late)
	while flock -n "$B/.test.lock" true; do sleep 0.1; done
	s=$SECONDS
	e=$(BUILD=$B ONLY=selftests-mainline "$K/scripts/test/test.sh" 2>&1); rc=$?
	wait
	[ $rc -eq 0 ] || { echo "the nested make test failed: $(tail -2 <<<"$e")"; exit 1; }
	grep -q 'is running in this clone; waiting for it' <<<"$e" || { echo "no waiting message"; exit 1; }
	[ $((SECONDS - s)) -ge 2 ] || { echo "it did not wait for the lock"; exit 1; }
)
scenario "a second make test in the same clone waits for the first, and says so" lockcase

# make test's boots run GUESTS at a time; their lines come out in the
# order of tests/boots.conf whatever order they end in, and a boot whose
# runner is killed is a failure, not a hang.  In a scratch kit whose
# run-boot.sh is a stand-in: "slow" ends last, "killed" kills its runner.
ordercase() (
	S=$T/order
	mkdir -p "$S/tests/host"
	cp -r "$K/scripts" "$S/"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	cat >"$S/scripts/test/run-boot.sh" <<'EOS'
#!/bin/sh
case $1 in
slow) sleep 2; echo "COUNTS 1 0 0" ;;
fast) echo "COUNTS 2 0 0" ;;
killed) sleep 1; kill -9 $PPID ;;
esac
EOS
	printf '# name | append | programs\nslow | | x\nkilled | | x\nfast | | x\n' >"$S/tests/boots.conf"
	BUILD=$S/build GUESTS=3 ONLY=slow,killed,fast timeout 60 "$S/scripts/test/test.sh" 2>&1 | grep -v -e '^kit: test time' -e ' Killed '
)
e=$(ordercase 2>&1)
want=$(printf 'kit: %-28s %3d passed, %d failed\n' guest/slow 1 0
	echo '  FAIL boot killed: its runner ended without a result'
	echo '  FAIL guest/killed: produced no results'
	printf 'kit: %-28s %3d passed, %d failed\n' guest/killed 0 1 guest/fast 2 0
	echo '3 passed, 1 failed')
if [ "$e" = "$want" ]; then
	ok "make test's boots in parallel: results in boots.conf order, a killed runner a failure"
else
	notok "make test's boots in parallel: results in boots.conf order, a killed runner a failure"
	diff <(echo "$want") <(echo "$e") | sed 's/^/# /' | head -10
fi

# make test's summary: why each test was skipped, grouped by reason (most
# frequent first; a test name met twice in a suite once, "(x2)"), for host
# suites and guest boots alike: a guest skip
# named from the harness's "#  RUN" line, a reason-less skip said to be
# one, a host suite skipped whole ("1..0 # SKIP").  In a scratch kit whose
# run-guest.sh is a stand-in that returns the stored channel of a boot
# (FIXTURE), run through the real run-boot.sh, results.py and test.sh.
skipsum() {	# skipsum FIXTURE: make test's output on it, times left out
	local S=$T/skips
	rm -rf "$S"
	mkdir -p "$S/tests/host"
	cp -r "$K/scripts" "$S/"
	printf '#!/bin/sh\nexit 0\n' >"$S/scripts/kernel/kernel.sh"
	cp "$S/scripts/kernel/kernel.sh" "$S/scripts/guest/build-guest.sh"
	printf '#!/bin/sh\n# stand-in: the stored channel\nwhile [ $# -gt 0 ]; do [ "$1" = --name ] && n=$2; shift; done\ncp "$SKIPFIX" "$BUILD/logs/guest-$n.out"\n' \
		>"$S/scripts/guest/run-guest.sh"
	printf '# kit: offline\necho 1..4\necho "ok 1 lab 11 solution: # SKIP the reference kernel is not built"\necho "ok 2 lab 1"\necho "ok 3 lab 11 step 1: # SKIP the reference kernel is not built"\necho "ok 4 lab 11 step 1: # SKIP the reference kernel is not built"\n' \
		>"$S/tests/host/fake.sh"
	printf '# kit: offline\necho "1..0 # SKIP gdb is not installed"\n' >"$S/tests/host/whole.sh"
	printf 'b1 | | lsm_prctl\nb2 | smack | lsm_prctl\n' >"$S/tests/boots.conf"
	BUILD=$S/build SKIPFIX=$1 GUESTS=1 ONLY=fake,whole,b1,b2 "$S/scripts/test/test.sh" 2>&1 | grep -v '^kit: test time'
}
case_ "make test's summary: why each test was skipped, by reason, host suites and guest boots alike" \
	skips-boot.out "$(want skips.expected 0)" '/^#  RUN/d' skipsum @

# kernel.sh runs Kbuild only when an input of the kernel changed (its stamp
# of every input, stamps/kernel-FLAVOUR): each kind of input still
# rebuilds, with the change in the kernel, and what is no input (a README,
# a guest test, a touch) does not run Kbuild at all.  In a scratch kit on a
# fake kernel tarball whose Makefile is a stand-in for Kbuild
# (tests/data/kbuild-standin.mk: it counts its runs, rebuilds by mtime as
# Kbuild does, and its "bzImage" holds the sources it was built from).
# SABOTAGE: a sed script applied to the scratch kit's kernel.sh first.
kbuildcase() (
	S=$T/kb
	rm -rf "$S"
	F=$S/src/linux-fake
	mkdir -p "$S/kit" "$F/security" "$F/scripts/kconfig"
	cp -r "$K/scripts" "$S/kit/"
	printf '#!/bin/sh\nexit 0\n' >"$S/kit/scripts/host/deps.sh"	# no dpkg, no network
	[ -z "${SABOTAGE:-}" ] || sed -i "$SABOTAGE" "$S/kit/scripts/kernel/kernel.sh"
	cp "$D/kbuild-standin.mk" "$F/Makefile"
	printf '#!/bin/sh\n# stand-in: merge_config.sh -m -O DIR BASE FRAGMENT...\nd=$3; shift 4; cat "$@" >>"$d/.config"\n' \
		>"$F/scripts/kconfig/merge_config.sh"
	chmod +x "$F/scripts/kconfig/merge_config.sh"
	printf 'hello\n' >"$F/README"
	printf 'config X\n' >"$F/security/Kconfig"
	mkdir -p "$F/Documentation" "$F/drivers"
	printf 'notes\n' >"$F/Documentation/notes.txt"
	printf 'obj-$(CONFIG_UNBUILT) += unbuilt.o\n' >"$F/drivers/Makefile"
	printf 'int unbuilt;\n' >"$F/drivers/unbuilt.c"
	tar -C "$S/src" -cJf "$S/fake.tar.xz" linux-fake
	g() { git -C "$F" -c user.name=a -c user.email=a@b "$@"; }
	g init -q && g add -A && g commit -qm base &&
	printf 'hello, patched\n' >"$F/README" && g commit -qam 'README: patched' &&
	mkdir -p "$S/kit/patches" && g format-patch -q -1 -o "$S/kit/patches" &&
	(cd "$S/kit/patches" && ls *.patch) >"$S/kit/patches/series" || exit 1
	cd "$S/kit" || exit 1
	mkdir -p configs demo-lsm guest/tests docs labs/common/kernel labs/08-fake/solution
	echo 'CONFIG_TOY=y' >configs/kit.config
	echo 'CONFIG_SECURITY_TOYLSM_EXTRA=y' >configs/lab.config
	echo 'CONFIG_DEBUG_STANDIN=y' >configs/debug.config
	echo 'int toy;' >demo-lsm/toy.c
	echo 'obj-y += toy.o' >demo-lsm/Makefile
	echo 'config TOY' >demo-lsm/Kconfig
	echo '# kit' >README.md
	echo 'int main(void) { return 0; }' >guest/tests/guest.c
	echo 'int todo;' >labs/common/kernel/todo.c
	printf 'TITLE=fake\nMINUTES=1\nKIND=kernel\nSOURCE=hook.c\nKOBJS=hook.o\nKINIT=\n' >labs/08-fake/lab.conf
	echo 'int hook_v1;' >labs/08-fake/solution/hook.c
	export BUILD=$S/kit/build TARBALL=$S/fake.tar.xz LABS_DIR=$S/kit/labs
	export KIT_KERNEL_CACHE=${CACHECASE:-off}	# cachecase: below
	unset KCFLAGS
	# dpkg's answers, from a stand-in database ("STATUS NAME VERSION"
	# lines): dpkg-query -W prints the lines whose name matches a pattern.
	mkdir -p "$S/bin"
	mkdir -p "$S/dpkg"
	printf 'ii gcc-12 12.2.0-14\nii make 4.3-4.1\n' >"$S/dpkg/status"
	cat >"$S/bin/dpkg-query" <<-EOF
	#!/bin/sh
	while read -r st name ver; do
		for a; do case \$name in \$a) echo "\$st  \$name \$ver"; break;; esac; done
	done <"\${DPKG_ADMINDIR:-/var/lib/dpkg}/status"
	EOF
	chmod +x "$S/bin/dpkg-query"
	# git, counting the runs of git status (the full stamp's look at the
	# whole tree, which a no-op must not need: kernel.sh's quick stamp).
	printf '#!/bin/sh\ncase " $* " in *" status "*) echo "$*" >>"%s";; esac\nexec %s "$@"\n' \
		"$S/git-status.log" "$(command -v git)" >"$S/bin/git"
	chmod +x "$S/bin/git"
	export PATH=$S/bin:$PATH DPKG_ADMINDIR=$S/dpkg KIT_QUICK_SLACK_MS=50
	runs() { cat "$BUILD/kbuild/$1/kbuild-runs" 2>/dev/null | wc -l; }
	# kb WANT DESC [VAR=VALUE...]: kernel.sh (normal, or FLAVOUR=...)
	# ran Kbuild WANT times (1 or 0); the first miss ends the case.
	kb() {
		local want=$1 desc=$2 fl=normal v a out
		shift 2
		for v in "$@"; do case $v in FLAVOUR=*) fl=${v#*=} ;; esac; done
		a=$(runs "$fl")
		out=$(env FLAVOUR=normal "$@" scripts/kernel/kernel.sh 2>&1) ||
			{ echo "$desc: kernel.sh failed: $out"; exit 1; }
		[ $(($(runs "$fl") - a)) = "$want" ] ||
			{ echo "$desc: Kbuild ran $(($(runs "$fl") - a)) time(s), not $want"; exit 1; }
		printf '%s\n' "$out" >"$S/last.out"
	}
	has() {	# has TEXT [FILE]: the kernel built has TEXT in it
		grep -qF -- "$1" "${2:-$BUILD/bzImage}" || { echo "the kernel was built without '$1'"; exit 1; }
	}
	hasnt() {
		! grep -qF -- "$1" "${2:-$BUILD/bzImage}" || { echo "the kernel still has '$1'"; exit 1; }
	}
	kb 1 "the first build"
	[ -z "${CACHECASE:-}" ] || exit 0	# cachecase goes on from here
	kb 0 "nothing changed"
	grep -q 'up to date' "$S/last.out" || { echo "no 'up to date' message: $(cat "$S/last.out")"; exit 1; }
	# The first run made the tree after its quick stamp began: the run
	# above asked the full stamp once; from here, the quick one answers.
	: >"$S/git-status.log"
	kb 0 "nothing changed, a second time"
	[ ! -s "$S/git-status.log" ] || { echo "nothing changed: the no-op ran git status over the tree"; exit 1; }
	echo 'ii podman 4.3.1' >>"$S/dpkg/status"
	kb 0 "a package the build does not run installed (podman)"
	sed -i 's/^ii gcc-12 .*/ii gcc-12 12.2.0-15/' "$S/dpkg/status"
	kb 1 "the compiler's package upgraded (gcc-12)"
	echo 'more' >>README.md
	kb 0 "the kit's README edited"
	echo '/* more */' >>guest/tests/guest.c
	kb 0 "a guest test edited"
	echo 'notes' >demo-lsm/notes.txt
	kb 0 "a file of demo-lsm/ that is no source (notes.txt) added"
	touch demo-lsm/toy.c
	kb 0 "demo-lsm/toy.c touched, same content"
	cp -p demo-lsm/toy.c "$S/toy.c.v1"
	echo 'int toy2;' >demo-lsm/toy.c
	kb 1 "a demo-lsm/ file edited"
	has 'int toy2;'
	cp "$S/toy.c.v1" demo-lsm/toy.c && touch -d 2000-01-01 demo-lsm/toy.c
	kb 1 "a demo-lsm/ file put back, with an old mtime"
	has 'int toy;' && hasnt 'int toy2;'
	echo '#define TOY 1' >demo-lsm/toy.h
	kb 1 "a file added to demo-lsm/"
	has '#define TOY 1'
	sed -i 's/^+hello, patched$/+hello, patched again/' patches/0001-*.patch
	kb 1 "a patch changed"
	has 'hello, patched again'
	echo 'CONFIG_NEW=y' >>configs/kit.config
	kb 1 "a config fragment changed"
	has 'CONFIG_NEW=y'
	kb 0 "HOSTNAME set (a container's id), which Kbuild does not read" HOSTNAME=c0ffee
	kb 1 "KCFLAGS set" KCFLAGS=-O1
	kb 0 "KCFLAGS the same" KCFLAGS=-O1
	kb 1 "KCFLAGS unset"
	cp -p "$TARBALL" "$S/fake-copy.tar.xz"
	kb 1 "another source tarball named (TARBALL)" TARBALL="$S/fake-copy.tar.xz"
	kb 1 "the first tarball again"
	kb 1 "another flavour (debug)" FLAVOUR=debug
	has 'CONFIG_DEBUG_STANDIN=y' "$BUILD/debug/bzImage"
	kb 0 "the debug flavour again" FLAVOUR=debug
	# A flavour with DWARF (gdb's, bpf's): the compiler maps the output
	# folder, which names the clone, to one name in the debug info, so that
	# ccache's hash leaves the clone out; a flavour without DWARF gets no
	# KCFLAGS from kernel.sh.  Once only gdb's flavours had the map: every
	# clean clone compiled bpf's kernel cold when its cache key changed.
	echo 'CONFIG_DEBUG_INFO=y' >configs/dwarf.config
	kb 1 "a flavour with DWARF (dwarf)" FLAVOUR=dwarf
	grep -qxF -- "-fdebug-prefix-map=$BUILD/kbuild/dwarf=/kit-kbuild" "$BUILD/kbuild/dwarf/.kcflags" ||
		{ echo "a flavour with DWARF was built without the prefix map: KCFLAGS '$(cat "$BUILD/kbuild/dwarf/.kcflags")'"; exit 1; }
	[ ! -s "$BUILD/kbuild/debug/.kcflags" ] || [ -z "$(tr -d '[:space:]' <"$BUILD/kbuild/debug/.kcflags")" ] ||
		{ echo "a flavour without DWARF got KCFLAGS '$(cat "$BUILD/kbuild/debug/.kcflags")'"; exit 1; }
	kb 0 "the normal flavour after the debug one"
	echo 'edited in the tree' >>"$BUILD/linux/README"
	kb 1 "a file of build/linux edited (not committed)"
	has 'edited in the tree'
	kb 0 "the same edit, nothing else"
	echo 'more notes' >>"$BUILD/linux/Documentation/notes.txt"
	kb 0 "a file of build/linux that Kbuild does not read edited (Documentation/)"
	echo 'int unbuilt2;' >>"$BUILD/linux/drivers/unbuilt.c"
	kb 0 "a source of build/linux in a folder Kbuild descends into but builds nothing of edited"
	echo 'obj-y += unbuilt.o' >>"$BUILD/linux/drivers/Makefile"
	kb 1 "the Makefile of that folder edited"
	has 'obj-y += unbuilt.o'
	echo 'config Y' >>"$BUILD/linux/security/Kconfig"
	kb 1 "a Kconfig file of build/linux edited"
	has 'config Y'
	echo 'int toy; /* in the tree */' >"$BUILD/linux/security/toylsm/toy.c"
	kb 1 "a file of the toylsm mirror edited in the tree"
	grep -q 'security/toylsm/toy.c was edited in the tree' "$S/last.out" ||
		{ echo "no WARNING about the mirror's edit"; exit 1; }
	has 'int toy;' && hasnt '/* in the tree */'
	rm "$BUILD/bzImage"
	kb 1 "the installed bzImage removed"
	[ -f "$BUILD/bzImage" ] || { echo "no bzImage installed again"; exit 1; }
	# A kernel-side lab: its file in the lab kernel, and only there.
	lk() {	# lk WANT DESC: lab-kernel.sh with the lab's file as it is now
		local a
		a=$(runs lab)
		scripts/kernel/lab-kernel.sh 8 labs/08-fake/solution/hook.c >"$S/last.out" 2>&1 ||
			{ echo "$2: lab-kernel.sh failed: $(cat "$S/last.out")"; exit 1; }
		[ $(($(runs lab) - a)) = "$1" ] || { echo "$2: Kbuild ran $(($(runs lab) - a)) time(s), not $1"; exit 1; }
	}
	lk 1 "the lab kernel, first build"
	has 'int hook_v1;' "$BUILD/lab/bzImage"
	lk 0 "the lab kernel, the same lab file"
	echo 'int hook_v2;' >labs/08-fake/solution/hook.c
	lk 1 "the lab's kernel file changed"
	has 'int hook_v2;' "$BUILD/lab/bzImage"
	kb 0 "the normal flavour after a change of the lab kernel's files"
	hasnt 'hook_v' "$BUILD/bzImage"
	echo '# a comment' >>scripts/kernel/kernel.sh
	kb 1 "kernel.sh itself changed"
	exit 0
)
# The kernel cache (kernel.sh): a second clone with the same inputs takes
# the first one's kernel without running Kbuild, renamed to itself (no
# path of the first clone left in its Kbuild folder) and up to date for
# Kbuild (a forced run recompiles nothing); a clone whose demo-lsm/ or
# patch differs builds its own.  CACHE_SABOTAGE: a sed script applied to
# both clones' kernel.sh.
cachecase() (
	CACHECASE=$T/kcache
	rm -rf "$CACHECASE"
	export CACHECASE
	SABOTAGE=${CACHE_SABOTAGE:-} kbuildcase >/dev/null || { echo "the first clone's build failed"; exit 1; }
	A=$T/kb/kit B=$T/kb2/kit
	rm -rf "$T/kb2" && mkdir -p "$T/kb2" && cp -r "$A" "$B" && rm -rf "$B/build" || exit 1
	# A name that begins with the first clone's path without being under
	# it, as /kit-kbuild (the debug info's name of the output folder) is
	# for the image's /kit: the restore keeps it.
	for e in "$CACHECASE"/normal-*/kbuild; do printf '%s %s\n' "$A-kbuild" "$A/x" >"$e/anchor.txt"; done
	[ -z "${CACHE_SABOTAGE:-}" ] || sed -i "$CACHE_SABOTAGE" "$B/scripts/kernel/kernel.sh"
	cd "$B" || exit 1
	export BUILD=$B/build TARBALL=$T/kb/fake.tar.xz LABS_DIR=$B/labs KIT_KERNEL_CACHE=$CACHECASE
	export PATH=$T/kb/bin:$PATH DPKG_ADMINDIR=$T/kb/dpkg	# kbuildcase's dpkg-query
	unset KCFLAGS
	# Kbuild ran in this clone: kernel.sh wrote its log (the stand-in's
	# run counter is in the Kbuild folder, which the cache copies).
	ran() { [ -f "$BUILD/logs/kernel-normal.log" ] && echo 1 || echo 0; }
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "second clone: kernel.sh failed: $out"; exit 1; }
	[ "$(ran)" = 0 ] || { echo "second clone, same inputs: Kbuild ran"; exit 1; }
	grep -q 'from the kernel cache' <<<"$out" || { echo "no 'from the kernel cache' message: $out"; exit 1; }
	cmp -s "$A/build/bzImage" "$B/build/bzImage" || { echo "the restored bzImage differs from the first clone's"; exit 1; }
	! grep -rqF "$A/" "$B/build/kbuild/normal" || { echo "the restored Kbuild folder names the first clone: $(grep -rlF "$A/" "$B/build/kbuild/normal" | head -2)"; exit 1; }
	[ "$(cat "$B/build/kbuild/normal/anchor.txt")" = "$A-kbuild $B/x" ] ||
		{ echo "the restore renamed a path that only begins with the first clone's: '$(cat "$B/build/kbuild/normal/anchor.txt")'"; exit 1; }
	[ "$(readlink "$B/build/kbuild/normal/source")" = "$B/build/linux" ] ||
		{ echo "the restored source link points at $(readlink "$B/build/kbuild/normal/source")"; exit 1; }
	rm "$BUILD/stamps/kernel-normal"
	KIT_KERNEL_CACHE=off FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "the forced Kbuild run failed"; exit 1; }
	[ "$(ran)" = 1 ] || { echo "the forced Kbuild run did not run Kbuild"; exit 1; }
	! grep -q 'CC      stand-in' "$BUILD/logs/kernel-normal.log" ||
		{ echo "Kbuild, run on the restored folder, recompiled it (its files older than the tree?)"; exit 1; }
	# A second clone whose demo-lsm/ differs: its own kernel.
	rm -rf "$BUILD"
	echo 'int toy_b;' >demo-lsm/toy.c
	FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "second clone, demo-lsm edited: kernel.sh failed"; exit 1; }
	[ "$(ran)" = 1 ] || { echo "second clone, demo-lsm/ edited: Kbuild ran 0 times"; exit 1; }
	grep -qF 'int toy_b;' "$BUILD/bzImage" || { echo "second clone, demo-lsm/ edited: the first clone's kernel was taken"; exit 1; }
	# and a patch changed: its own kernel too.
	rm -rf "$BUILD"
	sed -i 's/^+hello, patched.*$/+hello from clone b/' patches/0001-*.patch
	FLAVOUR=normal scripts/kernel/kernel.sh >/dev/null 2>&1 || { echo "second clone, patch changed: kernel.sh failed"; exit 1; }
	grep -qF 'hello from clone b' "$BUILD/bzImage" || { echo "second clone, patch changed: a cached kernel was taken"; exit 1; }
	exit 0
)
sabotaged "the kernel cache: a clone with the same inputs takes another's kernel without Kbuild, renamed to itself and up to date; a different demo-lsm/ or patch builds its own" \
	"a cache key that is the same for every kernel" cachecase CACHE_SABOTAGE '/^cache_key() {/a echo one key; return' 'demo-lsm/ edited: Kbuild ran 0 times'
sabotaged "the kernel cache's restore renames the first clone's paths, not a name that only begins with it (/kit-kbuild for /kit)" \
	"a restore that renames every occurrence" cachecase CACHE_SABOTAGE 's/(?!\[\\w.+-\])//' 'only begins with the first'

# ccache installed half-way (make deps installs it in a fresh machine's
# first run) changes no compiler command line: the clone's next run
# compiles nothing, and a second clone with ccache takes the first one's
# kernel from the cache.  KIT_CCACHE=0 stands for "not installed yet"
# (lib.sh then leaves ccache out, as it does when it is missing).  It
# once did not: CC="ccache gcc" on the make line made the next make test
# recompile the whole kernel, and keyed the cache on it.
# CCACHE_SABOTAGE: a sed script applied to both clones' kernel.sh.
ccachecase() (
	CACHECASE=$T/kcache-cc
	rm -rf "$CACHECASE"
	export CACHECASE
	SABOTAGE=${CCACHE_SABOTAGE:-} KIT_CCACHE=0 kbuildcase >/dev/null ||
		{ echo "the first build, without ccache, failed"; exit 1; }
	A=$T/kb/kit
	cd "$A" || exit 1
	export BUILD=$A/build TARBALL=$T/kb/fake.tar.xz LABS_DIR=$A/labs KIT_KERNEL_CACHE=$CACHECASE
	export PATH=$T/kb/bin:$PATH DPKG_ADMINDIR=$T/kb/dpkg	# kbuildcase's dpkg-query
	unset KCFLAGS KIT_CCACHE
	rm -f "$BUILD/logs/kernel-normal.log"
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "the run with ccache failed: $out"; exit 1; }
	! grep -q 'CC      stand-in' "$BUILD/logs/kernel-normal.log" 2>/dev/null ||
		{ echo "the run after ccache was installed recompiled the kernel"; exit 1; }
	# The second clone's path is the start of another input's, the
	# tarball $T/kb/fake.tar.xz, as the image's /kit is of
	# /kit/configs/kit.config's text: the key names the clone as @KIT@
	# only where a path begins with it (kernel.sh's unkit).
	B=$T/kb/fake
	rm -rf "$B" && cp -r "$A" "$B" && rm -rf "$B/build" && cd "$B" || exit 1
	export BUILD=$B/build LABS_DIR=$B/labs
	out=$(FLAVOUR=normal scripts/kernel/kernel.sh 2>&1) || { echo "second clone: kernel.sh failed: $out"; exit 1; }
	grep -q 'from the kernel cache' <<<"$out" ||
		{ echo "a second clone with ccache did not take the first clone's kernel from the cache"; exit 1; }
	exit 0
)
sabotaged "ccache installed after the first build: the next run compiles nothing, and another clone takes the kernel from the cache" \
	"a kernel.sh with CC=\"ccache gcc\" on its make line" ccachecase CCACHE_SABOTAGE \
	'/^KMAKE=(make -C/a [ "${KIT_CCACHE:-1}" = 0 ] || KMAKE+=(CC="ccache gcc")' 'recompiled the kernel'

# kbuildcase once unsabotaged for the three cases below (its scratch kit
# is remade by each run; only the result is kept).
kbuildonce() {
	[ -n "${SABOTAGE:-}" ] && { kbuildcase; return; }
	[ -f "$T/kbuild.rc" ] || { kbuildcase >"$T/kbuild.out" 2>&1; echo $? >"$T/kbuild.rc"; }
	cat "$T/kbuild.out"
	return "$(cat "$T/kbuild.rc")"
}
# The case must fail where the digest misses an input: on a kernel.sh
# whose stamp leaves demo-lsm/ out, at the demo-lsm/ edit.
sabotaged "kernel.sh runs Kbuild when a patch, a demo-lsm/ file, a config fragment, a lab's kernel file, the flavour, KCFLAGS, the compiler's package or the tree changed, and not for a README, a guest test, a touch or an unrelated package" \
	"a kernel.sh whose digest leaves demo-lsm/ out" kbuildonce SABOTAGE '/echo "demo-lsm /d' '^a demo-lsm/ file edited: Kbuild ran 0'
# The quick stamp (lib.sh's quick_ok) answers the no-op without git status
# over the tree, and still sees an edit of the tree: shown failing with no
# quick stamp, and with one that leaves the tree's folders out.
sabotaged "a no-op make kernel reads no content (no git status over the tree), yet sees each input change above" \
	"a kernel.sh without its quick stamp" kbuildonce SABOTAGE 's/quick_ok "\$STAMP"/false \&\& &/' 'the no-op ran git status'
sabotaged "a flavour with DWARF maps its output folder out of the debug info (-fdebug-prefix-map), so that another clone's ccache hits" \
	"a kernel.sh that maps gdb's flavours only" kbuildonce SABOTAGE \
	"s/^if grep -qx 'CONFIG_DEBUG_INFO=y' .*/if [[ \"\\\$FLAVOUR\" == *gdb* ]]; then/" 'built without the prefix map'
sabotaged "the quick stamp watches the tree as Kbuild read it: the folders it built in, the files its .cmd files list, its Makefiles and Kconfig files" \
	"a kernel.sh whose quick stamp leaves the tree's folders out" kbuildonce SABOTAGE \
	's/\[ -d "\$t" \] || continue/continue/; s/ "\$TREE")$/)/; /kernel-deps.awk")$/s/-f /-f \/dev\/null /' \
	'^a file of build/linux edited (not committed): Kbuild ran 0'

# accel.sh's answer (kvm or tcg) is kept per flavour under what decides
# it: the flavour's configuration, the KVM device, QEMU and the host's
# kernel; a new image of the same configuration (each lab kernel make test
# grades, each edit of a kernel-side lab) asks no new probe, which costs
# 10 s where KVM hangs.  A stand-in run-guest.sh counts the probes (and
# fails them: KVM does not work); KIT_KVM_DEV is a file that stands for
# the device.  ACCEL_SABOTAGE: a sed script applied to accel.sh first.
accelcase() (
	S=$T/accel
	rm -rf "$S" && mkdir -p "$S/kit" && cp -r "$K/scripts" "$S/kit/" || exit 1
	[ -z "${ACCEL_SABOTAGE:-}" ] || sed -i "$ACCEL_SABOTAGE" "$S/kit/scripts/guest/accel.sh"
	printf '#!/bin/sh\necho probe >>"%s"\nexit 1\n' "$S/probes" >"$S/kit/scripts/guest/run-guest.sh"
	chmod +x "$S/kit/scripts/guest/run-guest.sh"
	: >"$S/kvm" && : >"$S/probes"
	export BUILD=$S/build KIT_KVM_DEV=$S/kvm FLAVOUR=normal
	mkdir -p "$BUILD/kbuild/normal" "$BUILD/kbuild/lab" "$BUILD/lab" || exit 1
	echo 'CONFIG_A=y' >"$BUILD/kbuild/normal/.config"
	echo image-1 >"$BUILD/bzImage"
	probes() { grep -c . "$S/probes"; }
	step() {	# step WHAT N: accel.sh says tcg and the probes are N
		local a
		a=$("$S/kit/scripts/guest/accel.sh" 2>&1)
		[ "$a" = tcg ] || { echo "$1: accel.sh said '$a', not tcg"; exit 1; }
		[ "$(probes)" = "$2" ] || { echo "$1: $(probes) probe(s), not $2"; exit 1; }
	}
	step "the first question" 1
	step "the same question again" 1
	echo image-2 >"$BUILD/bzImage" && touch -d '+1 min' "$BUILD/bzImage"
	step "a new image of the same configuration" 1
	echo 'CONFIG_B=y' >>"$BUILD/kbuild/normal/.config"
	step "the configuration changed" 2
	chmod 600 "$S/kvm"	# a new ctime, as when the device comes back
	step "the KVM device changed" 3
	echo 'CONFIG_A=y' >"$BUILD/kbuild/lab/.config" && echo lab >"$BUILD/lab/bzImage"
	FLAVOUR=lab step "another flavour" 4
	FLAVOUR=normal step "back to the first flavour" 4
	rm -f "$S/kvm"
	echo 'CONFIG_C=y' >>"$BUILD/kbuild/normal/.config"
	step "no KVM device: no probe" 4
	exit 0
)
sabotaged "accel.sh probes KVM once per flavour, configuration, device and QEMU, not once per image" \
	"an accel.sh keyed on the image" accelcase ACCEL_SABOTAGE 's|^\tconfig=$(sha256sum.*|\tconfig=$(stat -c %Y "$(flavour_dir)/bzImage")|' '^a new image of the same configuration: 2 probe'

# Strict stack names (scripts/guest/stacks.sh): a word of APPEND or of a lab's
# BOOTS that is no stack of configs/stacks.conf and no parameter the kernel
# documents stops the run before any guest, naming the word and the
# table; stack names, parameters with a value and documented flags pass.
# Before, a typo booted the default stack under the name asked for.
# STACKS_SABOTAGE: a sed script applied to stacks.sh first.
stackcase() (
	S=$T/stacks
	rm -rf "$S" && mkdir -p "$S/kit" && cp -r "$K/scripts" "$K/tests" "$K/configs" "$S/kit/" || exit 1
	[ -z "${STACKS_SABOTAGE:-}" ] || sed -i "$STACKS_SABOTAGE" "$S/kit/scripts/guest/stacks.sh"
	export BUILD=$S/build FLAVOUR=normal
	mkdir -p "$BUILD/linux/Documentation/admin-guide" || exit 1
	printf '\tnokaslr\t\t[KNL]\n\tlsm.debug\t[SECURITY] Enable LSM initialization debugging output.\n' \
		>"$BUILD/linux/Documentation/admin-guide/kernel-parameters.txt"
	cd "$S/kit" || exit 1
	out=$(APPEND='selinux-apparmr' scripts/guest/run-guest.sh --cmd true 2>&1) &&
		{ echo "APPEND=selinux-apparmr: run-guest.sh went on"; exit 1; }
	grep -q '"selinux-apparmr": no stack of configs/stacks.conf' <<<"$out" ||
		{ echo "APPEND=selinux-apparmr: not the message: $out"; exit 1; }
	[ ! -e "$BUILD/logs/guest-run.log" ] || { echo "APPEND=selinux-apparmr: a guest was started"; exit 1; }
	out=$(APPEND='selinux-apparmor nokaslr lsm.debug lsm=capability,selinux kit.x=1' \
		scripts/guest/run-guest.sh --cmd true 2>&1)
	grep -q 'no kernel at' <<<"$out" ||
		{ echo "stack, flags and parameters: refused before the kernel check: $out"; exit 1; }
	# A lab whose BOOTS has a typo: refused at its config stage.
	mkdir -p labs/01-typo/solution && echo 'int main(void) { return 0; }' >labs/01-typo/solution/x.c &&
		printf 'TITLE=typo\nMINUTES=1\nSOURCE=x.c\nBOOTS=(default selinux-apparmr)\n' >labs/01-typo/lab.conf || exit 1
	out=$(LABS_DIR=$S/kit/labs SOLUTION=1 scripts/lab/lab.sh run 1 2>&1) &&
		{ echo "BOOTS=(default selinux-apparmr): lab.sh went on"; exit 1; }
	grep -q "labs/01-typo/lab.conf:4: BOOTS has \"selinux-apparmr\"" <<<"$out" ||
		{ echo "BOOTS typo: not the message: $out"; exit 1; }
	exit 0
)
sabotaged "a word of APPEND or of a lab's BOOTS that is no stack and no kernel parameter stops the run before a guest, named with configs/stacks.conf" \
	"a stacks.sh that lets every word through" stackcase STACKS_SABOTAGE '/\[\[ "\$w" == \*=\* \]\] && continue/a continue'

# The attendee's copy says which command made it (issue 29, item 9): make
# lab N makes the first copy (and STEP=k's), make skel N the others; a
# header that always said "make skel" was untrue after a first make lab.
# WORK_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
madeby() (
	W=$T/madeby
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$W/work.sh"
	[ -z "${WORK_SABOTAGE:-}" ] || sed -i "$WORK_SABOTAGE" "$W/work.sh"
	say() { :; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	# shellcheck disable=SC1091
	. "$W/work.sh"
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c
	unset STEP SOLUTION
	pick_source >/dev/null
	grep -q 'made by "make lab 7" on' "$WORKF" || { echo "first make lab: $(sed -n 2p "$WORKF")"; exit 1; }
	reset_work 2 >/dev/null
	grep -q 'made by "make skel 7 STEP=2" on' "$WORKF" || { echo "make skel: $(sed -n 2p "$WORKF")"; exit 1; }
	STEP=2 pick_source >/dev/null
	grep -q 'made by "make lab 7 STEP=2" on' "$WORKF" || { echo "make lab STEP=2: $(sed -n 2p "$WORKF")"; exit 1; }
)
sabotaged "the attendee's copy names the command that made it: make lab N (a first run, STEP=k) or make skel N" \
	"a work.sh that always says make skel" madeby WORK_SABOTAGE 's/"make %s %d%s"/"make skel %d%s"/; s/"\$by" "\$NUM"/"$NUM"/'

# A first make lab ends with the skeleton's FAILs and make's "Error 1":
# its last words say that set-up worked and the steps fail until written
# (issue 40), while the copy is untouched; once edited, the usual advice.
# FIRST_SABOTAGE: a sed script applied to a copy of scripts/lab/work.sh.
firstwords() (
	W=$T/first
	rm -rf "$W" && mkdir -p "$W/lab" && cp "$K/scripts/lab/work.sh" "$K/scripts/lab/report.sh" "$W/"
	[ -z "${FIRST_SABOTAGE:-}" ] || sed -i "$FIRST_SABOTAGE" "$W/work.sh"
	say() { echo "kit: $*"; }
	die() { echo "die: $*"; exit 1; }
	rel() { echo "$1"; }
	elapsed() { echo 9; }
	# shellcheck disable=SC1091
	. "$K/scripts/lib/lib.sh" && . "$W/work.sh" && . "$W/report.sh"
	KIT=$K NUM=7 LDIR=$W/lab SOL=$D/skel-good.c WORKF=$W/lab/work/file.c OUT=$W/out T=$W/t.txt LABS=$W
	unset STEP SOLUTION
	pick_source >/dev/null
	BOOTS=(default) STEPS=3 PASSED=0 RESULTS_F=3 FAILED_STEPS="1 2 3" BOOT_TROUBLE=
	out=$(verdict work)
	grep -q 'set-up works' <<<"$out" || { echo "the untouched skeleton's run: $out"; exit 1; }
	echo '/* my step 1 */' >>"$WORKF"
	out=$(verdict work)
	! grep -q 'set-up works' <<<"$out" || { echo "an edited copy is called the untouched skeleton: $out"; exit 1; }
	grep -q 'Read the hint under the first FAIL' <<<"$out" || { echo "an edited copy: not the usual advice: $out"; exit 1; }
)
sabotaged "a first make lab on the untouched skeleton says set-up worked and the steps fail until written; an edited copy gets the usual advice" \
	"a work.sh that keeps no digest of the skeleton" firstwords FIRST_SABOTAGE '/skeleton.sha/d' "the untouched skeleton's run"

# kernel.sh's progress line: no total invented for a first build (it once
# said "1007/900 objects, 99%"), none passed when a build outgrows the last.
# KERNEL_SABOTAGE: a sed script applied to a copy of scripts/kernel/kernel.sh.
progress() (
	sed -n '/^progress_msg() {/,/^}/p' "$K/scripts/kernel/kernel.sh" >"$T/progress.sh"
	[ -z "${KERNEL_SABOTAGE:-}" ] || sed -i "$KERNEL_SABOTAGE" "$T/progress.sh"
	# shellcheck disable=SC1091
	. "$T/progress.sh"
	chk() { local got; got=$(progress_msg "$1" "$2" "$3"); [ "$got" = "$4" ] || { echo "progress_msg $1 '$2' $3: '$got', not '$4'"; exit 1; }; }
	chk 1007 "" 1 "1007 objects compiled (a first build here: no total known yet)"
	chk 1020 1016 1 "1020 objects compiled (the last full build compiled 1016)"
	chk 508 1016 1 "508/1016 objects, 50%"
	chk 12 1016 0 "12 object(s) recompiled"
)
sabotaged "the kernel build's progress line: no invented total, none passed" \
	"a progress_msg that divides by a missing total" progress KERNEL_SABOTAGE 's/-z "\$expect"/-z "$expect$expect" -a 1 = 0/; s/"\$done" -gt "\$expect"/0 -gt 1/'

# .ci/run's reference-kernel stage, after make mainline, is the one run in
# CI of the host suites that wait for the reference kernel: make test, on a
# clean clone, skips them (build/linux-6.12 is not there yet).  Each suite
# that says so (it names "make mainline") is in that stage's ONLY=, and
# each name there is a suite or a boot.  (mainline-cites was not: CI never
# checked docs/mainline-next.md's 6.12 rows.)
# CI_SABOTAGE: a sed script applied to a copy of .ci/run.
refstage() (
	sed -e "${CI_SABOTAGE:-}" "$K/.ci/run" >"$T/ci-run"
	only=$(sed -n 's/.*env ONLY=\([^ ]*\) .*make test.*/\1/p' "$T/ci-run")
	[ -n "$only" ] || { echo ".ci/run: no 'env ONLY=... make test' line"; exit 1; }
	for f in $(grep -lE 'make mainline([^-]|$)' "$K"/tests/host/*.sh); do
		n=$(basename "$f" .sh)
		[ "$n" != glue ] || continue	# this case's own words
		[[ ",$only," == *",$n,"* ]] ||
			{ echo "tests/host/$n.sh waits for make mainline; .ci/run's reference stage has ONLY=$only"; exit 1; }
	done
	for n in ${only//,/ }; do
		[ -f "$K/tests/host/$n.sh" ] || grep -qE "^[[:space:]]*${n}[[:space:]]*\|" "$K/tests/boots.conf" ||
			{ echo ".ci/run's ONLY=$only: $n is no suite and no boot"; exit 1; }
	done
)
sabotaged "every host suite that waits for make mainline runs in .ci/run's reference-kernel stage" \
	"a .ci/run without abi" refstage CI_SABOTAGE 's/ONLY=abi,/ONLY=/' 'abi.sh waits for make mainline'

# make bench compiles its guest programs (lsm_bench, hook_bench) again
# when a file their last compile read is newer: stale() in bench-lib.sh
# reads gcc's -MD list, so a kit header counts wherever it lives.  (The
# scripts named the headers: bench-guest.sh watched guest/tests/*.h, and
# an edit of guest/include/kit/bench.h rebuilt nothing.)
# STALE_SABOTAGE: a sed script applied to a copy of bench-lib.sh.
benchstale() (
	sed -e "${STALE_SABOTAGE:-}" "$K/scripts/bench/bench-lib.sh" >"$T/bench-lib.sh"
	KIT=$K
	# shellcheck source=/dev/null
	. "$T/bench-lib.sh"
	mkdir -p "$T/st/kit"
	printf '#define N 1\n' >"$T/st/kit/h.h"
	printf '#include "kit/h.h"\nint main(void) { return N - 1; }\n' >"$T/st/p.c"
	gcc -I "$T/st" -o "$T/st/p" "$T/st/p.c" -MD -MF "$T/st/p.d" || { echo "gcc failed"; exit 1; }
	touch -d '-1 min' "$T/st/p.c" "$T/st/kit/h.h"
	! stale "$T/st/p" || { echo "stale right after its compile"; exit 1; }
	touch "$T/st/kit/h.h"
	stale "$T/st/p" || { echo "not stale after an edit of the header it includes"; exit 1; }
	for f in bench-guest.sh bench-trace.sh; do
		grep -q 'if stale "$BIN"' "$K/scripts/bench/$f" && grep -q -- '-MD -MF "$BIN.d"' "$K/scripts/bench/$f" ||
			{ echo "scripts/bench/$f does not compile with -MD and ask stale()"; exit 1; }
	done
)
sabotaged "make bench rebuilds a guest program when a header it includes changed" \
	"a stale() that looks at no file's time" benchstale STALE_SABOTAGE \
	's/\[ ! "\$f" -nt "\$bin" \]/true/' 'not stale after an edit'
