/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the graders of the labs on toylsm: its files in securityfs (a
 * write in one write(), as the kernel parses it; a read of the whole
 * file) and the grader's own view of its counters:
 *
 *	puts_to(TOYFS "rules", "l6-s l6-o -\n");	one write(): 0 or -errno
 *	get(TOYFS "enforce", buf, sizeof(buf));		the whole file, NUL-terminated
 *	stats("file_open", &calls, &denials);		a hook's line of TOYFS "stats"
 *
 * Include after grader.h.
 */
#ifndef LAB_TOYFS_H
#define LAB_TOYFS_H

#include <string.h>

#define TOYFS "/sys/kernel/security/toylsm/"

/* Write len bytes to path in one write(): 0, or -errno. */
LAB_API int put(const char *path, const char *buf, size_t len)
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
LAB_API int puts_to(const char *path, const char *s)
{
	return put(path, s, strlen(s));
}

/* Read path into buf (NUL-terminated): its length, or -errno. */
LAB_API int get(const char *path, char *buf, size_t size)
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

/*
 * The grader's own read of a hook's counters, the line "HOOK CALLS
 * DENIALS" of TOYFS "stats": 0, or -1 with calls and denials -1 if there
 * is no line for hook (inode_unlink has one only in the lab kernel).
 */
LAB_API int stats(const char *hook, long *calls, long *denials)
{
	char buf[1024], name[64];
	FILE *f = fopen(TOYFS "stats", "re");
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

#endif /* LAB_TOYFS_H */
