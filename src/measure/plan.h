/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan of a run: which probe sets it measures, with which tracer, and
 * which it skips and why. From the probe sets named on the command line (or
 * the whole catalog), the sets their compare-with lines bring along, and the
 * skip rules, one list of entries; every measured entry knows the index of
 * its result in res->probesets, so nobody keeps a tracer array in step with
 * the results by hand.
 */
#ifndef LB_PLAN_H
#define LB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "unavailable.h"

struct lb_plan;
struct lb_probeset;
struct lb_results;
struct lb_tracer;
struct lb_tracer_opts;

/* What a plan is made from. */
struct lb_plan_request {
	const char *catalog;		/* the catalog directory */
	const char *const *specs;	/* --probeset entries: catalog names, paths or "none" */
	int nspecs;			/* 0: the default run, every catalog set that runs here */
	bool alone;			/* no sets added by compare-with lines */
	bool skip_unavailable;		/* a named set that cannot run here is skipped */
	bool no_server;			/* the workload runs no loadgen server (--workload exec):
					 * a set with a uprobe on it is skipped (default run) or
					 * refused (named) */
	const struct lb_tracer_opts *topts;
};

/* One probe set of the plan, in the order it is measured (skipped ones in place). */
struct lb_plan_entry {
	struct lb_probeset *set;
	struct lb_tracer *tracer;	/* NULL when skipped */
	int result;			/* index of its result in res->probesets; -1 when skipped */
	const char *skipped;		/* why it cannot run here; NULL when measured */
	enum lb_unavailable why;	/* that reason's code; LB_UNAVAIL_OTHER when none */
};

/*
 * lb_plan_new - load and check every probe set of @rq and create its tracer
 * (nothing in the kernel changes). The default run skips a catalog set that
 * cannot run here; with rq->skip_unavailable so does a named one that cannot
 * run here (its tracer is unavailable, or this kernel lacks what it needs),
 * but never one that is wrong anywhere. Returns 0 and sets *@out, or -errno
 * with a one-line message in @err.
 */
int lb_plan_new(const struct lb_plan_request *rq, struct lb_plan **out, char *err, size_t len);

/* lb_plan_free - destroy the tracers and free the probe sets; NULL is fine. */
void lb_plan_free(struct lb_plan *plan);

/* lb_plan_count - the number of entries, skipped ones included. */
int lb_plan_count(const struct lb_plan *plan);

/* lb_plan_measured - the number of entries measured (not skipped). */
int lb_plan_measured(const struct lb_plan *plan);

/* lb_plan_skipped - the number of entries skipped. */
int lb_plan_skipped(const struct lb_plan *plan);

/* lb_plan_entry - entry @i (0 <= @i < lb_plan_count()). */
const struct lb_plan_entry *lb_plan_entry(const struct lb_plan *plan, int i);

/* lb_plan_tracer - the tracer of the entry whose result is res->probesets[@result], or NULL. */
struct lb_tracer *lb_plan_tracer(const struct lb_plan *plan, int result);

/*
 * lb_plan_fill_results - record the plan in @res (which has no probe sets
 * yet): every measured entry as a probe-set result at its index (name,
 * tracer, description, file, text, compare-with, added-for), every skipped
 * one under "skipped" with its reason. Returns 0, -ENOMEM, or -EINVAL when
 * @res already had probe sets.
 */
int lb_plan_fill_results(const struct lb_plan *plan, struct lb_results *res);

#endif
