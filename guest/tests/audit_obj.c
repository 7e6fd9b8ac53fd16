// SPDX-License-Identifier: GPL-2.0
/*
 * What an audit record says about an object's label when several modules
 * label objects (patch 0013): a PATH record's obj= field speaks for the
 * default module (the first with an lsmblob slot), as its subj= does. When
 * that module keeps no label for the file (AppArmor and toylsm label no
 * inodes) the record has no obj= field, as the same record has with that
 * module alone; it never holds an osid=N that no module can read, and the
 * kernel never reports "error in audit_log_exit()" for it.
 *
 * Since patch 0019, a stack with more than one module that supplies
 * object contexts writes obj=? instead, and the AUDIT_MAC_OBJ_CONTEXTS
 * record after the PATH record names each module's label of the file
 * (audit_contexts checks those records); this test then checks that the
 * label modules' obj_<lsm>= is there and that no osid= is.
 *
 * The test adds an exit rule for openat(2) by its own children, creates a
 * file in /tmp from a child, and reads the PATH records of that event from
 * the audit multicast group. Run as root; needs CONFIG_AUDITSYSCALL.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>

#include "audit_lib.h"
#include "kit/kernel_log.h"
#include "kit/lsm_abi.h"
#include "kselftest_harness.h"

/* AUDIT_MAC_OBJ_CONTEXTS, mainline 6.18's number (patch 0019) */
#define KIT_MAC_OBJ_CONTEXTS 1426

#ifndef PR_LSM_ATTR_GET
#define PR_LSM_ATTR_GET 66
#endif

/* An exit rule: openat(2), x86_64, by a child of @ppid; always log. */
static int openat_rule(int fd, int add, pid_t ppid)
{
	static const int nrs[] = { __NR_openat };

	return audit_exit_rule(fd, add, ppid, nrs, 1);
}

/*
 * Read records until the EOE of the event that names @path; append the
 * text of its PATH records to @out. Return how many there were, or -1 if
 * the event did not come within 10 s.
 */
static int path_records(int log, const char *path, char *out, size_t outlen)
{
	static char buf[8192] __attribute__((aligned(8)));
	char serial[64] = "";
	struct timespec t0;
	int n_path = 0;

	out[0] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		ssize_t n = audit_next(log, buf, sizeof(buf), &t0);
		char *text, *colon;

		if (n < 0)
			return -1;
		if (n <= (ssize_t)NLMSG_HDRLEN)
			continue;
		text = NLMSG_DATA(nlh);
		/* "audit(1234.567:89): ..." : the event's serial ends at ')' */
		colon = strstr(text, "): ");
		if (!colon)
			continue;
		if (!serial[0] && nlh->nlmsg_type == AUDIT_PATH && strstr(text, path))
			snprintf(serial, sizeof(serial), "%.*s", (int)(colon - text), text);
		if (!serial[0] || strncmp(text, serial, strlen(serial)))
			continue;
		if (nlh->nlmsg_type == AUDIT_EOE)
			return n_path;
		if (nlh->nlmsg_type == AUDIT_PATH) {
			n_path++;
			snprintf(out + strlen(out), outlen - strlen(out), "%s\n", colon + 3);
		}
		if (nlh->nlmsg_type == KIT_MAC_OBJ_CONTEXTS)
			snprintf(out + strlen(out), outlen - strlen(out), "%s\n", colon + 3);
	}
}

/*
 * The default module's verdict on files: SELinux and Smack keep a secid
 * for every inode; AppArmor and toylsm keep none.
 */
static int default_labels_files(long id)
{
	return id == LSM_ID_SELINUX || id == LSM_ID_SMACK;
}

TEST(path_record_obj_speaks_for_the_default_module)
{
	struct audit_status s = { .mask = AUDIT_STATUS_ENABLED, .enabled = 1 };
	char path[64], records[4096];
	long def = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	int fd, log, err, n, status;
	pid_t pid;

	ASSERT_LT(0, def) TH_LOG("PR_LSM_ATTR_GET: %s (no module with a slot?)", strerror(errno));
	fd = audit_fd(0);
	ASSERT_LE(0, fd) TH_LOG("NETLINK_AUDIT: %s (is CONFIG_AUDIT on?)", strerror(errno));
	log = audit_fd(1 << (AUDIT_NLGRP_READLOG - 1));
	ASSERT_LE(0, log) TH_LOG("audit multicast group: %s", strerror(errno));
	ASSERT_EQ(0, audit_request(fd, AUDIT_SET, &s, sizeof(s)));
	err = openat_rule(fd, 1, getpid());
	ASSERT_EQ(0, err) TH_LOG("adding the openat exit rule: %s", strerror(-err));
	ASSERT_EQ(0, kernel_log_count("error in audit_log_exit()")) TH_LOG("the error was logged before the test");

	snprintf(path, sizeof(path), "/tmp/kit-audit-obj-%d", getpid());
	unlink(path);
	/* A child forked now that audit is on has an audit context. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int f = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

		_exit(f < 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	n = path_records(log, path, records, sizeof(records));
	EXPECT_EQ(0, openat_rule(fd, 0, getpid()));
	unlink(path);
	close(log);
	close(fd);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("the child could not create %s", path);
	ASSERT_LT(0, n) TH_LOG("no PATH record of the openat() came within 10 s");
	TH_LOG("default module %s; the event's PATH records:\n%s", kit_lsm_name(def), records);
	EXPECT_EQ(NULL, strstr(records, "osid=")) {
		TH_LOG("a PATH record holds a raw secid that the default module (%s) cannot read",
		       kit_lsm_name(def));
	}
	if (strstr(records, " obj=? ")) {
		/* several modules supply object contexts: each is named */
		EXPECT_TRUE(strstr(records, "obj_smack=") || strstr(records, "obj_selinux="))
			TH_LOG("obj=? but no MAC_OBJ_CONTEXTS record names a label module");
	} else if (default_labels_files(def)) {
		EXPECT_NE(NULL, strstr(records, " obj="))
			TH_LOG("%s labels files: the PATH records must name the label",
			       kit_lsm_name(def));
	} else {
		EXPECT_EQ(NULL, strstr(records, " obj="))
			TH_LOG("%s labels no file: the PATH records must have no obj=",
			       kit_lsm_name(def));
	}
	EXPECT_EQ(0, kernel_log_count("error in audit_log_exit()")) {
		TH_LOG("the kernel logged \"audit: error in audit_log_exit()\" (with failure=2 a panic)");
	}
}

TEST_HARNESS_MAIN
