// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Labels and secids
 *
 * A label is interned once in a table and named everywhere else (creds,
 * inodes, rules) by its secid, a small integer: index + 1.
 *
 * Locking: writers take the table's spinlock; readers take no lock. The
 * table is append-only: an entry is complete before smp_store_release()
 * publishes the new count, and it never changes nor is freed, so a
 * reader that loads the count with smp_load_acquire() sees every entry
 * below it whole. RCU would buy nothing (there is nothing to reclaim),
 * and readers, some in atomic context, never wait. The price: labels
 * live until reboot, hence -ENOSPC.
 */

#include "common.h"

#include <linux/errno.h>
#include <linux/string.h>

#include "label.h"

static char toylsm_names[TOYLSM_LABELS][TOYLSM_LABEL_MAX + 1];

struct toylsm_label_table toylsm_labels = {
	.lock = __SPIN_LOCK_UNLOCKED(toylsm_labels.lock),
	.capacity = TOYLSM_LABELS,
	.names = toylsm_names,
};

/**
 * toylsm_label_char - Whether a character may appear in a label
 * @c: the character
 *
 * Not isalnum(): the kernel's ctype also counts Latin-1 letters.
 *
 * Return: true for [A-Za-z0-9_.:-].
 */
static bool toylsm_label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/**
 * toylsm_label_parse - Check a label written by user space
 *	(docs/toylsm.md, "Labels")
 * @buf: the bytes written, not NUL-terminated
 * @len: their number
 * @label: where to store the label, TOYLSM_LABEL_MAX + 1 bytes
 *
 * One trailing newline is dropped; anything else that is not a label,
 * an embedded NUL included, is rejected.
 *
 * Return: 0, or -EINVAL with @label untouched.
 */
int toylsm_label_parse(const char *buf, size_t len, char *label)
{
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (len < 1 || len > TOYLSM_LABEL_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!toylsm_label_char(buf[i]))
			return -EINVAL;
	memcpy(label, buf, len);
	label[len] = '\0';
	return 0;
}

/**
 * toylsm_label_find - Look up an interned label, without a lock
 * @t: the table
 * @label: a valid label
 *
 * Return: its secid, or TOYLSM_NOLABEL if it is not interned.
 */
u32 toylsm_label_find(struct toylsm_label_table *t, const char *label)
{
	/* Pairs with the release in toylsm_label_intern(). */
	u32 i, n = smp_load_acquire(&t->count);

	for (i = 0; i < n; i++)
		if (!strcmp(t->names[i], label))
			return i + 1;
	return TOYLSM_NOLABEL;
}

/**
 * toylsm_label_intern_all - Find several labels, adding the new ones,
 *	all or none
 * @t: the table
 * @labels: valid labels, each at most once (one given twice is counted
 *	twice against the room left)
 * @n: their number
 * @secids: where to store their secids, in the order of @labels
 *
 * Either every new label fits and is added, or none is: a caller that
 * needs several labels (a rules write) cannot leave some of them in the
 * table when it fails.
 *
 * Return: 0, or -ENOSPC (the new labels do not all fit; nothing changed).
 */
int toylsm_label_intern_all(struct toylsm_label_table *t,
			    const char *const *labels, u32 n, u32 *secids)
{
	u32 i, need = 0;
	int err = 0;

	spin_lock(&t->lock);
	for (i = 0; i < n; i++)
		need += !toylsm_label_find(t, labels[i]);
	if (need > t->capacity - t->count) {
		err = -ENOSPC;
		goto out;
	}
	for (i = 0; i < n; i++) {
		secids[i] = toylsm_label_find(t, labels[i]);
		if (secids[i])
			continue;
		strscpy(t->names[t->count], labels[i], sizeof(t->names[0]));
		/* Publish the entry only once it is complete. */
		smp_store_release(&t->count, t->count + 1);
		secids[i] = t->count;
	}
out:
	spin_unlock(&t->lock);
	return err;
}

/**
 * toylsm_label_intern - Find a label, adding it if it is new
 * @t: the table
 * @label: a valid label
 * @secid: where to store its secid
 *
 * Return: 0, or -ENOSPC (new label, table full; nothing changed).
 */
int toylsm_label_intern(struct toylsm_label_table *t, const char *label,
			u32 *secid)
{
	/* Most labels are in the table already: no lock for them. */
	*secid = toylsm_label_find(t, label);
	if (*secid)
		return 0;
	return toylsm_label_intern_all(t, &label, 1, secid);
}

/**
 * toylsm_label_name - The label of a secid
 * @t: the table
 * @secid: the secid
 *
 * Return: the label (valid until reboot), or NULL if @secid names none.
 */
const char *toylsm_label_name(struct toylsm_label_table *t, u32 secid)
{
	/* Acquire: entries below the count are complete. */
	if (secid == TOYLSM_NOLABEL || secid > smp_load_acquire(&t->count))
		return NULL;
	return t->names[secid - 1];
}

/*
 * The secid interface. Before struct lsmblob every module that provided
 * these hooks wrote the same u32; with a slot of its own toylsm registers
 * them (secid.c).
 */

/**
 * toylsm_secid_to_secctx - The text of a secid
 * @secid: the secid
 * @secdata: where to store the text (in the table), or NULL
 * @seclen: where to store its length
 *
 * Return: 0, or -EINVAL if @secid names no label.
 */
int toylsm_secid_to_secctx(u32 secid, char **secdata, u32 *seclen)
{
	const char *name = toylsm_name(secid);

	if (!name)
		return -EINVAL;
	if (secdata)
		*secdata = (char *)name;
	*seclen = strlen(name);
	return 0;
}

/**
 * toylsm_secctx_to_secid - The secid of a label's text
 * @secdata: the text, not NUL-terminated
 * @seclen: its length
 * @secid: where to store the secid
 *
 * Return: 0, or -EINVAL if the text is no interned label.
 */
int toylsm_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid)
{
	char label[TOYLSM_LABEL_MAX + 1];

	if (toylsm_label_parse(secdata, seclen, label))
		return -EINVAL;
	*secid = toylsm_label_find(&toylsm_labels, label);
	return *secid ? 0 : -EINVAL;
}

/**
 * toylsm_release_secctx - Nothing to do: the text belongs to the table
 * @secdata: the text
 * @seclen: its length
 */
void toylsm_release_secctx(char *secdata, u32 seclen)
{
}
