/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The decisions: may a subject access an object?
 */

#ifndef _SECURITY_TOYLSM_POLICY_H
#define _SECURITY_TOYLSM_POLICY_H

#include <linux/bits.h>
#include <linux/lsm_audit.h>

#include "stats.h"

/* The permissions of a rule, written "rwxt" (parse.h) in this order. */
#define TOYLSM_MAY_READ		BIT(0)	/* r: read a file, inspect a task */
#define TOYLSM_MAY_WRITE	BIT(1)	/* w: change a file, signal or trace */
#define TOYLSM_MAY_EXEC		BIT(2)	/* x: run a file (exec, map PROT_EXEC) */
#define TOYLSM_MAY_TRANSIT	BIT(3)	/* t: change one's label to OBJECT */

extern bool toylsm_enforce;

bool toylsm_allows(u32 subject, u32 object, u32 perms);
int toylsm_check(struct toylsm_hook_stat *stat, u32 subject, u32 object,
		 u32 perms, struct common_audit_data *ad);
int toylsm_check_objects(struct toylsm_hook_stat *stat, u32 subject,
			 const u32 *objects, unsigned int n, u32 perms,
			 struct common_audit_data *ad);
int toylsm_check_relabel(struct toylsm_hook_stat *stat, const char *label,
			 u32 *secid);
u32 toylsm_tracer_label(void);
int toylsm_check_tracer(struct toylsm_hook_stat *stat, u32 secid);
int toylsm_check_shared_mm(struct toylsm_hook_stat *stat, u32 secid);

#endif /* _SECURITY_TOYLSM_POLICY_H */
