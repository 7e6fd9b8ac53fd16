/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toylsm from user space, for the guest tests and the labs' graders: its
 * files (the thread's attribute TOYLSM_ATTR "current", securityfs's
 * TOYLSM_FS "rules", "enforce", "stats"...) written in one write(), as the
 * kernel parses them, and read whole (files.h's helpers):
 *
 *	write_string(TOYLSM_FS "rules", "l6-s l6-o -\n");  0 or -errno
 *	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));  its length or -errno
 *	toylsm_stats("file_open", &calls, &denials);	   a hook's counters
 *	toylsm_stats_suppressed("file_open")		   its records suppressed
 *							   (-1: no such column or hook)
 *	toylsm_label(), toylsm_relabel("l")		   the thread's label
 *	drop_mac_admin()				   no more policy writes
 *	toylsm_secret_file("/tmp/f", "l6-o")		   a new file holding "secret",
 *							   labelled (CAP_MAC_ADMIN)
 *	toylsm_busybox("/tmp/bb", "x-bin")		   a labelled copy of busybox
 */
#ifndef KIT_TOYLSM_FILES_H
#define KIT_TOYLSM_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/capability.h>

#include "files.h"	/* write_file(), write_string(), read_file() */

#define TOYLSM_ATTR "/proc/thread-self/attr/toylsm/"
#define TOYLSM_FS "/sys/kernel/security/toylsm/"

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
 * The counters of a hook, its line "HOOK CALLS DENIALS SUPPRESSED" of
 * TOYLSM_FS "stats" (hook NULL: SUPPRESSED summed over every line):
 * how many fields the line has (3 on a kernel before the SUPPRESSED
 * column), or -1 if there is no line for hook (inode_unlink has one only
 * in the lab kernel); a field not there is -1.
 */
static inline int toylsm_stats_line(const char *hook, long *calls, long *denials,
				    long *suppressed)
{
	char buf[1024], name[64];
	FILE *f = fopen(TOYLSM_FS "stats", "re");
	long c, d, s;
	int n, found = -1;

	*calls = *denials = *suppressed = -1;
	while (f && fgets(buf, sizeof(buf), f)) {
		s = -1;
		n = sscanf(buf, "%63s %ld %ld %ld", name, &c, &d, &s);
		if (n < 3)
			continue;
		if (!hook) {
			if (n == 4)
				*suppressed = (*suppressed < 0 ? 0 : *suppressed) + s;
			found = n;
		} else if (!strcmp(name, hook)) {
			*calls = c;
			*denials = d;
			*suppressed = s;
			found = n;
			break;
		}
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * A hook's calls and denials: 0, or -1 with calls and denials -1 if
 * there is no line for hook.
 */
static inline int toylsm_stats(const char *hook, long *calls, long *denials)
{
	long s;

	return toylsm_stats_line(hook, calls, denials, &s) < 0 ? -1 : 0;
}

/*
 * The denial records the rate limit suppressed, of one hook or (hook
 * NULL) of all: -1 if stats has no such line or no such column.
 */
static inline long toylsm_stats_suppressed(const char *hook)
{
	long c, d, s;

	toylsm_stats_line(hook, &c, &d, &s);
	return s;
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

/*
 * path made anew holding "secret" (6 bytes), labelled l in
 * security.toylsm (needs CAP_MAC_ADMIN): 0, or -1 with errno.
 */
static inline int toylsm_secret_file(const char *path, const char *l)
{
	int fd;

	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY, 0666);
	if (fd < 0 || write(fd, "secret", 6) != 6)
		return -1;
	close(fd);
	return setxattr(path, "security.toylsm", l, strlen(l), 0);
}

/*
 * path made anew as a copy of /bin/busybox (static, mode 0755), labelled
 * l in security.toylsm (needs CAP_MAC_ADMIN): 0, or -1 with errno.
 */
static inline int toylsm_busybox(const char *path, const char *l)
{
	static char buf[1 << 16];
	int in = open("/bin/busybox", O_RDONLY | O_CLOEXEC), out;
	ssize_t n = -1;

	unlink(path);
	out = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
	if (in >= 0 && out >= 0)
		while ((n = read(in, buf, sizeof(buf))) > 0 && write(out, buf, n) == n)
			;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (n != 0)
		return -1;
	return setxattr(path, "security.toylsm", l, strlen(l), 0);
}

#endif
