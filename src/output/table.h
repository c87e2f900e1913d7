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

/* lb_results_print_table - the human summary table (and warnings) on @f. */
void lb_results_print_table(const struct lb_results *res, FILE *f);

/*
 * lb_results_write_summary - the text table of lb_results_print_table(),
 * written atomically to @path (summary.txt). Returns 0 or -errno.
 */
int lb_results_write_summary(const struct lb_results *res, const char *path);

#endif
