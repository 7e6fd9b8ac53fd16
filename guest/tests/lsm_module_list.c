// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_module_list(2), rule by rule as Documentation/userspace-api/lsm.rst
 * (patch 0009) states it:
 * the IDs of the active LSMs in registration order, the size probe,
 * E2BIG with the needed size, flags, and faults on every argument.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "kit/lsm_abi.h"

#define MAXLSM 32

/* The securityfs list, split into names; returns how many. */
static int securityfs_names(char names[MAXLSM][32])
{
	char buf[512], *tok, *save;
	int n = 0;

	if (read_text("/sys/kernel/security/lsm", buf, sizeof(buf)) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok && n < MAXLSM;
	     tok = strtok_r(NULL, ",", &save))
		snprintf(names[n++], 32, "%s", tok);
	return n;
}

TEST(list_matches_securityfs_in_order)
{
	char names[MAXLSM][32];
	uint32_t ids[MAXLSM];
	size_t size = sizeof(ids);
	int n = securityfs_names(names);
	long rc;

	ASSERT_LT(0, n);
	rc = lsm_module_list(ids, &size, 0);
	ASSERT_EQ(n, rc) {
		TH_LOG("lsm_module_list returned %ld (%s), securityfs lists %d",
		       rc, rc < 0 ? strerror(errno) : "-", n);
	}
	EXPECT_EQ(n * sizeof(uint32_t), size);
	for (int i = 0; i < n; i++) {
		const char *name = kit_lsm_name(ids[i]);

		ASSERT_NE(NULL, name) TH_LOG("unknown LSM id %u", ids[i]);
		EXPECT_STREQ(names[i], name) TH_LOG("position %d", i);
	}
	EXPECT_EQ(LSM_ID_CAPABILITY, ids[0]);
}

TEST(each_lsm_appears_once)
{
	uint32_t ids[MAXLSM];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0);

	ASSERT_LT(0, n);
	for (long a = 0; a < n; a++) {
		for (long b = a + 1; b < n; b++) {
			EXPECT_NE(ids[a], ids[b]) {
				TH_LOG("id %u listed twice", ids[a]);
			}
		}
	}
}

/* With lsm= on the command line, the order is capability then that list. */
TEST(order_follows_lsm_boot_parameter)
{
	char cmdline[1024], want[512] = "capability", got[512];
	char *p, *tok, *save;

	ASSERT_LT(0, read_text("/proc/cmdline", cmdline, sizeof(cmdline)));
	p = strstr(cmdline, " lsm=");
	if (!p && strncmp(cmdline, "lsm=", 4) == 0)
		p = cmdline - 1;
	if (!p)
		SKIP(return, "no lsm= on this boot's command line");
	p += 5;
	p[strcspn(p, " ")] = '\0';
	for (tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (strcmp(tok, "capability")) {
			strcat(want, ",");
			strcat(want, tok);
		}
	ASSERT_LT(0, read_text("/sys/kernel/security/lsm", got, sizeof(got)));
	EXPECT_STREQ(want, got);
}

TEST(size_probe_with_null_buffer)
{
	size_t size = 0;
	long n;
	uint32_t ids[MAXLSM];
	size_t full = sizeof(ids);

	n = lsm_module_list(ids, &full, 0);
	ASSERT_LT(0, n);
	EXPECT_EQ(-1, lsm_module_list(NULL, &size, 0));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(n * sizeof(uint32_t), size);
}

TEST(too_small_sets_needed_size)
{
	uint32_t ids[MAXLSM];
	size_t full = sizeof(ids), size;
	long n = lsm_module_list(ids, &full, 0);
	size_t small[] = { 1, 3, 4, n * sizeof(uint32_t) - 1 };

	ASSERT_LT(0, n);
	for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		size = small[i];
		memset(ids, 0xa5, sizeof(ids));
		EXPECT_EQ(-1, lsm_module_list(ids, &size, 0));
		EXPECT_EQ(E2BIG, errno) TH_LOG("size %zu", small[i]);
		EXPECT_EQ(n * sizeof(uint32_t), size);
		EXPECT_EQ(0xa5a5a5a5u, ids[0]) TH_LOG("buffer written on E2BIG");
	}
}

TEST(exact_and_huge_sizes)
{
	uint32_t ids[MAXLSM];
	size_t full = sizeof(ids), size;
	long n = lsm_module_list(ids, &full, 0);

	ASSERT_LT(0, n);
	size = n * sizeof(uint32_t);
	EXPECT_EQ(n, lsm_module_list(ids, &size, 0));
	EXPECT_EQ(n * sizeof(uint32_t), size);
	/* A huge size is fine as long as the bytes used are writable. */
	size = SIZE_MAX;
	EXPECT_EQ(n, lsm_module_list(ids, &size, 0));
	EXPECT_EQ(n * sizeof(uint32_t), size);
}

TEST(flags_must_be_zero)
{
	uint32_t ids[MAXLSM];
	uint32_t bad[] = { 1, 2, 0x80000000u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t size = sizeof(ids);

		EXPECT_EQ(-1, lsm_module_list(ids, &size, bad[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags %#x", bad[i]);
		EXPECT_EQ(sizeof(ids), size) TH_LOG("size changed on EINVAL");
	}
}

TEST(bad_size_pointer_faults)
{
	uint32_t ids[MAXLSM];
	char *guard = map_with_guard(1);
	long pg = sysconf(_SC_PAGESIZE);

	ASSERT_NE(NULL, guard);
	EXPECT_EQ(-1, lsm_module_list(ids, NULL, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, lsm_module_list(ids, (size_t *)(guard + pg), 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, lsm_module_list(ids, (size_t *)8, 0));
	EXPECT_EQ(EFAULT, errno);
	/* *size readable but not writable. */
	*(size_t *)guard = sizeof(ids);
	ASSERT_EQ(0, mprotect(guard, pg, PROT_READ));
	EXPECT_EQ(-1, lsm_module_list(ids, (size_t *)guard, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(guard, pg);
}

TEST(bad_ids_pointer_faults)
{
	uint32_t ids[MAXLSM];
	size_t full = sizeof(ids), size;
	long n = lsm_module_list(ids, &full, 0), pg = sysconf(_SC_PAGESIZE);
	char *guard = map_with_guard(1);

	ASSERT_LT(0, n);
	ASSERT_NE(NULL, guard);
	size = sizeof(ids);
	EXPECT_EQ(-1, lsm_module_list(NULL, &size, 0));
	EXPECT_EQ(EFAULT, errno);
	size = sizeof(ids);
	EXPECT_EQ(-1, lsm_module_list((uint32_t *)(guard + pg), &size, 0));
	EXPECT_EQ(EFAULT, errno);
	/* The last id would land in the unmapped page. */
	size = sizeof(ids);
	EXPECT_EQ(-1, lsm_module_list((uint32_t *)(guard + pg) - (n - 1),
				      &size, 0));
	EXPECT_EQ(EFAULT, errno);
	/* Ending exactly at the page end is fine. */
	size = n * sizeof(uint32_t);
	EXPECT_EQ(n, lsm_module_list((uint32_t *)(guard + pg) - n, &size, 0));
	/* Read-only buffer. */
	ASSERT_EQ(0, mprotect(guard, pg, PROT_READ));
	size = sizeof(ids);
	EXPECT_EQ(-1, lsm_module_list((uint32_t *)guard, &size, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(guard, pg);
}

static void *hammer(void *arg)
{
	uint32_t *want = arg, ids[MAXLSM];
	long bad = 0;

	for (int i = 0; i < 5000; i++) {
		size_t size = sizeof(ids);
		long n = lsm_module_list(ids, &size, 0);

		if (n != want[0] || memcmp(ids, want + 1, n * sizeof(*ids)))
			bad++;
	}
	return (void *)bad;
}

TEST(many_threads_see_the_same_list)
{
	uint32_t want[MAXLSM + 1];
	size_t size = sizeof(want) - sizeof(want[0]);
	pthread_t t[8];
	void *bad;

	want[0] = lsm_module_list(want + 1, &size, 0);
	ASSERT_LT(0, (long)want[0]);
	for (int i = 0; i < 8; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hammer, want));
	for (int i = 0; i < 8; i++) {
		ASSERT_EQ(0, pthread_join(t[i], &bad));
		EXPECT_EQ(0, (long)bad) TH_LOG("thread %d saw a different list", i);
	}
}

TEST_HARNESS_MAIN
