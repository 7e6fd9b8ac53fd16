/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who said no: the LSM events of the kit's kernel (patch 0017, tracefs
 * events lsm:lsm_hook_call, lsm_hook_end, lsm_interface, lsm_framework,
 * lsm_void_hook; their contract is in include/trace/events/lsm.h and
 * docs/walkthrough.md#the-events-contract), with the syscalls:* events,
 * read back and grouped by task and system call.  One parser for the
 * guest tool /bin/why (guest/tools/why.c) and the labs' graders
 * (labs/common/trace.h).
 *
 * Who refused a system call, by one rule and no guess: a module refused
 * it when its negative answer ended a walk (it is the walk's result) with
 * the errno the call returned, and that answer is not one of the answers
 * that mean "no value" or "not mine" (lsm_trace_not_refusal(): a
 * getprocattr EINVAL is "no such attribute", not a refusal).  When no
 * answer qualifies, no LSM refused the call: its error is the kernel's
 * own (file mode bits, a capability check whose failure the caller turned
 * into another errno, an argument...), a framework answer (lsm_framework,
 * which names no module), or a module's "no value".  When several answers
 * qualify, the one whose walk ended last is taken (an outer walk ends
 * after a walk inside it), and why says there were several.
 *
 * The parser (struct lsm_trace):
 *	lsm_trace_ready(t)		tracefs and the events are there, or
 *					-1 and t->err says what is missing
 *	lsm_trace_events(t, "1"|"0", void_too)	turn the events on or off
 *	lsm_trace_write(t, FILE, VAL)	write a tracefs file: 0 or an errno
 *	lsm_trace_parse_line(t, LINE)	one line of the trace file; each
 *					system call that ends goes to
 *					t->on_call(t, call), then is freed
 *	lsm_trace_flush(t)		the calls that did not end
 *	lsm_trace_decider(call)		the walk whose refusal failed the call,
 *					or NULL (see the rule above)
 *	lsm_trace_candidates(call)	how many walks the rule allowed (not
 *					counting one inside another)
 *	lsm_trace_refusal(walk)		the answer that ended a walk, if it is
 *					negative and a refusal; else NULL
 *	lsm_trace_no_refusal(call, ...)	why no LSM refused a failed call
 *	lsm_trace_hook_line(call, HOOK, ...)	in HOOK: who was asked (and
 *					answered what), who said no, who was
 *					never asked
 *	lsm_trace_not_asked(t, call)	the active modules no walk asked
 *
 * The recorder, for a grader step (events of this process and of the
 * children it forks, between start and stop):
 *	lsm_record_start(r)		0, or -1 and r->t.err says why
 *	lsm_record_stop(r)		the calls, in r->calls
 *	lsm_record_refused(r, ...)	"your open() was refused by smack in
 *					inode_permission (EACCES); ..."
 *	lsm_record_unrefused(r, ...)	"no LSM refused your open() (EACCES):
 *					..."
 *	lsm_record_answers(r, ...)	"your unlink() succeeded; in
 *					inode_unlink smack answered 0, ..."
 * Each says only what the trace shows, or returns NULL.
 */
#ifndef KIT_LSM_TRACE_H
#define KIT_LSM_TRACE_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define LSM_TRACE_NAME 40
#define LSM_TRACE_MAX_ANS 16
#define LSM_TRACE_MAX_TASKS 256
#define LSM_TRACE_DEFAULT_FS "/sys/kernel/tracing"

struct lsm_trace_answer {
	char lsm[LSM_TRACE_NAME];
	int ret;
};

struct lsm_trace_walk {
	char hook[LSM_TRACE_NAME];
	struct lsm_trace_answer ans[LSM_TRACE_MAX_ANS];
	int nans;
	bool ended;		/* lsm_hook_end seen (or a one-event walk) */
	bool alone;		/* lsm_interface: one module asked alone */
	/* lsm_framework, or a walk no module is on: no module was asked */
	bool framework;
	bool is_void;		/* lsm_void_hook: a module called, no answer */
	int ret;
	unsigned long first;	/* when its first event came */
	unsigned long seq;	/* when its last event came */
	char stop[LSM_TRACE_NAME];	/* whose answer ended it, "" if none */
	char skipped[200];	/* the modules on the hook it did not ask */
	char reason[120];	/* framework: why it answered itself */
};

struct lsm_trace_call {
	int pid;
	char comm[24];
	char sys[LSM_TRACE_NAME];	/* "" before the first syscall event */
	long ret;
	bool done;
	struct lsm_trace_walk *w;
	int nw, cap;
};

struct lsm_trace {
	const char *tracefs;		/* NULL: LSM_TRACE_DEFAULT_FS */
	char active[256];		/* /sys/kernel/security/lsm */
	struct lsm_trace_call tasks[LSM_TRACE_MAX_TASKS];
	int ntasks;
	bool too_many;			/* a task was left out */
	bool no_memory;			/* a walk was left out */
	unsigned long seq;
	int root_pid;			/* its events count from its execve() */
	bool root_started;
	int n_lsm_events;
	/*
	 * Called for each system call as it ends; may take c->w (set it
	 * NULL), which is freed otherwise.
	 */
	void (*on_call)(struct lsm_trace *t, struct lsm_trace_call *c);
	void *arg;
	char err[512];
	char path[2][256];
	int pathi;
};

/* The path of @name in tracefs, in one of two buffers of @t. */
static inline const char *lsm_trace_path(struct lsm_trace *t, const char *name)
{
	t->pathi ^= 1;
	snprintf(t->path[t->pathi], sizeof(t->path[0]), "%s/%s",
		 t->tracefs ? t->tracefs : LSM_TRACE_DEFAULT_FS, name);
	return t->path[t->pathi];
}

/* Write @val to the tracefs file @name; 0 or an errno. */
static inline int lsm_trace_write(struct lsm_trace *t, const char *name,
				  const char *val)
{
	int fd, err = 0;
	size_t len = strlen(val);

	fd = open(lsm_trace_path(t, name), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	errno = 0;
	if (write(fd, val, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static inline bool lsm_trace_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static const char *const lsm_trace_lsm_events[] = {
	"events/lsm/lsm_hook_call", "events/lsm/lsm_hook_end",
	"events/lsm/lsm_interface", "events/lsm/lsm_framework",
	"events/lsm/lsm_void_hook",
};

/*
 * Mount tracefs if it is not there; 0, or -1 with what is missing in
 * t->err.  Also reads the active modules into t->active.
 */
static inline int lsm_trace_ready(struct lsm_trace *t)
{
	const char *fs = t->tracefs ? t->tracefs : LSM_TRACE_DEFAULT_FS;
	FILE *f;
	size_t i;

	if (!lsm_trace_exists(lsm_trace_path(t, "trace")) &&
	    mount("tracefs", fs, "tracefs", 0, NULL) != 0 &&
	    !lsm_trace_exists(lsm_trace_path(t, "trace"))) {
		snprintf(t->err, sizeof(t->err),
			 "no tracefs at %s and mounting it failed (%s): this kernel was built without tracing (CONFIG_FTRACE, as in configs/kit.config), or you are not root.",
			 fs, strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(lsm_trace_lsm_events) / sizeof(lsm_trace_lsm_events[0]); i++)
		if (!lsm_trace_exists(lsm_trace_path(t, lsm_trace_lsm_events[i]))) {
			snprintf(t->err, sizeof(t->err),
				 "this kernel has no LSM events (%s is missing): it was built without the tracepoints of patch 0017 (LSM: Trace each module's answer in the hook walk).",
				 lsm_trace_path(t, lsm_trace_lsm_events[i]));
			return -1;
		}
	if (!lsm_trace_exists(lsm_trace_path(t, "events/syscalls"))) {
		snprintf(t->err, sizeof(t->err),
			 "this kernel has no syscall events (%s is missing): it needs CONFIG_FTRACE_SYSCALLS.",
			 lsm_trace_path(t, "events/syscalls"));
		return -1;
	}
	f = fopen("/sys/kernel/security/lsm", "re");
	if (f) {
		if (!fgets(t->active, sizeof(t->active), f))
			t->active[0] = '\0';
		fclose(f);
	}
	t->active[strcspn(t->active, "\n")] = '\0';
	return 0;
}

/*
 * The events a trace needs, turned on ("1") or off ("0"), the hooks
 * that return nothing (lsm_void_hook) with @void_too or when turning
 * off; 0, or -1 with t->err.
 */
static inline int lsm_trace_events(struct lsm_trace *t, const char *v, bool void_too)
{
	static const char *const events[] = {
		"events/lsm/lsm_hook_call/enable",
		"events/lsm/lsm_hook_end/enable",
		"events/lsm/lsm_interface/enable",
		"events/lsm/lsm_framework/enable",
		"events/syscalls/enable",
		"events/lsm/lsm_void_hook/enable",
	};
	size_t i, n = sizeof(events) / sizeof(events[0]);
	int err;

	if (!void_too && v[0] != '0')
		n--;
	for (i = 0; i < n; i++) {
		err = lsm_trace_write(t, events[i], v);
		if (err) {
			snprintf(t->err, sizeof(t->err), "cannot write '%s' to %s: %s",
				 v, lsm_trace_path(t, events[i]), strerror(err));
			return -1;
		}
	}
	return 0;
}

/* ---- errno names ---- */

static inline const char *lsm_trace_errname(int e, char *buf, size_t len)
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
static inline const char *lsm_trace_verdict(long ret, char *buf, size_t len)
{
	char eb[24];

	if (ret == 0)
		return "ok";
	if (ret < 0 && ret > -4096) {
		snprintf(buf, len, "%s", lsm_trace_errname((int)-ret, eb, sizeof(eb)));
		return buf;
	}
	snprintf(buf, len, "%ld", ret);
	return buf;
}

/* "a,b,c" as "a, b, c" */
static inline void lsm_trace_commas(const char *in, char *out, size_t len)
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
 * whose walk goes on past "not mine" (their default is an errno), the
 * answers that mean "I have no such value" (a getprocattr EINVAL: the
 * module has no such attribute; SO_PEERSEC's ENOPROTOOPT: it has no label
 * for the peer), and -ECHILD from a path walk under RCU, which the kernel
 * retries with references (the module could not decide without sleeping).
 */
static inline const char *lsm_trace_not_refusal(const char *hook, int ret)
{
	if (ret == -ECHILD && (strcmp(hook, "inode_permission") == 0 ||
			       strcmp(hook, "inode_follow_link") == 0))
		return "ECHILD (undecided under RCU: the lookup is retried)";
	if (ret == -EINVAL && strcmp(hook, "getprocattr") == 0)
		return "EINVAL (no such value: not a refusal)";
	if (ret == -ENOPROTOOPT && (strcmp(hook, "socket_getpeersec_stream") == 0 ||
				    strcmp(hook, "socket_getpeersec_dgram") == 0))
		return "ENOPROTOOPT (no label for the peer: not a refusal)";
	if ((ret == -ENOSYS && strcmp(hook, "task_prctl") == 0) ||
	    (ret == -EOPNOTSUPP && (strcmp(hook, "inode_getsecurity") == 0 ||
				    strcmp(hook, "inode_setsecurity") == 0 ||
				    strcmp(hook, "inode_getsecctx") == 0 ||
				    strcmp(hook, "dentry_init_security") == 0 ||
				    strcmp(hook, "inode_copy_up_xattr") == 0)) ||
	    ((ret == -EINVAL || ret == -ENOENT || ret == -EOPNOTSUPP) &&
	     strcmp(hook, "audit_rule_init") == 0) ||
	    (ret == -519 && strcmp(hook, "fs_context_parse_param") == 0))
		return "not mine";
	return NULL;
}

/*
 * The answer that ended walk @w, if it is negative and a refusal: the
 * answer of the module the walk's end names (or of the one module asked
 * alone).  NULL for a walk that did not end in the trace, that no
 * module's answer ended, that the framework answered, or whose ending
 * answer means "no value" or "not mine".
 */
static inline const struct lsm_trace_answer *
lsm_trace_refusal(const struct lsm_trace_walk *w)
{
	const struct lsm_trace_answer *a = NULL;
	int i;

	if (!w->ended || w->framework || w->is_void || !w->nans)
		return NULL;
	if (w->alone) {
		a = &w->ans[0];
	} else {
		if (!w->stop[0])
			return NULL;
		for (i = w->nans - 1; i >= 0 && !a; i--)
			if (strcmp(w->ans[i].lsm, w->stop) == 0)
				a = &w->ans[i];
	}
	if (!a || a->ret >= 0 || lsm_trace_not_refusal(w->hook, a->ret))
		return NULL;
	return a;
}

/* Whether walk @w refused with @ret: its ending answer is that refusal. */
static inline bool lsm_trace_refused_with(const struct lsm_trace_walk *w, long ret)
{
	const struct lsm_trace_answer *a = lsm_trace_refusal(w);

	return a && a->ret == ret;
}

/*
 * The walks whose refusal has the errno call @c failed with: the one that
 * ended last (an outer walk ends after the walks inside its modules'
 * hooks: Yama's ptrace_access_check after its capable()), and how many
 * there are that no other one encloses (its first and last events inside
 * the other's).
 */
static inline int lsm_trace_candidates_of(const struct lsm_trace_call *c,
					  const struct lsm_trace_walk **last)
{
	const struct lsm_trace_walk *w, *o;
	int i, j, n = 0;

	*last = NULL;
	if (!c->done || c->ret >= 0)
		return 0;
	for (i = 0; i < c->nw; i++) {
		w = &c->w[i];
		if (!lsm_trace_refused_with(w, c->ret))
			continue;
		if (!*last || w->seq > (*last)->seq)
			*last = w;
		for (j = 0; j < c->nw; j++) {
			o = &c->w[j];
			if (j != i && o->first < w->first && o->seq > w->seq &&
			    lsm_trace_refused_with(o, c->ret))
				break;
		}
		n += j == c->nw;
	}
	return n;
}

/*
 * The walk whose refusal failed call @c: one whose ending answer is a
 * refusal with the errno the call returned (the last of them to end);
 * NULL if the call did not fail, or no module refused it.
 */
static inline const struct lsm_trace_walk *
lsm_trace_decider(const struct lsm_trace_call *c)
{
	const struct lsm_trace_walk *d;

	lsm_trace_candidates_of(c, &d);
	return d;
}

/* How many walks of @c could have failed it (lsm_trace_decider()'s rule). */
static inline int lsm_trace_candidates(const struct lsm_trace_call *c)
{
	const struct lsm_trace_walk *d;

	return lsm_trace_candidates_of(c, &d);
}

/* Whether any walk of @c ended with a module's refusal (any errno). */
static inline bool lsm_trace_any_refusal(const struct lsm_trace_call *c)
{
	int i;

	for (i = 0; i < c->nw; i++)
		if (lsm_trace_refusal(&c->w[i]))
			return true;
	return false;
}

/*
 * Why no LSM refused call @c, which failed, in words (no leading "no LSM
 * refused"): a framework answer or a module's "no value" with the call's
 * errno, or else that the errno is the kernel's own.  NULL if the call
 * did not fail or a module refused it.
 */
static inline const char *lsm_trace_no_refusal(const struct lsm_trace_call *c,
					       char *buf, size_t len)
{
	const struct lsm_trace_walk *w, *fw = NULL, *nv = NULL;
	const struct lsm_trace_answer *a = NULL;
	char eb[24], vb[32];
	const char *en;
	int i, j;

	if (!c->done || c->ret >= 0 || c->ret <= -4096 || lsm_trace_decider(c))
		return NULL;
	for (i = 0; i < c->nw; i++) {
		w = &c->w[i];
		if (!w->ended || w->is_void)
			continue;
		if (w->framework && w->ret == c->ret && (!fw || w->seq > fw->seq))
			fw = w;
		for (j = 0; j < w->nans && !w->framework; j++)
			if (w->ans[j].ret == c->ret &&
			    lsm_trace_not_refusal(w->hook, w->ans[j].ret) &&
			    (w->alone || strcmp(w->ans[j].lsm, w->stop) == 0) &&
			    (!nv || w->seq > nv->seq)) {
				nv = w;
				a = &w->ans[j];
			}
	}
	en = lsm_trace_errname((int)-c->ret, eb, sizeof(eb));
	if (fw && (!nv || fw->seq > nv->seq))
		snprintf(buf, len, "the framework answered %s itself with %s (%s); no module was asked there",
			 fw->hook, en, fw->reason[0] ? fw->reason : "no reason given");
	else if (nv)
		snprintf(buf, len, "%s answered %s in %s: %s, not a refusal",
			 a->lsm, lsm_trace_verdict(a->ret, vb, sizeof(vb)), nv->hook,
			 strstr(lsm_trace_not_refusal(nv->hook, a->ret), "no such value") ?
			 "it has no such value" :
			 strstr(lsm_trace_not_refusal(nv->hook, a->ret), "no label") ?
			 "it has no label for the peer" : "not its business");
	else
		snprintf(buf, len, "%s failed with %s, and no module's answer ended a hook walk with %s: the error is the kernel's own (a check of its own: file mode bits or ACLs, a capability the task lacks, a size or an argument...); the trace does not say which",
			 c->sys[0] ? c->sys : "the call", en, en);
	return buf;
}

/* Whether any walk of @c asked @lsm. */
static inline bool lsm_trace_asked(const struct lsm_trace_call *c, const char *lsm)
{
	int i, j;

	for (i = 0; i < c->nw; i++)
		for (j = 0; j < c->w[i].nans; j++)
			if (!c->w[i].framework && strcmp(c->w[i].ans[j].lsm, lsm) == 0)
				return true;
	return false;
}

/*
 * Whether @name is one of @list, comma-separated ("openat,open", a
 * trace field's "smack,apparmor"; ", " too).
 */
static inline bool lsm_trace_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (!n)
		return false;
	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',' || p[-1] == ' ') &&
		    (p[n] == ',' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/*
 * In hook @hook of call @c, in one line: who was asked (each module with
 * its answers, in order, repeats dropped), who said no (the modules whose
 * negative answer ended a walk: a refusal), who was never asked (on the
 * hook, asked by no walk of it); or that the framework answered and no
 * module was asked.  "in inode_permission: asked smack (ECHILD, ok,
 * EACCES); said no: smack (EACCES); never asked: none".
 */
static inline const char *lsm_trace_hook_line(const struct lsm_trace_call *c,
					      const char *hook, char *buf, size_t len)
{
	char mods[LSM_TRACE_MAX_ANS][LSM_TRACE_NAME], verd[LSM_TRACE_MAX_ANS][96];
	char no[256] = "", never[256] = "", fw[256] = "", vb[32], *tok, *save;
	char sk[200];
	bool lone[LSM_TRACE_MAX_ANS], walked = false, isvoid = false;
	int nm = 0, i, j, k;
	size_t n;
	const struct lsm_trace_answer *a;

	for (i = 0; i < c->nw; i++) {
		const struct lsm_trace_walk *w = &c->w[i];

		if (strcmp(w->hook, hook) != 0)
			continue;
		if (w->framework) {
			n = strlen(fw);
			snprintf(fw + n, sizeof(fw) - n, "%s%s (%s)", n ? ", " : "",
				 lsm_trace_verdict(w->ret, vb, sizeof(vb)), w->reason);
			continue;
		}
		walked |= !w->alone && !w->is_void;
		isvoid |= w->is_void;
		for (j = 0; j < w->nans; j++) {
			const char *v = w->is_void ? "called" :
				lsm_trace_verdict(w->ans[j].ret, vb, sizeof(vb));

			for (k = 0; k < nm && strcmp(mods[k], w->ans[j].lsm); k++)
				;
			if (k == nm) {
				if (nm == LSM_TRACE_MAX_ANS)
					continue;
				snprintf(mods[nm], LSM_TRACE_NAME, "%s", w->ans[j].lsm);
				lone[nm] = false;
				verd[nm++][0] = '\0';
			}
			lone[k] |= w->alone;
			/* the same answer twice in a row is said once */
			n = strlen(verd[k]);
			if (n >= strlen(v) && strcmp(verd[k] + n - strlen(v), v) == 0 &&
			    (n == strlen(v) || verd[k][n - strlen(v) - 1] == ' '))
				continue;
			snprintf(verd[k] + n, sizeof(verd[k]) - n, "%s%s", n ? ", " : "", v);
		}
		a = lsm_trace_refusal(w);
		if (a) {
			char one[96];

			snprintf(one, sizeof(one), "%s (%s)", a->lsm,
				 lsm_trace_verdict(a->ret, vb, sizeof(vb)));
			if (!strstr(no, one)) {
				n = strlen(no);
				snprintf(no + n, sizeof(no) - n, "%s%s", n ? ", " : "", one);
			}
		}
	}
	for (i = 0; i < c->nw; i++) {
		if (strcmp(c->w[i].hook, hook) != 0 || !c->w[i].skipped[0])
			continue;
		snprintf(sk, sizeof(sk), "%s", c->w[i].skipped);
		for (tok = strtok_r(sk, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			for (k = 0; k < nm && strcmp(mods[k], tok); k++)
				;
			if (k < nm || lsm_trace_in_list(never, tok))
				continue;
			n = strlen(never);
			snprintf(never + n, sizeof(never) - n, "%s%s", n ? ", " : "", tok);
		}
	}
	n = snprintf(buf, len, "in %s:", hook);
	if (nm && n < len) {
		n += snprintf(buf + n, len - n, " asked");
		for (k = 0; k < nm && n < len; k++)
			n += snprintf(buf + n, len - n, "%s %s (%s%s)", k ? "," : "", mods[k],
				      verd[k], lone[k] ? "; asked alone, not in a walk" : "");
		if (isvoid && n < len)
			n += snprintf(buf + n, len - n, "; a hook that returns nothing");
		else if (n < len)
			n += snprintf(buf + n, len - n, "; said no: %s", no[0] ? no : "nobody");
		if (walked && n < len)
			n += snprintf(buf + n, len - n, "; never asked: %s",
				      never[0] ? never : "none");
	}
	if (fw[0] && n < len)
		snprintf(buf + n, len - n, "%s no module asked: the framework answered %s",
			 nm ? ";" : "", fw);
	return buf;
}

/* The active modules that no walk of @c asked, ", " separated. */
static inline void lsm_trace_not_asked(const struct lsm_trace *t,
				       const struct lsm_trace_call *c,
				       char *out, size_t len)
{
	char mods[256], *tok, *save;
	size_t n = 0;

	out[0] = '\0';
	snprintf(mods, sizeof(mods), "%s", t->active);
	for (tok = strtok_r(mods, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save))
		if (!lsm_trace_asked(c, tok) && n < len)
			n += snprintf(out + n, len - n, "%s%s", n ? ", " : "", tok);
}

/* ---- grouping the trace's lines ---- */

static inline struct lsm_trace_call *lsm_trace_task(struct lsm_trace *t, int pid,
						    const char *comm)
{
	int i;

	for (i = 0; i < t->ntasks; i++)
		if (t->tasks[i].pid == pid)
			break;
	if (i == t->ntasks) {
		if (t->ntasks == LSM_TRACE_MAX_TASKS) {
			t->too_many = true;
			return NULL;
		}
		t->ntasks++;
		memset(&t->tasks[i], 0, sizeof(t->tasks[i]));
		t->tasks[i].pid = pid;
	}
	/* A call keeps the name its task had when it began (execve). */
	if (!t->tasks[i].sys[0] && !t->tasks[i].nw)
		snprintf(t->tasks[i].comm, sizeof(t->tasks[i].comm), "%s", comm);
	return &t->tasks[i];
}

static inline struct lsm_trace_walk *lsm_trace_new_walk(struct lsm_trace *t,
							struct lsm_trace_call *c,
							const char *hook)
{
	struct lsm_trace_walk *w;

	if (c->nw == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;

		w = realloc(c->w, cap * sizeof(*c->w));
		if (!w) {
			t->no_memory = true;
			return NULL;
		}
		c->w = w;
		c->cap = cap;
	}
	w = &c->w[c->nw++];
	memset(w, 0, sizeof(*w));
	snprintf(w->hook, sizeof(w->hook), "%s", hook);
	return w;
}

/* The innermost walk of @hook that has not ended, or NULL. */
static inline struct lsm_trace_walk *lsm_trace_open_walk(struct lsm_trace_call *c,
							 const char *hook)
{
	int i;

	for (i = c->nw - 1; i >= 0; i--)
		if (!c->w[i].ended && strcmp(c->w[i].hook, hook) == 0)
			return &c->w[i];
	return NULL;
}

/* The call of @c ended (or the trace did): hand it on, start afresh. */
static inline void lsm_trace_end_call(struct lsm_trace *t, struct lsm_trace_call *c)
{
	if (c->sys[0] || c->nw) {
		if (t->on_call)
			t->on_call(t, c);
	}
	free(c->w);
	c->w = NULL;
	c->nw = 0;
	c->cap = 0;
	c->sys[0] = '\0';
	c->done = false;
	c->ret = 0;
}

/* Copy the value of "key=" in @s (up to a space) into @out. */
static inline bool lsm_trace_field(const char *s, const char *key, char *out, size_t len)
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

/* The rest of @s after "key=" (to the end of the line) into @out. */
static inline bool lsm_trace_rest(const char *s, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(s, pat);
	if (!p)
		return false;
	p += strlen(pat);
	n = strcspn(p, "\n");
	snprintf(out, len, "%.*s", (int)n, p);
	return true;
}

/*
 * One line of tracefs's trace file (changed in place):
 *
 *	"<comm>-<pid>     [cpu] flags  ts: event: body"
 *
 * tracefs prints the task's name right-aligned in 16 columns ("%16s-%-7d",
 * trace_print_context()), and a name has at most 15 characters, so the
 * "-" before the pid is always the 17th character: the name is read from
 * its columns, not split on what it may contain (" [", "-", ": ").
 */
static inline void lsm_trace_parse_line(struct lsm_trace *t, char *line)
{
	char comm[24], hook[LSM_TRACE_NAME], lsm[LSM_TRACE_NAME], num[32];
	char *end, *ev, *body, *cpu;
	struct lsm_trace_call *c;
	struct lsm_trace_walk *w;
	long pid;
	int i;

	if (line[0] == '#' || strnlen(line, 18) < 18 || line[16] != '-')
		return;
	pid = strtol(line + 17, &end, 10);
	if (end == line + 17 || pid <= 0 || *end != ' ')
		return;
	cpu = strstr(end, "[");
	if (!cpu || strspn(end, " ") != (size_t)(cpu - end))
		return;
	line[16] = '\0';
	for (i = 0; line[i] == ' '; i++)
		;
	snprintf(comm, sizeof(comm), "%s", line + i);
	cpu = strchr(cpu, ']');
	ev = cpu ? strstr(cpu, ": ") : NULL;
	if (!ev)
		return;
	ev += 2;
	if (t->root_pid && pid == t->root_pid && !t->root_started) {
		/* The command starts at its execve(); before it, the tracer. */
		if (strncmp(ev, "sys_execve(", 11) != 0)
			return;
		t->root_started = true;
	}
	c = lsm_trace_task(t, (int)pid, comm);
	if (!c)
		return;
	if (strncmp(ev, "sys_", 4) == 0) {
		char *paren = strchr(ev, '('), *arrow = strstr(ev, " -> ");

		if (arrow && (!paren || arrow < paren)) {
			/* exit: "sys_openat -> 0xfffffffffffffff3" */
			*arrow = '\0';
			snprintf(c->sys, sizeof(c->sys), "%s", ev + 4);
			c->ret = strtoul(arrow + 4, NULL, 16);
			c->done = true;
			lsm_trace_end_call(t, c);
		} else if (paren) {
			/* entry: "sys_openat(dfd: ..." */
			lsm_trace_end_call(t, c);
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
	if (strncmp(ev, "lsm_", 4) != 0 ||
	    !lsm_trace_field(body, "hook", hook, sizeof(hook)))
		return;
	t->n_lsm_events++;
	if (strcmp(ev, "lsm_hook_call") == 0) {
		if (!lsm_trace_field(body, "lsm", lsm, sizeof(lsm)) ||
		    !lsm_trace_field(body, "ret", num, sizeof(num)))
			return;
		w = lsm_trace_open_walk(c, hook);
		if (!w) {
			w = lsm_trace_new_walk(t, c, hook);
			if (!w)
				return;
			w->first = t->seq + 1;
		}
		w->seq = ++t->seq;
		if (w->nans < LSM_TRACE_MAX_ANS) {
			snprintf(w->ans[w->nans].lsm, LSM_TRACE_NAME, "%s", lsm);
			w->ans[w->nans++].ret = atoi(num);
		}
	} else if (strcmp(ev, "lsm_hook_end") == 0) {
		char asked[16];

		if (!lsm_trace_field(body, "asked", asked, sizeof(asked)) ||
		    !lsm_trace_field(body, "ret", num, sizeof(num)))
			return;
		w = lsm_trace_open_walk(c, hook);
		if (!w) {
			/* No module on the hook: the framework's own answer */
			if (atoi(asked) != 0 || atoi(num) == 0)
				return;
			w = lsm_trace_new_walk(t, c, hook);
			if (!w)
				return;
			w->framework = true;
			snprintf(w->reason, sizeof(w->reason),
				 "no module has this hook: the framework's default");
			w->first = t->seq + 1;
		}
		w->ended = true;
		w->seq = ++t->seq;
		w->ret = atoi(num);
		lsm_trace_field(body, "lsm", w->stop, sizeof(w->stop));
		lsm_trace_field(body, "skipped", w->skipped, sizeof(w->skipped));
	} else if (strcmp(ev, "lsm_interface") == 0 ||
		   strcmp(ev, "lsm_void_hook") == 0 ||
		   strcmp(ev, "lsm_framework") == 0) {
		lsm[0] = '\0';
		lsm_trace_field(body, "lsm", lsm, sizeof(lsm));
		w = lsm_trace_new_walk(t, c, hook);
		if (!w)
			return;
		w->ended = true;
		w->first = ++t->seq;
		w->seq = w->first;
		lsm_trace_field(body, "ret", num, sizeof(num));
		w->ret = atoi(num);
		if (ev[4] == 'f') {
			w->framework = true;
			lsm_trace_rest(body, "reason", w->reason, sizeof(w->reason));
			return;
		}
		w->alone = ev[4] == 'i';
		w->is_void = ev[4] == 'v';
		snprintf(w->ans[0].lsm, LSM_TRACE_NAME, "%s", lsm);
		w->ans[0].ret = w->alone ? w->ret : 0;
		w->nans = 1;
	}
}

/* The end of the trace: the calls that did not return while traced. */
static inline void lsm_trace_flush(struct lsm_trace *t)
{
	int i;

	for (i = 0; i < t->ntasks; i++)
		lsm_trace_end_call(t, &t->tasks[i]);
}

/* Read and parse tracefs's trace file whole; 0 or an errno. */
static inline int lsm_trace_read(struct lsm_trace *t)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(lsm_trace_path(t, "trace"), "re");

	if (!f)
		return errno;
	while (getline(&line, &cap, f) > 0)
		lsm_trace_parse_line(t, line);
	fclose(f);
	free(line);
	lsm_trace_flush(t);
	return 0;
}

/* ---- the recorder, for a grader's step ---- */

/*
 * At most this many calls are kept (a runaway child); past it the oldest
 * go, never the newest: a grader asks about the last calls, the one it
 * made the program do.  Each kept call holds its walks.
 */
#define LSM_RECORD_MAX_CALLS 4096

struct lsm_record {
	struct lsm_trace t;
	bool on;			/* started, and not stopped yet */
	bool read;			/* stopped and read back */
	int ncalls, cap;
	bool calls_lost;		/* the oldest calls were let go */
	bool no_memory;			/* a call was left out */
	/*
	 * The system calls in which a module was asked, in the order
	 * they ended; their walks are the record's (freed by the next
	 * lsm_record_start()).  A step's child records the program it
	 * runs: its loader (policy run: a sandbox of a dozen rules, the
	 * PATH search of its exec) and the grader's reads of its output,
	 * as many as the two CPUs make them, come before the program's own
	 * calls, and a fixed 64 once lost the last of them.
	 */
	struct lsm_trace_call *calls;
};

static inline void lsm_record_keep(struct lsm_trace *t, struct lsm_trace_call *c)
{
	struct lsm_record *r = t->arg;

	if (!c->nw)
		return;
	if (r->ncalls == LSM_RECORD_MAX_CALLS) {
		free(r->calls[0].w);
		memmove(r->calls, r->calls + 1, (r->ncalls - 1) * sizeof(*r->calls));
		r->ncalls--;
		r->calls_lost = true;
	}
	if (r->ncalls == r->cap) {
		int cap = r->cap ? 2 * r->cap : 64;
		struct lsm_trace_call *n = realloc(r->calls, cap * sizeof(*n));

		if (!n) {
			r->no_memory = true;
			return;
		}
		r->calls = n;
		r->cap = cap;
	}
	r->calls[r->ncalls++] = *c;
	c->w = NULL;	/* the record's now */
	c->cap = 0;
}

static inline void lsm_record_free(struct lsm_record *r)
{
	int i;

	for (i = 0; i < r->ncalls; i++)
		free(r->calls[i].w);
	free(r->calls);
	r->calls = NULL;
	r->ncalls = 0;
	r->cap = 0;
}

/*
 * Start recording the LSM events of this process and of the children it
 * forks from now on: 0, or -1 with the reason in r->t.err (the kernel
 * has no such events, or tracefs cannot be written).
 */
static inline int lsm_record_start(struct lsm_record *r)
{
	struct lsm_trace *t = &r->t;
	char pid[24];
	int err;

	lsm_record_free(r);
	memset(r, 0, sizeof(*r));
	t->on_call = lsm_record_keep;
	t->arg = r;
	if (lsm_trace_ready(t))
		return -1;
	err = lsm_trace_write(t, "tracing_on", "0");
	if (!err)
		err = lsm_trace_write(t, "trace", "");
	if (!err)
		err = lsm_trace_write(t, "options/event-fork", "1");
	if (err) {
		snprintf(t->err, sizeof(t->err), "cannot set up tracefs (%s): %s",
			 t->path[t->pathi], strerror(err));
		return -1;
	}
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	err = lsm_trace_write(t, "set_event_pid", pid);
	if (err) {
		snprintf(t->err, sizeof(t->err), "cannot write %s: %s",
			 t->path[t->pathi], strerror(err));
		return -1;
	}
	if (lsm_trace_events(t, "1", false))
		return -1;
	err = lsm_trace_write(t, "tracing_on", "1");
	if (err) {
		lsm_trace_events(t, "0", false);
		snprintf(t->err, sizeof(t->err), "cannot turn tracing on: %s", strerror(err));
		return -1;
	}
	r->on = true;
	return 0;
}

/* Stop recording and read the trace back; 0, or -1 with r->t.err. */
static inline int lsm_record_stop(struct lsm_record *r)
{
	struct lsm_trace *t = &r->t;
	int err;

	if (!r->on)
		return -1;
	r->on = false;
	lsm_trace_write(t, "tracing_on", "0");
	lsm_trace_events(t, "0", false);
	lsm_trace_write(t, "set_event_pid", "");
	err = lsm_trace_read(t);
	if (err) {
		snprintf(t->err, sizeof(t->err), "cannot read %s: %s",
			 lsm_trace_path(t, "trace"), strerror(err));
		return -1;
	}
	if (!t->n_lsm_events) {
		snprintf(t->err, sizeof(t->err),
			 "the trace has no LSM event at all: the lsm:* events were on, and none fired");
		return -1;
	}
	r->read = true;
	return 0;
}

/*
 * @mods ("a, b, c") as words: "a", "a and b", "a, b and c".  Only the
 * modules of @only (comma separated; NULL: all).
 */
static inline void lsm_record_words(const char *mods, const char *only, char *out,
				    size_t len)
{
	char buf[256], *tok, *save, *names[16];
	int n = 0, i;
	size_t k = 0;

	snprintf(buf, sizeof(buf), "%s", mods);
	for (tok = strtok_r(buf, ", ", &save); tok && n < 16;
	     tok = strtok_r(NULL, ", ", &save))
		if (!only || lsm_trace_in_list(only, tok))
			names[n++] = tok;
	out[0] = '\0';
	for (i = 0; i < n && k < len; i++)
		k += snprintf(out + k, len - k, "%s%s", i == 0 ? "" :
			      i == n - 1 ? " and " : ", ", names[i]);
}

/*
 * The modules of @c, among @only (NULL: all), asked in some hook of the
 * call but not in @hook, as "apparmor was asked only in
 * file_alloc_security" clauses ("; " before each).
 */
static inline void lsm_record_elsewhere(const struct lsm_trace *t,
					const struct lsm_trace_call *c,
					const char *hook, const char *only,
					char *out, size_t len)
{
	char mods[256], hooks[256], *tok, *save;
	size_t n = 0, h;
	int i, j;

	out[0] = '\0';
	snprintf(mods, sizeof(mods), "%s", t->active);
	for (tok = strtok_r(mods, ",\n", &save); tok && n < len;
	     tok = strtok_r(NULL, ",\n", &save)) {
		bool in_hook = false;

		if (only && !lsm_trace_in_list(only, tok))
			continue;
		hooks[0] = '\0';
		for (i = 0; i < c->nw; i++) {
			const struct lsm_trace_walk *w = &c->w[i];

			for (j = 0; j < w->nans && !w->framework; j++)
				if (strcmp(w->ans[j].lsm, tok) == 0)
					break;
			if (w->framework || j == w->nans)
				continue;
			if (strcmp(w->hook, hook) == 0) {
				in_hook = true;
				break;
			}
			if (lsm_trace_in_list(hooks, w->hook))
				continue;
			h = strlen(hooks);
			snprintf(hooks + h, sizeof(hooks) - h, "%s%s", h ? ", " : "", w->hook);
		}
		if (in_hook || !hooks[0])
			continue;
		n += snprintf(out + n, len - n, "; %s was asked only in %s", tok, hooks);
	}
}

/*
 * The last recorded call of @syscalls (comma separated, as the trace
 * names them: "openat,open") that failed with a module's refusal
 * (lsm_trace_decider()), in one line (@what NULL: "your SYSCALL()"):
 * "@what was refused by smack in inode_permission (EACCES); never asked
 * in inode_permission: toylsm; landlock was asked in no hook of that
 * call; apparmor was asked only in file_alloc_security".  The modules
 * named are the active ones among @only (NULL: every active module); the
 * hook's own never-asked list is the kernel's, whole.  NULL if the record
 * has no such call.
 */
static inline const char *lsm_record_refused(struct lsm_record *r, const char *what,
					     const char *syscalls, const char *only,
					     char *buf, size_t len)
{
	const struct lsm_trace_call *c = NULL;
	const struct lsm_trace_walk *d = NULL;
	const struct lsm_trace_answer *a;
	char vb[32], na[256], words[256], skipped[256], other[512];
	size_t n;
	int i;

	if (!r->read)
		return NULL;
	for (i = r->ncalls - 1; i >= 0 && !d; i--) {
		c = &r->calls[i];
		if (!lsm_trace_in_list(syscalls, c->sys) || !c->done || c->ret >= 0)
			continue;
		d = lsm_trace_decider(c);
	}
	if (!d)
		return NULL;
	a = lsm_trace_refusal(d);
	if (what)
		n = snprintf(buf, len, "%s", what);
	else
		n = snprintf(buf, len, "your %s()", c->sys);
	n += snprintf(buf + n, len - n, " was refused by %s in %s (%s)", a->lsm,
		      d->hook, lsm_trace_verdict(a->ret, vb, sizeof(vb)));
	if (d->ended && d->skipped[0] && n < len) {
		lsm_trace_commas(d->skipped, skipped, sizeof(skipped));
		lsm_record_words(skipped, NULL, words, sizeof(words));
		n += snprintf(buf + n, len - n, "; never asked in %s: %s", d->hook, words);
	}
	lsm_trace_not_asked(&r->t, c, na, sizeof(na));
	lsm_record_words(na, only, words, sizeof(words));
	if (words[0] && n < len)
		n += snprintf(buf + n, len - n, "; %s %s asked in no hook of that call", words,
			      strstr(words, " and ") ? "were" : "was");
	lsm_record_elsewhere(&r->t, c, d->hook, only, other, sizeof(other));
	if (other[0] && n < len)
		snprintf(buf + n, len - n, "%s", other);
	return buf;
}

/*
 * The last recorded call of @syscalls that failed, when no module refused
 * it, in one line: "no LSM refused your open() (EACCES): openat failed
 * with EACCES, and no module's answer ended a hook walk with EACCES: ...".
 * NULL if the last such call that failed was refused by a module, or no
 * call of @syscalls failed.
 */
static inline const char *lsm_record_unrefused(struct lsm_record *r, const char *what,
					       const char *syscalls, char *buf, size_t len)
{
	const struct lsm_trace_call *c;
	char eb[24], why[512];
	const char *en;
	int i;

	if (!r->read)
		return NULL;
	for (i = r->ncalls - 1; i >= 0; i--) {
		c = &r->calls[i];
		if (!lsm_trace_in_list(syscalls, c->sys) || !c->done || c->ret >= 0 ||
		    c->ret <= -4096)
			continue;
		if (!lsm_trace_no_refusal(c, why, sizeof(why)))
			return NULL;
		en = lsm_trace_errname((int)-c->ret, eb, sizeof(eb));
		if (what)
			snprintf(buf, len, "no LSM refused %s (%s): %s", what, en, why);
		else
			snprintf(buf, len, "no LSM refused your %s() (%s): %s", c->sys, en, why);
		return buf;
	}
	return NULL;
}

/*
 * The last recorded call of @syscalls that succeeded, and what the
 * modules answered in its walk of @hook: "@what succeeded; in
 * inode_unlink smack answered 0, toylsm answered 0"; if @lsm is not
 * among them and the walk's end names every module on the hook, that
 * @lsm has no @hook hook.  NULL if the record has no such call.
 */
static inline const char *lsm_record_answers(struct lsm_record *r, const char *what,
					     const char *syscalls, const char *hook,
					     const char *lsm, char *buf, size_t len)
{
	const struct lsm_trace_call *c = NULL;
	const struct lsm_trace_walk *w = NULL;
	char vb[32];
	size_t n;
	int i, j;
	bool seen = false;

	if (!r->read)
		return NULL;
	for (i = r->ncalls - 1; i >= 0; i--) {
		c = &r->calls[i];
		if (lsm_trace_in_list(syscalls, c->sys) && c->done && c->ret >= 0)
			break;
	}
	if (i < 0)
		return NULL;
	for (i = c->nw - 1; i >= 0 && !w; i--)
		if (!c->w[i].alone && strcmp(c->w[i].hook, hook) == 0)
			w = &c->w[i];
	n = snprintf(buf, len, "%s succeeded", what);
	if (!w) {
		snprintf(buf + n, len - n, "; no module was asked in %s", hook);
		return buf;
	}
	n += snprintf(buf + n, len - n, "; in %s", hook);
	for (j = 0; j < w->nans && n < len; j++) {
		n += snprintf(buf + n, len - n, "%s %s answered %s", j ? "," : "",
			      w->ans[j].lsm, w->ans[j].ret ?
			      lsm_trace_verdict(w->ans[j].ret, vb, sizeof(vb)) : "0");
		seen |= strcmp(w->ans[j].lsm, lsm) == 0;
	}
	/* Who was asked and who was skipped is every module on the hook. */
	if (!seen && w->ended && n < len && lsm_trace_in_list(w->skipped, lsm))
		snprintf(buf + n, len - n, "; %s was never asked", lsm);
	else if (!seen && w->ended && n < len)
		snprintf(buf + n, len - n, "; %s has no %s hook", lsm, hook);
	return buf;
}

#endif /* KIT_LSM_TRACE_H */
