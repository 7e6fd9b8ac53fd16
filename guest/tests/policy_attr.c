// SPDX-License-Identifier: GPL-2.0
/*
 * The interface LSM of a confined process (issue 20), with the policy set
 * "stack" loaded: /bin/probe, run by `policy run stack`, chooses each
 * module in turn with prctl(PR_LSM_ATTR_SET) (patch 0014) and reads the
 * un-named /proc/self/attr/current, then every module's label from
 * lsm_self_attr() (`probe attr`).
 *
 *  - The deny path of the task_setinterface_lsm hook: with SELinux in the
 *    boot, the set's policy does not allow probe_t process2
 *    setinterface_lsm (configs/policy/stack/selinux/kit.te): every choice
 *    is refused with EACCES, an AVC names the permission, /bin/why names
 *    SELinux and the hook, and /proc/self/attr/current stays SELinux's.
 *    With the policy's boolean probe_setinterface_lsm on, the same
 *    choices are allowed. The test itself (kernel_t) may always choose.
 *  - AppArmor's class for the hook (20, patch 0014) cannot be written in
 *    a profile by Debian's apparmor_parser 3.0.8: the probe's profile
 *    does not mediate it, and AppArmor allows the choice (asserted).
 *  - Where the choice is allowed, /proc/self/attr/current shows each
 *    module's own label for the probe, and lsm_self_attr() every
 *    module's label at once.
 * Each check is also run in the state where it must fail (the boolean
 * the other way), and must.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "kit/kernel_log.h"

#ifndef PR_LSM_ATTR_SET
#define PR_LSM_ATTR_SET 65
#define PR_LSM_ATTR_GET 66
#endif

/* The modules that can be an interface LSM, and the probe's label in each. */
static const struct {
	const char *lsm, *label;
} views[] = {
	{ "selinux", "system_u:system_r:probe_t" },
	{ "smack", "Probe" },
	{ "apparmor", "probe (enforce)" },
	{ "toylsm", "probe" },
};

#define NVIEWS (sizeof(views) / sizeof(views[0]))

/* The default interface LSM's label: the first module of the boot's list. */
static const char *default_label(void)
{
	char buf[256] = "";
	FILE *f = fopen("/sys/kernel/security/lsm", "r");
	const char *best = NULL;
	size_t i, at = sizeof(buf);

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	for (i = 0; i < NVIEWS; i++) {
		char *p = strstr(buf, views[i].lsm);

		if (p && (size_t)(p - buf) < at) {
			at = p - buf;
			best = views[i].label;
		}
	}
	return best;
}

static int selinux_bool(int on)
{
	int fd = open("/sys/fs/selinux/booleans/probe_setinterface_lsm", O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, on ? "1" : "0", 1) == 1;
	close(fd);
	fd = open("/sys/fs/selinux/commit_pending_bools", O_WRONLY);
	if (fd < 0)
		return -1;
	ok &= write(fd, "1", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

#define AVC "avc:  denied  { setinterface_lsm }"

/*
 * `probe attr` as the confined probe. @refused: every choice must be
 * refused with EACCES (SELinux's deny path), else every choice allowed,
 * /proc/self/attr/current showing the chosen module's label. In both,
 * lsm_self_attr() lists every module's label. NULL, or what is wrong.
 */
static const char *check_attr(int refused)
{
	static char line[512];
	int avc = kernel_log_count(AVC), st;
	size_t i;

	st = run("policy run stack probe attr 2>&1");
	if (st != (refused ? 13 : 0))
		return refused ? "probe attr did not end with EACCES" :
				 "probe attr did not succeed";
	for (i = 0; i < NVIEWS; i++) {
		if (!lsm_active(views[i].lsm))
			continue;
		if (refused)
			snprintf(line, sizeof(line), "interface %s: refused, EACCES (Permission denied); current: %s\n",
				 views[i].lsm, default_label());
		else
			snprintf(line, sizeof(line), "interface %s: ok; current: %s\n",
				 views[i].lsm, views[i].label);
		if (!strstr(out, line))
			return refused ? "a choice was not refused, or current moved" :
				"a choice was refused, or current is not the module's label";
		snprintf(line, sizeof(line), "self_attr %s: %s\n", views[i].lsm, views[i].label);
		if (!strstr(out, line))
			return "lsm_self_attr does not give a module's label";
	}
	if (refused && !log_grew(AVC " for ", avc))
		return "no AVC for setinterface_lsm";
	if (!refused && kernel_log_count(AVC) != avc)
		return "an AVC for setinterface_lsm though allowed";
	return NULL;
}

/* SELinux's AVC for the probe's refused setinterface (class process2). */
static const char avc_setinterface[] =
	"scontext=system_u:system_r:probe_t tcontext=system_u:system_r:probe_t tclass=process2";

TEST(selinux_refuses_the_choice)
{
	const char *err;
	long mine;

	if (!lsm_active("selinux"))
		SKIP(return, "SELinux is not in this boot");
	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("%s", out);
	ASSERT_EQ(0, selinux_bool(0));
	err = check_attr(1);
	EXPECT_EQ(NULL, err) TH_LOG("boolean off: %s\n%s", err, out);
	TH_LOG("boolean off, as the probe sees it:\n%s", out);
	EXPECT_NE(NULL, check_attr(0)) TH_LOG("the 'allowed' check passed while SELinux refuses");
	/* The AVC: the probe's domain, the permission, the class. */
	EXPECT_LE(1, kernel_log_count(avc_setinterface));
	/* /bin/why: the walk of task_setinterface_lsm stopped at SELinux. */
	run("why -s prctl policy run stack probe attr selinux 2>&1");
	EXPECT_NE(NULL, strstr(out, "=> refused by selinux in task_setinterface_lsm: EACCES"))
		TH_LOG("%s", out);
	/* kernel_t (this test) may choose: the refusal is the policy's. */
	mine = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	EXPECT_EQ(0,
		  prctl(PR_LSM_ATTR_SET,
			37 /* LSM_ID_APPARMOR */, 0, 0, 0)) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(0, prctl(PR_LSM_ATTR_SET, mine, 0, 0, 0));

	/* The boolean on: allowed, each module's label in current. */
	ASSERT_EQ(0, selinux_bool(1));
	err = check_attr(0);
	EXPECT_EQ(NULL, err) TH_LOG("boolean on: %s\n%s", err, out);
	TH_LOG("boolean on, as the probe sees it:\n%s", out);
	EXPECT_NE(NULL, check_attr(1)) TH_LOG("the 'refused' check passed while SELinux allows");
	ASSERT_EQ(0, selinux_bool(0));
}

TEST(each_module_s_view)
{
	const char *err;

	if (lsm_active("selinux"))
		SKIP(return, "SELinux refuses the choice in this set (selinux_refuses_the_choice)");
	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("%s", out);
	/* AppArmor's profile cannot mediate the class: allowed. */
	err = check_attr(0);
	EXPECT_EQ(NULL, err) TH_LOG("%s\n%s", err, out);
	TH_LOG("as the probe sees it:\n%s", out);
	EXPECT_NE(NULL, check_attr(1)) TH_LOG("the 'refused' check passed though no module refuses");
	if (lsm_active("apparmor")) {
		run("why -s prctl policy run stack probe attr apparmor 2>&1");
		EXPECT_EQ(NULL, strstr(out, "=> refused by")) TH_LOG("%s", out);
	}
}

TEST_HARNESS_MAIN
