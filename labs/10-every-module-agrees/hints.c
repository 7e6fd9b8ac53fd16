// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 10's grader, its second half (grade.c includes it last): how a row
 * of the table is tried (policy run SET probe, traced) and judged, and
 * what the grader says under a FAIL: what the kernel saw (the refusing
 * module, its hook, the labels it compared, the permission asked) and
 * which of the learner's lines come near, in each module's language;
 * the exact line to write only with HINT=2.
 */
#include <fnmatch.h>
#include <strings.h>
#include <sys/xattr.h>

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

/* Where @lsm refuses an open of the table: its hook. */
static const char *hook_of(const char *lsm)
{
	return !strcmp(lsm, "smack") || !strcmp(lsm, "selinux") ? "inode_permission" : "file_open";
}

/* @lsm's place in the walk (99: none). */
static int walk_index(const char *lsm)
{
	int i;

	for (i = 0; walk[i]; i++)
		if (!strcmp(walk[i], lsm))
			return i;
	return 99;
}

/*
 * Try the row: 0 allowed, an errno, or -1 (the program did not run: out
 * says why).  A refusal's module and hook from the trace, or "".
 */
static int attempt(const struct row *r, char *lsm, char *hook, char *out, size_t len)
{
	int st = policy_probe(DIR10, r->file, r->acc, 0, out, len);

	policy_refusal("openat,open", 0, lsm, hook);
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
	char line[512], want[32], *p;
	int no = 0;
	FILE *f = policy_src_open(name);

	snprintf(want, sizeof(want), "TODO %d:", n);
	while (policy_src_next(f, line, sizeof(line), &no)) {
		p = strstr(line, want);
		if (!p)
			continue;
		lab_hint("%s/%s says: %s", lab_file, name, p);
		break;
	}
	if (f)
		fclose(f);
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
 * What the hints look for in the learner's file @file: the lines near
 * the rule a refusal needed, from @subj to @obj (AppArmor: @obj is the
 * path; SELinux: the domain and the type) giving @p; @mod: the module,
 * as the hints name it.
 */
struct near {
	const char *file, *mod, *subj, *obj, *p;
};

/*
 * Each rule of @n->file (a line not blank or a comment) to @say(), which
 * says what is wrong with it when it comes near (1) and passes it over
 * otherwise (0): whether any line came near.
 */
static int hint_lines(const struct near *n, int (*say)(const struct near *, const char *, int))
{
	char line[512];
	int no = 0, near = 0;
	FILE *f = policy_src_open(n->file);

	while (policy_src_next(f, line, sizeof(line), &no))
		if (is_rule(line))
			near |= say(n, line, no);
	if (f)
		fclose(f);
	return near;
}

/*
 * A line of smack.rules or toylsm.rules (SUBJECT OBJECT ACCESS) near a
 * rule from subj to obj giving p: the access without p, a label in the
 * wrong case, the two labels swapped.
 */
static int rule_line(const struct near *n, const char *line, int no)
{
	char s[64], o[64], a[32];

	if (sscanf(line, "%63s %63s %31s", s, o, a) != 3)
		return 0;
	if (!strcmp(s, n->subj) && !strcmp(o, n->obj)) {
		if (!has_perms(a, n->p))
			lab_hint("%s/%s, line %d, \"%s\": a rule from %s to %s, but its access %s does not hold %s",
				 lab_file, n->file, no, line, s, o, a, n->p);
	} else if (!strcasecmp(s, n->subj) && !strcasecmp(o, n->obj)) {
		lab_hint("%s/%s, line %d, \"%s\": %s labels are case-sensitive, and %s is not %s (%s)",
			 lab_file, n->file, no, line, n->mod, strcmp(s, n->subj) ? s : o,
			 strcmp(s, n->subj) ? n->subj : n->obj,
			 strcmp(s, n->subj) ? "the program's label" : "the file's label");
	} else if (!strcasecmp(s, n->obj) && !strcasecmp(o, n->subj)) {
		lab_hint("%s/%s, line %d, \"%s\": a rule is SUBJECT OBJECT ACCESS, so this one lets a task labelled %s use what is labelled %s; here the program (%s) is the subject and the file (%s) the object",
			 lab_file, n->file, no, line, s, o, n->subj, n->obj);
	} else {
		return 0;
	}
	return 1;
}

/*
 * A line of apparmor/probe that names the path obj (exactly, by a glob,
 * or in another case): a deny rule, permissions without p, the case.
 */
static int profile_line(const struct near *n, const char *line, int no)
{
	char w[4][256], *perm;
	int c, k;

	c = sscanf(line, "%255s %255s %255s %255s", w[0], w[1], w[2], w[3]);
	for (k = 0; k < c - 1 && (!strcmp(w[k], "audit") || !strcmp(w[k], "owner") ||
				  !strcmp(w[k], "allow") || !strcmp(w[k], "deny")); k++)
		;
	if (k >= c - 1 || w[k][0] != '/')
		return 0;
	perm = w[k + 1];
	perm[strcspn(perm, ",")] = '\0';
	if (!fnmatch(w[k], n->obj, 0)) {
		if (!strcmp(w[0], "deny") || !strcmp(w[1], "deny"))
			lab_hint("%s/apparmor/probe, line %d, \"%s\": a deny rule, which refuses %s whatever else the profile gives",
				 lab_file, no, line, perm);
		else if (!has_perms(perm, n->p))
			lab_hint("%s/apparmor/probe, line %d, \"%s\": it names %s, with %s, which does not hold %s",
				 lab_file, no, line, n->obj, perm, n->p);
	} else if (!fnmatch(w[k], n->obj, FNM_CASEFOLD)) {
		lab_hint("%s/apparmor/probe, line %d, \"%s\": AppArmor's paths are case-sensitive, and %s is not %s",
			 lab_file, no, line, w[k], n->obj);
	} else {
		return 0;
	}
	return 1;
}

/*
 * An allow rule of selinux/kit.te from the domain subj to the type obj
 * (a list { ... } counts as naming them), and whether it gives p.
 */
#define SEP " \t{}:;"

static int allow_line(const struct near *n, const char *line, int no)
{
	char copy[512], *w, *save;
	int src = 0, tgt = 0, gives = 0;

	if (strncmp(line + strspn(line, " \t"), "allow", 5))
		return 0;
	snprintf(copy, sizeof(copy), "%s", line);
	for (w = strtok_r(copy, SEP, &save); w; w = strtok_r(NULL, SEP, &save)) {
		src |= !strcmp(w, n->subj);
		tgt |= !strcmp(w, n->obj);
		gives |= !strcmp(w, n->p) || !strcmp(w, "*");
	}
	if (!src || !tgt)
		return 0;
	if (!gives)
		lab_hint("%s/selinux/kit.te, line %d, \"%s\": an allow rule from %s to %s without %s",
			 lab_file, no, line, n->subj, n->obj, n->p);
	return 1;
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
	struct near n = { file, name, subj, o, p };

	lab_hint("what the kernel saw: %s refused in %s; subject %s (the program's %s label), object %s (the file's %s), the %s asked %s (%s)",
		 name, hook, subj, name, o, xattr, asked, p, open_of(r->acc));
	if (!hint_lines(&n, rule_line))
		lab_hint("no line of %s/%s names both %s and %s: a rule is SUBJECT OBJECT ACCESS, the program's label first",
			 lab_file, file, subj, o);
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
		struct near n = { "apparmor/probe", "AppArmor", NULL, path, p };

		snprintf(path, sizeof(path), DIR10 "%s", r->file);
		lab_hint("what the kernel saw: AppArmor refused in %s; the program runs as \"%s\" (its profile), the path %s, the permission asked %s (%s)",
			 hook, l->apparmor, path, p, open_of(r->acc));
		if (!hint_lines(&n, profile_line))
			lab_hint("no rule of %s/apparmor/probe names %s: a rule is a path (globs allowed), its permissions and a comma",
				 lab_file, path);
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
		struct near n = { "selinux/kit.te", "SELinux", d, t, perm };

		snprintf(t, sizeof(t), "%s", se_type(xattr_of(r->file, "security.selinux")));
		snprintf(d, sizeof(d), "%s", se_type(l->selinux));
		lab_hint("what the kernel saw: SELinux refused in %s; source %s (the program's domain), target %s (the file's type), class file, the permission asked %s: no allow rule gives it",
			 hook, d, t, perm);
		lab_hint("SELinux asks %s in inode_permission and open in file_open: the program's %s (%s) needs both",
			 p, r->acc, open_of(r->acc));
		if (!hint_lines(&n, allow_line))
			lab_hint("no allow rule of %s/selinux/kit.te names both %s and %s",
				 lab_file, d, t);
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

/*
 * What a module's rule gave for @r's access, in the module's letters @p:
 * for the program's write (an append), @append says it; for an overwrite
 * or a truncate, w and how the program opens the file.
 */
static const char *gave(const struct row *r, const char *p, const char *append)
{
	static char how[96];

	if (!strcmp(r->acc, "write"))
		snprintf(how, sizeof(how), "%s", append);
	else if (p[0] == 'w')
		snprintf(how, sizeof(how), "w (what the program's %s, %s, asks for)", r->acc,
			 open_of(r->acc));
	else
		snprintf(how, sizeof(how), "%s", p);
	return how;
}

/* @lsm allowed @r, which it must refuse: why, in its own language. */
static void hint_too_much(const char *lsm, const struct row *r, const struct labels *l)
{
	const char *p = perms(lsm, r->acc), *rule, *how;
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
		lab_hint("AppArmor's profile \"%s\" gives %s on " DIR10 "%s (a rule of %s/apparmor/probe, a glob counts): the table wants %s",
			 l->apparmor, gave(r, p, "w or a (the program's write appends)"), r->file,
			 lab_file, p[0] == 'w' ? "it to give r only" : "no r at all");
		hint_todo("apparmor/probe", r->todo);
	} else if (!strcmp(lsm, "smack")) {
		const char *o = xattr_of(r->file, "security.SMACK64");

		rule = kernel_rule(POLICY_SMACK_LOAD2, l->smack, o);
		how = gave(r, p, "w and a (what the program's write, an append, asks for)");
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
	policy_need_given(" (the README's second table)",
			  "these labels come from given/ (files: the files' labels; run: the program's toylsm label), which is the lab's, not yours to edit: an edit changes what the table's accesses test; restore it (git checkout labs/10-every-module-agrees/given) and write your rules in %s only");
}

/* One row of the table in this boot; fails the step on a difference. */
static void check(const struct row *r)
{
	const char *want = policy_refuser(r->refusers);
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

/*
 * @fn for each access of the table of TODO @todo (0: of every TODO), in
 * the table's order: a file's read, then its writes.
 */
static void each_access(int todo, void (*fn)(const struct row *r))
{
	size_t k, w;

	for (k = 0; k < sizeof(table) / sizeof(table[0]); k++) {
		const char *file = table[k].file;

		if (todo && table[k].todo != todo)
			continue;
		fn(&(struct row){ "read", file, table[k].read, table[k].todo });
		for (w = 0; table[k].write && w < sizeof(writes) / sizeof(writes[0]); w++)
			fn(&(struct row){ writes[w], file, table[k].write, table[k].todo });
	}
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
		for (i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
			const struct row r = { writes[i], "shared", walk[j], 5 };

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
	if (policy_given_bad[0]) {
		lab_kit("after grading each module on its own: %s", policy_given_bad);
		lab_fail();
	}
}
