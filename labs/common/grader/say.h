/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a step of a lab's grader says (grader.h includes it): a failure in
 * the learner's terms, lab_expected(), lab_seen(), lab_hint() (lab_trace():
 * what the kernel's LSM events showed, labs/common/trace.h), lab_fail() to
 * end the step; lab_seen_returned() for a call's result, lab_returned_0()
 * and lab_must_fail() for a call that must return 0 or fail with an
 * errno; lab_kit() and lab_setup() for a problem that is the kit's, not
 * the learner's; errname() and lab_quote() to show an errno and a
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

/*
 * One line of the step's diagnostics, "TAG text": lab_expected(), lab_seen(),
 * lab_hint(), lab_trace() (what the kernel's LSM events showed,
 * labs/common/trace.h) and lab_kit() each say one, with their own tag.
 */
static LAB_API void __attribute__((format(printf, 2, 3))) lab_say(const char *tag,
								  const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(lab_hint_fd, "%s%s\n", tag, msg);
}

#define lab_expected(...) lab_say("expected: ", __VA_ARGS__)
#define lab_seen(...) lab_say("seen:     ", __VA_ARGS__)
#define lab_hint(...) lab_say("hint:     ", __VA_ARGS__)
#define lab_trace(...) lab_say("trace:    ", __VA_ARGS__)
#define lab_kit(...) lab_say("kit:      ", __VA_ARGS__)

static LAB_API void __attribute__((noreturn)) lab_fail(void)
{
	exit(1);
}

/* What the learner's call returned: @r, and errno @e when it failed. */
static LAB_API void lab_seen_returned(long r, int e)
{
	if (r < 0)
		lab_seen("it returned %ld, errno %s", r, errname(e));
	else
		lab_seen("it returned %ld", r);
}

/*
 * The learner's call (as the format @fmt says it) must return 0, or with
 * @want_err -1 and that errno: it returned @r, errno @e.  1 if it did;
 * else the step's expected and seen lines are said and 0 returned (the
 * caller gives its hints and fails the step), or for a count where 0 was
 * due (a write()'s, passed on) the step fails with that hint.
 */
static LAB_API int __attribute__((format(printf, 4, 5)))
lab_returned_0(long r, int e, int want_err, const char *fmt, ...)
{
	char call[512];
	va_list ap;

	if (want_err ? r == -1 && e == want_err : r == 0)
		return 1;
	va_start(ap, fmt);
	vsnprintf(call, sizeof(call), fmt, ap);
	va_end(ap);
	if (want_err)
		lab_expected("%s returns -1 with errno %s", call, errname(want_err));
	else
		lab_expected("%s returns 0", call);
	lab_seen("it returned %ld, errno %s", r, errname(e));
	if (r <= 0)
		return 0;
	lab_hint("return 0 on success, not the number of bytes written");
	lab_fail();
}

/*
 * The learner's call must fail with errno @want: it returned @r, errno
 * @e.  Else the step fails: expected what the format @fmt says, seen
 * what it did, and @hint.
 */
static LAB_API void __attribute__((format(printf, 5, 6)))
lab_must_fail(long r, int e, int want, const char *hint, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (r == -1 && e == want)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lab_expected("%s", msg);
	lab_seen("it returned %ld, errno %s", r, errname(e));
	if (hint)
		lab_hint("%s", hint);
	lab_fail();
}

/*
 * Unless ok, fail the step as the kit's problem, not the learner's: the
 * grader itself could not do what it needed to set the step up (what,
 * errno err), e.g. lab_setup(set_ilsm(id) == 0, "choose a module", errno).
 * A macro, so that ok is evaluated before err: C leaves the order of a
 * call's arguments unspecified, and GCC read errno before the call that
 * sets it ran (every such refusal said "0 (no error)").
 */
#define lab_setup(ok, what, err) \
	do { \
		int lab_setup_ok_ = !!(ok); \
		lab_setup_check(lab_setup_ok_, (what), (err)); \
	} while (0)

static LAB_API void lab_setup_check(int ok, const char *what, int err)
{
	if (ok)
		return;
	lab_kit("the grader could not %s: %s", what, errname(err));
	lab_kit("that is the kit's problem, not yours: tell the instructor");
	lab_fail();
}

#endif /* LAB_GRADER_SAY_H */
