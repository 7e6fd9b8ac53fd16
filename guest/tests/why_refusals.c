// SPDX-License-Identifier: GPL-2.0
/*
 * The guest tool /bin/why (guest/tools/why.c) on the LSM events of patch
 * 0017: one refusal by each module the kit can make refuse, and why must
 * name that module, that hook and that errno, and show that the modules
 * after it in the walk were not asked. Smack's refusal of an open() is in
 * inode_permission: file_open's walk never starts, and toylsm, after Smack,
 * is never asked in the walk Smack ended.
 * And why fails clearly, running nothing, where the events are missing.
 *
 * The refusing command is this program again ("do ACTION ..."), which
 * drops every capability first (root's CAP_MAC_OVERRIDE would pass
 * Smack) and exits with the errno of the refused call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "kit/caps.h"
#include "kit/landlock.h"
#include "kit/lsm_abi.h"
#include "kit/lsm_trace.h"

#define WHY "/bin/why"
#define YAMA_SCOPE "/proc/sys/kernel/yama/ptrace_scope"

/* ---- the refusing side: "do ACTION [FILE]" ---- */

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
	/* READ_FILE handled, allowed beneath no path: refused everywhere */
	if (kit_landlock_enforce(kit_landlock_ruleset(LANDLOCK_ACCESS_FS_READ_FILE)))
		return 100;
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

/* lsm_self_attr's documented size probe: *size 0, the framework's E2BIG. */
static int do_selfattr(void)
{
	size_t size = 0;

	return lsm_self_attr(NULL, &size, 0) ? errno : 0;
}

#ifndef PR_LSM_ATTR_SET
#define PR_LSM_ATTR_SET 65
#endif

/* Make the module named @lsm this task's interface LSM. */
static int interface(const char *lsm)
{
	int i;

	for (i = 0; i < KIT_NLSMS; i++)
		if (strcmp(kit_lsms[i].name, lsm) == 0)
			return prctl(PR_LSM_ATTR_SET, kit_lsms[i].id, 0, 0, 0) ? 104 : 0;
	return 104;
}

/*
 * A datagram with SO_PASSSEC over a Unix socket pair: the receiver asks
 * for SCM_SECURITY, the sender's context in its interface LSM.
 */
static int do_scm(void)
{
	char data[8], cbuf[512];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	int fd[2], one = 1;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, fd) ||
	    setsockopt(fd[0], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)) ||
	    send(fd[1], "why", 3, 0) != 3)
		return 105;
	return recvmsg(fd[0], &m, 0) < 0 ? errno : 0;
}

/* SO_PEERSEC of a Unix stream pair, in the interface LSM's words. */
static int do_peersec(void)
{
	char ctx[256];
	socklen_t len = sizeof(ctx);
	int fd[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd))
		return 105;
	return getsockopt(fd[0], SOL_SOCKET, SO_PEERSEC, ctx, &len) ? errno : 0;
}

/* read() of a file: its errno, or 0. */
static int do_read(const char *file)
{
	char buf[256];
	int fd = open(file, O_RDONLY), err = 0;

	if (fd < 0)
		return errno;
	if (read(fd, buf, sizeof(buf)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* One audit rule on the subject's Smack label, added and deleted. */
static int audit_rule(int add)
{
	static char buf[4096] __attribute__((aligned(8)));
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct audit_rule_data *r = NLMSG_DATA(nlh);
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	ssize_t n;
	int err;

	if (fd < 0)
		return 106;
	memset(buf, 0, sizeof(buf));
	r->flags = AUDIT_FILTER_USER;
	r->action = AUDIT_NEVER;
	memset(r->mask, 0xff, sizeof(r->mask));
	r->field_count = 1;
	r->fields[0] = AUDIT_SUBJ_USER;
	r->fieldflags[0] = AUDIT_EQUAL;
	r->values[0] = 7;
	r->buflen = 7;
	memcpy(r->buf, "WhyRule", 7);
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*r) + 7);
	nlh->nlmsg_type = add ? AUDIT_ADD_RULE : AUDIT_DEL_RULE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	if (sendto(fd, buf, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return errno;
	n = recv(fd, buf, sizeof(buf), 0);
	err = n < 0 ? errno : nlh->nlmsg_type == NLMSG_ERROR ?
		-((struct nlmsgerr *)NLMSG_DATA(nlh))->error : 107;
	close(fd);
	return err;
}

/*
 * An overlay of two tmpfs folders, and a file of the lower layer opened
 * for writing through it: overlayfs copies it up, xattrs and all, and
 * asks the modules about each xattr (inode_copy_up_xattr).
 */
static int do_copyup(void)
{
	static const char * const d[] = { "/tmp/why-ovl", "/tmp/why-ovl/l", "/tmp/why-ovl/u",
					  "/tmp/why-ovl/w", "/tmp/why-ovl/m" };
	size_t i;
	int fd;

	umount("/tmp/why-ovl/m");
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (mkdir(d[i], 0755) && errno != EEXIST)
			return 108;
	unlink("/tmp/why-ovl/u/f");
	fd = open("/tmp/why-ovl/l/f", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		return 108;
	close(fd);
	if (mount("overlay", "/tmp/why-ovl/m", "overlay", 0,
		  "lowerdir=/tmp/why-ovl/l,upperdir=/tmp/why-ovl/u,workdir=/tmp/why-ovl/w"))
		return 109;
	fd = open("/tmp/why-ovl/m/f", O_WRONLY);
	if (fd < 0)
		return errno;
	close(fd);
	return umount("/tmp/why-ovl/m") ? 110 : 0;
}

static int refuse(int argc, char **argv)
{
	const char *what = argv[2], *file = argc > 3 ? argv[3] : "";

	/* "do name NAME ACTION...": the same, as a task called NAME */
	if (strcmp(what, "name") == 0 && argc > 4) {
		if (prctl(PR_SET_NAME, argv[3], 0, 0, 0))
			return 111;
		argv[3] = argv[1];
		return refuse(argc - 2, argv + 2);
	}
	if (strcmp(what, "landlock") == 0)
		return do_landlock(file);
	/* Root's, as a module sees them: no capability dropped */
	if (strcmp(what, "selfattr") == 0)
		return do_selfattr();
	if (strcmp(what, "scm") == 0)
		return interface(file) ? 104 : do_scm();
	if (strcmp(what, "peersec") == 0)
		return interface(file) ? 104 : do_peersec();
	if (strcmp(what, "read") == 0)
		return do_read(file);
	if (strcmp(what, "auditrule") == 0)
		return audit_rule(1) ? 106 : audit_rule(0);
	if (strcmp(what, "copyup") == 0)
		return do_copyup();
	/* Mode bits only: uid 1000 and no capability (setresuid drops them) */
	if (strcmp(what, "dac") == 0)
		return setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000) ?
			101 : do_open(file);
	if (drop_all_caps())
		return 101;
	if (strcmp(what, "open") == 0)
		return do_open(file);
	/* "do busy FILE": 100 opens a module allows, then FILE's */
	if (strcmp(what, "busy") == 0) {
		for (int i = 0; i < 100; i++)
			if (do_open("/tmp/why-busy"))
				return 112;
		return do_open(file);
	}
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

/* Run "why OPTS self do ARGS" (stderr too) into out[]; why's status. */
static int why(const char *env, const char *opts, const char *args)
{
	char cmd[1024];

	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		snprintf(self, sizeof(self), "/kit/bin/why_refusals");
	snprintf(cmd, sizeof(cmd), "%s " WHY " %s %s do %s 2>&1", env, opts,
		 self, args);
	return run(cmd);
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
	p = strstr(l, "; never asked in ");
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

	if (lsm_position("smack") < 0)
		SKIP(return, "Smack is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
	ASSERT_EQ(0, why("", "-v -s openat", "open /tmp/why-smack")) TH_LOG("%s", out);
	ASSERT_TRUE(block("openat = -13 EACCES", b, sizeof(b))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(b, "  => refused by smack in inode_permission: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("inode_permission", "smack", "EACCES");
	/* file_open's walk never started: no module was asked there */
	EXPECT_EQ(NULL, strstr(b, "    file_open ")) TH_LOG("%s", out);
	/*
	 * toylsm answers inode_permission too (issue 43): after Smack, it
	 * is asked in the lookup's walks and never in the one Smack ended.
	 */
	if (lsm_position("toylsm") > lsm_position("smack")) {
		EXPECT_NE(NULL, strstr(b, "never asked in inode_permission: toylsm"))
			TH_LOG("%s", out);
		l = strstr(b, "said no:");
		ASSERT_NE(NULL, l) TH_LOG("%s", out);
		EXPECT_EQ(NULL, strstr(l, "toylsm (EACCES)")) TH_LOG("%s", out);
	}
	EXPECT_NE(NULL, strstr(out, "exited with status 13")) TH_LOG("%s", out);
}

TEST(toylsm_refuses_in_file_open)
{
	if (lsm_position("toylsm") < 0)
		SKIP(return, "toylsm is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-toylsm", "security.toylsm", "whysecret"));
	ASSERT_EQ(0, why("", "", "open /tmp/why-toylsm")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "openat = -13 EACCES")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by toylsm in file_open: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("file_open", "toylsm", "EACCES");
	/* AppArmor comes after toylsm in the default stack */
	if (lsm_position("apparmor") >= 0)
		EXPECT_TRUE(never_asked("toylsm", "apparmor")) TH_LOG("%s", out);
	/* Smack has a file_open hook: asked before toylsm, or never */
	if (lsm_position("smack") >= 0 && lsm_position("smack") < lsm_position("toylsm"))
		EXPECT_NE(NULL, strstr(out, " smack ok,")) TH_LOG("%s", out);
	if (lsm_position("smack") > lsm_position("toylsm"))
		EXPECT_TRUE(never_asked("toylsm", "smack")) TH_LOG("%s", out);
}

TEST(landlock_refuses_in_file_open)
{
	if (lsm_position("landlock") < 0)
		SKIP(return, "Landlock is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-landlock", NULL, NULL));
	ASSERT_EQ(0, why("", "", "landlock /tmp/why-landlock")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by landlock in file_open: EACCES;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("file_open", "landlock", "EACCES");
	/* Landlock comes before Smack and toylsm: neither was asked */
	if (lsm_position("smack") >= 0)
		EXPECT_TRUE(never_asked("landlock", "smack")) TH_LOG("%s", out);
	if (lsm_position("toylsm") >= 0)
		EXPECT_TRUE(never_asked("landlock", "toylsm")) TH_LOG("%s", out);
}

TEST(yama_refuses_ptrace_attach)
{
	char old[16] = "";
	int fd;

	if (lsm_position("yama") < 0)
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
	if (lsm_position("smack") >= 0)
		EXPECT_TRUE(never_asked("yama", "smack")) TH_LOG("%s", out);
}

TEST(capability_refuses_sethostname)
{
	ASSERT_EQ(0, why("", "-s sethostname", "hostname")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "sethostname = -1 EPERM")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by capability in capable: EPERM;"))
		TH_LOG("%s", out);
	EXPECT_WALK_ENDS_WITH("capable", "capability", "EPERM");
	if (lsm_position("apparmor") >= 0)
		EXPECT_TRUE(never_asked("capability", "apparmor")) TH_LOG("%s", out);
}

/* The lines the issue 28 cases look for, too long to quote in place */
#define NO_VALUE_LINE \
	"answered EINVAL in getprocattr: it has no such value, not a refusal"
#define CAPABLE_LINE \
	"  in capable: asked capability (EPERM); said no: capability (EPERM)"
#define FRAMEWORK_LINE \
	"  in secid_to_secctx: no module asked: the framework answered ENODATA"
#define SMACK_REFUSED \
	"your open() was refused by smack in inode_permission (EACCES)"
#define APPARMOR_ONLY "; apparmor was asked only in file_alloc_security"
#define DAC_UNREFUSED \
	"no LSM refused your open() (EACCES): openat failed with EACCES"

/*
 * The issue 28 cases: what is not a module's refusal must not be told as
 * one, and a hook that a module answered must be seen.
 */

/* "=> no LSM refused:" in out[], and no "refused by" anywhere */
static void expect_no_lsm_refused(struct __test_metadata *_metadata)
{
	EXPECT_NE(NULL, strstr(out, "  => no LSM refused: ")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "refused by")) TH_LOG("%s", out);
}

#define EXPECT_NO_LSM_REFUSED() expect_no_lsm_refused(_metadata)

/*
 * lsm_self_attr's size probe: the framework's E2BIG. The modules answer
 * getprocattr for each attribute on the way, AppArmor and toylsm EINVAL
 * for the ones they do not have ("no such value"), which is no refusal.
 */
TEST(size_probe_e2big_is_no_refusal)
{
	ASSERT_EQ(0, why("", "-v -s lsm_self_attr", "selfattr")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "lsm_self_attr = -7 E2BIG")) TH_LOG("%s", out);
	EXPECT_NO_LSM_REFUSED();
	EXPECT_NE(NULL, strstr(out, "no module's answer ended a hook walk with E2BIG"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "exited with status 7")) TH_LOG("%s", out);
}

/*
 * A read of /proc/self/attr/keycreate: the interface LSM (Smack, or
 * toylsm when it comes first) has no such attribute and answers EINVAL,
 * "no such value". The read fails with that EINVAL: still no refusal.
 */
TEST(no_value_einval_is_no_refusal)
{
	ASSERT_EQ(0, why("", "-s read", "read /proc/self/attr/keycreate")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "read = -22 EINVAL")) TH_LOG("%s", out);
	EXPECT_NO_LSM_REFUSED();
	EXPECT_NE(NULL, strstr(out, NO_VALUE_LINE))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " alone, not in a walk")) TH_LOG("%s", out);
}

/*
 * uid 1000, no capability, a root-only 0600 file: the open fails on the
 * mode bits (EACCES); the capable() checks that followed (may the task
 * override them?) are the capability module's EPERM, not the call's
 * error.
 */
TEST(dac_refusal_is_no_lsm_refusal)
{
	ASSERT_EQ(0, labelled("/tmp/why-dac", NULL, NULL));
	ASSERT_EQ(0, chmod("/tmp/why-dac", 0600));
	ASSERT_EQ(0, why("", "-s openat", "dac /tmp/why-dac")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "openat = -13 EACCES")) TH_LOG("%s", out);
	EXPECT_NO_LSM_REFUSED();
	EXPECT_NE(NULL, strstr(out, "the error is the kernel's own")) TH_LOG("%s", out);
	/* the capability module's answers are shown, and as what they are */
	EXPECT_NE(NULL, strstr(out, CAPABLE_LINE))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "exited with status 13")) TH_LOG("%s", out);
}

/*
 * SCM_SECURITY with AppArmor as the interface LSM: AppArmor 6.1 keeps no
 * secid for a Unix datagram's sender, so the framework answers
 * secid_to_secctx itself (secid 0) and AppArmor is never called. The
 * sender's walk of socket_getpeersec_dgram is seen.
 */
TEST(scm_security_framework_answer_names_no_module)
{
	char l[512];

	if (lsm_position("apparmor") < 0)
		SKIP(return, "AppArmor is not active in this boot");
	ASSERT_EQ(0, why("", "-a -v", "scm apparmor")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "refused by")) TH_LOG("%s", out);
	ASSERT_TRUE(line_with("    secid_to_secctx ", l, sizeof(l))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(l, "(the framework) ENODATA   | no module asked: ")) TH_LOG("%s", l);
	EXPECT_EQ(NULL, strstr(l, "apparmor")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(out, FRAMEWORK_LINE))
		TH_LOG("%s", out);
	EXPECT_TRUE(line_with("    socket_getpeersec_dgram ", l, sizeof(l))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "exited with status 0")) TH_LOG("%s", out);
}

/*
 * SO_PEERSEC with toylsm as the interface LSM: toylsm alone answers, not
 * in a walk; it was asked, and why must say so.
 */
TEST(so_peersec_answered_by_toylsm_is_seen)
{
	char l[512];

	if (lsm_position("toylsm") < 0)
		SKIP(return, "toylsm is not active in this boot");
	ASSERT_EQ(0, why("", "-v -s getsockopt", "peersec toylsm")) TH_LOG("%s", out);
	ASSERT_TRUE(line_with("    socket_getpeersec_stream ", l, sizeof(l))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(l, " toylsm ")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(l, "(asked alone, not in a walk)")) TH_LOG("%s", l);
	EXPECT_EQ(NULL, strstr(out, "refused by")) TH_LOG("%s", out);
	ASSERT_TRUE(line_with("  asked in no hook of this call:", l, sizeof(l))) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(l, "toylsm")) TH_LOG("%s", l);
}

/* An audit rule added: every module with a slot prepares its part. */
TEST(audit_rule_walks_are_seen)
{
	char l[512];

	ASSERT_EQ(0, why("", "-a -v", "auditrule")) TH_LOG("%s", out);
	ASSERT_TRUE(line_with("    audit_rule_init ", l, sizeof(l))) TH_LOG("%s", out);
	if (lsm_position("smack") >= 0)
		EXPECT_NE(NULL, strstr(l, " smack ok")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(l, "| all asked")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(out, "exited with status 0")) TH_LOG("%s", out);
}

/* overlayfs copies a file up: the modules are asked about each xattr. */
TEST(copy_up_xattr_walks_are_seen)
{
	ASSERT_EQ(0, why("", "-a -v -k inode_copy_up_xattr", "copyup")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "    inode_copy_up_xattr ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "exited with status 0")) TH_LOG("%s", out);
}

/* A task whose name has " [" in it hides none of its events. */
TEST(a_name_with_a_bracket_hides_nothing)
{
	if (lsm_position("smack") < 0)
		SKIP(return, "Smack is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
	ASSERT_EQ(0, why("", "-s openat", "name 'a [b]: c-1' open /tmp/why-smack"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "a [b]: c-1[")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by smack in inode_permission: EACCES;"))
		TH_LOG("%s", out);
}

/*
 * Hook by hook: in the default stack Smack refuses in inode_permission,
 * after AppArmor answered file_alloc_security: AppArmor must be shown as
 * asked there only, not as if it had allowed the open.
 */
TEST(per_hook_who_was_asked)
{
	char b[8192], l[512];

	if (lsm_position("smack") < 0 || lsm_position("apparmor") < 0)
		SKIP(return, "needs Smack and AppArmor");
	ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
	ASSERT_EQ(0, why("", "-s openat", "open /tmp/why-smack")) TH_LOG("%s", out);
	ASSERT_TRUE(block("openat = -13 EACCES", b, sizeof(b))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(b, "  in inode_permission: asked smack (")) TH_LOG("%s", b);
	EXPECT_NE(NULL, strstr(b, "said no: smack (EACCES); never asked: none")) TH_LOG("%s", b);
	ASSERT_TRUE(line_with("  in file_alloc_security: asked ", l, sizeof(l))) TH_LOG("%s", b);
	EXPECT_NE(NULL, strstr(l, " apparmor (ok)")) TH_LOG("%s", l);
	EXPECT_NE(NULL, strstr(l, "said no: nobody")) TH_LOG("%s", l);
}

/*
 * why -t (make why SVG=): the walk table of Landlock's refusal of an
 * open(), one line per cell, after the text: the file_open row has
 * Landlock's no (the refusal that failed the call) and every module of
 * the hook after it never asked; the columns are the boot's modules in
 * walk order.  The lines carry why's token, drawn after the command ended.
 */
TEST(walk_table_rows)
{
	static const char *const after[] = { "smack", "selinux", "toylsm", "apparmor" };
	char token[17] = "", want[512], lsm[40], err[40], hook[40], mods[256] = "";
	const char *p;
	FILE *f;
	size_t i;
	int k, r, n;

	if (lsm_position("landlock") < 0)
		SKIP(return, "Landlock is not active in this boot");
	ASSERT_EQ(0, labelled("/tmp/why-landlock", NULL, NULL));
	ASSERT_EQ(0, why("", "-t", "landlock /tmp/why-landlock")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "  => refused by landlock in file_open: EACCES;"))
		TH_LOG("%s", out);
	p = strstr(out, "\nwhy-walk begin ");
	ASSERT_NE(NULL, p) TH_LOG("%s", out);
	n = sscanf(p, "\nwhy-walk begin %16[0-9a-f]\n", token);
	ASSERT_EQ(1, n) TH_LOG("%s", out);
	ASSERT_EQ(16, strlen(token));
	/* the table comes after the text's closing line */
	EXPECT_NE(NULL, strstr(out, "exited with status 13 ----\nwhy-walk begin "))
		TH_LOG("%s", out);
	snprintf(want, sizeof(want), "\nwhy-walk %s refused ", token);
	p = strstr(out, want);
	ASSERT_NE(NULL, p) TH_LOG("%s", out);
	n = sscanf(p + strlen(want), "%d %d %39s %39s %39s", &k, &r, lsm, err, hook);
	ASSERT_EQ(5, n) TH_LOG("%s", out);
	EXPECT_STREQ("landlock", lsm);
	EXPECT_STREQ("EACCES", err);
	EXPECT_STREQ("file_open", hook);
	snprintf(want, sizeof(want), "\nwhy-walk %s call %d ", token, k);
	ASSERT_TRUE(line_with(want + 1, want, sizeof(want))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(want, " openat -13 EACCES why_refusals")) TH_LOG("%s", want);
	snprintf(want, sizeof(want), "\nwhy-walk %s row %d %d file_open walk\n", token, k, r);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no '%s' in:\n%s", want + 1, out);
	snprintf(want, sizeof(want), "\nwhy-walk %s cell %d %d landlock no EACCES\n", token, k, r);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no '%s' in:\n%s", want + 1, out);
	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		if (lsm_position(after[i]) < lsm_position("landlock"))
			continue;
		snprintf(want, sizeof(want), "\nwhy-walk %s cell %d %d %s never -\n", token, k, r,
			 after[i]);
		EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no '%s' in:\n%s", want + 1, out);
	}
	/* the columns: this boot's modules, in its order */
	f = fopen("/sys/kernel/security/lsm", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(mods, sizeof(mods), f));
	fclose(f);
	mods[strcspn(mods, "\n")] = '\0';
	for (i = 0; mods[i]; i++)
		if (mods[i] == ',')
			mods[i] = ' ';
	snprintf(want, sizeof(want), "\nwhy-walk %s cols %d %s\n", token, k, mods);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no '%s' in:\n%s", want + 1, out);
	snprintf(want, sizeof(want), "\nwhy-walk end %s ", token);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
}

/* A child that drops its capabilities and runs "do ARGS..." (no why). */
static int child_do(const char * const args[])
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char *argv[8] = { self, "do" };
		int i;

		for (i = 0; args[i] && i < 5; i++)
			argv[i + 2] = (char *)args[i];
		argv[i + 2] = NULL;
		execv(self, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * The graders' line (labs/common/trace.h, from the same parser): the
 * module, the hook, and where the others were asked; "no LSM refused"
 * for the mode bits.
 */
TEST(graders_line)
{
	static struct lsm_record r;
	static const char * const smack[] = { "open", "/tmp/why-smack", NULL };
	static const char * const dac[] = { "dac", "/tmp/why-dac", NULL };
	char line[1024];

	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		snprintf(self, sizeof(self), "/kit/bin/why_refusals");
	if (lsm_position("smack") >= 0) {
		ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
		ASSERT_EQ(0, lsm_record_start(&r)) TH_LOG("%s", r.t.err);
		EXPECT_EQ(EACCES, child_do(smack));
		ASSERT_EQ(0, lsm_record_stop(&r)) TH_LOG("%s", r.t.err);
		ASSERT_NE(NULL, lsm_record_refused(&r, "your open()", "openat,open",
						   "landlock,smack,selinux,apparmor,toylsm",
						   line, sizeof(line)));
		EXPECT_EQ(0, strncmp(line, SMACK_REFUSED, strlen(SMACK_REFUSED)))
			TH_LOG("%s", line);
		if (lsm_position("apparmor") >= 0)
			EXPECT_NE(NULL, strstr(line, APPARMOR_ONLY))
				TH_LOG("%s", line);
		/* toylsm answers inode_permission (issue 43): after Smack, not asked there */
		if (lsm_position("toylsm") > lsm_position("smack"))
			EXPECT_NE(NULL, strstr(line, "never asked in inode_permission: toylsm"))
				TH_LOG("%s", line);
	}
	ASSERT_EQ(0, labelled("/tmp/why-dac", NULL, NULL));
	ASSERT_EQ(0, chmod("/tmp/why-dac", 0600));
	ASSERT_EQ(0, lsm_record_start(&r)) TH_LOG("%s", r.t.err);
	EXPECT_EQ(EACCES, child_do(dac));
	ASSERT_EQ(0, lsm_record_stop(&r)) TH_LOG("%s", r.t.err);
	EXPECT_EQ(NULL, lsm_record_refused(&r, "your open()", "openat,open", NULL, line,
					   sizeof(line))) TH_LOG("%s", line);
	ASSERT_NE(NULL, lsm_record_unrefused(&r, "your open()", "openat,open", line,
					     sizeof(line)));
	EXPECT_EQ(0, strncmp(line, DAC_UNREFUSED, strlen(DAC_UNREFUSED)))
		TH_LOG("%s", line);
}

/*
 * A grader records a step's child: the program's loader (policy run: a
 * sandbox of a dozen rules, an exec's PATH search) and its own reads of
 * the program's output come before the program's refused open, and the
 * recorder kept the first 64 calls with a walk and let the later go: the
 * refusal was lost once the reads (as many as two CPUs make them) pushed
 * it past 64, and lab 12 failed a step with "the trace names no module"
 * (issue 44). After 100 calls a module allowed, the refusal must still
 * be named.
 */
TEST(record_keeps_the_last_calls)
{
	static struct lsm_record r;
	static const char * const busy[] = { "busy", "/tmp/why-smack", NULL };
	char line[1024];

	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		snprintf(self, sizeof(self), "/kit/bin/why_refusals");
	if (lsm_position("smack") < 0)
		SKIP(return, "Smack is not in this boot: no refusal to lose");
	ASSERT_EQ(0, labelled("/tmp/why-busy", NULL, NULL));
	ASSERT_EQ(0, labelled("/tmp/why-smack", "security.SMACK64", "WhySecret"));
	ASSERT_EQ(0, lsm_record_start(&r)) TH_LOG("%s", r.t.err);
	EXPECT_EQ(EACCES, child_do(busy));
	ASSERT_EQ(0, lsm_record_stop(&r)) TH_LOG("%s", r.t.err);
	EXPECT_LT(100, r.ncalls);
	EXPECT_FALSE(r.calls_lost);
	ASSERT_NE(NULL, lsm_record_refused(&r, "your open()", "openat,open",
					   "landlock,smack,selinux,apparmor,toylsm", line,
					   sizeof(line))) TH_LOG("%d calls recorded", r.ncalls);
	EXPECT_EQ(0, strncmp(line, SMACK_REFUSED, strlen(SMACK_REFUSED))) TH_LOG("%s", line);
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
