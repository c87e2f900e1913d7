// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the veth topology when loadbench was built without
 * libnl-route-3. --topology veth still exists and says how to get it; the
 * addresses, interface names and cleanup it shares are in topology.c.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>

#include "topology.h"
#include "util.h"

struct lb_topo {
	int unused;
};

/* Returns -EOPNOTSUPP: built without libnl-route-3. */
int lb_topo_create(int nflows, const char *topology, struct lb_topo **out, char *err, size_t errlen)
{
	*out = NULL;
	lb_seterr(err, errlen,
		  "%s veth is not available: loadbench was built without "
		  "libnl-route-3 (apt-get install libnl-route-3-dev, then rerun configure)",
		  topology);
	return -EOPNOTSUPP;
}

/* Never reached (create refuses); returns -1. */
int lb_topo_netns_fd(const struct lb_topo *t)
{
	return -1;
}

/* Returns @buf: lb_topo_addr() in block 0. */
const char *lb_topo_flow_addr(const struct lb_topo *t, int flow, bool ns, char *buf, size_t len)
{
	return lb_topo_addr(0, flow, ns, buf, len);
}

/* Returns -EOPNOTSUPP. */
int lb_topo_enter(const struct lb_topo *t)
{
	return -EOPNOTSUPP;
}

/* Returns -EOPNOTSUPP. */
int lb_topo_leave(const struct lb_topo *t)
{
	return -EOPNOTSUPP;
}

/* Returns -EOPNOTSUPP: built without libnl-route-3. */
int lb_topo_link_delete(const char *ifname)
{
	return -EOPNOTSUPP;
}

/* Nothing to free: create never makes one. */
void lb_topo_destroy(struct lb_topo *t)
{
}
