// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - /sys/kernel/security/toylsm/{rules,enforce,stats}
 *
 * rules: read gives "SUBJECT OBJECT PERMS" lines; a write sets the rules
 * of its lines (PERMS "-" removes one), all or none. enforce: 1 denies,
 * 0 only logs. stats: "HOOK CALLS DENIALS" lines. Writing needs
 * CAP_MAC_ADMIN.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "policy.h"
#include "setup.h"

/**
 * toylsm_fs_show - Show one of the files
 * @m: the seq_file; m->private is the file's show function
 * @v: unused
 *
 * Return: 0.
 */
static int toylsm_fs_show(struct seq_file *m, void *v)
{
	void (*show)(struct seq_file *m) = m->private;

	show(m);
	return 0;
}

/**
 * toylsm_enforce_show - Print "1" or "0"
 * @m: the seq_file
 */
static void toylsm_enforce_show(struct seq_file *m)
{
	seq_printf(m, "%d\n", READ_ONCE(toylsm_enforce));
}

/**
 * toylsm_fs_open - Open one of the files
 * @inode: its inode; i_private is its show function
 * @file: the file
 *
 * Return: 0 or -ENOMEM.
 */
static int toylsm_fs_open(struct inode *inode, struct file *file)
{
	return single_open(file, toylsm_fs_show, inode->i_private);
}

/**
 * toylsm_rules_fs_write - Write rules
 * @file: the file
 * @buf: the lines
 * @count: their length, at most PAGE_SIZE
 * @ppos: the position, 0: no partial writes
 *
 * Return: @count, -EPERM without CAP_MAC_ADMIN, -EINVAL (malformed line,
 * a NUL, not at offset 0, too long), -ENOSPC, -ENOMEM, -EFAULT.
 */
static ssize_t toylsm_rules_fs_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	char *text;
	int err;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (*ppos || count >= PAGE_SIZE)
		return -EINVAL;
	text = memdup_user_nul(buf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	err = strlen(text) == count ? toylsm_rules_write(text) : -EINVAL;
	kfree(text);
	return err ? err : count;
}

/**
 * toylsm_enforce_fs_write - Write "1" or "0"
 * @file: the file
 * @buf: the text
 * @count: its length
 * @ppos: the position
 *
 * Return: @count, -EPERM without CAP_MAC_ADMIN, -EINVAL for other text.
 */
static ssize_t toylsm_enforce_fs_write(struct file *file,
				       const char __user *buf, size_t count,
				       loff_t *ppos)
{
	unsigned int v;
	int err;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	err = kstrtouint_from_user(buf, count, 10, &v);
	if (err || v > 1)
		return -EINVAL;
	WRITE_ONCE(toylsm_enforce, v);
	return count;
}

static const struct file_operations toylsm_rules_fops = {
	.open = toylsm_fs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release, .write = toylsm_rules_fs_write,
};

static const struct file_operations toylsm_enforce_fops = {
	.open = toylsm_fs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release, .write = toylsm_enforce_fs_write,
};

static const struct file_operations toylsm_stats_fops = {
	.open = toylsm_fs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release,
};

/**
 * toylsm_securityfs_init - Create /sys/kernel/security/toylsm/
 *
 * Return: 0, or the error of securityfs.
 */
static int __init toylsm_securityfs_init(void)
{
	struct dentry *dir;

	if (!toylsm_initialized)
		return 0;
	dir = securityfs_create_dir(TOYLSM_NAME, NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	securityfs_create_file("rules", 0600, dir, toylsm_rules_show,
			       &toylsm_rules_fops);
	securityfs_create_file("enforce", 0600, dir, toylsm_enforce_show,
			       &toylsm_enforce_fops);
	securityfs_create_file("stats", 0400, dir, toylsm_stats_show,
			       &toylsm_stats_fops);
	return 0;
}

fs_initcall(toylsm_securityfs_init);
