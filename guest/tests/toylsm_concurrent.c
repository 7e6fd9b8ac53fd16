// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent label writers and readers: threads of one process relabel
 * themselves (interning new labels at the same time) while other threads
 * read their labels. Every read must give one whole, valid label.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "kit/toylsm_files.h"

#define WRITERS 4
#define LABELS 4	/* per writer */
#define ROUNDS 300

static pid_t tids[WRITERS];
static volatile int stop;

/* Relabel through this writer's labels; count mismatches. */
static void *writer(void *arg)
{
	long i = (long)arg, bad = 0;
	char l[32];
	int r;

	tids[i] = gettid();
	for (r = 0; r < ROUNDS; r++) {
		snprintf(l, sizeof(l), "cw%ld-%d", i, r % LABELS);
		if (toylsm_relabel(l) || strcmp(toylsm_label(), l))
			bad++;
	}
	return (void *)bad;
}

/*
 * One read(2) only: every read of a /proc attr file asks the LSM again,
 * so a second read at offset 5 may return the tail of a label the thread
 * took in between ("init\n" then "\n" of "cw1-0\n"). That is how procfs
 * works, not a torn label.
 */
static int read_once(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Read the writers' labels; count reads that are no label of theirs. */
static void *reader(void *arg)
{
	long bad = 0, i;
	char path[64], buf[64];
	int n, w, k;

	(void)arg;
	while (!stop) {
		for (i = 0; i < WRITERS; i++) {
			if (!tids[i])
				continue;
			snprintf(path, sizeof(path),
				 "/proc/self/task/%d/attr/toylsm/current",
				 tids[i]);
			n = read_once(path, buf, sizeof(buf));
			if (n <= 0)
				continue;	/* the thread has ended */
			if (!strcmp(buf, "init\n"))
				continue;
			if (sscanf(buf, "cw%d-%d\n", &w, &k) != 2 || w != i ||
			    k < 0 || k >= LABELS) {
				if (!bad)
					fprintf(stderr, "# reader: %s read \"%s\"\n",
						path, buf);
				bad++;
			}
		}
	}
	return (void *)bad;
}

TEST(concurrent_writers_and_readers)
{
	pthread_t w[WRITERS], r[2];
	void *bad;
	long i;

	/* One CPU would run the threads in turn, never at once. */
	ASSERT_LE(2, sysconf(_SC_NPROCESSORS_ONLN))
		TH_LOG("the guest runs on %ld CPU(s): the kit boots it with two (scripts/guest/run-guest.sh, -smp)",
		       sysconf(_SC_NPROCESSORS_ONLN));

	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&r[i], NULL, reader, NULL));
	for (i = 0; i < WRITERS; i++)
		ASSERT_EQ(0, pthread_create(&w[i], NULL, writer, (void *)i));
	for (i = 0; i < WRITERS; i++) {
		ASSERT_EQ(0, pthread_join(w[i], &bad));
		EXPECT_EQ(0, (long)bad) TH_LOG("writer %ld", i);
	}
	stop = 1;
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, pthread_join(r[i], &bad));
		EXPECT_EQ(0, (long)bad) TH_LOG("reader %ld", i);
	}
	EXPECT_STREQ("init", toylsm_label());	/* the main thread never changed */
}

TEST_HARNESS_MAIN
