// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both methods do with a tracer and a run's counts: the tracer's and
 * the workload's counts into a run, its kprobes into the results, disarm
 * (and collect what a tracer reads back only then). The bottom of the
 * folder's measuring files: it calls none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen.h"
#include "measure_int.h"
#include "results.h"
#include "tracer.h"

/* The tracer's counts of a run: those at @c1 less those at @c0. */
void lb_run_tracer_counts(struct lb_run *run, const struct lb_tracer_counts *c0,
			  const struct lb_tracer_counts *c1)
{
	run->events = c1->events - c0->events;
	run->lost_events = c1->lost - c0->lost;
	run->overwritten_events = c1->overwritten - c0->overwritten;
}

/* The workload's own counts from its start to its stop, @st, in @run. */
void lb_run_workload_counts(struct lb_run *run, const struct lb_workload_stats *st)
{
	run->timeouts = st->timeouts;
	run->sent = st->sent;
	run->received = st->received;
	run->dropped = st->dropped;
	run->mismatches = st->mismatches;
}

/* How the kernel placed a kprobe, in the results' words. */
static enum lb_kprobe_mech kprobe_mech(enum lb_kprobe_seen s)
{
	switch (s) {
	case LB_SEEN_BREAKPOINT:
		return LB_KPROBE_BREAKPOINT;
	case LB_SEEN_FTRACE:
		return LB_KPROBE_FTRACE;
	case LB_SEEN_OPTIMIZED:
		return LB_KPROBE_OPTIMIZED;
	case LB_SEEN_DISABLED:
		return LB_KPROBE_DISABLED;
	default:
		return LB_KPROBE_UNKNOWN;
	}
}

int lb_measure_kprobes_store(struct lb_probeset_result *psr, const struct lb_tracer *t)
{
	const struct lb_tracer_kprobe *k;
	const char *source;
	size_t n;
	int before, opt = lb_tracer_kprobe_opt(t, &before), ret;

	k = lb_tracer_kprobes(t, &n, &source);
	lb_kprobes_info_release(&psr->kprobes);
	psr->kprobes.optimization = opt;
	psr->kprobes.optimization_before = before;
	if (source && !(psr->kprobes.source = strdup(source)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ret = lb_kprobes_info_add(&psr->kprobes, k[i].symbol, k[i].offset, k[i].ret,
					  kprobe_mech(k[i].seen));
		if (ret)
			return ret;
	}
	return 0;
}

void lb_measure_disarm_collect(struct lb_tracer *t, struct lb_run *run, int *ret, char *err,
			     size_t len)
{
	struct lb_tracer_counts at[2];
	int cret;

	lb_measure_disarm(t, ret, err, len);
	if (*ret)
		return;
	/* A tracer that reads its records back only now: the window's counts are these. */
	cret = lb_tracer_collect(t, at, 2, err, len);
	if (cret < 0)
		*ret = cret;
	else if (cret > 0)
		lb_run_tracer_counts(run, &at[0], &at[1]);
}

void lb_measure_disarm(struct lb_tracer *t, int *ret, char *err, size_t len)
{
	int dret = lb_tracer_disarm(t);

	if (dret && !*ret) {
		*ret = dret;
		snprintf(err, len, "cannot remove the %s tracer's kernel state: %s: run "
			 "'loadbench cleanup' once loadbench has exited", lb_tracer_name(t),
			 strerror(-dret));
	}
}
