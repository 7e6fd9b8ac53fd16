// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2's grader, linked with the attendee's selfattr.c and run in the
 * guest.  The truth comes from its own lsm_self_attr() calls, checked
 * against /proc/self/attr/, and from synthetic buffers for the walk.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "grader.h"
#include "lab.h"

/* A long Smack label, so that a value needs padding to a multiple of 8. */
#define LABEL "lab2.workshop.label"

/*
 * The kernel's own answer, from lab_banner(): lsm_self_attr()'s entries
 * in truth, truth_size bytes, truth_count of them (-1: none to compare).
 */
static unsigned char truth[4096] __attribute__((aligned(8)));
static size_t truth_size;
static long truth_count;

static const char * const attr_names[] = {
	"current", "exec", "fscreate", "keycreate", "prev", "sockcreate"
};

/* The steps' helpers, after the steps. */
static const char *attr_name(__u32 flags);
static void need_truth(void);
static int proc_value(__u32 id, const char *attr, char *buf, size_t len);

STEP(1, "ask lsm_self_attr how many bytes your attributes need")
{
	long r;
	int e;

	need_truth();
	errno = 0;
	r = lab_self_attr_size();
	e = errno;
	lab_check_todo(1, "lab_self_attr_size()");
	if (r == (long)truth_size)
		return;
	if (truth_size)
		lab_expected("lab_self_attr_size() returns %zu: lsm_self_attr(NULL, &size, 0) fails with E2BIG and sets size to %zu",
			     truth_size, truth_size);
	else
		lab_expected("lab_self_attr_size() returns 0: with no attributes to report (%s), lsm_self_attr(NULL, &size, 0) returns 0 and sets size to 0",
			     fs_list);
	lab_seen_returned(r, e);
	if (r < 0 && e == E2BIG)
		lab_hint("E2BIG is the answer you want from the probe: return the size the kernel wrote");
	else if (r < 0 && e == EINVAL)
		lab_hint("EINVAL: flags must be 0");
	else if (r < 0 && e == EFAULT)
		lab_hint("EFAULT: pass the address of a size_t (&size), and NULL for ctx");
	else if (r < 0 && !truth_size)
		lab_hint("a return value of 0 is a success: nothing to report, size 0; not every boot has an LSM with attributes");
	else if (r == truth_count)
		lab_hint("that is the number of entries; the step asks for the size in bytes");
	else if (r == 0)
		lab_hint("the kernel writes size only when it fails with E2BIG: start with size = 0, call, return size");
	else
		lab_hint("syscall(__NR_lsm_self_attr, NULL, &size, 0) with size_t size = 0");
	lab_fail();
}

STEP(2, "fetch your attributes into a buffer of the probed size")
{
	lab_needs(1);
	struct lsm_ctx *buf = (void *)1;
	size_t size = 12345;
	long r;
	int e;

	need_truth();
	errno = 0;
	r = lab_self_attr_get(&buf, &size);
	e = errno;
	lab_check_todo(2, "lab_self_attr_get()");
	if (r != truth_count) {
		lab_expected("lab_self_attr_get() returns %ld, the number of entries", truth_count);
		lab_seen_returned(r, e);
		if (r < 0 && e == E2BIG)
			lab_hint("E2BIG on the second call: *size must say how big your buffer is (the probed size), and the buffer must be that big");
		else if (r < 0 && e == EFAULT)
			lab_hint("EFAULT: the kernel could not write your buffer or your size: pass the malloc()ed buffer and &size");
		else if (r < 0 && e == EINVAL)
			lab_hint("EINVAL: flags must be 0");
		else if (r == (long)truth_size)
			lab_hint("that is the size in bytes; return what the second lsm_self_attr call returned");
		else if (r == 0 && truth_count > 0)
			lab_hint("call lsm_self_attr a second time, with the buffer, and return its result");
		else
			lab_hint("probe the size (step 1), malloc() it, call lsm_self_attr(buf, &size, 0)");
		lab_fail();
	}
	if (size != truth_size) {
		lab_expected("*sizep = %zu, the bytes the kernel used", truth_size);
		lab_seen("*sizep = %zu", size);
		lab_hint("after the second call, size holds the bytes used: store it in *sizep");
		lab_fail();
	}
	if (truth_count == 0)
		return;
	if (!buf || buf == (void *)1) {
		lab_expected("*ctxp points to the buffer with the %ld entries", truth_count);
		lab_seen("*ctxp = %s", buf ? "(not set)" : "NULL");
		lab_fail();
	}
	if (memcmp(buf, truth, truth_size)) {
		lab_expected("the buffer holds what the kernel wrote (%zu bytes, %ld entries)",
			     truth_size, truth_count);
		lab_seen("its bytes differ from a fresh call of lsm_self_attr");
		lab_hint("give *ctxp the very buffer the kernel filled");
		lab_fail();
	}
	free(buf);
}

STEP(3, "walk from one lsm_ctx entry to the next")
{
	static const struct { __u32 id, flags; const char *value; } e[] = {
		{ LSM_ID_SMACK, LSM_ATTR_CURRENT, "_" },
		{ LSM_ID_SELINUX, LSM_ATTR_CURRENT, "system_u:system_r:kernel_t:s0" },
		{ LSM_ID_APPARMOR, LSM_ATTR_EXEC, "unconfined" },
	};
	static unsigned char synth[256] __attribute__((aligned(8)));
	const struct lsm_ctx *at[4], *got, *c;
	size_t off = 0;
	long i;

	/* Three entries as the kernel lays them out. */
	memset(synth, 0, sizeof(synth));
	for (i = 0; i < 3; i++) {
		struct lsm_ctx *x = (struct lsm_ctx *)(synth + off);
		size_t len = (strlen(e[i].value) + 1 + 7) & ~(size_t)7;

		x->id = e[i].id;
		x->flags = e[i].flags;
		x->ctx_len = len;
		memcpy(x->ctx, e[i].value, strlen(e[i].value));
		at[i] = x;
		off += sizeof(*x) + len;
	}
	at[3] = (const struct lsm_ctx *)(synth + off);
	for (i = 0; i < 3; i++) {
		got = lab_ctx_next(at[i]);
		lab_check_todo(3, "lab_ctx_next()");
		if (got == at[i + 1])
			continue;
		c = at[i];
		lab_expected("for an entry with ctx_len %llu (value \"%s\"), the next one starts %zu bytes after it: sizeof(struct lsm_ctx) + ctx_len",
			     (unsigned long long)c->ctx_len, (const char *)c->ctx,
			     (size_t)((const char *)at[i + 1] - (const char *)c));
		if (!got)
			lab_seen("lab_ctx_next() returned NULL");
		else
			lab_seen("lab_ctx_next() returned an address %td bytes after it",
				 (const char *)got - (const char *)c);
		if ((const char *)got == (const char *)c + c->ctx_len)
			lab_hint("you skipped ctx_len bytes from the start of the entry, but the value starts after the 16-byte header: start from ctx->ctx");
		else if ((const char *)got ==
			 (const char *)c->ctx + strlen((const char *)c->ctx) + 1)
			lab_hint("strlen(value) + 1 is %zu, but the kernel pads each value to a multiple of 8 (ctx_len = %llu) so that the next entry is aligned: use ctx_len",
				 strlen((const char *)c->ctx) + 1, (unsigned long long)c->ctx_len);
		else if ((const char *)got == (const char *)c + sizeof(*c))
			lab_hint("that is just past the header: add the value's ctx_len too");
		else
			lab_hint("the next entry is at ctx->ctx + ctx->ctx_len; careful with pointer arithmetic on a struct pointer (it counts in structs, not bytes)");
		lab_fail();
	}
	/* The kernel's own buffer: count entries end exactly at size. */
	if (truth_count > 0) {
		c = (const struct lsm_ctx *)truth;
		for (i = 0; i < truth_count; i++)
			c = lab_ctx_next(c);
		if ((const unsigned char *)c != truth + truth_size) {
			lab_expected("walking the kernel's %ld entries ends %zu bytes after the start",
				     truth_count, truth_size);
			lab_seen("it ended %td bytes after it", (const unsigned char *)c - truth);
			lab_fail();
		}
	}
}

STEP(4, "name each attribute")
{
	static const __u32 bad[] = {
		0, LSM_ATTR_CURRENT | LSM_ATTR_EXEC, 0x40, 0x80000000u, 0xffffffffu
	};
	const char *r;
	int i;

	for (i = 0; i < 6; i++) {
		r = lab_attr_name(1u << i);
		lab_check_todo(4, "lab_attr_name()");
		if (!r || strcmp(r, attr_names[i])) {
			lab_expected("lab_attr_name(0x%x) returns \"%s\"", 1u << i, attr_names[i]);
			lab_seen("it returned %s", lab_quote(r, -1));
			lab_hint("the names of the files in /proc/self/attr: one case per LSM_ATTR_* of build/usr/include/linux/lsm.h");
			lab_fail();
		}
	}
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		r = lab_attr_name(bad[i]);
		if (r) {
			lab_expected("lab_attr_name(0x%x) returns NULL: that is not exactly one LSM_ATTR_* bit",
				     bad[i]);
			lab_seen("it returned %s", lab_quote(r, -1));
			lab_hint("a switch on the exact value, not a test of single bits");
			lab_fail();
		}
	}
}

STEP(5, "print id, attribute and value of every entry")
{
	lab_needs(2);
	lab_needs(3);
	lab_needs(4);
	char want[2048] = "", pv[512], *got = NULL;
	size_t used = 0, gotlen = 0;
	const struct lsm_ctx *c = (const void *)truth;
	FILE *f;
	long i, r;
	int e;

	need_truth();
	for (i = 0; i < truth_count; i++) {
		used += snprintf(want + used, sizeof(want) - used, "%u %s %s\n",
				 c->id, attr_name(c->flags), (const char *)c->ctx);
		if (proc_value(c->id, attr_name(c->flags), pv, sizeof(pv)) == 0 &&
		    strcmp(pv, (const char *)c->ctx))
			lab_kit("the kernel's lsm_self_attr says %s for %u/%s, /proc/self/attr says %s: a kernel bug, not yours",
				lab_quote((const char *)c->ctx,
					  -1), c->id, attr_name(c->flags), lab_quote(pv, -1));
		c = (const void *)(c->ctx + c->ctx_len);
	}
	f = open_memstream(&got, &gotlen);
	errno = 0;
	r = lab_print_self_attrs(f);
	e = errno;
	fclose(f);
	lab_check_todo(5, "lab_print_self_attrs()");
	if (r != truth_count) {
		lab_expected("lab_print_self_attrs() returns %ld, the number of entries",
			     truth_count);
		lab_seen("it returned %ld, errno %s", r, errname(e));
		lab_hint("return the count that lab_self_attr_get() (step 2) gave you");
		lab_fail();
	}
	if (strcmp(got, want)) {
		lab_expected("these lines: %s", lab_quote(want, -1));
		lab_seen("these lines: %s", lab_quote(got, -1));
		if (truth_count > 0 && strstr(got, "?"))
			lab_hint("\"?\" means lab_attr_name() got no name: pass ctx->flags, the attribute bit");
		else
			lab_hint("one line per entry, \"%%u %%s %%s\\n\": ctx->id, lab_attr_name(ctx->flags), the value (char *)ctx->ctx; print to out, not stdout");
		lab_fail();
	}
	free(got);
}

static void lab_banner(void)
{
	size_t size = 0;

	load_fs_list();
	if (lsm_active("smack")) {
		int fd = open("/proc/self/attr/smack/current", O_WRONLY);

		if (fd < 0 || write(fd, LABEL, strlen(LABEL)) != (ssize_t)strlen(LABEL))
			printf("grader: could not set the Smack label %s: %s\n", LABEL,
			       errname(errno));
		if (fd >= 0)
			close(fd);
	}
	errno = 0;
	truth_count = syscall(__NR_lsm_self_attr, NULL, &size, 0);
	if (!(truth_count == 0 && size == 0) && !(truth_count == -1 && errno == E2BIG)) {
		printf("grader: the kernel's size probe answered %ld, errno %s, size %zu\n",
		       truth_count, errname(errno), size);
		truth_count = -1;
	} else if (truth_count == -1) {
		truth_size = sizeof(truth);
		truth_count = syscall(__NR_lsm_self_attr, truth, &truth_size, 0);
		if (truth_count < 0)
			printf("grader: the kernel's lsm_self_attr failed: %s\n", errname(errno));
	}
	printf("lab 2: reading your own contexts; this boot: %s, %ld attribute(s)\n",
	       fs_list, truth_count);
}

/* "selfattr" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	struct lsm_ctx *buf = NULL;
	size_t size = 0;
	long n;

	n = lab_self_attr_size();
	if (!lab_show_todo("lab_self_attr_size")) {
		if (n >= 0)
			printf("lsm_self_attr needs %ld bytes\n", n);
		else
			printf("lab_self_attr_size: %s\n", errname(errno));
	}
	n = lab_self_attr_get(&buf, &size);
	if (!lab_show_todo("lab_self_attr_get")) {
		if (n >= 0)
			printf("%ld entries in %zu bytes\n", n, size);
		else
			printf("lab_self_attr_get: %s\n", errname(errno));
		if (n > 0)
			free(buf);
	}
	n = lab_print_self_attrs(stdout);
	if (!lab_show_todo("lab_print_self_attrs") && n < 0)
		printf("lab_print_self_attrs: %s\n", errname(errno));
}

static const char *attr_name(__u32 flags)
{
	for (int i = 0; i < 6; i++)
		if (flags == 1u << i)
			return attr_names[i];
	return "?";
}

/* The step cannot be graded if the kernel's own answer is missing. */
static void need_truth(void)
{
	if (truth_count >= 0)
		return;
	if (errno == ENOSYS)
		lab_kit("this kernel has no lsm_self_attr (ENOSYS): it comes with patches/0006 and 0008; run make kernel, then make lab 2 again");
	else
		lab_kit("the kernel's own lsm_self_attr() call failed (see above): that is a kernel bug, not yours; tell the instructor");
	lab_fail();
}

/*
 * The value of /proc/self/attr/<lsm>/<attr> (SELinux: /proc/self/attr/<attr>),
 * which lsm_self_attr returns too (Documentation/userspace-api/lsm.rst).
 * -1 if there is no such file to compare with.
 */
static int proc_value(__u32 id, const char *attr, char *buf, size_t len)
{
	static const char *const names[] = {
		"capability", "selinux", "smack", "tomoyo", "ima", "apparmor", "yama",
		"loadpin", "safesetid", "lockdown", "bpf", "landlock", "toylsm",
	};
	char path[96];
	struct stat st;
	ssize_t n;
	int fd;

	if (id < LSM_ID_CAPABILITY || id > LSM_ID_TOYLSM)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/attr/%s", names[id - LSM_ID_CAPABILITY]);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(path, sizeof(path), "/proc/self/attr/%s/%s", names[id - LSM_ID_CAPABILITY],
			 attr);
	else if (id == LSM_ID_SELINUX)
		snprintf(path, sizeof(path), "/proc/self/attr/%s", attr);
	else
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}
