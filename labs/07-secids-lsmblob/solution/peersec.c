// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 7: secids and lsmblob, SO_PEERSEC and SCM_SECURITY across the
 * interface LSMs.
 *
 * Each function below is one step of labs/07-secids-lsmblob/README.md;
 * lab.h says what each must return.  A "TODO n" comment marks the code
 * that step n asks you to write; until you write it, the function ends at
 * its placeholder "return LAB_TODO(n);", which the grader recognises.
 *
 * Build, boot and grade: make lab 7.  Explore in the guest: make lab 7
 * SHELL=1, then run "peersec" (what your functions return) or
 * "peersec --grade".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <linux/audit.h>
#include <linux/netlink.h>

#include "lab.h"

/* Given: the active LSMs' IDs in registration order (lab 1), or -1. */
__attribute__((unused))
static int module_list(__u32 *ids, int max)
{
	size_t size = max * sizeof(*ids);

	return syscall(__NR_lsm_module_list, ids, &size, 0);
}

/*
 * Given: an abstract AF_UNIX address of its own for this process
 * ("\0lab7-PID"), and its length for bind() and connect().
 */
__attribute__((unused))
static socklen_t abstract_addr(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1, "lab7-%d", (int)getpid());
	return offsetof(struct sockaddr_un, sun_path) + 1 + strlen(sun->sun_path + 1);
}

/* Given: close fds that are open (>= 0), keeping errno. */
__attribute__((unused))
static void close_all(int a, int b, int c)
{
	int e = errno;

	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	if (c >= 0)
		close(c);
	errno = e;
}

/* Given: a NETLINK_AUDIT socket bound to the multicast groups (0: none). */
__attribute__((unused))
static int audit_fd(int groups)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close_all(fd, -1, -1);
		return -1;
	}
	return fd;
}

/*
 * Given: send one audit request (type, data of len bytes) on fd and wait
 * for the kernel's answer: 0, or -1 with errno.
 */
__attribute__((unused))
static int audit_request(int fd, int type, const void *data, size_t len)
{
	static char buf[8192] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	static unsigned int seq;

	memset(buf, 0, NLMSG_SPACE(len));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(nlh), data, len);
	if (sendto(fd, buf, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0)
			return -1;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n); nlh = NLMSG_NEXT(nlh, n)) {
			int err;

			if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_seq != seq)
				continue;
			err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
			errno = -err;
			return err ? -1 : 0;
		}
	}
}

int lab_stream_peersec(char *buf, size_t len)
{
	/* TODO 1: socket, bind(abstract_addr()), listen, connect a second socket, accept; getsockopt(SO_PEERSEC) with optlen 0 gives ERANGE and the size; then read */
	struct sockaddr_un sun;
	socklen_t alen = abstract_addr(&sun), optlen = 0;
	int srv = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), cli = -1, acc = -1, rc = -1;

	if (srv < 0 || bind(srv, (struct sockaddr *)&sun, alen) || listen(srv, 1))
		goto out;
	cli = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (cli < 0 || connect(cli, (struct sockaddr *)&sun, alen))
		goto out;
	acc = accept4(srv, NULL, NULL, SOCK_CLOEXEC);
	if (acc < 0)
		goto out;
	/* The probe: ERANGE, and optlen says how much is needed. */
	if (getsockopt(acc, SOL_SOCKET, SO_PEERSEC, NULL, &optlen) == 0 || errno != ERANGE)
		goto out;
	if (optlen > len) {
		errno = ERANGE;
		goto out;
	}
	if (getsockopt(acc, SOL_SOCKET, SO_PEERSEC, buf, &optlen))
		goto out;
	/* Whether optlen counts a NUL depends on the module: end it here. */
	buf[optlen < len ? optlen : len - 1] = '\0';
	rc = strlen(buf);
out:
	close_all(srv, cli, acc);
	return rc;
	/* END TODO 1 */
}

int lab_dgram_peersec(char *buf, size_t len)
{
	/* TODO 2: socketpair(AF_UNIX, SOCK_DGRAM), SO_PASSSEC on sv[1], send a byte on sv[0], recvmsg on sv[1] with a control buffer; find SCM_SECURITY */
	union {
		char buf[CMSG_SPACE(4096)];
		struct cmsghdr align;
	} ctl;
	char data = 'x';
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	int sv[2], on = 1, rc = -1;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSSEC, &on, sizeof(on)) ||
	    send(sv[0], &data, 1, 0) != 1 || recvmsg(sv[1], &msg, 0) != 1)
		goto out;
	errno = ENODATA;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t n;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_SECURITY)
			continue;
		n = strnlen((char *)CMSG_DATA(c), c->cmsg_len - CMSG_LEN(0));
		if (n + 1 > len) {
			errno = ERANGE;
			goto out;
		}
		memcpy(buf, CMSG_DATA(c), n);
		buf[n] = '\0';
		rc = n;
		break;
	}
out:
	close_all(sv[0], sv[1], -1);
	return rc;
	/* END TODO 2 */
}

int lab_peer_table(struct lab_peer *rows, int max)
{
	/* TODO 3: for each active module that PR_LSM_ATTR_SET accepts, one row from steps 1 and 2; then choose the original again */
	__u32 all[64];
	int n = module_list(all, 64), k = 0, orig = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0);

	if (n < 0 || orig < 0)
		return -1;
	for (int i = 0; i < n && k < max; i++) {
		struct lab_peer *r = &rows[k];

		if (prctl(PR_LSM_ATTR_SET, all[i], 0, 0, 0))
			continue;
		memset(r, 0, sizeof(*r));
		r->id = all[i];
		if (lab_stream_peersec(r->stream, sizeof(r->stream)) < 0)
			r->stream_err = errno;
		if (lab_dgram_peersec(r->dgram, sizeof(r->dgram)) < 0)
			r->dgram_err = errno;
		k++;
	}
	if (prctl(PR_LSM_ATTR_SET, orig, 0, 0, 0))
		return -1;
	return k;
	/* END TODO 3 */
}

int lab_audit_subj(const char *text, char *buf, size_t len)
{
	/* TODO 4: audit_fd(0) and audit_fd(1 << (AUDIT_NLGRP_READLOG - 1)); AUDIT_SET enabled=1; AUDIT_USER with text (and its NUL); poll+recv until a record holds text; copy its subj=, or if that is "?" the first subj_<lsm>= of the MAC_TASK_CONTEXTS record (1425) that follows it */
	struct audit_status st = { .mask = AUDIT_STATUS_ENABLED, .enabled = 1 };
	static char rec[8192];
	int fd = audit_fd(0), log = audit_fd(1 << (AUDIT_NLGRP_READLOG - 1)), rc = -1;
	struct pollfd p = { .fd = log, .events = POLLIN };
	int aux = 0;
	char *s;
	size_t n;

	if (fd < 0 || log < 0 || audit_request(fd, AUDIT_SET, &st, sizeof(st)) ||
	    audit_request(fd, AUDIT_USER, text, strlen(text) + 1))
		goto out;
	errno = ETIMEDOUT;
	while (poll(&p, 1, 5000) == 1) {
		ssize_t got = recv(log, rec, sizeof(rec) - 1, 0);

		if (got <= 0)
			continue;
		rec[got] = '\0';
		/* the record with the text; after a "subj=?", its aux record */
		if (!aux && !memmem(rec, got, text, strlen(text)))
			continue;
		if (aux && ((struct nlmsghdr *)rec)->nlmsg_type != 1425)
			continue;
		s = memmem(rec, got, aux ? "): subj_" : " subj=", aux ? 8 : 6);
		errno = ENOENT;
		if (!s)
			break;
		s = strchr(s, '=') + 1;
		n = strcspn(s, " ");
		if (!aux && n == 1 && *s == '?') {
			aux = 1;
			errno = ETIMEDOUT;
			continue;
		}
		errno = ERANGE;
		if (n + 1 > len)
			break;
		memcpy(buf, s, n);
		buf[n] = '\0';
		rc = n;
		break;
	}
out:
	close_all(fd, log, -1);
	return rc;
	/* END TODO 4 */
}

int lab_audit_subj_as(int id, const char *text, char *buf, size_t len)
{
	/* TODO 5: PR_LSM_ATTR_SET, then step 4 */
	if (prctl(PR_LSM_ATTR_SET, id, 0, 0, 0))
		return -1;
	return lab_audit_subj(text, buf, len);
	/* END TODO 5 */
}
