/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the two methods of bench/ share (run.c: runs; alternate.c: alternate). Internal. */
#ifndef LB_MEASURE_INT_H
#define LB_MEASURE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "loadgen.h"
#include "results.h"
#include "run.h"
#include "tracer.h"

/* The workload's processes (a server and a generator per flow) a tracer is told about. */
#define LB_RUN_MAX_PIDS (2 * LB_FLOWS_MAX)

/* The live progress line: shown only when stderr is a terminal. */
struct lb_progress {
	bool on;
	const char *name;	/* probe set being measured */
	int round, repeat;
	int run, nruns;		/* 1-based run number, runs in total */
	double started, total;	/* lb_now() at the start; estimated seconds in all */
};

/* lb_measure_stopped - whether a signal asked the run to stop. */
static inline bool lb_measure_stopped(const struct lb_measure *b)
{
	return b->stop && *b->stop;
}

/* lb_measure_disarm - disarm @t; its failure becomes *@ret (with @err) unless an earlier one is there. */
void lb_measure_disarm(struct lb_tracer *t, int *ret, char *err, size_t len);

/*
 * lb_measure_disarm_collect - lb_measure_disarm(), then, when nothing failed,
 * the window's counts of a tracer that reads its records back after disarm
 * (lb_tracer_collect) into @run. Returns nothing; a failure in *@ret, @err.
 */
void lb_measure_disarm_collect(struct lb_tracer *t, struct lb_run *run, int *ret, char *err,
			     size_t len);

/*
 * The kprobes of a set's tracer are checked (lb_tracer_kprobes_check()) at
 * the end of each of its first LB_KPROBE_CHECKS on slices: the kernel
 * optimizes a kprobe some milliseconds after it is armed, so the last look
 * is the one kept.
 */
#define LB_KPROBE_CHECKS 8

/*
 * lb_measure_kprobes_store - what @t knows of its kprobes (their mechanism as
 * last checked, the optimization setting) into @psr. Returns 0 or -ENOMEM.
 */
int lb_measure_kprobes_store(struct lb_probeset_result *psr, const struct lb_tracer *t);

/* lb_run_workload_counts - the workload's own counts from start to stop, @st, into @run. */
void lb_run_workload_counts(struct lb_run *run, const struct lb_workload_stats *st);

/* lb_run_tracer_counts - the tracer's counts of @run: those at @c1 less those at @c0. */
void lb_run_tracer_counts(struct lb_run *run, const struct lb_tracer_counts *c0,
			  const struct lb_tracer_counts *c1);

/*
 * lb_measure_rounds - --method runs: every round, the baseline and each set in
 * turn, one run each. Returns 0, -EINTR, or -errno with @err.
 */
/*
 * lb_measure_exec_once - one run of b->exec's command under @tracer (NULL:
 * the baseline) for set @set, round @round, into @run. Returns 0, -EINTR,
 * or -errno with @err (the command failed, timed out, or its metric is not
 * in its output; the file to read named).
 */
int lb_measure_exec_once(const struct lb_measure *b, struct lb_tracer *tracer, const char *set,
		       int round, struct lb_run *run, char *err, size_t len);

int lb_measure_rounds(const struct lb_measure *b, struct lb_results *res, struct lb_progress *p,
		    char *err, size_t len);

/*
 * lb_measure_alternate - --method alternate: each group in one running
 * workload. Returns 0, -EINTR, or -errno with @err (naming the set).
 */
int lb_measure_alternate(const struct lb_measure *b, struct lb_results *res, struct lb_progress *p,
		       char *err, size_t len);

#endif
