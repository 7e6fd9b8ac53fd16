// SPDX-License-Identifier: GPL-2.0
/*
 * The ways around toylsm's permissions that a review found (issue 17),
 * each as a test that failed on the toylsm before the fix:
 *   1. "w" covers truncation: O_TRUNC, truncate(2), ftruncate(2) and
 *      fallocate(2) on a labelled file need "w" (docs/toylsm.md, "Files").
 *   2. a traced task cannot take a label its tracer may not trace
 *      (attr/current, or an exec transition).
 *   3. "x" alone runs a program; "r" alone cannot map it executable.
 *   5. a failed removal of security.toylsm leaves the file labelled
 *      (needs a module after toylsm that refuses the removal: skipped
 *      otherwise).
 *   6. the kernel's silent ptrace probes (PTRACE_MODE_NOAUDIT, e.g.
 *      /proc/PID/stat) write no audit record.
 * Hole 4 (the label table filled by unprivileged tasks) is
 * toylsm_permissive.c, in a boot of its own: on the old code it fills
 * the table.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "kit/kernel_log.h"
#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define XATTR "security.toylsm"

/* Create path with 6 bytes, labelled l (needs CAP_MAC_ADMIN). */
static int make_file(const char *path, const char *l)
{
	int fd;

	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY, 0666);
	if (fd < 0 || write(fd, "secret", 6) != 6)
		return -1;
	close(fd);
	return setxattr(path, XATTR, l, strlen(l), 0);
}

static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* Hole 1: every way to cut a file's contents needs "w". */
TEST(truncation_needs_w)
{
	const char *f = "/tmp/holes-trunc";
	int fd;

	ASSERT_EQ(0, make_file(f, "tr-file"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tr-user tr-file rw\n"));
	ASSERT_EQ(0, toylsm_relabel("tr-user"));
	fd = open(f, O_WRONLY);		/* while "w" is granted */
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tr-user tr-file r\n"));

	errno = 0;
	EXPECT_EQ(-1, open(f, O_RDONLY | O_TRUNC));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(6, size_of(f)) TH_LOG("open(O_RDONLY | O_TRUNC) emptied it");
	errno = 0;
	EXPECT_EQ(-1, truncate(f, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(6, size_of(f)) TH_LOG("truncate(2) emptied it");
	errno = 0;
	EXPECT_EQ(-1, ftruncate(fd, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(6, size_of(f)) TH_LOG("ftruncate(2) emptied it");
	errno = 0;
	EXPECT_EQ(-1, fallocate(fd, 0, 0, 65536));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(6, size_of(f)) TH_LOG("fallocate(2) grew it");

	/* With "w" all of them work. */
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tr-user tr-file rw\n"));
	EXPECT_EQ(0, ftruncate(fd, 3));
	EXPECT_EQ(3, size_of(f));
	EXPECT_EQ(0, truncate(f, 2));
	EXPECT_EQ(2, size_of(f));
	close(fd);
	fd = open(f, O_RDWR | O_TRUNC);
	EXPECT_LE(0, fd);
	EXPECT_EQ(0, size_of(f));
	close(fd);
}

/* The child of the ptrace tests: a result a line. */
static int rd_int(int fd)
{
	int v = -999;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -999;
	return v;
}

/* Run the tracee until it exits; its exit status, or -1. */
static int trace_to_end(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) == pid) {
		if (WIFEXITED(st))
			return WEXITSTATUS(st);
		if (WIFSIGNALED(st))
			return -1;
		ptrace(PTRACE_CONT, pid, 0,
		       WSTOPSIG(st) == SIGTRAP || WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st));
	}
	return -1;
}

/*
 * A child labelled pa-B, traced by us (pa-A), without CAP_MAC_ADMIN, its
 * results on *res (an int each), waiting for a byte on *go.
 * what 0: it tries attr/current pa-C twice, waiting for a byte on go
 * between; 1: it sets attr/exec pa-C and execs busybox's "true".
 * Our copies of the pipes' other ends are closed, so that a child that
 * stops writing (an exec that succeeded) reads as end of file.
 */
static pid_t traced_child(int what, int *res, int *go)
{
	int r, rp[2], gp[2];
	pid_t pid;
	char c;

	if (pipe(rp) || pipe(gp))
		return -1;
	pid = fork();
	if (pid) {
		close(rp[1]);
		close(gp[0]);
		*res = rp[0];
		*go = gp[1];
		return pid;
	}
	close(rp[0]);
	close(gp[1]);
	if (toylsm_relabel("pa-B") || drop_mac_admin() ||
	    ptrace(PTRACE_TRACEME, 0, 0, 0))
		_exit(3);
	raise(SIGSTOP);
	if (!what) {
		r = toylsm_relabel("pa-C");
		write(rp[1], &r, sizeof(r));
		read(gp[0], &c, 1);
		r = toylsm_relabel("pa-C");
		write(rp[1], &r, sizeof(r));
		_exit(0);
	}
	r = write_string(TOYLSM_ATTR "exec", "pa-C");
	write(rp[1], &r, sizeof(r));
	if (r)
		_exit(4);
	fcntl(rp[1], F_SETFD, FD_CLOEXEC);
	execl("/bin/busybox", "true", (char *)NULL);
	r = -errno;
	write(rp[1], &r, sizeof(r));
	_exit(5);
}

/* Start a traced child, past its SIGSTOP: its pid, or -1. */
static pid_t start_traced(int what, int *res, int *go)
{
	pid_t pid = traced_child(what, res, go);
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return -1;
	ptrace(PTRACE_CONT, pid, 0, 0);
	return pid;
}

/* Hole 2: relabelling out of a tracer's reach. */
TEST(a_traced_task_keeps_within_its_tracers_reach)
{
	int res, go;
	pid_t pid;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules",
				  "pa-A pa-B w\npa-B pa-C t\npa-A pa-C -\n"));
	ASSERT_EQ(0, toylsm_relabel("pa-A"));
	pid = start_traced(0, &res, &go);
	ASSERT_LT(0, pid);
	EXPECT_EQ(-EPERM, rd_int(res))
		TH_LOG("a task traced by pa-A (no rule pa-A pa-C w) took pa-C");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pa-A pa-C w\n"));
	write(go, "x", 1);
	EXPECT_EQ(0, rd_int(res)) TH_LOG("the tracer may trace pa-C now");
	EXPECT_EQ(0, trace_to_end(pid));
	close(res);
	close(go);

	/* The same at exec, with the exec label. */
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pa-A pa-C -\n"));
	pid = start_traced(1, &res, &go);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, rd_int(res));		/* setting exec is allowed */
	EXPECT_EQ(-EPERM, rd_int(res))
		TH_LOG("a traced exec transition to pa-C was not refused");
	EXPECT_EQ(5, trace_to_end(pid));
	close(res);
	close(go);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pa-A pa-C w\n"));
	pid = start_traced(1, &res, &go);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, rd_int(res));
	EXPECT_EQ(0, trace_to_end(pid)) TH_LOG("the allowed transition failed");
	close(res);
	close(go);
}

/* Copy /bin/busybox to path, labelled l. */
static int labelled_busybox(const char *path, const char *l)
{
	static char buf[1 << 16];
	int in = open("/bin/busybox", O_RDONLY), out;
	ssize_t n;

	unlink(path);
	out = open(path, O_CREAT | O_WRONLY, 0755);
	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return setxattr(path, XATTR, l, strlen(l), 0);
}

/* Exec path as busybox's "true" labelled l: exit status, 126 on EACCES. */
static int run_as(const char *l, const char *path)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		if (toylsm_relabel(l))
			_exit(3);
		execl(path, "true", (char *)NULL);
		_exit(errno == EACCES ? 126 : 127);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Hole 3: "x" is what running a program needs, and "r" is not. */
TEST(x_runs_a_program_and_r_does_not)
{
	const char *bin = "/tmp/holes-bin";
	void *p;
	int fd;

	ASSERT_EQ(0, labelled_busybox(bin, "hx-bin"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "hx-x hx-bin x\nhx-r hx-bin r\n"));
	EXPECT_EQ(0, run_as("hx-x", bin)) TH_LOG("an x rule alone could not exec it");
	EXPECT_EQ(126, run_as("hx-r", bin)) TH_LOG("an r rule alone could exec it");

	/* What ld.so does with a program: open it for reading, map it. */
	ASSERT_EQ(0, toylsm_relabel("hx-r"));
	fd = open(bin, O_RDONLY);
	ASSERT_LE(0, fd);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	errno = 0;
	EXPECT_EQ(-1, mprotect(p, 4096, PROT_READ | PROT_EXEC));
	EXPECT_EQ(EACCES, errno) TH_LOG("r alone made a mapping executable");
	munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p) TH_LOG("r alone mapped it executable");
	EXPECT_EQ(EACCES, errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
	/* An x rule does not give r. */
	ASSERT_EQ(0, toylsm_relabel("hx-x"));
	errno = 0;
	EXPECT_EQ(-1, open(bin, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
	unlink(bin);
}

/* Raise a capability in this thread's effective set again: 0 or -1. */
static int raise_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective |= 1U << (cap % 32);
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/*
 * Hole 5: the label is dropped only when the removal succeeds. Needs a
 * module after toylsm that refuses it: Smack, for a file whose Smack
 * label the task may not write, without CAP_MAC_OVERRIDE (CAP_MAC_ADMIN
 * stays: toylsm asks for it). The kit's patch 0010 took the capability
 * module's CAP_SYS_ADMIN rule for security.* names out of SELinux's
 * hook, so SELinux without a policy no longer refuses: skipped there.
 */
TEST(a_refused_label_removal_leaves_the_file_closed)
{
	const char *f = "/tmp/holes-rmx";
	char buf[64];
	int r, e;

	ASSERT_EQ(0, make_file(f, "rx-secret"));
	/* Smack, when active: a label no rule lets the floor label write. */
	setxattr(f, "security.SMACK64", "rx-obj", 6, 0);
	ASSERT_EQ(0, toylsm_relabel("rx-user"));
	ASSERT_EQ(0, drop_cap(CAP_MAC_OVERRIDE));
	ASSERT_EQ(0, drop_cap(CAP_SYS_ADMIN));
	r = removexattr(f, XATTR);
	e = errno;
	ASSERT_EQ(0, raise_cap(CAP_MAC_OVERRIDE));	/* Smack lets it read again */
	if (!r)
		SKIP(return, "no module after toylsm refused the removal in this boot (Smack does)");
	EXPECT_TRUE(e == EPERM || e == EACCES) TH_LOG("removexattr: %s", strerrorname_np(e));
	ASSERT_EQ(9, getxattr(f, XATTR, buf, sizeof(buf)));
	EXPECT_EQ(-EACCES, read_file(f, buf, sizeof(buf)))
		TH_LOG("after a refused removal of its label the file was open to all");
	/* and its label still counts: rx-secret itself reads it */
	ASSERT_EQ(0, toylsm_relabel("rx-secret"));
	EXPECT_EQ(6, read_file(f, buf, sizeof(buf)));
}

/* Hole 6: the kernel's own silent probes are not audited. */
TEST(silent_ptrace_probes_are_not_audited)
{
	char path[64], buf[512];
	int p[2], q[2], i, before;
	pid_t pid;
	char c;

	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(0, pipe(q));
	pid = fork();
	if (!pid) {
		/*
		 * Wait for the end of q, not for a signal: the test, labelled
		 * nq-a, may not signal nq-b. If the test stops early, its
		 * exit closes q too.
		 */
		close(q[1]);
		toylsm_relabel("nq-b");
		write(p[1], "x", 1);
		read(q[0], &c, 1);
		_exit(0);
	}
	close(q[0]);
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	ASSERT_EQ(0, toylsm_relabel("nq-a"));
	sleep(6);	/* a fresh audit (and printk) rate-limit budget */
	before = kernel_log_count("subject=\"nq-a\" object=\"nq-b\"");
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	/* do_task_stat() asks PTRACE_MODE_READ | PTRACE_MODE_NOAUDIT. */
	for (i = 0; i < 20; i++)
		EXPECT_LT(0, read_file(path, buf, sizeof(buf)));
	/* A real denial is audited, and not eaten by the probes' budget. */
	EXPECT_EQ(-1, ptrace(PTRACE_ATTACH, pid, 0, 0));
	usleep(300000);
	EXPECT_EQ(0, kernel_log_count("subject=\"nq-a\" object=\"nq-b\" requested=r"))
		TH_LOG("the NOAUDIT probes of /proc/%d/stat were audited", pid);
	EXPECT_EQ(before + 1, kernel_log_count("subject=\"nq-a\" object=\"nq-b\""))
		TH_LOG("expected exactly the ptrace attach's record");
	close(q[1]);
	waitpid(pid, NULL, 0);
}

TEST_HARNESS_MAIN
