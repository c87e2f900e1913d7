// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --method alternate: each group of probe sets in one running workload,
 * switched off and on in mirrored slices (units) until the CIs are narrow
 * enough or the time is up, with plain slices (nothing armed) before arm
 * and after disarm. run.c has the runs method and the entry point.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "measure_int.h"
#include "budget.h"
#include "cpu.h"
#include "hist.h"
#include "loadgen.h"
#include "plan.h"
#include "results.h"
#include "run.h"
#include "stats.h"
#include "tracer.h"
#include "util.h"

/*
 * Resamples of the stopping rule's check (the summary's final CI uses
 * 10,000), and the margin it keeps below --precision so that the final CI,
 * with its own resampling error, is within it too.
 */
#define LB_ALT_CHECK_RESAMPLES 2000
#define LB_ALT_CHECK_MARGIN 0.97

int lb_measure_groups(const struct lb_results *res, int *group)
{
	int n = 0;

	for (size_t i = 0; i < res->nprobesets; i++)
		group[i] = -1;
	for (size_t i = 0; i < res->nprobesets; i++) {
		const char *base = res->probesets[i].compare_with;

		if (group[i] >= 0)
			continue;
		/* A set that builds on another present here joins that one's group. */
		for (size_t j = 0; base && j < res->nprobesets; j++) {
			if (j != i && res->probesets[j].name && !strcmp(res->probesets[j].name, base)) {
				if (group[j] < 0)
					group[j] = n++;
				group[i] = group[j];
				break;
			}
		}
		if (group[i] < 0)
			group[i] = n++;
		/* And every later set that builds on this one. */
		for (size_t j = i + 1; j < res->nprobesets; j++) {
			const char *bj = res->probesets[j].compare_with;

			if (group[j] < 0 && bj && res->probesets[i].name &&
			    !strcmp(bj, res->probesets[i].name))
				group[j] = group[i];
		}
	}
	return n;
}

/* One alternation: the sets of one group armed in one running workload. */
struct alt {
	const struct lb_measure *b;
	struct lb_results *res;
	int member[LB_MAX_PROBESETS];	/* indices in res->probesets */
	int n;
	int cur;			/* member on, -1 = all off */
	double max_time;		/* seconds of alternation at most: --max-time, or less */
	/*
	 * The least units it ends with past max_time: 2 (an interval at all),
	 * or LB_ALT_MIN_UNITS in the first pass of a --time-budget (its share
	 * is less than --max-time, which still bounds it): a set with a slow
	 * switch goes on to a CI to be trusted rather than be armed again
	 * later in a top-up, whose set-up would cost 2.5-4 s more.
	 */
	int min_used;
	/*
	 * In a budget's first pass, what a top-up's re-arm would cost (the
	 * mean set-up of the groups before): the units short of min_used at
	 * the hard cap are finished when they take less (lb_budget_finish).
	 * 0 elsewhere: the hard cap holds.
	 */
	double rearm_s;
	bool armed;			/* the members are armed (else: plain slices) */
	struct lb_slice *slices;
	size_t nslices, cap;
	/*
	 * Every member's counts at both edges of every slice:
	 * counts[(slice * n + member) * 2 + edge]. Each member is read at
	 * every edge, so its i-th snapshot since arm is entry i of its own
	 * sequence, which collect can replace.
	 */
	struct lb_tracer_counts *counts;
	double origin;			/* lb_now() at the first slice */
	/*
	 * lb_now() when the units began: --max-time bounds the units, not the
	 * arm before them (a ring-buffer resize waits for a kworker on every
	 * CPU, seconds on a busy machine).
	 */
	double units_start;
	unsigned long long rng;
	int unit_base;			/* the number of this alternation's first unit */
	double start_base;		/* its first slice's start (after the group's earlier ones) */
	int used_before;		/* units used in the group's earlier alternations */
	int nplain;			/* plain slices before arm and after disarm */
	int kchecks[LB_MAX_PROBESETS];	/* kprobe checks done per member (LB_KPROBE_CHECKS) */
	/*
	 * When the workload times its operations: its histogram at a slice's
	 * two edges, and each slice's latencies (slat[i] for slices[i]),
	 * summed by state when the alternation is stored.
	 */
	struct lb_hist *lat;
	struct lb_latency *slat;
	struct lb_tracer *tracers[LB_MAX_PROBESETS]; /* the members' tracers, for the CPU */
};

static struct lb_tracer *alt_tracer(const struct alt *a, int k)
{
	return lb_plan_tracer(a->b->plan, a->member[k]);
}

/*
 * The workload's word that this process is back within @seconds (and
 * LB_ALT_OVERDUE more): past it, blocked in the kernel, it naps so that the
 * kernel's threads run (lb_workload_expect()).
 */
static void alt_expect(const struct alt *a, double seconds)
{
	lb_workload_expect(a->b->workload, seconds + LB_ALT_OVERDUE);
}

/* Switch from the current state to @state (-1 = off); *@took gets the seconds it took. */
static int alt_switch(struct alt *a, int state, double *took, char *err, size_t len)
{
	double t0 = lb_now();
	int ret = 0;

	*took = 0;
	if (state == a->cur || state == LB_SLICE_PLAIN)
		return 0;
	if (a->cur >= 0) {
		ret = lb_tracer_disable(alt_tracer(a, a->cur), err, len);
		if (ret)
			return ret;
		a->cur = -1;
	}
	if (state >= 0) {
		ret = lb_tracer_enable(alt_tracer(a, state), err, len);
		if (ret)
			return ret;
		a->cur = state;
	}
	*took = lb_now() - t0;
	return 0;
}

/*
 * A slice edge: as window_edge(), with every tracer of the group read
 * between the two reads, and the latency histogram copied into @lat (when
 * not NULL); *@late gets the requests sent late so far (--rate).
 */
static int alt_edge(struct alt *a, struct lb_hist *lat, double *t, uint64_t *ops,
		    uint64_t *spread, uint64_t *late, struct lb_tracer_counts *c, char *err,
		    size_t len)
{
	double ta = lb_now();
	uint64_t oa = lb_workload_ops(a->b->workload), ob;

	memset(c, 0, a->n * sizeof(*c));
	for (int k = 0; k < a->n && a->armed; k++) {
		int ret = lb_tracer_snapshot(alt_tracer(a, k), &c[k]);

		if (ret) {
			snprintf(err, len, "cannot read the tracer's counts: %s",
				 lb_tracer_why(alt_tracer(a, k), ret));
			return ret;
		}
	}
	if (lat)
		lb_workload_latency(a->b->workload, lat);
	ob = lb_workload_ops(a->b->workload);
	*late = lb_workload_late(a->b->workload);
	*t = (ta + lb_now()) / 2;
	*ops = oa + (ob - oa) / 2;
	*spread = ob - oa;
	return 0;
}

/* Switch to @state, let it settle, measure one slice of unit @unit and append it. */
static int alt_slice(struct alt *a, int unit, int state, char *err, size_t len)
{
	const struct lb_measure *b = a->b;
	struct lb_tracer_counts c0[LB_MAX_PROBESETS], c1[LB_MAX_PROBESETS], *cs;
	uint64_t ops0, ops1, sp0, sp1, late0, late1;
	struct lb_slice sl = { .unit = unit < 0 ? unit : unit + a->unit_base };
	struct lb_cpu_snap cpu0, cpu1;
	double took, t0, t1;
	int ret;

	alt_expect(a, b->settle);
	ret = alt_switch(a, state, &took, err, len);
	if (ret)
		return ret;
	alt_expect(a, b->settle);
	if (!lb_sleep_until(lb_now() + b->settle, b->stop))
		return -EINTR;
	ret = alt_edge(a, a->lat ? &a->lat[0] : NULL, &t0, &ops0, &sp0, &late0, c0, err, len);
	if (ret)
		return ret;
	lb_cpu_snap_take(b->workload, a->tracers, a->armed ? a->n : 0, &cpu0);
	if (!a->nslices && !a->origin)
		a->origin = t0;
	alt_expect(a, b->slice);
	if (!lb_sleep_until(t0 + b->slice, b->stop))
		return -EINTR;
	ret = alt_edge(a, a->lat ? &a->lat[1] : NULL, &t1, &ops1, &sp1, &late1, c1, err, len);
	if (ret)
		return ret;
	lb_cpu_snap_take(b->workload, a->tracers, a->armed ? a->n : 0, &cpu1);
	lb_cpu_snap_diff(&cpu0, &cpu1, &sl.cpu);
	/* After the window, before the next switch: the set is still on. */
	if (state >= 0 && a->kchecks[state] < LB_KPROBE_CHECKS) {
		char why[256];

		a->kchecks[state]++;
		lb_tracer_kprobes_check(alt_tracer(a, state), why, sizeof(why));
	}
	sl.on = state < 0 ? state : a->member[state];
	sl.start = t0 - a->origin + a->start_base;
	sl.seconds = t1 - t0;
	sl.switch_s = took;
	sl.ops = ops1 - ops0;
	sl.late = late1 - late0;
	sl.edge_spread_ops = sp0 > sp1 ? sp0 : sp1;
	/* Whether it is dropped: lb_slices_mark_dropped(), against the other slices' edges. */
	if (a->nslices == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		struct lb_slice *arr = realloc(a->slices, cap * sizeof(*arr));

		if (!arr)
			return -ENOMEM;
		a->slices = arr;
		cs = realloc(a->counts, cap * a->n * 2 * sizeof(*cs));
		if (!cs)
			return -ENOMEM;
		a->counts = cs;
		if (a->lat) {
			struct lb_latency *sl_lat = realloc(a->slat, cap * sizeof(*sl_lat));

			if (!sl_lat)
				return -ENOMEM;
			a->slat = sl_lat;
			memset(a->slat + a->cap, 0, (cap - a->cap) * sizeof(*sl_lat));
		}
		a->cap = cap;
	}
	if (a->lat) {
		struct lb_latency *l = &a->slat[a->nslices];

		lb_hist_sub(&a->lat[1], &a->lat[1], &a->lat[0]);
		ret = lb_latency_set(l, &a->lat[1]);
		if (ret)
			return ret;
		sl.lat_count = l->count;
		memcpy(sl.lat_ns, l->ns, sizeof(sl.lat_ns));
	} else {
		for (int q = 0; q < LB_LAT_NQ; q++)
			sl.lat_ns[q] = NAN;
	}
	cs = &a->counts[a->nslices * a->n * 2];
	for (int k = 0; k < a->n; k++) {
		cs[2 * k] = c0[k];
		cs[2 * k + 1] = c1[k];
	}
	a->slices[a->nslices++] = sl;
	return 0;
}

/*
 * After disarm: the counts of the members that read theirs back replace
 * their snapshots (both edges of every slice measured while armed, in
 * order), then every slice gets its events: the on member's, and what the
 * others counted meanwhile (off_events, which must be none).
 */
static int alt_count(struct alt *a, char *err, size_t len)
{
	struct lb_tracer_counts *at = calloc(2 * a->nslices + 1, sizeof(*at));
	size_t narmed = 0;
	int ret = 0;

	if (!at)
		return -ENOMEM;
	for (size_t i = 0; i < a->nslices; i++)
		narmed += a->slices[i].on != LB_SLICE_PLAIN;
	for (int k = 0; k < a->n && !ret && narmed; k++) {
		int cret = lb_tracer_collect(alt_tracer(a, k), at, 2 * narmed, err, len);

		if (cret < 0)
			ret = cret;
		for (size_t i = 0, j = 0; cret > 0 && i < a->nslices; i++) {
			if (a->slices[i].on == LB_SLICE_PLAIN)
				continue;
			a->counts[(i * a->n + k) * 2] = at[j++];
			a->counts[(i * a->n + k) * 2 + 1] = at[j++];
		}
	}
	free(at);
	for (size_t i = 0; i < a->nslices && !ret; i++) {
		struct lb_slice *sl = &a->slices[i];

		sl->off_events = 0;
		if (sl->on == LB_SLICE_PLAIN)
			continue;
		for (int k = 0; k < a->n; k++) {
			const struct lb_tracer_counts *c0 = &a->counts[(i * a->n + k) * 2], *c1 = c0 + 1;
			uint64_t ev = c1->events - c0->events;

			if (sl->on == a->member[k]) {
				sl->events = ev;
				sl->lost_events = c1->lost - c0->lost;
				sl->overwritten_events = c1->overwritten - c0->overwritten;
				sl->read_events = c1->read - c0->read;
				sl->bpf_runs = c1->bpf_runs - c0->bpf_runs;
				sl->bpf_run_ns = c1->bpf_run_ns - c0->bpf_run_ns;
			} else {
				sl->off_events += ev;
			}
		}
	}
	return ret;
}

/*
 * The widest 95% CI half-width of the group's slowdowns and of each set
 * against its base, over the units of its earlier alternations (stored in
 * the results) and of this one's first @ncur slices.
 */
static double alt_widest(const struct alt *a, size_t ncur)
{
	size_t nstored = a->res->probesets[a->member[0]].nslices, max = nstored + ncur + 1;
	double *r = malloc(max * sizeof(*r)), widest = 0, lo, hi;

	if (!r)
		return INFINITY;
	for (int k = 0; k < a->n; k++) {
		const struct lb_probeset_result *psr = &a->res->probesets[a->member[k]];
		const char *base = psr->compare_with;
		int refs[2] = { -1, -2 };

		for (int j = 0; base && j < a->n; j++)
			if (!strcmp(a->res->probesets[a->member[j]].name, base))
				refs[1] = a->member[j];
		for (int i = 0; i < 2; i++) {
			size_t n;

			if (refs[i] == -2)
				continue;
			n = lb_slices_unit_ratios(psr->slices, psr->nslices, a->member[k], refs[i], r,
						  max);
			n += lb_slices_unit_ratios(a->slices, ncur, a->member[k], refs[i], r + n,
						   max - n);
			if (n < 2 || lb_stats_block_ci95(r, n, LB_ALT_CHECK_RESAMPLES, 1, &lo, &hi)) {
				widest = INFINITY;
				continue;
			}
			if ((hi - lo) / 2 > widest)
				widest = (hi - lo) / 2;
		}
	}
	free(r);
	return widest;
}

static void alt_progress(const struct alt *a, const struct lb_progress *p, int units, double widest)
{
	struct winsize ws;
	char line[256], names[128] = "";
	int width = sizeof(line) - 1;
	size_t off = 0;

	if (!p->on)
		return;
	for (int k = 0; k < a->n && off < sizeof(names); k++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", k ? " vs " : "",
				a->res->probesets[a->member[k]].name);
	if (a->used_before && off < sizeof(names))
		snprintf(names + off, sizeof(names) - off, " (top-up)");
	if (isfinite(widest))
		snprintf(line, sizeof(line), "loadbench: %s, alternating: %d units, CI +-%.2f pp "
			 "(asked %.2f), %.0f s of at most %.0f s", names, units, widest,
			 a->b->precision, lb_now() - a->units_start, a->max_time);
	else
		snprintf(line, sizeof(line), "loadbench: %s, alternating: %d units, %.0f s of at "
			 "most %.0f s", names, units, lb_now() - a->units_start, a->max_time);
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 && ws.ws_col - 1 < width)
		width = ws.ws_col - 1;
	fprintf(stderr, "\r\033[K%.*s", width, line);
	fflush(stderr);
}

/* Units of mirrored slices until every CI is narrow enough or the time is up. */
static int alt_units(struct alt *a, const struct lb_progress *p, char *err, size_t len)
{
	const struct lb_measure *b = a->b;
	int order[LB_MAX_PROBESETS + 1], nstates = a->n + 1, ret;

	a->units_start = lb_now();
	for (int unit = 0;; unit++) {
		double widest = INFINITY, elapsed;
		int used;

		for (int i = 0; i < nstates; i++)
			order[i] = i - 1;
		for (int i = nstates - 1; i > 0; i--) {
			int j = (int)lb_stats_rand_below(&a->rng, (size_t)i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		for (int i = 0; i < 2 * nstates; i++) {
			int state = i < nstates ? order[i] : order[2 * nstates - 1 - i];

			ret = alt_slice(a, unit, state, err, len);
			if (ret)
				return ret;
		}
		used = lb_slices_mark_dropped(a->slices, a->nslices) + a->used_before;
		if (used >= LB_ALT_MIN_UNITS)
			widest = alt_widest(a, a->nslices);
		alt_progress(a, p, used, widest);
		elapsed = lb_now() - a->units_start;
		/*
		 * Two units used at least (min_used), past --max-time too (one
		 * gives no interval at all), but not past LB_ALT_MAX_TIME_HARD
		 * times it, unless the few units short of min_used cost less
		 * than arming the group again for them; a budget's share is
		 * left at min_used units, or at --max-time with 2.
		 */
		if (widest <= LB_ALT_CHECK_MARGIN * b->precision ||
		    (used >= a->min_used && elapsed >= a->max_time) ||
		    (used >= 2 && elapsed >= b->max_time) ||
		    (unit >= 1 && elapsed >= LB_ALT_MAX_TIME_HARD * a->max_time &&
		     !lb_budget_finish(used, a->min_used, elapsed,
				       LB_ALT_MAX_TIME_HARD * a->max_time, a->rearm_s)))
			return 0;
	}
}

/*
 * Hand the alternation to the results: every member gets all its slices and
 * one run, its on slices summed, in round @round; the baseline gets one run
 * of that round, the plain slices summed.
 */
static int alt_store(struct alt *a, int round, const struct lb_workload_stats *st)
{
	for (int k = -1; k < a->n; k++) {
		struct lb_probeset_result *psr = k < 0 ? &a->res->baseline :
						 &a->res->probesets[a->member[k]];
		const char *residue = k < 0 ? NULL : lb_tracer_off_residue(alt_tracer(a, k));
		int on = k < 0 ? LB_SLICE_PLAIN : a->member[k];
		struct lb_run run = { .round = round };
		size_t nsamples = 0;
		int ret;

		run.samples = calloc(a->nslices + 1, sizeof(double));
		if (!run.samples)
			return -ENOMEM;
		for (size_t i = 0; i < a->nslices; i++) {
			const struct lb_slice *sl = &a->slices[i];

			if (sl->on != on || sl->dropped)
				continue;
			run.seconds += sl->seconds;
			run.ops += sl->ops;
			run.late += sl->late;
			lb_cpu_add(&run.cpu, &sl->cpu);
			run.events += sl->events;
			run.lost_events += sl->lost_events;
			run.overwritten_events += sl->overwritten_events;
			run.read_events += sl->read_events;
			run.bpf_runs += sl->bpf_runs;
			run.bpf_run_ns += sl->bpf_run_ns;
			if (sl->edge_spread_ops > run.edge_spread_ops)
				run.edge_spread_ops = sl->edge_spread_ops;
			if (sl->seconds > 0)
				run.samples[nsamples++] = sl->ops / sl->seconds;
		}
		run.nsamples = nsamples;
		if (a->lat) {
			/* The state's latencies: its slices' histograms summed (a->lat[0] is free now). */
			memset(&a->lat[0], 0, sizeof(a->lat[0]));
			for (size_t i = 0; i < a->nslices; i++) {
				if (a->slices[i].on == on && !a->slices[i].dropped)
					lb_latency_add_to(&a->slat[i], &a->lat[0]);
			}
			if (lb_latency_set(&run.latency, &a->lat[0])) {
				free(run.samples);
				return -ENOMEM;
			}
		}
		run.sample_interval = a->b->slice;
		run.throughput = run.seconds > 0 ? run.ops / run.seconds : 0;
		lb_run_workload_counts(&run, st);
		/* The workload's own counts span the whole alternation, as a run's span its run. */
		run.flow_ops = st->nflows > 0 ? (uint64_t *)st->flow_ops : NULL;
		run.nflow_ops = st->nflows > 0 ? (size_t)st->nflows : 0;
		ret = lb_probeset_result_add_run(psr, &run);
		free(run.samples);
		lb_latency_release(&run.latency);
		if (!ret && k >= 0)
			ret = lb_probeset_result_add_slices(psr, a->slices, a->nslices);
		if (!ret && residue && !psr->off_residue && !(psr->off_residue = strdup(residue)))
			ret = -ENOMEM;
		if (!ret && k >= 0)
			ret = lb_measure_kprobes_store(psr, alt_tracer(a, k));
		if (ret)
			return ret;
	}
	return 0;
}

/* The plain slices before arm or after disarm; 0 or -errno (-EINTR). */
static int alt_plain(struct alt *a, char *err, size_t len)
{
	for (int i = 0; i < a->nplain; i++) {
		int ret = alt_slice(a, -1, LB_SLICE_PLAIN, err, len);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * @o after alternation @a, stored, which used @used units in @units_s
 * seconds and spent @setup_s outside them.
 */
static void alt_outcome_update(const struct alt *a, struct lb_alt_outcome *o, int used,
			       double units_s, double setup_s)
{
	const struct lb_slice *last = &a->slices[a->nslices - 1];

	o->alternations++;
	o->units_s += units_s;
	o->setup_s = setup_s;
	o->used = a->used_before + used;
	for (size_t i = 0; i < a->nslices; i++)
		if (a->slices[i].unit >= o->next_unit)
			o->next_unit = a->slices[i].unit + 1;
	/* A second's gap between alternations, where the figure draws them one after the other. */
	o->next_start = last->start + last->seconds + 1;
	/* Over the stored slices alone: this alternation's are among them now. */
	o->widest = o->used >= 2 ? alt_widest(a, 0) : INFINITY;
}

/*
 * One group, in one running workload: plain slices, the group's tracers
 * armed, switched off, warmed up and alternated, then disarmed, and plain
 * slices again. The plain slices are the group's baseline run, and what its
 * off slices are held against (they bracket the alternation in time, so a
 * linear drift cancels). A group measured before (@o->alternations > 0: a
 * top-up) goes on where it stopped: its units numbered after the earlier
 * ones, its CI over them all. The run of each set and of the baseline is
 * round @round; @o is brought up to date.
 */
static int alt_group(const struct lb_measure *b, struct lb_results *res, const int *group, int g,
		     double max_time, int round, struct lb_alt_outcome *o, struct lb_progress *p,
		     char *err, size_t len)
{
	struct lb_workload_stats st = {0};
	struct alt a = { .b = b, .res = res, .cur = -1, .max_time = max_time,
			 .unit_base = o->next_unit, .start_base = o->next_start,
			 .used_before = o->alternations ? o->used : 0,
			 .nplain = o->alternations ? LB_ALT_TOPUP_PLAIN : LB_ALT_PLAIN_SLICES,
			 .min_used = !o->alternations && b->time_budget > 0 &&
				     max_time < b->max_time ? LB_ALT_MIN_UNITS : 2 };
	int armed = 0, ret, sret;
	double t0, tg = lb_now(), units_s;

	if (a.min_used == LB_ALT_MIN_UNITS)
		a.rearm_s = o->setup_s;
	for (size_t i = 0; i < res->nprobesets; i++)
		if (group[i] == g)
			a.member[a.n++] = (int)i;
	for (int k = 0; k < a.n; k++)
		a.tracers[k] = alt_tracer(&a, k);
	a.rng = 0x6c62616c74ULL + (unsigned long long)round * 7919 + (unsigned long long)getpid();
	p->round = round;
	p->run++;
	if (!lb_workload_latency_off(b->workload)) {
		a.lat = calloc(2, sizeof(*a.lat));
		if (!a.lat)
			return -ENOMEM;
	}

	ret = lb_workload_start(b->workload);
	if (ret) {
		snprintf(err, len, "%s", lb_workload_error(b->workload));
		return ret;
	}
	alt_expect(&a, b->warmup);
	if (!lb_sleep_until(lb_now() + b->warmup, b->stop))
		ret = -EINTR;
	if (!ret)
		ret = alt_plain(&a, err, len);
	/* Arming, attaching, switching off: the workload's word is given before each. */
	for (; !ret && armed < a.n; armed++) {
		alt_expect(&a, 0);
		ret = lb_tracer_arm(alt_tracer(&a, armed), err, len);
	}
	a.armed = armed > 0;
	if (!ret) {
		pid_t pids[LB_RUN_MAX_PIDS];
		int npids = lb_workload_pids(b->workload, pids, LB_RUN_MAX_PIDS);

		for (int k = 0; k < a.n && !ret; k++) {
			alt_expect(&a, 0);
			ret = lb_tracer_attach(alt_tracer(&a, k), pids, npids, err, len);
		}
		/* Armed is on: all off before the warm-up. */
		for (int k = 0; k < a.n && !ret; k++) {
			alt_expect(&a, 0);
			ret = lb_tracer_disable(alt_tracer(&a, k), err, len);
		}
	}
	alt_expect(&a, b->warmup);
	if (!ret && !lb_sleep_until(lb_now() + b->warmup, b->stop))
		ret = -EINTR;
	t0 = lb_now();
	if (!ret)
		ret = alt_units(&a, p, err, len);
	units_s = lb_now() - t0;
	/* Disarmed with the workload still running, for the plain slices after. */
	while (armed-- > 0) {
		alt_expect(&a, 0);
		lb_measure_disarm(alt_tracer(&a, armed), &ret, err, len);
	}
	a.armed = false;
	a.cur = -1;
	if (!ret)
		ret = alt_plain(&a, err, len);
	lb_workload_expect(b->workload, 0);
	sret = lb_workload_stop(b->workload, &st);
	if (sret && !ret) {
		ret = sret;
		snprintf(err, len, "%s", lb_workload_error(b->workload));
	}
	/* What was measured is kept, also when interrupted. */
	if ((!ret || ret == -EINTR) && a.nslices) {
		int sr = alt_count(&a, err, len), used = 0;

		/* After the count: a slice in which an off set counted events goes too. */
		if (!sr)
			used = lb_slices_mark_dropped(a.slices, a.nslices);
		if (!sr)
			sr = alt_store(&a, round, &st);
		if (sr)
			ret = sr;
		else
			alt_outcome_update(&a, o, used, units_s, lb_now() - tg - units_s);
	}
	free(a.slices);
	free(a.counts);
	for (size_t i = 0; a.slat && i < a.nslices; i++)
		lb_latency_release(&a.slat[i]);
	free(a.slat);
	free(a.lat);
	return ret;
}

/* An alternation of group @g failed with @err: the message names its first set. */
static void alt_name_failure(const struct lb_results *res, const int *group, int g, char *err,
			     size_t len)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", err);
	for (size_t i = 0; i < res->nprobesets; i++) {
		if (group[i] == g) {
			snprintf(err, len, "%s: %s", res->probesets[i].name, msg);
			break;
		}
	}
}

int lb_measure_alternate(const struct lb_measure *b, struct lb_results *res, struct lb_progress *p,
			   char *err, size_t len)
{
	int group[LB_MAX_PROBESETS], ngroups = lb_measure_groups(res, group), ret, round = 0;
	struct lb_alt_outcome o[LB_MAX_PROBESETS];
	struct lb_budget bg = { .time_budget = b->time_budget, .max_time = b->max_time,
				.target = LB_ALT_CHECK_MARGIN * b->precision };
	double start = lb_now(), setup = 0, seconds;

	for (int g = 0; g < ngroups; g++)
		o[g] = (struct lb_alt_outcome){ .widest = INFINITY };
	for (int g = 0; g < ngroups; g++) {
		double tg = lb_now(), units_s = o[g].units_s;

		/* Its set-up, until measured: what the groups before spent on theirs. */
		o[g].setup_s = lb_budget_setup(g, setup);
		ret = alt_group(b, res, group, g, lb_budget_share(&bg, g, ngroups, tg - start, setup),
				++round, &o[g], p, err, len);
		setup += lb_now() - tg - (o[g].units_s - units_s);
		if (ret == -EINTR || (ret && lb_measure_stopped(b)))
			return -EINTR;
		if (ret) {
			alt_name_failure(res, group, g, err, len);
			return ret;
		}
		if (lb_measure_stopped(b))
			return -EINTR;
	}
	/* The budget's rest: top-ups, while one is worth its set-up. */
	for (int g; (g = lb_budget_topup(&bg, o, ngroups, b->time_budget - (lb_now() - start),
					 &seconds)) >= 0;) {
		ret = alt_group(b, res, group, g, seconds, ++round, &o[g], p, err, len);
		if (ret == -EINTR || (ret && lb_measure_stopped(b)))
			return -EINTR;
		if (ret) {
			alt_name_failure(res, group, g, err, len);
			return ret;
		}
		if (lb_measure_stopped(b))
			return -EINTR;
	}
	/* The baseline alone (--probeset none): its runs, as under --method runs. */
	if (!ngroups)
		return lb_measure_rounds(b, res, p, err, len);
	return 0;
}
