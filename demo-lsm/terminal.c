// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Terminals: the labels behind every name of a terminal
 *
 * A terminal is reached through many names: the node its label is on
 * (/dev/ttyS0), another node of the same device, /dev/tty (the caller's
 * controlling terminal), /dev/console, a pty's master. And the tty layer
 * acts on a terminal's session for whoever holds it: a line pushed with
 * TIOCSTI runs in the shell that reads it, a ^C pushed so, or a hangup,
 * signals that shell's foreground group with SEND_SIG_PRIV, which
 * check_kill_permission() lets pass before security_task_kill() (6.1 has
 * no hook there). So toylsm closes those routes at the terminal itself:
 * - the terminal an open file reaches (tty_file_tty(), patch 0010) has
 *   labels of its own, checked at every read, write and ioctl whatever
 *   name the file was opened by (fs.c): its device's label (a labelled
 *   node of it, device.c), for a pty its other end's too, and for a pty of
 *   devpts, which has no xattrs, the label of the task that opened its
 *   master (/dev/ptmx);
 * - at a label change, a task gives up its controlling terminal and its
 *   descriptors of terminals that its new label may not read and write,
 *   as SELinux does at exec (flush_unauthorized_files()).
 * docs/toylsm.md, "Devices and terminals".
 */

#include "common.h"

#include <linux/anon_inodes.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/tty.h>
#include <linux/tty_driver.h>

#include "cred.h"
#include "device.h"
#include "fs.h"
#include "label.h"
#include "policy.h"
#include "terminal.h"

/**
 * pty_creator - The label of the task that opened a pty's master
 * @tty: either end of a pty
 *
 * The master's first file is the one its creator opened (the tty layer
 * adds each file at the head of the list, and a pty's master cannot be
 * opened again; a later /dev/tty of a master is a later file).
 *
 * Return: its label, or TOYLSM_NOLABEL once the master is closed.
 */
static u32 pty_creator(struct tty_struct *tty)
{
	struct tty_struct *master = tty->driver->subtype == PTY_TYPE_MASTER ?
				    tty : tty->link;
	struct tty_file_private *priv;
	u32 label = TOYLSM_NOLABEL;

	spin_lock(&master->files_lock);
	if (!list_empty(&master->tty_files)) {
		priv = list_last_entry(&master->tty_files,
				       struct tty_file_private, list);
		label = toylsm_cred(priv->file->f_cred)->label;
	}
	spin_unlock(&master->files_lock);
	return label;
}

/**
 * terminal_labels - The labels of a terminal
 * @tty: the terminal
 * @labels: where to store them, TOYLSM_TERMINAL_LABELS at most
 *
 * Its device's label; for a pty, the label of its other end's device; for
 * a pty of devpts, the label of the task that created it. Never sleeps.
 *
 * Return: how many.
 */
static unsigned int terminal_labels(struct tty_struct *tty, u32 *labels)
{
	unsigned int n = 0;

	labels[n++] = toylsm_device_label(&toylsm_devices, S_IFCHR,
					  tty_devnum(tty));
	if (tty->driver->type != TTY_DRIVER_TYPE_PTY || !tty->link)
		return n;
	labels[n++] = toylsm_device_label(&toylsm_devices, S_IFCHR,
					  tty_devnum(tty->link));
	if (tty->driver->flags & TTY_DRIVER_DEVPTS_MEM)
		labels[n++] = pty_creator(tty);
	return n;
}

/**
 * toylsm_file_terminal_labels - The labels of the terminal a file reaches
 * @file: an open file
 * @labels: where to store them, TOYLSM_TERMINAL_LABELS at most
 *
 * Return: how many; 0 for a file that is no open terminal.
 */
unsigned int toylsm_file_terminal_labels(struct file *file, u32 *labels)
{
	struct tty_struct *tty = tty_file_tty(file);

	return tty ? terminal_labels(tty, labels) : 0;
}

/**
 * toylsm_is_terminal - Is a file an open terminal?
 * @file: an open file
 *
 * Return: true if it is.
 */
bool toylsm_is_terminal(struct file *file)
{
	return tty_file_tty(file);
}

/**
 * allows_all - Does a subject have read and write on every label?
 * @subject: its secid
 * @labels: the labels
 * @n: how many
 *
 * Return: true if so.
 */
static bool allows_all(u32 subject, const u32 *labels, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!toylsm_allows(subject, labels[i],
				   TOYLSM_MAY_READ | TOYLSM_MAY_WRITE))
			return false;
	return true;
}

/* What replaces a dropped terminal descriptor: end of file, writes lost. */
static ssize_t null_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	return 0;
}

static ssize_t null_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
	.llseek = noop_llseek,
};

/**
 * match_terminal - iterate_fd() callback: the next descriptor of a terminal
 * @p: unused
 * @file: an open file of the table
 * @fd: its descriptor
 *
 * Called under the table's lock: it only asks the tty layer.
 *
 * Return: @fd + 1 for a terminal, else 0.
 */
static int match_terminal(const void *p, struct file *file, unsigned int fd)
{
	return toylsm_is_terminal(file) ? fd + 1 : 0;
}

/**
 * drop_descriptors - Replace the descriptors of terminals @subject may not use
 * @subject: the current task's new label
 *
 * Each descriptor of a terminal that @subject may not read and write
 * (the file's labels, fs.c) reads end of file and loses its writes from
 * now on, as SELinux's flush_unauthorized_files() gives such descriptors
 * its null device: a closed 0, 1 or 2 would be taken by the next open.
 * Only a descriptor table of the task's own: one shared with another task
 * (CLONE_FILES) is that task's too, and each use of a descriptor is
 * checked anyway.
 */
static void drop_descriptors(u32 subject)
{
	struct files_struct *files = current->files;
	u32 labels[TOYLSM_FILE_LABELS];
	struct file *null = NULL, *file;
	unsigned int n = 0;
	bool drop;

	if (!files || atomic_read(&files->count) != 1)
		return;
	while ((n = iterate_fd(files, n, match_terminal, NULL))) {
		file = fget(n - 1);
		if (!file)
			continue;
		drop = !allows_all(subject, labels,
				   toylsm_file_objects(file, labels));
		fput(file);
		if (!drop)
			continue;
		if (!null) {
			null = anon_inode_getfile("[toylsm-null]", &null_fops,
						  NULL, O_RDWR);
			if (IS_ERR(null))
				null = NULL;	/* then the descriptor is closed */
		}
		replace_fd(n - 1, null, 0);
	}
	if (null)
		fput(null);
}

/**
 * toylsm_drop_terminals - Give up the terminals a new label may not use
 * @subject: the label the current task has just taken
 *
 * At a label change (a write of "current", an exec that takes the
 * "exec" label), as SELinux at exec: a controlling terminal that
 * @subject may not read and write is given up (no_tty(): for a session
 * leader, its whole session's, whose foreground group gets SIGHUP as at
 * TIOCNOTTY), so that /dev/tty no longer reaches it; and so are the
 * descriptors of such terminals (drop_descriptors()). May sleep.
 */
void toylsm_drop_terminals(u32 subject)
{
	u32 labels[TOYLSM_TERMINAL_LABELS];
	struct tty_struct *tty = get_current_tty();
	bool drop = false;

	if (tty) {
		drop = !allows_all(subject, labels,
				   terminal_labels(tty, labels));
		tty_kref_put(tty);
	}
	if (drop)
		no_tty();
	drop_descriptors(subject);
}
