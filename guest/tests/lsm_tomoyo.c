// SPDX-License-Identifier: GPL-2.0
/*
 * TOMOYO (security/tomoyo/, the seed's LSM_ID_TOMOYO, 35) as
 * Documentation/admin-guide/LSM/tomoyo.rst and its 2.6 manual describe
 * it, on the bpf flavour's boots: its policy interface under
 * /sys/kernel/security/tomoyo/; every task in the domain "<kernel>" until
 * a policy is loaded, and nothing enforced until then; the policy loader
 * run when the activation trigger is executed (TOMOYO_trigger=,
 * TOMOYO_loader= on the command line), after which each program starts a
 * domain of its own under the one that ran it, with its profile.
 *
 * The test is the policy tool: before the loader, root writes the
 * profiles (0: everything disabled; 1: mkdir enforcing) and the domain
 * "<kernel> /tmp/tomoyo/mkdir" with profile 1, then executes
 * /tmp/tomoyo/mkdir (a copy of busybox), the trigger. That mkdir is
 * refused, in its own domain; the test's own mkdir, in "<kernel>"
 * (profile 0), is not. It runs last in its boot: the policy stays loaded.
 *
 * Without TOMOYO in lsm=: no /sys/kernel/security/tomoyo, nothing refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "seed_lsm.h"

#define T "/sys/kernel/security/tomoyo/"
#define DIR "/tmp/tomoyo"
#define VICTIM DIR "/mkdir"
#define DOMAIN "<kernel> " VICTIM
#define WANT_CMDLINE "TOMOYO_trigger=" VICTIM " TOMOYO_loader=/bin/busybox"

static int cmdline_has(const char *s)
{
	char c[2048];

	return read_text("/proc/cmdline", c, sizeof(c)) > 0 && strstr(c, s);
}

TEST(seed_id)
{
	char why[256];
	const char *bad = seed_id_check("tomoyo", 35, why, sizeof(why));

	EXPECT_EQ(NULL, bad) TH_LOG("%s", bad);
}

TEST(policy_interface_only_when_active)
{
	struct stat st;
	char buf[256];

	if (!lsm_active("tomoyo")) {
		EXPECT_EQ(-1, stat(T, &st));
		EXPECT_EQ(ENOENT, errno);
		return;
	}
	ASSERT_EQ(0, stat(T "profile", &st)) TH_LOG(T "profile: %s", strerror(errno));
	ASSERT_LT(0, read_text(T "self_domain", buf, sizeof(buf)));
	EXPECT_STREQ("<kernel>", buf);
}

TEST(domain_with_an_enforcing_profile_refuses_mkdir)
{
	const char *profile = "PROFILE_VERSION=20150505\n"
		"0-COMMENT=kit: everything disabled\n"
		"0-CONFIG={ mode=disabled }\n"
		"1-COMMENT=kit: mkdir enforcing\n"
		"1-CONFIG={ mode=disabled }\n"
		"1-CONFIG::file::mkdir={ mode=enforcing grant_log=no reject_log=yes }\n";
	char got[4096];
	int active = lsm_active("tomoyo");

	if (active)
		ASSERT_TRUE(cmdline_has(WANT_CMDLINE)) {
			TH_LOG("this test loads TOMOYO's policy itself: its boot needs %s",
			       WANT_CMDLINE);
		}
	ASSERT_EQ(0, run("mkdir -p " DIR " && cp /bin/busybox " VICTIM))
		TH_LOG("%s", out);
	if (active) {
		ASSERT_EQ(0, write_string(T "profile", profile));
		ASSERT_EQ(0, write_string(T "domain_policy", DOMAIN "\nuse_profile 1\n"));
		ASSERT_LT(0, read_text(T "profile", got, sizeof(got)));
		EXPECT_NE(NULL, strstr(got, "1-CONFIG::file::mkdir={ mode=enforcing"))
			TH_LOG("%s", got);
	}
	/* The trigger: TOMOYO runs its loader, then enters the domain. */
	EXPECT_EQ(active ? 1 : 0, run(VICTIM " " DIR "/by-victim 2>&1")) TH_LOG("%s", out);
	if (active) {
		EXPECT_NE(NULL, strstr(out, "Operation not permitted")) TH_LOG("%s", out);
		ASSERT_LT(0, read_text(T "domain_policy", got, sizeof(got)));
		EXPECT_NE(NULL, strstr(got, DOMAIN "\nuse_profile 1\n")) TH_LOG("%s", got);
	}
	/* The test itself, in "<kernel>" with profile 0. */
	EXPECT_EQ(0, mkdir(DIR "/by-test", 0755)) TH_LOG("mkdir: %s", strerror(errno));
}

TEST_HARNESS_MAIN
