// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 13's grader, linked with the loader (loader.c) and the skeleton of
 * the attendee's guard.bpf.c, and run in the guest of the bpf flavour.
 * It judges the program by what it refuses, never by its text: processes
 * of the grader's (agents: each a child that makes the call it is told
 * to and says what came of it) make calls, and each answer is checked
 * against the table below.  What a step forbids is asked across
 *
 *   who    the victim (target_tgid: the loader gives the program its PID
 *          before the load) and every other process: the grader, a
 *          process started before the victim, one after it, one after
 *          the load, a child the victim forks; another process always
 *          makes the first mkdir after a load, and others make theirs
 *          between the victim's calls;
 *   what   every mkdir of the victim's (the ops[] that must be refused:
 *          mkdir(2), mkdirat(2) from a folder's fd, from a second
 *          thread, in another folder, on another file system) and none
 *          of its other file operations (those that must be allowed:
 *          what a plausible program could refuse as well);
 *   when   the calls after a load come in an order drawn at random
 *          (getrandom()), and the victim asks again after a wait longer
 *          than any of the grader's phases before it;
 *   which  the programs the file holds: all on one hook (their list
 *          shown when they are not).
 *
 * The truth: whether the BPF LSM is active (ID 42 in lsm_module_list(),
 * as the loader asks it), and where "bpf" stands in the walk against
 * Landlock (/sys/kernel/security/lsm).
 *
 * The file reads as its specification: the table, the steps, then the
 * agents that make the calls, then what a failure says.
 */
#define _GNU_SOURCE
/* Step 1 waits WAIT_MIN_S or more before its last calls: 40 s, not 10. */
#define LAB_STEP_SECONDS 40
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "grader.h"
#include "kit/landlock.h"
#include "loader.h"

#define DIR "/tmp/lab13"			/* where the calls make their entries */
#define ELSEWHERE_DIR "/tmp/lab13-elsewhere"	/* another folder, the same file system */
#define OTHER_FS_DIR "/lab13"			/* another file system: the root's, not /tmp's */
#define WAIT_MIN_S 5	/* step 1's wait before the victim asks again, at least */

/* The processes that call: the victim, and the others, none of which the program may refuse. */
enum caller { VICTIM, GRADER, ELDER, SIBLING, YOUNGER, CHILD, NWHO };

static const char *const who_text[NWHO] = {
	[VICTIM] = "the victim (target_tgid)",
	[GRADER] = "the grader (started before the victim)",
	[ELDER] = "the elder (a process started before the victim)",
	[SIBLING] = "the sibling (started after the victim, before the load)",
	[YOUNGER] = "the younger (started after the load)",
	[CHILD] = "the victim's child (forked after the load)",
};

/* Their short names, in a list of answers. */
static const char *const who_short[NWHO] = {
	"the victim", "the grader", "the elder", "the sibling", "the younger", "the child",
};

/* What the processes call; every row is made by the victim in step 1. */
enum opcode {
	MKDIRAT, MKDIR, MKDIRAT_FD, THREAD, ELSEWHERE, OTHER_FS,	/* refused */
	CREATE, MKNOD, SYMLINK, LINK, RENAME, CHMOD, TRUNCATE, UTIMES, UNLINK, RMDIR, /* allowed */
	NOPS,
	SANDBOXED = NOPS,	/* step 2: a mkdirat in a Landlock domain that forbids it */
};

static const struct {
	const char *call;	/* as a failure names it */
	int refused;		/* the victim's must be refused (where bpf runs) */
} ops[NOPS + 1] = {
	[MKDIRAT] = { "mkdirat(AT_FDCWD, \"" DIR "/NAME\")", 1 },
	[MKDIR] = { "mkdir(\"" DIR "/NAME\") (the mkdir system call, not mkdirat)", 1 },
	[MKDIRAT_FD] = { "mkdirat(FD, \"NAME\"), FD the folder " DIR, 1 },
	[THREAD] = { "mkdirat(AT_FDCWD, \"" DIR "/NAME\") from a second thread", 1 },
	[ELSEWHERE] = { "mkdir(\"" ELSEWHERE_DIR "/NAME\"), in another folder", 1 },
	[OTHER_FS] = { "mkdir(\"" OTHER_FS_DIR "/NAME\"), on another file system", 1 },
	[CREATE] = { "open(O_CREAT) of a new file", 0 },
	[MKNOD] = { "mknod() of a FIFO", 0 },
	[SYMLINK] = { "symlink()", 0 },
	[LINK] = { "link() (a hard link)", 0 },
	[RENAME] = { "rename()", 0 },
	[CHMOD] = { "chmod()", 0 },
	[TRUNCATE] = { "truncate()", 0 },
	[UTIMES] = { "utimensat() (a file's times)", 0 },
	[UNLINK] = { "unlink()", 0 },
	[RMDIR] = { "rmdir() of an empty folder", 0 },
	[SANDBOXED] = { "mkdirat() in a Landlock domain that forbids making folders", 1 },
};

/* An agent: a process the grader tells what to call (agent_main()). */
struct agent {
	pid_t pid;
	int go, back;
};

/* What came of a call: rc, errno, and the PID of the process that made it. */
struct answer {
	long rc;
	int err;
	pid_t pid;
};

/* The steps' helpers, after the steps. */
static void check_todo(int n);
static void agent_start(struct agent *a);
static void agent_stop(struct agent *a);
static void victim_folder(pid_t victim);
static void load_for(pid_t victim);
static void call(struct agent *ag, enum caller who, enum opcode op);
static struct answer ask(struct agent *ag, enum caller who, enum opcode op);
static enum caller next_other(void);
static void check_programs(void);
static void draw_seed(void);
static unsigned int draw(unsigned int n);
static void phase(double *t0);
static void count_failed(unsigned long long got, unsigned long long want, int bpf_sees_last,
			 int k, struct answer sandboxed);

/* Step 1's calls so far, for a failure's "seen". */
static struct made {
	enum caller who;		/* NWHO: step 1's wait */
	enum opcode op;
	struct answer a;
} calls[64];
static int ncalls;
static int bpf_in_lsm;
static double longest_phase_ms;		/* step 1's phases, for its wait */
static int after_wait;			/* step 1's calls after its wait */

/*
 * A step whose load failed after step 1 showed the verifier's log and its
 * reason (the same program, the same verifier) says so in one line: the
 * file below, made when a log is shown, unlinked as step 1 begins.
 */
#define LOG_SHOWN "/tmp/lab13-verifier-log-shown"

/*
 * Step 1: who, what and which.  The victim's plain mkdirat first, then
 * the rows of ops[] in an order drawn at random, each after one or two
 * mkdirs of other processes; the first call after the load is another
 * process's.  Then the programs' hooks; then, where bpf runs, a wait
 * longer than any phase before it (the load, the calls), and the victim
 * and another process ask again.
 */
STEP(1, "refuse mkdir to one process, and to no other")
{
	struct agent ag[NWHO] = { 0 };
	enum opcode order[NOPS];
	double t0;
	struct stat tmp, other;
	int ok;

	unlink(LOG_SHOWN);
	check_todo(1);
	draw_seed();
	ok = stat(DIR, &tmp) == 0 && stat(OTHER_FS_DIR, &other) == 0;
	lab_setup(ok && tmp.st_dev != other.st_dev,
		  "find " OTHER_FS_DIR " on another file system than " DIR, ok ? EXDEV : errno);
	agent_start(&ag[ELDER]);
	agent_start(&ag[VICTIM]);
	agent_start(&ag[SIBLING]);
	victim_folder(ag[VICTIM].pid);
	t0 = kit_now_ns();
	load_for(ag[VICTIM].pid);
	phase(&t0);
	call(ag, next_other(), MKDIRAT);
	call(ag, VICTIM, MKDIRAT);
	for (int i = 0; i < NOPS; i++)
		order[i] = i;
	for (int i = NOPS - 1; i > 1; i--) {	/* shuffle all but MKDIRAT */
		int j = 1 + draw(i);
		enum opcode o = order[i];

		order[i] = order[j];
		order[j] = o;
	}
	for (int i = 1; i < NOPS; i++) {
		for (int k = 1 + draw(2); k > 0; k--)
			call(ag, next_other(), MKDIRAT);
		call(ag, VICTIM, order[i]);
	}
	call(ag, next_other(), MKDIRAT);
	phase(&t0);
	check_programs();
	if (bpf_in_lsm) {
		double wait_ms = WAIT_MIN_S * 1000.0;

		if (wait_ms < longest_phase_ms + 1000)
			wait_ms = longest_phase_ms + 1000;
		usleep((useconds_t)(wait_ms * 1000));
		after_wait = (int)(wait_ms / 100);	/* tenths of a second */
		if (ncalls < (int)(sizeof(calls) / sizeof(calls[0])))
			calls[ncalls++].who = NWHO;	/* the wait, in the trace */
		call(ag, next_other(), MKDIRAT);
		call(ag, VICTIM, MKDIRAT);
		call(ag, next_other(), MKDIRAT);
	}
	for (int w = 0; w < NWHO; w++)
		agent_stop(&ag[w]);
	lab13_unload();
}

/*
 * Step 2: refused must count what the program refused.  A few mkdirs of
 * the victim (two to four, drawn), each after other processes' mkdirs,
 * then one in a Landlock domain that forbids mkdir (Landlock refuses in
 * path_mkdir too): where Landlock comes before bpf in lsm=, its refusal
 * ends the walk and the program is never asked; where bpf comes first,
 * the program refuses it.  (Without Landlock, the last is a plain one.)
 */
STEP(2, "count what your program refused, and only that")
{
	struct agent ag[NWHO] = { 0 };
	int landlock = lsm_active("landlock");
	int bpf_sees_last = bpf_in_lsm &&
			    (!landlock || strstr(fs_list, "bpf") < strstr(fs_list, "landlock"));
	int k;
	unsigned long long want, got;
	struct answer last;

	lab_needs(1);
	check_todo(2);
	draw_seed();
	agent_start(&ag[ELDER]);
	agent_start(&ag[VICTIM]);
	agent_start(&ag[SIBLING]);
	victim_folder(ag[VICTIM].pid);
	load_for(ag[VICTIM].pid);
	k = 2 + draw(3);
	for (int i = 0; i < k; i++) {
		for (int n = 1 + draw(2); n > 0; n--)
			ask(ag, next_other(), MKDIRAT);
		ask(ag, VICTIM, MKDIRAT);
	}
	ask(ag, next_other(), MKDIRAT);
	last = ask(ag, VICTIM, landlock ? SANDBOXED : MKDIRAT);
	want = bpf_in_lsm ? k + bpf_sees_last : 0;
	got = lab13_refused();
	if (got != want)
		count_failed(got, want, bpf_sees_last, k, last);
	for (int w = 0; w < NWHO; w++)
		agent_stop(&ag[w]);
	lab13_unload();
}

/* ---- The agents, and the calls they make. ---- */

static void *thread_mkdir(void *arg);

/* The victim's folder: the files and the folder its other operations need. */
static void victim_folder(pid_t victim)
{
	static const char *const files[] = { "link-me", "rename-me", "attr", "unlink-me" };
	char path[128], victim_dir[64];
	int fd, ok;

	snprintf(victim_dir, sizeof(victim_dir), DIR "/v%d", victim);
	ok = mkdir(victim_dir, 0777) == 0;
	lab_setup(ok, "make the victim's folder", errno);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", victim_dir, files[i]);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
		lab_setup(fd >= 0, "make a file for the victim", errno);
		close(fd);
	}
	snprintf(path, sizeof(path), "%s/rmdir-me", victim_dir);
	ok = mkdir(path, 0777) == 0;
	lab_setup(ok, "make a folder for the victim to remove", errno);
}

/* A new name in FOLDER: PID and a count, never the same twice. */
static void new_name(char *buf, size_t size, const char *folder)
{
	static unsigned int made;

	snprintf(buf, size, "%s%s%d-%u", folder, folder[0] ? "/" : "", getpid(), made++);
}

static long sys_result(long rc, struct answer *a)
{
	a->rc = rc;
	a->err = rc == -1 ? errno : 0;
	return rc;
}

/* Make call OP here, in this process. */
static struct answer do_op(enum opcode op)
{
	struct answer a = { 0, 0, getpid() };
	char path[160], to[160], name[64];
	pthread_t th;
	int fd;

	errno = 0;
	switch (op) {
	case MKDIRAT:
		new_name(path, sizeof(path), DIR);
		sys_result(syscall(SYS_mkdirat, AT_FDCWD, path, 0755), &a);
		break;
	case MKDIR:
	case ELSEWHERE:
	case OTHER_FS:	/* the mkdir system call, in DIR or another folder */
		new_name(path, sizeof(path), op == ELSEWHERE ? ELSEWHERE_DIR :
					     op == OTHER_FS ? OTHER_FS_DIR : DIR);
		sys_result(syscall(SYS_mkdir, path, 0755), &a);
		break;
	case MKDIRAT_FD:
		fd = open(DIR, O_PATH | O_DIRECTORY | O_CLOEXEC);
		new_name(name, sizeof(name), "");
		sys_result(fd < 0 ? -1 : syscall(SYS_mkdirat, fd, name, 0755), &a);
		if (fd >= 0)
			close(fd);
		break;
	case THREAD:
		if (pthread_create(&th, NULL, thread_mkdir, &a) || pthread_join(th, NULL))
			_exit(5);
		break;
	case SANDBOXED:
		fd = kit_landlock_ruleset(LANDLOCK_ACCESS_FS_MAKE_DIR);
		if (fd < 0 || kit_landlock_enforce(fd))
			_exit(3);
		return do_op(MKDIRAT);
	default:
		break;
	}
	if (op < CREATE)
		return a;
	/* The victim's other operations, on what victim_folder() made. */
	snprintf(path, sizeof(path), DIR "/v%d/", getpid());
	snprintf(to, sizeof(to), DIR "/v%d/", getpid());
	switch (op) {
	case CREATE:
		strcat(path, "created");
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (sys_result(fd, &a) >= 0) {
			close(fd);
			a.rc = 0;
		}
		break;
	case MKNOD:
		strcat(path, "fifo");
		sys_result(mknod(path, S_IFIFO | 0644, 0), &a);
		break;
	case SYMLINK:
		strcat(path, "symlink");
		sys_result(symlink("attr", path), &a);
		break;
	case LINK:
		strcat(path, "link-me");
		strcat(to, "linked");
		sys_result(link(path, to), &a);
		break;
	case RENAME:
		strcat(path, "rename-me");
		strcat(to, "renamed");
		sys_result(rename(path, to), &a);
		break;
	case CHMOD:
		strcat(path, "attr");
		sys_result(chmod(path, 0600), &a);
		break;
	case TRUNCATE:
		strcat(path, "attr");
		sys_result(truncate(path, 0), &a);
		break;
	case UTIMES:
		strcat(path, "attr");
		sys_result(utimensat(AT_FDCWD, path, NULL, 0), &a);
		break;
	case UNLINK:
		strcat(path, "unlink-me");
		sys_result(unlink(path), &a);
		break;
	case RMDIR:
		strcat(path, "rmdir-me");
		sys_result(rmdir(path), &a);
		break;
	default:
		break;
	}
	return a;
}

static void *thread_mkdir(void *arg)
{
	struct answer *a = arg;

	*a = do_op(MKDIRAT);
	a->pid = getpid();
	return NULL;
}

/* What an agent is told: a call, made by itself or by a child it forks. */
struct order {
	int op;
	int child;
};

static void agent_main(int go, int back)
{
	struct order o;
	struct answer a;
	pid_t child;

	while (read(go, &o, sizeof(o)) == sizeof(o) && o.op >= 0) {
		if (o.child) {
			child = fork();
			if (child == 0) {
				a = do_op(o.op);
				_exit(write(back, &a, sizeof(a)) == sizeof(a) ? 0 : 4);
			}
			if (child < 0 || waitpid(child, NULL, 0) != child)
				_exit(6);
			continue;	/* the child answered */
		}
		a = do_op(o.op);
		if (write(back, &a, sizeof(a)) != sizeof(a))
			_exit(4);
	}
	_exit(0);
}

static void agent_start(struct agent *a)
{
	int go[2], back[2];

	int ok = pipe2(go, O_CLOEXEC) == 0 && pipe2(back, O_CLOEXEC) == 0;

	lab_setup(ok, "make two pipes", errno);
	a->pid = fork();
	ok = a->pid >= 0;
	lab_setup(ok, "fork a process", errno);
	if (a->pid == 0) {
		close(go[1]);
		close(back[0]);
		agent_main(go[0], back[1]);
	}
	close(go[0]);
	close(back[1]);
	a->go = go[1];
	a->back = back[0];
}

static struct answer agent_do(struct agent *a, enum opcode op, int child)
{
	struct order o = { op, child };
	struct answer r = { 0, 0, 0 };
	int ok = write(a->go, &o, sizeof(o)) == sizeof(o) &&
		 read(a->back, &r, sizeof(r)) == sizeof(r);

	lab_setup(ok, "hear a process's answer", errno);
	return r;
}

/* An order to end (the other agents hold copies of its pipe: no EOF). */
static void agent_stop(struct agent *a)
{
	struct order quit = { -1, 0 };

	if (a->pid <= 0)
		return;
	if (write(a->go, &quit, sizeof(quit)) != sizeof(quit))
		kill(a->pid, SIGKILL);
	close(a->go);
	close(a->back);
	waitpid(a->pid, NULL, 0);
	a->pid = 0;
}

/*
 * Call OP as WHO: the grader itself, an agent, or a child an agent forks
 * for this call (the victim's; the elder's, "started after the load":
 * the grader forks none after the load, whose fds would keep the program
 * attached after the step).
 */
static struct answer ask(struct agent *ag, enum caller who, enum opcode op)
{
	if (who == GRADER)
		return do_op(op);
	if (who == CHILD)
		return agent_do(&ag[VICTIM], op, 1);
	if (who == YOUNGER)
		return agent_do(&ag[ELDER], op, 1);
	return agent_do(&ag[who], op, 0);
}

/* ---- The order: a seed from getrandom(), the other processes dealt from a deck. ---- */

static uint64_t rng;

static void draw_seed(void)
{
	if (getrandom(&rng, sizeof(rng), 0) != sizeof(rng))
		rng = (uint64_t)kit_now_ns() ^ ((uint64_t)getpid() << 32);
	rng |= 1;
}

static unsigned int draw(unsigned int n)	/* 0 .. n-1 (xorshift64*) */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned int)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static enum caller next_other(void)
{
	static enum caller deck[NWHO - 1];
	static int left;

	if (!left) {
		for (int i = 0; i < NWHO - 1; i++)
			deck[i] = GRADER + i;
		left = NWHO - 1;
	}
	int i = draw(left);
	enum caller w = deck[i];

	deck[i] = deck[--left];
	return w;
}

/* The time since *t0 is a phase of step 1; *t0 becomes now. */
static void phase(double *t0)
{
	double ms = (kit_now_ns() - *t0) / 1e6;

	if (ms > longest_phase_ms)
		longest_phase_ms = ms;
	*t0 = kit_now_ns();
}

/* ---- What the steps see: the TODOs, the load, the programs. ---- */

/* The steps whose TODO is still in the source (loader.c's lab_bpf_todos). */
static void check_todo(int n)
{
	if (!(lab_bpf_todos & (1u << n)))
		return;
	lab_todo = n;
	lab_check_todo(n, "guard_mkdir");
}

/* The hook a program's section names ("lsm/path_mkdir": path_mkdir), or the section. */
static const char *hook_of(const char *section)
{
	const char *slash = strchr(section, '/');

	if (slash && (!strncmp(section, "lsm/", 4) || !strncmp(section, "lsm.s/", 6)))
		return slash + 1;
	return section;
}

/* The file's programs, one continuation line each (at most 8 named). */
static const char *programs_text(void)
{
	static char buf[700];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < lab13_nprogs && i < LAB13_PROGS && i < 8; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "\n          %s (%s)", lab13_progs[i].name,
			      lab13_progs[i].section);
	if (lab13_nprogs > i)
		snprintf(buf + n, sizeof(buf) - n, "\n          and %d more", lab13_nprogs - i);
	return buf;
}

/* How many hooks the file's programs are on. */
static int hooks_used(void)
{
	int n = 0;

	for (int i = 0; i < lab13_nprogs && i < LAB13_PROGS; i++) {
		int seen = 0;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(lab13_progs[i].section, lab13_progs[j].section);
		n += !seen;
	}
	return n;
}

/* Whether a program of the file is on path_mkdir. */
static int on_path_mkdir(void)
{
	for (int i = 0; i < lab13_nprogs && i < LAB13_PROGS; i++)
		if (!strcmp(hook_of(lab13_progs[i].section), "path_mkdir"))
			return 1;
	return 0;
}

static void load_failed(int err);

/* Load the attendee's program for the victim, or fail the step. */
static void load_for(pid_t victim)
{
	int err = lab13_load(victim);

	if (err)
		load_failed(err);
}

/* The step asks for one hook: more fail it, listed. */
static void check_programs(void)
{
	if (hooks_used() <= 1)
		return;
	lab_expected("the programs of your file on one hook, path_mkdir: the step is about mkdir alone");
	lab_seen("%d programs on %d hooks:%s", lab13_nprogs, hooks_used(), programs_text());
	lab_hint("every program libbpf loads from your file is attached, and asked on its hook for every process on the machine, whether it refuses or not: which of them does the step ask for?");
	if (lab_hint_level >= 2)
		lab_hint("keep SEC(\"lsm/path_mkdir\") and its program; remove the others");
	lab_fail();
}

/* ---- What a failure says. ---- */

static const char *answer_text(struct answer a)
{
	static char buf[2][128];
	static int i;

	i = !i;
	if (a.rc == -1)
		snprintf(buf[i], sizeof(buf[i]), "-1, errno %s", errname(a.err));
	else
		snprintf(buf[i], sizeof(buf[i]), "%ld (errno untouched)", a.rc);
	return buf[i];
}

static int is_refusal(struct answer a)
{
	return a.rc == -1 && a.err == EPERM;
}

/* The last calls before the one that failed, as continuation lines. */
static const char *calls_text(int upto)
{
	static char buf[700];
	size_t n = 0;
	int from = upto > 4 ? upto - 4 : 0;

	buf[0] = '\0';
	if (!upto)
		return "\n          it was the first call after the load";
	n += snprintf(buf, sizeof(buf), "\n          the calls before it (%d since the load, in an order drawn at random), the last:",
		      upto - (after_wait > 0));
	for (int i = from; i < upto && n < sizeof(buf); i++)
		if (calls[i].who == NWHO)
			n += snprintf(buf + n, sizeof(buf) - n, "\n            a wait of %d.%d s",
				      after_wait / 10, after_wait % 10);
		else
			n += snprintf(buf + n, sizeof(buf) - n, "\n            %s, PID %d: %s: %s",
				      who_text[calls[i].who], calls[i].a.pid,
				      calls[i].who == VICTIM ? ops[calls[i].op].call : "mkdirat",
				      calls[i].a.rc ? "refused" : "allowed");
	return buf;
}

static void fail_victim_mkdir(enum opcode op, struct answer a);
static void fail_victim_other(enum opcode op, struct answer a);
static void fail_other(struct agent *ag, enum caller who, struct answer a);

/* Make call OP as WHO and judge it against the table; a wrong answer fails step 1. */
static void call(struct agent *ag, enum caller who, enum opcode op)
{
	struct answer a = ask(ag, who, op);
	int refuse = who == VICTIM && ops[op].refused && bpf_in_lsm;

	if (refuse ? is_refusal(a) : a.rc == 0) {
		if (ncalls < (int)(sizeof(calls) / sizeof(calls[0])))
			calls[ncalls++] = (struct made){ who, op, a };
		return;
	}
	if (!bpf_in_lsm) {
		lab_expected("nothing refused: bpf is not in lsm=, so the program never runs");
		lab_seen("%s by %s, PID %d, returned %s", ops[op].call, who_text[who], a.pid,
			 answer_text(a));
		lab_kit("with bpf absent from lsm=, something refused: that is the kit's problem, or a program of yours that is no BPF LSM program");
		lab_fail();
	}
	if (who == VICTIM && ops[op].refused)
		fail_victim_mkdir(op, a);
	else if (who == VICTIM)
		fail_victim_other(op, a);
	else
		fail_other(ag, who, a);
	lab_fail();
}

/* The hint that comes with the line only with HINT=2. */
static void hint_line(const char *line)
{
	if (lab_hint_level >= 2)
		lab_hint("the line: %s", line);
}

/* A mkdir of the victim's that was not refused with EPERM. */
static void fail_victim_mkdir(enum opcode op, struct answer a)
{
	lab_expected("the victim's %s refused: -1, errno EPERM", ops[op].call);
	lab_seen("it returned %s%s", answer_text(a), calls_text(ncalls));
	if (a.rc > 0) {
		lab_hint("a positive answer: 6.1 hands the int a BPF LSM program returns to the system call as it is (mainline checks the range since 6.12), so mkdir returned %ld and set no errno: how does a kernel function say \"refused, EPERM\"?",
			 a.rc);
		hint_line("answer = -EPERM;");
	} else if (a.rc < -1) {
		lab_hint("%ld is no errno (those are -1 to -4095): 6.1 passed it on, and the C library, which only knows that range, took it for a result; which errno does the step ask for?",
			 a.rc);
		hint_line("answer = -EPERM;");
	} else if (a.rc == -1) {
		lab_hint("refused, with another errno: this step asks for EPERM (1)");
		hint_line("answer = -EPERM;");
	} else if (after_wait) {
		lab_hint("your program refused the victim at first, and let it through after a wait of %d.%d s: what in it changes with time, or with the calls it saw? The step refuses the victim's every mkdir, for as long as the program is attached",
			 after_wait / 10, after_wait % 10);
		hint_line("decide on each call by the caller's process alone: answer = (bpf_get_current_pid_tgid() >> 32) == target_tgid ? -EPERM : 0;");
	} else if (op == THREAD) {
		lab_hint("your program let a second thread of the victim through: the victim is a process, target_tgid its ID; which part of bpf_get_current_pid_tgid() names the process, and which the thread? (README, Hints)");
		hint_line("if ((bpf_get_current_pid_tgid() >> 32) == target_tgid): the upper 32 bits, the process, not (__u32)bpf_get_current_pid_tgid(), the thread");
	} else if (op != MKDIRAT) {
		lab_hint("your program refused the victim's mkdirat(AT_FDCWD, \"" DIR "/NAME\") and let this one through: the process is the same, only the call differs (the folder, the file system, the system call): does your program look at more than the caller?");
		hint_line("decide by the caller's process alone, nothing of dir or dentry: if ((bpf_get_current_pid_tgid() >> 32) == target_tgid) answer = -EPERM;");
	} else {
		lab_hint("your program said 0 (no objection) to the victim, process %d: how does it know which process is calling? (README, Hints: \"which process\")%s",
			 a.pid, lab13_nprogs ? "" : "; and your file has no program libbpf loads (SEC(\"lsm/path_mkdir\") before the function)");
		hint_line("answer = 0; if ((bpf_get_current_pid_tgid() >> 32) == target_tgid) answer = -EPERM;");
	}
}

/* Another operation of the victim's, refused. */
static void fail_victim_other(enum opcode op, struct answer a)
{
	lab_expected("the victim's %s allowed: the step is about mkdir alone", ops[op].call);
	if (!(hooks_used() > 1 || !on_path_mkdir())) {
		/* path_mkdir alone cannot refuse it: not the learner's doing. */
		lab_seen("it returned %s, and your file's programs are all on path_mkdir:%s",
			 answer_text(a), programs_text());
		lab_kit("a program on path_mkdir is not asked for this call: that is the kit's problem, tell the instructor");
		return;
	}
	lab_seen("your program refused it: %s; the programs of your file:%s", answer_text(a),
		 programs_text());
	lab_hint("each program libbpf loads from your file is attached to the hook its SEC() names, and refuses there: which of them is asked for the victim's %s?",
		 ops[op].call);
	hint_line("keep one program, SEC(\"lsm/path_mkdir\"); remove the others");
}

/*
 * Another process refused: ask each kind of process once more (and the
 * victim), to tell the first caller, everyone, the higher PIDs and the
 * children apart.
 */
static void fail_other(struct agent *ag, enum caller who, struct answer a)
{
	struct answer again[NWHO];
	char list[400];
	size_t n = 0;
	int first = ncalls == 0, higher = 1, all = 1;

	for (int w = 0; w < NWHO; w++) {
		again[w] = ask(ag, w, MKDIRAT);
		n += snprintf(list + n, sizeof(list) - n, "%s%s %s", w ? ", " : "", who_short[w],
			      again[w].rc ? "refused" : "allowed");
		all &= again[w].rc != 0;
	}
	higher = again[SIBLING].rc && again[YOUNGER].rc && again[CHILD].rc && !again[ELDER].rc &&
		 !again[GRADER].rc;
	lab_expected("a mkdir by any other process than the victim allowed: %s, PID %d (the victim's is %d)",
		     who_text[who], a.pid, ag[VICTIM].pid);
	lab_seen("it returned %s%s\n          then each process asked once more: %s",
		 answer_text(a), calls_text(ncalls), list);
	if (first && !again[VICTIM].rc) {
		lab_hint("the first mkdir after the load was another process's, and your program refused it, then let the victim through: does your program decide by target_tgid, which the loader sets before the load, or by who asked first?");
		hint_line("compare each caller with target_tgid: if ((bpf_get_current_pid_tgid() >> 32) == target_tgid) answer = -EPERM;");
	} else if (all) {
		lab_hint("your program refused every process the grader tried, not only the victim: which one process does the step ask you to refuse, and where does your program compare with it?");
		hint_line("answer = 0; if ((bpf_get_current_pid_tgid() >> 32) == target_tgid) answer = -EPERM;");
	} else if (higher) {
		lab_hint("your program refused the processes started after the victim (higher PIDs), and let the older ones through: is your comparison wider than \"this one process\"? Compare for equality");
		hint_line("if ((bpf_get_current_pid_tgid() >> 32) == target_tgid): ==, nothing wider");
	} else if (who == CHILD) {
		lab_hint("your program refused a child of target_tgid: a child is a process of its own, with a PID of its own; which process does the step ask you to refuse?");
		hint_line("if ((bpf_get_current_pid_tgid() >> 32) == target_tgid), and nothing about the parent");
	} else {
		lab_hint("your program refused a process that is not target_tgid: what does it compare the caller with?");
		hint_line("if ((bpf_get_current_pid_tgid() >> 32) == target_tgid) answer = -EPERM;");
	}
}

/* Step 2: refused is not what the program refused. */
static void count_failed(unsigned long long got, unsigned long long want, int bpf_sees_last,
			 int k, struct answer sandboxed)
{
	if (!bpf_in_lsm)
		lab_expected("refused = 0: bpf is not in lsm=, the program never ran");
	else if (!lsm_active("landlock"))
		lab_expected("refused = %llu: %d mkdirs of the victim's, and the last (a plain one: Landlock is not in this boot)",
			     want, k);
	else if (bpf_sees_last)
		lab_expected("refused = %llu: %d mkdirs of the victim's, and the last, in a Landlock domain, which bpf refused before Landlock was asked",
			     want, k);
	else
		lab_expected("refused = %llu: %d mkdirs of the victim's; the last, in a Landlock domain, was refused by Landlock, which comes before bpf in lsm=: the walk ended there and never asked bpf",
			     want, k);
	lab_seen("refused = %llu (the last mkdir returned %s); the programs of your file:%s", got,
		 answer_text(sandboxed), programs_text());
	if (got > want) {
		lab_hint("count only what you refuse: a mkdir by another process, or one the walk never brought to bpf, is no refusal of yours");
		hint_line("if (answer) __sync_fetch_and_add(&refused, 1);");
	} else if (bpf_sees_last && got + 1 == want && !on_path_mkdir()) {
		lab_hint("Landlock refused the last mkdir in path_mkdir; bpf comes first in lsm= here, so a program on path_mkdir is asked before Landlock, but yours is on lsm/%s: do_mkdirat() asks every module's path_mkdir first, and only then vfs_mkdir() asks inode_mkdir, which Landlock's refusal never let the call reach. Which hook does the step ask for?",
			 hook_of(lab13_progs[0].section));
		hint_line("SEC(\"lsm/path_mkdir\") and int BPF_PROG(guard_mkdir, const struct path *dir, struct dentry *dentry, umode_t mode, int ret)");
	} else {
		lab_hint("refused counts fewer than your program refused: where does your program add to it, and on which answers?");
		hint_line("if (answer) __sync_fetch_and_add(&refused, 1); just before return answer;");
	}
	lab_fail();
}

/*
 * The verifier's log in lab13_log (libbpf's messages): its reason is its
 * last line before "-- END PROG LOAD LOG --", under the statistics.
 * Fills at most MAX lines, the reason last; returns how many (0: no log).
 */
#define LOG_END "-- END PROG LOAD LOG --"

static int verifier_lines(char lines[][160], int max)
{
	static char log[sizeof(lab13_log)];
	char *end, *p, *found[64];
	int n = 0, k = 0;

	memcpy(log, lab13_log, sizeof(log));
	log[sizeof(log) - 1] = '\0';
	end = NULL;
	for (p = strstr(log, LOG_END); p; p = strstr(p + 1, LOG_END))
		end = p;
	if (!end)
		return 0;
	*end = '\0';
	for (p = strtok(log, "\n"); p; p = strtok(NULL, "\n")) {
		if (n == 64) {
			memmove(found, found + 1, sizeof(found) - sizeof(found[0]));
			n--;
		}
		found[n++] = p;
	}
	/* The statistics after the reason, and libbpf's own lines, are no reason. */
	while (n && (!strncmp(found[n - 1], "processed ", 10) ||
		     !strncmp(found[n - 1], "verification time", 17) ||
		     !strncmp(found[n - 1], "stack depth", 11) ||
		     !strncmp(found[n - 1], "libbpf:", 7) ||
		     strspn(found[n - 1], " \t") == strlen(found[n - 1])))
		n--;
	for (int i = n > max ? n - max : 0; i < n; i++)
		snprintf(lines[k++], 160, "%s", found[i]);
	return k;
}

/* The load failed with -err: what libbpf and the verifier said, and why. */
static void load_failed(int err)
{
	char lines[5][160], text[900];
	const char *why;
	int n = verifier_lines(lines, 5), fd;
	size_t len = 0;

	if (!access(LOG_SHOWN, F_OK)) {
		lab_expected("your program loads (the verifier accepts it) and attaches");
		lab_seen("libbpf: %s, as under step 1: the verifier's log and its reason are there, above",
			 errname(-err));
		lab_fail();
	}
	text[0] = '\0';
	for (int i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len, "\n          %s", lines[i]);
	if (!n) {	/* no verifier log: libbpf's last lines */
		const char *tail = lab13_log, *nl;
		size_t m = strlen(lab13_log);

		nl = m > 400 ? strchr(lab13_log + m - 400, '\n') : NULL;
		if (nl)
			tail = nl + 1;
		for (const char *p = tail; *p && len < sizeof(text) - 12; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p) - 1;
			len += snprintf(text + len, sizeof(text) - len, "\n          %.*s",
					(int)(nl - p < 150 ? nl - p : 150), p);
		}
	}
	lab_expected("your program loads (the verifier accepts it) and attaches");
	lab_seen("libbpf: %s%s%s", errname(-err),
		 n ? "; the verifier's log ends (its reason last):" : "; its last messages:",
		 len ? text : " none");
	fd = open(LOG_SHOWN, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	why = n ? lines[n - 1] : "";
	if (strstr(why, "_or_null")) {
		lab_hint("the verifier's reason, last above: a pointer that may be NULL, used without a check: bpf_map_lookup_elem() returns NULL for a key the map does not hold. What must come between the lookup and the use?");
		hint_line("if (!n) return answer; right after the lookup (or bpf_map_update_elem() the entry first)");
	} else if (strstr(why, "invalid mem access 'scalar'") ||
		   strstr(why, "invalid mem access 'inv'")) {
		lab_hint("the verifier's reason, last above: a plain number used as a pointer. 6.1's verifier lets a program follow pointers to structs it knows the type of (dentry->d_parent), and hands any other pointer (a char *: d_name.name) out as a number: kernel memory behind it is read with the bpf_probe_read_kernel() helpers");
		hint_line("char name[32]; bpf_probe_read_kernel_str(name, sizeof(name), dentry->d_name.name); then name[0]");
	} else if (strstr(why, "infinite loop") || strstr(why, "back-edge") ||
		   strstr(why, "too complex") || strstr(why, "too large") || strstr(why, "loop")) {
		lab_hint("the verifier's reason, last above: it must see every loop end, within a million instructions, whatever the data; what bounds your loop that the verifier can see?");
		hint_line("a constant bound: for (int i = 0; i < 16; i++) { ...; if (done) break; } (or bpf_loop())");
	} else if (strstr(why, "!read_ok")) {
		lab_hint("the verifier's reason, last above: R0, the program's answer, holds nothing at its exit: your program returns no value. An LSM program's answer is the module's, an int: 0, or an errno that refuses");
		hint_line("int BPF_PROG(guard_mkdir, ...) { ... return answer; }");
	} else if (strstr(why, "leaks addr")) {
		lab_hint("the verifier's reason, last above: your program returns a pointer; its answer is a number, 0 or an errno that refuses");
	} else if (n) {
		lab_hint("the verifier's reason is the last line of its log, above (Documentation/bpf/verifier.rst explains its words); make lab 13 SHELL=1, then lab13, prints the log's last 4 KB");
	} else {
		lab_hint("libbpf's messages above say what failed: is every SEC(\"lsm/NAME\") a hook of the kernel's (include/linux/lsm_hook_defs.h)? make lab 13 SHELL=1, then lab13, prints them all");
	}
	lab_fail();
}

static void lab_banner(void)
{
	load_fs_list();
	bpf_in_lsm = lab13_bpf_in_lsm();
	mkdir(DIR, 0777);
	mkdir(ELSEWHERE_DIR, 0777);
	mkdir(OTHER_FS_DIR, 0777);
	printf("lab 13: an LSM in BPF; this boot: %s; %s\n", fs_list,
	       bpf_in_lsm ? "bpf is in lsm= (ID 42 in lsm_module_list): your program runs" :
	       "bpf is NOT in lsm= (no ID 42 in lsm_module_list): your program loads and attaches, and never runs");
}

static void lab_show(void)
{
	struct agent ag[NWHO] = { 0 };
	struct answer a;

	load_fs_list();
	mkdir(DIR, 0777);
	if (!lab13_bpf_in_lsm())
		printf("lab13: bpf is not in lsm= (no ID 42 in lsm_module_list): the program will load and attach, and never run. Boot a stack with bpf in lsm=: make lab 13 SHELL=1 APPEND=loadpin-bpf (or bpf-first-lockdown, bpf-tomoyo: configs/stacks.conf).\n");
	agent_start(&ag[VICTIM]);
	if (lab13_load(ag[VICTIM].pid)) {
		printf("lab13: the program did not load:\n%s", lab13_log);
		agent_stop(&ag[VICTIM]);
		return;
	}
	printf("lab13: your file's programs:%s\n", programs_text());
	a = ask(ag, VICTIM, MKDIRAT);
	printf("lab13: the victim's mkdir returned %s; refused = %llu\n", answer_text(a),
	       lab13_refused());
	a = ask(ag, GRADER, MKDIRAT);
	printf("lab13: lab13's own mkdir (another process) returned %s\n", answer_text(a));
	agent_stop(&ag[VICTIM]);
	lab13_unload();
}
