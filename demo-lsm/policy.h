/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - The rule table, its checks, statistics and audit
 */

#ifndef _SECURITY_TOYLSM_POLICY_H
#define _SECURITY_TOYLSM_POLICY_H

#include <linux/bits.h>
#include <linux/lsm_audit.h>
#include <linux/seq_file.h>

#include "label.h"

/* The permissions of a rule, written "rwxt" in this order. */
#define TOYLSM_MAY_READ		BIT(0)	/* r: read a file, inspect a task */
#define TOYLSM_MAY_WRITE	BIT(1)	/* w: write a file, signal or trace */
#define TOYLSM_MAY_EXEC		BIT(2)	/* x: run a file (exec, map PROT_EXEC) */
#define TOYLSM_MAY_TRANSIT	BIT(3)	/* t: change one's label to OBJECT */
#define TOYLSM_PERMS		"rwxt"

#define TOYLSM_RULES		128	/* most rules in the table */

/* The hooks that check the rules, each with its line in "stats". */
enum toylsm_hook {
	TOYLSM_HOOK_FILE_OPEN,
	TOYLSM_HOOK_FILE_PERMISSION,
	TOYLSM_HOOK_TASK_KILL,
	TOYLSM_HOOK_PTRACE_ACCESS_CHECK,
	TOYLSM_HOOK_PTRACE_TRACEME,
	TOYLSM_HOOK_SETPROCATTR,
	TOYLSM_HOOK_PATH_TRUNCATE,
	TOYLSM_HOOK_MMAP_FILE,
	TOYLSM_HOOK_FILE_MPROTECT,
	TOYLSM_HOOK_BPRM_CREDS_FOR_EXEC,
#ifdef CONFIG_SECURITY_TOYLSM_LAB
	TOYLSM_HOOK_INODE_UNLINK,	/* labs/08-*: the hook you add */
#endif
	TOYLSM_HOOK_COUNT
};

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

/**
 * struct toylsm_audit_data - What a toylsm denial record says
 * @hook: the hook that denied
 * @subject: the subject's label
 * @object: the object's label
 * @perms: the permissions that no rule grants
 */
struct toylsm_audit_data {
	enum toylsm_hook hook;
	const char *subject;
	const char *object;
	u32 perms;
};

extern bool toylsm_enforce;

int toylsm_perms_parse(const char *s, u32 *perms);
int toylsm_rule_parse(char *line, struct toylsm_rule_text *rule);
int toylsm_rules_write(char *text);
void toylsm_rules_show(struct seq_file *m);
void toylsm_stats_show(struct seq_file *m);
int toylsm_check(enum toylsm_hook hook, u32 subject, u32 object, u32 perms,
		 struct common_audit_data *ad);
int toylsm_check_relabel(const char *label, u32 *secid);
int toylsm_check_tracer(enum toylsm_hook hook, u32 secid);

#endif /* _SECURITY_TOYLSM_POLICY_H */
