// SPDX-License-Identifier: GPL-2.0
/*
 * toylsm's bounded tables (issue 7, resource limits).
 *
 * Labels: the system-wide label table holds TOYLSM_LABELS (128) labels
 * and is append-only until reboot (demo-lsm/label.c). New labels are
 * interned (file xattrs, /proc/self/attr/toylsm/{current,exec}) until the
 * kernel answers ENOSPC; exactly the room that was left must have been
 * used; a refused new label changes nothing; labels already in the table
 * keep working; 100,000 refused attempts do not grow the kernel's slab.
 * Rules writes that remove rules which do not exist, or that are
 * refused, intern no label (checked once the table is full: a label
 * that is in it can be set as a file's xattr, a new one cannot). A file
 * labelled while there was room keeps its label when it is linked (and
 * so instantiated again) with the table full.
 *
 * Rules: the rule table holds TOYLSM_RULES (128) rules (demo-lsm/
 * policy.c). Rules are written until ENOSPC; exactly 128 fit; a refused
 * write changes nothing; removing a rule ("-") makes room; 100,000
 * add/refused-add/remove cycles do not grow the slab.
 *
 * The label tests fill the label table for the rest of the boot: this
 * program runs in a boot of its own (tests/boots.conf: "limits"). The
 * tests depend on each other's kernel state and run in file order.
 *
 * Proving the checkers fail: "-i WHAT[,WHAT...]" (or LIMITS_INJECT=,
 * or kit.limits_inject= on the kernel command line) makes a checker
 * expect the wrong thing, each in its own test:
 *   labelcap   the label table held 127, not 128
 *   labelkeep  a refused label write moved the old label
 *   labelreuse an interned label is refused once the table is full
 *   rmintern   a label named only by a removal or a refused write is interned
 *   rmfull     removing a rule that does not exist, table full, is refused
 *   relink     a labelled file linked with the table full lost its label
 *   rulecap    the rule table held 127, not 128
 *   rulekeep   a refused rules write moved a rule
 *   rulefree   a removal makes no room
 *   leak       a real kernel leak: 5,000 pipes (~10 MB) held during each slab check
 * e.g. scripts/guest/run-guest.sh --bin build/guest/toylsm_limits
 *	--cmd '/kit/bin/toylsm_limits -i labelcap,...'
 * and every test named by an injection reports "not ok".
 *
 * Run as root (CAP_MAC_ADMIN), with toylsm active.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>

#include "fuzz_lib.h"
#include "kit/toylsm_files.h"
#include "kselftest_harness.h"

#define LABELS		128	/* TOYLSM_LABELS, demo-lsm/label.h */
#define RULES		128	/* TOYLSM_RULES, demo-lsm/policy.h */
#define XATTR		"security.toylsm"
#define FILE_A		"/tmp/limits-a"
#define FILE_B		"/tmp/limits-b"
#define FILE_B2		"/tmp/limits-b2"	/* a second link of FILE_B */
#define NREMOVE		16	/* removals of rules that do not exist */
#define REF_S		12	/* a refused write: 129 rules between */
#define REF_O		11	/* REF_S subjects and REF_O objects */
/* Labels named only by those writes: none may be interned. */
#define NPROBE		(2 * NREMOVE + REF_S + REF_O + 2)
#define CYCLES		100000
#define WARMUP		10000
#define NPAIR		16	/* rules between lim-0 .. lim-15 */

/*
 * The slab growth that fails, as in fuzz_lsm.c. Normal kernel (SLUB)
 * 512 kB: a leak of the smallest kmalloc object (8 bytes) on each of
 * the 100,000 attempts or cycles grows Slab by 100000 * 8 = 781 kB,
 * while a quiet guest moves it by a few kB (-4 kB measured; some ten
 * kB on SLOB, which the kit used before). Debug kernel (SLUB +
 * KASAN) 2048 kB: KASAN's redzones make the smallest object at least 24
 * bytes (100000 * 24 = 2344 kB), and its quarantine of freed objects
 * moves Slab by some hundred kB either way.
 */
#define LEAK_KB		(fz_debug_kernel() ? 2048 : 512)

/*
 * The rule cycles had to have a wider bound on SLOB, the allocator of
 * the kit's normal kernel until it moved to SLUB (on SLUB: -4 kB over
 * 100,000 cycles): each successful write kzalloc()s a whole table (128
 * rules: 1560 bytes) and frees the old one, and on SLOB, which mixes
 * all sizes in the same pages, that leaves the Slab
 * figure on a plateau that differs by up to ~1 MB from one run to the
 * next (measured: -688 kB to +964 kB over 100,000 cycles, flat over 2 s
 * of samples; +684 kB over 400,000 cycles, so it does not scale with
 * the number of cycles as a leak would). The smallest object a rules
 * write allocates is its copied text (memdup_user_nul(), ~20 bytes, at
 * least 24 with SLOB's header, 32 in SLUB's kmalloc-32): leaking it
 * once a cycle grows Slab by at least 100000 * 24 = 2343 kB, over the
 * 2048 kB that fails. The bound is kept, so that the kit can go back to
 * a SLOB-like allocator without false alarms. Debug kernel
 * (SLUB + KASAN, redzones make it at least 32 bytes: 3125 kB) 3072 kB.
 */
#define RULE_LEAK_KB	(fz_debug_kernel() ? 3072 : 2048)

static char inject[128];

static int injected(const char *what)
{
	char list[sizeof(inject) + 2];

	snprintf(list, sizeof(list), ",%s,", inject);
	for (char *p = list; (p = strstr(p, what)); p++)
		if (p[-1] == ',' && p[strlen(what)] == ',')
			return 1;
	return 0;
}

/* What the tests learn, kept across the harness's forks. */
struct shared {
	int seen;		/* distinct labels found in use before filling */
	int filled;		/* new labels interned before ENOSPC */
	char seen_list[512];
	char census[LABELS][32];	/* those labels */
};

static struct shared *sh;

static const char *lim(int i)
{
	static __thread char buf[8][16];
	static __thread int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "lim-%d", i);
	return buf[k];
}

/* A label the table has never seen (all fail once it is full). */
static const char *fresh(long i)
{
	static __thread char buf[32];

	snprintf(buf, sizeof(buf), "nospc-%ld", i % 4096);
	return buf;
}

/*
 * The labels that only removals of rules that do not exist and refused
 * rules writes name (rule_writes_that_change_nothing_intern_nothing):
 * rm-sI rm-oI for the removals, rf-sI rf-oJ for the write refused for
 * its 129 rules, pf-s pf-o for the one refused for a malformed line.
 */
static const char *probe(int i)
{
	static __thread char buf[4][16];
	static __thread int k;

	k = (k + 1) % 4;
	if (i < 2 * NREMOVE)
		snprintf(buf[k], sizeof(buf[k]), "rm-%c%d", i % 2 ? 'o' : 's', i / 2);
	else if (i - 2 * NREMOVE < REF_S)
		snprintf(buf[k], sizeof(buf[k]), "rf-s%d", i - 2 * NREMOVE);
	else if (i - 2 * NREMOVE - REF_S < REF_O)
		snprintf(buf[k], sizeof(buf[k]), "rf-o%d", i - 2 * NREMOVE - REF_S);
	else
		snprintf(buf[k], sizeof(buf[k]), "pf-%c",
			 i - 2 * NREMOVE - REF_S - REF_O ? 'o' : 's');
	return buf[k];
}

/* What docs/toylsm.md accepts as a label (no newline). */
static int is_label(const char *s, size_t len)
{
	if (len < 1 || len > 31)
		return 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == ':' || c == '-'))
			return 0;
	}
	return 1;
}

/* --- the census: every label in use before the table is filled --- */

static int ncensus;
#define census (sh->census)

static void census_add(const char *s, size_t len)
{
	if (len && s[len - 1] == '\n')
		len--;
	if (!is_label(s, len))
		return;
	for (int i = 0; i < ncensus; i++)
		if (strlen(census[i]) == len && !memcmp(census[i], s, len))
			return;
	if (ncensus < LABELS) {
		memcpy(census[ncensus], s, len);
		census[ncensus++][len] = '\0';
	}
}

static int census_file(const char *path, const struct stat *st, int flag,
		       struct FTW *ftw)
{
	char v[64];
	ssize_t n;

	(void)st;
	(void)flag;
	(void)ftw;
	if (!strcmp(path, "/proc") || !strcmp(path, "/sys"))
		return FTW_SKIP_SUBTREE;
	n = lgetxattr(path, XATTR, v, sizeof(v));
	if (n > 0)
		census_add(v, n);
	return FTW_CONTINUE;
}

/*
 * Every label visible in the system: each task's current, exec and prev,
 * every file's security.toylsm, the rules' labels. Each is interned, so
 * this is a lower bound of the table's count; in a boot of its own
 * (only "init" at start) it is the count itself.
 */
static int take_census(void)
{
	static const char *const attrs[] = { "current", "exec", "prev" };
	char path[640], v[64], rules[16384], s[64], o[64], *line, *save;
	DIR *pd = opendir("/proc"), *td;
	struct dirent *p, *t;

	ncensus = 0;
	while (pd && (p = readdir(pd))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		td = opendir(path);
		while (td && (t = readdir(td))) {
			if (t->d_name[0] == '.')
				continue;
			for (int a = 0; a < 3; a++) {
				snprintf(path, sizeof(path), "/proc/%s/task/%s/attr/toylsm/%s",
					 p->d_name, t->d_name, attrs[a]);
				if (read_file(path, v, sizeof(v)) > 0)
					census_add(v, strlen(v));
			}
		}
		if (td)
			closedir(td);
	}
	if (pd)
		closedir(pd);
	nftw("/", census_file, 16, FTW_PHYS | FTW_ACTIONRETVAL);
	if (read_file(TOYLSM_FS "rules", rules, sizeof(rules)) > 0)
		for (line = strtok_r(rules, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (sscanf(line, "%63s %63s", s, o) == 2) {
				census_add(s, strlen(s));
				census_add(o, strlen(o));
			}
	return ncensus;
}

/* --- small helpers --- */

static int set_label(const char *file, const char *l)
{
	return setxattr(file, XATTR, l, strlen(l), 0) ? -errno : 0;
}

static const char *file_label(const char *file)
{
	static char buf[64];
	ssize_t n = getxattr(file, XATTR, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static const char *attr(const char *which)
{
	static char buf[64];
	char path[96];

	snprintf(path, sizeof(path), TOYLSM_ATTR "%s", which);
	read_file(path, buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int set_attr(const char *which, const char *l)
{
	char path[96];

	snprintf(path, sizeof(path), TOYLSM_ATTR "%s", which);
	return write_string(path, l);
}

static int rules_text(char *buf, size_t len)
{
	return read_file(TOYLSM_FS "rules", buf, len);
}

static int nrules(void)
{
	char buf[16384];
	int n = 0;

	if (rules_text(buf, sizeof(buf)) < 0)
		return -1;
	for (char *p = buf; *p; p++)
		n += *p == '\n';
	return n;
}

/*
 * The first line where two texts differ: 0 if they are equal, else its
 * number with both lines in @why.
 */
static int text_diff(const char *a, const char *b, char *why, size_t len)
{
	int line = 1;

	for (;;) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");

		if (la != lb || memcmp(a, b, la)) {
			snprintf(why, len, "line %d: \"%.*s\" became \"%.*s\"", line,
				 (int)la, a, (int)lb, b);
			return line;
		}
		if (!a[la] || !b[lb]) {
			if (!a[la] && !b[lb])
				return 0;
			snprintf(why, len, "line %d: one text ends, the other goes on", line);
			return line;
		}
		a += la + 1;
		b += lb + 1;
		line++;
	}
}

static int rule(const char *text)
{
	return write_string(TOYLSM_FS "rules", text);
}

static const char *pair(int k, const char *perms)
{
	static __thread char buf[4][64];
	static __thread int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s %s %s\n", lim(k / NPAIR),
		 lim(k % NPAIR), perms);
	return buf[i];
}

/*
 * Whether a task labelled @subject without CAP_MAC_ADMIN may open @file
 * for reading: 1 yes, 0 denied (EACCES), -1 the probe failed.
 */
static int may_read(const char *subject, const char *file)
{
	int st, fd;
	pid_t pid = fork();

	if (pid == 0) {
		if (toylsm_relabel(subject) || drop_mac_admin())
			_exit(3);
		fd = open(file, O_RDONLY);
		_exit(fd >= 0 ? 1 : errno == EACCES ? 0 : 4);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st) <= 1 ? WEXITSTATUS(st) : -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Slab after deferred frees: policy.c frees old rule tables with
 * kfree_rcu(), and on a busy host a guest's RCU callbacks can lag for
 * seconds. So sample every 0.5 s, each time after shrinking the SLUB
 * caches (on the debug kernel that also empties KASAN's quarantine, see
 * fz_slab_shrink()), until the figure has not fallen by more than 8 kB
 * over the last 1.5 s (at most 20 s). A leak does not fall.
 */
static int shrunk;	/* SLUB caches shrunk before the last sample */
static double settle_s;	/* how long the last call waited */

static long settled_slab_kb(void)
{
	long hist[4] = { 0 }, kb = -1;
	double t0 = now_s();
	int i = 0;

	for (;;) {
		usleep(500000);
		shrunk = fz_slab_shrink();
		kb = fz_slab_kb();
		hist[i++ % 4] = kb;
		settle_s = now_s() - t0;
		if ((i >= 4 && hist[i % 4] - kb <= 8) || settle_s > 20 || kb < 0)
			return kb;
	}
}

/* kit.limits_inject=leak: hold a pipe (~2 kB of slab) every 20 rounds. */
static void maybe_leak(long i)
{
	int fds[2];

	if (injected("leak") && i % 20 == 0 && pipe(fds))
		return;
}

static void raise_nofile(void)
{
	struct rlimit rl = { 1 << 16, 1 << 16 };

	if (injected("leak"))
		setrlimit(RLIMIT_NOFILE, &rl);
}

FIXTURE(limits) {
	int unused;
};

FIXTURE_SETUP(limits)
{
	self->unused = 0;
	if (access(TOYLSM_FS "rules", F_OK))
		SKIP(return, "toylsm is not active (no " TOYLSM_FS "rules)");
}

FIXTURE_TEARDOWN(limits)
{
}

/* --- labels --- */

/*
 * Before the table is filled, so that the fill below counts what these
 * writes took: removals of rules that do not exist, a write refused for
 * a 129th rule, one refused for a malformed line. None changes the
 * rules; none may intern a label (labels are never freed, so each one
 * would be a slot lost until reboot). Whether they did is seen once the
 * table is full: labels_of_writes_that_changed_nothing_are_not_interned.
 */
TEST_F(limits, rule_writes_that_change_nothing_intern_nothing)
{
	char before[16384], after[16384], text[4096], why[160];
	size_t k = 0;
	int r, bad = 0;

	ASSERT_LE(0, rules_text(before, sizeof(before)));
	for (int i = 0; i < NREMOVE; i++) {
		snprintf(text, sizeof(text), "%s %s -\n", probe(2 * i), probe(2 * i + 1));
		r = rule(text);
		if (r && !bad++)
			TH_LOG("removing the rule \"%s %s\" that does not exist: expected success, saw %s",
			       probe(2 * i), probe(2 * i + 1), strerrorname_np(-r));
	}
	EXPECT_EQ(0, bad) TH_LOG("%d of %d removals of rules that do not exist failed", bad,
				 NREMOVE);
	for (int i = 0; i < RULES + 1; i++)
		k += snprintf(text + k, sizeof(text) - k, "%s %s r\n",
			      probe(2 * NREMOVE + i / REF_O),
			      probe(2 * NREMOVE + REF_S + i % REF_O));
	ASSERT_GT(sizeof(text), k) TH_LOG("the 129 rules do not fit in one write");
	r = rule(text);
	EXPECT_EQ(-ENOSPC, r) TH_LOG("one write of %d new rules: expected ENOSPC, saw %s",
				     RULES + 1, r ? strerrorname_np(-r) : "success");
	snprintf(text, sizeof(text), "%s %s r\nnot a rule\n", probe(NPROBE - 2), probe(NPROBE - 1));
	r = rule(text);
	EXPECT_EQ(-EINVAL, r) TH_LOG("a rule and a malformed line: expected EINVAL, saw %s",
				     r ? strerrorname_np(-r) : "success");
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("writes that should change nothing changed the rules: %s", why);
	ksft_print_msg("rules: %d removals of rules that do not exist, a refused write of %d rules, a refused malformed write: %d labels that must not be interned (checked once the table is full)\n",
		       NREMOVE, RULES + 1, NPROBE);
}

TEST_F_TIMEOUT(limits, labels_intern_until_enospc_exactly_the_room_left, 120)
{
	int fd, room, want, n = 0, err = 0, efd, cfd, k = 0;

	sh->seen = take_census();
	for (int i = 0; i < ncensus; i++)
		k += snprintf(sh->seen_list + k, sizeof(sh->seen_list) - k, "%s%s",
			      i ? "," : "", census[i]);
	ASSERT_LT(0, sh->seen) TH_LOG("no label in use at all: not even the first task's \"init\"?");
	ASSERT_GT(LABELS, sh->seen) TH_LOG("%d labels in use: no room left in a table of %d",
					   sh->seen, LABELS);

	fd = open(FILE_A, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd) TH_LOG("create %s: %s", FILE_A, strerror(errno));
	close(fd);
	efd = open(TOYLSM_ATTR "exec", O_WRONLY);
	cfd = open(TOYLSM_ATTR "current", O_WRONLY);
	ASSERT_LE(0, efd);
	ASSERT_LE(0, cfd);
	/* Three ways in: a file's xattr, the exec label, the current label. */
	for (n = 0; n < 2 * LABELS; n++) {
		const char *l = lim(n);

		switch (n % 3) {
		case 0:
			err = set_label(FILE_A, l);
			break;
		case 1:
			err = write(efd, l, strlen(l)) < 0 ? -errno : 0;
			break;
		default:
			err = write(cfd, l, strlen(l)) < 0 ? -errno : 0;
			break;
		}
		if (err)
			break;
	}
	close(efd);
	close(cfd);
	sh->filled = n;
	/*
	 * Labels that kernel code interned and left nowhere to be seen:
	 * toylsm's KUnit suite (demo-lsm/toylsm_test.c) interns "kunit"
	 * at boot. With the table full, an old label is accepted and a new
	 * one refused, so a setxattr tells which of them are in it.
	 */
	if (err == -ENOSPC) {
		static const char *const hidden[] = { "kunit" };

		for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
			if (!set_label(FILE_A, hidden[i])) {
				census_add(hidden[i], strlen(hidden[i]));
				k += snprintf(sh->seen_list + k, sizeof(sh->seen_list) - k,
					      ",%s (hidden)", hidden[i]);
			}
		sh->seen = ncensus;
	}
	room = LABELS - sh->seen;
	want = injected("labelcap") ? room - 1 : room;	/* a wrong bound */
	ksft_print_msg("labels: %d in use before (%s), %d new interned, then %s (via %s); table %d%s\n",
		       sh->seen, sh->seen_list, n, err ? strerrorname_np(-err) : "no error",
		       ((const char *[]){ "setxattr", "attr/exec", "attr/current" })[n % 3],
		       LABELS, injected("labelcap") ? ", INJECTED: expecting one less" : "");
	EXPECT_EQ(-ENOSPC, err) TH_LOG("expected ENOSPC after %d new labels, saw %s at label %d",
				       room, err ? strerrorname_np(-err) : "success", n);
	EXPECT_GT(n, 0) TH_LOG("not one new label was interned");
	EXPECT_EQ(want, n) TH_LOG("expected exactly %d new labels (%d - %d in use), %d were interned: a table of %d, or labels interned that nothing uses (the next test names them)? (hint: demo-lsm/label.c, toylsm_label_intern(); demo-lsm/policy.c, toylsm_policy_merge())",
				  want, LABELS, sh->seen, n, n + sh->seen);
}

/*
 * With the table full, setting a label as a file's xattr succeeds only
 * if the label is interned: so this sees which labels the writes of
 * rule_writes_that_change_nothing_intern_nothing took (the old
 * toylsm_policy_merge() interned both labels of every line first).
 */
TEST_F(limits, labels_of_writes_that_changed_nothing_are_not_interned)
{
	char before[16384], after[16384], text[128], why[160], s[32], o[32];
	int in = 0, want = injected("rmintern") ? 1 : 0, r;	/* a wrong expectation */
	const char *first = NULL;

	ASSERT_LT(0, sh->filled) TH_LOG("the table was not filled");
	for (int i = 0; i < NPROBE; i++)
		if (!set_label(FILE_A, probe(i)) && !in++)
			first = probe(i);
	ksft_print_msg("labels: %d of the %d labels named only by removals and refused rules writes are in the table%s\n",
		       in, NPROBE, want ? ", INJECTED: expecting 1" : "");
	EXPECT_EQ(want, in) TH_LOG("expected none of the %d labels in the table; %d are (first: %s): removing a rule that does not exist, or a refused write, interned its labels (hint: demo-lsm/policy.c, toylsm_policy_merge())",
				   NPROBE, in, first ?: "none");
	/* Table full: such a removal still succeeds and changes nothing. */
	ASSERT_LE(0, rules_text(before, sizeof(before)));
	snprintf(s, sizeof(s), "%s", fresh(8));
	snprintf(o, sizeof(o), "%s", fresh(9));
	snprintf(text, sizeof(text), "%s %s -\n", s, o);
	r = rule(text);
	want = injected("rmfull") ? -ENOSPC : 0;	/* a wrong expectation */
	EXPECT_EQ(want, r) TH_LOG("removing the rule \"%s %s\" that does not exist, table full: expected %s, saw %s",
				  s, o, want ? "ENOSPC" : "success", r ? strerrorname_np(-r) : "success");
	snprintf(text, sizeof(text), "init %s -\n", o);
	r = rule(text);
	EXPECT_EQ(0, r) TH_LOG("removing the rule \"init %s\" that does not exist, table full: expected success, saw %s",
			       o, strerrorname_np(-r));
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("the removals changed the rules: %s", why);
	EXPECT_EQ(-ENOSPC, set_label(FILE_A, s)) TH_LOG("the removal interned %s", s);
}

/*
 * A file's label stays with its inode when another dentry of it is
 * instantiated, e.g. by link(2) (shmem_link() calls d_instantiate()),
 * and a label read from the xattr is found in the table even when the
 * table is full: the file stays closed to other labels and open to its
 * own. (A label
 * on disk that is NOT in the table cannot be made in this guest: every
 * write of security.toylsm interns its label first, tmpfs keeps xattrs
 * with the inode, and there is no block device, FUSE or overlayfs. That
 * case, fail closed, is KUnit's xattr_label_test in
 * demo-lsm/toylsm_test.c, relayed by toylsm_kunit.)
 */
TEST_F(limits, a_labelled_file_linked_with_the_table_full_keeps_its_label)
{
	int fd, want = injected("relink") ? 1 : 0;	/* a wrong expectation */

	ASSERT_LT(0, sh->filled) TH_LOG("the table was not filled");
	unlink(FILE_B2);
	fd = open(FILE_B, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd) TH_LOG("create %s: %s", FILE_B, strerror(errno));
	close(fd);
	ASSERT_EQ(0, set_label(FILE_B, lim(1)));
	ASSERT_EQ(0, link(FILE_B, FILE_B2)) TH_LOG("link %s %s: %s", FILE_B, FILE_B2,
						   strerrorname_np(errno));
	EXPECT_STREQ(lim(1), file_label(FILE_B2));
	EXPECT_EQ(want, may_read(lim(5), FILE_B2))
		TH_LOG("a task labelled %s without CAP_MAC_ADMIN and with no rule %s a file labelled %s after link(2) with the table full: expected %s (hint: demo-lsm/fs.c, toylsm_dentry_label())",
		       lim(5), want ? "was denied" : "could open", lim(1), want ? "allowed" : "EACCES");
	EXPECT_EQ(0, may_read(lim(5), FILE_B));
	EXPECT_EQ(1, may_read(lim(1), FILE_B2))
		TH_LOG("a task labelled %s could not open a file labelled %s after link(2) with the table full: its label was not loaded again",
		       lim(1), lim(1));
	unlink(FILE_B2);
	unlink(FILE_B);
}

TEST_F(limits, a_refused_new_label_changes_nothing)
{
	char before[8192], after[8192], keep_file[16], keep_cur[16], keep_exec[16];
	char why[160];
	int r;

	ASSERT_LT(0, sh->filled) TH_LOG("the table was not filled");
	snprintf(keep_file, sizeof(keep_file), "%s", lim(1));
	snprintf(keep_cur, sizeof(keep_cur), "%s", lim(3));
	snprintf(keep_exec, sizeof(keep_exec), "%s", lim(4));
	if (injected("labelkeep"))	/* a wrong expectation */
		snprintf(keep_file, sizeof(keep_file), "%s", lim(2));
	/* A file's label. */
	ASSERT_EQ(0, set_label(FILE_A, lim(1)));
	r = set_label(FILE_A, fresh(1));
	EXPECT_EQ(-ENOSPC, r) TH_LOG("setxattr of a new label, table full: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	EXPECT_STREQ(keep_file, file_label(FILE_A))
		TH_LOG("the refused setxattr changed the file's xattr");
	/* ... and the kernel's copy: lim-5 may not read a lim-1 file. */
	EXPECT_EQ(0, may_read(lim(5), FILE_A))
		TH_LOG("a task labelled %s without CAP_MAC_ADMIN and with no rule could open a file labelled %s: the refused setxattr unlabelled it",
		       lim(5), lim(1));
	/* The task's current and exec labels. */
	ASSERT_EQ(0, set_attr("current", lim(3)));
	ASSERT_EQ(0, set_attr("exec", lim(4)));
	r = set_attr("current", fresh(2));
	EXPECT_EQ(-ENOSPC, r) TH_LOG("attr/current, new label, table full: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	r = set_attr("exec", fresh(3));
	EXPECT_EQ(-ENOSPC, r) TH_LOG("attr/exec, new label, table full: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	EXPECT_STREQ(keep_cur, attr("current"));
	EXPECT_STREQ(keep_exec, attr("exec"));
	/* A rule that names a new label. */
	ASSERT_LE(0, rules_text(before, sizeof(before)));
	snprintf(after, sizeof(after), "%s %s r\n", fresh(4), lim(0));
	r = rule(after);
	EXPECT_EQ(-ENOSPC, r) TH_LOG("a rule with a new label, table full: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("the refused rule changed the rules: %s", why);
	/* Without CAP_MAC_ADMIN a new label is refused by policy first. */
	ASSERT_EQ(0, drop_mac_admin());
	r = set_attr("current", fresh(5));
	EXPECT_EQ(-EPERM, r) TH_LOG("unprivileged new label: expected EPERM, saw %s",
				    r ? strerrorname_np(-r) : "success");
	EXPECT_STREQ(keep_cur, attr("current"));
}

TEST_F_TIMEOUT(limits, interned_labels_still_work_when_the_table_is_full, 120)
{
	int bad = 0, efd = open(TOYLSM_ATTR "exec", O_WRONLY), r;
	const char *first = NULL;

	ASSERT_LT(0, sh->filled) TH_LOG("the table was not filled");
	ASSERT_LE(0, efd);
	for (int i = 0; i < sh->filled + sh->seen; i++) {
		const char *l = i < sh->filled ? lim(i) : census[i - sh->filled];

		if (i == 0 && injected("labelreuse"))	/* a wrong expectation */
			l = fresh(6);
		r = set_label(FILE_A, l);
		if (!r && write(efd, l, strlen(l)) < 0)
			r = -errno;
		if (r && !bad++)
			first = l;
		if (r)
			TH_LOG("label %s: %s", l, strerrorname_np(-r));
	}
	close(efd);
	ksft_print_msg("labels: %d interned labels set again on a file and as exec label, %d refused\n",
		       sh->filled + sh->seen, bad);
	EXPECT_EQ(0, bad) TH_LOG("expected every interned label to work with the table full; %d refused, first %s",
				 bad, first);
	EXPECT_EQ(-ENOSPC, set_label(FILE_A, fresh(7)))
		TH_LOG("reusing labels made room for a new one");
	r = toylsm_relabel("init");
	ASSERT_EQ(0, r) TH_LOG("back to \"init\": %s", strerrorname_np(-r));
}

struct worker {
	pthread_t th;
	long n, wrong;
	int first;		/* errno of the first unexpected result */
	pthread_barrier_t *bar;
};

/* Refused attempts: xattr, exec label, current label in turn. */
static void *enospc_worker(void *arg)
{
	struct worker *w = arg;
	int efd = open(TOYLSM_ATTR "exec", O_WRONLY), cfd = open(TOYLSM_ATTR "current", O_WRONLY);
	int ffd = open(FILE_A, O_RDONLY);

	if (efd < 0 || cfd < 0 || ffd < 0) {
		w->wrong = 1;
		w->first = errno;
	}

	for (int phase = 0; phase < 2; phase++) {
		long n = phase ? w->n : WARMUP / 2;

		pthread_barrier_wait(w->bar);
		for (long i = 0; i < n; i++) {
			const char *l = fresh(i);
			int r;

			switch (i % 3) {
			case 0:
				r = fsetxattr(ffd, XATTR, l, strlen(l), 0);
				break;
			case 1:
				r = write(efd, l, strlen(l));
				break;
			default:
				r = write(cfd, l, strlen(l));
				break;
			}
			if (r != -1 || errno != ENOSPC) {
				if (!w->wrong++)
					w->first = r == -1 ? errno : 0;
			}
			if (phase)
				maybe_leak(i);
		}
		pthread_barrier_wait(w->bar);
	}
	close(efd);
	close(cfd);
	close(ffd);
	return NULL;
}

TEST_F_TIMEOUT(limits, slab_does_not_grow_over_100000_refused_labels, 600)
{
	struct worker w[2];
	pthread_barrier_t bar;
	long before, after;
	double t, sb, sa;

	ASSERT_LT(0, sh->filled) TH_LOG("the table was not filled");
	/* Our own label, so that this "init" task may open the file. */
	ASSERT_EQ(0, set_label(FILE_A, "init"));
	raise_nofile();
	pthread_barrier_init(&bar, NULL, 3);
	for (int i = 0; i < 2; i++) {
		w[i] = (struct worker){ .n = CYCLES / 2, .bar = &bar };
		ASSERT_EQ(0, pthread_create(&w[i].th, NULL, enospc_worker, &w[i]));
	}
	pthread_barrier_wait(&bar);	/* warm-up */
	pthread_barrier_wait(&bar);
	before = settled_slab_kb();
	sb = settle_s;
	t = now_s();
	pthread_barrier_wait(&bar);	/* the measured attempts */
	pthread_barrier_wait(&bar);
	t = now_s() - t;
	after = settled_slab_kb();
	sa = settle_s;
	for (int i = 0; i < 2; i++)
		pthread_join(w[i].th, NULL);
	ASSERT_LE(0, before) TH_LOG("no Slab: line in /proc/meminfo");
	ksft_print_msg("Slab %ld kB before, %ld kB after %d refused new labels (2 threads; setxattr, attr/exec, attr/current; %.1f s; settled in %.1f / %.1f s, %d SLUB caches shrunk): %+ld kB, fails at %d kB%s\n",
		       before, after, CYCLES, t, sb, sa, shrunk, after - before, LEAK_KB,
		       injected("leak") ? ", INJECTED: 5,000 pipes held" : "");
	EXPECT_EQ(0, w[0].wrong + w[1].wrong)
		TH_LOG("expected ENOSPC for every new label; %ld attempts did otherwise (first: %s)",
		       w[0].wrong + w[1].wrong,
		       strerrorname_np(w[0].wrong ? w[0].first : w[1].first) ?: "success");
	EXPECT_LT(after - before, LEAK_KB)
		TH_LOG("expected Slab to grow by less than %d kB over %d refused labels, it grew by %ld kB (%.1f bytes an attempt): a leak on the ENOSPC path (toylsm_setprocattr, toylsm_inode_setxattr)?",
		       LEAK_KB, CYCLES, after - before, (after - before) * 1024.0 / CYCLES);
	EXPECT_EQ(-ENOSPC, set_label(FILE_A, "nospc-after"));
}

/* --- rules --- */

TEST_F(limits, rules_fill_to_exactly_128)
{
	int have = nrules(), added = 0, r = 0, want;

	ASSERT_LE(0, have) TH_LOG("cannot read " TOYLSM_FS "rules");
	for (int k = 0; k < NPAIR * NPAIR; k++) {
		r = rule(pair(k, "r"));
		if (r)
			break;
		added++;
	}
	want = injected("rulecap") ? RULES - 1 : RULES;	/* a wrong bound */
	ksft_print_msg("rules: %d before, %d added, then %s; %d in the file%s\n",
		       have, added, r ? strerrorname_np(-r) : "no error", nrules(),
		       injected("rulecap") ? ", INJECTED: expecting 127" : "");
	EXPECT_EQ(-ENOSPC, r) TH_LOG("expected ENOSPC once the table is full, saw %s",
				     r ? strerrorname_np(-r) : "success");
	EXPECT_EQ(want, have + added) TH_LOG("expected room for exactly %d rules, %d fit (hint: demo-lsm/policy.c, toylsm_policy_merge())",
					     want, have + added);
	EXPECT_EQ(want, nrules());
}

TEST_F(limits, a_refused_rules_write_changes_nothing)
{
	char before[16384], after[16384], text[256], why[160];
	int full = nrules(), r;

	ASSERT_EQ(RULES, full) TH_LOG("the table is not full");
	ASSERT_LE(0, rules_text(before, sizeof(before)));
	if (injected("rulekeep"))	/* a wrong expectation */
		before[strcspn(before, " ")] = '_';
	/* A new rule. */
	r = rule(pair(NPAIR * NPAIR - 1, "rw"));
	EXPECT_EQ(-ENOSPC, r) TH_LOG("129th rule: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("the refused 129th rule changed the rules: %s", why);
	/* All or none: a change of an existing rule, then a new one. */
	snprintf(text, sizeof(text), "%s%s", pair(0, "rwx"), pair(NPAIR * NPAIR - 2, "r"));
	r = rule(text);
	EXPECT_EQ(-ENOSPC, r) TH_LOG("an update and a 129th rule: expected ENOSPC, saw %s",
				     r ? strerrorname_np(-r) : "success");
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("the refused write applied its first line: %s", why);
	/* Changing an existing rule's permissions needs no room. */
	r = rule(pair(0, "rwx"));
	EXPECT_EQ(0, r) TH_LOG("update of an existing rule with the table full: %s",
			       strerrorname_np(-r));
	EXPECT_EQ(RULES, nrules());
	EXPECT_EQ(0, rule(pair(0, "r")));
	ASSERT_LE(0, rules_text(after, sizeof(after)));
	EXPECT_EQ(0, text_diff(before, after, why, sizeof(why)))
		TH_LOG("after restoring the rule's permissions: %s", why);
}

TEST_F(limits, removing_a_rule_makes_room)
{
	char text[256];
	int r, room;

	ASSERT_EQ(RULES, nrules()) TH_LOG("the table is not full");
	r = rule(pair(5, "-"));
	ASSERT_EQ(0, r) TH_LOG("removal: %s", strerrorname_np(-r));
	EXPECT_EQ(RULES - 1, nrules());
	r = rule(pair(NPAIR * NPAIR - 1, "t"));
	room = injected("rulefree") ? -ENOSPC : 0;	/* a wrong expectation */
	EXPECT_EQ(room, r) TH_LOG("a new rule after a removal: expected %s, saw %s",
				  room ? "ENOSPC" : "success", r ? strerrorname_np(-r) : "success");
	EXPECT_EQ(RULES, nrules());
	EXPECT_EQ(-ENOSPC, rule(pair(5, "r"))) TH_LOG("the freed room was used twice");
	/* One write that removes one rule and adds another, table full. */
	snprintf(text, sizeof(text), "%s%s", pair(6, "-"), pair(5, "r"));
	r = rule(text);
	EXPECT_EQ(0, r) TH_LOG("a removal and a new rule in one write, table full: %s",
			       strerrorname_np(-r));
	EXPECT_EQ(RULES, nrules());
}

static void *cycle_worker(void *arg)
{
	struct worker *w = arg;
	int fd = open(TOYLSM_FS "rules", O_WRONLY);
	const char *add = pair(NPAIR * NPAIR - 3, "rw"), *del = pair(NPAIR * NPAIR - 3, "-");
	const char *over = pair(NPAIR * NPAIR - 4, "x");
	size_t la = strlen(add), ld = strlen(del), lo = strlen(over);

	for (int phase = 0; phase < 2; phase++) {
		long n = phase ? w->n : WARMUP;

		pthread_barrier_wait(w->bar);
		for (long i = 0; i < n; i++) {
			/* 127 -> 128 rules, a refused 129th, back to 127. */
			if (write(fd, add, la) != (ssize_t)la && !w->wrong++)
				w->first = errno;
			if ((write(fd, over, lo) != -1 || errno != ENOSPC) && !w->wrong++)
				w->first = errno;
			if (write(fd, del, ld) != (ssize_t)ld && !w->wrong++)
				w->first = errno;
			if (phase)
				maybe_leak(i);
		}
		pthread_barrier_wait(w->bar);
	}
	close(fd);
	return NULL;
}

TEST_F_TIMEOUT(limits, slab_does_not_grow_over_100000_rule_add_remove_cycles, 600)
{
	struct worker w = { .n = CYCLES };
	pthread_barrier_t bar;
	long before, after;
	double t, sb, sa;

	ASSERT_EQ(RULES, nrules()) TH_LOG("the table is not full");
	ASSERT_EQ(0, rule(pair(7, "-")));	/* 127 rules: one free */
	raise_nofile();
	pthread_barrier_init(&bar, NULL, 2);
	w.bar = &bar;
	ASSERT_EQ(0, pthread_create(&w.th, NULL, cycle_worker, &w));
	pthread_barrier_wait(&bar);	/* warm-up */
	pthread_barrier_wait(&bar);
	before = settled_slab_kb();
	sb = settle_s;
	t = now_s();
	pthread_barrier_wait(&bar);	/* the measured cycles */
	pthread_barrier_wait(&bar);
	t = now_s() - t;
	after = settled_slab_kb();
	sa = settle_s;
	pthread_join(w.th, NULL);
	ASSERT_LE(0, before) TH_LOG("no Slab: line in /proc/meminfo");
	ksft_print_msg("Slab %ld kB before, %ld kB after %d cycles of add / refused 129th / remove at 127 rules (%.1f s; settled in %.1f / %.1f s, %d SLUB caches shrunk): %+ld kB, fails at %d kB%s\n",
		       before, after, CYCLES, t, sb, sa, shrunk, after - before, RULE_LEAK_KB,
		       injected("leak") ? ", INJECTED: 5,000 pipes held" : "");
	EXPECT_EQ(0, w.wrong) TH_LOG("%ld writes of the cycles had an unexpected result (first errno %s)",
				     w.wrong, strerrorname_np(w.first) ?: "0");
	EXPECT_EQ(RULES - 1, nrules());
	EXPECT_LT(after - before, RULE_LEAK_KB)
		TH_LOG("expected Slab to grow by less than %d kB over %d cycles, it grew by %ld kB (%.1f bytes a cycle): a leak in toylsm_rules_write() or toylsm_policy_merge()?",
		       RULE_LEAK_KB, CYCLES, after - before, (after - before) * 1024.0 / CYCLES);
}

int main(int argc, char **argv)
{
	char opt[128];
	int c;

	snprintf(inject, sizeof(inject), "%s",
		 fz_opt("LIMITS_INJECT", "kit.limits_inject", "", opt, sizeof(opt)));
	while ((c = getopt(argc, argv, "i:")) != -1) {
		if (c != 'i') {
			fprintf(stderr, "usage: %s [-i labelcap,labelkeep,labelreuse,rmintern,rmfull,relink,rulecap,rulekeep,rulefree,leak]\n",
				argv[0]);
			return 2;
		}
		snprintf(inject, sizeof(inject), "%s", optarg);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# toylsm_limits: %s kernel%s%s\n",
	       fz_debug_kernel() ? "debug (lockdep)" : "normal",
	       *inject ? ", INJECTED WRONG EXPECTATION: " : "", inject);
	optind = 1;
	return test_harness_run(1, argv);
}
