/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Registration: the module's identity and its groups of hooks
 */

#ifndef _SECURITY_TOYLSM_SETUP_H
#define _SECURITY_TOYLSM_SETUP_H

#include <linux/init.h>
#include <linux/lsm_hooks.h>

#include "stats.h"

extern bool toylsm_initialized;
extern struct lsm_blob_sizes toylsm_blob_sizes;
extern struct lsm_id toylsm_lsmid;

void __init toylsm_add_hooks(struct security_hook_list *hooks, int count,
			     struct toylsm_hook_stat **stats, int nstats);

void __init toylsm_add_cred_hooks(void);
void __init toylsm_add_procattr_hooks(void);
void __init toylsm_add_fs_hooks(void);
void __init toylsm_add_task_hooks(void);
void __init toylsm_add_net_hooks(void);
void __init toylsm_add_secid_hooks(void);

/*
 * The extension point: hooks built from extra/ (CONFIG_SECURITY_TOYLSM_EXTRA),
 * code that is not toylsm's own, register themselves here through
 * toylsm_add_hooks(). Whoever fills extra/ defines this function.
 */
void __init toylsm_add_extra_hooks(void);

#endif /* _SECURITY_TOYLSM_SETUP_H */
