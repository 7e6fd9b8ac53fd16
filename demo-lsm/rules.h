/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The rule table
 */

#ifndef _SECURITY_TOYLSM_RULES_H
#define _SECURITY_TOYLSM_RULES_H

#include <linux/rcupdate.h>
#include <linux/types.h>

/**
 * struct toylsm_rule - One rule, with interned labels
 * @subject: the subject's secid
 * @object: the object's secid
 * @perms: TOYLSM_MAY_* bits, never 0
 */
struct toylsm_rule {
	u32 subject;
	u32 object;
	u32 perms;
};

/**
 * struct toylsm_ruleset - A version of the rule table
 * @rcu: frees the version once no reader can see it
 * @count: number of rules
 * @rules: the rules, in the order they were first written
 */
struct toylsm_ruleset {
	struct rcu_head rcu;
	u32 count;
	struct toylsm_rule rules[];
};

const struct toylsm_ruleset *toylsm_rules_get(void);
bool toylsm_rules_allow(u32 subject, u32 object, u32 perms);
int toylsm_rules_write(char *text);

#endif /* _SECURITY_TOYLSM_RULES_H */
