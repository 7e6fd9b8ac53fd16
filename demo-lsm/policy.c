// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The rule table, its checks, statistics and audit
 *
 * A rule "SUBJECT OBJECT PERMS" lets a task labelled SUBJECT access an
 * object (file or task) labelled OBJECT with PERMS. Access between equal
 * labels, and to unlabelled files, is always allowed, so that a bad rule
 * table cannot lock root out of the guest. A file whose label could not
 * be used (TOYLSM_CLOSED, fs.c) is labelled: nothing allows it.
 *
 * Locking: the table is an immutable array behind an RCU pointer.
 * Hooks (some run in atomic context, e.g. task_kill) read it under
 * rcu_read_lock(); a write builds a new array and publishes it whole,
 * so a reader sees the old rules or the new ones, never a mix.
 */

#include <linux/capability.h>
#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/ratelimit.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cred.h"
#include "policy.h"

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
 * struct toylsm_policy - A version of the rule table
 * @rcu: frees the version once no reader can see it
 * @count: number of rules
 * @rules: the rules, in the order they were first written
 */
struct toylsm_policy {
	struct rcu_head rcu;
	u32 count;
	struct toylsm_rule rules[];
};

static struct toylsm_policy __rcu *toylsm_policy;
static DEFINE_MUTEX(toylsm_policy_lock);	/* serializes writers */

/* 1: deny what no rule allows; 0: only count and log it. */
bool toylsm_enforce = true;

/**
 * struct toylsm_stat - The counters of one hook
 * @calls: checks made
 * @denials: checks that no rule allowed (also counted when not enforcing)
 */
struct toylsm_stat {
	atomic_long_t calls;
	atomic_long_t denials;
};

static struct toylsm_stat toylsm_stats[TOYLSM_HOOK_COUNT];

static const char *const toylsm_hook_names[TOYLSM_HOOK_COUNT] = {
	[TOYLSM_HOOK_FILE_OPEN] = "file_open",
	[TOYLSM_HOOK_FILE_PERMISSION] = "file_permission",
	[TOYLSM_HOOK_TASK_KILL] = "task_kill",
	[TOYLSM_HOOK_PTRACE_ACCESS_CHECK] = "ptrace_access_check",
	[TOYLSM_HOOK_PTRACE_TRACEME] = "ptrace_traceme",
	[TOYLSM_HOOK_SETPROCATTR] = "setprocattr",
	[TOYLSM_HOOK_PATH_TRUNCATE] = "path_truncate",
	[TOYLSM_HOOK_MMAP_FILE] = "mmap_file",
	[TOYLSM_HOOK_FILE_MPROTECT] = "file_mprotect",
	[TOYLSM_HOOK_BPRM_CREDS_FOR_EXEC] = "bprm_creds_for_exec",
#ifdef CONFIG_SECURITY_TOYLSM_LAB
	[TOYLSM_HOOK_INODE_UNLINK] = "inode_unlink",
#endif
};

/**
 * toylsm_allowed - Whether a rule grants some permissions
 * @subject: the subject's secid
 * @object: the object's secid
 * @perms: the TOYLSM_MAY_* bits wanted
 *
 * Return: true if one rule grants all of @perms.
 */
static bool toylsm_allowed(u32 subject, u32 object, u32 perms)
{
	const struct toylsm_policy *pol;
	bool ok = false;
	u32 i;

	rcu_read_lock();
	pol = rcu_dereference(toylsm_policy);
	for (i = 0; pol && i < pol->count; i++) {
		if (pol->rules[i].subject == subject &&
		    pol->rules[i].object == object) {
			ok = (pol->rules[i].perms & perms) == perms;
			break;
		}
	}
	rcu_read_unlock();
	return ok;
}

/**
 * toylsm_perms_text - Write permissions as text
 * @perms: TOYLSM_MAY_* bits
 * @buf: room for 5 bytes
 *
 * Return: @buf, e.g. "rw", or "-" for none.
 */
static char *toylsm_perms_text(u32 perms, char *buf)
{
	char *p = buf;
	int i;

	for (i = 0; TOYLSM_PERMS[i]; i++)
		if (perms & BIT(i))
			*p++ = TOYLSM_PERMS[i];
	if (p == buf)
		*p++ = '-';
	*p = '\0';
	return buf;
}

/**
 * toylsm_audit_pre - Write toylsm's fields of a denial record
 * @ab: the audit buffer
 * @data: the struct common_audit_data of the denial
 */
static void toylsm_audit_pre(struct audit_buffer *ab, void *data)
{
	struct common_audit_data *ad = data;
	struct toylsm_audit_data *td = ad->toylsm_audit_data;
	char perms[5];

	audit_log_format(ab, "toylsm=%s hook=%s subject=\"%s\" object=\"%s\" requested=%s",
			 READ_ONCE(toylsm_enforce) ? "denied" : "permissive",
			 toylsm_hook_names[td->hook], td->subject,
			 td->object ? td->object : "", toylsm_perms_text(td->perms, perms));
}

/**
 * toylsm_deny - Count, log and (when enforcing) refuse an access
 * @hook: the hook that checked
 * @subject: the subject's label
 * @object: the object's label
 * @perms: the permissions no rule grants
 * @ad: what the access was about, for the audit record; NULL: no record
 *	(the kernel's silent probes, PTRACE_MODE_NOAUDIT)
 *
 * Records are rate-limited, so a denied loop cannot flood the log.
 *
 * Return: -EACCES when enforcing, else 0.
 */
static int toylsm_deny(enum toylsm_hook hook, const char *subject,
		       const char *object, u32 perms,
		       struct common_audit_data *ad)
{
	static DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);
	struct toylsm_audit_data td = {
		.hook = hook, .subject = subject, .object = object,
		.perms = perms,
	};

	atomic_long_inc(&toylsm_stats[hook].denials);
	if (ad && __ratelimit(&rs)) {
		ad->toylsm_audit_data = &td;
		common_lsm_audit(ad, toylsm_audit_pre, NULL);
	}
	return READ_ONCE(toylsm_enforce) ? -EACCES : 0;
}

/**
 * toylsm_check - The policy decision of one access
 * @hook: the hook asking
 * @subject: the subject's secid
 * @object: the object's secid, TOYLSM_NOLABEL if unlabelled,
 *	TOYLSM_CLOSED if its label cannot be used (no rule names it, no task
 *	has it: denied)
 * @perms: the TOYLSM_MAY_* bits wanted
 * @ad: what the access is about, for the audit record; NULL: no record
 *
 * Return: 0 if allowed, -EACCES if denied.
 */
int toylsm_check(enum toylsm_hook hook, u32 subject, u32 object, u32 perms,
		 struct common_audit_data *ad)
{
	atomic_long_inc(&toylsm_stats[hook].calls);
	if (object == TOYLSM_NOLABEL || subject == object ||
	    toylsm_allowed(subject, object, perms))
		return 0;
	return toylsm_deny(hook, toylsm_name(subject),
			   object == TOYLSM_CLOSED ? TOYLSM_CLOSED_NAME :
			   toylsm_name(object), perms, ad);
}

/**
 * toylsm_check_relabel - May the current task take a label?
 * @label: the new label, valid
 * @secid: where to store its secid (interned) when allowed
 *
 * Allowed: its own label, a "t" rule from its label to @label, or
 * CAP_MAC_ADMIN. A label is interned only once allowed, so that a denied
 * task cannot fill the table. When not enforcing, a change that no rule
 * allows is logged and made, but only to a label in the table: a label
 * no rule names would be interned until reboot by any task.
 *
 * Return: 0, -EPERM (denied while enforcing, or a new label) or -ENOSPC
 * (table full).
 */
int toylsm_check_relabel(const char *label, u32 *secid)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_NONE };
	u32 cur = toylsm_current_label();
	u32 want = toylsm_label_find(&toylsm_labels, label);

	bool ok;

	atomic_long_inc(&toylsm_stats[TOYLSM_HOOK_SETPROCATTR].calls);
	/* A label that is not interned yet is named by no rule. */
	ok = want && (want == cur ||
		      toylsm_allowed(cur, want, TOYLSM_MAY_TRANSIT));
	if (!ok && !capable(CAP_MAC_ADMIN) &&
	    (toylsm_deny(TOYLSM_HOOK_SETPROCATTR, toylsm_name(cur), label,
			 TOYLSM_MAY_TRANSIT, &ad) || !want))
		return -EPERM;
	return toylsm_label_intern(&toylsm_labels, label, secid);
}

/**
 * toylsm_check_tracer - May the current task's tracer trace a new label?
 * @hook: the hook asking (setprocattr, bprm_creds_for_exec)
 * @secid: the label the current task is about to take
 *
 * A task that changes its label while traced must stay within its
 * tracer's reach ("w" on the new label, what PTRACE_ATTACH needs), as
 * SELinux does with ptrace_parent_sid(); else the tracer keeps reading
 * and writing the memory of a task it could not attach to.
 *
 * Return: 0 (not traced, or allowed) or -EPERM.
 */
int toylsm_check_tracer(enum toylsm_hook hook, u32 secid)
{
	struct common_audit_data ad = { .type = LSM_AUDIT_DATA_TASK };
	struct task_struct *tracer;
	u32 tsid = TOYLSM_NOLABEL;

	rcu_read_lock();
	tracer = ptrace_parent(current);
	if (tracer)
		tsid = toylsm_cred(__task_cred(tracer))->label;
	rcu_read_unlock();
	if (!tsid)
		return 0;
	ad.u.tsk = current;
	return toylsm_check(hook, tsid, secid, TOYLSM_MAY_WRITE, &ad) ?
	       -EPERM : 0;
}

/**
 * toylsm_perms_parse - Parse the PERMS field of a rule
 * @s: letters of "rwxt", each at most once, or "-" for none
 * @perms: where to store the TOYLSM_MAY_* bits
 *
 * Return: 0 or -EINVAL.
 */
int toylsm_perms_parse(const char *s, u32 *perms)
{
	const char *p;

	*perms = 0;
	if (!strcmp(s, "-"))
		return 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		p = strchr(TOYLSM_PERMS, *s);
		if (!p || !*p || (*perms & BIT(p - TOYLSM_PERMS)))
			return -EINVAL;
		*perms |= BIT(p - TOYLSM_PERMS);
	}
	return 0;
}

/**
 * toylsm_rule_parse - Parse one line "SUBJECT OBJECT PERMS"
 * @line: the line, without its newline; it is cut up
 * @rule: where to store the rule
 *
 * Fields are separated by spaces or tabs.
 *
 * Return: 0 or -EINVAL.
 */
int toylsm_rule_parse(char *line, struct toylsm_rule_text *rule)
{
	char *field[3], *tok;
	int n = 0;

	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (n == 3)
			return -EINVAL;
		field[n++] = tok;
	}
	if (n != 3 ||
	    toylsm_label_parse(field[0], strlen(field[0]), rule->subject) ||
	    toylsm_label_parse(field[1], strlen(field[1]), rule->object))
		return -EINVAL;
	return toylsm_perms_parse(field[2], &rule->perms);
}

/* A provisional secid: TOYLSM_FRESH | i names the write's new label i. */
#define TOYLSM_FRESH		BIT(31)

/**
 * toylsm_rule_label - The secid of a label of a rule line, not interned
 * @label: the label
 * @add: whether the line adds or changes a rule (perms not "-")
 * @fresh: the labels of this write that are not interned, each once
 * @nfresh: their number, incremented when @label is added to @fresh
 *
 * A label that is not interned gets a provisional secid; only a line
 * that adds a rule adds it to @fresh. toylsm_policy_intern() interns
 * these labels once the whole write is known to fit.
 *
 * Return: the (provisional) secid, or TOYLSM_NOLABEL for a new label of
 * a removal: no rule can name it, so there is nothing to remove.
 */
static u32 toylsm_rule_label(const char *label, bool add, const char **fresh,
			     u32 *nfresh)
{
	u32 i, secid = toylsm_label_find(&toylsm_labels, label);

	if (secid)
		return secid;
	for (i = 0; i < *nfresh; i++)
		if (!strcmp(fresh[i], label))
			return TOYLSM_FRESH | i;
	if (!add)
		return TOYLSM_NOLABEL;
	fresh[*nfresh] = label;
	return TOYLSM_FRESH | (*nfresh)++;
}

/**
 * toylsm_policy_intern - Intern the new labels that a new table names
 * @pol: the new table, with provisional secids
 * @fresh: the labels of the write that were not interned; reordered
 * @n: their number
 *
 * Only labels that a rule of @pol names are interned (a line may add a
 * rule that a later line removes), all or none, and the provisional
 * secids are replaced by the real ones.
 *
 * Return: 0, -ENOSPC (no room for them in the label table: nothing
 * changed) or -ENOMEM.
 */
static int toylsm_policy_intern(struct toylsm_policy *pol, const char **fresh,
				u32 n)
{
	u32 i, used = 0, *map, *secids, *id[2];
	int err, k;

	if (!n)
		return 0;
	map = kcalloc(2 * n, sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	secids = map + n;
	for (i = 0; i < pol->count; i++) {
		if (pol->rules[i].subject & TOYLSM_FRESH)
			map[pol->rules[i].subject & ~TOYLSM_FRESH] = 1;
		if (pol->rules[i].object & TOYLSM_FRESH)
			map[pol->rules[i].object & ~TOYLSM_FRESH] = 1;
	}
	/* Keep the used labels at the front; map[i]: where label i went. */
	for (i = 0; i < n; i++)
		if (map[i]) {
			fresh[used] = fresh[i];
			map[i] = used++;
		}
	err = toylsm_label_intern_all(&toylsm_labels, fresh, used, secids);
	for (i = 0; !err && i < pol->count; i++) {
		id[0] = &pol->rules[i].subject;
		id[1] = &pol->rules[i].object;
		for (k = 0; k < 2; k++)
			if (*id[k] & TOYLSM_FRESH)
				*id[k] = secids[map[*id[k] & ~TOYLSM_FRESH]];
	}
	kfree(map);
	return err;
}

/**
 * toylsm_policy_merge - A new table: the current one with some rules set
 * @old: the current table, or NULL
 * @texts: the rules to set (perms 0: remove)
 * @n: the number of @texts
 *
 * The label table changes only if the write succeeds: the lines are
 * applied with provisional secids for labels that are not interned, the
 * rule count is checked, and only then are the new labels that the new
 * table names interned, all or none. A removal never interns: a rule
 * that names a label not in the label table cannot exist.
 *
 * Return: the new table, or an ERR_PTR (-ENOSPC, -ENOMEM).
 */
static struct toylsm_policy *toylsm_policy_merge(const struct toylsm_policy *old,
						 const struct toylsm_rule_text *texts,
						 u32 n)
{
	u32 i, j, nfresh = 0, have = old ? old->count : 0;
	struct toylsm_policy *pol;
	struct toylsm_rule r;
	const char **fresh;
	int err = -ENOMEM;

	pol = kzalloc(struct_size(pol, rules, have + n), GFP_KERNEL);
	fresh = kcalloc(2 * n, sizeof(*fresh), GFP_KERNEL);
	if (!pol || !fresh)
		goto fail;
	if (have)
		memcpy(pol->rules, old->rules, have * sizeof(r));
	pol->count = have;
	for (i = 0; i < n; i++) {
		r.perms = texts[i].perms;
		r.subject = toylsm_rule_label(texts[i].subject, r.perms, fresh,
					      &nfresh);
		r.object = toylsm_rule_label(texts[i].object, r.perms, fresh,
					     &nfresh);
		if (!r.subject || !r.object)
			continue;	/* removal of a rule that cannot exist */
		for (j = 0; j < pol->count; j++)
			if (pol->rules[j].subject == r.subject &&
			    pol->rules[j].object == r.object)
				break;
		if (r.perms) {
			pol->rules[j] = r;
			if (j == pol->count)
				pol->count++;
		} else if (j < pol->count) {
			/* removal: move the last rule here */
			pol->rules[j] = pol->rules[--pol->count];
		}
	}
	err = -ENOSPC;
	if (pol->count <= TOYLSM_RULES)
		err = toylsm_policy_intern(pol, fresh, nfresh);
	if (!err) {
		kfree(fresh);
		return pol;
	}
fail:
	kfree(fresh);
	kfree(pol);
	return ERR_PTR(err);
}

/**
 * toylsm_rules_write - Set the rules of a text, all or none
 * @text: NUL-terminated lines "SUBJECT OBJECT PERMS"; blank lines are
 *	ignored; it is cut up
 *
 * Every line is checked before any rule changes, and a write that fails
 * changes nothing, the label table included (toylsm_policy_merge()).
 *
 * Return: 0, -EINVAL (a malformed line), -ENOSPC (rule or label table
 * full) or -ENOMEM.
 */
int toylsm_rules_write(char *text)
{
	struct toylsm_policy *old, *pol;
	struct toylsm_rule_text *texts;
	char *line;
	u32 n = 0;
	int err = 0;

	texts = kvcalloc(strlen(text) / 6 + 1, sizeof(*texts), GFP_KERNEL);
	if (!texts)
		return -ENOMEM;
	while (!err && (line = strsep(&text, "\n")))
		if (*line)
			err = toylsm_rule_parse(line, &texts[n++]);
	if (err)
		goto out;

	mutex_lock(&toylsm_policy_lock);
	old = rcu_dereference_protected(toylsm_policy,
					lockdep_is_held(&toylsm_policy_lock));
	pol = toylsm_policy_merge(old, texts, n);
	if (IS_ERR(pol)) {
		err = PTR_ERR(pol);
	} else {
		rcu_assign_pointer(toylsm_policy, pol);
		if (old)
			kfree_rcu(old, rcu);
	}
	mutex_unlock(&toylsm_policy_lock);
out:
	kvfree(texts);
	return err;
}

/**
 * toylsm_rules_show - Print the rules, one "SUBJECT OBJECT PERMS" a line
 * @m: the seq_file
 */
void toylsm_rules_show(struct seq_file *m)
{
	const struct toylsm_policy *pol;
	char perms[5];
	u32 i;

	rcu_read_lock();
	pol = rcu_dereference(toylsm_policy);
	for (i = 0; pol && i < pol->count; i++)
		seq_printf(m, "%s %s %s\n", toylsm_name(pol->rules[i].subject),
			   toylsm_name(pol->rules[i].object),
			   toylsm_perms_text(pol->rules[i].perms, perms));
	rcu_read_unlock();
}

/**
 * toylsm_stats_show - Print "HOOK CALLS DENIALS", one line per hook
 * @m: the seq_file
 */
void toylsm_stats_show(struct seq_file *m)
{
	int i;

	for (i = 0; i < TOYLSM_HOOK_COUNT; i++)
		seq_printf(m, "%s %ld %ld\n", toylsm_hook_names[i],
			   atomic_long_read(&toylsm_stats[i].calls),
			   atomic_long_read(&toylsm_stats[i].denials));
}
