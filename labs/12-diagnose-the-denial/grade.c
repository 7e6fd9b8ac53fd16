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
 *
 * This file is the lab's specification: the table of accesses (who must
 * refuse each one, in which hook) and the steps, then the banner that
 * sets a boot up and lab_show().  How an access is tried and judged, and
 * what the grader says under a FAIL, is in hints.c, included last; the
 * skeleton both policy labs share is labs/common/policy_lab.h.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include "grader.h"
#include "policy_lab.h"

#define DIR12 "/tmp/lab12/"
/* The program's calls a module may refuse: its open, then its read or write. */
#define CALLS "openat,open,read,write"

/*
 * Scenario 2's file belongs to this user, mode 0600: root reads it only
 * with a capability.
 */
#define JOB_UID 1000

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

/*
 * The decoys' accesses, after the table's: scenario 1 reads each of data/
 * (AppArmor refuses it), scenario 3 reads the one beside the sandbox's
 * folders and writes it and those beneath its read-only folders
 * (Landlock refuses them).
 */
#define DECOY_READ_1 "nothing beneath data/ but the report is the program's, whatever its name (the grader made this file)"
#define DECOY_READ_3 "the sandbox lets the program read beneath the folders it lists, not beside them (the grader made this file)"
#define DECOY_WRITE_3 "the sandbox lets the program write beneath the folders it lists for write, nowhere else (the grader made this file)"

static const struct access decoys[] = {
	{ 1, "read", 0, decoy[D_DATA], "apparmor", "file_open", DECOY_READ_1 },
	{ 1, "read", 0, decoy[D_CSV], "apparmor", "file_open", DECOY_READ_1 },
	{ 1, "read", 0, decoy[D_REPORT], "apparmor", "file_open", DECOY_READ_1 },
	{ 1, "read", 0, decoy[D_SUB], "apparmor", "file_open", DECOY_READ_1 },
	{ 3, "read", 0, decoy[D_TOP], "landlock", "file_open", DECOY_READ_3 },
	{ 3, "write", 0, decoy[D_TOP], "landlock", "file_open", DECOY_WRITE_3 },
	{ 3, "write", 0, decoy[D_IN], "landlock", "file_open", DECOY_WRITE_3 },
	{ 3, "write", 0, decoy[D_VAULT], "landlock", "file_open", DECOY_WRITE_3 },
};

/* How the steps check the table and the rules (hints.c). */
static void check_step(int n);	/* every access of step n, the decoys' too */
static int access_at(size_t i, struct access *a);
static int attempt(const struct access *a, char *lsm, char *hook, char *out, size_t len);
/*
 * What the accesses cannot show: a rule of the learner's file @name
 * that @bad() finds gives more than the scenario needs (@needs), which no
 * access here uses; and a toylsm rule that lets @subj relabel itself.
 */
static void check_rules(const char *name, int (*bad)(const char *line), const char *needs,
			const char *why);
static int cap_beyond(const char *l);	/* a capability beyond dac_read_search */
static int landlock_write_beyond(const char *l);	/* write where no scenario writes */
static void check_toylsm_transition(const char *subj);
static void check_loaded_rules(int n);	/* the rules of step n below */

/*
 * What no access shows, asked of the Smack and toylsm rules the kernel
 * loaded (loaded_check_rule()): the rule from subj to obj gives no letter
 * beyond may ("": no rule at all).
 */
static const struct {
	int step;
	const char *lsm, *subj, *obj, *may, *why;
} rules[] = {
	{ 4, "smack", "Probe", "Cache", "rwa",
	  "the program reads and appends: Smack asks r, and w and a; any other letter is more than it needs"
	},
	{ 4, "smack", "Probe", "CacheKey", "", "the cache's keys are not the program's at all" },
	{ 5, "smack", "Probe", "VaultIndex", "r", "the program only reads the vault's index" },
	{ 5, "smack", "Probe", "VaultKey", "", "the key is never the program's" },
	{ 6, "toylsm", "probe", "diary", "r", "the program only reads the diary" },
};

/*
 * Each step: its accesses in this boot (the table's and the decoys');
 * then what no access shows, asked of the policy the kernel loaded (the
 * rules above) or read from the learner's rule.
 */
STEP(1, "the report: read, and nothing more of data/")
{
	check_step(1);
	/*
	 * What AppArmor's loaded profile gives on the report, beyond r (k,
	 * l, m, x: permissions the program never asks here, so no access of
	 * the step shows them).
	 */
	loaded_check_apparmor(DIR12 "data/report.csv", "the report is only read");
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
	check_loaded_rules(4);
}

STEP(5, "the vault: the index read, the key refused in every boot")
{
	check_step(5);
	/*
	 * What SELinux's loaded policy gives probe_t on the vault's types, in
	 * every class: file { open read } on the index, nothing on the key;
	 * and probe_t not permissive.
	 */
	loaded_check_selinux("probe_t", "vault_index_t", "open read",
			     "the program reads the index, nothing more");
	loaded_check_selinux("probe_t", "vault_key_t", "", "the key is never the program's");
	check_loaded_rules(5);
}

STEP(6, "the diary: read, not written")
{
	check_step(6);
	check_toylsm_transition("probe");
	check_loaded_rules(6);
}

/*
 * The labels the lab gives (given/files), as this boot must show them once
 * `policy load` ran: a file's xattr in each module of the boot that the
 * scenarios rely on (SELinux: its type; NULL: no label).
 */
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
 * What an earlier set loaded in this boot (make test grades several in
 * one): the lab's files, the rules of its labels (Smack and toylsm add
 * rules at each load) and the profiles, gone.
 */
static void reset(void)
{
	char out[256];
	char *const rm[] = { "/bin/rm", "-rf", DIR12, NULL };

	policy_lab_drop("Probe Cache CacheKey VaultIndex VaultKey", "probe diary");
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

	policy_lab_begin("lab 12: diagnose the denial");
	reset();
	policy_set_load();
	if (policy_set_rc)
		return;
	policy_given_check(given, sizeof(given) / sizeof(given[0]), policy_given_bad,
			   sizeof(policy_given_bad));
	/*
	 * given/run: the program takes the toylsm label probe and runs in
	 * the sandbox of landlock.rules.  A sandbox that cannot be made (a
	 * rule on a missing path) is the learner's landlock.rules, not
	 * given/: the steps then say what policy run said.
	 */
	if (!policy_given_bad[0] && !policy_run_has("landlock", "landlock.rules"))
		snprintf(policy_given_bad, sizeof(policy_given_bad),
			 "the set's run file has no line \"landlock landlock.rules\": the program would run outside the sandbox (given/run)");
	if (!policy_given_bad[0] && lsm_active("toylsm") &&
	    !policy_run_label("toylsm", path, sizeof(path)) && strcmp(path, "probe"))
		snprintf(policy_given_bad, sizeof(policy_given_bad),
			 "the program runs with the toylsm label %s, where the lab gives it probe (given/run)",
			 path[0] ? path : "(none)");
	/*
	 * Scenario 2: the job is another user's, and only theirs: given/files'
	 * owner and mode lines, which policy load applies (so that a learner's
	 * own `policy load` sets the scenario up too).
	 */
	if (!policy_given_bad[0] && (stat(DIR12 "spool/job", &st) || st.st_uid != JOB_UID ||
				     (st.st_mode & 07777) != 0600))
		snprintf(policy_given_bad, sizeof(policy_given_bad),
			 DIR12 "spool/job is not uid %d's with mode 0600 (given/files' owner and mode lines)",
			 JOB_UID);
	if (policy_given_bad[0])
		printf("grader: %s: given/ was changed\n", policy_given_bad);
	make_decoys();
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

		want = policy_refuser(a->refusers);
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

#include "hints.c"
