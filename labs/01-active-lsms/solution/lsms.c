// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: which LSMs are active.
 *
 * Each function below is one step of labs/01-active-lsms/README.md; lab.h
 * says what each must return.  A "TODO n" comment marks the code that step
 * n asks you to write; until you write it, the function ends at its
 * placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 1.  Explore in the guest: make lab 1
 * SHELL=1, then run "lsms" (what your functions return) or
 * "lsms --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lab.h"

int lab_securityfs_list(char *buf, size_t len)
{
	/* TODO 1: open /sys/kernel/security/lsm, read() it into buf until EOF, NUL-terminate it; E2BIG if it does not fit */
	int fd, saved;
	size_t got = 0;
	ssize_t n = 0;

	fd = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += n;
	saved = errno;
	close(fd);
	errno = saved;
	if (n < 0)
		return -1;
	if (got >= len) {
		errno = E2BIG;
		return -1;
	}
	buf[got] = '\0';
	return got;
	/* END TODO 1 */
}

long lab_module_list_size(void)
{
	/* TODO 2: call lsm_module_list with ids = NULL and size = 0: it must fail with E2BIG, and then size holds the answer */
	size_t size = 0;

	if (syscall(__NR_lsm_module_list, NULL, &size, 0) == 0)
		return 0;	/* no LSM at all: nothing is needed */
	if (errno != E2BIG)
		return -1;
	return size;
	/* END TODO 2 */
}

long lab_module_list(__u32 *ids, size_t max)
{
	/* TODO 3: *size is the room in bytes, not in IDs; the return value is the count */
	size_t size = max * sizeof(*ids);

	return syscall(__NR_lsm_module_list, ids, &size, 0);
	/* END TODO 3 */
}

const char *lab_lsm_name(__u32 id)
{
	/* TODO 4: one case per LSM_ID_* of <linux/lsm.h> */
	switch (id) {
	case LSM_ID_CAPABILITY:	return "capability";
	case LSM_ID_SELINUX:	return "selinux";
	case LSM_ID_SMACK:	return "smack";
	case LSM_ID_TOMOYO:	return "tomoyo";
	case LSM_ID_IMA:	return "ima";
	case LSM_ID_APPARMOR:	return "apparmor";
	case LSM_ID_YAMA:	return "yama";
	case LSM_ID_LOADPIN:	return "loadpin";
	case LSM_ID_SAFESETID:	return "safesetid";
	case LSM_ID_LOCKDOWN:	return "lockdown";
	case LSM_ID_BPF:	return "bpf";
	case LSM_ID_LANDLOCK:	return "landlock";
	case LSM_ID_TOYLSM:	return "toylsm";
	}
	return NULL;
	/* END TODO 4: return LAB_TODO_NULL(4); */
}

int lab_names_from_ids(char *buf, size_t len)
{
	/* TODO 5: get the IDs (step 3), then append "name," per ID with snprintf(); no comma after the last one */
	__u32 ids[64];
	long count = lab_module_list(ids, 64);
	size_t used = 0;
	long i;

	if (count < 0)
		return -1;
	if (len == 0) {
		errno = E2BIG;
		return -1;
	}
	buf[0] = '\0';
	for (i = 0; i < count; i++) {
		const char *name = lab_lsm_name(ids[i]);
		int n = snprintf(buf + used, len - used, "%s%s",
				 i ? "," : "", name ? name : "?");

		if (n < 0 || (size_t)n >= len - used) {
			errno = E2BIG;
			return -1;
		}
		used += n;
	}
	return used;
	/* END TODO 5 */
}
