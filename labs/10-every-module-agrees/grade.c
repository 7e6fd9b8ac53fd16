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
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fnmatch.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>

#include "grader.h"
#include "kit/files.h"
#include "kit/kernel_log.h"
#include "policy_set.h"
#include "loaded.h"
#include "trace.h"

#define DIR10 "/tmp/lab10/"

static char given_bad[512];	/* how the files' labels differ from the lab's */

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

/* A file's label in one module, or "(none)". */
static const char *xattr_of(const char *file, const char *name)
{
	static char buf[4][96];
	static int k;
	char path[128];
	ssize_t n;

	k = (k + 1) % 4;
	snprintf(path, sizeof(path), DIR10 "%s", file);
	n = getxattr(path, name, buf[k], sizeof(buf[k]) - 1);
	if (n < 0)
		snprintf(buf[k], sizeof(buf[k]), "(none)");
	else
		buf[k][n] = '\0';
	buf[k][strcspn(buf[k], "\n")] = '\0';
	return buf[k];
}

/*
 * The rule of a rules file (smackfs load2, toylsm's rules) from subject
 * to object, as the kernel lists it; NULL if there is none.
 */
static const char *kernel_rule(const char *path, const char *subj, const char *obj)
{
	static char line[128];
	char s[64], o[64], p[16];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%63s %63s %15s", s, o, p) == 3 && !strcmp(s, subj) &&
		    !strcmp(o, obj)) {
			fclose(f);
			return line;
		}
	}
	if (f)
		fclose(f);
	return NULL;
}

/*
 * The lab's files, the rules of the program's labels and the profiles,
 * gone.
 */
static void reset(void)
{
	struct dirent *e;
	char p[300];
	DIR *d;

	if (lsm_active("smack"))
		policy_drop_rules(POLICY_SMACK_LOAD2, "Probe Inbox Shared", 0);
	if (lsm_active("toylsm"))
		policy_drop_rules(POLICY_TOY_RULES, "probe diary shared", 1);
	if (lsm_active("apparmor"))
		policy_drop_profiles();
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
 * The labels the lab gives (given/files and given/run, the README's
 * table), as this boot must show them once `policy load` ran: a file's
 * xattr (SELinux: its type) in each module of the boot; NULL: none.  The
 * files given/files does not label have what a new file gets: Smack's _
 * (the grader's label), SELinux's file_t (fs_use_trans tmpfs).
 */
static const struct policy_given given[] = {
	{ "/bin/probe", "smack", "security.SMACK64EXEC", "Probe" },
	{ "/bin/probe", "selinux", "security.selinux", "probe_exec_t" },
	{ "/bin/probe", "toylsm", "security.toylsm", NULL },
	{ DIR10 "notes", "smack", "security.SMACK64", "_" },
	{ DIR10 "notes", "selinux", "security.selinux", "file_t" },
	{ DIR10 "notes", "toylsm", "security.toylsm", NULL },
	{ DIR10 "inbox", "smack", "security.SMACK64", "Inbox" },
	{ DIR10 "inbox", "selinux", "security.selinux", "file_t" },
	{ DIR10 "inbox", "toylsm", "security.toylsm", NULL },
	{ DIR10 "ledger", "smack", "security.SMACK64", "_" },
	{ DIR10 "ledger", "selinux", "security.selinux", "ledger_t" },
	{ DIR10 "ledger", "toylsm", "security.toylsm", NULL },
	{ DIR10 "diary", "smack", "security.SMACK64", "_" },
	{ DIR10 "diary", "selinux", "security.selinux", "file_t" },
	{ DIR10 "diary", "toylsm", "security.toylsm", "diary" },
	{ DIR10 "shared", "smack", "security.SMACK64", "Shared" },
	{ DIR10 "shared", "selinux", "security.selinux", "shared_t" },
	{ DIR10 "shared", "toylsm", "security.toylsm", "shared" },
};

static void get_labels(struct labels *l);

/*
 * Before grading: the files and the program have the lab's labels, in
 * the modules of this boot.  given/ is the lab's, not the learner's: an
 * edit of it would change what the table's accesses test.
 */
static void check_given(void)
{
	struct labels l;

	policy_given_check(given, sizeof(given) / sizeof(given[0]), given_bad,
			   sizeof(given_bad));
	if (given_bad[0] || !lsm_active("toylsm"))
		return;
	/* given/run: the program takes the toylsm label probe. */
	get_labels(&l);
	if (strcmp(l.toylsm, "probe"))
		snprintf(given_bad, sizeof(given_bad),
			 "the program runs with the toylsm label %s, where the lab gives it probe (given/run)",
			 l.toylsm[0] ? l.toylsm : "(none)");
}

/*
 * Decoys, made by the grader under names of its own each boot (N, a
 * number that changes), which no policy names and only AppArmor refuses
 * (Smack's _, SELinux's file_t, no toylsm label): a profile rule broader
 * than the one file a step names (notes*, a star for the folder) lets the
 * program read them.
 */
enum { D_NOTES, D_SHARED, D_ANY, NDECOYS };
static char decoy[NDECOYS][POLICY_DECOY];

static void make_decoys(void)
{
	static const char *const fmt[NDECOYS] = { "notes.%ld", "shared.%ld", "f%ld" };

	policy_decoys(DIR10, fmt, NDECOYS, decoy);
}

static void lab_banner(void)
{
	load_fs_list();
	printf("lab 10: every module must agree; this boot: %s\n", fs_list);
	/* Every audit record in the kernel log (dmesg), none dropped. */
	kernel_log_unlimited();
	policy_set_begin();
	reset();
	policy_set_load();
	if (policy_set_rc == 0)
		check_given();
	if (given_bad[0])
		printf("grader: %s: given/ was changed\n", given_bad);
	if (policy_set_rc == 0)
		make_decoys();
}

/* The walk order of the table's modules (see struct row). */
static const char *const walk[] = { "smack", "selinux", "toylsm", "apparmor", NULL };

static const char *hook_of(const char *lsm)
{
	return !strcmp(lsm, "smack") || !strcmp(lsm, "selinux") ? "inode_permission" : "file_open";
}

static int walk_index(const char *lsm)
{
	int i;

	for (i = 0; walk[i]; i++)
		if (!strcmp(walk[i], lsm))
			return i;
	return 99;
}

/* Who must refuse the row in this boot: a module, or NULL (allowed). */
static const char *expected(const struct row *r)
{
	int i;

	for (i = 0; walk[i]; i++)
		if (strstr(r->refusers, walk[i]) && lsm_active(walk[i]))
			return walk[i];
	return NULL;
}

/*
 * Try the row: 0 allowed, an errno, or -1 (the program did not run: out
 * says why).  A refusal's module and hook from the trace, or "".
 */
static int attempt(const struct row *r, char *lsm, char *hook, char *out, size_t len)
{
	char path[128];
	char *const argv[] = { "/bin/policy", "run", policy_set, "probe", (char *)r->acc, path,
			       NULL };
	const struct lsm_trace_walk *w;
	const struct lsm_trace_answer *a;
	int st, i;

	snprintf(path, sizeof(path), DIR10 "%s", r->file);
	lsm[0] = '\0';
	hook[0] = '\0';
	lab_record();
	st = policy_run_cmd(argv, out, len);
	lab_record_stop();
	if (st != 0 && !strstr(out, ": refused, "))
		return -1;
	for (i = lab_rec.ncalls - 1; st && lab_rec_state == 1 && i >= 0; i--) {
		const struct lsm_trace_call *c = &lab_rec.calls[i];

		if (!lsm_trace_in_list("openat,open", c->sys) || !c->done || c->ret >= 0)
			continue;
		w = lsm_trace_decider(c);
		a = w ? lsm_trace_refusal(w) : NULL;
		if (!a)
			continue;
		snprintf(lsm, LSM_TRACE_NAME, "%s", a->lsm);
		snprintf(hook, LSM_TRACE_NAME, "%s", w->hook);
		break;
	}
	return st;
}

/*
 * What a module asks for the program's access, in its own letters: a read
 * is r (SELinux: read); a write opens with O_APPEND, which AppArmor and
 * toylsm check as w (AppArmor's w covers its a), Smack as w and a both,
 * SELinux as append (its file_mask_to_av()).
 */
static const char *perms(const char *lsm, const char *acc)
{
	if (acc[0] == 'r')
		return !strcmp(lsm, "selinux") ? "read" : "r";
	if (strcmp(acc, "write"))	/* overwrite, truncate: O_WRONLY */
		return !strcmp(lsm, "selinux") ? "write" : "w";
	if (!strcmp(lsm, "smack"))
		return "wa";
	if (!strcmp(lsm, "selinux"))
		return "append";
	return "w";
}

/* How the program opens the file for @acc. */
static const char *open_of(const char *acc)
{
	if (!strcmp(acc, "read"))
		return "an O_RDONLY open";
	if (!strcmp(acc, "write"))
		return "an O_APPEND open";
	if (!strcmp(acc, "overwrite"))
		return "an O_WRONLY open";
	return "an O_WRONLY|O_TRUNC open";
}

/*
 * What TODO @n of the learner's file @name says (from --src, where the
 * files are one after the other under "==> NAME <==" lines).
 */
static void hint_todo(const char *name, int n)
{
	char line[512], want[32], head[128];
	int in = 0;
	FILE *f = lab_src ? fopen(lab_src, "r") : NULL;

	snprintf(want, sizeof(want), "TODO %d:", n);
	snprintf(head, sizeof(head), "==> %s <==", name);
	while (f && fgets(line, sizeof(line), f)) {
		char *p;

		if (!strncmp(line, "==> ", 4))
			in = !strncmp(line, head, strlen(head));
		p = in ? strstr(line, want) : NULL;
		if (!p)
			continue;
		p[strcspn(p, "\n")] = '\0';
		lab_hint("%s/%s says: %s", lab_file, name, p);
		break;
	}
	if (f)
		fclose(f);
}

/*
 * The learner's file @name in --src, where the files are one after the
 * other under "==> NAME <==" lines: src_open() finds it, src_next() gives
 * its lines in turn (without the newline), *no counting them as in the
 * learner's own file, up to the next file; 0 at its end.
 */
static FILE *src_open(const char *name)
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

static int src_next(FILE *f, char *line, size_t len, int *no)
{
	if (!f || !fgets(line, len, f) || !strncmp(line, "==> ", 4))
		return 0;
	line[strcspn(line, "\n")] = '\0';
	++*no;
	return 1;
}

/* A line that is a rule, not blank or a comment. */
static int is_rule(const char *line)
{
	line += strspn(line, " \t");
	return *line && *line != '#';
}

/* Every letter of @want is in @have (a rule's access or perms). */
static int has_perms(const char *have, const char *want)
{
	for (; *want; want++)
		if (!strchr(have, *want) && !strchr(have, *want - 'a' + 'A'))
			return 0;
	return 1;
}

/*
 * The lines of @name (smack.rules, toylsm.rules: SUBJECT OBJECT ACCESS)
 * that come near a rule from @subj to @obj giving @p, and what is wrong
 * with each: the two labels swapped, a label in the wrong case, the
 * access without @p.  None: say that no line names the two labels.
 */
static void hint_rule_lines(const char *mod, const char *name, const char *subj,
			    const char *obj, const char *p)
{
	char line[512], s[64], o[64], a[32];
	int no = 0, said = 0;
	FILE *f = src_open(name);

	while (src_next(f, line, sizeof(line), &no)) {
		if (!is_rule(line) || sscanf(line, "%63s %63s %31s", s, o, a) != 3)
			continue;
		if (!strcmp(s, subj) && !strcmp(o, obj)) {
			if (!has_perms(a, p))
				lab_hint("%s/%s, line %d, \"%s\": a rule from %s to %s, but its access %s does not hold %s",
					 lab_file, name, no, line, s, o, a, p);
		} else if (!strcasecmp(s, subj) && !strcasecmp(o, obj)) {
			lab_hint("%s/%s, line %d, \"%s\": %s labels are case-sensitive, and %s is not %s (%s)",
				 lab_file, name, no, line, mod, strcmp(s, subj) ? s : o,
				 strcmp(s, subj) ? subj : obj,
				 strcmp(s, subj) ? "the program's label" : "the file's label");
		} else if (!strcasecmp(s, obj) && !strcasecmp(o, subj)) {
			lab_hint("%s/%s, line %d, \"%s\": a rule is SUBJECT OBJECT ACCESS, so this one lets a task labelled %s use what is labelled %s; here the program (%s) is the subject and the file (%s) the object",
				 lab_file, name, no, line, s, o, subj, obj);
		} else {
			continue;
		}
		said = 1;
	}
	if (f)
		fclose(f);
	if (!said)
		lab_hint("no line of %s/%s names both %s and %s: a rule is SUBJECT OBJECT ACCESS, the program's label first",
			 lab_file, name, subj, obj);
}

/*
 * The lines of apparmor/probe that name @path (exactly, by a glob, or in
 * another case), and what is wrong with each; none: say so.
 */
static void hint_profile_lines(const char *path, const char *p)
{
	char line[512], w[4][256], *perm;
	int no = 0, said = 0, n, k;
	FILE *f = src_open("apparmor/probe");

	while (src_next(f, line, sizeof(line), &no)) {
		if (!is_rule(line))
			continue;
		n = sscanf(line, "%255s %255s %255s %255s", w[0], w[1], w[2], w[3]);
		for (k = 0; k < n - 1 && (!strcmp(w[k], "audit") || !strcmp(w[k], "owner") ||
					  !strcmp(w[k], "allow") || !strcmp(w[k], "deny")); k++)
			;
		if (k >= n - 1 || w[k][0] != '/')
			continue;
		perm = w[k + 1];
		perm[strcspn(perm, ",")] = '\0';
		if (!fnmatch(w[k], path, 0)) {
			if (!strcmp(w[0], "deny") || !strcmp(w[1], "deny"))
				lab_hint("%s/apparmor/probe, line %d, \"%s\": a deny rule, which refuses %s whatever else the profile gives",
					 lab_file, no, line, perm);
			else if (!has_perms(perm, p))
				lab_hint("%s/apparmor/probe, line %d, \"%s\": it names %s, with %s, which does not hold %s",
					 lab_file, no, line, path, perm, p);
		} else if (!fnmatch(w[k], path, FNM_CASEFOLD)) {
			lab_hint("%s/apparmor/probe, line %d, \"%s\": AppArmor's paths are case-sensitive, and %s is not %s",
				 lab_file, no, line, w[k], path);
		} else {
			continue;
		}
		said = 1;
	}
	if (f)
		fclose(f);
	if (!said)
		lab_hint("no rule of %s/apparmor/probe names %s: a rule is a path (globs allowed), its permissions and a comma",
			 lab_file, path);
}

/*
 * The allow rules of selinux/kit.te from @d to @t (a list { ... } counts
 * as naming them), and whether each gives @perm; none: say so.
 */
#define SEP " \t{}:;"

static void hint_allow_lines(const char *d, const char *t, const char *perm)
{
	char line[512], copy[512], *w, *save;
	int no = 0, pair = 0, src, tgt, gives;
	FILE *f = src_open("selinux/kit.te");

	while (src_next(f, line, sizeof(line), &no)) {
		if (!is_rule(line) || strncmp(line + strspn(line, " \t"), "allow", 5))
			continue;
		snprintf(copy, sizeof(copy), "%s", line);
		src = 0;
		tgt = 0;
		gives = 0;
		for (w = strtok_r(copy, SEP, &save); w; w = strtok_r(NULL, SEP, &save)) {
			src |= !strcmp(w, d);
			tgt |= !strcmp(w, t);
			gives |= !strcmp(w, perm) || !strcmp(w, "*");
		}
		if (!src || !tgt)
			continue;
		pair = 1;
		if (!gives)
			lab_hint("%s/selinux/kit.te, line %d, \"%s\": an allow rule from %s to %s without %s",
				 lab_file, no, line, d, t, perm);
	}
	if (f)
		fclose(f);
	if (!pair)
		lab_hint("no allow rule of %s/selinux/kit.te names both %s and %s", lab_file, d, t);
}

/* The level-1 hint's last line: the exact line is one HINT=2 away. */
static void hint_more(const char *lsm)
{
	lab_hint("make lab 10 HINT=2 shows the line that would make %s say yes", lsm);
}

/*
 * A module of SUBJECT OBJECT ACCESS rules (Smack, toylsm) refused @r:
 * the labels it compared, its rules that name them, and the line to write
 * (HINT=2).  @asked is the module's word for what a rule grants.
 */
static void hint_rule_module(const char *name, const char *hook, const char *subj,
			     const char *xattr, const char *file, const char *asked,
			     const struct row *r, const char *p)
{
	const char *o = xattr_of(r->file, xattr);

	lab_hint("what the kernel saw: %s refused in %s; subject %s (the program's %s label), object %s (the file's %s), the %s asked %s (%s)",
		 name, hook, subj, name, o, xattr, asked, p, open_of(r->acc));
	hint_rule_lines(name, file, subj, o, p);
	hint_todo(file, r->todo);
	if (lab_hint_level < 2)
		hint_more(name);
	else
		lab_hint("the line \"%s %s %s\" in %s/%s would make %s say yes (a module after it may still say no)",
			 subj, o, p, lab_file, file, name);
}

/*
 * @lsm refused @r: what the kernel saw (the module, its hook, the
 * subject's and the object's labels, the permission asked) and where to
 * look, with what is wrong with the learner's lines that come near; the
 * exact line to write only with HINT=2 (lab_hint_level).
 */
static void hint_grant(const char *lsm, const char *hook, const struct row *r,
		       const struct labels *l)
{
	const char *p = perms(lsm, r->acc);

	if (!strcmp(lsm, "apparmor")) {
		char path[128];

		snprintf(path, sizeof(path), DIR10 "%s", r->file);
		lab_hint("what the kernel saw: AppArmor refused in %s; the program runs as \"%s\" (its profile), the path %s, the permission asked %s (%s)",
			 hook, l->apparmor, path, p, open_of(r->acc));
		hint_profile_lines(path, p);
		hint_todo("apparmor/probe", r->todo);
		if (lab_hint_level < 2)
			hint_more("AppArmor");
		else
			lab_hint("the line \"  %s %s,\" in %s/apparmor/probe would make AppArmor say yes (a module after it may still say no)",
				 path, p, lab_file);
	} else if (!strcmp(lsm, "smack")) {
		hint_rule_module("Smack", hook, l->smack, "security.SMACK64", "smack.rules",
				 "access", r, p);
	} else if (!strcmp(lsm, "selinux")) {
		char t[64], d[64];
		const char *perm = !strcmp(hook, "file_open") ? "open" : p;

		snprintf(t, sizeof(t), "%s", se_type(xattr_of(r->file, "security.selinux")));
		snprintf(d, sizeof(d), "%s", se_type(l->selinux));
		lab_hint("what the kernel saw: SELinux refused in %s; source %s (the program's domain), target %s (the file's type), class file, the permission asked %s: no allow rule gives it",
			 hook, d, t, perm);
		lab_hint("SELinux asks %s in inode_permission and open in file_open: the program's %s (%s) needs both",
			 p, r->acc, open_of(r->acc));
		hint_allow_lines(d, t, perm);
		hint_todo("selinux/kit.te", r->todo);
		if (lab_hint_level < 2)
			hint_more("SELinux");
		else
			lab_hint("the line \"allow %s %s:file { open %s };\" in %s/selinux/kit.te would give both, and make SELinux say yes (a module after it may still say no)",
				 d, t, p, lab_file);
	} else if (!strcmp(lsm, "toylsm")) {
		hint_rule_module("toylsm", hook, l->toylsm, "security.toylsm", "toylsm.rules",
				 "permission", r, p);
	} else {
		lab_hint("%s is not a module whose policy this lab gives you: the README's table says which modules decide each access",
			 lsm);
	}
}

/* @lsm allowed @r, which it must refuse: why, in its own language. */
static void hint_too_much(const char *lsm, const struct row *r, const struct labels *l)
{
	const char *p = perms(lsm, r->acc), *rule;
	char enf[8] = "";
	int fd;

	if (!strcmp(lsm, "apparmor")) {
		if (!strncmp(l->apparmor, "unconfined", 10) || !l->apparmor[0]) {
			lab_hint("the program runs as \"%s\" for AppArmor: no profile attached to it; keep the profile's first line \"profile probe /bin/probe {\" (the path is what attaches it)",
				 l->apparmor[0] ? l->apparmor : "(unknown)");
			return;
		}
		if (!strstr(l->apparmor, "(enforce)")) {
			lab_hint("the program runs as \"%s\" for AppArmor: a profile that is not in enforce mode refuses nothing (no flags=(complain) in the profile)",
				 l->apparmor);
			return;
		}
		char how[96];

		if (!strcmp(r->acc, "write"))
			snprintf(how, sizeof(how), "w or a (the program's write appends)");
		else if (p[0] == 'w')
			snprintf(how, sizeof(how), "w (what the program's %s, %s, asks for)",
				 r->acc, open_of(r->acc));
		else
			snprintf(how, sizeof(how), "%s", p);
		lab_hint("AppArmor's profile \"%s\" gives %s on " DIR10 "%s (a rule of %s/apparmor/probe, a glob counts): the table wants %s",
			 l->apparmor, how, r->file,
			 lab_file, p[0] == 'w' ? "it to give r only" : "no r at all");
		hint_todo("apparmor/probe", r->todo);
	} else if (!strcmp(lsm, "smack")) {
		const char *o = xattr_of(r->file, "security.SMACK64");

		rule = kernel_rule(POLICY_SMACK_LOAD2, l->smack, o);
		char how[96];

		if (!strcmp(r->acc, "write"))
			snprintf(how, sizeof(how), "w and a (what the program's write, an append, asks for)");
		else if (p[0] == 'w')
			snprintf(how, sizeof(how), "w (what the program's %s, %s, asks for)",
				 r->acc, open_of(r->acc));
		else
			snprintf(how, sizeof(how), "%s", p);
		if (rule)
			lab_hint("Smack has the rule \"%s\" (from %s/smack.rules): it gives %s %s on %s; the table wants r only",
				 rule, lab_file, l->smack, how, o);
		else
			lab_hint("Smack let %s (the program's label) %s a file labelled %s, with no rule from %s to %s: are the labels those of the README's table?",
				 l->smack, r->acc, o, l->smack, o);
		hint_todo("smack.rules", r->todo);
	} else if (!strcmp(lsm, "selinux")) {
		fd = open("/sys/fs/selinux/enforce", O_RDONLY);
		if (fd < 0 || read(fd, enf, 1) != 1)
			enf[0] = '?';
		if (fd >= 0)
			close(fd);
		if (enf[0] == '0') {
			lab_hint("SELinux is permissive in this boot: it refuses nothing");
		} else {
			char how[96];

			if (p[0] == 'a')
				snprintf(how, sizeof(how),
					 "append (what it checks for the program's write, an O_APPEND open)");
			else if (!strcmp(p, "write"))
				snprintf(how, sizeof(how), "write (what it checks for %s)",
					 open_of(r->acc));
			else
				snprintf(how, sizeof(how), "%s", p);
			lab_hint("SELinux's policy gives %s (the program's domain) %s on %s files: an allow rule of %s/selinux/kit.te lists it (or *); the table wants { open read } only",
				 se_type(l->selinux), how,
				 se_type(xattr_of(r->file, "security.selinux")), lab_file);
		}
		hint_todo("selinux/kit.te", r->todo);
	} else if (!strcmp(lsm, "toylsm")) {
		const char *o = xattr_of(r->file, "security.toylsm");

		rule = kernel_rule(POLICY_TOY_RULES, l->toylsm, o);
		if (rule)
			lab_hint("toylsm has the rule \"%s\" (from %s/toylsm.rules): it gives %s %s on %s; the table wants r only",
				 rule, lab_file, l->toylsm, p, o);
		else
			lab_hint("toylsm let %s (the program's label) %s a file labelled %s with no rule between them: are the labels those of the README's table?",
				 l->toylsm, r->acc, o);
		hint_todo("toylsm.rules", r->todo);
	}
}

/*
 * The policy set must have loaded, over the lab's labels; else every step
 * says why not.
 */
static void need_load(void)
{
	if (policy_set_rc == 0 && given_bad[0]) {
		lab_expected("the lab's files and program have the labels of given/ (the README's second table)");
		lab_seen("%s", given_bad);
		lab_hint("these labels come from given/ (files: the files' labels; run: the program's toylsm label), which is the lab's, not yours to edit: an edit changes what the table's accesses test; restore it (git checkout labs/10-every-module-agrees/given) and write your rules in %s only",
			 lab_file);
		lab_fail();
	}
	policy_set_need_load();
}

/* One row of the table in this boot; fails the step on a difference. */
static void check(const struct row *r)
{
	const char *want = expected(r);
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024], what[160];
	struct labels l;
	int st;

	need_load();
	st = attempt(r, lsm, hook, out, sizeof(out));
	if (st < 0) {
		lab_expected("policy run %s probe %s " DIR10 "%s runs the program", policy_set,
			     r->acc, r->file);
		lab_seen("%s", out);
		lab_hint("the program could not even start: does the profile still give \"/bin/probe mr,\", and does Smack, SELinux or toylsm keep it from being run (the given rules)?");
		lab_fail();
	}
	if (want ? st == EACCES && !strcmp(lsm, want) : st == 0)
		return;
	if (st && !lsm[0] && lab_rec_state == 1) {
		lab_kit("the program's %s of " DIR10 "%s failed (%s) and the trace names no module (%d system calls recorded%s)",
			r->acc, r->file, errname(st), lab_rec.ncalls,
			lab_rec.calls_lost ? ", some lost" : "");
		lab_fail();
	}
	get_labels(&l);
	snprintf(what, sizeof(what), "the program's open() of " DIR10 "%s", r->file);
	if (want)
		lab_expected("%s " DIR10 "%s: refused, by %s (in %s), the first module of this boot that the table says refuses it",
			     r->acc, r->file, want, hook_of(want));
	else
		lab_expected("%s " DIR10 "%s: allowed by every module", r->acc, r->file);
	if (st == 0) {
		lab_seen("allowed: every module of this boot said yes");
		lab_trace_allowed(what, "openat,open", hook_of(want), want);
		hint_too_much(want, r, &l);
		lab_fail();
	}
	if (!lsm[0]) {
		lab_seen("refused, %s", errname(st));
		lab_trace_refusal(what, "openat,open");
		lab_kit("without the trace the grader cannot tell which module refused (patch 0017's lsm:* events)");
		lab_fail();
	}
	lab_seen("refused, %s, by %s in %s", errname(st), lsm, hook);
	lab_trace_refusal(what, "openat,open");
	if (!want) {
		hint_grant(lsm, hook, r, &l);
	} else if (walk_index(want) < walk_index(lsm)) {
		lab_hint("%s was asked before %s and said yes: it must say no", want, lsm);
		hint_too_much(want, r, &l);
	} else {
		lab_hint("%s said no before %s was asked: the table wants %s to let it through and %s to refuse it",
			 lsm, want, lsm, want);
		hint_grant(lsm, hook, r, &l);
	}
	lab_fail();
}

#define ALL "smack,selinux,toylsm,apparmor"

/*
 * "Only read": the program's write (an append), an open for writing at
 * the start (overwrite) and one that truncates are each tried, since the
 * modules ask for different permissions (Smack: wa or w; SELinux: append
 * or write).
 */
static const struct row table[] = {
	{ "read", "notes", "", 1 },
	{ "write", "notes", "apparmor", 1 },
	{ "overwrite", "notes", "apparmor", 1 },
	{ "truncate", "notes", "apparmor", 1 },
	{ "read", decoy[D_NOTES], "apparmor", 1 },
	{ "read", decoy[D_ANY], "apparmor", 1 },
	{ "read", "inbox", "", 2 },
	{ "write", "inbox", "smack", 2 },
	{ "overwrite", "inbox", "smack", 2 },
	{ "truncate", "inbox", "smack", 2 },
	{ "read", "ledger", "", 3 },
	{ "write", "ledger", "selinux", 3 },
	{ "overwrite", "ledger", "selinux", 3 },
	{ "truncate", "ledger", "selinux", 3 },
	{ "read", "diary", "", 4 },
	{ "write", "diary", "toylsm", 4 },
	{ "overwrite", "diary", "toylsm", 4 },
	{ "truncate", "diary", "toylsm", 4 },
	{ "read", "shared", "", 5 },
	{ "write", "shared", ALL, 5 },
	{ "overwrite", "shared", ALL, 5 },
	{ "truncate", "shared", ALL, 5 },
	{ "read", decoy[D_SHARED], "apparmor", 5 },
};

static void check_todo(int n)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].todo == n)
			check(&table[i]);
}

/*
 * What no row of the table shows, asked of the policy the kernel loaded:
 * a permission beyond the read on the step's file (AppArmor's k, m, l or
 * x on notes; Smack's or toylsm's letters beyond r; SELinux's permissions
 * beyond open and read, relabelfrom among them), which the program never
 * asks for.
 */
static void check_loaded(int n)
{
	if (n == 1 || n == 5)
		loaded_check_apparmor(n == 1 ? DIR10 "notes" : DIR10 "shared", "apparmor/probe",
				      "the table wants it read only");
	if (n == 2 || n == 5)
		loaded_check_rule("smack", POLICY_SMACK_LOAD2, "smack.rules", "Probe",
				  n == 2 ? "Inbox" : "Shared", "r", "the table wants it read only");
	if (n == 3 || n == 5)
		loaded_check_selinux("probe_t", n == 3 ? "ledger_t" : "shared_t", "open read",
				     "the table wants it read only");
	if (n == 4 || n == 5)
		loaded_check_rule("toylsm", POLICY_TOY_RULES, "toylsm.rules", "probe",
				  n == 4 ? "diary" : "shared", "r", "the table wants it read only");
}

STEP(1, "AppArmor: the program reads notes, and only reads it")
{
	check_todo(1);
	check_loaded(1);
}

STEP(2, "Smack: the program reads inbox, and only reads it")
{
	check_todo(2);
	check_loaded(2);
}

STEP(3, "SELinux: the program reads ledger, and only reads it")
{
	check_todo(3);
	check_loaded(3);
}

STEP(4, "toylsm: the program reads diary, and only reads it")
{
	check_todo(4);
	check_loaded(4);
}

/* shared's labels, kept while it is relabelled (n[i] < 0: not changed). */
struct saved {
	char v[3][128];
	ssize_t n[3];
};

static const char *const iso_lsm[] = { "smack", "selinux", "toylsm" };

static const char *const iso_xattr[] = {
	"security.SMACK64", "security.selinux", "security.toylsm"
};

static const char *const iso_value[] = { "_", "system_u:object_r:file_t", NULL };

/*
 * Give shared the labels that the other modules let the program write
 * (those of notes: Smack's _, SELinux's file_t, no toylsm label), in
 * every module of this boot but @keep; 0, or an errno.
 */
static int isolate(const char *keep, struct saved *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		s->n[i] = -1;
		if (!lsm_active(iso_lsm[i]) || !strcmp(iso_lsm[i], keep))
			continue;
		s->n[i] = xattr_get(DIR10 "shared", iso_xattr[i], s->v[i], sizeof(s->v[i]));
		if (s->n[i] < 0)
			continue;
		if (iso_value[i] ? setxattr(DIR10 "shared", iso_xattr[i], iso_value[i],
					    strlen(iso_value[i]), 0) :
		    removexattr(DIR10 "shared", iso_xattr[i]))
			return errno;
	}
	return 0;
}

static void restore(const struct saved *s)
{
	int i;

	for (i = 0; i < 3; i++)
		if (s->n[i] >= 0 &&
		    setxattr(DIR10 "shared", iso_xattr[i], s->v[i], strlen(s->v[i]), 0))
			printf("grader: cannot give " DIR10 "shared its %s back: %s\n",
			       iso_xattr[i], errname(errno));
}

/* What isolate(@keep) gave shared, in this boot's words. */
static const char *relabelled(const char *keep)
{
	static const char *const say[] = { "Smack's _", "SELinux's file_t", "no toylsm label" };
	static char buf[160];
	char list[96] = "";
	int i;

	for (i = 0; i < 3; i++)
		if (lsm_active(iso_lsm[i]) && strcmp(iso_lsm[i], keep))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", say[i]);
	if (!list[0])
		return "no other module labels it here; AppArmor, asked last, names paths";
	snprintf(buf, sizeof(buf), "the file relabelled so that the others let it through: %s",
		 list);
	return buf;
}

/*
 * Step 5's write is refused by the first module asked, which hides the
 * answers of the others: each module's part is graded on its own, shared
 * relabelled so that the modules before it in the walk let the program
 * through (AppArmor, asked last, names paths: it needs no relabelling).
 */
static void check_alone(void)
{
	static const char *const accs[] = { "write", "overwrite", "truncate" };
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024], what[160];
	struct saved sv;
	struct labels l;
	size_t i;
	int j, st, err, first = -1;

	for (j = 0; walk[j]; j++) {
		if (!lsm_active(walk[j]))
			continue;
		if (first < 0)
			first = j;
		for (i = 0; i < sizeof(accs) / sizeof(accs[0]); i++) {
			const struct row r = { accs[i], "shared", walk[j], 5 };

			err = isolate(walk[j], &sv);
			if (err) {
				restore(&sv);
				lab_kit("the grader could not relabel " DIR10 "shared to grade %s on its own: %s",
					walk[j], errname(err));
				lab_fail();
			}
			st = attempt(&r, lsm, hook, out, sizeof(out));
			restore(&sv);
			if (st == EACCES && !strcmp(lsm, walk[j]))
				continue;
			if (st < 0) {
				lab_expected("policy run %s probe %s " DIR10 "shared runs the program",
					     policy_set, r.acc);
				lab_seen("%s", out);
				lab_fail();
			}
			get_labels(&l);
			snprintf(what, sizeof(what), "the program's open() of " DIR10 "shared");
			lab_expected("%s " DIR10 "shared, graded for %s on its own (%s): refused, by %s",
				     r.acc, walk[j], relabelled(walk[j]), walk[j]);
			if (st == 0)
				lab_seen("allowed: %s said yes", walk[j]);
			else
				lab_seen("refused, %s, by %s in %s: %s said yes before it",
					 errname(st), lsm[0] ? lsm : "?", hook[0] ? hook : "?",
					 walk[j]);
			lab_hint("with the other modules out of the way, %s lets the program's %s (%s) through: its part of step 5 gives more than r%s",
				 walk[j], r.acc, open_of(r.acc),
				 first == j ? "" : "; in the table's test a module asked before it said no, which hid that");
			hint_too_much(walk[j], &r, &l);
			lab_fail();
		}
	}
	/* shared has its labels back (lab10-shell --grade leaves the files). */
	check_given();
	if (given_bad[0]) {
		lab_kit("after grading each module on its own: %s", given_bad);
		lab_fail();
	}
}

STEP(5, "every module must agree: the program reads shared")
{
	check_todo(5);
	check_alone();
	check_loaded(5);
}

/* In the guest shell (SHELL=1): the table as this boot decides it. */
static void lab_show(void)
{
	char lsm[LSM_TRACE_NAME], hook[LSM_TRACE_NAME], out[1024];
	const char *want;
	size_t i;
	int st;

	lab_banner();
	if (policy_set_rc)
		return;
	printf("%-6s %-20s %-30s %s\n", "access", "file", "the table wants (refused by)", "this boot");
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct row *r = &table[i];

		want = expected(r);
		st = attempt(r, lsm, hook, out, sizeof(out));
		printf("%-6s " DIR10 "%-9s %-30s ", r->acc, r->file, want ? want : "allowed");
		if (st == 0)
			printf("allowed\n");
		else if (st < 0)
			printf("did not run: %s", out);
		else
			printf("refused by %s in %s\n", lsm[0] ? lsm : "?", hook[0] ? hook : "?");
	}
	printf("(try one yourself: why -s openat policy run %s probe read " DIR10 "notes)\n",
	       policy_set);
}
