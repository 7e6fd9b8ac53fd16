// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1's grader, linked with the attendee's lsms.c and run in the guest.
 * The truth it compares with comes from the kernel directly: its own read
 * of /sys/kernel/security/lsm and its own lsm_module_list() calls.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>

#include "grader.h"
#include "kit/lsm_names.h"
#include "lab.h"

#define GUARD 0xdeadbeefu

static int fs_count;			/* names in fs_list (grader.h) */
static char fs_names[32][32];

/* The steps' helpers and checks, after the steps. */
static void read_truth(void);
static long kernel_ids(__u32 *ids, size_t max);
static const char *ids_text(const __u32 *ids, long n);
static void edges(void);
static int call_list(int (*fn)(char *, size_t), int step, const char *name, char *buf, int *e);
static void expect_length(int r);
static void too_small(int (*fn)(char *, size_t), const char *name, const char *why,
		      const char *refuse_hint, const char *past_hint);

STEP(1, "read /sys/kernel/security/lsm")
{
	char buf[512], why[64];
	int r, e;

	r = call_list(lab_securityfs_list, 1, "lab_securityfs_list", buf, &e);
	if (r < 0) {
		if (e == ENOENT)
			lab_hint("check the path: /sys/kernel/security/lsm (securityfs is mounted at /sys/kernel/security)");
		else if (e == E2BIG)
			lab_hint("E2BIG is only for a buffer that is too small; 512 bytes is plenty");
		else
			lab_hint("open() the file, read() into buf, close() it");
		lab_fail();
	}
	if (!memchr(buf, '\0', sizeof(buf))) {
		lab_expected("buf holds a NUL-terminated string");
		lab_seen("no NUL byte anywhere in buf (returned %d)", r);
		lab_hint("read() does not terminate what it reads: set buf[n] = '\\0' yourself");
		lab_fail();
	}
	if (strcmp(buf, fs_list)) {
		lab_expected("buf = %s", lab_quote(fs_list, -1));
		lab_seen("buf = %s", lab_quote(buf, -1));
		if (strlen(buf) == strlen(fs_list) + 1 && buf[strlen(fs_list)] == '\n')
			lab_hint("the file has no newline at the end: copy what read() gave you, nothing more");
		else if (strlen(buf) < strlen(fs_list))
			lab_hint("a short read? read() may return less than asked: keep reading until it returns 0");
		else
			lab_hint("copy exactly the bytes read() returned, then add the NUL");
		lab_fail();
	}
	expect_length(r);

	/* A buffer too small must be refused, and not overrun. */
	snprintf(why, sizeof(why), "%zu bytes and a NUL do not fit in 8", strlen(fs_list));
	too_small(lab_securityfs_list, "lab_securityfs_list", why,
		  "if the text and its NUL need more than len bytes, set errno = E2BIG and return -1",
		  "never read() or write more than len bytes into buf");
	edges();
}

STEP(2, "ask lsm_module_list how many bytes the IDs need")
{
	__u32 ids[32];
	long want = kernel_ids(ids, 32) * 4, r;
	int e;

	errno = 0;
	r = lab_module_list_size();
	e = errno;
	lab_check_todo(2, "lab_module_list_size()");
	if (r == want)
		return;
	lab_expected("lab_module_list_size() returns %ld: lsm_module_list(NULL, &size, 0) fails with E2BIG and sets size to %ld (%d LSMs x 4 bytes)",
		     want, want, fs_count);
	lab_seen_returned(r, e);
	if (r < 0 && e == E2BIG)
		lab_hint("E2BIG is the answer you want from the probe, not an error to pass on: return the size the kernel wrote");
	else if (r < 0 && e == EINVAL)
		lab_hint("EINVAL: the flags argument must be 0");
	else if (r < 0 && e == EFAULT)
		lab_hint("EFAULT: pass the address of a size_t (&size), and NULL for ids");
	else if (r == fs_count)
		lab_hint("that is the number of LSMs; the step asks for the size in bytes the kernel reported");
	else if (r == 0)
		lab_hint("the kernel writes size only when the call fails with E2BIG: start with size = 0, call, then return size");
	else
		lab_hint("syscall(__NR_lsm_module_list, NULL, &size, 0) with size_t size = 0");
	lab_fail();
}

STEP(3, "fetch the IDs with lsm_module_list")
{
	__u32 want[32], ids[40];
	long n = kernel_ids(want, 32), r;
	int e, i;

	for (i = 0; i < 40; i++)
		ids[i] = GUARD;
	errno = 0;
	r = lab_module_list(ids, n);
	e = errno;
	lab_check_todo(3, "lab_module_list()");
	if (r != n) {
		lab_expected("lab_module_list(ids, %ld) returns %ld: %ld IDs fit exactly", n, n, n);
		lab_seen_returned(r, e);
		if (r < 0 && e == E2BIG)
			lab_hint("*size counts bytes: room for max IDs is max * sizeof(__u32)");
		else if (r == n * 4)
			lab_hint("that is *size, in bytes; the system call's return value is the count");
		else
			lab_hint("return what syscall(__NR_lsm_module_list, ids, &size, 0) returns");
		lab_fail();
	}
	if (memcmp(ids, want, n * 4)) {
		lab_expected("ids = %s (the order of /sys/kernel/security/lsm: %s)",
			     ids_text(want, n), fs_list);
		lab_seen("ids = %s", ids_text(ids, n));
		lab_hint("pass ids itself to the kernel, not a copy, and do not reorder it");
		lab_fail();
	}
	for (i = n; i < 40; i++) {
		if (ids[i] != GUARD) {
			lab_expected("lab_module_list(ids, %ld) writes %ld IDs", n, n);
			lab_seen("ids[%d], past them, was overwritten", i);
			lab_fail();
		}
	}
	if (n < 2)
		return;
	for (i = 0; i < 40; i++)
		ids[i] = GUARD;
	errno = 0;
	r = lab_module_list(ids, n - 1);
	e = errno;
	lab_must_fail(r, e, E2BIG,
		      "tell the kernel the real room (max * sizeof(__u32)) and pass its error on",
		      "lab_module_list(ids, %ld) returns -1 with errno E2BIG: %ld IDs do not fit in room for %ld",
		      n - 1, n, n - 1);
	for (i = n - 1; i < 40; i++) {
		if (ids[i] != GUARD) {
			lab_expected("lab_module_list(ids, %ld) writes at most %ld IDs", n - 1,
				     n - 1);
			lab_seen("ids[%d] was overwritten", i);
			lab_hint("the room you tell the kernel must not be larger than the array");
			lab_fail();
		}
	}
}

STEP(4, "map each LSM ID to its name")
{
	static const __u32 unknown[] = { 0, 1, 31, 45, 100, (__u32)LSM_ID_INVALID };
	const char *r;
	size_t i;

	for (i = 0; i < (size_t)KIT_NLSMS; i++) {
		r = lab_lsm_name((__u32)kit_lsms[i].id);
		lab_check_todo(4, "lab_lsm_name()");
		if (!r || strcmp(r, kit_lsms[i].name)) {
			lab_expected("lab_lsm_name(%u) returns \"%s\"", (__u32)kit_lsms[i].id,
				     kit_lsms[i].name);
			lab_seen("it returned %s", lab_quote(r, -1));
			if (r && !strcasecmp(r, kit_lsms[i].name))
				lab_hint("spell the names as /sys/kernel/security/lsm does: lower case");
			else
				lab_hint("one case per LSM_ID_* of build/usr/include/linux/lsm.h; the name is the LSM_ID_ suffix in lower case");
			lab_fail();
		}
	}
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		r = lab_lsm_name(unknown[i]);
		if (r) {
			lab_expected("lab_lsm_name(%u) returns NULL: no LSM has that ID",
				     unknown[i]);
			lab_seen("it returned %s", lab_quote(r, -1));
			lab_hint("return NULL for every ID that <linux/lsm.h> does not define");
			lab_fail();
		}
	}
}

STEP(5, "names from the IDs agree with /sys/kernel/security/lsm")
{
	lab_needs(3);
	lab_needs(4);
	char buf[512], why[300];
	__u32 ids[32];
	int r, e;

	kernel_ids(ids, 32);
	r = call_list(lab_names_from_ids, 5, "lab_names_from_ids", buf, &e);
	if (r < 0) {
		lab_hint("steps 3 and 4 give you the IDs and their names; a failure there is passed on here");
		lab_fail();
	}
	if (!memchr(buf, '\0', sizeof(buf)) || strcmp(buf, fs_list)) {
		lab_expected("buf = %s, the same as /sys/kernel/security/lsm",
			     lab_quote(fs_list, -1));
		lab_seen("buf = %s", memchr(buf, '\0', sizeof(buf)) ? lab_quote(buf, -1) : "(no NUL in the buffer)");
		if (memchr(buf, '\0', sizeof(buf)) && strlen(buf) == strlen(fs_list) + 1 &&
		    buf[strlen(buf) - 1] == ',')
			lab_hint("no comma after the last name");
		else
			lab_hint("one name per ID, in the order lsm_module_list gives, joined by ','");
		lab_fail();
	}
	expect_length(r);
	snprintf(why, sizeof(why), "%s does not fit in 8 bytes", lab_quote(fs_list, -1));
	too_small(lab_names_from_ids, "lab_names_from_ids", why,
		  "snprintf() returns the length it wanted to write: if that is >= the room left, it did not fit",
		  "give snprintf() the room that is left (len - used), never more");
}

static void lab_banner(void)
{
	read_truth();
	printf("lab 1: which LSMs are active; this boot: %s\n", fs_list);
}

/* "lsms" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	char buf[512];
	__u32 ids[64];
	long n, i;
	int r;

	r = lab_securityfs_list(buf, sizeof(buf));
	if (!lab_show_todo("lab_securityfs_list"))
		printf(r >= 0 ? "/sys/kernel/security/lsm: %s\n" : "lab_securityfs_list: %s\n",
		       r >= 0 ? buf : errname(errno));
	n = lab_module_list_size();
	if (!lab_show_todo("lab_module_list_size")) {
		if (n >= 0)
			printf("lsm_module_list needs %ld bytes\n", n);
		else
			printf("lab_module_list_size: %s\n", errname(errno));
	}
	n = lab_module_list(ids, 64);
	if (!lab_show_todo("lab_module_list")) {
		if (n < 0) {
			printf("lab_module_list: %s\n", errname(errno));
		} else {
			printf("%ld LSMs:", n);
			for (i = 0; i < n; i++) {
				const char *name = lab_lsm_name(ids[i]);

				printf(" %u (%s)", ids[i], name ? name : lab_todo ? "TODO 4" : "?");
			}
			printf("\n");
			lab_todo = 0;
		}
	}
	r = lab_names_from_ids(buf, sizeof(buf));
	if (!lab_show_todo("lab_names_from_ids"))
		printf(r >= 0 ? "names from the IDs: %s\n" : "lab_names_from_ids: %s\n",
		       r >= 0 ? buf : errname(errno));
}

static void read_truth(void)
{
	char *save = NULL, *tok, copy[sizeof(fs_list)];

	load_fs_list();
	strcpy(copy, fs_list);
	for (tok = strtok_r(copy, ",", &save); tok && fs_count < 32;
	     tok = strtok_r(NULL, ",", &save))
		snprintf(fs_names[fs_count++], sizeof(fs_names[0]), "%s", tok);
}

/* The kernel's own answer; fails the step (as the kit's problem) if none. */
static long kernel_ids(__u32 *ids, size_t max)
{
	size_t size = 0;
	long r = syscall(__NR_lsm_module_list, NULL, &size, 0);

	if (r == -1 && errno == ENOSYS) {
		lab_kit("this kernel has no lsm_module_list system call (ENOSYS)");
		lab_kit("it comes with patches/0007-LSM-Add-the-lsm_module_list-system-call.patch and 0008 (the wire-up); run make kernel, then make lab 1 again");
		lab_fail();
	}
	if (r != -1 || errno != E2BIG || size != (size_t)fs_count * 4) {
		lab_kit("the kernel's answer to lsm_module_list(NULL, &size, 0) is wrong: %ld, errno %s, size %zu (/sys/kernel/security/lsm has %d names)",
			r, errname(errno), size, fs_count);
		lab_kit("that is a kernel bug, not yours: tell the instructor");
		lab_fail();
	}
	size = max * 4;
	r = syscall(__NR_lsm_module_list, ids, &size, 0);
	if (r != fs_count) {
		lab_kit("the kernel's lsm_module_list returned %ld, errno %s; expected %d", r,
			errname(errno), fs_count);
		lab_fail();
	}
	return r;
}

static const char *ids_text(const __u32 *ids, long n)
{
	static char buf[2][256];
	static int k;
	size_t used = 0;
	long i;

	k = !k;
	buf[k][0] = '\0';
	for (i = 0; i < n && used < sizeof(buf[0]) - 16; i++)
		used += snprintf(buf[k] + used, sizeof(buf[0]) - used, "%s%u", i ? " " : "",
				 ids[i]);
	return buf[k];
}

/*
 * Step 1, at the edge: room for the text but not its NUL (len = L), and
 * room for both, exactly (len = L + 1).  An off-by-one in the E2BIG test
 * ("got > len") passes with 512 and 8 bytes, and writes buf[len] here.
 */
static void edges(void)
{
	char buf[512 + 8];
	size_t L = strlen(fs_list), k;
	int r, e;

	for (k = L; k <= L + 1; k++) {
		memset(buf, 'G', sizeof(buf));
		errno = 0;
		r = lab_securityfs_list(buf, k);
		e = errno;
		if (k == L && (r != -1 || e != E2BIG)) {
			lab_expected("lab_securityfs_list(buf, %zu) returns -1 with errno E2BIG: the %zu bytes of %s fit, but not its NUL",
				     k, L, lab_quote(fs_list, -1));
			lab_seen("it returned %d, errno %s", r, errname(e));
			if (r == (int)L)
				lab_hint("a text of %zu bytes needs %zu with its NUL: it fits only if length < len (E2BIG when length >= len), and buf[len] is one byte past the end",
					 L, L + 1);
			else
				lab_hint("if the text and its NUL need more than len bytes, set errno = E2BIG and return -1");
			lab_fail();
		}
		if (k == L + 1 && (r != (int)L || memcmp(buf, fs_list, L + 1))) {
			lab_expected("lab_securityfs_list(buf, %zu) returns %zu with buf = %s: the text and its NUL fit exactly",
				     k, L, lab_quote(fs_list, -1));
			if (r < 0)
				lab_seen("it returned -1, errno %s", errname(e));
			else
				lab_seen("it returned %d, buf = %s", r, lab_quote(buf, k));
			if (r < 0 && e == E2BIG)
				lab_hint("%zu bytes of room hold %zu bytes of text and the NUL: E2BIG only when length + 1 > len",
					 k, L);
			else
				lab_hint("read until read() returns 0, then put the NUL right after the last byte read");
			lab_fail();
		}
		for (size_t i = k; i < sizeof(buf); i++) {
			if (buf[i] != 'G') {
				lab_expected("lab_securityfs_list(buf, %zu) writes at most %zu bytes (buf[0] to buf[%zu])",
					     k, k, k - 1);
				lab_seen("byte %zu, past the end of the buffer, was overwritten with %s",
					 i, lab_quote(buf + i, 1));
				lab_hint("buf[len] is one byte past the end of a buffer of len bytes: check that the NUL fits before you write it");
				lab_fail();
			}
		}
	}
}

/*
 * Step 1's and step 5's too small buffer: @fn (named @name) with 8 bytes
 * of room must return -1 with errno E2BIG (@why: why the text does not
 * fit; else @refuse_hint) and write nothing past them (else @past_hint).
 */
static void too_small(int (*fn)(char *, size_t), const char *name, const char *why,
		      const char *refuse_hint, const char *past_hint)
{
	char small[8 + 8];
	int r, e, i;

	memset(small, 'G', sizeof(small));
	errno = 0;
	r = fn(small, 8);
	e = errno;
	lab_must_fail(r, e, E2BIG, refuse_hint, "%s(buf, 8) returns -1 with errno E2BIG: %s", name,
		      why);
	for (i = 8; i < (int)sizeof(small); i++) {
		if (small[i] != 'G') {
			lab_expected("%s(buf, 8) writes at most 8 bytes", name);
			lab_seen("byte %d, past the end of the buffer, was overwritten", i);
			lab_hint("%s", past_hint);
			lab_fail();
		}
	}
}

/*
 * Steps 1 and 5: step @step's function @fn (named @name) with the 512
 * bytes of @buf, filled with X: its return value, its errno in *@e.  A
 * failure is said (expected, seen); the caller adds its hints and fails.
 */
static int call_list(int (*fn)(char *, size_t), int step, const char *name, char *buf, int *e)
{
	char called[64];
	int r;

	memset(buf, 'X', 512);
	errno = 0;
	r = fn(buf, 512);
	*e = errno;
	snprintf(called, sizeof(called), "%s()", name);
	lab_check_todo(step, called);
	if (r < 0) {
		lab_expected("%s(buf, 512) returns %zu, the length of %s", name, strlen(fs_list),
			     lab_quote(fs_list, -1));
		lab_seen("it returned %d, errno %s", r, errname(*e));
	}
	return r;
}

/* Steps 1 and 5: the return value is the list's length. */
static void expect_length(int r)
{
	if (r == (int)strlen(fs_list))
		return;
	lab_expected("the return value is %zu, strlen(buf)", strlen(fs_list));
	lab_seen("it returned %d", r);
	lab_fail();
}
