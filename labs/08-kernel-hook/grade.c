// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 8's grader.  The attendee's unlink.c is in the kernel (the lab
 * kernel, FLAVOUR=lab); this program runs alone in the guest, as root
 * (label "init"), and watches what the new hooks do: unlink() and rmdir()
 * by a child labelled l8-worker, the rule table, toylsm's stats and the
 * denial records in the kernel log.
 *
 * The rules are global, so each step first sets the rules it relies on.
 */
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "grader.h"
#include "klog.h"
#include "kit/toylsm_files.h"
#include "trace.h"

#define DIR8 "/tmp/lab8"
#define WORKER "l8-worker"
#define SECRET "l8-secret"

/* The steps' checks and their hints, after the steps. */
static void rule(const char *perms);
static void make(const char *path, int dir, const char *label);
static int remove_as_worker(const char *path, int dir);
static void trace_removal(int dir, int got);
static int exists(const char *path);
static const char *path_for(const char *what);
static void judge(const char *what, const char *path, int dir, int want,
		  const char *situation, int got);
static void expect_remove(const char *what, const char *path, int dir, int want,
			  const char *situation);
static void expect_secret_kept(const char *f, const char *rules, const char *situation,
			       long c0, long d0);
static void removal_stats(long *calls, long *denials);

STEP(1, "register the hooks: an unlink() reaches toylsm")
{
	const char *f = path_for("reach");
	long c0 = 0, d0, c1 = 0, d1;
	char func[96];
	int have;

	/* No line before TODO 1: the hook's line comes with its registration. */
	if (toylsm_stats("inode_unlink", &c0, &d0))
		c0 = 0;
	make(f, 0, SECRET);
	rule("-");
	remove_as_worker(f, 0);
	have = toylsm_stats("inode_unlink", &c1, &d1) == 0;
	if ((have && c1 > c0) || klog_todo(2, func, sizeof(func)) ||
	    klog_todo(3, func, sizeof(func)))
		return;
	lab_expected("unlink() of a labelled file calls toylsm's inode_unlink hook");
	if (have)
		lab_seen("toylsm never heard of it: \"inode_unlink\" in stats still counts %ld call(s), and no lab function wrote to the kernel log",
			 c1);
	else
		lab_seen("toylsm never heard of it: " TOYLSM_FS "stats has no line \"inode_unlink\", and no lab function wrote to the kernel log");
	klog_check_todo(1);
	lab_hint("lab8_add_hooks() must hand lab8_hooks and lab8_stats to toylsm_add_hooks(), as toylsm_add_fs_hooks() in demo-lsm/fs.c does");
	lab_fail();
}

STEP(2, "deny unlink() of a labelled file without a \"w\" rule")
{
	const char *f = path_for("secret");
	long c0 = 0, d0 = 0, c1 = 0, d1 = 0;

	toylsm_stats("inode_unlink", &c0, &d0);
	rule("-");
	make(f, 0, SECRET);
	expect_secret_kept(f, "-", "with no rule", c0, d0);
	toylsm_stats("inode_unlink", &c1, &d1);
	if (d1 < d0 + 1) {
		lab_expected("the denial counted on the \"inode_unlink\" line of " TOYLSM_FS "stats");
		lab_seen("its denials went from %ld to %ld", d0, d1);
		lab_hint("deny through toylsm_check() with &stat_inode_unlink, which counts");
		lab_fail();
	}
	rule("r");
	toylsm_stats("inode_unlink", &c0, &d0);
	expect_secret_kept(f, "r", "with only an \"r\" rule", c0, d0);
	rule("w");
	expect_remove("of a file labelled " SECRET, f, 0, 0, "with the rule \"" WORKER " " SECRET " w\"");
	rule("-");
	f = path_for("plain");
	make(f, 0, NULL);
	expect_remove("of an unlabelled file", f, 0, 0, "with no rule");
	f = path_for("own");
	make(f, 0, WORKER);
	expect_remove("of a file with its own label", f, 0, 0, "with no rule");
}

STEP(3, "the denial record names the file")
{
	const char *f = path_for("victim"), *name = strrchr(f, '/') + 1;
	const char *log, *p, *line = NULL, *e;
	char want[160];

	rule("-");
	make(f, 0, SECRET);
	if (remove_as_worker(f, 0) != EACCES) {
		lab_expected("unlink of a file labelled " SECRET " by " WORKER " is denied, and logged");
		lab_seen("it was not denied, so there is no denial record to look at");
		lab_hint("this step needs step 2's denial: make step 2 pass first");
		lab_fail();
	}
	snprintf(want, sizeof(want), "name=\"%s\"", name);
	log = klog();
	for (p = log; (p = strstr(p, "hook=inode_unlink")); p++) {
		for (line = p; line > log && line[-1] != '\n'; line--)
			;
		if (strstr(line, want) && strstr(line, want) < strchrnul(line, '\n'))
			return;
	}
	lab_expected("toylsm's denial record in the kernel log says which file: %s", want);
	if (line) {
		e = strchrnul(line, '\n');
		lab_seen("the last record: %.*s", (int)(e - line > 300 ? 300 : e - line), line);
		klog_check_todo(3);
		lab_hint("common_lsm_audit() adds name= and ino= when ad->type is LSM_AUDIT_DATA_DENTRY and ad->u.dentry is set (include/linux/lsm_audit.h)");
	} else {
		lab_seen("no record with hook=inode_unlink in the kernel log");
		lab_hint("toylsm_check() logs a denial only when it denies: does step 2 pass?");
	}
	lab_fail();
}

STEP(4, "deny rmdir() of a labelled directory without a \"w\" rule")
{
	const char *d = path_for("dir");
	long c0 = 0, d0 = 0, c1 = 0, d1 = 0;
	int got;

	rule("-");
	make(d, 1, SECRET);
	removal_stats(&c0, &d0);
	got = remove_as_worker(d, 1);
	if (got == 0 && !exists(d)) {
		removal_stats(&c1, &d1);
		lab_expected("rmdir of an empty directory labelled " SECRET " by a task labelled "
			     WORKER ", with no rule: %s", errname(EACCES));
		lab_seen("rmdir() succeeded");
		klog_check_todo(4);
		trace_removal(1, 0);
		if (d1 > d0)
			lab_hint("toylsm_check() said no (the denial was counted: %ld -> %ld) and the rmdir still happened: hook_inode_rmdir() must return what it says (if it calls your unlink hook, that hook must return it too)",
				 d0, d1);
		else if (c1 > c0)
			lab_hint("toylsm_check() was asked (calls %ld -> %ld) and allowed the rmdir with no rule: pass the directory's label (toylsm_dentry_label(dentry)) and TOYLSM_MAY_WRITE, as for a file",
				 c0, c1);
		else
			lab_hint("a directory is removed through the inode_rmdir hook, not inode_unlink: hook_inode_rmdir() must decide the same way");
		lab_fail();
	}
	judge("of a directory labelled " SECRET, d, 1, EACCES, "with no rule", got);
	rule("w");
	expect_remove("of a directory labelled " SECRET, d, 1, 0, "with the \"w\" rule");
	rule("-");
	d = path_for("plaindir");
	make(d, 1, NULL);
	expect_remove("of an unlabelled directory", d, 1, 0, "with no rule");
}

static void lab_banner(void)
{
	long c, d;

	printf("lab 8: a new toylsm hook (unlink, rmdir)\n");
	if (mkdir(DIR8, 0755) && errno != EEXIST)
		printf("grader: cannot make %s: %s\n", DIR8, errname(errno));
	write_string(TOYLSM_FS "enforce", "1");
	/* The grader (label init) may end a step's labelled child. */
	if (write_string(TOYLSM_FS "rules", "init " WORKER " w\n"))
		printf("grader: cannot write %srules: %s\n", TOYLSM_FS, errname(errno));
	if (toylsm_stats("inode_unlink", &c, &d))
		printf("grader: %sstats has no inode_unlink line: this is not the lab kernel\n",
		       TOYLSM_FS);
}

static void lab_show(void)
{
	const char *p = klog(), *e;
	long c, d;

	if (toylsm_stats("inode_unlink", &c, &d) == 0)
		printf("stats: inode_unlink calls %ld, denials %ld\n", c, d);
	else
		printf("stats: no inode_unlink line (not the lab kernel?)\n");
	while ((p = strstr(p, "toylsm lab: "))) {
		e = strchrnul(p, '\n');
		printf("kernel log: %.*s\n", (int)(e - p), p);
		p = e;
	}
}

/* The rule "worker secret PERMS", or none with PERMS "-". */
static void rule(const char *perms)
{
	char line[96];
	int r;

	snprintf(line, sizeof(line), WORKER " " SECRET " %s\n", perms);
	r = write_string(TOYLSM_FS "rules", line);
	lab_setup(r == 0, "write a rule to " TOYLSM_FS "rules", -r);
}

/* A file (or with dir, a directory) labelled label (NULL: unlabelled). */
static void make(const char *path, int dir, const char *label)
{
	int fd;

	if (dir) {
		lab_setup(mkdir(path, 0755) == 0 || errno == EEXIST, "make a directory", errno);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		lab_setup(fd >= 0, "create a file", errno);
		close(fd);
	}
	if (label)
		lab_setup(setxattr(path, "security.toylsm", label, strlen(label), 0) == 0,
			  "label a file (setxattr security.toylsm)", errno);
}

/*
 * unlink() (or rmdir()) path in a child labelled l8-worker: 0, or the
 * errno it failed with.  The LSM events of the child are recorded, for
 * trace_removal().
 */
static int remove_as_worker(const char *path, int dir)
{
	int status, r;
	pid_t pid;

	lab_record();
	pid = fork();
	lab_setup(pid >= 0, "fork", errno);
	if (pid == 0) {
		if (write_string("/proc/self/attr/toylsm/current", WORKER))
			_exit(200);
		r = dir ? rmdir(path) : unlink(path);
		_exit(r ? errno : 0);
	}
	lab_setup(waitpid(pid, &status, 0) == pid && WIFEXITED(status), "wait for its child",
		  errno);
	lab_record_stop();
	lab_setup(WEXITSTATUS(status) != 200, "label its child " WORKER, EPERM);
	return WEXITSTATUS(status);
}

/*
 * Under a failure: what the trace of the last removal showed, who
 * refused it, or what each module answered in its hook when it went
 * through.
 */
static void trace_removal(int dir, int got)
{
	if (got)
		lab_trace_refusal(dir ? "the worker's rmdir()" : "the worker's unlink()",
				  dir ? "rmdir,unlinkat" : "unlink,unlinkat");
	else
		lab_trace_allowed(dir ? "the worker's rmdir()" : "the worker's unlink()",
				  dir ? "rmdir,unlinkat" : "unlink,unlinkat",
				  dir ? "inode_rmdir" : "inode_unlink", "toylsm");
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* A path of its own for each use, so that no step sees another's file. */
static const char *path_for(const char *what)
{
	static char buf[4][128];
	static int i, serial;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), DIR8 "/%s-%d-%d", what, getpid(), ++serial);
	return buf[i];
}

/*
 * Judge got, what removing path as l8-worker gave: it must be want (0 or
 * an errno), and the file gone only if allowed.
 */
static void judge(const char *what, const char *path, int dir, int want,
		  const char *situation, int got)
{
	const char *call = dir ? "rmdir" : "unlink";

	if (got == want && exists(path) == !!want)
		return;
	lab_expected("%s %s by a task labelled " WORKER ", %s: %s", call, what, situation,
		     want ? errname(want) : "allowed");
	if (got == want)
		lab_seen("%s() said %s, but the %s %s", call, errname(got),
			 dir ? "directory" : "file", want ? "is gone" : "is still there");
	else
		lab_seen("%s() %s", call, got ? errname(got) : "succeeded");
	if (got != want)
		trace_removal(dir, got);
	if (got == 0 && want && strstr(situation, "\"r\""))
		lab_hint("a rule that grants only \"r\" let the unlink through: ask toylsm_check() for TOYLSM_MAY_WRITE (\"w\"), not for reading");
	else if (got == 0 && want)
		lab_hint("the hook returned 0 where no rule grants \"w\": return what toylsm_check() says");
	else if (got == EPERM)
		lab_hint("EPERM is not toylsm_check()'s answer: return its result as it is");
	else if (got == EACCES && !want)
		lab_hint("toylsm denied although it should allow: check the subject (toylsm_current_label()), the object (toylsm_dentry_label(dentry)) and the permission (TOYLSM_MAY_WRITE)");
	lab_fail();
}

static void expect_remove(const char *what, const char *path, int dir, int want,
			  const char *situation)
{
	judge(what, path, dir, want, situation, remove_as_worker(path, dir));
}

/*
 * Step 2: an unlink() by l8-worker succeeded where it must be refused
 * (rules: the rule in force, as its PERMS).  What toylsm's inode_unlink
 * line did around it tells why: toylsm_check() counts every call, and
 * every denial.
 */
static void step2_allowed(const char *rules, long c0, long d0)
{
	long c1 = 0, d1 = 0;

	toylsm_stats("inode_unlink", &c1, &d1);
	klog_check_todo(2);
	trace_removal(0, 0);
	if (d1 > d0)
		lab_hint("toylsm_check() said no (the denial was counted: %ld -> %ld) and the unlink still happened: return what toylsm_check() returns",
			 d0, d1);
	else if (c1 == c0)
		lab_hint("toylsm_check() was not asked: the calls of \"inode_unlink\" in stats stayed at %ld; call toylsm_check(&stat_inode_unlink, ...) and return what it says",
			 c0);
	else if (!strcmp(rules, "r"))
		lab_hint("toylsm_check() allowed it because the rule \"" WORKER " " SECRET " r\" grants what your hook asked for: removing a file needs TOYLSM_MAY_WRITE, not TOYLSM_MAY_READ");
	else
		lab_hint("toylsm_check() was asked (calls %ld -> %ld) and allowed it with no rule, which it does only for an unlabelled object or one with the subject's own label: pass toylsm_current_label() and the label of d_backing_inode(dentry) (the file, not dir)",
			 c0, c1);
	lab_fail();
}

/*
 * Step 2's unlink of the file @f labelled SECRET by the worker, under the
 * rule @rules (its PERMS, "-": none; @situation, in words), must fail
 * with EACCES; @c0, @d0: inode_unlink's calls and denials before it.
 */
static void expect_secret_kept(const char *f, const char *rules, const char *situation,
			       long c0, long d0)
{
	int got = remove_as_worker(f, 0);

	if (got == 0 && !exists(f)) {
		lab_expected("unlink of a file labelled " SECRET " by a task labelled " WORKER
			     ", %s: %s", situation, errname(EACCES));
		lab_seen("unlink() succeeded");
		step2_allowed(rules, c0, d0);
	}
	judge("of a file labelled " SECRET, f, 0, EACCES, situation, got);
}

/*
 * The calls and denials toylsm_check() counted for removals: TODO 4 may
 * ask it through the unlink hook (its counter), or with a counter of its
 * own, "inode_rmdir", if the learner added one.
 */
static void removal_stats(long *calls, long *denials)
{
	long c = 0, d = 0;

	*calls = *denials = 0;
	if (!toylsm_stats("inode_unlink", &c, &d)) {
		*calls += c;
		*denials += d;
	}
	if (!toylsm_stats("inode_rmdir", &c, &d)) {
		*calls += c;
		*denials += d;
	}
}
