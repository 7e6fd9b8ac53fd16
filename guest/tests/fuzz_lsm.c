// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded, seeded fuzzer of the kit's user-facing LSM entry points:
 * lsm_self_attr (451), lsm_module_list (452), prctl PR_LSM_ATTR_SET/GET
 * (65/66, part 2 of the series: -EINVAL until it lands, tolerated until
 * GET works at start), every file under /proc/self/attr/, toylsm's
 * securityfs files, getsockopt(SO_PEERSEC) with odd lengths, toylsm
 * labels changing while another thread of the task execs, and a thread
 * flipping its interface LSM while other threads of its process read its
 * un-named /proc/<pid>/task/<tid>/attr/current and SO_PEERSEC of sockets
 * it made. Several
 * processes with several threads run at once; each thread draws from its
 * own RNG, seeded from the run's seed, so a seed replays every thread's
 * calls (the interleaving of threads is the scheduler's).
 *
 * Beyond "the kernel did not crash", invariants are checked during the
 * run: lsm_module_list never changes; every lsm_self_attr result is what
 * the contract says, byte for byte (the contract: the series'
 * Documentation/userspace-api/lsm.rst, patch 0009, and docs/toylsm.md);
 * a rejected write changes no label, no rule and no enforce flag.
 * Then /proc/meminfo's Slab must not grow over 100,000 more
 * lsm_self_attr calls, and the kernel log must be free of splats.
 * Output: TAP (kselftest harness), one test per target.
 *
 * Usage: fuzz_lsm [-s SEED] [-n OPS] [-i INJECT]; or FUZZ_SEED, FUZZ_OPS,
 * FUZZ_INJECT in the environment; or kit.fuzz_seed=, kit.fuzz_ops=
 * (kit.fuzz_ops_debug= on the debug kernel), kit.fuzz_inject= on the
 * kernel command line. INJECT, a comma-separated list, makes checkers
 * expect the wrong thing, to prove that they fail: modlist (an extra
 * LSM expected), ctx (a flipped byte in the reference lsm_self_attr
 * result), attr (a label that moved), rules (a rule that moved), prctl
 * (GET that moved), exec (a wrong label after exec), sock (a flipped
 * byte of the SO_PEERSEC reference), flip (a flipped byte of the
 * flipping thread's reference context), leak (2,000 pipes held during
 * the slab check), splat
 * (a WARNING line written to /dev/kmsg before the log is read).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>

#include "fuzz_lib.h"
#include "kit/toylsm_files.h"
#include "kselftest_harness.h"

#define PR_LSM_ATTR_SET 65
#define PR_LSM_ATTR_GET 66

/*
 * The same budget on both flavours, so that a seed replays the same
 * calls on either: ~1.2 million calls; about 40 s of guest time on the
 * normal kernel, about 6 minutes on the debug one (TCG, 2 vCPUs).
 */
#define DEF_OPS		1200000
#define DEF_OPS_DEBUG	1200000
#define PAGE		4096
#define BUFPAGES	16
#define NVOCAB		12		/* toylsm labels fz0..fz11 */
#define MAXRULES	128		/* TOYLSM_RULES */

enum { T_SELF, T_MODS, T_ATTR, T_PRCTL, T_SECFS, T_EXEC, T_SOCK, T_FLIP, T_N };
static const char *const tname[T_N] = {
	"lsm_self_attr", "lsm_module_list", "/proc/self/attr/**",
	"prctl PR_LSM_ATTR_SET/GET", "toylsm securityfs",
	"toylsm labels racing exec", "SO_PEERSEC getsockopt",
	"interface LSM flips under readers",
};

struct shared {
	atomic_long calls[T_N], ops[T_N], viol[T_N];
	atomic_int msg_taken[T_N];
	char msg[T_N][400];
	int ran;		/* the run test finished */
	atomic_long usecs[T_N];	/* the slowest process of each target */
	char flipref[400];	/* the flipping thread's references, for the log */
	double secs;		/* its wall time */
};

static struct shared *sh;
static uint64_t seed;
static char self_exe[256];
static char inject[64];
static int have_toylsm, have_smack;
static uint32_t ids[32];
static size_t nids;
static char *ro_page;		/* PROT_READ: '/' bytes, ends with the size_t 64 */
#define RO_SZP ((size_t *)(ro_page + PAGE - 8))
#define RO_SIZE 64

/* Per process (after fork): this task's reference lsm_self_attr result. */
static uint8_t ref_ctx[PAGE];
static size_t ref_size;
static long ref_count;

/* What the thread was doing: printed if the fuzzer itself faults. */
static __thread char lastop[320];

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	char m[480];
	int n;

	(void)uc;
	n = snprintf(m, sizeof(m), "# fuzz_lsm pid %d: signal %d at %p, last operation: %s\n",
		     getpid(), sig, si->si_addr, lastop[0] ? lastop : "(none)");
	if (write(2, m, n) < 0)
		_exit(128 + sig);
	_exit(128 + sig);
}

static int injected(const char *what)
{
	return !!strstr(inject, what);
}

static void viol(int t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void viol(int t, const char *fmt, ...)
{
	char m[400];
	va_list ap;
	long n;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	n = atomic_fetch_add(&sh->viol[t], 1);
	if (n < 3)
		fprintf(stderr, "# %s: %s\n", tname[t], m);
	if (!atomic_exchange(&sh->msg_taken[t], 1))
		snprintf(sh->msg[t], sizeof(sh->msg[t]), "%s", m);
}

/* --- per-thread state and interesting values --- */

struct thr {
	int role, idx;
	long ops, calls;
	struct fz_rng r;
	char *buf, *guard;	/* BUFPAGES RW pages, then PROT_NONE */
	char *szbuf, *szguard;	/* one RW page, then PROT_NONE */
	pthread_t th;
	long stats[32];		/* securityfs readers: last counters */
	int have_stats;
	char name[16];
};

static char *map_guarded(size_t pages)
{
	char *p = mmap(NULL, (pages + 1) * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + pages * PAGE, PAGE, PROT_NONE))
		return NULL;
	return p;
}

static int thr_setup(struct thr *t, int role, int idx)
{
	memset(t, 0, sizeof(*t));
	t->role = role;
	t->idx = idx;
	t->r.s = fz_mix(seed ^ ((uint64_t)role << 40) ^ ((uint64_t)idx << 20));
	t->buf = map_guarded(BUFPAGES);
	t->szbuf = map_guarded(1);
	if (!t->buf || !t->szbuf)
		return -1;
	t->guard = t->buf + BUFPAGES * PAGE;
	t->szguard = t->szbuf + PAGE;
	return 0;
}

static void thr_done(struct thr *t, int target)
{
	atomic_fetch_add(&sh->calls[target], t->calls);
	atomic_fetch_add(&sh->ops[target], t->ops);
}

/* A buffer argument and how many bytes at it are writable. */
struct bufarg {
	void *p;
	size_t avail;
	const char *what;
};

static struct bufarg pick_buf(struct thr *t, size_t need)
{
	static const size_t tails[] = { 1, 7, 8, 15, 16, 17, 24, 64 };
	struct bufarg b = { NULL, 0, "NULL" };
	size_t k;

	switch (fz_below(&t->r, 16)) {
	case 0:
		break;
	case 1:
		b.p = (void *)(uintptr_t)(1 + 2 * fz_below(&t->r, 2048));
		b.what = "odd small address";
		break;
	case 2: case 3:
		k = fz_below(&t->r, 3) ? need + fz_below(&t->r, 3) - 1 :
			tails[fz_below(&t->r, 8)];
		if (k > BUFPAGES * PAGE || k == (size_t)-1)
			k = 1;
		b.p = t->guard - k;
		b.avail = k;
		b.what = "last bytes before a PROT_NONE page";
		break;
	case 4:
		b.p = ro_page + fz_below(&t->r, 16);
		b.what = "read-only page";
		break;
	case 5:
		b.p = t->guard;
		b.what = "PROT_NONE page";
		break;
	case 6:
		b.p = (void *)(uintptr_t)0xffffffff81000000ULL;
		b.what = "kernel address";
		break;
	case 7:
		b.p = (void *)(uintptr_t)(0x0000800000000000ULL +
					  fz_below(&t->r, 64));
		b.what = "non-canonical address";
		break;
	default:
		k = fz_below(&t->r, 8);
		b.p = t->buf + k;
		b.avail = BUFPAGES * PAGE - k;
		b.what = k ? "misaligned buffer" : "buffer";
		break;
	}
	return b;
}

static size_t pick_size(struct thr *t, size_t need)
{
	static const size_t fixed[] = {
		0, 1, 7, 8, 15, 16, 4096, 1 << 20, 1UL << 30, SIZE_MAX,
		SIZE_MAX / 2, (size_t)INT_MAX + 1, (size_t)UINT_MAX,
	};

	switch (fz_below(&t->r, 8)) {
	case 0:
		return need ? need - 1 : 0;
	case 1: case 2: return need;
	case 3: return need + 1;
	case 4: case 5: return fixed[fz_below(&t->r, sizeof(fixed) / sizeof(fixed[0]))];
	case 6: return fz_below(&t->r, 4 * need + 8);
	default: return BUFPAGES * PAGE;
	}
}

/* A size_t * argument: where, readable, writable. */
struct szarg {
	size_t *p;
	int rd, wr;
	const char *what;
};

static struct szarg pick_szp(struct thr *t)
{
	struct szarg s = { (size_t *)t->szbuf, 1, 1, "size" };

	switch (fz_below(&t->r, 14)) {
	case 0:
		s = (struct szarg){ NULL, 0, 0, "NULL size" };
		break;
	case 1:
		s = (struct szarg){ RO_SZP, 1, 0, "read-only size" };
		break;
	case 2:
		s = (struct szarg){ (size_t *)(t->szguard - 4), 0, 0,
				    "size across a PROT_NONE page" };
		break;
	case 3:
		s = (struct szarg){ (size_t *)(t->szguard - 8), 1, 1,
				    "size just before a PROT_NONE page" };
		break;
	case 4:
		s = (struct szarg){ (size_t *)(t->szbuf + 1 + fz_below(&t->r, 7)),
				    1, 1, "misaligned size" };
		break;
	case 5:
		s = (struct szarg){ (size_t *)(uintptr_t)0xffffffff81000000ULL,
				    0, 0, "kernel-address size" };
		break;
	case 6:
		s = (struct szarg){ (size_t *)(uintptr_t)9, 0, 0, "odd small size" };
		break;
	}
	return s;
}

static uint32_t pick_flags(struct thr *t)
{
	switch (fz_below(&t->r, 10)) {
	case 0: return 1U << fz_below(&t->r, 32);
	case 1: return UINT32_MAX;
	case 2: return (uint32_t)fz_next(&t->r) | 1;
	default: return 0;
	}
}

static void szstore(size_t *p, size_t v)
{
	memcpy(p, &v, sizeof(v));
}

static size_t szload(const size_t *p)
{
	size_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* --- lsm_self_attr and lsm_module_list: exact expected outcomes --- */

/*
 * One call of lsm_self_attr (@modlist 0) or lsm_module_list (1) with
 * drawn arguments, against the result the contract predicts from this task's
 * reference result.
 */
static void fuzz_syscall(struct thr *t, int modlist)
{
	int tg = modlist ? T_MODS : T_SELF;
	const uint8_t *ref = modlist ? (const uint8_t *)ids : ref_ctx;
	size_t need = modlist ? nids * 4 : ref_size, usize, canary_end = 0;
	long want = modlist ? (long)nids : ref_count, rc;
	uint32_t flags = pick_flags(t);
	struct bufarg b = pick_buf(t, need);
	struct szarg s = pick_szp(t);
	int e, alias = 0, experr = 0;

	usize = pick_size(t, need);
	if (s.wr && b.avail >= 8 && fz_one_in(&t->r, 40)) {
		/* *size inside the buffer: the kernel overwrites it last. */
		s.p = b.p;
		alias = 1;
	}
	if (s.wr)
		szstore(s.p, usize);
	else if (s.p == RO_SZP)
		usize = RO_SIZE;
	if (b.avail && (char *)b.p >= t->buf && (char *)b.p < t->guard) {
		canary_end = b.avail < need + 64 ? b.avail : need + 64;
		memset(b.p, 0xa5, canary_end);
		if (alias)
			szstore(s.p, usize);
	}

	if (flags)
		experr = EINVAL;
	else if (!s.rd)
		experr = EFAULT;
	else if (need > usize)
		experr = s.wr ? E2BIG : EFAULT;
	else if (need && b.avail < need)
		experr = EFAULT;
	else if (!s.wr)
		experr = EFAULT;

	snprintf(lastop, sizeof(lastop), "%s(buf %s %p avail %zu, %s %p, *size %zu, flags %#x) need %zu alias %d",
		 modlist ? "lsm_module_list" : "lsm_self_attr", b.what, b.p, b.avail,
		 s.what, (void *)s.p, usize, flags, need, alias);
	errno = 0;
	rc = modlist ? lsm_module_list(b.p, s.p, flags) :
		       lsm_self_attr(b.p, s.p, flags);
	e = errno;
	t->calls++;

	if (experr) {
		if (rc != -1 || e != experr) {
			viol(tg, "returned %ld errno %s, expected %s (%s)", rc,
			     strerrorname_np(e) ?: "0", strerrorname_np(experr),
			     lastop);
			return;
		}
		if (experr == EINVAL && s.rd && !alias && szload(s.p) != usize)
			viol(tg, "EINVAL changed *size to %zu (%s)", szload(s.p),
			     lastop);
		if (experr == E2BIG && szload(s.p) != need)
			viol(tg, "E2BIG set *size %zu, needed %zu (%s)",
			     szload(s.p), need, lastop);
		return;
	}
	if (rc != want) {
		viol(tg, "returned %ld errno %s, expected %ld (%s)", rc,
		     strerrorname_np(e) ?: "0", want, lastop);
		return;
	}
	if (!need)
		return;
	if (alias) {
		/*
		 * the contract does not say whether *size or the result is
		 * written first: only the bytes after *size are known.
		 */
		if (need > 8 && memcmp((char *)b.p + 8, ref + 8, need - 8))
			viol(tg, "result differs from the reference (aliased size) (%s)",
			     lastop);
		return;
	}
	if (szload(s.p) != need) {
		viol(tg, "set *size %zu, expected %zu (%s)", szload(s.p), need,
		     lastop);
		return;
	}
	if (!modlist) {
		char why[200];

		if (fz_check_ctx(b.p, need, rc, why, sizeof(why)))
			viol(tg, "does not parse per the contract: %s (%s)", why, lastop);
	}
	if (memcmp(b.p, ref, need))
		viol(tg, "result differs from the reference (%s)", lastop);
	for (size_t i = need; i < canary_end; i++)
		if (((uint8_t *)b.p)[i] != 0xa5) {
			viol(tg, "wrote byte %zu past *size (%s)", i, lastop);
			break;
		}
}

/* Take this task's reference result (the task does not relabel). */
static int take_reference(void)
{
	size_t size = sizeof(ref_ctx);
	char why[200];

	ref_count = lsm_self_attr((struct lsm_ctx *)ref_ctx, &size, 0);
	ref_size = size;
	if (ref_count < 0 || fz_check_ctx(ref_ctx, ref_size, ref_count, why,
					  sizeof(why))) {
		viol(T_SELF, "reference call: %ld (%s) %s", ref_count,
		     strerrorname_np(errno) ?: "0", ref_count < 0 ? "" : why);
		return -1;
	}
	if (injected("ctx") && ref_size)
		ref_ctx[sizeof(struct lsm_ctx)] ^= 1;	/* a wrong expectation */
	return 0;
}

/* --- every file under /proc/self/attr/ --- */

static const char *const attr_files[] = {
	"current", "exec", "fscreate", "keycreate", "prev", "sockcreate",
	"smack/current", "apparmor/current", "apparmor/exec", "apparmor/prev",
	"toylsm/current", "toylsm/exec", "toylsm/prev", "toylsm/nosuch",
	"selinux/current",
};

#define NATTRF (sizeof(attr_files) / sizeof(attr_files[0]))
#define IS_TOY(f) (!strncmp((f), "toylsm/", 7))

/* What the contract accepts as a toylsm label write. */
static int toy_valid(const char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (len < 1 || len > 31)
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || (c && strchr("_.:-", c))))
			return 0;
	}
	return 1;
}

/*
 * A label text to write: mostly a vocabulary label (so that the system
 * table stays small and no label reads like a splat word in an audit
 * record), else text that no LSM accepts as a new label.
 */
static size_t gen_label(struct thr *t, char *out, size_t room, int smack)
{
	static const char badc[] = " /\t\"\\'\x01\xff\0";
	size_t len = 0, i;

	if (smack)
		len = snprintf(out, room, "%s", fz_one_in(&t->r, 4) ? "_" :
			       ((const char *[]){ "fzA", "fzB", "fzC" })[fz_below(&t->r, 3)]);
	else
		len = snprintf(out, room, "fz%d", (int)fz_below(&t->r, NVOCAB));
	switch (fz_below(&t->r, 12)) {
	case 0: return 0;
	case 1:
		out[0] = '\n';
		return 1;
	case 2:
		out[len++] = '\n';
		out[len++] = '\n';
		return len;
	case 3:		/* an invalid byte inside */
		out[fz_below(&t->r, len + 1)] = badc[fz_below(&t->r, sizeof(badc))];
		return len;
	case 4:		/* too long for toylsm */
		len = 32 + 8 * fz_below(&t->r, 2);
		memset(out, 'f', len);
		return len;
	case 5:		/* random bytes that start invalid */
		len = 1 + fz_below(&t->r, 48);
		for (i = 0; i < len; i++)
			out[i] = (char)fz_next(&t->r);
		out[0] = badc[fz_below(&t->r, sizeof(badc))];
		return len;
	case 6:
		out[len++] = '\n';
		return len;
	default: return len;
	}
}

struct snap {
	char v[5][48];
	int rc[5];
};

static const char *const snap_files[5] = {
	"current", "smack/current", "toylsm/current", "toylsm/exec",
	"toylsm/prev",
};

static void snapshot(struct thr *t, struct snap *s)
{
	char path[96];

	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "/proc/thread-self/attr/%s",
			 snap_files[i]);
		s->rc[i] = read_file(path, s->v[i], sizeof(s->v[i]));
		t->calls++;
	}
}

static int snap_diff(const struct snap *a, const struct snap *b)
{
	for (int i = 0; i < 5; i++)
		if (a->rc[i] != b->rc[i] || strcmp(a->v[i], b->v[i]))
			return i;
	return -1;
}

static void fuzz_attr_read(struct thr *t)
{
	static const off_t offs[] = { 0, 1, 4, 4095, 4096, 1LL << 40, -1 };
	const char *f = attr_files[fz_below(&t->r, NATTRF)];
	char path[96];
	struct bufarg b = pick_buf(t, 64);
	size_t len = pick_size(t, 48);
	off_t off = fz_below(&t->r, 3) ? 0 : offs[fz_below(&t->r, 7)];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/attr/%s",
		 fz_one_in(&t->r, 2) ? "thread-self" : "self", f);
	fd = open(path, fz_one_in(&t->r, 4) ? O_RDWR : O_RDONLY);
	t->calls++;
	if (fd < 0)
		return;
	n = off ? pread(fd, b.p, len, off) : read(fd, b.p, len);
	t->calls++;
	if (n > 0 && !off && IS_TOY(f) && b.avail >= (size_t)n &&
	    len >= 33 && b.p == t->buf) {
		char *p = b.p;

		if (p[n - 1] != '\n' || !toy_valid(p, n))
			viol(T_ATTR, "%s read %zd bytes that are no label", path, n);
	}
	close(fd);
}

static void fuzz_attr_write(struct thr *t)
{
	const char *f = attr_files[fz_below(&t->r, NATTRF)];
	int own = fz_below(&t->r, 8), smack, r, d, fd, own_task;
	char path[96], text[64];
	const char *src;
	struct snap s0, s1;
	struct bufarg b = { text, sizeof(text), "text" };
	size_t len;
	off_t off = fz_one_in(&t->r, 12) ? 1 + (off_t)fz_below(&t->r, 4096) : 0;
	ssize_t n;

	smack = !IS_TOY(f);
	len = gen_label(t, text, sizeof(text), smack);
	if (fz_one_in(&t->r, 8)) {
		b = pick_buf(t, len);
		if (b.p == t->buf)
			memcpy(b.p, text, len);
	}
	if (fz_one_in(&t->r, 30))
		len = fz_one_in(&t->r, 2) ? PAGE + 1 : SIZE_MAX;
	if (own == 0)
		snprintf(path, sizeof(path), "/proc/%d/attr/%s", getppid(), f);
	else
		snprintf(path, sizeof(path), "/proc/%s/attr/%s",
			 own == 1 || (own == 2 && t->idx == 0) ? "self" :
			 "thread-self", f);
	snapshot(t, &s0);
	fd = open(path, O_WRONLY);
	t->calls++;
	if (fd < 0)
		return;
	n = off ? pwrite(fd, b.p, len, off) : write(fd, b.p, len);
	r = n < 0 ? -errno : 0;
	t->calls++;
	close(fd);
	snapshot(t, &s1);
	/* The bytes at b.p, where they are readable: what the kernel saw. */
	src = NULL;
	if (b.p == text)
		src = text;
	else if ((char *)b.p >= t->buf && (char *)b.p < t->guard &&
		 len <= (size_t)(t->guard - (char *)b.p))
		src = b.p;
	else if ((char *)b.p >= ro_page && (char *)b.p < ro_page + PAGE &&
		 len <= (size_t)(ro_page + PAGE - (char *)b.p))
		src = b.p;
	own_task = own >= 2 || (own == 1 && t->idx == 0);
	if (injected("attr"))	/* a wrong expectation: the label moved */
		snprintf(s0.v[2], sizeof(s0.v[2]), "fz-canary\n");

	if (r < 0) {
		d = snap_diff(&s0, &s1);
		if (d >= 0)
			viol(T_ATTR, "rejected write (%s) of %zu bytes to %s changed %s: \"%.*s\" -> \"%.*s\"",
			     strerrorname_np(-r), len, path, snap_files[d],
			     (int)strcspn(s0.v[d], "\n"), s0.v[d],
			     (int)strcspn(s1.v[d], "\n"), s1.v[d]);
		/* Own task, offset 0, readable text that is no label: -EINVAL. */
		if (IS_TOY(f) && own_task && !off && src && len <= 64 &&
		    !toy_valid(src, len) && r != -EINVAL)
			viol(T_ATTR, "invalid label to %s: %s, expected EINVAL",
			     path, strerrorname_np(-r));
		return;
	}
	if (own == 0)
		viol(T_ATTR, "wrote another task's %s", path);
	/* Unreadable bytes must be -EFAULT; readable ones must be a label. */
	if (IS_TOY(f) && (!src || len > 32 || !toy_valid(src, len) ||
			  !strcmp(f, "toylsm/prev"))) {
		viol(T_ATTR, "%s accepted %zu bytes at %s (%p) that are no label",
		     path, len, b.what, b.p);
		return;
	}
	if (!strcmp(f, "toylsm/current") || !strcmp(f, "toylsm/exec")) {
		int i = strcmp(f, "toylsm/exec") ? 2 : 3;
		size_t l = len && src[len - 1] == '\n' ? len - 1 : len;

		if (strncmp(s1.v[i], src, l) || s1.v[i][l] != '\n')
			viol(T_ATTR, "%s accepted \"%.*s\" but reads \"%s\"",
			     path, (int)l, src, s1.v[i]);
	}
}

static int prctl_live;

/*
 * lsm_self_attr of a relabelling thread: parses, equals its /proc files.
 * The un-named files show the thread's interface LSM (prctl, the contract):
 * SELinux, which has no attr/selinux/, is compared there only while it
 * is the interface LSM; whichever module is, its entries must also
 * equal the un-named files.
 */
static void attr_consistency(struct thr *t)
{
	size_t size = BUFPAGES * PAGE;
	char why[200], path[96], want[64];
	struct lsm_ctx *c;
	long n, i, ilsm = prctl_live ? prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) : -1;

	n = lsm_self_attr((struct lsm_ctx *)t->buf, &size, 0);
	t->calls++;
	if (n < 0) {
		viol(T_SELF, "thread call with a 64 KiB buffer: %s",
		     strerrorname_np(errno));
		return;
	}
	if (fz_check_ctx(t->buf, size, n, why, sizeof(why))) {
		viol(T_SELF, "relabelling thread's result: %s", why);
		return;
	}
	for (c = (void *)t->buf, i = 0; i < n;
	     c = (void *)(c->ctx + c->ctx_len), i++) {
		const char *a = kit_attr_name(c->flags);

		for (int unnamed = 0; unnamed < 2; unnamed++) {
			if (c->id == LSM_ID_SELINUX && ilsm >= 0 && ilsm != LSM_ID_SELINUX)
				break;	/* not shown anywhere else */
			if (unnamed && (c->id == LSM_ID_SELINUX || c->id != ilsm))
				break;
			if (c->id == LSM_ID_SELINUX || unnamed)
				snprintf(path, sizeof(path), "/proc/thread-self/attr/%s", a);
			else
				snprintf(path, sizeof(path), "/proc/thread-self/attr/%s/%s",
					 kit_lsm_name(c->id), a);
			read_text(path, want, sizeof(want));
			t->calls++;
			if (strcmp(want, (char *)c->ctx))
				viol(T_SELF, "entry %ld (%s, interface LSM %s) says \"%s\", %s says \"%s\"",
				     i, kit_lsm_name(c->id), ilsm >= 0 ? kit_lsm_name(ilsm) : "-",
				     (char *)c->ctx, path, want);
		}
	}
}

static void set_mac_admin(int on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return;
	if (on)
		d[CAP_MAC_ADMIN / 32].effective |= 1U << (CAP_MAC_ADMIN % 32);
	else
		d[CAP_MAC_ADMIN / 32].effective &= ~(1U << (CAP_MAC_ADMIN % 32));
	syscall(SYS_capset, &h, d);
}

static void *attr_thread(void *arg)
{
	struct thr *t = arg;

	for (long i = 0; i < t->ops; i++) {
		switch (fz_below(&t->r, 20)) {
		case 0:
			set_mac_admin(fz_below(&t->r, 3));
			break;
		case 1:
		case 2:
			attr_consistency(t);
			break;
		case 3: case 4: case 5: case 6: case 7: case 8:
			fuzz_attr_read(t); break;
		default:
			fuzz_attr_write(t);
			break;
		}
	}
	thr_done(t, T_ATTR);
	return NULL;
}

/* --- prctl(PR_LSM_ATTR_SET / PR_LSM_ATTR_GET) --- */

/*
 * Whether PR_LSM_ATTR_GET worked when the fuzzer started. Until part 2
 * of the series lands both options are -EINVAL, which the checks below
 * accept; once GET works, a plain GET and a well-formed SET are held to
 * the contract, with nothing to change here.
 */
static int prctl_live;

static int active_slot_id(long id)
{
	for (size_t i = 0; i < nids; i++)
		if (ids[i] == id)	/* the modules that keep secids */
			return id == LSM_ID_SELINUX || id == LSM_ID_SMACK ||
			       id == LSM_ID_APPARMOR || id == LSM_ID_BPF ||
			       id == LSM_ID_TOYLSM;
	return 0;
}

struct pstate {
	long g;
	int ge;
	char cur[64], toy[64];
	int curc, toyc;
};

static void pstate(struct thr *t, struct pstate *p)
{
	errno = 0;
	p->g = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	p->ge = errno;
	p->curc = read_file("/proc/thread-self/attr/current", p->cur, sizeof(p->cur));
	p->toyc = read_file("/proc/thread-self/attr/toylsm/current", p->toy,
			    sizeof(p->toy));
	t->calls += 3;
}

static unsigned long pick_arg(struct thr *t)
{
	static const unsigned long v[] = {
		1, 2, ULONG_MAX, 0x80000000UL, 1UL << 32, 44,
	};

	if (fz_below(&t->r, 5))
		return 0;
	return fz_one_in(&t->r, 3) ? fz_next(&t->r) : v[fz_below(&t->r, 6)];
}

static void fuzz_prctl(struct thr *t)
{
	static const long idv[] = {
		-1, 0, 1, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
		44, 45, 63, 64, 1000, INT_MAX, INT_MIN, (long)UINT_MAX,
		(1L << 32) | 44, (1L << 32) | 34, LONG_MIN,
	};
	struct pstate a, b;
	unsigned long id, a3, a4, a5;
	long r;
	int e, bad;

	switch (fz_below(&t->r, 6)) {
	case 0: {	/* every other option behaves as before */
		char nm[16], got[17] = "";

		snprintf(nm, sizeof(nm), "fz-%d-%ld", t->idx, (long)fz_below(&t->r, 100));
		if (prctl(PR_SET_NAME, nm, 0, 0, 0) ||
		    prctl(PR_GET_NAME, got, 0, 0, 0) || strcmp(got, nm))
			viol(T_PRCTL, "PR_SET_NAME \"%s\" / PR_GET_NAME gave \"%s\" (%s)",
			     nm, got, strerrorname_np(errno) ?: "0");
		r = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
		if (r != 0 && r != 1)
			viol(T_PRCTL, "PR_GET_DUMPABLE returned %ld", r);
		t->calls += 3;
		return;
	}
	case 1: {	/* GET with drawn arguments */
		unsigned long a2 = pick_arg(t);

		a3 = pick_arg(t);
		a4 = pick_arg(t);
		a5 = pick_arg(t);
		errno = 0;
		r = prctl(PR_LSM_ATTR_GET, a2, a3, a4, a5);
		e = errno;
		t->calls++;
		if (r < 0 && e != EINVAL)
			viol(T_PRCTL, "GET(%#lx,%#lx,%#lx,%#lx): %s, expected EINVAL or an ID",
			     a2, a3, a4, a5, strerrorname_np(e));
		if (r >= 0 && !(a2 | a3 | a4 | a5) && !active_slot_id(r))
			viol(T_PRCTL, "GET returned %ld: no active LSM with a slot", r);
		/* Strict once part 2 is in: a plain GET always answers. */
		if (prctl_live && r < 0 && !(a2 | a3 | a4 | a5))
			viol(T_PRCTL, "GET(0,0,0,0): %s, but it worked at the start",
			     strerrorname_np(e));
		return;
	}
	}
	/* SET: a rejected one changes nothing. */
	id = fz_below(&t->r, 3) ? (unsigned long)ids[fz_below(&t->r, nids)] :
		(unsigned long)idv[fz_below(&t->r, sizeof(idv) / sizeof(idv[0]))];
	a3 = pick_arg(t);
	a4 = pick_arg(t);
	a5 = pick_arg(t);
	bad = a3 || a4 || a5 || id > INT_MAX || !active_slot_id((long)id);
	pstate(t, &a);
	errno = 0;
	r = prctl(PR_LSM_ATTR_SET, id, a3, a4, a5);
	e = errno;
	t->calls++;
	pstate(t, &b);
	if (injected("prctl"))	/* a wrong expectation: GET moved */
		a.g += 1000;
	if (r < 0) {
		if (e != EINVAL && e != EPERM && e != EACCES)
			viol(T_PRCTL, "SET(%#lx,%#lx,%#lx,%#lx): %s, expected EINVAL/EPERM/EACCES",
			     id, a3, a4, a5, strerrorname_np(e));
		/* Strict once part 2 is in: a good SET is refused only by policy. */
		if (prctl_live && !bad && e == EINVAL)
			viol(T_PRCTL, "SET(%lu, 0, 0, 0) of an active LSM with a slot: EINVAL",
			     id);
		if (a.g != b.g || a.ge != b.ge || a.curc != b.curc ||
		    strcmp(a.cur, b.cur) || a.toyc != b.toyc ||
		    strcmp(a.toy, b.toy))
			viol(T_PRCTL, "rejected SET(%#lx,...) changed GET %ld->%ld or current \"%s\"->\"%s\"",
			     id, a.g, b.g, a.cur, b.cur);
		return;
	}
	if (r != 0 || bad)
		viol(T_PRCTL, "SET(%#lx,%#lx,%#lx,%#lx) returned %ld, expected %s",
		     id, a3, a4, a5, r, bad ? "EINVAL" : "0");
	else if (b.g != (long)id)
		viol(T_PRCTL, "SET(%lu) succeeded but GET returns %ld", id, b.g);
	if (a.toyc != b.toyc || strcmp(a.toy, b.toy))
		viol(T_PRCTL, "SET(%lu) changed the toylsm label", id);
}

/* Inherited across fork: the child's GET equals the parent's. */
static void prctl_fork(struct thr *t)
{
	long g = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	int st;
	pid_t pid = fork();

	t->calls++;
	if (!pid)
		_exit(prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) == g ? 0 : 1);
	if (pid > 0 && waitpid(pid, &st, 0) == pid && st)
		viol(T_PRCTL, "a forked child's GET differs from the parent's %ld", g);
}

static void *prctl_thread(void *arg)
{
	struct thr *t = arg;

	for (long i = 0; i < t->ops; i++) {
		if (t->idx == 0 && fz_one_in(&t->r, 400))
			prctl_fork(t);
		else if (fz_one_in(&t->r, 8))
			attr_consistency(t);
		else
			fuzz_prctl(t);
	}
	thr_done(t, T_PRCTL);
	return NULL;
}

/* --- toylsm's securityfs files --- */

#define TOYFS_RULES TOYLSM_FS "rules"
#define TOYFS_ENF TOYLSM_FS "enforce"
#define TOYFS_STATS TOYLSM_FS "stats"

/* The rule table as a set: perms of (subject, object), -1 for none. */
struct rules {
	signed char p[NVOCAB + 1][NVOCAB + 1];
	int n, foreign;		/* foreign: rules of labels not fz<N> */
};

static int vocab_index(const char *l)
{
	int i;
	char end;

	if (sscanf(l, "fz%d%c", &i, &end) == 1 && i >= 0 && i < NVOCAB)
		return i;
	return NVOCAB;	/* not ours */
}

static int perms_bits(const char *s)
{
	int b = 0;
	const char *p;

	if (!strcmp(s, "-"))
		return 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		p = strchr("rwxt", *s);
		if (!p || !*s || (b & (1 << (p - "rwxt"))))
			return -1;
		b |= 1 << (p - "rwxt");
	}
	return b;
}

/* Read the rules file: 0, or -1 with a violation for a bad line. */
static int read_rules(struct thr *t, struct rules *rs)
{
	char buf[8192], s[64], o[64], p[16], *line, *save;
	int n = read_file(TOYFS_RULES, buf, sizeof(buf)), b;

	t->calls++;
	memset(rs->p, -1, sizeof(rs->p));
	rs->n = 0;
	rs->foreign = 0;
	if (n < 0) {
		viol(T_SECFS, "reading rules: %s", strerrorname_np(-n));
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %63s %15s", s, o, p) == 3 &&
		    toy_valid(s, strlen(s)) && toy_valid(o, strlen(o)))
			b = perms_bits(p);
		else
			b = 0;
		if (b <= 0) {
			viol(T_SECFS, "rules file has a bad line \"%s\"", line);
			return -1;
		}
		rs->n++;
		if (vocab_index(s) == NVOCAB || vocab_index(o) == NVOCAB)
			rs->foreign++;
		else
			rs->p[vocab_index(s)][vocab_index(o)] = b;
	}
	if (rs->n > MAXRULES)
		viol(T_SECFS, "%d rules, more than the table's %d", rs->n, MAXRULES);
	return 0;
}

static const char *perm_text(int b, char *out)
{
	char *p = out;

	for (int i = 0; i < 4; i++)
		if (b & (1 << i))
			*p++ = "rwxt"[i];
	if (p == out)
		*p++ = '-';
	*p = '\0';
	return out;
}

/* Write rules text: 0 or -errno. */
static int write_rules(struct thr *t, const void *buf, size_t len, off_t off)
{
	int fd = open(TOYFS_RULES, O_WRONLY), r = 0;
	ssize_t n;

	t->calls += 2;
	if (fd < 0)
		return -errno;
	n = off ? pwrite(fd, buf, len, off) : write(fd, buf, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	close(fd);
	return r;
}

static void fuzz_rules_write(struct thr *t, int admin)
{
	static const char *const badperm[] = { "rr", "q", "rwxtr", "R", "-r", "--" };
	char text[PAGE + 64], pt[8];
	size_t len = 0;
	int lines = fz_below(&t->r, 4) ? 1 : 1 + (int)fz_below(&t->r, 160);
	int valid = 1, r, s, o, b, copied;
	struct rules before, after, want;
	struct bufarg ba = { text, sizeof(text), "text" };
	off_t off = fz_one_in(&t->r, 20) ? 1 : 0;

	if (read_rules(t, &before))
		return;
	want = before;
	for (int i = 0; i < lines && len < sizeof(text) - 80; i++) {
		s = fz_below(&t->r, NVOCAB);
		o = fz_below(&t->r, NVOCAB);
		b = fz_below(&t->r, 4) ? 1 + (int)fz_below(&t->r, 15) : 0;
		switch (fz_below(&t->r, 14)) {
		case 0:
			len += sprintf(text + len, "fz%d fz%d %s\n", s, o,
				       badperm[fz_below(&t->r, 6)]);
			valid = 0;
			break;
		case 1:
			len += sprintf(text + len, "fz%d %s\n", s, perm_text(b, pt));
			valid = 0;
			break;
		case 2:
			len += sprintf(text + len, "fz%d fz%d %s x\n", s, o, perm_text(b, pt));
			valid = 0;
			break;
		case 3:
			len += sprintf(text + len, "fz%d/ fz%d r\n", s, o);
			valid = 0;
			break;
		case 4:
			len += sprintf(text + len, "fz%d fz%d r", s, o);
			text[len++] = '\0';
			text[len++] = '\n';
			valid = 0;
			break;
		case 5:		/* an empty line is skipped */
			len += sprintf(text + len, "\n");
			break;
		default:
			len += sprintf(text + len, fz_one_in(&t->r, 3) ?
				       "\tfz%d  fz%d\t%s \n" : "fz%d fz%d %s\n",
				       s, o, perm_text(b, pt));
			want.p[s][o] = b ? b : -1;
			break;
		}
	}
	if (fz_one_in(&t->r, 40)) {	/* a page or more: -EINVAL */
		memset(text + len, '\n', sizeof(text) - len);
		len = PAGE + fz_below(&t->r, 2);
		valid = 0;
	}
	if (fz_one_in(&t->r, 20)) {
		ba = pick_buf(t, len);
		if (ba.p == t->buf)
			memcpy(ba.p, text, len);
	}
	want.n = want.foreign;
	for (s = 0; s < NVOCAB; s++)
		for (o = 0; o < NVOCAB; o++)
			want.n += want.p[s][o] > 0;

	copied = ba.p == text || ba.p == t->buf;
	r = write_rules(t, ba.p, len, off);
	if (read_rules(t, &after))
		return;
	if (injected("rules"))	/* a wrong expectation */
		before.p[0][0] = 99;
	if (r < 0) {
		if (memcmp(before.p, after.p, sizeof(before.p)) || before.n != after.n)
			viol(T_SECFS, "rejected rules write (%s, %zu bytes, %d lines) changed the rules (%d -> %d)",
			     strerrorname_np(-r), len, lines, before.n, after.n);
		/* The VFS checks the pointer (EFAULT) and pwrite (ESPIPE) first. */
		if (!admin && r != -EPERM && !(off && r == -ESPIPE) &&
		    !(!copied && r == -EFAULT))
			viol(T_SECFS, "rules write without CAP_MAC_ADMIN: %s", strerrorname_np(-r));
		else if (admin && copied && !off && valid && len < PAGE &&
			 !(r == -ENOSPC && want.n > MAXRULES))
			viol(T_SECFS, "valid rules (%d lines, %d rules after) rejected: %s",
			     lines, want.n, strerrorname_np(-r));
		return;
	}
	if (!copied && admin && !off && len < PAGE)
		return;	/* stale bytes of the buffer: nothing to predict */
	if (!admin || !valid || off || !copied || len >= PAGE)
		viol(T_SECFS, "rules write accepted (admin %d valid %d off %lld ptr %s len %zu)",
		     admin, valid, (long long)off, ba.what, len);
	else if (want.n > MAXRULES)
		viol(T_SECFS, "rules write accepted %d rules, more than %d", want.n, MAXRULES);
	else if (memcmp(want.p, after.p, sizeof(want.p)))
		viol(T_SECFS, "rules after a write differ from the rules written");
}

static int read_enforce(struct thr *t)
{
	char buf[16];
	int n = read_file(TOYFS_ENF, buf, sizeof(buf));

	t->calls++;
	if (n == 2 && (buf[0] == '0' || buf[0] == '1') && buf[1] == '\n')
		return buf[0] - '0';
	viol(T_SECFS, "enforce reads \"%s\" (%d)", n > 0 ? buf : "", n);
	return -1;
}

static void fuzz_enforce_write(struct thr *t, int admin)
{
	static const struct { const char *s; int want; } v[] = {
		{ "0", 0 }, { "1", 1 }, { "0\n", 0 }, { "1\n", 1 },
		{ "2", -1 }, { "-1", -1 }, { " 1", -1 }, { "", -1 }, { "x", -1 },
		{ "10", -1 }, { "0x1", -1 }, { "1\n\n", -2 }, { "01", -2 },
		{ "+1", -2 }, { "1 ", -2 },
	};
	int i = fz_below(&t->r, sizeof(v) / sizeof(v[0])), before, after, r;

	before = read_enforce(t);
	r = write_string(TOYFS_ENF, v[i].s);
	t->calls += 2;
	after = read_enforce(t);
	if (r < 0 && before != after)
		viol(T_SECFS, "rejected enforce \"%s\" changed %d -> %d", v[i].s, before, after);
	if (r == 0 && (!admin || v[i].want == -1))
		viol(T_SECFS, "enforce accepted \"%s\" (admin %d)", v[i].s, admin);
	if (r == 0 && v[i].want >= 0 && after != v[i].want)
		viol(T_SECFS, "enforce \"%s\" reads %d", v[i].s, after);
	if (r < 0 && admin && v[i].want >= 0)
		viol(T_SECFS, "enforce \"%s\": %s", v[i].s, strerrorname_np(-r));
}

static void fuzz_secfs_read(struct thr *t)
{
	static const char *const files[] = { TOYFS_RULES, TOYFS_ENF, TOYFS_STATS };
	static const off_t offs[] = { 1, 7, 100, 4096, 1LL << 40, -1 };
	int which = fz_below(&t->r, 3), fd;
	struct bufarg b = pick_buf(t, 256);
	size_t len = pick_size(t, 256);
	off_t off = fz_below(&t->r, 2) ? 0 : offs[fz_below(&t->r, 6)];

	if (fz_below(&t->r, 3) == 0) {	/* stats: parse, counters only grow */
		char buf[4096], name[64], *line, *save;
		long c, d;
		int i = 0;

		if (read_file(TOYFS_STATS, buf, sizeof(buf)) <= 0) {
			viol(T_SECFS, "stats cannot be read: %s", strerrorname_np(errno));
			return;
		}
		t->calls++;
		for (line = strtok_r(buf, "\n", &save); line && i < 32;
		     line = strtok_r(NULL, "\n", &save), i++) {
			if (sscanf(line, "%63s %ld %ld", name, &c, &d) != 3 || d > c ||
			    d < 0) {
				viol(T_SECFS, "stats line \"%s\"", line);
				return;
			}
			if (t->have_stats && c < t->stats[i])
				viol(T_SECFS, "stats %s calls went back %ld -> %ld",
				     name, t->stats[i], c);
			t->stats[i] = c;
		}
		/* docs/toylsm.md, "stats": 24 hooks check rules */
		if (i != 24)
			viol(T_SECFS, "stats has %d lines, expected 24", i);
		t->have_stats = 1;
		return;
	}
	fd = open(files[which], fz_one_in(&t->r, 6) ? O_RDWR : O_RDONLY);
	t->calls++;
	if (fd < 0)
		return;
	if (fz_one_in(&t->r, 4)) {
		lseek(fd, fz_one_in(&t->r, 2) ? 0 : 3, fz_one_in(&t->r, 2) ? SEEK_END : SEEK_CUR);
		t->calls++;
	}
	if (off ? pread(fd, b.p, len, off) : read(fd, b.p, len))
		t->calls++;
	if (fz_one_in(&t->r, 3) && read(fd, t->buf, 64) >= 0)
		t->calls++;
	close(fd);
}

static void *secfs_thread(void *arg)
{
	struct thr *t = arg;
	int admin = 1;

	for (long i = 0; i < t->ops; i++) {
		if (t->idx != 0) {
			fuzz_secfs_read(t);
			continue;
		}
		if (fz_one_in(&t->r, 25)) {
			admin = !fz_one_in(&t->r, 3);
			set_mac_admin(admin);
		}
		if (fz_one_in(&t->r, 5))
			fuzz_enforce_write(t, admin);
		else
			fuzz_rules_write(t, admin);
	}
	if (t->idx == 0) {	/* leave no rule of ours, enforce on */
		char text[PAGE];
		size_t len = 0;

		set_mac_admin(1);
		for (int s = 0; s < NVOCAB; s++) {
			for (int o = 0; o < NVOCAB; o++)
				len += sprintf(text + len, "fz%d fz%d -\n", s, o);
			if (s % 6 == 5) {
				if (write_rules(t, text, len, 0))
					viol(T_SECFS, "removing the fuzzer's rules failed");
				len = 0;
			}
		}
		write_string(TOYFS_ENF, "1");
	}
	thr_done(t, T_SECFS);
	return NULL;
}

/* --- labels racing exec --- */

static void *exec_racer(void *arg)
{
	struct thr *t = arg;
	char l[16];

	for (;;) {
		snprintf(l, sizeof(l), "fz%d", (int)fz_below(&t->r, NVOCAB));
		switch (fz_below(&t->r, 4)) {
		case 0:
			write_string(TOYLSM_ATTR "current", l);
			break;
		case 1:
			write_string(TOYLSM_ATTR "exec", l);
			break;
		case 2:
			toylsm_label();
			break;
		default: {
			size_t size = BUFPAGES * PAGE;

			lsm_self_attr((struct lsm_ctx *)t->buf, &size, 0);
		}
		}
	}
	return NULL;
}

struct exec_plan {
	struct thr *t;
	int by_thread;
	char want_cur[48], want_prev[48];
};

static void do_exec(struct exec_plan *p)
{
	char l[16], cur[48], prev[48];
	int r;

	snprintf(l, sizeof(l), "fz%d", (int)fz_below(&p->t->r, NVOCAB));
	r = fz_one_in(&p->t->r, 4) ? -1 : write_string(TOYLSM_ATTR "exec", l);
	read_file(TOYLSM_ATTR "current", cur, sizeof(cur));
	read_file(TOYLSM_ATTR "prev", prev, sizeof(prev));
	cur[strcspn(cur, "\n")] = '\0';
	prev[strcspn(prev, "\n")] = '\0';
	if (r == 0) {
		snprintf(p->want_cur, sizeof(p->want_cur), "%s", l);
		snprintf(p->want_prev, sizeof(p->want_prev), "%s", cur);
	} else {	/* no exec label of this thread: unless one was left */
		char ex[48];

		read_file(TOYLSM_ATTR "exec", ex, sizeof(ex));
		ex[strcspn(ex, "\n")] = '\0';
		snprintf(p->want_cur, sizeof(p->want_cur), "%s", *ex ? ex : cur);
		snprintf(p->want_prev, sizeof(p->want_prev), "%s", *ex ? cur : prev);
	}
	if (injected("exec"))	/* a wrong expectation: another label */
		snprintf(p->want_cur, sizeof(p->want_cur), "fz-canary");
	for (int i = fz_below(&p->t->r, 2000); i > 0; i--)
		__asm__ volatile("" ::: "memory");
	execl(self_exe, "fuzz_lsm", "--exec-check", p->want_cur,
	      p->want_prev, (char *)NULL);
	_exit(100);
}

static void *exec_thread_main(void *arg)
{
	do_exec(arg);
	return NULL;
}

static void exec_once(struct thr *t, long i)
{
	struct thr racers[2];
	struct exec_plan plan = { t, 0, "", "" };
	pthread_t th;
	int st;
	uint64_t k = fz_next(&t->r);	/* each child its own draws */
	pid_t pid = fork();

	t->calls++;
	if (pid < 0)
		return;
	if (pid == 0) {
		t->r.s = k;
		for (int k = 0; k < 2; k++) {
			if (thr_setup(&racers[k], T_EXEC, 1000 + (int)i * 2 + k))
				_exit(101);
			pthread_create(&racers[k].th, NULL, exec_racer, &racers[k]);
		}
		sched_yield();
		if (fz_one_in(&t->r, 3)) {	/* a non-leader thread execs */
			pthread_create(&th, NULL, exec_thread_main, &plan);
			pause();
		}
		do_exec(&plan);
	}
	t->calls++;	/* the execve */
	if (waitpid(pid, &st, 0) != pid)
		viol(T_EXEC, "waitpid: %s", strerrorname_np(errno));
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		viol(T_EXEC, "exec %ld: child %s %d (3: labels wrong after exec, see its line above; 100: execve failed)",
		     i, WIFEXITED(st) ? "exited" : "killed by signal",
		     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* The exec'd image: are the labels what the exec transition promises? */
static int exec_check(const char *want_cur, const char *want_prev)
{
	char cur[48], ex[48], prev[48], why[200];
	uint8_t buf[PAGE];
	size_t size = sizeof(buf);
	long n;

	read_file(TOYLSM_ATTR "current", cur, sizeof(cur));
	read_file(TOYLSM_ATTR "exec", ex, sizeof(ex));
	read_file(TOYLSM_ATTR "prev", prev, sizeof(prev));
	cur[strcspn(cur, "\n")] = '\0';
	ex[strcspn(ex, "\n")] = '\0';
	prev[strcspn(prev, "\n")] = '\0';
	if (strcmp(cur, want_cur) || strcmp(prev, want_prev) || *ex) {
		fprintf(stderr, "# exec-check: current \"%s\" prev \"%s\" exec \"%s\", expected \"%s\" \"%s\" \"\"\n",
			cur, prev, ex, want_cur, want_prev);
		return 3;
	}
	n = lsm_self_attr((struct lsm_ctx *)buf, &size, 0);
	if (n < 0 || fz_check_ctx(buf, size, n, why, sizeof(why))) {
		fprintf(stderr, "# exec-check: lsm_self_attr %ld: %s\n", n,
			n < 0 ? strerrorname_np(errno) : why);
		return 3;
	}
	return 0;
}

static void *exec_thread(void *arg)
{
	struct thr *t = arg;

	for (long i = 0; i < t->ops; i++)
		exec_once(t, i);
	thr_done(t, T_EXEC);
	return NULL;
}

/* --- SO_PEERSEC: getsockopt with odd lengths and buffers --- */

struct peer {
	int fd[2], type, err;	/* err: errno of the reference call, or 0 */
	char ctx[256];
	socklen_t len;
};

static void peer_open(struct thr *t, struct peer *p)
{
	static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };

	p->type = types[fz_below(&t->r, 3)];
	p->fd[0] = -1;
	p->fd[1] = -1;
	if (socketpair(AF_UNIX, p->type, 0, p->fd)) {
		p->err = -1;
		return;
	}
	p->len = sizeof(p->ctx);
	p->err = getsockopt(p->fd[0], SOL_SOCKET, SO_PEERSEC, p->ctx, &p->len) ?
		errno : 0;
	if (injected("sock") && !p->err && p->len)	/* a wrong expectation */
		p->ctx[0] ^= 1;
	t->calls += 2;
}

static void peer_close(struct peer *p)
{
	if (p->fd[0] >= 0)
		close(p->fd[0]);
	if (p->fd[1] >= 0)
		close(p->fd[1]);
}

/*
 * One getsockopt(SO_PEERSEC) with drawn buffer and length against the
 * socket's reference result: the same error, or the same bytes and
 * length; -ERANGE reports the length needed; a negative length is
 * -EINVAL; an unusable pointer is -EFAULT.
 */
static void fuzz_peersec(struct thr *t, struct peer *p)
{
	static const socklen_t lens[] = {
		0, 1, 2, 7, 8, 255, 256, 4096, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	struct bufarg b = pick_buf(t, p->len);
	socklen_t len, *lp = (socklen_t *)t->szbuf, got;
	int r, e, lw = 1;

	switch (fz_below(&t->r, 6)) {
	case 0:
		len = p->len ? p->len - 1 : 0;
		break;
	case 1:
		len = p->len;
		break;
	case 2:
		len = p->len + 1;
		break;
	default:
		len = lens[fz_below(&t->r, sizeof(lens) / sizeof(lens[0]))];
	}
	switch (fz_below(&t->r, 12)) {
	case 0:
		lp = NULL;
		lw = 0;
		break;
	case 1:
		lp = (socklen_t *)(ro_page + 64);
		lw = 0;
		len = *lp;
		break;
	case 2:
		lp = (socklen_t *)(t->szguard - 2);
		lw = 0;
		break;
	case 3:
		lp = (socklen_t *)(t->szguard - 4);
		break;
	}
	if (lw)
		memcpy(lp, &len, sizeof(len));
	snprintf(lastop, sizeof(lastop), "getsockopt(SO_PEERSEC) on a %s pair, buf %s %p avail %zu, optlen %p = %u (reference: %s, %u bytes)",
		 p->type == SOCK_STREAM ? "stream" : p->type == SOCK_DGRAM ?
		 "datagram" : "seqpacket", b.what, b.p, b.avail, (void *)lp, len,
		 p->err ? strerrorname_np(p->err) : "ok", p->len);
	errno = 0;
	r = getsockopt(p->fd[0], SOL_SOCKET, SO_PEERSEC, b.p, lp);
	e = r ? errno : 0;
	t->calls++;
	got = lw ? *(volatile socklen_t *)lp : 0;

	if (!lw) {	/* the length cannot be read or written */
		if (!r)
			viol(T_SOCK, "succeeded with an unusable optlen (%s)", lastop);
		else if (e != EFAULT && e != p->err && !(len > INT_MAX && e == EINVAL))
			viol(T_SOCK, "%s, expected EFAULT (%s)", strerrorname_np(e), lastop);
		return;
	}
	if (len > INT_MAX) {	/* a negative int */
		if (e != EINVAL)
			viol(T_SOCK, "a negative optlen gave %s, expected EINVAL (%s)",
			     r ? strerrorname_np(e) : "success", lastop);
		return;
	}
	if (p->err) {	/* no LSM answers for this socket */
		if (e != p->err && e != EFAULT)
			viol(T_SOCK, "%s, the reference call said %s (%s)",
			     r ? strerrorname_np(e) : "success",
			     strerrorname_np(p->err), lastop);
		return;
	}
	if (len < p->len) {
		if (e != ERANGE && e != EFAULT)
			viol(T_SOCK, "%s, expected ERANGE (%s)",
			     r ? strerrorname_np(e) : "success", lastop);
		else if (e == ERANGE && got != p->len)
			viol(T_SOCK, "ERANGE set optlen %u, needed %u (%s)", got,
			     p->len, lastop);
		return;
	}
	if (b.avail < p->len) {
		if (e != EFAULT)
			viol(T_SOCK, "%s into an unwritable buffer, expected EFAULT (%s)",
			     r ? strerrorname_np(e) : "success", lastop);
		return;
	}
	if (r)
		viol(T_SOCK, "%s, expected %u bytes (%s)", strerrorname_np(e),
		     p->len, lastop);
	else if (got != p->len || memcmp(b.p, p->ctx, p->len))
		viol(T_SOCK, "returned %u bytes \"%.*s\", the reference %u \"%.*s\" (%s)",
		     got, (int)(got < 64 ? got : 64), (char *)b.p, p->len,
		     (int)p->len, p->ctx, lastop);
}

static void *sock_thread(void *arg)
{
	struct thr *t = arg;
	struct peer p;

	peer_open(t, &p);
	for (long i = 0; i < t->ops; i++) {
		if (fz_one_in(&t->r, 64)) {
			peer_close(&p);
			peer_open(t, &p);
		}
		if (p.err >= 0)
			fuzz_peersec(t, &p);
	}
	peer_close(&p);
	thr_done(t, T_SOCK);
	return NULL;
}

/* --- the interface LSM flipping while other threads read its contexts --- */

/*
 * One process: thread 0 flips its interface LSM (PR_LSM_ATTR_SET) in a
 * loop; the other threads read the un-named /proc/<pid>/task/<tid>/
 * attr/current of that thread and getsockopt(SO_PEERSEC) on sockets it
 * created (a socketpair and a connected pair), and now and then flip
 * their own interface LSM. The kernel answers un-named interfaces for
 * the caller's interface LSM (the contract), so every read must be a clean
 * errno or a context that parses, one of the active slot modules'
 * contexts of the flipping thread, and exactly the one of the reader's
 * own interface LSM at the time; the flipping thread's own reads follow
 * its flips at once. The references are taken by the flipping thread
 * before the others start: for each slot module, what it reads itself.
 */
#define FLIP_MODS	8

struct flipval {
	int err;		/* errno, or 0 */
	int len;
	char v[256];
};

static struct {
	atomic_int ready;	/* 1: references taken; -1: setup failed */
	pid_t tid;		/* the flipping thread */
	char path[64];		/* /proc/<pid>/task/<tid>/attr/current */
	int sock[2][2];		/* a socketpair, a connected pair */
	int nmods;
	long mods[FLIP_MODS];	/* the active modules with a slot */
	int usable[FLIP_MODS];	/* SET of it worked when references were taken */
	struct flipval attr[FLIP_MODS], peer[2][FLIP_MODS];
} fl;

static int flip_index(long id)
{
	for (int i = 0; i < fl.nmods; i++)
		if (fl.mods[i] == id)
			return i;
	return -1;
}

static void flip_read_attr(int fd, struct flipval *o)
{
	int own = fd < 0;
	ssize_t n;

	memset(o, 0, sizeof(*o));
	if (own)
		fd = open(fl.path, O_RDONLY);
	if (own && fd < 0) {
		o->err = errno;
		return;
	}
	n = pread(fd, o->v, sizeof(o->v) - 1, 0);
	if (n < 0)
		o->err = errno;
	else
		o->len = (int)n;
	if (own)
		close(fd);
}

static void flip_peersec(int fd, struct flipval *o)
{
	socklen_t len = sizeof(o->v) - 1;

	memset(o, 0, sizeof(*o));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, o->v, &len))
		o->err = errno;
	else
		o->len = (int)len;
}

static int flip_same(const struct flipval *a, const struct flipval *b)
{
	return a->err == b->err &&
	       (a->err || (a->len == b->len && !memcmp(a->v, b->v, a->len)));
}

/*
 * What is wrong with a value read, or NULL: a clean errno, or printable
 * text with at most a newline or NUL at its end; toylsm's /proc text is
 * "LABEL\n" (the contract) and its SO_PEERSEC "LABEL\0" (demo-lsm/net.c).
 */
static const char *flip_bad(const struct flipval *o, long mod, int peer)
{
	static const int clean[] = { EINVAL, ENOPROTOOPT, EOPNOTSUPP, EACCES, EPERM };

	if (o->err) {
		for (size_t i = 0; i < sizeof(clean) / sizeof(clean[0]); i++)
			if (o->err == clean[i])
				return NULL;
		return "an unexpected errno";
	}
	if (o->len <= 0 || o->len >= (int)sizeof(o->v) - 1)
		return o->len <= 0 ? "an empty value" : "a value that fills the buffer";
	for (int i = 0; i < o->len; i++) {
		unsigned char c = o->v[i];

		if ((c == '\n' || c == '\0') && i == o->len - 1)
			break;
		if (c < 0x20 || c >= 0x7f)
			return "a control, NUL or non-ASCII byte inside";
	}
	if (mod == LSM_ID_TOYLSM) {
		char last = o->v[o->len - 1];

		if (last != (peer ? '\0' : '\n') || !toy_valid(o->v, o->len - 1))
			return peer ? "toylsm's SO_PEERSEC is not LABEL\\0" :
				      "toylsm's current is not LABEL\\n";
	}
	return NULL;
}

/* Check one read by a thread whose interface LSM is fl.mods[cur]. */
static void flip_check(const struct flipval *o, int cur, int peer, int s,
		       const char *who)
{
	const struct flipval *ref = peer ? fl.peer[s] : fl.attr;
	const char *what = peer ? (s ? "SO_PEERSEC (connected pair)" :
				   "SO_PEERSEC (socketpair)") : fl.path;
	const char *bad = flip_bad(o, fl.mods[cur], peer);
	int any = -1;

	for (int i = 0; i < fl.nmods && any < 0; i++)
		if (fl.usable[i] && flip_same(o, &ref[i]))
			any = i;
	if (bad)
		viol(T_FLIP, "%s, interface %s: %s gave %s (%s, %d bytes \"%.*s\")",
		     who, kit_lsm_name(fl.mods[cur]), what, bad,
		     o->err ? strerrorname_np(o->err) : "ok", o->len,
		     o->len > 0 ? (int)strcspn(o->v, "\n") : 0, o->v);
	else if (any < 0 && !o->err)
		viol(T_FLIP, "%s, interface %s: %s gave \"%.*s\", no active module's context",
		     who, kit_lsm_name(fl.mods[cur]), what, (int)strcspn(o->v, "\n"), o->v);
	else if (fl.usable[cur] && !flip_same(o, &ref[cur]))
		viol(T_FLIP, "%s, interface %s: %s gave %s \"%.*s\", expected %s \"%.*s\"%s%s",
		     who, kit_lsm_name(fl.mods[cur]), what,
		     o->err ? strerrorname_np(o->err) : "ok",
		     o->err ? 0 : (int)strcspn(o->v, "\n"), o->v,
		     ref[cur].err ? strerrorname_np(ref[cur].err) : "ok",
		     ref[cur].err ? 0 : (int)strcspn(ref[cur].v, "\n"), ref[cur].v,
		     any >= 0 ? ": the context of " : "",
		     any >= 0 ? kit_lsm_name(fl.mods[any]) : "");
}

/* A listening abstract AF_UNIX socket and both ends of a connection. */
static int flip_connected_pair(int sv[2])
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t alen;
	int l = socket(AF_UNIX, SOCK_STREAM, 0), r = -1;

	snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "kit-fuzz-flip-%d", getpid());
	alen = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a.sun_path + 1);
	sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (l >= 0 && sv[0] >= 0 && !bind(l, (struct sockaddr *)&a, alen) &&
	    !listen(l, 1) && !connect(sv[0], (struct sockaddr *)&a, alen)) {
		sv[1] = accept(l, NULL, NULL);
		r = sv[1] < 0 ? -1 : 0;
	}
	if (l >= 0)
		close(l);
	return r;
}

/* The flipping thread: sockets, references, then the flips. */
static int flip_setup(struct thr *t)
{
	long start = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
	const char *bad;

	fl.tid = gettid();
	snprintf(fl.path, sizeof(fl.path), "/proc/%d/task/%d/attr/current",
		 getpid(), fl.tid);
	for (size_t i = 0; i < nids && fl.nmods < FLIP_MODS; i++)
		if (active_slot_id(ids[i]))
			fl.mods[fl.nmods++] = ids[i];
	if (!fl.nmods || start < 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, fl.sock[0]) ||
	    flip_connected_pair(fl.sock[1])) {
		viol(T_FLIP, "setup: %d modules with a slot, GET %ld, sockets: %s",
		     fl.nmods, start, strerrorname_np(errno) ?: "0");
		return -1;
	}
	for (int i = 0; i < fl.nmods; i++) {
		fl.usable[i] = !prctl(PR_LSM_ATTR_SET, fl.mods[i], 0, 0, 0) &&
			       prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) == fl.mods[i];
		t->calls += 2;
		if (!fl.usable[i])
			continue;
		flip_read_attr(-1, &fl.attr[i]);
		flip_peersec(fl.sock[0][0], &fl.peer[0][i]);
		flip_peersec(fl.sock[1][1], &fl.peer[1][i]);
		t->calls += 5;
		for (int k = 0; k < 3; k++) {
			const struct flipval *o = k ? &fl.peer[k - 1][i] : &fl.attr[i];

			bad = flip_bad(o, fl.mods[i], k > 0);
			if (bad)
				viol(T_FLIP, "reference of %s (%s): %s", kit_lsm_name(fl.mods[i]),
				     k ? "SO_PEERSEC" : "attr/current", bad);
		}
	}
	for (int i = 0, k = 0; i < fl.nmods && k < (int)sizeof(sh->flipref); i++) {
		char v[3][48];

		for (int j = 0; j < 3; j++) {
			const struct flipval *o = j ? &fl.peer[j - 1][i] : &fl.attr[i];

			if (o->err)
				snprintf(v[j], sizeof(v[j]), "%s", strerrorname_np(o->err));
			else
				snprintf(v[j], sizeof(v[j]), "\"%.*s\"%s", (int)strcspn(o->v, "\n"),
					 o->v, o->v[o->len - 1] == '\n' ? "+\\n" :
					 o->v[o->len - 1] == '\0' ? "+\\0" : "");
		}
		k += snprintf(sh->flipref + k, sizeof(sh->flipref) - k,
			      "%s%s: current %s, SO_PEERSEC %s / %s%s", i ? "; " : "",
			      kit_lsm_name(fl.mods[i]), v[0], v[1], v[2],
			      fl.usable[i] ? "" : " (SET refused)");
	}
	if (injected("flip") && fl.usable[0] && !fl.attr[0].err)	/* a wrong expectation */
		fl.attr[0].v[0] ^= 1;
	if (prctl(PR_LSM_ATTR_SET, start, 0, 0, 0))
		return -1;
	return 0;
}

static void *flip_thread(void *arg)
{
	static const long badid[] = { -1, 0, LSM_ID_CAPABILITY, LSM_ID_LANDLOCK, 9999 };
	struct thr *t = arg;
	struct flipval o;
	int cur, fd = -1, i;
	long g, id;

	if (t->idx % 16 == 0) {
		atomic_store(&fl.ready, flip_setup(t) ? -1 : 1);
	} else {
		while (!atomic_load(&fl.ready))
			sched_yield();
		fd = open(fl.path, O_RDONLY);	/* opened once, read again and again */
	}
	if (atomic_load(&fl.ready) < 0)
		goto out;
	cur = flip_index(prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0));
	for (long n = 0; n < t->ops && cur >= 0; n++) {
		int me = t->idx % 16 == 0, flip = me || fz_one_in(&t->r, 8);

		if (flip) {
			int bad = fz_one_in(&t->r, 16);

			id = bad ? badid[fz_below(&t->r, 5)] : fl.mods[fz_below(&t->r, fl.nmods)];
			errno = 0;
			if (!prctl(PR_LSM_ATTR_SET, id, 0, 0, 0)) {
				if (bad)
					viol(T_FLIP, "SET(%ld), no module with a slot, succeeded",
					     id);
				else
					cur = flip_index(id);
			} else if (bad ? errno != EINVAL : errno != EPERM && errno != EACCES) {
				viol(T_FLIP, "SET(%ld): %s, expected %s", id,
				     strerrorname_np(errno), bad ? "EINVAL" : "success or EPERM/EACCES");
			}
			g = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);
			t->calls += 2;
			if (cur < 0 || g != fl.mods[cur]) {
				viol(T_FLIP, "GET %ld after SET(%ld), expected %ld", g, id,
				     cur < 0 ? -1 : fl.mods[cur]);
				break;
			}
			if (!me)
				continue;
		}
		/* Reads: the flipping thread its own, the others its. */
		i = (int)fz_below(&t->r, 4);
		if (i == 0 || (i == 1 && fd < 0)) {
			flip_read_attr(-1, &o);
			t->calls += 3;
			flip_check(&o, cur, 0, 0, me ? "the flipping thread itself" :
				   "a reader, fresh open");
		} else if (i == 1) {
			flip_read_attr(fd, &o);
			t->calls++;
			flip_check(&o, cur, 0, 0, "a reader, fd opened once");
		} else {
			int s = (int)fz_below(&t->r, 2);

			flip_peersec(fl.sock[s][fz_below(&t->r, 2)], &o);
			t->calls++;
			flip_check(&o, cur, 1, s, me ? "the flipping thread itself" :
				   "a reader");
		}
	}
out:
	if (fd >= 0)
		close(fd);
	thr_done(t, T_FLIP);
	return NULL;
}

/* --- the syscall workers --- */

static void *sys_thread(void *arg)
{
	struct thr *t = arg;
	long mods = 0;

	for (long i = 0; i < t->ops; i++) {
		if (fz_one_in(&t->r, 4)) {
			long c = t->calls;

			fuzz_syscall(t, 1);
			mods += t->calls - c;
		} else {
			fuzz_syscall(t, 0);
		}
	}
	atomic_fetch_add(&sh->calls[T_MODS], mods);
	t->calls -= mods;
	thr_done(t, T_SELF);
	return NULL;
}

/* --- processes --- */

struct role {
	int target, procs, threads, share;	/* share: per mille of ops */
	void *(*fn)(void *arg);
};

static const struct role roles[] = {
	/*
	 * Shares of the operations: the cheap syscalls take most, the
	 * file, fork and exec roles (5 to 20 calls an operation, 20 ms an
	 * operation on the debug kernel) a few per mille.
	 */
	{ T_SELF, 2, 2, 902, sys_thread },
	{ T_ATTR, 1, 3, 8, attr_thread },
	{ T_PRCTL, 1, 2, 5, prctl_thread },
	{ T_SECFS, 1, 3, 5, secfs_thread },
	{ T_SOCK, 1, 2, 50, sock_thread },
	{ T_EXEC, 1, 1, 0, exec_thread },
	/* One thread flips its interface LSM, two read its contexts. */
	{ T_FLIP, 1, 3, 30, flip_thread },
};

#define NROLES (sizeof(roles) / sizeof(roles[0]))

static double now_s(void);

static void run_role(const struct role *ro, int proc, long ops)
{
	struct thr th[8];
	int n = ro->threads;
	double t0 = now_s();
	long us;

	if (take_reference())
		_exit(1);
	for (int i = 0; i < n; i++) {
		if (thr_setup(&th[i], ro->target, proc * 16 + i)) {
			viol(ro->target, "cannot map the buffers");
			_exit(1);
		}
		th[i].ops = ops / n + (i < ops % n);
	}
	for (int i = 1; i < n; i++)
		if (pthread_create(&th[i].th, NULL, ro->fn, &th[i])) {
			viol(ro->target, "pthread_create failed");
			_exit(1);
		}
	ro->fn(&th[0]);
	for (int i = 1; i < n; i++)
		pthread_join(th[i].th, NULL);
	us = (long)((now_s() - t0) * 1e6);
	for (long old = sh->usecs[ro->target]; old < us &&
	     !atomic_compare_exchange_weak(&sh->usecs[ro->target], &old, us);)
		;
	_exit(0);
}

/* --- the checkers' own tests: they must fail on the wrong thing --- */

static int selftest_ctx_checker(char *why, size_t len)
{
	uint8_t good[64] = { 0 }, bad[64];
	struct lsm_ctx *c = (void *)good, *b = (void *)bad;
	int caught = 0, ncases = 0;
	char w[200];

	/* One good entry: toylsm current "abc" (ctx_len 8) and smack "_". */
	c->id = LSM_ID_TOYLSM; c->flags = LSM_ATTR_CURRENT; c->ctx_len = 8;
	memcpy(c->ctx, "abc", 3);
	c = (void *)(good + 24);
	c->id = LSM_ID_SMACK; c->flags = LSM_ATTR_CURRENT; c->ctx_len = 8;
	c->ctx[0] = '_';
	if (fz_check_ctx(good, 48, 2, w, sizeof(w))) {
		snprintf(why, len, "a good result is rejected: %s", w);
		return -1;
	}
#define BAD(stmt, sz, cnt)						\
	do {								\
		memcpy(bad, good, 64);					\
		stmt;							\
		ncases++;						\
		caught += fz_check_ctx(bad, sz, cnt, w, sizeof(w)) != 0; \
	} while (0)
	BAD((void)0, 48, 3);			/* wrong count */
	BAD((void)0, 44, 2);			/* size not a multiple of 8 */
	BAD(b->ctx_len = 12, 48, 2);		/* ctx_len not a multiple of 8 */
	BAD(b->ctx_len = 16, 48, 2);		/* ctx_len too big for the value */
	BAD(memset(b->ctx, 'a', 8), 48, 2);	/* no NUL */
	BAD(b->ctx[6] = 'x', 48, 2);		/* padding not zero */
	BAD(b->flags = 3, 48, 2);		/* two flag bits */
	BAD(b->flags = 0, 48, 2);		/* no flag bit */
	BAD(b->id = 99, 48, 2);			/* unknown id */
	BAD(b->id = LSM_ID_CAPABILITY, 48, 2);	/* capability has no attrs */
	BAD(b->ctx[2] = '\n', 48, 2);		/* trailing newline kept */
	BAD(memset(b->ctx, 0, 8), 48, 2);	/* empty value */
	BAD((void)0, 40, 2);			/* second entry cut */
#undef BAD
	snprintf(why, len, "%d of %d corrupted results rejected", caught, ncases);
	return caught == ncases ? 0 : -1;
}

static int selftest_log_scanner(char *why, size_t len)
{
	static const char *const splats[] = {
		"BUG: KASAN: slab-out-of-bounds in lsm_self_attr+0x1c/0x200",
		"UBSAN: array-index-out-of-bounds in security/lsm_syscalls.c:90:3",
		"WARNING: possible circular locking dependency detected",
		"WARNING: inconsistent lock state",
		"WARNING: suspicious RCU usage",
		"rcu: INFO: rcu_sched detected stalls on CPUs/tasks:",
		"rcu: INFO: rcu_preempt self-detected stall on CPU",
		"INFO: task fuzz_lsm:123 blocked for more than 30 seconds.",
		"Call Trace:", "kernel BUG at security/toylsm/label.c:12!",
		"WARNING: CPU: 1 PID: 77 at security/security.c:1 x+0x1/0x2",
		"watchdog: BUG: soft lockup - CPU#0 stuck for 22s!",
		"list_add corruption. prev->next should be next",
		"general protection fault, probably for non-canonical address",
	};
	static const char *const benign[] = {
		"toylsm: initialized", "LSM: initializing lsm=capability,landlock",
		"audit: type=1400 toylsm=denied hook=setprocattr subject=\"fz1\"",
		"Run /init as init process",
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(splats) / sizeof(splats[0]); i++)
		if (!fz_splat_word(splats[i])) {
			snprintf(why, len, "missed \"%s\"", splats[i]);
			bad++;
		}
	for (size_t i = 0; i < sizeof(benign) / sizeof(benign[0]); i++)
		if (fz_splat_word(benign[i])) {
			snprintf(why, len, "flagged \"%s\"", benign[i]);
			bad++;
		}
	if (!bad)
		snprintf(why, len, "%zu splat lines flagged, %zu ordinary lines passed",
			 sizeof(splats) / sizeof(splats[0]),
			 sizeof(benign) / sizeof(benign[0]));
	return bad ? -1 : 0;
}

/* --- main: the checker --- */

static int check_modlist(void)
{
	uint32_t now[32];
	size_t size = sizeof(now);
	long n = lsm_module_list(now, &size, 0);

	atomic_fetch_add(&sh->calls[T_MODS], 1);
	if (n != (long)nids || size != nids * 4 || memcmp(now, ids, size)) {
		viol(T_MODS, "the module list changed: %ld entries now (%s), %zu at the start",
		     n, n < 0 ? strerrorname_np(errno) : "ok", nids);
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Options and references, set by main() before the harness forks. */
static long ops;
static int have_ref;
static char ref_err[448];

FIXTURE(fuzz) {
	int unused;
};

FIXTURE_SETUP(fuzz)
{
	self->unused = 0;
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F(fuzz, abi_checker_rejects_corrupted_results)
{
	char why[256];

	EXPECT_EQ(0, selftest_ctx_checker(why, sizeof(why)))
		TH_LOG("%s", why);
	ksft_print_msg("%s\n", why);
}

TEST_F(fuzz, log_scanner_flags_splats_not_ordinary_lines)
{
	char why[256];

	EXPECT_EQ(0, selftest_log_scanner(why, sizeof(why)))
		TH_LOG("%s", why);
	ksft_print_msg("%s\n", why);
}

TEST_F(fuzz, reference_results)
{
	ASSERT_TRUE(have_ref)
		TH_LOG("expected lsm_module_list and lsm_self_attr to work before fuzzing; saw: %s",
		       ref_err);
	ksft_print_msg("%zu active LSMs; this task's lsm_self_attr: %ld entries in %zu bytes\n",
		       nids, ref_count, ref_size);
}

/* The fuzzing itself: every role at once; the verdicts follow. */
TEST_F_TIMEOUT(fuzz, run, 800)
{
	int nproc = 0;
	double t0 = now_s();

	ASSERT_TRUE(have_ref);
	for (size_t r = 0; r < NROLES; r++) {
		const struct role *ro = &roles[r];
		long rops = ro->target == T_EXEC ? (ops / 20000 > 20 ? ops / 20000 : 20) :
			ops * ro->share / 1000 / ro->procs;

		if ((ro->target == T_SECFS || ro->target == T_EXEC) && !have_toylsm)
			continue;
		if (ro->target == T_FLIP && !prctl_live)
			continue;
		for (int p = 0; p < ro->procs; p++) {
			pid_t pid = fork();

			if (pid == 0)
				run_role(ro, p, rops);
			if (pid > 0)
				nproc++;
		}
	}
	while (nproc > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, WNOHANG);

		if (pid > 0) {
			nproc--;
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				viol(T_SELF, "a worker %s %d", WIFEXITED(st) ? "exited" :
				     "was killed by signal", WIFEXITED(st) ?
				     WEXITSTATUS(st) : WTERMSIG(st));
			continue;
		}
		if (pid < 0)
			break;
		check_modlist();
		usleep(20000);
	}
	check_modlist();
	sh->secs = now_s() - t0;
	sh->ran = 1;
}

/* The verdict of one target: it ran, and no invariant was violated. */
static void verdict(struct __test_metadata *_metadata, int t)
{
	ASSERT_TRUE(sh->ran) TH_LOG("the run did not finish");
	if ((t == T_SECFS || t == T_EXEC) && !have_toylsm)
		SKIP(return, "toylsm is not active");
	if (t == T_FLIP && !prctl_live)
		SKIP(return, "PR_LSM_ATTR_GET does not work: no interface LSM to flip");
	ksft_print_msg("%s: %ld calls in %.1f s, %ld invariant violations\n",
		       tname[t], (long)sh->calls[t], sh->usecs[t] / 1e6,
		       (long)sh->viol[t]);
	if (t == T_FLIP)
		ksft_print_msg("references: %s\n", sh->flipref);
	EXPECT_EQ(0, sh->viol[t])
		TH_LOG("%s: first violation: %s (replay: fuzz_lsm -s %#llx -n %ld)",
		       tname[t], sh->msg[t], (unsigned long long)seed, ops);
	EXPECT_LT(0, sh->calls[t]);
}

TEST_F(fuzz, lsm_self_attr) { verdict(_metadata, T_SELF); }
TEST_F(fuzz, lsm_module_list_never_changes) { verdict(_metadata, T_MODS); }
TEST_F(fuzz, proc_self_attr_files) { verdict(_metadata, T_ATTR); }
TEST_F(fuzz, prctl_lsm_attr_set_get) { verdict(_metadata, T_PRCTL); }
TEST_F(fuzz, toylsm_securityfs) { verdict(_metadata, T_SECFS); }
TEST_F(fuzz, toylsm_labels_racing_exec) { verdict(_metadata, T_EXEC); }
TEST_F(fuzz, so_peersec_getsockopt) { verdict(_metadata, T_SOCK); }
TEST_F(fuzz, interface_lsm_flips_under_readers) { verdict(_metadata, T_FLIP); }

TEST_F(fuzz, totals)
{
	long total = 0;

	ASSERT_TRUE(sh->ran);
	for (int t = 0; t < T_N; t++)
		total += sh->calls[t];
	ksft_print_msg("fuzz_lsm: %ld calls in %.1f s (%.0f calls/s), %ld operations, seed %#llx\n",
		       total, sh->secs, total / (sh->secs > 0 ? sh->secs : 1),
		       ops, (unsigned long long)seed);
}

/*
 * The slab leak check: threads call lsm_self_attr with large buffers;
 * /proc/meminfo's Slab is sampled after a warm-up and after LEAK_CALLS
 * more calls. LEAK_KB is the growth that fails, see below.
 */
#define LEAK_CALLS	100000
#define LEAK_WARMUP	10000
#define LEAK_THREADS	4
/*
 * The growth that fails. Normal kernel (SLUB) 512 kB: a leak of the
 * smallest kmalloc object (8 bytes) on every call grows Slab by
 * 100000 * 8 = 781 kB, while a quiet guest moved it by +0 kB (-16 kB
 * on SLOB, which the kit used before). Debug
 * kernel (SLUB + KASAN) 2048 kB: KASAN's redzones make the smallest
 * object at least 24 bytes (100000 * 24 = 2344 kB), and its quarantine
 * of freed objects moves Slab by some hundred kB either way (-460 kB
 * measured).
 */
#define LEAK_KB		(fz_debug_kernel() ? 2048 : 512)

struct leaker {
	pthread_t th;
	long n;
	int inject;
	char *buf;
	pthread_barrier_t *bar;
};

static void *leak_thread(void *arg)
{
	struct leaker *l = arg;
	int fds[2];

	for (int phase = 0; phase < 2; phase++) {
		long n = phase ? l->n : LEAK_WARMUP / LEAK_THREADS;

		pthread_barrier_wait(l->bar);
		for (long i = 0; i < n; i++) {
			size_t size = i % 3 ? BUFPAGES * PAGE : (i % 2 ? 0 : SIZE_MAX);

			lsm_self_attr((struct lsm_ctx *)l->buf, &size, 0);
			/* kit.fuzz_inject=leak: a real kernel leak, ~2 kB a pipe. */
			if (phase && l->inject && i % 50 == 0 && pipe(fds))
				break;
		}
		pthread_barrier_wait(l->bar);
	}
	return NULL;
}

TEST_F_TIMEOUT(fuzz, slab_does_not_grow_over_100000_lsm_self_attr_calls, 600)
{
	struct leaker l[LEAK_THREADS];
	pthread_barrier_t bar;
	struct rlimit rl = { 1 << 16, 1 << 16 };
	long before, after;
	double t0;

	if (injected("leak"))
		setrlimit(RLIMIT_NOFILE, &rl);
	pthread_barrier_init(&bar, NULL, LEAK_THREADS + 1);
	for (int i = 0; i < LEAK_THREADS; i++) {
		l[i].n = LEAK_CALLS / LEAK_THREADS;
		l[i].inject = injected("leak") != 0;
		l[i].bar = &bar;
		l[i].buf = map_guarded(BUFPAGES);
		ASSERT_NE(NULL, l[i].buf);
		ASSERT_EQ(0, pthread_create(&l[i].th, NULL, leak_thread, &l[i]));
	}
	pthread_barrier_wait(&bar);	/* warm-up */
	pthread_barrier_wait(&bar);
	sleep(1);			/* RCU-deferred frees of the warm-up */
	before = fz_slab_kb();
	t0 = now_s();
	pthread_barrier_wait(&bar);	/* the measured calls */
	pthread_barrier_wait(&bar);
	t0 = now_s() - t0;
	sleep(1);
	after = fz_slab_kb();
	for (int i = 0; i < LEAK_THREADS; i++)
		pthread_join(l[i].th, NULL);
	ASSERT_LE(0, before) TH_LOG("no Slab: line in /proc/meminfo");
	ksft_print_msg("Slab %ld kB before, %ld kB after %d lsm_self_attr calls (%d threads, 64 KiB buffers, %.1f s): %+ld kB, fails at %d kB\n",
		       before, after, LEAK_CALLS, LEAK_THREADS, t0, after - before,
		       LEAK_KB);
	EXPECT_LT(after - before, LEAK_KB)
		TH_LOG("expected Slab to grow by less than %d kB over %d calls, it grew by %ld kB (%.1f bytes a call): a leak in lsm_self_attr or an LSM's getprocattr?",
		       LEAK_KB, LEAK_CALLS, after - before,
		       (after - before) * 1024.0 / LEAK_CALLS);
}

/* Last: the kernel log of the whole boot so far. */
TEST_F(fuzz, kernel_log_has_no_splat)
{
	char first[512];
	long lines;
	int hits;

	if (injected("splat")) {
		char m[128];
		int fd = open("/dev/kmsg", O_WRONLY), n;

		n = snprintf(m, sizeof(m), "<4>WARNING: CPU: 0 PID: %d at fuzz_lsm canary (kit.fuzz_inject=splat)\n",
			     getpid());
		ASSERT_LE(0, fd) TH_LOG("open /dev/kmsg: %s", strerror(errno));
		ASSERT_EQ(n, write(fd, m, n)) TH_LOG("write /dev/kmsg: %s", strerror(errno));
		close(fd);
	}
	hits = fz_scan_kmsg(first, sizeof(first), &lines);
	ASSERT_LE(0, hits) TH_LOG("cannot read /dev/kmsg: %s", strerror(-hits));
	ksft_print_msg("kernel log: %ld records, %d splat line(s)\n", lines, hits);
	EXPECT_EQ(0, hits)
		TH_LOG("expected no BUG/WARNING/KASAN/UBSAN/lockdep/RCU stall/hung task line; first: %s (seed %#llx)",
		       first, (unsigned long long)seed);
}

int main(int argc, char **argv)
{
	char opt[64];
	const char *v;
	int opt_c;
	size_t size;

	if (argc == 4 && !strcmp(argv[1], "--exec-check"))
		return exec_check(argv[2], argv[3]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	v = fz_opt("FUZZ_SEED", "kit.fuzz_seed", NULL, opt, sizeof(opt));
	if (v)
		seed = strtoull(v, NULL, 0);
	else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	ops = -1;
	v = fz_opt("FUZZ_OPS", fz_debug_kernel() ? "kit.fuzz_ops_debug" :
		   "kit.fuzz_ops", NULL, opt, sizeof(opt));
	if (v)
		ops = strtol(v, NULL, 0);
	v = fz_opt("FUZZ_INJECT", "kit.fuzz_inject", "", opt, sizeof(opt));
	snprintf(inject, sizeof(inject), "%s", v);
	while ((opt_c = getopt(argc, argv, "s:n:i:")) != -1) {
		switch (opt_c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			ops = strtol(optarg, NULL, 0);
			break;
		case 'i':
			snprintf(inject, sizeof(inject), "%s", optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-n OPS] [-i modlist,ctx,attr,rules,prctl,exec,sock,flip,leak,splat]\n",
				argv[0]);
			return 2;
		}
	}
	if (ops < 0)
		ops = fz_debug_kernel() ? DEF_OPS_DEBUG : DEF_OPS;

	printf("# fuzz_lsm: seed %#llx, %ld operations, %s kernel%s%s\n",
	       (unsigned long long)seed, ops,
	       fz_debug_kernel() ? "debug (lockdep)" : "normal",
	       *inject ? ", INJECTED WRONG EXPECTATION: " : "", inject);
	printf("# prctl(PR_LSM_ATTR_GET): %s\n", prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) >= 0 ?
	       "works: held to the contract" : "-EINVAL (part 2 not in yet): tolerated");
	printf("# replay: fuzz_lsm -s %#llx -n %ld  (or FUZZ_SEED=%#llx FUZZ_OPS=%ld, or kit.fuzz_seed=%#llx on the command line)\n",
	       (unsigned long long)seed, ops, (unsigned long long)seed, ops,
	       (unsigned long long)seed);

	{
		struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO };

		sigaction(SIGSEGV, &sa, NULL);
		sigaction(SIGBUS, &sa, NULL);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || ro_page == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	memset(ro_page, '/', PAGE);	/* no LSM takes '/' in a label */
	szstore(RO_SZP, RO_SIZE);
	mprotect(ro_page, PAGE, PROT_READ);
	if (readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1) < 0)
		snprintf(self_exe, sizeof(self_exe), "%s", argv[0]);

	/* The references the invariants hold the kernel to. */
	prctl_live = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0) >= 0;
	size = sizeof(ids);
	if (lsm_module_list(ids, &size, 0) <= 0) {
		snprintf(ref_err, sizeof(ref_err), "lsm_module_list: %s",
			 strerrorname_np(errno));
	} else {
		nids = size / 4;
		for (size_t i = 0; i < nids; i++) {
			have_toylsm |= ids[i] == LSM_ID_TOYLSM;
			have_smack |= ids[i] == LSM_ID_SMACK;
		}
		if (take_reference())
			snprintf(ref_err, sizeof(ref_err), "lsm_self_attr: %s",
				 sh->msg[T_SELF]);
		else
			have_ref = 1;
		sh->viol[T_SELF] = 0;
		sh->msg_taken[T_SELF] = 0;
		if (injected("modlist"))
			ids[nids++] = LSM_ID_TOMOYO;	/* a wrong expectation */
	}
	return test_harness_run(argc, argv);
}
