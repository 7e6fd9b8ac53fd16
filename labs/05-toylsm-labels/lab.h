/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 5: toylsm labels.  The functions you write in labels.c; the grader
 * (grade.c) calls each of them.
 *
 * toylsm keeps three labels per task (per thread) in its credentials, and
 * shows them in /proc/<tid>/attr/toylsm/:
 *   current  the task's label; writing it changes the label
 *   exec     the label the task takes at its next execve(); empty if unset
 *   prev     the label it had before its last exec transition; empty if none
 * Reading gives the label and a newline, or nothing at all when unset.
 *
 * On failure return -1 and leave errno set to say why.
 */
#ifndef LAB05_H
#define LAB05_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/lsm.h>		/* LSM_ID_TOYLSM */

#include "todo.h"

/*
 * Step 1.  Read toylsm's attribute attr ("current", "exec" or "prev") of
 * the task tid (0: the calling thread itself) into buf, NUL-terminated,
 * without the newline toylsm adds.  An unset exec or prev reads as ""
 * (length 0).  Return the length; -1 with errno (ENOENT: no such task).
 * len is at least 64: any label fits.
 */
int lab_read_label(pid_t tid, const char *attr, char *buf, size_t len);

/*
 * Step 2.  Set the calling thread's toylsm label.  Return 0, or -1 with
 * the kernel's errno.
 */
int lab_set_label(const char *label);

/*
 * Step 3.  Would toylsm accept these len bytes, written to an attr file,
 * as a label?  1 if yes, 0 if the write would fail with EINVAL.
 */
int lab_label_ok(const char *buf, size_t len);

/*
 * Step 4.  Run the program argv[0] (with arguments argv, NULL-terminated)
 * in a child process that takes toylsm label "label" when it execs it;
 * wait for the child.  Return the program's exit status (0..255), or -1
 * with errno when the child could not set its exec label or could not run
 * the program (then the program must not run at all).  The caller's own
 * labels (current, exec) must not change.
 */
int lab_exec_as(const char *label, char *const argv[]);

/*
 * Step 5.  Write label to the current attr of the task tid,
 * /proc/<tid>/attr/toylsm/current.  Return 0, or -1 with the kernel's
 * errno.
 */
int lab_write_label_of(pid_t tid, const char *label);

/*
 * Step 6.  Drop CAP_MAC_ADMIN from the calling thread's effective
 * capabilities, and nothing else.  Return 0, or -1 with errno.
 */
int lab_drop_mac_admin(void);

#endif /* LAB05_H */
