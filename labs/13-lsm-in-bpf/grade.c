// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 13's grader, linked with the loader (loader.c) and the skeleton of
 * the attendee's guard.bpf.c, and run in the guest of the bpf flavour.
 * What it judges is what the program refuses, and to whom: a victim
 * process (a child of the grader, whose PID the loader gives the program
 * before loading it) asks for mkdir, from its main thread and from a
 * second one; the grader, a process started after the victim and a
 * child of the victim ask too, and the victim makes a file and removes a
 * directory (no mkdir: allowed). The
 * truth: whether the BPF LSM is active (ID 42 in lsm_module_list(), as
 * the loader asks it), and where "bpf" stands in the walk against
 * Landlock (/sys/kernel/security/lsm).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "grader.h"
#include "kit/landlock.h"
#include "loader.h"

#define DIR "/tmp/lab13"

/*
 * The victim: a child that waits for a command and reports what came of
 * it, a return value and errno: 'm' a mkdir (from 'L' on in a Landlock
 * sandbox that forbids making one), 't' a mkdir from a second thread,
 * 'c' a mkdir by a child of its own, 'o' its other file operations (a
 * file made and removed, a directory the grader made removed: the
 * failing one's number in rc, from 2 on).
 */
struct answer {
	long rc;
	int err;
};

struct victim {
	pid_t pid;
	int go, back;
};

static struct answer mkdir_answer(const char *who)
{
	char path[64];
	struct answer a;

	snprintf(path, sizeof(path), DIR "/%s-%d-%ld", who, getpid(), random());
	errno = 0;
	a.rc = syscall(SYS_mkdirat, AT_FDCWD, path, 0755);
	a.err = a.rc == -1 ? errno : 0;
	return a;
}

static void *thread_mkdir(void *arg)
{
	*(struct answer *)arg = mkdir_answer("thread");
	return NULL;
}

/* 'o': 0, or 2 + the operation that failed (other_ops[]), errno in err. */
static const char *const other_ops[] = { "open(O_CREAT) of a new file", "unlink of that file",
					 "rmdir of a directory" };

static struct answer victim_others(void)
{
	char path[64];
	struct answer a = { 0, 0 };
	int fd;

	snprintf(path, sizeof(path), DIR "/file-%d", getpid());
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return (struct answer){ 2, errno };
	close(fd);
	if (unlink(path))
		return (struct answer){ 3, errno };
	snprintf(path, sizeof(path), DIR "/rmdir-%d", getpid());
	if (rmdir(path))
		return (struct answer){ 4, errno };
	return a;
}

static void victim_main(int go, int back)
{
	char cmd[2];
	struct answer a;
	pthread_t th;
	pid_t child;
	int ruleset;

	while (read(go, cmd, 1) == 1 && cmd[0] != 'q') {
		if (cmd[0] == 'L') {	/* a Landlock domain: no mkdir anywhere */
			ruleset = kit_landlock_ruleset(LANDLOCK_ACCESS_FS_MAKE_DIR);
			if (ruleset < 0 || kit_landlock_enforce(ruleset))
				_exit(3);
		}
		if (cmd[0] == 't') {
			if (pthread_create(&th, NULL, thread_mkdir, &a) || pthread_join(th, NULL))
				_exit(5);
		} else if (cmd[0] == 'c') {
			child = fork();
			if (child == 0) {
				a = mkdir_answer("child");
				_exit(write(back, &a, sizeof(a)) == sizeof(a) ? 0 : 4);
			}
			if (child < 0 || waitpid(child, NULL, 0) != child)
				_exit(6);
			continue;	/* the child answered */
		} else if (cmd[0] == 'o') {
			a = victim_others();
		} else {
			a = mkdir_answer("victim");
		}
		if (write(back, &a, sizeof(a)) != sizeof(a))
			_exit(4);
	}
	_exit(0);
}

static void victim_start(struct victim *v)
{
	int go[2], back[2];

	lab_setup(pipe(go) == 0 && pipe(back) == 0, "make two pipes", errno);
	v->pid = fork();
	lab_setup(v->pid >= 0, "fork the victim process", errno);
	if (v->pid == 0) {
		close(go[1]);
		close(back[0]);
		victim_main(go[0], back[1]);
	}
	close(go[0]);
	close(back[1]);
	v->go = go[1];
	v->back = back[0];
}

/* The victim's answer to how ('m', 'L', 't', 'c', 'o': victim_main). */
static struct answer victim_mkdir(struct victim *v, char how)
{
	struct answer a = { 0, 0 };

	lab_setup(write(v->go, &how, 1) == 1 && read(v->back, &a, sizeof(a)) == sizeof(a),
		  "hear the victim's answer", errno);
	return a;
}

static void victim_stop(struct victim *v)
{
	if (write(v->go, "q", 1) != 1)
		kill(v->pid, SIGKILL);
	waitpid(v->pid, NULL, 0);
}

/* The steps whose TODO is still in the source (loader.c's lab_bpf_todos). */
static void check_todo(int n)
{
	if (!(lab_bpf_todos & (1u << n)))
		return;
	lab_todo = n;
	lab_check_todo(n, "guard_mkdir");
}

/* The load failed with -err: what libbpf said, its end. */
static void load_failed(int err)
{
	const char *tail = lab13_log, *nl;
	size_t n = strlen(lab13_log);

	if (n > 700) {	/* the log's last lines: the verifier's reason */
		tail += n - 700;
		nl = strchr(tail, '\n');
		if (nl && nl[1])
			tail = nl + 1;
	}
	lab_expected("your program loads (the verifier accepts it) and attaches to path_mkdir");
	lab_seen("libbpf: %s (%s%s)", errname(-err), n > 700 ? "the log's last lines: " : "",
		 n ? tail : "no message");
	lab_hint("the verifier's reason is in the log's last lines, above; make lab 13 SHELL=1, then lab13, prints the last 4 KB of it");
	lab_fail();
}

/* Load the attendee's program for the victim, or fail the step. */
static void load_for(struct victim *v)
{
	int err = lab13_load(v->pid);

	if (err)
		load_failed(err);
}

static const char *answer_text(struct answer a)
{
	static char buf[128];

	if (a.rc == -1)
		snprintf(buf, sizeof(buf), "-1, errno %s", errname(a.err));
	else
		snprintf(buf, sizeof(buf), "%ld (errno untouched)", a.rc);
	return buf;
}

/* What a mkdir the program must refuse came back with: hints by shape. */
static void judge_refusal(struct answer a)
{
	if (a.rc == -1 && a.err == EPERM)
		return;
	lab_expected("the victim's mkdir refused: -1, errno EPERM");
	lab_seen("mkdir returned %s", answer_text(a));
	if (a.rc > 0)
		lab_hint("a positive answer: 6.1 hands any int a BPF LSM program returns to the system call as it is (mainline checks the range since 6.12), so mkdir returned %ld and no errno; an errno goes back negated: return -EPERM",
			 a.rc);
	else if (a.rc < -1)
		lab_hint("%ld is no errno (those are -1 to -4095): 6.1 passed it on, and the C library, which only knows that range, took it for a result; return -EPERM",
			 a.rc);
	else if (a.rc == -1)
		lab_hint("refused, with another errno: this step asks for EPERM (1), as -EPERM");
	else
		lab_hint("your program said 0 (no objection) to the victim: compare the caller's process, bpf_get_current_pid_tgid() >> 32, with target_tgid");
	lab_fail();
}

static int bpf_in_lsm;

static void lab_banner(void)
{
	load_fs_list();
	bpf_in_lsm = lab13_bpf_in_lsm();
	mkdir(DIR, 0777);
	printf("lab 13: an LSM in BPF; this boot: %s; %s\n", fs_list,
	       bpf_in_lsm ? "bpf is in lsm= (ID 42 in lsm_module_list): your program runs" :
	       "bpf is NOT in lsm= (no ID 42 in lsm_module_list): your program loads and attaches, and never runs");
}

static void lab_show(void)
{
	struct victim v;
	struct answer a;

	load_fs_list();
	mkdir(DIR, 0777);
	if (!lab13_bpf_in_lsm())
		printf("lab13: bpf is not in lsm= (no ID 42 in lsm_module_list): the program will load and attach, and never run. Boot a stack with bpf in lsm=: make lab 13 SHELL=1 APPEND=loadpin-bpf (or bpf-first-lockdown, bpf-tomoyo: configs/stacks.conf).\n");
	victim_start(&v);
	if (lab13_load(v.pid)) {
		printf("lab13: the program did not load:\n%s", lab13_log);
		victim_stop(&v);
		return;
	}
	a = victim_mkdir(&v, 'm');
	printf("lab13: the victim's mkdir returned %s; refused = %llu\n", answer_text(a),
	       lab13_refused());
	a = mkdir_answer("show");
	printf("lab13: lab13's own mkdir (another process) returned %s\n", answer_text(a));
	victim_stop(&v);
	lab13_unload();
}

/*
 * What the step forbids, beside the victim's mkdir: the program must not
 * refuse another process (the grader, older than the victim; a process
 * started after it; the victim's child), nor the victim's other file
 * operations, and must refuse the victim's second thread as its first
 * (where bpf runs at all).
 */
static void judge_reach(struct victim *v)
{
	struct victim later;
	struct answer a;

	a = mkdir_answer("grader");
	if (a.rc) {
		lab_expected("a mkdir by any other process allowed: the grader's own");
		lab_seen("the grader's mkdir returned %s", answer_text(a));
		lab_hint("your program refused the grader's mkdir (another process): it must say 0 unless the caller is target_tgid (bpf_get_current_pid_tgid() >> 32)");
		lab_fail();
	}
	victim_start(&later);
	a = victim_mkdir(&later, 'm');
	victim_stop(&later);
	if (a.rc) {
		lab_expected("a mkdir by a process started after the victim allowed (PID %d; the victim's is %d)",
			     later.pid, v->pid);
		lab_seen("its mkdir returned %s", answer_text(a));
		lab_hint("your program refused a process other than target_tgid: compare for equality, == target_tgid, nothing wider");
		lab_fail();
	}
	a = victim_mkdir(v, 'c');
	if (a.rc) {
		lab_expected("a mkdir by the victim's child allowed: another process");
		lab_seen("the child's mkdir returned %s", answer_text(a));
		lab_hint("your program refused a child of target_tgid: a child is a process of its own, with a PID of its own; refuse target_tgid alone");
		lab_fail();
	}
	a = victim_mkdir(v, 'o');
	if (a.rc) {
		lab_expected("the victim's other file operations allowed: the step is about mkdir alone");
		lab_seen("the victim's %s failed with %s", other_ops[a.rc - 2], errname(a.err));
		lab_hint("your program refused more than mkdir: attach to lsm/path_mkdir alone, and refuse nothing in another hook");
		lab_fail();
	}
	a = victim_mkdir(v, 't');
	if (bpf_in_lsm && !(a.rc == -1 && a.err == EPERM)) {
		lab_expected("the mkdir of the victim's second thread refused too: -1, errno EPERM");
		lab_seen("it returned %s", answer_text(a));
		if (a.rc)
			lab_hint("the second thread got another answer than the first: refuse it as the first, with -EPERM");
		else
			lab_hint("your program let the victim's second thread make its directory: compare the process, bpf_get_current_pid_tgid() >> 32, not the thread (its low 32 bits)");
		lab_fail();
	} else if (!bpf_in_lsm && a.rc) {
		lab_expected("nothing refused: bpf is not in lsm=, so the program never runs");
		lab_seen("the victim's second thread's mkdir returned %s", answer_text(a));
		lab_kit("with bpf absent from lsm=, something refused: that is the kit's problem, or a program of yours that is no BPF LSM program");
		lab_fail();
	}
}

STEP(1, "refuse mkdir to one process, and to no other")
{
	struct victim v;
	struct answer a;
	char gone[64];

	check_todo(1);
	victim_start(&v);
	/* The directory the victim removes ('o'), made before the program loads. */
	snprintf(gone, sizeof(gone), DIR "/rmdir-%d", v.pid);
	lab_setup(mkdir(gone, 0777) == 0, "make a directory for the victim to remove", errno);
	load_for(&v);
	a = victim_mkdir(&v, 'm');
	if (bpf_in_lsm) {
		judge_refusal(a);
	} else if (a.rc != 0) {
		lab_expected("nothing refused: bpf is not in lsm=, so the program never runs");
		lab_seen("the victim's mkdir returned %s", answer_text(a));
		lab_kit("with bpf absent from lsm=, something refused: that is the kit's problem, or a program of yours that is no BPF LSM program");
		lab_fail();
	}
	judge_reach(&v);
	victim_stop(&v);
	lab13_unload();
}

/*
 * Three mkdirs by the victim, then one in a Landlock domain that forbids
 * mkdir (Landlock refuses in path_mkdir too): where Landlock comes before
 * bpf in lsm=, its refusal ends the walk and the program is never asked;
 * where bpf comes first, the program refuses it. refused must count what
 * the program refused. (Without Landlock, the fourth is a plain one.)
 */
STEP(2, "count what your program refused, and only that")
{
	struct victim v;
	struct answer a;
	char mine[64];
	int landlock = lsm_active("landlock");
	int fourth = bpf_in_lsm &&
		     (!landlock || strstr(fs_list, "bpf") < strstr(fs_list, "landlock"));
	unsigned long long want, got;

	lab_needs(1);
	check_todo(2);
	victim_start(&v);
	load_for(&v);
	for (int i = 0; i < 3; i++)
		victim_mkdir(&v, 'm');
	/* A new name: a mkdir of an existing one ends before path_mkdir. */
	snprintf(mine, sizeof(mine), DIR "/grader-%d-%ld", getpid(), random());
	lab_setup(mkdir(mine, 0755) == 0, "make a directory of its own", errno);
	a = victim_mkdir(&v, landlock ? 'L' : 'm');
	want = bpf_in_lsm ? 3 + fourth : 0;
	got = lab13_refused();
	if (got != want) {
		if (!bpf_in_lsm)
			lab_expected("refused = 0: bpf is not in lsm=, the program never ran");
		else if (fourth)
			lab_expected("refused = %llu: 3 mkdirs, and the fourth, which bpf refused before Landlock was asked",
				     want);
		else
			lab_expected("refused = %llu: 3 mkdirs; the fourth was refused by Landlock, which comes before bpf in lsm=: the walk ended there and never asked bpf",
				     want);
		lab_seen("refused = %llu (the sandboxed mkdir returned %s)", got,
			 answer_text(a));
		if (got > want)
			lab_hint("count only what you refuse, after the check of the process: a mkdir by the grader, or one the walk never brought to bpf, is no refusal of yours");
		else
			lab_hint("add 1 to refused each time you return -EPERM: __sync_fetch_and_add(&refused, 1)");
		lab_fail();
	}
	victim_stop(&v);
	lab13_unload();
}
