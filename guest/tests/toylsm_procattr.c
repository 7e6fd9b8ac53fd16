// SPDX-License-Identifier: GPL-2.0
/*
 * toylsm's /proc/<pid>/attr/toylsm/{current,exec,prev}: reads, good
 * writes, the errno of every bad write (label unchanged after it), and
 * the exec transition.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <linux/lsm.h>

#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

TEST(toylsm_is_stacked)
{
	char buf[256];

	ASSERT_LT(0, read_file("/sys/kernel/security/lsm", buf, sizeof(buf)));
	TH_LOG("active: %s", buf);
	EXPECT_NE(NULL, strstr(buf, ",toylsm"));
	EXPECT_NE(NULL, strstr(buf, "smack") ?: strstr(buf, "selinux") ?:
		  strstr(buf, "apparmor"));
}

TEST(first_task_label_is_init)
{
	char buf[64];

	/* The harness forks each test from the boot's shell: never relabelled. */
	ASSERT_EQ(5, read_file("/proc/1/attr/toylsm/current", buf, sizeof(buf)));
	EXPECT_STREQ("init\n", buf);
	EXPECT_STREQ("init", toylsm_label());
	EXPECT_EQ(0, read_file(TOYLSM_ATTR "exec", buf, sizeof(buf)));
	EXPECT_EQ(0, read_file(TOYLSM_ATTR "prev", buf, sizeof(buf)));
}

TEST(good_writes)
{
	char l31[32];

	ASSERT_EQ(0, toylsm_relabel("pa-1"));
	EXPECT_STREQ("pa-1", toylsm_label());
	ASSERT_EQ(0, toylsm_relabel("pa_2.x:y\n"));
	EXPECT_STREQ("pa_2.x:y", toylsm_label());
	memset(l31, 'p', 31);
	l31[31] = '\0';
	ASSERT_EQ(0, toylsm_relabel(l31));
	EXPECT_STREQ(l31, toylsm_label());
}

TEST(bad_writes_are_einval_and_change_nothing)
{
	static const struct { const char *s; size_t len; } bad[] = {
		{ "", 0 }, { "\n", 1 }, { "a b", 3 }, { "a\nb", 3 },
		{ "a\0b", 3 }, { "a\n\n", 3 }, { "caf\xc3\xa9", 5 },
		{ "a/b", 3 }, { "\tx", 2 },
		{ "pppppppppppppppppppppppppppppppp", 32 },
	};
	char buf[64];
	size_t i;

	ASSERT_EQ(0, toylsm_relabel("pb-keep"));
	ASSERT_EQ(0, write_string(TOYLSM_ATTR "exec", "pb-exec"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, write_file(TOYLSM_ATTR "current", bad[i].s, bad[i].len))
			TH_LOG("current <- case %zu", i);
		EXPECT_EQ(-EINVAL, write_file(TOYLSM_ATTR "exec", bad[i].s, bad[i].len))
			TH_LOG("exec <- case %zu", i);
		EXPECT_STREQ("pb-keep", toylsm_label());
		read_file(TOYLSM_ATTR "exec", buf, sizeof(buf));
		EXPECT_STREQ("pb-exec\n", buf);
	}
	/* prev is read-only: root passes DAC, toylsm refuses. */
	EXPECT_EQ(-EINVAL, write_string(TOYLSM_ATTR "prev", "pb-prev"));
	EXPECT_STREQ("pb-keep", toylsm_label());
}

TEST(only_the_task_itself_writes)
{
	char path[64];
	int p[2], fd;
	pid_t pid;

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	if (!pid) {
		close(p[1]);
		read(p[0], path, 1);
		_exit(strcmp(toylsm_label(), "init") ? 1 : 0);
	}
	snprintf(path, sizeof(path), "/proc/%d/attr/toylsm/current", pid);
	fd = open(path, O_WRONLY);
	ASSERT_LE(0, fd);
	/* fs/proc: the file was opened for another task's mm. */
	EXPECT_EQ(-1, write(fd, "pc", 2));
	EXPECT_EQ(EPERM, errno);
	close(fd);
	close(p[1]);
	ASSERT_EQ(pid, waitpid(pid, &fd, 0));
	EXPECT_EQ(0, fd);	/* the child still had its label */
}

/* Run cat in a child that set "exec" first; return what it printed. */
static void exec_show(const char *exec_label, char *out, size_t size)
{
	int p[2], st;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(p))
		exit(2);
	pid = fork();
	if (!pid) {
		dup2(p[1], 1);
		if (exec_label && write_string(TOYLSM_ATTR "exec", exec_label))
			_exit(3);
		execl("/bin/cat", "cat", "/proc/self/attr/toylsm/current",
		      "/proc/self/attr/toylsm/prev",
		      "/proc/self/attr/toylsm/exec", NULL);
		_exit(4);
	}
	close(p[1]);
	while ((n = read(p[0], out + len, size - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
}

TEST(exec_label_is_taken_at_exec_and_consumed)
{
	char out[256];

	ASSERT_EQ(0, toylsm_relabel("pd-before"));
	exec_show("pd-after", out, sizeof(out));
	EXPECT_STREQ("pd-after\npd-before\n", out);
	/* Without an exec label, exec keeps the label and prev. */
	exec_show(NULL, out, sizeof(out));
	EXPECT_STREQ("pd-before\n", out);
	EXPECT_STREQ("pd-before", toylsm_label());
}

TEST(exec_label_is_inherited_by_fork)
{
	char out[256];

	ASSERT_EQ(0, write_string(TOYLSM_ATTR "exec", "pe-1"));
	exec_show(NULL, out, sizeof(out));
	EXPECT_STREQ("pe-1\ninit\n", out);
	EXPECT_STREQ("init", toylsm_label());
}

TEST(syscalls_report_toylsm)
{
	__u32 ids[32];
	size_t size = sizeof(ids);
	char buf[4096];
	struct lsm_ctx *c;
	long n, i, found = 0;

	n = syscall(452 /* lsm_module_list */, ids, &size, 0);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++)
		found += ids[i] == LSM_ID_TOYLSM;
	EXPECT_EQ(1, found);

	ASSERT_EQ(0, toylsm_relabel("ps-cur"));
	ASSERT_EQ(0, write_string(TOYLSM_ATTR "exec", "ps-exec\n"));
	size = sizeof(buf);
	n = syscall(451 /* lsm_self_attr */, buf, &size, 0);
	ASSERT_LT(0, n);
	found = 0;
	for (c = (void *)buf, i = 0; i < n;
	     c = (void *)(c->ctx + c->ctx_len), i++) {
		if (c->id != LSM_ID_TOYLSM)
			continue;
		if (c->flags == LSM_ATTR_CURRENT)
			found += !strcmp((char *)c->ctx, "ps-cur");
		else if (c->flags == LSM_ATTR_EXEC)
			found += !strcmp((char *)c->ctx, "ps-exec");
		else
			found += 10;	/* prev is empty, others are not toylsm's */
	}
	EXPECT_EQ(2, found);
}

TEST_HARNESS_MAIN
