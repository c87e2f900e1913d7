/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one line that says which probe sets a run skips, and why in a few words. */
#ifndef LB_SKIPPED_H
#define LB_SKIPPED_H

#include <stddef.h>

struct lb_plan;

/*
 * lb_skipped_brief - why a probe set cannot run here in two or three words
 * ("no kprobes", "needs root"), from @reason, the full message of its tracer;
 * into @buf. Returns @buf.
 */
const char *lb_skipped_brief(const char *reason, char *buf, size_t len);

/*
 * lb_skipped_warn - one warning line naming the sets @plan skips, grouped by
 * their brief reason: "skipping 10 probe sets that cannot run here: all,
 * bpf+kprobe (no kprobes); lttng (no lttng-modules) (see loadbench list)".
 * Nothing when it skips none. The full reasons stay in results.json and the
 * summary.
 */
void lb_skipped_warn(const struct lb_plan *plan);

#endif
