// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The module's identity, its blobs and its start
 *
 * toylsm is not exclusive: it stacks with whichever major module boots.
 * Each group of hooks lives in the file of its concern and is
 * registered from here; code outside toylsm adds hooks through the same
 * toylsm_add_hooks() (toylsm_add_extra_hooks()).
 */

#include "common.h"

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/lsm_hooks.h>

#include "audit.h"
#include "cred.h"
#include "fs.h"
#include "net.h"
#include "setup.h"
#include "stats.h"

bool toylsm_initialized __ro_after_init;

/*
 * The infrastructure reserves this much of each blob for toylsm. 6.1's
 * lsm_set_blob_size() places the next module's part right after ours
 * without aligning it, so each size is rounded up to a pointer's: a
 * module whose blob holds a pointer (AppArmor's cred) may come next.
 */
struct lsm_blob_sizes toylsm_blob_sizes __lsm_ro_after_init = {
	.lbs_cred = ALIGN(sizeof(struct toylsm_cred), sizeof(void *)),
	.lbs_file = ALIGN(sizeof(struct toylsm_file), sizeof(void *)),
	.lbs_inode = ALIGN(sizeof(struct toylsm_inode), sizeof(void *)),
	.lbs_sock = ALIGN(sizeof(struct toylsm_sock), sizeof(void *)),
};

struct lsm_id toylsm_lsmid __lsm_ro_after_init = {
	.name = TOYLSM_NAME,
	.id = LSM_ID_TOYLSM,
	.features = LSM_ATTR_CURRENT | LSM_ATTR_EXEC | LSM_ATTR_PREV,
	.slot = LSMBLOB_NEEDED,	/* registration replaces it with the slot */
};

/**
 * toylsm_add_hooks - Register hooks as toylsm's, with their stats lines
 * @hooks: the hooks
 * @count: their number
 * @stats: the counters of those that call toylsm_check(), each a line
 *	of "stats"
 * @nstats: their number
 */
void __init toylsm_add_hooks(struct security_hook_list *hooks, int count,
			     struct toylsm_hook_stat **stats, int nstats)
{
	int i;

	for (i = 0; i < nstats; i++)
		toylsm_stats_add(stats[i]);
	security_add_hooks(hooks, count, &toylsm_lsmid);
}

/**
 * toylsm_init - Label the first task and register the hooks
 *
 * Return: 0, or the error of labelling the first task.
 */
static int __init toylsm_init(void)
{
	int err = toylsm_cred_init();

	if (err)
		return err;
	toylsm_audit_init();
	toylsm_add_fs_hooks();
	toylsm_add_task_hooks();
	toylsm_add_procattr_hooks();
	toylsm_add_cred_hooks();
	toylsm_add_net_hooks();
	toylsm_add_secid_hooks();
	if (IS_ENABLED(CONFIG_SECURITY_TOYLSM_EXTRA))
		toylsm_add_extra_hooks();
	toylsm_initialized = true;
	pr_info("up, first task labelled \"%s\"\n", TOYLSM_INIT_LABEL);
	return 0;
}

DEFINE_LSM(toylsm) = {
	.name = TOYLSM_NAME,
	.init = toylsm_init,
	.blobs = &toylsm_blob_sizes,
};
