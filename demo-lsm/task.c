// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Signals and ptrace between tasks of different labels
 *
 * Signalling or attaching to a task needs "w" on its label; reading a
 * task's state (PTRACE_MODE_READ, e.g. /proc/<pid>/attr) needs "r".
 */

#include <linux/ptrace.h>
#include <linux/sched/signal.h>

#include "cred.h"
#include "policy.h"

/**
 * toylsm_task_check - Check an access of one task to another
 * @hook: the hook asking
 * @subject: the secid of the acting task
 * @target: the task acted on
 * @perms: TOYLSM_MAY_* bits
 * @audit: whether a denial writes an audit record
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_task_check(enum toylsm_hook hook, u32 subject,
			     struct task_struct *target, u32 perms, bool audit)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_TASK, .u.tsk = target,
	};

	return toylsm_check(hook, subject, toylsm_task_label(target), perms,
			    audit ? &ad : NULL);
}

/**
 * toylsm_task_kill - Check a signal from user space
 * @p: the target
 * @info: the signal's information
 * @sig: the signal
 * @cred: the sender's cred if it is not the current task (USB I/O)
 *
 * The kernel's own signals (SIGCHLD and the like) never get here.
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_task_kill(struct task_struct *p,
			    struct kernel_siginfo *info, int sig,
			    const struct cred *cred)
{
	u32 subject = cred ? toylsm_cred(cred)->label : toylsm_current_label();

	return toylsm_task_check(TOYLSM_HOOK_TASK_KILL, subject, p,
				 TOYLSM_MAY_WRITE, true);
}

/**
 * toylsm_ptrace_access_check - Check the current task tracing another
 * @child: the task to trace or inspect
 * @mode: PTRACE_MODE_ATTACH or PTRACE_MODE_READ, and flags
 *
 * The kernel's own silent probes (PTRACE_MODE_NOAUDIT, e.g. what
 * /proc/PID/stat shows of another task) are counted but write no audit
 * record, as in Yama: they would spend the records' rate limit and hide
 * real denials.
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_ptrace_access_check(struct task_struct *child,
				      unsigned int mode)
{
	u32 perms = mode & PTRACE_MODE_ATTACH ? TOYLSM_MAY_WRITE :
						TOYLSM_MAY_READ;

	return toylsm_task_check(TOYLSM_HOOK_PTRACE_ACCESS_CHECK,
				 toylsm_current_label(), child, perms,
				 !(mode & PTRACE_MODE_NOAUDIT));
}

/**
 * toylsm_ptrace_traceme - Check PTRACE_TRACEME: the parent traces us
 * @parent: the tracer-to-be
 *
 * Return: 0 or -EACCES.
 */
static int toylsm_ptrace_traceme(struct task_struct *parent)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_TASK, .u.tsk = parent,
	};

	return toylsm_check(TOYLSM_HOOK_PTRACE_TRACEME,
			    toylsm_task_label(parent), toylsm_current_label(),
			    TOYLSM_MAY_WRITE, &ad);
}

static struct security_hook_list toylsm_task_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, toylsm_task_kill),
	LSM_HOOK_INIT(ptrace_access_check, toylsm_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, toylsm_ptrace_traceme),
};

/**
 * toylsm_add_task_hooks - Register the signal and ptrace hooks
 */
__init void toylsm_add_task_hooks(void)
{
	security_add_hooks(toylsm_task_hooks, ARRAY_SIZE(toylsm_task_hooks),
			   &toylsm_lsmid);
}
