// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6's grader, linked with the attendee's stacking.c and run in the
 * guest as root.  The truth comes from its own reads of toylsm's files in
 * securityfs, of the files' xattrs, and from opening the files itself.
 *
 * Rules, file labels and the enforce switch are global: they outlive a
 * step (and a graded variant, in tests/host/labs.sh), so each step first
 * sets everything it relies on, and turns enforce back on.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <linux/capability.h>

#include "grader.h"
#include "lab.h"
#include "kit/landlock.h"
#include "kit/toylsm_files.h"
#include "toylsm_steps.h"
#include "trace.h"

#define SMACKFS "/sys/fs/smackfs/"

/*
 * The labels the steps' tasks take.  The grader (label "init") may signal
 * them (rule "init L w"): otherwise it could not end a step that hangs.
 */
static const char *const step_labels[] = { "l6-s", "l6-user", "l6-reader" };

/* The steps' helpers and checks, after the steps. */
static long file_open_denials(void);
static int has_rule(const char *line);
static void make_file(const char *path, const char *content, const char *toy, const char *smack);
static void reset_rules(const char *toy, const char *smack, const char *self);
static void start(void);
static void expect_rule(const char *s, const char *o, const char *p, int want_err);
static void expect_rules(int present, const char *line, const char *after, const char *hint);
static void expect_label(const char *path, const char *label, int want_err, const char *want_xattr);
static void expect_verdict(const char *path, int flags, int err, int by, const char *who,
			   const char *not_toylsm);
static void landlock_verdict(const char *path);
static void expect_enforce(int on, int want_err, const char *want_text);
static int try_as_user(const char *path, int write);
static int has_smack_rule(const char *line);

STEP(1, "write toylsm rules")
{
	start();
	lab_setup(write_string(TOYLSM_FS "rules", "l6-s l6-o -\n") == 0, "reset the rule l6-s l6-o",
		  errno);
	expect_rule("l6-s", "l6-o", "wr", 0);
	expect_rules(1, "l6-s l6-o rw\n", "lab_add_rule(\"l6-s\", \"l6-o\", \"wr\")",
		     "write \"SUBJECT OBJECT PERMS\\n\" in ONE write(), and check what it returns: the kernel parses each write() as whole lines (toylsm_rules_fs_write() in demo-lsm/securityfs.c)");
	expect_rule("l6-s", "l6-o", "x", 0);
	expect_rules(1, "l6-s l6-o x\n", "lab_add_rule(\"l6-s\", \"l6-o\", \"x\")",
		     "a new rule replaces the one with the same SUBJECT and OBJECT (toylsm_policy_merge())");
	expect_rules(0, "l6-s l6-o rw\n", "lab_add_rule(\"l6-s\", \"l6-o\", \"x\")",
		     "a new rule replaces the one with the same SUBJECT and OBJECT (toylsm_policy_merge())");
	expect_rule("l6-s", "l6-o", "-", 0);
	expect_rules(0, "l6-s l6-o", "lab_add_rule(\"l6-s\", \"l6-o\", \"-\")",
		     "PERMS \"-\" removes the rule");
	expect_rule("l6-s", "l6-o", "q", EINVAL);
	expect_rule("l6 s", "l6-o", "r", EINVAL);
	expect_rules(0, "l6-s l6-o", "two malformed rules", "a malformed line changes nothing");
	lab_setup(drop_cap(CAP_MAC_ADMIN) == 0, "drop CAP_MAC_ADMIN", errno);
	expect_rule("l6-s", "l6-o", "r", EPERM);
}

STEP(2, "label a file with security.toylsm")
{
	const char *f = "/tmp/lab6-file";

	start();
	make_file(f, "lab6", NULL, NULL);
	expect_label(f, "l6-file", 0, "l6-file");
	expect_label(f, "l6 file", EINVAL, "l6-file");
	expect_label("/tmp/lab6-nosuchfile", "l6-file", ENOENT, NULL);
	lab_setup(drop_cap(CAP_MAC_ADMIN) == 0, "drop CAP_MAC_ADMIN", errno);
	expect_label(f, "l6-other", EPERM, "l6-file");
}

STEP(3, "read toylsm's stats")
{
	static const char *const hooks[] = {
		"file_open", "file_permission", "task_kill",
		"ptrace_access_check", "ptrace_traceme", "setprocattr",
	};
	const char *f = "/tmp/lab6-stats";
	long c0, d0, c1, d1, c = -7, d = -7;
	char buf[16];
	int i, r, e;

	start();
	/* A denial, so that file_open's denials are not 0. */
	make_file(f, "stats", "l6-stats", NULL);
	reset_rules("l6-user l6-stats -\n", NULL, "l6-user");
	lab_setup(read_file(f, buf, sizeof(buf)) == -EACCES, "be denied by toylsm", EACCES);
	for (i = 0; i < (int)(sizeof(hooks) / sizeof(hooks[0])); i++) {
		toylsm_stats(hooks[i], &c0, &d0);
		c = -7;
		d = -7;
		errno = 0;
		r = lab_stats(hooks[i], &c, &d);
		e = errno;
		lab_check_todo(3, "lab_stats()");
		toylsm_stats(hooks[i], &c1, &d1);
		if (r == 0 && c0 <= c && c <= c1 && d0 <= d && d <= d1)
			continue;
		lab_expected("lab_stats(\"%s\", &calls, &denials) returns 0 with calls in %ld..%ld, denials in %ld..%ld (just before and after your call)",
			     hooks[i], c0, c1, d0, d1);
		lab_seen("it returned %d%s%s, calls %ld, denials %ld", r, r ? ", errno " : "",
			 r ? errname(e) : "", c, d);
		if (r == 0 && d0 <= c && c <= d1 && c0 <= d && d <= c1)
			lab_hint("the line is \"HOOK CALLS DENIALS SUPPRESSED\": calls first");
		else if (r == 0 && (c > c1 || d > d1) && i > 0)
			lab_hint("those look like another hook's numbers: take the line whose first word is exactly \"%s\"",
				 hooks[i]);
		else
			lab_hint("read %sstats line by line, sscanf(line, \"%%63s %%ld %%ld\", ...), compare the name",
				 TOYLSM_FS);
		lab_fail();
	}
	errno = 0;
	r = lab_stats("no_such_hook", &c, &d);
	e = errno;
	lab_must_fail(r, e, ENOENT, "no line for that hook: set errno = ENOENT and return -1",
		      "lab_stats(\"no_such_hook\", ...) returns -1 with errno ENOENT");
}

STEP(4, "who said no? EACCES from toylsm, or from another module")
{
	lab_needs(3);
	start();
	make_file("/tmp/lab6-secret", "secret", "l6-secret", NULL);
	make_file("/tmp/lab6-plain", "plain", NULL, NULL);
	make_file("/tmp/lab6-smack", "smack", NULL, "l6S");
	reset_rules("l6-user l6-secret -\n", "_ l6S -\n", "l6-user");
	/* Root would pass every Smack check with CAP_MAC_OVERRIDE. */
	lab_setup(drop_cap(CAP_MAC_OVERRIDE) == 0, "drop CAP_MAC_OVERRIDE", errno);

	printf("you: toylsm l6-user%s\n", lsm_active("smack") ? ", Smack _" : "");
	expect_verdict("/tmp/lab6-plain", O_RDONLY, 0, 0, "unlabelled for toylsm: allowed",
		       "this open() succeeded, so nobody refused, and toylsm's file_open denials did not move: *by_toylsm is 1 only when the denials (the second number of the line) went up; the calls (the first) go up at every open()");
	expect_verdict("/tmp/lab6-secret", O_RDONLY, EACCES, 1,
		       lsm_active("smack") ?
		       "toylsm (Smack allowed: the file is _ for Smack, like you)" : "toylsm",
		       NULL);
	lab_setup(write_string(TOYLSM_FS "rules", "l6-user l6-secret r\n") == 0, "write a rule",
		  errno);
	printf("rule: l6-user l6-secret r\n");
	expect_verdict("/tmp/lab6-secret", O_RDONLY, 0, 0, "allowed by the rule",
		       "this open() succeeded: the rule allowed it, and toylsm's file_open denials did not move; *by_toylsm is 1 only when the denials (the second number of the line) went up");
	expect_verdict("/tmp/lab6-secret", O_WRONLY, EACCES, 1, "toylsm (the rule has no w)", NULL);
	if (lsm_active("smack"))
		expect_verdict("/tmp/lab6-smack", O_RDONLY, EACCES, 0,
			       "Smack (no rule \"_ l6S r\"); toylsm would allow",
			       "EACCES, but toylsm's file_open denials did not move: toylsm never saw this open(). Smack refused it in its inode_permission hook, which open() calls (may_open()) before file_open: the file_open walk never started");
	landlock_verdict("/tmp/lab6-plain");
	expect_verdict("/tmp/lab6-nosuchfile", O_RDONLY, ENOENT, 0, "no such file: file_open never ran",
		       "ENOENT: the lookup found no such file, so open() never reached the file_open hook, and toylsm counted nothing");
}

STEP(5, "enforce 0 and 1: denied, or only counted")
{
	const char *f = "/tmp/lab6-secret";
	char buf[16];
	long d0, d1;
	int k;

	start();
	make_file(f, "secret", "l6-secret", NULL);
	reset_rules("l6-user l6-secret -\n", NULL, "l6-user");

	expect_enforce(0, 0, "0\n");
	d0 = file_open_denials();
	k = read_file(f, buf, sizeof(buf));
	d1 = file_open_denials();
	if (k != 6 || d1 != d0 + 1) {
		lab_expected("with enforce 0, reading %s (no rule) works, and toylsm still counts the denial",
			     f);
		lab_seen("the read gave %s; file_open's denials went from %ld to %ld",
			 k < 0 ? errname(-k) : "the content", d0, d1);
		lab_hint("did your write reach the kernel? %senforce must read \"0\"", TOYLSM_FS);
		lab_fail();
	}
	printf("enforce 0: %s opens; file_open denials %ld -> %ld (dmesg: toylsm=permissive)\n", f,
	       d0, d1);
	expect_enforce(1, 0, "1\n");
	k = read_file(f, buf, sizeof(buf));
	lab_setup(k == -EACCES, "be denied with enforce 1", -k);
	printf("enforce 1: %s is %s again\n", f, errname(-k));
	expect_enforce(2, EINVAL, "1\n");
	lab_setup(drop_cap(CAP_MAC_ADMIN) == 0, "drop CAP_MAC_ADMIN", errno);
	expect_enforce(0, EPERM, "1\n");
}

STEP(6, "every stacked module must agree: grant a read")
{
	lab_needs(1);
	const char *f = "/tmp/lab6-both";
	long d0, d1;
	int k, r, e;

	start();
	make_file(f, "both", "l6-both", "l6B");
	reset_rules("l6-reader l6-both -\n", "_ l6B -\n", "l6-reader");
	lab_setup(try_as_user(f, 0) == -EACCES, "be denied before the grant", EACCES);
	printf("%s: toylsm label l6-both%s; you: l6-reader%s; before: EACCES\n", f,
	       lsm_active("smack") ? ", Smack l6B" : "", lsm_active("smack") ? ", Smack _" : "");

	errno = 0;
	r = lab_grant_read(f);
	e = errno;
	lab_check_todo(6, "lab_grant_read()");
	d0 = file_open_denials();
	lab_record();
	k = try_as_user(f, 0);
	lab_record_stop();
	d1 = file_open_denials();
	if (r != 0 || k != 4) {
		lab_expected("lab_grant_read(\"%s\") returns 0, and then you can read it", f);
		lab_seen("it returned %d%s%s; reading it (without CAP_MAC_OVERRIDE) then gave %s",
			 r, r ? ", errno " : "",
			 r ? errname(e) : "", k < 0 ? errname(-k) : "the content");
		if (k < 0)
			lab_trace_refusal("the open() after your grant", "openat,open");
		if (r && (e == ENOENT || e == EINVAL) && !lsm_active("smack"))
			lab_hint("Smack is not active in this boot (/sys/kernel/security/lsm: %s): ask only the modules that are",
				 fs_list);
		else if (k < 0 && d1 > d0)
			lab_hint("toylsm still says no: it needs the rule \"l6-reader l6-both r\" (your label, then the file's security.toylsm); the rules file has it: %s",
				 has_rule("l6-reader l6-both r") ? "yes" : "no");
		else if (k < 0 && lsm_active("smack"))
			lab_hint("toylsm did not count a denial, so another module said no first: Smack. It needs \"_ l6B r\" in %sload2 (your /proc/thread-self/attr/smack/current, the file's security.SMACK64); it has it: %s",
				 SMACKFS, has_smack_rule("_ l6B r") ? "yes" : "no");
		else if (r)
			lab_hint("which call failed with %s? Check each; in a boot without Smack, skip Smack",
				 errname(e));
		else
			lab_hint("the rules must name your labels and the file's, exactly");
		lab_fail();
	}
	printf("after your grant: read works\n");
	if (!has_rule("l6-reader l6-both r\n") ||
	    (lsm_active("smack") && !has_smack_rule("_ l6B r\n"))) {
		lab_expected("after lab_grant_read(\"%s\"), the rules grant read and nothing more: toylsm \"l6-reader l6-both r\"%s",
			     f, lsm_active("smack") ? ", Smack \"_ l6B r\"" : "");
		lab_seen("toylsm's rules have it: %s; %s",
			 has_rule("l6-reader l6-both r\n") ? "yes" : "no",
			 !lsm_active("smack") ? "(no Smack in this boot)" :
			 has_smack_rule("_ l6B r\n") ? "Smack's load2 has it: yes" : "Smack's load2 has it: no");
		lab_hint("the permissions are \"r\" for each module, not \"rw\" or more: least privilege");
		lab_fail();
	}
	k = try_as_user(f, 1);
	if (k != -EACCES) {
		lab_expected("after lab_grant_read(\"%s\"), writing it is still refused (EACCES): grant read, nothing more",
			     f);
		lab_seen("the write gave %s", errname(-k));
		lab_hint("the permissions are \"r\" for each module, not \"rw\"");
		lab_fail();
	}
	printf("writing it: still %s\n", errname(-k));
}

static void lab_banner(void)
{
	struct stat st;

	load_fs_list();
	printf("lab 6: stacking decisions; this boot: %s\n", fs_list);
	/* The guest's init does not mount smackfs; step 6 needs it. */
	if (lsm_active("smack") && stat(SMACKFS "load2", &st) &&
	    mount("smackfs", SMACKFS, "smackfs", 0, NULL))
		printf("grader: cannot mount smackfs on %s: %s\n", SMACKFS, errname(errno));
	if (!lsm_active("toylsm"))
		return;
	write_string(TOYLSM_FS "enforce", "1");
	lab_toylsm_steps_reachable(step_labels, sizeof(step_labels) / sizeof(step_labels[0]));
}

/* "stacking" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	static const char *const hooks[] = {
		"file_open", "file_permission", "task_kill",
		"ptrace_access_check", "ptrace_traceme", "setprocattr",
	};
	long c, d;
	int i, r;

	for (i = 0; i < (int)(sizeof(hooks) / sizeof(hooks[0])); i++) {
		r = lab_stats(hooks[i], &c, &d);
		if (lab_show_todo("lab_stats"))
			break;
		if (r == 0)
			printf("%-20s calls %6ld  denials %4ld\n", hooks[i], c, d);
		else
			printf("%-20s %s\n", hooks[i], errname(errno));
	}
}

static long file_open_denials(void)
{
	long c, d;

	toylsm_stats("file_open", &c, &d);
	return d;
}

/* Whether the rules file has this exact line (with its newline). */
static int has_rule(const char *line)
{
	char buf[8192];

	read_file(TOYLSM_FS "rules", buf, sizeof(buf));
	return !!strstr(buf, line);
}

static const char *xattr_of(const char *path, const char *name)
{
	static char buf[2][96];
	static int k;
	ssize_t n;

	k = !k;
	n = getxattr(path, name, buf[k], sizeof(buf[k]) - 1);
	if (n < 0)
		snprintf(buf[k], sizeof(buf[k]), "(none: %s)", errname(errno));
	else
		buf[k][n] = '\0';
	return buf[k];
}

/*
 * A fresh file with content, its toylsm label (NULL: none) and, with
 * Smack active, its Smack label (NULL: the creator's, "_").
 */
static void make_file(const char *path, const char *content, const char *toy, const char *smack)
{
	int err = create_file(path, content);

	lab_setup(!err, "create a file in /tmp", -err);
	if (toy)
		lab_setup(setxattr(path, "security.toylsm", toy, strlen(toy), 0) == 0,
			  "set security.toylsm", errno);
	if (smack && lsm_active("smack"))
		lab_setup(setxattr(path, "security.SMACK64", smack, strlen(smack), 0) == 0,
			  "set security.SMACK64", errno);
}

/*
 * A step's fresh start: toylsm's rule @toy (and Smack's @smack, when Smack
 * is active and @smack is given) written again, then the grader's task
 * labels itself @self.
 */
static void reset_rules(const char *toy, const char *smack, const char *self)
{
	char what[64];

	lab_setup(write_string(TOYLSM_FS "rules", toy) == 0, "reset a rule", errno);
	if (smack && lsm_active("smack"))
		lab_setup(write_string(SMACKFS "load2", smack) == 0, "reset a Smack rule", errno);
	snprintf(what, sizeof(what), "label itself %s", self);
	lab_setup(toylsm_relabel(self) == 0, what, errno);
}

/* Every step starts from enforce 1 (a failed step may have left 0). */
static void start(void)
{
	need_toylsm();
	lab_setup(write_string(TOYLSM_FS "enforce", "1") == 0, "turn enforce on", errno);
}

/* Step 1: one call of lab_add_rule() that must return want_err (0: 0). */
static void expect_rule(const char *s, const char *o, const char *p, int want_err)
{
	int r, e;

	errno = 0;
	r = lab_add_rule(s, o, p);
	e = errno;
	lab_check_todo(1, "lab_add_rule()");
	if (lab_returned_0(r, e, want_err, "lab_add_rule(\"%s\", \"%s\", \"%s\")", s, o, p))
		return;
	if (!want_err && e == EINVAL)
		lab_hint("the kernel parses each write() as whole lines: write \"%s %s %s\\n\" in ONE write() (toylsm_rules_fs_write() in demo-lsm/securityfs.c)",
			 s, o, p);
	else if (want_err == EINVAL && r == 0)
		lab_hint("the kernel refused the line; check write()'s return and pass its errno on");
	else if (want_err == EPERM)
		lab_hint("without CAP_MAC_ADMIN the write fails with EPERM: pass it on");
	else
		lab_hint("open() %srules with O_WRONLY, one write(), close()", TOYLSM_FS);
	lab_fail();
}

static void expect_rules(int present, const char *line, const char *after, const char *hint)
{
	if (has_rule(line) == present)
		return;
	lab_expected("after %s, the rules file %s the line %s", after, present ? "has" : "does not have",
		     lab_quote(line, -1));
	lab_seen("it %s", present ? "does not" : "does");
	lab_hint("%s", hint);
	lab_fail();
}

static void expect_label(const char *path, const char *label, int want_err, const char *want_xattr)
{
	int r, e;

	errno = 0;
	r = lab_label_file(path, label);
	e = errno;
	lab_check_todo(2, "lab_label_file()");
	if ((want_err ? r == -1 && e == want_err : r == 0) &&
	    (!want_xattr || !strcmp(xattr_of(path, "security.toylsm"), want_xattr)))
		return;
	if (want_err)
		lab_expected("lab_label_file(\"%s\", \"%s\") returns -1 with errno %s%s%s", path,
			     label,
			     errname(want_err), want_xattr ? ", and security.toylsm stays " : "",
			     want_xattr ? lab_quote(want_xattr, -1) : "");
	else
		lab_expected("lab_label_file(\"%s\", \"%s\") returns 0, and then security.toylsm is %s",
			     path, label, lab_quote(want_xattr, -1));
	lab_seen("it returned %d, errno %s; security.toylsm is %s", r, errname(e),
		 want_xattr ? lab_quote(xattr_of(path, "security.toylsm"), -1) : "(not checked)");
	if (!want_err && r == -1 && e == EINVAL)
		lab_hint("EINVAL: toylsm_inode_setxattr() (demo-lsm/fs.c) parses the value like a label: strlen(label) bytes, no NUL");
	else if (!want_err && r == -1 && e == EOPNOTSUPP)
		lab_hint("the name is \"security.toylsm\"");
	else if (want_err && r == 0)
		lab_hint("check what setxattr() returns and pass its errno on");
	else
		lab_hint("setxattr(path, \"security.toylsm\", label, strlen(label), 0)");
	lab_fail();
}

/*
 * Step 4: one verdict.  err: open()'s errno (0: it opens); by: 1 if
 * toylsm refused; who: who decided, for the table; not_toylsm: for a
 * by_toylsm of 1 where toylsm did not refuse, what did happen.
 */
static void expect_verdict(const char *path, int flags, int err, int by, const char *who,
			   const char *not_toylsm)
{
	long d0 = file_open_denials(), d1;
	int r, e, b = 42;

	lab_record();
	errno = 0;
	r = lab_open_verdict(path, flags, &b);
	e = errno;
	lab_record_stop();
	lab_check_todo(4, "lab_open_verdict()");
	d1 = file_open_denials();
	if ((err ? r == -1 && e == err : r == 0) && b == by) {
		printf("%-20s %-8s %-32s %s\n", path, flags == O_RDONLY ? "O_RDONLY" : "O_WRONLY",
		       err ? errname(err) : "opens", who);
		return;
	}
	lab_expected("lab_open_verdict(\"%s\", %s, &by_toylsm) returns %s, by_toylsm = %d: %s",
		     path,
		     flags == O_RDONLY ? "O_RDONLY" : "O_WRONLY", err ? "-1" : "0", by, who);
	lab_seen("it returned %d, errno %s, by_toylsm = %d (toylsm's file_open denials went from %ld to %ld)",
		 r, errname(e), b, d0, d1);
	lab_trace_refusal("your open()", "openat,open");
	if (b == 42)
		lab_hint("set *by_toylsm in every case, 0 or 1");
	else if (r == 0 && err)
		lab_hint("open() failed: return -1 with its errno");
	else if (r != 0 && !err)
		lab_hint("this open() succeeds: open the path with the flags you were given, and return 0 when it works");
	else if (b != by && by)
		lab_hint("read file_open's denials (lab_stats()) before and after open(): toylsm counted this one");
	else if (b != by)
		lab_hint("%s", not_toylsm);
	else
		lab_hint("save open()'s errno before lab_stats() or close() can change it");
	lab_fail();
}

static int write_all(int fd, const int *res)
{
	return write(fd, res, sizeof(*res)) == sizeof(*res) ? 0 : -1;
}

/*
 * Step 4, in a Landlock sandbox that allows reading only below /proc and
 * /sys: lab_open_verdict() of path, reported through a pipe.
 */
static void landlock_verdict(const char *path)
{
	int p[2], res[3] = { -9, 0, 42 }, rs, st;
	pid_t pid;

	lab_setup(pipe(p) == 0, "make a pipe", errno);
	lab_record();
	pid = fork();
	lab_setup(pid >= 0, "fork()", errno);
	if (pid == 0) {
		rs = kit_landlock_ruleset(LANDLOCK_ACCESS_FS_READ_FILE);
		rs = kit_landlock_allow(rs, "/proc", LANDLOCK_ACCESS_FS_READ_FILE);
		rs = kit_landlock_allow(rs, "/sys", LANDLOCK_ACCESS_FS_READ_FILE);
		if (kit_landlock_enforce(rs))
			_exit(3);
		res[0] = lab_open_verdict(path, O_RDONLY, &res[2]);
		res[1] = errno;
		_exit(write(p[1], res, sizeof(res)) == sizeof(res) ? 0 : 4);
	}
	close(p[1]);
	if (read(p[0], res, sizeof(res)) != sizeof(res))
		res[0] = -9;
	close(p[0]);
	waitpid(pid, &st, 0);
	lab_record_stop();
	lab_setup(!(WIFEXITED(st) && WEXITSTATUS(st) == 3), "set up a Landlock sandbox", ENOTSUP);
	if (res[0] == -1 && res[1] == EACCES && res[2] == 0) {
		printf("%-20s %-8s %-32s %s\n", path, "O_RDONLY", errname(EACCES),
		       "Landlock (toylsm never asked)");
		return;
	}
	lab_expected("in a Landlock sandbox that allows reading only below /proc and /sys, lab_open_verdict(\"%s\", O_RDONLY, &by_toylsm) returns -1 with errno EACCES, by_toylsm = 0",
		     path);
	if (res[0] == -9)
		lab_seen("your code did not come back (crashed or exited: status %d)", st);
	else
		lab_seen("it returned %d, errno %s, by_toylsm = %d", res[0], errname(res[1]),
			 res[2]);
	lab_trace_refusal("your open()", "openat,open");
	lab_hint("Landlock comes before toylsm on the file_open hook list and said no; toylsm was never asked, so its denials did not move");
	lab_fail();
}

static void expect_enforce(int on, int want_err, const char *want_text)
{
	char buf[16];
	int r, e;

	errno = 0;
	r = lab_set_enforce(on);
	e = errno;
	lab_check_todo(5, "lab_set_enforce()");
	read_file(TOYLSM_FS "enforce", buf, sizeof(buf));
	if ((want_err ? r == -1 && e == want_err : r == 0) && !strcmp(buf, want_text))
		return;
	lab_expected("lab_set_enforce(%d) returns %s%s, and then %senforce reads %s", on,
		     want_err ? "-1 with errno " : "0", want_err ? errname(want_err) : "",
		     TOYLSM_FS,
		     lab_quote(want_text, -1));
	lab_seen("it returned %d, errno %s; enforce reads %s", r, errname(e), lab_quote(buf, -1));
	if (want_err == EINVAL && r == 0)
		lab_hint("write the number as it is (snprintf(\"%%d\")): the kernel decides what is valid (toylsm_enforce_fs_write() in demo-lsm/securityfs.c)");
	else if (want_err && r == 0)
		lab_hint("check what write() returns and pass its errno on");
	else if (r > 0)
		lab_hint("return 0 on success, not the number of bytes written");
	else
		lab_hint("write \"0\" or \"1\" (text, not a binary int) to %senforce", TOYLSM_FS);
	lab_fail();
}

/*
 * Step 6: open path as you would without CAP_MAC_OVERRIDE (with it, root
 * passes every Smack check), in a child: read (write 0) or write "x"
 * (write 1).  The bytes read or written, or -errno.
 */
static int try_as_user(const char *path, int write)
{
	int p[2], res = -EPIPE, st;
	char buf[16];
	pid_t pid;

	lab_setup(pipe(p) == 0, "make a pipe", errno);
	pid = fork();
	lab_setup(pid >= 0, "fork()", errno);
	if (pid == 0) {
		if (drop_cap(CAP_MAC_OVERRIDE))
			_exit(3);
		res = write ? write_file(path, "x", 1) : read_file(path, buf, sizeof(buf));
		_exit(write_all(p[1], &res) ? 4 : 0);
	}
	close(p[1]);
	if (read(p[0], &res, sizeof(res)) != sizeof(res))
		res = -EPIPE;
	close(p[0]);
	waitpid(pid, &st, 0);
	return write && res == 0 ? 1 : res;
}

/* Whether the Smack rule list has this line. */
static int has_smack_rule(const char *line)
{
	char buf[8192];

	read_file(SMACKFS "load2", buf, sizeof(buf));
	return !!strstr(buf, line);
}
