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

#include "common.h"

#include <linux/atomic.h>

#include "cred.h"
#include "label.h"
#include "setup.h"

atomic_t toylsm_secctx_live = ATOMIC_INIT(0);

/**
 * hook_secid_to_secctx - The text of a toylsm secid
 * @secid: a toylsm secid
 * @secdata: where to store the text, or NULL for its length only
 * @seclen: where to store its length
 *
 * Return: 0, or -EINVAL if @secid names no label.
 */
static int hook_secid_to_secctx(u32 secid, char **secdata, u32 *seclen)
{
	int err = toylsm_secid_to_secctx(secid, secdata, seclen);

	if (!err && secdata)
		atomic_inc(&toylsm_secctx_live);
	return err;
}

/**
 * hook_secctx_to_secid - The secid of a label's text
 * @secdata: the text, not NUL-terminated
 * @seclen: its length
 * @secid: where to store the secid
 *
 * Return: 0, or -EINVAL if the text is no interned label.
 */
static int hook_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	return toylsm_secctx_to_secid(secdata, seclen, secid);
}

/**
 * hook_release_secctx - Release a text hook_secid_to_secctx() made
 * @secdata: the text
 * @seclen: its length
 */
static void hook_release_secctx(char *secdata, u32 seclen)
{
	atomic_dec(&toylsm_secctx_live);
	toylsm_release_secctx(secdata, seclen);
}

/**
 * hook_current_getsecid_subj - The secid of the current task
 * @secid: where to store it
 */
static void hook_current_getsecid_subj(u32 *secid)
{
	*secid = toylsm_current_label();
}

/**
 * hook_task_getsecid_obj - The secid of a task, as an object
 * @p: the task
 * @secid: where to store it
 */
static void hook_task_getsecid_obj(struct task_struct *p, u32 *secid)
{
	*secid = toylsm_task_label(p);
}

/**
 * hook_cred_getsecid - The secid of a cred
 * @c: the cred
 * @secid: where to store it
 */
static void hook_cred_getsecid(const struct cred *c, u32 *secid)
{
	*secid = toylsm_cred(c)->label;
}

static struct security_hook_list toylsm_secid_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(secid_to_secctx, hook_secid_to_secctx),
	LSM_HOOK_INIT(secctx_to_secid, hook_secctx_to_secid),
	LSM_HOOK_INIT(release_secctx, hook_release_secctx),
	LSM_HOOK_INIT(current_getsecid_subj, hook_current_getsecid_subj),
	LSM_HOOK_INIT(task_getsecid_obj, hook_task_getsecid_obj),
	LSM_HOOK_INIT(cred_getsecid, hook_cred_getsecid),
};

/**
 * toylsm_add_secid_hooks - Register the secid hooks
 */
__init void toylsm_add_secid_hooks(void)
{
	toylsm_add_hooks(toylsm_secid_hooks, ARRAY_SIZE(toylsm_secid_hooks),
			 NULL, 0);
}
