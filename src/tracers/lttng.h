/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LTTng tracer's parts outside its ops table: the check of a probe
 * set's event names against the lists LTTng gives (no liblttng-ctl needed,
 * so it is unit-tested anywhere), and the cleanup of sessions a killed
 * loadbench left (tracer_lttng.c, or a no-op without liblttng-ctl).
 */
#ifndef LB_LTTNG_H
#define LB_LTTNG_H

#include <stdbool.h>
#include <stddef.h>

#include "leftover.h"
#include "owner.h"
#include "probeset.h"

/*
 * lb_lttng_check_names - check @ps's tracepoint and syscall probes against
 * the kernel domain's tracepoint names @tps (@ntps, lttng_list_tracepoints)
 * and syscall names @sys (@nsys, lttng_list_syscalls): LTTng accepts an
 * unknown name silently and records nothing, so the check is ours. Returns
 * 0, or -ENOENT for an unknown name, -EINVAL for a SYSTEM:EVENT (ftrace)
 * name, -EOPNOTSUPP for a probe kind LTTng does not record here, each with
 * "PATH:LINE: problem" and the closest LTTng names in @err.
 */
int lb_lttng_check_names(const struct lb_probeset *ps, const char *const *tps, size_t ntps,
			 const char *const *sys, size_t nsys, char *err, size_t len);

/*
 * lb_lttng_cleanup - find the LTTng sessions named loadbench_<pid> of the
 * dead runs in @o and, with @remove, destroy them; and their trace
 * directories $TMPDIR/loadbench_<pid>[_<n>].XXXXXX, removed only when they
 * are root's alone (mode 0700, as mkdtemp made them), never through a link
 * (safefs.h). @report as for lb_cleanup_run(). Returns how many were found
 * (0 without liblttng-ctl).
 */
int lb_lttng_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg);

/* The workload server's LTTng-UST tracepoints, "loadbench:request" ..., NULL-terminated. */
extern const char *const lb_lttng_ust_events[];

/*
 * lb_lttng_ust_provider - the path of the LTTng-UST provider shared object
 * the workload server loads for an lttng-ust set (the build tree's for the
 * build tree's loadbench, else PKGLIBDIR's) into @buf. Returns 0 when it is
 * there and trusted (a regular file of root's or ours, in a directory, that
 * no other user can write: others never, a group only when it is root's);
 * else -errno with the reason (and its
 * lb_unavailable code) in @why: -EOPNOTSUPP when built without liblttng-ust.
 */
int lb_lttng_ust_provider(char *buf, size_t len, char *why, size_t whylen);

/*
 * lb_lttng_ust_check_names - check that @ps names only the provider's
 * tracepoints (lb_lttng_ust_events) as SYSTEM:EVENT tracepoint lines.
 * Returns 0, or -ENOENT (another tracepoint) or -EOPNOTSUPP (another kind of
 * line) with "PATH:LINE: problem" in @err.
 */
int lb_lttng_ust_check_names(const struct lb_probeset *ps, char *err, size_t len);

#endif
