// SPDX-License-Identifier: GPL-2.0
/*
 * A label names an inode; the object behind it can have other names,
 * and the kernel acts on it for a task. What the fifth review found
 * (issue 54), each as a test that failed on the toylsm before the fix:
 *   1. a task relabelled to a label that may not use its controlling
 *      terminal keeps it: /dev/tty reaches it, and TIOCSTI on its fd 0
 *      pushes a line into the shell of the old label; a pty has no
 *      label at all (devpts keeps no xattrs);
 *   2. another node of a labelled device (mknod), /dev/tty and
 *      /dev/console reach the device without its label;
 *   3. the tty layer's signals (a ^C pushed with TIOCSTI or typed on a
 *      pty's master, TIOCSIG, a hangup) kill a task that kill(2) may
 *      not;
 *   4. /proc/PID/oom_score_adj of a task that kill(2) may not signal is
 *      written, and the OOM killer then picks that task;
 *   5. FS_IOC_SETFLAGS on a descriptor that may neither read nor write
 *      makes the file append-only;
 *   6. the kernel's probes (proc_pid_attr_open(), would_dump()) wrote
 *      "denied" records for accesses that succeeded, and one label's
 *      denials spent every label's records;
 *   7. (documentation) connecting to a labelled unix socket needs "w":
 *      this one passed before, it pins what docs/toylsm.md now says.
 * docs/toylsm.md, "Devices and terminals", says what each covers.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <termios.h>
#include <linux/fs.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define XATTR "security.toylsm"

/* A result from a child: a value or -errno, one int a result. */
static void put(int fd, int v)
{
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(90);
}

/* 0, or -errno of a call that returned -1. */
static int rc(int r)
{
	return r < 0 ? -errno : 0;
}

/* open(2): the descriptor is closed again; 0 or -errno. */
static int try_open(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* write(2) of nothing, which still asks the LSMs: 0 or -errno. */
static int write0(int fd)
{
	return rc(write(fd, "", 0));
}

/* Send n descriptors over a unix socket (SCM_RIGHTS): 0 or -1. */
static int send_fds(int sock, const int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	char c = 'f';
	struct iovec iov = { &c, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

/* Receive n descriptors sent by send_fds(): 0 or -1. */
static int recv_fds(int sock, int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} u;
	char c;
	struct iovec iov = { &c, 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(n * sizeof(int)))
		return -1;
	memcpy(fds, CMSG_DATA(cm), n * sizeof(int));
	return 0;
}

/*
 * A legacy (BSD) pty N as two nodes of our own in /tmp: its master
 * (2, N) and its slave (3, N); the slave node labelled l, the device's
 * label from then on. Each test has its own N. The master is opened
 * (the slave cannot be opened first): its descriptor, or -1.
 */
static int legacy_pty(int n, const char *l, char *slave, size_t len)
{
	char master[64];
	int fd;

	snprintf(master, sizeof(master), "/tmp/nm-ptm%d", n);
	snprintf(slave, len, "/tmp/nm-pts%d", n);
	unlink(master);
	unlink(slave);
	if (mknod(master, S_IFCHR | 0666, makedev(2, n)) ||
	    mknod(slave, S_IFCHR | 0666, makedev(3, n)) ||
	    setxattr(slave, XATTR, l, strlen(l), 0))
		return -1;
	fd = open(master, O_RDWR | O_NOCTTY);
	unlink(master);
	return fd;
}

/* Run fn(arg, results) in a child; its exit status (-1: a signal). */
static int in_child(void (*fn)(void *arg, int out), void *arg, int *in)
{
	int p[2], st;
	pid_t pid;

	if (pipe(p))
		return -2;
	pid = fork();
	if (!pid) {
		close(p[0]);
		fn(arg, p[1]);
		_exit(0);
	}
	close(p[1]);
	*in = p[0];
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * A child that runs setup(arg) (0: done), says so, then waits until *go
 * is closed (by us, or by our exit): its pid, or -1 (not started, or
 * its setup failed).
 */
static pid_t waiter(int (*setup)(const void *arg), const void *arg, int *go)
{
	int p[2], q[2];
	pid_t pid;
	char c;

	if (pipe(p) || pipe(q))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		close(q[1]);
		if (setup(arg))
			_exit(80);
		write(p[1], "r", 1);
		read(q[0], &c, 1);
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	*go = q[1];
	if (pid < 0 || read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/*
 * Finding 1: a session (the "secret shell") whose controlling terminal
 * is a labelled one, and a child of it that takes a label that may not
 * read and write the terminal: the child loses the terminal (no
 * /dev/tty, fd 0 no longer the terminal, no TIOCSTI into it), by
 * "current" and by an exec that takes "exec".
 */
struct session {
	const char *slave;
	const char *label;	/* the child's new label */
	int by_exec;
};

/* The child of the session: its results on out. */
static void relabelled_child(const struct session *s, int out)
{
	char c = 'x';

	if (s->by_exec) {
		/* exits 0: no tty on fd 0 and no /dev/tty; 3 or 4: kept */
		if (write_string(TOYLSM_ATTR "exec", s->label))
			_exit(82);
		execl("/bin/busybox", "sh", "-c",
		      "[ -t 0 ] && exit 3; ( exec 3<>/dev/tty ) 2>/dev/null && exit 4; exit 0",
		      (char *)NULL);
		_exit(83);
	}
	if (toylsm_relabel(s->label))
		_exit(84);
	put(out, try_open("/dev/tty", O_RDWR));
	put(out, isatty(0));
	put(out, rc(ioctl(0, TIOCSTI, &c)));
	_exit(0);
}

static void session_child(void *arg, int out)
{
	const struct session *s = arg;
	pid_t pid;
	int fd, st;

	if (toylsm_relabel("nm-secret") || setsid() < 0)
		_exit(80);
	fd = open(s->slave, O_RDWR);	/* the session's controlling terminal */
	if (fd < 0 || dup2(fd, 0) < 0)
		_exit(81);
	pid = fork();
	if (!pid)
		relabelled_child(s, out);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		_exit(85);
	if (s->by_exec)
		put(out, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		_exit(86);
}

TEST(a_relabel_gives_up_a_terminal_the_new_label_may_not_use)
{
	char slave[64];
	struct session s = { .slave = slave, .label = "nm-user" };
	int m, in;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules",
				  "nm-secret nm-console rw\nnm-keep nm-console rw\n"));
	ASSERT_EQ(0, toylsm_relabel("nm-console"));
	m = legacy_pty(41, "nm-console", slave, sizeof(slave));
	ASSERT_LE(0, m) TH_LOG("legacy pty 41: %s", strerror(errno));

	ASSERT_EQ(0, in_child(session_child, &s, &in));
	EXPECT_EQ(-ENXIO, read_int(in)) TH_LOG("/dev/tty still reached the terminal");
	EXPECT_EQ(0, read_int(in)) TH_LOG("fd 0 is still the terminal");
	EXPECT_NE(0, read_int(in)) TH_LOG("TIOCSTI pushed input into the secret session");
	close(in);

	/* A label with rw on the terminal keeps it. */
	s.label = "nm-keep";
	ASSERT_EQ(0, in_child(session_child, &s, &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("/dev/tty lost with rw on the terminal");
	EXPECT_EQ(1, read_int(in));
	EXPECT_EQ(0, read_int(in));
	close(in);

	/* The same at an exec that takes the exec label. */
	s.label = "nm-user";
	s.by_exec = 1;
	ASSERT_EQ(0, in_child(session_child, &s, &in));
	EXPECT_EQ(0, read_int(in))
		TH_LOG("after the exec: 3, fd 0 still the terminal; 4, /dev/tty opened");
	close(in);
	s.label = "nm-keep";
	ASSERT_EQ(0, in_child(session_child, &s, &in));
	EXPECT_EQ(3, read_int(in)) TH_LOG("an exec to a label with rw lost fd 0");
	close(in);
	close(m);
	unlink(slave);
}

/*
 * Findings 1 and 3: a task with "r" on a terminal received its
 * descriptors (master and slave, SCM_RIGHTS). kill(2) of the task in
 * the terminal's foreground may not, and neither may any ioctl that
 * pushes input, changes the terminal, signals or hangs up. Reading the
 * terminal's state is "r".
 */
struct attack {
	int sock;
	pid_t victim;
	const char *label;
	int harmless;	/* only push an x */
};

static void attack_child(void *arg, int out)
{
	const struct attack *a = arg;
	struct winsize ws = { 0 };
	struct termios t;
	char c = 3;	/* ^C */
	int fd[2];

	if (toylsm_relabel(a->label) || recv_fds(a->sock, fd, 2))
		_exit(80);
	if (a->harmless) {
		c = 'x';
		put(out, rc(ioctl(fd[1], TIOCSTI, &c)));
		return;
	}
	put(out, rc(kill(a->victim, SIGKILL)));
	put(out, rc(ioctl(fd[1], TCGETS, &t)));
	put(out, rc(ioctl(fd[1], TIOCGWINSZ, &ws)));
	put(out, rc(ioctl(fd[1], TIOCSTI, &c)));
	put(out, rc(ioctl(fd[1], TIOCSWINSZ, &ws)));
	put(out, rc(write(fd[0], &c, 1)));
	put(out, rc(ioctl(fd[0], TIOCSIG, SIGINT)));
	put(out, rc(ioctl(fd[1], TIOCVHANGUP)));
}

/* The victim: a session on the slave, in its foreground (a waiter()). */
static int victim_setup(const void *slave)
{
	return toylsm_relabel("nm-victim") || setsid() < 0 ||
	       open(slave, O_RDWR) < 0;
}

TEST(terminal_ioctls_that_inject_input_hang_up_or_signal_need_w)
{
	struct attack a = { .label = "nm-r" };
	int m, s, sv[2], in, go, st;
	char slave[64];

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules",
				  "nm-r nm-tty r\nnm-rw nm-tty rw\nnm-victim nm-tty rw\n"));
	ASSERT_EQ(0, toylsm_relabel("nm-tty"));
	m = legacy_pty(42, "nm-tty", slave, sizeof(slave));
	ASSERT_LE(0, m) TH_LOG("legacy pty 42: %s", strerror(errno));
	s = open(slave, O_RDWR | O_NOCTTY);
	ASSERT_LE(0, s);
	a.victim = waiter(victim_setup, slave, &go);
	ASSERT_LT(0, a.victim);

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	a.sock = sv[1];
	ASSERT_EQ(0, send_fds(sv[0], (int[]){ m, s }, 2));
	ASSERT_EQ(0, in_child(attack_child, &a, &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("kill(2) of the victim");
	EXPECT_EQ(0, read_int(in)) TH_LOG("TCGETS with r");
	EXPECT_EQ(0, read_int(in)) TH_LOG("TIOCGWINSZ with r");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("TIOCSTI of a ^C without w");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("TIOCSWINSZ (SIGWINCH) without w");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("a ^C typed on the master without w");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("TIOCSIG on the master without w");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("TIOCVHANGUP without w");
	close(in);
	usleep(200000);
	EXPECT_EQ(0, waitpid(a.victim, &st, WNOHANG))
		TH_LOG("the terminal killed the task kill(2) may not: signal %d",
		       WIFSIGNALED(st) ? WTERMSIG(st) : 0);

	/* With w, pushing input works (an x, not a ^C). */
	a.label = "nm-rw";
	a.harmless = 1;
	ASSERT_EQ(0, send_fds(sv[0], (int[]){ m, s }, 2));
	ASSERT_EQ(0, in_child(attack_child, &a, &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("TIOCSTI with w on the terminal");
	close(in);
	close(go);
	waitpid(a.victim, &st, 0);
	close(sv[0]);
	close(sv[1]);
	close(s);
	close(m);
	unlink(slave);
}

/*
 * Finding 2, and 1 through /dev/tty: a labelled terminal's other names,
 * for a task with "r" alone on it: another node of the device, and
 * /dev/tty once the terminal is its controlling one. Then /dev/console,
 * with a node of the console's device labelled for a while.
 */
struct names {
	const char *slave;
	const char *alias;
};

static void names_child(void *arg, int out)
{
	const struct names *n = arg;
	struct winsize ws;
	int fd;

	if (toylsm_relabel("nm-ro"))
		_exit(80);
	put(out, try_open(n->slave, O_WRONLY | O_NOCTTY));
	put(out, try_open(n->alias, O_WRONLY | O_NOCTTY));
	/* Our controlling terminal, through a name that r may open. */
	if (setsid() < 0 || open(n->alias, O_RDONLY) < 0)
		_exit(81);
	fd = open("/dev/tty", O_WRONLY);
	put(out, fd < 0 ? -errno : write0(fd));
	put(out, fd < 0 ? -errno : rc(ioctl(fd, TIOCGWINSZ, &ws)));
}

TEST(other_names_of_a_labelled_terminal_answer_with_its_label)
{
	const char *alias = "/tmp/nm-alias43";
	struct names n = { .alias = alias };
	char slave[64];
	int m, in;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-ro nm-term r\n"));
	ASSERT_EQ(0, toylsm_relabel("nm-term"));
	m = legacy_pty(43, "nm-term", slave, sizeof(slave));
	ASSERT_LE(0, m) TH_LOG("legacy pty 43: %s", strerror(errno));
	n.slave = slave;
	unlink(alias);
	ASSERT_EQ(0, mknod(alias, S_IFCHR | 0666, makedev(3, 43)));

	ASSERT_EQ(0, in_child(names_child, &n, &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("the labelled node, for writing, with r");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("another node of the device, for writing, with r");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("a write through /dev/tty with r");
	EXPECT_EQ(0, read_int(in)) TH_LOG("TIOCGWINSZ through /dev/tty with r");
	close(in);
	unlink(alias);
	close(m);
	unlink(slave);
}

/* The console's device: the last of /sys/class/tty/console/active. */
static int console_dev(dev_t *dev)
{
	char buf[256], path[300], *w;
	unsigned int ma, mi;

	if (read_file("/sys/class/tty/console/active", buf, sizeof(buf)) <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	w = strrchr(buf, ' ');
	snprintf(path, sizeof(path), "/sys/class/tty/%s/dev", w ? w + 1 : buf);
	if (read_file(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -1;
	*dev = makedev(ma, mi);
	return 0;
}

static void console_child(void *arg, int out)
{
	int fd;

	(void)arg;
	if (toylsm_relabel("nm-ro"))
		_exit(80);
	fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	put(out, fd < 0 ? -errno : write0(fd));
}

TEST(dev_console_answers_with_the_consoles_label)
{
	const char *node = "/tmp/nm-console";
	dev_t dev;
	int in;

	ASSERT_EQ(0, console_dev(&dev));
	unlink(node);
	ASSERT_EQ(0, mknod(node, S_IFCHR | 0600, dev));
	/* The console's device is labelled only while this test runs. */
	ASSERT_EQ(0, setxattr(node, XATTR, "nm-cons", 7, 0));
	ASSERT_EQ(0, in_child(console_child, NULL, &in));
	EXPECT_EQ(-EACCES, read_int(in))
		TH_LOG("a write to /dev/console without w on the console's label");
	close(in);
	EXPECT_EQ(0, removexattr(node, XATTR));
	unlink(node);
	/* Its label removed, the console is open again. */
	ASSERT_EQ(0, in_child(console_child, NULL, &in));
	EXPECT_EQ(0, read_int(in));
	close(in);
}

/*
 * Finding 1 on a pty of devpts, which has no xattrs: it carries the
 * label of the task that opened its master (/dev/ptmx).
 */
static void pty_child(void *arg, int out)
{
	const char *path = arg;
	char c = 'x';
	int fd;

	if (toylsm_relabel("nm-user"))
		_exit(80);
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	put(out, fd < 0 ? -errno : write0(fd));
	put(out, fd < 0 ? -errno : rc(ioctl(fd, TIOCSTI, &c)));
}

TEST(a_pty_carries_the_label_of_the_task_that_opened_its_master)
{
	char path[64];
	int m, n, zero = 0, in, mounted = 0;

	mkdir("/dev/pts", 0755);
	if (access("/dev/pts/ptmx", F_OK)) {
		ASSERT_EQ(0, syscall(SYS_mount, "devpts", "/dev/pts", "devpts", 0,
				     "ptmxmode=0666"));
		mounted = 1;
	}
	ASSERT_EQ(0, toylsm_relabel("nm-secret"));
	m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
	ASSERT_LE(0, m) TH_LOG("/dev/ptmx: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(m, TIOCSPTLCK, &zero));
	ASSERT_EQ(0, ioctl(m, TIOCGPTN, &n));
	snprintf(path, sizeof(path), "/dev/pts/%d", n);

	ASSERT_EQ(0, in_child(pty_child, path, &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("a write to nm-secret's pty without a rule");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("TIOCSTI into nm-secret's pty without a rule");
	close(in);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-user nm-secret rw\n"));
	ASSERT_EQ(0, in_child(pty_child, path, &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("a write with the rule");
	EXPECT_EQ(0, read_int(in)) TH_LOG("TIOCSTI with the rule");
	close(in);
	close(m);
	if (mounted)
		syscall(SYS_umount2, "/dev/pts", 2 /* MNT_DETACH */);
}

/*
 * Finding 4: the files of /proc/PID/ carry the task's label; writing one
 * (oom_score_adj) needs "w" on the task, reading stays open.
 */
static void proc_child(void *arg, int out)
{
	const char *dir = arg;
	char path[96], buf[256];

	if (toylsm_relabel("nm-user") || setresgid(1000, 1000, 1000) ||
	    setresuid(1000, 1000, 1000))
		_exit(80);
	snprintf(path, sizeof(path), "%s/oom_score_adj", dir);
	put(out, try_open(path, O_WRONLY));
	put(out, read_file(path, buf, sizeof(buf)) > 0 ? 0 : -1);
	snprintf(path, sizeof(path), "%s/stat", dir);
	put(out, read_file(path, buf, sizeof(buf)) > 0 ? 0 : -1);
}

/* A victim of uid 1000, labelled nm-victim4 (a waiter()). */
static int uid_victim_setup(const void *arg)
{
	(void)arg;
	/* dumpable again after setuid: its /proc files are uid 1000's */
	return toylsm_relabel("nm-victim4") || setresgid(1000, 1000, 1000) ||
	       setresuid(1000, 1000, 1000) || prctl(PR_SET_DUMPABLE, 1);
}

TEST(writing_a_tasks_proc_files_needs_w_on_the_task)
{
	char dir[64];
	int go, in;
	pid_t victim;

	victim = waiter(uid_victim_setup, NULL, &go);
	ASSERT_LT(0, victim);
	snprintf(dir, sizeof(dir), "/proc/%d", victim);

	ASSERT_EQ(0, in_child(proc_child, dir, &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("oom_score_adj of a task without w on it");
	EXPECT_EQ(0, read_int(in)) TH_LOG("reading oom_score_adj");
	EXPECT_EQ(0, read_int(in)) TH_LOG("reading stat");
	close(in);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-user nm-victim4 w\n"));
	ASSERT_EQ(0, in_child(proc_child, dir, &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("oom_score_adj with w on the task");
	close(in);
	close(go);
	waitpid(victim, NULL, 0);
}

/*
 * A task's own /proc files ask nothing of it, whatever label they carry:
 * a descriptor of attr/toylsm/current opened under one label relabels
 * the task again and again (toylsm_limits does), and one of
 * oom_score_adj opened before a relabel still writes.
 */
TEST(a_task_writes_its_own_proc_files_across_its_relabels)
{
	int cur = open(TOYLSM_ATTR "current", O_WRONLY);
	int oom = open("/proc/self/oom_score_adj", O_WRONLY);

	ASSERT_LE(0, cur);
	ASSERT_LE(0, oom);
	EXPECT_EQ(8, write(cur, "nm-self1", 8));
	EXPECT_EQ(8, write(cur, "nm-self2", 8)) TH_LOG("%s", strerror(errno));
	EXPECT_STREQ("nm-self2", toylsm_label());
	EXPECT_EQ(1, write(oom, "0", 1)) TH_LOG("%s", strerror(errno));
	close(cur);
	close(oom);
}

/*
 * Finding 5: FS_IOC_SETFLAGS (chattr) changes the file: "w". Through a
 * descriptor received without any rule, and one opened with "r".
 */
struct flags {
	int sock;
	const char *label;
};

static void flags_child(void *arg, int out)
{
	const struct flags *f = arg;
	int fd, fl = 0;

	if (toylsm_relabel(f->label) || recv_fds(f->sock, &fd, 1))
		_exit(80);
	put(out, rc(ioctl(fd, FS_IOC_GETFLAGS, &fl)));
	fl |= FS_APPEND_FL;
	put(out, rc(ioctl(fd, FS_IOC_SETFLAGS, &fl)));
}

TEST(fs_ioc_setflags_needs_w)
{
	const char *file = "/tmp/nm-flags";
	struct flags f = { .label = "nm-none" };
	int fd, sv[2], in, fl = 0;

	ASSERT_EQ(0, create_file(file, "secret"));
	fd = open(file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setxattr(file, XATTR, "nm-file", 7, 0));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-r5 nm-file r\nnm-file5 nm-file rw\n"));
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	f.sock = sv[1];

	ASSERT_EQ(0, send_fds(sv[0], &fd, 1));
	ASSERT_EQ(0, in_child(flags_child, &f, &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("FS_IOC_GETFLAGS without r");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("FS_IOC_SETFLAGS without any rule");
	close(in);
	f.label = "nm-r5";
	ASSERT_EQ(0, send_fds(sv[0], &fd, 1));
	ASSERT_EQ(0, in_child(flags_child, &f, &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("FS_IOC_GETFLAGS with r");
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("FS_IOC_SETFLAGS with r alone");
	close(in);
	f.label = "nm-file5";
	ASSERT_EQ(0, send_fds(sv[0], &fd, 1));
	ASSERT_EQ(0, in_child(flags_child, &f, &in));
	EXPECT_EQ(0, read_int(in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("FS_IOC_SETFLAGS with rw");
	close(in);
	/* Append-only again off, by a label with w. */
	ASSERT_EQ(0, toylsm_relabel("nm-file5"));
	fl = 0;
	EXPECT_EQ(0, ioctl(fd, FS_IOC_SETFLAGS, &fl));
	close(fd);
	close(sv[0]);
	close(sv[1]);
	unlink(file);
}

/* Run busybox's "true" from path in a child: its exit status. */
static int run_true(const char *path)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		execl(path, "true", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A task labelled arg (a waiter()). */
static int relabel_setup(const void *label)
{
	return toylsm_relabel(label);
}

/*
 * Finding 6: the kernel's probes are counted, never recorded as denied:
 * reading another label's attr/toylsm/current (proc_pid_attr_open()
 * probes the task's memory), and running an "x"-only program
 * (would_dump() asks "r"). A real denial still is.
 */
TEST(the_kernels_probes_write_no_denial_record)
{
	const char *bin = "/tmp/nm-xonly";
	char path[64], buf[64];
	long c0, d0, c1, d1;
	int go, before;
	pid_t pid;

	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, toylsm_busybox(bin, "nm-xbin"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-pa nm-xbin x\n"));
	pid = waiter(relabel_setup, "nm-pb", &go);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, toylsm_relabel("nm-pa"));
	/* a fresh rate limit, as before the fix the records shared one */
	sleep(6);
	before = kernel_log_count("subject=\"nm-pa\"");

	snprintf(path, sizeof(path), "/proc/%d/attr/toylsm/current", pid);
	EXPECT_LT(0, read_file(path, buf, sizeof(buf)));
	EXPECT_STREQ("nm-pb\n", buf);
	toylsm_stats("inode_permission", &c0, &d0);
	EXPECT_EQ(0, run_true(bin)) TH_LOG("x runs it");
	toylsm_stats("inode_permission", &c1, &d1);
	EXPECT_LT(d0, d1) TH_LOG("would_dump()'s probe was not counted as a denial");
	usleep(300000);
	EXPECT_EQ(before, kernel_log_count("subject=\"nm-pa\""))
		TH_LOG("a probe was recorded as denied: %s",
		       strstr(kernel_log(), "subject=\"nm-pa\""));
	/* A real denial is recorded. */
	EXPECT_EQ(-EACCES, try_open(bin, O_RDONLY));
	EXPECT_TRUE(log_grew("subject=\"nm-pa\" object=\"nm-xbin\" requested=r", before));
	close(go);
	waitpid(pid, NULL, 0);
	unlink(bin);
}

/* A label denied n times in a row (access(2) of f): in a child. */
static void flood(const char *label, const char *f, int n)
{
	pid_t pid = fork();

	if (!pid) {
		if (toylsm_relabel(label))
			_exit(80);
		while (n--)
			access(f, R_OK);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

/*
 * Finding 6: one label's denials cannot spend another's records; stats
 * counts what the limit suppressed, and /bin/why says so.
 */
TEST(one_label_cannot_spend_another_labels_audit_records)
{
	const char *f = "/tmp/nm-flood";
	long c0, d0, s0, c1, d1, s1;
	int before;

	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, toylsm_secret_file(f, "nm-flood-obj"));
	ASSERT_EQ(0, toylsm_stats("inode_permission", &c0, &d0));
	s0 = toylsm_stats_suppressed("inode_permission");
	flood("nm-flooder", f, 30);
	toylsm_stats("inode_permission", &c1, &d1);
	s1 = toylsm_stats_suppressed("inode_permission");
	EXPECT_LE(d0 + 30, d1);
	EXPECT_LE(s0 + 20, s1) TH_LOG("30 denials in a row, %ld suppressed", s1 - s0);

	before = kernel_log_count("subject=\"nm-victim6\"");
	flood("nm-victim6", f, 1);
	EXPECT_TRUE(log_grew("subject=\"nm-victim6\" object=\"nm-flood-obj\"", before))
		TH_LOG("another label's flood hid nm-victim6's denial");

	/* why says that records were suppressed while its command ran. */
	ASSERT_EQ(0, toylsm_relabel("nm-flooder2"));
	run("why sh -c 'i=0; while [ $i -lt 30 ]; do cat /tmp/nm-flood; i=$((i+1)); done' 2>&1");
	EXPECT_NE(NULL, strstr(out, "toylsm suppressed"))
		TH_LOG("why said nothing of the suppressed records: %.400s", out);
	unlink(f);
}

/*
 * Finding 7 (the documentation): connect(2) to a unix socket bound to a
 * path opens no file, but the kernel asks for write permission on the
 * socket's inode: a labelled one needs "w".
 */
static void connect_child(void *arg, int out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	strcpy(sa.sun_path, "/tmp/nm-sock");
	if (toylsm_relabel(arg))
		_exit(80);
	put(out, rc(connect(fd, (struct sockaddr *)&sa, sizeof(sa))));
}

TEST(connecting_to_a_labelled_unix_socket_needs_w)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0), in;

	strcpy(sa.sun_path, "/tmp/nm-sock");
	unlink(sa.sun_path);
	ASSERT_EQ(0, bind(s, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, listen(s, 4));
	ASSERT_EQ(0, setxattr(sa.sun_path, XATTR, "nm-sock", 7, 0));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "nm-sr nm-sock r\nnm-sw nm-sock w\n"));
	ASSERT_EQ(0, in_child(connect_child, "nm-sr", &in));
	EXPECT_EQ(-EACCES, read_int(in)) TH_LOG("connect with r alone");
	close(in);
	ASSERT_EQ(0, in_child(connect_child, "nm-sw", &in));
	EXPECT_EQ(0, read_int(in)) TH_LOG("connect with w");
	close(in);
	close(s);
	unlink(sa.sun_path);
}

TEST_HARNESS_MAIN
