// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - What one task may do to another of a different label
 *
 * Changing a task, or what it runs with, needs "w" on its label:
 * signals (kill(2), and SIGIO/SIGURG through a file's owner), ptrace
 * attach, its process group, nice value, I/O priority, resource limits,
 * scheduling policy and CPU affinity, and moving its memory between NUMA
 * nodes. Reading a task's state needs "r": ptrace's PTRACE_MODE_READ
 * (/proc/<pid>/environ...), its process group, session, I/O priority,
 * resource limits and scheduling. The same hooks as SELinux's and
 * Smack's task checks; docs/toylsm.md has the table. A task's files in
 * /proc/PID/ carry its label, so that writing one (oom_score_adj, which
 * chooses the task the OOM killer kills) needs "w" on it too.
 */

#include "common.h"

#include <linux/fs.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/security.h>

#include "cred.h"
#include "fs.h"
#include "policy.h"
#include "setup.h"
#include "stats.h"

static struct toylsm_hook_stat stat_task_kill = TOYLSM_HOOK_STAT(task_kill);
static struct toylsm_hook_stat stat_ptrace_access_check =
	TOYLSM_HOOK_STAT(ptrace_access_check);
static struct toylsm_hook_stat stat_ptrace_traceme =
	TOYLSM_HOOK_STAT(ptrace_traceme);
static struct toylsm_hook_stat stat_file_send_sigiotask =
	TOYLSM_HOOK_STAT(file_send_sigiotask);
static struct toylsm_hook_stat stat_task_setpgid =
	TOYLSM_HOOK_STAT(task_setpgid);
static struct toylsm_hook_stat stat_task_getpgid =
	TOYLSM_HOOK_STAT(task_getpgid);
static struct toylsm_hook_stat stat_task_getsid = TOYLSM_HOOK_STAT(task_getsid);
static struct toylsm_hook_stat stat_task_setnice =
	TOYLSM_HOOK_STAT(task_setnice);
static struct toylsm_hook_stat stat_task_setioprio =
	TOYLSM_HOOK_STAT(task_setioprio);
static struct toylsm_hook_stat stat_task_getioprio =
	TOYLSM_HOOK_STAT(task_getioprio);
static struct toylsm_hook_stat stat_task_prlimit =
	TOYLSM_HOOK_STAT(task_prlimit);
static struct toylsm_hook_stat stat_task_setrlimit =
	TOYLSM_HOOK_STAT(task_setrlimit);
static struct toylsm_hook_stat stat_task_setscheduler =
	TOYLSM_HOOK_STAT(task_setscheduler);
static struct toylsm_hook_stat stat_task_getscheduler =
	TOYLSM_HOOK_STAT(task_getscheduler);
static struct toylsm_hook_stat stat_task_movememory =
	TOYLSM_HOOK_STAT(task_movememory);

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

/**
 * hook_file_set_fowner - Remember who set a file's owner for SIGIO
 * @file: the file; fcntl(F_SETOWN) and its kin have just set its owner
 *
 * The signals that the file's owner gets later (O_ASYNC's SIGIO or the
 * signal chosen with F_SETSIG, SIGURG) are sent on behalf of the task
 * that chose the owner: its label, taken now, is the subject of
 * hook_file_send_sigiotask(), as SELinux and Smack keep theirs.
 */
static void hook_file_set_fowner(struct file *file)
{
	WRITE_ONCE(toylsm_file(file)->fown_label, toylsm_current_label());
}

/**
 * hook_file_send_sigiotask - Check a signal to a file's owner
 * @tsk: the task that gets the signal
 * @fown: the file's owner, in the file
 * @sig: the signal (0: SIGIO)
 *
 * Without it, a task could kill one it may not signal: F_SETOWN to it,
 * F_SETSIG(SIGKILL), O_ASYNC, then a write to the pipe.
 *
 * Return: 0 or -EACCES (the signal is not sent).
 */
static int hook_file_send_sigiotask(struct task_struct *tsk,
				    struct fown_struct *fown, int sig)
{
	struct file *file = container_of(fown, struct file, f_owner);
	u32 subject = READ_ONCE(toylsm_file(file)->fown_label);

	/* Every owner is set through hook_file_set_fowner(); if not, the opener. */
	if (subject == TOYLSM_NOLABEL)
		subject = toylsm_cred(file->f_cred)->label;
	return check_task(&stat_file_send_sigiotask, subject, tsk,
			  TOYLSM_MAY_WRITE, true);
}

/**
 * check_current - Check an access of the current task to another
 * @stat: the counters of the hook asking
 * @p: the other task
 * @perms: TOYLSM_MAY_READ or TOYLSM_MAY_WRITE
 *
 * Return: 0 or -EACCES.
 */
static int check_current(struct toylsm_hook_stat *stat,
			 struct task_struct *p, u32 perms)
{
	return check_task(stat, toylsm_current_label(), p, perms, true);
}

/**
 * hook_task_setpgid - Check setpgid(2) on a task: "w"
 * @p: the task
 * @pgid: its new process group
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_setpgid(struct task_struct *p, pid_t pgid)
{
	return check_current(&stat_task_setpgid, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_getpgid - Check getpgid(2) of a task: "r"
 * @p: the task
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_getpgid(struct task_struct *p)
{
	return check_current(&stat_task_getpgid, p, TOYLSM_MAY_READ);
}

/**
 * hook_task_getsid - Check getsid(2) of a task: "r"
 * @p: the task
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_getsid(struct task_struct *p)
{
	return check_current(&stat_task_getsid, p, TOYLSM_MAY_READ);
}

/**
 * hook_task_setnice - Check setpriority(2) on a task: "w"
 * @p: the task
 * @nice: its new nice value
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_setnice(struct task_struct *p, int nice)
{
	return check_current(&stat_task_setnice, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_setioprio - Check ioprio_set(2) on a task: "w"
 * @p: the task
 * @ioprio: its new I/O priority
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_setioprio(struct task_struct *p, int ioprio)
{
	return check_current(&stat_task_setioprio, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_getioprio - Check ioprio_get(2) of a task: "r"
 * @p: the task
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_getioprio(struct task_struct *p)
{
	return check_current(&stat_task_getioprio, p, TOYLSM_MAY_READ);
}

/**
 * hook_task_prlimit - Check prlimit(2) on another task
 * @cred: the caller's cred
 * @tcred: the target's cred
 * @flags: LSM_PRLIMIT_READ and/or LSM_PRLIMIT_WRITE
 *
 * Reading its limits needs "r", changing them "w": a CPU time limit
 * set on a task is a way to kill it (SIGKILL when it runs out).
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_prlimit(const struct cred *cred, const struct cred *tcred,
			     unsigned int flags)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };
	u32 perms = 0;

	if (flags & LSM_PRLIMIT_READ)
		perms |= TOYLSM_MAY_READ;
	if (flags & LSM_PRLIMIT_WRITE)
		perms |= TOYLSM_MAY_WRITE;
	return toylsm_check(&stat_task_prlimit, toylsm_cred(cred)->label,
			    toylsm_cred(tcred)->label, perms, &ad);
}

/**
 * hook_task_setrlimit - Check setting a task's resource limit: "w"
 * @p: the task (the caller itself for setrlimit(2), any for prlimit(2))
 * @resource: the limit
 * @new_rlim: its new value
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_setrlimit(struct task_struct *p, unsigned int resource,
			       struct rlimit *new_rlim)
{
	return check_current(&stat_task_setrlimit, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_setscheduler - Check changing a task's scheduling: "w"
 * @p: the task
 *
 * sched_setscheduler(2), sched_setparam(2), sched_setattr(2) and
 * sched_setaffinity(2).
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_setscheduler(struct task_struct *p)
{
	return check_current(&stat_task_setscheduler, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_getscheduler - Check reading a task's scheduling: "r"
 * @p: the task
 *
 * sched_getscheduler(2), sched_getparam(2), sched_getattr(2),
 * sched_getaffinity(2) and sched_rr_get_interval(2).
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_getscheduler(struct task_struct *p)
{
	return check_current(&stat_task_getscheduler, p, TOYLSM_MAY_READ);
}

/**
 * hook_task_movememory - Check moving a task's pages: "w"
 * @p: the task
 *
 * migrate_pages(2) and move_pages(2) of another task.
 *
 * Return: 0 or -EACCES.
 */
static int hook_task_movememory(struct task_struct *p)
{
	return check_current(&stat_task_movememory, p, TOYLSM_MAY_WRITE);
}

/**
 * hook_task_to_inode - Give a file of /proc/PID/ its task's label
 * @p: the task
 * @inode: a file of its /proc/PID/, when it is made and each time its
 *	dentry is revalidated (a lookup through it), so that it follows the
 *	task's relabels; runs under rcu_read_lock() in a path walk
 *
 * The file hooks then check writing it against the task's label, "w"
 * (fs.c, node_perms()): /proc/PID/oom_score_adj set to 1000 makes the
 * task the OOM killer's victim, a way to kill it without kill(2). As
 * SELinux's and Smack's task_to_inode.
 */
static void hook_task_to_inode(struct task_struct *p, struct inode *inode)
{
	struct toylsm_inode *ti = toylsm_inode(inode);

	WRITE_ONCE(ti->task, task_pid(p));
	WRITE_ONCE(ti->label, toylsm_task_label(p));
}

static struct security_hook_list toylsm_task_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(task_kill, hook_task_kill),
	LSM_HOOK_INIT(ptrace_access_check, hook_ptrace_access_check),
	LSM_HOOK_INIT(ptrace_traceme, hook_ptrace_traceme),
	LSM_HOOK_INIT(file_set_fowner, hook_file_set_fowner),
	LSM_HOOK_INIT(file_send_sigiotask, hook_file_send_sigiotask),
	LSM_HOOK_INIT(task_setpgid, hook_task_setpgid),
	LSM_HOOK_INIT(task_getpgid, hook_task_getpgid),
	LSM_HOOK_INIT(task_getsid, hook_task_getsid),
	LSM_HOOK_INIT(task_setnice, hook_task_setnice),
	LSM_HOOK_INIT(task_setioprio, hook_task_setioprio),
	LSM_HOOK_INIT(task_getioprio, hook_task_getioprio),
	LSM_HOOK_INIT(task_prlimit, hook_task_prlimit),
	LSM_HOOK_INIT(task_setrlimit, hook_task_setrlimit),
	LSM_HOOK_INIT(task_setscheduler, hook_task_setscheduler),
	LSM_HOOK_INIT(task_getscheduler, hook_task_getscheduler),
	LSM_HOOK_INIT(task_movememory, hook_task_movememory),
	LSM_HOOK_INIT(task_to_inode, hook_task_to_inode),
};

static struct toylsm_hook_stat *toylsm_task_stats[] __initdata = {
	&stat_task_kill, &stat_ptrace_access_check, &stat_ptrace_traceme,
	&stat_file_send_sigiotask, &stat_task_setpgid, &stat_task_getpgid,
	&stat_task_getsid, &stat_task_setnice, &stat_task_setioprio,
	&stat_task_getioprio, &stat_task_prlimit, &stat_task_setrlimit,
	&stat_task_setscheduler, &stat_task_getscheduler,
	&stat_task_movememory,
};

/**
 * toylsm_add_task_hooks - Register the hooks of one task acting on another
 */
__init void toylsm_add_task_hooks(void)
{
	toylsm_add_hooks(toylsm_task_hooks, ARRAY_SIZE(toylsm_task_hooks),
			 toylsm_task_stats, ARRAY_SIZE(toylsm_task_stats));
}
