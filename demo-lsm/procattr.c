// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - /proc/<pid>/attr/toylsm/{current,exec,prev}
 *
 * Reading gives the label and a newline (nothing for an unset exec or
 * prev). Writing "current" or "exec" sets that label. fs/proc already
 * lets only the task itself write; toylsm checks the text and asks the
 * policy (a "t" rule or CAP_MAC_ADMIN, and a tracer's reach) before
 * anything changes. docs/toylsm.md, "A task's labels".
 */

#include "common.h"

#include <linux/slab.h>
#include <linux/string.h>

#include "cred.h"
#include "label.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"
#include "terminal.h"

static struct toylsm_hook_stat stat_setprocattr = TOYLSM_HOOK_STAT(setprocattr);

/**
 * hook_getprocattr - Read a label of a task
 * @p: the task
 * @name: "current", "exec" or "prev"
 * @value: where to store the kmalloc()ed text
 *
 * Return: the length of the text, or -EINVAL for another @name.
 */
static int hook_getprocattr(struct task_struct *p, const char *name,
			    char **value)
{
	const struct toylsm_cred *tc;
	const char *label;
	size_t len;
	u32 secid;

	if (strcmp(name, "current") && strcmp(name, "exec") &&
	    strcmp(name, "prev"))
		return -EINVAL;
	rcu_read_lock();
	tc = toylsm_cred(__task_cred(p));
	if (!strcmp(name, "current"))
		secid = tc->label;
	else if (!strcmp(name, "exec"))
		secid = tc->exec;
	else
		secid = tc->prev;
	rcu_read_unlock();

	*value = NULL;
	label = toylsm_name(secid);
	if (!label)
		return 0;
	/*
	 * The label and a newline. Not kasprintf(): this runs in every
	 * lsm_self_attr() call, and formatting costs more than a copy.
	 */
	len = strlen(label);
	*value = kmalloc(len + 2, GFP_KERNEL);
	if (!*value)
		return -ENOMEM;
	memcpy(*value, label, len);
	(*value)[len] = '\n';
	(*value)[len + 1] = '\0';
	return len + 1;
}

/**
 * hook_setprocattr - Set the current task's current or exec label
 * @name: "current" or "exec"
 * @value: the text written, not NUL-terminated
 * @size: its length
 *
 * A traced task takes a new current label only if its tracer may trace
 * it; an exec label is checked so at exec (cred.c). A task that shares
 * its memory (a thread) takes a new current label only with
 * CAP_MAC_ADMIN (toylsm_check_shared_mm()). A new current label gives up
 * the terminals it may not read and write (terminal.c), as an exec that
 * takes the exec label does.
 *
 * Return: @size, or -EINVAL (bad name or text), -EPERM (policy),
 * -ENOSPC (label table full), -ENOMEM; on error nothing changed.
 */
static int hook_setprocattr(const char *name, void *value, size_t size)
{
	char label[TOYLSM_LABEL_MAX + 1];
	struct cred *new;
	u32 secid, old;
	bool exec;
	int err;

	if (!strcmp(name, "current"))
		exec = false;
	else if (!strcmp(name, "exec"))
		exec = true;
	else
		return -EINVAL;

	err = toylsm_label_parse(value, size, label);
	if (err)
		return err;
	err = toylsm_check_relabel(&stat_setprocattr, label, &secid);
	if (!err && !exec)
		err = toylsm_check_tracer(&stat_setprocattr, secid);
	if (!err && !exec)
		err = toylsm_check_shared_mm(&stat_setprocattr, secid);
	if (err)
		return err;

	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	if (exec)
		toylsm_cred(new)->exec = secid;
	else
		toylsm_cred(new)->label = secid;
	old = toylsm_current_label();
	commit_creds(new);
	if (!exec && secid != old)
		toylsm_drop_terminals(secid);
	return size;
}

static struct security_hook_list toylsm_procattr_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(getprocattr, hook_getprocattr),
	LSM_HOOK_INIT(setprocattr, hook_setprocattr),
};

static struct toylsm_hook_stat *toylsm_procattr_stats[] __initdata = {
	&stat_setprocattr,
};

/**
 * toylsm_add_procattr_hooks - Register the /proc attr hooks
 */
__init void toylsm_add_procattr_hooks(void)
{
	toylsm_add_hooks(toylsm_procattr_hooks,
			 ARRAY_SIZE(toylsm_procattr_hooks), toylsm_procattr_stats,
			 ARRAY_SIZE(toylsm_procattr_stats));
}
