/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, read whole with klogctl(), for the guest tests and the
 * labs' graders:
 *
 *	kernel_log()		the log, NUL-terminated, in a static buffer
 *				(NULL if it cannot be read)
 *	kernel_log_count(s)	how many times s occurs in it (-1: unreadable)
 */
#ifndef KIT_KERNEL_LOG_H
#define KIT_KERNEL_LOG_H

#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#define KERNEL_LOG_SIZE (1 << 20)

static inline const char *kernel_log(void)
{
	static char *buf;
	int n;

	if (!buf)
		buf = malloc(KERNEL_LOG_SIZE);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, KERNEL_LOG_SIZE - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static inline int kernel_log_count(const char *s)
{
	const char *p = kernel_log();
	int count = 0;

	if (!p)
		return -1;
	while ((p = strstr(p, s))) {
		count++;
		p += strlen(s);
	}
	return count;
}

#endif
