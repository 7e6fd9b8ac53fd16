/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The audit netlink socket of the guest tests that read audit records
 * (audit_obj.c, audit_lsm_rules.c, audit_contexts.c):
 *
 *	audit_fd(groups)	a NETLINK_AUDIT socket bound to the multicast
 *				groups @groups (0: none; 1 << (AUDIT_NLGRP_READLOG
 *				- 1): the log's copy of each record), or -1
 *	audit_request(fd, type, data, len)
 *				send one request and wait for its ack: 0 or
 *				-errno (the kernel's answer)
 *	audit_exit_rule(fd, add, ppid, nrs, n)
 *				add (@add 1) or delete an exit rule: the @n
 *				system calls @nrs, x86_64, by a child of @ppid;
 *				always log; audit_request()'s answer
 *	audit_next(log, buf, size, t0)
 *				the next datagram on @log into @buf (@size
 *				bytes, NUL-terminated): its length, at least
 *				1; -1 once 10 s have passed since @t0
 *				(CLOCK_MONOTONIC) or poll(2) failed
 *
 * Records that come to @fd while audit_request() waits for its ack (the
 * audit daemon's socket, AUDIT_SET pid) are read and passed over.
 */
#ifndef KIT_AUDIT_LIB_H
#define KIT_AUDIT_LIB_H

#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

static inline int audit_fd(int groups)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	return fd;
}

/* Send one request and wait for its ack; return 0 or -errno. */
static inline int audit_request(int fd, int type, const void *data, size_t len)
{
	static char buf[16384] __attribute__((aligned(8)));
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	static unsigned int seq;

	memset(buf, 0, NLMSG_SPACE(len));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(nlh), data, len);
	if (sendto(fd, buf, nlh->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0)
			return -errno;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n))
			if (nlh->nlmsg_type == NLMSG_ERROR && nlh->nlmsg_seq == seq)
				return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
	}
}

static inline int audit_exit_rule(int fd, int add, pid_t ppid, const int *nrs, int n)
{
	struct audit_rule_data r = {
		.flags = AUDIT_FILTER_EXIT,
		.action = AUDIT_ALWAYS,
		.field_count = 2,
		.fields = { AUDIT_ARCH, AUDIT_PPID },
		.fieldflags = { AUDIT_EQUAL, AUDIT_EQUAL },
		.values = { AUDIT_ARCH_X86_64, (__u32)ppid },
	};
	int i;

	for (i = 0; i < n; i++)
		r.mask[nrs[i] / 32] |= 1u << (nrs[i] % 32);
	return audit_request(fd, add ? AUDIT_ADD_RULE : AUDIT_DEL_RULE, &r, sizeof(r));
}

static inline ssize_t audit_next(int log, char *buf, size_t size, const struct timespec *t0)
{
	for (;;) {
		struct pollfd p = { .fd = log, .events = POLLIN };
		struct timespec t;
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0->tv_sec > 10 || poll(&p, 1, 1000) < 0)
			return -1;
		if (!(p.revents & POLLIN))
			continue;
		n = recv(log, buf, size - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		return n;
	}
}

#endif
