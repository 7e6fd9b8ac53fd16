// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - File labels and file access checks
 *
 * A file's label is its security.toylsm xattr, read when the inode is
 * first instantiated and kept in the inode's security blob; setting the
 * xattr (CAP_MAC_ADMIN only) updates it. A file without it, or with one
 * that is no valid label, is unlabelled, and every task may access it.
 * A valid label that cannot be interned because the label table is full,
 * or a label that cannot be read (-EIO, -ENOMEM), fails closed: the file
 * is TOYLSM_UNLOADED, open to no task.
 */

#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/xattr.h>

#include "cred.h"
#include "fs.h"
#include "label.h"
#include "policy.h"

#define TOYLSM_XATTR "security.toylsm"

/**
 * toylsm_xattr_label - The secid of a file's security.toylsm xattr
 * @t: the label table
 * @buf: the xattr's value, not NUL-terminated
 * @len: its length, or the error of reading it (-ENODATA: none)
 *
 * No xattr (-ENODATA, -EOPNOTSUPP), or one that is no valid label (a
 * value longer than any label reads as -ERANGE), leaves the file
 * unlabelled. What the file's label is cannot be known after any other
 * read error (-ENOMEM, -EIO), nor when a valid label cannot be interned
 * (the table is full), and those must not: an unlabelled file is open
 * to every task, so the file gets TOYLSM_UNLOADED instead, which no task
 * has and no rule names.
 *
 * Return: the label's secid, TOYLSM_NOLABEL or TOYLSM_UNLOADED.
 */
u32 toylsm_xattr_label(struct toylsm_label_table *t, const char *buf,
		       ssize_t len)
{
	char label[TOYLSM_LABEL_MAX + 1];
	u32 secid;

	if (len == -ENODATA || len == -EOPNOTSUPP || len == -ERANGE)
		return TOYLSM_NOLABEL;
	if (len < 0)
		return TOYLSM_UNLOADED;
	if (!len || toylsm_label_parse(buf, len, label))
		return TOYLSM_NOLABEL;
	if (toylsm_label_intern(t, label, &secid))
		return TOYLSM_UNLOADED;
	return secid;
}

/**
 * toylsm_d_instantiate - Read the label of an inode from its xattr
 * @dentry: a dentry of the inode
 * @inode: the inode, or NULL
 *
 * A label that cannot be loaded closes the file to every task (until
 * CAP_MAC_ADMIN sets a label that is in the table, or removes it); the
 * kernel log says which file, rate-limited.
 */
static void toylsm_d_instantiate(struct dentry *dentry, struct inode *inode)
{
	char buf[TOYLSM_LABEL_MAX + 2];
	ssize_t len;
	u32 secid;

	if (!inode || !(inode->i_opflags & IOP_XATTR))
		return;
	len = __vfs_getxattr(dentry, inode, TOYLSM_XATTR, buf, sizeof(buf));
	secid = toylsm_xattr_label(&toylsm_labels, buf, len);
	if (secid == TOYLSM_UNLOADED && len < 0)
		pr_warn_ratelimited("toylsm: reading the label of %s inode %lu failed (%zd): it is closed to every task\n",
				    inode->i_sb->s_id, inode->i_ino, len);
	else if (secid == TOYLSM_UNLOADED)
		pr_warn_ratelimited("toylsm: label table full: %s inode %lu, labelled \"%.*s\", is closed to every task\n",
				    inode->i_sb->s_id, inode->i_ino,
				    (int)(len - (buf[len - 1] == '\n')), buf);
	if (secid != TOYLSM_NOLABEL)
		WRITE_ONCE(*toylsm_inode_label(inode), secid);
}

/**
 * toylsm_inode_xattr_skipcap - Claim security.toylsm as toylsm's own
 * @name: the xattr's name
 *
 * Who may change security.toylsm is decided here (CAP_MAC_ADMIN), not by
 * the capability module's CAP_SYS_ADMIN rule for security.* names, which
 * the infrastructure applies to every name that no module claims.
 *
 * Return: 1 for security.toylsm, 0 for any other name.
 */
static int toylsm_inode_xattr_skipcap(const char *name)
{
	return !strcmp(name, TOYLSM_XATTR);
}

/**
 * toylsm_inode_setxattr - Check a new security.toylsm before it is set
 * @mnt_userns: the mount's user namespace
 * @dentry: the file
 * @name: the xattr's name
 * @value: its new value
 * @size: the length of @value
 * @flags: XATTR_CREATE or XATTR_REPLACE
 *
 * Other xattrs are not toylsm's to judge: stacked with SELinux or Smack,
 * toylsm must not ask for more than they do for their own names.
 *
 * Return: 0, -EPERM without CAP_MAC_ADMIN, -EINVAL for a bad label,
 * -ENOSPC if the label table is full.
 */
static int toylsm_inode_setxattr(struct user_namespace *mnt_userns,
				 struct dentry *dentry, const char *name,
				 const void *value, size_t size, int flags)
{
	char label[TOYLSM_LABEL_MAX + 1];
	u32 secid;

	if (strcmp(name, TOYLSM_XATTR))
		return 0;
	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (toylsm_label_parse(value, size, label))
		return -EINVAL;
	return toylsm_label_intern(&toylsm_labels, label, &secid);
}

/**
 * toylsm_inode_post_setxattr - Take the label that was just set
 * @dentry: the file
 * @name: the xattr's name
 * @value: its value, checked and interned by toylsm_inode_setxattr()
 * @size: the length of @value
 * @flags: XATTR_CREATE or XATTR_REPLACE
 */
static void toylsm_inode_post_setxattr(struct dentry *dentry,
				       const char *name, const void *value,
				       size_t size, int flags)
{
	char label[TOYLSM_LABEL_MAX + 1];

	if (strcmp(name, TOYLSM_XATTR) ||
	    toylsm_label_parse(value, size, label))
		return;
	WRITE_ONCE(*toylsm_inode_label(d_backing_inode(dentry)),
		   toylsm_label_find(&toylsm_labels, label));
}

/**
 * toylsm_inode_removexattr - Check removing security.toylsm
 * @mnt_userns: the mount's user namespace
 * @dentry: the file
 * @name: the xattr's name
 *
 * The file is unlabelled from here on (even if the removal then fails).
 *
 * Return: 0, or -EPERM without CAP_MAC_ADMIN.
 */
static int toylsm_inode_removexattr(struct user_namespace *mnt_userns,
				    struct dentry *dentry, const char *name)
{
	if (strcmp(name, TOYLSM_XATTR))
		return 0;
	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	WRITE_ONCE(*toylsm_inode_label(d_backing_inode(dentry)),
		   TOYLSM_NOLABEL);
	return 0;
}

/**
 * toylsm_file_check - Check an access of the current task to a file
 * @hook: the hook asking
 * @file: the file
 * @perms: TOYLSM_MAY_* bits
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_file_check(enum toylsm_hook hook, struct file *file,
			     u32 perms)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_FILE, .u.file = file,
	};

	if (!perms)
		return 0;
	return toylsm_check(hook, toylsm_current_label(),
			    READ_ONCE(*toylsm_inode_label(file_inode(file))),
			    perms, &ad);
}

/**
 * toylsm_file_open - Check opening a file: read, write or exec
 * @file: the file being opened
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_file_open(struct file *file)
{
	u32 perms = 0;

	if (file->f_flags & __FMODE_EXEC)
		perms = TOYLSM_MAY_EXEC;
	else if (file->f_mode & FMODE_READ)
		perms = TOYLSM_MAY_READ;
	if (file->f_mode & FMODE_WRITE)
		perms |= TOYLSM_MAY_WRITE;
	return toylsm_file_check(TOYLSM_HOOK_FILE_OPEN, file, perms);
}

/**
 * toylsm_file_permission - Check each read or write again
 * @file: the open file
 * @mask: MAY_READ, MAY_WRITE, MAY_APPEND
 *
 * Checking again at each read or write makes a rule removal take effect
 * for files that are already open.
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_file_permission(struct file *file, int mask)
{
	u32 perms = 0;

	if (mask & MAY_READ)
		perms |= TOYLSM_MAY_READ;
	if (mask & (MAY_WRITE | MAY_APPEND))
		perms |= TOYLSM_MAY_WRITE;
	return toylsm_file_check(TOYLSM_HOOK_FILE_PERMISSION, file, perms);
}

static struct security_hook_list toylsm_fs_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(d_instantiate, toylsm_d_instantiate),
	LSM_HOOK_INIT(inode_xattr_skipcap, toylsm_inode_xattr_skipcap),
	LSM_HOOK_INIT(inode_setxattr, toylsm_inode_setxattr),
	LSM_HOOK_INIT(inode_post_setxattr, toylsm_inode_post_setxattr),
	LSM_HOOK_INIT(inode_removexattr, toylsm_inode_removexattr),
	LSM_HOOK_INIT(file_open, toylsm_file_open),
	LSM_HOOK_INIT(file_permission, toylsm_file_permission),
};

/**
 * toylsm_add_fs_hooks - Register the file hooks
 */
__init void toylsm_add_fs_hooks(void)
{
	security_add_hooks(toylsm_fs_hooks, ARRAY_SIZE(toylsm_fs_hooks),
			   &toylsm_lsmid);
}
