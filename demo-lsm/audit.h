/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Denial records, rate-limited per subject label
 */

#ifndef _SECURITY_TOYLSM_AUDIT_H
#define _SECURITY_TOYLSM_AUDIT_H

#include <linux/init.h>
#include <linux/lsm_audit.h>
#include <linux/types.h>

/**
 * struct toylsm_audit_data - What a toylsm denial record says
 * @hook: the name of the hook that denied
 * @subject: the subject's label
 * @object: the object's label
 * @perms: the permissions refused
 * @reason: why, when it is not that no rule grants @perms; or NULL
 */
struct toylsm_audit_data {
	const char *hook;
	const char *subject;
	const char *object;
	u32 perms;
	const char *reason;
};

void __init toylsm_audit_init(void);
bool toylsm_audit_denial(u32 subject, struct toylsm_audit_data *td,
			 struct common_audit_data *ad);

#endif /* _SECURITY_TOYLSM_AUDIT_H */
