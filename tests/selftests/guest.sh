#!/bin/sh
# Runs in the guest (scripts/test/selftests.sh packs it with the programs): the
# kernel's own selftests, built from the pristine 6.1 tree, one program at a
# time, in a tmpfs root of their own. Landlock's layout1.rule_inside_mount_ns
# calls pivot_root(2), which the initramfs root (rootfs, a mount without a
# parent) refuses with EINVAL on any kernel; a chroot into a tmpfs mount is
# what a test machine's disk root looks like to it.
#
# Each program's output is kept and printed after all of them ran, between
# "KIT-ST-BEGIN suite/program" and "KIT-ST-END suite/program status=N"
# lines, so that a kernel message cannot land in the middle of a result.
# The programs and the order: tests/selftests/programs (one "suite program"
# a line), as packed in /kit/bin/selftests.tar.
set -u
R=/st
# The suites go to /kst/SUITE in the new root, not /SUITE: /proc is where
# procfs is mounted, and would hide the proc suite's programs.
mkdir -p $R && mount -t tmpfs -o mode=755 st $R || exit 1
mkdir -p $R/kst && cd $R/kst && tar xf /kit/bin/selftests.tar || exit 1
cd $R || exit 1
mkdir -p bin etc proc sys dev tmp root
cp /bin/busybox bin/busybox && chroot $R /bin/busybox --install -s /bin
cp /etc/passwd /etc/group etc/
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t securityfs securityfs $R/sys/kernel/security
mount -t devtmpfs devtmpfs $R/dev
mount -t tmpfs -o mode=1777 tmpfs $R/tmp

# settle: busybox's timeout (below) forks a watcher that polls the
# program once a second, so it outlives the program by up to a second,
# then exits.  A program started meanwhile sees a process vanish under
# it: proc/read walks /proc, and aborted on a directory gone mid-walk
# ("xreaddir: Assertion `de || errno == 0' failed", status 134, once on
# the pristine kernel under load, a DIFF between the two kernels that
# neither caused).  So the watcher is ended, and reaped (by init, a
# busybox sh that waits for any child), before the next program starts.
settle() {
	i=0
	while [ $i -lt 50 ]; do
		w=$(grep -lx timeout /proc/[0-9]*/comm 2>/dev/null) || return 0
		for f in $w; do
			p=${f#/proc/}
			kill "${p%/comm}" 2>/dev/null
		done
		sleep 0.1
		i=$((i + 1))
	done
	echo "kit-selftests: a timeout process outlived its program by 5 s" >&2
}

: >$R/results
while read -r suite prog; do
	case "$suite" in ''|'#'*) continue ;; esac
	echo "kit-selftests: $suite/$prog"
	# Each program from its own folder, as run_kselftest.sh does (fs_test
	# executes ./true, test_execve ./validate_cap).
	chroot $R /bin/sh -c "cd /kst/$suite && exec timeout -s KILL 600 ./$prog" \
		>$R/out 2>&1 </dev/null
	st=$?
	settle
	{
		echo "KIT-ST-BEGIN $suite/$prog"
		cat $R/out
		echo "KIT-ST-END $suite/$prog status=$st"
	} >>$R/results
done <$R/kst/programs
echo "KIT-ST-RESULTS"
cat $R/results
echo "KIT-ST-RESULTS-END"
exit 0
