// SPDX-License-Identifier: GPL-2.0
/*
 * The scratch lab's grader (tests/host/lab-check.sh), linked with the
 * attendee's scratch.c.
 */
#define _GNU_SOURCE
#include "grader.h"
#include "lab.h"

static void lab_banner(void)
{
	printf("lab 99: a scratch lab; this boot: process %d\n", (int)getpid());
}

static void lab_show(void)
{
	int r;

	r = lab_pid();
	if (!lab_show_todo("lab_pid"))
		printf("lab_pid() = %d\n", r);
	r = lab_twice(21);
	if (!lab_show_todo("lab_twice"))
		printf("lab_twice(21) = %d\n", r);
}

STEP(1, "lab_pid() returns the process ID")
{
	int r = lab_pid();

	lab_check_todo(1, "lab_pid()");
	if (r != (int)getpid()) {
		lab_expected("lab_pid() returns %d", (int)getpid());
		lab_seen("it returned %d", r);
		lab_hint("getpid() gives it");
		lab_fail();
	}
}

STEP(2, "lab_twice(21) returns 42")
{
	int r = lab_twice(21);

	lab_check_todo(2, "lab_twice()");
	if (r != 42) {
		lab_expected("lab_twice(21) returns 42");
		lab_seen("it returned %d", r);
		lab_hint("twice x is x + x");
		lab_fail();
	}
}
