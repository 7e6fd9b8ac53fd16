/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Registration: the module's identity and its groups of hooks
 */

#ifndef _SECURITY_TOYLSM_SETUP_H
#define _SECURITY_TOYLSM_SETUP_H

#include <linux/lsm_hooks.h>

#define TOYLSM_NAME "toylsm"

extern bool toylsm_initialized;
extern struct lsm_blob_sizes toylsm_blob_sizes;
extern struct lsm_id toylsm_lsmid;

void __init toylsm_add_cred_hooks(void);
void __init toylsm_add_procattr_hooks(void);
void __init toylsm_add_fs_hooks(void);
void __init toylsm_add_task_hooks(void);
void __init toylsm_add_net_hooks(void);
void __init toylsm_add_secid_hooks(void);
/* In lab/, the workshop's kernel-side labs (CONFIG_SECURITY_TOYLSM_LAB). */
void __init toylsm_add_lab_hooks(void);

#endif /* _SECURITY_TOYLSM_SETUP_H */
