// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest figures for `make bench`, all from one boot:
 * - getppid(), the floor of any system call;
 * - lsm_module_list() against that floor;
 * - one lsm_self_attr() returning every attribute against reading the same
 *   values from /proc/self/attr (open, read, close of each file that has a
 *   value), and the cost per returned entry;
 * - one read of /proc/self/attr/current and of the first named
 *   /proc/self/attr/<lsm>/current (pread at offset 0 of an open file, so
 *   that the figure is the read path: security_getprocattr() and the
 *   module's hook, where the series compares LSM IDs instead of names).
 *   These run on a kernel without the series too (make bench BASELINE=1):
 *   the LSM syscalls then fail with ENOSYS and are left out.
 * With "--exec-label", toylsm's exec label is set after the first
 * lsm_self_attr() figure and lsm_self_attr() is measured again: one more
 * entry from the same modules.
 *
 * Method (kit/bench.h): a warm-up, then REPS repetitions, each
 * running the operation for at least MIN_NS (short, so that most
 * repetitions see no host preemption),
 * clock_gettime(CLOCK_MONOTONIC); the median cost per call over the
 * repetitions and their spread (min and max) are printed.  A ratio is
 * measured in pairs: both operations in each repetition, its median over
 * the repetitions.  TCG inflates absolute times and the host is shared:
 * quote the ratios.
 * Output lines: "BENCH name median_ns min_ns max_ns", "BENCH b/a median
 * min max" (ratios) and "BENCH-INFO key=value...".  Exit status 1 (with a message) if a
 * measured operation fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "kit/bench.h"
#include "kit/lsm_abi.h"

#define ITERS 200

static char paths[64][96];
static int npaths;
static char buf[8192] __attribute__((aligned(8)));
static int fd_current = -1, fd_named = -1;

static void fail(const char *what)
{
	fprintf(stderr,
		"lsm_bench: %s failed: %s (expected it to succeed on every call, as it did before the measurement)\n",
		what, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	exit(1);
}

static void op_getppid(void) { (void)syscall(SYS_getppid); }

static void op_module_list(void)
{
	uint32_t ids[32];
	size_t size = sizeof(ids);

	if (lsm_module_list(ids, &size, 0) < 0)
		fail("lsm_module_list()");
}

static void op_self_attr(void)
{
	size_t size = sizeof(buf);

	if (lsm_self_attr((void *)buf, &size, 0) < 0)
		fail("lsm_self_attr()");
}

static void op_procfs(void)
{
	for (int i = 0; i < npaths; i++) {
		int fd = open(paths[i], O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			fail(paths[i]);
		close(fd);
	}
}

static void op_current(void)
{
	if (pread(fd_current, buf, sizeof(buf), 0) < 0)
		fail("pread(/proc/self/attr/current)");
}

static void op_named(void)
{
	if (pread(fd_named, buf, sizeof(buf), 0) < 0)
		fail("pread(/proc/self/attr/<lsm>/current)");
}

/* --hookwalk: the operations, the same on every kernel. */
static const char *hw_file = "/tmp/lsm_bench_hookwalk";
static char hw_self[256];

static void op_open_read_close(void)
{
	int fd = open(hw_file, O_RDONLY);

	if (fd < 0 || read(fd, buf, 64) < 0)
		fail("open+read of /tmp/lsm_bench_hookwalk");
	close(fd);
}

static void op_stat(void)
{
	struct stat st;

	if (stat(hw_file, &st))
		fail("stat of /tmp/lsm_bench_hookwalk");
}

static void op_exec(void)
{
	char *const argv[] = { hw_self, "--exit", NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		fail("fork()");
	if (pid == 0) {
		execv(hw_self, argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("fork+exec of lsm_bench --exit");
}

/* ns with no decimals; a ratio ("b/a") with two. */
static void print_stat(const char *name, double *v)
{
	bench_line(name, v, strchr(name, '/') ? 2 : 0);
}

/*
 * measure - the cost of @b per call, and its ratio to @a measured in the
 * same repetitions (@a and @b alternate, ABBA), so that a host that gets
 * busier or quieter during the run moves both sides of the ratio alike.
 * Prints "BENCH b ...", and "BENCH b/a ..." (the ratios) if @a is given.
 */
static void measure(const char *an, void (*a)(void), int ia,
		    const char *bn, void (*b)(void), int ib)
{
	double tb[REPS], ratio[REPS], x, y;
	char name[96];

	for (int i = 0; i < ib / 10 + 1; i++)
		b();
	for (int r = 0; r < REPS; r++) {
		if (!a) {
			tb[r] = run_for(b, ib);
			continue;
		}
		if (r % 2) {
			y = run_for(b, ib);
			x = run_for(a, ia);
		} else {
			x = run_for(a, ia);
			y = run_for(b, ib);
		}
		tb[r] = y;
		ratio[r] = y / x;
	}
	print_stat(bn, tb);
	if (a) {
		snprintf(name, sizeof(name), "%s/%s", bn, an);
		print_stat(name, ratio);
	}
	fflush(stdout);
}

/* The first module with a /proc/self/attr/<lsm>/current that has a value. */
static const char *named_lsm(void)
{
	static const char *const names[] = { "smack", "apparmor", "toylsm" };
	char p[96], v[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "/proc/self/attr/%s/current", names[i]);
		if (read_text(p, v, sizeof(v)) > 0)
			return names[i];
	}
	return NULL;
}

static long self_attr_entries(void)
{
	size_t size = sizeof(buf);

	return lsm_self_attr((void *)buf, &size, 0);
}

static void method_line(void)
{
	char v[512];

	if (read_text("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      v, sizeof(v)) <= 0)
		strcpy(v, "unknown");
	printf("BENCH-METHOD reps=%d slice_ms=%.0f clock=%s\n", REPS,
	       MIN_NS / 1e6, v);
}

static int hookwalk(void)
{
	ssize_t n = readlink("/proc/self/exe", hw_self, sizeof(hw_self) - 1);
	int fd = open(hw_file, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (n <= 0)
		fail("readlink(/proc/self/exe)");
	hw_self[n] = 0;
	if (fd < 0 || write(fd, "hook walk\n", 10) != 10)
		fail("creating /tmp/lsm_bench_hookwalk");
	close(fd);
	method_line();
	measure(NULL, NULL, 0, "getppid", op_getppid, ITERS);
	measure("getppid", op_getppid, ITERS, "open_read_close",
		op_open_read_close, ITERS / 10);
	measure("getppid", op_getppid, ITERS, "stat", op_stat, ITERS / 4);
	measure("getppid", op_getppid, ITERS, "exec", op_exec, 1);
	return 0;
}

int main(int argc, char **argv)
{
	int exec_label = argc > 1 && !strcmp(argv[1], "--exec-label");
	uint32_t ids[32];
	size_t size = sizeof(ids);
	long n;
	int syscalls;
	int providers = 0;
	char pnames[128] = "";
	const char *named;
	char v[512];

	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	if (argc > 1 && !strcmp(argv[1], "--hookwalk"))
		return hookwalk();
	n = lsm_module_list(ids, &size, 0);
	syscalls = !(n < 0 && errno == ENOSYS);
	named = named_lsm();
	if (n < 0 && syscalls)
		fail("lsm_module_list()");
	/* The /proc files that lsm_self_attr() reports a value for. */
	for (long i = 0; syscalls && i < n; i++) {
		int provides = 0;

		if (!kit_lsm_name(ids[i]) || ids[i] == LSM_ID_CAPABILITY)
			continue;
		for (size_t a = 0; a < KIT_NATTRS; a++) {
			attr_path(paths[npaths], sizeof(paths[0]), ids[i],
				  kit_attrs[a].name);
			if (read_text(paths[npaths], v, sizeof(v)) > 0) {
				npaths++;
				provides = 1;
			}
		}
		if (provides) {
			strcat(pnames, providers ? "," : "");
			strcat(pnames, kit_lsm_name(ids[i]));
			providers++;
		}
	}
	printf("BENCH-INFO syscalls=%s lsms=%ld providers=%d names=%s attributes=%d entries=%ld named=%s current=%s\n",
	       syscalls ? "yes" : "no", syscalls ? n : 0, providers,
	       providers ? pnames : "-", npaths,
	       syscalls ? self_attr_entries() : 0, named ? named : "-",
	       read_text("/proc/self/attr/current", v, sizeof(v)) > 0 ? "yes" : "no");
	fflush(stdout);

	method_line();
	measure(NULL, NULL, 0, "getppid", op_getppid, ITERS);
	if (syscalls) {
		measure("getppid", op_getppid, ITERS, "lsm_module_list",
			op_module_list, ITERS);
		measure("getppid", op_getppid, ITERS, "lsm_self_attr",
			op_self_attr, ITERS / 10);
		if (npaths)
			measure("lsm_self_attr", op_self_attr, ITERS / 10,
				"procfs_all_attrs", op_procfs, ITERS / 100);
	}
	fd_current = open("/proc/self/attr/current", O_RDONLY);
	if (fd_current >= 0 && read(fd_current, buf, sizeof(buf)) > 0)
		measure("getppid", op_getppid, ITERS, "proc_current",
			op_current, ITERS / 10);
	if (named) {
		snprintf(v, sizeof(v), "/proc/self/attr/%s/current", named);
		fd_named = open(v, O_RDONLY);
		if (fd_named < 0)
			fail(v);
		measure("getppid", op_getppid, ITERS, "proc_named_current",
			op_named, ITERS / 10);
	}
	if (exec_label && syscalls) {
		int fd = open("/proc/self/attr/toylsm/exec", O_WRONLY);

		if (fd < 0 || write(fd, "bench", 5) != 5)
			fail("writing /proc/self/attr/toylsm/exec");
		close(fd);
		printf("BENCH-INFO-EXEC entries=%ld\n", self_attr_entries());
		measure("getppid", op_getppid, ITERS, "lsm_self_attr_exec",
			op_self_attr, ITERS / 10);
	}
	return 0;
}
