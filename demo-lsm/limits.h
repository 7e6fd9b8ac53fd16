/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Every limit of the module, and why it is what it is
 *
 * docs/toylsm.md ("Limits") says what a user sees when one is reached.
 */

#ifndef _SECURITY_TOYLSM_LIMITS_H
#define _SECURITY_TOYLSM_LIMITS_H

#include <linux/jiffies.h>
#include <linux/mm.h>

/*
 * The longest label: 31 characters, so that a label and its NUL fit in
 * 32 bytes, the table's entry.
 */
#define TOYLSM_LABEL_MAX	31

/*
 * How many different labels the system-wide table holds. Labels are
 * never freed (label.c: readers take no lock), so the table is fixed:
 * 128 entries of 32 bytes, 4 KiB, more than a workshop's policy uses.
 */
#define TOYLSM_LABELS		128

/* The most rules: a rule table is one kmalloc() of at most 1.5 KiB. */
#define TOYLSM_RULES		128

/*
 * The longest write to a securityfs file: less than a page, so that it
 * is one memdup_user_nul() of at most a page.
 */
#define TOYLSM_WRITE_MAX	(PAGE_SIZE - 1)

/*
 * The shortest rule line, "a b r\n": three one-character fields, two
 * separators and the newline. A write of N bytes holds at most
 * N / TOYLSM_RULE_LINE_MIN + 1 lines (the last one may lack its
 * newline): what rules.c allocates for them.
 */
#define TOYLSM_RULE_LINE_MIN	6

/*
 * At most TOYLSM_AUDIT_BURST denial records every TOYLSM_AUDIT_INTERVAL
 * for each subject label: a loop that is denied cannot flood the log,
 * nor spend the records of another label's denials; stats counts every
 * denial, and the records it suppressed.
 */
#define TOYLSM_AUDIT_BURST	10
#define TOYLSM_AUDIT_INTERVAL	(5 * HZ)

/*
 * The most hooks with a line in "stats": toylsm's own 24, and room for
 * the hooks that code registering through toylsm_add_hooks() adds.
 */
#define TOYLSM_STATS_MAX	32

/*
 * How many devices (char or block, by device number) the device table
 * holds: a device gets an entry when a node of it is labelled, and keeps
 * it until reboot, as labels do. 64 entries of 12 bytes; the kit labels
 * a handful of terminals.
 */
#define TOYLSM_DEVICES		64

#endif /* _SECURITY_TOYLSM_LIMITS_H */
