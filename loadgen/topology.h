/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: the veth topology. One network namespace for the
 * servers, anonymous (never mounted), and one veth pair per flow between it
 * and loadbench's namespace, addressed from 198.18.0.0/15 (RFC 2544's
 * benchmarking range): each loadbench takes a /24 of it that no interface of
 * this machine has an address in (the "block", 0..511: 198.18.0.0 + 256 *
 * block; another loadbench's veth run holds one), and flow i is the /30 at
 * + 4i in it, the host end +1, the namespace end +2. Host ends are named lb<pid>h<flow>, namespace ends
 * lb<pid>n<flow>, both with the interface alias loadbench_<pid>, which is how
 * `loadbench cleanup` recognises them.
 *
 * Nothing can outlive loadbench: the namespace lives as long as a descriptor
 * or a process refers to it (ours and the server processes'), and deleting
 * it deletes the veth ends in it and so their peers. lb_topo_destroy()
 * deletes the host ends at once instead of waiting for that.
 */
#ifndef LB_TOPOLOGY_H
#define LB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lb_topo;

#define LB_TOPO_NET 0xc6120000U /* 198.18.0.0, host byte order */
#define LB_TOPO_BLOCKS 512	/* /24s in 198.18.0.0/15 */

/*
 * lb_topo_addr - the IPv4 address of flow @flow's host end (@ns false) or
 * namespace end (@ns true) in /24 number @block, as a dotted quad into @buf.
 * Returns @buf.
 */
const char *lb_topo_addr(int block, int flow, bool ns, char *buf, size_t len);

/*
 * lb_topo_block_pick - the /24 for loadbench process @pid: the first one not
 * marked in @used (LB_TOPO_BLOCKS entries), from @pid % LB_TOPO_BLOCKS on,
 * wrapping around. Returns it, or -1 when all are used.
 */
int lb_topo_block_pick(int pid, const bool *used);

/* lb_topo_flow_addr - lb_topo_addr() in @t's block. Returns @buf. */
const char *lb_topo_flow_addr(const struct lb_topo *t, int flow, bool ns, char *buf, size_t len);

/*
 * lb_topo_ifname - the name of flow @flow's host (@ns false) or namespace
 * (@ns true) veth end for loadbench process @pid ("lb1234h0"). Returns @buf.
 */
const char *lb_topo_ifname(int pid, int flow, bool ns, char *buf, size_t len);

/*
 * lb_topo_create - the namespace and @nflows veth pairs, addressed and up,
 * lo up in the namespace. Returns 0 and sets *@out, or -errno with a
 * one-line message in @err: -EPERM without root, -EOPNOTSUPP when this
 * kernel lacks network namespaces or veth, or loadbench was built without
 * libnl-route-3. Nothing is left behind on failure. @topology is how the
 * message names the topology setting ("topology", "--topology").
 */
int lb_topo_create(int nflows, const char *topology, struct lb_topo **out, char *err,
		   size_t errlen);

/* lb_topo_netns_fd - a descriptor of the servers' namespace (for setns). */
int lb_topo_netns_fd(const struct lb_topo *t);

/*
 * lb_topo_enter, lb_topo_leave - move the calling thread into the servers'
 * namespace and back (sockets opened in between belong to it). Return 0 or
 * -errno.
 */
int lb_topo_enter(const struct lb_topo *t);
int lb_topo_leave(const struct lb_topo *t);

/*
 * lb_topo_link_delete - delete the network interface @ifname (a veth end:
 * its peer goes with it). For `loadbench cleanup`. Returns 0 or -errno
 * (-EOPNOTSUPP when built without libnl-route-3).
 */
int lb_topo_link_delete(const char *ifname);

/* lb_topo_destroy - delete the veth pairs, drop the namespace. NULL is fine. */
void lb_topo_destroy(struct lb_topo *t);

#endif
