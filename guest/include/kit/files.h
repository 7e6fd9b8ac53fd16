/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small files read and written whole, for all of the kit's user space (the
 * guest tests, the labs' graders, the guest's tools): securityfs and /proc
 * files are parsed by the kernel one write() at a time, so each helper
 * writes in one write() and reads to the end.
 *
 *	write_file(path, buf, len), write_string(path, s)	0 or -errno
 *	read_file(path, buf, size)	the length (NUL-terminated), or -errno
 *	read_text(path, buf, len)	the same without the trailing newline
 *					and NULs (SELinux counts its NUL)
 *	create_file(path, content)	a new regular file (mode 0666, the
 *					umask's), replacing one there: 0 or -errno
 *	read_int(fd)			one int a child wrote to a pipe, or
 *					-999 (none: the child died first)
 */
#ifndef KIT_FILES_H
#define KIT_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/*
 * read_text - read a small file into buf (NUL-terminated); strip the one
 * trailing newline and any trailing NULs (SELinux counts its NUL).
 * Returns the length, or -errno.
 */
static inline int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int err = errno;

		fclose(f);
		return -err;
	}
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (int)strlen(buf);
}

/* A fresh file at path (any old one unlinked) holding content: 0 or -errno. */
static inline int create_file(const char *path, const char *content)
{
	size_t len = strlen(content);
	int fd, err = 0;

	if (unlink(path) && errno != ENOENT)
		return -errno;
	fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (write(fd, content, len) != (ssize_t)len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

/* One int read from fd (a child's result, written whole to a pipe), or -999. */
static inline int read_int(int fd)
{
	int v = -999;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -999;
	return v;
}

#endif
