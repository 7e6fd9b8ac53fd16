/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * toylsm - Labels of AF_UNIX sockets
 */

#ifndef _SECURITY_TOYLSM_NET_H
#define _SECURITY_TOYLSM_NET_H

#include <net/sock.h>

#include "setup.h"

/**
 * struct toylsm_sock - toylsm's part of a sock's security blob
 * @label: the label of the socket's creator
 * @peer: the label of the other end, TOYLSM_NOLABEL until connected
 */
struct toylsm_sock {
	u32 label;
	u32 peer;
};

/**
 * toylsm_sock - toylsm's part of a sock
 * @sk: the sock
 *
 * Return: its part of @sk's blob.
 */
static inline struct toylsm_sock *toylsm_sock(const struct sock *sk)
{
	return sk->sk_security + toylsm_blob_sizes.lbs_sock;
}

#endif /* _SECURITY_TOYLSM_NET_H */
