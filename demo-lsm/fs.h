/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - File labels, for the file hooks and the kernel-side labs
 */

#ifndef _SECURITY_TOYLSM_FS_H
#define _SECURITY_TOYLSM_FS_H

#include <linux/fs.h>

#include "label.h"
#include "setup.h"

/**
 * toylsm_inode_label - toylsm's part of an inode's blob: its label
 * @inode: the inode
 *
 * Return: a pointer to the label's secid, TOYLSM_NOLABEL if unlabelled.
 */
static inline u32 *toylsm_inode_label(const struct inode *inode)
{
	return inode->i_security + toylsm_blob_sizes.lbs_inode;
}

u32 toylsm_dentry_label(struct dentry *dentry);
u32 toylsm_xattr_label(struct toylsm_label_table *t, const char *buf,
		       ssize_t len);

#endif /* _SECURITY_TOYLSM_FS_H */
