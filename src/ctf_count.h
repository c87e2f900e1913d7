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
	uint64_t events;	/* event records timestamped within [begin, end] */
	uint64_t all_events;	/* every event record of the trace */
	uint64_t packets;	/* every packet (sub-buffer) of the trace */
};

/*
 * lb_ctf_available - whether babeltrace2's ctf plugin (src.ctf.fs) can be
 * loaded. Returns 0, or -ENOENT with the reason and the fix in @why.
 */
int lb_ctf_available(char *why, size_t len);

/*
 * lb_ctf_count - count the event records and packets of the CTF trace(s)
 * below @dir; events timestamped (in ns of the trace's clock, CLOCK_MONOTONIC
 * for LTTng's kernel domain) from @begin to @end inclusive go to ->events.
 * Returns 0, or -errno with the reason in @err.
 */
int lb_ctf_count(const char *dir, uint64_t begin, uint64_t end, struct lb_ctf_counts *c,
		 char *err, size_t len);

#endif
