/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graders' shared view of the interface LSM (labs 4 and 7): names of
 * LSM IDs, PR_LSM_ATTR_GET/SET, the active modules and which of them can
 * be chosen, a module's own "current" from lsm_self_attr, the boot's
 * module list, the grader's own SO_PEERSEC and a count of open file
 * descriptors for leak checks.
 */
#ifndef LAB_INTERFACE_LSM_H
#define LAB_INTERFACE_LSM_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>		/* PR_LSM_ATTR_* from the kit's <linux/prctl.h> */
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/lsm.h>
#include <linux/types.h>

#include "grader.h"
#include "kit/lsm_names.h"

static LAB_API const char *name_of(long id)
{
	const char *name = kit_lsm_name(id);

	if (name)
		return name;
	return id == LSM_ID_INVALID ? "LSM_ID_INVALID" : "an unknown ID";
}

static LAB_API long get_ilsm(void)
{
	return prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
}

static LAB_API long set_ilsm(long id)
{
	return prctl(PR_LSM_ATTR_SET, id, 0, 0, 0);
}

static LAB_API int active_ids(__u32 *ids, int max)
{
	size_t size = max * sizeof(*ids);
	long n = syscall(__NR_lsm_module_list, ids, &size, 0);

	lab_setup(n >= 0, "call lsm_module_list", errno);
	return n;
}

/* The truth of step 2: the active modules PR_LSM_ATTR_SET accepts. */
static LAB_API int truth_candidates(__u32 *cand, int max)
{
	__u32 ids[64];
	long orig = get_ilsm();
	int n = active_ids(ids, 64), k = 0;

	lab_setup(orig >= 0, "read its interface LSM (PR_LSM_ATTR_GET)", errno);
	for (int i = 0; i < n && k < max; i++)
		if (set_ilsm(ids[i]) == 0)
			cand[k++] = ids[i];
	lab_setup(set_ilsm(orig) == 0, "choose its interface LSM again", errno);
	lab_setup(k > 0, "find a module that can be the interface LSM", EINVAL);
	return k;
}

/*
 * Module id's "current" for this task, from lsm_self_attr(), which names
 * the module of each value: its length, or -1 if id reports none.
 */
static LAB_API int self_current(long id, char *buf, size_t len)
{
	static char mem[8192] __attribute__((aligned(8)));
	size_t size = sizeof(mem), off = 0;
	long n = syscall(__NR_lsm_self_attr, (struct lsm_ctx *)mem, &size, 0);

	lab_setup(n >= 0, "call lsm_self_attr", errno);
	for (long i = 0; i < n; i++) {
		struct lsm_ctx *c = (struct lsm_ctx *)(mem + off);

		if (c->id == id && c->flags == LSM_ATTR_CURRENT) {
			snprintf(buf, len, "%s", (char *)c->ctx);
			return strlen(buf);
		}
		off += sizeof(*c) + c->ctx_len;
	}
	return -1;
}

/* How many file descriptors are open: a leak raises it. */
static LAB_API int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	lab_setup(!!d, "list /proc/self/fd", errno);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/*
 * The grader's own SO_PEERSEC on a stream socketpair (what the learner's
 * lab_peersec() must match): the context's length, or -errno (ERANGE: it
 * needs more than len - 1 bytes and a NUL).
 */
static LAB_API int truth_peersec(char *buf, size_t len)
{
	socklen_t optlen = len - 1;
	int sv[2], rc, e;

	lab_setup(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0, "make a socketpair",
		  errno);
	rc = getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, buf, &optlen);
	e = errno;
	close(sv[0]);
	close(sv[1]);
	if (rc)
		return -e;
	buf[optlen] = '\0';
	return strlen(buf);
}

#endif
