// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the pcap-flood workload when loadbench was built without libpcap.
 * It stays in the workload table (same name, operation and address as
 * pcap_flood.c's) and create says how to get it.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>

#include "util.h"
#include "workload.h"

/* In create: say why it cannot run. */
static int pcap_flood_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	lb_seterr(err, errlen,
		  "pcap-flood needs libpcap, and loadbench was built without it: "
		  "apt-get install libpcap-dev, then rerun scripts/bootstrap");
	return -EOPNOTSUPP;
}

const struct lb_workload_type lb_pcap_flood_type = {
    .traits = LB_PCAP_FLOOD_TRAITS,
    .proto = "UDP",
    .server_open = pcap_flood_server_open,
};
