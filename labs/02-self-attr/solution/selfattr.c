// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: reading your own contexts with lsm_self_attr.
 *
 * Each function below is one step of labs/02-self-attr/README.md; lab.h
 * says what each must return.  A "TODO n" comment marks the code that step
 * n asks you to write; until you write it, the function ends at its
 * placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 2.  Explore in the guest: make lab 2
 * SHELL=1, then run "selfattr" (what your functions return) or
 * "selfattr --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lab.h"

long lab_self_attr_size(void)
{
	/* TODO 1: lsm_self_attr(NULL, &size, 0) with size = 0: E2BIG means size is the answer; 0 means nothing to report */
	size_t size = 0;
	long r = syscall(__NR_lsm_self_attr, NULL, &size, 0);

	if (r == 0)
		return 0;
	if (r < 0 && errno == E2BIG)
		return size;
	return -1;
	/* END TODO 1 */
}

long lab_self_attr_get(struct lsm_ctx **ctxp, size_t *sizep)
{
	/* TODO 2: probe (step 1), malloc() that many bytes, call lsm_self_attr again with the buffer and its size */
	long need = lab_self_attr_size(), count;
	size_t size;
	void *buf;

	if (need < 0)
		return -1;
	*ctxp = NULL;
	*sizep = 0;
	if (need == 0)
		return 0;
	buf = malloc(need);
	if (!buf)
		return -1;
	size = need;
	count = syscall(__NR_lsm_self_attr, buf, &size, 0);
	if (count < 0) {
		free(buf);	/* free() keeps errno since glibc 2.33 */
		return -1;
	}
	*ctxp = buf;
	*sizep = size;
	return count;
	/* END TODO 2 */
}

const struct lsm_ctx *lab_ctx_next(const struct lsm_ctx *ctx)
{
	/* TODO 3: return the address of the entry after ctx: where does it start, given ctx_len? (README, step 3) */
	return (const struct lsm_ctx *)(ctx->ctx + ctx->ctx_len);
	/* END TODO 3: return LAB_TODO_NULL(3); */
}

const char *lab_attr_name(__u32 flags)
{
	/* TODO 4: one case per LSM_ATTR_* bit of <linux/lsm.h> */
	switch (flags) {
	case LSM_ATTR_CURRENT:		return "current";
	case LSM_ATTR_EXEC:		return "exec";
	case LSM_ATTR_FSCREATE:		return "fscreate";
	case LSM_ATTR_KEYCREATE:	return "keycreate";
	case LSM_ATTR_PREV:		return "prev";
	case LSM_ATTR_SOCKCREATE:	return "sockcreate";
	}
	return NULL;
	/* END TODO 4: return LAB_TODO_NULL(4); */
}

long lab_print_self_attrs(FILE *out)
{
	/* TODO 5: fetch (step 2), walk count entries (step 3), print id, attribute name (step 4) and value; free the buffer */
	struct lsm_ctx *buf;
	const struct lsm_ctx *ctx;
	size_t size;
	long count = lab_self_attr_get(&buf, &size), i;

	if (count < 0)
		return -1;
	ctx = buf;
	for (i = 0; i < count; i++) {
		const char *name = lab_attr_name(ctx->flags);

		fprintf(out, "%u %s %s\n", ctx->id, name ? name : "?",
			(const char *)ctx->ctx);
		ctx = lab_ctx_next(ctx);
	}
	free(buf);
	return count;
	/* END TODO 5 */
}
