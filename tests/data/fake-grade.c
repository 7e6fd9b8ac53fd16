// SPDX-License-Identifier: GPL-2.0
/*
 * A grader for tests/host/grader.sh, built and run on the host: the harness
 * (labs/common/grader.h) prints TAP; a step that needs a failing step gets
 * "needs step k" instead of its own hint; a NUL in a step's output is shown;
 * a set-up call that fails is named with the errno it set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include "grader.h"

static void lab_banner(void)
{
	printf("lab 0: a fake lab for the glue tests\n");
}

static void lab_show(void)
{
}

STEP(1, "the first step fails")
{
	lab_expected("1");
	lab_seen("2");
	lab_hint("a hint about step 1");
	lab_fail();
}

STEP(2, "the second step uses step 1's function")
{
	lab_needs(1);
	lab_expected("3");
	lab_seen("4");
	lab_hint("a hint about step 2 that is wrong when step 1 fails");
	lab_fail();
}

STEP(3, "a value with its NUL padding")
{
	static const char v[] = "ab\0\0cd\n";

	fwrite(v, 1, sizeof(v) - 1, stdout);
	lab_seen("%s", lab_quote(v, sizeof(v) - 1));
	lab_fail();
}

STEP(4, "a step that passes")
{
}

static int refused(void)
{
	errno = EACCES;
	return -1;
}

STEP(5, "a set-up call that fails, named with its own errno")
{
	errno = 0;
	lab_setup(refused() == 0, "open the fixture", errno);
}
