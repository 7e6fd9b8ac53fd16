// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Secids for audit, IMA and the interface LSM
 *
 * toylsm asks for an lsmblob slot (setup.c), so the infrastructure can
 * ask it for the secid of a task or a cred, and turn one of its secids
 * into text when toylsm is the interface LSM a task chose with
 * prctl(PR_LSM_ATTR_SET, LSM_ID_TOYLSM). The texts live in the label
 * table; toylsm_secctx_live counts those handed out and not yet released,
 * so that a test can tell which module a context was released by.
 */

#include <linux/atomic.h>

#include "cred.h"
#include "label.h"
#include "setup.h"

atomic_t toylsm_secctx_live = ATOMIC_INIT(0);

/**
 * toylsm_hook_secid_to_secctx - The secid_to_secctx hook
 * @secid: a toylsm secid
 * @secdata: where to store the text, or NULL for its length only
 * @seclen: where to store its length
 *
 * Return: 0, or -EINVAL if @secid names no label.
 */
static int toylsm_hook_secid_to_secctx(u32 secid, char **secdata,
				       u32 *seclen)
{
	int err = toylsm_secid_to_secctx(secid, secdata, seclen);

	if (!err && secdata)
		atomic_inc(&toylsm_secctx_live);
	return err;
}

/**
 * toylsm_hook_release_secctx - The release_secctx hook
 * @secdata: a text toylsm_hook_secid_to_secctx() made
 * @seclen: its length
 */
static void toylsm_hook_release_secctx(char *secdata, u32 seclen)
{
	atomic_dec(&toylsm_secctx_live);
	toylsm_release_secctx(secdata, seclen);
}

static struct security_hook_list toylsm_secid_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(secid_to_secctx, toylsm_hook_secid_to_secctx),
	LSM_HOOK_INIT(secctx_to_secid, toylsm_secctx_to_secid),
	LSM_HOOK_INIT(release_secctx, toylsm_hook_release_secctx),
	LSM_HOOK_INIT(current_getsecid_subj, toylsm_current_getsecid_subj),
	LSM_HOOK_INIT(task_getsecid_obj, toylsm_task_getsecid_obj),
	LSM_HOOK_INIT(cred_getsecid, toylsm_cred_getsecid),
};

/**
 * toylsm_add_secid_hooks - Register the secid hooks
 */
__init void toylsm_add_secid_hooks(void)
{
	security_add_hooks(toylsm_secid_hooks, ARRAY_SIZE(toylsm_secid_hooks),
			   &toylsm_lsmid);
}
