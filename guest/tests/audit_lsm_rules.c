// SPDX-License-Identifier: GPL-2.0
/*
 * Audit rules on LSM fields, one per lsmblob slot (patch 0011): a rule
 * on a field is judged by the module that knows the field, on that
 * module's own label of the task. Each case adds an AUDIT_FILTER_USER
 * "never" rule on one field, sends a user message that the rule should
 * or should not drop, then an unfiltered marker message, and reads the
 * audit multicast group (AUDIT_NLGRP_READLOG) up to the marker.
 *
 * Run as root; needs CONFIG_AUDIT.
 */
#define _GNU_SOURCE
#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <time.h>

#include "audit_lib.h"
#include "kit/lsm_abi.h"
#include "kselftest_harness.h"

#define MARKER_TYPE AUDIT_FIRST_USER_MSG	/* 1100, not filtered by the rules */

/* Add (or delete) a FILTER_USER "never" rule: MSGTYPE == AUDIT_USER && field op value. */
static int user_rule(int fd, int add, int field, unsigned int op, const char *value)
{
	size_t vlen = strlen(value);
	size_t len = sizeof(struct audit_rule_data) + vlen;
	struct audit_rule_data *r = calloc(1, len);
	int err;

	r->flags = AUDIT_FILTER_USER;
	r->action = AUDIT_NEVER;
	memset(r->mask, 0xff, sizeof(r->mask));
	r->field_count = 2;
	r->fields[0] = AUDIT_MSGTYPE;
	r->fieldflags[0] = AUDIT_EQUAL;
	r->values[0] = AUDIT_USER;
	r->fields[1] = field;
	r->fieldflags[1] = op;
	r->values[1] = vlen;
	r->buflen = vlen;
	memcpy(r->buf, value, vlen);
	err = audit_request(fd, add ? AUDIT_ADD_RULE : AUDIT_DEL_RULE, r, len);
	free(r);
	return err;
}

/*
 * Send an AUDIT_USER message and a marker; return 1 if the first reached
 * the log, 0 if it was dropped, -1 if the marker never came.
 */
static int user_message_logged(int fd, int log)
{
	static char buf[8192] __attribute__((aligned(8)));
	char text[64], marker[64];
	struct timespec t0;
	int seen = 0;

	snprintf(text, sizeof(text), "kit-audit-%d-%ld", getpid(), random());
	snprintf(marker, sizeof(marker), "kit-marker-%d-%ld", getpid(), random());
	if (audit_request(fd, AUDIT_USER, text, strlen(text) + 1) ||
	    audit_request(fd, MARKER_TYPE, marker, strlen(marker) + 1))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t n = audit_next(log, buf, sizeof(buf), &t0);

		if (n < 0)
			return -1;
		if (memmem(buf, n, text, strlen(text)))
			seen = 1;
		if (memmem(buf, n, marker, strlen(marker)))
			return seen;
	}
}

FIXTURE(audit) {
	int fd, log;
	char smack[256], apparmor[256];
};

FIXTURE_SETUP(audit)
{
	struct audit_status s = { .mask = AUDIT_STATUS_ENABLED, .enabled = 1 };

	self->fd = audit_fd(0);
	ASSERT_LE(0, self->fd) TH_LOG("NETLINK_AUDIT: %s (is CONFIG_AUDIT on?)", strerror(errno));
	self->log = audit_fd(1 << (AUDIT_NLGRP_READLOG - 1));
	ASSERT_LE(0, self->log) TH_LOG("audit multicast group: %s", strerror(errno));
	ASSERT_EQ(0, audit_request(self->fd, AUDIT_SET, &s, sizeof(s)));
	if (read_text("/proc/self/attr/smack/current", self->smack, sizeof(self->smack)) <= 0)
		self->smack[0] = '\0';
	if (read_text("/proc/self/attr/apparmor/current", self->apparmor,
		      sizeof(self->apparmor)) <= 0)
		self->apparmor[0] = '\0';
	srandom(getpid());
}

FIXTURE_TEARDOWN(audit)
{
	close(self->fd);
	close(self->log);
}

/* One case: the rule is added, the message dropped or not, the rule removed. */
static void rule_case(struct __test_metadata *_metadata, int fd, int log,
		      int field, unsigned int op, const char *value, int dropped)
{
	int err = user_rule(fd, 1, field, op, value);
	int logged;

	ASSERT_EQ(0, err) TH_LOG("adding the rule (field %d \"%s\"): %s", field, value,
				 strerror(-err));
	logged = user_message_logged(fd, log);
	EXPECT_EQ(0, user_rule(fd, 0, field, op, value));
	ASSERT_NE(-1, logged) TH_LOG("the marker message never reached the audit log");
	EXPECT_EQ(!dropped, logged) {
		TH_LOG("rule field %d %s \"%s\": the message was %s; want %s", field,
		       op == AUDIT_EQUAL ? "==" : "!=", value, logged ? "logged" : "dropped",
		       dropped ? "dropped (the module that owns the field says it matches)" :
				 "logged (no module that owns the field says it matches)");
	}
}

TEST_F(audit, smack_judges_subj_user)
{
	if (!self->smack[0])
		SKIP(return, "Smack is not active");
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_USER, AUDIT_EQUAL, self->smack, 1);
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_USER, AUDIT_NOT_EQUAL, self->smack, 0);
	/* AppArmor's label is not Smack's: Smack says no. */
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_USER, AUDIT_EQUAL, "unconfined", 0);
}

TEST_F(audit, apparmor_judges_subj_role)
{
	if (!self->apparmor[0])
		SKIP(return, "AppArmor is not active");
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_ROLE, AUDIT_EQUAL, self->apparmor, 1);
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_ROLE, AUDIT_NOT_EQUAL, self->apparmor,
		  0);
}

/*
 * A field no active module knows is kept (audit keeps rules that a later
 * policy may make valid, and logs "audit rule for LSM ... is invalid"),
 * and audit_filter() then skips the field: the rule is decided by its
 * other fields, here MSGTYPE, so the message is dropped. That is 6.1's
 * own behaviour, unchanged by the series; the test pins it down so that
 * a change to it is seen.
 */
TEST_F(audit, a_field_no_module_knows_is_skipped)
{
	if (access("/sys/fs/selinux", F_OK) == 0)
		SKIP(return, "SELinux knows every field");
	rule_case(_metadata, self->fd, self->log, AUDIT_SUBJ_TYPE, AUDIT_EQUAL, "kit_t", 1);
}

TEST_HARNESS_MAIN
