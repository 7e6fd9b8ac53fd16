// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 13's grader, linked with the loader (loader.c) and the skeleton of
 * the attendee's guard.bpf.c, and run in the guest of the bpf flavour.
 * What it judges is what the program refuses, and to whom: a victim
 * process (a child of the grader, whose PID the loader gives the program
 * before loading it) asks for mkdir; the grader itself asks too. The
 * truth: whether the BPF LSM is active (ID 42 in lsm_module_list(), as
 * the loader asks it), and where "bpf" stands in the walk against
 * Landlock (/sys/kernel/security/lsm).
 */
#define _GNU_SOURCE
#include <errno.h>
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
 * The victim: a child that waits for "go", makes a directory for each
 * (from 'L' on in a Landlock sandbox that forbids making one), and
 * reports each mkdir's return value and errno.
 */
struct answer {
	long rc;
	int err;
};

struct victim {
	pid_t pid;
	int go, back;
};

static void victim_main(int go, int back)
{
	char cmd[2], path[64];
	struct answer a;
	int ruleset;

	while (read(go, cmd, 1) == 1 && cmd[0] != 'q') {
		if (cmd[0] == 'L') {	/* a Landlock domain: no mkdir anywhere */
			ruleset = kit_landlock_ruleset(LANDLOCK_ACCESS_FS_MAKE_DIR);
			if (ruleset < 0 || kit_landlock_enforce(ruleset))
				_exit(3);
		}
		snprintf(path, sizeof(path), DIR "/victim-%d-%ld", getpid(), random());
		errno = 0;
		a.rc = syscall(SYS_mkdirat, AT_FDCWD, path, 0755);
		a.err = a.rc == -1 ? errno : 0;
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

/* The victim's mkdir ('m', or 'L': in its Landlock sandbox from then on). */
static struct answer victim_mkdir(struct victim *v, char how)
{
	struct answer a = { 0, 0 };

	lab_setup(write(v->go, &how, 1) == 1 && read(v->back, &a, sizeof(a)) == sizeof(a),
		  "hear the victim's mkdir", errno);
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

/* Load the attendee's program for the victim, or fail the step. */
static void load_for(struct victim *v)
{
	int err = lab13_load(v->pid);

	if (!err)
		return;
	lab_expected("your program loads (the verifier accepts it) and attaches to path_mkdir");
	lab_seen("libbpf: %s (%s)", errname(-err), lab13_log[0] ? lab13_log : "no message");
	lab_hint("the verifier's reasons are in the lines above: make lab 13 SHELL=1, then run lab13, shows them whole");
	lab_fail();
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
		printf("lab13: bpf is not in lsm= (no ID 42 in lsm_module_list): the program will load and attach, and never run. Boot a stack with bpf in lsm= (tests/stacks.conf: bpf-first-lockdown, bpf-tomoyo, loadpin-bpf).\n");
	victim_start(&v);
	if (lab13_load(v.pid)) {
		printf("lab13: the program did not load:\n%s", lab13_log);
		victim_stop(&v);
		return;
	}
	a = victim_mkdir(&v, 'm');
	printf("lab13: the victim's mkdir returned %s; refused = %llu\n", answer_text(a),
	       lab13_refused());
	printf("lab13: this process's mkdir returned %d\n", mkdir(DIR "/show", 0755));
	victim_stop(&v);
	lab13_unload();
}

STEP(1, "refuse mkdir to one process, and to no other")
{
	struct victim v;
	struct answer a;
	char mine[64];

	check_todo(1);
	victim_start(&v);
	load_for(&v);
	a = victim_mkdir(&v, 'm');
	snprintf(mine, sizeof(mine), DIR "/grader-%d-%ld", getpid(), random());
	if (mkdir(mine, 0755)) {
		lab_expected("a mkdir by any other process allowed: the grader's own");
		lab_seen("the grader's mkdir got %s", errname(errno));
		lab_hint("your program refuses every task: it must say 0 unless the caller is target_tgid (bpf_get_current_pid_tgid() >> 32)");
		lab_fail();
	}
	if (bpf_in_lsm) {
		judge_refusal(a);
	} else if (a.rc != 0) {
		lab_expected("nothing refused: bpf is not in lsm=, so the program never runs");
		lab_seen("the victim's mkdir returned %s", answer_text(a));
		lab_kit("with bpf absent from lsm=, another module refused: that is the kit's problem");
		lab_fail();
	}
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
