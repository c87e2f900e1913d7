/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one line that says which probe sets a run skips, and why in a few words. */
#ifndef LB_SKIPPED_H
#define LB_SKIPPED_H

#include <stddef.h>

#include "unavailable.h"

struct lb_plan;
struct lb_plan_entry;

/*
 * lb_skipped_brief - why a probe set cannot run here in two or three words:
 * the brief of code @why ("no kprobes", "needs root"), or for
 * LB_UNAVAIL_OTHER the first clause of @reason, the full message of its
 * tracer (past "cannot run here: " or a "PATH:LINE: "); into @buf. Returns
 * @buf.
 */
const char *lb_skipped_brief(enum lb_unavailable why, const char *reason, char *buf, size_t len);

/*
 * lb_skipped_line - what lb_skipped_warn() says after "cannot run here: "
 * for the @n plan entries @entry (those not skipped are left out):
 * "all, bpf+kprobe (no kprobes); lttng (no lttng-modules)". Returns it
 * malloc'd, or NULL when out of memory; "" when none is skipped.
 */
char *lb_skipped_line(const struct lb_plan_entry *const *entry, int n);

/*
 * lb_skipped_warn - one warning line naming the sets @plan skips, grouped by
 * their reason's code (lb_plan_entry's why; those without one by their
 * brief): "skipping 10 probe sets that cannot run here: all,
 * bpf+kprobe (no kprobes); lttng (no lttng-modules) (see loadbench list)".
 * Nothing when it skips none. The full reasons stay in results.json and the
 * summary.
 */
void lb_skipped_warn(const struct lb_plan *plan);

#endif
