// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 12's grader: six scenarios of /bin/probe failing on a stack with
 * real policies (the learner's set, work/policy/, compiled on the host
 * by scripts/lab/policy.sh and loaded here with `policy load`).  Each
 * step is a scenario: what the program needs must be allowed, and what
 * the scenario forbids must stay refused, by the module whose policy the
 * scenario is about (named by the trace of patch 0017's events), so that
 * a fix in another module, a module's enforcement turned off or a rule
 * broader than the scenario needs fails the step.  Where no access can
 * show a rule's excess (a capability the program never asks for in
 * these calls, x or t in a rule), the step reads the learner's rule.
 * mistakes/ holds the wrong answers checked; others may pass.
 *
 * The first hints do not name the module that refused: finding it is the
 * lab (`why`, the modules' attributes and logs).  HINT=2 names it.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <time.h>

#include "grader.h"
#include "kit/files.h"
#include "kit/kernel_log.h"
#include "policy_set.h"
#include "loaded.h"
#include "trace.h"

#define DIR12 "/tmp/lab12/"
/* The program's calls a module may refuse: its open, then its read or write. */
#define CALLS "openat,open,read,write"
/*
 * Scenario 2's file belongs to this user, mode 0600: root reads it only
 * with a capability.
 */
#define JOB_UID 1000

static char given_bad[512];	/* how the files' labels differ from the lab's */

static const struct policy_given given[] = {
	{ "/bin/probe", "smack", "security.SMACK64EXEC", "Probe" },
	{ "/bin/probe", "selinux", "security.selinux", "probe_exec_t" },
	{ DIR12 "cache/entries", "smack", "security.SMACK64", "Cache" },
	{ DIR12 "cache/keys", "smack", "security.SMACK64", "CacheKey" },
	{ DIR12 "vault/index", "smack", "security.SMACK64", "VaultIndex" },
	{ DIR12 "vault/index", "selinux", "security.selinux", "vault_index_t" },
	{ DIR12 "vault/key", "smack", "security.SMACK64", "VaultKey" },
	{ DIR12 "vault/key", "selinux", "security.selinux", "vault_key_t" },
	{ DIR12 "notes/diary", "toylsm", "security.toylsm", "diary" },
	{ DIR12 "data/report.csv", "toylsm", "security.toylsm", NULL },
};

/*
 * One access of a scenario.  refusers: "" the scenario needs it allowed;
 * else the modules whose policy must refuse it, in the order the kernel
 * asks them: the first of them in this boot refuses it (none in the
 * boot: allowed).  hook: where that module refuses; "capable" means a
 * capability it refuses inside the open, which then fails on the file's
 * mode (the kernel's own EACCES).
 */
struct access {
	int step;
	const char *acc;	/* probe's ACCESS: read, write (an append) */
	int caps;		/* run probe -k: keep root's capabilities */
	const char *file;	/* in /tmp/lab12 */
	const char *refusers;
	const char *hook;
	/* Under a FAIL: what the scenario is about, in the learner's terms. */
	const char *why;
};

/*
 * Decoys, made by the grader under names of its own each boot (N, a
 * number that changes): files no policy names, beside what the scenarios
 * use, whose names match the globs a rule broader than the scenario's
 * would take.  Scenario 1's, in data/: fN (any name), fN.csv (another
 * .csv), report.csv.N (a name that starts as the report's), N/report.csv
 * (a report.csv in a folder beneath data/); a deny rule for the one file
 * the README names leaves them readable.  The sandbox's, beneath no
 * folder it lets the program read (lab12/fN: a rule for /tmp/lab12, /tmp
 * or /) or write (in/fN, vault/fN: write given to a folder the program
 * only reads).
 */
enum { D_DATA, D_CSV, D_REPORT, D_SUB, D_TOP, D_IN, D_VAULT, NDECOYS };
static char decoy[NDECOYS][POLICY_DECOY];

static const struct access table[] = {
	{ 1, "read", 0, "data/report.csv", "", "",
	  "the report generator reads data/report.csv" },
	{ 1, "write", 0, "data/report.csv", "apparmor", "file_open",
	  "the report is only read: the profile gives it r, and nothing more" },
	{ 1, "overwrite", 0, "data/report.csv", "apparmor", "file_open",
	  "the report is only read: not written from its start either" },
	{ 1, "read", 0, "data/private", "apparmor", "file_open",
	  "nothing else in data/ is the program's: private stays unread" },
	{ 2, "read", 1, "spool/job", "", "",
	  "root (capabilities kept: probe -k) reads another user's job, mode 0600" },
	{ 2, "write", 1, "spool/job", "apparmor", "capable",
	  "root must not write another user's job: dac_override lets a write through too" },
	{ 3, "write", 0, "out/log", "", "",
	  "the program appends to its log, out/log" },
	{ 3, "read", 0, "in/orders", "", "",
	  "the program reads its orders" },
	{ 3, "write", 0, "in/orders", "landlock", "file_open",
	  "the sandbox keeps the orders read-only" },
	{ 4, "read", 0, "cache/entries", "", "",
	  "the program reads its cache" },
	{ 4, "write", 0, "cache/entries", "", "",
	  "the program appends to its cache" },
	{ 4, "read", 0, "cache/keys", "smack", "inode_permission",
	  "the cache's keys (CacheKey) are not the program's" },
	{ 5, "read", 0, "vault/index", "", "",
	  "the program reads the vault's index" },
	{ 5, "read", 0, "vault/key", "smack,selinux", "inode_permission",
	  "its labels protect the key in every boot: Smack's VaultKey, SELinux's vault_key_t" },
	{ 5, "write", 0, "vault/index", "smack,selinux", "inode_permission",
	  "the program only reads the vault's index" },
	{ 5, "overwrite", 0, "vault/index", "smack,selinux", "inode_permission",
	  "the program only reads the vault's index: not written from its start either" },
	{ 6, "read", 0, "notes/diary", "", "",
	  "the program (toylsm label probe) reads the diary (toylsm label diary)" },
	{ 6, "write", 0, "notes/diary", "toylsm", "file_open",
	  "the diary is only read" },
	{ 6, "overwrite", 0, "notes/diary", "toylsm", "file_open",
	  "the diary is only read: not written from its start either" },
};

#define NACC (sizeof(table) / sizeof(table[0]))

/* The hint for a profile that AppArmor loaded in complain mode. */
#define COMPLAIN_MODE \
	"a profile in complain mode (flags=(complain)), which logs what it would refuse and refuses nothing"

/*
 * The decoys' accesses, after the table's: scenario 1 reads each of data/
 * (AppArmor refuses it), scenario 3 reads the one beside the sandbox's
 * folders and writes it and those beneath its read-only folders
 * (Landlock refuses them); *@a is the @k-th of them, 0 past the last.
 */
#define DECOY_READ_1 "nothing beneath data/ but the report is the program's, whatever its name (the grader made this file)"
#define DECOY_READ_3 "the sandbox lets the program read beneath the folders it lists, not beside them (the grader made this file)"
#define DECOY_WRITE_3 "the sandbox lets the program write beneath the folders it lists for write, nowhere else (the grader made this file)"
static int decoy_access(size_t k, struct access *a)
{
	static const int d3[] = { D_TOP, D_IN, D_VAULT };

	if (k < D_TOP) {
		*a = (struct access){ 1, "read", 0, decoy[k], "apparmor", "file_open",
				      DECOY_READ_1 };
		return 1;
	}
	if (k == D_TOP) {
		*a = (struct access){ 3, "read", 0, decoy[D_TOP], "landlock", "file_open",
				      DECOY_READ_3 };
		return 1;
	}
	if (k - D_TOP - 1 >= sizeof(d3) / sizeof(d3[0]))
		return 0;
	*a = (struct access){ 3, "write", 0, decoy[d3[k - D_TOP - 1]], "landlock", "file_open",
			      DECOY_WRITE_3 };
	return 1;
}

/* The @i-th access of all (the table's, then the decoys'), 0 past the last. */
static int access_at(size_t i, struct access *a)
{
	if (i < NACC) {
		*a = table[i];
		return 1;
	}
	return decoy_access(i - NACC, a);
}

/*
 * What an earlier set loaded in this boot (make test grades several in
 * one): the lab's files, the rules of its labels (Smack and toylsm add
 * rules at each load) and the profiles, gone.
 */
static void reset(void)
{
	char out[256];
	char *const rm[] = { "/bin/rm", "-rf", DIR12, NULL };

	if (lsm_active("smack"))
		policy_drop_rules(POLICY_SMACK_LOAD2, "Probe Cache CacheKey VaultIndex VaultKey",
				  0);
	if (lsm_active("toylsm"))
		policy_drop_rules(POLICY_TOY_RULES, "probe diary", 1);
	if (lsm_active("apparmor"))
		policy_drop_profiles();
	if (policy_run_cmd(rm, out, sizeof(out)))
		printf("grader: cannot remove " DIR12 ": %s", out);
}

/* The decoys (above), under this boot's N. */
static void make_decoys(void)
{
	static const char *const fmt[NDECOYS] = {
		"data/f%ld", "data/f%ld.csv", "data/report.csv.%ld", "data/%ld/report.csv",
		"f%ld", "in/f%ld", "vault/f%ld",
	};

	policy_decoys(DIR12, fmt, NDECOYS, decoy);
}

static void lab_banner(void)
{
	char path[128];
	struct stat st;

	load_fs_list();
	printf("lab 12: diagnose the denial; this boot: %s\n", fs_list);
	/* Every audit record in the kernel log (dmesg), none dropped. */
	kernel_log_unlimited();
	policy_set_begin();
	reset();
	policy_set_load();
	if (policy_set_rc)
		return;
	policy_given_check(given, sizeof(given) / sizeof(given[0]), given_bad,
			   sizeof(given_bad));
	/*
	 * given/run: the program takes the toylsm label probe and runs in
	 * the sandbox of landlock.rules.  A sandbox that cannot be made (a
	 * rule on a missing path) is the learner's landlock.rules, not
	 * given/: the steps then say what policy run said.
	 */
	if (!given_bad[0] && !policy_run_has("landlock", "landlock.rules"))
		snprintf(given_bad, sizeof(given_bad),
			 "the set's run file has no line \"landlock landlock.rules\": the program would run outside the sandbox (given/run)");
	if (!given_bad[0] && lsm_active("toylsm") &&
	    !policy_run_label("toylsm", path, sizeof(path)) && strcmp(path, "probe"))
		snprintf(given_bad, sizeof(given_bad),
			 "the program runs with the toylsm label %s, where the lab gives it probe (given/run)",
			 path[0] ? path : "(none)");
	/*
	 * Scenario 2: the job is another user's, and only theirs: given/files'
	 * owner and mode lines, which policy load applies (so that a learner's
	 * own `policy load` sets the scenario up too).
	 */
	if (!given_bad[0] && (stat(DIR12 "spool/job", &st) || st.st_uid != JOB_UID ||
			      (st.st_mode & 07777) != 0600))
		snprintf(given_bad, sizeof(given_bad),
			 DIR12 "spool/job is not uid %d's with mode 0600 (given/files' owner and mode lines)",
			 JOB_UID);
	if (given_bad[0])
		printf("grader: %s: given/ was changed\n", given_bad);
	make_decoys();
}

/* Who must refuse @a in this boot: a module, or NULL (allowed). */
static const char *expected(const struct access *a)
{
	char list[64], *m, *save = NULL;
	static char who[LSM_TRACE_NAME];

	snprintf(list, sizeof(list), "%s", a->refusers);
	for (m = strtok_r(list, ",", &save); m; m = strtok_r(NULL, ",", &save))
		if (lsm_active(m)) {
			snprintf(who, sizeof(who), "%s", m);
			return who;
		}
	return NULL;
}

/*
 * The refusal in the last of the program's calls (CALLS) that failed:
 * an open, or the read() or write() after it (AppArmor checks a write()
 * again, in file_permission); the walk
 * that failed it (its module and hook), or else a capable() a module
 * refused inside it (the open then failed on the file's mode: hook
 * "capable").  "" when the trace shows none.
 */
static void refusal_of(char *lsm, char *hook)
{
	const struct lsm_trace_answer *ans;
	const struct lsm_trace_walk *w;
	int i, j;

	lsm[0] = '\0';
	hook[0] = '\0';
	for (i = lab_rec.ncalls - 1; lab_rec_state == 1 && i >= 0; i--) {
		const struct lsm_trace_call *c = &lab_rec.calls[i];

		if (!lsm_trace_in_list(CALLS, c->sys) || !c->done || c->ret >= 0)
			continue;
		w = lsm_trace_decider(c);
		ans = w ? lsm_trace_refusal(w) : NULL;
		for (j = 0; !ans && j < c->nw; j++)
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
 * Try @a: 0 allowed, an errno, or -1 (the program did not run: @out says
 * why); who refused it in @lsm and @hook.
 */
static int attempt(const struct access *a, char *lsm, char *hook, char *out, size_t len)
{
	char path[128];
	char *argv[8];
	int n = 0, st;

	snprintf(path, sizeof(path), DIR12 "%s", a->file);
	argv[n++] = "/bin/policy";
	argv[n++] = "run";
	argv[n++] = policy_set;
	argv[n++] = "probe";
	if (a->caps)
		argv[n++] = "-k";
	argv[n++] = (char *)a->acc;
	argv[n++] = path;
	argv[n] = NULL;
	lab_record();
	st = policy_run_cmd(argv, out, len);
	lab_record_stop();
	refusal_of(lsm, hook);
	if (st != 0 && !strstr(out, ": refused, "))
		return -1;
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

/* The learner's file where @lsm's policy is. */
static const char *policy_file(const char *lsm)
{
	if (!strcmp(lsm, "apparmor"))
		return "apparmor/probe";
	if (!strcmp(lsm, "selinux"))
		return "selinux/kit.te";
	if (!strcmp(lsm, "smack"))
		return "smack.rules";
	if (!strcmp(lsm, "toylsm"))
		return "toylsm.rules";
	if (!strcmp(lsm, "landlock"))
		return "landlock.rules";
	return "(no policy file of yours)";
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
	const char *want = expected(a);
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024];
	int st;

	/* What only modules absent from this boot refuse is not graded here. */
	if (a->refusers[0] && !want)
		return;
	if (given_bad[0]) {
		lab_expected("the lab's files and program have the labels of given/");
		lab_seen("%s", given_bad);
		lab_hint("given/ is the lab's, not yours to edit: restore it (git checkout labs/12-diagnose-the-denial/given) and fix the scenarios in %s only",
			 lab_file);
		lab_fail();
	}
	policy_set_need_load();
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

/*
 * A line of the learner's file @name (in --src, the files one after the
 * other under "==> NAME <==" lines) that @bad() says gives more than a
 * scenario needs, into @line with its number; 0 if none (or no --src).
 */
static int src_find(const char *name, int (*bad)(const char *line), char *line, size_t len,
		    int *no)
{
	char head[128];
	int in = 0;
	FILE *f = lab_src ? fopen(lab_src, "r") : NULL;

	snprintf(head, sizeof(head), "==> %s <==\n", name);
	*no = 0;
	while (f && fgets(line, len, f)) {
		if (!strncmp(line, "==> ", 4)) {
			in = !strcmp(line, head);
			*no = 0;
			continue;
		}
		++*no;
		line[strcspn(line, "\n")] = '\0';
		if (in && bad(line + strspn(line, " \t"))) {
			fclose(f);
			return 1;
		}
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

/*
 * Scenario 1: what AppArmor's loaded profile gives on the report, beyond
 * r (k, l, m, x: permissions the program never asks here, so no access
 * of the step shows them).
 */
static void check_loaded_report(void)
{
	loaded_check_apparmor(DIR12 "data/report.csv", "apparmor/probe",
			      "the report is only read");
}

/*
 * Scenario 5: what SELinux's loaded policy gives probe_t on the vault's
 * types, in every class: file { open read } on the index, nothing on the
 * key; and probe_t not permissive.
 */
static void check_loaded_vault(void)
{
	loaded_check_selinux("probe_t", "vault_index_t", "open read",
			     "the program reads the index, nothing more");
	loaded_check_selinux("probe_t", "vault_key_t", "", "the key is never the program's");
}

static void check_step(int n)
{
	struct access a;
	size_t i;

	for (i = 0; access_at(i, &a); i++)
		if (a.step == n)
			check(&a);
}

STEP(1, "the report: read, and nothing more of data/")
{
	check_step(1);
	check_loaded_report();
}

STEP(2, "the spool: root reads another user's job, and does not write it")
{
	check_step(2);
	check_rules("apparmor/probe", cap_beyond, "capability dac_read_search, and no other",
		    "a capability rule grants that capability in every call of the program, not only in this open: the read of another user's file needs dac_read_search alone");
}

STEP(3, "the log: appended to, the orders kept read-only")
{
	check_step(3);
	check_rules("landlock.rules", landlock_write_beyond,
		    "write beneath /dev and the folders the scenarios write in (data, spool, out, cache, notes), nowhere else",
		    "the sandbox gives write beneath a folder no scenario writes in: another module refuses that write today, the sandbox should too");
}

STEP(4, "the cache: read and appended to, not its keys")
{
	check_step(4);
	loaded_check_rule("smack", POLICY_SMACK_LOAD2, "smack.rules", "Probe", "Cache", "rwa",
			  "the program reads and appends: Smack asks r, and w and a; any other letter is more than it needs");
	loaded_check_rule("smack", POLICY_SMACK_LOAD2, "smack.rules", "Probe", "CacheKey", "",
			  "the cache's keys are not the program's at all");
}

STEP(5, "the vault: the index read, the key refused in every boot")
{
	check_step(5);
	check_loaded_vault();
	loaded_check_rule("smack", POLICY_SMACK_LOAD2, "smack.rules", "Probe", "VaultIndex", "r",
			  "the program only reads the vault's index");
	loaded_check_rule("smack", POLICY_SMACK_LOAD2, "smack.rules", "Probe", "VaultKey", "",
			  "the key is never the program's");
}

STEP(6, "the diary: read, not written")
{
	check_step(6);
	check_toylsm_transition("probe");
	loaded_check_rule("toylsm", POLICY_TOY_RULES, "toylsm.rules", "probe", "diary", "r",
			  "the program only reads the diary");
}

/* In the guest shell (SHELL=1): every scenario as this boot decides it. */
static void lab_show(void)
{
	struct access acc;
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024];
	const char *want;
	size_t i;
	int st;

	lab_banner();
	if (policy_set_rc)
		return;
	printf("%-4s %-18s %-26s %-10s %s\n", "step", "access", "file", "wanted", "this boot");
	for (i = 0; access_at(i, &acc); i++) {
		const struct access *a = &acc;

		want = expected(a);
		st = attempt(a, lsm, hook, out, sizeof(out));
		printf("%-4d %-18s " DIR12 "%-15s %-10s ", a->step,
		       !a->caps ? a->acc : !strcmp(a->acc, "read") ? "read (root, -k)" :
		       "write (root, -k)", a->file,
		       want ? "refused" : a->refusers[0] ? "(not here)" : "allowed");
		if (st == 0)
			printf("allowed\n");
		else if (st < 0)
			printf("did not run: %s", out);
		else
			printf("refused, %s\n", errname(st));
	}
	printf("(who said no: why policy run %s probe read " DIR12 "data/report.csv)\n",
	       policy_set);
}
