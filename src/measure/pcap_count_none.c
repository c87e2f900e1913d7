// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --count-with pcap when loadbench was built without libpcap: the counter
 * still exists and says how to get it.
 */
#include <errno.h>
#include <stdio.h>

#include "pcap_count.h"

/* Returns -EOPNOTSUPP with the message naming the fix. */
int lb_pcap_count_open(const char *filter, int cpu_a, int cpu_b, struct lb_pcap_count **out,
		       char *err, size_t len)
{
	*out = NULL;
	snprintf(err, len, "--count-with pcap needs libpcap, and loadbench was built without it: "
		 "apt-get install libpcap-dev, then rerun scripts/bootstrap");
	return -EOPNOTSUPP;
}

/* Never reached (open refuses); returns -EOPNOTSUPP. */
int lb_pcap_count_read(struct lb_pcap_count *c, uint64_t *packets, uint64_t *dropped, char *err,
		       size_t len)
{
	snprintf(err, len, "--count-with pcap needs libpcap, and loadbench was built without it");
	return -EOPNOTSUPP;
}

/* Nothing to free: open never makes one. */
void lb_pcap_count_close(struct lb_pcap_count *c)
{
}
