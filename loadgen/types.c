// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the table of workload kinds. Each kind is a struct
 * lb_workload_type in its own file (udp_rr.c, tcp_rr.c, icmp_flood.c,
 * udp_stream.c, pcap_flood.c); adding one = its file and one line here.
 *
 * This file must not include any tracing header.
 */
#include <stddef.h>
#include <string.h>

#include "flow.h"
#include "workload.h"

/* Every workload, in the order of lb_workload_names[]. */
const struct lb_workload_type *const lb_workload_types[] = {
    &lb_udp_rr_type,
    &lb_tcp_rr_type,
    &lb_icmp_flood_type,
    &lb_udp_stream_type,
    &lb_pcap_flood_type,
    NULL,
};

/* Keep in step with lb_workload_types[] above. */
const char *const lb_workload_names[] = {"udp-rr", "tcp-rr", "icmp-flood", "udp-stream",
					 "pcap-flood", NULL};

/* Returns the type named @name, or NULL. */
const struct lb_workload_type *lb_workload_type_find(const char *name)
{
	size_t i;

	for (i = 0; lb_workload_types[i]; i++)
		if (!strcmp(lb_workload_types[i]->traits.name, name))
			return lb_workload_types[i];
	return NULL;
}

/* Returns the traits of the workload named @name, or NULL. */
const struct lb_workload_traits *lb_workload_traits(const char *name)
{
	const struct lb_workload_type *t = name ? lb_workload_type_find(name) : NULL;

	return t ? &t->traits : NULL;
}
