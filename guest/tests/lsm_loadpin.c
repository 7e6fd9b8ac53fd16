// SPDX-License-Identifier: GPL-2.0
/*
 * LoadPin (security/loadpin/, the seed's LSM_ID_LOADPIN, 39) as
 * Documentation/admin-guide/LSM/LoadPin.rst describes it, on the bpf
 * flavour's boots: the kernel's file reads (modules, firmware, kexec
 * images, policy) are pinned to the first file system one came from; a
 * read from any other is refused with EPERM while it enforces
 * (CONFIG_SECURITY_LOADPIN_ENFORCE, loadpin.enforce=); the old
 * init_module(2), which names no file, is refused outright; the pinned
 * file system is writable here (the initramfs), so the sysctl
 * kernel.loadpin.enforce appears and turns enforcing off and on.
 *
 * The "modules" are 80 bytes of text (init_module(2) refuses anything
 * shorter than an ELF header with ENOEXEC before LoadPin is asked): what
 * LoadPin lets through, the module loader then refuses with ENOEXEC, or
 * Lockdown with EPERM where it is active at integrity (an unsigned
 * module: lsm_lockdown.c); what LoadPin refuses never reaches it. Without
 * LoadPin in lsm= every call gets the loader's answer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest_lib.h"
#include "kselftest_harness.h"
#include "seed_lsm.h"

#define SYSCTL "/proc/sys/kernel/loadpin/enforce"
#define ROOT_FILE "/loadpin-root.ko"	/* the initramfs: pinned */
#define TMP_FILE "/tmp/loadpin-tmp.ko"	/* a tmpfs of its own */
static const char junk[] = JUNK_MODULE;

/* What the kernel answers to the junk once LoadPin let it through. */
static int loader_errno(void)
{
	char level[128];
	int err = ENOEXEC;

	if (lsm_active("lockdown") &&
	    read_text("/sys/kernel/security/lockdown", level, sizeof(level)) > 0 &&
	    !strstr(level, "[none]"))
		err = EPERM;	/* "unsigned module loading is restricted" */
	return err;
}

static int enforcing(void)
{
	char c[2048];

	if (!lsm_active("loadpin"))
		return 0;
	if (read_text("/proc/cmdline", c, sizeof(c)) > 0 && strstr(c, "loadpin.enforce=0"))
		return 0;
	return 1;
}

TEST(seed_id)
{
	char why[256];
	const char *bad = seed_id_check("loadpin", 39, why, sizeof(why));

	EXPECT_EQ(NULL, bad) TH_LOG("%s", bad);
}

TEST(old_init_module_refused_while_enforcing)
{
	const char *line = "LoadPin: kernel-module old-api-denied";
	int before = kernel_log_count(line);
	long rc = syscall(SYS_init_module, junk, sizeof(junk), "");
	int err = errno;

	EXPECT_EQ(-1, rc);
	if (enforcing()) {
		EXPECT_EQ(EPERM, err) TH_LOG("init_module: %s", strerror(err));
		EXPECT_TRUE(log_grew(line, before)) TH_LOG("no \"%s\" in the kernel log", line);
	} else {
		EXPECT_EQ(loader_errno(), err) {
			TH_LOG("init_module: %s (LoadPin %s active)", strerror(err),
			       lsm_active("loadpin") ? "is" : "is not");
		}
	}
}

TEST(reads_pinned_to_the_first_file_system)
{
	const char *denied = "LoadPin: kernel-module denied obj=\"" TMP_FILE "\"";
	int before = kernel_log_count(denied);

	EXPECT_EQ(loader_errno(), finit_junk(ROOT_FILE)) TH_LOG("the initramfs's file");
	if (enforcing()) {
		EXPECT_EQ(EPERM, finit_junk(TMP_FILE)) TH_LOG("the tmpfs's file after the initramfs's");
		EXPECT_TRUE(log_grew(denied, before)) TH_LOG("no '%s' in the kernel log", denied);
	} else {
		EXPECT_EQ(loader_errno(), finit_junk(TMP_FILE)) TH_LOG("the tmpfs's file, LoadPin not enforcing");
	}
}

/* The sysctl: there only once LoadPin pinned a writable file system. */
TEST(sysctl_turns_enforcing_off_and_on)
{
	char v[16];

	if (!lsm_active("loadpin")) {
		EXPECT_EQ(-ENOENT, read_text(SYSCTL, v, sizeof(v)));
		return;
	}
	EXPECT_EQ(loader_errno(), finit_junk(ROOT_FILE));	/* pins, if nothing did */
	ASSERT_EQ(1, read_text(SYSCTL, v, sizeof(v))) TH_LOG("%s: %s", SYSCTL, strerror(errno));
	EXPECT_STREQ(enforcing() ? "1" : "0", v);
	ASSERT_EQ(0, write_string(SYSCTL, "0"));
	EXPECT_EQ(loader_errno(), finit_junk(TMP_FILE)) TH_LOG("kernel.loadpin.enforce=0");
	ASSERT_EQ(0, write_string(SYSCTL, "1"));
	EXPECT_EQ(EPERM, finit_junk(TMP_FILE)) TH_LOG("kernel.loadpin.enforce=1");
	ASSERT_EQ(0, write_string(SYSCTL, enforcing() ? "1" : "0"));
}

TEST_HARNESS_MAIN
