// SPDX-License-Identifier: GPL-2.0
/*
 * The interface LSM: prctl(PR_LSM_ATTR_SET / PR_LSM_ATTR_GET) as the
 * series' patch 14 gives it, and the un-named interfaces that follow it: the un-named
 * /proc/self/attr/current and SO_PEERSEC. Every other prctl option must
 * work as before, whatever modules are active.
 *
 * Run as root. With "--report" (used by the exec tests) it prints the
 * interface LSM's ID and exits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/capability.h>

#include "kit/lsm_abi.h"
#include "kselftest_harness.h"

#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03	/* linux/socket.h, not in glibc 2.36 */
#endif

#ifndef PR_LSM_ATTR_SET
#define PR_LSM_ATTR_SET 65
#define PR_LSM_ATTR_GET 66
#endif

/* The modules that keep secids and so have an lsmblob slot. */
static const int slot_capable[] = {
	LSM_ID_SELINUX, LSM_ID_SMACK, LSM_ID_APPARMOR, LSM_ID_BPF,
	LSM_ID_TOYLSM,
};

static int has_slot(int id)
{
	for (size_t i = 0; i < sizeof(slot_capable) / sizeof(int); i++)
		if (slot_capable[i] == id)
			return 1;
	return 0;
}

/* The active modules with a slot, in registration order. */
static int slot_lsms(int *ids, int max)
{
	uint32_t all[64];
	size_t size = sizeof(all);
	long n = lsm_module_list(all, &size, 0);
	int k = 0;

	for (long i = 0; i < n && k < max; i++)
		if (has_slot(all[i]))
			ids[k++] = all[i];
	return k;
}

static long get_ilsm(void)
{
	return prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
}

static long set_ilsm(long id)
{
	return prctl(PR_LSM_ATTR_SET, id, 0, 0, 0);
}

/*
 * self_current - LSM @id's "current" for this task, from lsm_self_attr().
 * Returns the length, or -1 if the module reported none.
 */
static int self_current(int id, char *buf, size_t len)
{
	static char mem[8192] __attribute__((aligned(8)));
	size_t size = sizeof(mem);
	long n = lsm_self_attr((struct lsm_ctx *)mem, &size, 0);
	size_t off = 0;

	for (long i = 0; i < n; i++) {
		struct lsm_ctx *c = (struct lsm_ctx *)(mem + off);

		if ((int)c->id == id && c->flags == LSM_ATTR_CURRENT) {
			snprintf(buf, len, "%s", (char *)c->ctx);
			return (int)strlen(buf);
		}
		off += sizeof(*c) + c->ctx_len;
	}
	return -1;
}

/* The exec tests: print the interface LSM and exit. */
static int report(void)
{
	printf("%ld\n", get_ilsm());
	return 0;
}

TEST(get_returns_the_first_module_with_a_slot)
{
	int ids[8];
	int n = slot_lsms(ids, 8);
	long got = get_ilsm();

	if (n == 0) {
		ASSERT_EQ(-1, got);
		ASSERT_EQ(EINVAL, errno) TH_LOG("no module has a slot: GET must be -EINVAL");
		return;
	}
	ASSERT_EQ(ids[0], got) {
		TH_LOG("expected LSM %d (%s), got %ld (%s): the default is the first registered module with a slot",
		       ids[0], kit_lsm_name(ids[0]), got, strerror(errno));
	}
}

TEST(set_each_module_and_the_unnamed_current_follows)
{
	int ids[8];
	int n = slot_lsms(ids, 8);
	char want[256], got[256];

	if (n == 0)
		SKIP(return, "no module with a slot");
	for (int i = n - 1; i >= 0; i--) {
		ASSERT_EQ(0, set_ilsm(ids[i])) {
			TH_LOG("PR_LSM_ATTR_SET %s: %s (a module with a slot must be accepted)",
			       kit_lsm_name(ids[i]), strerror(errno));
		}
		ASSERT_EQ(ids[i], get_ilsm());
		if (self_current(ids[i], want, sizeof(want)) < 0)
			continue;
		ASSERT_LE(0, read_text("/proc/self/attr/current", got, sizeof(got)));
		EXPECT_STREQ(want, got) {
			TH_LOG("interface %s: /proc/self/attr/current must show its context",
			       kit_lsm_name(ids[i]));
		}
	}
}

TEST(bad_set_is_einval_and_changes_nothing)
{
	const long bad[] = { 0, -1, LSM_ID_CAPABILITY, LSM_ID_YAMA,
			     LSM_ID_LANDLOCK, 9999, 1L << 40 };
	int ids[8];
	int n = slot_lsms(ids, 8);
	long before = get_ilsm();

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, set_ilsm(bad[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("SET %ld: want EINVAL, got %s", bad[i],
						strerror(errno));
		EXPECT_EQ(before, get_ilsm());
	}
	if (n == 0)
		return;
	for (int a = 3; a <= 5; a++) {
		unsigned long args[6] = { 0, 0, ids[0], 0, 0, 0 };

		args[a] = 1;
		errno = 0;
		EXPECT_EQ(-1, prctl(PR_LSM_ATTR_SET, args[2], args[3], args[4], args[5]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("SET with arg%d = 1: want EINVAL", a);
	}
	errno = 0;
	EXPECT_EQ(-1, prctl(PR_LSM_ATTR_GET, 1, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("GET with arg2 = 1: want EINVAL");
	EXPECT_EQ(before, get_ilsm());
}

TEST(inherited_across_fork_and_plain_exec)
{
	int ids[8];
	int n = slot_lsms(ids, 8);
	int fds[2], status;
	char out[32] = "";
	pid_t pid;

	if (n < 2)
		SKIP(return, "needs two modules with a slot");
	ASSERT_EQ(0, set_ilsm(ids[n - 1]));
	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (get_ilsm() != ids[n - 1])
			_exit(10);
		dup2(fds[1], 1);
		execl("/proc/self/exe", "lsm_prctl", "--report", NULL);
		_exit(11);
	}
	close(fds[1]);
	ASSERT_LT(0, read(fds[0], out, sizeof(out) - 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child lost the interface LSM at fork");
	EXPECT_EQ(ids[n - 1], atol(out)) TH_LOG("after a plain exec the interface LSM is %s", out);
}

/*
 * The child of an unprivileged parent that chose an interface LSM execs
 * a copy of this program; the report says what the exec'd program sees.
 * The copy is owned by root:root with @mode; with @fcaps it also gets a
 * security.capability xattr that grants CAP_NET_BIND_SERVICE (permitted
 * and effective), so that nobody gains a capability by the exec.
 */
static long exec_as_nobody(int id, mode_t mode, int fcaps)
{
	struct vfs_cap_data caps = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
		.data[0].permitted = 1u << CAP_NET_BIND_SERVICE,
	};
	const char *copy = "/tmp/lsm_prctl_helper";
	char out[32] = "";
	int fds[2], status;
	pid_t pid;
	int in, o;
	char buf[65536];
	ssize_t r;

	unlink(copy);
	in = open("/proc/self/exe", O_RDONLY);
	o = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || o < 0)
		return -100;
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(o, buf, r) != r)
			return -101;
	close(in);
	close(o);
	if (chown(copy, 0, 0) || chmod(copy, mode) || pipe(fds))
		return -102;
	if (fcaps && setxattr(copy, "security.capability", &caps, sizeof(caps), 0))
		return -103;
	pid = fork();
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
			_exit(20);
		if (set_ilsm(id))
			_exit(21);
		dup2(fds[1], 1);
		execl(copy, "lsm_prctl_helper", "--report", NULL);
		_exit(22);
	}
	close(fds[1]);
	if (read(fds[0], out, sizeof(out) - 1) <= 0)
		out[0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	unlink(copy);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -200 - WEXITSTATUS(status);
	return atol(out);
}

TEST(reset_on_an_exec_that_gains_privilege)
{
	static const struct {
		const char *what;
		mode_t mode;
		int fcaps;
	} gains[] = {
		{ "a setuid-root program (04755)", 04755, 0 },
		{ "a setgid-root program (02755)", 02755, 0 },
		{ "a program with file capabilities (security.capability)", 0755, 1 },
	};
	int ids[8];
	int n = slot_lsms(ids, 8);
	long got;

	if (n < 2)
		SKIP(return, "needs two modules with a slot");
	got = exec_as_nobody(ids[n - 1], 0755, 0);
	ASSERT_EQ(ids[n - 1], got) TH_LOG("control: a plain exec as nobody must keep the choice (got %ld)",
					  got);
	for (size_t i = 0; i < sizeof(gains) / sizeof(gains[0]); i++) {
		got = exec_as_nobody(ids[n - 1], gains[i].mode, gains[i].fcaps);
		EXPECT_EQ(ids[0], got) {
			TH_LOG("%s exec'd by nobody sees interface LSM %ld; want the default %d (%s)",
			       gains[i].what, got, ids[0], kit_lsm_name(ids[0]));
		}
	}
}

/*
 * connected_pair - sv[0] connected to sv[1], the server's end accepted
 * from a listening AF_UNIX stream socket with an abstract address.
 */
static int connected_pair(int sv[2])
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t alen;
	int l = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "kit-prctl-%d", getpid());
	alen = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a.sun_path + 1);
	sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l < 0 || sv[0] < 0 || bind(l, (struct sockaddr *)&a, alen) ||
	    listen(l, 1) || connect(sv[0], (struct sockaddr *)&a, alen))
		return -1;
	sv[1] = accept(l, NULL, NULL);
	close(l);
	return sv[1] < 0 ? -1 : 0;
}

TEST(so_peersec_answers_for_the_interface_lsm)
{
	int ids[8];
	int n = slot_lsms(ids, 8);

	if (n == 0)
		SKIP(return, "no module with a slot");
	for (int i = 0; i < n; i++) {
		for (int connected = 0; connected <= 1; connected++) {
			const char *how = connected ? "a connected pair" : "a socketpair";
			char want[256], got[256] = "";
			socklen_t len = sizeof(got);
			int sv[2], rc;

			ASSERT_EQ(0, set_ilsm(ids[i]));
			if (connected) {
				ASSERT_EQ(0, connected_pair(sv)) TH_LOG("%s: %s", how,
									strerror(errno));
			} else {
				ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
			}
			rc = getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, got, &len);
			close(sv[0]);
			close(sv[1]);
			if (rc && errno == ENOPROTOOPT) {
				/* Only modules that label unix sockets answer. */
				EXPECT_NE(LSM_ID_SMACK, ids[i]);
				EXPECT_NE(LSM_ID_TOYLSM, ids[i]);
				TH_LOG("%s: no SO_PEERSEC for %s", kit_lsm_name(ids[i]), how);
				continue;
			}
			ASSERT_EQ(0, rc) TH_LOG("%s: SO_PEERSEC on %s: %s", kit_lsm_name(ids[i]),
						how, strerror(errno));
			ASSERT_LE(0, self_current(ids[i], want, sizeof(want)));
			EXPECT_STREQ(want, got) {
				TH_LOG("interface %s, %s: SO_PEERSEC must be its context of the peer (this task)",
				       kit_lsm_name(ids[i]), how);
			}
		}
	}
}

/* SCM_SECURITY of a datagram from this task, or "" if none came. */
static int scm_security(char *ctx, size_t len)
{
	char data = 'x', cbuf[512];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	int one = 1, sv[2], rc = -1;

	ctx[0] = '\0';
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return -1;
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)) == 0 &&
	    send(sv[0], &data, 1, 0) == 1 && recvmsg(sv[1], &m, 0) == 1) {
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_SECURITY)
				snprintf(ctx, len, "%.*s",
					 (int)(c->cmsg_len - CMSG_LEN(0)), (char *)CMSG_DATA(c));
		rc = 0;
	}
	close(sv[0]);
	close(sv[1]);
	return rc;
}

TEST(scm_security_follows_the_interface_lsm)
{
	int ids[8];
	int n = slot_lsms(ids, 8);

	if (n == 0)
		SKIP(return, "no module with a slot");
	for (int i = 0; i < n; i++) {
		char want[256], got[256];

		ASSERT_EQ(0, set_ilsm(ids[i]));
		ASSERT_EQ(0, scm_security(got, sizeof(got))) TH_LOG("a datagram with SO_PASSSEC: %s",
								    strerror(errno));
		if (!got[0]) {
			/* Only modules that label unix datagrams answer. */
			EXPECT_NE(LSM_ID_SMACK, ids[i]);
			EXPECT_NE(LSM_ID_TOYLSM, ids[i]);
			TH_LOG("%s: no SCM_SECURITY for a unix datagram", kit_lsm_name(ids[i]));
			continue;
		}
		ASSERT_LE(0, self_current(ids[i], want, sizeof(want)));
		EXPECT_STREQ(want, got) {
			TH_LOG("interface %s: SCM_SECURITY must be its context of the sender (this task)",
			       kit_lsm_name(ids[i]));
		}
	}
}

TEST(other_prctl_options_work_as_before)
{
	char name[16] = "";

	ASSERT_EQ(0, prctl(PR_SET_NAME, "kit-prctl", 0, 0, 0)) {
		TH_LOG("PR_SET_NAME: %s (an LSM must not break other options)", strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_GET_NAME, name, 0, 0, 0));
	EXPECT_STREQ("kit-prctl", name);
	EXPECT_EQ(1, prctl(PR_CAPBSET_READ, 21 /* CAP_SYS_ADMIN */, 0, 0, 0));
	EXPECT_EQ(0, prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	EXPECT_EQ(1, prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	errno = 0;
	EXPECT_EQ(-1, prctl(0x7fff, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno) TH_LOG("an unknown option must still be EINVAL");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--report"))
		return report();
	return test_harness_run(argc, argv);
}
