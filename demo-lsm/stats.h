/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The calls and denials of each hook that checks rules
 */

#ifndef _SECURITY_TOYLSM_STATS_H
#define _SECURITY_TOYLSM_STATS_H

#include <linux/atomic.h>
#include <linux/init.h>

/**
 * struct toylsm_hook_stat - The counters of one hook, a line of "stats"
 * @name: the hook's name, the line's first word
 * @calls: checks made
 * @denials: checks that no rule allowed (also counted when not enforcing)
 * @suppressed: denials whose audit record the rate limit suppressed (the
 *	kernel's silent probes write none: they are not counted here)
 *
 * Whoever registers hooks that call toylsm_check() declares one per
 * hook (TOYLSM_HOOK_STAT()) and hands it to toylsm_add_hooks().
 */
struct toylsm_hook_stat {
	const char *name;
	atomic_long_t calls;
	atomic_long_t denials;
	atomic_long_t suppressed;
};

/* A struct toylsm_hook_stat for the hook @hook, e.g. (file_open). */
#define TOYLSM_HOOK_STAT(hook) { .name = #hook }

int __init toylsm_stats_add(struct toylsm_hook_stat *stat);
struct toylsm_hook_stat *toylsm_stats_get(unsigned int i);

#endif /* _SECURITY_TOYLSM_STATS_H */
