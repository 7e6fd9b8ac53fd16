// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 10's grader: the learner's policy set (work/policy/, compiled on the
 * host by scripts/guest/policy-sets.sh into /etc/policy/NAME, NAME being this
 * program's own name: lab10-work, lab10-solution, lab10 in SHELL=1) is
 * loaded with the guest's `policy load NAME`; then /bin/probe, run by
 * `policy run NAME`, tries each access of the lab's table.  For a refusal,
 * the trace (labs/common/trace.h, patch 0017's events) says which module
 * said no and in which hook; the hints name that module's rule, with the
 * labels the kernel itself reports (`probe self`, the files' xattrs, the
 * rules in smackfs and toylsm's securityfs).
 *
 * Rules are global and outlive a variant (tests/host/labs.sh grades all
 * variants in the same boots): before loading, the banner removes every
 * Smack and toylsm rule that names one of the lab's labels, and the
 * lab's files; AppArmor replaces the profile and SELinux the policy whole.
 *
 * This file is the lab's specification: the table of accesses (who must
 * refuse each one, in every boot) and the steps, then the banner that
 * sets a boot up and lab_show().  How a row is tried and judged, and
 * what the grader says under a FAIL, is in hints.c, included last; the
 * skeleton both policy labs share is labs/common/policy_lab.h.
 */
#define _GNU_SOURCE
#include <dirent.h>

#include "grader.h"
#include "policy_lab.h"

#define DIR10 "/tmp/lab10/"

/*
 * One access of the table, and who must refuse it, in the order the
 * kernel asks them about an open() (inode_permission: Smack, SELinux;
 * then file_open: toylsm, AppArmor): the first one of them that is in
 * this boot refuses it; none of them in the boot, or "": allowed.
 */
struct row {
	const char *acc;	/* read, write (an append), overwrite, truncate */
	const char *file;	/* in /tmp/lab10 */
	const char *refusers;
	int todo;		/* the TODO whose rules decide it */
};

/* The walk order of the table's modules (see struct row). */
static const char *const walk[] = { "smack", "selinux", "toylsm", "apparmor", NULL };

/*
 * Decoys, made by the grader under names of its own each boot (N, a
 * number that changes), which no policy names and only AppArmor refuses
 * (Smack's _, SELinux's file_t, no toylsm label): a profile rule broader
 * than the one file a step names (notes*, a star for the folder) lets the
 * program read them.
 */
enum { D_NOTES, D_SHARED, D_ANY, NDECOYS };
static char decoy[NDECOYS][POLICY_DECOY];

#define ALL "smack,selinux,toylsm,apparmor"

/*
 * The table (the README's): each file is read, and written.  "Only read"
 * is graded with every way to write, since the modules ask for different
 * permissions (Smack: wa or w; SELinux: append or write): the program's
 * write (an append), an open for writing at the start (overwrite) and one
 * that truncates.  Who must refuse the read, and who each write (NULL:
 * the file is only read, a decoy).
 */
static const char *const writes[] = { "write", "overwrite", "truncate" };

static const struct {
	const char *file, *read, *write;
	int todo;
} table[] = {
	{ "notes", "", "apparmor", 1 },
	{ decoy[D_NOTES], "apparmor", NULL, 1 },
	{ decoy[D_ANY], "apparmor", NULL, 1 },
	{ "inbox", "", "smack", 2 },
	{ "ledger", "", "selinux", 3 },
	{ "diary", "", "toylsm", 4 },
	{ "shared", "", ALL, 5 },
	{ decoy[D_SHARED], "apparmor", NULL, 5 },
};

/* How the steps check the table (hints.c). */
static void each_access(int todo, void (*fn)(const struct row *r));
static void check(const struct row *r);	/* one access, in this boot */
static void check_alone(void);	/* step 5: each module's part on its own */
static int attempt(const struct row *r, char *lsm, char *hook, char *out, size_t len);

/*
 * Each step: the table's accesses of its TODO, in this boot; then what no
 * access shows, asked of the policy the kernel loaded: a permission beyond the
 * read on the step's file (AppArmor's k, m, l or x on notes; Smack's or
 * toylsm's letters beyond r; SELinux's permissions beyond open and read,
 * relabelfrom among them), which the program never asks for.
 */
#define READ_ONLY "the table wants it read only"

STEP(1, "AppArmor: the program reads notes, and only reads it")
{
	each_access(1, check);
	loaded_check_apparmor(DIR10 "notes", READ_ONLY);
}

STEP(2, "Smack: the program reads inbox, and only reads it")
{
	each_access(2, check);
	loaded_check_rule("smack", "Probe", "Inbox", "r", READ_ONLY);
}

STEP(3, "SELinux: the program reads ledger, and only reads it")
{
	each_access(3, check);
	loaded_check_selinux("probe_t", "ledger_t", "open read", READ_ONLY);
}

STEP(4, "toylsm: the program reads diary, and only reads it")
{
	each_access(4, check);
	loaded_check_rule("toylsm", "probe", "diary", "r", READ_ONLY);
}

/*
 * Step 5's write is refused by the first module asked, which hides the
 * answers of the others: check_alone() grades each module's part on its
 * own, shared relabelled so that the modules before it in the walk let
 * the program through.
 */
STEP(5, "every module must agree: the program reads shared")
{
	each_access(5, check);
	check_alone();
	loaded_check_apparmor(DIR10 "shared", READ_ONLY);
	loaded_check_rule("smack", "Probe", "Shared", "r", READ_ONLY);
	loaded_check_selinux("probe_t", "shared_t", "open read", READ_ONLY);
	loaded_check_rule("toylsm", "probe", "shared", "r", READ_ONLY);
}

/* The labels the program runs with, as `probe self` reports them. */
struct labels {
	char apparmor[96], smack[64], selinux[96], toylsm[64];
};

/* What the program's labels are (`policy run SET probe self`). */
static void get_labels(struct labels *l)
{
	char out[1024], *line, *save = NULL, *v;
	char *const argv[] = { "/bin/policy", "run", policy_set, "probe", "self", NULL };

	memset(l, 0, sizeof(*l));
	if (policy_run_cmd(argv, out, sizeof(out)))
		return;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		*v = '\0';
		v += 2;
		if (!strcmp(line, "apparmor"))
			snprintf(l->apparmor, sizeof(l->apparmor), "%s", v);
		else if (!strcmp(line, "smack"))
			snprintf(l->smack, sizeof(l->smack), "%s", v);
		else if (!strcmp(line, "toylsm"))
			snprintf(l->toylsm, sizeof(l->toylsm), "%s", v);
		else if (!strcmp(line, "selinux") || (!strcmp(line, "current") &&
						      !l->selinux[0] && strchr(v, ':')))
			snprintf(l->selinux, sizeof(l->selinux), "%s", v);
	}
}

/*
 * The labels the lab gives (given/files and given/run: the README's
 * second table), as this boot must show them once `policy load` ran: a
 * file's xattr in each module of the boot (SELinux: its type; NULL: no
 * label).  The files given/files does not label have what a new file
 * gets: Smack's _ (the grader's label), SELinux's file_t (fs_use_trans
 * tmpfs).  The program's Smack label is the one it runs with
 * (SMACK64EXEC).
 */
static const struct {
	const char *path, *smack, *selinux, *toylsm;
} given[] = {
	{ "/bin/probe", "Probe", "probe_exec_t", NULL },
	{ DIR10 "notes", "_", "file_t", NULL },
	{ DIR10 "inbox", "Inbox", "file_t", NULL },
	{ DIR10 "ledger", "_", "ledger_t", NULL },
	{ DIR10 "diary", "_", "file_t", "diary" },
	{ DIR10 "shared", "Shared", "shared_t", "shared" },
};

/*
 * The lab's files, the rules of the program's labels and the profiles,
 * gone.
 */
static void reset(void)
{
	struct dirent *e;
	char p[300];
	DIR *d;

	policy_lab_drop("Probe Inbox Shared", "probe diary shared");
	d = opendir(DIR10);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof(p), DIR10 "%s", e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
}

/*
 * Before grading: the files and the program have the lab's labels, in
 * the modules of this boot.  given/ is the lab's, not the learner's: an
 * edit of it would change what the table's accesses test.
 */
static void check_given(void)
{
	struct policy_given g[3 * sizeof(given) / sizeof(given[0])];
	struct labels l;
	size_t i, n = 0;

	for (i = 0; i < sizeof(given) / sizeof(given[0]); i++) {
		g[n++] = (struct policy_given){ given[i].path, "smack",
			strcmp(given[i].path, "/bin/probe") ? "security.SMACK64" :
			"security.SMACK64EXEC", given[i].smack };
		g[n++] = (struct policy_given){ given[i].path, "selinux", "security.selinux",
			given[i].selinux };
		g[n++] = (struct policy_given){ given[i].path, "toylsm", "security.toylsm",
			given[i].toylsm };
	}
	policy_given_check(g, n, policy_given_bad, sizeof(policy_given_bad));
	if (policy_given_bad[0] || !lsm_active("toylsm"))
		return;
	/* given/run: the program takes the toylsm label probe. */
	get_labels(&l);
	if (strcmp(l.toylsm, "probe"))
		snprintf(policy_given_bad, sizeof(policy_given_bad),
			 "the program runs with the toylsm label %s, where the lab gives it probe (given/run)",
			 l.toylsm[0] ? l.toylsm : "(none)");
}

static void make_decoys(void)
{
	static const char *const fmt[NDECOYS] = { "notes.%ld", "shared.%ld", "f%ld" };

	policy_decoys(DIR10, fmt, NDECOYS, decoy);
}

static void lab_banner(void)
{
	policy_lab_begin("lab 10: every module must agree");
	reset();
	policy_set_load();
	if (policy_set_rc == 0)
		check_given();
	if (policy_given_bad[0])
		printf("grader: %s: given/ was changed\n", policy_given_bad);
	if (policy_set_rc == 0)
		make_decoys();
}

/* lab_show()'s line for one access: what the table wants, what this boot did. */
static void show(const struct row *r)
{
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024];
	const char *want = policy_refuser(r->refusers);
	int st = attempt(r, lsm, hook, out, sizeof(out));

	printf("%-6s " DIR10 "%-9s %-30s ", r->acc, r->file, want ? want : "allowed");
	if (st == 0)
		printf("allowed\n");
	else if (st < 0)
		printf("did not run: %s", out);
	else
		printf("refused by %s in %s\n", lsm[0] ? lsm : "?", hook[0] ? hook : "?");
}

/* In the guest shell (SHELL=1): the table as this boot decides it. */
static void lab_show(void)
{
	lab_banner();
	if (policy_set_rc)
		return;
	printf("%-6s %-20s %-30s %s\n", "access", "file", "the table wants (refused by)", "this boot");
	each_access(0, show);
	printf("(try one yourself: why -s openat policy run %s probe read " DIR10 "notes)\n",
	       policy_set);
}

#include "hints.c"
