/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The labs' grading harness, run in the guest.  Include it from exactly one
 * file, the lab's grade.c, after defining _GNU_SOURCE.
 *
 * A lab's grader declares its steps with STEP(n, "title") { ... }.  Each
 * step runs in a child process with a time limit, so that a crash or an
 * endless loop in the attendee's code fails that one step and the others
 * are still graded.  The grader prints TAP, the format of the kit's guest
 * tests (kselftest's); the expected/seen/hint of a failing step are
 * diagnostic lines under its result, and the banner is a comment:
 *
 *	TAP version 13
 *	1..5
 *	# lab 1: which LSMs are active; this boot: ...
 *	ok 2 ask lsm_module_list for the size it needs
 *	not ok 3 fetch the IDs with lsm_module_list
 *	# expected: lab_module_list(ids, 4) returns 4
 *	# seen:     it returned -1, errno E2BIG (Argument list too long)
 *	# hint:     *size counts bytes: max * sizeof(__u32)
 *
 * The host (scripts/guest/results.py) turns that into the learner's view:
 * "PASS  2/5  title", "FAIL  3/5  title" and the diagnostics under it.
 *
 * Inside a step, lab_expected(), lab_seen() and lab_hint() describe a
 * failure in the learner's terms (lab_trace(): what the kernel's LSM
 * events showed, labs/common/trace.h) and lab_fail() ends the step; a step that
 * returns passes.  lab_kit() reports a problem that is not the learner's
 * (the kernel lacks a patch); it still fails the step, and so does
 * lab_setup(ok, what, errno) unless ok: the grader could not prepare the step.
 * (grader/say.h; the learner's TODOs: grader/todos.h; this boot's modules:
 * grader/lsms.h.  This file: the steps, each run in its child, and main().)
 *
 * Output the attendee's code prints during a step is shown under the step,
 * as "# | " lines, so that it can never pass for a verdict line; a NUL or
 * another control byte in it is shown as \0 or \xNN, never cut.
 *
 * A step that calls the learner's function of an earlier step k calls
 * lab_needs(k) first: if it fails while step k fails, its hint is "this
 * step needs step k" instead of a hint about itself.
 *
 * Modes: "grader --grade [--file PATH] [--src COPY] [--hint N]" grades (exit status 0 only if every
 * step passes); "grader" alone runs the lab's lab_show(), which prints what
 * the attendee's functions return, for exploring in the guest shell.
 */
#ifndef LAB_GRADER_H
#define LAB_GRADER_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/clock.h"		/* the step's time limit */
#include "grader/say.h"		/* what a step says: lab_expected() ... lab_fail() */
#include "grader/todos.h"	/* the learner's TODOs: lab_check_todo() */
#include "grader/lsms.h"	/* this boot's modules: lsm_active(), need_toylsm() */

#define LAB_MAX_STEPS 16
/* A step's time limit; a grader whose steps wait longer defines its own first. */
#ifndef LAB_STEP_SECONDS
#define LAB_STEP_SECONDS 10
#endif

struct lab_step {
	int n;
	const char *title;
	void (*fn)(void);
};

static struct lab_step lab_steps[LAB_MAX_STEPS];
static int lab_nsteps;
/* Step n's verdict so far: 1 passed, -1 failed, 0 not run (yet). */
static int lab_result[LAB_MAX_STEPS + 1];

static void lab_register(int n, const char *title, void (*fn)(void))
{
	if (lab_nsteps == LAB_MAX_STEPS) {
		fprintf(stderr, "grader: too many steps\n");
		exit(2);
	}
	lab_steps[lab_nsteps++] = (struct lab_step){ n, title, fn };
}

#define STEP(num, title)						\
	static void lab_step_##num(void);				\
	static void __attribute__((constructor)) lab_reg_##num(void)	\
	{ lab_register(num, title, lab_step_##num); }			\
	static void lab_step_##num(void)

/*
 * A step that calls the learner's function of step K says so, at its
 * start, with lab_needs(K).  If the step then fails while step K failed in
 * this run, its hints (about the wrong thing) are replaced by "this step
 * needs step K: make step K pass first"; its expected/seen lines stay.
 */
static unsigned char *lab_needed;	/* shared with the step's child */

static LAB_API void lab_needs(int k)
{
	if (lab_needed && k >= 1 && k <= LAB_MAX_STEPS)
		lab_needed[k] = 1;
}

/* A file for a child's output, already unlinked. */
static int lab_tmpfile(void)
{
	char path[] = "/tmp/lab-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("grader: mkstemp");
		exit(2);
	}
	unlink(path);
	return fd;
}

/*
 * Copy FD's content to stdout, each line prefixed, at most MAX lines; a NUL
 * or another control byte (but a tab) is shown as \0 or \xNN, so that a
 * value printed with its padding shows the padding instead of ending there.
 */
static void lab_dump_but(int fd, const char *prefix, int max, const char *skip)
{
	char buf[4096];
	ssize_t n, k;
	int lines = 0, bol = 1;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	for (k = 0; k < n; k++) {
		unsigned char c = buf[k];

		if (bol && skip && !strncmp(buf + k, skip, strlen(skip))) {
			while (k < n && buf[k] != '\n')
				k++;
			continue;
		}
		if (bol) {
			if (++lines > max) {
				printf("%s(more output cut)\n", prefix);
				return;
			}
			fputs(prefix, stdout);
			bol = 0;
		}
		if (c == '\n') {
			putchar('\n');
			bol = 1;
		} else if (c == '\0') {
			fputs("\\0", stdout);
		} else if ((c < 32 && c != '\t') || c == 127) {
			printf("\\x%02x", c);
		} else {
			putchar(c);
		}
	}
	if (!bol)
		putchar('\n');
}

static void lab_dump(int fd, const char *prefix, int max)
{
	lab_dump_but(fd, prefix, max, NULL);
}

#define LAB_SIGABRT_HINT "abort(): a failed assert(), or glibc found a corrupted heap (a write past a malloc()ed buffer, a double free())?"

static const char *lab_signal_hint(int sig)
{
	switch (sig) {
	case SIGSEGV:
		return "a NULL or wild pointer, or a write past the end of a buffer?";
	case SIGBUS:
		return "a misaligned or out-of-range memory access?";
	case SIGABRT:
		return LAB_SIGABRT_HINT;
	case SIGFPE:
		return "a division by zero?";
	default:
		return "";
	}
}

/*
 * Run one step in a child; print its verdict.  Returns 1 if it passed.
 * The time limit is the parent's: a child that ignores SIGALRM or forks
 * is still killed, with its whole process group.
 */
static int lab_run_step(const struct lab_step *s)
{
	int out = lab_tmpfile(), hint = lab_tmpfile(), okp[2], status = 0, passed, late = 0;
	double t0;
	char ok = 0;
	pid_t pid;

	if (lab_needed)
		memset(lab_needed, 0, LAB_MAX_STEPS + 1);
	if (pipe2(okp, O_NONBLOCK) < 0) {
		perror("grader: pipe");
		exit(2);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("grader: fork");
		exit(2);
	}
	if (pid == 0) {
		setpgid(0, 0);
		close(okp[0]);
		dup2(out, 1);
		dup2(out, 2);
		setvbuf(stdout, NULL, _IONBF, 0);
		lab_hint_fd = hint;
		lab_todo = 0;
		s->fn();
		/* Only a step that returned normally says "ok". */
		if (write(okp[1], "y", 1) != 1)
			_exit(3);
		_exit(0);
	}
	close(okp[1]);
	t0 = kit_now_ns();
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (kit_ms_since(t0) >= LAB_STEP_SECONDS * 1000) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			late = 1;
			break;
		}
		usleep(20 * 1000);
	}
	kill(-pid, SIGKILL);	/* anything it left behind */
	if (read(okp[0], &ok, 1) != 1)
		ok = 0;
	close(okp[0]);
	passed = !late && ok == 'y' && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	printf("%s %d %s\n", passed ? "ok" : "not ok", s->n, s->title);
	if (!passed) {
		if (late) {
			dprintf(hint, "seen:     the step did not finish within %d s\n",
				LAB_STEP_SECONDS);
			dprintf(hint, "hint:     an endless loop, or a read() that waits forever?\n");
		} else if (WIFSIGNALED(status)) {
			dprintf(hint, "seen:     your code crashed: SIG%s (%s)\n",
				sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "signal",
				strsignal(WTERMSIG(status)));
			dprintf(hint, "hint:     %s\n", lab_signal_hint(WTERMSIG(status)));
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			dprintf(hint, "seen:     the program exited in the middle of the step\n");
			dprintf(hint, "hint:     your function called exit(); return a value instead\n");
		} else if (WIFEXITED(status) && WEXITSTATUS(status) != 1) {
			dprintf(hint, "seen:     the step exited with status %d\n",
				WEXITSTATUS(status));
		}
	}
	if (!passed) {
		int k, need = 0;

		for (k = 1; lab_needed && k <= LAB_MAX_STEPS && !need; k++)
			if (lab_needed[k] && lab_result[k] < 0)
				need = k;
		if (need) {
			lab_dump_but(hint, "# ", 20, "hint:");
			printf("# hint:     this step needs step %d, which fails: make step %d pass first\n",
			       need, need);
		} else {
			lab_dump(hint, "# ", 20);
		}
	}
	lab_dump(out, "# | ", 15);
	close(out);
	close(hint);
	return passed;
}

static int lab_cmp_step(const void *a, const void *b)
{
	return ((const struct lab_step *)a)->n - ((const struct lab_step *)b)->n;
}

/* The lab's grade.c defines these two. */
static void lab_show(void);
static void lab_banner(void);

static int lab_banner_fd = -1, lab_stdout_fd = -1;

/* The banner's lines, as TAP comments ("# lab 1: ..."). */
static void lab_banner_flush(void)
{
	if (lab_banner_fd < 0)
		return;
	fflush(stdout);
	dup2(lab_stdout_fd, 1);
	lab_dump(lab_banner_fd, "# ", 10);
	fflush(stdout);
	close(lab_banner_fd);
	lab_banner_fd = -1;
}

/* lab_banner() prints plain lines and may exit(): both end up as comments. */
static void lab_banner_as_comment(void)
{
	fflush(stdout);
	lab_banner_fd = lab_tmpfile();
	lab_stdout_fd = dup(1);
	dup2(lab_banner_fd, 1);
	atexit(lab_banner_flush);
	lab_banner();
	lab_banner_flush();
}

int main(int argc, char **argv)
{
	int i, passed = 0, grade = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--grade"))
			grade = 1;
		else if (!strcmp(argv[i], "--file") && i + 1 < argc)
			lab_file = argv[++i];
		else if (!strcmp(argv[i], "--src") && i + 1 < argc)
			lab_src = argv[++i];
		else if (!strcmp(argv[i], "--hint") && i + 1 < argc)
			lab_hint_level = atoi(argv[++i]) >= 2 ? 2 : 1;
	}
	if (!grade) {
		lab_show();
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	qsort(lab_steps, lab_nsteps, sizeof(lab_steps[0]), lab_cmp_step);
	lab_needed = mmap(NULL, LAB_MAX_STEPS + 1, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (lab_needed == MAP_FAILED)
		lab_needed = NULL;
	printf("TAP version 13\n1..%d\n", lab_nsteps);
	lab_banner_as_comment();
	for (i = 0; i < lab_nsteps; i++) {
		int ok = lab_run_step(&lab_steps[i]);

		if (lab_steps[i].n > 0 && lab_steps[i].n <= LAB_MAX_STEPS)
			lab_result[lab_steps[i].n] = ok ? 1 : -1;
		passed += ok;
	}
	return passed == lab_nsteps ? 0 : 1;
}

#endif /* LAB_GRADER_H */
