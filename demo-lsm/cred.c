// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Task labels: inheritance and the exec transition
 *
 * The infrastructure allocates toylsm's part of every cred and zeroes
 * it; toylsm only copies it. A child inherits its parent's labels
 * because fork copies the parent's cred, and exec takes the "exec"
 * label if one was set.
 */

#include "common.h"

#include <linux/binfmts.h>

#include "cred.h"
#include "fs.h"
#include "label.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"
#include "terminal.h"

static struct toylsm_hook_stat stat_bprm_creds_for_exec =
	TOYLSM_HOOK_STAT(bprm_creds_for_exec);

/**
 * hook_cred_prepare - Copy the labels into a new cred
 * @new: the new cred
 * @old: the cred it is made from
 * @gfp: allocation flags (unused: nothing to allocate)
 *
 * Return: 0.
 */
static int hook_cred_prepare(struct cred *new, const struct cred *old,
			     gfp_t gfp)
{
	*toylsm_cred(new) = *toylsm_cred(old);
	return 0;
}

/**
 * hook_cred_transfer - Copy the labels into a blank cred
 * @new: the new cred
 * @old: the cred to copy from
 */
static void hook_cred_transfer(struct cred *new, const struct cred *old)
{
	*toylsm_cred(new) = *toylsm_cred(old);
}

/**
 * hook_bprm_creds_for_exec - Take the exec label, if one was set
 * @bprm: the exec in progress; bprm->cred becomes the task's cred
 *
 * The exec label is consumed: it applies to one exec only. "prev"
 * remembers the label before the transition. Whether the task may take
 * the label was decided when it wrote the exec attribute; whether its
 * tracer may trace it is decided here (check_unsafe_exec() has set
 * LSM_UNSAFE_PTRACE), as SELinux does.
 *
 * Return: 0, or -EPERM: a tracer that may not trace the new label.
 */
static int hook_bprm_creds_for_exec(struct linux_binprm *bprm)
{
	struct toylsm_cred *tc = toylsm_cred(bprm->cred);

	if (tc->exec != TOYLSM_NOLABEL && (bprm->unsafe & LSM_UNSAFE_PTRACE) &&
	    toylsm_check_tracer(&stat_bprm_creds_for_exec, tc->exec))
		return -EPERM;
	if (tc->exec != TOYLSM_NOLABEL) {
		tc->prev = tc->label;
		tc->label = tc->exec;
		tc->exec = TOYLSM_NOLABEL;
	}
	return 0;
}

/**
 * hook_bprm_check_security - Keep an image unreadable from being dumped
 * @bprm: the exec in progress; bprm->file is the program, and then each
 *	interpreter of a script (#!) in turn
 *
 * "x" without "r" runs a program without letting the task read it. The
 * kernel keeps such a program's image from its tracers and core dumps
 * by making it undumpable (would_dump(), for a file that the user may
 * execute but not read), which a check in file_open cannot trigger. So
 * when the task, under its label before or after this exec, may not read
 * the program, the image is made undumpable here: only a tracer with
 * CAP_SYS_PTRACE reads it then, as for a mode 0711 program. Not when
 * "enforce" is 0, where reading it would be allowed.
 *
 * Return: 0.
 */
static int hook_bprm_check_security(struct linux_binprm *bprm)
{
	u32 file = toylsm_dentry_label(file_dentry(bprm->file));

	if (READ_ONCE(toylsm_enforce) &&
	    (!toylsm_allows(toylsm_current_label(), file, TOYLSM_MAY_READ) ||
	     !toylsm_allows(toylsm_cred(bprm->cred)->label, file,
			    TOYLSM_MAY_READ)))
		bprm->interp_flags |= BINPRM_FLAGS_ENFORCE_NONDUMP;
	return 0;
}

/**
 * hook_bprm_committing_creds - Give up the terminals the new label may not use
 * @bprm: the exec; bprm->cred is about to become the task's cred
 *
 * An exec that takes the "exec" label gives up the controlling terminal
 * and the descriptors of terminals its new label may not read and write
 * (terminal.c), as SELinux does here: its descriptor table is its own
 * since begin_new_exec()'s unshare_files().
 */
static void hook_bprm_committing_creds(struct linux_binprm *bprm)
{
	u32 label = toylsm_cred(bprm->cred)->label;

	if (label != toylsm_current_label())
		toylsm_drop_terminals(label);
}

/**
 * toylsm_cred_init - Give the first task its label
 *
 * Runs while the kernel is single-threaded, before any other task
 * exists; every later task inherits the label from it.
 *
 * Return: 0, or the error of interning the label.
 */
int __init toylsm_cred_init(void)
{
	struct toylsm_cred *tc = toylsm_cred(current_cred());

	return toylsm_label_intern(&toylsm_labels, TOYLSM_INIT_LABEL,
				   &tc->label);
}

static struct security_hook_list toylsm_cred_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(cred_prepare, hook_cred_prepare),
	LSM_HOOK_INIT(cred_transfer, hook_cred_transfer),
	LSM_HOOK_INIT(bprm_creds_for_exec, hook_bprm_creds_for_exec),
	LSM_HOOK_INIT(bprm_check_security, hook_bprm_check_security),
	LSM_HOOK_INIT(bprm_committing_creds, hook_bprm_committing_creds),
};

static struct toylsm_hook_stat *toylsm_cred_stats[] __initdata = {
	&stat_bprm_creds_for_exec,
};

/**
 * toylsm_add_cred_hooks - Register the cred and exec hooks
 */
__init void toylsm_add_cred_hooks(void)
{
	toylsm_add_hooks(toylsm_cred_hooks, ARRAY_SIZE(toylsm_cred_hooks),
			 toylsm_cred_stats, ARRAY_SIZE(toylsm_cred_stats));
}
