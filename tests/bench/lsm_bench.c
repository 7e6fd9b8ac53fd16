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
 * Method: a warm-up, then REPS repetitions, each running the operation for
 * at least MIN_NS (so that a coarse guest clock costs under a per cent);
 * the median cost per call over the repetitions and their spread (min and
 * max) are printed, clock_gettime(CLOCK_MONOTONIC).  TCG inflates absolute
 * times: quote the ratios.
 * Output lines: "BENCH name median_ns min_ns max_ns" and
 * "BENCH-INFO key=value...".  Exit status 1 (with a message) if a
 * measured operation fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <time.h>

#include "lsm_abi.h"

#define REPS 7
#define ITERS 2000
#define MIN_NS 100e6

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

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

static void measure(const char *name, void (*op)(void), int iters)
{
	double med[REPS];

	for (int i = 0; i < iters / 10 + 1; i++)
		op();
	for (int r = 0; r < REPS; r++) {
		double t0 = now_ns(), t;
		long done = 0;

		do {
			for (int i = 0; i < iters; i++)
				op();
			done += iters;
			t = now_ns() - t0;
		} while (t < MIN_NS);
		med[r] = t / done;
	}
	qsort(med, REPS, sizeof(med[0]), cmp);
	printf("BENCH %s %.0f %.0f %.0f\n", name, med[REPS / 2], med[0],
	       med[REPS - 1]);
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

int main(int argc, char **argv)
{
	int exec_label = argc > 1 && !strcmp(argv[1], "--exec-label");
	uint32_t ids[32];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0);
	int syscalls = !(n < 0 && errno == ENOSYS);
	int providers = 0;
	const char *named = named_lsm();
	char v[512];

	if (n < 0 && syscalls)
		fail("lsm_module_list()");
	/* The /proc files that lsm_self_attr() reports a value for. */
	for (long i = 0; syscalls && i < n; i++) {
		int provides = 0;

		if (!lsm_name(ids[i]) || ids[i] == LSM_ID_CAPABILITY)
			continue;
		for (size_t a = 0; a < KIT_NATTRS; a++) {
			attr_path(paths[npaths], sizeof(paths[0]), ids[i],
				  kit_attrs[a].name);
			if (read_text(paths[npaths], v, sizeof(v)) > 0) {
				npaths++;
				provides = 1;
			}
		}
		providers += provides;
	}
	printf("BENCH-INFO syscalls=%s lsms=%ld providers=%d attributes=%d entries=%ld named=%s current=%s\n",
	       syscalls ? "yes" : "no", syscalls ? n : 0, providers, npaths,
	       syscalls ? self_attr_entries() : 0, named ? named : "-",
	       read_text("/proc/self/attr/current", v, sizeof(v)) > 0 ? "yes" : "no");
	fflush(stdout);

	measure("getppid", op_getppid, ITERS);
	if (syscalls) {
		measure("lsm_module_list", op_module_list, ITERS);
		measure("lsm_self_attr", op_self_attr, ITERS);
		if (npaths)
			measure("procfs_all_attrs", op_procfs, ITERS / 10);
	}
	fd_current = open("/proc/self/attr/current", O_RDONLY);
	if (fd_current >= 0 && read(fd_current, buf, sizeof(buf)) > 0)
		measure("proc_current", op_current, ITERS);
	if (named) {
		snprintf(v, sizeof(v), "/proc/self/attr/%s/current", named);
		fd_named = open(v, O_RDONLY);
		if (fd_named < 0)
			fail(v);
		measure("proc_named_current", op_named, ITERS);
	}
	if (exec_label && syscalls) {
		int fd = open("/proc/self/attr/toylsm/exec", O_WRONLY);

		if (fd < 0 || write(fd, "bench", 5) != 5)
			fail("writing /proc/self/attr/toylsm/exec");
		close(fd);
		printf("BENCH-INFO-EXEC entries=%ld\n", self_attr_entries());
		measure("lsm_self_attr_exec", op_self_attr, ITERS);
	}
	return 0;
}
