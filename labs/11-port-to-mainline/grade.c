// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 11's grader, linked with the attendee's getselfattr.c and run in a
 * guest of the reference kernel (mainline 6.12).  The truth comes from
 * its own lsm_list_modules() and lsm_get_self_attr() calls, made with a
 * raw system call instruction.
 *
 * The hints say which difference between the kit and mainline the
 * attendee tripped on, from what their code did: this file defines
 * syscall() itself, so the attendee's syscall(...) calls come here (the
 * static link takes this definition instead of glibc's), are recorded
 * (number, arguments, the *size and ctx->id they passed, the answer) and
 * then made unchanged.  A hint names a call only if the attendee's code
 * made it.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "grader.h"
#include "lab.h"

/* A long Smack label, so that a value needs padding to a multiple of 8. */
#define LABEL "lab11.workshop.label"

/* The kit's numbers (patches 0002 and 0008), for the hints only. */
#define KIT_NR_SELF_ATTR	451
#define KIT_NR_MODULE_LIST	452
#define KIT_ID_FIRST		32	/* LSM_ID_CAPABILITY on the kit */

static const char * const attr_names[] = {
	"current", "exec", "fscreate", "keycreate", "prev", "sockcreate"
};

#define NATTRS 6

/* The kit's ID -> name (32...44) and mainline's (100...113). */
static const char *const kit_names[] = {
	"capability", "selinux", "smack", "tomoyo", "ima", "apparmor", "yama",
	"loadpin", "safesetid", "lockdown", "bpf", "landlock", "toylsm",
};

static const char *const main_names[] = {
	"capability", "selinux", "smack", "tomoyo", "apparmor", "yama", "loadpin",
	"safesetid", "lockdown", "bpf", "landlock", "ima", "evm", "ipe",
};

#define NKIT (sizeof(kit_names) / sizeof(kit_names[0]))
#define NMAIN (sizeof(main_names) / sizeof(main_names[0]))

/*
 * What the attendee's syscall() calls did: syscall(), below, records each
 * (this grader's own calls, sys(), are not recorded).
 */
struct call {
	long nr;
	long arg[4];
	int has_size;		/* *size could be read before the call */
	__u32 size;		/* ... and was this */
	int has_id;		/* LSM_FLAG_SINGLE: ctx->id could be read */
	__u64 id;
	long ret;
	int err;
};

#define MAX_CALLS 64
static struct call calls[MAX_CALLS];
static int ncalls, calls_lost;
static int peek_pipe[2] = { -1, -1 };

/* ---- the truth: what the kernel says to the grader ---- */

static __u64 truth_ids[64];
static long truth_nids;
static struct {
	long count;		/* entries, or -1 */
	int err;		/* errno when count is -1 */
	__u32 size;
	unsigned char buf[4096] __attribute__((aligned(8)));
} truth[NATTRS];
static long truth_entries, truth_calls_ok;
static int no_mainline;		/* ENOSYS: not the reference kernel */

/* One synthetic entry: id, value of ctx_len bytes (NUL included), len. */
struct synth { __u64 id; const char *value; __u64 ctx_len, len; };

/* The steps' helpers and hints, after the steps. */
static const char *main_name(__u64 id);
static const char *attr_name(unsigned int attr);
static long sys(long n, long a, long b, long c, long d);
static void calls_reset(void);
static const struct call *find_call(long nr);
static const char *errshort(int e);
static int hint_numbers(long want_nr, const char *want);
static void need_mainline(void);
static void hint_get_call(unsigned int attr);
static const struct lsm_ctx *truth_entry(unsigned int attr, __u64 id);
static void hint_single(const char *lsm, long r, int e);

/* ---- the steps ---- */

STEP(1, "list the active modules with lsm_list_modules")
{
	__u64 ids[64];
	const struct call *c;
	long r;
	int e;

	need_mainline();
	memset(ids, 0xff, sizeof(ids));
	calls_reset();
	errno = 0;
	r = lab_list_modules(ids, truth_nids);
	e = errno;
	lab_check_todo(1, "lab_list_modules()");
	c = find_call(__NR_lsm_list_modules);
	if (r != truth_nids || memcmp(ids, truth_ids, truth_nids * sizeof(ids[0]))) {
		char want[512] = "", got[512] = "";

		for (long i = 0; i < truth_nids; i++) {
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%llu",
				 i ? " " : "", (unsigned long long)truth_ids[i]);
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%llu",
				 i ? " " : "", (unsigned long long)ids[i]);
		}
		lab_expected("lab_list_modules(ids, %ld) returns %ld, ids = %s (%s)", truth_nids,
			     truth_nids, want, fs_list);
		if (r < 0)
			lab_seen("it returned %ld, errno %s", r, errname(e));
		else
			lab_seen("it returned %ld, ids = %s", r, got);
		if (hint_numbers(__NR_lsm_list_modules, "lsm_list_modules"))
			lab_fail();
		if (c && c->has_size && c->size == truth_nids * sizeof(__u32))
			lab_hint("your *size was %u bytes for %ld IDs, 4 bytes each: the kit's IDs were __u32; mainline's are __u64, so *size = max * sizeof(__u64) (the kernel answered %s)",
				 c->size, truth_nids, errshort(c->err));
		else if (c && c->arg[2] != 0)
			lab_hint("flags was %ld: it must be 0 (EINVAL otherwise)", c->arg[2]);
		else if (c && c->has_size && c->size < truth_nids * sizeof(__u64))
			lab_hint("your *size was %u bytes; %ld IDs of 8 bytes (__u64) need %zu: *size counts bytes",
				 c->size, truth_nids,
				 truth_nids * sizeof(__u64));
		else if (c && !c->has_size)
			lab_hint("the kernel could not read *size (%s): pass the address of a __u32 that holds the room in bytes",
				 errshort(c->err));
		else if (r >= 0 && r == truth_nids)
			lab_hint("the count is right, the IDs are not: read them as the __u64 array the kernel wrote");
		else
			lab_hint("syscall(__NR_lsm_list_modules, ids, &size, 0), with __u32 size = max * sizeof(__u64): it returns the count");
		lab_fail();
	}
	/* Room for one ID fewer than there are. */
	calls_reset();
	errno = 0;
	r = lab_list_modules(ids, truth_nids - 1);
	e = errno;
	if (r != -1 || e != E2BIG) {
		lab_expected("lab_list_modules(ids, %ld), room for one ID fewer than the %ld modules, returns -1 with errno E2BIG",
			     truth_nids - 1, truth_nids);
		lab_seen_returned(r, e);
		c = find_call(__NR_lsm_list_modules);
		if (c && c->ret == -1 && c->err == E2BIG)
			lab_hint("the kernel answered E2BIG: return -1 and leave errno as the kernel set it");
		else
			lab_hint("*size must be the room you have, max * sizeof(__u64): with less than the list needs, the kernel fails with E2BIG");
		lab_fail();
	}
}

STEP(2, "name mainline's attributes")
{
	static const unsigned int bad[] = { 0, 1, 2, 4, 8, 16, 32, 99, 106, 200 };
	const char *r;

	for (int i = 0; i < NATTRS; i++) {
		r = lab_attr_name(LSM_ATTR_CURRENT + i);
		lab_check_todo(2, "lab_attr_name()");
		if (r && !strcmp(r, attr_names[i]))
			continue;
		lab_expected("lab_attr_name(%d) returns \"%s\" (LSM_ATTR_%s is %d in mainline)",
			     LSM_ATTR_CURRENT + i, attr_names[i],
			     i == 0 ? "CURRENT" : i == 1 ? "EXEC" : i == 2 ? "FSCREATE" :
			     i == 3 ? "KEYCREATE" : i == 4 ? "PREV" : "SOCKCREATE",
			     LSM_ATTR_CURRENT + i);
		lab_seen("it returned %s", lab_quote(r, -1));
		if (lab_attr_name(1u << i) && !strcmp(lab_attr_name(1u << i), attr_names[i]))
			lab_hint("your function names %u \"%s\": that is the kit's bit (0x%04x in the series' <linux/lsm.h>); mainline's attributes are numbers, 100 to 105: use the LSM_ATTR_* macros of 6.12's <linux/lsm.h>",
				 1u << i, attr_names[i], 1u << i);
		else
			lab_hint("one case per LSM_ATTR_* of build/mainline/usr/include/linux/lsm.h: CURRENT 100 ... SOCKCREATE 105");
		lab_fail();
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = lab_attr_name(bad[i]);
		if (!r)
			continue;
		lab_expected("lab_attr_name(%u) returns NULL: no attribute has that number in mainline",
			     bad[i]);
		lab_seen("it returned %s", lab_quote(r, -1));
		if (bad[i] >= 1 && bad[i] <= 32)
			lab_hint("%u was the kit's LSM_ATTR_%s bit; in mainline it is nothing (LSM_ATTR_UNDEF is 0, then 100 to 105)",
				 bad[i], r);
		else
			lab_hint("a switch on the exact values LSM_ATTR_CURRENT ... LSM_ATTR_SOCKCREATE, NULL for anything else");
		lab_fail();
	}
}

STEP(3, "fetch one attribute of every module with lsm_get_self_attr")
{
	for (int a = 0; a < NATTRS; a++) {
		unsigned int attr = LSM_ATTR_CURRENT + a;
		struct lsm_ctx *buf = (void *)1;
		__u32 size = 12345;
		long r;
		int e;

		need_mainline();
		calls_reset();
		errno = 0;
		r = lab_get_attr(attr, &buf, &size);
		e = errno;
		lab_check_todo(3, "lab_get_attr()");
		if (truth[a].count < 0 && truth[a].err == EOPNOTSUPP) {
			if (r == 0 && !buf && size == 0)
				continue;
			lab_expected("lab_get_attr(%s) returns 0 with *ctxp NULL and *sizep 0: no active module has %s (%s), so the kernel answers EOPNOTSUPP",
				     attr_names[a], attr_names[a], fs_list);
			if (r < 0)
				lab_seen("it returned %ld, errno %s", r, errname(e));
			else
				lab_seen("it returned %ld, *ctxp %s, *sizep %u", r,
					 buf ? "not NULL" : "NULL", size);
			if (r < 0 && e == EOPNOTSUPP)
				lab_hint("EOPNOTSUPP here means \"no module has this attribute\": nothing to report, not a failure (the kit's one call answered 0 entries for it)");
			else
				hint_get_call(attr);
			lab_fail();
		}
		if (truth[a].count < 0) {	/* another error: the same one */
			if (r == -1 && e == truth[a].err)
				continue;
			lab_expected("lab_get_attr(%s) returns -1 with errno %s, as the kernel answers",
				     attr_names[a],
				     errname(truth[a].err));
			lab_seen("it returned %ld, errno %s", r, errname(e));
			lab_fail();
		}
		if (r == truth[a].count && size == truth[a].size && buf && buf != (void *)1 &&
		    !memcmp(buf, truth[a].buf, size)) {
			free(buf);
			continue;
		}
		lab_expected("lab_get_attr(%s) returns %ld, the entries, with *sizep %u and the buffer the kernel filled",
			     attr_names[a], truth[a].count, truth[a].size);
		if (r < 0)
			lab_seen("it returned %ld, errno %s", r, errname(e));
		else
			lab_seen("it returned %ld, *sizep %u", r, size);
		if (r < 0 && e == E2BIG)
			lab_hint("E2BIG on the second call: size must say how big your buffer is (the probed size), and the buffer be that big");
		else if (r == (long)truth[a].size && r != truth[a].count)
			lab_hint("that is the size in bytes; return what the second call returned, the number of entries");
		else if (r == truth[a].count && size != truth[a].size)
			lab_hint("after the second call, size holds the bytes used: store it in *sizep");
		else if (r == truth[a].count && (!buf || buf == (void *)1))
			lab_hint("set *ctxp to the buffer the kernel filled");
		else if (r == truth[a].count)
			lab_hint("the buffer's bytes differ from a fresh lsm_get_self_attr(%s): give *ctxp the very buffer the kernel filled",
				 attr_names[a]);
		else
			hint_get_call(attr);
		lab_fail();
	}
}

STEP(4, "walk from one lsm_ctx entry to the next")
{
	/*
	 * As mainline lays them out: len = the header, the value and padding;
	 * the last one has more after its value than the padding to 8.
	 */
	static const struct synth e[] = {
		{ LSM_ID_SMACK, "a", 2, 40 },
		{ LSM_ID_SMACK, LABEL, sizeof(LABEL), 56 },
		{ LSM_ID_SELINUX, "", 0, 32 },
		{ LSM_ID_APPARMOR, "unconfined", 11, 64 },
	};
	static unsigned char synth[512] __attribute__((aligned(8)));
	const struct lsm_ctx *at[5], *got, *c;
	size_t off = 0;
	int i;

	memset(synth, 0, sizeof(synth));
	for (i = 0; i < 4; i++) {
		struct lsm_ctx *x = (struct lsm_ctx *)(synth + off);

		x->id = e[i].id;
		x->flags = 0;
		x->len = e[i].len;
		x->ctx_len = e[i].ctx_len;
		memcpy(x->ctx, e[i].value, e[i].ctx_len);
		at[i] = x;
		off += e[i].len;
	}
	at[4] = (const struct lsm_ctx *)(synth + off);
	for (i = 0; i < 4; i++) {
		long d;

		got = lab_ctx_next(at[i]);
		lab_check_todo(4, "lab_ctx_next()");
		if (got == at[i + 1])
			continue;
		c = at[i];
		d = (const char *)got - (const char *)c;
		lab_expected("for an entry with len %llu and ctx_len %llu (value %s), the next one starts %llu bytes after it",
			     (unsigned long long)c->len, (unsigned long long)c->ctx_len,
			     lab_quote((const char *)c->ctx,
				       (long)c->ctx_len), (unsigned long long)c->len);
		if (!got)
			lab_seen("lab_ctx_next() returned NULL");
		else
			lab_seen("lab_ctx_next() returned an address %ld bytes after it", d);
		if (got && d == (long)(sizeof(*c) + c->ctx_len))
			lab_hint("%ld = the 32-byte header + ctx_len: the kit's rule, where ctx_len was padded to 8; mainline's ctx_len is the value's own length (strlen + 1 for text, 0 for none) and len is the whole entry: (const char *)ctx + ctx->len",
				 d);
		else if (got && d == (long)(16 + c->ctx_len))
			lab_hint("16 + ctx_len is the kit's 16-byte header; mainline's struct lsm_ctx has four __u64, 32 bytes, and len says where the next entry is");
		else if (got && d == (long)((sizeof(*c) + c->ctx_len + 7) & ~7ul))
			lab_hint("you computed the padding yourself (header + ctx_len, rounded up to 8): right for most entries, but len is what says where the next one starts, and a module may put more after its value");
		else if (got && d == (long)(sizeof(*c) + c->len))
			lab_hint("len already counts the 32-byte header: add it to the start of the entry, not to ctx->ctx");
		else
			lab_hint("the next entry is at (const char *)ctx + ctx->len; careful with pointer arithmetic on a struct pointer (it counts in structs, not bytes)");
		lab_fail();
	}
	/* The kernel's own buffers: count entries end exactly at size. */
	for (int a = 0; a < NATTRS; a++) {
		if (truth[a].count <= 0)
			continue;
		c = (const struct lsm_ctx *)truth[a].buf;
		for (i = 0; i < truth[a].count; i++)
			c = lab_ctx_next(c);
		if ((const unsigned char *)c != truth[a].buf + truth[a].size) {
			lab_expected("walking the kernel's %ld entries of %s ends %u bytes after the start",
				     truth[a].count, attr_names[a], truth[a].size);
			lab_seen("it ended %td bytes after it",
				 (const unsigned char *)c - truth[a].buf);
			lab_fail();
		}
	}
}

STEP(5, "one module's attribute with LSM_FLAG_SINGLE")
{
	char value[512];
	long r;
	int e, asked = 0;

	need_mainline();
	/* Every active module, for current: its value, or EOPNOTSUPP. */
	for (long i = 0; i < truth_nids; i++) {
		const char *lsm = main_name(truth_ids[i]);
		const struct lsm_ctx *t = truth_entry(LSM_ATTR_CURRENT, truth_ids[i]);
		char want[512];

		if (!lsm || !strcmp(lsm, "capability"))
			continue;
		asked++;
		if (t)
			snprintf(want, sizeof(want), "%.*s",
				 (int)strnlen((const char *)t->ctx, t->ctx_len),
				 (const char *)t->ctx);
		memset(value, 'X', sizeof(value));
		calls_reset();
		errno = 0;
		r = lab_get_single(LSM_ATTR_CURRENT, lsm, value, sizeof(value));
		e = errno;
		lab_check_todo(5, "lab_get_single()");
		if (t && r == (long)strlen(want) && !strcmp(value, want))
			continue;
		if (!t && r == -1 && e == EOPNOTSUPP)
			continue;
		if (t)
			lab_expected("lab_get_single(LSM_ATTR_CURRENT, \"%s\", value, %zu) returns %zu with value %s",
				     lsm, sizeof(value), strlen(want), lab_quote(want, -1));
		else
			lab_expected("lab_get_single(LSM_ATTR_CURRENT, \"%s\", value, %zu) returns -1 with errno EOPNOTSUPP: %s has no current attribute",
				     lsm, sizeof(value), lsm);
		if (r < 0)
			lab_seen("it returned %ld, errno %s", r, errname(e));
		else
			lab_seen("it returned %ld, value %s", r,
				 lab_quote(value, strnlen(value, 80)));
		hint_single(lsm, r, e);
		lab_fail();
	}
	/* A value that does not fit: ERANGE (Smack's long label). */
	if (truth_entry(LSM_ATTR_CURRENT, LSM_ID_SMACK)) {
		calls_reset();
		errno = 0;
		r = lab_get_single(LSM_ATTR_CURRENT, "smack", value, 8);
		e = errno;
		if (r != -1 || e != ERANGE) {
			lab_expected("lab_get_single(LSM_ATTR_CURRENT, \"smack\", value, 8) returns -1 with errno ERANGE: the label \"%s\" and its NUL need %zu bytes",
				     LABEL, sizeof(LABEL));
			lab_seen_returned(r, e);
			lab_hint("compare the value's length + 1 with len before copying; set errno = ERANGE");
			lab_fail();
		}
	}
	/* A name that is no module: EINVAL, without asking the kernel. */
	calls_reset();
	errno = 0;
	r = lab_get_single(LSM_ATTR_CURRENT, "nosuchlsm", value, sizeof(value));
	e = errno;
	if (r != -1 || e != EINVAL) {
		lab_expected("lab_get_single(LSM_ATTR_CURRENT, \"nosuchlsm\", ...) returns -1 with errno EINVAL: no module has that name");
		lab_seen_returned(r, e);
		lab_hint("look the name up in your table; for a name that is not there, set errno = EINVAL and return -1");
		lab_fail();
	}
	(void)asked;
}

STEP(6, "print every attribute of every module")
{
	lab_needs(2);
	lab_needs(3);
	lab_needs(4);
	char want[4096] = "", *got = NULL;
	size_t used = 0, gotlen = 0;
	int asked[NATTRS] = { 0 }, kitbits = 0, nasked = 0, empty = -1;
	FILE *f;
	long r;
	int e;

	need_mainline();
	for (int a = 0; a < NATTRS; a++) {
		const struct lsm_ctx *c = (const void *)truth[a].buf;

		for (long i = 0; i < truth[a].count; i++) {
			used += snprintf(want + used, sizeof(want) - used, "%llu %s %.*s\n",
					 (unsigned long long)c->id, attr_names[a],
					 (int)strnlen((const char *)c->ctx,
						      c->ctx_len), (const char *)c->ctx);
			if (c->ctx_len == 0 && empty < 0)
				empty = a;
			c = (const void *)((const char *)c + c->len);
		}
	}
	f = open_memstream(&got, &gotlen);
	calls_reset();
	errno = 0;
	r = lab_print_self_attrs(f);
	e = errno;
	fclose(f);
	lab_check_todo(6, "lab_print_self_attrs()");
	if (r == truth_entries && !strcmp(got, want)) {
		free(got);
		return;
	}
	for (int i = 0; i < ncalls; i++) {
		long at = calls[i].arg[0];

		if (calls[i].nr != __NR_lsm_get_self_attr)
			continue;
		if (at >= LSM_ATTR_CURRENT && at <= LSM_ATTR_SOCKCREATE &&
		    !asked[at - LSM_ATTR_CURRENT]++)
			nasked++;
		if (at >= 1 && at <= 32 && !(at & (at - 1)))
			kitbits++;
	}
	if (r != truth_entries) {
		lab_expected("lab_print_self_attrs() returns %ld, the number of lines (entries of all 6 attributes)",
			     truth_entries);
		lab_seen_returned(r, e);
	}
	if (strcmp(got, want)) {
		lab_expected("these lines: %s", lab_quote(want, -1));
		lab_seen("these lines: %s", lab_quote(got, -1));
	}
	if (hint_numbers(__NR_lsm_get_self_attr, "lsm_get_self_attr"))
		lab_fail();
	if (kitbits) {
		lab_hint("your code asked lsm_get_self_attr for attribute(s) numbered 1, 2, 4...: the kit's LSM_ATTR_* bits; mainline's attributes are 100 (LSM_ATTR_CURRENT) to 105 (LSM_ATTR_SOCKCREATE)");
		lab_fail();
	}
	if (nasked < NATTRS) {
		char which[128] = "";
		int missing = 0;

		for (int a = 0; a < NATTRS; a++) {
			if (asked[a])
				snprintf(which + strlen(which), sizeof(which) - strlen(which), "%s%s",
					 which[0] ? ", " : "", attr_names[a]);
			else if (truth[a].count > 0)
				missing++;
		}
		if (missing) {
			lab_hint("your code asked lsm_get_self_attr for %s only, and this boot has entries for other attributes: mainline returns one attribute per call, so call it for each of LSM_ATTR_CURRENT (100) to LSM_ATTR_SOCKCREATE (105)%s",
				 nasked ? which : "no attribute",
				 nasked == 1 && asked[0] ?
				 " (a loop that doubles the attribute, as the kit's bits needed, stops after 100)"
				 : "");
			lab_fail();
		}
	}
	if (empty >= 0 && !strstr(got, want)) {
		const struct lsm_ctx *c = (const void *)truth[empty].buf;
		char line[64], *p;

		snprintf(line, sizeof(line), "%llu %s ", (unsigned long long)c->id,
			 attr_names[empty]);
		p = strstr(got, line);
		if (p && p[strlen(line)] != '\n') {
			lab_hint("the entry %llu %s has ctx_len 0: an empty value (SELinux reports an unset attribute so; the kit left it out). Your line shows bytes after it: the value has no NUL of its own, so print at most ctx_len bytes (\"%%.*s\")",
				 (unsigned long long)c->id, attr_names[empty]);
			lab_fail();
		}
	}
	if (r < 0 && e == EOPNOTSUPP)
		lab_hint("EOPNOTSUPP from an attribute that no module has: skip it (step 3 returns 0 for it), and go on with the next");
	else if (r >= 0 && r != truth_entries && !strcmp(got, want))
		lab_hint("the lines are right: return their number, the entries of all the attributes together");
	else
		lab_hint("one line per entry, \"%%llu %%s %%.*s\\n\": ctx->id, the attribute's name (step 2), the value; print to out, not stdout");
	lab_fail();
}

static void lab_banner(void)
{
	struct utsname u;
	__u32 size = sizeof(truth_ids);

	load_fs_list();
	if (pipe(peek_pipe) < 0)
		printf("grader: pipe: %s (the hints cannot quote your *size)\n", errname(errno));
	if (lsm_active("smack")) {
		int fd = open("/proc/self/attr/smack/current", O_WRONLY);

		if (fd < 0 || write(fd, LABEL, strlen(LABEL)) != (ssize_t)strlen(LABEL))
			printf("grader: could not set the Smack label %s: %s\n", LABEL,
			       errname(errno));
		if (fd >= 0)
			close(fd);
	}
	truth_nids = sys(__NR_lsm_list_modules, (long)truth_ids, (long)&size, 0, 0);
	if (truth_nids < 0 && errno == ENOSYS)
		no_mainline = 1;
	else if (truth_nids < 0)
		printf("grader: the kernel's lsm_list_modules failed: %s\n", errname(errno));
	for (int a = 0; a < NATTRS && !no_mainline; a++) {
		truth[a].size = sizeof(truth[a].buf);
		truth[a].count = sys(__NR_lsm_get_self_attr, LSM_ATTR_CURRENT + a,
				     (long)truth[a].buf, (long)&truth[a].size, 0);
		truth[a].err = truth[a].count < 0 ? errno : 0;
		if (truth[a].count < 0)
			truth[a].size = 0;
		if (truth[a].count < 0 && truth[a].err != EOPNOTSUPP)
			printf("grader: the kernel's lsm_get_self_attr(%s) failed: %s\n",
			       attr_names[a], errname(truth[a].err));
		if (truth[a].count >= 0) {
			truth_entries += truth[a].count;
			truth_calls_ok++;
		}
	}
	uname(&u);
	printf("lab 11: porting to mainline; this boot: Linux %s, %s; %ld %s from %ld of 6 attributes\n",
	       u.release, fs_list, truth_entries,
	       truth_entries == 1 ? "entry" : "entries", truth_calls_ok);
}

/* "getselfattr" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	__u64 ids[64];
	long n = lab_list_modules(ids, 64);

	if (!lab_show_todo("lab_list_modules")) {
		if (n < 0)
			printf("lab_list_modules: %s\n", errname(errno));
		for (long i = 0; i < n; i++)
			printf("module %llu %s\n", (unsigned long long)ids[i],
			       main_name(ids[i]) ? main_name(ids[i]) : "?");
	}
	for (unsigned int a = LSM_ATTR_CURRENT; a <= LSM_ATTR_SOCKCREATE; a++) {
		struct lsm_ctx *buf = NULL;
		__u32 size = 0;
		const char *name = lab_attr_name(a);

		if (lab_show_todo("lab_attr_name"))
			name = attr_name(a);
		n = lab_get_attr(a, &buf, &size);
		if (lab_show_todo("lab_get_attr"))
			break;
		if (n < 0)
			printf("lab_get_attr(%s): %s\n", name ? name : "?", errname(errno));
		else
			printf("%s: %ld entries in %u bytes\n", name ? name : "?", n, size);
		free(buf);
	}
	n = lab_print_self_attrs(stdout);
	if (!lab_show_todo("lab_print_self_attrs") && n < 0)
		printf("lab_print_self_attrs: %s\n", errname(errno));
}

/* ---- names, system calls (the grader's own, and the attendee's, recorded), hints ---- */

static const char *main_name(__u64 id)
{
	return id >= LSM_ID_CAPABILITY && id < LSM_ID_CAPABILITY + NMAIN ?
		main_names[id - LSM_ID_CAPABILITY] : NULL;
}

static __u64 main_id(const char *name)
{
	for (size_t i = 0; i < NMAIN; i++)
		if (!strcmp(main_names[i], name))
			return LSM_ID_CAPABILITY + i;
	return 0;
}

static const char *kit_name(__u64 id)
{
	return id >= KIT_ID_FIRST && id < KIT_ID_FIRST + NKIT ? kit_names[id - KIT_ID_FIRST] : NULL;
}

static const char *attr_name(unsigned int attr)
{
	return attr >= LSM_ATTR_CURRENT && attr <= LSM_ATTR_SOCKCREATE ?
		attr_names[attr - LSM_ATTR_CURRENT] : "?";
}

static long raw_syscall(long n, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile ("syscall"
			  : "=a"(ret)
			  : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			  : "rcx", "r11", "memory");
	return ret;
}

/* The grader's calls: -1 with errno, as syscall() does. */
static long sys(long n, long a, long b, long c, long d)
{
	long r = raw_syscall(n, a, b, c, d, 0, 0);

	if (r < 0 && r > -4096) {
		errno = -r;
		return -1;
	}
	return r;
}

/* Copy n bytes at the attendee's address p, or 0 if p is not readable. */
static int peek(const void *p, void *to, size_t n)
{
	if (!p || peek_pipe[0] < 0)
		return 0;
	if (raw_syscall(SYS_write, peek_pipe[1], (long)p, n, 0, 0, 0) != (long)n)
		return 0;
	return raw_syscall(SYS_read, peek_pipe[0], (long)to, n, 0, 0, 0) == (long)n;
}

static void calls_reset(void)
{
	ncalls = 0;
	calls_lost = 0;
}

long syscall(long nr, ...)
{
	struct call *c = ncalls < MAX_CALLS ? &calls[ncalls++] : NULL;
	long a[6], r;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (c) {
		memset(c, 0, sizeof(*c));
		c->nr = nr;
		memcpy(c->arg, a, sizeof(c->arg));
		if (nr == __NR_lsm_get_self_attr) {
			c->has_size = peek((void *)a[2], &c->size, sizeof(c->size));
			if (a[3] & LSM_FLAG_SINGLE)
				c->has_id = peek((void *)a[1], &c->id, sizeof(c->id));
		} else if (nr == __NR_lsm_list_modules) {
			c->has_size = peek((void *)a[1], &c->size, sizeof(c->size));
		}
	} else {
		calls_lost = 1;
	}
	r = raw_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (c) {
		c->ret = r < 0 && r > -4096 ? -1 : r;
		c->err = r < 0 && r > -4096 ? (int)-r : 0;
	}
	if (r < 0 && r > -4096) {
		errno = -r;
		return -1;
	}
	return r;
}

/* The first recorded call with number nr, or NULL. */
static const struct call *find_call(long nr)
{
	for (int i = 0; i < ncalls; i++)
		if (calls[i].nr == nr)
			return &calls[i];
	return NULL;
}

static const char *errshort(int e)
{
	return e ? (strerrorname_np(e) ? strerrorname_np(e) : "an error") : "success";
}

/*
 * Hints about the system call numbers, true for what the attendee's code
 * called: the kit's numbers, or none of mainline's.  1 if one was given.
 */
static int hint_numbers(long want_nr, const char *want)
{
	const struct call *c = find_call(KIT_NR_SELF_ATTR);

	if (!c)
		c = find_call(KIT_NR_MODULE_LIST);
	if (c) {
		char said[64];

		if (c->ret < 0)
			snprintf(said, sizeof(said), "answered %s", errshort(c->err));
		else
			snprintf(said, sizeof(said), "returned %ld", c->ret);
		lab_hint("your code called syscall %ld, the kit's %s (patches 0006-0008); on 6.12, %ld is %s, and it %s",
			 c->nr,
			 c->nr == KIT_NR_SELF_ATTR ? "lsm_self_attr" : "lsm_module_list",
			 c->nr,
			 c->nr == KIT_NR_SELF_ATTR ?
			 "cachestat (not built into this kernel)" : "fchmodat2, a file call",
			 said);
		lab_hint("mainline's call is %s, __NR_%s (%ld) in <asm/unistd.h> of build/mainline/usr/include: use the name, not a number",
			 want, want, want_nr);
		return 1;
	}
	if (!find_call(want_nr) && ncalls == 0 && !calls_lost) {
		lab_hint("your code made no syscall() at all: %s has no glibc wrapper, call syscall(__NR_%s, ...)",
			 want, want);
		return 1;
	}
	return 0;
}

/* The step cannot be graded on a kernel without mainline's calls. */
static void need_mainline(void)
{
	if (!no_mainline && truth_nids >= 0)
		return;
	if (no_mainline)
		lab_kit("this kernel has no lsm_list_modules (ENOSYS): lab 11 runs on the reference kernel, mainline 6.12 (lab.conf: FLAVOUR=mainline); make lab 11 boots it, make run does not unless FLAVOUR=mainline");
	else
		lab_kit("the kernel's own lsm_list_modules() failed (see above): not your bug; tell the instructor");
	lab_fail();
}

/* Hints for a wrong lsm_get_self_attr() call, from the recorded calls. */
static void hint_get_call(unsigned int attr)
{
	const struct call *c;

	if (hint_numbers(__NR_lsm_get_self_attr, "lsm_get_self_attr"))
		return;
	c = find_call(__NR_lsm_get_self_attr);
	if (!c)
		return;
	if ((unsigned long)c->arg[0] != attr) {
		if ((unsigned long)c->arg[0] > 0xffff || c->arg[0] == 0)
			lab_hint("your first argument was %#lx%s: lsm_get_self_attr(attr, ctx, size, flags) takes the attribute first (the kernel answered %s); the kit's lsm_self_attr(ctx, size, flags) had none",
				 c->arg[0], c->arg[0] ? ", an address" : " (NULL?)",
				 errshort(c->err));
		else
			lab_hint("your first argument was %ld, not the attribute asked for (%u)",
				 c->arg[0], attr);
		return;
	}
	if (c->arg[3] != 0)
		lab_hint("flags was %ld: 0 asks every module (LSM_FLAG_SINGLE is step 5's)",
			 c->arg[3]);
	else if (c->arg[2] == 0)
		lab_hint("size was NULL: mainline answers EINVAL to that (the kit: EFAULT); pass the address of a __u32");
	else if (c->ret < 0 && c->err == EFAULT)
		lab_hint("EFAULT: the kernel could not read or write *size or your buffer");
}

/* The value module id reported for attr, from the truth, or NULL. */
static const struct lsm_ctx *truth_entry(unsigned int attr, __u64 id)
{
	int a = attr - LSM_ATTR_CURRENT;
	const struct lsm_ctx *c = (const void *)truth[a].buf;

	for (long i = 0; i < truth[a].count; i++) {
		if (c->id == id)
			return c;
		c = (const void *)((const char *)c + c->len);
	}
	return NULL;
}

/* Hints for a wrong LSM_FLAG_SINGLE call, from the recorded calls. */
static void hint_single(const char *lsm, long r, int e)
{
	const struct call *c;

	if (hint_numbers(__NR_lsm_get_self_attr, "lsm_get_self_attr"))
		return;
	for (int i = 0; i < ncalls; i++) {
		c = &calls[i];
		if (c->nr != __NR_lsm_get_self_attr)
			continue;
		if (!(c->arg[3] & LSM_FLAG_SINGLE)) {
			if (c->ret >= 0)
				lab_hint("your call had flags %ld, so every module with the attribute answered (%ld entries): flags = LSM_FLAG_SINGLE, with ctx->id set to %s's ID, asks that module alone",
					 c->arg[3], c->ret, lsm);
			else
				lab_hint("your call had flags %ld, which asks every module with the attribute (it answered %s): flags = LSM_FLAG_SINGLE, with ctx->id set to %s's ID, asks that module alone",
					 c->arg[3], errshort(c->err), lsm);
			return;
		}
		if (!c->arg[1]) {
			lab_hint("with LSM_FLAG_SINGLE, ctx cannot be NULL, not even for the size probe: the kernel reads the module's ID from ctx->id first (it answered %s)",
				 errshort(c->err));
			return;
		}
		if (c->has_id && c->id == LSM_ID_UNDEF) {
			char up[32];
			size_t k;

			for (k = 0; lsm[k] && k < sizeof(up) - 1; k++)
				up[k] = lsm[k] >= 'a' && lsm[k] <= 'z' ?
					lsm[k] - 'a' + 'A' : lsm[k];
			up[k] = '\0';
			lab_hint("ctx->id was 0 (LSM_ID_UNDEF) when you called: put the module's ID (LSM_ID_%s, %llu) in ctx->id before each call with LSM_FLAG_SINGLE",
				 up, (unsigned long long)main_id(lsm));
			return;
		}
		if (c->has_id && kit_name(c->id) && !main_name(c->id)) {
			lab_hint("you asked for ID %llu: that is the kit's number for %s (patch 0002); mainline numbers modules from 100, and %s is %llu there (LSM_ID_* of 6.12's <linux/lsm.h>)",
				 (unsigned long long)c->id, kit_name(c->id), kit_name(c->id),
				 (unsigned long long)main_id(kit_name(c->id)));
			return;
		}
		if (c->has_id && main_name(c->id) && strcmp(main_name(c->id), lsm)) {
			lab_hint("you asked for ID %llu, which is %s in mainline, not %s",
				 (unsigned long long)c->id,
				 main_name(c->id), lsm);
			return;
		}
	}
	if (r < 0 && e == ERANGE)
		lab_hint("ERANGE is for a value that does not fit in len bytes with its NUL; this one fits");
	else if (r >= 0)
		lab_hint("return strlen of the value you copied; ctx_len counts its NUL too");
}
