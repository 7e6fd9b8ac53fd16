// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4's grader, linked with the attendee's interface.c and run in the
 * guest as root.  The truth comes from the kernel itself: the grader's own
 * PR_LSM_ATTR_GET/SET, lsm_module_list, lsm_self_attr (which names the
 * module of each context) and getsockopt(SO_PEERSEC).
 *
 * Every step runs in its own child process, which starts with the
 * grader's interface LSM (the boot's default): a choice made in one step
 * does not reach the next.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "grader.h"
#include "kit/files.h"
#include "kit/lsm_names.h"
#include "lab.h"
#include "interface_lsm.h"

/*
 * Step 6's program: this grader, run with REPORT_ARG, exits with its
 * interface LSM's ID (report_mode(), below); its copies in /tmp, plain
 * and setuid root, run as nobody.
 */
#define REPORT_ARG "--lab4-report"
#define PLAIN_COPY "/tmp/lab4-report"
#define SUID_COPY "/tmp/lab4-report-suid"
#define NOBODY 65534

/* The steps' helpers and checks, after the steps. */
static int is_active(long id);
static const char *id_list(const __u32 *ids, int n);
static int truth_unnamed_current(char *buf, size_t len);
static void expect_interface(long want, const char *label, const char *when);
static void expect_refusal(long id, const char *must, const char *why);
static void copy_self(const char *path, mode_t mode);
static void expect_run(long id, char *const argv[], int want, long caller, const char *why);

STEP(1, "ask the kernel for your interface LSM, and name it")
{
	__u32 cand[16];
	int n = truth_candidates(cand, 16);
	long def = get_ilsm();

	lab_setup(def >= 0, "read its interface LSM", errno);
	char when[96];

	expect_interface(def, "your interface LSM (the default):", "with the default");
	lab_setup(set_ilsm(cand[n - 1]) == 0, "choose another interface LSM", errno);
	snprintf(when, sizeof(when), "after the grader chose %s with PR_LSM_ATTR_SET",
		 name_of(cand[n - 1]));
	expect_interface(cand[n - 1], "after the grader chose another one:", when);
}

STEP(2, "which modules can be the interface LSM")
{
	__u32 want[16], got[16 + 4], other;
	int n = truth_candidates(want, 16), r, e, i;
	long before;

	/*
	 * Start from a choice that is neither the default nor the last
	 * candidate (where trying each one ends): it must survive.
	 */
	other = want[n >= 2 ? n - 2 : 0];
	lab_setup(set_ilsm(other) == 0, "choose an interface LSM", errno);
	before = get_ilsm();
	memset(got, 0, sizeof(got));
	errno = 0;
	r = lab_candidates(got, 16);
	e = errno;
	lab_check_todo(2, "lab_candidates()");
	if (r == n && !memcmp(got, want, n * sizeof(*got)) && get_ilsm() == before) {
		printf("the candidates: %s\n", id_list(got, r));
		printf("the default is the first of them: %s\n", name_of(want[0]));
		return;
	}
	if (r != n || memcmp(got, want, n * sizeof(*got))) {
		lab_expected("lab_candidates(ids, 16) returns %d: %s (active: %s)", n,
			     id_list(want, n), fs_list);
		if (r < 0) {
			lab_seen("it returned -1, errno %s", errname(e));
			lab_hint("check each call: lsm_module_list (module_list(), given), then PR_LSM_ATTR_SET for each ID");
			lab_fail();
		}
		lab_seen("it returned %d: %s", r, id_list(got, r < 16 ? r : 16));
		for (i = 0; i < r && i < 16; i++) {
			int k, hit = 0;

			for (k = 0; k < n; k++)
				hit |= got[i] == want[k];
			if (hit)
				continue;
			if (!is_active(got[i]))
				lab_hint("%s is not active in this boot (%s): ask the kernel instead of a list of names",
					 name_of(got[i]), fs_list);
			else
				lab_hint("%s is active but keeps no secids, so it has no lsmblob slot: PR_LSM_ATTR_SET refuses it with EINVAL (grep -rn LSMBLOB_NEEDED build/linux/security/ shows who asks for a slot)",
					 name_of(got[i]));
			lab_fail();
		}
		if (r == n)
			lab_hint("the right modules, in the wrong order: keep the order of lsm_module_list (registration order)");
		else
			lab_hint("each module that PR_LSM_ATTR_SET accepts (0; or EPERM/EACCES, a policy's no) is a candidate: missing are some of %s",
				 id_list(want, n));
		lab_fail();
	}
	lab_expected("after lab_candidates(), your interface LSM is %s again, as before the call",
		     name_of(before));
	lab_seen("it is %s", name_of(get_ilsm()));
	lab_hint("trying PR_LSM_ATTR_SET changes your choice: read it with PR_LSM_ATTR_GET first, and choose it again at the end");
	lab_fail();
}

STEP(3, "choose each candidate, and read the un-named /proc/self/attr/current")
{
	__u32 cand[16];
	int n = truth_candidates(cand, 16), i, r, e, tl;
	char want[256], buf[256 + 8], prev[256 + 8] = "";

	for (i = n - 1; i >= 0; i--) {
		long id = cand[i];

		tl = self_current(id, want, sizeof(want));
		if (tl < 0) {
			/* No lsm_self_attr value: the grader's own read. */
			lab_setup(set_ilsm(id) == 0, "choose an interface LSM", errno);
			tl = truth_unnamed_current(want, sizeof(want));
			lab_setup(set_ilsm(cand[0]) == 0, "choose the default again", errno);
		}
		memset(buf, 'X', sizeof(buf));
		errno = 0;
		r = lab_current_of(id, buf, 256);
		e = errno;
		lab_check_todo(3, "lab_current_of()");
		if (r == tl && get_ilsm() == id && memchr(buf, '\0', 256) && !strcmp(buf, want)) {
			printf("interface %-9s /proc/self/attr/current reads %s\n", name_of(id),
			       lab_quote(buf, -1));
			snprintf(prev, sizeof(prev), "%s", buf);
			continue;
		}
		lab_expected("lab_current_of(%ld) (%s) returns %d with buf = %s, and then your interface LSM is %s",
			     id, name_of(id), tl, lab_quote(want, -1), name_of(id));
		if (r < 0)
			lab_seen("it returned -1, errno %s; your interface LSM is %s", errname(e),
				 name_of(get_ilsm()));
		else
			lab_seen("it returned %d with buf = %s; your interface LSM is %s", r,
				 memchr(buf, '\0', 256) ? lab_quote(buf, -1) : "(no NUL in buf)",
				 name_of(get_ilsm()));
		if (get_ilsm() != id)
			lab_hint("choose the module first: prctl(PR_LSM_ATTR_SET, id, 0, 0, 0); the un-named file then shows its context");
		else if (r < 0 && e == ENOENT)
			lab_hint("read the un-named file, /proc/self/attr/current: %s has no directory of its own under /proc/self/attr",
				 name_of(id));
		else if (r >= 0 && memchr(buf, '\0', 256) && *prev && !strcmp(buf, prev))
			lab_hint("that is the previous module's context: did you read before you chose?");
		else
			lab_hint("read_value(\"/proc/self/attr/current\", buf, len), given, trims the newline and the NUL");
		lab_fail();
	}
}

STEP(4, "when the kernel says EINVAL, tell the user why")
{
	lab_needs(2);
	static const long majors[] = {
		LSM_ID_SELINUX, LSM_ID_SMACK, LSM_ID_APPARMOR, LSM_ID_TOYLSM
	};
	char msg[512];
	__u32 cand[16], ids[64];
	int n = truth_candidates(cand, 16), na = active_ids(ids, 64), i, k, r, e;

	for (i = 0; i < na; i++) {
		int slot = 0;

		for (k = 0; k < n; k++)
			slot |= cand[k] == ids[i];
		if (!slot)
			expect_refusal(ids[i], "slot", "it is active, but keeps no secids (no lsmblob slot)");
	}
	for (i = 0; i < (int)(sizeof(majors) / sizeof(majors[0])); i++) {
		if (!is_active(majors[i])) {
			expect_refusal(majors[i], "not active", "it is not in this boot's lsm=");
			break;
		}
	}
	expect_refusal(LSM_ID_TOMOYO, "not active", "the kit's kernel does not even have it");
	expect_refusal(9999, "unknown", "<linux/lsm.h> has no such ID");
	expect_refusal(LSM_ID_INVALID, "unknown", "LSM_ID_INVALID (-1) is no module");
	expect_refusal(0, "unknown", "IDs 0..31 are reserved");

	errno = 0;
	memset(msg, 'X', sizeof(msg));
	r = lab_choose(cand[n - 1], msg, sizeof(msg));
	e = errno;
	if (r != 0 || get_ilsm() != cand[n - 1] || strlen(msg) >= sizeof(msg) || msg[0]) {
		lab_expected("lab_choose(%u) (%s) returns 0 with msg = \"\", and then your interface LSM is %s",
			     cand[n - 1], name_of(cand[n - 1]), name_of(cand[n - 1]));
		lab_seen("it returned %d%s%s; msg = %s; your interface LSM is %s", r,
			 r ? ", errno " : "",
			 r ? errname(e) : "", memchr(msg, '\0', sizeof(msg)) ? lab_quote(msg, -1) : "(no NUL)",
			 name_of(get_ilsm()));
		lab_hint("on success there is nothing to explain: msg is the empty string");
		lab_fail();
	}
	printf("lab_choose(%u): 0, your interface LSM is now %s\n", cand[n - 1],
	       name_of(cand[n - 1]));
}

STEP(5, "SO_PEERSEC follows the interface LSM")
{
	__u32 cand[16];
	int n = truth_candidates(cand, 16), i, r, e, tl, fd0 = open_fds(), small = -1;
	char want[256], self[256], buf[256 + 8];

	for (i = 0; i < n; i++) {
		long id = cand[i];

		lab_setup(set_ilsm(id) == 0, "choose an interface LSM", errno);
		tl = truth_peersec(want, sizeof(want));
		if (tl >= 0) {
			lab_setup(self_current(id, self, sizeof(self)) >= 0 && !strcmp(self, want),
				  "see SO_PEERSEC give its own context", EPROTO);
			if (small < 0 && tl >= 1)
				small = i;
		}
		memset(buf, 'X', sizeof(buf));
		errno = 0;
		r = lab_peersec(buf, 256);
		e = errno;
		lab_check_todo(5, "lab_peersec()");
		if (tl < 0 && r == -1 && e == -tl) {
			printf("interface %-9s SO_PEERSEC: %s%s\n", name_of(id), errname(e),
			       e == ENOPROTOOPT ? " (it does not label socketpairs)" : "");
			continue;
		}
		if (tl >= 0 && r == tl && memchr(buf, '\0', 256) && !strcmp(buf, want)) {
			printf("interface %-9s SO_PEERSEC: %s (your own context in %s)\n",
			       name_of(id),
			       lab_quote(buf, -1), name_of(id));
			continue;
		}
		if (tl < 0)
			lab_expected("with interface LSM %s, lab_peersec(buf, 256) returns -1 with errno %s",
				     name_of(id), errname(-tl));
		else
			lab_expected("with interface LSM %s, lab_peersec(buf, 256) returns %d with buf = %s (%s's context of the peer: you)",
				     name_of(id), tl, lab_quote(want, -1), name_of(id));
		if (r < 0)
			lab_seen("it returned -1, errno %s", errname(e));
		else
			lab_seen("it returned %d with buf = %s", r,
				 memchr(buf, '\0', 256) ? lab_quote(buf, -1) : "(no NUL in buf)");
		if (tl < 0 && r >= 0)
			lab_hint("%s answers nothing for a socketpair: pass getsockopt()'s error on, do not make up a context",
				 name_of(id));
		else if (r < 0 && e == ENOPROTOOPT)
			lab_hint("%s labels AF_UNIX stream sockets: socketpair(AF_UNIX, SOCK_STREAM, 0, sv), then getsockopt(sv[0], SOL_SOCKET, SO_PEERSEC, buf, &optlen)",
				 name_of(id));
		else if (r < 0 && e == ERANGE)
			lab_hint("optlen goes in as the size of buf (len), and comes back as the bytes written");
		else if (r == tl + 1)
			lab_hint("optlen counts the context's NUL: the length is strlen(buf)");
		else
			lab_hint("getsockopt() writes optlen bytes and may not NUL-terminate: end the string yourself");
		lab_fail();
	}
	if (small >= 0) {
		lab_setup(set_ilsm(cand[small]) == 0, "choose an interface LSM", errno);
		tl = truth_peersec(want, sizeof(want));
		errno = 0;
		r = lab_peersec(buf, tl);
		e = errno;
		lab_must_fail(r, e, ERANGE,
			      "give getsockopt() optlen = len: it refuses with ERANGE (and sets optlen to what it needs); pass that on",
			      "with interface LSM %s, lab_peersec(buf, %d) returns -1 with errno ERANGE: %s and its NUL need %d bytes",
			      name_of(cand[small]), tl, lab_quote(want, -1), tl + 1);
		printf("lab_peersec(buf, %d): ERANGE (%s needs %d bytes)\n", tl,
		       lab_quote(want, -1), tl + 1);
	}
	if (open_fds() != fd0) {
		lab_expected("lab_peersec() closes both sockets");
		lab_seen("%d file descriptors more are open after %d calls", open_fds() - fd0,
			 n + 1);
		lab_hint("close(sv[0]) and close(sv[1]) on every path, errors included");
		lab_fail();
	}
}

STEP(6, "fork and exec keep the choice; a setuid exec resets it")
{
	char *const rep[] = { "/proc/self/exe", REPORT_ARG, NULL };
	char *const plain[] = { PLAIN_COPY, REPORT_ARG, NULL };
	char *const suid[] = { SUID_COPY, REPORT_ARG, NULL };
	__u32 cand[16];
	int n = truth_candidates(cand, 16), r;
	long def = cand[0], other = cand[n - 1];

	lab_setup(n >= 2, "find two candidates", EINVAL);
	lab_setup(set_ilsm(other) == 0, "choose an interface LSM", errno);
	expect_run(LSM_ID_INVALID, rep, other, other,
		   "with LSM_ID_INVALID the child keeps what it inherits from you at fork(), and execv() keeps it too");
	printf("you chose %s; the program you ran sees %s (fork and exec inherit it)\n",
	       name_of(other), name_of(other));
	lab_setup(set_ilsm(def) == 0, "choose the default again", errno);
	expect_run(other, rep, other, def, "the child chooses the module, then runs the program");
	printf("lab_run_with(%s): the program sees %s, you still %s\n", name_of(other),
	       name_of(other), name_of(def));
	expect_run(LSM_ID_YAMA, rep, 126, def, "yama has no slot: PR_LSM_ATTR_SET fails in the child, which must not run the program");
	printf("lab_run_with(yama): 126, the program did not run\n");

	/* As nobody: a plain exec keeps the choice, a setuid one drops it. */
	copy_self(PLAIN_COPY, 0755);
	copy_self(SUID_COPY, 04755);
	lab_setup(setgroups(0, NULL) == 0 && setresgid(NOBODY, NOBODY, NOBODY) == 0 &&
		  setresuid(NOBODY, NOBODY, NOBODY) == 0, "become nobody", errno);
	r = lab_run_with(other, plain);
	lab_setup(r == other, "see a plain exec as nobody keep the interface LSM",
		  r < 0 ? errno : EPROTO);
	printf("as nobody, lab_run_with(%s, %s): the program sees %s\n", name_of(other), PLAIN_COPY,
	       name_of(r));
	r = lab_run_with(other, suid);
	if (r != def) {
		lab_kit("as nobody, lab_run_with(%s, {\"%s\"}) (setuid root) returned %d: the program saw %s, not the default %s",
			name_of(other), SUID_COPY, r, name_of(r), name_of(def));
		lab_kit("an exec that gains privilege must reset the interface LSM (security_bprm_committing_creds(), patch 0014): the kernel's bug, not yours");
		lab_fail();
	}
	printf("as nobody, lab_run_with(%s, %s, setuid root): the program sees %s, the default\n",
	       name_of(other), SUID_COPY, name_of(def));
}

static void lab_banner(void)
{
	long id = get_ilsm();

	load_fs_list();
	printf("lab 4: the interface LSM; this boot: %s; default interface LSM: %s\n", fs_list,
	       id < 0 ? errname(errno) : name_of(id));
}

/* "interface" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	const char *name = NULL;
	__u32 ids[16];
	char buf[256];
	int r, n;

	load_fs_list();
	printf("active: %s\n", fs_list);
	r = lab_interface(&name);
	if (!lab_show_todo("lab_interface"))
		printf("your interface LSM: %d (%s)\n", r, r >= 0 && name ? name : errname(errno));
	n = lab_candidates(ids, 16);
	if (lab_show_todo("lab_candidates") || n < 0)
		return;
	printf("candidates: %s\n", id_list(ids, n));
	for (int i = 0; i < n; i++) {
		r = lab_current_of(ids[i], buf, sizeof(buf));
		if (lab_show_todo("lab_current_of"))
			break;
		printf("interface %-9s current %s", name_of(ids[i]),
		       r >= 0 ? lab_quote(buf, -1) : errname(errno));
		r = lab_peersec(buf, sizeof(buf));
		if (lab_show_todo("lab_peersec")) {
			printf("\n");
			continue;
		}
		printf(", SO_PEERSEC %s\n", r >= 0 ? lab_quote(buf, -1) : errname(errno));
	}
}

/*
 * The program step 6 runs: this binary with REPORT_ARG exits with its
 * interface LSM's ID as its status, before the grader's main() starts.
 */
static void __attribute__((constructor)) report_mode(void)
{
	char cmd[256];
	int n = read_file("/proc/self/cmdline", cmd, sizeof(cmd));

	if (n <= 0)
		return;
	if (strlen(cmd) + 1 < (size_t)n && !strcmp(cmd + strlen(cmd) + 1, REPORT_ARG)) {
		long id = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);

		_exit(id < 0 || id > 254 ? 255 : (int)id);
	}
}

static int is_active(long id)
{
	__u32 ids[64];
	int n = active_ids(ids, 64);

	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

static const char *id_list(const __u32 *ids, int n)
{
	static char buf[2][512];
	static int k;

	k = !k;
	buf[k][0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf[k] + strlen(buf[k]), sizeof(buf[k]) - strlen(buf[k]), "%s%s (%u)",
			 i ? ", " : "", name_of(ids[i]), ids[i]);
	if (n == 0)
		snprintf(buf[k], sizeof(buf[k]), "(none)");
	return buf[k];
}

/* The grader's own read of the un-named current: the value, or -1. */
static int truth_unnamed_current(char *buf, size_t len)
{
	char raw[4096];
	int fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, raw, sizeof(raw));
	size_t v;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -1;
	v = strnlen(raw, n);
	if (v > 0 && raw[v - 1] == '\n')
		v--;
	if (v >= len)
		v = len - 1;
	memcpy(buf, raw, v);
	buf[v] = '\0';
	return v;
}

/* A check of step 1: lab_interface() must give want. */
static void expect_interface(long want, const char *label, const char *when)
{
	const char *name = NULL;
	int r, e;

	errno = 0;
	r = lab_interface(&name);
	e = errno;
	lab_check_todo(1, "lab_interface()");
	if (r == want && name && !strcmp(name, name_of(want))) {
		printf("%-36s %s (%ld)\n", label, name, want);
		return;
	}
	lab_expected("%s, lab_interface(&name) returns %ld with name = \"%s\"", when, want,
		     name_of(want));
	if (r < 0)
		lab_seen("it returned %d, errno %s", r, errname(e));
	else
		lab_seen("it returned %d (%s) with name = %s", r, name_of(r), lab_quote(name, -1));
	if (r < 0 && e == EINVAL)
		lab_hint("prctl() always takes five arguments: prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0). Arguments you leave out are whatever is in the registers, and the kernel refuses nonzero ones with EINVAL");
	else if (r >= 0 && r != want && r == kit_lsms[0].id)
		lab_hint("capability is first in lsm_module_list, but it is not the interface LSM: ask the kernel, prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0)");
	else if (r >= 0 && r != want)
		lab_hint("%s is the default, but this task has chosen another module: do not work it out, ask the kernel with prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0)",
			 name_of(r));
	else
		lab_hint("*name = lsm_name(id): the name of the ID the kernel returned");
	lab_fail();
}

/* A check of step 4: lab_choose(id) must fail with EINVAL and explain. */
static void expect_refusal(long id, const char *must, const char *why)
{
	char msg[512 + 8], num[32];
	long before = get_ilsm();
	const char *name = NULL;
	int r, e;

	for (int i = 0; i < KIT_NLSMS; i++)
		if (kit_lsms[i].id == id)
			name = kit_lsms[i].name;
	snprintf(num, sizeof(num), "%ld", id);
	memset(msg, 'X', sizeof(msg));
	msg[512] = '\0';
	errno = 0;
	r = lab_choose(id, msg, 512);
	e = errno;
	lab_check_todo(4, "lab_choose()");
	msg[512] = '\0';
	if (r == -1 && e == EINVAL && get_ilsm() == before && strstr(msg, "EINVAL") &&
	    strstr(msg, name ? name : num) && strstr(msg, must)) {
		printf("lab_choose(%ld): %s\n", id, msg);
		return;
	}
	lab_expected("lab_choose(%ld, msg, 512) returns -1 with errno EINVAL, and msg names the errno (\"EINVAL\"), %s%s%s and says \"%s\": %s",
		     id, name ? "the module (\"" : "the number (", name ? name : num,
		     name ? "\")" : ")", must, why);
	lab_seen("it returned %d, errno %s; msg = %s", r, errname(e), lab_quote(msg, -1));
	if (r == -1 && get_ilsm() != before)
		lab_hint("your interface LSM changed from %s to %s although the kernel refused: does something you call to explain it (lab_candidates()?) leave it changed?",
			 name_of(before), name_of(get_ilsm()));
	else if (r == 0 || get_ilsm() != before)
		lab_hint("the kernel refuses this ID; PR_LSM_ATTR_SET fails and changes nothing: return -1");
	else if (e != EINVAL)
		lab_hint("errno is the kernel's, EINVAL: save it right after prctl(), since snprintf() and the system calls you make to explain it may change it, and set it again before you return");
	else if (!strstr(msg, "EINVAL"))
		lab_hint("name the errno as sandboxer.c does: strerrorname_np(errno) gives \"EINVAL\"");
	else if (!strstr(msg, name ? name : num))
		lab_hint("say which module you tried: %s", name ? "lsm_name(id)" : "the number, since it has no name");
	else if (!strcmp(must, "unknown"))
		lab_hint("lsm_name(%ld) is NULL: no module has this ID; say \"unknown\"", id);
	else if (!strcmp(must, "not active"))
		lab_hint("%s has an ID, but module_list() does not list it: say \"not active\"",
			 name);
	else
		lab_hint("%s is active (module_list() lists it) but lab_candidates() does not: it has no lsmblob slot; say \"slot\"",
			 name);
	lab_hint("EINVAL has three reasons here: tell them apart with lsm_name(), module_list() and lab_candidates(); lab.h lists the words");
	lab_fail();
}

/* Copy this program to path with mode (owner root). */
static void copy_self(const char *path, mode_t mode)
{
	char buf[65536];
	ssize_t r;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), out;

	unlink(path);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	lab_setup(in >= 0 && out >= 0, "copy itself to /tmp", errno);
	while ((r = read(in, buf, sizeof(buf))) > 0)
		lab_setup(write(out, buf, r) == r, "copy itself to /tmp", errno);
	close(in);
	close(out);
	lab_setup(chown(path, 0, 0) == 0 && chmod(path, mode) == 0, "chmod its copy", errno);
}

static void expect_run(long id, char *const argv[], int want, long caller, const char *why)
{
	int r, e;

	errno = 0;
	r = lab_run_with(id, argv);
	e = errno;
	lab_check_todo(6, "lab_run_with()");
	if (r == want && get_ilsm() == caller)
		return;
	lab_expected("lab_run_with(%ld (%s), {\"%s\", \"%s\"}) returns %d%s%s%s, and your own interface LSM stays %s",
		     id, name_of(id), argv[0], argv[1] ? argv[1] : "", want,
		     want == 126 ? "" : " (", want == 126 ? "" : name_of(want),
		     want == 126 ? "" : ")", name_of(caller));
	lab_seen("it returned %d%s%s%s%s; your interface LSM is %s", r, r == -1 ? ", errno " : "",
		 r == -1 ? errname(e) : "", r >= 32 && r <= 44 ? ", the child's " : "",
		 r >= 32 && r <= 44 ? name_of(r) : "", name_of(get_ilsm()));
	lab_hint("%s", why);
	if (get_ilsm() != caller)
		lab_hint("choose in the child, after fork(): the caller's choice must not change");
	else if (want == 126 && r >= 32 && r <= 44)
		lab_hint("the child ran the program although PR_LSM_ATTR_SET failed: _exit(126) instead (fail closed)");
	else if (r == 127)
		lab_hint("127: the child's execv() failed? execv(argv[0], argv)");
	else if (r != want)
		lab_hint("the program exits with its interface LSM's ID as its status: return WEXITSTATUS(status) of waitpid()");
	lab_fail();
}
