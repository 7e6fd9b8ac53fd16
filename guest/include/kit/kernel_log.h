/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log, read whole with klogctl(), for the guest tests and the
 * labs' graders:
 *
 *	kernel_log()		the log, NUL-terminated, in a static buffer
 *				(NULL if it cannot be read)
 *	kernel_log_count(s)	how many times s occurs in it (-1: unreadable)
 *	kernel_log_unlimited()	turn off the kernel's printk rate limit, under
 *				which audit records (AVCs, AppArmor's, toylsm's)
 *				reach the log when no audit daemon reads them: at
 *				most 10 every 5 s, the rest dropped ("kauditd_printk_skb:
 *				N callbacks suppressed"); 0, or -1
 */
#ifndef KIT_KERNEL_LOG_H
#define KIT_KERNEL_LOG_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#define KERNEL_LOG_SIZE (1024 * 1024)

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

static inline int kernel_log_unlimited(void)
{
	int fd = open("/proc/sys/kernel/printk_ratelimit", O_WRONLY);
	int ok = fd >= 0 && write(fd, "0", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

#endif
