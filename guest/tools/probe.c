// SPDX-License-Identifier: GPL-2.0
/*
 * probe: try file accesses and say, for each, whether it was allowed or
 * which error refused it. The kit's policy sets confine this program by
 * its path, /bin/probe (AppArmor's profile, SELinux's genfscon label and
 * domain transition, Smack's SMACK64EXEC; toylsm and Landlock through
 * `policy run`): it is one small static binary, unlike busybox, whose
 * applets all run as /bin/busybox.
 *
 *   probe [-k] ACCESS PATH [ACCESS PATH...]   ACCESS: read, write (O_APPEND),
 *                                            overwrite (O_WRONLY), truncate (O_TRUNC)
 *   probe self                                 this task's label in each module
 *   probe [-k] attr [MODULE...]                the interface LSM, module by module
 *
 * It first drops every capability (-k keeps them), so that root's
 * CAP_MAC_OVERRIDE (Smack) or CAP_DAC_OVERRIDE do not hide a refusal.
 * One line per access: "read /tmp/kit/public: ok" or
 * "read /tmp/kit/smack-secret: refused, EACCES (Permission denied)".
 * Exit status: 0 if every access was allowed, else the errno of the last
 * refused one (EACCES 13, EPERM 1); 2 on bad usage.
 *
 * probe attr: for each MODULE (by default every module of this boot that
 * can be a task's interface LSM: selinux, smack, apparmor, toylsm), choose
 * it with prctl(PR_LSM_ATTR_SET) (patch 0014) and read the un-named
 * /proc/self/attr/current, which now shows that module's label:
 *   "interface apparmor: ok; current: probe (enforce)"
 *   "interface selinux: refused, EACCES (Permission denied); current: ..."
 * then every module's label at once from lsm_self_attr() (patch 0006):
 *   "self_attr apparmor: probe (enforce)"
 * A module may refuse the choice by policy (SELinux: process2
 * setinterface_lsm); the exit status is then the errno of the last refusal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kit/caps.h"
#include "kit/lsm_abi.h"	/* the kit kernel's LSM syscalls and LSM_ID_* names */

#ifndef PR_LSM_ATTR_SET
#define PR_LSM_ATTR_SET 65	/* patch 0014; the kit's <linux/prctl.h> */
#endif

static void self(void)
{
	static const char *const lsms[] = { "apparmor", "selinux", "smack", "toylsm", "", NULL };
	char p[128], buf[256];
	int i, fd;
	ssize_t n;

	for (i = 0; lsms[i]; i++) {
		/* "": the unnamed file, the interface LSM's view */
		snprintf(p, sizeof(p), "/proc/self/attr/%s%scurrent", lsms[i], *lsms[i] ? "/" : "");
		fd = open(p, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		printf("%s: %s\n", *lsms[i] ? lsms[i] : "current", buf);
	}
}

/* The un-named /proc/self/attr/current: the interface LSM's view. */
static void unnamed_current(char *buf, size_t len)
{
	if (read_text("/proc/self/attr/current", buf, len) < 0)
		snprintf(buf, len, "(unreadable: %s)", strerror(errno));
}

/* Whether @name is in this boot's /sys/kernel/security/lsm. */
static int active(const char *name)
{
	char list[512] = ",";
	size_t n = strlen(name);
	const char *p;

	if (read_text("/sys/kernel/security/lsm", list + 1, sizeof(list) - 2) < 0)
		return 0;
	strcat(list, ",");
	for (p = list; (p = strstr(p, name)); p += n)
		if (p[-1] == ',' && p[n] == ',')
			return 1;
	return 0;
}

static int lsm_id_of(const char *name)
{
	for (int i = 0; i < KIT_NLSMS; i++)
		if (strcmp(kit_lsms[i].name, name) == 0)
			return kit_lsms[i].id;
	return -1;
}

static int attr(int argc, char **argv)
{
	static const char *const ilsms[] = { "selinux", "smack", "apparmor", "toylsm", NULL };
	static char mem[8192] __attribute__((aligned(8)));
	const char *const *names = (const char *const *)argv;
	char cur[256];
	size_t size = sizeof(mem), off = 0;
	int i, id, status = 0;
	long n;

	if (argc == 0)
		names = ilsms;
	for (i = 0; argc ? i < argc : !!names[i]; i++) {
		if (argc == 0 && !active(names[i]))
			continue;
		id = lsm_id_of(names[i]);
		if (id < 0) {
			fprintf(stderr, "probe: '%s' is not a module's name\n", names[i]);
			return 2;
		}
		if (prctl(PR_LSM_ATTR_SET, id, 0, 0, 0)) {
			int err = errno;

			unnamed_current(cur, sizeof(cur));
			printf("interface %s: refused, %s (%s); current: %s\n", names[i],
			       strerrorname_np(err), strerror(err), cur);
			status = err;
			continue;
		}
		unnamed_current(cur, sizeof(cur));
		printf("interface %s: ok; current: %s\n", names[i], cur);
	}
	n = lsm_self_attr((struct lsm_ctx *)mem, &size, 0);
	if (n < 0) {
		printf("self_attr: failed, %s (%s)\n", strerrorname_np(errno), strerror(errno));
		return errno;
	}
	for (i = 0; i < n; i++) {
		struct lsm_ctx *c = (struct lsm_ctx *)(mem + off);

		if (c->flags == LSM_ATTR_CURRENT)
			printf("self_attr %s: %s\n", kit_lsm_name(c->id) ? kit_lsm_name(c->id) : "?",
			       (char *)c->ctx);
		off += sizeof(*c) + c->ctx_len;
	}
	return status;
}

static int try(const char *access, const char *path)
{
	int flags, fd, err = 0;
	char c;

	/*
	 * write appends; overwrite opens for writing at the start (O_WRONLY:
	 * Smack asks w alone, SELinux write); truncate opens with O_TRUNC,
	 * which cuts the file to nothing (the path_truncate hook as well).
	 */
	if (strcmp(access, "read") == 0)
		flags = O_RDONLY;
	else if (strcmp(access, "write") == 0)
		flags = O_WRONLY | O_APPEND;
	else if (strcmp(access, "overwrite") == 0)
		flags = O_WRONLY;
	else if (strcmp(access, "truncate") == 0)
		flags = O_WRONLY | O_TRUNC;
	else
		return -1;
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	else if (flags == O_RDONLY ? read(fd, &c, 1) < 0 : write(fd, "probe\n", 6) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err)
		printf("%s %s: refused, %s (%s)\n", access, path, strerrorname_np(err),
		       strerror(err));
	else
		printf("%s %s: ok\n", access, path);
	return err;
}

int main(int argc, char **argv)
{
	int i = 1, keep = 0, status = 0, err;

	if (argc > 1 && strcmp(argv[1], "-k") == 0)
		keep = i++;
	if (argc == i + 1 && strcmp(argv[i], "self") == 0) {
		self();
		return 0;
	}
	if (argc > i && strcmp(argv[i], "attr") == 0) {
		if (!keep && drop_all_caps()) {
			perror("probe: capset");
			return 2;
		}
		setvbuf(stdout, NULL, _IOLBF, 0);
		return attr(argc - i - 1, argv + i + 1);
	}
	if (argc < i + 2 || (argc - i) % 2) {
		fprintf(stderr, "usage: probe [-k] ACCESS PATH [ACCESS PATH...] | probe self |\n"
			"       probe [-k] attr [MODULE...]\n"
			"ACCESS: read, write (an append), overwrite (O_WRONLY), truncate (O_TRUNC)\n");
		return 2;
	}
	if (!keep && drop_all_caps()) {
		perror("probe: capset");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc; i += 2) {
		err = try(argv[i], argv[i + 1]);
		if (err < 0) {
			fprintf(stderr,
				"probe: '%s' is not an access (read, write, overwrite, truncate)\n",
				argv[i]);
			return 2;
		}
		if (err)
			status = err;
	}
	return status;
}
