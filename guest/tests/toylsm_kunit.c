// SPDX-License-Identifier: GPL-2.0
/*
 * Relay the boot's KUnit results of the toylsm suites and of the series'
 * lsmblob suite from the kernel log as one TAP plan, so that the host
 * counts each KUnit case. A missing suite is a failure.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/kernel_log.h"

static char out[1 << 16];

/**
 * relay - Keep one KUnit case line, renumbered, under its suite's name
 * @suite: the suite the line belongs to
 * @t: "ok N name..." or "not ok N name..."
 * @count: the number of cases kept so far, incremented
 */
static void relay(const char *suite, const char *t, int *count)
{
	int bad = !strncmp(t, "not ok ", 7);
	const char *rest = t + (bad ? 7 : 3);
	size_t used = strlen(out);

	rest += strspn(rest, "0123456789");
	rest += strspn(rest, " ");
	++*count;
	snprintf(out + used, sizeof(out) - used, "%s %d %s: %s\n",
		 bad ? "not ok" : "ok", *count, suite, rest);
}

/**
 * suite_result - Is @t the suite's own result line, "ok N SUITE"?
 * @t: an unindented line
 * @suite: the suite's name
 *
 * Return: 1 for "ok", 2 for "not ok", 0 for any other line (such as the
 * unindented text of a failed expectation's message).
 */
static int suite_result(const char *t, const char *suite)
{
	int bad = !strncmp(t, "not ok ", 7);
	const char *rest;

	if (!bad && strncmp(t, "ok ", 3))
		return 0;
	rest = t + (bad ? 7 : 3);
	rest += strspn(rest, "0123456789");
	rest += strspn(rest, " ");
	if (strncmp(rest, suite, strlen(suite)) ||
	    (rest[strlen(suite)] && rest[strlen(suite)] != ' '))
		return 0;
	return bad ? 2 : 1;
}

int main(void)
{
	const char *whole = kernel_log();
	char *log = whole ? strdup(whole) : NULL;
	int suites = 0, count = 0, plan = 0, seen = 0, failed = 0;
	char suite[64] = "", msg[160];
	char *line, *save;

	if (!log) {
		perror("klogctl");
		return 1;
	}
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *t = strstr(line, "] ");
		char *s;
		int r;

		t = t ? t + 2 : line;
		s = strstr(t, "# Subtest: toylsm");
		if (!s)
			s = strstr(t, "# Subtest: lsmblob");
		if (s) {
			snprintf(suite, sizeof(suite), "%s", s + 11);
			suites++;
			plan = 0;
			seen = 0;
			failed = 0;
			continue;
		}
		if (!suite[0])
			continue;
		if (t[0] != ' ') {
			r = suite_result(t, suite);
			if (!r)
				continue;	/* a message's own line */
			if (seen < plan) {
				snprintf(msg, sizeof(msg),
					 "not ok 0 %d of its %d cases reported",
					 seen, plan);
				relay(suite, msg, &count);
			} else if (r == 2 && !failed) {
				relay(suite, "not ok 0 the suite failed", &count);
			}
			suite[0] = '\0';
			continue;
		}
		t += strspn(t, " ");
		if (!strncmp(t, "1..", 3))
			plan = atoi(t + 3);
		if (!strncmp(t, "ok ", 3) || !strncmp(t, "not ok ", 7)) {
			seen++;
			failed += t[0] == 'n';
			relay(suite, t, &count);
		}
	}
	if (suite[0])
		relay(suite, "not ok 0 the suite never finished", &count);
	if (!suites || !count) {
		printf("1..1\nnot ok 1 the toylsm KUnit suites did not run\n");
		return 0;
	}
	/* toylsm, toylsm_stacked and lsmblob (patch 0016) */
	if (suites < 3) {
		relay("toylsm_kunit", "not ok 0 a KUnit suite is missing",
		      &count);
	}
	printf("1..%d\n%s", count, out);
	return 0;
}
