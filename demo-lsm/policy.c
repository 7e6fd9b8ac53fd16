// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The decisions: may a subject access an object?
 *
 * A rule "SUBJECT OBJECT PERMS" lets a task labelled SUBJECT access an
 * object (file or task) labelled OBJECT with PERMS. Access between equal
 * labels, and to unlabelled files, is always allowed, so that a bad rule
 * table cannot lock root out of the guest. A file whose label cannot be
 * used (TOYLSM_CLOSED, fs.c) is labelled: nothing allows it.
 * docs/toylsm.md says the same for users.
 */

#include "common.h"

#include <linux/capability.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "audit.h"
#include "cred.h"
#include "label.h"
#include "policy.h"
#include "rules.h"

/* 1: deny what no rule allows; 0: only count and log it. */
bool toylsm_enforce = true;

/**
 * deny_why - Count, log and (when enforcing) refuse an access
 * @stat: the counters of the hook that checked
 * @subject: the subject's secid
 * @object: the object's label, as the record names it
 * @perms: the permissions refused
 * @reason: why, when it is not that no rule grants @perms; or NULL
 * @ad: what the access was about, for the audit record; NULL: no record
 *	(the kernel's silent probes: PTRACE_MODE_NOAUDIT, would_dump())
 *
 * A record that the subject's rate limit suppresses is counted in
 * @stat's suppressed (audit.c).
 *
 * Return: -EACCES when enforcing, else 0.
 */
static int deny_why(struct toylsm_hook_stat *stat, u32 subject,
		    const char *object, u32 perms, const char *reason,
		    struct common_audit_data *ad)
{
	struct toylsm_audit_data td = {
		.hook = stat->name, .subject = toylsm_name(subject),
		.object = object, .perms = perms, .reason = reason,
	};

	atomic_long_inc(&stat->denials);
	if (ad && !toylsm_audit_denial(subject, &td, ad))
		atomic_long_inc(&stat->suppressed);
	return READ_ONCE(toylsm_enforce) ? -EACCES : 0;
}

/* deny_why() for the usual reason: no rule grants @perms. */
static int deny(struct toylsm_hook_stat *stat, u32 subject,
		const char *object, u32 perms, struct common_audit_data *ad)
{
	return deny_why(stat, subject, object, perms, NULL, ad);
}

/**
 * toylsm_allows - Does the policy allow an access? (no count, no record)
 * @subject: the subject's secid
 * @object: the object's secid, as for toylsm_check()
 * @perms: the TOYLSM_MAY_* bits wanted
 *
 * The rule table's answer alone, whatever "enforce" says: for the
 * checks (toylsm_check()) and for the decisions that refuse nothing
 * (an exec that leaves its image undumpable, cred.c).
 *
 * Return: true if allowed.
 */
bool toylsm_allows(u32 subject, u32 object, u32 perms)
{
	return object == TOYLSM_NOLABEL || subject == object ||
	       toylsm_rules_allow(subject, object, perms);
}

/**
 * toylsm_check_objects - The policy decision of one access to an object
 *	of several labels
 * @stat: the counters of the hook asking
 * @subject: the subject's secid
 * @objects: the object's secids (as for toylsm_check()): a file's own,
 *	its device's, its terminal's...
 * @n: how many
 * @perms: the TOYLSM_MAY_* bits wanted
 * @ad: what the access is about, for the audit record; NULL: no record
 *
 * One call in @stat, and each label must allow @perms; a denial names the
 * first that does not.
 *
 * Return: 0 if allowed, -EACCES if denied.
 */
int toylsm_check_objects(struct toylsm_hook_stat *stat, u32 subject,
			 const u32 *objects, unsigned int n, u32 perms,
			 struct common_audit_data *ad)
{
	unsigned int i;

	atomic_long_inc(&stat->calls);
	for (i = 0; i < n; i++) {
		if (toylsm_allows(subject, objects[i], perms))
			continue;
		return deny(stat, subject,
			    objects[i] == TOYLSM_CLOSED ? TOYLSM_CLOSED_NAME :
			    toylsm_name(objects[i]), perms, ad);
	}
	return 0;
}

/**
 * toylsm_check - The policy decision of one access
 * @stat: the counters of the hook asking
 * @subject: the subject's secid
 * @object: the object's secid, TOYLSM_NOLABEL if unlabelled,
 *	TOYLSM_CLOSED if its label cannot be used (no rule names it, no task
 *	has it: denied)
 * @perms: the TOYLSM_MAY_* bits wanted
 * @ad: what the access is about, for the audit record; NULL: no record
 *
 * Return: 0 if allowed, -EACCES if denied.
 */
int toylsm_check(struct toylsm_hook_stat *stat, u32 subject, u32 object,
		 u32 perms, struct common_audit_data *ad)
{
	return toylsm_check_objects(stat, subject, &object, 1, perms, ad);
}

/**
 * toylsm_check_relabel - May the current task take a label?
 * @stat: the counters of the hook asking
 * @label: the new label, valid
 * @secid: where to store its secid (interned) when allowed
 *
 * Allowed: its own label, a "t" rule from its label to @label, or
 * CAP_MAC_ADMIN. A label is interned only once allowed, so that a denied
 * task cannot fill the table. When not enforcing, a change that no rule
 * allows is logged and made, but only to a label in the table: a label
 * no rule names would be interned until reboot by any task.
 *
 * Return: 0, -EPERM (denied while enforcing, or a new label) or -ENOSPC
 * (table full).
 */
int toylsm_check_relabel(struct toylsm_hook_stat *stat, const char *label,
			 u32 *secid)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };
	u32 cur = toylsm_current_label();
	u32 want = toylsm_label_find(&toylsm_labels, label);
	bool ok;

	atomic_long_inc(&stat->calls);
	/* A label that is not interned yet is named by no rule. */
	ok = want && (want == cur ||
		      toylsm_rules_allow(cur, want, TOYLSM_MAY_TRANSIT));
	if (!ok && !capable(CAP_MAC_ADMIN) &&
	    (deny(stat, cur, label, TOYLSM_MAY_TRANSIT, &ad) ||
	     !want))
		return -EPERM;
	return toylsm_label_intern(&toylsm_labels, label, secid);
}

/**
 * toylsm_tracer_label - The label of the current task's tracer
 *
 * Return: its secid, or TOYLSM_NOLABEL when the task is not traced
 * (every task has a label).
 */
u32 toylsm_tracer_label(void)
{
	struct task_struct *tracer;
	u32 tsid = TOYLSM_NOLABEL;

	rcu_read_lock();
	tracer = ptrace_parent(current);
	if (tracer)
		tsid = toylsm_cred(__task_cred(tracer))->label;
	rcu_read_unlock();
	return tsid;
}

/**
 * toylsm_check_tracer - May the current task's tracer trace a new label?
 * @stat: the counters of the hook asking
 * @secid: the label the current task is about to take
 *
 * A task that changes its label while traced must stay within its
 * tracer's reach ("w" on the new label, what PTRACE_ATTACH needs), as
 * SELinux does with ptrace_parent_sid(); else the tracer keeps reading
 * and writing the memory of a task it could not attach to.
 *
 * Return: 0 (not traced, or allowed) or -EPERM.
 */
int toylsm_check_tracer(struct toylsm_hook_stat *stat, u32 secid)
{
	struct common_audit_data ad = {
		.type = LSM_AUDIT_DATA_TASK, .u.tsk = current,
	};
	u32 tsid = toylsm_tracer_label();

	if (tsid == TOYLSM_NOLABEL)
		return 0;
	return toylsm_check(stat, tsid, secid, TOYLSM_MAY_WRITE, &ad) ?
	       -EPERM : 0;
}

/**
 * toylsm_check_shared_mm - May the current task, sharing its memory, relabel?
 * @stat: the counters of the hook asking
 * @secid: the label the current task is about to take as "current"
 *
 * The threads of a process (and tasks made with CLONE_VM) share one
 * memory: what one of them reads under a new label, the others read as
 * plain memory, whatever their own labels. So a task that shares its
 * memory changes its current label only with CAP_MAC_ADMIN, which could
 * give the others the same access by a rule anyway. The exec label is
 * not concerned: exec leaves the task alone in a new memory. SELinux
 * refuses such a change too, unless the new domain is bounded by the
 * old one (selinux_setprocattr()).
 *
 * Return: 0, or -EPERM (refused while enforcing).
 */
int toylsm_check_shared_mm(struct toylsm_hook_stat *stat, u32 secid)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };
	u32 cur = toylsm_current_label();

	if (secid == cur || current_is_single_threaded() ||
	    capable(CAP_MAC_ADMIN))
		return 0;
	return deny_why(stat, cur, toylsm_name(secid), TOYLSM_MAY_TRANSIT,
			"shared_memory", &ad) ? -EPERM : 0;
}
