// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - File labels and file access checks
 *
 * A file's label is its security.toylsm xattr, read at the first check
 * of the inode and kept in the inode's security blob; setting the xattr
 * (CAP_MAC_ADMIN only) updates it. A file without it is
 * unlabelled, and every task may access it. A file whose xattr is no
 * valid label, or whose label cannot be read, is closed to every task
 * (TOYLSM_CLOSED): fail closed. Labels read from disk are never interned
 * (the table must not fill from disk): a label that is not in the table
 * is TOYLSM_UNRESOLVED, looked up again at each check, and until a rule
 * or a task names it no task may access the file. See docs/toylsm.md.
 *
 * A label names an inode, and some objects have other names: a device
 * node's label is its device's too (device.c), and a terminal has labels
 * of its own whatever name reaches it (terminal.c); a check of such a
 * file asks them all. A file of /proc/PID/ carries its task's label
 * (task.c), which writing it asks.
 */

#include "common.h"

#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/termios.h>
#include <linux/xattr.h>
#include <asm/barrier.h>
#include <asm/ioctls.h>

#include "cred.h"
#include "device.h"
#include "fs.h"
#include "label.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"

#define TOYLSM_XATTR "security.toylsm"

static struct toylsm_hook_stat stat_file_open = TOYLSM_HOOK_STAT(file_open);
static struct toylsm_hook_stat stat_file_permission =
	TOYLSM_HOOK_STAT(file_permission);
static struct toylsm_hook_stat stat_path_truncate =
	TOYLSM_HOOK_STAT(path_truncate);
static struct toylsm_hook_stat stat_mmap_file = TOYLSM_HOOK_STAT(mmap_file);
static struct toylsm_hook_stat stat_file_mprotect =
	TOYLSM_HOOK_STAT(file_mprotect);
static struct toylsm_hook_stat stat_inode_permission =
	TOYLSM_HOOK_STAT(inode_permission);
static struct toylsm_hook_stat stat_file_ioctl = TOYLSM_HOOK_STAT(file_ioctl);

/**
 * toylsm_xattr_label - The secid of a file's security.toylsm xattr
 * @t: the label table
 * @buf: the xattr's value, not NUL-terminated
 * @len: its length, or the error of reading it (-ENODATA: none)
 *
 * No xattr (-ENODATA, -EOPNOTSUPP) leaves the file unlabelled. One that
 * is no valid label (empty, a bad character, longer than any label: that
 * reads as -ERANGE) closes it. A valid label that is not in the table is
 * not interned: nothing can name it yet. It and a label that could not
 * be read (-ENOMEM, -EIO) are TOYLSM_UNRESOLVED: look again later.
 *
 * Return: the label's secid, TOYLSM_NOLABEL, TOYLSM_CLOSED or
 * TOYLSM_UNRESOLVED.
 */
u32 toylsm_xattr_label(struct toylsm_label_table *t, const char *buf,
		       ssize_t len)
{
	char label[TOYLSM_LABEL_MAX + 1];
	u32 secid;

	if (len == -ENODATA || len == -EOPNOTSUPP)
		return TOYLSM_NOLABEL;
	if (len == -ERANGE)
		return TOYLSM_CLOSED;
	if (len < 0)
		return TOYLSM_UNRESOLVED;
	if (toylsm_label_parse(buf, len, label))
		return TOYLSM_CLOSED;
	secid = toylsm_label_find(t, label);
	return secid ? secid : TOYLSM_UNRESOLVED;
}

/**
 * read_label - Read an inode's label from its xattr
 * @dentry: a dentry of the inode
 * @inode: the inode
 *
 * Return: as toylsm_xattr_label().
 */
static u32 read_label(struct dentry *dentry, struct inode *inode)
{
	char buf[TOYLSM_LABEL_MAX + 2];
	ssize_t len;

	if (!(inode->i_opflags & IOP_XATTR))
		return TOYLSM_NOLABEL;
	len = __vfs_getxattr(dentry, inode, TOYLSM_XATTR, buf, sizeof(buf));
	return toylsm_xattr_label(&toylsm_labels, buf, len);
}

/**
 * toylsm_dentry_label - The label of a file, for a check
 * @dentry: the file
 *
 * An inode whose label is unknown (toylsm_label_unknown(): not read yet,
 * not in the table, being removed) has its xattr read here, by the task
 * that asks, once the filesystem has finished setting the inode up. What
 * is read is kept with cmpxchg(), so that a setxattr or a removal that
 * changed the blob meanwhile wins over this older read: a label not in
 * the table stays TOYLSM_UNRESOLVED, and while a removal is under way
 * only "no xattr" is kept (the label read could be one whose removal is
 * about to succeed, or one that stays because the removal failed).
 * May sleep: for the hooks of system calls on files, never with the
 * memory map locked (see toylsm_file_label_locked()).
 *
 * Return: the secid to check, TOYLSM_NOLABEL or TOYLSM_CLOSED.
 */
u32 toylsm_dentry_label(struct dentry *dentry)
{
	struct inode *inode = d_backing_inode(dentry);
	u32 *blob = &toylsm_inode(inode)->label;
	u32 old = READ_ONCE(*blob);
	u32 secid;

	if (!toylsm_label_unknown(old))
		return old;
	secid = read_label(dentry, inode);
	if (old != TOYLSM_REMOVING || secid == TOYLSM_NOLABEL)
		cmpxchg(blob, old, secid);
	if (secid == TOYLSM_UNRESOLVED)
		secid = TOYLSM_CLOSED;
	/* A node read labelled: its device has that label (device.c). */
	if (secid != TOYLSM_NOLABEL && toylsm_is_device(inode->i_mode) &&
	    toylsm_device_learn(&toylsm_devices, inode->i_mode, inode->i_rdev,
				secid))
		pr_warn_once("the device table is full: a labelled node of %s device %u:%u protects no other node of it\n",
			     S_ISBLK(inode->i_mode) ? "block" : "character",
			     MAJOR(inode->i_rdev), MINOR(inode->i_rdev));
	return secid;
}

/**
 * toylsm_file_label_locked - The label of a mapped file, without reading
 * @file: the file
 *
 * For the hooks that run with the memory map locked (file_mprotect):
 * reading an xattr there could wait on the filesystem's locks (or a FUSE
 * daemon) while holding mmap_lock, which the kernel takes after those
 * locks elsewhere (a read(2) into a buffer that faults). A mapped file's
 * label was read when it was mapped (hook_mmap_file()); a label that is
 * still unknown is one that no check could use then either, so the file
 * is closed. While a removal of the label is under way, or after one
 * that failed, the file keeps the label it had before the removal
 * (hook_inode_removexattr()): a removal takes effect once a check that
 * may read the xattr sees it done.
 *
 * Return: the secid to check, TOYLSM_NOLABEL or TOYLSM_CLOSED.
 */
static u32 toylsm_file_label_locked(struct file *file)
{
	struct toylsm_inode *ti = toylsm_inode(d_backing_inode(file_dentry(file)));
	/* Pairs with hook_inode_removexattr(): before_removal is set first. */
	u32 secid = smp_load_acquire(&ti->label);

	if (secid == TOYLSM_REMOVING)
		secid = READ_ONCE(ti->before_removal);
	return toylsm_label_unknown(secid) ? TOYLSM_CLOSED : secid;
}

/**
 * hook_inode_alloc_security - Mark a new inode's label as not read yet
 * @inode: the inode, its blob zeroed by the infrastructure
 *
 * No label is read when a dentry of the inode is instantiated
 * (d_instantiate): a filesystem calls that while it is still setting up
 * (overlayfs's root, in ovl_fill_super(), has no layers yet), and for an
 * inode already known it would race with a setxattr. The first check
 * reads it (toylsm_dentry_label()).
 *
 * Return: 0.
 */
static int hook_inode_alloc_security(struct inode *inode)
{
	toylsm_inode(inode)->label = TOYLSM_UNREAD;
	return 0;
}

/**
 * hook_inode_xattr_skipcap - Claim security.toylsm as toylsm's own
 * @name: the xattr's name
 *
 * Who may change security.toylsm is decided here (CAP_MAC_ADMIN), not by
 * the capability module's CAP_SYS_ADMIN rule for security.* names, which
 * the infrastructure applies to every name that no module claims.
 *
 * Return: 1 for security.toylsm, 0 for any other name.
 */
static int hook_inode_xattr_skipcap(const char *name)
{
	return !strcmp(name, TOYLSM_XATTR);
}

/**
 * hook_inode_setxattr - Check a new security.toylsm before it is set
 * @mnt_userns: the mount's user namespace
 * @dentry: the file
 * @name: the xattr's name
 * @value: its new value
 * @size: the length of @value
 * @flags: XATTR_CREATE or XATTR_REPLACE
 *
 * Other xattrs are not toylsm's to judge: stacked with SELinux or Smack,
 * toylsm must not ask for more than they do for their own names. A
 * device node's label is its device's too: the device table must have
 * room for it (device.c).
 *
 * Return: 0, -EPERM without CAP_MAC_ADMIN, -EINVAL for a bad label,
 * -ENOSPC if the label table or the device table is full.
 */
static int hook_inode_setxattr(struct user_namespace *mnt_userns,
			       struct dentry *dentry, const char *name,
			       const void *value, size_t size, int flags)
{
	struct inode *inode = d_backing_inode(dentry);
	char label[TOYLSM_LABEL_MAX + 1];
	u32 secid;
	int err;

	if (strcmp(name, TOYLSM_XATTR))
		return 0;
	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (toylsm_label_parse(value, size, label))
		return -EINVAL;
	if (toylsm_is_device(inode->i_mode)) {
		err = toylsm_device_reserve(&toylsm_devices, inode->i_mode,
					    inode->i_rdev);
		if (err)
			return err;
	}
	return toylsm_label_intern(&toylsm_labels, label, &secid);
}

/**
 * hook_inode_post_setxattr - Take the label that was just set
 * @dentry: the file
 * @name: the xattr's name
 * @value: its value, checked and interned by hook_inode_setxattr()
 * @size: the length of @value
 * @flags: XATTR_CREATE or XATTR_REPLACE
 */
static void hook_inode_post_setxattr(struct dentry *dentry, const char *name,
				     const void *value, size_t size,
				     int flags)
{
	struct inode *inode = d_backing_inode(dentry);
	char label[TOYLSM_LABEL_MAX + 1];
	u32 secid;

	if (strcmp(name, TOYLSM_XATTR) ||
	    toylsm_label_parse(value, size, label))
		return;
	secid = toylsm_label_find(&toylsm_labels, label);
	WRITE_ONCE(toylsm_inode(inode)->label, secid);
	/* Its entry was reserved by hook_inode_setxattr(). */
	if (toylsm_is_device(inode->i_mode))
		toylsm_device_set(&toylsm_devices, inode->i_mode, inode->i_rdev,
				  secid);
}

/**
 * hook_inode_removexattr - Check removing security.toylsm
 * @mnt_userns: the mount's user namespace
 * @dentry: the file
 * @name: the xattr's name
 *
 * The label is not dropped here: the removal may still fail (another
 * module after toylsm, the filesystem), and 6.1 has no hook after a
 * removal (mainline added inode_post_removexattr in 6.8). The blob
 * becomes TOYLSM_REMOVING: the file's label is read again at each check
 * (toylsm_dentry_label()) until one sees the xattr gone. The label it
 * had is kept aside for the hooks that may not read the xattr
 * (toylsm_file_label_locked()): a refused removal changes nothing for
 * them either. Every removal and setxattr runs under the inode's lock,
 * so only one writes @before_removal at a time; a check that filled in
 * an unread label meanwhile loses its value, and the file is closed to
 * those hooks until the next check (fail closed). A device node's device
 * loses the label here (it may be the device's label no longer): if the
 * removal fails, the node's next check gives it back (toylsm_dentry_label()).
 * A file without xattrs (/proc, devpts) has nothing to remove: its label,
 * if any, is not toylsm_dentry_label()'s to read again.
 *
 * Return: 0, or -EPERM without CAP_MAC_ADMIN.
 */
static int hook_inode_removexattr(struct user_namespace *mnt_userns,
				  struct dentry *dentry, const char *name)
{
	struct inode *inode = d_backing_inode(dentry);
	struct toylsm_inode *ti;
	u32 old;

	if (strcmp(name, TOYLSM_XATTR))
		return 0;
	if (!capable(CAP_MAC_ADMIN))
		return -EPERM;
	if (!(inode->i_opflags & IOP_XATTR))
		return 0;
	ti = toylsm_inode(inode);
	old = READ_ONCE(ti->label);
	if (old != TOYLSM_REMOVING)
		WRITE_ONCE(ti->before_removal, old);
	if (toylsm_is_device(inode->i_mode) && !toylsm_label_unknown(old))
		toylsm_device_forget(&toylsm_devices, inode->i_mode,
				     inode->i_rdev, old);
	/* Pairs with toylsm_file_label_locked(): before_removal first. */
	smp_store_release(&ti->label, TOYLSM_REMOVING);
	return 0;
}

/**
 * node_perms - What a check asks of a file
 * @inode: the file
 * @perms: TOYLSM_MAY_* bits, what the access needs
 *
 * A file of /proc/PID/ carries its task's label, and only a write asks
 * it: reading a task's state is ptrace's check where the kernel asks it
 * (PTRACE_MODE_READ: environ, maps, mem...), and the rest of /proc/PID/
 * is what ps shows of every task. A task's (or its thread group's) own
 * files ask nothing: the label they carry is the one the task had at
 * their last lookup, and a task that relabelled itself through a
 * descriptor of attr/toylsm/current writes it again through the same.
 *
 * Return: the TOYLSM_MAY_* bits to check.
 */
static u32 node_perms(const struct inode *inode, u32 perms)
{
	struct pid *task = READ_ONCE(toylsm_inode(inode)->task);

	if (!task)
		return perms;
	if (task == task_pid(current) || task == task_tgid(current))
		return 0;
	return perms & TOYLSM_MAY_WRITE;
}

/**
 * other_labels - The labels of what a file names besides its inode
 * @inode: the file's inode
 * @file: the open file, or NULL (a check of the inode alone)
 * @labels: where to store them, TOYLSM_FILE_LABELS - 1 at most
 *
 * A device node's device (device.c) and, for an open terminal, the
 * terminal it reaches (terminal.c). Never sleeps.
 *
 * Return: how many.
 */
static unsigned int other_labels(const struct inode *inode, struct file *file,
				 u32 *labels)
{
	unsigned int n;

	if (!toylsm_is_device(inode->i_mode))
		return 0;
	labels[0] = toylsm_device_label(&toylsm_devices, inode->i_mode,
					inode->i_rdev);
	n = 1;
	if (file)
		n += toylsm_file_terminal_labels(file, labels + n);
	return n;
}

/**
 * toylsm_file_objects - The labels a check of an open file asks
 * @file: the file
 * @labels: where to store them, TOYLSM_FILE_LABELS at most
 *
 * The file's own label first (read from its xattr if still unknown: may
 * sleep), then what other_labels() adds.
 *
 * Return: how many, at least 1.
 */
unsigned int toylsm_file_objects(struct file *file, u32 *labels)
{
	labels[0] = toylsm_dentry_label(file_dentry(file));
	return 1 + other_labels(d_backing_inode(file_dentry(file)), file,
				labels + 1);
}

/**
 * check_file_audit - Check an access of the current task to a file
 * @stat: the counters of the hook asking
 * @file: the file
 * @perms: TOYLSM_MAY_* bits
 * @audit: whether a denial writes an audit record
 *
 * Every label the file names (toylsm_file_objects()) must allow @perms.
 *
 * Return: 0 or -EACCES.
 */
static int check_file_audit(struct toylsm_hook_stat *stat, struct file *file,
			    u32 perms, bool audit)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_FILE, .u.file = file,
	};
	u32 labels[TOYLSM_FILE_LABELS];

	perms = node_perms(d_backing_inode(file_dentry(file)), perms);
	if (!perms)
		return 0;
	return toylsm_check_objects(stat, toylsm_current_label(), labels,
				    toylsm_file_objects(file, labels), perms,
				    audit ? &ad : NULL);
}

/* check_file_audit() with an audit record for a denial. */
static int check_file(struct toylsm_hook_stat *stat, struct file *file,
		      u32 perms)
{
	return check_file_audit(stat, file, perms, true);
}

/**
 * check_traced_exec - Keep a program that its task may not read from
 *	its tracer
 * @file: a program (or an interpreter) that exec opened, with "x"
 * @label: its label
 *
 * "x" without "r" runs a program that the task may not read, and the
 * image is then undumpable, so that no one attaches to read it. A
 * tracer attached before the exec is not asked again, and it controls
 * the task: it would read the program through the task's registers at
 * its first system call. So, while the task is traced (the condition of
 * LSM_UNSAFE_PTRACE, which check_unsafe_exec() has just set), such an
 * exec needs "r" on the program for the tracer, as the capability
 * module gives no privilege to a traced exec and SELinux refuses a
 * traced transition the tracer may not follow. Checked here rather
 * than in a bprm hook, so that the ELF interpreter that the kernel
 * opens with open_exec() is checked too.
 *
 * Return: 0 or -EACCES.
 */
static int check_traced_exec(struct file *file, u32 label)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_FILE, .u.file = file,
	};
	u32 tracer;

	if (toylsm_allows(toylsm_current_label(), label, TOYLSM_MAY_READ))
		return 0;
	tracer = toylsm_tracer_label();
	if (tracer == TOYLSM_NOLABEL)
		return 0;
	return toylsm_check(&stat_file_open, tracer, label, TOYLSM_MAY_READ,
			    &ad);
}

/**
 * hook_file_open - Check opening a file: read, write or exec
 * @file: the file being opened
 *
 * The access mode gives the permissions: read "r", write "w", both for
 * mode 3 (O_ACCMODE, a descriptor for ioctl(2) only, which has neither
 * FMODE_READ nor FMODE_WRITE: may_open() asks for read and write
 * permission for it, and so does toylsm, which has no file_ioctl hook).
 * An open by exec (__FMODE_EXEC) needs "x", and a traced one more
 * (check_traced_exec()).
 *
 * Return: 0 or -EACCES.
 */
static int hook_file_open(struct file *file)
{
	u32 perms = 0;
	u32 label;
	int err;

	if (file->f_flags & __FMODE_EXEC)
		perms = TOYLSM_MAY_EXEC;
	else if (file->f_mode & FMODE_READ)
		perms = TOYLSM_MAY_READ;
	if (file->f_mode & FMODE_WRITE)
		perms |= TOYLSM_MAY_WRITE;
	if ((file->f_flags & O_ACCMODE) == O_ACCMODE)
		perms = TOYLSM_MAY_READ | TOYLSM_MAY_WRITE;
	err = check_file(&stat_file_open, file, perms);
	if (err || !(file->f_flags & __FMODE_EXEC))
		return err;
	label = toylsm_dentry_label(file_dentry(file));
	return label == TOYLSM_NOLABEL ? 0 : check_traced_exec(file, label);
}

/**
 * inode_label - The label of an inode, for a check without a dentry
 * @inode: the inode
 *
 * The xattr is read through one of the inode's dentries, as SELinux's
 * inode_doinit_with_dentry() does. May sleep.
 *
 * Return: as toylsm_dentry_label(); TOYLSM_CLOSED for an inode with
 * xattrs but no dentry to read them through.
 */
static u32 inode_label(struct inode *inode)
{
	struct dentry *dentry;
	u32 secid;

	if (!(inode->i_opflags & IOP_XATTR))
		return TOYLSM_NOLABEL;
	dentry = d_find_alias(inode);
	if (!dentry)
		return TOYLSM_CLOSED;
	secid = toylsm_dentry_label(dentry);
	dput(dentry);
	return secid;
}

/**
 * check_inode - Check an inode_permission() of a labelled file
 * @inode: the file, not a directory
 * @label: its blob's value, not read yet or not TOYLSM_NOLABEL (unless
 *	the file is a device node)
 * @mask: as for hook_inode_permission()
 *
 * would_dump() at exec only asks whether the task may read the program
 * (MAY_READ alone, while current->in_execve), and a "no" refuses nothing:
 * the image is left undumpable. That probe is counted but writes no
 * audit record, as PTRACE_MODE_NOAUDIT probes: a record would say
 * "denied" for every run of an "x"-only program, and spend the rate
 * limit of real denials.
 *
 * Return: 0, -EACCES, or -ECHILD (MAY_NOT_BLOCK).
 */
static int check_inode(struct inode *inode, u32 label, int mask)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_INODE, .u.inode = inode,
	};
	u32 labels[TOYLSM_FILE_LABELS];
	u32 subject = toylsm_current_label();
	unsigned int n, i;
	u32 perms = 0;

	if (mask & MAY_READ)
		perms |= TOYLSM_MAY_READ;
	if (mask & (MAY_WRITE | MAY_APPEND))
		perms |= TOYLSM_MAY_WRITE;
	if (mask & MAY_EXEC)
		perms |= TOYLSM_MAY_EXEC;
	perms = node_perms(inode, perms);
	if (!perms)
		return 0;
	if (mask & MAY_NOT_BLOCK) {
		if (toylsm_label_unknown(label))
			return -ECHILD;
	} else if (toylsm_label_unknown(label)) {
		label = inode_label(inode);
	}
	labels[0] = label;
	n = 1 + other_labels(inode, NULL, labels + 1);
	if (mask & MAY_NOT_BLOCK) {
		for (i = 0; i < n; i++)
			if (!toylsm_allows(subject, labels[i], perms))
				return -ECHILD;
	}
	return toylsm_check_objects(&stat_inode_permission, subject, labels, n,
				    perms,
				    mask == MAY_READ && current->in_execve ?
				    NULL : &ad);
}

/**
 * hook_inode_permission - The kernel's own permission checks of a file
 * @inode: the file
 * @mask: MAY_READ, MAY_WRITE, MAY_APPEND, MAY_EXEC, with MAY_OPEN,
 *	MAY_ACCESS, MAY_NOT_BLOCK...
 *
 * Every permission check of the kernel on an inode comes here, not only
 * those of system calls that have a hook of their own: access(2), the
 * user.* xattrs, would_dump() at exec (whether the task may read the
 * program or its ELF interpreter; a refusal leaves the image
 * undumpable), utimes(2) of another's file. "r", "w" and "x" as for the
 * file's other hooks. Not answered here:
 * - an open (MAY_OPEN): hook_file_open() checks it, with the open
 *   file's flags (an open by exec needs "x", not "r"), once;
 * - a directory: toylsm mediates no lookup, creation or removal in
 *   directories (docs/toylsm.md, "What toylsm does not do"); that is
 *   also most of the calls, the path walk's.
 * Hot path: an unlabelled file that names no device, an open or a
 * directory costs one load of the blob and a few tests. In an RCU path
 * walk (MAY_NOT_BLOCK) nothing
 * may sleep: a label still to be read from the xattr, or a denial (whose
 * audit record may sleep), is left to the walk by reference (-ECHILD),
 * as SELinux does (check_inode()).
 *
 * Return: 0, -EACCES, or -ECHILD (MAY_NOT_BLOCK).
 */
static int hook_inode_permission(struct inode *inode, int mask)
{
	u32 label = READ_ONCE(toylsm_inode(inode)->label);

	if ((label == TOYLSM_NOLABEL && !toylsm_is_device(inode->i_mode)) ||
	    (mask & MAY_OPEN) || S_ISDIR(inode->i_mode))
		return 0;
	return check_inode(inode, label, mask);
}

/**
 * hook_file_permission - Check each read or write again
 * @file: the open file
 * @mask: MAY_READ, MAY_WRITE, MAY_APPEND
 *
 * Checking again at each read or write makes a rule removal take effect
 * for files that are already open. fallocate(2), copy_file_range(2)
 * and splice(2) into a file ask for MAY_WRITE here too. exec reads the
 * program it opened with __FMODE_EXEC (kernel_read()): that read is
 * part of running it, so it needs "x", not "r".
 *
 * Return: 0 or -EACCES.
 */
static int hook_file_permission(struct file *file, int mask)
{
	u32 perms = 0;

	if ((mask & MAY_READ) && (file->f_flags & __FMODE_EXEC))
		perms |= TOYLSM_MAY_EXEC;
	else if (mask & MAY_READ)
		perms |= TOYLSM_MAY_READ;
	if (mask & (MAY_WRITE | MAY_APPEND))
		perms |= TOYLSM_MAY_WRITE;
	return check_file(&stat_file_permission, file, perms);
}

/**
 * hook_path_truncate - Check cutting a file to a size
 * @path: the file
 *
 * truncate(2), ftruncate(2) and open(2) with O_TRUNC (whatever the
 * access mode) come here: changing a file's size needs "w".
 *
 * Return: 0 or -EACCES.
 */
static int hook_path_truncate(const struct path *path)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_PATH, .u.path = *path,
	};

	return toylsm_check(&stat_path_truncate, toylsm_current_label(),
			    toylsm_dentry_label(path->dentry), TOYLSM_MAY_WRITE,
			    &ad);
}

/**
 * map_perms - What a mapping of a file gives access to
 * @file: the file
 * @prot: the mapping's protection
 * @shared: whether writes through the mapping reach the file
 *
 * Every mapping of a file can be read, so it needs "r"; a shared
 * writable one writes the file ("w"); an executable one runs its code
 * ("x"). A program that exec opened (__FMODE_EXEC) is mapped by the
 * kernel's loader, which is running it: "x" only, as its reads are
 * (hook_file_permission()). As SELinux's file_map_prot_check().
 *
 * Return: TOYLSM_MAY_* bits.
 */
static u32 map_perms(struct file *file, unsigned long prot, bool shared)
{
	u32 perms = TOYLSM_MAY_READ;

	if (file->f_flags & __FMODE_EXEC)
		return TOYLSM_MAY_EXEC;
	if (shared && (prot & PROT_WRITE))
		perms |= TOYLSM_MAY_WRITE;
	if (prot & PROT_EXEC)
		perms |= TOYLSM_MAY_EXEC;
	return perms;
}

/**
 * hook_mmap_file - Check mapping a file
 * @file: the file, or NULL for anonymous memory
 * @reqprot: the protection user space asked for
 * @prot: the protection the kernel will apply
 * @flags: MAP_* flags
 *
 * A mapping is checked when it is made, as read() and write() are at
 * each call: a descriptor that its task may no longer use (inherited
 * across a relabel, received over a socket, or opened before a rule was
 * removed) cannot be mapped to read or write the file either. Running a
 * file's code needs "x", whether exec maps it or a loader (ld.so) that
 * opened it for reading does. Called before the memory map is locked,
 * so the label may be read here.
 *
 * Return: 0 or -EACCES.
 */
static int hook_mmap_file(struct file *file, unsigned long reqprot,
			  unsigned long prot, unsigned long flags)
{
	if (!file)
		return 0;
	return check_file(&stat_mmap_file, file,
			  map_perms(file, prot,
				    (flags & MAP_TYPE) == MAP_SHARED));
}

/**
 * hook_file_mprotect - Check changing the protection of a file's mapping
 * @vma: the mapping
 * @reqprot: the protection user space asked for
 * @prot: the protection the kernel will apply
 *
 * The same permissions as a new mapping with @prot: adding PROT_WRITE
 * to a shared mapping needs "w", PROT_EXEC "x". Runs with the memory
 * map locked: the file's label is the one its mapping found
 * (toylsm_file_label_locked()).
 *
 * Return: 0 or -EACCES.
 */
static int hook_file_mprotect(struct vm_area_struct *vma,
			      unsigned long reqprot, unsigned long prot)
{
	struct file *file = vma->vm_file;
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_FILE, .u.file = file,
	};
	u32 labels[TOYLSM_FILE_LABELS];
	unsigned int n;

	if (!file)
		return 0;
	labels[0] = toylsm_file_label_locked(file);
	n = 1 + other_labels(d_backing_inode(file_dentry(file)), file,
			     labels + 1);
	return toylsm_check_objects(&stat_file_mprotect, toylsm_current_label(),
				    labels, n,
				    map_perms(file, prot,
					      vma->vm_flags & VM_SHARED),
				    &ad);
}

/**
 * ioctl_perms - What an ioctl(2) needs of its file
 * @cmd: the command
 *
 * An ioctl acts on the object behind the descriptor, past the read and
 * write its open allowed: FS_IOC_SETFLAGS makes a file append-only or
 * immutable, TIOCSTI pushes a line into the input of the shell that
 * reads a terminal, TIOCVHANGUP hangs it up and TIOCSIG signals its
 * foreground group (signals that no task_kill hook sees: the tty layer
 * sends them with SEND_SIG_PRIV). So every command needs "w" but those
 * that change the descriptor alone (none) and those that only read the
 * file's or the terminal's state ("r"), as SELinux's selinux_file_ioctl()
 * asks its setattr, getattr and ioctl permissions.
 *
 * Return: TOYLSM_MAY_* bits.
 */
static u32 ioctl_perms(unsigned int cmd)
{
	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
	case FIONBIO:
	case FIOASYNC:
		return 0;
	case FIONREAD:		/* TIOCINQ */
	case FIGETBSZ:
	case FIOQSIZE:
	case FS_IOC_GETFLAGS:
	case FS_IOC_GETVERSION:
	case FS_IOC_FSGETXATTR:
	case TCGETS:
	case TCGETS2:
	case TCGETA:
	case TIOCGWINSZ:
	case TIOCGPGRP:
	case TIOCGSID:
	case TIOCGETD:
	case TIOCOUTQ:
	case TIOCGPTN:
	case TIOCGDEV:
	case TIOCGPKT:
	case TIOCGPTLCK:
	case TIOCGEXCL:
	case TIOCGSOFTCAR:
	case TIOCGLCKTRMIOS:
	case TIOCMGET:
	case TIOCGSERIAL:
	case TIOCGICOUNT:
		return TOYLSM_MAY_READ;
	default:
		return TOYLSM_MAY_WRITE;
	}
}

/**
 * hook_file_ioctl - Check an ioctl(2) on a file
 * @file: the file
 * @cmd: the command
 * @arg: its argument (unused)
 *
 * ioctl_perms() of every label the file names: the file's own, its
 * device's and its terminal's (a terminal reached through /dev/tty or
 * any other name answers with its own labels). isatty() and the libc's
 * question whether to line-buffer (TCGETS, TIOCGWINSZ) on a file that is
 * no terminal are refused without an audit record: the file would answer
 * ENOTTY anyway, and such a record comes with every program whose
 * output goes to a file it may only write.
 *
 * Return: 0 or -EACCES.
 */
static int hook_file_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	bool probe = (cmd == TCGETS || cmd == TIOCGWINSZ) &&
		     !toylsm_is_terminal(file);

	return check_file_audit(&stat_file_ioctl, file, ioctl_perms(cmd),
				!probe);
}

/**
 * hook_file_ioctl_compat - Check an ioctl(2) of a 32-bit task
 * @file: the file
 * @cmd: the command, in the 32-bit numbering
 * @arg: its argument (unused)
 *
 * As hook_file_ioctl(), for the command's 64-bit name (the numbers of
 * the FS_IOC flags commands differ), as SELinux does.
 *
 * Return: 0 or -EACCES.
 */
static int hook_file_ioctl_compat(struct file *file, unsigned int cmd,
				  unsigned long arg)
{
	switch (cmd) {
	case FS_IOC32_GETFLAGS:
		cmd = FS_IOC_GETFLAGS;
		break;
	case FS_IOC32_SETFLAGS:
		cmd = FS_IOC_SETFLAGS;
		break;
	case FS_IOC32_GETVERSION:
		cmd = FS_IOC_GETVERSION;
		break;
	case FS_IOC32_SETVERSION:
		cmd = FS_IOC_SETVERSION;
		break;
	}
	return hook_file_ioctl(file, cmd, arg);
}

static struct security_hook_list toylsm_fs_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(inode_alloc_security, hook_inode_alloc_security),
	LSM_HOOK_INIT(inode_xattr_skipcap, hook_inode_xattr_skipcap),
	LSM_HOOK_INIT(inode_setxattr, hook_inode_setxattr),
	LSM_HOOK_INIT(inode_post_setxattr, hook_inode_post_setxattr),
	LSM_HOOK_INIT(inode_removexattr, hook_inode_removexattr),
	LSM_HOOK_INIT(inode_permission, hook_inode_permission),
	LSM_HOOK_INIT(file_open, hook_file_open),
	LSM_HOOK_INIT(file_permission, hook_file_permission),
	LSM_HOOK_INIT(path_truncate, hook_path_truncate),
	LSM_HOOK_INIT(mmap_file, hook_mmap_file),
	LSM_HOOK_INIT(file_mprotect, hook_file_mprotect),
	LSM_HOOK_INIT(file_ioctl, hook_file_ioctl),
	LSM_HOOK_INIT(file_ioctl_compat, hook_file_ioctl_compat),
};

static struct toylsm_hook_stat *toylsm_fs_stats[] __initdata = {
	&stat_file_open, &stat_file_permission, &stat_path_truncate,
	&stat_mmap_file, &stat_file_mprotect, &stat_inode_permission,
	&stat_file_ioctl,
};

/**
 * toylsm_add_fs_hooks - Register the file hooks
 */
__init void toylsm_add_fs_hooks(void)
{
	toylsm_add_hooks(toylsm_fs_hooks, ARRAY_SIZE(toylsm_fs_hooks),
			 toylsm_fs_stats, ARRAY_SIZE(toylsm_fs_stats));
}
