// SPDX-License-Identifier: GPL-2.0
/*
 * probe: try file accesses and say, for each, whether it was allowed or
 * which error refused it. The kit's policy sets confine this program by
 * its path, /bin/probe (AppArmor's profile, SELinux's genfscon label and
 * domain transition, Smack's SMACK64EXEC; toylsm and Landlock through
 * `policy run`): it is one small static binary, unlike busybox, whose
 * applets all run as /bin/busybox.
 *
 *   probe [-k] ACCESS PATH [ACCESS PATH...]   ACCESS: read, write
 *   probe self                                 this task's label in each module
 *
 * It first drops every capability (-k keeps them), so that root's
 * CAP_MAC_OVERRIDE (Smack) or CAP_DAC_OVERRIDE do not hide a refusal.
 * One line per access: "read /tmp/kit/public: ok" or
 * "read /tmp/kit/smack-secret: refused, EACCES (Permission denied)".
 * Exit status: 0 if every access was allowed, else the errno of the last
 * refused one (EACCES 13, EPERM 1); 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int drop_all_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

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

static int try(const char *access, const char *path)
{
	int flags, fd, err = 0;
	char c;

	if (strcmp(access, "read") == 0)
		flags = O_RDONLY;
	else if (strcmp(access, "write") == 0)
		flags = O_WRONLY | O_APPEND;
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
		printf("%s %s: refused, %s (%s)\n", access, path, strerrorname_np(err), strerror(err));
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
	if (argc < i + 2 || (argc - i) % 2) {
		fprintf(stderr, "usage: probe [-k] read|write PATH [read|write PATH...] | probe self\n");
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
			fprintf(stderr, "probe: '%s' is not an access (read, write)\n", argv[i]);
			return 2;
		}
		if (err)
			status = err;
	}
	return status;
}
