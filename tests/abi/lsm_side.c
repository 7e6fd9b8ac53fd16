// SPDX-License-Identifier: GPL-2.0
/*
 * lsm_side: the same questions about the LSM system calls, asked of the
 * kernel whose <linux/lsm.h> this was compiled against: the kit's
 * (lsm_self_attr 451, lsm_module_list 452, patches 0006-0008) or
 * mainline's (lsm_get_self_attr 459, lsm_list_modules 461, 6.8 and later).
 * scripts/test/abi.sh builds it once for each kernel, runs each build on its
 * own kernel with the same stack and puts the answers in two columns.
 *
 * Output: one "question<TAB>answer" line per question, the same questions
 * in the same order on both kernels; an answer is what the kernel said
 * (a count, an errno name, sizes, values), never a verdict.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/lsm.h>

#include "kit/bench.h"

#if defined(__NR_lsm_get_self_attr) && defined(__NR_lsm_list_modules)
#define ABI "mainline"
typedef __u64 lsm_id_t;		/* lsm_list_modules() writes u64 IDs */
typedef __u32 lsm_size_t;	/* u32 *size since 6.9 */
#elif defined(__NR_lsm_self_attr) && defined(__NR_lsm_module_list)
#define ABI "kit"
typedef __u32 lsm_id_t;
typedef size_t lsm_size_t;
#else
#error "<linux/lsm.h> and <asm/unistd.h> have neither the kit's nor mainline's LSM system calls"
#endif

/* Every ID of either header, by the name /sys/kernel/security/lsm uses. */
static const struct { long id; const char *name; } lsms[] = {
	{ LSM_ID_CAPABILITY, "capability" }, { LSM_ID_SELINUX, "selinux" },
	{ LSM_ID_SMACK, "smack" }, { LSM_ID_TOMOYO, "tomoyo" },
	{ LSM_ID_IMA, "ima" }, { LSM_ID_APPARMOR, "apparmor" },
	{ LSM_ID_YAMA, "yama" }, { LSM_ID_LOADPIN, "loadpin" },
	{ LSM_ID_SAFESETID, "safesetid" }, { LSM_ID_LOCKDOWN, "lockdown" },
	{ LSM_ID_BPF, "bpf" }, { LSM_ID_LANDLOCK, "landlock" },
#ifdef LSM_ID_TOYLSM
	{ LSM_ID_TOYLSM, "toylsm" },
#endif
#ifdef LSM_ID_EVM
	{ LSM_ID_EVM, "evm" },
#endif
#ifdef LSM_ID_IPE
	{ LSM_ID_IPE, "ipe" },
#endif
};

#define NLSMS (sizeof(lsms) / sizeof(lsms[0]))

static const struct { unsigned int attr; const char *name; } attrs[] = {
	{ LSM_ATTR_CURRENT, "current" }, { LSM_ATTR_EXEC, "exec" },
	{ LSM_ATTR_FSCREATE, "fscreate" }, { LSM_ATTR_KEYCREATE, "keycreate" },
	{ LSM_ATTR_PREV, "prev" }, { LSM_ATTR_SOCKCREATE, "sockcreate" },
};

#define NATTRS (sizeof(attrs) / sizeof(attrs[0]))

static const char *lsm_name(unsigned long long id)
{
	for (size_t i = 0; i < NLSMS; i++)
		if ((unsigned long long)lsms[i].id == id)
			return lsms[i].name;
	return "?";
}

static long lsm_id(const char *name)
{
	for (size_t i = 0; i < NLSMS; i++)
		if (!strcmp(lsms[i].name, name))
			return lsms[i].id;
	return -1;
}

static void answer(const char *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void answer(const char *q, const char *fmt, ...)
{
	va_list ap;

	printf("%s\t", q);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* "3" for a count, "E2BIG" for a failure: what a call returned. */
static const char *rcs(long rc, int err)
{
	static char buf[8][32];
	static int n;
	char *b = buf[n++ % 8];

	if (rc >= 0)
		snprintf(b, 32, "%ld", rc);
	else
		snprintf(b, 32, "%s", strerrorname_np(err) ? strerrorname_np(err) : "E?");
	return b;
}

/*
 * ERR(call): what @call returned, as rcs() puts it.  The comma operator
 * reads errno after the call: in rcs(call, errno) the order is unspecified.
 */
static long rc_;
#define ERR(call) (rc_ = (call), rcs(rc_, errno))

/* The system calls of this build's kernel, one name for each job. */
static long list_modules(lsm_id_t *ids, lsm_size_t *size, __u32 flags)
{
#ifdef __NR_lsm_list_modules
	return syscall(__NR_lsm_list_modules, ids, size, flags);
#else
	return syscall(__NR_lsm_module_list, ids, size, flags);
#endif
}

static char buf[65536] __attribute__((aligned(8)));

/*
 * The task's attributes as "attr module=value ..." per attribute, and the
 * bytes and calls it took.  Kit: one call for all; mainline: one per
 * attribute.  vals[a] gets the answer for attrs[a]; layout gets the first
 * entry's header fields.
 */
struct self {
	char vals[NATTRS][512];
	size_t bytes;
	int calls;
	long rc;
	int err;
	char layout[128];
};

/*
 * A value is at most ctx_len bytes: mainline's may have no NUL of its own
 * (an unset SELinux attribute has ctx_len 0; AppArmor counts no NUL).
 */
static void add_val(char *v, size_t vl, unsigned long long id, const char *s,
		    unsigned long long len)
{
	size_t n = strlen(v);

	snprintf(v + n, vl - n, "%s%s=%.*s", n ? " " : "", lsm_name(id), (int)strnlen(s, len), s);
}

static void read_self(struct self *s)
{
	memset(s, 0, sizeof(*s));
#ifdef __NR_lsm_self_attr
	size_t size = sizeof(buf), off = 0;
	long n = syscall(__NR_lsm_self_attr, buf, &size, 0);

	s->calls = 1;
	s->rc = n;
	s->err = errno;
	if (n < 0)
		return;
	s->bytes = size;
	for (long i = 0; i < n; i++) {
		struct lsm_ctx *c = (void *)(buf + off);

		for (size_t a = 0; a < NATTRS; a++)
			if (attrs[a].attr == c->flags)
				add_val(s->vals[a], sizeof(s->vals[a]), c->id, (char *)c->ctx,
					c->ctx_len);
		if (i == 0)
			snprintf(s->layout, sizeof(s->layout), "header %zu, ctx_len %llu",
				 sizeof(*c), (unsigned long long)c->ctx_len);
		off += sizeof(*c) + c->ctx_len;
	}
#else
	s->rc = 0;
	for (size_t a = 0; a < NATTRS; a++) {
		__u32 size = sizeof(buf);
		long n = syscall(__NR_lsm_get_self_attr, attrs[a].attr, buf, &size, 0);
		size_t off = 0;

		s->calls++;
		if (n < 0) {
			/* EOPNOTSUPP: no module has this attribute */
			if (errno != EOPNOTSUPP) {
				s->rc = n;
				s->err = errno;
				return;
			}
			continue;
		}
		s->rc += n;
		s->bytes += size;
		for (long i = 0; i < n; i++) {
			struct lsm_ctx *c = (void *)(buf + off);

			add_val(s->vals[a], sizeof(s->vals[a]), c->id, (char *)c->ctx, c->ctx_len);
			if (!s->layout[0])
				snprintf(s->layout, sizeof(s->layout), "header %zu, len %llu, ctx_len %llu",
					 sizeof(*c), (unsigned long long)c->len,
					 (unsigned long long)c->ctx_len);
			off += c->len;
		}
	}
#endif
}

/* The size probe: NULL buffer, *size 0, for every attribute. */
static void probe(char *out, size_t ol)
{
#ifdef __NR_lsm_self_attr
	size_t size = 0;
	long rc = syscall(__NR_lsm_self_attr, NULL, &size, 0);

	snprintf(out, ol, "%s, *size %zu, 1 call", rcs(rc, errno), size);
#else
	unsigned long total = 0;
	const char *what = NULL;

	for (size_t a = 0; a < NATTRS; a++) {
		__u32 size = 0;
		long rc = syscall(__NR_lsm_get_self_attr, attrs[a].attr, NULL, &size, 0);

		if (rc < 0 && errno == EOPNOTSUPP)
			continue;
		what = what ? what : rcs(rc, errno);
		total += size;
	}
	snprintf(out, ol, "%s, *size %lu, %zu calls", what ? what : "EOPNOTSUPP", total, NATTRS);
#endif
}

/* One call that names module @id and flags @flags: what does it say? */
static const char *single(long id, __u32 flags)
{
#ifdef __NR_lsm_self_attr
	size_t size = sizeof(buf);

	(void)id;	/* the kit's call names no module */
	return ERR(syscall(__NR_lsm_self_attr, buf, &size, flags));
#else
	static char out[256];
	struct lsm_ctx *c = (void *)buf;
	__u32 size = sizeof(buf);
	long rc;

	memset(buf, 0, sizeof(*c));
	c->id = id;
	rc = syscall(__NR_lsm_get_self_attr, LSM_ATTR_CURRENT, buf, &size, flags);
	if (rc <= 0)
		return rcs(rc, errno);	/* errno: read after the call */
	snprintf(out, sizeof(out), "%ld: %s=%.200s", rc, lsm_name(c->id), (char *)c->ctx);
	return out;
#endif
}

static void securityfs_lsm(char *out, size_t ol)
{
	FILE *f = fopen("/sys/kernel/security/lsm", "r");

	out[0] = '\0';
	if (!f) {
		snprintf(out, ol, "(%s)", strerrorname_np(errno));
		return;
	}
	if (!fgets(out, ol, f))
		out[0] = '\0';
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void attr_dirs(char *out, size_t ol)
{
	DIR *d = opendir("/proc/self/attr");
	struct dirent *e;
	char *names[32];
	int n = 0;

	out[0] = '\0';
	if (!d) {
		snprintf(out, ol, "(%s)", strerrorname_np(errno));
		return;
	}
	while ((e = readdir(d)) && n < 32)
		if (e->d_type == DT_DIR && e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmpstr);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(out);

		snprintf(out + l, ol - l, "%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	if (!n)
		snprintf(out, ol, "none");
}

/*
 * --bench: what reading every attribute of every module costs, and the
 * module list, in units of this kernel's getppid() (the method of
 * kit/bench.h: TCG inflates every syscall's fixed cost, the
 * ratio survives).  Kit: one lsm_self_attr() call; mainline: one
 * lsm_get_self_attr() per attribute.  REPS repetitions, each running both
 * operations (getppid and the measured one, ABBA order) for at least
 * MIN_NS each; the median over the repetitions and their spread (min,
 * max).  Lines "BENCH name median min max" (ns; "a/getppid": the paired
 * ratios), "BENCH-INFO ...", and the same as "bench: ...<TAB>value"
 * answers for make abi BENCH=1.  Exit status 1 if a call fails that
 * succeeded before the measurement.
 */
static long bench_rc;		/* what all_attrs_once() returned the first time */

static long all_attrs_once(void)
{
#ifdef __NR_lsm_self_attr
	size_t size = sizeof(buf);

	return syscall(__NR_lsm_self_attr, buf, &size, 0);
#else
	long n = 0;

	/*
	 * Every attribute; EOPNOTSUPP (no module has it) and AppArmor's
	 * ENOENT (an unset exec or prev) are answers too.
	 */
	for (size_t a = 0; a < NATTRS; a++) {
		__u32 size = sizeof(buf);
		long r = syscall(__NR_lsm_get_self_attr, attrs[a].attr, buf, &size, 0);

		n += r > 0 ? r : 0;
	}
	return n;
#endif
}

static void op_attrs(void)
{
	if (all_attrs_once() != bench_rc) {
		fprintf(stderr, "lsm_side: reading every attribute answered differently during the measurement\n");
		exit(1);
	}
}

static void op_list(void)
{
	static lsm_id_t ids[64];
	lsm_size_t size = sizeof(ids);

	if (list_modules(ids, &size, 0) < 0) {
		fprintf(stderr, "lsm_side: the module list failed during the measurement: %s\n",
			strerrorname_np(errno) ? strerrorname_np(errno) : "?");
		exit(1);
	}
}

static void op_getppid(void)
{
	syscall(SYS_getppid);
}

static void stat_line(const char *name, const char *what, double *v, int ratio)
{
	char q[128];

	bench_line(name, v, ratio ? 2 : 0);
	snprintf(q, sizeof(q), "bench: %s", what);
	answer(q, "%.*f (%.*f-%.*f)", ratio ? 2 : 0, v[REPS / 2], ratio ? 2 : 0, v[0],
	       ratio ? 2 : 0, v[REPS - 1]);
}

/* @op against getppid, paired: prints op's ns, getppid's and the ratio. */
static void measure(const char *name, const char *what, void (*op)(void), int iters)
{
	double g[REPS], t[REPS], r[REPS];
	char n2[64], w2[128];

	for (int i = 0; i < 100; i++) {
		op();
		op_getppid();
	}
	for (int k = 0; k < REPS; k++) {
		if (k % 2) {
			t[k] = run_for(op, iters);
			g[k] = run_for(op_getppid, 200);
		} else {
			g[k] = run_for(op_getppid, 200);
			t[k] = run_for(op, iters);
		}
		r[k] = t[k] / g[k];
	}
	snprintf(w2, sizeof(w2), "%s, ns", what);
	stat_line(name, w2, t, 0);
	snprintf(n2, sizeof(n2), "%s/getppid", name);
	snprintf(w2, sizeof(w2), "%s, in getppid (paired)", what);
	stat_line(n2, w2, r, 1);
	snprintf(n2, sizeof(n2), "getppid@%s", name);
	snprintf(w2, sizeof(w2), "getppid beside %s, ns", what);
	stat_line(n2, w2, g, 0);
}

static int bench(void)
{
	char clk[64] = "unknown";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(clk, sizeof(clk), f))
			strcpy(clk, "unknown");
		clk[strcspn(clk, "\n")] = '\0';
		fclose(f);
	}
	bench_rc = all_attrs_once();
	if (bench_rc < 0) {
		fprintf(stderr, "lsm_side: reading every attribute failed: %s\n",
			strerrorname_np(errno) ? strerrorname_np(errno) : "?");
		return 1;
	}
	printf("BENCH-INFO abi=%s entries=%ld calls=%d reps=%d slice_ms=%.0f clock=%s\n", ABI,
	       bench_rc,
#ifdef __NR_lsm_self_attr
	       1,
#else
	       (int)NATTRS,
#endif
	       REPS, MIN_NS / 1e6, clk);
	/*
	 * clock_getres() says 4 ms on both (no high-resolution timers in
	 * tinyconfig), but with the TSC as clocksource CLOCK_MONOTONIC reads
	 * in ns steps: the clocksource is what matters (jiffies: unusable).
	 */
	answer("bench: clocksource", "%s", clk);
	answer("bench: method", "median of %d paired repetitions of >= %.0f ms each (min-max)",
	       REPS, MIN_NS / 1e6);
	answer("bench: entries returned for every attribute", "%ld", bench_rc);
	measure("all_attrs", "every attribute", op_attrs, 20);
	measure("list", "module list", op_list, 200);
	return 0;
}

int main(int argc, char **argv)
{
	static lsm_id_t ids[64];
	static char s1[1024], s2[1024];
	static struct self self;
	lsm_size_t size = sizeof(ids);
	long n, rc;
	size_t l;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--bench"))
		return bench();
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--bench]\n", argv[0]);
		return 2;
	}
	answer("ABI of the linux/lsm.h compiled against", "%s", ABI);
#ifdef __NR_lsm_self_attr
	answer("system calls (x86_64 numbers)", "lsm_self_attr %d, lsm_module_list %d",
	       __NR_lsm_self_attr, __NR_lsm_module_list);
#else
	answer("system calls (x86_64 numbers)", "lsm_get_self_attr %d, lsm_set_self_attr %d, lsm_list_modules %d",
	       __NR_lsm_get_self_attr, __NR_lsm_set_self_attr, __NR_lsm_list_modules);
#endif
	answer("sizeof(struct lsm_ctx)", "%zu", sizeof(struct lsm_ctx));
	answer("LSM_ATTR_CURRENT, LSM_ATTR_SOCKCREATE", "%u, %u", LSM_ATTR_CURRENT,
	       LSM_ATTR_SOCKCREATE);

	/* Which modules, in which order, with which IDs. */
	n = list_modules(ids, &size, 0);
	/* errno of the call above */
	answer("list: modules (return value)", "%s", rcs(n, errno));
	s1[0] = '\0';
	s2[0] = '\0';
	for (long i = 0; i < n; i++) {
		l = strlen(s1);
		snprintf(s1 + l, sizeof(s1) - l, "%s%llu", i ? " " : "",
			 (unsigned long long)ids[i]);
		l = strlen(s2);
		snprintf(s2 + l, sizeof(s2) - l, "%s%s", i ? "," : "", lsm_name(ids[i]));
	}
	answer("list: IDs in order", "%s", s1);
	answer("list: IDs by name", "%s", s2);
	securityfs_lsm(s1, sizeof(s1));
	answer("list: names are /sys/kernel/security/lsm", "%s", strcmp(s1, s2) ? s1 : "yes");
	answer("list: bytes per ID", "%zu", n > 0 ? (size_t)size / n : 0);
	size = 0;
	rc = list_modules(NULL, &size, 0);
	answer("list: size probe (NULL, *size 0)", "%s, *size %llu", rcs(rc, errno),
	       (unsigned long long)size);
	size = sizeof(ids);
	answer("list: flags 1", "%s", ERR(list_modules(ids, &size, 1)));

	/* The task's contexts. */
	read_self(&self);
	answer("self: entries (all attributes)", "%s", rcs(self.rc, self.err));
	answer("self: calls to read all attributes", "%d", self.calls);
	for (size_t a = 0; a < NATTRS; a++) {
		snprintf(s1, sizeof(s1), "self: %s", attrs[a].name);
		answer(s1, "%s", self.vals[a][0] ? self.vals[a] : "(none)");
	}
	answer("self: bytes for all attributes", "%zu", self.bytes);
	answer("self: first entry's layout", "%s", self.layout[0] ? self.layout : "(no entry)");
	probe(s1, sizeof(s1));
	answer("self: size probe (NULL, *size 0)", "%s", s1);
#ifdef __NR_lsm_self_attr
	rc = syscall(__NR_lsm_self_attr, buf, NULL, 0);
#else
	rc = syscall(__NR_lsm_get_self_attr, LSM_ATTR_CURRENT, buf, NULL, 0);
#endif
	answer("self: size pointer NULL", "%s", rcs(rc, errno));

	/* Flags, and an ID no module has. */
	l = 0;
	for (size_t i = 0; i < NLSMS && !l; i++)	/* the first module with a current value */
		if (strstr(self.vals[0], lsms[i].name) == self.vals[0])
			l = 1, rc = lsms[i].id;
	if (!l)
		rc = lsm_id("capability");
	answer("self: flags 1 (LSM_FLAG_SINGLE), first module's ID", "%s", single(rc, 1));
	answer("self: flags 1 (LSM_FLAG_SINGLE), ID 999", "%s", single(999, 1));
	answer("self: flags 2", "%s", single(rc, 2));

	/* The numbers each ABI took, asked of the other kernel too. */
	{
		size_t zs = 0;

		answer("syscall 451 (NULL, &0, 0, 0)", "%s", ERR(syscall(451, NULL, &zs, 0, 0)));
		zs = 0;
		answer("syscall 452 (NULL, &0, 0, 0)", "%s", ERR(syscall(452, NULL, &zs, 0, 0)));
		zs = 0;
		answer("syscall 459 (100, NULL, &0, 0)", "%s",
		       ERR(syscall(459, 100, NULL, &zs, 0)));
	}
	answer("prctl(66, 0, 0, 0, 0)", "%s", ERR(prctl(66, 0, 0, 0, 0)));
	answer("prctl(65, 999, 0, 0, 0)", "%s", ERR(prctl(65, 999, 0, 0, 0)));
	answer("prctl(65, first module's ID, 0, 0, 0)", "%s", ERR(prctl(65, rc, 0, 0, 0)));

	/* /proc. */
	attr_dirs(s1, sizeof(s1));
	answer("/proc/self/attr subdirectories", "%s", s1);
	return 0;
}
