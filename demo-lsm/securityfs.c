// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - /sys/kernel/security/toylsm/{rules,enforce,stats}
 *
 * rules: read gives "SUBJECT OBJECT PERMS" lines; a write sets the rules
 * of its lines (PERMS "-" removes one), all or none. enforce: 1 denies,
 * 0 only logs. stats: "HOOK CALLS DENIALS SUPPRESSED" lines. Writing needs
 * CAP_MAC_ADMIN. docs/toylsm.md says the same for users. All of
 * toylsm's seq_file output is here.
 */

#include "common.h"

#include <linux/capability.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "label.h"
#include "limits.h"
#include "parse.h"
#include "policy.h"
#include "rules.h"
#include "setup.h"
#include "stats.h"

/**
 * rules_show - Print the rules, one "SUBJECT OBJECT PERMS" a line
 * @m: the seq_file
 */
static void rules_show(struct seq_file *m)
{
	const struct toylsm_ruleset *rs;
	char perms[TOYLSM_PERMS_TEXT];
	u32 i;

	rcu_read_lock();
	rs = toylsm_rules_get();
	for (i = 0; rs && i < rs->count; i++)
		seq_printf(m, "%s %s %s\n", toylsm_name(rs->rules[i].subject),
			   toylsm_name(rs->rules[i].object),
			   toylsm_perms_text(rs->rules[i].perms, perms));
	rcu_read_unlock();
}

/**
 * enforce_show - Print "1" or "0"
 * @m: the seq_file
 */
static void enforce_show(struct seq_file *m)
{
	seq_printf(m, "%d\n", READ_ONCE(toylsm_enforce));
}

/**
 * stats_show - Print "HOOK CALLS DENIALS SUPPRESSED", one line per hook
 * @m: the seq_file
 */
static void stats_show(struct seq_file *m)
{
	struct toylsm_hook_stat *st;
	unsigned int i;

	for (i = 0; (st = toylsm_stats_get(i)); i++)
		seq_printf(m, "%s %ld %ld %ld\n", st->name,
			   atomic_long_read(&st->calls),
			   atomic_long_read(&st->denials),
			   atomic_long_read(&st->suppressed));
}

/**
 * securityfs_show - Show one of the files
 * @m: the seq_file; m->private is the file's show function
 * @v: unused
 *
 * Return: 0.
 */
static int securityfs_show(struct seq_file *m, void *v)
{
	void (*show)(struct seq_file *m) = m->private;

	show(m);
	return 0;
}

/**
 * securityfs_open - Open one of the files
 * @inode: its inode; i_private is its show function
 * @file: the file
 *
 * Return: 0 or -ENOMEM.
 */
static int securityfs_open(struct inode *inode, struct file *file)
{
	return single_open(file, securityfs_show, inode->i_private);
}

/**
 * rules_write - Write rules
 * @file: the file
 * @buf: the lines
 * @count: their length, at most TOYLSM_WRITE_MAX
 * @ppos: the position, 0: no partial writes
 *
 * Return: @count, -EPERM without CAP_MAC_ADMIN, -EINVAL (malformed line,
 * a NUL, not at offset 0, too long), -ENOSPC, -ENOMEM, -EFAULT.
 */
static ssize_t rules_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	char *text;
	int err;

	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (*ppos || count > TOYLSM_WRITE_MAX)
		return -EINVAL;
	text = memdup_user_nul(buf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	err = strlen(text) == count ? toylsm_rules_write(text) : -EINVAL;
	kfree(text);
	return err ? err : count;
}

/**
 * enforce_write - Write "1" or "0"
 * @file: the file
 * @buf: the text
 * @count: its length
 * @ppos: the position
 *
 * Return: @count, -EPERM without CAP_MAC_ADMIN, -EINVAL for other text.
 */
static ssize_t enforce_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
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

static const struct file_operations rules_fops = {
	.open = securityfs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release, .write = rules_write,
};

static const struct file_operations enforce_fops = {
	.open = securityfs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release, .write = enforce_write,
};

static const struct file_operations stats_fops = {
	.open = securityfs_open, .read = seq_read, .llseek = seq_lseek,
	.release = single_release,
};

/**
 * toylsm_securityfs_init - Create /sys/kernel/security/toylsm/
 *
 * On any error nothing is left behind: the files made so far and the
 * directory are removed, and the kernel log says why.
 *
 * Return: 0, or the error of securityfs.
 */
static int __init toylsm_securityfs_init(void)
{
	static const struct {
		const char *name;
		umode_t mode;
		void (*show)(struct seq_file *m);
		const struct file_operations *fops;
	} files[] = {
		{ "rules", 0600, rules_show, &rules_fops },
		{ "enforce", 0600, enforce_show, &enforce_fops },
		{ "stats", 0400, stats_show, &stats_fops },
	};
	struct dentry *dir, *f[ARRAY_SIZE(files)] = {};
	int i, err = 0;

	if (!toylsm_initialized)
		return 0;
	dir = securityfs_create_dir(TOYLSM_NAME, NULL);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		goto fail;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		f[i] = securityfs_create_file(files[i].name, files[i].mode, dir,
					      files[i].show, files[i].fops);
		if (IS_ERR(f[i])) {
			err = PTR_ERR(f[i]);
			f[i] = NULL;
			break;
		}
	}
	if (!err)
		return 0;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		securityfs_remove(f[i]);
	securityfs_remove(dir);
fail:
	pr_err("cannot create its securityfs files: %d\n", err);
	return err;
}

fs_initcall(toylsm_securityfs_init);
