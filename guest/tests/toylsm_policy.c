// SPDX-License-Identifier: GPL-2.0
/*
 * toylsm's policy: the rules, enforce and stats files (good and bad
 * writes, CAP_MAC_ADMIN), label changes through "t" rules, a file that
 * Smack allows and toylsm denies, signals and ptrace between labels.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "kit/kernel_log.h"
#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

/* Whether the rules file lists this exact line. */
static int has_rule(const char *line)
{
	char buf[8192];

	read_file(TOYLSM_FS "rules", buf, sizeof(buf));
	return !!strstr(buf, line);
}

/* Whether the kernel log gets a line with s within about a second. */
static int logged(const char *s)
{
	for (int i = 0; i < 20; i++) {
		const char *log = kernel_log();

		if (log && strstr(log, s))
			return 1;
		usleep(50000);
	}
	return 0;
}

TEST(rules_read_back_in_the_same_form)
{
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "ra-s ra-o wr\nra-s ra-p  t\n\n"));
	EXPECT_TRUE(has_rule("ra-s ra-o rw\n"));
	EXPECT_TRUE(has_rule("ra-s ra-p t\n"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "ra-s ra-o x"));
	EXPECT_TRUE(has_rule("ra-s ra-o x\n"));
	EXPECT_FALSE(has_rule("ra-s ra-o rw\n"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "ra-s ra-o -\n"));
	EXPECT_FALSE(has_rule("ra-s ra-o"));
	EXPECT_TRUE(has_rule("ra-s ra-p t\n"));
}

TEST(malformed_rules_are_einval_and_nothing_is_applied)
{
	static const char *const bad[] = {
		"rb-s rb-o r\nrb-s rb-o\n", "rb-s rb-o r\nrb s rb-o r w\n",
		"rb-s rb-o q\n", "rb-s rb-o rr\n", "rb-s rb/o r\n",
		"rb-s rb-o r\nx y\n", "rb-s rb-oooooooooooooooooooooooooooooo r\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, write_string(TOYLSM_FS "rules", bad[i]))
			TH_LOG("case %zu", i);
		EXPECT_FALSE(has_rule("rb-s rb-o"));
	}
	EXPECT_EQ(-EINVAL, write_file(TOYLSM_FS "rules", "rb-s rb-o r\n\0x", 14));
	EXPECT_FALSE(has_rule("rb-s rb-o"));
}

TEST(enforce_file)
{
	char buf[16];

	ASSERT_EQ(2, read_file(TOYLSM_FS "enforce", buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
	EXPECT_EQ(-EINVAL, write_string(TOYLSM_FS "enforce", "2"));
	EXPECT_EQ(-EINVAL, write_string(TOYLSM_FS "enforce", "on"));
	EXPECT_EQ(0, write_string(TOYLSM_FS "enforce", "0\n"));
	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));
	EXPECT_STREQ("0\n", buf);
	EXPECT_EQ(0, write_string(TOYLSM_FS "enforce", "1"));
	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));
	EXPECT_STREQ("1\n", buf);
}

TEST(writes_need_cap_mac_admin)
{
	char buf[16];

	ASSERT_EQ(0, drop_mac_admin());
	EXPECT_EQ(-EPERM, write_string(TOYLSM_FS "rules", "rc-s rc-o r\n"));
	EXPECT_FALSE(has_rule("rc-s rc-o"));
	EXPECT_EQ(-EPERM, write_string(TOYLSM_FS "enforce", "0"));
	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));
	EXPECT_STREQ("1\n", buf);
	EXPECT_EQ(-EINVAL, write_string(TOYLSM_FS "stats", "0"));	/* read-only */
}

TEST(label_changes_need_a_t_rule_or_cap_mac_admin)
{
	long calls, denials, c2, d2;

	ASSERT_EQ(0, toylsm_relabel("ld-a"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "ld-a ld-b t\nld-b ld-c r\n"));
	ASSERT_EQ(0, drop_mac_admin());
	toylsm_stats("setprocattr", &calls, &denials);
	EXPECT_EQ(0, toylsm_relabel("ld-a"));		/* its own label */
	EXPECT_EQ(-EPERM, toylsm_relabel("ld-c"));	/* no t rule */
	EXPECT_EQ(-EPERM, toylsm_relabel("ld-new"));	/* unknown label */
	EXPECT_EQ(-EPERM, write_string(TOYLSM_ATTR "exec", "ld-c"));
	EXPECT_STREQ("ld-a", toylsm_label());
	toylsm_stats("setprocattr", &c2, &d2);
	EXPECT_EQ(calls + 4, c2);
	EXPECT_EQ(denials + 3, d2);
	EXPECT_EQ(0, write_string(TOYLSM_ATTR "exec", "ld-b"));
	EXPECT_EQ(0, toylsm_relabel("ld-b"));
	EXPECT_STREQ("ld-b", toylsm_label());
	EXPECT_EQ(-EPERM, toylsm_relabel("ld-a"));	/* no way back */
}

/* toylsm's audit record of the refused open below. */
static const char fe_denied[] =
	"toylsm=denied hook=file_open subject=\"fe-user\" object=\"fe-secret\" requested=r";

TEST(file_denied_by_toylsm_allowed_by_the_major_lsm)
{
	const char *f = "/tmp/toylsm-secret";
	long calls, denials, c2, d2;
	char buf[64];
	int fd;

	unlink(f);
	fd = open(f, O_CREAT | O_WRONLY, 0666);
	ASSERT_LE(0, fd);
	ASSERT_EQ(6, write(fd, "secret", 6));
	close(fd);
	EXPECT_EQ(-1, setxattr(f, "security.toylsm", "a b", 3, 0));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, setxattr(f, "security.toylsm", "fe-secret", 9, 0));
	ASSERT_EQ(9, getxattr(f, "security.toylsm", buf, sizeof(buf)));

	/* Same label, or no rule needed before the task changes label. */
	ASSERT_EQ(0, toylsm_relabel("fe-user"));
	toylsm_stats("file_open", &calls, &denials);
	EXPECT_EQ(-EACCES, read_file(f, buf, sizeof(buf)));
	toylsm_stats("file_open", &c2, &d2);
	EXPECT_EQ(calls + 2, c2);	/* f, and the stats file itself */
	EXPECT_EQ(denials + 1, d2);
	/* The audit record, through lsm_audit.c (kauditd prints it). */
	EXPECT_TRUE(logged(fe_denied));

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "fe-user fe-secret r\n"));
	EXPECT_EQ(6, read_file(f, buf, sizeof(buf)));
	EXPECT_EQ(-EACCES, write_string(f, "x"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "enforce", "0"));
	EXPECT_EQ(0, write_string(f, "x"));		/* permissive: logged only */
	ASSERT_EQ(0, write_string(TOYLSM_FS "enforce", "1"));

	/* Only CAP_MAC_ADMIN relabels a file. */
	ASSERT_EQ(0, drop_mac_admin());
	EXPECT_EQ(-1, setxattr(f, "security.toylsm", "fe-user", 7, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(-1, removexattr(f, "security.toylsm"));
	EXPECT_EQ(EPERM, errno);
}

TEST(file_denied_by_smack_allowed_by_toylsm)
{
	const char *f = "/tmp/toylsm-smack";
	long calls, denials, c2, d2;
	char buf[256];

	read_file("/sys/kernel/security/lsm", buf, sizeof(buf));
	if (!strstr(buf, "smack"))
		SKIP(return, "Smack is not active in this boot");
	unlink(f);
	ASSERT_EQ(0, write_string("/proc/self/attr/smack/current", "_"));
	ASSERT_LE(0, close(open(f, O_CREAT | O_WRONLY, 0666)));
	/* No toylsm label: toylsm allows; Smack has no rule "_ toyS r". */
	ASSERT_EQ(0, setxattr(f, "security.SMACK64", "toyS", 4, 0));
	ASSERT_EQ(0, drop_cap(CAP_MAC_OVERRIDE));
	toylsm_stats("file_open", &calls, &denials);
	EXPECT_EQ(-EACCES, read_file(f, buf, sizeof(buf)));
	toylsm_stats("file_open", &c2, &d2);
	EXPECT_EQ(denials, d2);		/* the denial was Smack's */
}

/* Fork a child that takes label l and waits; return its pid. */
static pid_t labelled_child(const char *l)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		toylsm_relabel(l);
		write(p[1], "x", 1);
		for (;;)
			pause();
	}
	read(p[0], &c, 1);
	close(p[0]);
	close(p[1]);
	return pid;
}

TEST(signals_between_labels)
{
	pid_t pid;
	int st;

	ASSERT_EQ(0, toylsm_relabel("sg-a"));
	pid = labelled_child("sg-b");
	ASSERT_LT(0, pid);
	EXPECT_EQ(-1, kill(pid, SIGTERM));
	EXPECT_EQ(EACCES, errno);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "sg-a sg-b w\n"));
	EXPECT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
}

TEST(ptrace_between_labels)
{
	char path[64], buf[64];
	pid_t pid;
	int st;

	ASSERT_EQ(0, toylsm_relabel("pt-a"));
	pid = labelled_child("pt-b");
	ASSERT_LT(0, pid);
	/* environ needs PTRACE_MODE_READ, so toylsm's "r". */
	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	EXPECT_EQ(-EACCES, read_file(path, buf, sizeof(buf)));
	EXPECT_EQ(-1, ptrace(PTRACE_ATTACH, pid, 0, 0));
	EXPECT_EQ(EACCES, errno);
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pt-a pt-b r\n"));
	EXPECT_LE(0, read_file(path, buf, sizeof(buf)));
	EXPECT_EQ(-1, ptrace(PTRACE_ATTACH, pid, 0, 0));
	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pt-a pt-b rw\n"));
	EXPECT_EQ(0, ptrace(PTRACE_ATTACH, pid, 0, 0));
	waitpid(pid, &st, 0);
	kill(pid, SIGKILL);
	ptrace(PTRACE_DETACH, pid, 0, 0);
	waitpid(pid, &st, 0);
}

/* docs/toylsm.md, "stats": every hook that checks rules, in this order. */
TEST(stats_list_every_hook)
{
	static const char *const hooks[] = {
		"file_open", "file_permission", "path_truncate", "mmap_file",
		"file_mprotect", "inode_permission", "file_ioctl", "task_kill",
		"ptrace_access_check", "ptrace_traceme",
		"file_send_sigiotask", "task_setpgid",
		"task_getpgid", "task_getsid", "task_setnice",
		"task_setioprio", "task_getioprio", "task_prlimit",
		"task_setrlimit", "task_setscheduler", "task_getscheduler",
		"task_movememory", "setprocattr", "bprm_creds_for_exec",
	};
	size_t i, n = sizeof(hooks) / sizeof(hooks[0]);
	char buf[4096], name[64], *line, *save;
	long calls, denials;

	ASSERT_LT(0, read_file(TOYLSM_FS "stats", buf, sizeof(buf)));
	for (i = 0, line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		int fields = sscanf(line, "%63s %ld %ld", name, &calls, &denials);

		ASSERT_EQ(3, fields) TH_LOG("stats line %zu: \"%s\"", i + 1, line);
		ASSERT_GT(n, i) TH_LOG("stats has more lines than the %zu hooks of docs/toylsm.md: %s",
				       n, name);
		EXPECT_STREQ(hooks[i], name) TH_LOG("stats line %zu", i + 1);
		EXPECT_LE(0, denials) TH_LOG("%s", name);
		EXPECT_LE(denials, calls) TH_LOG("%s", name);
	}
	EXPECT_EQ(n, i) TH_LOG("stats has %zu lines, docs/toylsm.md lists %zu hooks", i, n);
}

TEST_HARNESS_MAIN
