// SPDX-License-Identifier: GPL-2.0
/*
 * why: run a command with the LSM events of the kit's kernel on (patch
 * 0017, tracefs events lsm:*) and say, for each system call that an LSM
 * refused, which module said no, in which hook, with which errno, and
 * which modules were never asked.
 *
 *   why [-a] [-v] [-V] [-c COMM] [-p PID] [-k HOOK] [-s SYSCALL] CMD [ARG...]
 *
 * It is in every guest as /bin/why (initramfs/files.list); on the host:
 * make why CMD='cat /tmp/secret' APPEND='...'.
 *
 * How: the command's pid (and, by options/event-fork, its children's) goes
 * to set_event_pid; the events lsm:lsm_hook_call, lsm:lsm_hook_end and
 * lsm:lsm_interface and the syscalls:* events are enabled; after the
 * command has ended the trace file is read back and grouped by pid and
 * system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where tracefs is; WHY_TRACEFS=DIR elsewhere (the tests' missing events) */
static const char *tracefs = "/sys/kernel/tracing";

/* The path of @name in tracefs, in one of two static buffers. */
static const char *tpath(const char *name)
{
	static char buf[2][256];
	static int i;

	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tracefs, name);
	return buf[i];
}

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

/* Write @val to the tracefs file @name; 0 or an errno. */
static int tfs_write(const char *name, const char *val)
{
	int fd, err = 0;
	size_t len = strlen(val);

	fd = open(tpath(name), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, val, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static void tfs_must(const char *name, const char *val)
{
	int err = tfs_write(name, val);

	if (err)
		die("cannot write '%s' to %s: %s", val, tpath(name),
		    strerror(err));
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static const char *const lsm_events[] = {
	"events/lsm/lsm_hook_call", "events/lsm/lsm_hook_end",
	"events/lsm/lsm_interface", "events/lsm/lsm_void_hook",
};

/* Mount tracefs if it is not there; say clearly what is missing. */
static void tracefs_ready(void)
{
	size_t i;

	if (!exists(tpath("trace")) &&
	    mount("tracefs", tracefs, "tracefs", 0, NULL) != 0 &&
	    !exists(tpath("trace")))
		die("no tracefs at %s and mounting it failed (%s): this kernel was built without tracing (CONFIG_FTRACE, as in configs/kit.config), or you are not root. Nothing was run.",
		    tracefs, strerror(errno));
	for (i = 0; i < sizeof(lsm_events) / sizeof(lsm_events[0]); i++)
		if (!exists(tpath(lsm_events[i])))
			die("this kernel has no LSM events (%s is missing): it was built without the tracepoints of patch 0017 (LSM: Trace each module's answer in the hook walk). Nothing was run.",
			    tpath(lsm_events[i]));
	if (!exists(tpath("events/syscalls")))
		die("this kernel has no syscall events (%s is missing): it needs CONFIG_FTRACE_SYSCALLS. Nothing was run.",
		    tpath("events/syscalls"));
}

/* The events this tool turns on, and off again at the end. */
static const char *const events[] = {
	"events/lsm/lsm_hook_call/enable",
	"events/lsm/lsm_hook_end/enable",
	"events/lsm/lsm_interface/enable",
	"events/syscalls/enable",
};

static bool opt_void;

static void events_set(const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		tfs_must(events[i], v);
	if (opt_void || v[0] == '0')
		tfs_must("events/lsm/lsm_void_hook/enable", v);
}

/* ---- errno names ---- */

static const char *errname(int e, char *buf, size_t len)
{
	const char *n;

	switch (e) {	/* the kernel's own, which user space never sees */
	case 512: return "ERESTARTSYS";
	case 519: return "ENOPARAM";
	case 524: return "ENOTSUPP";
	}
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, len, "errno %d", e);
	return buf;
}

/* A module's answer, in words: ok, an errno's name, or the number. */
static const char *verdict(long ret, char *buf, size_t len)
{
	char eb[24];

	if (ret == 0)
		return "ok";
	if (ret < 0 && ret > -4096) {
		snprintf(buf, len, "%s", errname((int)-ret, eb, sizeof(eb)));
		return buf;
	}
	snprintf(buf, len, "%ld", ret);
	return buf;
}

/* ---- what was traced, grouped ---- */

#define NAME_LEN 40
#define MAX_ANS 16

struct answer {
	char lsm[NAME_LEN];
	int ret;
};

struct walk {
	char hook[NAME_LEN];
	struct answer ans[MAX_ANS];
	int nans;
	bool ended;		/* lsm_hook_end seen */
	bool alone;		/* lsm_interface: one module asked */
	int ret;
	unsigned long seq;	/* when its last event came */
	char stop[NAME_LEN];	/* who ended it with a non-zero answer */
	char skipped[200];	/* who was never asked */
};

struct call {
	int pid;
	char comm[24];
	char sys[NAME_LEN];	/* "" before the first syscall event */
	long ret;
	bool done;
	struct walk *w;
	int nw, cap;
};

#define MAX_TASKS 256
static struct call tasks[MAX_TASKS];
static int ntasks;

/* Options */
static const char *f_comm, *f_hook, *f_sys;
static int f_pid;
static bool opt_all, opt_verbose;

/* The active modules, from securityfs, in order; and an event counter */
static char active[256];
static unsigned long seq;

/* Counts for the closing lines */
static int n_calls, n_failed, n_refused, n_shown, n_lsm_events, n_inside;

static struct call *task_of(int pid, const char *comm)
{
	int i;

	for (i = 0; i < ntasks; i++)
		if (tasks[i].pid == pid)
			break;
	if (i == ntasks) {
		if (ntasks == MAX_TASKS)
			die("more than %d tasks in the trace; use -p or -c", MAX_TASKS);
		ntasks++;
		memset(&tasks[i], 0, sizeof(tasks[i]));
		tasks[i].pid = pid;
	}
	/* A call keeps the name its task had when it began (execve). */
	if (!tasks[i].sys[0] && !tasks[i].nw)
		snprintf(tasks[i].comm, sizeof(tasks[i].comm), "%s", comm);
	return &tasks[i];
}

static struct walk *new_walk(struct call *c, const char *hook)
{
	struct walk *w;

	if (c->nw == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->w = realloc(c->w, c->cap * sizeof(*c->w));
		if (!c->w)
			die("out of memory");
	}
	w = &c->w[c->nw++];
	memset(w, 0, sizeof(*w));
	snprintf(w->hook, sizeof(w->hook), "%s", hook);
	return w;
}

/* The innermost walk of @hook that has not ended, or NULL. */
static struct walk *open_walk(struct call *c, const char *hook)
{
	int i;

	for (i = c->nw - 1; i >= 0; i--)
		if (!c->w[i].ended && !c->w[i].alone &&
		    strcmp(c->w[i].hook, hook) == 0)
			return &c->w[i];
	return NULL;
}

/* "a,b,c" as "a, b, c" */
static void commas(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 3 < len; in++) {
		out[n++] = *in;
		if (*in == ',')
			out[n++] = ' ';
	}
	out[n] = '\0';
}

/*
 * A negative answer that is not a refusal, in words, or NULL: the hooks
 * whose walk goes on past "not mine" (their default is an errno), and
 * -ECHILD from a path walk under RCU, which the kernel retries with
 * references (the module could not decide without sleeping).
 */
static const char *not_refusal(const char *hook, int ret)
{
	if (ret == -ECHILD && (strcmp(hook, "inode_permission") == 0 ||
			       strcmp(hook, "inode_follow_link") == 0))
		return "ECHILD (undecided under RCU: the lookup is retried)";
	if ((ret == -ENOSYS && strcmp(hook, "task_prctl") == 0) ||
	    (ret == -EOPNOTSUPP && (strcmp(hook, "inode_getsecurity") == 0 ||
				    strcmp(hook, "inode_setsecurity") == 0)) ||
	    (ret == -519 && strcmp(hook, "fs_context_parse_param") == 0))
		return "not mine";
	return NULL;
}

/* Did a module refuse (a negative answer) in this walk? */
static const struct answer *refusal(const struct walk *w)
{
	int i;

	for (i = 0; i < w->nans; i++)
		if (w->ans[i].ret < 0 && !not_refusal(w->hook, w->ans[i].ret))
			return &w->ans[i];
	return NULL;
}

static void print_walk(const struct walk *w)
{
	char vb[32], line[512], skipped[300];
	size_t n = 0;
	int i;

	commas(w->skipped, skipped, sizeof(skipped));
	n += snprintf(line + n, sizeof(line) - n, "    %-22s", w->hook);
	for (i = 0; i < w->nans && n < sizeof(line); i++) {
		const char *v = not_refusal(w->hook, w->ans[i].ret);

		n += snprintf(line + n, sizeof(line) - n, " %s %s%s",
			      w->ans[i].lsm,
			      v ? v : verdict(w->ans[i].ret, vb, sizeof(vb)),
			      i + 1 < w->nans ? "," : "");
	}
	if (w->alone && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n,
			      "   (asked alone: the task's interface LSM)");
	else if (w->skipped[0] && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   | never asked: %s",
			      skipped);
	else if (w->ended && w->stop[0] && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n,
			      "   | %s was the last module on the hook", w->stop);
	else if (w->ended && n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, "   | all asked");
	puts(line);
}

/* The refusal that decided the call: the last one with the call's errno,
 * else the last one. */
static const struct walk *decider(const struct call *c)
{
	const struct walk *last = NULL, *same = NULL;
	const struct answer *a;
	int i;

	/* By the walks' last events: a walk (capable) inside a module's
	 * hook (Yama's ptrace_access_check) ends before the outer one. */
	for (i = 0; i < c->nw; i++) {
		a = refusal(&c->w[i]);
		if (!a)
			continue;
		if (!last || c->w[i].seq > last->seq)
			last = &c->w[i];
		if (c->ret < 0 && a->ret == c->ret &&
		    (!same || c->w[i].seq > same->seq))
			same = &c->w[i];
	}
	return same ? same : last;
}

/* The active modules that no walk of @c asked, space separated. */
static void not_asked(const struct call *c, char *out, size_t len)
{
	char mods[256], *tok, *save;
	size_t n = 0;
	bool seen;
	int i, j;

	out[0] = '\0';
	snprintf(mods, sizeof(mods), "%s", active);
	for (tok = strtok_r(mods, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save)) {
		seen = false;
		for (i = 0; i < c->nw && !seen; i++)
			for (j = 0; j < c->w[i].nans && !seen; j++)
				seen = strcmp(c->w[i].ans[j].lsm, tok) == 0;
		if (!seen && n < len)
			n += snprintf(out + n, len - n, "%s%s", n ? ", " : "", tok);
	}
}

static bool hook_matches(const struct call *c)
{
	int i;

	if (!f_hook)
		return true;
	for (i = 0; i < c->nw; i++)
		if (strcmp(c->w[i].hook, f_hook) == 0)
			return true;
	return false;
}

static void end_call(struct call *c)
{
	const struct walk *d;
	const struct answer *a;
	char vb[32], eb[24], skipped[300];
	bool show;
	int i;

	if (!c->sys[0] && !c->nw)
		return;
	n_calls++;
	if (c->done && c->ret < 0)
		n_failed++;
	d = decider(c);
	if (d)
		n_refused++;
	if (f_comm && strcmp(c->comm, f_comm) != 0)
		goto out;
	if (f_pid && c->pid != f_pid)
		goto out;
	if (f_sys && strcmp(c->sys, f_sys) != 0)
		goto out;
	if (!hook_matches(c))
		goto out;
	/* A refusal inside a call that succeeded (a capable() the kernel
	 * could do without) is shown with -a only. */
	if (d && c->done && c->ret >= 0)
		n_inside++;
	show = (d && (!c->done || c->ret < 0)) || opt_all || f_hook || f_sys;
	if (!show || !c->nw)
		goto out;
	n_shown++;
	if (c->done)
		printf("%s[%d] %s = %ld%s%s\n", c->comm, c->pid,
		       c->sys[0] ? c->sys : "?", c->ret, c->ret < 0 ? " " : "",
		       c->ret < 0 && c->ret > -4096 ?
		       errname((int)-c->ret, eb, sizeof(eb)) : "");
	else
		printf("%s[%d] %s (did not return while traced)\n", c->comm,
		       c->pid, c->sys[0] ? c->sys : "(before its first system call)");
	for (i = 0; i < c->nw; i++) {
		const struct walk *w = &c->w[i];

		if (!opt_verbose && w != d && !refusal(w) &&
		    !(f_hook && strcmp(w->hook, f_hook) == 0))
			continue;
		print_walk(w);
	}
	if (d) {
		a = refusal(d);
		commas(d->skipped[0] ? d->skipped : "none", skipped,
		       sizeof(skipped));
		printf("  => refused by %s in %s: %s; never asked: %s\n",
		       a->lsm, d->hook, verdict(a->ret, vb, sizeof(vb)),
		       skipped);
	} else {
		printf("  => no module refused\n");
	}
	if (active[0]) {
		not_asked(c, skipped, sizeof(skipped));
		printf("  not asked in this call at all: %s\n",
		       skipped[0] ? skipped : "none");
	}
out:
	free(c->w);
	c->w = NULL;
	c->nw = c->cap = 0;
	c->sys[0] = '\0';
	c->done = false;
	c->ret = 0;
}

/* ---- parsing the trace file ---- */

/* Copy the value of "key=" in @s (up to a space) into @out. */
static bool field(const char *s, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p, *e;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(s, pat);
	if (!p) {
		snprintf(pat, sizeof(pat), "%s=", key);
		if (strncmp(s, pat, strlen(pat)) != 0)
			return false;
		p = s + strlen(pat);
	} else {
		p += strlen(pat);
	}
	e = strchr(p, ' ');
	if (!e)
		e = p + strlen(p);
	while (e > p && (e[-1] == '\n'))
		e--;
	snprintf(out, len, "%.*s", (int)(e - p), p);
	return true;
}

static int root_pid;
static bool root_started;

static void parse_line(char *line)
{
	char comm[24], hook[NAME_LEN], lsm[NAME_LEN], num[32];
	char *br, *dash, *ev, *body;
	struct call *c;
	struct walk *w;
	int pid;

	if (line[0] == '#')
		return;
	/* "           <comm>-<pid>     [cpu] flags  ts: event: body" */
	br = strstr(line, " [");
	if (!br)
		return;
	*br = '\0';
	dash = strrchr(line, '-');
	if (!dash)
		return;
	*dash = '\0';
	pid = atoi(dash + 1);
	while (*line == ' ')
		line++;
	snprintf(comm, sizeof(comm), "%s", line);
	ev = strstr(br + 1, ": ");
	if (!ev)
		return;
	ev += 2;
	if (pid == root_pid && !root_started) {
		/* The command starts at its execve(); before it, this tool. */
		if (strncmp(ev, "sys_execve(", 11) != 0)
			return;
		root_started = true;
	}
	c = task_of(pid, comm);
	if (strncmp(ev, "sys_", 4) == 0) {
		char *paren = strchr(ev, '('), *arrow = strstr(ev, " -> ");

		if (arrow && (!paren || arrow < paren)) {
			/* exit: "sys_openat -> 0xfffffffffffffff3" */
			*arrow = '\0';
			snprintf(c->sys, sizeof(c->sys), "%s", ev + 4);
			c->ret = strtoul(arrow + 4, NULL, 16);
			c->done = true;
			end_call(c);
		} else if (paren) {
			/* entry: "sys_openat(dfd: ..." */
			end_call(c);
			snprintf(c->comm, sizeof(c->comm), "%s", comm);
			*paren = '\0';
			snprintf(c->sys, sizeof(c->sys), "%s", ev + 4);
		}
		return;
	}
	body = strchr(ev, ':');
	if (!body)
		return;
	*body++ = '\0';
	while (*body == ' ')
		body++;
	if (!field(body, "hook", hook, sizeof(hook)))
		return;
	n_lsm_events++;
	if (strcmp(ev, "lsm_hook_call") == 0) {
		if (!field(body, "lsm", lsm, sizeof(lsm)) ||
		    !field(body, "ret", num, sizeof(num)))
			return;
		w = open_walk(c, hook);
		if (!w)
			w = new_walk(c, hook);
		w->seq = ++seq;
		if (w->nans < MAX_ANS) {
			snprintf(w->ans[w->nans].lsm, NAME_LEN, "%s", lsm);
			w->ans[w->nans++].ret = atoi(num);
		}
		/* The capability rule after an xattr walk has no end event. */
		if (strncmp(lsm, "capability", 10) == 0 &&
		    (strcmp(hook, "inode_setxattr") == 0 ||
		     strcmp(hook, "inode_removexattr") == 0) && w->nans == 1 &&
		    c->nw >= 2 && c->w[c->nw - 2].ended)
			w->ended = true;
	} else if (strcmp(ev, "lsm_hook_end") == 0) {
		char asked[16];

		if (!field(body, "asked", asked, sizeof(asked)))
			return;
		w = open_walk(c, hook);
		if (!w) {
			if (atoi(asked) == 0)
				return;	/* a hook no module has */
			w = new_walk(c, hook);
		}
		w->ended = true;
		w->seq = ++seq;
		field(body, "ret", num, sizeof(num));
		w->ret = atoi(num);
		field(body, "lsm", w->stop, sizeof(w->stop));
		field(body, "skipped", w->skipped, sizeof(w->skipped));
	} else if (strcmp(ev, "lsm_interface") == 0 ||
		   strcmp(ev, "lsm_void_hook") == 0) {
		bool alone = ev[4] == 'i';

		field(body, "lsm", lsm, sizeof(lsm));
		w = new_walk(c, hook);
		w->alone = alone;
		w->ended = true;
		w->seq = ++seq;
		snprintf(w->ans[0].lsm, NAME_LEN, "%s", lsm[0] ? lsm : "(none)");
		if (alone) {
			field(body, "ret", num, sizeof(num));
			w->ans[0].ret = atoi(num);
		}
		w->nans = 1;
	}
}

static void lost_events(void)
{
	char path[128], line[128];
	unsigned long lost = 0;
	FILE *f;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", tracefs,
			 cpu);
		f = fopen(path, "re");
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
	fputs("usage: why [-a] [-v] [-V] [-b KB] [-c COMM] [-p PID] [-k HOOK] [-s SYSCALL] CMD [ARG...]\n"
	      "Run CMD with the kernel's LSM events on, then show, for each system call an\n"
	      "LSM refused, the modules asked in each hook, their answers, who said no and\n"
	      "who was never asked.\n"
	      "  -a          every system call in which a module was asked, not only refusals\n"
	      "  -v          every hook walk of the calls shown, not only the refusing ones\n"
	      "  -V          also the hooks that return nothing (lsm_void_hook)\n"
	      "  -b KB       trace buffer per CPU (default 4096)\n"
	      "  -c COMM     only tasks with this command name\n"
	      "  -p PID      only this pid\n"
	      "  -k HOOK     only system calls that walked HOOK (e.g. file_open), and its walks\n"
	      "  -s SYSCALL  only this system call (e.g. openat)\n", f);
	exit(status);
}

int main(int argc, char **argv)
{
	char buf[64], *line = NULL;
	const char *bufkb = "4096";
	int opt, pipefd[2], status;
	size_t cap = 0;
	pid_t pid;
	FILE *f;

	while ((opt = getopt(argc, argv, "+avVb:c:p:k:s:h")) != -1) {
		switch (opt) {
		case 'a': opt_all = true; break;
		case 'v': opt_verbose = true; break;
		case 'V': opt_void = true; break;
		case 'b': bufkb = optarg; break;
		case 'c': f_comm = optarg; break;
		case 'p': f_pid = atoi(optarg); break;
		case 'k': f_hook = optarg; break;
		case 's': f_sys = optarg; break;
		case 'h': usage(stdout, 0); break;
		default: usage(stderr, 2);
		}
	}
	if (optind >= argc)
		usage(stderr, 2);
	if (atoi(bufkb) <= 0)
		die("-b wants a size in KB, not '%s'", bufkb);
	if (f_pid < 0)
		die("-p wants a pid");

	if (getenv("WHY_TRACEFS"))
		tracefs = getenv("WHY_TRACEFS");
	tracefs_ready();
	f = fopen("/sys/kernel/security/lsm", "re");
	if (f) {
		if (!fgets(active, sizeof(active), f))
			active[0] = '\0';
		fclose(f);
	}
	tfs_must("tracing_on", "0");
	events_set("0");
	tfs_must("trace", "");
	tfs_must("buffer_size_kb", bufkb);
	tfs_must("options/event-fork", "1");

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
	root_pid = pid;
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
	tfs_write("set_event_pid", "");

	fflush(stdout);
	f = fopen(tpath("trace"), "re");
	if (!f)
		die("cannot read %s: %s", tpath("trace"), strerror(errno));
	printf("---- why: %s", argv[optind]);
	for (opt = optind + 1; opt < argc; opt++)
		printf(" %s", argv[opt]);
	printf(" ----\n");
	while (getline(&line, &cap, f) > 0)
		parse_line(line);
	fclose(f);
	free(line);
	for (opt = 0; opt < ntasks; opt++)
		end_call(&tasks[opt]);
	lost_events();
	if (n_inside && !opt_all)
		printf("why: %d call(s) succeeded with a refusal inside (e.g. a capable() check the kernel could do without): -a shows them\n",
		       n_inside);
	if (!root_started)
		die("the trace has no execve() of the command (pid %d): nothing to show", pid);
	if (!n_lsm_events)
		die("the trace has no LSM event at all for the command: the lsm:* events were enabled but none fired");
	printf("---- %d system call(s), %d failed, %d with a refusal by an LSM, %d shown; %s %s %d ----\n",
	       n_calls, n_failed, n_refused, n_shown, argv[optind],
	       WIFEXITED(status) ? "exited with status" : "was killed by signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}
