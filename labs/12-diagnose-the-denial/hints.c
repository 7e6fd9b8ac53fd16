// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 12's grader, its second half (grade.c includes it last): how an
 * access is tried (policy run SET probe, traced) and judged, and what
 * the grader says under a FAIL: first where to look (`why`), and with
 * HINT=2 the module that refused, in which hook, and whose policy must
 * change; the rules no access can show, read from the learner's files or
 * asked of the kernel.
 */

/* The hint for a profile that AppArmor loaded in complain mode. */
#define COMPLAIN_MODE \
	"a profile in complain mode (flags=(complain)), which logs what it would refuse and refuses nothing"

/*
 * Try @a: 0 allowed, an errno, or -1 (the program did not run: @out says
 * why); who refused it in @lsm and @hook: the refusal in the last of the
 * program's calls (CALLS) that failed: an open, or the read() or write()
 * after it (AppArmor checks a write() again, in file_permission); the
 * walk that failed it (its module and hook), or else a capable() a
 * module refused inside it (the open then failed on the file's mode:
 * hook "capable").  "" when the trace shows none.
 */
static int attempt(const struct access *a, char *lsm, char *hook, char *out, size_t len)
{
	int st = policy_probe(DIR12, a->file, a->acc, a->caps, out, len);

	policy_refusal(CALLS, 1, lsm, hook);
	return st;
}

/*
 * The command that shows the learner the walk of @a: the calls a module
 * refused (a capability: the calls that asked capable(), where the
 * refusal did not fail the call by itself); @every_answer: what each
 * module answered in the program's last openat, the one of @a.
 */
static const char *why_cmd(const struct access *a, int every_answer)
{
	static char cmd[200];

	snprintf(cmd, sizeof(cmd), "why %spolicy run lab12-shell probe %s%s " DIR12 "%s%s",
		 every_answer ? "-v -s openat " : a->caps ? "-k capable " : "",
		 a->caps ? "-k " : "", a->acc, a->file, every_answer ? " | tail -8" : "");
	return cmd;
}

/* @a must be allowed, and was refused (@st) by @lsm in @hook, or by none. */
static void fail_refused(const struct access *a, int st, const char *lsm, const char *hook)
{
	lab_expected("probe %s%s " DIR12 "%s: allowed (%s)", a->caps ? "-k " : "", a->acc,
		     a->file, a->why);
	lab_seen("refused, %s", errname(st));
	lab_hint("which module said no, and in which hook? In make lab 12 SHELL=1: %s (README, \"Diagnosing\")",
		 why_cmd(a, 0));
	if (lab_hint_level < 2)
		lab_fail();
	lab_trace_refusal("the program's open(), read() or write()", CALLS);
	if (lsm[0] && !strcmp(hook, "capable"))
		lab_hint("%s refused a capability in capable(), inside the open; without it the open failed on the file's mode: the capability goes into %s",
			 lsm, policy_file(lsm));
	else if (lsm[0])
		lab_hint("%s refused it in %s: its policy, %s, is where the fix goes",
			 lsm, hook, policy_file(lsm));
	lab_fail();
}

/* When a hook is asked in an open: capable() first (generic_permission()). */
static int hook_rank(const char *hook)
{
	if (!strcmp(hook, "capable"))
		return 0;
	if (!strcmp(hook, "inode_permission"))
		return 1;
	return 2;
}

/* Whether module @a in @ha is asked before module @b in @hb. */
static int asked_before(const char *a, const char *ha, const char *b, const char *hb)
{
	const char *pa = strstr(fs_list, a), *pb = strstr(fs_list, b);

	if (hook_rank(ha) != hook_rank(hb))
		return hook_rank(ha) < hook_rank(hb);
	return pa && pb && pa < pb;
}

/*
 * Under an access @want let through: whether @want is turned off for the
 * program (AppArmor's profile not in enforce mode, SELinux's domain
 * permissive or SELinux not enforcing), as the kernel reports it.
 */
static void turned_off(const char *want)
{
	char label[128], enf[4] = "";
	unsigned int allowed, flags;

	if (!strcmp(want, "apparmor") && !policy_run_label("apparmor", label, sizeof(label)) &&
	    label[0] && !strstr(label, "(enforce)"))
		lab_hint("a module turned off: the program runs as \"%s\" for AppArmor, %s",
			 label, strstr(label, "(complain)") ? COMPLAIN_MODE :
			 "not a profile in enforce mode");
	if (strcmp(want, "selinux"))
		return;
	if (read_text("/sys/fs/selinux/enforce", enf, sizeof(enf)) > 0 && enf[0] == '0')
		lab_hint("a module turned off: SELinux is not enforcing in this boot (/sys/fs/selinux/enforce is 0)");
	else if (!loaded_selinux("system_u:system_r:probe_t", "system_u:object_r:vault_key_t",
				 "file", &allowed, &flags) && (flags & LOADED_AVD_PERMISSIVE))
		lab_hint("a module turned off: probe_t is a permissive domain (\"permissive probe_t;\" in %s/selinux/kit.te): SELinux logs what it would refuse for the program and refuses nothing",
			 lab_file);
}

/*
 * @a must be refused by @want, and was allowed (@st 0), or refused by
 * another module (@lsm, @hook).
 */
static void fail_allowed(const struct access *a, const char *want, int st, const char *lsm,
			 const char *hook)
{
	int same_module = lsm[0] && !strcmp(lsm, want) && strcmp(hook, a->hook);

	lab_expected("probe %s%s " DIR12 "%s: refused (%s)", a->caps ? "-k " : "", a->acc,
		     a->file, a->why);
	if (st == 0) {
		lab_seen("allowed: every module of this boot said yes");
		turned_off(want);
		lab_hint("every module of this boot said yes to what the scenario forbids: a policy of this boot lets it through (a rule broader than the scenario needs, a module turned off), or the module that refuses it elsewhere is not in this boot's lsm=; each module's answer: %s",
			 why_cmd(a, 1));
	} else {
		lab_seen("refused, %s, by %s in %s", errname(st), lsm[0] ? lsm : "no module",
			 hook[0] ? hook : "no hook");
		if (same_module)
			lab_hint("%s refuses it, but only in %s, not already in %s: its policy gives part of what the scenario forbids",
				 lsm, hook, a->hook);
		else if (!lsm[0])
			lab_hint("no module refused it: the module whose policy this scenario is about must (%s)",
				 why_cmd(a, 1));
		else if (asked_before(want, a->hook, lsm, hook))
			lab_hint("a module asked before %s said yes where the scenario wants a refusal: %s's refusal only hides that; fix the policy that said yes (and if you added the refusal in %s, take it out)",
				 lsm, lsm, policy_file(lsm));
		else
			lab_hint("%s refused it before the module whose policy this scenario is about was asked: a rule of yours in %s, or a given line there narrowed? Keep that module's lines as given: the scenario's module must refuse it itself",
				 lsm, policy_file(lsm));
	}
	if (lab_hint_level < 2)
		lab_fail();
	if (st == 0)
		lab_trace_allowed("the program's open()", "openat,open", a->hook, want);
	else
		lab_trace_refusal("the program's open(), read() or write()", CALLS);
	if (!same_module)
		lab_hint("%s must refuse it (in %s): its policy is %s",
			 want, a->hook, policy_file(want));
	lab_fail();
}

/* One access in this boot; fails the step on a difference. */
static void check(const struct access *a)
{
	const char *want = policy_refuser(a->refusers);
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024];
	int st;

	/* What only modules absent from this boot refuse is not graded here. */
	if (a->refusers[0] && !want)
		return;
	policy_need_given("", "given/ is the lab's, not yours to edit: restore it (git checkout labs/12-diagnose-the-denial/given) and fix the scenarios in %s only");
	st = attempt(a, lsm, hook, out, sizeof(out));
	if (st < 0) {
		lab_expected("policy run %s probe %s " DIR12 "%s runs the program", policy_set,
			     a->acc, a->file);
		lab_seen("%s", out);
		if (strstr(out, "policy: "))
			lab_hint("policy run stopped before the program ran: its message above names the file and the line (landlock.rules: a path must exist, RIGHTS are read and write)");
		else
			lab_hint("the program could not even start: the profile's \"/bin/probe mr,\", the sandbox's \"read /bin\" and the given rules must stay");
		lab_fail();
	}
	if (!want && st == 0)
		return;
	if (want && st == EACCES && !strcmp(lsm, want) && !strcmp(hook, a->hook))
		return;
	if (st && !lsm[0] && strcmp(a->hook, "capable") && lab_rec_state == 1 && want) {
		lab_kit("probe %s " DIR12 "%s failed (%s) and the trace names no module (%d system calls recorded%s)",
			a->acc, a->file, errname(st), lab_rec.ncalls,
			lab_rec.calls_lost ? ", some lost" : "");
		lab_fail();
	}
	if (!want)
		fail_refused(a, st, lsm, hook);
	fail_allowed(a, want, st, lsm, hook);
}

/* The @i-th access of all (the table's, then the decoys'), 0 past the last. */
static int access_at(size_t i, struct access *a)
{
	if (i < NACC) {
		*a = table[i];
		return 1;
	}
	if (i - NACC >= sizeof(decoys) / sizeof(decoys[0]))
		return 0;
	*a = decoys[i - NACC];
	return 1;
}

static void check_step(int n)
{
	struct access a;
	size_t i;

	for (i = 0; access_at(i, &a); i++)
		if (a.step == n)
			check(&a);
}

/*
 * A line of the learner's file @name (in --src, the files one after the
 * other under "==> NAME <==" lines) that @bad() says gives more than a
 * scenario needs, into @line with its number; 0 if none (or no --src).
 */
static int src_find(const char *name, int (*bad)(const char *line), char *line, size_t len,
		    int *no)
{
	FILE *f = policy_src_open(name);

	*no = 0;
	while (policy_src_next(f, line, len, no))
		if (bad(line + strspn(line, " \t"))) {
			fclose(f);
			return 1;
		}
	if (f)
		fclose(f);
	return 0;
}

/*
 * A capability rule that grants (not deny) more than dac_read_search,
 * whatever its qualifiers (audit, allow) and spacing: its words after
 * them must be "capability dac_read_search" and the comma.
 */
static int cap_beyond(const char *l)
{
	char buf[256], *w, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", l);
	buf[strcspn(buf, "#")] = '\0';
	for (w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
		if (n == 0 && (!strcmp(w, "audit") || !strcmp(w, "allow")))
			continue;
		if (n == 0 && strcmp(w, "capability"))
			return 0;	/* deny, a path rule, anything else */
		if (n == 1 && strcmp(w, "dac_read_search"))
			return 1;
		if (n >= 2)
			return 1;
		n++;
	}
	return n == 1;	/* "capability," alone: every capability */
}

/*
 * A sandbox rule that gives write beneath a folder no scenario writes in
 * (or through ".."): an extra write there is refused by a module asked
 * before Landlock, so no access shows it.
 */
static int landlock_write_beyond(const char *l)
{
	static const char *const writes[] = {
		"/dev", DIR12 "data", DIR12 "spool", DIR12 "out", DIR12 "cache", DIR12 "notes", NULL
	};
	char rights[64], path[256];
	size_t n;
	int i;

	if (sscanf(l, "%63s %255s", rights, path) != 2 || !strstr(rights, "write"))
		return 0;
	if (strstr(path, ".."))
		return 1;
	for (i = 0; writes[i]; i++) {
		n = strlen(writes[i]);
		if (!strncmp(path, writes[i], n) && (!path[n] || path[n] == '/'))
			return 0;
	}
	return 1;
}

/*
 * What the accesses cannot show: a rule of @name that @bad() finds gives
 * more than the scenario needs (@needs), which no access here uses.
 */
static void check_rules(const char *name, int (*bad)(const char *line), const char *needs,
			const char *why)
{
	char line[256];
	int no;

	if (!src_find(name, bad, line, sizeof(line), &no))
		return;
	lab_expected("%s gives the scenario what it needs: %s", name, needs);
	lab_seen("%s/%s:%d: %s", lab_file, name, no, line);
	lab_hint("%s", why);
	lab_fail();
}

/* Every toylsm rule of @subj with t: the subject may relabel itself as its object. */
static void check_toylsm_transition(const char *subj)
{
	char line[256], s[64], o[64], p[32];
	FILE *f;

	if (!lsm_active("toylsm"))
		return;
	f = fopen(POLICY_TOY_RULES, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %63s %31s", s, o, p) != 3 || strcmp(s, subj) ||
		    !strchr(p, 't'))
			continue;
		fclose(f);
		lab_expected("no toylsm rule lets %s relabel itself (t)", subj);
		lab_seen("the rule the kernel loaded (from %s/toylsm.rules) is \"%s %s %s\": t (transition) lets %s take the label %s",
			 lab_file, s, o, p, s, o);
		lab_hint("equal labels pass everything in toylsm: once probe is %s, every access to what is labelled %s passes, a write too",
			 o, o);
		lab_fail();
	}
	if (f)
		fclose(f);
}

static void check_loaded_rules(int n)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].step == n)
			loaded_check_rule(rules[i].lsm, rules[i].subj, rules[i].obj, rules[i].may,
					  rules[i].why);
}
