// SPDX-License-Identifier: GPL-2.0
/*
 * The guest tool /bin/why (initramfs/why.c) on the LSM events of patch
 * 0017: one refusal by each module the kit can make refuse, and why must
 * name that module, that hook and that errno, and show that the modules
 * after it in the walk were not asked. Smack's refusal of an open() is in
 * inode_permission: file_open's walk never starts, toylsm is never asked.
 * And why fails clearly, running nothing, where the events are missing.
 *
 * The refusing command is this program again ("do ACTION ..."), which
 * drops every capability first (root's CAP_MAC_OVERRIDE would pass
 * Smack) and exits with the errno of the refused call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define WHY "/bin/why"
#define YAMA_SCOPE "/proc/sys/kernel/yama/ptrace_scope"

/* ---- the refusing side: "do ACTION [FILE]" ---- */

/* No capability left at all: effective, permitted, inheritable. */
static int drop_all_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static int do_open(const char *file)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int do_landlock(const char *file)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE,
	};
	int fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);

	if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_landlock_restrict_self, fd, 0))
		return 100;
	close(fd);
	return do_open(file);
}

/* PTRACE_ATTACH to a child of ours: what Yama's scope 2 refuses. */
static int do_ptrace(void)
{
	pid_t child = fork();
	int err = 0;

	if (child == 0) {
		pause();
		_exit(0);
	}
	if (ptrace(PTRACE_ATTACH, child, NULL, NULL))
		err = errno;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return err;
}

static int refuse(int argc, char **argv)
{
	const char *what = argv[2], *file = argc > 3 ? argv[3] : "";

	if (strcmp(what, "landlock") == 0)
		return do_landlock(file);
	if (drop_all_caps())
		return 101;
	if (strcmp(what, "open") == 0)
		return do_open(file);
	if (strcmp(what, "ptrace") == 0)
		return do_ptrace();
	if (strcmp(what, "hostname") == 0)
		return sethostname("why", 3) ? errno : 0;
	if (strcmp(what, "touch") == 0)
		return do_open(file) == ENOENT ? creat(file, 0644) < 0 : 103;
	return 102;
}

/* ---- the asking side ---- */

static char self[256];
static char out[1 << 16];

/* Run "why OPTS self do ARGS" (stderr too) into out[]; why's status. */
static int why(const char *env, const char *opts, const char *args)
{
	char cmd[1024];
	size_t n = 0, r;
	FILE *p;
	int st;

	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		snprintf(self, sizeof(self), "/kit/bin/why_refusals");
	snprintf(cmd, sizeof(cmd), "%s " WHY " %s %s do %s 2>&1", env, opts,
		 self, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (n < sizeof(out) - 1 && (r = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The line of out[] that contains @s, copied to @line; 0 if none. */
static int line_with(const char *s, char *line, size_t len)
{
	const char *p = strstr(out, s), *b, *e;

	if (!p)
		return 0;
	for (b = p; b > out && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	if (!e)
		e = p + strlen(p);
	snprintf(line, len, "%.*s", (int)(e - b), b);
	return 1;
}

/* Where @lsm is in this boot's order (its offset in the list), or -1 */
static int active(const char *lsm)
{
	char buf[256] = "", pat[40];
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(pat, sizeof(pat), ",%s,", lsm);
	memmove(buf + 1, buf, strlen(buf) + 1);
	buf[0] = ',';
	strcat(buf, ",");
	return strstr(buf, pat) ? strstr(buf, pat) - buf : -1;
}

/* A file, with @xattr set to @label unless NULL (as root). */
static int labelled(const char *path, const char *xattr, const char *label)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || write(fd, "secret\n", 7) != 7)
		return -1;
	close(fd);
	return xattr ? setxattr(path, xattr, label, strlen(label), 0) : 0;
}

/*
 * The lines of the call whose first line has @head: up to the next line
 * that does not start with a space.
 */
static int block(const char *head, char *b, size_t len)
{
	const char *p = strstr(out, head), *e;

	if (!p)
		return 0;
	for (e = strchr(p, '\n'); e && e[1] == ' '; e = strchr(e + 1, '\n'))
		;
	if (!e)
		e = p + strlen(p);
	snprintf(b, len, "%.*s", (int)(e - p), p);
	return 1;
}

/*
 * A walk line of @hook with "@lsm @err" last among its answers: nobody
 * answered after the module that said no. 1 if there is one.
 */
static int walk_ends_with(const char *hook, const char *lsm, const char *err)
{
	char want[96], ans[96], l[512], *p, *bar;
	const char *s = out, *e;

	snprintf(want, sizeof(want), "    %-22s", hook);
	snprintf(ans, sizeof(ans), " %s %s", lsm, err);
	while ((p = strstr(s, want))) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		snprintf(l, sizeof(l), "%.*s", (int)(e - p), p);
		bar = strstr(l, "   |");
		if (bar)
			*bar = '\0';
		if (strlen(l) >= strlen(ans) &&
		    strcmp(l + strlen(l) - strlen(ans), ans) == 0)
			return 1;
		s = e;
	}
	return 0;
}

/* The "=> refused by @who" line names @lsm among those never asked */
static int never_asked(const char *who, const char *lsm)
{
	char l[512], *p, h[64];

	snprintf(h, sizeof(h), "  => refused by %s in ", who);
	if (!line_with(h, l, sizeof(l)))
		return 0;
	p = strstr(l, "never asked: ");
	return p && strstr(p, lsm);
}

/* The failure names the hook and the module: the line is this helper's. */
static void expect_walk_ends_with(struct __test_metadata *_metadata, const char *hook,
				  const char *lsm, const char *err)
{
	EXPECT_TRUE(walk_ends_with(hook, lsm, err))
		TH_LOG("no %s walk ending with %s %s:\n%s", hook, lsm, err, out);
}

#define EXPECT_WALK_ENDS_WITH(hook, lsm, err) expect_walk_ends_with(_metadata, hook, lsm, err)

TEST(smack_refuses_in_inode_permission)
{
	char b[8192], *l;

	if (active("smack") < 0)
		SKIP(return, "Smack is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
	ASSERT_EQ(0, why("", "-v -s openat", "open /tmp/why-smack")) TH_LOG("%s", out);
	ASSERT_TRUE(block("openat = -13 EACCES", b, sizeof(b))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(b, "  => refused by smack in inode_permission: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("inode_permission", "smack", "EACCES");
	/* file_open's walk never started: no module was asked there */
	EXPECT_EQ(NULL, strstr(b, "    file_open ")) TH_LOG("%s", out);
	if (active("toylsm") >= 0) {
		l = strstr(b, "not asked in this call at all:");
		ASSERT_NE(NULL, l) TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(l, "toylsm")) TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "exited with status 13")) TH_LOG("%s", out);
}

TEST(toylsm_refuses_in_file_open)
{
	if (active("toylsm") < 0)
		SKIP(return, "toylsm is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-toylsm", "security.toylsm", "whysecret"));
	ASSERT_EQ(0, why("", "", "open /tmp/why-toylsm")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "openat = -13 EACCES")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by toylsm in file_open: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("file_open", "toylsm", "EACCES");
	/* AppArmor comes after toylsm in the default stack */
	if (active("apparmor") >= 0)
		EXPECT_TRUE(never_asked("toylsm", "apparmor")) TH_LOG("%s", out);
	/* Smack has a file_open hook: asked before toylsm, or never */
	if (active("smack") >= 0 && active("smack") < active("toylsm"))
		EXPECT_NE(NULL, strstr(out, " smack ok,")) TH_LOG("%s", out);
	if (active("smack") > active("toylsm"))
		EXPECT_TRUE(never_asked("toylsm", "smack")) TH_LOG("%s", out);
}

TEST(landlock_refuses_in_file_open)
{
	if (active("landlock") < 0)
		SKIP(return, "Landlock is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-landlock", NULL, NULL));
	ASSERT_EQ(0, why("", "", "landlock /tmp/why-landlock")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by landlock in file_open: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("file_open", "landlock", "EACCES");
	/* Landlock comes before Smack and toylsm: neither was asked */
	if (active("smack") >= 0)
		EXPECT_TRUE(never_asked("landlock", "smack")) TH_LOG("%s", out);
	if (active("toylsm") >= 0)
		EXPECT_TRUE(never_asked("landlock", "toylsm")) TH_LOG("%s", out);
}

TEST(yama_refuses_ptrace_attach)
{
	char old[16] = "";
	int fd;

	if (active("yama") < 0)
		SKIP(return, "Yama is not active in this boot");
	fd = open(YAMA_SCOPE, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, read(fd, old, sizeof(old) - 1));
	ASSERT_EQ(2, pwrite(fd, "2\n", 2, 0));
	EXPECT_EQ(0, why("", "-s ptrace", "ptrace")) TH_LOG("%s", out);
	EXPECT_EQ((ssize_t)strlen(old), pwrite(fd, old, strlen(old), 0));
	close(fd);
	EXPECT_NE(NULL, strstr(out, "ptrace = -1 EPERM")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by yama in ptrace_access_check: EPERM;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("ptrace_access_check", "yama", "EPERM");
	/* Yama's scope 2 asked for CAP_SYS_PTRACE: a walk of its own */
	EXPECT_NE(NULL, strstr(out, "    capable ")) TH_LOG("%s", out);
	if (active("smack") >= 0)
		EXPECT_TRUE(never_asked("yama", "smack")) TH_LOG("%s", out);
}

TEST(capability_refuses_sethostname)
{
	ASSERT_EQ(0, why("", "-s sethostname", "hostname")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sethostname = -1 EPERM")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by capability in capable: EPERM;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("capable", "capability", "EPERM");
	if (active("apparmor") >= 0)
		EXPECT_TRUE(never_asked("capability", "apparmor")) TH_LOG("%s", out);
}

/* Without the events: a clear error, status 2, and the command not run. */
TEST(missing_events_fail_clearly)
{
	unlink("/tmp/why-ran");
	ASSERT_EQ(0, mkdir("/tmp/why-fake", 0755) && errno != EEXIST ? -1 : 0);
	ASSERT_EQ(0, labelled("/tmp/why-fake/trace", NULL, NULL));
	EXPECT_EQ(2, why("WHY_TRACEFS=/tmp/why-fake", "", "touch /tmp/why-ran"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "why: this kernel has no LSM events ("))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Nothing was run.")) TH_LOG("%s", out);
	EXPECT_EQ(-1, access("/tmp/why-ran", F_OK));
	EXPECT_EQ(NULL, strstr(out, "refused by")) TH_LOG("%s", out);

	EXPECT_EQ(2, why("WHY_TRACEFS=/tmp/why-none", "", "touch /tmp/why-ran"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "why: no tracefs at /tmp/why-none")) TH_LOG("%s", out);
	EXPECT_EQ(-1, access("/tmp/why-ran", F_OK));
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "do") == 0)
		return refuse(argc, argv);
	return test_harness_run(argc, argv);
}
