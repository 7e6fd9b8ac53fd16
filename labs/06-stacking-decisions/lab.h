/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 6: stacking decisions.  The functions you write in stacking.c; the
 * grader (grade.c) calls each of them.
 *
 * toylsm's policy lives in securityfs, /sys/kernel/security/toylsm/:
 *   rules    lines "SUBJECT OBJECT PERMS": a task labelled SUBJECT may
 *            access a file (or task) labelled OBJECT with PERMS, letters
 *            of "rwxt"; "-" removes the rule
 *   enforce  1: deny what no rule allows; 0: only count and log it
 *   stats    lines "HOOK CALLS DENIALS SUPPRESSED"
 * A file's toylsm label is its security.toylsm xattr.  Same labels and
 * unlabelled files are always allowed.  Writing any of these needs
 * CAP_MAC_ADMIN.
 *
 * On failure return -1 and leave errno set to say why.
 */
#ifndef LAB06_H
#define LAB06_H

#include <stddef.h>
#include <linux/lsm.h>		/* LSM_ID_TOYLSM */

#include "todo.h"

/*
 * Step 1.  Set one toylsm rule: the line "SUBJECT OBJECT PERMS" in one
 * write() to the rules file.  perms: letters of "rwxt", or "-" to remove
 * the rule.  Return 0, or -1 with the kernel's errno.
 */
int lab_add_rule(const char *subject, const char *object, const char *perms);

/*
 * Step 2.  Give the file at path the toylsm label "label" (its
 * security.toylsm xattr, without a NUL).  Return 0, or -1 with the
 * kernel's errno.
 */
int lab_label_file(const char *path, const char *label);

/*
 * Step 3.  toylsm's counters for hook ("file_open", "setprocattr", ...:
 * its line in the stats file).  Return 0, or -1 with errno ENOENT if the
 * file has no line for hook (or the error of reading it).
 */
int lab_stats(const char *hook, long *calls, long *denials);

/*
 * Step 4.  Open path with flags (O_RDONLY or O_WRONLY), and close it
 * again.  Return 0 if it opened, or -1 with open()'s errno.  Either way,
 * set *by_toylsm to 1 if toylsm counted a denial of file_open during the
 * call (it refused, or would have with enforce 0), else to 0.
 */
int lab_open_verdict(const char *path, int flags, int *by_toylsm);

/*
 * Step 5.  Write on (a number) to toylsm's enforce file.  Return 0, or -1
 * with the kernel's errno (EINVAL for anything but 0 and 1).
 */
int lab_set_enforce(int on);

/*
 * Step 6.  Let the calling thread read the file at path: add a read rule
 * to each active module that would refuse it, and only read.  toylsm: if
 * the file has a toylsm label other than yours.  Smack, if it is active:
 * "SUBJECT OBJECT r" in /sys/fs/smackfs/load2, for your Smack label and
 * the file's (security.SMACK64).  Return 0, or -1 with errno.
 */
int lab_grant_read(const char *path);

#endif /* LAB06_H */
