/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton of a policy lab's grader (KIND=policy: labs 10 and 12),
 * which both graders share: a table of accesses of /bin/probe, each run
 * under the learner's policy set with its system calls traced, and who
 * must refuse it in this boot.
 *
 *	lab_banner():
 *	  policy_lab_begin("lab N: ...")	the boot's modules in the banner,
 *		every audit record kept, the set's name, smackfs
 *	  policy_lab_drop(SMACK, TOYLSM)	what an earlier variant loaded:
 *		the rules naming the lab's labels, every AppArmor profile
 *	  policy_set_load()			(policy_set.h)
 *	  policy_given_check(GIVEN, N)	given/'s labels are there, else
 *		policy_given_bad says how they differ
 *	a step:
 *	  policy_need_given(...)	fails the step when given/ was changed
 *		or the set did not load
 *	  policy_refuser(REFUSERS)	who must refuse an access here
 *	  policy_probe(DIR, FILE, ACC, CAPS, OUT, LEN)	the program tries it
 *	  policy_refusal(CALLS, CAPABLE, LSM, HOOK)	who refused, as the
 *		trace shows it
 *	its hints:
 *	  policy_src_open(NAME), policy_src_next(...)	the learner's file
 *		NAME (policy_file(LSM): LSM's), as the learner wrote it (the
 *		grader's --src copy)
 */
#ifndef LAB_POLICY_LAB_H
#define LAB_POLICY_LAB_H

#include <stdio.h>
#include <string.h>

#include "grader.h"
#include "kit/kernel_log.h"
#include "policy_set.h"
#include "loaded.h"
#include "trace.h"

/* How the lab's files and program differ from given/ ("": they do not). */
static char policy_given_bad[512];

/*
 * The banner's first line ("@title; this boot: MODULES") and what every
 * step relies on: every audit record in the kernel log (dmesg), none
 * dropped; the set's name and smackfs (policy_set_begin()).
 */
static LAB_API void policy_lab_begin(const char *title)
{
	load_fs_list();
	printf("%s; this boot: %s\n", title, fs_list);
	kernel_log_unlimited();
	policy_set_begin();
}

/*
 * What an earlier set loaded in this boot (make test grades several in
 * one), gone: the Smack and toylsm rules that name one of the lab's
 * labels (@smack, @toylsm: space-separated) and every AppArmor profile.
 * SELinux's policy is replaced whole at the next load.
 */
static LAB_API void policy_lab_drop(const char *smack, const char *toylsm)
{
	if (lsm_active("smack"))
		policy_drop_rules(POLICY_SMACK_LOAD2, smack, 0);
	if (lsm_active("toylsm"))
		policy_drop_rules(POLICY_TOY_RULES, toylsm, 1);
	if (lsm_active("apparmor"))
		policy_drop_profiles();
}

/*
 * A step's start: the set loaded, over the lab's labels; else the step
 * fails and says why.  @given: what the expected line says of given/
 * after "the labels of given/"; @fix: the hint, a format whose one %s is
 * the learner's folder.
 */
static LAB_API void policy_need_given(const char *given, const char *fix)
{
	if (policy_set_rc == 0 && policy_given_bad[0]) {
		lab_expected("the lab's files and program have the labels of given/%s", given);
		lab_seen("%s", policy_given_bad);
		lab_hint(fix, lab_file);
		lab_fail();
	}
	policy_set_need_load();
}

/*
 * Who must refuse an access in this boot: the first module of
 * @refusers (a comma-separated list, in the order the kernel asks them)
 * that is in this boot, or NULL (allowed).
 */
static LAB_API const char *policy_refuser(const char *refusers)
{
	char list[64], *m, *save = NULL;
	static char who[LSM_TRACE_NAME];

	snprintf(list, sizeof(list), "%s", refusers);
	for (m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save))
		if (lsm_active(m)) {
			snprintf(who, sizeof(who), "%s", m);
			return who;
		}
	return NULL;
}

/*
 * `policy run SET probe [-k] @acc @dir@file` (@caps: -k, root keeps its
 * capabilities), its system calls recorded: 0 allowed, an errno (probe
 * said "refused, ..."), or -1: the program did not run, and @out says
 * why.  policy_refusal() then says who refused.
 */
static LAB_API int policy_probe(const char *dir, const char *file, const char *acc, int caps,
				char *out, size_t len)
{
	char path[128], *argv[8];
	int n = 0, st;

	snprintf(path, sizeof(path), "%s%s", dir, file);
	argv[n++] = "/bin/policy";
	argv[n++] = "run";
	argv[n++] = policy_set;
	argv[n++] = "probe";
	if (caps)
		argv[n++] = "-k";
	argv[n++] = (char *)acc;
	argv[n++] = path;
	argv[n] = NULL;
	lab_record();
	st = policy_run_cmd(argv, out, len);
	lab_record_stop();
	if (st != 0 && !strstr(out, ": refused, "))
		return -1;
	return st;
}

/*
 * The refusal in the last of the recorded calls of @calls ("openat,open")
 * that failed: the walk that failed it, its module in @lsm and its hook
 * in @hook; with @capable, else a capable() a module refused inside it
 * (the call then failed on the file's mode: hook "capable").  "" when
 * the trace shows none.
 */
static LAB_API void policy_refusal(const char *calls, int capable, char *lsm, char *hook)
{
	const struct lsm_trace_answer *ans;
	const struct lsm_trace_walk *w;
	int i, j;

	lsm[0] = '\0';
	hook[0] = '\0';
	for (i = lab_rec.ncalls - 1; lab_rec_state == 1 && i >= 0; i--) {
		const struct lsm_trace_call *c = &lab_rec.calls[i];

		if (!lsm_trace_in_list(calls, c->sys) || !c->done || c->ret >= 0)
			continue;
		w = lsm_trace_decider(c);
		ans = w ? lsm_trace_refusal(w) : NULL;
		for (j = 0; capable && !ans && j < c->nw; j++)
			if (!strcmp(c->w[j].hook, "capable") && lsm_trace_refusal(&c->w[j])) {
				w = &c->w[j];
				ans = lsm_trace_refusal(w);
			}
		if (!ans)
			continue;
		snprintf(lsm, LSM_TRACE_NAME, "%s", ans->lsm);
		snprintf(hook, LSM_TRACE_NAME, "%s", w->hook);
		return;
	}
}

/*
 * The learner's file @name in --src, where the files are one after the
 * other under "==> NAME <==" lines: policy_src_open() finds it,
 * policy_src_next() gives its lines in turn (without the newline), *no
 * counting them as in the learner's own file, up to the next file; 0 at
 * its end.
 */
static LAB_API FILE *policy_src_open(const char *name)
{
	char line[512], head[128];
	FILE *f = lab_src ? fopen(lab_src, "r") : NULL;

	snprintf(head, sizeof(head), "==> %s <==\n", name);
	while (f && fgets(line, sizeof(line), f))
		if (!strcmp(line, head))
			return f;
	if (f)
		fclose(f);
	return NULL;
}

static LAB_API int policy_src_next(FILE *f, char *line, size_t len, int *no)
{
	if (!f || !fgets(line, len, f) || !strncmp(line, "==> ", 4))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	++*no;
	return 1;
}

#endif /* LAB_POLICY_LAB_H */
