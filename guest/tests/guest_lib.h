/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the guest tests that drive the guest's tools (policy_*.c,
 * why_refusals.c), ask which modules the boot has (audit_contexts.c) and
 * wait for the modules' records in the kernel log (policy_*.c):
 *
 *	run(cmd)		cmd run by the shell (popen()), its output in
 *				out[] (NUL-terminated, cut at 64 KiB); its exit
 *				status, or -1 (not run, or killed by a signal)
 *	lsm_position(lsm)	where lsm is in this boot's order: its offset in
 *				",<the list of /sys/kernel/security/lsm>,", or -1
 *				when the boot does not have it
 *	lsm_active(lsm)		whether the boot has lsm: 1 or 0
 *	log_grew(s, before)	whether s comes to occur more than before
 *				times in the kernel log within a second: 1 or 0
 */
#ifndef KIT_GUEST_LIB_H
#define KIT_GUEST_LIB_H

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "kit/kernel_log.h"

static char out[1 << 16];

static inline int run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int st;

	if (!p)
		return -1;
	while (n < sizeof(out) - 1 && (r = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static inline int lsm_position(const char *lsm)
{
	char buf[256] = ",", pat[40], *p;
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	if (f) {
		if (!fgets(buf + 1, sizeof(buf) - 2, f))
			buf[1] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	strcat(buf, ",");
	snprintf(pat, sizeof(pat), ",%s,", lsm);
	p = strstr(buf, pat);
	return p ? (int)(p - buf) : -1;
}

static inline int lsm_active(const char *lsm)
{
	return lsm_position(lsm) >= 0;
}

static inline int log_grew(const char *s, int before)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 50; i++) {
		if (kernel_log_count(s) > before)
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

#endif
