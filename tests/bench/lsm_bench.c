// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest figures for `make bench`: the cost of lsm_module_list() against
 * getppid() (the floor of any system call), and of one lsm_self_attr()
 * against reading the same values from /proc/self/attr (open, read,
 * close of each file that has a value).  Warm-up, then REPS repetitions,
 * each running the operation for at least 100 ms (so that a coarse guest
 * clock costs under a few per cent); the median cost per call over the
 * repetitions and their spread (min..max) are printed.  TCG inflates
 * absolute times: quote the ratios.
 * Output lines: "BENCH name median_ns min_ns max_ns".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <time.h>

#include "lsm_abi.h"

#define REPS 7
#define ITERS 2000

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

static void op_getppid(void) { (void)syscall(SYS_getppid); }

static void op_module_list(void)
{
	uint32_t ids[32];
	size_t size = sizeof(ids);

	if (lsm_module_list(ids, &size, 0) < 0)
		abort();
}

static void op_self_attr(void)
{
	size_t size = sizeof(buf);

	if (lsm_self_attr((void *)buf, &size, 0) < 0)
		abort();
}

static void op_procfs(void)
{
	for (int i = 0; i < npaths; i++) {
		int fd = open(paths[i], O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
			abort();
		close(fd);
	}
}

static void measure(const char *name, void (*op)(void), int iters)
{
	double med[REPS];

	for (int i = 0; i < iters / 10; i++)
		op();
	for (int r = 0; r < REPS; r++) {
		double t0 = now_ns(), t;
		long done = 0;

		do {
			for (int i = 0; i < iters; i++)
				op();
			done += iters;
			t = now_ns() - t0;
		} while (t < 100e6);
		med[r] = t / done;
	}
	qsort(med, REPS, sizeof(med[0]), cmp);
	printf("BENCH %s %.0f %.0f %.0f\n", name, med[REPS / 2], med[0],
	       med[REPS - 1]);
}

int main(void)
{
	uint32_t ids[32];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0);

	/* The /proc files that lsm_self_attr() reports a value for. */
	for (size_t a = 0; a < KIT_NATTRS; a++)
		for (long i = 0; i < n; i++) {
			char v[512];

			if (!lsm_name(ids[i]) || ids[i] == LSM_ID_CAPABILITY)
				continue;
			attr_path(paths[npaths], sizeof(paths[0]), ids[i],
				  kit_attrs[a].name);
			if (read_text(paths[npaths], v, sizeof(v)) > 0)
				npaths++;
		}
	size = sizeof(buf);
	printf("BENCH-INFO lsms=%ld attributes=%d self_attr_entries=%ld\n", n,
	       npaths, lsm_self_attr((void *)buf, &size, 0));
	measure("getppid", op_getppid, ITERS);
	measure("lsm_module_list", op_module_list, ITERS);
	measure("lsm_self_attr", op_self_attr, ITERS);
	if (npaths)
		measure("procfs_all_attrs", op_procfs, ITERS / 10);
	return 0;
}
