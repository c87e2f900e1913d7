/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counting the event records of a CTF trace on disk (what lttng-consumerd
 * wrote) with libbabeltrace2: no liblttng-ctl call says how many events a
 * kernel channel recorded.
 */
#ifndef LB_CTF_COUNT_H
#define LB_CTF_COUNT_H

#include <stddef.h>
#include <stdint.h>

struct lb_ctf_counts {
	uint64_t all_events;	/* every event record of the trace */
	uint64_t packets;	/* every packet (sub-buffer) of the trace */
};

/*
 * lb_ctf_available - whether babeltrace2's ctf plugin (src.ctf.fs) can be
 * loaded. Returns 0, or -ENOENT with the reason and the fix in @why.
 */
int lb_ctf_available(char *why, size_t len);

/* Counts by time: arrays of n + 1 intervals (see lb_ctf_count()), the caller's. */
struct lb_ctf_buckets {
	uint64_t *events;		/* event records, by timestamp */
	uint64_t *discarded_events;	/* events the tracer discarded, by the loss's end */
	uint64_t *discarded_packets;	/* packets lost (overwritten), by the loss's end */
};

/*
 * lb_ctf_count - count the event records and packets of the CTF trace(s)
 * below @dir into @c, and sort the events and the losses the trace reports
 * by time (ns of the trace's clock, CLOCK_MONOTONIC for LTTng's kernel
 * domain) into the @n + 1 intervals that the @n ascending times @edges cut:
 * bucket 0 counts those before @edges[0], bucket i those from @edges[i - 1]
 * (inclusive) to @edges[i] (exclusive), bucket @n those from @edges[@n - 1]
 * on. Returns 0, -EINVAL for edges out of order, -EPROTO for a trace whose
 * events or losses have no time, or -errno with the reason in @err.
 */
int lb_ctf_count(const char *dir, const uint64_t *edges, size_t n, struct lb_ctf_buckets *b,
		 struct lb_ctf_counts *c, char *err, size_t len);

#endif
