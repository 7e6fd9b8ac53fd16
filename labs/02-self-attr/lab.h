/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 2: reading your own contexts with lsm_self_attr.  The functions you
 * write in selfattr.c; the grader (grade.c) calls each of them.
 *
 *	long lsm_self_attr(struct lsm_ctx *ctx, size_t *size, __u32 flags);
 *
 * On failure return -1 (or NULL) and leave errno set to say why.
 */
#ifndef LAB02_H
#define LAB02_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/lsm.h>		/* struct lsm_ctx, LSM_ATTR_* */
#include <asm/unistd.h>		/* __NR_lsm_self_attr */

#include "todo.h"

/*
 * Step 1.  How many bytes lsm_self_attr needs for your attributes: call it
 * with ctx = NULL and size = 0.  It fails with E2BIG and sets size, or,
 * when no module has anything to report, returns 0 with size 0.  Return
 * the size (0 in that case), or -1 with errno.
 */
long lab_self_attr_size(void);

/*
 * Step 2.  Fetch them: probe the size, malloc() a buffer, call again.
 * Return the number of entries; set *ctxp to the buffer (the caller
 * free()s it; NULL if there are no entries) and *sizep to the bytes used.
 * On failure return -1 with errno, and free what you allocated.
 */
long lab_self_attr_get(struct lsm_ctx **ctxp, size_t *sizep);

/*
 * Step 3.  The entry after ctx in the buffer (its address; the caller
 * knows how many entries there are).
 */
const struct lsm_ctx *lab_ctx_next(const struct lsm_ctx *ctx);

/*
 * Step 4.  The name of an attribute: LSM_ATTR_CURRENT -> "current", and
 * "exec", "fscreate", "keycreate", "prev", "sockcreate"; NULL for a flags
 * value that is not exactly one of them.
 */
const char *lab_attr_name(__u32 flags);

/*
 * Step 5.  Print one line per entry to out: "<id> <attribute> <value>\n",
 * for example "34 current _".  Return the number of entries, or -1 with
 * errno.
 */
long lab_print_self_attrs(FILE *out);

#endif /* LAB02_H */
