/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text table of a result set: what `loadbench run' prints at its end and
 * keeps as summary.txt, and `loadbench report --format text'.
 */
#ifndef LB_TABLE_H
#define LB_TABLE_H

#include <stdio.h>

struct lb_results;

/*
 * lb_results_print_latency - the latency table (quantiles per set, added
 * latency at p50 and p99 with CIs) on @f; nothing when the baseline's
 * operations were not timed.
 */
void lb_results_print_latency(const struct lb_results *res, FILE *f);

/*
 * lb_table_name_width - the width of the probe-set column of the latency
 * and CPU tables: the longest name as printed (under 64), at least
 * "probe set". Returns it.
 */
int lb_table_name_width(const struct lb_results *res);

/*
 * lb_results_print_cpu - the CPU table (per operation: workload, tracer,
 * machine; steal) on @f, and the lines on busy tracers and stolen time;
 * nothing when the results hold no CPU times.
 */
void lb_results_print_cpu(const struct lb_results *res, FILE *f);

/* lb_results_print_table - the human summary table (and warnings) on @f. */
void lb_results_print_table(const struct lb_results *res, FILE *f);

/*
 * lb_results_write_summary - the text table of lb_results_print_table(),
 * written atomically to @name in @dirfd (summary.txt; AT_FDCWD: a path).
 * Returns 0 or -errno.
 */
int lb_results_write_summary(const struct lb_results *res, int dirfd, const char *name);

#endif
