// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4: the interface LSM, PR_LSM_ATTR_GET and PR_LSM_ATTR_SET.
 *
 * Each function below is one step of labs/04-interface-lsm/README.md;
 * lab.h says what each must return.  A "TODO n" comment marks the code
 * that step n asks you to write; until you write it, the function ends at
 * its placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 4.  Explore in the guest: make lab 4
 * SHELL=1, then run "interface" (what your functions return) or
 * "interface --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "lab.h"
#include "kit/lsm_names.h"

/* Given: the name of an LSM ID ("smack"), or NULL for an unknown ID. */
__attribute__((unused))
static const char *lsm_name(int id)
{
	for (int i = 0; i < KIT_NLSMS; i++)
		if (kit_lsms[i].id == id)
			return kit_lsms[i].name;
	return NULL;
}

/* Given: the active LSMs' IDs in registration order (lab 1), or -1. */
__attribute__((unused))
static int module_list(__u32 *ids, int max)
{
	size_t size = max * sizeof(*ids);

	return syscall(__NR_lsm_module_list, ids, &size, 0);
}

/*
 * Given: read the file path into buf as a NUL-terminated value, as lab 3
 * did: up to the first NUL (SELinux counts one), without one trailing
 * newline (AppArmor and toylsm add one).  Its length, or -1 with errno.
 */
__attribute__((unused))
static int read_value(const char *path, char *buf, size_t len)
{
	char raw[4096];
	ssize_t n;
	size_t v;
	int fd, saved;

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
}

int lab_interface(const char **name)
{
	/* TODO 1: ask the kernel: prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) (all four arguments 0); *name from lsm_name() */
	int id = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);

	if (id >= 0)
		*name = lsm_name(id);
	return id;
	/* END TODO 1 */
}

int lab_candidates(__u32 *ids, int max)
{
	/* TODO 2: for each active LSM (module_list()), PR_LSM_ATTR_SET tells: EINVAL means no slot; then choose the original again */
	__u32 all[64];
	int n = module_list(all, 64), k = 0, orig = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);

	if (n < 0 || orig < 0)
		return -1;
	for (int i = 0; i < n && k < max; i++) {
		/* A module's policy may refuse (EPERM, EACCES): still a candidate. */
		if (prctl(PR_LSM_ATTR_SET, all[i], 0, 0, 0) == 0 || errno != EINVAL)
			ids[k++] = all[i];
	}
	if (prctl(PR_LSM_ATTR_SET, orig, 0, 0, 0))
		return -1;
	return k;
	/* END TODO 2 */
}

int lab_current_of(int id, char *buf, size_t len)
{
	/* TODO 3: PR_LSM_ATTR_SET, then read_value() of the un-named /proc/self/attr/current */
	if (prctl(PR_LSM_ATTR_SET, id, 0, 0, 0))
		return -1;
	return read_value("/proc/self/attr/current", buf, len);
	/* END TODO 3 */
}

int lab_choose(int id, char *msg, size_t len)
{
	/* TODO 4: try PR_LSM_ATTR_SET; on failure save errno, then write in msg which of lab.h's reasons it is, with the errno's name */
	__u32 all[64], cand[64];
	int n, k, e, active = 0, slot = 0;
	const char *name = lsm_name(id);

	snprintf(msg, len, "%s", "");
	if (prctl(PR_LSM_ATTR_SET, id, 0, 0, 0) == 0)
		return 0;
	e = errno;
	n = module_list(all, 64);
	k = lab_candidates(cand, 64);
	for (int i = 0; i < n; i++)
		active |= (int)all[i] == id;
	for (int i = 0; i < k; i++)
		slot |= (int)cand[i] == id;
	if (e == EPERM || e == EACCES)
		snprintf(msg, len, "cannot choose %s: %s: denied by a module's policy (SELinux process2:setinterface_lsm, AppArmor)",
			 name ? name : "it", strerrorname_np(e));
	else if (e == EINVAL && !name)
		snprintf(msg, len, "cannot choose LSM %d: EINVAL: %d is an unknown LSM ID (see <linux/lsm.h>)", id, id);
	else if (e == EINVAL && !active)
		snprintf(msg, len, "cannot choose %s: EINVAL: %s is not active in this boot (see /sys/kernel/security/lsm)",
			 name, name);
	else if (e == EINVAL && !slot)
		snprintf(msg, len, "cannot choose %s: EINVAL: %s is active but keeps no secids, so it has no lsmblob slot; choose one with a slot (step 2)",
			 name, name);
	else
		snprintf(msg, len, "cannot choose %s: %s (%s)", name ? name : "it", strerrorname_np(e), strerror(e));
	errno = e;
	return -1;
	/* END TODO 4 */
}

int lab_peersec(char *buf, size_t len)
{
	/* TODO 5: socketpair(AF_UNIX, SOCK_STREAM), getsockopt(SOL_SOCKET, SO_PEERSEC) with optlen = len; optlen counts a NUL */
	socklen_t optlen = len;
	int sv[2], rc, e;
	size_t v;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	rc = getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, buf, &optlen);
	e = errno;
	close(sv[0]);
	close(sv[1]);
	errno = e;
	if (rc)
		return -1;
	/* The context ends at its NUL, which optlen counts. */
	v = strnlen(buf, optlen);
	if (v >= len) {
		errno = ERANGE;
		return -1;
	}
	buf[v] = '\0';
	return v;
	/* END TODO 5 */
}

int lab_run_with(int id, char *const argv[])
{
	/* TODO 6: fork(); the child chooses id (unless LSM_ID_INVALID), then execv(); the parent waits */
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (id != LSM_ID_INVALID && prctl(PR_LSM_ATTR_SET, id, 0, 0, 0))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	/* END TODO 6 */
}
