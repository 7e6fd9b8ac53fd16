// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lab 8: a new toylsm hook.  toylsm checks opening, reading and writing a
 * labelled file, but not removing it: a task that may not write a file
 * can still unlink it.  Close that hole: removing a labelled file (or
 * directory) needs the "w" permission on its label, like writing it.
 *
 * The kit builds this file into toylsm when you run make lab 8 (it lands
 * in security/toylsm/lab/ of the lab kernel, beside toylsm's own files).
 * toylsm's helpers you need:
 *   toylsm_current_label()  the current task's label (../cred.h)
 *   toylsm_inode_label()    a pointer to an inode's label (../fs.h)
 *   toylsm_check()          the rule table's verdict, counted in "stats"
 *                           and logged when it denies (../policy.h)
 */

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/lsm_audit.h>
#include <linux/lsm_hooks.h>

#include "../cred.h"
#include "../fs.h"
#include "../policy.h"
#include "../setup.h"
#include "lab.h"

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
 * toylsm_inode_unlink - May the current task remove a file?
 * @dir: the directory it is removed from
 * @dentry: the file
 *
 * Return: 0 if allowed, -EACCES if no rule grants "w" on its label.
 */
static int toylsm_inode_unlink(struct inode *dir, struct dentry *dentry)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };

	toylsm_unlink_audit(&ad, dentry);
	/* TODO 2: ask toylsm_check() for "w" on the file's label */
	return toylsm_check(TOYLSM_HOOK_INODE_UNLINK, toylsm_current_label(),
			    READ_ONCE(*toylsm_inode_label(d_backing_inode(dentry))),
			    TOYLSM_MAY_WRITE, &ad);
	/* END TODO 2 */
}

/**
 * toylsm_inode_rmdir - May the current task remove a directory?
 * @dir: the directory it is removed from
 * @dentry: the directory
 *
 * Return: 0 if allowed, -EACCES if no rule grants "w" on its label.
 */
static int toylsm_inode_rmdir(struct inode *dir, struct dentry *dentry)
{
	/* TODO 4: the same rule as for a file */
	return toylsm_inode_unlink(dir, dentry);
	/* END TODO 4 */
}

/* __maybe_unused: until TODO 1 registers the list, nothing else uses it. */
static struct security_hook_list toylsm_lab_hooks[] __maybe_unused
	__lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_unlink, toylsm_inode_unlink),
	LSM_HOOK_INIT(inode_rmdir, toylsm_inode_rmdir),
};

/**
 * toylsm_add_lab_hooks - Register the lab's hooks, called by toylsm_init()
 */
void __init toylsm_add_lab_hooks(void)
{
	/* TODO 1: register toylsm_lab_hooks, as toylsm_add_fs_hooks() does */
	security_add_hooks(toylsm_lab_hooks, ARRAY_SIZE(toylsm_lab_hooks),
			   &toylsm_lsmid);
	/* END TODO 1: LAB_TODO(1); */
}
