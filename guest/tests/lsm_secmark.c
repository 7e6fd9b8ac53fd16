// SPDX-License-Identifier: GPL-2.0
/*
 * Which module owns skb->secmark, the conntrack secmark and NetLabel's
 * secids (patch 0015, lsm_secmark_assign()): the boot log names it, and
 * names each module that asked for them and did not get them, whose
 * secmark rules therefore do not apply. SELinux, Smack and AppArmor ask;
 * the exclusive one of SELinux and Smack wins, else AppArmor. The
 * expected owner is computed from this boot's active modules
 * (/sys/kernel/security/lsm), so the test runs on any stack.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "kit/kernel_log.h"
#include "kselftest_harness.h"

/* Is NAME in the comma-separated list of active modules? */
static int active(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') &&
		    (p[len] == ',' || p[len] == '\0' || p[len] == '\n'))
			return 1;
		p += len;
	}
	return 0;
}

TEST(the_boot_log_names_the_secmark_owner_and_the_losers)
{
	char list[512] = "", want[128], lost[128];
	const char *owner = NULL;
	FILE *f = fopen("/sys/kernel/security/lsm", "r");
	const char *log;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(list, sizeof(list), f));
	fclose(f);
	if (active(list, "smack"))
		owner = "smack";
	else if (active(list, "selinux"))
		owner = "selinux";
	else if (active(list, "apparmor"))
		owner = "apparmor";

	log = kernel_log();
	ASSERT_NE(NULL, log) TH_LOG("klogctl: %s", strerror(errno));
	if (!strstr(log, "LSM: Security Framework initializing"))
		SKIP(return, "the log no longer holds the LSM lines of the boot");
	if (owner) {
		snprintf(want, sizeof(want),
			 "LSM: skb->secmark and NetLabel secids belong to %s\n", owner);
		EXPECT_EQ(1, kernel_log_count(want))
			TH_LOG("active: %s; no line \"%.*s\"", list,
			       (int)strlen(want) - 1, want);
	}
	EXPECT_EQ(owner ? 1 : 0,
		  kernel_log_count("LSM: skb->secmark and NetLabel secids belong to "))
		TH_LOG("active: %s; expected owner: %s", list, owner ? owner : "none");
	if (owner && strcmp(owner, "apparmor") && active(list, "apparmor")) {
		snprintf(lost, sizeof(lost),
			 "LSM: apparmor: its secmark rules do not apply: the secmark is %s's\n",
			 owner);
		EXPECT_EQ(1, kernel_log_count(lost))
			TH_LOG("active: %s; no line \"%.*s\"", list,
			       (int)strlen(lost) - 1, lost);
	} else {
		EXPECT_EQ(0, kernel_log_count("its secmark rules do not apply"))
			TH_LOG("active: %s: no module lost the secmark", list);
	}
}

TEST_HARNESS_MAIN
