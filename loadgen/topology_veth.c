// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the veth topology (see topology.h), built with libnl-route-3.
 *
 * The namespace is made by this thread: unshare(CLONE_NEWNET), keep a
 * descriptor of it and a netlink socket in it, setns() back. From the host
 * side, each veth pair is created with its peer placed straight into the
 * namespace (IFLA_NET_NS_FD), then given its alias, address and the up flag;
 * from the socket in the namespace, the peer gets its address and lo and the
 * peer are brought up. Only this thread changes namespace, and only for the
 * time these calls take (and lb_topo_enter/leave's).
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>

#include "owner.h"
#include "topology.h"
#include "util.h"

struct lb_topo {
	int nflows;
	int block;		 /* our /24 of 198.18.0.0/15 */
	int host_fd;		 /* this thread's namespace when created */
	int ns_fd;		 /* the servers' namespace */
	struct nl_sock *host_sk; /* rtnetlink in the host namespace */
	struct nl_sock *ns_sk;	 /* rtnetlink in the servers' namespace */
	int created;		 /* veth pairs created so far */
	int pid;
};

/* The fix without privilege; both %s: the topology setting ("topology", "--topology"). */
#define LB_TOPO_FIX_ROOT                                                                           \
	"%s veth creates a network namespace and veth pairs, which needs root "                    \
	"(CAP_SYS_ADMIN, CAP_NET_ADMIN): run as root, or use %s lo"

/*
 * Mark the /24s of 198.18.0.0/15 that an interface of this namespace has an
 * address in (another loadbench's veth run, or a benchmarking network).
 * Returns 0 or -errno.
 */
static int lb_topo_blocks_used(bool *used)
{
	struct ifaddrs *ifa, *i;
	uint32_t a;

	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
		if ((a & 0xfffe0000U) == LB_TOPO_NET)
			used[((a - LB_TOPO_NET) >> 8) % LB_TOPO_BLOCKS] = true;
	}
	freeifaddrs(ifa);
	return 0;
}

static struct nl_sock *lb_topo_nl_open(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		sk = NULL;
	}
	return sk;
}

/* Map a libnl error to -errno. */
static int lb_topo_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_PERM:
		return -EPERM;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_NODEV:
	case NLE_OBJ_NOTFOUND:
		return -ENODEV;
	default:
		return -EIO;
	}
}

/* Set @addr/30 on @ifname, alias loadbench_<pid> and IFF_UP, through @sk. */
static int lb_topo_link_setup(struct lb_topo *t, struct nl_sock *sk, const char *ifname,
			      const char *addr, const char **what)
{
	struct rtnl_link *link = NULL, *change = NULL;
	struct rtnl_addr *ra = NULL;
	struct nl_addr *local = NULL;
	char alias[32], cidr[32];
	int ret;

	*what = "looking up";
	ret = rtnl_link_get_kernel(sk, 0, ifname, &link);
	if (ret < 0)
		goto out;
	ret = -NLE_NOMEM;
	change = rtnl_link_alloc();
	if (!change)
		goto out;
	if (addr) {
		rtnl_link_set_ifalias(change, lb_owner_name(alias, sizeof(alias), t->pid, 0));
	}
	rtnl_link_set_flags(change, IFF_UP);
	*what = "setting the alias and bringing up";
	ret = rtnl_link_change(sk, link, change, 0);
	if (ret < 0 || !addr)
		goto out;
	snprintf(cidr, sizeof(cidr), "%s/30", addr);
	*what = "addressing";
	ret = nl_addr_parse(cidr, AF_INET, &local);
	if (ret < 0)
		goto out;
	ret = -NLE_NOMEM;
	ra = rtnl_addr_alloc();
	if (!ra)
		goto out;
	rtnl_addr_set_ifindex(ra, rtnl_link_get_ifindex(link));
	ret = rtnl_addr_set_local(ra, local);
	if (!ret)
		ret = rtnl_addr_add(sk, ra, 0);
out:
	if (ra)
		rtnl_addr_put(ra);
	if (local)
		nl_addr_put(local);
	if (change)
		rtnl_link_put(change);
	if (link)
		rtnl_link_put(link);
	return ret;
}

/* Create flow @i's veth pair, its peer in the namespace. Returns 0 or a libnl error. */
static int lb_topo_veth_add(struct lb_topo *t, int i)
{
	struct rtnl_link *veth, *peer;
	char name[IFNAMSIZ];
	int ret;

	veth = rtnl_link_veth_alloc();
	if (!veth)
		return -NLE_NOMEM;
	peer = rtnl_link_veth_get_peer(veth);
	rtnl_link_set_name(veth, lb_topo_ifname(t->pid, i, false, name, sizeof(name)));
	rtnl_link_set_name(peer, lb_topo_ifname(t->pid, i, true, name, sizeof(name)));
	rtnl_link_set_ns_fd(peer, t->ns_fd);
	ret = rtnl_link_add(t->host_sk, veth, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_link_put(peer);
	rtnl_link_veth_release(veth);
	return ret;
}

/* Returns 0 and sets *@out, or -errno with a one-line message in @err. */
int lb_topo_create(int nflows, const char *topology, struct lb_topo **out, char *err, size_t errlen)
{
	char ifname[IFNAMSIZ], addr[INET_ADDRSTRLEN];
	bool used[LB_TOPO_BLOCKS] = {false};
	const char *what = "";
	struct lb_topo *t;
	int ret, i;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t) {
		lb_seterr(err, errlen, "out of memory: free memory and retry");
		return -ENOMEM;
	}
	t->nflows = nflows;
	t->pid = (int)getpid();
	t->ns_fd = -1;
	t->host_fd = -1;
	ret = lb_topo_blocks_used(used);
	t->block = ret < 0 ? -1 : lb_topo_block_pick(t->pid, used);
	if (t->block < 0) {
		lb_seterr(err, errlen,
			  "no free /24 in 198.18.0.0/15 for the veth pairs (%s): remove "
			  "interface addresses there, or use %s lo",
			  ret < 0 ? strerror(-ret) : "every one has an address here", topology);
		ret = ret < 0 ? ret : -EADDRINUSE;
		goto out_free;
	}
	t->host_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (t->host_fd < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot open /proc/thread-self/ns/net: %s: mount /proc, or use "
			  "%s lo",
			  strerror(-ret), topology);
		goto out_free;
	}
	if (unshare(CLONE_NEWNET) < 0) {
		ret = -errno;
		if (ret == -EPERM)
			lb_seterr(err, errlen, LB_TOPO_FIX_ROOT, topology, topology);
		else if (ret == -EINVAL)
			lb_seterr(err, errlen,
				  "this kernel has no network namespaces (CONFIG_NET_NS): "
				  "use %s lo",
				  topology);
		else
			lb_seterr(err, errlen,
				  "cannot create a network namespace: %s: raise "
				  "user.max_net_namespaces or free memory, or use "
				  "%s lo",
				  strerror(-ret), topology);
		if (ret == -EINVAL)
			ret = -EOPNOTSUPP;
		goto out_free;
	}
	ret = 0;
	t->ns_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (t->ns_fd < 0)
		ret = -errno;
	else
		t->ns_sk = lb_topo_nl_open();
	if (setns(t->host_fd, CLONE_NEWNET) < 0) {
		/* Cannot happen with the privilege we just used; never run on in the wrong one. */
		lb_seterr(err, errlen,
			  "cannot return to loadbench's network namespace: %s: this is a "
			  "bug, please report it",
			  strerror(errno));
		abort();
	}
	if (t->ns_fd < 0 || !t->ns_sk) {
		lb_seterr(err, errlen,
			  "cannot open the new network namespace or a netlink socket in it: "
			  "%s: raise the open-file limit (ulimit -n)",
			  t->ns_fd < 0 ? strerror(-ret) : "libnl failed");
		ret = t->ns_fd < 0 ? ret : -ENOMEM;
		goto out_free;
	}
	t->host_sk = lb_topo_nl_open();
	if (!t->host_sk) {
		ret = -ENOMEM;
		lb_seterr(err, errlen,
			  "cannot open a netlink socket: raise the open-file limit "
			  "(ulimit -n) or free memory");
		goto out_free;
	}
	ret = lb_topo_link_setup(t, t->ns_sk, "lo", NULL, &what);
	if (ret < 0) {
		lb_seterr(err, errlen,
			  "cannot bring up lo in the servers' network namespace: %s: "
			  "use %s lo",
			  nl_geterror(ret), topology);
		ret = lb_topo_errno(ret);
		goto out_free;
	}
	for (i = 0; i < nflows; i++) {
		lb_topo_ifname(t->pid, i, false, ifname, sizeof(ifname));
		ret = lb_topo_veth_add(t, i);
		if (ret < 0) {
			if (ret == -NLE_OPNOTSUPP)
				lb_seterr(err, errlen,
					  "this kernel cannot create veth interfaces "
					  "(CONFIG_VETH, or modprobe veth): use %s lo",
					  topology);
			else if (ret == -NLE_PERM)
				lb_seterr(err, errlen, LB_TOPO_FIX_ROOT, topology, topology);
			else
				lb_seterr(err, errlen,
					  "cannot create the veth pair %s: %s: check "
					  "dmesg, or use %s lo",
					  ifname, nl_geterror(ret), topology);
			ret = lb_topo_errno(ret);
			goto out_free;
		}
		t->created = i + 1;
		ret = lb_topo_link_setup(t, t->host_sk, ifname,
					 lb_topo_flow_addr(t, i, false, addr, sizeof(addr)), &what);
		if (ret >= 0) {
			lb_topo_ifname(t->pid, i, true, ifname, sizeof(ifname));
			ret = lb_topo_link_setup(t, t->ns_sk, ifname,
						 lb_topo_flow_addr(t, i, true, addr, sizeof(addr)), &what);
		}
		if (ret < 0) {
			lb_seterr(err, errlen,
				  "%s the veth interface %s failed: %s: check dmesg, or "
				  "use %s lo",
				  what, ifname, nl_geterror(ret), topology);
			ret = lb_topo_errno(ret);
			goto out_free;
		}
	}
	*out = t;
	return 0;

out_free:
	lb_topo_destroy(t);
	return ret;
}

int lb_topo_netns_fd(const struct lb_topo *t)
{
	return t->ns_fd;
}

/* Returns @buf. */
const char *lb_topo_flow_addr(const struct lb_topo *t, int flow, bool ns, char *buf, size_t len)
{
	return lb_topo_addr(t->block, flow, ns, buf, len);
}

/* Returns 0 or -errno. */
int lb_topo_enter(const struct lb_topo *t)
{
	return setns(t->ns_fd, CLONE_NEWNET) < 0 ? -errno : 0;
}

/* Returns 0 or -errno. */
int lb_topo_leave(const struct lb_topo *t)
{
	return setns(t->host_fd, CLONE_NEWNET) < 0 ? -errno : 0;
}

/* Delete the interface named @ifname through @sk. Returns 0 or -errno. */
static int lb_topo_delete(struct nl_sock *sk, const char *ifname)
{
	struct rtnl_link *link = rtnl_link_alloc();
	int ret;

	if (!link)
		return -ENOMEM;
	rtnl_link_set_name(link, ifname);
	ret = rtnl_link_delete(sk, link);
	rtnl_link_put(link);
	return ret < 0 ? lb_topo_errno(ret) : 0;
}

/* Returns 0 or -errno. */
int lb_topo_link_delete(const char *ifname)
{
	struct nl_sock *sk = lb_topo_nl_open();
	int ret;

	if (!sk)
		return -ENOMEM;
	ret = lb_topo_delete(sk, ifname);
	nl_socket_free(sk);
	return ret;
}

/* Deletes the host ends (and so their peers), then lets the namespace go. */
void lb_topo_destroy(struct lb_topo *t)
{
	char ifname[IFNAMSIZ];
	int i;

	if (!t)
		return;
	for (i = 0; t->host_sk && i < t->created; i++)
		lb_topo_delete(t->host_sk, lb_topo_ifname(t->pid, i, false, ifname, sizeof(ifname)));
	if (t->host_sk)
		nl_socket_free(t->host_sk);
	if (t->ns_sk)
		nl_socket_free(t->ns_sk);
	if (t->ns_fd >= 0)
		close(t->ns_fd);
	if (t->host_fd >= 0)
		close(t->host_fd);
	free(t);
}
