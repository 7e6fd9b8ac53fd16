// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Signals and ptrace between tasks of different labels
 *
 * Signalling or attaching to a task needs "w" on its label; reading a
 * task's state (PTRACE_MODE_READ, e.g. /proc/<pid>/environ) needs "r".
 */

#include "common.h"

#include <linux/ptrace.h>
#include <linux/sched/signal.h>

#include "cred.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"

static struct toylsm_hook_stat stat_task_kill = TOYLSM_HOOK_STAT(task_kill);
static struct toylsm_hook_stat stat_ptrace_access_check =
	TOYLSM_HOOK_STAT(ptrace_access_check);
static struct toylsm_hook_stat stat_ptrace_traceme =
	TOYLSM_HOOK_STAT(ptrace_traceme);

/**
 * check_task - Check an access of one task to another
 * @stat: the counters of the hook asking
 * @subject: the secid of the acting task
 * @target: the task acted on
 * @perms: TOYLSM_MAY_* bits
 * @audit: whether a denial writes an audit record
 *
 * Return: 0 or -EACCES.
 */
static int check_task(struct toylsm_hook_stat *stat, u32 subject,
		      struct task_struct *target, u32 perms, bool audit)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_TASK, .u.tsk = target,
	};

	return toylsm_check(stat, subject, toylsm_task_label(target), perms,
			    audit ? &ad : NULL);
}

/**
 * hook_task_kill - Check a signal from user space
 * @p: the target
 * @info: the signal's information
 * @sig: the signal
 * @cred: the sender's cred if it is not the current task (USB I/O)
 *
 * The kernel's own signals (SIGCHLD and the like) never get here.
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_kill(struct task_struct *p, struct kernel_siginfo *info,
			  int sig, const struct cred *cred)
{
	u32 subject = cred ? toylsm_cred(cred)->label : toylsm_current_label();

	return check_task(&stat_task_kill, subject, p, TOYLSM_MAY_WRITE, true);
}

/**
 * hook_ptrace_access_check - Check the current task tracing another
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
static int hook_ptrace_access_check(struct task_struct *child,
				    unsigned int mode)
{
	u32 perms = mode & PTRACE_MODE_ATTACH ? TOYLSM_MAY_WRITE :
						TOYLSM_MAY_READ;

	return check_task(&stat_ptrace_access_check, toylsm_current_label(),
			  child, perms, !(mode & PTRACE_MODE_NOAUDIT));
}

/**
 * hook_ptrace_traceme - Check PTRACE_TRACEME: the parent traces us
 * @parent: the tracer-to-be
 *
 * Return: 0 or -EACCES.
 */
static int hook_ptrace_traceme(struct task_struct *parent)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_TASK, .u.tsk = parent,
	};

	return toylsm_check(&stat_ptrace_traceme, toylsm_task_label(parent),
			    toylsm_current_label(), TOYLSM_MAY_WRITE, &ad);
}

static struct security_hook_list toylsm_task_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, hook_task_kill),
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, hook_ptrace_traceme),
};

static struct toylsm_hook_stat *toylsm_task_stats[] __initdata = {
	&stat_task_kill, &stat_ptrace_access_check, &stat_ptrace_traceme,
};

/**
 * toylsm_add_task_hooks - Register the signal and ptrace hooks
 */
__init void toylsm_add_task_hooks(void)
{
	toylsm_add_hooks(toylsm_task_hooks, ARRAY_SIZE(toylsm_task_hooks),
			 toylsm_task_stats, ARRAY_SIZE(toylsm_task_stats));
}
