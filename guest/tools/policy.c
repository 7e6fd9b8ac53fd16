// SPDX-License-Identifier: GPL-2.0
/*
 * policy: load one of the kit's policy sets into the guest's security
 * modules in one step, or run a command under the parts of a set that
 * belong to a process.  The sets are compiled on the host
 * (scripts/guest/policy-sets.sh, from configs/policy/SET/) into /etc/policy/SET/.
 *
 *   policy load [-c] SET [MODULE...]
 *	every module of SET that this boot runs, or only those named:
 *	apparmor  apparmor/NAME written to /sys/kernel/security/apparmor/.replace,
 *	          in name order
 *	selinux   selinux/policy written to /sys/fs/selinux/load, then 1 to
 *	          enforce (last, once the files are labelled)
 *	smack     smack.rules, line by line, to /sys/fs/smackfs/load2
 *	toylsm    toylsm.rules, in one write, to /sys/kernel/security/toylsm/rules
 *	files     "PATH XATTR VALUE" lines: PATH created if missing (a file
 *	          holding its own name), its XATTR set (skipped when the
 *	          module the xattr belongs to is not in this boot, or when
 *	          MODULEs are named and that module is not one of them:
 *	          "policy load SET files" alone creates the files, unlabelled,
 *	          and says "files 0 label(s)"; "policy load SET smack files"
 *	          labels them for Smack only); "PATH owner UID:GID" and
 *	          "PATH mode OCTAL" give it an owner and mode bits, in every
 *	          boot (a scenario that needs another user's file)
 *	-c: complain (AppArmor's profiles in complain mode, SELinux
 *	permissive, toylsm enforce 0): refusals are logged, not made.
 *   policy run SET CMD [ARG...]
 *	run CMD under SET's file "run": "toylsm LABEL" (the exec label CMD
 *	takes) and "landlock RULES" (landlock.rules: "RIGHTS PATH" lines,
 *	RIGHTS a comma list of read and write; only the rights named are
 *	handled, and CMD keeps them only beneath the paths listed).
 *   policy features
 *	AppArmor's features, flattened, as apparmor_parser -M reads them
 *	(scripts/guest/policy-sets.sh --capture stores them for the host's compiler).
 *   policy list
 *	the sets in /etc/policy.
 *
 * Exit status: 0, or 1 with a message naming the module and the file,
 * the kernel's own reason (its log lines about the module, from
 * /dev/kmsg) and which modules of the set were loaded before the error.
 * A load stops at the first error; the modules loaded before it stay
 * loaded. An AppArmor profile and an SELinux policy are each taken whole
 * or not at all: one the kernel refuses leaves the one before in force.
 * Smack's rules are taken one by one (those before a bad line stay);
 * toylsm's in one write, all or none: when the kernel refuses it, the
 * message names the first line its parser would refuse, with its number
 * and why (checked here as demo-lsm/parse.c does).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "kit/clock.h"

#define SETS "/etc/policy"
#define SECFS "/sys/kernel/security"

static const char *set;
/* During policy load: the modules loaded so far, for fail() to name. */
static int loading;
static char loaded[160];

/* During policy load: end the line "policy: SET: ..." before an error. */
static void end_line(void)
{
	if (loading == 1) {
		puts(" stopped by an error:");
		fflush(stdout);
		loading = 2;
	}
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	end_line();
	fprintf(stderr, "policy: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (loading)
		fprintf(stderr, "policy: the load of %s stopped here; %s%s%s\n", set,
			loaded[0] ? "loaded before it:" : "nothing of the set was loaded",
			loaded, loaded[0] ? "; the rest was not loaded" : "");
	exit(1);
}

/*
 * The kernel log from now on: a /dev/kmsg reader at its end, so that a
 * module's refusal can be shown with the kernel's own reason (-1 if the
 * log cannot be read).
 */
static int kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Print the kernel's messages since kmsg_mark() that mention @word.
 * Audit records (AppArmor's) reach the log from the audit thread, a
 * moment after the write that caused them: wait up to half a second
 * for the first one.
 */
static void kmsg_reason(int fd, const char *word)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	char rec[2048], *msg;
	int found = 0, waited;
	ssize_t n;

	if (fd < 0)
		return;
	for (waited = 0; waited < 50 && !found; waited++) {
		while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
			if (n <= 0)
				continue;	/* EPIPE: records overwritten, go on */
			rec[n] = '\0';
			msg = strchr(rec, ';');
			if (!msg || !strcasestr(msg, word))
				continue;
			msg[strcspn(msg, "\n")] = '\0';
			fprintf(stderr, "policy: kernel: %s\n", msg + 1);
			found = 1;
		}
		if (!found)
			nanosleep(&tick, NULL);
	}
	if (!found)
		fprintf(stderr, "policy: (no message of the kernel about it: dmesg | grep -i %s)\n",
			word);
	close(fd);
}

/* The whole file, NUL-terminated; its length in *len. NULL if absent. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += r;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb)
				fail("out of memory reading %s", path);
			buf = nb;
		}
	}
	close(fd);
	if (r < 0)
		fail("cannot read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

/* Write buf to path in one write(): 0 or errno. */
static int put(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, buf, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* Whether @lsm is in this boot's list of active modules. */
static int active(const char *lsm)
{
	char *l = slurp(SECFS "/lsm", NULL), *p, *save = NULL;
	int yes = 0;

	for (p = l ? strtok_r(l, ",\n", &save) : NULL; p; p = strtok_r(NULL, ",\n", &save))
		if (strcmp(p, lsm) == 0)
			yes = 1;
	free(l);
	return yes;
}

static char *setpath(const char *rel)
{
	static char p[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), SETS "/%s/%s", set, rel);
	return p[i];
}

/* Mount @type at @dir unless @probe already exists there. */
static void mount_fs(const char *type, const char *dir, const char *probe)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, probe);
	if (access(p, F_OK) == 0)
		return;
	if (mount(type, dir, type, 0, NULL))
		fail("%s: cannot mount %s at %s: %s", type, type, dir, strerror(errno));
}

/* The lines of a text file that are not blank or comments, in turn. */
static char *next_line(char **cur)
{
	char *l, *e;

	while (**cur) {
		l = *cur;
		e = strchr(l, '\n');
		if (e) {
			*e = '\0';
			*cur = e + 1;
		} else {
			*cur = l + strlen(l);
		}
		l += strspn(l, " \t");
		if (*l && *l != '#')
			return l;
	}
	return NULL;
}

/* The set's profiles in name order (the order they are loaded in). */
static int load_apparmor(int complain)
{
	char dir[512], p[1024], *blob;
	struct dirent **e;
	size_t len;
	int n = 0, err, kfd, i, ne;

	snprintf(dir, sizeof(dir), "%s", setpath("apparmor"));
	ne = scandir(dir, &e, NULL, alphasort);
	if (ne < 0)
		return -1;
	for (i = 0; i < ne; i++) {
		const char *name = e[i]->d_name;
		size_t l = strlen(name);
		int is_complain = l > 9 && strcmp(name + l - 9, ".complain") == 0;

		if (name[0] == '.' || is_complain != complain)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, name);
		blob = slurp(p, &len);
		if (!blob)
			fail("apparmor: cannot read %s: %s", p, strerror(errno));
		kfd = kmsg_mark();
		err = put(SECFS "/apparmor/.replace", blob, len);
		free(blob);
		if (err) {
			end_line();
			fprintf(stderr, "policy: apparmor: the kernel refused the profile %s: %s; "
				"the profiles loaded before stay as they were (a profile is replaced whole or not at all)\n",
				p, strerror(err));
			kmsg_reason(kfd, "apparmor");
			if (n)	/* the set's profiles before this one were replaced */
				snprintf(loaded + strlen(loaded), sizeof(loaded) - strlen(loaded),
					 " apparmor (%d profile(s) before this one)", n);
			fail("apparmor: is %s a profile compiled by apparmor_parser for this kernel (scripts/guest/policy-sets.sh)?",
			     p);
		}
		close(kfd);
		n++;
	}
	for (i = 0; i < ne; i++)
		free(e[i]);
	free(e);
	return n;
}

static int load_selinux(void)
{
	size_t len;
	char *pol = slurp(setpath("selinux/policy"), &len);
	int err, kfd;

	if (!pol)
		return -1;
	mount_fs("selinuxfs", "/sys/fs/selinux", "load");
	kfd = kmsg_mark();
	err = put("/sys/fs/selinux/load", pol, len);
	free(pol);
	if (err) {
		end_line();
		fprintf(stderr, "policy: selinux: the kernel refused %s: %s; "
			"the policy loaded before stays in force (a policy is replaced whole or not at all)\n",
			setpath("selinux/policy"), strerror(err));
		kmsg_reason(kfd, "selinux");
		fail("selinux: is %s a policy compiled by checkpolicy for this kernel (scripts/guest/policy-sets.sh)?",
		     setpath("selinux/policy"));
	}
	close(kfd);
	return 1;
}

static int load_smack(void)
{
	char *rules = slurp(setpath("smack.rules"), NULL), *cur = rules, *l;
	int n = 0, err;

	if (!rules)
		return -1;
	mount_fs("smackfs", "/sys/fs/smackfs", "load2");
	while ((l = next_line(&cur))) {
		err = put("/sys/fs/smackfs/load2", l, strlen(l));
		if (err)
			fail("smack: the kernel refused the rule '%s' of %s: %s", l,
			     setpath("smack.rules"), strerror(err));
		n++;
	}
	free(rules);
	return n;
}

/*
 * Why toylsm's kernel refuses a rule line (demo-lsm/parse.c,
 * toylsm_rule_parse(): SUBJECT OBJECT PERMS, labels of 1 to 31 of
 * [A-Za-z0-9_.:-], PERMS letters of rwxt each once, or -), or NULL.
 */
#define TOY_LABEL_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-"

static const char *toy_line_error(const char *line)
{
	static char why[160];
	char w[4][64];
	int n = sscanf(line, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]), i;
	const char *c;

	if (n != 3)
		return "a rule is SUBJECT OBJECT PERMS, three words";
	for (i = 0; i < 2; i++) {
		size_t len = strlen(w[i]);

		if (len > 31 || strspn(w[i], TOY_LABEL_CHARS) != len) {
			snprintf(why, sizeof(why),
				 "%.40s is not a label (1 to 31 of A-Z a-z 0-9 _ . : -)", w[i]);
			return why;
		}
	}
	if (!strcmp(w[2], "-"))
		return NULL;
	for (c = w[2]; *c; c++) {
		if (!strchr("rwxt", *c) || strchr(c + 1, *c)) {
			snprintf(why, sizeof(why), "%c in %.40s: PERMS is letters of rwxt, %s%s",
				 *c, w[2], "each once, or -",
				 *c == 'a' ? " (a is Smack's append)" : "");
			return why;
		}
	}
	return NULL;
}

/* The first line of @text toylsm would refuse: its number, text, why. */
static int toy_bad_line(const char *text, char *line, size_t len, const char **why)
{
	const char *p = text, *e, *t;
	int no = 0;

	while (*p) {
		e = p + strcspn(p, "\n");
		no++;
		snprintf(line, len, "%.*s", (int)(e - p), p);
		t = line + strspn(line, " \t");
		if (*t && *t != '#') {
			*why = toy_line_error(line);
			if (*why)
				return no;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

static int load_toylsm(void)
{
	char *rules = slurp(setpath("toylsm.rules"), NULL), *cur = rules, *l;
	char buf[4096] = "", bad[256];
	const char *why = NULL;
	int n = 0, err, no;

	if (!rules)
		return -1;
	no = toy_bad_line(rules, bad, sizeof(bad), &why);
	while ((l = next_line(&cur))) {
		if (strlen(buf) + strlen(l) + 2 > sizeof(buf))
			fail("toylsm: %s is longer than one write (4095 bytes)",
			     setpath("toylsm.rules"));
		strcat(strcat(buf, l), "\n");
		n++;
	}
	free(rules);
	err = put(SECFS "/toylsm/rules", buf, strlen(buf));
	if (err == EINVAL && no)
		fail("toylsm: the kernel refused %s: %s; line %d, \"%s\": %s (nothing was changed)",
		     setpath("toylsm.rules"), strerror(err), no, bad, why);
	if (err)
		fail("toylsm: the kernel refused %s: %s (%s: nothing was changed)",
		     setpath("toylsm.rules"), strerror(err),
		     err == ENOSPC ? "its rule or label table is full" :
		     "every line is SUBJECT OBJECT PERMS as far as this program can tell");
	return n;
}

/* Which module an xattr belongs to. */
static const char *xattr_module(const char *name)
{
	if (strncmp(name, "security.SMACK64", 16) == 0)
		return "smack";
	if (strcmp(name, "security.selinux") == 0)
		return "selinux";
	if (strcmp(name, "security.toylsm") == 0)
		return "toylsm";
	return NULL;
}

static void mkdirs(char *path)
{
	char *s;

	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail("files: cannot create %s: %s", path, strerror(errno));
		*s = '/';
	}
}

/* Create @path if missing: a file holding its own name. */
static void create_missing(char *path)
{
	int fd;

	if (!access(path, F_OK))
		return;
	mkdirs(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || dprintf(fd, "%s\n", path) < 0)
		fail("files: cannot create %s: %s", path, strerror(errno));
	close(fd);
}

/* A files line "PATH owner UID:GID" or "PATH mode OCTAL" (@l, for errors). */
static void owner_mode(char *path, const char *what, const char *value, const char *l)
{
	unsigned int uid, gid, mode;
	char end;

	create_missing(path);
	if (what[0] == 'o') {
		if (sscanf(value, "%u:%u%c", &uid, &gid, &end) != 2)
			fail("files: '%s' in %s: an owner is UID:GID", l, setpath("files"));
		if (chown(path, uid, gid))
			fail("files: cannot give %s to %u:%u: %s", path, uid, gid,
			     strerror(errno));
		return;
	}
	if (sscanf(value, "%o%c", &mode, &end) != 1 || mode > 07777)
		fail("files: '%s' in %s: a mode is octal, 0000 to 7777", l, setpath("files"));
	if (chmod(path, mode))
		fail("files: cannot give %s the mode %04o: %s", path, mode, strerror(errno));
}

static int load_files(const char *only)
{
	char *list = slurp(setpath("files"), NULL), *cur = list, *l;
	char path[256], name[64], value[256];
	const char *mod;
	int n = 0;

	if (!list)
		return -1;
	while ((l = next_line(&cur))) {
		if (sscanf(l, "%255s %63s %255s", path, name, value) != 3 || path[0] != '/')
			fail("files: '%s' in %s is not \"PATH XATTR VALUE\"", l, setpath("files"));
		if (!strcmp(name, "owner") || !strcmp(name, "mode")) {
			owner_mode(path, name, value, l);
			continue;
		}
		mod = xattr_module(name);
		if (!mod)
			fail("files: %s in %s is not an xattr of Smack, SELinux or toylsm, nor owner or mode",
			     name, setpath("files"));
		create_missing(path);
		if (!active(mod) || (only && !strstr(only, mod)))
			continue;
		if (setxattr(path, name, value, strlen(value), 0))
			fail("files: cannot set %s=%s on %s: %s", name, value, path,
			     strerror(errno));
		n++;
	}
	free(list);
	return n;
}

static const char *const modules[] = { "selinux", "apparmor", "smack", "toylsm", NULL };

static int cmd_load(int argc, char **argv)
{
	char only[256] = "", what[64];
	int complain = 0, i, n, any = 0;
	double t0;
	struct stat st;

	if (argc > 2 && strcmp(argv[2], "-c") == 0) {
		complain = 1;
		argv++;
		argc--;
	}
	if (argc < 3)
		fail("usage: policy load [-c] SET [MODULE...]");
	set = argv[2];
	if (stat(setpath(""), &st) || !S_ISDIR(st.st_mode))
		fail("no policy set '%s' in " SETS " (policy list shows them)", set);
	for (i = 3; i < argc; i++) {
		int known = strcmp(argv[i], "files") == 0;

		for (n = 0; modules[n]; n++)
			known |= strcmp(argv[i], modules[n]) == 0;
		if (!known)
			fail("'%s' is not a module a set loads (selinux, apparmor, smack, toylsm, files)",
			     argv[i]);
		strcat(strcat(only, argv[i]), " ");
	}
	t0 = kit_now_ns();
	loading = 1;
	printf("policy: %s%s:", set, complain ? " (complain)" : "");
	for (i = 0; modules[i]; i++) {
		const char *m = modules[i];

		if ((only[0] && !strstr(only, m)))
			continue;
		if (!active(m)) {
			printf(" %s not in this boot;", m);
			continue;
		}
		n = !strcmp(m, "selinux") ? load_selinux() :
		    !strcmp(m, "apparmor") ? load_apparmor(complain) :
		    !strcmp(m, "smack") ? load_smack() : load_toylsm();
		if (n < 0)
			continue;	/* the set has nothing for it */
		snprintf(what, sizeof(what), !strcmp(m, "selinux") ? "policy" :
			 !strcmp(m, "apparmor") ? "profile(s)" : "rule(s)");
		printf(" %s %d %s;", m, n, what);
		strcat(strcat(loaded, " "), m);
		any = 1;
	}
	if (!only[0] || strstr(only, "files") || strstr(only, "smack") ||
	    strstr(only, "selinux") || strstr(only, "toylsm")) {
		n = load_files(only[0] ? only : NULL);
		if (n >= 0) {
			printf(" files %d label(s);", n);
			strcat(loaded, " files");
		}
	}
	/* Enforcing last: the files have their labels by now. */
	if ((!only[0] || strstr(only, "selinux")) && active("selinux") &&
	    access(setpath("selinux/policy"), F_OK) == 0) {
		int err = put("/sys/fs/selinux/enforce", complain ? "0" : "1", 1);

		if (err)
			fail("selinux: cannot write enforce: %s", strerror(err));
		printf(" selinux %s;", complain ? "permissive" : "enforcing");
	}
	if ((!only[0] || strstr(only, "toylsm")) && active("toylsm") &&
	    access(setpath("toylsm.rules"), F_OK) == 0) {
		int err = put(SECFS "/toylsm/enforce", complain ? "0" : "1", 1);

		if (err)
			fail("toylsm: cannot write enforce: %s", strerror(err));
	}
	printf(" %ld ms\n", kit_ms_since(t0));
	if (!any && !only[0])
		printf("policy: (no module of this boot has a policy in %s)\n", set);
	return 0;
}

static int landlock(const char *file)
{
	struct landlock_ruleset_attr attr = { 0 };
	struct landlock_path_beneath_attr pb;
	char *rules = slurp(setpath(file), NULL), *cur = rules, *l;
	char rights[64], path[256], *r, *save;
	struct stat st;
	int fd, n = 0;

	if (!rules)
		fail("landlock: no %s", setpath(file));
	/* First pass: the rights the ruleset handles. */
	while ((l = next_line(&cur))) {
		if (sscanf(l, "%63s %255s", rights, path) != 2)
			fail("landlock: '%s' in %s is not \"RIGHTS PATH\"", l, setpath(file));
		for (r = strtok_r(rights, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
			if (strcmp(r, "read") == 0)
				attr.handled_access_fs |= LANDLOCK_ACCESS_FS_READ_FILE;
			else if (strcmp(r, "write") == 0)
				attr.handled_access_fs |= LANDLOCK_ACCESS_FS_WRITE_FILE;
			else
				fail("landlock: '%s' in %s: rights are read and write", r,
				     setpath(file));
		}
	}
	free(rules);
	fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (fd < 0)
		fail("landlock: cannot create a ruleset: %s (is landlock in this boot?)",
		     strerror(errno));
	rules = slurp(setpath(file), NULL);
	cur = rules;
	while ((l = next_line(&cur))) {
		if (sscanf(l, "%63s %255s", rights, path) != 2)
			fail("landlock: '%s' in %s is not \"RIGHTS PATH\"", l, setpath(file));
		pb.allowed_access = 0;
		if (strstr(rights, "read"))
			pb.allowed_access |= LANDLOCK_ACCESS_FS_READ_FILE;
		if (strstr(rights, "write"))
			pb.allowed_access |= LANDLOCK_ACCESS_FS_WRITE_FILE;
		pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
		if (pb.parent_fd < 0 || fstat(pb.parent_fd, &st))
			fail("landlock: %s (in %s): %s", path, setpath(file), strerror(errno));
		if (syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0))
			fail("landlock: the rule for %s: %s", path, strerror(errno));
		close(pb.parent_fd);
		n++;
	}
	free(rules);
	/*
	 * Root (CAP_SYS_ADMIN) restricts itself without no_new_privs, which
	 * would forbid the label changes at exec of Smack (SMACK64EXEC) and
	 * SELinux (a domain transition); others must set it.
	 */
	if (syscall(SYS_landlock_restrict_self, fd, 0) &&
	    (errno != EPERM || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	     syscall(SYS_landlock_restrict_self, fd, 0)))
		fail("landlock: cannot restrict this process: %s", strerror(errno));
	close(fd);
	return n;
}

static int cmd_run(int argc, char **argv)
{
	char *run, *cur, *l, key[32], val[256];
	int err;

	if (argc < 4)
		fail("usage: policy run SET CMD [ARG...]");
	set = argv[2];
	run = slurp(setpath("run"), NULL);
	if (!run)
		fail("no policy set '%s' with a file 'run' in " SETS, set);
	for (cur = run; (l = next_line(&cur));) {
		if (sscanf(l, "%31s %255s", key, val) != 2)
			fail("'%s' in %s is not \"toylsm LABEL\" or \"landlock FILE\"", l,
			     setpath("run"));
		if (strcmp(key, "toylsm") == 0) {
			if (!active("toylsm"))
				continue;
			err = put("/proc/self/attr/toylsm/exec", val, strlen(val));
			if (err)
				fail("toylsm: cannot take the exec label %s: %s", val,
				     strerror(err));
		} else if (strcmp(key, "landlock") == 0) {
			if (active("landlock"))
				landlock(val);
		} else {
			fail("'%s' in %s: only toylsm and landlock lines", key, setpath("run"));
		}
	}
	free(run);
	execvp(argv[3], argv + 3);
	fprintf(stderr, "policy: cannot run %s: %s\n", argv[3], strerror(errno));
	return 127;
}

/* AppArmor's feature tree flattened: "name {" contents "}\n", depth first. */
static void flatten(const char *dir)
{
	struct dirent **e;
	char p[1024], *c;
	struct stat st;
	int n, i;

	n = scandir(dir, &e, NULL, alphasort);
	if (n < 0)
		fail("cannot read %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		if (e[i]->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e[i]->d_name);
		printf("%s {", e[i]->d_name);
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			flatten(p);
		} else {
			c = slurp(p, NULL);
			fputs(c ? c : "", stdout);
			free(c);
		}
		printf("}\n");
		free(e[i]);
	}
	free(e);
}

static int cmd_list(void)
{
	struct dirent *e;
	DIR *d = opendir(SETS);

	if (!d)
		fail("no policy sets here (" SETS " is missing)");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			printf("%s\n", e->d_name);
	closedir(d);
	return 0;
}

/* policy -h: the guest has no sources, so the help is all here. */
static const char help[] =
"policy: load a policy set of " SETS " into this boot's security modules, or run\n"
"a command under the parts of a set that belong to a process.\n"
"\n"
"  policy list                        the sets in " SETS "\n"
"  policy load [-c] SET [MODULE...]   every module of SET this boot runs, or only\n"
"      those named (selinux apparmor smack toylsm files): apparmor/NAME to\n"
"      apparmor/.replace, selinux/policy to /sys/fs/selinux/load (then enforce 1),\n"
"      smack.rules line by line to smackfs load2, toylsm.rules in one write to\n"
"      toylsm/rules, files (\"PATH XATTR VALUE\": PATH made if missing, the xattr set\n"
"      when its module is in this boot; \"PATH owner UID:GID\", \"PATH mode 0600\": its\n"
"      owner and mode bits); -c: complain (AppArmor complain mode,\n"
"      SELinux permissive, toylsm enforce 0)\n"
"  policy run SET CMD [ARG...]        CMD under SET's file run: \"toylsm LABEL\" (the\n"
"      label CMD takes at its exec), \"landlock FILE\" (\"RIGHTS PATH\" lines, RIGHTS\n"
"      read and/or write: CMD keeps them only beneath those paths)\n"
"  policy features                    AppArmor's features, as apparmor_parser -M reads them\n"
"\n"
"Exit status 0, or 1 with a message naming the module, the file (a toylsm line:\n"
"its number and text), the kernel's reason and what was loaded before the error.\n"
"The sets are compiled on the host, by make lab (labs 10, 12) or when the kit packs this guest.\n";

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "load") == 0)
		return cmd_load(argc, argv);
	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return cmd_run(argc, argv);
	if (argc > 1 && strcmp(argv[1], "features") == 0) {
		if (!active("apparmor"))
			fail("AppArmor is not in this boot (APPEND=apparmor)");
		flatten(SECFS "/apparmor/features");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "list") == 0)
		return cmd_list();
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			 !strcmp(argv[1], "help"))) {
		fputs(help, stdout);
		return 0;
	}
	fprintf(stderr, "usage: policy load [-c] SET [MODULE...] | policy run SET CMD [ARG...] |\n"
		"       policy features | policy list   (policy -h: what each does)\n");
	return 2;
}
