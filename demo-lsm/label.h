/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Labels and secids
 */

#ifndef _SECURITY_TOYLSM_LABEL_H
#define _SECURITY_TOYLSM_LABEL_H

#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "limits.h"

/*
 * A label is 1..TOYLSM_LABEL_MAX characters of [A-Za-z0-9_.:-]
 * (docs/toylsm.md, "Labels"); the table holds TOYLSM_LABELS of them.
 */

/* The secid of "no label": unlabelled files, unset exec and prev. */
#define TOYLSM_NOLABEL		0
/*
 * The secid of a file whose security.toylsm is there but is no valid
 * label (too long, a bad character, empty), or whose label cannot be
 * read or is not in the table when a check needs it: the file is
 * labelled, with a label that no task has and no rule names, so
 * toylsm_check() denies every access to it (fail closed), where
 * TOYLSM_NOLABEL would allow every access. It is never in a table.
 */
#define TOYLSM_CLOSED		U32_MAX
/* How reports name it: no valid label, so never mistaken for one. */
#define TOYLSM_CLOSED_NAME	"(closed)"
/*
 * The states of an inode's blob whose label is not known (fs.c,
 * toylsm_dentry_label()); never in a table or a rule, never a task's.
 * In each of them a check reads security.toylsm from the file, and
 * keeps what it found unless the state forbids it.
 *
 * TOYLSM_UNREAD: not read yet. Every inode starts so: its label is read
 * at its first check, by the task that asks, and never while a
 * filesystem is still setting the inode up (an overlayfs root inode has
 * no layers yet when d_instantiate() runs: reading it there crashed).
 *
 * TOYLSM_UNRESOLVED: read, but not usable yet: a label from disk that
 * is not in the table (it is not interned: no rule names it and no task
 * has it, and the table must not fill from disk), or a label that could
 * not be read. Closed meanwhile; the first check that finds it in the
 * table keeps it.
 *
 * TOYLSM_REMOVING: a removal of security.toylsm was allowed and may
 * still fail (6.1 has no hook after a removal). A check keeps only "no
 * xattr", once it sees the removal done.
 */
#define TOYLSM_UNRESOLVED	(U32_MAX - 1)
#define TOYLSM_UNREAD		(U32_MAX - 2)
#define TOYLSM_REMOVING		(U32_MAX - 3)

/**
 * toylsm_label_unknown - Is an inode's label still to be read?
 * @secid: the value of an inode's blob
 *
 * Return: true for TOYLSM_UNREAD, TOYLSM_UNRESOLVED and TOYLSM_REMOVING.
 */
static inline bool toylsm_label_unknown(u32 secid)
{
	return secid == TOYLSM_UNREAD || secid == TOYLSM_UNRESOLVED ||
	       secid == TOYLSM_REMOVING;
}

/**
 * struct toylsm_label_table - An append-only table of interned labels
 * @lock: serializes writers (toylsm_label_intern())
 * @count: number of published entries; readers load it with acquire
 * @capacity: number of entries @names has room for
 * @names: the labels; the secid of @names[i] is i + 1
 */
struct toylsm_label_table {
	spinlock_t lock;	/* serializes writers */
	u32 count;
	u32 capacity;
	char (*names)[TOYLSM_LABEL_MAX + 1];
};

extern struct toylsm_label_table toylsm_labels;

int toylsm_label_parse(const char *buf, size_t len, char *label);
int toylsm_label_intern(struct toylsm_label_table *t, const char *label,
			u32 *secid);
int toylsm_label_intern_all(struct toylsm_label_table *t,
			    const char *const *labels, u32 n, u32 *secids);
u32 toylsm_label_find(struct toylsm_label_table *t, const char *label);
const char *toylsm_label_name(struct toylsm_label_table *t, u32 secid);

/**
 * toylsm_name - The name of a secid of the system-wide table
 * @secid: a secid, or TOYLSM_NOLABEL
 *
 * Return: the label, or NULL for TOYLSM_NOLABEL.
 */
static inline const char *toylsm_name(u32 secid)
{
	return toylsm_label_name(&toylsm_labels, secid);
}

int toylsm_secid_to_secctx(u32 secid, char **secdata, u32 *seclen);
int toylsm_secctx_to_secid(const char *secdata, u32 seclen, u32 *secid);
void toylsm_release_secctx(char *secdata, u32 seclen);

/* Texts handed out by the secid_to_secctx hook and not yet released. */
extern atomic_t toylsm_secctx_live;

#endif /* _SECURITY_TOYLSM_LABEL_H */
