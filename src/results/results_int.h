/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of src/results share and nothing else sees: the model's
 * own helpers (results.c, the bottom: the empty summaries, a round's run)
 * and the number format of its files (format.c).
 */
#ifndef LB_RESULTS_INT_H
#define LB_RESULTS_INT_H

#include <stddef.h>

#include "results.h"

/* The bootstrap intervals: resamples and a fixed seed, so reruns of summarize agree. */
#define LB_CI_RESAMPLES 10000
#define LB_CI_SEED 0x6c6f616462656e63ULL /* "loadbenc" */

/* lb_round_run - the run of @psr in @round (the first by position), or NULL. */
const struct lb_run *lb_round_run(const struct lb_probeset_result *psr, int round);

/* lb_summary_init - set @s to "nothing known": NAN numbers, zero counts. */
void lb_summary_init(struct lb_summary *s);

struct json_object;

/*
 * lb_json_write_file - @root as pretty JSON and a newline, atomically, to
 * @name in @dirfd (AT_FDCWD: a path); @root is put (freed) in any case.
 * Returns 0, -ENOMEM (also for a NULL @root) or the -errno of the write.
 */
int lb_json_write_file(struct json_object *root, int dirfd, const char *name);

/* lb_cpu_summary_init - @s empty: not measured, every value NAN. */
void lb_cpu_summary_init(struct lb_cpu_summary *s);

/*
 * lb_summary_cpu - @psr's summary.cpu from its runs (each the sum of its
 * window, or of its on slices), the steal flags from its runs or slices.
 * Returns nothing.
 */
void lb_summary_cpu(const struct lb_results *res, struct lb_probeset_result *psr);

/* lb_lat_summary_init - @l empty: count 0, every value NAN. */
void lb_lat_summary_init(struct lb_lat_summary *l);

/*
 * lb_summary_latency - @psr's summary.latency from its runs (and, under
 * --method alternate, its slices), against the baseline's, which must be
 * summarized first (for the baseline itself: the quantiles only).
 * Returns 0 or -ENOMEM.
 */
int lb_summary_latency(const struct lb_results *res, struct lb_probeset_result *psr);

/*
 * lb_results_take_warning - append @msg (taking ownership) to @res's
 * warnings unless the same text is already there. Returns 0 or -ENOMEM.
 */
int lb_results_take_warning(struct lb_results *res, char *msg);

/*
 * lb_format_double - the shortest of %.15g, %.16g, %.17g that reads back as
 * @d (finite), in @buf.
 */
void lb_format_double(char *buf, size_t len, double d);

#endif
