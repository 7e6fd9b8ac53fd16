// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The module's identity, its blobs and its start
 *
 * toylsm is not exclusive: it stacks with whichever major module boots.
 * Each group of hooks lives in the file of its concern and is
 * registered from here.
 */

#include <linux/init.h>
#include <linux/lsm_hooks.h>

#include "cred.h"
#include "setup.h"

bool toylsm_initialized __ro_after_init;

/* The infrastructure reserves this much of each blob for toylsm. */
struct lsm_blob_sizes toylsm_blob_sizes __lsm_ro_after_init = {
	.lbs_cred = sizeof(struct toylsm_cred),
	.lbs_inode = sizeof(u32),
	.lbs_sock = 2 * sizeof(u32),
};

struct lsm_id toylsm_lsmid __lsm_ro_after_init = {
	.name = TOYLSM_NAME,
	.id = LSM_ID_TOYLSM,
	.features = LSM_ATTR_CURRENT | LSM_ATTR_EXEC | LSM_ATTR_PREV,
	.slot = LSMBLOB_NEEDED,	/* registration replaces it with the slot */
};

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
	toylsm_add_cred_hooks();
	toylsm_add_procattr_hooks();
	toylsm_add_fs_hooks();
	toylsm_add_task_hooks();
	toylsm_add_net_hooks();
	toylsm_add_secid_hooks();
	if (IS_ENABLED(CONFIG_SECURITY_TOYLSM_LAB))
		toylsm_add_lab_hooks();
	toylsm_initialized = true;
	pr_info("toylsm: up, first task labelled \"%s\"\n", TOYLSM_INIT_LABEL);
	return 0;
}

DEFINE_LSM(toylsm) = {
	.name = TOYLSM_NAME,
	.init = toylsm_init,
	.blobs = &toylsm_blob_sizes,
};
