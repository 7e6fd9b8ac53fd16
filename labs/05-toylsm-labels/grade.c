// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 5's grader, linked with the attendee's labels.c and run in the
 * guest as root (with CAP_MAC_ADMIN, until step 6 drops it).  The truth
 * comes from its own reads and writes of /proc/<tid>/attr/toylsm/ and
 * /sys/kernel/security/toylsm/rules.
 *
 * Every step runs in its own child process, whose label starts as the
 * grader's ("init"); labels and attrs do not carry over from one step to
 * the next, but rules do (they are global), so each step writes the rules
 * it relies on.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "grader.h"
#include "lab.h"
#include "kit/toylsm_files.h"
#include "toylsm_steps.h"
#include "trace.h"

#define NO_TID 4194304	/* PID_MAX_LIMIT: never a task's ID */

/*
 * The labels the steps' tasks take.  The grader (label "init") may signal
 * them (rule "init L w"): otherwise it could not end a step that hangs.
 */
static const char *const step_labels[] = {
	"l5-child", "l5-next", "l5-a", "l5-b", "l5-0123456789abcdefghijklmnopqr",
	"l5-thread", "l5", "L5-x_y.z:0", "l5-valid-label-of-31-characters",
	"l5-parent", "l5-exec", "l5-self", "l5-intruder", "l5-from", "l5-to",
};

/* Step 2, in a second thread: its own lab_set_label(). */
struct thread_try {
	int r, e;
	char label[96];
};

/* Step 4's program: it writes its own labels to EXEC_OUT and exits 7. */
#define EXEC_OUT "/tmp/lab5-exec.txt"
static char *const show_argv[] = {
	"/bin/sh", "-c",
	"cat /proc/self/attr/toylsm/current /proc/self/attr/toylsm/prev /proc/self/attr/toylsm/exec >"
	EXEC_OUT "; exit 7",
	NULL,
};

/* Step 5: a thread (idle_thread()) that waits until told to stop, its ID. */
static volatile int stop_thread;
static volatile pid_t thread_tid;

/* The steps' helpers and checks, after the steps. */
static const char *attr_of(pid_t tid, const char *attr);
static const char *truth(pid_t tid, const char *attr);
static int has_cap(int cap, int which);
static void expect_read(pid_t tid, const char *tidname, const char *attr, const char *want);
static void *set_in_thread(void *arg);
static void expect_set(const char *label, const char *want);
static void caller_unchanged(const char *call);
static void *idle_thread(void *arg);
static void expect_refused(pid_t tid, const char *who, int err, const char *why);

STEP(1, "read a task's toylsm labels: current, exec, prev")
{
	char buf[96], name[32];
	int r, e, i;
	pid_t pid;

	need_toylsm();
	expect_read(0, "0", "current", truth(0, "current"));
	expect_read(0, "0", "exec", "");
	expect_read(0, "0", "prev", "");
	expect_read(1, "1", "current", truth(1, "current"));

	/* A child that took a label at its exec: current, and prev. */
	pid = fork();
	lab_setup(pid >= 0, "fork()", errno);
	if (pid == 0) {
		if (write_string(attr_of(0, "exec"), "l5-child") == 0)
			execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 300 && strcmp(truth(pid, "current"), "l5-child"); i++)
		usleep(10 * 1000);
	lab_setup(!strcmp(truth(pid, "current"), "l5-child"), "start a child labelled l5-child",
		  ETIMEDOUT);
	snprintf(name, sizeof(name), "%d (a child)", (int)pid);
	expect_read(pid, name, "current", "l5-child");
	expect_read(pid, name, "prev", truth(0, "current"));
	expect_read(pid, name, "exec", "");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	/* Our own exec label, once set. */
	lab_setup(write_string(attr_of(0, "exec"), "l5-next") == 0, "write its exec attr", errno);
	expect_read(0, "0", "exec", "l5-next");

	errno = 0;
	r = lab_read_label(NO_TID, "current", buf, 64);
	e = errno;
	lab_must_fail(r, e, ENOENT, "open() fails with ENOENT: pass it on (return -1, errno as open() left it)",
		      "lab_read_label(%d, \"current\", buf, 64) returns -1 with errno ENOENT: there is no task %d",
		      NO_TID, NO_TID);
}

STEP(2, "set your own label")
{
	struct thread_try t = { -2, 0, "" };
	char mine[96];
	pthread_t th;
	int r, e;

	need_toylsm();
	expect_set("l5-a", "l5-a");
	expect_set("l5-b\n", "l5-b");
	expect_set("l5-0123456789abcdefghijklmnopqr", "l5-0123456789abcdefghijklmnopqr");

	/* A label is a thread's: another thread sets only its own. */
	snprintf(mine, sizeof(mine), "%s", truth(0, "current"));
	lab_setup(pthread_create(&th, NULL, set_in_thread, &t) == 0, "start a thread", errno);
	pthread_join(th, NULL);
	if (t.r != 0 || strcmp(t.label, "l5-thread") || strcmp(truth(0, "current"), mine)) {
		lab_expected("lab_set_label(\"l5-thread\") in a second thread returns 0 and sets that thread's label only");
		lab_seen("it returned %d%s%s; that thread's label: %s, the first thread's: %s", t.r,
			 t.r < 0 ? ", errno " : "", t.r < 0 ? errname(t.e) : "",
			 lab_quote(t.label, -1), lab_quote(truth(0, "current"), -1));
		if (t.r < 0 && t.e == EACCES)
			lab_hint("/proc/self is the process's first thread: from a second thread, writing it is writing another task's attr (EACCES, proc_pid_attr_write() in fs/proc/base.c). Use /proc/thread-self");
		else
			lab_hint("each thread has its own credentials, so its own label: write /proc/thread-self/attr/toylsm/current");
		lab_fail();
	}

	errno = 0;
	r = lab_set_label("l5 bad");
	e = errno;
	lab_must_fail(r, e, EINVAL, "check what write() returns and pass its errno on",
		      "lab_set_label(\"l5 bad\") returns -1 with errno EINVAL (a space is not allowed)");
}

STEP(3, "predict which labels toylsm accepts")
{
	static const struct { const char *s; size_t len; const char *why; } label_cases[] = {
		{ "l5", 2, "two allowed characters" },
		{ "l5\n", 3, "one trailing newline, which toylsm drops" },
		{ "L5-x_y.z:0", 10, "letters, digits and each of _ . : -" },
		{ "l5-valid-label-of-31-characters", 31, "31 characters: the longest label" },
		{ "l5-valid-label-of-31-characters\n", 32,
		  "31 characters and the newline that is dropped" },
		{ "", 0, "nothing at all" },
		{ "\n", 1, "only a newline: nothing is left once it is dropped" },
		{ "l5\n\n", 4, "two newlines: only one is dropped" },
		{ "l5\nx", 4, "a newline that is not the last byte" },
		{ "l5 x", 4, "a space" },
		{ "\tl5", 3, "a tab" },
		{ "l5\r", 3, "a carriage return (not a newline)" },
		{ "l5\0x", 4, "an embedded NUL: count len bytes, not strlen()" },
		{ "l5/x", 4, "'/' is not in [A-Za-z0-9_.:-]" },
		{ "caf\xc3\xa9", 5, "non-ASCII: UTF-8 for \"cafe\" with an accent" },
		{ "l5-invalid-label-of-32-character", 32, "32 characters: one too many" },
	};
	int i, r, k, want;

	need_toylsm();
	for (i = 0; i < (int)(sizeof(label_cases) / sizeof(label_cases[0])); i++) {
		r = lab_label_ok(label_cases[i].s, label_cases[i].len);
		lab_check_todo(3, "lab_label_ok()");
		/* The truth: what toylsm itself says. */
		k = write_file(attr_of(0, "current"), label_cases[i].s, label_cases[i].len);
		lab_setup(k == 0 || k == -EINVAL, "write a label", -k);
		want = k == 0;
		if (!!r == want)
			continue;
		lab_expected("lab_label_ok(%s, %zu) returns %d: toylsm %s (%s)",
			     lab_quote(label_cases[i].s, label_cases[i].len),
			     label_cases[i].len, want,
			     want ? "accepts it" : "refuses it with EINVAL", label_cases[i].why);
		lab_seen("it returned %d", r);
		if (memchr(label_cases[i].s, '\0', label_cases[i].len))
			lab_hint("strchr(\"_.:-\", c) finds the string's own NUL too, so it \"allows\" c == '\\0'; and strlen() stops at the NUL: look at all len bytes");
		else
			lab_hint("read toylsm_label_parse() in demo-lsm/label.c (and docs/toylsm.md): the rule is exactly there");
		lab_fail();
	}
}

STEP(4, "run a program under another label: the exec attr")
{
	char out[256], *const missing[] = { "/nonexistent/program", NULL };
	int r, e, n;

	need_toylsm();
	lab_setup(toylsm_relabel("l5-parent") == 0, "label itself l5-parent", errno);
	unlink(EXEC_OUT);
	errno = 0;
	r = lab_exec_as("l5-exec", show_argv);
	e = errno;
	lab_check_todo(4, "lab_exec_as()");
	n = read_file(EXEC_OUT, out, sizeof(out));
	if (r != 7 || n < 0 || strcmp(out, "l5-exec\nl5-parent\n")) {
		lab_expected("lab_exec_as(\"l5-exec\", {\"/bin/sh\", \"-c\", \"cat ...; exit 7\"}) returns 7, and the program sees current \"l5-exec\", prev \"l5-parent\", exec \"\"");
		lab_seen("it returned %d%s%s; the program %s%s", r, r < 0 ? ", errno " : "",
			 r < 0 ? errname(e) : "", n < 0 ? "did not run" : "printed ",
			 n < 0 ? "" : lab_quote(out, -1));
		if (n >= 0 && !strncmp(out, "l5-parent\n", 10))
			lab_hint("the program kept the caller's label: in the child, write the label to %s before execv()",
				 attr_of(0, "exec"));
		else if (n >= 0 && r != 7)
			lab_hint("return the child's exit status: waitpid(), then WEXITSTATUS(status)");
		else if (r < 0)
			lab_hint("the label is valid and /bin/sh exists: which call failed with %s?",
				 errname(e));
		else
			lab_hint("fork(), and in the child: write the exec attr, then execv(argv[0], argv)");
		lab_fail();
	}
	caller_unchanged("lab_exec_as(\"l5-exec\", ...)");

	unlink(EXEC_OUT);
	errno = 0;
	r = lab_exec_as("l5 bad", show_argv);
	e = errno;
	n = read_file(EXEC_OUT, out, sizeof(out));
	if (r != -1 || e != EINVAL || n >= 0) {
		lab_expected("lab_exec_as(\"l5 bad\", ...) returns -1 with errno EINVAL, and the program does not run");
		lab_seen("it returned %d, errno %s; the program %s", r, errname(e),
			 n >= 0 ? "ran" : "did not run");
		if (n >= 0)
			lab_hint("the child ran the program although it could not set the label: fail closed, _exit() without execv()");
		else
			lab_hint("the child's errno must reach the parent: write it into a pipe made with O_CLOEXEC (an execv() that works closes it, so the parent reads 0 bytes)");
		lab_fail();
	}
	caller_unchanged("lab_exec_as(\"l5 bad\", ...)");

	errno = 0;
	r = lab_exec_as("l5-exec", missing);
	e = errno;
	lab_must_fail(r, e, ENOENT,
		      "execv() returns only when it fails: send its errno to the parent the same way",
		      "lab_exec_as(\"l5-exec\", {\"/nonexistent/program\", NULL}) returns -1 with errno ENOENT");
	caller_unchanged("lab_exec_as(\"l5-exec\", {\"/nonexistent/program\", NULL})");
}

STEP(5, "only the task itself may write its labels")
{
	pthread_t th;
	pid_t pid;
	int r, e;

	need_toylsm();
	errno = 0;
	r = lab_write_label_of(gettid(), "l5-self");
	e = errno;
	lab_check_todo(5, "lab_write_label_of()");
	if (r != 0 || strcmp(truth(0, "current"), "l5-self")) {
		lab_expected("lab_write_label_of(gettid(), \"l5-self\") returns 0 and sets your own label");
		lab_seen("it returned %d%s%s; your label is %s", r, r < 0 ? ", errno " : "",
			 r < 0 ? errname(e) : "", lab_quote(truth(0, "current"), -1));
		lab_hint("write the label to /proc/<tid>/attr/toylsm/current in one write(); return 0");
		lab_fail();
	}
	printf("%-36s 0 (yourself)\n", "lab_write_label_of(gettid())");

	pid = fork();
	lab_setup(pid >= 0, "fork()", errno);
	if (pid == 0) {
		for (;;)
			pause();
	}
	expect_refused(pid, "a child process",
		       EPERM, "fs/proc refuses a write through a file opened for another process's memory (proc_pid_attr_write())");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	lab_setup(pthread_create(&th, NULL, idle_thread, NULL) == 0, "start a thread", errno);
	while (!thread_tid)
		usleep(1000);
	expect_refused(thread_tid, "another thread of your process",
		       EACCES, "same memory, but not the same task: \"a task may only write its own attributes\" (proc_pid_attr_write())");
	stop_thread = 1;
	pthread_join(th, NULL);

	expect_refused(1, "1 (init)", EACCES,
		       "toylsm refuses first: pid 1's /proc files carry its label, \"init\" (toylsm's task_to_inode), and yours has no \"w\" rule to it");
	expect_refused(NO_TID, "a task that does not exist", ENOENT, "open() finds no such file");
}

STEP(6, "without CAP_MAC_ADMIN, only a t rule lets you change your label")
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct before[2], after[2];
	int r, e, k;

	need_toylsm();
	lab_setup(write_string(TOYLSM_FS "rules",
			       "l5-from l5-to t\nl5-from l5-other -\nl5-to l5-from -\n") == 0,
		  "write its rules", errno);
	lab_setup(toylsm_relabel("l5-from") == 0, "label itself l5-from", errno);
	lab_setup(syscall(SYS_capget, &h, before) == 0, "read its capabilities", errno);
	errno = 0;
	r = lab_drop_mac_admin();
	e = errno;
	lab_check_todo(6, "lab_drop_mac_admin()");
	lab_setup(syscall(SYS_capget, &h, after) == 0, "read its capabilities", errno);
	if (r != 0 || has_cap(CAP_MAC_ADMIN, 0) != 0 || has_cap(CAP_SYS_ADMIN, 0) != 1) {
		lab_expected("lab_drop_mac_admin() returns 0; then CAP_MAC_ADMIN is not effective, and the others (CAP_SYS_ADMIN...) still are");
		lab_seen("it returned %d%s%s; CAP_MAC_ADMIN %s, CAP_SYS_ADMIN %s", r,
			 r < 0 ? ", errno " : "",
			 r < 0 ? errname(e) : "", has_cap(CAP_MAC_ADMIN, 0) ? "effective" : "dropped",
			 has_cap(CAP_SYS_ADMIN, 0) ? "effective" : "dropped");
		if (has_cap(CAP_SYS_ADMIN, 0) != 1)
			lab_hint("clear only CAP_MAC_ADMIN's bit: d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN %% 32))");
		else if (r < 0 && e == EINVAL)
			lab_hint("capget() first, with header.version = _LINUX_CAPABILITY_VERSION_3 and two __user_cap_data_struct");
		else
			lab_hint("syscall(SYS_capget, &header, data), clear the bit in data[1].effective (CAP_MAC_ADMIN is 33), syscall(SYS_capset, &header, data)");
		lab_fail();
	}
	/* "in the effective set only": the other sets are as they were. */
	for (k = 0; k < 2; k++) {
		__u32 bit = k == CAP_MAC_ADMIN / 32 ? 1U << (CAP_MAC_ADMIN % 32) : 0;

		if (after[k].effective == (before[k].effective & ~bit) &&
		    after[k].permitted == before[k].permitted &&
		    after[k].inheritable == before[k].inheritable)
			continue;
		lab_expected("lab_drop_mac_admin() clears CAP_MAC_ADMIN from the effective set and changes nothing else: data[%d] effective 0x%08x, permitted 0x%08x, inheritable 0x%08x",
			     k, before[k].effective & ~bit, before[k].permitted,
			     before[k].inheritable);
		lab_seen("data[%d] is effective 0x%08x, permitted 0x%08x, inheritable 0x%08x (before your call: 0x%08x, 0x%08x, 0x%08x)",
			 k, after[k].effective, after[k].permitted, after[k].inheritable,
			 before[k].effective, before[k].permitted, before[k].inheritable);
		if (after[k].permitted != before[k].permitted)
			lab_hint("the step asks for the effective set only: leave permitted as capget() gave it (a bit still permitted can be made effective again with capset(); clearing it from permitted too drops it for good)");
		else if (after[k].inheritable != before[k].inheritable)
			lab_hint("only the effective set: leave inheritable as capget() gave it");
		else
			lab_hint("clear only CAP_MAC_ADMIN's bit: d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN %% 32))");
		lab_fail();
	}
	printf("rules: l5-from l5-to t; you are l5-from, without CAP_MAC_ADMIN\n");

	/* What toylsm_check_relabel() now decides. */
	k = toylsm_relabel("l5-other");
	if (k != -EPERM) {
		lab_expected("with CAP_MAC_ADMIN dropped, writing \"l5-other\" to current fails with EPERM (no t rule)");
		lab_seen("the write gave %s", errname(-k));
		lab_hint("is CAP_MAC_ADMIN still in the effective set? toylsm_check_relabel() in demo-lsm/policy.c lets it change to any label");
		lab_fail();
	}
	printf("current <- l5-other: %s (no t rule)\n", errname(-k));
	k = write_string(attr_of(0, "exec"), "l5-other");
	lab_setup(k == -EPERM, "see EPERM for exec <- l5-other", -k);
	printf("exec    <- l5-other: %s (checked when written, not at exec)\n", errname(-k));
	k = toylsm_relabel("l5-to");
	lab_setup(k == 0 && !strcmp(truth(0, "current"), "l5-to"), "change to l5-to by its t rule",
		  -k);
	printf("current <- l5-to:    0 (rule l5-from l5-to t)\n");
	k = toylsm_relabel("l5-from");
	lab_setup(k == -EPERM, "see EPERM for the way back", -k);
	printf("current <- l5-from:  %s (no rule back)\n", errname(-k));
}

static void lab_banner(void)
{
	load_fs_list();
	printf("lab 5: toylsm labels; this boot: %s\n", fs_list);
	if (!lsm_active("toylsm"))
		return;
	lab_toylsm_steps_reachable(step_labels, sizeof(step_labels) / sizeof(step_labels[0]));
}

/* "labels" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	static const char *const attrs[] = { "current", "exec", "prev" };
	static const char *const tries[] = {
		"l5", "l5\n", "l5 x", "", "l5-invalid-label-of-32-character"
	};
	char buf[96];
	int i, r;

	for (i = 0; i < 3; i++) {
		r = lab_read_label(0, attrs[i], buf, sizeof(buf));
		if (lab_show_todo("lab_read_label"))
			break;
		printf("your %-8s %s\n", attrs[i], r >= 0 ? lab_quote(buf, -1) : errname(errno));
	}
	r = lab_read_label(1, "current", buf, sizeof(buf));
	if (!lab_show_todo("lab_read_label"))
		printf("pid 1's current: %s\n", r >= 0 ? lab_quote(buf, -1) : errname(errno));
	for (i = 0; i < (int)(sizeof(tries) / sizeof(tries[0])); i++) {
		r = lab_label_ok(tries[i], strlen(tries[i]));
		if (lab_show_todo("lab_label_ok"))
			break;
		printf("lab_label_ok(%s) = %d\n", lab_quote(tries[i], -1), r);
	}
}

static const char *attr_of(pid_t tid, const char *attr)
{
	static char buf[4][96];
	static int k;

	k = (k + 1) % 4;
	if (tid)
		snprintf(buf[k], sizeof(buf[k]), "/proc/%d/attr/toylsm/%s", (int)tid, attr);
	else
		snprintf(buf[k], sizeof(buf[k]), "/proc/thread-self/attr/toylsm/%s", attr);
	return buf[k];
}

/* The grader's own read of a label, without its newline. */
static const char *truth(pid_t tid, const char *attr)
{
	static char val[4][96];
	static int k;
	int n;

	k = (k + 1) % 4;
	n = read_file(attr_of(tid, attr), val[k], sizeof(val[k]));
	if (n < 0)
		snprintf(val[k], sizeof(val[k]), "(error %s)", errname(-n));
	else if (n > 0 && val[k][n - 1] == '\n')
		val[k][n - 1] = '\0';
	return val[k];
}

/*
 * The bit of cap in the calling thread's effective (which 0) or
 * permitted (1) set, or -1.
 */
static int has_cap(int cap, int which)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -1;
	return !!((which ? d[cap / 32].permitted : d[cap / 32].effective) & (1U << (cap % 32)));
}

/* One check of step 1: lab_read_label(tid, attr) must give want. */
static void expect_read(pid_t tid, const char *tidname, const char *attr, const char *want)
{
	char buf[64 + 8], shown[96];
	int r, e;

	memset(buf, 'X', sizeof(buf));
	errno = 0;
	r = lab_read_label(tid, attr, buf, 64);
	e = errno;
	lab_check_todo(1, "lab_read_label()");
	if (r == (int)strlen(want) && memchr(buf, '\0', 64) && !strcmp(buf, want))
		return;
	snprintf(shown, sizeof(shown), "%s", lab_quote(want, -1));
	lab_expected("lab_read_label(%s, \"%s\", buf, 64) returns %zu with buf = %s (%s)",
		     tidname, attr, strlen(want), shown, attr_of(tid, attr));
	if (r < 0)
		lab_seen("it returned -1, errno %s", errname(e));
	else
		lab_seen("it returned %d with buf = %s", r,
			 memchr(buf, '\0', 64) ? lab_quote(buf, -1) : "(no NUL in buf)");
	if (r < 0 && !*want)
		lab_hint("an unset %s reads as nothing: read() returns 0 and that is the answer (\"\", length 0), not an error",
			 attr);
	else if (r >= 0 && memchr(buf, '\0', 64) && strlen(buf) == strlen(want) + 1 &&
		 buf[strlen(want)] == '\n')
		lab_hint("toylsm ends the label with a newline (toylsm_getprocattr() in demo-lsm/procattr.c): drop it");
	else if (r >= 0 && !memchr(buf, '\0', 64))
		lab_hint("read() does not NUL-terminate: set buf[length] = '\\0'");
	else if (tid && r >= 0 && !strcmp(buf, truth(0, attr)))
		lab_hint("that is your own %s: for tid %d read /proc/%d/attr/toylsm/%s", attr,
			 (int)tid, (int)tid, attr);
	else
		lab_hint("read %s, as attr_path() builds it, and return strlen(buf)",
			 attr_of(tid, attr));
	lab_fail();
}

static void *set_in_thread(void *arg)
{
	struct thread_try *t = arg;

	errno = 0;
	t->r = lab_set_label("l5-thread");
	t->e = errno;
	snprintf(t->label, sizeof(t->label), "%s", truth(0, "current"));
	return NULL;
}

static void expect_set(const char *label, const char *want)
{
	int r, e;

	errno = 0;
	r = lab_set_label(label);
	e = errno;
	lab_check_todo(2, "lab_set_label()");
	if (r == 0 && !strcmp(truth(0, "current"), want))
		return;
	lab_expected("lab_set_label(%s) returns 0, and then your label is %s", lab_quote(label, -1),
		     lab_quote(want, -1));
	lab_seen("it returned %d%s%s; your label is %s", r, r < 0 ? ", errno " : "",
		 r < 0 ? errname(e) : "", lab_quote(truth(0, "current"), -1));
	if (r > 0)
		lab_hint("return 0 on success, not the number of bytes written");
	else if (r < 0 && e == EINVAL && !strchr(label, '\n'))
		lab_hint("EINVAL: the kernel did not like the bytes; write strlen(label) bytes, without its NUL");
	else if (r == 0)
		lab_hint("write the label to %s (attr_path(..., 0, \"current\"))",
			 attr_of(0, "current"));
	else
		lab_hint("open() %s for writing, write() the label in one call",
			 attr_of(0, "current"));
	lab_fail();
}

/* After a call of step 4: the caller's labels must be as they were. */
static void caller_unchanged(const char *call)
{
	const char *cur = truth(0, "current"), *ex = truth(0, "exec");

	if (!strcmp(cur, "l5-parent") && !*ex)
		return;
	lab_expected("after %s, your own labels are unchanged: current \"l5-parent\", exec \"\"",
		     call);
	lab_seen("current %s, exec %s", lab_quote(cur, -1), lab_quote(ex, -1));
	if (*ex)
		lab_hint("you wrote the caller's exec attr: write it in the child, after fork(). There is no undo: an empty write is EINVAL, and the caller's next exec would take the label");
	else
		lab_hint("write the child's exec attr, not current: the label is taken at execv()");
	lab_fail();
}

static void *idle_thread(void *arg)
{
	(void)arg;
	thread_tid = gettid();
	while (!stop_thread)
		usleep(1000);
	return NULL;
}

/* lab_write_label_of(tid) must fail with err and leave tid's label. */
static void expect_refused(pid_t tid, const char *who, int err, const char *why)
{
	char before[96];
	int r, e;

	snprintf(before, sizeof(before), "%s", truth(tid, "current"));
	lab_record();
	errno = 0;
	r = lab_write_label_of(tid, "l5-intruder");
	e = errno;
	lab_record_stop();
	lab_check_todo(5, "lab_write_label_of()");
	if (r == -1 && e == err && !strcmp(truth(tid, "current"), before)) {
		printf("%-36s %s\n", who, errname(e));
		return;
	}
	lab_expected("lab_write_label_of(%s) returns -1 with errno %s: %s", who, errname(err), why);
	lab_seen("it returned %d, errno %s; its label is %s", r, errname(e),
		 lab_quote(truth(tid, "current"), -1));
	/* The refusal is fs/proc's own: the trace shows that no module's. */
	lab_trace_refusal(NULL, "openat,open,write");
	if (!strcmp(truth(0, "current"), "l5-intruder"))
		lab_hint("that changed your own label: write /proc/<tid>/attr/toylsm/current, not /proc/thread-self");
	else if (r == 0)
		lab_hint("check what write() returns: the kernel refuses");
	else
		lab_hint("open() the file, write() the label; pass the kernel's errno on");
	lab_fail();
}
