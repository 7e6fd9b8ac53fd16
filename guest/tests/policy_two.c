// SPDX-License-Identifier: GPL-2.0
/*
 * One access refused by two modules (issue 20): with the policy set
 * "stack" loaded, /tmp/kit/two-secret is refused to the probe by toylsm
 * (its label toysecret, no rule) and by AppArmor (the profile does not
 * list it), both in the hook file_open. The walk asks the modules in the
 * boot's order (/sys/kernel/security/lsm) and stops at the first that
 * refuses:
 *
 *  1. the read is refused (EACCES); /bin/why names the first of the two
 *     in file_open and lists the second as never asked; the first's
 *     audit record is in the kernel log, the second's is not;
 *  2. the first module's refusal removed (toylsm: the file relabelled
 *     shared; AppArmor: the profile in complain mode), the read is still
 *     refused, now by the second, with its own record: it would have
 *     refused too;
 *  3. the second's refusal removed as well, the read is allowed.
 * The check of step 1 is also run in step 2 and that of step 2 in step 3,
 * where each must fail. Run in the boots policy (toylsm before AppArmor),
 * policy-selinux (the same) and policy-apparmor-first (AppArmor first).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "kit/kernel_log.h"

#define SECRET "/tmp/kit/two-secret"

/* Each module's audit record of a refused read of SECRET. */
static const char *record(const char *lsm)
{
	if (strcmp(lsm, "apparmor") == 0)
		return "apparmor=\"DENIED\" operation=\"open\" profile=\"probe\" name=\""
		       SECRET "\"";
	return "toylsm=denied hook=file_open subject=\"probe\" object=\"toysecret\"";
}

/*
 * NULL if the probe's read of SECRET is refused by @lsm in file_open,
 * @other asked before it and allowing, or after it and never asked,
 * @lsm's record logged and @other's not; else what is wrong. The trace
 * is left in @why. @retry: if toylsm's record is missing, try again
 * after 6 s (its limit); not for the runs that must fail, where the
 * wait would only cost time.
 */
static const char *refused_by(const char *lsm, const char *other, int retry, char *why, size_t len)
{
	int mine = kernel_log_count(record(lsm)), theirs = kernel_log_count(record(other));
	char want[128], *line, *walk, *l;

	if (run("policy run stack probe read " SECRET " 2>&1") != 13)
		return "not refused with EACCES";
	if (!log_grew(record(lsm), mine)) {
		/* toylsm writes at most 10 denial records every 5 s: once more, after 5 s */
		if (!retry || strcmp(lsm, "toylsm"))
			return "no audit record of the module that refused";
		sleep(6);
		mine = kernel_log_count(record(lsm));
		if (run("policy run stack probe read " SECRET " 2>&1") != 13)
			return "not refused with EACCES";
		if (!log_grew(record(lsm), mine))
			return "no audit record of the module that refused";
	}
	run("why -s openat policy run stack probe read " SECRET " 2>&1");
	snprintf(why, len, "%s", out);
	snprintf(want, sizeof(want),
		 "=> refused by %s in file_open: EACCES; never asked in file_open: ", lsm);
	line = strstr(out, want);
	if (!line)
		return "why does not name the module in file_open";
	line[strcspn(line, "\n")] = '\0';
	if (lsm_position(other) > lsm_position(lsm)) {
		if (!strstr(line + strlen(want), other))
			return "why does not list the other module, after it, as never asked";
	} else {
		/*
		 * The walk's line:
		 * "    file_open   landlock ok, ..., toylsm ok, apparmor EACCES"
		 */
		snprintf(want, sizeof(want), " %s ok,", other);
		for (walk = NULL, l = out; (l = strstr(l, "    file_open ")) && l < line; l++)
			walk = l;	/* the last walk of file_open before the verdict */
		if (!walk || !strstr(walk, want) || strstr(walk, want) > line)
			return "why does not show the other module, before it, allowing";
	}
	if (kernel_log_count(record(other)) != theirs)
		return "the other module, never asked, logged a refusal";
	return NULL;
}

static int relabel(const char *label)
{
	return setxattr(SECRET, "security.toylsm", label, strlen(label), 0);
}

/*
 * Take lsm's refusal of SECRET away: toylsm's by a label its rules allow,
 * AppArmor's by its profile in complain mode.  0, or what failed.
 */
static int remove_refusal(const char *lsm)
{
	if (!strcmp(lsm, "toylsm"))
		return relabel("shared");
	return run("policy load -c stack apparmor 2>&1");
}

TEST(two_modules_refuse)
{
	static char why[1 << 16];
	const char *first, *second, *err;
	int toylsm_first;

	if (lsm_position("toylsm") < 0 || lsm_position("apparmor") < 0)
		SKIP(return, "toylsm and AppArmor are not both in this boot");
	toylsm_first = lsm_position("toylsm") < lsm_position("apparmor");
	first = toylsm_first ? "toylsm" : "apparmor";
	second = toylsm_first ? "apparmor" : "toylsm";
	ASSERT_EQ(0, kernel_log_unlimited());
	ASSERT_EQ(0, run("policy load stack 2>&1")) TH_LOG("%s", out);

	/* 1. Both refuse: the walk stops at the first. */
	err = refused_by(first, second, 1, why, sizeof(why));
	EXPECT_EQ(NULL, err) TH_LOG("both refusing: %s\n%s\n%s", err, out, why);
	TH_LOG("both refusing, %s first:\n%s", first, why);

	/* 2. The first's refusal removed: the second refuses. */
	ASSERT_EQ(0, remove_refusal(first)) TH_LOG("%s", out);
	err = refused_by(second, first, 1, why, sizeof(why));
	EXPECT_EQ(NULL, err) TH_LOG("%s's refusal removed: %s\n%s\n%s", first, err, out, why);
	TH_LOG("%s's refusal removed:\n%s", first, why);
	EXPECT_NE(NULL, refused_by(first, second, 0, why, sizeof(why)))
		TH_LOG("step 1's check passed with %s's refusal removed", first);

	/* 3. Both removed: allowed; step 2's check fails. */
	ASSERT_EQ(0, remove_refusal(second)) TH_LOG("%s", out);
	EXPECT_EQ(0, run("policy run stack probe read " SECRET " 2>&1")) TH_LOG("%s", out);
	EXPECT_NE(NULL, refused_by(second, first, 0, why, sizeof(why)))
		TH_LOG("step 2's check passed with both refusals removed");

	/* The set as it was. */
	ASSERT_EQ(0, relabel("toysecret"));
	ASSERT_EQ(0, run("policy load stack apparmor 2>&1")) TH_LOG("%s", out);
	EXPECT_EQ(13, run("policy run stack probe read " SECRET " 2>&1")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
