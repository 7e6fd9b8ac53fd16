// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 11: port lab 2's reader to mainline's lsm_get_self_attr.
 *
 * Each function below is one step of labs/11-port-to-mainline/README.md;
 * lab.h says what each must return.  Above each, in a comment, is what
 * lab 2 did on the kit's kernel: the code you port.  A "TODO n" comment
 * marks the code that step n asks you to write; until you write it, the
 * function ends at its placeholder "return LAB_TODO(n);", which the
 * grader recognises.
 *
 * This file is compiled against the reference kernel's headers
 * (build/mainline/usr/include: mainline 6.12) and runs on that kernel.
 * The kit's names (__NR_lsm_self_attr, __NR_lsm_module_list) do not exist
 * there, on purpose.
 *
 * Build, boot and grade: make lab 11.  Explore in the guest: make lab 11
 * SHELL=1, then run "getselfattr" (what your functions return) or
 * "getselfattr --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lab.h"

/*
 * Lab 1, on the kit:
 *	size_t size = max * sizeof(__u32);
 *	return syscall(__NR_lsm_module_list, ids, &size, 0);	// __u32 ids[]
 */
long lab_list_modules(__u64 *ids, __u32 max)
{
	/* TODO 1: lsm_list_modules(ids, &size, 0): what type is size, and how many bytes is one ID? */
	__u32 size = max * sizeof(__u64);

	return syscall(__NR_lsm_list_modules, ids, &size, 0);
	/* END TODO 1 */
}

/*
 * Lab 2, on the kit (the attributes were bits):
 *	switch (flags) {
 *	case LSM_ATTR_CURRENT:	return "current";	// 0x0001
 *	case LSM_ATTR_EXEC:	return "exec";		// 0x0002
 *	...
 */
const char *lab_attr_name(unsigned int attr)
{
	/* TODO 2: one case per LSM_ATTR_* of mainline's <linux/lsm.h> */
	switch (attr) {
	case LSM_ATTR_CURRENT:		return "current";
	case LSM_ATTR_EXEC:		return "exec";
	case LSM_ATTR_FSCREATE:		return "fscreate";
	case LSM_ATTR_KEYCREATE:	return "keycreate";
	case LSM_ATTR_PREV:		return "prev";
	case LSM_ATTR_SOCKCREATE:	return "sockcreate";
	}
	return NULL;
	/* END TODO 2: return LAB_TODO_NULL(2); */
}

/*
 * Lab 2, on the kit (every attribute at once):
 *	size_t size = 0;
 *	r = syscall(__NR_lsm_self_attr, NULL, &size, 0);	// E2BIG: size
 *	buf = malloc(size);
 *	count = syscall(__NR_lsm_self_attr, buf, &size, 0);
 */
long lab_get_attr(unsigned int attr, struct lsm_ctx **ctxp, __u32 *sizep)
{
	/* TODO 3: probe lsm_get_self_attr(attr, NULL, &size, 0), malloc(), call again; EOPNOTSUPP means no module has attr */
	__u32 size = 0;
	long count = syscall(__NR_lsm_get_self_attr, attr, NULL, &size, 0);
	void *buf;

	*ctxp = NULL;
	*sizep = 0;
	if (count < 0 && errno == EOPNOTSUPP)
		return 0;
	if (count >= 0 || errno != E2BIG)
		return count < 0 ? -1 : 0;
	buf = malloc(size);
	if (!buf)
		return -1;
	count = syscall(__NR_lsm_get_self_attr, attr, buf, &size, 0);
	if (count < 0) {
		free(buf);	/* free() keeps errno since glibc 2.33 */
		return -1;
	}
	*ctxp = buf;
	*sizep = size;
	return count;
	/* END TODO 3 */
}

/*
 * Lab 2, on the kit (ctx_len was the padded length):
 *	return (const struct lsm_ctx *)(ctx->ctx + ctx->ctx_len);
 */
const struct lsm_ctx *lab_ctx_next(const struct lsm_ctx *ctx)
{
	/* TODO 4: return the address of the entry after ctx: which field says how long the whole entry is? */
	return (const struct lsm_ctx *)((const char *)ctx + ctx->len);
	/* END TODO 4: return LAB_TODO_NULL(4); */
}

/* The kit had no such call: its lsm_self_attr() took no module. */
long lab_get_single(unsigned int attr, const char *lsm, char *value, size_t len)
{
	/* TODO 5: the module's ID (mainline's LSM_ID_*), then lsm_get_self_attr(attr, ctx, &size, LSM_FLAG_SINGLE) with ctx->id set */
	static const struct { const char *name; __u64 id; } ids[] = {
		{ "capability", LSM_ID_CAPABILITY }, { "selinux", LSM_ID_SELINUX },
		{ "smack", LSM_ID_SMACK }, { "tomoyo", LSM_ID_TOMOYO },
		{ "apparmor", LSM_ID_APPARMOR }, { "yama", LSM_ID_YAMA },
		{ "loadpin", LSM_ID_LOADPIN }, { "safesetid", LSM_ID_SAFESETID },
		{ "lockdown", LSM_ID_LOCKDOWN }, { "bpf", LSM_ID_BPF },
		{ "landlock", LSM_ID_LANDLOCK }, { "ima", LSM_ID_IMA },
		{ "evm", LSM_ID_EVM }, { "ipe", LSM_ID_IPE },
	};
	struct lsm_ctx head, *buf;
	__u64 id = LSM_ID_UNDEF;
	__u32 size = 0;
	size_t n;
	long r;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(ids[i].name, lsm))
			id = ids[i].id;
	if (id == LSM_ID_UNDEF) {
		errno = EINVAL;
		return -1;
	}
	/* The probe: with LSM_FLAG_SINGLE the kernel reads the ID from ctx. */
	memset(&head, 0, sizeof(head));
	head.id = id;
	r = syscall(__NR_lsm_get_self_attr, attr, &head, &size, LSM_FLAG_SINGLE);
	if (r >= 0 || errno != E2BIG)
		return -1;	/* a buffer of 0 bytes cannot hold an entry */
	buf = calloc(1, size);
	if (!buf)
		return -1;
	buf->id = id;
	r = syscall(__NR_lsm_get_self_attr, attr, buf, &size, LSM_FLAG_SINGLE);
	if (r < 0) {
		free(buf);
		return -1;
	}
	n = strnlen((const char *)buf->ctx, buf->ctx_len);
	if (n + 1 > len) {
		free(buf);
		errno = ERANGE;
		return -1;
	}
	memcpy(value, buf->ctx, n);
	value[n] = '\0';
	free(buf);
	return n;
	/* END TODO 5 */
}

/*
 * Lab 2, on the kit (one call, then a walk):
 *	count = lab_self_attr_get(&buf, &size);
 *	for (i = 0; i < count; i++, ctx = lab_ctx_next(ctx))
 *		fprintf(out, "%u %s %s\n", ctx->id, lab_attr_name(ctx->flags), (char *)ctx->ctx);
 */
long lab_print_self_attrs(FILE *out)
{
	/* TODO 6: for each attribute, LSM_ATTR_CURRENT to LSM_ATTR_SOCKCREATE: fetch (step 3), walk (step 4), print at most ctx_len bytes of each value */
	long lines = 0;

	for (unsigned int attr = LSM_ATTR_CURRENT; attr <= LSM_ATTR_SOCKCREATE; attr++) {
		struct lsm_ctx *buf;
		const struct lsm_ctx *ctx;
		__u32 size;
		long count = lab_get_attr(attr, &buf, &size);

		if (count < 0)
			return -1;
		ctx = buf;
		for (long i = 0; i < count; i++) {
			const char *name = lab_attr_name(attr);
			int n = strnlen((const char *)ctx->ctx, ctx->ctx_len);

			fprintf(out, "%llu %s %.*s\n", (unsigned long long)ctx->id,
				name ? name : "?", n, (const char *)ctx->ctx);
			ctx = lab_ctx_next(ctx);
		}
		free(buf);
		lines += count;
	}
	return lines;
	/* END TODO 6 */
}
