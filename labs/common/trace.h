/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who said no, for a grader's failing step: record the LSM events of the
 * step's process and of the children it forks (patch 0017's tracepoints,
 * read by kit/lsm_trace.h, the parser of /bin/why) around the
 * learner's operation, and under a failure say in one line what they
 * showed:
 *
 *	lab_record();
 *	r = lab_open_verdict(path, flags, &by);	(the learner's code)
 *	lab_record_stop();
 *	...
 *	lab_seen(...);
 *	lab_trace_refusal("your open()", "openat,open");
 *	lab_hint(...);
 *
 *	# trace:    your open() was refused by smack in inode_permission (EACCES);
 *	            never asked in inode_permission: toylsm; landlock was asked
 *	            in no hook of that call; apparmor was asked only in
 *	            file_alloc_security  (one line)
 *
 * or, when the call failed and no module refused it (lsm_trace.h's rule:
 * a negative answer that ended a walk with the call's errno, "no value"
 * answers excepted):
 *
 *	# trace:    no LSM refused your open() (EACCES): openat failed with
 *	            EACCES, and no module's answer ended a hook walk with ...
 *
 * Each line says only what the trace shows.  Without the events (a
 * kernel built without tracing) the step is graded all the same, and
 * the line says that there is no trace, and why.
 */
#ifndef LAB_TRACE_H
#define LAB_TRACE_H

#include "grader.h"
#include "kit/lsm_trace.h"

/*
 * The modules a trace line may name as never asked: those a learner
 * stacks against each other (capability and Yama are not asked about
 * files at all).
 */
#define LAB_TRACE_MODULES "landlock,smack,selinux,apparmor,toylsm"

static struct lsm_record lab_rec;
static int lab_rec_state;	/* 1 recorded, -1 no trace (lab_rec.t.err) */

/* Start recording (the step's process and its children from now on). */
static LAB_API void lab_record(void)
{
	lab_rec_state = lsm_record_start(&lab_rec) ? -1 : 0;
}

/* Stop, and read what was recorded. */
static LAB_API void lab_record_stop(void)
{
	if (lab_rec_state == 0)
		lab_rec_state = lsm_record_stop(&lab_rec) ? -1 : 1;
}

/* 1 if there is a trace to speak of; else says so in one line, 0. */
static int lab_trace_there(void)
{
	if (lab_rec_state == 1)
		return 1;
	lab_trace("no trace of the modules' answers: %s",
		  lab_rec_state ? lab_rec.t.err : "nothing was recorded");
	return 0;
}

/*
 * Under a failing step: who refused the last call of @syscalls (as the
 * trace names them, "openat,open") that a module refused, in words of
 * @what ("your open()"; NULL: "your SYSCALL()"); else, for the last such
 * call that failed, that no LSM refused it and why (the kernel's own
 * error, the framework's answer, a module's "no value": guest/tests/
 * lsm_trace.h says which rule); else that no module refused anything.
 */
static LAB_API void lab_trace_refusal(const char *what, const char *syscalls)
{
	char line[1024];
	int i, n = 0;

	if (!lab_trace_there())
		return;
	if (lsm_record_refused(&lab_rec, what, syscalls, LAB_TRACE_MODULES, line,
			       sizeof(line))) {
		lab_trace("%s", line);
		return;
	}
	if (lsm_record_unrefused(&lab_rec, what, syscalls, line, sizeof(line))) {
		lab_trace("%s", line);
		return;
	}
	for (i = lab_rec.ncalls - 1; i >= 0; i--)
		if (lsm_trace_in_list(syscalls, lab_rec.calls[i].sys))
			n++;
	for (i = 0; i < lab_rec.ncalls; i++)
		if (lsm_trace_decider(&lab_rec.calls[i])) {
			lab_trace("no LSM refused %s; one refused another %s() of your code",
				  what ? what : "the calls asked about", lab_rec.calls[i].sys);
			return;
		}
	if (!what)
		lab_trace("no LSM refused any system call of your code");
	else if (n)
		lab_trace("no LSM refused %s, nor any other system call of your code",
			  what);
	else
		lab_trace("the trace has no %s that a module was asked about, and no LSM refused any system call of your code",
			  what);
}

/*
 * Under a failing step where the call should have been refused: what
 * each module answered in @hook in the last call of @syscalls that
 * succeeded ("your unlink() succeeded; in inode_unlink smack answered 0,
 * toylsm answered 0"), and whether @lsm was asked; else as
 * lab_trace_refusal().
 */
static LAB_API void lab_trace_allowed(const char *what, const char *syscalls, const char *hook,
				      const char *lsm)
{
	char line[768];

	if (lab_rec_state == 1 &&
	    lsm_record_answers(&lab_rec, what, syscalls, hook, lsm, line, sizeof(line))) {
		lab_trace("%s", line);
		return;
	}
	lab_trace_refusal(what, syscalls);
}

#endif /* LAB_TRACE_H */
