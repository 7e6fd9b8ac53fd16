// SPDX-License-Identifier: GPL-2.0
/*
 * labels: a file's label in every module that labels files, as the
 * file's security.* extended attributes hold them.
 *
 *   labels FILE...
 *	for each FILE, one line per attribute of Smack (security.SMACK64,
 *	SMACK64EXEC, SMACK64MMAP, SMACK64TRANSMUTE), SELinux
 *	(security.selinux) and toylsm (security.toylsm): its value, "(none)"
 *	or "(empty)" (a value of no bytes), and "(not in this boot)" after a module that is not in
 *	/sys/kernel/security/lsm; then any other security.* attribute.
 *	AppArmor labels no file (its profiles name paths), nor do Landlock
 *	and Yama.  A symbolic link is followed.
 *
 * Exit status: 0, or 1 if a FILE could not be read (the others are still
 * shown); 2 for a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

static const struct attr {
	const char *lsm, *name;
} attrs[] = {
	{ "smack", "security.SMACK64" },
	{ "smack", "security.SMACK64EXEC" },
	{ "smack", "security.SMACK64MMAP" },
	{ "smack", "security.SMACK64TRANSMUTE" },
	{ "selinux", "security.selinux" },
	{ "toylsm", "security.toylsm" },
};

#define NATTRS (sizeof(attrs) / sizeof(attrs[0]))

static char lsms[512];

/* Whether @lsm is in this boot's list of active modules. */
static int active(const char *lsm)
{
	char list[sizeof(lsms) + 2], want[40];

	snprintf(list, sizeof(list), ",%s,", lsms);
	snprintf(want, sizeof(want), ",%s,", lsm);
	return !!strstr(list, want);
}

/* One attribute's value, printable, into @buf; 0, or an errno. */
static int value(const char *path, const char *name, char *buf, size_t len)
{
	ssize_t n = getxattr(path, name, buf, len - 1);
	ssize_t i;

	if (n < 0)
		return errno;
	while (n > 0 && (buf[n - 1] == '\0' || buf[n - 1] == '\n'))
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] < 32 || buf[i] > 126)
			buf[i] = '?';
	buf[n] = '\0';
	if (!n)
		snprintf(buf, len, "(empty)");
	return 0;
}

static int show(const char *path)
{
	char names[4096], v[512], *p;
	ssize_t n;
	size_t i;
	int err;

	n = listxattr(path, names, sizeof(names));
	if (n < 0) {
		fprintf(stderr, "labels: %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("%s\n", path);
	for (i = 0; i < NATTRS; i++) {
		err = value(path, attrs[i].name, v, sizeof(v));
		printf("  %-8s %-26s %s%s\n", attrs[i].lsm, attrs[i].name,
		       err == 0 ? v : err == ENODATA ? "(none)" : strerror(err),
		       active(attrs[i].lsm) ? "" : "   (not in this boot)");
	}
	for (p = names; p < names + n; p += strlen(p) + 1) {
		int known = 0;

		for (i = 0; i < NATTRS; i++)
			known |= !strcmp(p, attrs[i].name);
		if (known || strncmp(p, "security.", 9))
			continue;
		err = value(path, p, v, sizeof(v));
		printf("  %-8s %-26s %s\n", "other", p, err ? strerror(err) : v);
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *f;
	int i, bad = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: labels FILE...   a file's label in every module that labels files\n"
			"  (Smack's security.SMACK64*, SELinux's security.selinux, toylsm's\n"
			"  security.toylsm; AppArmor labels no file: its profiles name paths)\n");
		return argc < 2 ? 2 : 0;
	}
	f = fopen("/sys/kernel/security/lsm", "r");
	if (!f || !fgets(lsms, sizeof(lsms), f))
		lsms[0] = '\0';
	if (f)
		fclose(f);
	lsms[strcspn(lsms, "\n")] = '\0';
	printf("modules of this boot: %s\n", lsms[0] ? lsms : "(unknown)");
	for (i = 1; i < argc; i++)
		bad |= show(argv[i]);
	return bad;
}
