// SPDX-License-Identifier: GPL-2.0
/*
 * What does not work stacked (issue 20; docs/stacking-then-and-now.md,
 * "What does not work stacked"), shown on the boot's own modules. Every
 * expected value is computed from /sys/kernel/security/lsm and from what
 * the peer process reports of itself, so the program runs on any stack.
 *
 *  - SO_PEERSEC answers for the reader's interface LSM only (patch 0014,
 *    security_socket_getpeersec_stream()). A child labels itself in each
 *    module it can (Smack KitPeer, toylsm kitpeer, SELinux probe_t when
 *    the kit's policy is loaded), connects to a unix stream socket and
 *    sends its lsm_self_attr() answer. For each module that can be an
 *    interface LSM the parent chooses it and reads SO_PEERSEC: Smack,
 *    SELinux and toylsm give the child's label in that module; AppArmor
 *    gives ENOPROTOOPT although the child has an AppArmor label, which
 *    lsm_self_attr() and /proc/PID/attr/apparmor/current show (6.1's
 *    AppArmor never records a socket's peer: sk_peer_label()).
 *  - A TCP connection on 127.0.0.1: the peer label travels in the packet
 *    through NetLabel (CIPSO), whose secids belong to one module for the
 *    boot (lsm_net_owner()). Smack owns them on its stacks and labels its
 *    packets: SO_PEERSEC with Smack as the interface LSM gives the
 *    child's Smack label, every other module ENOPROTOOPT. SELinux owns
 *    them on its stacks but the kit configures no NetLabel mapping for
 *    it: ENOPROTOOPT for every module.
 *  - NetLabel's static labels, set and listed through generic netlink
 *    (NLBL_UNLBL) as netlabelctl would: the text is read and written by
 *    the owner only. Smack: a label it knows comes back, an unknown one
 *    is secid 0 and is not listed; SELinux without a policy: every text
 *    is "kernel"; with the kit's policy: an SELinux context only, EINVAL
 *    for Smack's or AppArmor's label.
 *  - skb->secmark: one owner per boot (patch 0015, lsm_secmark_assign()),
 *    named in the boot log with each module that lost it. The kit's
 *    kernel has no netfilter (/proc/net/netfilter is absent): nothing can
 *    put a mark on a packet, so no secmark rule of any module, owner or
 *    not, can be exercised here; the test says so.
 *  - AppArmor's AF_UNIX mediation in 6.1 is by family and type only: a
 *    profile without a network rule refuses socket(AF_UNIX), but a
 *    "unix ... peer=(label=nobody)" rule, which a kernel with unix
 *    mediation would enforce, is compiled for 6.1 as "network unix
 *    stream," (the profiles of the policy set "limits" are byte for byte
 *    the same but for their names) and connecting to an unconfined peer
 *    is allowed.
 *
 * STACK_LIMITS_WRONG=1 in the environment turns each expectation into a
 * wrong one (another module's label, a success for an error), to show
 * that every check can fail.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/lsm_abi.h"
#include "kit/kernel_log.h"
#include "kselftest_harness.h"

#ifndef PR_LSM_ATTR_SET
#define PR_LSM_ATTR_SET 65
#define PR_LSM_ATTR_GET 66
#endif

/*
 * The modules that keep secids and so may be an interface LSM, and
 * whether 6.1 (with the kit's patches) gives a unix stream peer's label
 * through their socket_getpeersec_stream hook.
 */
static const struct {
	int id;
	int labels_unix;
} iface[] = {
	{ LSM_ID_SELINUX, 1 },	/* sksec->peer_sid, set in unix_stream_connect */
	{ LSM_ID_SMACK, 1 },	/* ssp->smk_packet, set in unix_stream_connect */
	{ LSM_ID_TOYLSM, 1 },	/* demo-lsm/net.c, hook_unix_stream_connect */
	{ LSM_ID_APPARMOR, 0 },	/* sk_peer_label(): ctx->peer is never set */
};

#define NIFACE ((int)(sizeof(iface) / sizeof(iface[0])))

static int wrong(void)
{
	const char *w = getenv("STACK_LIMITS_WRONG");

	return w && *w == '1';
}

static char lsm_list[512];

static int active(const char *name)
{
	char pat[40], list[520];

	if (!lsm_list[0] && read_text("/sys/kernel/security/lsm", lsm_list, sizeof(lsm_list)) < 0)
		return 0;
	snprintf(list, sizeof(list), ",%s,", lsm_list);
	snprintf(pat, sizeof(pat), ",%s,", name);
	return !!strstr(list, pat);
}

/*
 * The module that owns skb->secmark and NetLabel's secids, by patch
 * 0015's rule: the exclusive one of SELinux and Smack, else AppArmor.
 */
static const char *net_owner(void)
{
	if (active("smack"))
		return "smack";
	if (active("selinux"))
		return "selinux";
	if (active("apparmor"))
		return "apparmor";
	return NULL;
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	return 0;
}

/* The task's current label in module @id, from an lsm_self_attr() buffer. */
static const char *label_in(const char *buf, size_t size, int id)
{
	size_t off = 0;

	while (off + sizeof(struct lsm_ctx) <= size) {
		const struct lsm_ctx *c = (const void *)(buf + off);

		if (off + sizeof(*c) + c->ctx_len > size)
			break;
		if ((int)c->id == id && c->flags == LSM_ATTR_CURRENT)
			return (const char *)c->ctx;
		off += sizeof(*c) + c->ctx_len;
	}
	return NULL;
}

/* SO_PEERSEC of @fd for the caller's interface LSM: 0 and the text, or an errno. */
static int peersec(int fd, char *buf, size_t len)
{
	socklen_t n = len - 1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &n))
		return errno;
	buf[n < len ? n : len - 1] = '\0';
	return 0;
}

/*
 * Seconds the peer may take to connect (2 where the packets are known to
 * be dropped: the first SYN is, and its AVC logged, at once).
 */
static unsigned int peer_timeout = 5;

/*
 * The peer: label itself where it can, connect to @addr, send its
 * lsm_self_attr() answer (a size_t, then the buffer), wait for EOF.
 * @profile: an AppArmor profile to change to first, or NULL. Exit status:
 * 0, the errno of socket() or connect(), 120 if the profile could not be
 * entered, 121 if the report could not be sent; killed by SIGALRM if
 * it is not connected within peer_timeout s (a connect() whose packets
 * are dropped).
 */
static void peer(const struct sockaddr *addr, socklen_t alen, const char *profile)
{
	static char buf[4096];
	size_t size = sizeof(buf);
	char c;
	int fd;

	/*
	 * Ends itself if it cannot connect: relabelled, it may be out of the
	 * parent's reach (toylsm refuses init's kill() of kitpeer under a
	 * loaded policy).
	 */
	alarm(peer_timeout);
	put("/proc/self/attr/smack/current", "KitPeer");
	put("/proc/self/attr/toylsm/current", "kitpeer");
	if (active("selinux") && !prctl(PR_LSM_ATTR_SET, LSM_ID_SELINUX, 0, 0, 0))
		put("/proc/self/attr/current", "system_u:system_r:probe_t");
	if (profile) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "changeprofile %s", profile);
		if (put("/proc/self/attr/apparmor/current", cmd))
			_exit(120);
	}
	fd = socket(addr->sa_family, SOCK_STREAM, 0);
	if (fd < 0)
		_exit(errno);
	if (connect(fd, addr, alen))
		_exit(errno);
	alarm(0);	/* connected: it ends when the parent closes */
	if (lsm_self_attr((struct lsm_ctx *)buf, &size, 0) < 0)
		size = 0;
	if (write(fd, &size, sizeof(size)) != sizeof(size) ||
	    (size && write(fd, buf, size) != (ssize_t)size))
		_exit(121);
	while (read(fd, &c, 1) > 0)
		;
	_exit(0);
}

struct conn {
	pid_t pid;
	int fd;			/* the accepted socket, or -1 */
	int status;		/* the peer's exit status, when it ended early */
	char self[4096];	/* the peer's lsm_self_attr() */
	size_t size;
};

/* Listen on @addr, start the peer, accept it and read its report. */
static int connect_peer(struct conn *c, struct sockaddr *addr, socklen_t alen,
			const char *profile)
{
	struct pollfd p[2];
	int lfd = socket(addr->sa_family, SOCK_STREAM, 0), one = 1, alive[2];

	c->fd = -1;
	c->status = -1;
	c->size = 0;
	if (lfd < 0)
		return -errno;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, addr, alen) || listen(lfd, 1) || getsockname(lfd, addr, &alen)) {
		close(lfd);
		return -errno;
	}
	/* The peer holds alive[1]: its end, if it ends early, wakes the poll. */
	if (pipe(alive)) {
		close(lfd);
		return -errno;
	}
	c->pid = fork();
	if (c->pid < 0) {
		close(lfd);
		return -errno;
	}
	if (c->pid == 0) {
		close(lfd);
		close(alive[0]);
		peer(addr, alen, profile);
	}
	close(alive[1]);
	p[0].fd = lfd;
	p[0].events = POLLIN;
	p[1].fd = alive[0];
	p[1].events = POLLIN;
	if (poll(p, 2, 7000) > 0 && (p[0].revents & POLLIN))
		c->fd = accept(lfd, NULL, NULL);
	close(alive[0]);
	close(lfd);
	if (c->fd < 0) {
		int st;

		kill(c->pid, SIGKILL);
		waitpid(c->pid, &st, 0);
		c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
		return 0;
	}
	if (read(c->fd, &c->size, sizeof(c->size)) != sizeof(c->size) ||
	    c->size > sizeof(c->self))
		c->size = 0;
	else if (c->size) {
		size_t got = 0;
		ssize_t n;

		while (got < c->size && (n = read(c->fd, c->self + got, c->size - got)) > 0)
			got += n;
		if (got < c->size)
			c->size = 0;
	}
	return 0;
}

static void end_peer(struct conn *c)
{
	int st;

	if (c->fd >= 0) {
		close(c->fd);
		waitpid(c->pid, &st, 0);
		c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	}
	c->fd = -1;
}

static void abstract(struct sockaddr_un *a, socklen_t *len, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	strcpy(a->sun_path + 1, name);
	*len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
}

/*
 * Choose each interface LSM in turn and read SO_PEERSEC of @c; check it
 * against @expect(id, peer's label in id, &errno). Returns how many
 * modules could be chosen.
 */
static int loop_interfaces(struct __test_metadata *_metadata, struct conn *c,
			   int inet)
{
	int orig = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0), chosen = 0;
	const char *owner = net_owner();

	for (int i = 0; i < NIFACE; i++) {
		const char *name = kit_lsm_name(iface[i].id);
		const char *label = label_in(c->self, c->size, iface[i].id);
		char got[256], want[256] = "";
		int err, want_err;

		if (prctl(PR_LSM_ATTR_SET, iface[i].id, 0, 0, 0))
			continue;	/* not active, or keeps no secids */
		chosen++;
		err = peersec(c->fd, got, sizeof(got));
		if (!inet)
			want_err = iface[i].labels_unix ? 0 : ENOPROTOOPT;
		else	/* NetLabel: only Smack labels its packets in the kit */
			want_err = iface[i].id == LSM_ID_SMACK && owner &&
				   !strcmp(owner, "smack") ? 0 : ENOPROTOOPT;
		if (!want_err)
			snprintf(want, sizeof(want), "%s", label ? label : "(no label)");
		if (wrong()) {	/* the other answer: a label for an error, and back */
			if (want_err) {
				want_err = 0;
				snprintf(want, sizeof(want), "%s", label ? label : "?");
			} else {
				want_err = ENOPROTOOPT;
			}
		}
		if (err)
			ksft_print_msg("%s, interface %s: SO_PEERSEC %s\n",
				       inet ? "TCP" : "unix", name, strerrorname_np(err));
		else
			ksft_print_msg("%s, interface %s: SO_PEERSEC \"%s\"\n",
				       inet ? "TCP" : "unix", name, got);
		ksft_print_msg("    the peer's %s label: \"%s\"\n", name, label ? label : "(none)");
		EXPECT_EQ(want_err, err) TH_LOG("interface %s: expected %s, got %s", name,
						want_err ? strerrorname_np(want_err) : want,
						 err ? strerrorname_np(err) : got);
		if (!want_err && !err)
			EXPECT_STREQ(want, got) TH_LOG("interface %s", name);
	}
	prctl(PR_LSM_ATTR_SET, orig, 0, 0, 0);
	return chosen;
}

/*
 * SO_PEERSEC on a unix stream socket: the interface LSM's view only;
 * lsm_self_attr() of the peer: every module's label.
 */
TEST(so_peersec_is_the_interface_lsms_only)
{
	struct sockaddr_un a;
	socklen_t len;
	struct conn c;
	char path[64], proc[256];

	abstract(&a, &len, "kit-stack-limits");
	ASSERT_EQ(0, connect_peer(&c, (struct sockaddr *)&a, len, NULL));
	ASSERT_LE(0, c.fd) TH_LOG("the peer did not connect: status %d", c.status);
	ASSERT_LT(0, c.size) TH_LOG("the peer sent no lsm_self_attr() answer");
	if (loop_interfaces(_metadata, &c, 0) == 0)
		SKIP(end_peer(&c); return, "no module of this boot keeps secids");
	/* Every module's own label, whatever the interface: AppArmor's too. */
	if (active("apparmor")) {
		const char *aa = label_in(c.self, c.size, LSM_ID_APPARMOR);

		snprintf(path, sizeof(path), "/proc/%d/attr/apparmor/current", c.pid);
		ASSERT_NE(NULL, aa) TH_LOG("lsm_self_attr() of the peer has no AppArmor label");
		ASSERT_LT(0, read_text(path, proc, sizeof(proc)));
		ksft_print_msg("the peer's AppArmor label: lsm_self_attr \"%s\"\n", aa);
		ksft_print_msg("    %s: \"%s\"\n", path, proc);
		EXPECT_STREQ(wrong() ? "KitPeer" : aa, proc);
	}
	end_peer(&c);
	EXPECT_EQ(0, c.status);
}

static int lo_up(void)
{
	struct ifreq r;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), rc;

	if (fd < 0)
		return -1;
	memset(&r, 0, sizeof(r));
	strcpy(r.ifr_name, "lo");
	rc = ioctl(fd, SIOCGIFFLAGS, &r);
	if (!rc && !(r.ifr_flags & IFF_UP)) {
		r.ifr_flags |= IFF_UP;
		rc = ioctl(fd, SIOCSIFFLAGS, &r);
	}
	close(fd);
	return rc;
}

/* Does SELinux enforce a policy that checks every packet's peer label? */
static int selinux_checks_unlabeled_packets(void)
{
	char v[16];

	return active("selinux") &&
	       read_text("/sys/fs/selinux/enforce", v, sizeof(v)) > 0 && v[0] == '1' &&
	       read_text("/sys/fs/selinux/policy_capabilities/always_check_network",
			 v, sizeof(v)) > 0 && v[0] == '1';
}

/*
 * A TCP peer over loopback: its label reaches the reader only through
 * NetLabel, whose secids are the owner's.
 */
/* SELinux's AVC for a packet no label names, at a network interface. */
static const char avc_unlabeled_netif[] =
	"scontext=system_u:object_r:unlabeled_t tcontext=system_u:object_r:file_t tclass=netif";

TEST(tcp_peer_label_is_netlabels_owners_only)
{
	struct sockaddr_in a;
	struct conn c;

	ASSERT_EQ(0, lo_up()) TH_LOG("lo: %s", strerror(errno));
	if (active("smack")) {
		/* The packets of KitPeer must be allowed to reach _, and back. */
		if (access("/sys/fs/smackfs/load2", F_OK))
			ASSERT_EQ(0, mount("smackfs", "/sys/fs/smackfs", "smackfs", 0, NULL));
		ASSERT_EQ(0, put("/sys/fs/smackfs/load2", "KitPeer _ w"));
		ASSERT_EQ(0, put("/sys/fs/smackfs/load2", "_ KitPeer w"));
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ksft_print_msg("NetLabel's secids belong to %s\n", net_owner() ? net_owner() : "no module");
	if (selinux_checks_unlabeled_packets())
		peer_timeout = 2;
	ASSERT_EQ(0, connect_peer(&c, (struct sockaddr *)&a, sizeof(a), NULL));
	peer_timeout = 5;
	if (selinux_checks_unlabeled_packets()) {
		/*
		 * SELinux enforcing a policy with always_check_network: a
		 * packet no NetLabel (or IPsec) label names is unlabeled_t,
		 * and the kit's policy lets unlabeled_t into no netif.
		 */
		ksft_print_msg("SELinux enforcing, always_check_network: connect() %s\n",
			       c.fd < 0 ? "never completes" : "completed");
		EXPECT_EQ(wrong() ? 0 : -1, c.fd < 0 ? -1 : 0);
		EXPECT_LT(wrong() ? 1000 : 0, kernel_log_count(avc_unlabeled_netif))
			TH_LOG("no AVC for unlabeled_t at a netif in the kernel log");
		if (kernel_log() && strstr(kernel_log(), "avc:  denied  { ingress }")) {
			const char *l = strstr(kernel_log(), "avc:  denied  { ingress }");

			const char *sc = strstr(l, "scontext="), *tc = strstr(l, "tcontext=");

			ksft_print_msg("avc:  denied  { ingress } ... netif=lo\n");
			if (sc && tc) {
				ksft_print_msg("    %.*s\n", (int)strcspn(sc, " \n"), sc);
				ksft_print_msg("    %.*s\n", (int)strcspn(tc, " \n"), tc);
			}
		}
		if (c.fd >= 0)
			end_peer(&c);
		return;
	}
	ASSERT_LE(0, c.fd) TH_LOG("the peer did not connect: status %d", c.status);
	if (loop_interfaces(_metadata, &c, 1) == 0)
		SKIP(end_peer(&c); return, "no module of this boot keeps secids");
	end_peer(&c);
	EXPECT_EQ(0, c.status);
}

/*
 * skb->secmark: one owner, and nothing in this kernel to mark a packet.
 */
TEST(secmark_has_one_owner_and_no_netfilter_to_mark)
{
	const char *owner = net_owner();
	char line[160];
	struct stat st;
	int netfilter = stat("/proc/net/netfilter", &st) == 0;

	ASSERT_NE(NULL, kernel_log());
	if (!strstr(kernel_log(), "LSM: Security Framework initializing"))
		SKIP(return, "the log no longer holds the LSM lines of the boot");
	snprintf(line, sizeof(line), "LSM: skb->secmark and NetLabel secids belong to %s\n",
		 owner ? owner : "(none)");
	ksft_print_msg("%s", line + 5);
	EXPECT_EQ(owner && !wrong() ? 1 : 0, kernel_log_count(line)) TH_LOG("%s", line);
	for (int i = 0; i < NIFACE; i++) {
		const char *name = kit_lsm_name(iface[i].id);

		/* SELinux, Smack and AppArmor ask for the secmark; toylsm not. */
		if (iface[i].id == LSM_ID_TOYLSM || !owner || !active(name) ||
		    !strcmp(name, owner))
			continue;
		snprintf(line, sizeof(line),
			 "LSM: %s: its secmark rules do not apply: the secmark is %s's\n",
			 name, owner);
		ksft_print_msg("%s", line + 5);
		EXPECT_EQ(wrong() ? 0 : 1, kernel_log_count(line)) TH_LOG("%s", line);
	}
	ksft_print_msg("netfilter: %s\n", netfilter ? "yes" :
		       "no (/proc/net/netfilter absent): nothing marks a packet");
	EXPECT_EQ(wrong() ? 1 : 0, netfilter);
}

/* Is @a the same AppArmor binary as @b, but for the profile's name? */
static int same_but_name(const char *a, const char *na, const char *b, const char *nb)
{
	static char x[1 << 16], y[1 << 16];
	size_t nx, ny, l = strlen(na);
	FILE *f;

	if (strlen(nb) != l)
		return -1;
	f = fopen(a, "r");
	if (!f)
		return -1;
	nx = fread(x, 1, sizeof(x), f);
	fclose(f);
	f = fopen(b, "r");
	if (!f)
		return -1;
	ny = fread(y, 1, sizeof(y), f);
	fclose(f);
	if (nx != ny)
		return 0;
	for (size_t i = 0; i + l <= nx; i++)
		if (!memcmp(x + i, na, l))
			memcpy(x + i, nb, l);
	return !memcmp(x, y, nx);
}

/*
 * AppArmor on AF_UNIX in 6.1: the family and type, not the peer.
 */
TEST(apparmor_6_1_mediates_unix_sockets_by_family_only)
{
	const char *d = "/etc/policy/limits/apparmor";
	char p1[96], p2[96], p3[96];
	struct sockaddr_un a;
	socklen_t len;
	struct conn c;
	struct stat st;

	if (!active("apparmor"))
		SKIP(return, "AppArmor is not in this boot");
	/* The features: network_v8 (af_mask: the families), no af_unix. */
	EXPECT_EQ(0, stat("/sys/kernel/security/apparmor/features/network_v8/af_mask", &st));
	EXPECT_EQ(wrong() ? 0 : -1,
		  stat("/sys/kernel/security/apparmor/features/network_v8/af_unix", &st));
	EXPECT_EQ(wrong() ? 0 : -1,
		  stat("/sys/kernel/security/apparmor/features/network/af_unix", &st));
	/* The compiler's answer for these features: unix_peer is unix_netw. */
	snprintf(p1, sizeof(p1), "%s/unix_peer", d);
	snprintf(p2, sizeof(p2), "%s/unix_netw", d);
	snprintf(p3, sizeof(p3), "%s/unix_none", d);
	EXPECT_EQ(wrong() ? 0 : 1, same_but_name(p1, "unix_peer", p2, "unix_netw"))
		TH_LOG("%s is not %s but for the name", p1, p2);
	EXPECT_EQ(wrong() ? 1 : 0, same_but_name(p3, "unix_none", p2, "unix_netw"))
		TH_LOG("%s is %s but for the name", p3, p2);
	ASSERT_EQ(0, system("policy load limits apparmor >/dev/null"));

	/* No network rule: the socket itself is refused. */
	abstract(&a, &len, "kit-stack-limits-aa");
	ASSERT_EQ(0, connect_peer(&c, (struct sockaddr *)&a, len, "unix_none"));
	end_peer(&c);
	ksft_print_msg("profile unix_none: socket(AF_UNIX, SOCK_STREAM): %s\n",
		       c.status ? strerrorname_np(c.status) : "allowed");
	EXPECT_EQ(wrong() ? 0 : EACCES, c.status);

	/*
	 * unix (connect) peer=(label=nobody): connects to an unconfined peer,
	 * which SO_PEERSEC through AppArmor still cannot name.
	 */
	abstract(&a, &len, "kit-stack-limits-aa");
	ASSERT_EQ(0, connect_peer(&c, (struct sockaddr *)&a, len, "unix_peer"));
	ksft_print_msg("profile unix_peer, peer=(label=nobody), to an unconfined peer:\n");
	ksft_print_msg("    connect(): %s\n", c.fd >= 0 ? "allowed" : strerrorname_np(c.status));
	EXPECT_EQ(wrong() ? -1 : 0, c.fd < 0 ? -1 : 0) TH_LOG("status %d", c.status);
	if (c.fd >= 0) {
		const char *aa = label_in(c.self, c.size, LSM_ID_APPARMOR);
		char got[256];
		int orig = prctl(PR_LSM_ATTR_GET, 0, 0, 0, 0), err = -1;

		ksft_print_msg("the peer's AppArmor label: %s\n", aa ? aa : "(none)");
		EXPECT_NE(NULL, aa);
		if (aa)
			EXPECT_EQ(0, strncmp(aa, "unix_peer", 9));
		if (!prctl(PR_LSM_ATTR_SET, LSM_ID_APPARMOR, 0, 0, 0))
			err = peersec(c.fd, got, sizeof(got));
		prctl(PR_LSM_ATTR_SET, orig, 0, 0, 0);
		ksft_print_msg("SO_PEERSEC, interface apparmor, confined peer: %s\n",
			       err ? strerrorname_np(err) : got);
		EXPECT_EQ(wrong() ? 0 : ENOPROTOOPT, err);
		end_peer(&c);
		EXPECT_EQ(0, c.status);
	}
}

/*
 * NetLabel's static labels (netlabel_unlabeled.c), through generic
 * netlink as netlabelctl would: "packets from ADDR/MASK carry the label
 * TEXT". The text becomes a secid of lsm_net_owner() (patch 12's
 * security_net_secctx_to_secid()) and is listed back through the same
 * owner. The numbers are those of net/netlabel/netlabel_unlabeled.h.
 */
enum { NLBL_ADDDEF = 6, NLBL_REMOVEDEF = 7, NLBL_LISTDEF = 8 };
enum { NLBL_A_IPV4ADDR = 4, NLBL_A_IPV4MASK = 5, NLBL_A_SECCTX = 7 };
#define NLBL_VERSION 3	/* NETLBL_PROTO_VERSION */

struct nlmsg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[512];
};

static void nl_attr(struct nlmsg *m, int type, const void *data, int len)
{
	struct nlattr *a = (void *)((char *)m + NLMSG_ALIGN(m->n.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	m->n.nlmsg_len = NLMSG_ALIGN(m->n.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void nl_start(struct nlmsg *m, int family, int cmd, int flags)
{
	memset(m, 0, sizeof(*m));
	m->n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->n.nlmsg_type = family;
	m->n.nlmsg_flags = NLM_F_REQUEST | flags;
	m->g.cmd = cmd;
	m->g.version = cmd == CTRL_CMD_GETFAMILY ? 1 : NLBL_VERSION;
}

/* The first attribute @type of the first message in @buf, or NULL. */
static struct nlattr *nl_find(char *buf, int len, int type, int *alen)
{
	struct nlmsghdr *n = (void *)buf;

	for (; NLMSG_OK(n, (unsigned int)len); n = NLMSG_NEXT(n, len)) {
		char *p = (char *)NLMSG_DATA(n) + GENL_HDRLEN;
		int left = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

		if (n->nlmsg_type == NLMSG_ERROR || n->nlmsg_type == NLMSG_DONE)
			return NULL;
		while (left >= NLA_HDRLEN) {
			struct nlattr *a = (void *)p;

			if (a->nla_len < NLA_HDRLEN || a->nla_len > left)
				break;
			if ((a->nla_type & NLA_TYPE_MASK) == type) {
				*alen = a->nla_len - NLA_HDRLEN;
				return a;
			}
			p += NLA_ALIGN(a->nla_len);
			left -= NLA_ALIGN(a->nla_len);
		}
	}
	return NULL;
}

/* Does @buf hold the end of a dump (or an error)? */
static int nl_done(char *buf, int len)
{
	struct nlmsghdr *n = (void *)buf;

	for (; NLMSG_OK(n, (unsigned int)len); n = NLMSG_NEXT(n, len))
		if (n->nlmsg_type == NLMSG_DONE || n->nlmsg_type == NLMSG_ERROR)
			return 1;
	return 0;
}

/*
 * Send @m; the kernel's answer in @buf. Returns its length, or -errno
 * (the error of an NLMSG_ERROR, 0 for an ack: returned as 0).
 */
static int nl_talk(int fd, struct nlmsg *m, char *buf, int size)
{
	int n;

	if (send(fd, m, m->n.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(fd, buf, size, 0);
	if (n < 0)
		return -errno;
	if (n >= (int)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
	    ((struct nlmsghdr *)buf)->nlmsg_type == NLMSG_ERROR)
		return ((struct nlmsgerr *)NLMSG_DATA(buf))->error;
	return n;
}

static int nlbl_family(int fd)
{
	struct nlmsg m;
	static char buf[8192];
	struct nlattr *a;
	int n, len;

	nl_start(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	nl_attr(&m, CTRL_ATTR_FAMILY_NAME, "NLBL_UNLBL", sizeof("NLBL_UNLBL"));
	n = nl_talk(fd, &m, buf, sizeof(buf));
	if (n <= 0)
		return n ? n : -ENOENT;
	a = nl_find(buf, n, CTRL_ATTR_FAMILY_ID, &len);
	return a ? *(uint16_t *)((char *)a + NLA_HDRLEN) : -ENOENT;
}

/*
 * Add the static label @text for 192.0.2.1/32 (TEST-NET-1, which the
 * guest never talks to), read back its text into @back (or the listing's
 * -errno into @list_rc), remove it. The text goes with its NUL, as
 * nla_put_string() sends it (Smack reads it as a C string). Returns 0 or
 * the kernel's -errno for the addition.
 */
static int nlbl_static(int fd, int family, const char *text, char *back, size_t blen,
		       int *list_rc)
{
	struct in_addr addr = { htonl(0xc0000201) }, mask = { 0xffffffff };
	static char buf[8192];
	struct nlmsg m;
	struct nlattr *a;
	int rc, n, len;

	back[0] = '\0';
	nl_start(&m, family, NLBL_ADDDEF, NLM_F_ACK);
	nl_attr(&m, NLBL_A_IPV4ADDR, &addr, sizeof(addr));
	nl_attr(&m, NLBL_A_IPV4MASK, &mask, sizeof(mask));
	nl_attr(&m, NLBL_A_SECCTX, text, strlen(text) + 1);
	rc = nl_talk(fd, &m, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	nl_start(&m, family, NLBL_LISTDEF, NLM_F_DUMP);
	n = nl_talk(fd, &m, buf, sizeof(buf));
	/*
	 * -ENOENT: not listed (netlbl_unlabel_staticlistdef() drops an
	 * entry whose secid the owner cannot name, and says nothing)
	 */
	*list_rc = n < 0 ? n : -ENOENT;
	a = n > 0 ? nl_find(buf, n, NLBL_A_SECCTX, &len) : NULL;
	if (a) {
		snprintf(back, blen, "%.*s", len, (char *)a + NLA_HDRLEN);
		*list_rc = 0;
	}
	/* the rest of the dump, up to its NLMSG_DONE, then the removal */
	while (n > 0 && !nl_done(buf, n))
		n = recv(fd, buf, sizeof(buf), 0);
	nl_start(&m, family, NLBL_REMOVEDEF, NLM_F_ACK);
	nl_attr(&m, NLBL_A_IPV4ADDR, &addr, sizeof(addr));
	nl_attr(&m, NLBL_A_IPV4MASK, &mask, sizeof(mask));
	nl_talk(fd, &m, buf, sizeof(buf));
	return 0;
}

/*
 * Does Smack know the label @text? An access2 query names an unknown
 * label ENOENT and answers 0 without creating it; a known one may always
 * read the floor, _ (smk_user_access(), smk_fill_rule() in smackfs.c).
 */
static int smack_knows(const char *text)
{
	char q[300], a = '0';
	int fd = open("/sys/fs/smackfs/access2", O_RDWR);

	if (fd < 0)
		return -1;
	snprintf(q, sizeof(q), "%s _ r", text);
	if (write(fd, q, strlen(q)) < 0 || read(fd, &a, 1) != 1)
		a = '?';
	close(fd);
	return a == '1' ? 1 : a == '0' ? 0 : -1;
}

/*
 * NetLabel's static labels are texts in the owner's language.
 */
TEST(netlabel_static_labels_speak_the_owners_language)
{
	const char *owner = net_owner();
	char back[256];
	int fd, family, policy;
	/* Smack label, AppArmor label, SELinux context (of the kit's policy) */
	static const char *const texts[] = {
		"KitHost", "unconfined", "system_u:object_r:file_t",
	};

	if (!owner)
		SKIP(return, "no module owns NetLabel's secids in this boot");
	struct stat st;

	/* selinuxfs lists the policy's classes once one is loaded */
	policy = active("selinux") && stat("/sys/fs/selinux/class/file", &st) == 0;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	ASSERT_LE(0, fd);
	family = nlbl_family(fd);
	ASSERT_LT(0, family) TH_LOG("no generic netlink family NLBL_UNLBL: %s",
				    strerror(-family));
	if (active("smack")) {	/* Smack names only labels it knows: make KitHost one */
		if (access("/sys/fs/smackfs/load2", F_OK))
			ASSERT_EQ(0, mount("smackfs", "/sys/fs/smackfs", "smackfs", 0, NULL));
		ASSERT_EQ(0, put("/sys/fs/smackfs/load2", "KitHost _ r"));
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		int list_rc = 0, rc = nlbl_static(fd, family, texts[i], back, sizeof(back),
						  &list_rc);
		int want_rc = 0, want_list = 0;
		const char *want = texts[i];

		if (!strcmp(owner, "selinux") && !policy)
			want = "kernel";	/* no policy: every text is the kernel SID */
		else if (!strcmp(owner, "selinux") && !strchr(texts[i], ':'))
			want_rc = -EINVAL;	/* not an SELinux context */
		else if (!strcmp(owner, "smack")) {
			int known = smack_knows(texts[i]);

			ASSERT_LE(0, known) TH_LOG("smackfs access2: %s", strerror(errno));
			ksft_print_msg("\"%s\" is %sa Smack label in this boot\n", texts[i],
				       known ? "" : "not ");
			if (!known)	/* secid 0, which no module names: not listed */
				want_list = -ENOENT;
		}
		if (wrong())
			want_rc = want_rc ? 0 : -EINVAL;
		if (rc)
			ksft_print_msg("static label \"%s\": %s\n", texts[i], strerrorname_np(-rc));
		else if (list_rc == -ENOENT)
			ksft_print_msg("static label \"%s\": added, not listed\n", texts[i]);
		else if (list_rc)
			ksft_print_msg("static label \"%s\": added; listing: %s\n", texts[i],
				       strerrorname_np(-list_rc));
		else
			ksft_print_msg("static label \"%s\": listed as \"%s\"\n", texts[i], back);
		EXPECT_EQ(want_rc, rc) TH_LOG("owner %s, label \"%s\"", owner, texts[i]);
		if (!rc && !want_rc) {
			EXPECT_EQ(want_list, list_rc) TH_LOG("owner %s, label \"%s\"", owner,
							     texts[i]);
			if (!list_rc && !want_list)
				EXPECT_STREQ(want, back);
		}
	}
	close(fd);
}

TEST_HARNESS_MAIN
