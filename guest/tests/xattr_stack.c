// SPDX-License-Identifier: GPL-2.0
/*
 * Stacked modules judge each their own security.* xattr names (patch
 * 0010): setting or removing a module's xattr needs what that module
 * alone asks for, whatever other modules are active, and a security.*
 * name that no module claims still needs CAP_SYS_ADMIN (the capability
 * module's rule). Before the fix, Smack and toylsm each applied that
 * capability rule to every name that was not their own, so stacked they
 * demanded CAP_SYS_ADMIN for each other's names and for SELinux's.
 *
 * Each case runs in a child with a reduced set of capabilities, on a file
 * in /tmp (tmpfs, with security.* xattrs), and expects the result the
 * module gives alone (the smack-first, toylsm-apparmor and selinux boots
 * of tests/boots.conf are the "alone" references). Run as root.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "kit/lsm_abi.h"
#include "kselftest_harness.h"

/* Drop CAP_SYS_ADMIN from every set, keep the others. */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	d[CAP_SYS_ADMIN / 32].permitted &= ~(1u << (CAP_SYS_ADMIN % 32));
	d[CAP_SYS_ADMIN / 32].inheritable &= ~(1u << (CAP_SYS_ADMIN % 32));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static int lsm_active(int id)
{
	uint32_t ids[64];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0);

	for (long i = 0; i < n; i++)
		if ((int)ids[i] == id)
			return 1;
	return 0;
}

enum who { FULL_ROOT, NO_SYS_ADMIN, OWNER_NOBODY };

/*
 * xattr_call - set (@value) or remove (NULL) @name on a fresh file, in a
 * child that is root (with every capability or without CAP_SYS_ADMIN) or
 * nobody owning the file.
 * Return: 0 or the errno of the call; -1000 - n if the child failed
 * before it (n: its step).
 */
static int xattr_call(enum who who, const char *name, const char *value)
{
	char path[64];
	int status, fd;
	pid_t pid;

	snprintf(path, sizeof(path), "/tmp/kit-xattr-%d", getpid());
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -1001;
	close(fd);
	/* A removal needs something to remove: set it first, as full root. */
	if (!value && setxattr(path, name, "kitx", 4, 0))
		return -1002;
	if (who == OWNER_NOBODY && chown(path, 65534, 65534))
		return -1003;
	pid = fork();
	if (pid == 0) {
		int rc;

		if (who == NO_SYS_ADMIN && drop_sys_admin())
			_exit(201);
		if (who == OWNER_NOBODY &&
		    (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)))
			_exit(202);
		rc = value ? setxattr(path, name, value, strlen(value), 0) :
			     removexattr(path, name);
		_exit(rc ? (errno & 0xff) : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1004;
	unlink(path);
	if (!WIFEXITED(status))
		return -1005;
	if (WEXITSTATUS(status) > 200)
		return -1000 - WEXITSTATUS(status);
	return WEXITSTATUS(status);
}

static const char *err_name(int e)
{
	return e == 0 ? "success" : e > 0 ? strerror(e) : "the child failed before the call";
}

#define EXPECT_XATTR(want, who, name, value, why)					\
	do {										\
		int _got = xattr_call(who, name, value);				\
		EXPECT_EQ(want, _got) {							\
			TH_LOG("%s %s: %s; want %s (%s)", value ? "set" : "remove",	\
			       name, err_name(_got), err_name(want), why);		\
		}									\
	} while (0)

/*
 * The module @id (@name) alone: CAP_MAC_ADMIN is enough to set and to
 * remove its attribute @xattr.
 */
static void needs_cap_mac_admin_only(struct __test_metadata *_metadata, int id,
				     const char *name, const char *xattr)
{
	char set[80], rm[80];

	if (!lsm_active(id))
		SKIP(return, "%s is not active", name);
	snprintf(set, sizeof(set), "%s alone lets CAP_MAC_ADMIN set its label", name);
	snprintf(rm, sizeof(rm), "%s alone lets CAP_MAC_ADMIN remove its label", name);
	EXPECT_XATTR(0, NO_SYS_ADMIN, xattr, "kitx", set);
	EXPECT_XATTR(0, NO_SYS_ADMIN, xattr, NULL, rm);
}

/* Smack alone: CAP_MAC_ADMIN is enough for security.SMACK64. */
TEST(smack64_needs_cap_mac_admin_only)
{
	needs_cap_mac_admin_only(_metadata, LSM_ID_SMACK, "Smack", "security.SMACK64");
}

/* toylsm alone: CAP_MAC_ADMIN is enough for security.toylsm. */
TEST(toylsm_needs_cap_mac_admin_only)
{
	needs_cap_mac_admin_only(_metadata, LSM_ID_TOYLSM, "toylsm", "security.toylsm");
}

/* SELinux alone, with no policy loaded: the file's owner may set it. */
TEST(selinux_owner_may_set_without_policy)
{
	/* The kit's guest never loads an SELinux policy. */
	if (!lsm_active(LSM_ID_SELINUX))
		SKIP(return, "SELinux is not active");
	EXPECT_XATTR(0, OWNER_NOBODY, "security.selinux",
		     "system_u:object_r:tmp_t:s0",
		     "SELinux alone, before a policy is loaded, lets the owner set it");
}

/* No module claims the name: CAP_SYS_ADMIN, as in 6.1 without modules. */
TEST(unclaimed_security_name_needs_cap_sys_admin)
{
	EXPECT_XATTR(EPERM, NO_SYS_ADMIN, "security.kitnobody", "kitx",
		     "the capability rule for security.* names no module claims");
	EXPECT_XATTR(EPERM, OWNER_NOBODY, "security.kitnobody", "kitx",
		     "the capability rule for security.* names no module claims");
	EXPECT_XATTR(0, FULL_ROOT, "security.kitnobody", "kitx",
		     "control: root with every capability may set it");
}

TEST_HARNESS_MAIN
