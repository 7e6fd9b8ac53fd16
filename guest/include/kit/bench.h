/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timing method of every in-guest figure of `make bench` (lsm_bench.c,
 * hook_bench.c and lsm_side.c --bench), in one place:
 *
 *	REPS, MIN_NS	repetitions, and the least time each runs (5 ms: short,
 *			so that most repetitions see no host preemption)
 *	run_for(op, n)	op() n calls at a time until MIN_NS have passed (on
 *			clock.h's kit_now_ns()); ns per call
 *	bench_line(name, v, prec)	sorts the REPS values v and prints
 *			"BENCH name median min max" with prec decimals
 *			(0 for ns, 2 for a ratio)
 *
 * A ratio is measured in pairs, both operations in each repetition (ABBA),
 * so that a host that gets busier or quieter moves both sides alike: TCG
 * inflates absolute times, quote the ratios.  Plain C11 and libc only: it
 * is compiled against the kit's headers and the reference kernel's.
 */
#ifndef KIT_BENCH_H
#define KIT_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

#define REPS 41
#define MIN_NS 5e6

static inline double run_for(void (*op)(void), int iters)
{
	double t0 = kit_now_ns(), t;
	long done = 0;

	do {
		for (int i = 0; i < iters; i++)
			op();
		done += iters;
		t = kit_now_ns() - t0;
	} while (t < MIN_NS);
	return t / done;
}

static inline int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline void bench_line(const char *name, double *v, int prec)
{
	qsort(v, REPS, sizeof(v[0]), bench_cmp);
	printf("BENCH %s %.*f %.*f %.*f\n", name, prec, v[REPS / 2], prec, v[0],
	       prec, v[REPS - 1]);
}

#endif /* KIT_BENCH_H */
