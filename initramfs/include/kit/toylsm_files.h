/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toylsm from user space, for the guest tests and the labs' graders: its
 * files (the thread's attribute TOYLSM_ATTR "current", securityfs's
 * TOYLSM_FS "rules", "enforce", "stats"...) written in one write(), as the
 * kernel parses them, and read whole:
 *
 *	write_string(TOYLSM_FS "rules", "l6-s l6-o -\n");  0 or -errno
 *	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));  its length or -errno
 *	toylsm_stats("file_open", &calls, &denials);	   a hook's counters
 *	toylsm_label(), toylsm_relabel("l")		   the thread's label
 *	drop_mac_admin()				   no more policy writes
 */
#ifndef KIT_TOYLSM_FILES_H
#define KIT_TOYLSM_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#define TOYLSM_ATTR "/proc/thread-self/attr/toylsm/"
#define TOYLSM_FS "/sys/kernel/security/toylsm/"

/* Write len bytes to path in one write(): 0, or -errno. */
static inline int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, buf, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

/* Write the string s to path in one write(): 0, or -errno. */
static inline int write_string(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

/* Read path into buf (NUL-terminated): its length, or -errno. */
static inline int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
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

/* The thread's toylsm label, without its newline, in a per-thread buffer. */
static inline const char *toylsm_label(void)
{
	static __thread char buf[64];
	int n = read_file(TOYLSM_ATTR "current", buf, sizeof(buf));

	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

/* Set the thread's toylsm label: 0 or -errno. */
static inline int toylsm_relabel(const char *l)
{
	return write_string(TOYLSM_ATTR "current", l);
}

/*
 * A hook's counters, the line "HOOK CALLS DENIALS" of TOYLSM_FS "stats":
 * 0, or -1 with calls and denials -1 if there is no line for hook
 * (inode_unlink has one only in the lab kernel).
 */
static inline int toylsm_stats(const char *hook, long *calls, long *denials)
{
	char buf[1024], name[64];
	FILE *f = fopen(TOYLSM_FS "stats", "re");
	long c, d;
	int found = -1;

	*calls = *denials = -1;
	while (f && fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "%63s %ld %ld", name, &c, &d) == 3 && !strcmp(name, hook)) {
			*calls = c;
			*denials = d;
			found = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
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

#endif
