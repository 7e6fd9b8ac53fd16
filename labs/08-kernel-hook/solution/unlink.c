// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lab 8: a new toylsm hook.  toylsm checks opening, reading and writing a
 * labelled file, but not removing it: a task that may not write a file
 * can still unlink it.  Close that hole: removing a labelled file (or
 * directory) needs the "w" permission on its label, like writing it.
 *
 * The kit builds this file into toylsm when you run make lab 8 (it lands
 * in security/toylsm/extra/ of the lab kernel, beside toylsm's own files;
 * toylsm's boot calls lab8_add_hooks() through toylsm_add_extra_hooks()).
 * toylsm's helpers you need (docs/toylsm.md says what they enforce):
 *   toylsm_add_hooks()      register hooks as toylsm's, each hook that
 *                           checks with its line of "stats" (../setup.h)
 *   toylsm_current_label()  the current task's label (../cred.h)
 *   toylsm_dentry_label()   a file's label, for a check (../fs.h)
 *   toylsm_check()          the rule table's verdict, counted on the
 *                           hook's line of "stats" and logged when it
 *                           denies (../policy.h)
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_audit.h>
#include <linux/lsm_hooks.h>

#include "../cred.h"
#include "../fs.h"
#include "../policy.h"
#include "../setup.h"
#include "../stats.h"
#include "lab.h"

/* The line "inode_unlink CALLS DENIALS SUPPRESSED" of toylsm's stats. */
static struct toylsm_hook_stat stat_inode_unlink =
	TOYLSM_HOOK_STAT(inode_unlink);

/**
 * toylsm_unlink_audit - Say in the denial record which file it was
 * @ad: the audit data toylsm_check() logs when it denies
 * @dentry: the file being removed
 *
 * Without this the record says "toylsm=denied hook=inode_unlink ..."
 * but not which file; with it, common_lsm_audit() adds name= and ino=.
 */
static void toylsm_unlink_audit(struct common_audit_data *ad,
				struct dentry *dentry)
{
	/* TODO 3: make @ad a record about a dentry (LSM_AUDIT_DATA_DENTRY) */
	ad->type = LSM_AUDIT_DATA_DENTRY;
	ad->u.dentry = dentry;
	/* END TODO 3: LAB_TODO(3); */
}

/**
 * hook_inode_unlink - May the current task remove a file?
 * @dir: the directory it is removed from
 * @dentry: the file
 *
 * Return: 0 if allowed, -EACCES if no rule grants "w" on its label.
 */
static int hook_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };

	toylsm_unlink_audit(&ad, dentry);
	/* TODO 2: ask toylsm_check() for "w" on the file's label */
	return toylsm_check(&stat_inode_unlink, toylsm_current_label(),
			    toylsm_dentry_label(dentry), TOYLSM_MAY_WRITE, &ad);
	/* END TODO 2 */
}

/**
 * hook_inode_rmdir - May the current task remove a directory?
 * @dir: the directory it is removed from
 * @dentry: the directory
 *
 * Return: 0 if allowed, -EACCES if no rule grants "w" on its label.
 */
static int hook_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	/* TODO 4: the same rule as for a file */
	return hook_inode_unlink(dir, dentry);
	/* END TODO 4 */
}

/* __maybe_unused: until TODO 1 registers them, nothing else uses them. */
static struct security_hook_list lab8_hooks[] __maybe_unused
	__lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, hook_inode_unlink),
	LSM_HOOK_INIT(inode_rmdir, hook_inode_rmdir),
};

static struct toylsm_hook_stat *lab8_stats[] __maybe_unused __initdata = {
	&stat_inode_unlink,
};

/**
 * lab8_add_hooks - Register the lab's hooks, called while toylsm starts
 */
void __init lab8_add_hooks(void)
{
	/* TODO 1: hand lab8_hooks and lab8_stats to toylsm_add_hooks() */
	toylsm_add_hooks(lab8_hooks, ARRAY_SIZE(lab8_hooks), lab8_stats,
			 ARRAY_SIZE(lab8_stats));
	/* END TODO 1: LAB_TODO(1); */
}
