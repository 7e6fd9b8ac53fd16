/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a step of a lab's grader says (grader.h includes it): a failure in
 * the learner's terms, lab_expected(), lab_seen(), lab_hint() (lab_trace():
 * what the kernel's LSM events showed, labs/common/trace.h), lab_fail() to
 * end the step; lab_kit() and lab_setup() for a problem that is the kit's,
 * not the learner's; errname() and lab_quote() to show an errno and a
 * string.  Each line goes to lab_hint_fd, which the harness points at the
 * step's diagnostics ("# expected: ...") under its TAP result.
 */
#ifndef LAB_GRADER_SAY_H
#define LAB_GRADER_SAY_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The helpers a grader may or may not use. */
#define LAB_API __attribute__((unused))

/*
 * The attendee's file, as the hints name it (--file), and its copy in the
 * guest (--src), where the hints look up what a TODO says.
 */
static const char *lab_file = "your lab file";
static const char *lab_src;

/*
 * How much a hint gives away (--hint N, from make lab N HINT=2): 1, what
 * the kernel saw and where to look; 2, the exact line to write as well.
 */
static int lab_hint_level = 1;

/* Where the lines go: the step's hint file (grader.h), stderr outside a step. */
static int lab_hint_fd = 2;

/* "E2BIG (Argument list too long)", or "0 (no error)". */
static LAB_API const char *errname(int e)
{
	static char buf[4][96];
	static int i;
	const char *name;

	if (e == 0)
		return "0 (no error)";
	i = (i + 1) % 4;
	name = strerrorname_np(e);
	if (name)
		snprintf(buf[i], sizeof(buf[i]), "%s (%s)", name, strerror(e));
	else
		snprintf(buf[i], sizeof(buf[i]), "%d (unknown errno)", e);
	return buf[i];
}

/*
 * A string for a hint: quoted, with newlines, NULs of a fixed-length
 * buffer and other control bytes made visible.  n < 0: up to the NUL.
 */
static LAB_API const char *lab_quote(const char *s, long n)
{
	static char buf[4][256];
	static int i;
	char *o;
	long k;

	if (!s)
		return "NULL";
	i = (i + 1) % 4;
	o = buf[i];
	*o++ = '"';
	for (k = 0; (n < 0 ? s[k] != '\0' : k < n) && o < buf[i] + 240; k++) {
		unsigned char c = s[k];

		if (c == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (c == '\0') {
			*o++ = '\\';
			*o++ = '0';
		} else if (c < 32 || c > 126) {
			o += sprintf(o, "\\x%02x", c);
		} else {
			*o++ = c;
		}
	}
	if (o >= buf[i] + 240)
		o += sprintf(o, "...");
	*o++ = '"';
	*o = '\0';
	return buf[i];
}

static void lab_line(const char *tag, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	dprintf(lab_hint_fd, "%s%s\n", tag, msg);
}

static LAB_API void __attribute__((format(printf, 1, 2))) lab_expected(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_line("expected: ", fmt, ap);
	va_end(ap);
}

static LAB_API void __attribute__((format(printf, 1, 2))) lab_seen(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_line("seen:     ", fmt, ap);
	va_end(ap);
}

static LAB_API void __attribute__((format(printf, 1, 2))) lab_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_line("hint:     ", fmt, ap);
	va_end(ap);
}

/* What the kernel's LSM events showed (labs/common/trace.h). */
static LAB_API void __attribute__((format(printf, 1, 2))) lab_trace(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_line("trace:    ", fmt, ap);
	va_end(ap);
}

static LAB_API void __attribute__((format(printf, 1, 2))) lab_kit(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lab_line("kit:      ", fmt, ap);
	va_end(ap);
}

static LAB_API void __attribute__((noreturn)) lab_fail(void)
{
	exit(1);
}

/*
 * Unless ok, fail the step as the kit's problem, not the learner's: the
 * grader itself could not do what it needed to set the step up (what,
 * errno err), e.g. lab_setup(fd >= 0, "create a file in /tmp", errno).
 */
static LAB_API void lab_setup(int ok, const char *what, int err)
{
	if (ok)
		return;
	lab_kit("the grader could not %s: %s", what, errname(err));
	lab_kit("that is the kit's problem, not yours: tell the instructor");
	lab_fail();
}

#endif /* LAB_GRADER_SAY_H */
