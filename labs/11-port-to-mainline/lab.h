/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 11: port lab 2's reader to mainline.  The functions you write in
 * getselfattr.c; the grader (grade.c) calls each of them.  The program is
 * compiled against the reference kernel's UAPI headers (mainline 6.12,
 * build/mainline/usr/include), and runs on that kernel:
 *
 *	long lsm_list_modules(__u64 *ids, __u32 *size, __u32 flags);
 *	long lsm_get_self_attr(unsigned int attr, struct lsm_ctx *ctx,
 *			       __u32 *size, __u32 flags);
 *
 * Neither has a glibc wrapper: call them with syscall(__NR_..., ...).
 * On failure return -1 (or NULL) and leave errno set to say why.
 */
#ifndef LAB11_H
#define LAB11_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/lsm.h>		/* mainline: struct lsm_ctx, LSM_ID_*, LSM_ATTR_*, LSM_FLAG_SINGLE */
#include <asm/unistd.h>		/* __NR_lsm_get_self_attr, __NR_lsm_list_modules */

#include "todo.h"

/*
 * Step 1.  The active modules' IDs, in the kernel's order, into ids[0] to
 * ids[max - 1].  Return how many there are; with room for fewer than
 * that, -1 with errno E2BIG.
 */
long lab_list_modules(__u64 *ids, __u32 max);

/*
 * Step 2.  The name of an attribute: LSM_ATTR_CURRENT -> "current", and
 * "exec", "fscreate", "keycreate", "prev", "sockcreate"; NULL for any
 * other value.
 */
const char *lab_attr_name(unsigned int attr);

/*
 * Step 3.  Attribute attr of every module that has it: probe the size,
 * malloc() a buffer, call again.  Return the number of entries; set *ctxp
 * to the buffer (the caller free()s it) and *sizep to the bytes used.
 * When no active module has that attribute, return 0 with *ctxp NULL and
 * *sizep 0.  On any other failure return -1 with errno, and free what you
 * allocated.
 */
long lab_get_attr(unsigned int attr, struct lsm_ctx **ctxp, __u32 *sizep);

/*
 * Step 4.  The entry after ctx in the buffer (its address; the caller
 * knows how many entries there are).
 */
const struct lsm_ctx *lab_ctx_next(const struct lsm_ctx *ctx);

/*
 * Step 5.  Attribute attr of the one module named lsm ("smack",
 * "selinux", ...: the names of /sys/kernel/security/lsm), with
 * LSM_FLAG_SINGLE.  Copy its value, as text, into value (len bytes, the
 * NUL included) and return its length (strlen).  -1 with errno if the
 * call fails: EOPNOTSUPP if that module has no such attribute (or is not
 * active), EINVAL for a name you do not know, ERANGE if value is too small.
 */
long lab_get_single(unsigned int attr, const char *lsm, char *value, size_t len);

/*
 * Step 6.  Print every attribute of every module to out, one line per
 * entry, "<id> <attribute> <value>\n", for example "102 current _":
 * attributes in the order of their numbers, modules in the kernel's order
 * within one attribute.  An empty value prints as nothing after the
 * attribute's name and its space.  Return the number of lines, or -1 with
 * errno.
 */
long lab_print_self_attrs(FILE *out);

#endif /* LAB11_H */
