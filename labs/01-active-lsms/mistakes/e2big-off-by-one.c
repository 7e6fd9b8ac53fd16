// SPDX-License-Identifier: GPL-2.0
/*
 * A mistake a learner made, for tests/host/lab-hints.sh: step 1 reads the
 * file into a buffer of its own and refuses only a text LONGER than len,
 * so a text of exactly len bytes gets its NUL at buf[len], one byte past
 * the end.  It passes with 512 and 8 bytes of room; the grader must try
 * the edge.  The other steps are the reference solution's.
 *
 * expect: step 1 hint: it fits only if length < len
 * expect: step 2 passes
 * expect: step 5 passes
 */
#define lab_securityfs_list lab_securityfs_list_reference
#include "../solution/lsms.c"
#undef lab_securityfs_list

int lab_securityfs_list(char *buf, size_t len)
{
	char tmp[4096];
	ssize_t n;
	int fd = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, tmp, sizeof(tmp));
	close(fd);
	if (n < 0)
		return -1;
	if ((size_t)n > len) {		/* the mistake: >= len */
		errno = E2BIG;
		return -1;
	}
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return n;
}
