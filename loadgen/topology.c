// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: what the veth topology (see topology.h) is with or without
 * libnl-route-3: its addresses, its interface names, and `loadbench cleanup`
 * of the veth ends a run left behind. The namespace and the pairs are made
 * in topology_veth.c (built with libnl-route-3), or refused with how to get
 * it in topology_veth_none.c.
 *
 * This file must not include any tracing header.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "loadgen.h"
#include "owner.h"
#include "topology.h"

/* Returns @buf: 198.18.0.0 + 256 * block + 4 * flow + 1 (host end) or + 2 (namespace end). */
const char *lb_topo_addr(int block, int flow, bool ns, char *buf, size_t len)
{
	uint32_t a = LB_TOPO_NET + 256U * (uint32_t)block + 4U * (uint32_t)flow + (ns ? 2U : 1U);

	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
	return buf;
}

/* Returns the first block not in @used from @pid's own on, or -1. */
int lb_topo_block_pick(int pid, const bool *used)
{
	int i, b;

	for (i = 0; i < LB_TOPO_BLOCKS; i++) {
		b = (int)(((unsigned int)pid + (unsigned int)i) % LB_TOPO_BLOCKS);
		if (!used[b])
			return b;
	}
	return -1;
}

/* Returns @buf: "lb<pid>h<flow>" or "lb<pid>n<flow>" (at most 15 characters for pid <= 2^22). */
const char *lb_topo_ifname(int pid, int flow, bool ns, char *buf, size_t len)
{
	snprintf(buf, len, "lb%d%c%d", pid, ns ? 'n' : 'h', flow);
	return buf;
}

/*
 * Host ends of --topology veth pairs carry the alias loadbench_<pid>
 * (/sys/class/net/IF/ifalias). They die with the run's network namespace,
 * so one is left only while that namespace lives on (or when deleting it
 * failed); deleting an end deletes its peer.
 */
int lb_loadgen_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char path[300], alias[64], what[360];
	struct dirent *de;
	int found = 0;
	DIR *d;

	d = opendir("/sys/class/net");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid;
		FILE *f;
		int err = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(alias, sizeof(alias), f))
			alias[0] = '\0';
		fclose(f);
		alias[strcspn(alias, "\n")] = '\0';
		snprintf(what, sizeof(what), "veth interface %s (alias %s)", de->d_name, alias);
		if (!lb_cleanup_take(o, alias, what, &pid, report, arg))
			continue;
		found++;
		if (remove)
			err = lb_topo_link_delete(de->d_name);
		if (err)
			lb_owners_failed(o, pid);
		if (report)
			report(what, err, arg);
	}
	closedir(d);
	return found;
}
