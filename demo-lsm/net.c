// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Labels of AF_UNIX stream sockets and their peers
 *
 * A socket is labelled by the task that creates it; connect() and
 * socketpair() record each end's peer label. Reporting the peer label
 * through SO_PEERSEC waits for part 2 of the kit: in 6.1 the modules
 * that provide socket_getpeersec_stream all write to the same buffer.
 */

#include <net/sock.h>

#include "cred.h"
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
static struct toylsm_sock *toylsm_sock(const struct sock *sk)
{
	return sk->sk_security + toylsm_blob_sizes.lbs_sock;
}

/**
 * toylsm_sk_alloc_security - Label a new AF_UNIX socket
 * @sk: the new sock
 * @family: its address family
 * @priority: allocation flags (unused)
 *
 * Only AF_UNIX socks are always created by a task, in its context.
 *
 * Return: 0.
 */
static int toylsm_sk_alloc_security(struct sock *sk, int family,
				    gfp_t priority)
{
	if (family == AF_UNIX)
		toylsm_sock(sk)->label = toylsm_current_label();
	return 0;
}

/**
 * toylsm_unix_stream_connect - Record the peer labels of a connection
 * @sock: the connecting end
 * @other: the listening socket
 * @newsk: the server's end of the new connection
 *
 * Return: 0.
 */
static int toylsm_unix_stream_connect(struct sock *sock, struct sock *other,
				      struct sock *newsk)
{
	toylsm_sock(newsk)->label = toylsm_sock(other)->label;
	toylsm_sock(newsk)->peer = toylsm_sock(sock)->label;
	toylsm_sock(sock)->peer = toylsm_sock(other)->label;
	return 0;
}

/**
 * toylsm_socket_socketpair - Record the peer labels of a socketpair
 * @socka: one end
 * @sockb: the other end
 *
 * Return: 0.
 */
static int toylsm_socket_socketpair(struct socket *socka,
				    struct socket *sockb)
{
	toylsm_sock(socka->sk)->peer = toylsm_sock(sockb->sk)->label;
	toylsm_sock(sockb->sk)->peer = toylsm_sock(socka->sk)->label;
	return 0;
}

static struct security_hook_list toylsm_net_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(sk_alloc_security, toylsm_sk_alloc_security),
	LSM_HOOK_INIT(unix_stream_connect, toylsm_unix_stream_connect),
	LSM_HOOK_INIT(socket_socketpair, toylsm_socket_socketpair),
};

/**
 * toylsm_add_net_hooks - Register the socket hooks
 */
__init void toylsm_add_net_hooks(void)
{
	security_add_hooks(toylsm_net_hooks, ARRAY_SIZE(toylsm_net_hooks),
			   &toylsm_lsmid);
}
