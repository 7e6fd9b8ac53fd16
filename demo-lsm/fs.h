/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - File labels and open files' blobs, for the file and task hooks
 * and for hooks added to toylsm
 */

#ifndef _SECURITY_TOYLSM_FS_H
#define _SECURITY_TOYLSM_FS_H

#include <linux/fs.h>
#include <linux/pid.h>

#include "label.h"
#include "setup.h"
#include "terminal.h"

/**
 * struct toylsm_inode - toylsm's part of an inode's security blob
 * @label: the file's label (a secid), TOYLSM_NOLABEL if unlabelled,
 *	TOYLSM_CLOSED, or one of the unknown states of label.h (read the
 *	xattr at the next check); read and written with READ_ONCE(),
 *	WRITE_ONCE() and cmpxchg()
 * @before_removal: while @label is TOYLSM_REMOVING, what it was before
 *	the removal: the label that the hooks which read no xattr
 *	(file_mprotect) keep until a check sees the removal done. Written
 *	by the removal hook only, under the inode's lock (as every setxattr
 *	and removexattr), before @label (release/acquire).
 * @task: for a file of /proc/PID/, the task's pid (the one proc holds
 *	for the inode's life, so never another task's while the inode is
 *	there: compared, never dereferenced); @label is then the task's
 *	label (task_to_inode, which sets both when the inode is made and
 *	each time its dentry is revalidated), and only writes ask it
 *	(docs/toylsm.md, "Tasks in /proc"). NULL for any other file.
 */
struct toylsm_inode {
	u32 label;
	u32 before_removal;
	struct pid *task;
};

/**
 * toylsm_inode - toylsm's part of an inode
 * @inode: the inode
 *
 * Return: the part of @inode's blob that the infrastructure reserved for
 * toylsm (see toylsm_blob_sizes).
 */
static inline struct toylsm_inode *toylsm_inode(const struct inode *inode)
{
	return inode->i_security + toylsm_blob_sizes.lbs_inode;
}

/**
 * struct toylsm_file - toylsm's part of an open file's security blob
 * @fown_label: the label of the task that last set the file's owner
 *	(F_SETOWN), the subject of the signals sent to that owner (task.c);
 *	TOYLSM_NOLABEL until then. READ_ONCE()/WRITE_ONCE().
 */
struct toylsm_file {
	u32 fown_label;
};

/**
 * toylsm_file - toylsm's part of an open file
 * @file: the file
 *
 * Return: the part of @file's blob that the infrastructure reserved for
 * toylsm (see toylsm_blob_sizes).
 */
static inline struct toylsm_file *toylsm_file(const struct file *file)
{
	return file->f_security + toylsm_blob_sizes.lbs_file;
}

/*
 * The most labels a check of an open file asks: the file's own, its
 * device's, and those of the terminal it reaches.
 */
#define TOYLSM_FILE_LABELS	(2 + TOYLSM_TERMINAL_LABELS)

u32 toylsm_dentry_label(struct dentry *dentry);
u32 toylsm_xattr_label(struct toylsm_label_table *t, const char *buf,
		       ssize_t len);
unsigned int toylsm_file_objects(struct file *file, u32 *labels);

#endif /* _SECURITY_TOYLSM_FS_H */
