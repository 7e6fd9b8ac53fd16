// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 3: /proc attrs, the per-LSM directories and the un-named files.
 *
 * Each function below is one step of labs/03-procattr/README.md; lab.h
 * says what each must return.  A "TODO n" comment marks the code that step
 * n asks you to write; until you write it, the function ends at its
 * placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 3.  Explore in the guest: make lab 3
 * SHELL=1, then run "procattr" (what your functions return) or
 * "procattr --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "lab.h"

/*
 * Given: the path of an attr file (lsm NULL: the un-named file).  Marked
 * unused because the skeleton does not call it yet (-Werror).
 */
__attribute__((unused))
static void attr_path(char *path, size_t size, const char *lsm, const char *attr)
{
	if (lsm)
		snprintf(path, size, "/proc/self/attr/%s/%s", lsm, attr);
	else
		snprintf(path, size, "/proc/self/attr/%s", attr);
}

/* Given: the name of an LSM ID, as in lab 1; NULL if unknown. */
__attribute__((unused))
static const char *lsm_name(int id)
{
	static const char *const names[] = {
		"capability", "selinux", "smack", "tomoyo", "ima", "apparmor",
		"yama", "loadpin", "safesetid", "lockdown", "bpf", "landlock",
		"toylsm",
	};

	if (id < LSM_ID_CAPABILITY || id > LSM_ID_TOYLSM)
		return NULL;
	return names[id - LSM_ID_CAPABILITY];
}

int lab_read_attr(const char *lsm, const char *attr, char *buf, size_t len)
{
	/* TODO 1: open and read() the file; the value ends at the first NUL, minus one trailing newline; E2BIG if it does not fit */
	char path[256], raw[4096];
	ssize_t n;
	size_t v;
	int fd, saved;

	attr_path(path, sizeof(path), lsm, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, raw, sizeof(raw));
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	v = strnlen(raw, n);
	if (v > 0 && raw[v - 1] == '\n')
		v--;
	if (v + 1 > len) {
		errno = E2BIG;
		return -1;
	}
	memcpy(buf, raw, v);
	buf[v] = '\0';
	return v;
	/* END TODO 1 */
}

const char *lab_attr_dir(int lsmid)
{
	/* TODO 2: the directory has the module's name (lsm_name()); is it really there? stat() it */
	const char *name = lsm_name(lsmid);
	char path[64];
	struct stat st;

	if (!name)
		return NULL;
	snprintf(path, sizeof(path), "/proc/self/attr/%s", name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? name : NULL;
	/* END TODO 2: return LAB_TODO_NULL(2); */
}

int lab_unnamed_owner(void)
{
	/* TODO 3: the IDs in registration order (lsm_module_list, lab 1); the first one whose module has the getprocattr hook answers */
	__u32 ids[64];
	size_t size = sizeof(ids);
	long n = syscall(__NR_lsm_module_list, ids, &size, 0), i;

	for (i = 0; i < n; i++) {
		if (ids[i] == LSM_ID_SELINUX || ids[i] == LSM_ID_SMACK ||
		    ids[i] == LSM_ID_APPARMOR || ids[i] == LSM_ID_TOYLSM)
			return ids[i];
	}
	return LSM_ID_INVALID;
	/* END TODO 3 */
}

int lab_write_attr(const char *lsm, const char *attr, const char *value)
{
	/* TODO 4: open the file for writing, write() the whole string (not its NUL), pass on the kernel's error */
	char path[256];
	size_t len = strlen(value);
	ssize_t n;
	int fd, saved;

	attr_path(path, sizeof(path), lsm, attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = write(fd, value, len);
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)len ? 0 : -1;
	/* END TODO 4 */
}
