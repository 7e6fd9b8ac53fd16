/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 3: /proc attrs.  The functions you write in procattr.c; the grader
 * (grade.c) calls each of them.
 *
 * "lsm" names a directory under /proc/self/attr ("smack", "apparmor"), or
 * is NULL for the un-named files directly in /proc/self/attr.  "attr" is a
 * file name: "current", "exec", "prev", ...
 *
 * On failure return -1 (or NULL) and leave errno set to say why.
 */
#ifndef LAB03_H
#define LAB03_H

#include <stddef.h>
#include <linux/types.h>
#include <linux/lsm.h>		/* LSM_ID_* */
#include <asm/unistd.h>		/* __NR_lsm_module_list */

#include "todo.h"

/*
 * Step 1.  Read /proc/self/attr/<lsm>/<attr> (lsm NULL:
 * /proc/self/attr/<attr>) into buf as a NUL-terminated string: the value
 * only, without the newline AppArmor and toylsm add or the NUL SELinux counts.
 * Return its length.  Fail with the kernel's errno (EINVAL when no active
 * module answers), or E2BIG when the value and its NUL need more than len
 * bytes.
 */
int lab_read_attr(const char *lsm, const char *attr, char *buf, size_t len);

/*
 * Step 2.  The directory under /proc/self/attr that reaches the module
 * with this LSM ID ("smack" for LSM_ID_SMACK), or NULL if that module has
 * none (check that it exists: a module is only there if fs/proc/base.c
 * lists it).
 */
const char *lab_attr_dir(int lsmid);

/*
 * Step 3.  The LSM ID of the module that answers the un-named
 * /proc/self/attr/current, or LSM_ID_INVALID if none does.
 */
int lab_unnamed_owner(void);

/*
 * Step 4.  Write value (a string, without its NUL) to
 * /proc/self/attr/<lsm>/<attr> (lsm NULL: /proc/self/attr/<attr>).
 * Return 0, or -1 with the kernel's errno.
 */
int lab_write_attr(const char *lsm, const char *attr, const char *value);

#endif /* LAB03_H */
