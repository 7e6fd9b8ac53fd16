/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time on the monotonic clock (CLOCK_MONOTONIC: no jump when the guest's
 * date is set), for all of the kit's user space: the benchmark's and the
 * guest tests' measures, the labs' step limit, /bin/policy's load times.
 *
 *	kit_now_ns()	now, in ns, as a double (exact to well below 1 ns
 *			for the 2^53 ns, 104 days, of a boot)
 *	kit_ms_since(t0_ns)	whole ms elapsed since kit_now_ns() was t0_ns
 */
#ifndef KIT_CLOCK_H
#define KIT_CLOCK_H

#include <time.h>

static inline double kit_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline long kit_ms_since(double t0_ns)
{
	return (long)((kit_now_ns() - t0_ns) / 1e6);
}

#endif
