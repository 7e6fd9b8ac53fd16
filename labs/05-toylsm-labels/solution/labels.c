// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 5: toylsm labels, the current, exec and prev attributes.
 *
 * Each function below is one step of labs/05-toylsm-labels/README.md;
 * lab.h says what each must return.  A "TODO n" comment marks the code
 * that step n asks you to write; until you write it, the function ends at
 * its placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 5.  Explore in the guest: make lab 5
 * SHELL=1, then run "labels" (what your functions return) or
 * "labels --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "lab.h"

/*
 * Given: the path of toylsm's attribute attr of task tid; tid 0 is the
 * calling thread (/proc/thread-self, not /proc/self: a label belongs to a
 * thread, and /proc/self is the process's first thread).  Marked unused
 * because the skeleton does not call it yet (-Werror).
 */
__attribute__((unused))
static void attr_path(char *path, size_t size, pid_t tid, const char *attr)
{
	if (tid)
		snprintf(path, size, "/proc/%d/attr/toylsm/%s", (int)tid, attr);
	else
		snprintf(path, size, "/proc/thread-self/attr/toylsm/%s", attr);
}

/* Given: write the string s to the file path in one write(): 0 or -1. */
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

int lab_read_label(pid_t tid, const char *attr, char *buf, size_t len)
{
	/* TODO 1: read /proc/<tid>/attr/toylsm/<attr> (attr_path() builds the path), drop the one trailing newline, NUL-terminate */
	char path[96];
	ssize_t n;
	int fd, saved;

	attr_path(path, sizeof(path), tid, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return n;
	/* END TODO 1 */
}

int lab_set_label(const char *label)
{
	/* TODO 2: write the label to the calling thread's current attr (attr_path(..., 0, ...), write_file()) */
	char path[96];

	attr_path(path, sizeof(path), 0, "current");
	return write_file(path, label);
	/* END TODO 2 */
}

int lab_label_ok(const char *buf, size_t len)
{
	/* TODO 3: as toylsm_label_parse() in demo-lsm/label.c: one trailing newline dropped, then 1..31 of [A-Za-z0-9_.:-] */
	size_t i;
	char c;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 1 || len > 31)
		return 0;
	for (i = 0; i < len; i++) {
		c = buf[i];
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && !(c && strchr("_.:-", c)))
			return 0;
	}
	return 1;
	/* END TODO 3 */
}

int lab_exec_as(const char *label, char *const argv[])
{
	/* TODO 4: fork(); the child writes its exec attr, then execv(); a CLOEXEC pipe carries the child's errno back if either fails */
	char path[96];
	int p[2], err, st;
	ssize_t n;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		attr_path(path, sizeof(path), 0, "exec");
		if (write_file(path, label) == 0)
			execv(argv[0], argv);
		/* Not run: tell the parent why. */
		err = errno;
		n = write(p[1], &err, sizeof(err));
		_exit(n == sizeof(err) ? 127 : 126);
	}
	close(p[1]);
	n = read(p[0], &err, sizeof(err));
	close(p[0]);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (n == sizeof(err)) {
		errno = err;
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	/* END TODO 4 */
}

int lab_write_label_of(pid_t tid, const char *label)
{
	/* TODO 5: write the label to /proc/<tid>/attr/toylsm/current, whoever tid is */
	char path[96];

	attr_path(path, sizeof(path), tid, "current");
	return write_file(path, label);
	/* END TODO 5 */
}

int lab_drop_mac_admin(void)
{
	/* TODO 6: capget() this thread's capabilities, clear CAP_MAC_ADMIN's bit in the effective set, capset() them back */
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN % 32));
	return syscall(SYS_capset, &h, d) ? -1 : 0;
	/* END TODO 6 */
}
