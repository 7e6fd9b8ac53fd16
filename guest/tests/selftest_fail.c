// SPDX-License-Identifier: GPL-2.0
/*
 * A guest test that must fail: the runner meta-tests use it to prove that a
 * failing guest test turns into a failure on the host.  Not part of any
 * boot in tests/boots.conf.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "kselftest_harness.h"

TEST(one_plus_one_is_three)
{
	EXPECT_EQ(3, 1 + 1);
}

TEST_HARNESS_MAIN
