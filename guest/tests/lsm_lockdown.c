// SPDX-License-Identifier: GPL-2.0
/*
 * Lockdown (security/lockdown/, the seed's LSM_ID_LOCKDOWN, 41) as
 * Documentation/admin-guide/LSM/ and kernel_lockdown.7 describe it, on the
 * bpf flavour's boots: lockdown= on the command line sets the level, which
 * /sys/kernel/security/lockdown shows in brackets; at integrity, raw I/O
 * port access (ioperm(2)) and an unsigned module (Lockdown selects
 * MODULE_SIG; the "module" is text from the initramfs, which LoadPin, if
 * active, pins) are refused with EPERM and a "Lockdown: ... is
 * restricted" line in the kernel log each; the level can be raised,
 * never lowered, nor set again to what it is.
 *
 * The same test on a boot whose lsm= leaves lockdown out: lockdown= still
 * sets the level and the file still shows it (lockdown= is an early
 * parameter, the file a core initcall of its own), yet nothing is
 * refused: no hook of lockdown's is registered. The level shown is no
 * proof that anything enforces it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <sys/io.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "seed_lsm.h"

#define LOCKDOWN "/sys/kernel/security/lockdown"
#define RESTRICTED "Lockdown: lsm_lockdown: raw io port access is restricted"
#define UNSIGNED "Lockdown: lsm_lockdown: unsigned module loading is restricted"
#define MODULE "/lockdown-test.ko"

/* The level lockdown= asks for on this boot, or "none". */
static const char *cmdline_level(void)
{
	char c[2048];

	if (read_text("/proc/cmdline", c, sizeof(c)) <= 0)
		return "none";
	if (strstr(c, " lockdown=confidentiality") || !strncmp(c, "lockdown=confidentiality", 24))
		return "confidentiality";
	if (strstr(c, " lockdown=integrity") || !strncmp(c, "lockdown=integrity", 18))
		return "integrity";
	return "none";
}

TEST(seed_id)
{
	char why[256];
	const char *bad = seed_id_check("lockdown", 41, why, sizeof(why));

	EXPECT_EQ(NULL, bad) TH_LOG("%s", bad);
}

TEST(file_shows_the_level_of_the_command_line)
{
	const char *level = cmdline_level();
	char got[128], want[128] = "";
	static const char * const levels[] = { "none", "integrity", "confidentiality" };

	for (int i = 0; i < 3; i++) {
		size_t w;

		if (i)
			strcat(want, " ");
		w = strlen(want);
		if (!strcmp(levels[i], level))
			snprintf(want + w, sizeof(want) - w, "[%s]", levels[i]);
		else
			strcat(want, levels[i]);
	}
	ASSERT_LT(0, read_text(LOCKDOWN, got, sizeof(got))) {
		TH_LOG("%s cannot be read: %s (not built into this kernel?)",
		       LOCKDOWN, strerror(errno));
	}
	EXPECT_STREQ(want, got);
}

TEST(ioperm_refused_only_where_lockdown_is_active_at_integrity)
{
	int refuse = lsm_active("lockdown") && strcmp(cmdline_level(), "none");
	int before = kernel_log_count(RESTRICTED);
	int rc = ioperm(0x80, 1, 1);
	int err = errno;

	if (refuse) {
		EXPECT_EQ(-1, rc);
		EXPECT_EQ(EPERM, err) TH_LOG("ioperm: %s", strerror(err));
		EXPECT_TRUE(log_grew(RESTRICTED, before)) {
			TH_LOG("no \"%s\" in the kernel log", RESTRICTED);
		}
	} else {
		EXPECT_EQ(0, rc) {
			TH_LOG("ioperm: %s; lockdown %s in lsm=, lockdown=%s",
			       strerror(err), lsm_active("lockdown") ? "is" : "is not",
			       cmdline_level());
		}
		EXPECT_EQ(before, kernel_log_count(RESTRICTED));
		ioperm(0x80, 1, 0);
	}
}

TEST(unsigned_module_refused_only_where_lockdown_is_active_at_integrity)
{
	int refuse = lsm_active("lockdown") && strcmp(cmdline_level(), "none");
	int before = kernel_log_count(UNSIGNED);
	int err = finit_junk(MODULE);

	if (refuse) {
		EXPECT_EQ(EPERM, err) TH_LOG("finit_module: %s", strerror(err));
		EXPECT_TRUE(log_grew(UNSIGNED, before))
			TH_LOG("no \"%s\" in the kernel log", UNSIGNED);
	} else {
		EXPECT_EQ(ENOEXEC, err)
			TH_LOG("finit_module: %s (the module loader's answer)", strerror(err));
		EXPECT_EQ(before, kernel_log_count(UNSIGNED));
	}
}

/* Lowering, or setting the level it has: EPERM, the level unchanged. */
TEST(level_never_lowered)
{
	const char *level = cmdline_level();
	char before[128], after[128];

	if (!strcmp(level, "none"))
		SKIP(return, "lockdown=none: there is nothing lower to ask for");
	ASSERT_LT(0, read_text(LOCKDOWN, before, sizeof(before)));
	EXPECT_EQ(-EPERM, write_string(LOCKDOWN, "none"));
	EXPECT_EQ(-EPERM, write_string(LOCKDOWN, level));
	ASSERT_LT(0, read_text(LOCKDOWN, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

TEST_HARNESS_MAIN
