// SPDX-License-Identifier: GPL-2.0
/*
 * Every module's context in audit records (patch 0019, as mainline 6.18):
 * when more than one active module supplies subject contexts, a record's
 * subj= says "?" and an AUDIT_MAC_TASK_CONTEXTS record of the same event
 * names each module's, subj_<lsm>=<context>; the same for objects, obj=?
 * and AUDIT_MAC_OBJ_CONTEXTS with obj_<lsm>=. With one such module the
 * records are as they were: subj=<context>, obj=<context>, no aux record.
 *
 * The test is the audit daemon (AUDIT_SET pid: records come to its
 * socket, no auditd), adds an exit rule for openat(2) and kill(2) by its
 * own children and has each module that can refuse here refuse one:
 * Smack a file labelled for it (security.SMACK64) and a signal to a task
 * of another label, toylsm a file labelled for it (security.toylsm). Each
 * child drops every capability first (root's would pass Smack). The
 * records of each event are then checked against the modules that are
 * active: every module that keeps secids names the refusing task
 * (MAC_TASK_CONTEXTS), the file's label modules name the file and every
 * such module names the signalled task (MAC_OBJ_CONTEXTS).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>

#include "audit_lib.h"
#include "guest_lib.h"
#include "kit/caps.h"
#include "kselftest_harness.h"

/* The record types of mainline 6.18 (include/uapi/linux/audit.h) */
#define KIT_MAC_TASK_CONTEXTS 1425
#define KIT_MAC_OBJ_CONTEXTS 1426

#define MAX_RECORDS 512

struct record {
	int type;
	char serial[48];	/* "audit(T:N)" */
	char text[1024];	/* after "): " */
};

static struct record records[MAX_RECORDS];
static int nrecords;

/* ---- the audit socket (audit_lib.h) ---- */

static int set_daemon(int fd, int on)
{
	struct audit_status s = {
		.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID,
		.enabled = 1,
		.pid = on ? (__u32)getpid() : 0,
	};

	return audit_request(fd, AUDIT_SET, &s, sizeof(s));
}

/* An exit rule: openat(2) and kill(2), x86_64, by a child of @ppid. */
static int exit_rule(int fd, int add, pid_t ppid)
{
	static const int nrs[] = { __NR_openat, __NR_kill };

	return audit_exit_rule(fd, add, ppid, nrs, 2);
}

/* Read records from @fd until none came for 1 s (at most 10 s). */
static void collect(int fd)
{
	static char buf[16384] __attribute__((aligned(8)));
	static char line[sizeof(records[0].text)];
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10 || poll(&p, 1, 1000) <= 0)
			return;
		n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n <= 0)
			continue;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			const char *text = NLMSG_DATA(nlh), *end;
			/* kauditd's nlmsg_len is short (kauditd_send_multicast_skb) */
			size_t len = n - NLMSG_HDRLEN;
			struct record *r;

			if (nlh->nlmsg_type < 1100 || nrecords == MAX_RECORDS)
				break;
			r = &records[nrecords];
			snprintf(line, sizeof(line), "%.*s", (int)len, text);
			end = strstr(line, "): ");
			if (!end)
				break;
			snprintf(r->serial, sizeof(r->serial), "%.*s",
				 (int)(end - line + 1), line);
			snprintf(r->text, sizeof(r->text), "%s", end + 3);
			r->type = nlh->nlmsg_type;
			nrecords++;
			/* one record per datagram: the length is not reliable */
			break;
		}
	}
}

/* ---- the refusing children ---- */

/* A child that opens @path without capabilities: its errno, or 0. */
static int child_open(const char *path)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd;

		if (drop_all_caps())
			_exit(101);
		fd = open(path, O_RDONLY);
		_exit(fd < 0 ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* A child that sends SIGUSR1 to @target as Smack label @label. */
static int child_kill(pid_t target, const char *label)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open("/proc/self/attr/smack/current", O_WRONLY);

		if (label && (fd < 0 || write(fd, label, strlen(label)) < 0))
			_exit(102);
		if (drop_all_caps())
			_exit(101);
		_exit(kill(target, SIGUSR1) ? errno : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int labelled(const char *path, const char *xattr, const char *label)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return setxattr(path, xattr, label, strlen(label), 0);
}

/* ---- what the records must say ---- */

/* The modules that keep secids: each names subjects and objects. */
static const char *const secid_lsms[] = { "selinux", "smack", "apparmor", "toylsm" };
/* Those that keep one for every file */
static const char *const file_lsms[] = { "selinux", "smack" };
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int count_active(const char *const *lsms, int n)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += lsm_position(lsms[i]) >= 0;
	return c;
}

/* The index of the first record of type @type whose text has @s, or -1 */
static int find(int type, const char *s)
{
	int i;

	for (i = 0; i < nrecords; i++)
		if (records[i].type == type && strstr(records[i].text, s))
			return i;
	return -1;
}

/* The record after @i of the same event, or -1 */
static int next_of_event(int i)
{
	int j;

	for (j = i + 1; j < nrecords; j++)
		if (!strcmp(records[j].serial, records[i].serial))
			return j;
	return -1;
}

/* How many records of @type the event of record @i has */
static int count_in_event(int i, int type)
{
	int j, c = 0;

	for (j = 0; j < nrecords; j++)
		c += records[j].type == type &&
		     !strcmp(records[j].serial, records[i].serial);
	return c;
}

/* The first record of @type in the event of record @i, or -1 */
static int event_record(int i, int type)
{
	int j;

	for (j = 0; j < nrecords; j++)
		if (records[j].type == type &&
		    !strcmp(records[j].serial, records[i].serial))
			return j;
	return -1;
}

static void dump_event(struct __test_metadata *_metadata, int i)
{
	int j;

	for (j = 0; j < nrecords; j++)
		if (!strcmp(records[j].serial, records[i].serial))
			TH_LOG("  type=%d %s %s", records[j].type,
			       records[j].serial, records[j].text);
}

/* Has @text the field @prefix<lsm>= for each active module of @lsms? */
static int names_each(struct __test_metadata *_metadata, const char *text,
		      const char *prefix, const char *const *lsms, int n)
{
	char field[40];
	int i, ok = 1;

	for (i = 0; i < n; i++) {
		if (lsm_position(lsms[i]) < 0)
			continue;
		snprintf(field, sizeof(field), "%s%s=", prefix, lsms[i]);
		if (!strstr(text, field)) {
			TH_LOG("no %s... in \"%s\"", field, text);
			ok = 0;
		}
	}
	return ok;
}

/*
 * The subject of the event of record @i: subj=? and one MAC_TASK_CONTEXTS
 * record naming every secid-keeping module, or with one such module
 * subj=<context> and no such record.
 */
static void check_subject(struct __test_metadata *_metadata, int i)
{
	int sc = event_record(i, AUDIT_SYSCALL);
	int multi = count_active(secid_lsms, N(secid_lsms)) > 1;
	int aux = event_record(i, KIT_MAC_TASK_CONTEXTS);

	ASSERT_LE(0, sc) TH_LOG("the event has no SYSCALL record");
	if (multi) {
		EXPECT_NE(NULL, strstr(records[sc].text, " subj=? "))
			TH_LOG("SYSCALL: %s", records[sc].text);
		EXPECT_EQ(1, count_in_event(i, KIT_MAC_TASK_CONTEXTS));
		ASSERT_LE(0, aux) dump_event(_metadata, i);
		EXPECT_TRUE(names_each(_metadata, records[aux].text, "subj_",
				       secid_lsms, N(secid_lsms)));
		/* the aux record follows the record it completes */
		EXPECT_EQ(aux, next_of_event(sc)) dump_event(_metadata, i);
	} else {
		EXPECT_EQ(NULL, strstr(records[sc].text, "subj=?"))
			TH_LOG("SYSCALL: %s", records[sc].text);
		EXPECT_NE(NULL, strstr(records[sc].text, " subj="))
			TH_LOG("SYSCALL: %s", records[sc].text);
		EXPECT_EQ(-1, aux) dump_event(_metadata, i);
	}
}

/*
 * The file's PATH record @p: obj=? and a MAC_OBJ_CONTEXTS record right
 * after it naming the modules that label files, or with one module that
 * supplies object contexts obj=<context> and no such record.
 */
static void check_file(struct __test_metadata *_metadata, int p, const char *label)
{
	int multi = count_active(secid_lsms, N(secid_lsms)) > 1;
	int aux = next_of_event(p);
	char field[80];

	if (multi) {
		EXPECT_NE(NULL, strstr(records[p].text, " obj=? "))
			TH_LOG("PATH: %s", records[p].text);
		ASSERT_LE(0, aux) dump_event(_metadata, p);
		EXPECT_EQ(KIT_MAC_OBJ_CONTEXTS, records[aux].type) dump_event(_metadata, p);
		EXPECT_TRUE(names_each(_metadata, records[aux].text, "obj_",
				       file_lsms, N(file_lsms)));
		if (label && lsm_position("smack") >= 0) {
			snprintf(field, sizeof(field), "obj_smack=%s", label);
			EXPECT_NE(NULL, strstr(records[aux].text, field))
				dump_event(_metadata, p);
		}
	} else {
		EXPECT_EQ(NULL, strstr(records[p].text, "obj=?"))
			TH_LOG("PATH: %s", records[p].text);
		if (count_active(file_lsms, N(file_lsms)))
			EXPECT_NE(NULL, strstr(records[p].text, " obj="))
				TH_LOG("PATH: %s", records[p].text);
		if (label && lsm_position("smack") >= 0) {
			snprintf(field, sizeof(field), " obj=%s ", label);
			EXPECT_NE(NULL, strstr(records[p].text, field))
				TH_LOG("PATH: %s", records[p].text);
		}
		EXPECT_EQ(0, count_in_event(p, KIT_MAC_OBJ_CONTEXTS))
			dump_event(_metadata, p);
	}
}

FIXTURE(audit) {
	int fd;
	char path[64];
};

FIXTURE_SETUP(audit)
{
	int err;

	self->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	ASSERT_LE(0, self->fd) TH_LOG("NETLINK_AUDIT: %s", strerror(errno));
	ASSERT_EQ(0, set_daemon(self->fd, 1));
	err = exit_rule(self->fd, 1, getpid());
	ASSERT_EQ(0, err) TH_LOG("adding the exit rule: %s", strerror(-err));
	nrecords = 0;
	self->path[0] = '\0';
}

FIXTURE_TEARDOWN(audit)
{
	exit_rule(self->fd, 0, getpid());
	set_daemon(self->fd, 0);
	close(self->fd);
	if (self->path[0])
		unlink(self->path);
}

/*
 * A module that refuses a child without capabilities to open a file whose
 * @xattr is @label; @name is its name in the skip's reason, @smack_label
 * the Smack label the file's records must give (check_file()), or NULL.
 */
struct file_refusal {
	const char *lsm, *name, *xattr, *label, *smack_label;
};

/* @r's refusal of a file at @path (@size bytes), its records read from @fd */
static void refuses_a_file(struct __test_metadata *_metadata, int fd, char *path,
			   size_t size, const struct file_refusal *r)
{
	int p;

	if (lsm_position(r->lsm) < 0)
		SKIP(return, "%s is not active in this boot", r->name);
	snprintf(path, size, "/tmp/kit-ctx-%s-%d", r->lsm, getpid());
	ASSERT_EQ(0, labelled(path, r->xattr, r->label));
	ASSERT_EQ(EACCES, child_open(path));
	collect(fd);
	p = find(AUDIT_PATH, path);
	ASSERT_LE(0, p) TH_LOG("no PATH record of %s among %d records", path, nrecords);
	dump_event(_metadata, p);
	check_subject(_metadata, p);
	check_file(_metadata, p, r->smack_label);
}

/* Smack refuses to open a file of another label */
TEST_F(audit, smack_refuses_a_file)
{
	static const struct file_refusal smack = {
		"smack", "Smack", "security.SMACK64", "KitCtxSecret", "KitCtxSecret"
	};

	refuses_a_file(_metadata, self->fd, self->path, sizeof(self->path), &smack);
}

/* toylsm refuses to open a file labelled for it */
TEST_F(audit, toylsm_refuses_a_file)
{
	static const struct file_refusal toylsm = {
		"toylsm", "toylsm", "security.toylsm", "kitctxsecret", NULL
	};

	refuses_a_file(_metadata, self->fd, self->path, sizeof(self->path), &toylsm);
}

/*
 * A signal to a task: its OBJ_PID record names the target. Smack refuses
 * it from a task of another label; elsewhere it is delivered (ignored).
 */
TEST_F(audit, signal_names_the_target)
{
	int multi = count_active(secid_lsms, N(secid_lsms)) > 1;
	int smack = lsm_position("smack") >= 0;
	char opid[32];
	int o, aux, err;
	pid_t target;

	signal(SIGUSR1, SIG_IGN);
	target = fork();
	ASSERT_LE(0, target);
	if (target == 0) {
		pause();
		_exit(0);
	}
	err = child_kill(target, smack ? "KitCtxSender" : NULL);
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	EXPECT_EQ(smack ? EACCES : 0, err);
	collect(self->fd);
	snprintf(opid, sizeof(opid), "opid=%d ", target);
	o = find(AUDIT_OBJ_PID, opid);
	ASSERT_LE(0, o) TH_LOG("no OBJ_PID record of %d among %d records", target, nrecords);
	dump_event(_metadata, o);
	check_subject(_metadata, o);
	if (smack) {
		int sc = event_record(o, AUDIT_SYSCALL);

		ASSERT_LE(0, sc);
		if (multi) {
			aux = event_record(o, KIT_MAC_TASK_CONTEXTS);
			ASSERT_LE(0, aux);
			EXPECT_NE(NULL, strstr(records[aux].text, "subj_smack=KitCtxSender"));
		} else {
			EXPECT_NE(NULL, strstr(records[sc].text, " subj=KitCtxSender "));
		}
	}
	aux = next_of_event(o);
	if (multi) {
		EXPECT_NE(NULL, strstr(records[o].text, " obj=? "))
			TH_LOG("OBJ_PID: %s", records[o].text);
		ASSERT_LE(0, aux);
		EXPECT_EQ(KIT_MAC_OBJ_CONTEXTS, records[aux].type);
		/* every module that keeps secids has one for the target */
		EXPECT_TRUE(names_each(_metadata, records[aux].text, "obj_",
				       secid_lsms, N(secid_lsms)));
	} else {
		EXPECT_EQ(NULL, strstr(records[o].text, "obj=?"));
		EXPECT_NE(NULL, strstr(records[o].text, " obj="))
			TH_LOG("OBJ_PID: %s", records[o].text);
		EXPECT_EQ(0, count_in_event(o, KIT_MAC_OBJ_CONTEXTS));
	}
}

TEST_HARNESS_MAIN
