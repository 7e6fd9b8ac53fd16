// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6: stacking decisions, toylsm's rules, file labels and stats, and
 * how every stacked module must agree.
 *
 * Each function below is one step of labs/06-stacking-decisions/README.md;
 * lab.h says what each must return.  A "TODO n" comment marks the code
 * that step n asks you to write; until you write it, the function ends at
 * its placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 6.  Explore in the guest: make lab 6
 * SHELL=1, then run "stacking" (what your functions return) or
 * "stacking --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>

#include "lab.h"

#define TOYFS "/sys/kernel/security/toylsm/"

/*
 * Given: write the string s to the file path in one write(): 0 or -1.
 * Marked unused because the skeleton does not call it yet (-Werror).
 */
__attribute__((unused))
static int write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, saved;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, s, len);
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)len ? 0 : -1;
}

/*
 * Given: read the file path into buf (NUL-terminated), without one
 * trailing newline: its length, or -1.
 */
__attribute__((unused))
static int read_text(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	if (len > 0 && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	return len;
}

int lab_add_rule(const char *subject, const char *object, const char *perms)
{
	/* TODO 1: one line "SUBJECT OBJECT PERMS\n", written to TOYFS "rules" in one write() */
	char line[256];

	snprintf(line, sizeof(line), "%s %s %s\n", subject, object, perms);
	return write_file(TOYFS "rules", line);
	/* END TODO 1 */
}

int lab_label_file(const char *path, const char *label)
{
	/* TODO 2: setxattr() the security.toylsm xattr: the label's bytes, without the NUL */
	return setxattr(path, "security.toylsm", label, strlen(label), 0);
	/* END TODO 2 */
}

int lab_stats(const char *hook, long *calls, long *denials)
{
	/* TODO 3: read TOYFS "stats" line by line; the line that starts with the hook's name has the two numbers */
	char buf[1024], name[64];
	long c, d;
	FILE *f = fopen(TOYFS "stats", "re");

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "%63s %ld %ld", name, &c, &d) == 3 && !strcmp(name, hook)) {
			fclose(f);
			*calls = c;
			*denials = d;
			return 0;
		}
	}
	fclose(f);
	errno = ENOENT;
	return -1;
	/* END TODO 3 */
}

int lab_open_verdict(const char *path, int flags, int *by_toylsm)
{
	/* TODO 4: file_open's denials (lab_stats()) before and after open(); pass open()'s errno on */
	long calls, before, after;
	int fd, err;

	if (lab_stats("file_open", &calls, &before))
		return -1;
	fd = open(path, flags | O_CLOEXEC);
	err = errno;
	if (lab_stats("file_open", &calls, &after))
		return -1;
	*by_toylsm = after > before;
	if (fd < 0) {
		errno = err;
		return -1;
	}
	close(fd);
	return 0;
	/* END TODO 4 */
}

int lab_set_enforce(int on)
{
	/* TODO 5: write the number as text to TOYFS "enforce" */
	char text[16];

	snprintf(text, sizeof(text), "%d", on);
	return write_file(TOYFS "enforce", text);
	/* END TODO 5 */
}

int lab_grant_read(const char *path)
{
	/* TODO 6: toylsm: your label vs the file's security.toylsm; Smack (if active): your smack/current vs security.SMACK64, rule to /sys/fs/smackfs/load2 */
	char mine[64], theirs[64], lsms[256], rule[160];
	ssize_t n;

	/* toylsm: a rule only if the file has a label, and not yours. */
	if (read_text("/proc/thread-self/attr/toylsm/current", mine, sizeof(mine)) < 0)
		return -1;
	n = getxattr(path, "security.toylsm", theirs, sizeof(theirs) - 1);
	if (n < 0 && errno != ENODATA)
		return -1;
	if (n > 0) {
		theirs[n] = '\0';
		if (strcmp(mine, theirs) && lab_add_rule(mine, theirs, "r"))
			return -1;
	}
	/* Smack: only when it is active in this boot. */
	if (read_text("/sys/kernel/security/lsm", lsms, sizeof(lsms)) < 0)
		return -1;
	if (!strstr(lsms, "smack"))
		return 0;
	if (read_text("/proc/thread-self/attr/smack/current", mine, sizeof(mine)) < 0)
		return -1;
	n = getxattr(path, "security.SMACK64", theirs, sizeof(theirs) - 1);
	if (n < 0)
		return -1;
	theirs[n] = '\0';
	snprintf(rule, sizeof(rule), "%s %s r\n", mine, theirs);
	return write_file("/sys/fs/smackfs/load2", rule);
	/* END TODO 6 */
}
