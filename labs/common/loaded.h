/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the policy labs' graders (10, 12): what a rule GRANTS, asked of the
 * policy the kernel loaded, not read from the learner's text.  Where no
 * access of the program can show a permission beyond the one a scenario
 * needs (a module asked before refuses it, or the program never asks
 * it), the modules' own query interfaces say what their policy gives:
 *
 *	loaded_apparmor(LABEL, PATH, &allow)	AppArmor's .access query
 *		(apparmorfs query_label(): the profile's file rules as
 *		compiled and loaded, globs, deny rules and modes applied)
 *	loaded_selinux(SRC, TGT, CLASS, &allowed, &flags)	SELinux's
 *		/sys/fs/selinux/access (security_compute_av(): every
 *		allow rule, attributes expanded; flags: permissive domain)
 *	loaded_rule(PATH, SUBJ, OBJ, OUT)	a rule of Smack's load2 or
 *		toylsm's rules as the kernel lists it (its letters in the
 *		kernel's order, a later line having replaced an earlier)
 *	loaded_letters_beyond(HAVE, MAY, OUT)	the letters of HAVE not in MAY
 *
 * Each returns 0, or -1 when the module cannot answer (not in this boot,
 * no such label): the caller then says it does not know.
 *
 * And a step's checks on them (each fails the step, quoting what the
 * kernel loaded and from which of the learner's files):
 *
 *	loaded_check_apparmor(PATH, WHY)	the program's profile gives PATH
 *		r and nothing more
 *	loaded_check_selinux(SRC, TGT, PERMS, WHY)	SRC has PERMS on TGT
 *		files ("open read"; "": nothing) and nothing else in any
 *		class; SRC is not permissive
 *	loaded_check_rule(LSM, SUBJ, OBJ, MAY, WHY)	the Smack or toylsm
 *		rule SUBJ OBJ has no letter beyond MAY
 */
#ifndef LAB_LOADED_H
#define LAB_LOADED_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader.h"
#include "policy_set.h"

#define LOADED_AA_ACCESS "/sys/kernel/security/apparmor/.access"
#define LOADED_SE_ACCESS "/sys/fs/selinux/access"
#define LOADED_SE_CLASS "/sys/fs/selinux/class"
#define LOADED_AVD_PERMISSIVE 0x1	/* security/selinux/include/security.h */

/* AppArmor's permission bits (security/apparmor/include/perms.h, 6.1). */
#define LOADED_AA_EXEC 0x1
#define LOADED_AA_WRITE 0x2
#define LOADED_AA_READ 0x4
#define LOADED_AA_APPEND 0x8
#define LOADED_AA_OPEN 0x40
#define LOADED_AA_GETATTR 0x200
#define LOADED_AA_LOCK 0x8000
#define LOADED_AA_MMAP 0x10000
#define LOADED_AA_LINK 0x40000
/* What a profile's r gives: read, and the open and stat that come with it. */
#define LOADED_AA_R (LOADED_AA_READ | LOADED_AA_OPEN | LOADED_AA_GETATTR)

/* A transaction file: write @q (@n bytes), read the answer into @out. */
static LAB_API int loaded_ask(const char *path, const char *q, size_t n,
			      char *out, size_t len)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	ssize_t r = -1;

	/* A transaction: the answer to the write is read back from the same fd. */
	if (fd >= 0 && write(fd, q, n) == (ssize_t)n)
		r = read(fd, out, len - 1);
	if (fd >= 0)
		close(fd);
	out[r < 0 ? 0 : r] = '\0';
	return r < 0 ? -1 : 0;
}

/*
 * What profile @label's loaded policy allows on @path (the file class),
 * deny rules taken off: 0, or -1 (no AppArmor, no such profile).
 */
static LAB_API int loaded_apparmor(const char *label, const char *path,
				   unsigned int *allow)
{
	char q[512], out[256], *p;
	unsigned int deny = 0;
	int n;

	/* "label\0LABEL\0" then the class byte (AA_CLASS_FILE, 2) and the path. */
	n = snprintf(q, sizeof(q), "label%c%s%c%c%s", 0, label, 0, 2, path);
	if (n <= 0 || (size_t)n >= sizeof(q) ||
	    loaded_ask(LOADED_AA_ACCESS, q, n, out, sizeof(out)))
		return -1;
	p = strstr(out, "allow 0x");
	if (!p)
		return -1;
	*allow = strtoul(p + 8, NULL, 16);
	p = strstr(out, "deny 0x");
	if (p)
		deny = strtoul(p + 7, NULL, 16);
	*allow &= ~deny;
	return 0;
}

/*
 * AppArmor's letters for the bits of @mask beyond a profile's r, as a
 * profile writes them ("k (lock), m (mmap PROT_EXEC)"); "" if none.
 */
static LAB_API const char *loaded_apparmor_beyond_r(unsigned int mask)
{
	static const struct { unsigned int bit; const char *say; } b[] = {
		{ LOADED_AA_WRITE, "w (write)" },
		{ LOADED_AA_APPEND, "a (append)" },
		{ LOADED_AA_EXEC, "x (execute: ix, px, cx or ux)" },
		{ LOADED_AA_LOCK, "k (lock)" },
		{ LOADED_AA_MMAP, "m (mmap with PROT_EXEC)" },
		{ LOADED_AA_LINK, "l (link)" },
	};
	static char out[256];
	size_t i;

	out[0] = '\0';
	mask &= ~LOADED_AA_R;
	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (mask & b[i].bit) {
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s",
				 out[0] ? ", " : "", b[i].say);
			mask &= ~b[i].bit;
		}
	if (mask)	/* a permission the profile language has no letter for here */
		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%spermission bits 0x%x",
			 out[0] ? ", " : "", mask);
	return out;
}

/* A small sysfs number (a class's index, a permission's value); -1 if none. */
static LAB_API long loaded_number(const char *path)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/*
 * What SELinux's loaded policy allows source context @scon on target
 * context @tcon, class @class ("file"): the permission bits in @allowed
 * (their names: loaded_selinux_names()) and the decision's flags
 * (LOADED_AVD_PERMISSIVE: the source domain is permissive); 0 or -1.
 */
static LAB_API int loaded_selinux(const char *scon, const char *tcon,
				  const char *class, unsigned int *allowed,
				  unsigned int *flags)
{
	char q[320], out[256], path[400];
	unsigned int decided, aa, ad, seq;
	long idx;

	snprintf(path, sizeof(path), LOADED_SE_CLASS "/%s/index", class);
	idx = loaded_number(path);
	if (idx < 0)
		return -1;
	snprintf(q, sizeof(q), "%s %s %ld", scon, tcon, idx);
	if (loaded_ask(LOADED_SE_ACCESS, q, strlen(q), out, sizeof(out)) ||
	    sscanf(out, "%x %x %x %x %u %x", allowed, &decided, &aa, &ad, &seq, flags) != 6)
		return -1;
	return 0;
}

/*
 * The names of the permissions of @class in @mask but not in @but (a
 * space-separated list of names), as a policy writes them ("getattr
 * relabelfrom"), into @out; "" if none.
 */
static LAB_API void loaded_selinux_names(const char *class, unsigned int mask,
					 const char *but, char *out, size_t len)
{
	static const char *const perms[] = {
		"ioctl", "read", "write", "create", "getattr", "setattr", "lock",
		"relabelfrom", "relabelto", "append", "map", "unlink", "link", "rename",
		"execute", "quotaon", "mounton", "audit_access", "open", "execmod",
		"watch", "watch_mount", "watch_sb", "watch_with_perm", "watch_reads",
		"execute_no_trans", "entrypoint", NULL
	};
	char path[400], w[40], list[200];
	long v;
	int i;

	snprintf(list, sizeof(list), " %s ", but ? but : "");
	out[0] = '\0';
	if (!mask)
		return;
	for (i = 0; perms[i]; i++) {
		snprintf(path, sizeof(path), LOADED_SE_CLASS "/%s/perms/%s", class, perms[i]);
		v = loaded_number(path);
		if (v <= 0 || v > 32 || !(mask & (1u << (v - 1))))
			continue;
		snprintf(w, sizeof(w), " %s ", perms[i]);
		mask &= ~(1u << (v - 1));
		if (strstr(list, w))
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " " : "", perms[i]);
	}
	if (mask)
		snprintf(out + strlen(out), len - strlen(out), "%s(permission bits 0x%x)",
			 out[0] ? " " : "", mask);
}

/*
 * The letters of the rule from @subj to @obj that the kernel lists in
 * @path (Smack's load2, toylsm's rules: "SUBJECT OBJECT LETTERS" lines)
 * into @out, "" when there is none; 0, or -1 if the file cannot be read.
 */
static LAB_API int loaded_rule(const char *path, const char *subj,
			       const char *obj, char *out, size_t len)
{
	char line[256], s[64], o[64], p[32];
	FILE *f = fopen(path, "re");

	out[0] = '\0';
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %63s %31s", s, o, p) == 3 && !strcmp(s, subj) &&
		    !strcmp(o, obj) && strcmp(p, "-"))
			snprintf(out, len, "%s", p);
	fclose(f);
	return 0;
}

/* The letters of @have that are not in @may, into a static buffer. */
static LAB_API const char *loaded_letters_beyond(const char *have,
						 const char *may)
{
	static char out[32];
	size_t n = 0;

	for (; *have && n + 1 < sizeof(out); have++)
		if (!strchr(may, *have))
			out[n++] = *have;
	out[n] = '\0';
	return out;
}

/* ---- a step's checks ---- */

/* What each letter of a Smack or toylsm rule gives, in @lsm's words. */
static LAB_API const char *loaded_letters_say(const char *lsm,
					      const char *letters)
{
	static char out[256];
	const char *c;

	out[0] = '\0';
	for (c = letters; *c; c++) {
		const char *w = *c == 'r' ? "read" : *c == 'w' ? "write" : *c == 'x' ? "execute" :
			*c == 'a' ? "append" : *c == 'l' ? "lock" : *c == 'b' ? "bring-up" :
			*c != 't' ? "?" : !strcmp(lsm, "smack") ? "transmute" :
			"transition: the subject may relabel itself as the object";

		snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%c (%s)",
			 out[0] ? ", " : "", *c, w);
	}
	return out;
}

/*
 * The Smack or toylsm rule (@lsm: "smack" or "toylsm") from @subj to
 * @obj must give no letter beyond @may ("": no rule at all), as the
 * kernel loaded it (its list: Smack's load2, toylsm's rules) whatever
 * the learner's spelling (case, a line repeated, a later line replacing
 * an earlier).
 */
static LAB_API void loaded_check_rule(const char *lsm, const char *subj, const char *obj,
				      const char *may, const char *why)
{
	const char *rules = !strcmp(lsm, "smack") ? POLICY_SMACK_LOAD2 : POLICY_TOY_RULES;
	const char *file = policy_file(lsm);
	char have[32];
	const char *extra;

	if (!lsm_active(lsm))
		return;
	if (loaded_rule(rules, subj, obj, have, sizeof(have))) {
		lab_kit("the grader cannot read %s's rules (%s): %s", lsm, rules, errname(errno));
		lab_fail();
	}
	extra = loaded_letters_beyond(have, may);
	if (!extra[0])
		return;
	if (may[0])
		lab_expected("%s's rule from %s to %s gives %s, and nothing more", lsm, subj, obj,
			     may);
	else
		lab_expected("no %s rule from %s to %s: the program has nothing to do there", lsm,
			     subj, obj);
	lab_seen("the rule the kernel loaded (from %s/%s) is \"%s %s %s\": %s beyond it",
		 lab_file, file, subj, obj, have, loaded_letters_say(lsm, extra));
	lab_hint("%s; no access of the step asks for that, so the grader read the rule the kernel holds (%s)",
		 why, rules);
	lab_fail();
}

/*
 * The program's profile (its AppArmor label, from `policy run SET probe
 * self`) must give @path r and nothing more: what the profile the kernel
 * loaded gives there, asked of AppArmor.
 */
static LAB_API void loaded_check_apparmor(const char *path, const char *why)
{
	const char *file = policy_file("apparmor");
	char label[128];
	unsigned int allow;
	const char *more;

	if (!lsm_active("apparmor") || policy_run_label("apparmor", label, sizeof(label)))
		return;
	label[strcspn(label, " ")] = '\0';	/* "probe (enforce)": the profile's name */
	if (!label[0] || !strcmp(label, "unconfined"))
		return;	/* no profile: the step's accesses show it */
	if (loaded_apparmor(label, path, &allow)) {
		lab_kit("the grader cannot ask AppArmor what profile %s gives (" LOADED_AA_ACCESS "): %s",
			label, errname(errno));
		lab_fail();
	}
	more = loaded_apparmor_beyond_r(allow);
	if (!more[0])
		return;
	lab_expected("the profile gives %s r, and nothing more", path);
	lab_seen("the profile the kernel loaded (%s, from %s/%s) gives it %s as well", label,
		 lab_file, file, more);
	lab_hint("%s: the program never asks for that here, so no access shows it; the grader asked AppArmor itself what its policy gives (its .access query)",
		 why);
	lab_fail();
}

/*
 * SELinux's loaded policy must give @src on @tgt (types) the file
 * permissions @may ("open read"; "": none) and nothing else in any class,
 * and @src must not be a permissive domain.
 */
static LAB_API void loaded_check_selinux(const char *src, const char *tgt,
					 const char *may, const char *why)
{
	char scon[96], tcon[96], names[256];
	unsigned int allowed, flags;
	struct dirent *e;
	DIR *d;

	if (!lsm_active("selinux"))
		return;
	snprintf(scon, sizeof(scon), "system_u:system_r:%s", src);
	snprintf(tcon, sizeof(tcon), "system_u:object_r:%s", tgt);
	d = opendir(LOADED_SE_CLASS);
	if (!d) {
		lab_kit("the grader cannot list SELinux's classes (" LOADED_SE_CLASS "): %s",
			errname(errno));
		lab_fail();
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || loaded_selinux(scon, tcon, e->d_name, &allowed, &flags))
			continue;
		if (flags & LOADED_AVD_PERMISSIVE) {
			closedir(d);
			lab_expected("SELinux enforces its policy on the program (%s)", src);
			lab_seen("%s is a permissive domain in the policy the kernel loaded (from %s/selinux/kit.te)",
				 src, lab_file);
			lab_hint("a module turned off: \"permissive %s;\" makes SELinux log what it would refuse the program and refuse nothing; take it out and fix the allow rule instead",
				 src);
			lab_fail();
		}
		loaded_selinux_names(e->d_name, allowed, strcmp(e->d_name, "file") ? "" : may,
				     names, sizeof(names));
		if (!names[0])
			continue;
		closedir(d);
		if (may[0])
			lab_expected("SELinux gives %s file { %s } on %s, and nothing more",
				     src, may, tgt);
		else
			lab_expected("SELinux gives %s nothing on %s", src, tgt);
		lab_seen("the policy the kernel loaded (from %s/selinux/kit.te) gives %s %s { %s } on %s as well",
			 lab_file, src, e->d_name, names, tgt);
		if (strstr(names, "relabel"))
			lab_hint("relabelfrom or relabelto lets the program change the file's label, and with it what every rule says of it");
		lab_hint("%s: no access of the step asks for that, so the grader asked SELinux itself what its policy gives (/sys/fs/selinux/access)",
			 why);
		lab_fail();
	}
	closedir(d);
}

#endif /* LAB_LOADED_H */
