// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lab 9: KUnit tests for toylsm_label_parse() (../label.c).
 *
 * A label is 1..31 characters of [A-Za-z0-9_.:-]; one trailing newline
 * is dropped; anything else is -EINVAL, with the output untouched.  Write
 * one test case per rule.  The grader checks that your cases pass on the
 * real parser and that each of four wrong parsers (mutants.c) fails one
 * of them: a test that no wrong parser fails tests nothing.
 *
 * KUnit in a nutshell (include/kunit/test.h): a case is a function
 * taking a struct kunit *; KUNIT_EXPECT_EQ(test, a, b) and
 * KUNIT_EXPECT_STREQ(test, a, b) record a failure and go on;
 * KUNIT_CASE() lists a case in its suite; kunit_test_suite() runs the
 * suite at boot and prints the results (KTAP) in the kernel log.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "../label.h"
#include "lab.h"
#include "lab9.h"

/*
 * Parse the C string s, the way a write() of strlen(s) bytes would.
 * __maybe_unused: in the untouched skeleton no case calls it yet.
 */
static int __maybe_unused PARSE(const char *s, char *out)
{
	return toylsm_label_parse(s, strlen(s), out);
}

static void toylsm_lab9_valid_test(struct kunit *test)
{
	/* TODO 1: "web" parses to "web", and so does "web\n" (echo's newline) */
	char label[TOYLSM_LABEL_MAX + 1];

	KUNIT_EXPECT_EQ(test, PARSE("web", label), 0);
	KUNIT_EXPECT_STREQ(test, label, "web");
	KUNIT_EXPECT_EQ(test, PARSE("web\n", label), 0);
	KUNIT_EXPECT_STREQ(test, label, "web");
	/* END TODO 1: LAB_TODO(1); */
}

static void toylsm_lab9_length_test(struct kunit *test)
{
	/* TODO 2: 31 characters parse, 32 are -EINVAL (TOYLSM_LABEL_MAX) */
	static const char max[] = "abcdefghijklmnopqrstuvwxyz01234";
	static const char over[] = "abcdefghijklmnopqrstuvwxyz012345";
	char label[TOYLSM_LABEL_MAX + 1];

	KUNIT_ASSERT_EQ(test, strlen(max), (size_t)TOYLSM_LABEL_MAX);
	KUNIT_EXPECT_EQ(test, PARSE(max, label), 0);
	KUNIT_EXPECT_STREQ(test, label, max);
	KUNIT_EXPECT_EQ(test, PARSE(over, label), -EINVAL);
	/* END TODO 2: LAB_TODO(2); */
}

static void toylsm_lab9_chars_test(struct kunit *test)
{
	/* TODO 3: not labels: "", "a/b", "a b", "a*", an embedded NUL */
	char label[TOYLSM_LABEL_MAX + 1];

	KUNIT_EXPECT_EQ(test, PARSE("", label), -EINVAL);
	KUNIT_EXPECT_EQ(test, PARSE("a/b", label), -EINVAL);
	KUNIT_EXPECT_EQ(test, PARSE("a b", label), -EINVAL);
	KUNIT_EXPECT_EQ(test, PARSE("a*", label), -EINVAL);
	KUNIT_EXPECT_EQ(test, toylsm_label_parse("a\0b", 3, label), -EINVAL);
	KUNIT_EXPECT_EQ(test, PARSE("A-Z_0.9:x", label), 0);
	/* END TODO 3: LAB_TODO(3); */
}

static void toylsm_lab9_untouched_test(struct kunit *test)
{
	/* TODO 4: a rejected label leaves the output as it was */
	char label[TOYLSM_LABEL_MAX + 1] = "keep";

	KUNIT_EXPECT_EQ(test, PARSE("no/slashes", label), -EINVAL);
	KUNIT_EXPECT_STREQ(test, label, "keep");
	/* END TODO 4: LAB_TODO(4); */
}

static struct kunit_case toylsm_lab9_cases[] = {
	KUNIT_CASE(toylsm_lab9_valid_test),
	KUNIT_CASE(toylsm_lab9_length_test),
	KUNIT_CASE(toylsm_lab9_chars_test),
	KUNIT_CASE(toylsm_lab9_untouched_test),
	{}
};

static struct kunit_suite toylsm_lab9_suite = {
	.name = LAB9_SUITE,
	.test_cases = toylsm_lab9_cases,
};

kunit_test_suite(toylsm_lab9_suite);
