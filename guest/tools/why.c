// SPDX-License-Identifier: GPL-2.0
/*
 * why: run a command with the LSM events of the kit's kernel on (patch
 * 0017, tracefs events lsm:*) and say, for each system call that an LSM
 * refused, which module said no, in which hook, with which errno, and
 * which modules were never asked.
 *
 *   why [-a] [-v] [-V] [-t] [-c COMM] [-p PID] [-k HOOK] [-s SYSCALL] CMD [ARG...]
 *
 * It is in every guest as /bin/why (guest/files.list); on the host:
 * make why CMD='cat /tmp/secret' APPEND='...'.
 *
 * How: the command's pid (and, by options/event-fork, its children's) goes
 * to set_event_pid; the events lsm:lsm_hook_call, lsm:lsm_hook_end,
 * lsm:lsm_interface and lsm:lsm_framework (lsm:lsm_void_hook too with -V)
 * and the syscalls:* events are enabled; after the command has ended the
 * trace file is read back and grouped by pid and system call.  The
 * parsing is guest/include/kit/lsm_trace.h's, which the labs'
 * graders share.
 *
 * -t: after the text, the walk table of each call shown, one line per
 * cell, for a picture drawn on the host (make why SVG=FILE:
 * scripts/debug/why-svg.py, through scripts/guest/results.py's walks()):
 *
 *	why-walk begin TOKEN
 *	why-walk TOKEN call K PID SYSCALL RET VERDICT COMM
 *	why-walk TOKEN cols K LSM...		the walk order: the active modules
 *						(/sys/kernel/security/lsm), then any
 *						other module a walk names
 *	why-walk TOKEN row K R HOOK KIND	a walk, in the order they began;
 *						KIND walk, alone (one module asked
 *						alone), framework, void, open (its
 *						end is not in the trace)
 *	why-walk TOKEN cell K R LSM KIND VALUE	KIND yes (VALUE ok), no (an
 *						errno), never (never asked: -),
 *						notref (a negative answer that is
 *						no refusal: ECHILD...), value (a
 *						positive answer), called (void);
 *						a framework row has one cell, LSM *,
 *						KIND framework, VALUE its errno,
 *						then its reason in words
 *	why-walk TOKEN refused K R LSM ERRNO HOOK	the walk that failed the call
 *	why-walk TOKEN unrefused K WORDS	no LSM refused it, and why
 *	why-walk end TOKEN N			N calls
 *
 * A module on no line of a row was not on that hook (or, in an open
 * row, the trace does not say).  TOKEN is drawn after the command has
 * ended, so that nothing the command printed can pass for the table.
 *
 * The refusals come from the trace, not from the modules' audit records.
 * Those are rate-limited: when toylsm's limit (10 records per 5 s for
 * each subject label) suppressed records while the command ran, why says
 * how many (toylsm's stats, the SUPPRESSED column, summed), so that a
 * reader of the audit log knows it is short.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/lsm_trace.h"
#include "kit/toylsm_files.h"

/*
 * The trace: tracefs (WHY_TRACEFS=DIR elsewhere: the tests' missing
 * events), the active modules, the calls as they end.
 */
static struct lsm_trace trace;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("why: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static bool opt_void;

static void tfs_must(const char *name, const char *val)
{
	int err = lsm_trace_write(&trace, name, val);

	if (err)
		die("cannot write '%s' to %s: %s", val,
		    trace.path[trace.pathi], strerror(err));
}

static void events_set(const char *v)
{
	if (lsm_trace_events(&trace, v, opt_void))
		die("%s", trace.err);
}

/* Options */
static const char *f_comm, *f_hook, *f_sys;
static int f_pid;
static bool opt_all, opt_verbose;

/* -t: the walk tables, printed after the text (see the top) */
static FILE *table;
static char *table_buf;
static size_t table_len;
static char token[17];

/* Counts for the closing lines */
static int n_calls, n_failed, n_refused, n_shown, n_inside;

static void print_walk(const struct lsm_trace_walk *w)
{
	char vb[32], line[512], skipped[300];
	size_t n = 0;
	int i;

	lsm_trace_commas(w->skipped, skipped, sizeof(skipped));
	n += snprintf(line + n, sizeof(line) - n, "    %-22s", w->hook);
	if (w->framework) {
		snprintf(line + n, sizeof(line) - n,
			 " (the framework) %s   | no module asked: %s",
			 lsm_trace_verdict(w->ret, vb, sizeof(vb)), w->reason);
		puts(line);
		return;
	}
	for (i = 0; i < w->nans && n < sizeof(line); i++) {
		const char *v = lsm_trace_not_refusal(w->hook, w->ans[i].ret);

		n += snprintf(line + n, sizeof(line) - n, " %s %s%s",
			      w->ans[i].lsm,
			      w->is_void ? "called" :
			      v ? v : lsm_trace_verdict(w->ans[i].ret, vb, sizeof(vb)),
			      i + 1 < w->nans ? "," : "");
	}
	if (w->alone && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   (asked alone, not in a walk)");
	else if (w->is_void && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   (returns nothing)");
	else if (!w->ended && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n,
			      "   | the walk's end is not in the trace");
	else if (w->skipped[0] && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   | never asked: %s",
			      skipped);
	else if (w->stop[0] && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n,
			      "   | %s was the last module on the hook", w->stop);
	else if (n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   | all asked");
	puts(line);
}

/* Hook by hook: who was asked, who said no, who was never asked. */
static void print_hooks(const struct lsm_trace_call *c)
{
	char line[1024];
	int i, j;

	for (i = 0; i < c->nw; i++) {
		for (j = 0; j < i && strcmp(c->w[j].hook, c->w[i].hook); j++)
			;
		if (j < i || (c->w[i].is_void && !opt_void))
			continue;
		printf("  %s\n", lsm_trace_hook_line(c, c->w[i].hook, line, sizeof(line)));
	}
}

static bool hook_matches(const struct lsm_trace_call *c)
{
	int i;

	if (!f_hook)
		return true;
	for (i = 0; i < c->nw; i++)
		if (strcmp(c->w[i].hook, f_hook) == 0)
			return true;
	return false;
}

/* Whether @lsm is one of the @n names of @cols. */
static bool in_cols(char cols[][LSM_TRACE_NAME], int n, const char *lsm)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(cols[i], lsm) == 0)
			return true;
	return false;
}

/* Add @lsm to the columns if it is not there yet. */
static int add_col(char cols[][LSM_TRACE_NAME], int n, int max, const char *lsm)
{
	if (!lsm[0] || n == max || in_cols(cols, n, lsm))
		return n;
	snprintf(cols[n], LSM_TRACE_NAME, "%s", lsm);
	return n + 1;
}

/*
 * -t: call @c's walk table, as call number @k (the format is at the top
 * of this file).  The cells say what lsm_trace.h read: an answer is yes,
 * no, or not a refusal by lsm_trace_not_refusal(); the modules the walk's
 * end names as not called are "never asked".
 */
static void table_call(const struct lsm_trace *t, const struct lsm_trace_call *c,
		       const struct lsm_trace_walk *d, int k)
{
	enum { MAXCOLS = 32 };
	char cols[MAXCOLS][LSM_TRACE_NAME], buf[256], vb[32], why[768], *tok, *save;
	const struct lsm_trace_answer *a;
	int ncols = 0, i, j, r = 0, rd = 0;

	snprintf(buf, sizeof(buf), "%s", t->active);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		ncols = add_col(cols, ncols, MAXCOLS, tok);
	for (i = 0; i < c->nw; i++) {
		const struct lsm_trace_walk *w = &c->w[i];

		for (j = 0; j < w->nans && !w->framework; j++)
			ncols = add_col(cols, ncols, MAXCOLS, w->ans[j].lsm);
		snprintf(buf, sizeof(buf), "%s", w->skipped);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			ncols = add_col(cols, ncols, MAXCOLS, tok);
	}
	fprintf(table, "why-walk %s call %d %d %s %ld %s %s\n", token, k, c->pid,
		c->sys[0] ? c->sys : "?", c->done ? c->ret : 0,
		!c->done ? "unfinished" : c->ret < 0 && c->ret > -4096 ?
		lsm_trace_verdict(c->ret, vb, sizeof(vb)) : "ok", c->comm);
	fprintf(table, "why-walk %s cols %d", token, k);
	for (i = 0; i < ncols; i++)
		fprintf(table, " %s", cols[i]);
	fputc('\n', table);
	for (i = 0; i < c->nw; i++) {
		const struct lsm_trace_walk *w = &c->w[i];

		if (w->is_void && !opt_void)
			continue;
		r++;
		if (w == d)
			rd = r;
		fprintf(table, "why-walk %s row %d %d %s %s\n", token, k, r, w->hook,
			w->framework ? "framework" : w->is_void ? "void" :
			w->alone ? "alone" : !w->ended ? "open" : "walk");
		if (w->framework) {
			fprintf(table, "why-walk %s cell %d %d * framework %s %s\n", token, k, r,
				lsm_trace_verdict(w->ret, vb, sizeof(vb)),
				w->reason[0] ? w->reason : "no reason given");
			continue;
		}
		for (j = 0; j < w->nans; j++) {
			int ret = w->ans[j].ret;

			fprintf(table, "why-walk %s cell %d %d %s %s %s\n", token, k, r,
				w->ans[j].lsm,
				w->is_void ? "called" : ret == 0 ? "yes" : ret > 0 ? "value" :
				lsm_trace_not_refusal(w->hook, ret) ? "notref" : "no",
				w->is_void ? "-" : lsm_trace_verdict(ret, vb, sizeof(vb)));
		}
		snprintf(buf, sizeof(buf), "%s", w->skipped);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			fprintf(table, "why-walk %s cell %d %d %s never -\n", token, k, r, tok);
	}
	a = d ? lsm_trace_refusal(d) : NULL;
	if (a)
		fprintf(table, "why-walk %s refused %d %d %s %s %s\n", token, k, rd, a->lsm,
			lsm_trace_verdict(a->ret, vb, sizeof(vb)), d->hook);
	else if (lsm_trace_no_refusal(c, why, sizeof(why)))
		fprintf(table, "why-walk %s unrefused %d %s\n", token, k, why);
}

/* A system call has ended (or the trace has): count it, show it. */
static void end_call(struct lsm_trace *t, struct lsm_trace_call *c)
{
	const struct lsm_trace_walk *d;
	const struct lsm_trace_answer *a;
	char vb[32], eb[24], skipped[300], why[768];
	bool show, inside;
	int i, n;

	n_calls++;
	if (c->done && c->ret < 0)
		n_failed++;
	d = lsm_trace_decider(c);
	if (d)
		n_refused++;
	if (f_comm && strcmp(c->comm, f_comm) != 0)
		return;
	if (f_pid && c->pid != f_pid)
		return;
	if (f_sys && strcmp(c->sys, f_sys) != 0)
		return;
	if (!hook_matches(c))
		return;
	/*
	 * A refusal that did not fail the call (a capable() the kernel
	 * could do without, in a call that succeeded or failed otherwise)
	 * is shown with -a only.
	 */
	inside = !d && lsm_trace_any_refusal(c);
	if (inside)
		n_inside++;
	show = d || opt_all || f_hook || f_sys;
	if (!show || !c->nw)
		return;
	n_shown++;
	if (c->done)
		printf("%s[%d] %s = %ld%s%s\n", c->comm, c->pid,
		       c->sys[0] ? c->sys : "?", c->ret, c->ret < 0 ? " " : "",
		       c->ret < 0 && c->ret > -4096 ?
		       lsm_trace_errname((int)-c->ret, eb, sizeof(eb)) : "");
	else
		printf("%s[%d] %s (did not return while traced)\n", c->comm,
		       c->pid, c->sys[0] ? c->sys : "(before its first system call)");
	for (i = 0; i < c->nw; i++) {
		const struct lsm_trace_walk *w = &c->w[i];

		if (!opt_verbose && w != d && !lsm_trace_refusal(w) && !w->framework &&
		    !(f_hook && strcmp(w->hook, f_hook) == 0))
			continue;
		if (w->is_void && !opt_void)
			continue;
		print_walk(w);
	}
	if (d) {
		a = lsm_trace_refusal(d);
		lsm_trace_commas(d->skipped[0] ? d->skipped : "none", skipped,
				 sizeof(skipped));
		printf("  => refused by %s in %s: %s; never asked in %s: %s\n",
		       a->lsm, d->hook, lsm_trace_verdict(a->ret, vb, sizeof(vb)),
		       d->hook, skipped);
		n = lsm_trace_candidates(c);
		if (n > 1)
			printf("  (%d answers ended a walk of this call with %s: why names the last to end; the trace does not say which one the kernel returned)\n",
			       n, lsm_trace_verdict(a->ret, vb, sizeof(vb)));
	} else if (lsm_trace_no_refusal(c, why, sizeof(why))) {
		printf("  => no LSM refused: %s\n", why);
	} else if (!c->done) {
		printf("  => no LSM refused (so far): the call did not return while traced\n");
	} else if (c->ret < 0 && c->ret > -4096) {
		printf("  => no LSM refused\n");
	} else {
		printf("  => succeeded: no LSM refused\n");
	}
	print_hooks(c);
	if (t->active[0]) {
		lsm_trace_not_asked(t, c, skipped, sizeof(skipped));
		printf("  asked in no hook of this call: %s\n",
		       skipped[0] ? skipped : "none");
	}
	if (table)
		table_call(t, c, d, n_shown);
}

static void lost_events(void)
{
	char path[128], line[128];
	unsigned long lost = 0;
	FILE *f;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", cpu);
		f = fopen(lsm_trace_path(&trace, path), "re");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "overrun: ", 9) == 0)
				lost += strtoul(line + 9, NULL, 10);
		fclose(f);
	}
	if (lost)
		printf("why: the trace buffer overflowed, %lu event(s) lost: give a larger -b KB (per CPU)\n",
		       lost);
}

static void usage(FILE *f, int status)
{
	fputs("usage: why [-a] [-v] [-V] [-t] [-b KB] [-c COMM] [-p PID] [-k HOOK] [-s SYSCALL] CMD [ARG...]\n"
	      "Run CMD with the kernel's LSM events on, then show, for each system call an\n"
	      "LSM refused, the modules asked in each hook, their answers, who said no and\n"
	      "who was never asked.\n"
	      "  -a          every system call in which a module was asked, not only refusals\n"
	      "  -v          every hook walk of the calls shown, not only the refusing ones\n"
	      "  -V          also the hooks that return nothing (lsm_void_hook)\n"
	      "  -t          then the walk table of each call shown, one line per cell\n"
	      "              (\"why-walk ...\" lines: make why SVG=FILE draws them)\n"
	      "  -b KB       trace buffer per CPU (default 4096)\n"
	      "  -c COMM     only tasks with this command name\n"
	      "  -p PID      only this pid\n"
	      "  -k HOOK     only system calls that walked HOOK (e.g. file_open), and its walks\n"
	      "  -s SYSCALL  only this system call (e.g. openat)\n", f);
	exit(status);
}

int main(int argc, char **argv)
{
	char buf[64];
	const char *bufkb = "4096";
	int opt, pipefd[2], status, err;
	long suppressed;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+avVtb:c:p:k:s:h")) != -1) {
		switch (opt) {
		case 'a':
			opt_all = true;
			break;
		case 'v':
			opt_verbose = true;
			break;
		case 'V':
			opt_void = true;
			break;
		case 't':
			table = open_memstream(&table_buf, &table_len);
			if (!table)
				die("out of memory");
			break;
		case 'b':
			bufkb = optarg;
			break;
		case 'c':
			f_comm = optarg;
			break;
		case 'p':
			f_pid = atoi(optarg);
			break;
		case 'k':
			f_hook = optarg;
			break;
		case 's':
			f_sys = optarg;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind >= argc)
		usage(stderr, 2);
	if (atoi(bufkb) <= 0)
		die("-b wants a size in KB, not '%s'", bufkb);
	if (f_pid < 0)
		die("-p wants a pid");

	trace.tracefs = getenv("WHY_TRACEFS");
	trace.on_call = end_call;
	if (lsm_trace_ready(&trace))
		die("%s Nothing was run.", trace.err);
	tfs_must("tracing_on", "0");
	events_set("0");
	tfs_must("trace", "");
	tfs_must("buffer_size_kb", bufkb);
	tfs_must("options/event-fork", "1");

	/* -1 without toylsm (or its stats): nothing said */
	suppressed = toylsm_stats_suppressed(NULL);
	if (pipe2(pipefd, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		char go;

		close(pipefd[1]);
		if (read(pipefd[0], &go, 1) != 1)
			_exit(127);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "why: cannot run %s: %s\n", argv[optind],
			strerror(errno));
		_exit(127);
	}
	close(pipefd[0]);
	trace.root_pid = pid;
	snprintf(buf, sizeof(buf), "%d", pid);
	tfs_must("set_event_pid", buf);
	events_set("1");
	tfs_must("tracing_on", "1");
	if (write(pipefd[1], "g", 1) != 1)
		die("cannot start the command: %s", strerror(errno));
	close(pipefd[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	tfs_must("tracing_on", "0");
	events_set("0");
	lsm_trace_write(&trace, "set_event_pid", "");
	if (suppressed >= 0)
		suppressed = toylsm_stats_suppressed(NULL) - suppressed;

	if (table) {
		unsigned char rnd[8];

		/* Drawn now: the command, which has ended, cannot know it. */
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			die("getrandom: %s", strerror(errno));
		for (opt = 0; opt < (int)sizeof(rnd); opt++)
			snprintf(token + 2 * opt, 3, "%02x", rnd[opt]);
	}
	fflush(stdout);
	printf("---- why: %s", argv[optind]);
	for (opt = optind + 1; opt < argc; opt++)
		printf(" %s", argv[opt]);
	printf(" ----\n");
	err = lsm_trace_read(&trace);
	if (err)
		die("cannot read %s: %s", lsm_trace_path(&trace, "trace"), strerror(err));
	if (trace.too_many)
		die("more than %d tasks in the trace; use -p or -c", LSM_TRACE_MAX_TASKS);
	if (trace.no_memory)
		die("out of memory: some hook walks are missing above");
	lost_events();
	if (suppressed > 0)
		printf("why: toylsm suppressed %ld audit record(s) of its denials while the command ran (by any task: at most 10 records per 5 s for each subject label; its stats count every denial): the audit log is short of them, the trace above is not\n",
		       suppressed);
	if (n_inside && !opt_all)
		printf("why: %d call(s) with a refusal that did not fail them (e.g. a capable() check the kernel could do without): -a shows them\n",
		       n_inside);
	if (!trace.root_started)
		die("the trace has no execve() of the command (pid %d): nothing to show", pid);
	if (!trace.n_lsm_events)
		die("the trace has no LSM event at all for the command: the lsm:* events were enabled but none fired");
	printf("---- %d system call(s), %d failed, %d with a refusal by an LSM, %d shown; %s %s %d ----\n",
	       n_calls, n_failed, n_refused, n_shown, argv[optind],
	       WIFEXITED(status) ? "exited with status" : "was killed by signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	if (table) {
		if (fclose(table))
			die("the walk table: %s", strerror(errno));
		printf("why-walk begin %s\n%swhy-walk end %s %d\n", token,
		       table_buf ? table_buf : "", token, n_shown);
		free(table_buf);
	}
	return 0;
}
