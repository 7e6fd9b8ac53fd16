// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - The rule table: lookups, and writes merged into a new table
 *
 * Locking: the table is an immutable array behind an RCU pointer.
 * Hooks (some run in atomic context, e.g. task_kill) read it under
 * rcu_read_lock(); a write builds a new array and publishes it whole,
 * so a reader sees the old rules or the new ones, never a mix.
 */

#include "common.h"

#include <linux/bits.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "label.h"
#include "limits.h"
#include "parse.h"
#include "rules.h"

static struct toylsm_ruleset __rcu *toylsm_ruleset;
static DEFINE_MUTEX(toylsm_ruleset_lock);	/* serializes writers */

/**
 * toylsm_rules_get - The current rule table
 *
 * Call under rcu_read_lock(), and use the table only until
 * rcu_read_unlock().
 *
 * Return: the table, or NULL before the first rule.
 */
const struct toylsm_ruleset *toylsm_rules_get(void)
{
	return rcu_dereference(toylsm_ruleset);
}

/**
 * toylsm_rules_allow - Whether a rule grants some permissions
 * @subject: the subject's secid
 * @object: the object's secid
 * @perms: the TOYLSM_MAY_* bits wanted
 *
 * Return: true if one rule grants all of @perms.
 */
bool toylsm_rules_allow(u32 subject, u32 object, u32 perms)
{
	const struct toylsm_ruleset *rs;
	bool ok = false;
	u32 i;

	rcu_read_lock();
	rs = rcu_dereference(toylsm_ruleset);
	for (i = 0; rs && i < rs->count; i++) {
		if (rs->rules[i].subject == subject &&
		    rs->rules[i].object == object) {
			ok = (rs->rules[i].perms & perms) == perms;
			break;
		}
	}
	rcu_read_unlock();
	return ok;
}

/*
 * A provisional secid: TOYLSM_FRESH | i names the write's new label i.
 * Real secids are at most TOYLSM_LABELS, and a write has fewer than
 * TOYLSM_WRITE_MAX labels, so it is never a secid nor TOYLSM_CLOSED or
 * TOYLSM_UNRESOLVED (those are never in a rule).
 */
#define TOYLSM_FRESH		BIT(31)

/**
 * rule_label - The secid of a label of a rule line, not interned
 * @label: the label
 * @add: whether the line adds or changes a rule (perms not "-")
 * @fresh: the labels of this write that are not interned, each once
 * @nfresh: their number, incremented when @label is added to @fresh
 *
 * A label that is not interned gets a provisional secid; only a line
 * that adds a rule adds it to @fresh. ruleset_intern() interns
 * these labels once the whole write is known to fit.
 *
 * Return: the (provisional) secid, or TOYLSM_NOLABEL for a new label of
 * a removal: no rule can name it, so there is nothing to remove.
 */
static u32 rule_label(const char *label, bool add, const char **fresh,
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
 * ruleset_intern - Intern the new labels that a new table names
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
static int ruleset_intern(struct toylsm_ruleset *pol, const char **fresh,
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
 * ruleset_merge - A new table: the current one with some rules set
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
static struct toylsm_ruleset *
ruleset_merge(const struct toylsm_ruleset *old,
	      const struct toylsm_rule_text *texts, u32 n)
{
	u32 i, j, nfresh = 0, have = old ? old->count : 0;
	struct toylsm_ruleset *pol;
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
		r.subject = rule_label(texts[i].subject, r.perms, fresh,
				       &nfresh);
		r.object = rule_label(texts[i].object, r.perms, fresh,
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
		err = ruleset_intern(pol, fresh, nfresh);
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
 * changes nothing, the label table included (ruleset_merge()).
 *
 * Return: 0, -EINVAL (a malformed line), -ENOSPC (rule or label table
 * full) or -ENOMEM.
 */
int toylsm_rules_write(char *text)
{
	struct toylsm_ruleset *old, *pol;
	struct toylsm_rule_text *texts;
	char *line;
	u32 n = 0;
	int err = 0;

	texts = kvcalloc(strlen(text) / TOYLSM_RULE_LINE_MIN + 1, sizeof(*texts), GFP_KERNEL);
	if (!texts)
		return -ENOMEM;
	while (!err && (line = strsep(&text, "\n")))
		if (*line)
			err = toylsm_rule_parse(line, &texts[n++]);
	if (err)
		goto out;

	mutex_lock(&toylsm_ruleset_lock);
	old = rcu_dereference_protected(toylsm_ruleset,
					lockdep_is_held(&toylsm_ruleset_lock));
	pol = ruleset_merge(old, texts, n);
	if (IS_ERR(pol)) {
		err = PTR_ERR(pol);
	} else {
		rcu_assign_pointer(toylsm_ruleset, pol);
		if (old)
			kfree_rcu(old, rcu);
	}
	mutex_unlock(&toylsm_ruleset_lock);
out:
	kvfree(texts);
	return err;
}

