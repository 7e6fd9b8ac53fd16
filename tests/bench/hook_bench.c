// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of the LSM events of patch 0017, in the guest: a hook-heavy
 * loop (open, read and close of a file in /tmp: inode_permission,
 * file_open, file_permission, file_free; stat: inode_getattr; a signal to
 * oneself: task_kill; and getppid() as the floor) timed
 *   - as it is: the events compiled in and off (or, on a kernel built
 *     without tracing, not there at all: compare two boots' "loop" lines);
 *   - then (--trace) paired, in each repetition, with the lsm:* events
 *     off and on (recording to the ring buffer, no pid filter):
 *     "BENCH on/off".
 * Method (kit/bench.h): a warm-up, REPS repetitions of at least MIN_NS
 * each, the median and the spread (min, max).
 * Output: "BENCH name median min max" (ns per loop, or a ratio for a/b).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kit/bench.h"

#define T "/sys/kernel/tracing/"

static const char *file = "/tmp/hook_bench";
static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

static void loop(void)
{
	char buf[64];
	struct stat st;
	int fd = open(file, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf)) < 0) {
		perror("hook_bench: open/read");
		exit(1);
	}
	close(fd);
	if (stat(file, &st)) {
		perror("hook_bench: stat");
		exit(1);
	}
	kill(getpid(), SIGUSR1);
	getppid();
}

/* ns per loop, over at least MIN_NS */
static double slice(void)
{
	return run_for(loop, 1);
}

static int put(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -1;
}

static int events(const char *v)
{
	return put(T "events/lsm/enable", v) || put(T "tracing_on", v);
}

int main(int argc, char **argv)
{
	double off[REPS], on[REPS], ratio[REPS];
	bool traced = argc > 1 && strcmp(argv[1], "--trace") == 0;
	int fd, i;

	signal(SIGUSR1, on_usr1);
	fd = open(file, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, "hook bench\n", 11) != 11) {
		perror("hook_bench: create");
		return 1;
	}
	close(fd);
	if (traced) {
		if (access(T "trace", F_OK))
			mount("tracefs", T, "tracefs", 0, NULL);
		if (events("0") || put(T "buffer_size_kb", "1024")) {
			fprintf(stderr, "hook_bench: --trace: no lsm events in %s\n", T);
			return 1;
		}
	}
	for (i = 0; i < 3; i++)
		slice();
	/*
	 * The untraced loop first, alone: an off slice right after an on
	 * slice would pay for the cache lines the ring buffer took.
	 */
	for (i = 0; i < REPS; i++)
		off[i] = slice();
	bench_line("loop", off, 0);
	if (traced) {
		for (i = 0; i < REPS; i++) {
			off[i] = slice();
			events("1");
			on[i] = slice();
			events("0");
			ratio[i] = on[i] / off[i];
		}
		bench_line("loop-traced", on, 0);
		bench_line("on/off", ratio, 2);
	}
	printf("BENCH-INFO signals=%ld\n", (long)got);
	return 0;
}
