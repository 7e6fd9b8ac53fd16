// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's own guest test: the kselftest harness builds, runs in the
 * guest and reports TAP that the host counts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

TEST(guest_has_proc)
{
	ASSERT_EQ(0, access("/proc/self/status", R_OK));
}

TEST(guest_has_securityfs)
{
	char buf[256] = { 0 };
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	/* capability is always active and always first. */
	EXPECT_EQ(0, strncmp(buf, "capability", 10));
}

TEST_HARNESS_MAIN
