/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 7: secids and lsmblob.  The functions you write in peersec.c; the
 * grader (grade.c) calls each of them.
 *
 * A socket's peer is remembered as a struct lsmblob: one secid per module
 * that keeps secids (one slot each, patch 0011).  SO_PEERSEC and
 * SCM_SECURITY turn ONE of those secids into a context, that of your
 * interface LSM (patch 0014), with a struct lsmcontext that remembers
 * which module made it, so that module releases it (patch 0012).
 *
 * On failure return -1 and leave errno set to say why.
 */
#ifndef LAB07_H
#define LAB07_H

#include <stddef.h>
#include <sys/prctl.h>		/* prctl(); PR_LSM_ATTR_* from <linux/prctl.h> */
#include <linux/types.h>
#include <linux/lsm.h>		/* LSM_ID_* */
#include <asm/unistd.h>		/* __NR_lsm_module_list */

#include "todo.h"

/* The kernel's include/linux/socket.h; glibc does not define it. */
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03
#endif

/*
 * Step 1.  Make a listening AF_UNIX stream socket on an abstract address
 * (sun_path[0] == '\0'), connect to it, accept, and read SO_PEERSEC on the
 * accepted end: the context of the client (you) as your interface LSM
 * gives it.  First ask for the size: getsockopt() with optlen 0 fails with
 * ERANGE and sets optlen to the size needed (the NUL counted).  If that is
 * more than len, return -1 with errno ERANGE and do not touch buf.
 * Otherwise read it into buf, NUL-terminated, and return strlen(buf).
 * -1 with errno as getsockopt() left it otherwise (ENOPROTOOPT: your
 * interface LSM does not label these sockets).  Close every socket.
 */
int lab_stream_peersec(char *buf, size_t len);

/*
 * Step 2.  Make a pair of AF_UNIX datagram sockets, turn SO_PASSSEC on at
 * the receiving end, send one datagram and receive it with recvmsg() and
 * room for control messages.  Walk them (CMSG_FIRSTHDR/CMSG_NXTHDR): the
 * one with cmsg_level SOL_SOCKET and cmsg_type SCM_SECURITY holds the
 * sender's context (its length: cmsg_len - CMSG_LEN(0), a NUL may or may
 * not be counted).  Copy it into buf, NUL-terminated, return strlen(buf).
 * -1 with errno ENODATA if no SCM_SECURITY message came, ERANGE if it does
 * not fit in len bytes with its NUL.  Close both sockets.
 */
int lab_dgram_peersec(char *buf, size_t len);

/* One row of step 3's table. */
struct lab_peer {
	__u32 id;		/* the interface LSM chosen for this row */
	int stream_err;		/* 0, or the errno of lab_stream_peersec() */
	char stream[256];	/* its context ("" on error) */
	int dgram_err;		/* 0, or the errno of lab_dgram_peersec() */
	char dgram[256];	/* its context ("" on error) */
};

/*
 * Step 3.  For every active module that can be your interface LSM (those
 * PR_LSM_ATTR_SET accepts; lab 4 step 2), in registration order, choose it
 * and fill one row with steps 1 and 2.  Afterwards your interface LSM is
 * the one you started with.  Return the number of rows (at most max).
 */
int lab_peer_table(struct lab_peer *rows, int max);

/*
 * Step 4.  Send the kernel an AUDIT_USER message (the text: text, which is
 * unique) on a NETLINK_AUDIT socket, and read the record it makes back
 * from the audit multicast group (AUDIT_NLGRP_READLOG).  Copy the value
 * of its "subj=" field (up to the next space) into buf, NUL-terminated;
 * return its length.  When that value is "?" (several modules supply
 * subject contexts, patch 0019), copy instead the value of the first
 * "subj_<lsm>=" field of the AUDIT_MAC_TASK_CONTEXTS record (type 1425)
 * that follows: the default module's, the first in lsm= order.  -1 with errno: ETIMEDOUT if the record did not come
 * within 5 s, ENOENT if it has no subj=, ERANGE if it does not fit.
 * Close both sockets.
 */
int lab_audit_subj(const char *text, char *buf, size_t len);

/*
 * Step 5.  Choose id as your interface LSM, then step 4.  Return what step
 * 4 returns; your interface LSM stays id.
 */
int lab_audit_subj_as(int id, const char *text, char *buf, size_t len);

#endif /* LAB07_H */
