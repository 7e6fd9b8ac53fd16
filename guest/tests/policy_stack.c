// SPDX-License-Identifier: GPL-2.0
/*
 * The policy set "stack" (configs/policy/stack) enforcing in one boot:
 * /bin/probe, run by `policy run stack`, reads six files; each secret is
 * refused by exactly one module (AppArmor's profile, Smack's rule,
 * SELinux's policy, toylsm's rule, Landlock's ruleset) when that module is
 * in the boot and allowed otherwise, /tmp/kit/public by all. Each refusal
 * is attributed by /bin/why to its module and hook, and the module's own
 * audit record is in the kernel log. Before the set is loaded, the same
 * checks must fail: no module refuses anything (the checks can fail).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "kit/kernel_log.h"

struct guard {
	const char *lsm, *file, *hook, *record;
};

static const struct guard guards[] = {
	{
		"apparmor", "apparmor-secret", "file_open",
		"apparmor=\"DENIED\" operation=\"open\" profile=\"probe\" name=\"/tmp/kit/apparmor-secret\"",
	},
	{
		"smack", "smack-secret", "inode_permission",
		"subject=\"Probe\" object=\"SmackSecret\" requested=r",
	},
	{
		"selinux", "selinux-secret", "inode_permission",
		"scontext=system_u:system_r:probe_t tcontext=system_u:object_r:secret_t tclass=file",
	},
	{
		"toylsm", "toylsm-secret", "file_open",
		"toylsm=denied hook=file_open subject=\"probe\" object=\"toysecret\"",
	},
	{ "landlock", "landlock-secret", "file_open", NULL },
};

/* NULL if @g's file is refused by exactly its module, else what is wrong */
static const char *check(const struct guard *g, char *why, size_t len)
{
	char cmd[256], want[128];
	int st;

	snprintf(cmd, sizeof(cmd), "policy run stack probe read /tmp/kit/%s 2>&1", g->file);
	st = run(cmd);
	if (!lsm_active(g->lsm))
		return st == 0 ? NULL : "refused, though its module is not in this boot";
	if (st != 13)
		return "not refused with EACCES";
	/* The record comes from the audit thread: wait up to a second. */
	for (int i = 0; g->record && i < 50 && kernel_log_count(g->record) < 1; i++)
		usleep(20000);
	if (g->record && kernel_log_count(g->record) < 1)
		return "no audit record of the module";
	snprintf(cmd, sizeof(cmd), "why -s openat policy run stack probe read /tmp/kit/%s 2>&1",
		 g->file);
	run(cmd);
	snprintf(why, len, "%s", out);
	snprintf(want, sizeof(want), "=> refused by %s in %s: EACCES", g->lsm, g->hook);
	if (!strstr(out, want))
		return "why does not name the module and hook";
	return NULL;
}

TEST(stack_decides)
{
	static char why[1 << 16];
	const char *err;
	size_t i;

	/* Every audit record in the log (no printk limit: kernel_log.h). */
	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, system("policy load stack files >/dev/null"));
	/* Before the policies: every module that is in the boot is wrong. */
	for (i = 0; i < sizeof(guards) / sizeof(guards[0]); i++) {
		if (!lsm_active(guards[i].lsm) || !strcmp(guards[i].lsm, "landlock"))
			continue;
		err = check(&guards[i], why, sizeof(why));
		EXPECT_NE(NULL, err) TH_LOG("%s: the check passed without the policy",
					    guards[i].lsm);
		if (err)
			TH_LOG("without the policy, %s's check fails: %s", guards[i].lsm, err);
	}
	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("%s", out);
	TH_LOG("%s", out);
	for (i = 0; i < sizeof(guards) / sizeof(guards[0]); i++) {
		err = check(&guards[i], why, sizeof(why));
		EXPECT_EQ(NULL, err) TH_LOG("%s (%s): %s\n%s\n%s", guards[i].lsm, guards[i].file,
					    err, out, why);
	}
	EXPECT_EQ(0, run("policy run stack probe read /tmp/kit/public write /tmp/kit/public 2>&1"))
		TH_LOG("%s", out);
}

#define AA_ALLOWED "apparmor=\"ALLOWED\" operation=\"open\" profile=\"probe\" name=\"/tmp/kit/apparmor-secret\""

TEST(apparmor_complain)
{
	static const char allowed[] = AA_ALLOWED;

	if (!lsm_active("apparmor"))
		SKIP(return, "AppArmor is not in this boot");
	/*
	 * Without an audit daemon, at most 10 audit records every 5 s reach
	 * the log: with SELinux in the boot (its AVCs) the ALLOWED record
	 * was dropped. The limit off, it is there on both stacks.
	 */
	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, run("policy load -c stack apparmor 2>&1")) TH_LOG("%s", out);
	EXPECT_EQ(0, run("probe read /tmp/kit/apparmor-secret 2>&1")) TH_LOG("%s", out);
	for (int i = 0; i < 50 && kernel_log_count(allowed) < 1; i++)
		usleep(20000);	/* the record comes from the audit thread */
	EXPECT_LE(1, kernel_log_count(allowed));
	ASSERT_EQ(0, run("policy load stack apparmor 2>&1")) TH_LOG("%s", out);
	EXPECT_EQ(13, run("probe read /tmp/kit/apparmor-secret 2>&1")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
