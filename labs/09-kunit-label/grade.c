// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 9's grader.  The attendee's label_test.c ran at boot, in the lab
 * kernel, five times: as the suite toylsm_lab9 against the real
 * toylsm_label_parse(), and as toylsm_lab9_mutantN against each of the
 * four mutants of kernel/mutants.c.  This program reads their results
 * (KTAP) from the kernel log.  Step N passes when every case passes on
 * the real parser and at least one case fails on mutant N.
 */
#define _GNU_SOURCE
#include "grader.h"
#include "klog.h"

#define SUITE "toylsm_lab9"

/* What a mutant does wrong, and what kind of case catches it. */
static const struct {
	const char *wrong, *catch;
} mutants[5] = {
	[1] = {
		"keeps the trailing newline, so \"web\\n\" (what echo writes) is -EINVAL",
		"parse \"web\\n\" and expect 0 and \"web\"",
	},
	[2] = {
		"cuts a label of 32 or more characters down to 31 instead of rejecting it",
		"parse 32 characters and expect -EINVAL (31 characters alone do not catch it: up to 31 it is right)",
	},
	[3] = {
		"accepts any printable character: '/', '*', '\"' pass",
		"parse \"a/b\" or \"a*\" and expect -EINVAL (it still rejects a space, a control character and a NUL, so \"a b\" and \"a\\0b\" do not catch it)",
	},
	[4] = {
		"returns the right verdict but has already copied a rejected label into the output",
		"fill the output with \"keep\", parse a label of a good length with a bad character (\"no/slashes\"), expect -EINVAL and \"keep\": the mutant checks the length before it copies and the characters after, so an empty or too long label never reaches the copy",
	},
};

struct suite {
	int ran;		/* "# Subtest: NAME" was seen */
	int done;		/* and its result line */
	int plan, ncases, failed;
	char names[256];	/* the failed cases */
	char msgs[1536];	/* their messages */
};

/* The steps' check and what it reads, after the steps. */
static void suite_read(const char *name, struct suite *r);
static void caught(int n);	/* step n: the real suite passes, mutant n's fails */

STEP(1, "catch a parser that keeps the trailing newline") { caught(1); }
STEP(2, "catch a parser that truncates a label that is too long") { caught(2); }
STEP(3, "catch a parser that accepts any printable character") { caught(3); }
STEP(4, "catch a parser that writes the output before checking") { caught(4); }

static void lab_banner(void)
{
	printf("lab 9: KUnit tests for toylsm_label_parse()\n");
}

static void lab_show(void)
{
	static const char *const names[] = {
		SUITE, SUITE "_mutant1", SUITE "_mutant2", SUITE "_mutant3", SUITE "_mutant4",
	};
	struct suite r;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		suite_read(names[i], &r);
		if (!r.ran)
			printf("%-22s did not run\n", names[i]);
		else
			printf("%-22s %d of %d cases pass%s\n", names[i], r.ncases - r.failed,
			       r.plan, r.done ? "" : " (did not finish)");
	}
}

static void append(char *buf, size_t size, const char *s, size_t n)
{
	size_t len = strlen(buf);

	if (len + n + 2 < size)
		snprintf(buf + len, size - len, "%.*s\n", (int)n, s);
}

/* The KTAP of one suite: "# Subtest: NAME", its cases, "ok N NAME". */
static void suite_read(const char *name, struct suite *r)
{
	const char *p = klog(), *t, *e;
	size_t nl = strlen(name);
	int in = 0;

	memset(r, 0, sizeof(*r));
	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '\n');
		t = memmem(p, e - p, "] ", 2);
		t = t ? t + 2 : p;
		if (!in) {
			const char *s = memmem(t, e - t, "# Subtest: ", 11);

			if (s && (size_t)(e - s - 11) == nl && !strncmp(s + 11, name, nl)) {
				in = 1;
				r->ran = 1;
			}
			continue;
		}
		if (*t != ' ') {
			/* The suite's result, or a message's unindented line. */
			if ((!strncmp(t, "ok ", 3) || !strncmp(t, "not ok ", 7)) &&
			    memmem(t, e - t, name, nl)) {
				r->done = 1;
				return;
			}
			if (!memmem(t, e - t, " pass:", 6))
				append(r->msgs, sizeof(r->msgs), t, e - t);
			continue;
		}
		t += strspn(t, " ");
		if (!strncmp(t, "1..", 3)) {
			r->plan = atoi(t + 3);
		} else if (!strncmp(t, "ok ", 3)) {
			r->ncases++;
		} else if (!strncmp(t, "not ok ", 7)) {
			const char *c = t + 7 + strspn(t + 7, "0123456789 -");

			r->ncases++;
			r->failed++;
			append(r->names, sizeof(r->names), c, e - c);
		} else if (!memmem(t, e - t, "# Subtest", 9) && !memmem(t, e - t, " pass:", 6)) {
			/* "# case: EXPECTATION FAILED at ...", "Expected ..." */
			append(r->msgs, sizeof(r->msgs), t, e - t);
		}
	}
}

/* The suite's messages, with the file named as the attendee knows it. */
static void show_msgs(const struct suite *r)
{
	char copy[sizeof(r->msgs)], *line, *save = NULL, *at;
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", r->msgs);
	for (line = strtok_r(copy, "\n", &save); line && n < 8;
	     line = strtok_r(NULL, "\n", &save), n++) {
		at = strstr(line, "security/toylsm/extra/label_test.c");
		if (at)
			lab_seen("KUnit: %.*s%s%s", (int)(at - line), line, lab_file,
				 at + strlen("security/toylsm/extra/label_test.c"));
		else
			lab_seen("KUnit: %s", line);
	}
}

/*
 * Every case of the real suite ran and passed.  Step 1 shows what KUnit
 * said; the later steps fail on the same log, and only refer to it.
 */
static void real_suite_passes(int step)
{
	struct suite r;

	suite_read(SUITE, &r);
	if (!r.ran) {
		lab_expected("the suite \"" SUITE "\" in the kernel log of this boot");
		lab_seen("no \"# Subtest: " SUITE "\" line");
		lab_hint("keep .name = LAB9_SUITE and kunit_test_suite(toylsm_lab9_suite) at the end of %s",
			 lab_file);
		lab_fail();
	}
	if (!r.done || r.ncases < r.plan) {
		lab_expected("all %d cases of " SUITE " report a result", r.plan);
		lab_seen("%d did%s", r.ncases, r.done ? "" : ", and the suite never finished");
		lab_hint("a case that crashes the kernel ends the suite: look at the console log for an Oops");
		lab_fail();
	}
	if (r.failed) {
		lab_expected("every case passes on the real toylsm_label_parse()");
		lab_seen("%d case(s) fail on it: %.*s", r.failed, (int)strcspn(r.names, "\n"),
			 r.names);
		if (step > 1) {
			lab_hint("step 1 shows what KUnit said; every step needs all your cases to pass on the real parser first");
			lab_fail();
		}
		show_msgs(&r);
		lab_hint("a case that fails on the real parser expects something the parser does not promise: check it against the comment of toylsm_label_parse() in demo-lsm/label.c");
		lab_fail();
	}
}

/* Step n: the real suite passes and mutant n's suite fails. */
static void caught(int n)
{
	char name[48];
	struct suite m;

	real_suite_passes(n);
	snprintf(name, sizeof(name), SUITE "_mutant%d", n);
	suite_read(name, &m);
	if (!m.ran || !m.done) {
		lab_kit("the suite %s did not run to its end in this boot", name);
		lab_kit("it is your file built against kernel/mutants.c; the console log shows why");
		lab_fail();
	}
	if (m.failed)
		return;
	lab_expected("a case of yours fails on mutant %d, a parser that %s", n, mutants[n].wrong);
	lab_seen("all %d cases pass on it (suite %s)", m.ncases, name);
	klog_check_todo(n);
	lab_hint("add a check that such a parser fails: %s", mutants[n].catch);
	lab_fail();
}
