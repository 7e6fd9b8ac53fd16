/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Parsing rule lines and writing permissions as text
 */

#ifndef _SECURITY_TOYLSM_PARSE_H
#define _SECURITY_TOYLSM_PARSE_H

#include <linux/types.h>

#include "limits.h"

/* The letters of the permissions, in the order of their TOYLSM_MAY_* bits. */
#define TOYLSM_PERMS		"rwxt"
/* Room for the text of any permissions: "rwxt" and a NUL. */
#define TOYLSM_PERMS_TEXT	(sizeof(TOYLSM_PERMS))

/**
 * struct toylsm_rule_text - One rule line, parsed but not interned
 * @subject: the subject's label
 * @object: the object's label
 * @perms: TOYLSM_MAY_* bits; 0 ("-") removes the rule
 */
struct toylsm_rule_text {
	char subject[TOYLSM_LABEL_MAX + 1];
	char object[TOYLSM_LABEL_MAX + 1];
	u32 perms;
};

int toylsm_perms_parse(const char *s, u32 *perms);
int toylsm_rule_parse(char *line, struct toylsm_rule_text *rule);
char *toylsm_perms_text(u32 perms, char *buf);

#endif /* _SECURITY_TOYLSM_PARSE_H */
