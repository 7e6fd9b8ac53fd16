// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 7's grader, linked with the attendee's peersec.c and run in the
 * guest as root.  The truth comes from the kernel itself: the grader's
 * own PR_LSM_ATTR_GET/SET, lsm_module_list, SO_PEERSEC on a socketpair
 * and SCM_SECURITY on a datagram socketpair.
 *
 * Every step runs in its own child process, which starts with the
 * grader's interface LSM (the boot's default).
 */
#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/syscall.h>

#include "grader.h"
#include "kit/lsm_names.h"
#include "lab.h"
#include "interface_lsm.h"

/* The steps' helpers and checks, after the steps. */
static int truth_dgram(char *buf, size_t len);
static void each_interface(void (*check)(long id));
static void check_stream(long id);	/* step 1, with interface LSM id */
static void check_dgram(long id);	/* step 2 */
static void check_audit(int step, long def, long as);	/* steps 4 and 5 */

STEP(1, "SO_PEERSEC on a connected unix stream socket, with a size probe")
{
	each_interface(check_stream);
}

STEP(2, "SCM_SECURITY on a unix datagram (SO_PASSSEC, walking the control messages)")
{
	each_interface(check_dgram);
}

STEP(3, "the table: every interface LSM, the peer context it gives")
{
	lab_needs(1);
	lab_needs(2);
	__u32 cand[16];
	struct lab_peer rows[16];
	int n = truth_candidates(cand, 16), r;
	long orig = get_ilsm();
	char want[256];

	memset(rows, 0, sizeof(rows));
	r = lab_peer_table(rows, 16);
	lab_check_todo(3, "lab_peer_table()");
	if (get_ilsm() != orig) {
		lab_expected("after lab_peer_table() your interface LSM is %s again",
			     name_of(orig));
		lab_seen("it is %s", name_of(get_ilsm()));
		lab_hint("remember PR_LSM_ATTR_GET before the loop and PR_LSM_ATTR_SET it after");
		lab_fail();
	}
	if (r != n) {
		lab_expected("lab_peer_table() returns %d rows, one per module that can be the interface LSM",
			     n);
		lab_seen("it returned %d%s%s", r, r < 0 ? ", errno " : "", r < 0 ? errname(errno) : "");
		lab_hint("a row for each active module (module_list()) that PR_LSM_ATTR_SET accepts; EINVAL means no slot: skip it");
		lab_fail();
	}
	printf("%-10s %-40s %s\n", "module", "SO_PEERSEC (stream)", "SCM_SECURITY (datagram)");
	for (int i = 0; i < n; i++) {
		int ts, td;
		char wd[256];

		lab_setup(set_ilsm(cand[i]) == 0, "choose an interface LSM", errno);
		ts = truth_peersec(want, sizeof(want));
		td = truth_dgram(wd, sizeof(wd));
		if (rows[i].id != cand[i] ||
		    rows[i].stream_err != (ts < 0 ? -ts : 0) || (ts >= 0 &&
								 strcmp(rows[i].stream, want)) ||
		    rows[i].dgram_err != (td < 0 ? -td : 0) || (td >= 0 &&
								strcmp(rows[i].dgram, wd))) {
			lab_expected("row %d: %s, stream %s, datagram %s", i, name_of(cand[i]),
				     ts < 0 ? errname(-ts) : lab_quote(want, -1),
				     td < 0 ? errname(-td) : lab_quote(wd, -1));
			lab_seen("row %d: %s, stream %s, datagram %s", i, name_of(rows[i].id),
				 rows[i].stream_err ? errname(rows[i].stream_err) :
				   lab_quote(rows[i].stream, -1),
				 rows[i].dgram_err ? errname(rows[i].dgram_err) :
				   lab_quote(rows[i].dgram, -1));
			lab_hint("choose each module (PR_LSM_ATTR_SET) before steps 1 and 2; on an error, the errno goes in the row");
			lab_fail();
		}
		printf("%-10s %-40s %s\n", name_of(cand[i]),
		       ts < 0 ? errname(-ts) : lab_quote(want, -1),
		       td < 0 ? errname(-td) : lab_quote(wd, -1));
	}
	set_ilsm(orig);
}

STEP(4, "an AUDIT_USER message, and the subj= of its record")
{
	long def = get_ilsm();

	lab_setup(def >= 0, "read its interface LSM", errno);
	check_audit(4, def, def);
}

STEP(5, "choosing another interface LSM does not change the audit record")
{
	lab_needs(4);
	__u32 cand[16];
	int n = truth_candidates(cand, 16);
	char seen[256];
	long def = get_ilsm();

	lab_setup(def >= 0, "read its interface LSM (the default)", errno);
	for (int i = 0; i < n; i++) {
		int r = self_current(cand[i], seen, sizeof(seen));

		check_audit(5, def, cand[i]);
		if (r >= 0)
			printf("%-9s   (%s's own context would be %s)\n", "", name_of(cand[i]),
			       seen);
	}
}

static void lab_banner(void)
{
	long id = get_ilsm();

	load_fs_list();
	printf("lab 7: SO_PEERSEC and SCM_SECURITY; this boot: %s; default interface LSM: %s\n",
	       fs_list,
	       id < 0 ? errname(errno) : name_of(id));
}

/* "peersec" in the guest shell: what the attendee's functions return. */
static void lab_show(void)
{
	struct lab_peer rows[16];
	char buf[256];
	int r;

	load_fs_list();
	printf("active: %s\n", fs_list);
	r = lab_stream_peersec(buf, sizeof(buf));
	if (!lab_show_todo("lab_stream_peersec"))
		printf("SO_PEERSEC: %s\n", r >= 0 ? lab_quote(buf, -1) : errname(errno));
	r = lab_dgram_peersec(buf, sizeof(buf));
	if (!lab_show_todo("lab_dgram_peersec"))
		printf("SCM_SECURITY: %s\n", r >= 0 ? lab_quote(buf, -1) : errname(errno));
	r = lab_audit_subj("lab7-shell", buf, sizeof(buf));
	if (!lab_show_todo("lab_audit_subj"))
		printf("audit record: subj=%s\n", r >= 0 ? buf : errname(errno));
	r = lab_peer_table(rows, 16);
	if (lab_show_todo("lab_peer_table") || r < 0)
		return;
	for (int i = 0; i < r; i++)
		printf("%-10s stream %s, datagram %s\n", name_of(rows[i].id),
		       rows[i].stream_err ? errname(rows[i].stream_err) : lab_quote(rows[i].stream,
										    -1),
		       rows[i].dgram_err ? errname(rows[i].dgram_err) : lab_quote(rows[i].dgram,
										  -1));
}

/* SCM_SECURITY on a datagram socketpair: the length, or -ENODATA. */
static int truth_dgram(char *buf, size_t len)
{
	union {
		char b[CMSG_SPACE(4096)];
		struct cmsghdr align;
	} ctl;
	char d = 'x';
	struct iovec iov = { .iov_base = &d, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b) };
	int sv[2], on = 1, rc = -ENODATA;

	lab_setup(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) == 0, "make a datagram socketpair",
		  errno);
	lab_setup(setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &on, sizeof(on)) == 0, "set SO_PASSSEC",
		  errno);
	lab_setup(send(sv[0], &d, 1, 0) == 1 && recvmsg(sv[1], &msg, 0) == 1, "send and receive a datagram",
		  errno);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t n;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_SECURITY)
			continue;
		n = strnlen((char *)CMSG_DATA(c), c->cmsg_len - CMSG_LEN(0));
		if (n >= len)
			n = len - 1;
		memcpy(buf, CMSG_DATA(c), n);
		buf[n] = '\0';
		rc = n;
	}
	close(sv[0]);
	close(sv[1]);
	return rc;
}

static void check_fds(int before, const char *fn)
{
	int after = open_fds();

	if (after == before)
		return;
	lab_expected("%s closes every socket it makes", fn);
	lab_seen("%d more file descriptors open after it", after - before);
	lab_hint("close() each socket on every path, the error paths too (the given close_all() keeps errno)");
	lab_fail();
}

/*
 * Step @step's function @fn, called with @buf (256 bytes and a guard of
 * 8, filled with X): its return value, its errno in *@e; it must close
 * every socket it makes.
 */
static int call_256(int (*fn)(char *, size_t), int step, const char *name, char *buf, int *e)
{
	int r, fd0 = open_fds();

	memset(buf, 'X', 256 + 8);
	errno = 0;
	r = fn(buf, 256);
	*e = errno;
	lab_check_todo(step, name);
	check_fds(fd0, name);
	return r;
}

/*
 * What one of the attendee's functions answered in buf (256 bytes): its
 * return value r, and errno e or the string.
 */
static void seen_answer(int r, int e, const char *buf)
{
	if (r < 0)
		lab_seen("it returned -1, errno %s", errname(e));
	else
		lab_seen("it returned %d with buf = %s", r,
			 memchr(buf, '\0', 256) ? lab_quote(buf, -1) : "(no NUL in buf)");
}

/* Steps 1 and 2: check() with each module that can be the interface LSM. */
static void each_interface(void (*check)(long id))
{
	__u32 cand[16];
	int n = truth_candidates(cand, 16);

	for (int i = 0; i < n; i++) {
		lab_setup(set_ilsm(cand[i]) == 0, "choose an interface LSM", errno);
		check(cand[i]);
	}
}

/* Step 1's check for the current interface LSM id. */
static void check_stream(long id)
{
	char want[256], buf[256 + 8];
	int tl = truth_peersec(want, sizeof(want)), e;
	int r = call_256(lab_stream_peersec, 1, "lab_stream_peersec()", buf, &e);

	if (tl < 0 && r == -1 && e == -tl) {
		printf("interface %-9s SO_PEERSEC: %s%s\n", name_of(id), errname(e),
		       e == ENOPROTOOPT ? " (it does not label unix stream sockets)" : "");
		return;
	}
	if (tl >= 0 && r == tl && memchr(buf, '\0', 256) && !strcmp(buf, want)) {
		printf("interface %-9s SO_PEERSEC: %s\n", name_of(id), lab_quote(buf, -1));
	} else {
		if (tl < 0)
			lab_expected("with interface LSM %s, lab_stream_peersec(buf, 256) returns -1 with errno %s",
				     name_of(id), errname(-tl));
		else
			lab_expected("with interface LSM %s, lab_stream_peersec(buf, 256) returns %d with buf = %s",
				     name_of(id), tl, lab_quote(want, -1));
		seen_answer(r, e, buf);
		if (tl < 0 && r >= 0)
			lab_hint("%s answers nothing for unix stream sockets: pass getsockopt()'s error on",
				 name_of(id));
		else if (r < 0 && e == ERANGE)
			lab_hint("the probe (optlen 0) must fail with ERANGE; the optlen it sets back is the size needed: compare that with len");
		else if (r < 0 &&
			 (e == EINVAL || e == ENOENT || e == ECONNREFUSED || e == EADDRINUSE))
			lab_hint("an abstract address: sun_path[0] is '\\0' and the address length counts only the name (abstract_addr() gives both)");
		else if (r < 0 && e == ENOPROTOOPT)
			lab_hint("%s labels unix stream sockets: read SO_PEERSEC on the accepted socket",
				 name_of(id));
		else if (r == tl + 1 && memchr(buf, '\0', 256) && !strcmp(buf, want))
			lab_hint("the string is right, the length is not: %s counts the NUL in optlen, so the length is strlen(buf), not optlen",
				 name_of(id));
		else if (r >= 0 && !memchr(buf, '\0', 256))
			lab_hint("getsockopt() may not NUL-terminate: end the string at optlen yourself");
		else if (r >= 0 && memchr(buf, '\0', 256) && (int)strlen(buf) != r)
			lab_hint("return the length of the string in buf, strlen(buf)");
		else
			lab_hint("read SO_PEERSEC on the accepted socket, with optlen set to the size the probe gave");
		lab_fail();
	}
	/* Too small: ERANGE, and buf untouched. */
	memset(buf, 'X', sizeof(buf));
	errno = 0;
	r = lab_stream_peersec(buf, tl);
	e = errno;
	if (r == -1 && e == ERANGE && buf[0] == 'X') {
		printf("interface %-9s lab_stream_peersec(buf, %d): ERANGE, buf untouched\n",
		       name_of(id), tl);
		return;
	}
	lab_expected("with interface LSM %s, lab_stream_peersec(buf, %d) (no room for the NUL) returns -1 with errno ERANGE and leaves buf alone",
		     name_of(id), tl);
	if (r < 0)
		lab_seen("it returned -1, errno %s%s", errname(e),
			 buf[0] != 'X' ? ", and wrote into buf" : "");
	else
		lab_seen("it returned %d", r);
	lab_hint("ask first: getsockopt(fd, SOL_SOCKET, SO_PEERSEC, NULL, &optlen) with optlen = 0 fails with ERANGE and sets optlen to the size needed, NUL counted; more than len: ERANGE");
	lab_fail();
}

static void check_dgram(long id)
{
	char want[256], buf[256 + 8];
	int tl = truth_dgram(want, sizeof(want)), e;
	int r = call_256(lab_dgram_peersec, 2, "lab_dgram_peersec()", buf, &e);

	if (tl < 0 && r == -1 && e == ENODATA) {
		printf("interface %-9s SCM_SECURITY: none (ENODATA)\n", name_of(id));
		return;
	}
	if (tl >= 0 && r == tl && memchr(buf, '\0', 256) && !strcmp(buf, want)) {
		printf("interface %-9s SCM_SECURITY: %s\n", name_of(id), lab_quote(buf, -1));
		return;
	}
	if (tl < 0)
		lab_expected("with interface LSM %s, no SCM_SECURITY message comes: lab_dgram_peersec(buf, 256) returns -1 with errno ENODATA",
			     name_of(id));
	else
		lab_expected("with interface LSM %s, lab_dgram_peersec(buf, 256) returns %d with buf = %s",
			     name_of(id), tl, lab_quote(want, -1));
	seen_answer(r, e, buf);
	if (tl < 0 && r >= 0)
		lab_hint("only a control message with cmsg_level SOL_SOCKET and cmsg_type SCM_SECURITY carries a context; none came: ENODATA");
	else if (r < 0 && e == ENODATA)
		lab_hint("no SCM_SECURITY came: SO_PASSSEC must be set on the receiving socket by the time it calls recvmsg() (scm_passec() tests it there), and recvmsg() needs msg_control and msg_controllen");
	else if (r == tl + 1)
		lab_hint("cmsg_len - CMSG_LEN(0) may count a NUL: the length is strlen(buf)");
	else
		lab_hint("the context is CMSG_DATA(c), cmsg_len - CMSG_LEN(0) bytes, not always NUL-terminated: end it yourself");
	lab_fail();
}

/* Check one audit record's subj=: it must be the default module's context. */
static void check_audit(int step, long def, long as)
{
	char want[256], buf[256 + 8], text[64];
	int tl, r, e, fd0 = open_fds();

	lab_setup(self_current(def, want, sizeof(want)) >= 0, "read the default module's context (lsm_self_attr)",
		  ENOENT);
	tl = strlen(want);
	snprintf(text, sizeof(text), "lab7-%d-%ld-%ld", getpid(), as, random());
	memset(buf, 'X', sizeof(buf));
	errno = 0;
	if (step == 4)
		r = lab_audit_subj(text, buf, 256);
	else
		r = lab_audit_subj_as(as, text, buf, 256);
	e = errno;
	lab_check_todo(step, step == 4 ? "lab_audit_subj()" : "lab_audit_subj_as()");
	check_fds(fd0, step == 4 ? "lab_audit_subj()" : "lab_audit_subj_as()");
	if (step == 5 && get_ilsm() != as) {
		lab_expected("after lab_audit_subj_as(%s, ...) your interface LSM is %s",
			     name_of(as), name_of(as));
		lab_seen("it is %s", name_of(get_ilsm()));
		lab_hint("choose it with PR_LSM_ATTR_SET before step 4, and leave it chosen");
		lab_fail();
	}
	if (r == tl && memchr(buf, '\0', 256) && !strcmp(buf, want)) {
		printf("interface %-9s audit record: subj=%s (%s's context: the default)\n",
		       name_of(get_ilsm()),
		       buf, name_of(def));
		return;
	}
	lab_expected("%s%s, the record of your AUDIT_USER message has subj=%s: the context of %s, the system's default module",
		     step == 5 ? "after choosing " : "with interface LSM ",
		     name_of(as), want, name_of(def));
	seen_answer(r, e, buf);
	if (r < 0 && e == ETIMEDOUT)
		lab_hint("bind the log socket to the group before you send (audit_fd(1 << (AUDIT_NLGRP_READLOG - 1))), turn audit on (AUDIT_SET, mask AUDIT_STATUS_ENABLED, enabled 1), and wait for the record that holds your text");
	else if (r < 0 && e == ENOENT)
		lab_hint("the field is \" subj=\" (with the space before it), in the record that holds your text");
	else if (r == 1 && !strcmp(buf, "?"))
		lab_hint("subj=? says several modules name the subject: read on to the record of type 1425 (AUDIT_MAC_TASK_CONTEXTS) and copy its first subj_<lsm>= value");
	else if (r >= 0 && step == 5)
		lab_hint("does your code choose the module? The record itself must not change: audit uses security_default_secid_to_secctx() (patch 0014)");
	else
		lab_hint("the value ends at the next space; copy it and end it with a NUL");
	lab_fail();
}
