// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 3's grader, linked with the attendee's procattr.c and run in the
 * guest.  The truth comes from its own reads of /proc/self/attr and
 * /sys/kernel/security/lsm.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include "grader.h"
#include "kit/lsm_names.h"
#include "lab.h"

#define lsms kit_lsms
#define NLSMS KIT_NLSMS

/* The modules of this kernel that have the getprocattr hook. */
static const char *const procattr_lsms[] = { "selinux", "smack", "apparmor", "toylsm" };

/* The steps' helpers and checks, after the steps. */
static int id_of(const char *name);
static const char *name_of(int id);
static int has_procattr(int id);
static const char *path_of(const char *lsm, const char *attr);
static int truth_read(const char *lsm, const char *attr, char *val, size_t len,
		      int *err, char *raw, ssize_t *rawlen);
static void expect_write(const char *lsm, const char *attr, const char *value, int werr);
static void expect_value(const char *lsm, const char *attr, const char *want, const char *how);

STEP(1, "read an attr file, per-LSM or un-named")
{
	static const struct { const char *lsm, *attr; } files[] = {
		{ "smack", "current" }, { "apparmor", "current" },
		{ "apparmor", "exec" }, { "apparmor", "prev" },
		{ NULL, "current" }, { NULL, "exec" }, { NULL, "prev" },
		{ "toylsm", "current" }, { "nosuch", "current" },
	};
	char want[512], raw[4096], buf[512 + 8], *got;
	ssize_t rawlen;
	int i, r, tr, terr, e, big = -1;

	for (i = 0; i < (int)(sizeof(files) / sizeof(files[0])); i++) {
		const char *lsm = files[i].lsm, *attr = files[i].attr;

		tr = truth_read(lsm, attr, want, sizeof(want), &terr, raw, &rawlen);
		if (tr > 0 && big < 0)
			big = i;
		memset(buf, 'X', sizeof(buf));
		errno = 0;
		r = lab_read_attr(lsm, attr, buf, 512);
		e = errno;
		lab_check_todo(1, "lab_read_attr()");
		got = memchr(buf, '\0', 512) ? buf : NULL;
		if (tr < 0) {
			if (r == -1 && e == terr)
				continue;
			lab_expected("lab_read_attr(%s%s%s, \"%s\", buf, 512) returns -1 with errno %s",
				     lsm ? "\"" : "", lsm ? lsm : "NULL", lsm ? "\"" : "",
				     attr, errname(terr));
			lab_seen("it returned %d, errno %s%s%s", r, errname(e),
				 r >= 0 ? ", buf = " : "", r >= 0 && got ? lab_quote(buf, -1) : "");
			if (terr == EINVAL)
				lab_hint("reading %s fails with EINVAL: %s; pass that error on (return -1, errno as read() left it)",
					 path_of(lsm, attr),
					 lsm ? "the directory exists because the kernel is built with that module, but the module is not active (or has no such value)"
					     : "no active module has a value there");
			else if (terr == ENOENT)
				lab_hint("%s does not exist: open() fails with ENOENT; pass it on",
					 path_of(lsm, attr));
			else
				lab_hint("check every call's return value and pass its errno on");
			lab_fail();
		}
		if (r == tr && got && !strcmp(buf, want))
			continue;
		lab_expected("lab_read_attr(%s%s%s, \"%s\", buf, 512) returns %d with buf = %s",
			     lsm ? "\"" : "", lsm ? lsm : "NULL", lsm ? "\"" : "",
			     attr, tr, lab_quote(want, -1));
		if (r < 0)
			lab_seen("it returned -1, errno %s", errname(e));
		else
			lab_seen("it returned %d with buf = %s", r,
				 got ? lab_quote(buf, r + 1 > 512 ? 512 : r + 1) :
				 "(no NUL in buf)");
		lab_hint("read() gave %zd bytes: %s", rawlen, lab_quote(raw, rawlen));
		if (r >= 0 && got && strlen(buf) == (size_t)tr + 1 && buf[tr] == '\n')
			lab_hint("%s ends with a newline, as AppArmor's and toylsm's values do: drop one trailing '\\n'",
				 path_of(lsm, attr));
		else if (r == tr + 1 && rawlen > tr && raw[tr] == '\0')
			lab_hint("SELinux counts a NUL in what read() returns: the value ends at the first NUL (strnlen())");
		else if (!got)
			lab_hint("read() does not NUL-terminate: set buf[length] = '\\0'");
		else
			lab_hint("the return value is strlen(buf), the value's length");
		lab_fail();
	}
	if (big < 0)
		return;
	/* A buffer too small for the value and its NUL. */
	tr = truth_read(files[big].lsm, files[big].attr, want, sizeof(want), &terr, raw, &rawlen);
	memset(buf, 'G', sizeof(buf));
	errno = 0;
	r = lab_read_attr(files[big].lsm, files[big].attr, buf, tr);
	e = errno;
	lab_must_fail(r, e, E2BIG, "check that the value and its NUL fit in len bytes before you copy it",
		      "lab_read_attr(..., \"%s\", buf, %d) returns -1 with errno E2BIG: %s and its NUL need %d bytes",
		      files[big].attr, tr, lab_quote(want, -1), tr + 1);
	for (i = tr; i < (int)sizeof(buf); i++) {
		if (buf[i] != 'G') {
			lab_expected("lab_read_attr(..., buf, %d) writes at most %d bytes", tr, tr);
			lab_seen("byte %d, past the end, was overwritten", i);
			lab_hint("read() into a buffer of your own, then copy what fits");
			lab_fail();
		}
	}
}

STEP(2, "find the directory of an LSM, by its ID")
{
	static const int extra[] = { LSM_ID_INVALID, 0, 31, 45 };
	char path[64];
	struct stat st;
	const char *r, *want;
	int i, id;

	for (i = 0; i < NLSMS + 4; i++) {
		id = i < NLSMS ? lsms[i].id : extra[i - NLSMS];
		want = NULL;
		if (i < NLSMS) {
			snprintf(path, sizeof(path), "/proc/self/attr/%s", lsms[i].name);
			if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
				want = lsms[i].name;
		}
		r = lab_attr_dir(id);
		lab_check_todo(2, "lab_attr_dir()");
		if ((!r && !want) || (r && want && !strcmp(r, want)))
			continue;
		lab_expected("lab_attr_dir(%d) (%s) returns %s", id, name_of(id),
			     want ? lab_quote(want, -1) : "NULL");
		lab_seen("it returned %s", lab_quote(r, -1));
		if (want && !lsm_active(want))
			lab_hint("/proc/self/attr/%s exists whenever the kernel is built with %s, active or not (then reading it fails with EINVAL, step 1)",
				 want, want);
		else if (!want && id == LSM_ID_SELINUX)
			lab_hint("SELinux has no directory of its own: fs/proc/base.c (patch 0004) lists only smack and apparmor; SELinux answers the un-named files");
		else if (!want)
			lab_hint("there is no directory /proc/self/attr/%s: check with stat() that it exists",
				 i < NLSMS ? lsms[i].name : "?");
		else
			lab_hint("the directory has the module's name, as /sys/kernel/security/lsm spells it");
		lab_fail();
	}
}

STEP(3, "which LSM answers the un-named /proc/self/attr/current")
{
	char list[sizeof(fs_list)], *tok, *save = NULL;
	int want = LSM_ID_INVALID, r, e;
	unsigned int k;

	strcpy(list, fs_list);
	for (tok = strtok_r(list, ",", &save); tok && want == LSM_ID_INVALID;
	     tok = strtok_r(NULL, ",", &save))
		for (k = 0; k < sizeof(procattr_lsms) / sizeof(procattr_lsms[0]); k++)
			if (!strcmp(tok, procattr_lsms[k]))
				want = id_of(tok);
	errno = 0;
	r = lab_unnamed_owner();
	e = errno;
	lab_check_todo(3, "lab_unnamed_owner()");
	if (r == want)
		return;
	lab_expected("lab_unnamed_owner() returns %d (%s): with %s active, the first module on the getprocattr hook list is %s",
		     want, name_of(want), fs_list, want == LSM_ID_INVALID ? "none" : name_of(want));
	lab_seen("it returned %d (%s)%s%s", r, name_of(r), r == LSM_ID_INVALID ? ", errno " : "",
		 r == LSM_ID_INVALID ? errname(e) : "");
	if (r == LSM_ID_INVALID && e == ENOSYS)
		lab_hint("ENOSYS: call lsm_module_list as syscall(__NR_lsm_module_list, ids, &size, 0)");
	else if (r != LSM_ID_INVALID && id_of(name_of(r)) != r)
		lab_hint("%d is not an LSM ID of <linux/lsm.h>: return the ID of a module that lsm_module_list lists",
			 r);
	else if (r != LSM_ID_INVALID && !has_procattr(r) && lsm_active(name_of(r)))
		lab_hint("%s is active, but it has no process attributes: grep -rn 'LSM_HOOK_INIT(getprocattr' build/linux/security/ shows which modules do",
			 name_of(r));
	else if (r != LSM_ID_INVALID && !lsm_active(name_of(r)))
		lab_hint("%s is not active in this boot (%s): only the IDs that lsm_module_list returns count",
			 name_of(r), fs_list);
	else if (r != LSM_ID_INVALID && want != LSM_ID_INVALID)
		lab_hint("%s and %s both have the getprocattr hook, and %s comes first in this boot's order (%s): the un-named files reach the first one%s",
			 name_of(want), name_of(r), name_of(want), fs_list,
			 want == LSM_ID_TOYLSM ?
			 " (toylsm has process attributes too: demo-lsm/procattr.c)" : "");
	else if (r == LSM_ID_INVALID)
		lab_hint("%s is active and has the getprocattr hook (grep -rn 'LSM_HOOK_INIT(getprocattr' build/linux/security/): walk the IDs of lsm_module_list and return the first such module",
			 name_of(want));
	else
		lab_hint("no active module has the getprocattr hook in this boot: return LSM_ID_INVALID");
	lab_fail();
}

STEP(4, "write your label through one file, read it through the other")
{
	if (lsm_active("smack")) {
		/* One module, two doors: attr/smack/ by ID, attr/ as the first. */
		expect_write("smack", "current", "lab3.smack", 0);
		expect_value("smack", "current", "lab3.smack", "lab_write_attr(\"smack\", \"current\", \"lab3.smack\")");
		expect_value(NULL, "current", "lab3.smack", "lab_write_attr(\"smack\", \"current\", \"lab3.smack\")");
		expect_write(NULL, "current", "lab3.unnamed", 0);
		expect_value("smack", "current", "lab3.unnamed", "lab_write_attr(NULL, \"current\", \"lab3.unnamed\")");
	} else {
		expect_write("smack", "current", "lab3", EINVAL);
	}
	if (!lsm_active("apparmor"))
		expect_write("apparmor", "current", "lab3", EINVAL);
	expect_write("nosuch", "current", "lab3", ENOENT);
}

static void lab_banner(void)
{
	load_fs_list();
	printf("lab 3: /proc attrs; this boot: %s\n", fs_list);
}

/* "procattr" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	static const char *const files[][2] = {
		{ "smack", "current" }, { "apparmor", "current" }, { "apparmor", "exec" },
		{ "apparmor", "prev" }, { "toylsm", "current" },
		{ NULL, "current" }, { NULL, "exec" }, { NULL, "prev" },
	};
	char buf[512];
	const char *d;
	int i, r;

	load_fs_list();
	printf("active: %s\n", fs_list);
	for (i = 0; i < (int)(sizeof(files) / sizeof(files[0])); i++) {
		r = lab_read_attr(files[i][0], files[i][1], buf, sizeof(buf));
		if (lab_show_todo("lab_read_attr"))
			break;
		if (r >= 0)
			printf("%-34s %s\n", path_of(files[i][0], files[i][1]), lab_quote(buf, -1));
		else
			printf("%-34s %s\n", path_of(files[i][0], files[i][1]), errname(errno));
	}
	for (i = 0; i < NLSMS; i++) {
		d = lab_attr_dir(lsms[i].id);
		if (lab_show_todo("lab_attr_dir"))
			break;
		if (d)
			printf("lab_attr_dir(%d) = %s\n", lsms[i].id, d);
	}
	r = lab_unnamed_owner();
	if (!lab_show_todo("lab_unnamed_owner"))
		printf("the un-named files reach: %d (%s)\n", r, name_of(r));
}

static int id_of(const char *name)
{
	for (int i = 0; i < NLSMS; i++)
		if (!strcmp(lsms[i].name, name))
			return lsms[i].id;
	return LSM_ID_INVALID;
}

static const char *name_of(int id)
{
	for (int i = 0; i < NLSMS; i++)
		if (lsms[i].id == id)
			return lsms[i].name;
	return id == LSM_ID_INVALID ? "LSM_ID_INVALID" : "an unknown ID";
}

/* Whether the module with this ID has the getprocattr hook. */
static int has_procattr(int id)
{
	for (unsigned int k = 0; k < sizeof(procattr_lsms) / sizeof(procattr_lsms[0]); k++)
		if (!strcmp(name_of(id), procattr_lsms[k]))
			return 1;
	return 0;
}

static const char *path_of(const char *lsm, const char *attr)
{
	static char buf[2][128];
	static int k;

	k = !k;
	if (lsm)
		snprintf(buf[k], sizeof(buf[k]), "/proc/self/attr/%s/%s", lsm, attr);
	else
		snprintf(buf[k], sizeof(buf[k]), "/proc/self/attr/%s", attr);
	return buf[k];
}

/*
 * The grader's own read: the value (up to the first NUL, without one
 * trailing newline) and its length, or -1 with *err set.  *raw gets the
 * bytes read() returned, *rawlen their number.
 */
static int truth_read(const char *lsm, const char *attr, char *val, size_t len,
		      int *err, char *raw, ssize_t *rawlen)
{
	int fd = open(path_of(lsm, attr), O_RDONLY);
	ssize_t n;
	size_t v;

	*err = 0;
	*rawlen = 0;
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	n = read(fd, raw, 4095);
	*err = errno;
	close(fd);
	if (n < 0)
		return -1;
	*err = 0;
	*rawlen = n;
	raw[n] = '\0';
	v = strnlen(raw, n);
	if (v > 0 && raw[v - 1] == '\n')
		v--;
	if (v + 1 > len)
		v = len - 1;
	memcpy(val, raw, v);
	val[v] = '\0';
	return v;
}

/* Step 4 helpers: the grader's own read of a value, for comparison. */
static const char *now(const char *lsm, const char *attr)
{
	static char val[2][512];
	static int k;
	char raw[4096];
	ssize_t rawlen;
	int err;

	k = !k;
	if (truth_read(lsm, attr, val[k], sizeof(val[k]), &err, raw, &rawlen) < 0)
		snprintf(val[k], sizeof(val[k]), "(error %s)", errname(err));
	return val[k];
}

static void expect_write(const char *lsm, const char *attr, const char *value, int werr)
{
	int r, e;

	errno = 0;
	r = lab_write_attr(lsm, attr, value);
	e = errno;
	lab_check_todo(4, "lab_write_attr()");
	if (lab_returned_0(r, e, werr, "lab_write_attr(%s%s%s, \"%s\", \"%s\")", lsm ? "\"" : "",
			   lsm ? lsm : "NULL", lsm ? "\"" : "", attr, value))
		return;
	if (werr == EINVAL && r == 0)
		lab_hint("the kernel refused the write (no active module behind %s): check what write() returns and pass the error on",
			 path_of(lsm, attr));
	else if (werr == ENOENT)
		lab_hint("%s does not exist: pass open()'s ENOENT on", path_of(lsm, attr));
	else
		lab_hint("open() with O_WRONLY, write(fd, value, strlen(value)), close()");
	lab_fail();
}

static void expect_value(const char *lsm, const char *attr, const char *want, const char *how)
{
	const char *got = now(lsm, attr);

	if (!strcmp(got, want))
		return;
	lab_expected("after %s, %s reads %s", how, path_of(lsm, attr), lab_quote(want, -1));
	lab_seen("it reads %s", lab_quote(got, -1));
	if (strlen(got) < strlen(want) && !strncmp(got, want, strlen(got)))
		lab_hint("only %zu bytes arrived: write strlen(value) bytes (sizeof(value) is the size of the pointer)",
			 strlen(got));
	else
		lab_hint("write the value exactly, without a NUL or extra bytes");
	lab_fail();
}
