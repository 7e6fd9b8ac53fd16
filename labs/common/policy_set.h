/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the graders of the policy labs (KIND=policy: labs 10 and 12): run
 * a program and keep what it printed, and load the learner's policy set,
 * which the grader's own name names (scripts/lab/policy.sh: the set and
 * the grader are both called lab<N>-<TAG>).
 *
 *	policy_set_begin();	in lab_banner(): the set's name, smackfs
 *	policy_set_load();	policy load SET
 *	...
 *	if (policy_set_rc) ...	its exit status; policy_set_out what it said
 */
#ifndef LAB_POLICY_SET_H
#define LAB_POLICY_SET_H

#include <fcntl.h>
#include <strings.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>

#include "grader.h"
#include "kit/files.h"

#define POLICY_SMACK_LOAD2 "/sys/fs/smackfs/load2"
#define POLICY_TOY_RULES "/sys/kernel/security/toylsm/rules"

static char policy_set[64];		/* the policy set: this program's name */
static int policy_set_rc = -1;		/* policy load's exit status */
static char policy_set_out[2048];	/* and what it printed */

/* Run argv with stdout and stderr into out; the exit status (-1: no exit). */
static LAB_API int policy_run_cmd(char *const argv[], char *out, size_t len)
{
	int p[2], st = 0;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	if (pipe(p))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		execv(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	while (n + 1 < len && (r = read(p[0], out + n, len - n - 1)) > 0)
		n += r;
	out[len ? n : 0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The learner's file where @lsm's policy is (the sets' layout). */
static LAB_API const char *policy_file(const char *lsm)
{
	static const char *const files[][2] = {
		{ "apparmor", "apparmor/probe" }, { "selinux", "selinux/kit.te" },
		{ "smack", "smack.rules" }, { "toylsm", "toylsm.rules" },
		{ "landlock", "landlock.rules" },
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(lsm, files[i][0]))
			return files[i][1];
	return "(no policy file of yours)";
}

/* The type of an SELinux context (user:role:type[:level]). */
static LAB_API const char *se_type(const char *ctx)
{
	static char t[2][128];
	static int k;
	const char *p = strchr(ctx, ':');

	k = !k;
	p = p ? strchr(p + 1, ':') : NULL;
	snprintf(t[k], sizeof(t[k]), "%s", p ? p + 1 : ctx);
	t[k][strcspn(t[k], ":")] = '\0';
	return t[k];
}

/* A file's xattr @name into @buf, or "" (none); its length, or -1. */
static LAB_API ssize_t xattr_get(const char *path, const char *name, char *buf, size_t len)
{
	ssize_t n = getxattr(path, name, buf, len - 1);

	buf[n < 0 ? 0 : n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return n;
}

/*
 * The labels a lab gives (its given/files), as this boot must show them
 * once `policy load` ran: a file's xattr (SELinux: its type) in each
 * module of the boot; value NULL: none.
 */
struct policy_given {
	const char *path, *lsm, *xattr, *value;
};

/*
 * Before grading: every label of @g that belongs to a module of this
 * boot is there.  given/ is the lab's, not the learner's: an edit of it
 * would change what the accesses test.  The first difference, in words,
 * into @bad ("" if none).
 */
static LAB_API void policy_given_check(const struct policy_given *g, size_t n, char *bad,
				       size_t len)
{
	char v[128], what[400];
	const char *have;
	size_t i;

	bad[0] = '\0';
	for (i = 0; i < n && !bad[0]; i++) {
		if (!lsm_active(g[i].lsm))
			continue;
		if (xattr_get(g[i].path, g[i].xattr, v, sizeof(v)) < 0)
			v[0] = '\0';
		have = !strcmp(g[i].lsm, "selinux") && v[0] ? se_type(v) : v;
		if (g[i].value ? !strcmp(have, g[i].value) : !have[0])
			continue;
		if (!g[i].value)
			snprintf(what, sizeof(what), "the %s label %s (%s), where the lab gives it none",
				 g[i].lsm, have, g[i].xattr);
		else if (!have[0])
			snprintf(what, sizeof(what), "no %s label (%s), where the lab gives it %s",
				 g[i].lsm, g[i].xattr, g[i].value);
		else
			snprintf(what, sizeof(what), "the %s label %s (%s), where the lab gives it %s",
				 g[i].lsm, have, g[i].xattr, g[i].value);
		snprintf(bad, len, "%s has %s", g[i].path, what);
	}
}

/*
 * The label the set's program runs with in @lsm, as `policy run SET
 * probe self` says ("toylsm: probe"), into @out; "" if none.  Returns
 * policy run's exit status: not 0, it did not run the program (a sandbox
 * rule on a missing path...), and @out holds the first line it printed.
 */
static LAB_API int policy_run_label(const char *lsm, char *out, size_t len)
{
	char buf[1024], *line, *save = NULL, *v;
	char *const argv[] = { "/bin/policy", "run", policy_set, "probe", "self", NULL };
	int st;

	out[0] = '\0';
	st = policy_run_cmd(argv, buf, sizeof(buf));
	if (st) {
		size_t n = strcspn(buf, "\n");

		n = n < len ? n : len - 1;
		memcpy(out, buf, n);
		out[n] = '\0';
		return st;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		v = strchr(line, ':');
		if (!v || (size_t)(v - line) != strlen(lsm) || strncmp(line, lsm, v - line))
			continue;
		snprintf(out, len, "%s", v + 1 + strspn(v + 1, " "));
		return 0;
	}
	return 0;
}

/*
 * Whether the set's file run (given/run, as the guest holds it) has the
 * line "@key @val" (words apart by any blanks); the set's name is
 * policy_set.
 */
static LAB_API int policy_run_has(const char *key, const char *val)
{
	char path[160], line[256], k[64], v[192];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "/etc/policy/%s/run", policy_set);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %191s", k, v) == 2 && !strcmp(k, key) &&
			!strcmp(v, val);
	if (f)
		fclose(f);
	return found;
}

/*
 * Decoys: @n files no policy names, beside what a lab's steps use, which
 * a rule broader than a step's catches.  Each name is @fmt[i] (a printf
 * format with one %ld: a number that changes each boot, so that a rule
 * cannot name them) under @dir, into @names[i]; its folder is made when
 * it is missing (data/N/report.csv).
 */
#define POLICY_DECOY 64
static LAB_API void policy_decoys(const char *dir, const char *const *fmt, int n,
				  char (*names)[POLICY_DECOY])
{
	long nonce = (long)time(NULL) % 100000;
	char path[320], *slash;
	int i, rc;

	for (i = 0; i < n; i++) {
		snprintf(names[i], POLICY_DECOY, fmt[i], nonce);
		if (snprintf(path, sizeof(path), "%s%s", dir, names[i]) >= (int)sizeof(path))
			continue;
		slash = strrchr(path, '/');
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			printf("grader: cannot create %s: %s\n", path, errname(errno));
		*slash = '/';
		rc = create_file(path, "a decoy\n");
		if (rc)
			printf("grader: cannot create %s: %s\n", path, errname(-rc));
	}
}

/*
 * Before the load: the set's name (this program's), and smackfs mounted
 * when Smack is in the boot.  Call load_fs_list() first.
 */
static LAB_API void policy_set_begin(void)
{
	struct stat st;

	snprintf(policy_set, sizeof(policy_set), "%s", program_invocation_short_name);
	if (lsm_active("smack") && stat(POLICY_SMACK_LOAD2, &st) &&
	    mount("smackfs", "/sys/fs/smackfs", "smackfs", 0, NULL))
		printf("grader: cannot mount smackfs: %s\n", errname(errno));
}

/*
 * `policy load SET`: its status in policy_set_rc, what it printed in
 * policy_set_out (and on stdout, the banner's comment).
 */
static LAB_API void policy_set_load(void)
{
	char *const argv[] = { "/bin/policy", "load", policy_set, NULL };

	policy_set_rc = policy_run_cmd(argv, policy_set_out, sizeof(policy_set_out));
	printf("%s", policy_set_out);
}

/*
 * The set must have loaded: else the step fails, with the line of
 * policy's message that says why (the module and the file) and a hint
 * for the two modules whose rules the kernel itself checks at load.
 */
static LAB_API void policy_set_need_load(void)
{
	char *why;

	if (policy_set_rc == 0)
		return;
	/* The line after "policy: SET: ... stopped by an error:" says why. */
	why = strstr(policy_set_out, "\npolicy: ");
	why = why ? why + 1 : policy_set_out;
	why[strcspn(why, "\n")] = '\0';
	lab_expected("policy load %s loads your policy set", policy_set);
	lab_seen("it failed (exit status %d): %s", policy_set_rc, why);
	if (strstr(policy_set_out, "smack:"))
		lab_hint("Smack refused a line of %s/smack.rules (named above): a rule is SUBJECT OBJECT ACCESS, ACCESS letters of rwxa or -",
			 lab_file);
	else if (strstr(policy_set_out, "toylsm:"))
		lab_hint("toylsm refused %s/toylsm.rules (all or nothing): a rule is SUBJECT OBJECT PERMS, PERMS letters of rwxt or -, a label 1 to 31 of [A-Za-z0-9_.:-]",
			 lab_file);
	else
		lab_hint("the message above names the module and the file");
	lab_fail();
}

/* Whether @label is one of the space-separated @labels, in any case. */
static LAB_API int policy_in_labels(const char *label, const char *labels)
{
	size_t n = strlen(label);
	const char *p;

	for (p = labels; *p; p += strspn(p, " ")) {
		if (strlen(p) >= n && !strncasecmp(p, label, n) && (!p[n] || p[n] == ' '))
			return 1;
		p += strcspn(p, " ");
	}
	return 0;
}

/*
 * Remove the rules of a rules file that name one of the lab's @labels,
 * as subject or object, in any case: a learner's rule with two labels
 * swapped or one in the wrong case must not outlive its variant (the
 * hints read the rules near the one a step needs).
 */
static LAB_API void policy_drop_rules(const char *path, const char *labels, int one_write)
{
	char line[128], s[64], o[64], p[16], buf[4096] = "";
	FILE *f = fopen(path, "r");
	int err;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %63s %15s", s, o, p) != 3 ||
		    (!policy_in_labels(s, labels) && !policy_in_labels(o, labels)))
			continue;
		if (one_write) {
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s %s -\n", s, o);
			continue;
		}
		snprintf(buf, sizeof(buf), "%s %s -", s, o);
		err = write_string(path, buf);
		if (err)
			printf("grader: cannot remove the rule %s from %s: %s\n", buf, path,
			       errname(-err));
		buf[0] = '\0';
	}
	if (f)
		fclose(f);
	err = buf[0] ? write_string(path, buf) : 0;
	if (err)
		printf("grader: cannot remove the rules of %s from %s: %s\n", labels, path,
		       errname(-err));
}

/*
 * Every AppArmor profile loaded (a variant before may have named its
 * profile otherwise): each name of the profiles file to .remove.
 */
static LAB_API void policy_drop_profiles(void)
{
	char line[256], *sp;
	FILE *f = fopen("/sys/kernel/security/apparmor/profiles", "r");
	int err;

	while (f && fgets(line, sizeof(line), f)) {
		sp = strstr(line, " (");
		if (!sp)
			continue;
		*sp = '\0';
		err = write_string("/sys/kernel/security/apparmor/.remove", line);
		if (err)
			printf("grader: cannot remove the AppArmor profile %s: %s\n", line,
			       errname(-err));
	}
	if (f)
		fclose(f);
}

#endif /* LAB_POLICY_SET_H */
