/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --count-with pcap: an observer independent of the workload. A libpcap
 * capture on lo, filtered in the kernel to one packet per operation (the
 * workload's lb_workload_count_filter(), "inbound" keeping one of the two
 * copies lo shows of each packet), read by its own thread (non-blocking,
 * poll() on pcap_get_selectable_fd()), counting the packets it delivers.
 */
#ifndef LB_PCAP_COUNT_H
#define LB_PCAP_COUNT_H

#include <stdint.h>

struct lb_pcap_count;

/*
 * lb_pcap_count_open - start capturing on lo with the filter expression
 * @filter and counting, in a thread kept off CPUs @cpu_a and @cpu_b (the
 * workload's; -1 = none) when another CPU is allowed. Returns 0 and sets
 * *@out, or -errno with one line naming the cause and the fix in @err:
 * -EOPNOTSUPP built without libpcap, -EPERM without root or CAP_NET_RAW,
 * -EINVAL a filter libpcap refuses.
 */
int lb_pcap_count_open(const char *filter, int cpu_a, int cpu_b, struct lb_pcap_count **out,
		       char *err, size_t len);

/*
 * lb_pcap_count_read - process what the capture has buffered up to now, then
 * store the packets counted since open in *@packets and those the kernel
 * dropped because the capture buffer was full in *@dropped. Returns 0, or
 * -errno when the capture failed (the thread stopped), with libpcap's reason
 * and the fix in @err.
 */
int lb_pcap_count_read(struct lb_pcap_count *c, uint64_t *packets, uint64_t *dropped, char *err,
		       size_t len);

/* lb_pcap_count_close - stop the thread, close the capture, free. NULL is fine. */
void lb_pcap_count_close(struct lb_pcap_count *c);

#endif
