/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the in-guest fuzzer (fuzz_lsm.c) and its slab leak check:
 * a seeded RNG, the parser of an lsm_self_attr() result (the layout
 * Documentation/userspace-api/lsm.rst of patch 0009 defines), options
 * from argv / environment / kernel command line, and the kernel log
 * scanner.
 */
#ifndef KIT_FUZZ_LIB_H
#define KIT_FUZZ_LIB_H

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "kit/lsm_abi.h"

#define ALIGN8(x) (((x) + 7) & ~(size_t)7)

/* --- RNG: splitmix64, one state per thread, so a seed replays a run --- */

static inline uint64_t fz_mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct fz_rng {
	uint64_t s;
};

static inline uint64_t fz_next(struct fz_rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return fz_mix(r->s);
}

/* A number in [0, n). */
static inline uint64_t fz_below(struct fz_rng *r, uint64_t n)
{
	return n ? fz_next(r) % n : 0;
}

/* True with probability 1/n. */
static inline int fz_one_in(struct fz_rng *r, uint64_t n)
{
	return fz_below(r, n) == 0;
}

/* --- lsm.rst: the parser every successful lsm_self_attr() must pass --- */

/*
 * fz_check_ctx - Check an lsm_self_attr() result as lsm.rst defines it
 * @buf: the result
 * @size: the bytes the kernel reported (*size)
 * @count: the syscall's return value
 * @why: room for the first defect found
 * @whylen: its size
 *
 * Return: 0 if the result parses, -1 with @why set otherwise.
 */
static inline int fz_check_ctx(const void *buf, size_t size, long count,
			       char *why, size_t whylen)
{
	const uint8_t *p = buf;
	size_t off = 0, i;
	long n = 0;

	if (size % 8) {
		snprintf(why, whylen, "*size %zu is not a multiple of 8", size);
		return -1;
	}
	while (off < size) {
		const struct lsm_ctx *c = (const void *)(p + off);
		size_t len;
		uint32_t f;

		if (size - off < sizeof(*c)) {
			snprintf(why, whylen, "entry %ld at %zu: header cut at %zu",
				 n, off, size);
			return -1;
		}
		if (!kit_lsm_name((int)c->id) || c->id == LSM_ID_CAPABILITY) {
			snprintf(why, whylen, "entry %ld: unknown or capability id %u",
				 n, c->id);
			return -1;
		}
		f = c->flags;
		if (!f || (f & (f - 1)) || f > KIT_ATTR_LAST) {
			snprintf(why, whylen, "entry %ld (id %u): flags %#x is not one LSM_ATTR_ bit",
				 n, c->id, f);
			return -1;
		}
		if (!c->ctx_len || c->ctx_len % 8 ||
		    c->ctx_len > size - off - sizeof(*c)) {
			snprintf(why, whylen, "entry %ld (id %u): ctx_len %llu bad (room %zu)",
				 n, c->id, (unsigned long long)c->ctx_len,
				 size - off - sizeof(*c));
			return -1;
		}
		len = strnlen((const char *)c->ctx, c->ctx_len);
		if (len == c->ctx_len || len == 0) {
			snprintf(why, whylen, "entry %ld (id %u): %s", n, c->id,
				 len ? "no NUL within ctx_len" : "empty value");
			return -1;
		}
		if (ALIGN8(len + 1) != c->ctx_len) {
			snprintf(why, whylen, "entry %ld (id %u): ctx_len %llu for a %zu-byte value",
				 n, c->id, (unsigned long long)c->ctx_len, len);
			return -1;
		}
		for (i = len; i < c->ctx_len; i++)
			if (c->ctx[i]) {
				snprintf(why, whylen, "entry %ld (id %u): padding byte %zu is %#x",
					 n, c->id, i, c->ctx[i]);
				return -1;
			}
		if (c->ctx[len - 1] == '\n') {
			snprintf(why, whylen, "entry %ld (id %u): value ends in a newline",
				 n, c->id);
			return -1;
		}
		off += sizeof(*c) + c->ctx_len;
		n++;
	}
	if (n != count) {
		snprintf(why, whylen, "returned %ld but %ld entries parse", count, n);
		return -1;
	}
	return 0;
}

/* --- options: argv > environment > kernel command line > default --- */

/*
 * fz_cmdline - The value of "key=value" on the kernel command line
 * @key: e.g. "kit.fuzz_ops"
 * @out: where to store the value
 * @len: its size
 *
 * Return: 1 if found, 0 if not.
 */
static inline int fz_cmdline(const char *key, char *out, size_t len)
{
	char buf[4096], *tok, *save;
	size_t kl = strlen(key);
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strncmp(tok, key, kl) && tok[kl] == '=') {
			snprintf(out, len, "%s", tok + kl + 1);
			return 1;
		}
	return 0;
}

/* The option @env (environment) or @key (command line), else @def. */
static inline const char *fz_opt(const char *env, const char *key,
				 const char *def, char *buf, size_t len)
{
	const char *e = getenv(env);

	if (e && *e)
		return e;
	if (key && fz_cmdline(key, buf, len))
		return buf;
	return def;
}

/*
 * fz_debug_kernel - Whether this kernel is the debug flavour
 *
 * configs/debug.config has PROVE_LOCKING, which creates /proc/lockdep;
 * the normal kit.config has no lockdep.
 */
static inline int fz_debug_kernel(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

/* --- the kernel log --- */

/*
 * What makes a kernel log line a splat. Lockdep's reports all start
 * with "WARNING:" (circular locking, inconsistent lock state, bad
 * unlock balance, suspicious RCU usage) or "BUG:" (lockdep's own
 * limits); the rest are listed for the words the issue names.
 */
static const char *const fz_splats[] = {
	"BUG:", "WARNING:", "KASAN", "UBSAN", "Call Trace", "Oops",
	"kernel BUG at", "general protection fault", "Kernel panic",
	"possible circular locking", "inconsistent lock state",
	"possible recursive locking", "suspicious RCU usage",
	"lock held when returning to user space", "bad unlock balance",
	"detected stall", "self-detected stall", "rcu_preempt detected",
	"rcu_sched detected", "blocked for more than", "soft lockup",
	"hard LOCKUP", "list_add corruption", "list_del corruption",
	"refcount_t:", "INFO: lockdep is turned off",
	"DEBUG_LOCKS_WARN_ON",
};

/* The splat word of @line, or NULL if it is an ordinary line. */
static inline const char *fz_splat_word(const char *line)
{
	for (size_t i = 0; i < sizeof(fz_splats) / sizeof(fz_splats[0]); i++)
		if (strstr(line, fz_splats[i]))
			return fz_splats[i];
	return NULL;
}

/*
 * fz_scan_kmsg - Read the whole kernel log from /dev/kmsg
 * @first: room for the first splat line found
 * @len: its size
 * @lines: set to the number of records read
 *
 * Return: the number of splat lines, or -errno if /dev/kmsg cannot be
 * read at all.
 */
static inline int fz_scan_kmsg(char *first, size_t len, long *lines)
{
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), hits = 0;
	ssize_t n;

	*lines = 0;
	first[0] = '\0';
	if (fd < 0)
		return -errno;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten records */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		(*lines)++;
		if (fz_splat_word(rec)) {
			if (!hits++) {
				char *msg = strchr(rec, ';');

				const char *m = msg ? msg + 1 : rec;
				size_t k = strcspn(m, "\n");

				if (k >= len)
					k = len - 1;
				memcpy(first, m, k);
				first[k] = '\0';
			}
		}
	}
	close(fd);
	return hits;
}

/* --- /proc/meminfo --- */

/* The "Slab:" figure of /proc/meminfo in kB, or -1. */
static inline long fz_slab_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * fz_slab_shrink - Ask every SLUB cache to give back what it can
 *
 * Writing 1 to /sys/kernel/slab/CACHE/shrink runs kmem_cache_shrink(),
 * which on a KASAN kernel also empties the cache's part of the
 * quarantine of freed objects: without it, Slab on the debug flavour
 * grows by whatever the quarantine still held back when the first
 * sample was taken. The normal kernel (SLOB) has no /sys/kernel/slab:
 * nothing to do.
 *
 * Return: the number of caches shrunk.
 */
static inline int fz_slab_shrink(void)
{
	char path[320];
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	int n = 0, fd;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%.255s/shrink", e->d_name);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			continue;
		n += write(fd, "1", 1) == 1;
		close(fd);
	}
	if (d)
		closedir(d);
	return n;
}

#endif
