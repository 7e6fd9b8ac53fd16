// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The list of hooks that have a line in "stats"
 *
 * Filled at boot by toylsm_add_hooks(), before any other task runs, and
 * only read after: readers take no lock.
 */

#include "common.h"

#include <linux/errno.h>
#include <linux/kernel.h>

#include "limits.h"
#include "stats.h"

static struct toylsm_hook_stat *toylsm_stats[TOYLSM_STATS_MAX] __ro_after_init;
static unsigned int toylsm_nstats __ro_after_init;

/**
 * toylsm_stats_add - Give a hook its line in "stats"
 * @stat: its counters
 *
 * Return: 0, or -ENOSPC if TOYLSM_STATS_MAX hooks have lines already.
 */
int __init toylsm_stats_add(struct toylsm_hook_stat *stat)
{
	if (toylsm_nstats == ARRAY_SIZE(toylsm_stats)) {
		pr_err("no line in stats for the hook %s: raise TOYLSM_STATS_MAX\n",
		       stat->name);
		return -ENOSPC;
	}
	toylsm_stats[toylsm_nstats++] = stat;
	return 0;
}

/**
 * toylsm_stats_get - The counters of the i-th hook of "stats"
 * @i: the line, from 0
 *
 * Return: the counters, or NULL past the last line.
 */
struct toylsm_hook_stat *toylsm_stats_get(unsigned int i)
{
	return i < toylsm_nstats ? toylsm_stats[i] : NULL;
}
