// SPDX-License-Identifier: GPL-2.0
/*
 * Hole 4 of issue 17: the label table (128 labels, kept until reboot)
 * must not fill through a task without CAP_MAC_ADMIN, so that a full
 * table never stops root from writing rules for a new label. With
 * enforce 0 a relabel that no rule allows is logged and made, but only
 * to a label already in the table (docs/toylsm.md, "Limits"); labels
 * read from files are never interned (KUnit xattr_label_test).
 * Before the fix, 200 permissive relabels to new labels filled the
 * table: this program has a boot of its own (tests/boots.conf).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define TRIES 200	/* more than the table's 128 */

TEST(permissive_relabels_do_not_fill_the_label_table)
{
	int st, r;
	pid_t pid;

	ASSERT_EQ(0, write_string(TOYLSM_FS "rules", "pm-known pm-obj r\n"));
	ASSERT_EQ(0, write_string(TOYLSM_FS "enforce", "0"));
	pid = fork();
	if (!pid) {
		char l[32];
		int ok = 0;

		if (drop_mac_admin())
			_exit(100);
		for (int i = 0; i < TRIES; i++) {
			snprintf(l, sizeof(l), "pm-new-%d", i);
			if (!toylsm_relabel(l))
				ok++;
		}
		/* A label in the table: permissive lets it through. */
		if (toylsm_relabel("pm-known"))
			_exit(101);
		_exit(ok > 99 ? 99 : ok);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, write_string(TOYLSM_FS "enforce", "1"));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_NE(100, WEXITSTATUS(st));
	EXPECT_NE(101, WEXITSTATUS(st))
		TH_LOG("permissive: a relabel to a label in the table was refused");
	EXPECT_EQ(0, WEXITSTATUS(st))
		TH_LOG("an unprivileged task interned %d%s new labels while enforce was 0",
		       WEXITSTATUS(st), WEXITSTATUS(st) == 99 ? " or more" : "");
	r = write_string(TOYLSM_FS "rules", "pm-root-s pm-root-o r\n");
	EXPECT_EQ(0, r) TH_LOG("root's rule for new labels: %s", strerror(-r));
}

TEST_HARNESS_MAIN
