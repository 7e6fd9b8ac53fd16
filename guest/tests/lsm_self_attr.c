// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_self_attr(2), rule by rule as Documentation/userspace-api/lsm.rst
 * (patch 0009) states it: the entries, their order, 8-byte alignment and
 * padding, the values against /proc/self/attr, the size probe, E2BIG
 * with the needed size, flags, and faults on every argument.
 */
#define _GNU_SOURCE
#include <pthread.h>

#include "kselftest_harness.h"
#include "kit/lsm_abi.h"

#define BUFSZ 8192

/* What lsm_self_attr() should return, built from /proc and the list. */
struct expect {
	int n;
	size_t bytes;
	struct { uint32_t id, flag; char val[512]; } e[64];
};

static void build_expect(struct expect *x)
{
	uint32_t ids[32];
	size_t size = sizeof(ids);
	long n = lsm_module_list(ids, &size, 0);
	char path[128];

	memset(x, 0, sizeof(*x));
	for (size_t a = 0; a < KIT_NATTRS; a++)
		for (long i = 0; i < n; i++) {
			char *v = x->e[x->n].val;

			if (!kit_lsm_name(ids[i]) || ids[i] == LSM_ID_CAPABILITY)
				continue;
			attr_path(path, sizeof(path), ids[i], kit_attrs[a].name);
			if (read_text(path, v, sizeof(x->e[0].val)) <= 0)
				continue;
			x->e[x->n].id = ids[i];
			x->e[x->n].flag = kit_attrs[a].flag;
			x->bytes += sizeof(struct lsm_ctx) +
				    ((strlen(v) + 1 + 7) & ~(size_t)7);
			x->n++;
		}
}

/*
 * check_entries - walk a successful result; report the first rule broken,
 * or NULL when the buffer is exactly what /proc says it should be.
 */
static const char *check_entries(const void *buf, size_t size, long n,
				 const struct expect *x, char *why, size_t wl)
{
	const char *p = buf;
	size_t off = 0;

	if (n != x->n) {
		snprintf(why, wl, "%ld entries, /proc has %d values", n, x->n);
		return why;
	}
	for (long i = 0; i < n; i++) {
		const struct lsm_ctx *c = (const void *)(p + off);
		size_t len;

		if (off % 8) {
			snprintf(why, wl, "entry %ld at offset %zu: not 8-byte aligned", i, off);
			return why;
		}
		if (off + sizeof(*c) > size || c->ctx_len % 8 ||
		    off + sizeof(*c) + c->ctx_len > size) {
			snprintf(why, wl, "entry %ld: ctx_len %llu runs past *size %zu or is not a multiple of 8",
				 i, (unsigned long long)c->ctx_len, size);
			return why;
		}
		len = strnlen((const char *)c->ctx, c->ctx_len);
		if (len >= c->ctx_len) {
			snprintf(why, wl, "entry %ld: no NUL within ctx_len", i);
			return why;
		}
		if (c->ctx_len != ((len + 1 + 7) & ~(size_t)7)) {
			snprintf(why, wl, "entry %ld: ctx_len %llu for a %zu-byte value",
				 i, (unsigned long long)c->ctx_len, len);
			return why;
		}
		for (size_t k = len; k < c->ctx_len; k++)
			if (c->ctx[k]) {
				snprintf(why, wl, "entry %ld: padding byte %zu not zero", i, k);
				return why;
			}
		if (c->id != x->e[i].id || c->flags != x->e[i].flag ||
		    strcmp((const char *)c->ctx, x->e[i].val)) {
			snprintf(why, wl, "entry %ld: got (%s, %#x, \"%s\"), /proc order says (%s, %#x, \"%s\")",
				 i, kit_lsm_name(c->id), c->flags, c->ctx,
				 kit_lsm_name(x->e[i].id), x->e[i].flag, x->e[i].val);
			return why;
		}
		off += sizeof(*c) + c->ctx_len;
	}
	if (off != size) {
		snprintf(why, wl, "*size %zu but entries use %zu bytes", size, off);
		return why;
	}
	return NULL;
}

FIXTURE(attr) {
	struct expect x;
	char buf[BUFSZ] __attribute__((aligned(8)));
	char why[256];
};

FIXTURE_SETUP(attr)
{
	build_expect(&self->x);
	memset(self->buf, 0xa5, sizeof(self->buf));
}

FIXTURE_TEARDOWN(attr)
{
}

TEST_F(attr, entries_match_proc)
{
	size_t size = sizeof(self->buf);
	long n = lsm_self_attr((void *)self->buf, &size, 0);
	const char *bad;

	ASSERT_LE(0, n) TH_LOG("lsm_self_attr: %s", strerror(errno));
	EXPECT_EQ(self->x.bytes, size);
	bad = check_entries(self->buf, size, n, &self->x, self->why,
			    sizeof(self->why));
	EXPECT_EQ(NULL, bad) TH_LOG("%s", bad);
	if (self->x.n == 0)
		TH_LOG("this boot has no LSM with attributes: 0 entries, size 0");
}

TEST_F(attr, size_probe_with_null_buffer)
{
	size_t size = 0;
	long rc = lsm_self_attr(NULL, &size, 0);

	if (self->x.n == 0) {
		EXPECT_EQ(0, rc);
		EXPECT_EQ(0, size);
		return;
	}
	EXPECT_EQ(-1, rc);
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(self->x.bytes, size);
}

TEST_F(attr, too_small_sets_needed_size)
{
	size_t tries[] = { 1, 8, 16, self->x.bytes - 1 };

	if (self->x.n == 0)
		SKIP(return, "no attributes on this boot");
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		size_t size = tries[i];

		EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, &size, 0));
		EXPECT_EQ(E2BIG, errno) TH_LOG("*size %zu", tries[i]);
		EXPECT_EQ(self->x.bytes, size) TH_LOG("*size %zu", tries[i]);
		EXPECT_EQ((char)0xa5, self->buf[0]) TH_LOG("buffer written on E2BIG");
	}
}

TEST_F(attr, exact_and_huge_sizes)
{
	size_t size = self->x.bytes;
	long n = lsm_self_attr((void *)self->buf, &size, 0);

	EXPECT_EQ(self->x.n, n);
	EXPECT_EQ(self->x.bytes, size);
	size = SIZE_MAX;
	n = lsm_self_attr((void *)self->buf, &size, 0);
	EXPECT_EQ(self->x.n, n);
	EXPECT_EQ(self->x.bytes, size);
}

TEST_F(attr, flags_must_be_zero)
{
	uint32_t bad[] = { 1, 2, 0x80000000u, 0xffffffffu };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t size = sizeof(self->buf);

		EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, &size, bad[i]));
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags %#x", bad[i]);
		EXPECT_EQ(sizeof(self->buf), size) TH_LOG("*size changed on EINVAL");
	}
}

TEST_F(attr, bad_size_pointer_faults)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *guard = map_with_guard(1);

	ASSERT_NE(NULL, guard);
	EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, NULL, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, (size_t *)(guard + pg), 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, (size_t *)3, 0));
	EXPECT_EQ(EFAULT, errno);
	/* Readable but not writable: the kernel must write the size back. */
	*(size_t *)guard = sizeof(self->buf);
	ASSERT_EQ(0, mprotect(guard, pg, PROT_READ));
	EXPECT_EQ(-1, lsm_self_attr((void *)self->buf, (size_t *)guard, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(guard, pg);
}

TEST_F(attr, bad_buffer_faults)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *guard = map_with_guard(2);
	size_t need = self->x.bytes, size;

	if (self->x.n == 0)
		SKIP(return, "no attributes on this boot");
	ASSERT_NE(NULL, guard);
	ASSERT_LT(need, (size_t)pg);
	size = need;
	EXPECT_EQ(-1, lsm_self_attr(NULL, &size, 0));
	EXPECT_EQ(EFAULT, errno);
	size = need;
	EXPECT_EQ(-1, lsm_self_attr((void *)(guard + 2 * pg), &size, 0));
	EXPECT_EQ(EFAULT, errno);
	/* The last 8 bytes of the result would land in the unmapped page. */
	size = need;
	EXPECT_EQ(-1, lsm_self_attr((void *)(guard + 2 * pg - need + 8), &size, 0));
	EXPECT_EQ(EFAULT, errno);
	/* Ending exactly at the page end is fine. */
	size = need;
	EXPECT_EQ(self->x.n, lsm_self_attr((void *)(guard + 2 * pg - need), &size, 0));
	/* Read-only buffer. */
	ASSERT_EQ(0, mprotect(guard, pg, PROT_READ));
	size = need;
	EXPECT_EQ(-1, lsm_self_attr((void *)guard, &size, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(guard, 2 * pg);
}

TEST_F(attr, proc_files_still_read_the_same)
{
	struct expect again;

	/* The old interface, read twice around a syscall, does not move. */
	size_t size = sizeof(self->buf);

	ASSERT_LE(0, lsm_self_attr((void *)self->buf, &size, 0));
	build_expect(&again);
	EXPECT_EQ(0, memcmp(&again, &self->x, sizeof(again)));
}

struct hammer_arg {
	const struct expect *x;
	long bad;
};

static void *hammer(void *p)
{
	static __thread char buf[BUFSZ] __attribute__((aligned(8)));
	struct hammer_arg *a = p;
	char why[256];
	uint32_t ids[32];

	for (int i = 0; i < 3000; i++) {
		size_t size = sizeof(buf), isz = sizeof(ids);
		long n = lsm_self_attr((void *)buf, &size, 0);

		if (n < 0 || check_entries(buf, size, n, a->x, why, sizeof(why)))
			a->bad++;
		if (lsm_module_list(ids, &isz, 0) <= 0)
			a->bad++;
	}
	return NULL;
}

TEST_F(attr, many_threads_at_once)
{
	struct hammer_arg args[8];
	pthread_t t[8];

	for (int i = 0; i < 8; i++) {
		args[i] = (struct hammer_arg){ &self->x, 0 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hammer, &args[i]));
	}
	for (int i = 0; i < 8; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, args[i].bad) TH_LOG("thread %d: %ld bad results", i, args[i].bad);
	}
}

TEST_HARNESS_MAIN
