/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The labels of a task, kept in its credentials
 */

#ifndef _SECURITY_TOYLSM_CRED_H
#define _SECURITY_TOYLSM_CRED_H

#include <linux/cred.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "setup.h"

/* The label of the first task, and so of every task that never changes. */
#define TOYLSM_INIT_LABEL "init"

/**
 * struct toylsm_cred - toylsm's part of a cred's security blob
 * @label: the task's label (a secid)
 * @exec: the label to take at the next exec, or TOYLSM_NOLABEL
 * @prev: the label before the last exec transition, or TOYLSM_NOLABEL
 */
struct toylsm_cred {
	u32 label;
	u32 exec;
	u32 prev;
};

/**
 * toylsm_cred - toylsm's part of a cred
 * @cred: the cred
 *
 * Return: the part of @cred's blob that the infrastructure reserved for
 * toylsm (see toylsm_blob_sizes).
 */
static inline struct toylsm_cred *toylsm_cred(const struct cred *cred)
{
	return cred->security + toylsm_blob_sizes.lbs_cred;
}

/**
 * toylsm_current_label - The label of the current task
 *
 * Return: its secid.
 */
static inline u32 toylsm_current_label(void)
{
	return toylsm_cred(current_cred())->label;
}

/**
 * toylsm_task_label - The label of any task
 * @task: the task
 *
 * Return: its secid.
 */
static inline u32 toylsm_task_label(struct task_struct *task)
{
	u32 label;

	rcu_read_lock();
	label = toylsm_cred(__task_cred(task))->label;
	rcu_read_unlock();
	return label;
}

int __init toylsm_cred_init(void);

#endif /* _SECURITY_TOYLSM_CRED_H */
