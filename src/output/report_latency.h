/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency and CPU parts of `loadbench report': each set's quantiles and
 * the latency tracing added at p50 and p99 (report_latency.c), its CPU per
 * operation (report_cpu.c), as Markdown tables and as LaTeX ones (report.c
 * calls them after the slowdown table).
 */
#ifndef LB_REPORT_LATENCY_H
#define LB_REPORT_LATENCY_H

#include <stdio.h>

struct lb_results;

/* How a report writes a string from the results file: escaped for its format. */
typedef void (*lb_report_put_fn)(FILE *f, const char *s);

/*
 * lb_report_latency_markdown - "### Latency per operation" and its table
 * on @f, names through @put; nothing when the baseline's operations were
 * not timed. Returns nothing.
 */
void lb_report_latency_markdown(const struct lb_results *res, FILE *f, lb_report_put_fn put);

/*
 * lb_report_latency_latex - a booktabs table of the same, names through
 * @put; nothing when the baseline's operations were not timed. Returns
 * nothing.
 */
void lb_report_latency_latex(const struct lb_results *res, FILE *f, lb_report_put_fn put);

/*
 * lb_report_cpu_markdown - "### CPU per operation" and its table on @f,
 * names through @put; nothing when the results hold no CPU time. Returns
 * nothing.
 */
void lb_report_cpu_markdown(const struct lb_results *res, FILE *f, lb_report_put_fn put);

/* lb_report_cpu_latex - a booktabs table of the same, names through @put. Returns nothing. */
struct lb_sweep;

/* lb_report_sweep_markdown - @s's points and lines as Markdown tables on @f; names through @put. */
void lb_report_sweep_markdown(const struct lb_sweep *s, FILE *f, lb_report_put_fn put);

/* lb_report_sweep_latex - the same as two booktabs tables. */
void lb_report_sweep_latex(const struct lb_sweep *s, FILE *f, lb_report_put_fn put);

void lb_report_cpu_latex(const struct lb_results *res, FILE *f, lb_report_put_fn put);

#endif
