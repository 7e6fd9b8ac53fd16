// SPDX-License-Identifier: GPL-2.0-only
/*
 * toylsm - Labels of AF_UNIX stream sockets and their peers
 *
 * A socket is labelled by the task that creates it; connect() and
 * socketpair() record each end's peer label. SO_PEERSEC reports the peer
 * label to a task whose interface LSM is toylsm (the infrastructure asks
 * only that module); SCM_SECURITY gets the sender's label in toylsm's
 * lsmblob slot.
 */

#include "common.h"

#include <linux/uaccess.h>
#include <net/sock.h>

#include "cred.h"
#include "label.h"
#include "net.h"
#include "setup.h"

/**
 * hook_sk_alloc_security - Label a new AF_UNIX socket
 * @sk: the new sock
 * @family: its address family
 * @priority: allocation flags (unused)
 *
 * Only AF_UNIX socks are always created by a task, in its context.
 *
 * Return: 0.
 */
static int hook_sk_alloc_security(struct sock *sk, int family,
				  gfp_t priority)
{
	if (family == AF_UNIX)
		toylsm_sock(sk)->label = toylsm_current_label();
	return 0;
}

/**
 * hook_unix_stream_connect - Record the peer labels of a connection
 * @sock: the connecting end
 * @other: the listening socket
 * @newsk: the server's end of the new connection
 *
 * Return: 0.
 */
static int hook_unix_stream_connect(struct sock *sock, struct sock *other,
				    struct sock *newsk)
{
	toylsm_sock(newsk)->label = toylsm_sock(other)->label;
	toylsm_sock(newsk)->peer = toylsm_sock(sock)->label;
	toylsm_sock(sock)->peer = toylsm_sock(other)->label;
	return 0;
}

/**
 * hook_socket_socketpair - Record the peer labels of a socketpair
 * @socka: one end
 * @sockb: the other end
 *
 * Return: 0.
 */
static int hook_socket_socketpair(struct socket *socka, struct socket *sockb)
{
	toylsm_sock(socka->sk)->peer = toylsm_sock(sockb->sk)->label;
	toylsm_sock(sockb->sk)->peer = toylsm_sock(socka->sk)->label;
	return 0;
}

/**
 * hook_socket_getpeersec_stream - SO_PEERSEC: the peer's label
 * @sock: a connected AF_UNIX stream socket
 * @optval: the user's buffer
 * @optlen: where to write the label's length
 * @len: the size of @optval
 *
 * Return: 0, -ENOPROTOOPT if the socket has no toylsm peer, -ERANGE if
 * @len is too small (with the needed length in @optlen), or -EFAULT.
 */
static int hook_socket_getpeersec_stream(struct socket *sock,
					 char __user *optval,
					 int __user *optlen, unsigned int len)
{
	const char *name = toylsm_name(toylsm_sock(sock->sk)->peer);
	unsigned int n;

	if (!name)
		return -ENOPROTOOPT;
	n = strlen(name) + 1;
	if (put_user(n, optlen))
		return -EFAULT;
	if (n > len)
		return -ERANGE;
	if (copy_to_user(optval, name, n))
		return -EFAULT;
	return 0;
}

/**
 * hook_socket_getpeersec_dgram - The sender's label of a datagram
 * @sock: the sending AF_UNIX socket (AF_UNIX passes no @skb)
 * @skb: the packet, NULL for AF_UNIX
 * @secid: where to store the label
 *
 * Return: 0, or -ENOPROTOOPT if toylsm did not label the sender.
 */
static int hook_socket_getpeersec_dgram(struct socket *sock,
					struct sk_buff *skb, u32 *secid)
{
	if (skb || !sock || !sock->sk || sock->sk->sk_family != AF_UNIX)
		return -ENOPROTOOPT;
	*secid = toylsm_sock(sock->sk)->label;
	return *secid ? 0 : -ENOPROTOOPT;
}

static struct security_hook_list toylsm_net_hooks[] __lsm_ro_after_init = {
	LSM_HOOK_INIT(sk_alloc_security, hook_sk_alloc_security),
	LSM_HOOK_INIT(unix_stream_connect, hook_unix_stream_connect),
	LSM_HOOK_INIT(socket_socketpair, hook_socket_socketpair),
	LSM_HOOK_INIT(socket_getpeersec_stream,
		      hook_socket_getpeersec_stream),
	LSM_HOOK_INIT(socket_getpeersec_dgram, hook_socket_getpeersec_dgram),
};

/**
 * toylsm_add_net_hooks - Register the socket hooks
 */
__init void toylsm_add_net_hooks(void)
{
	toylsm_add_hooks(toylsm_net_hooks, ARRAY_SIZE(toylsm_net_hooks), NULL, 0);
}
