// SPDX-License-Identifier: GPL-2.0
/*
 * The ways around toylsm's rules that a second review found (issue 34),
 * each as a test that failed on the toylsm before the fix:
 *   1. a mapping reads the file ("r") and a shared writable one writes
 *      it ("w"): mmap(2) and mprotect(2) of a descriptor that its task may
 *      no longer use;
 *   2. every task operation that changes another task needs "w" and
 *      every one that reads it "r": a signal through a file's owner
 *      (F_SETOWN, F_SETSIG, O_ASYNC), prlimit(2), setpgid(2), getpgid(2),
 *      getsid(2), setpriority(2), ioprio_set(2) and ioprio_get(2), the
 *      sched_* calls;
 *   3. a thread of a process, which shares its memory, does not take a
 *      label of its own without CAP_MAC_ADMIN;
 *   4. an exec of a program that the task may run ("x") but not read
 *      leaves the new image undumpable: its tracer cannot read it.
 * The overlayfs crash is guest/tests/fs_mounts.c.
 * docs/toylsm.md says what each permission covers.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define XATTR "security.toylsm"

/* mmap(2) of one page: 0, or the errno. */
static int map_errno(int fd, int prot, int flags)
{
	void *p = mmap(NULL, 4096, prot, flags, fd, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, 4096);
	return 0;
}

/* Hole 1: a mapping is checked as read(2) and write(2) are. */
TEST(a_mapping_reads_and_a_shared_writable_one_writes)
{
	const char *f = "/tmp/reach-map";
	char *p;
	int fd;

	ASSERT_EQ(0, toylsm_secret_file(f, "mm-file"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "mm-user mm-file rw\n"));
	ASSERT_EQ(0, toylsm_relabel("mm-user"));
	fd = open(f, O_RDWR);
	ASSERT_LE(0, fd);

	/* The rule is removed: the descriptor stays, its use does not. */
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "mm-user mm-file -\n"));
	EXPECT_EQ(EACCES, map_errno(fd, PROT_READ, MAP_SHARED))
		TH_LOG("a descriptor that may not read was mapped to read");
	EXPECT_EQ(EACCES, map_errno(fd, PROT_READ, MAP_PRIVATE))
		TH_LOG("a private mapping read what read(2) may not");
	EXPECT_EQ(EACCES, map_errno(fd, PROT_READ | PROT_WRITE, MAP_SHARED))
		TH_LOG("a descriptor that may not write was mapped shared and writable");

	/* "r" alone: read mappings, and private copies, but no shared write. */
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "mm-user mm-file r\n"));
	EXPECT_EQ(0, map_errno(fd, PROT_READ, MAP_SHARED));
	EXPECT_EQ(0, map_errno(fd, PROT_READ | PROT_WRITE, MAP_PRIVATE))
		TH_LOG("a private writable mapping writes only its copy: r is enough");
	EXPECT_EQ(EACCES, map_errno(fd, PROT_READ | PROT_WRITE, MAP_SHARED))
		TH_LOG("r alone mapped the file shared and writable");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	errno = 0;
	EXPECT_EQ(-1, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno) TH_LOG("mprotect() made a shared mapping writable with r alone");

	/* With "w" the same mprotect() works, and the write reaches the file. */
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "mm-user mm-file rw\n"));
	ASSERT_EQ(0, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	p[0] = 'S';
	ASSERT_EQ(0, msync(p, 4096, MS_SYNC));
	munmap(p, 4096);
	close(fd);

	/* A descriptor kept across a relabel: the new label's rules. */
	fd = open(f, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, toylsm_relabel("mm-other"));
	EXPECT_EQ(EACCES, map_errno(fd, PROT_READ, MAP_SHARED))
		TH_LOG("a descriptor kept across a relabel to a label without a rule was mapped");
	close(fd);
	unlink(f);
}

/* The target of the task tests: a child that waits, labelled l. */
static pid_t start_target(const char *l)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		if (toylsm_relabel(l))
			_exit(3);
		if (write(p[1], "x", 1) != 1)
			_exit(4);
		for (;;)
			pause();
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/* A system call's errno: 0 on success. */
#define ERRNO_OF(call) ({ errno = 0; (call) < 0 ? errno : 0; })

struct task_op {
	const char *name;
	int write;	/* needs "w"; else "r" */
	int (*run)(pid_t pid);
};

static int op_setpgid(pid_t pid) { return ERRNO_OF(setpgid(pid, pid)); }
static int op_getpgid(pid_t pid) { return ERRNO_OF(getpgid(pid)); }
static int op_getsid(pid_t pid) { return ERRNO_OF(getsid(pid)); }

static int op_setnice(pid_t pid)
{
	return ERRNO_OF(setpriority(PRIO_PROCESS, pid, 1));
}

/* ioprio_*(IOPRIO_WHO_PROCESS = 1, pid, IOPRIO_CLASS_BE = 2 << 13 | 4) */
static int op_setioprio(pid_t pid)
{
	return ERRNO_OF(syscall(SYS_ioprio_set, 1, pid, 2 << 13 | 4));
}

static int op_getioprio(pid_t pid)
{
	return ERRNO_OF(syscall(SYS_ioprio_get, 1, pid));
}

static int op_prlimit_get(pid_t pid)
{
	struct rlimit old;

	return ERRNO_OF(prlimit(pid, RLIMIT_NOFILE, NULL, &old));
}

static int op_prlimit_set(pid_t pid)
{
	struct rlimit cpu = { 3600, 3600 };

	return ERRNO_OF(prlimit(pid, RLIMIT_CPU, &cpu, NULL));
}

static int op_setscheduler(pid_t pid)
{
	struct sched_param sp = { 0 };

	return ERRNO_OF(sched_setscheduler(pid, SCHED_OTHER, &sp));
}

static int op_setaffinity(pid_t pid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return ERRNO_OF(sched_setaffinity(pid, sizeof(set), &set));
}

static int op_setparam(pid_t pid)
{
	struct sched_param sp = { 0 };

	return ERRNO_OF(sched_setparam(pid, &sp));
}

/* struct sched_attr of <linux/sched/types.h>, version 0 (48 bytes) */
struct kit_sched_attr {
	__u32 size, sched_policy;
	__u64 sched_flags;
	__s32 sched_nice;
	__u32 sched_priority;
	__u64 sched_runtime, sched_deadline, sched_period;
};

static int op_setattr(pid_t pid)
{
	struct kit_sched_attr a = { .size = sizeof(a) };

	return ERRNO_OF(syscall(SYS_sched_setattr, pid, &a, 0));
}

static int op_getattr(pid_t pid)
{
	struct kit_sched_attr a;

	return ERRNO_OF(syscall(SYS_sched_getattr, pid, &a, sizeof(a), 0));
}

static int op_migrate_pages(pid_t pid)
{
	unsigned long nodes = 1;

	return ERRNO_OF(syscall(SYS_migrate_pages, pid, 8 * sizeof(nodes), &nodes, &nodes));
}

static int op_move_pages(pid_t pid)
{
	return ERRNO_OF(syscall(SYS_move_pages, pid, 0, NULL, NULL, NULL, 0));
}

static int op_getscheduler(pid_t pid) { return ERRNO_OF(sched_getscheduler(pid)); }

static int op_getparam(pid_t pid)
{
	struct sched_param sp;

	return ERRNO_OF(sched_getparam(pid, &sp));
}

static int op_getaffinity(pid_t pid)
{
	cpu_set_t set;

	return ERRNO_OF(sched_getaffinity(pid, sizeof(set), &set));
}

static int op_rr_interval(pid_t pid)
{
	struct timespec ts;

	return ERRNO_OF(sched_rr_get_interval(pid, &ts));
}

static const struct task_op task_ops[] = {
	{ "setpgid", 1, op_setpgid },
	{ "getpgid", 0, op_getpgid },
	{ "getsid", 0, op_getsid },
	{ "setpriority", 1, op_setnice },
	{ "ioprio_set", 1, op_setioprio },
	{ "ioprio_get", 0, op_getioprio },
	{ "prlimit (read)", 0, op_prlimit_get },
	{ "prlimit (RLIMIT_CPU)", 1, op_prlimit_set },
	{ "sched_setscheduler", 1, op_setscheduler },
	{ "sched_setaffinity", 1, op_setaffinity },
	{ "sched_setparam", 1, op_setparam },
	{ "sched_setattr", 1, op_setattr },
	{ "sched_getattr", 0, op_getattr },
	{ "migrate_pages", 1, op_migrate_pages },
	{ "move_pages", 1, op_move_pages },
	{ "sched_getscheduler", 0, op_getscheduler },
	{ "sched_getparam", 0, op_getparam },
	{ "sched_getaffinity", 0, op_getaffinity },
	{ "sched_rr_get_interval", 0, op_rr_interval },
};

/*
 * Check every task_op on pid, with "r" (have_r) and "w" (have_w) or not.
 * A call that this kernel does not have (ENOSYS: ioprio_*() without the
 * block layer) cannot be asked; it is named once, and not counted.
 */
static void check_task_ops(struct __test_metadata *_metadata, pid_t pid,
			   int have_r, int have_w, const char *rule)
{
	for (size_t i = 0; i < sizeof(task_ops) / sizeof(task_ops[0]); i++) {
		const struct task_op *op = &task_ops[i];
		int allowed = op->write ? have_w : have_r;
		int e = op->run(pid);

		if (e == ENOSYS) {
			if (!have_r)
				ksft_print_msg("%s: ENOSYS, not in this kernel: its hook is not asked\n",
					       op->name);
			continue;
		}

		EXPECT_EQ(allowed ? 0 : EACCES, e)
			TH_LOG("%s of a task labelled tk-target by tk-user with %s: expected %s, saw %s",
			       op->name, rule, allowed ? "success" : "EACCES",
			       e ? strerrorname_np(e) : "success");
	}
}

/* Hole 2: task operations, each with the permission it needs. */
TEST(task_operations_need_r_or_w)
{
	pid_t pid;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tk-user tk-target -\n"));
	pid = start_target("tk-target");
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, toylsm_relabel("tk-user"));
	check_task_ops(_metadata, pid, 0, 0, "no rule");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tk-user tk-target r\n"));
	check_task_ops(_metadata, pid, 1, 0, "rule r");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "tk-user tk-target rw\n"));
	check_task_ops(_metadata, pid, 1, 1, "rule rw");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * A signal through a file's owner: F_SETOWN to the target, F_SETSIG to
 * SIGKILL, O_ASYNC on a pipe's read end, then a write. Returns whether
 * the target was killed.
 */
static int sigio_kills(pid_t pid)
{
	int p[2], st = 0, killed;

	if (pipe(p) || fcntl(p[0], F_SETOWN, pid) || fcntl(p[0], F_SETSIG, SIGKILL) ||
	    fcntl(p[0], F_SETFL, O_ASYNC) || write(p[1], "x", 1) != 1)
		return -1;
	usleep(100 * 1000);
	killed = waitpid(pid, &st, WNOHANG) == pid && WIFSIGNALED(st);
	close(p[0]);
	close(p[1]);
	return killed;
}

TEST(a_signal_through_a_files_owner_needs_w)
{
	pid_t pid;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "so-user so-target r\n"));
	pid = start_target("so-target");
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, toylsm_relabel("so-user"));
	errno = 0;
	EXPECT_EQ(-1, kill(pid, SIGKILL));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, sigio_kills(pid))
		TH_LOG("SIGKILL through F_SETOWN/F_SETSIG/O_ASYNC reached a task that kill(2) may not signal");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "so-user so-target rw\n"));
	EXPECT_EQ(1, sigio_kills(pid)) TH_LOG("with w the signal did not arrive");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* A CPU time limit set on a task is a way to kill it. */
TEST(a_cpu_limit_is_not_set_on_a_task_without_w)
{
	struct rlimit cpu = { 1, 1 }, now;
	pid_t pid;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pl-user pl-target r\n"));
	pid = start_target("pl-target");
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, toylsm_relabel("pl-user"));
	errno = 0;
	EXPECT_EQ(-1, prlimit(pid, RLIMIT_CPU, &cpu, NULL));
	EXPECT_EQ(EACCES, errno);
	ASSERT_EQ(0, prlimit(pid, RLIMIT_CPU, NULL, &now));
	EXPECT_NE(1, now.rlim_cur) TH_LOG("the target's CPU limit was set to 1 s");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pl-user pl-target rw\n"));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static const char *thread_label;
static int thread_err;

static void *relabel_thread(void *arg)
{
	(void)arg;
	thread_err = toylsm_relabel(thread_label);
	return NULL;
}

static void *idle(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

/* Hole 3: threads share one memory, so they share its reach. */
TEST(a_thread_takes_no_label_of_its_own_without_mac_admin)
{
	pthread_t th, sleeper;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "th-a th-b t\nth-b th-a t\n"));
	ASSERT_EQ(0, toylsm_relabel("th-a"));

	/* With CAP_MAC_ADMIN (which could write a rule anyway): allowed. */
	thread_label = "th-b";
	ASSERT_EQ(0, pthread_create(&th, NULL, relabel_thread, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(0, thread_err) TH_LOG("a thread with CAP_MAC_ADMIN could not relabel: %s",
					strerrorname_np(-thread_err));

	ASSERT_EQ(0, drop_mac_admin());
	/* A second thread, by a t rule alone: refused. */
	ASSERT_EQ(0, pthread_create(&th, NULL, relabel_thread, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(-EPERM, thread_err)
		TH_LOG("a thread took th-b by a t rule while another thread, labelled th-a, shares its memory");
	/* The first thread, while another one runs: refused. */
	ASSERT_EQ(0, pthread_create(&sleeper, NULL, idle, NULL));
	EXPECT_EQ(-EPERM, toylsm_relabel("th-b"));
	EXPECT_STREQ("th-a", toylsm_label());
	pthread_cancel(sleeper);
	pthread_join(sleeper, NULL);
	/* Alone again: the t rule is enough. */
	EXPECT_EQ(0, toylsm_relabel("th-b")) TH_LOG("a single-threaded process could not use its t rule");
	EXPECT_STREQ("th-b", toylsm_label());
}

/*
 * Run path (busybox "sleep 5") under PTRACE_TRACEME, stopped after its
 * exec; the tracer then reads a word of the new
 * image at its entry (PTRACE_PEEKDATA) and opens /proc/PID/mem. Returns
 * 1 if both could read the image, 0 if both were refused, -3 if the
 * traced exec itself was refused, -1 or -2 otherwise.
 */
static int tracer_reads_image(const char *path)
{
	struct user_regs_struct regs;
	char mem[64];
	pid_t pid;
	int st, fd, peek, open_ok;

	pid = fork();
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl(path, "sleep", "5", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid) {
		kill(pid, SIGKILL);
		return -2;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return -3;
	if (!WIFSTOPPED(st) ||
	    ptrace(PTRACE_GETREGS, pid, 0, &regs)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -2;
	}
	errno = 0;
	ptrace(PTRACE_PEEKDATA, pid, regs.rip, 0);
	peek = errno == 0;
	snprintf(mem, sizeof(mem), "/proc/%d/mem", pid);
	fd = open(mem, O_RDONLY);
	open_ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return peek == open_ok ? peek : -1;
}

/*
 * tracer_reads_image() as uid 1000, whose tracee has no more capabilities
 * than it (the capability module's ptrace rule is then met): only
 * dumpability decides.
 */
static int user_reads_image(const char *path)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(9);
		_exit(tracer_reads_image(path) + 3);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) - 3 : -4;
}

/*
 * Hole 4: what may be run but not read cannot be read through a tracer.
 * Since toylsm answers a traced exec (guest/tests/toylsm_holes.c, hole
 * 9), a tracer attached before the exec that may not read the program
 * is refused the exec itself; with r it reads the image.
 */
TEST(an_image_run_without_r_is_undumpable)
{
	const char *bin = "/tmp/reach-xonly";

	ASSERT_EQ(0, toylsm_busybox(bin, "xd-prog"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "xd-user xd-prog x\n"));
	ASSERT_EQ(0, toylsm_relabel("xd-user"));
	errno = 0;
	EXPECT_EQ(-1, open(bin, O_RDONLY));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-3, user_reads_image(bin))
		TH_LOG("a traced exec of a program its tracer may run (x) but not read was not refused");
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "xd-user xd-prog rx\n"));
	EXPECT_EQ(1, user_reads_image(bin))
		TH_LOG("with r the tracer could not read the image: undumpable for no reason");
	unlink(bin);
}

TEST_HARNESS_MAIN
