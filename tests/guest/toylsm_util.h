/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the toylsm guest tests: attrs, securityfs files and
 * dropping CAP_MAC_ADMIN.
 */
#ifndef TOYLSM_UTIL_H
#define TOYLSM_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ATTR "/proc/thread-self/attr/toylsm/"
#define TOYFS "/sys/kernel/security/toylsm/"

/* Write len bytes to path in one write(): 0, or -errno. */
static inline int put(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, buf, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

/* Write a C string. */
static inline int puts_to(const char *path, const char *s)
{
	return put(path, s, strlen(s));
}

/* Read path into buf (NUL-terminated): its length, or -errno. */
static inline int get(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	if (n < 0)
		len = -errno;
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	return len;
}

/* The thread's label, without its newline, in a per-thread buffer. */
static inline const char *label(void)
{
	static __thread char buf[64];
	int n = get(ATTR "current", buf, sizeof(buf));

	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* Set the current label: 0 or -errno. */
static inline int relabel(const char *l)
{
	return puts_to(ATTR "current", l);
}

/* Drop a capability from this thread's effective set: 0 or -1. */
static inline int drop_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~(1U << (cap % 32));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

static inline int drop_mac_admin(void)
{
	return drop_cap(CAP_MAC_ADMIN);
}

/* The calls and denials of a hook in toylsm's stats. */
static inline void stats(const char *hook, long *calls, long *denials)
{
	char buf[1024], name[64];
	FILE *f = fopen(TOYFS "stats", "r");

	*calls = *denials = -1;
	while (f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "%63s %ld %ld", name, calls, denials) == 3 &&
		    !strcmp(name, hook))
			break;
	if (f)
		fclose(f);
}

#endif
