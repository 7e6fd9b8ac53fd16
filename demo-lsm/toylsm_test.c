// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - KUnit tests of the label table, file labels, the device
 * table, the rule parser and rule removal, and of toylsm stacked: its
 * slot and the release of its contexts
 */

#include "common.h"

#include <kunit/test.h>
#include <linux/lsm_hooks.h>
#include <linux/prctl.h>
#include <linux/security.h>
#include <linux/string.h>

#include "setup.h"

#include "device.h"
#include "fs.h"
#include "label.h"
#include "parse.h"
#include "policy.h"
#include "rules.h"

/**
 * parse - toylsm_label_parse() of a C string of known length
 * @s: the bytes
 * @len: their number
 *
 * Return: what toylsm_label_parse() returns.
 */
static int parse(const char *s, size_t len)
{
	char label[TOYLSM_LABEL_MAX + 1];

	return toylsm_label_parse(s, len, label);
}

/**
 * label_parse_test - Every bad form is -EINVAL, good ones pass
 * @test: the test
 */
static void label_parse_test(struct kunit *test)
{
	char label[TOYLSM_LABEL_MAX + 1];
	char buf[40];

	KUNIT_EXPECT_EQ(test, parse("", 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("\n", 1), -EINVAL);
	memset(buf, 'a', sizeof(buf));
	KUNIT_EXPECT_EQ(test, parse(buf, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse(buf, 31), 0);
	KUNIT_EXPECT_EQ(test, parse("a b", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("a\nb", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("a\0b", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("a\n\n", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("caf\xc3\xa9", 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("\xe9t\xe9", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("a/b", 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, toylsm_label_parse("Az09_.:-\n", 9, label), 0);
	KUNIT_EXPECT_STREQ(test, label, "Az09_.:-");
}

/**
 * intern_test - Interning is idempotent; secids round-trip
 * @test: the test
 */
static void intern_test(struct kunit *test)
{
	static char names[4][TOYLSM_LABEL_MAX + 1];
	struct toylsm_label_table t = { .capacity = 4, .names = names };
	u32 a, b, again, len;
	char *ctx;

	/* A lock on the stack: spin_lock_init() gives lockdep its key. */
	spin_lock_init(&t.lock);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&t, "a"), TOYLSM_NOLABEL);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "a", &a), 0);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "b", &b), 0);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "a", &again), 0);
	KUNIT_EXPECT_NE(test, a, TOYLSM_NOLABEL);
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, a, again);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&t, "b"), b);
	KUNIT_EXPECT_STREQ(test, toylsm_label_name(&t, b), "b");
	KUNIT_EXPECT_NULL(test, toylsm_label_name(&t, TOYLSM_NOLABEL));
	KUNIT_EXPECT_NULL(test, toylsm_label_name(&t, 3));

	/* The secid interface, on the system-wide table. */
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&toylsm_labels, "kunit",
						  &a), 0);
	KUNIT_ASSERT_EQ(test, toylsm_secid_to_secctx(a, &ctx, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 5);
	KUNIT_EXPECT_EQ(test, toylsm_secctx_to_secid(ctx, len, &b), 0);
	KUNIT_EXPECT_EQ(test, a, b);
	toylsm_release_secctx(ctx, len);
	KUNIT_EXPECT_EQ(test, toylsm_secid_to_secctx(0, &ctx, &len), -EINVAL);
	KUNIT_EXPECT_EQ(test, toylsm_secctx_to_secid("a b", 3, &b), -EINVAL);
}

/**
 * table_full_test - A full table refuses new labels, keeps old ones
 * @test: the test
 */
static void table_full_test(struct kunit *test)
{
	static char names[2][TOYLSM_LABEL_MAX + 1];
	struct toylsm_label_table t = { .capacity = 2, .names = names };
	u32 secid;

	spin_lock_init(&t.lock);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "x", &secid), 0);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "y", &secid), 0);
	KUNIT_EXPECT_EQ(test, toylsm_label_intern(&t, "z", &secid), -ENOSPC);
	KUNIT_EXPECT_EQ(test, t.count, 2);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&t, "z"), TOYLSM_NOLABEL);
	KUNIT_EXPECT_EQ(test, toylsm_label_intern(&t, "x", &secid), 0);
	KUNIT_EXPECT_EQ(test, secid, 1);
}

/**
 * intern_all_test - Several new labels are interned all or none
 * @test: the test
 */
static void intern_all_test(struct kunit *test)
{
	static const char *const four[] = { "w", "x", "y", "z" };
	static const char *const three[] = { "x", "y", "z" };
	static char names[3][TOYLSM_LABEL_MAX + 1];
	struct toylsm_label_table t = { .capacity = 3, .names = names };
	u32 secids[4];

	spin_lock_init(&t.lock);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "x", &secids[0]), 0);
	/* w, y, z are new and only two fit: none is added. */
	KUNIT_EXPECT_EQ(test, toylsm_label_intern_all(&t, four, 4, secids),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, t.count, 1);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&t, "w"), TOYLSM_NOLABEL);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern_all(&t, three, 3, secids),
			0);
	KUNIT_EXPECT_EQ(test, t.count, 3);
	KUNIT_EXPECT_EQ(test, secids[0], 1);
	KUNIT_EXPECT_STREQ(test, toylsm_label_name(&t, secids[1]), "y");
	KUNIT_EXPECT_STREQ(test, toylsm_label_name(&t, secids[2]), "z");
}

/**
 * xattr_label_test - What a file's security.toylsm makes of it
 * @test: the test
 *
 * No xattr: unlabelled. One that is no label (too long, a bad
 * character, empty) closes the file: unlabelled files are open to every
 * task. A label that could not be read (-EIO, -ENOMEM), or a valid label
 * that is not in the table, is TOYLSM_UNRESOLVED (read again at the next
 * check), and is never interned: a label from disk must not fill the
 * table (docs/toylsm.md, "Limits").
 */
static void xattr_label_test(struct kunit *test)
{
	static char names[2][TOYLSM_LABEL_MAX + 1];
	struct toylsm_label_table t = { .capacity = 2, .names = names };
	u32 x, y;

	spin_lock_init(&t.lock);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, NULL, -ENODATA),
			TOYLSM_NOLABEL);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, NULL, -EOPNOTSUPP),
			TOYLSM_NOLABEL);
	/* Longer than any label: no valid label, like "a b": closed. */
	KUNIT_EXPECT_EQ_MSG(test, toylsm_xattr_label(&t, NULL, -ERANGE),
			    TOYLSM_CLOSED,
			    "a label too long left the file unlabelled (fail open)");
	KUNIT_EXPECT_EQ_MSG(test, toylsm_xattr_label(&t, "a b", 3),
			    TOYLSM_CLOSED,
			    "an invalid label left the file unlabelled (fail open)");
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "a/b", 3), TOYLSM_CLOSED);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "", 0), TOYLSM_CLOSED);
	/* Whatever the label is, it could not be read: look again. */
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, NULL, -EIO),
			TOYLSM_UNRESOLVED);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, NULL, -ENOMEM),
			TOYLSM_UNRESOLVED);
	/* A label not in the table is not interned. */
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "x\n", 2),
			TOYLSM_UNRESOLVED);
	KUNIT_EXPECT_EQ_MSG(test, t.count, 0,
			    "a label read from a file was interned");
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "x", &x), 0);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "x\n", 2), x);
	KUNIT_ASSERT_EQ(test, toylsm_label_intern(&t, "y", &y), 0);
	/* The table is full: old labels still load, a new one is unknown. */
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "x", 1), x);
	KUNIT_EXPECT_EQ(test, toylsm_xattr_label(&t, "z", 1),
			TOYLSM_UNRESOLVED);
	KUNIT_EXPECT_EQ(test, t.count, 2);

	/*
	 * toylsm_check() denies TOYLSM_CLOSED: no table hands out that
	 * secid, so no task has it and no rule names it. (Not called here:
	 * a denial would spend one of the audit records that the rate limit
	 * lets through in the first seconds of the boot, which the guest
	 * tests read.)
	 */
	KUNIT_EXPECT_NE(test, TOYLSM_CLOSED, TOYLSM_NOLABEL);
	KUNIT_EXPECT_GT(test, TOYLSM_CLOSED, (u32)TOYLSM_LABELS);
	KUNIT_EXPECT_GT(test, TOYLSM_UNRESOLVED, (u32)TOYLSM_LABELS);
	KUNIT_EXPECT_NULL(test, toylsm_name(TOYLSM_CLOSED));
	KUNIT_EXPECT_NULL(test, toylsm_name(TOYLSM_UNRESOLVED));
}

/**
 * rules_remove_test - Removing a rule that does not exist interns nothing
 * @test: the test
 *
 * Labels are never freed: a removal that interned its labels would use
 * up the table with rules that were never there.
 */
static void rules_remove_test(struct kunit *test)
{
	char text[] = "kunit-rm-s kunit-rm-o -\n";

	KUNIT_EXPECT_EQ(test, toylsm_rules_write(text), 0);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&toylsm_labels, "kunit-rm-s"),
			TOYLSM_NOLABEL);
	KUNIT_EXPECT_EQ(test, toylsm_label_find(&toylsm_labels, "kunit-rm-o"),
			TOYLSM_NOLABEL);
}

/**
 * rule_parse - toylsm_rule_parse() of a constant line
 * @line: the line
 * @rule: where to store the rule
 *
 * Return: what toylsm_rule_parse() returns.
 */
static int rule_parse(const char *line, struct toylsm_rule_text *rule)
{
	char buf[128];

	strscpy(buf, line, sizeof(buf));
	return toylsm_rule_parse(buf, rule);
}

/**
 * rule_parse_test - Good rule lines parse, malformed ones are -EINVAL
 * @test: the test
 */
static void rule_parse_test(struct kunit *test)
{
	static const char *const bad[] = {
		"", "a b", "a b r w", "a b q", "a b rr", "a b -r", "a  r",
		"a b r\n", "a/b c r", "a b R",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b r",
	};
	struct toylsm_rule_text r;
	int i;

	KUNIT_ASSERT_EQ(test, rule_parse("web  data\trw", &r), 0);
	KUNIT_EXPECT_STREQ(test, r.subject, "web");
	KUNIT_EXPECT_STREQ(test, r.object, "data");
	KUNIT_EXPECT_EQ(test, r.perms, TOYLSM_MAY_READ | TOYLSM_MAY_WRITE);
	KUNIT_ASSERT_EQ(test, rule_parse("a b txwr", &r), 0);
	KUNIT_EXPECT_EQ(test, r.perms, 0xf);
	KUNIT_ASSERT_EQ(test, rule_parse(" a b - ", &r), 0);
	KUNIT_EXPECT_EQ(test, r.perms, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, rule_parse(bad[i], &r), -EINVAL,
				    "line \"%s\"", bad[i]);
}

/**
 * device_table_test - A device's label: set, learned, forgotten, full
 * @test: the test
 *
 * On a table of two entries of its own (toylsm_devices is the boot's).
 */
static void device_table_test(struct kunit *test)
{
	struct toylsm_device_table t = { .capacity = 2 };
	dev_t tty = MKDEV(4, 64), other = MKDEV(4, 65);

	spin_lock_init(&t.lock);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty),
			TOYLSM_NOLABEL);
	/* Reserved: still unlabelled. */
	KUNIT_ASSERT_EQ(test, toylsm_device_reserve(&t, S_IFCHR, tty), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty),
			TOYLSM_NOLABEL);
	KUNIT_ASSERT_EQ(test, toylsm_device_set(&t, S_IFCHR, tty, 7), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty), 7);
	/* A block device of the same number is another device. */
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFBLK, tty),
			TOYLSM_NOLABEL);
	/* A label read from a node never replaces one that was set... */
	KUNIT_EXPECT_EQ(test, toylsm_device_learn(&t, S_IFCHR, tty, 8), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty), 7);
	/* ...but the last label set does. */
	KUNIT_EXPECT_EQ(test, toylsm_device_set(&t, S_IFCHR, tty, 9), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty), 9);
	/* Forgetting another label than the device's changes nothing. */
	toylsm_device_forget(&t, S_IFCHR, tty, 7);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty), 9);
	toylsm_device_forget(&t, S_IFCHR, tty, 9);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, tty),
			TOYLSM_NOLABEL);
	/* A closed label is learned, and a real one replaces it. */
	KUNIT_EXPECT_EQ(test, toylsm_device_learn(&t, S_IFCHR, other,
						  TOYLSM_CLOSED), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, other),
			TOYLSM_CLOSED);
	KUNIT_EXPECT_EQ(test, toylsm_device_learn(&t, S_IFCHR, other, 3), 0);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFCHR, other), 3);
	/* Full: a third device has no room, the two keep their entries. */
	KUNIT_EXPECT_EQ(test, toylsm_device_reserve(&t, S_IFBLK, tty), -ENOSPC);
	KUNIT_EXPECT_EQ(test, toylsm_device_set(&t, S_IFBLK, tty, 3), -ENOSPC);
	KUNIT_EXPECT_EQ(test, toylsm_device_label(&t, S_IFBLK, tty),
			TOYLSM_NOLABEL);
	KUNIT_EXPECT_EQ(test, toylsm_device_reserve(&t, S_IFCHR, tty), 0);
	KUNIT_EXPECT_EQ(test, t.count, 2);
}

static struct kunit_case toylsm_test_cases[] = {
	KUNIT_CASE(label_parse_test),
	KUNIT_CASE(intern_test),
	KUNIT_CASE(table_full_test),
	KUNIT_CASE(intern_all_test),
	KUNIT_CASE(xattr_label_test),
	KUNIT_CASE(device_table_test),
	KUNIT_CASE(rule_parse_test),
	KUNIT_CASE(rules_remove_test),
	{}
};

static struct kunit_suite toylsm_test_suite = {
	.name = "toylsm",
	.test_cases = toylsm_test_cases,
};

/**
 * other_slot_lsm - Another active module with an lsmblob slot
 *
 * Return: its LSM_ID_*, or 0 if toylsm is the only one.
 */
static int other_slot_lsm(void)
{
	int i;

	for (i = 0; i < lsm_slot_cnt; i++)
		if (lsm_slotlist[i] != &toylsm_lsmid)
			return lsm_slotlist[i]->id;
	return 0;
}

/*
 * The stacked suite asks the active toylsm; a boot without it (e.g.
 * lsm=selinux) skips it rather than failing it.
 */
#define SKIP_UNLESS_ACTIVE(test)					\
	do {								\
		if (!toylsm_initialized)				\
			kunit_skip(test, "toylsm is not active in this boot"); \
	} while (0)

/* toylsm has a slot, and the slot list agrees with it. */
static void slot_test(struct kunit *test)
{
	SKIP_UNLESS_ACTIVE(test);
	KUNIT_ASSERT_GE(test, toylsm_lsmid.slot, 0);
	KUNIT_ASSERT_LT(test, toylsm_lsmid.slot, lsm_slot_cnt);
	KUNIT_EXPECT_PTR_EQ(test, lsm_slotlist[toylsm_lsmid.slot],
			    &toylsm_lsmid);
}

/*
 * A context is released by the module that made it, even when the task
 * changes its interface LSM in between (a defect of the seed series,
 * which released through the interface LSM of the moment).
 */
static void release_by_maker_test(struct kunit *test)
{
	int was = security_task_prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	int other = other_slot_lsm();
	struct lsmcontext cp;
	struct lsmblob blob;
	int live;

	SKIP_UNLESS_ACTIVE(test);
	if (!other)
		kunit_skip(test, "toylsm is the only module with a slot");
	KUNIT_ASSERT_GT(test, was, 0);
	KUNIT_ASSERT_EQ(test, security_task_prctl(PR_LSM_ATTR_SET,
						  LSM_ID_TOYLSM, 0, 0, 0), 0);
	security_current_getsecid_subj(&blob);
	live = atomic_read(&toylsm_secctx_live);
	KUNIT_ASSERT_EQ(test, security_secid_to_secctx(&blob, &cp), 0);
	KUNIT_EXPECT_EQ(test, cp.id, LSM_ID_TOYLSM);
	KUNIT_EXPECT_EQ(test, atomic_read(&toylsm_secctx_live), live + 1);

	KUNIT_EXPECT_EQ(test, security_task_prctl(PR_LSM_ATTR_SET, other,
						  0, 0, 0), 0);
	security_release_secctx(&cp);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&toylsm_secctx_live), live,
			    "released through LSM %d, not toylsm", other);
	KUNIT_EXPECT_PTR_EQ(test, cp.context, NULL);

	security_task_prctl(PR_LSM_ATTR_SET, was, 0, 0, 0);
}

static struct kunit_case toylsm_stacked_cases[] = {
	KUNIT_CASE(slot_test),
	KUNIT_CASE(release_by_maker_test),
	{}
};

static struct kunit_suite toylsm_stacked_suite = {
	.name = "toylsm_stacked",
	.test_cases = toylsm_stacked_cases,
};

kunit_test_suites(&toylsm_test_suite, &toylsm_stacked_suite);
