/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: validation of a workload configuration (check.c).
 * Each returns 0, or -errno with a one-line message naming the cause and
 * the fix in @err.
 */
#ifndef LB_CHECK_H
#define LB_CHECK_H

#include <stddef.h>

#include "loadgen.h"

struct lb_flow;

/* lb_workload_check - the workload-wide settings: flows, topology, the port range. */
int lb_workload_check(const struct lb_workload_config *cfg, char *err, size_t errlen);

/*
 * lb_config_check - one flow's @cfg (address, sizes, window, bound, CPUs)
 * for @w, whose type is set; on success also prepares w's affinity masks.
 */
int lb_config_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen);

/* lb_workload_unknown - the message for a workload name loadgen does not know: -EINVAL. */
int lb_workload_unknown(const char *name, char *err, size_t errlen);

/* lb_engine_check - @cfg's engine for @w; for uring, asks the kernel what it allows. */
int lb_engine_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen);

#endif
