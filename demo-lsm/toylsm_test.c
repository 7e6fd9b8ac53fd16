// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - KUnit tests of the label table and the rule parser
 */

#include <kunit/test.h>
#include <linux/string.h>

#include "label.h"
#include "policy.h"

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

static struct kunit_case toylsm_test_cases[] = {
	KUNIT_CASE(label_parse_test),
	KUNIT_CASE(intern_test),
	KUNIT_CASE(table_full_test),
	KUNIT_CASE(rule_parse_test),
	{}
};

static struct kunit_suite toylsm_test_suite = {
	.name = "toylsm",
	.test_cases = toylsm_test_cases,
};

kunit_test_suite(toylsm_test_suite);
