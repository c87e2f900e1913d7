// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Summary statistics of a result set: each probe set's throughput, slowdown
 * against the baseline with its bootstrap interval, events per operation
 * and nanoseconds per event, from its runs (--method runs: paired with the
 * baseline's run of the same round) or from its slices (--method
 * alternate: unit by unit, the dropped slices left out); the warnings those
 * numbers call for; the two throughputs a slowdown compares; and a probe
 * set beside the set it builds on. Over 600 lines: both methods and the
 * pairing share the round lookup and the bootstrap's constants, and split
 * they would need them in a header.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "results_int.h"
#include "stats.h"
#include "util.h"

#define LB_EDGE_WARN_PCT 1.0	/* edge spread, % of a run's operations, worth a warning */

/* The baseline's CV (in %) above which every result is flagged as noisy. */
#define LB_CV_WARN_PCT 5.0
/*
 * --method runs: a percentile bootstrap over fewer paired rounds than this
 * gives an interval that holds the slowdown well below 95% of the time
 * (with 3 rounds it can only span what those rounds gave): said, kept.
 */
#define LB_CI_MIN_ROUNDS 5

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median length of the slices of @s of one kind (@plain or armed), 0
 * when there is none or no memory (then no slice counts as long).
 */
static double median_seconds(const struct lb_slice *s, size_t n, bool plain)
{
	double *v = malloc((n + 1) * sizeof(*v)), med;
	size_t k = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((s[i].on == LB_SLICE_PLAIN) == plain && s[i].ops)
			v[k++] = s[i].seconds;
	med = k ? lb_stats_median(v, k) : 0;
	free(v);
	return med;
}

/* Whether slice @sl ran much longer than the slices of its kind (median @med): held up. */
static bool slice_long(const struct lb_slice *sl, double med)
{
	return med > 0 && sl->seconds > LB_ALT_SLICE_LONG * med;
}

int lb_slices_mark_dropped(struct lb_slice *s, size_t n)
{
	uint64_t *sp = malloc((n + 1) * sizeof(*sp)), med[2] = { 0, 0 };
	double medsec[2] = { median_seconds(s, n, false), median_seconds(s, n, true) };
	int used = 0, unit = -1;
	bool unit_dropped = false;

	/* Without memory for the medians, the share alone decides (med 0). */
	for (int plain = 0; plain < 2 && sp; plain++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if ((s[i].on == LB_SLICE_PLAIN) == plain)
				sp[k++] = s[i].edge_spread_ops;
		if (k) {
			qsort(sp, k, sizeof(*sp), cmp_u64);
			med[plain] = sp[k / 2];
		}
	}
	free(sp);
	for (size_t i = 0; i < n; i++) {
		double edge = (double)s[i].edge_spread_ops;
		bool plain = s[i].on == LB_SLICE_PLAIN;

		s[i].dropped = !s[i].ops || (edge > LB_ALT_EDGE_DROP * (double)s[i].ops &&
					     edge > LB_ALT_EDGE_OUTLIER * (double)med[plain]) ||
			       slice_long(&s[i], medsec[plain]) || (!plain && s[i].off_events);
		if (plain)
			continue;
		if (s[i].unit != unit) {
			used += unit >= 0 && !unit_dropped;
			unit = s[i].unit;
			unit_dropped = false;
		}
		unit_dropped |= s[i].dropped;
	}
	return used + (unit >= 0 && !unit_dropped);
}

size_t lb_slices_unit_ratios(const struct lb_slice *s, size_t n, int on, int ref, double *out,
			     size_t max)
{
	size_t i = 0, got = 0;

	while (i < n && got < max) {
		double on_ops = 0, on_s = 0, ref_ops = 0, ref_s = 0;
		bool dropped = false;
		int unit = s[i].unit;

		for (; i < n && s[i].unit == unit; i++) {
			dropped |= s[i].dropped;
			if (s[i].on == on) {
				on_ops += s[i].ops;
				on_s += s[i].seconds;
			} else if (s[i].on == ref) {
				ref_ops += s[i].ops;
				ref_s += s[i].seconds;
			}
		}
		if (dropped || !(on_s > 0) || !(ref_s > 0) || !(ref_ops > 0))
			continue;
		out[got++] = (on_ops / on_s) / (ref_ops / ref_s);
	}
	return got;
}

/*
 * A probe set's runs by round, then by position: lb_rounds_find() gives the
 * run lb_round_run() would, without going through every run for each
 * lookup (runs x runs when each run of a set looks up its baseline's).
 */
struct lb_rounds {
	const struct lb_run **run;
	size_t n;
};

static int lb_cmp_run_round(const void *a, const void *b)
{
	const struct lb_run *x = *(const struct lb_run *const *)a;
	const struct lb_run *y = *(const struct lb_run *const *)b;

	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return (x > y) - (x < y);
}

/* @psr's runs sorted into @r (free r->run). Returns 0 or -ENOMEM. */
static int lb_rounds_init(struct lb_rounds *r, const struct lb_probeset_result *psr)
{
	size_t i;

	r->n = psr->nruns;
	r->run = malloc((r->n ? r->n : 1) * sizeof(*r->run));
	if (!r->run)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		r->run[i] = &psr->runs[i];
	qsort(r->run, r->n, sizeof(*r->run), lb_cmp_run_round);
	return 0;
}

/* The first run (by position) of @round in @r, or NULL. */
static const struct lb_run *lb_rounds_find(const struct lb_rounds *r, int round)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->run[mid]->round < round)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->run[lo]->round == round ? r->run[lo] : NULL;
}

/*
 * @psr's runs paired with the runs of @r in the same round: the throughputs
 * into @pt and @pb (room for psr->nruns each). Returns how many pairs.
 */
static size_t lb_rounds_pair(const struct lb_rounds *r, const struct lb_probeset_result *psr,
			     double *pb, double *pt)
{
	size_t n = 0;

	for (size_t i = 0; i < psr->nruns; i++) {
		const struct lb_run *br = lb_rounds_find(r, psr->runs[i].round);

		if (!br)
			continue;
		pb[n] = br->throughput;
		pt[n++] = psr->runs[i].throughput;
	}
	return n;
}

/* What a probe set's own runs give: throughput median and CV, events per op, sums. */
static void lb_summary_own(struct lb_probeset_result *psr, double *scratch)
{
	struct lb_summary *s = &psr->summary;
	size_t i, n = 0;

	lb_summary_init(s);
	for (i = 0; i < psr->nruns; i++) {
		scratch[i] = psr->runs[i].throughput;
		s->events += psr->runs[i].events;
		s->lost_events += psr->runs[i].lost_events;
		s->overwritten_events += psr->runs[i].overwritten_events;
		s->read_events += psr->runs[i].read_events;
		s->read_bytes += psr->runs[i].read_bytes;
		s->bpf_runs += psr->runs[i].bpf_runs;
		s->bpf_run_ns += psr->runs[i].bpf_run_ns;
	}
	s->throughput_median = lb_stats_median(scratch, psr->nruns);
	s->throughput_cv = lb_stats_cv(scratch, psr->nruns);
	for (i = 0; i < psr->nruns; i++) {
		if (psr->runs[i].ops)
			scratch[n++] = (double)psr->runs[i].events / psr->runs[i].ops;
	}
	s->events_per_op = lb_stats_median(scratch, n);
}

/* The warnings about noise and missing intervals, from the finished summaries. */
static int lb_results_warn(struct lb_results *res, size_t max_pairs, const char *few_names,
			   size_t nfew)
{
	const struct lb_probeset_result *smallest = NULL;
	double cv_pct = 100 * res->baseline.summary.throughput_cv;
	char *msg = NULL;
	size_t i;
	int n = 0;

	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		if (!isfinite(psr->summary.slowdown_pct))
			continue;
		if (!smallest ||
		    fabs(psr->summary.slowdown_pct) < fabs(smallest->summary.slowdown_pct))
			smallest = psr;
	}

	if (isfinite(cv_pct) &&
	    (cv_pct > LB_CV_WARN_PCT ||
	     (smallest && 2 * cv_pct > fabs(smallest->summary.slowdown_pct)))) {
		char here[160] = "";

		if (smallest)
			snprintf(here, sizeof(here), " (the smallest here is %s at %.1f%%)",
				 smallest->name ? smallest->name : "?",
				 smallest->summary.slowdown_pct);
		n = asprintf(&msg,
			     "the baseline throughput varies by %.1f%% across repetitions, so "
			     "slowdowns below ~%.1f%% cannot be told from noise%s; use more "
			     "repetitions (--repeat), longer runs (--duration), pin the CPUs "
			     "(--cpus) and quieten the machine",
			     cv_pct, 2 * cv_pct, here);
		if (n < 0 || lb_results_take_warning(res, msg))
			return -ENOMEM;
	}

	/*
	 * A snapshot of the tracer's counts sits between two reads of the
	 * operation counter; the window's edge is their midpoint. When loadbench
	 * was held up in between (a busy machine), say by how much events per
	 * operation can be off: the worst run of each probe set.
	 */
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		const struct lb_run *worst = NULL;
		double w = 0;

		for (size_t k = 0; k < psr->nruns; k++) {
			const struct lb_run *r = &psr->runs[k];
			double f = r->ops ? (double)r->edge_spread_ops / r->ops : 0;

			if (f > w) {
				w = f;
				worst = r;
			}
		}
		if (!worst || 100 * w <= LB_EDGE_WARN_PCT)
			continue;
		n = asprintf(&msg,
			     "%s, round %d: reading the tracer's counts at an edge of the measured "
			     "window took %" PRIu64 " operations (%.1f%% of the window's): its "
			     "events per operation can be off by up to that much; loadbench was "
			     "held up (a busy machine)", psr->name ? psr->name : "?", worst->round,
			     worst->edge_spread_ops, 100 * w);
		if (n < 0 || lb_results_take_warning(res, msg))
			return -ENOMEM;
	}

	if (!nfew) {
		if (max_pairs < 2 || max_pairs >= LB_CI_MIN_ROUNDS)
			return 0;
		n = asprintf(&msg,
			     "only %zu rounds paired with the baseline: a bootstrap 95%% confidence "
			     "interval from fewer than %d rounds is too narrow (it spans little more "
			     "than what those rounds gave): use --repeat %d or more before comparing "
			     "intervals", max_pairs, LB_CI_MIN_ROUNDS, LB_CI_MIN_ROUNDS);
		if (n < 0 || lb_results_take_warning(res, msg))
			return -ENOMEM;
		return 0;
	}
	if (nfew == res->nprobesets)
		n = asprintf(&msg,
			     "only %zu round%s paired with the baseline: the 95%% confidence "
			     "interval of the slowdown cannot be computed (it needs --repeat 2 "
			     "or more, and 5 or more to be useful)",
			     max_pairs, max_pairs == 1 ? "" : "s");
	else
		n = asprintf(&msg,
			     "fewer than 2 rounds paired with the baseline for %s: the 95%% "
			     "confidence interval of %s slowdown cannot be computed",
			     few_names, nfew == 1 ? "its" : "their");
	if (n < 0 || lb_results_take_warning(res, msg))
		return -ENOMEM;
	return 0;
}

/* The index of @psr in @res->probesets. */
static int lb_probeset_index(const struct lb_results *res, const struct lb_probeset_result *psr)
{
	return (int)(psr - res->probesets);
}

/*
 * --method alternate: @psr's summary from its slices. The slowdown is
 * 100 * (1 - the mean over units of on/off throughput), its CI a
 * moving-block bootstrap over the units; the counts are those of its on
 * slices; the residue compares its off slices with the plain slices of the
 * same workload (nothing armed) before arm and after disarm.
 */
static int lb_summary_slices(const struct lb_results *res, struct lb_probeset_result *psr)
{
	struct lb_summary *s = &psr->summary;
	int me = lb_probeset_index(res, psr);
	double on_ops = 0, on_s = 0, off_ops = 0, off_s = 0, plain_ops = 0, plain_s = 0, mean, *v;
	double span = 0;
	int spans = 0;
	double *on_ms, *off_ms;
	size_t n = psr->nslices, nr, non = 0, nsw_on = 0, nsw_off = 0, units = 0;
	int prev = -2, prev_unit = -1, ret = 0;
	bool unit_dropped = false, unit_off = false;

	v = calloc(n + 1, sizeof(*v));
	on_ms = calloc(n + 1, sizeof(*on_ms));
	off_ms = calloc(n + 1, sizeof(*off_ms));
	if (!v || !on_ms || !off_ms) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct lb_slice *sl = &psr->slices[i];

		/* Nothing armed: not part of a unit, only what off is held against. */
		if (sl->on == LB_SLICE_PLAIN) {
			if (!sl->dropped) {
				plain_ops += sl->ops;
				plain_s += sl->seconds;
			}
			continue;
		}
		if (sl->unit != prev_unit) {
			units++;
			prev_unit = sl->unit;
			unit_dropped = false;
			unit_off = false;
		}
		/* A unit is dropped with any of its slices. */
		if (sl->dropped && !unit_dropped) {
			s->dropped_units++;
			unit_dropped = true;
		}
		/* Events counted while off: said, and their unit is one of the dropped. */
		if (sl->off_events && sl->dropped && !unit_off) {
			s->off_dropped_units++;
			unit_off = true;
		}
		if (sl->on != me)
			s->off_events += sl->off_events;
		/* A switch into this set from another state, or out of it. */
		if (sl->on == me && prev != me)
			on_ms[nsw_on++] = 1e3 * sl->switch_s;
		else if (sl->on != me && prev == me)
			off_ms[nsw_off++] = 1e3 * sl->switch_s;
		prev = sl->on;
		if (sl->dropped)
			continue;
		if (sl->on == me) {
			on_ops += sl->ops;
			on_s += sl->seconds;
			s->events += sl->events;
			s->lost_events += sl->lost_events;
			s->overwritten_events += sl->overwritten_events;
			s->read_events += sl->read_events;
			s->bpf_runs += sl->bpf_runs;
			s->bpf_run_ns += sl->bpf_run_ns;
			if (sl->seconds > 0)
				v[non++] = sl->ops / sl->seconds;
		} else if (sl->on < 0) {
			off_ops += sl->ops;
			off_s += sl->seconds;
		}
	}
	s->units = (int)(units - (size_t)s->dropped_units);
	/*
	 * The units' span: the arm before them and the plain slices around them
	 * are not in it. A set measured again (a top-up of --time-budget) has
	 * the spans of its alternations added, the plain slices between them
	 * marking where one ends.
	 */
	for (size_t i = 0, first = n; i <= n; i++) {
		if (i == n || psr->slices[i].on == LB_SLICE_PLAIN) {
			if (first < n) {
				const struct lb_slice *last = &psr->slices[i - 1];

				double d = last->start + last->seconds - psr->slices[first].start;

				span += d;
				if (spans++)
					s->topup_seconds += d;
			}
			first = n;
		} else if (first == n) {
			first = i;
		}
	}
	if (spans)
		s->seconds = span;
	s->alternations = spans;
	s->throughput_median = lb_stats_median(v, non);
	s->throughput_cv = lb_stats_cv(v, non);
	s->off_throughput = off_s > 0 ? off_ops / off_s : NAN;
	s->on_throughput = on_s > 0 ? on_ops / on_s : NAN;
	s->events_per_op = on_ops > 0 ? s->events / on_ops : NAN;
	s->switch_on_ms = lb_stats_median(on_ms, nsw_on);
	s->switch_off_ms = lb_stats_median(off_ms, nsw_off);
	if (plain_s > 0 && plain_ops > 0 && off_s > 0) {
		s->residue_pct = 100 * (1 - s->off_throughput / (plain_ops / plain_s));
	} else if (psr->nruns) {
		/* Results of a version without plain slices: the plain run before. */
		const struct lb_run *br = lb_round_run(&res->baseline, psr->runs[0].round);

		if (br && br->throughput > 0 && off_s > 0)
			s->residue_pct = 100 * (1 - s->off_throughput / br->throughput);
	}

	nr = lb_slices_unit_ratios(psr->slices, n, me, -1, v, n + 1);
	s->slowdown_pct = lb_stats_ratio_slowdown_pct(v, nr);
	if (nr >= 2) {
		ret = lb_stats_block_ci95(v, nr, LB_CI_RESAMPLES, LB_CI_SEED, &s->slowdown_ci95[0],
					  &s->slowdown_ci95[1]);
		if (ret)
			goto out;
		s->ci_half_width = (s->slowdown_ci95[1] - s->slowdown_ci95[0]) / 2;
		s->precision_reached = s->units >= LB_ALT_MIN_UNITS &&
				       s->ci_half_width <= res->config.precision;
	}
	mean = nr ? lb_stats_ratio_center(v, nr) : NAN;
	if (on_s > 0 && mean > 0) {
		s->ns_per_event = lb_stats_ns_per_event(on_ops / on_s / mean, on_ops / on_s,
							s->events_per_op);
		lb_stats_ns_per_event_ci95(on_ops / on_s / mean, s->events_per_op,
					   s->slowdown_ci95, s->ns_per_event_ci95);
	}
out:
	free(v);
	free(on_ms);
	free(off_ms);
	return ret;
}

/*
 * The median share of a slice's operations that its edges took, over the
 * slices of @psr's alternation that had tracers armed; above LB_ALT_EDGE_DROP
 * a warning says that the snapshots blur the slices (every slice alike, so
 * they are kept: lb_slices_mark_dropped() drops only the outliers).
 * Returns 0 or -ENOMEM.
 */
static int lb_warn_slow_edges(struct lb_results *res, const struct lb_probeset_result *psr)
{
	double *f = calloc(psr->nslices + 1, sizeof(*f)), med;
	size_t n = 0;
	char *msg;
	int ret = 0;

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < psr->nslices; i++)
		if (psr->slices[i].on != LB_SLICE_PLAIN && psr->slices[i].ops)
			f[n++] = (double)psr->slices[i].edge_spread_ops / psr->slices[i].ops;
	med = lb_stats_median(f, n);
	free(f);
	if (n && med > LB_ALT_EDGE_DROP) {
		if (asprintf(&msg, "%s: reading the tracers at a slice's edges took %.1f%% of its "
			     "operations (median): the slices' edges are blurred, on and off "
			     "alike; a longer --slice makes them sharp", lb_str_or(psr->name, "?"),
			     100 * med) < 0 || lb_results_take_warning(res, msg))
			ret = -ENOMEM;
	}
	return ret;
}

/*
 * The slices of @psr's alternation that ran over LB_ALT_SLICE_LONG times
 * the median slice of their kind (a stopped process, a stalled machine):
 * dropped with their units by lb_slices_mark_dropped(), said here. Returns
 * 0 or -ENOMEM.
 */
static int lb_warn_long_slices(struct lb_results *res, const struct lb_probeset_result *psr)
{
	double med[2] = { median_seconds(psr->slices, psr->nslices, false),
			  median_seconds(psr->slices, psr->nslices, true) }, longest = 0;
	int n = 0, kind = 0;
	char *msg;

	for (size_t i = 0; i < psr->nslices; i++) {
		bool plain = psr->slices[i].on == LB_SLICE_PLAIN;

		if (!slice_long(&psr->slices[i], med[plain]))
			continue;
		n++;
		if (psr->slices[i].seconds > longest) {
			longest = psr->slices[i].seconds;
			kind = plain;
		}
	}
	if (!n)
		return 0;
	if (asprintf(&msg, "%s: %d slice(s) ran over %.0fx the median slice (the longest %.2f s "
		     "against %.2f s: a stopped process or a stalled machine); dropped with their "
		     "units", lb_str_or(psr->name, "?"), n, LB_ALT_SLICE_LONG, longest,
		     med[kind]) < 0 || lb_results_take_warning(res, msg))
		return -ENOMEM;
	return 0;
}

/* --method alternate: every summary from the slices; warnings where precision was not reached. */
static int lb_results_summarize_alternate(struct lb_results *res)
{
	double *scratch = calloc(res->baseline.nruns + 1, sizeof(*scratch));
	/* What gives a set more time: its cap, and the budget all sets share. */
	const char *more = res->config.time_budget > 0 ? "--max-time or --time-budget" :
			   "--max-time";
	char *msg;
	int ret = 0;

	if (!scratch)
		return -ENOMEM;
	lb_summary_own(&res->baseline, scratch);
	free(scratch);
	ret = lb_summary_latency(res, &res->baseline);
	lb_summary_cpu(res, &res->baseline);
	for (size_t i = 0; i < res->nprobesets && !ret; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];
		struct lb_summary *s;

		lb_summary_init(&psr->summary);
		ret = lb_summary_slices(res, psr);
		if (!ret)
			ret = lb_summary_latency(res, psr);
		lb_summary_cpu(res, psr);
		s = &psr->summary;
		if (ret || !psr->nslices)
			continue;
		msg = NULL;
		if (!isfinite(s->ci_half_width))
			ret = asprintf(&msg, "%s: fewer than 2 units of alternation: no confidence "
				       "interval", lb_str_or(psr->name, "?"));
		else if (s->units < LB_ALT_MIN_UNITS)
			ret = asprintf(&msg, "%s: only %d units of alternation in %.0f s (its switch "
				       "takes %.0f ms): a CI from fewer than %d is not to be trusted; "
				       "give it more %s", lb_str_or(psr->name, "?"), s->units,
				       s->seconds, s->switch_off_ms > s->switch_on_ms ?
				       s->switch_off_ms : s->switch_on_ms, LB_ALT_MIN_UNITS, more);
		else if (!s->precision_reached)
			ret = asprintf(&msg, "%s did not reach the precision asked: its 95%% CI is "
				       "+-%.2f pp after %d units (%.0f s), not +-%.2f pp: give it "
				       "more %s or quieten the machine", lb_str_or(psr->name, "?"),
				       s->ci_half_width, s->units, s->seconds, res->config.precision,
				       more);
		if (ret < 0)
			ret = -ENOMEM;
		else if (msg)
			ret = lb_results_take_warning(res, msg) ? -ENOMEM : 0;
		if (!ret)
			ret = lb_warn_slow_edges(res, psr);
		if (!ret)
			ret = lb_warn_long_slices(res, psr);
	}
	return ret;
}

int lb_results_summarize(struct lb_results *res)
{
	struct lb_probeset_result *base = &res->baseline;
	double *scratch = NULL, *pb = NULL, *pt = NULL;
	size_t maxruns = base->nruns, max_pairs = 0, nfew = 0, i;
	struct lb_rounds rounds = { NULL, 0 };
	char *few_names = NULL;
	size_t few_len = 0;
	FILE *few = NULL;
	int ret = -ENOMEM;

	if (lb_results_alternate(res))
		return lb_results_summarize_alternate(res);

	for (i = 0; i < res->nprobesets; i++) {
		if (res->probesets[i].nruns > maxruns)
			maxruns = res->probesets[i].nruns;
	}
	if (!maxruns)
		maxruns = 1;
	scratch = malloc(maxruns * sizeof(*scratch));
	pb = malloc(maxruns * sizeof(*pb));
	pt = malloc(maxruns * sizeof(*pt));
	few = open_memstream(&few_names, &few_len);
	if (!scratch || !pb || !pt || !few || lb_rounds_init(&rounds, base))
		goto out;

	/* The baseline: its throughput and spread; no slowdown against itself. */
	lb_summary_own(base, scratch);
	if (lb_summary_latency(res, base))
		goto out;
	lb_summary_cpu(res, base);

	for (i = 0; i < res->nprobesets; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];
		struct lb_summary *s = &psr->summary;
		size_t npairs;

		lb_summary_own(psr, scratch);
		npairs = lb_rounds_pair(&rounds, psr, pb, pt);
		if (npairs > max_pairs)
			max_pairs = npairs;
		s->slowdown_pct = lb_stats_slowdown_pct(pb, pt, npairs);
		if (npairs >= 2) {
			ret = lb_stats_slowdown_ci95(pb, pt, npairs, LB_CI_RESAMPLES, LB_CI_SEED,
						     &s->slowdown_ci95[0], &s->slowdown_ci95[1]);
			if (ret)
				goto out;
		} else {
			fprintf(few, "%s%s", nfew ? ", " : "", psr->name ? psr->name : "?");
			nfew++;
		}
		s->ns_per_event = lb_stats_ns_per_event(base->summary.throughput_median,
							s->throughput_median, s->events_per_op);
		lb_stats_ns_per_event_ci95(base->summary.throughput_median, s->events_per_op,
					   s->slowdown_ci95, s->ns_per_event_ci95);
		ret = lb_summary_latency(res, psr);
		if (ret)
			goto out;
		lb_summary_cpu(res, psr);
	}

	ret = -ENOMEM;
	if (fclose(few))
		goto out;
	few = NULL;
	ret = lb_results_warn(res, max_pairs, few_names ? few_names : "", nfew);
out:
	if (few)
		fclose(few);
	free(few_names);
	free(rounds.run);
	free(scratch);
	free(pb);
	free(pt);
	return ret;
}

int lb_results_off_on(const struct lb_results *res, const struct lb_probeset_result *psr,
		      double *off, double *on)
{
	struct lb_rounds rounds = { NULL, 0 };
	double *pb = NULL, *pt = NULL;
	size_t n = 0;
	int ret = -ENOMEM;

	*off = NAN;
	*on = psr->summary.throughput_median;
	if (lb_results_alternate(res)) {
		*off = psr->summary.off_throughput;
		if (!isnan(psr->summary.on_throughput))
			*on = psr->summary.on_throughput;
		return 0;
	}
	/* As lb_results_summarize() pairs them: the baseline's run of the same round. */
	pb = malloc((psr->nruns + 1) * sizeof(*pb));
	pt = malloc((psr->nruns + 1) * sizeof(*pt));
	if (!pb || !pt || lb_rounds_init(&rounds, &res->baseline))
		goto out;
	n = lb_rounds_pair(&rounds, psr, pb, pt);
	if (n) {
		*off = lb_stats_median(pb, n);
		*on = lb_stats_median(pt, n);
	}
	ret = 0;
out:
	free(rounds.run);
	free(pb);
	free(pt);
	return ret;
}

/*
 * The cost of each extra event the set adds to its base, from the paired
 * slowdown against the base (the same units or rounds as its CI, so the
 * point lies inside the interval): the set's throughput taken as the base's
 * median @tb x (1 - vs_base_pct / 100), and each end of vs_base_ci95 through
 * the same formula. Without a paired slowdown, the two medians (@t, @tb).
 */
static void lb_pair_ns_per_extra(struct lb_pair *out, double tb, double t)
{
	double extra = out->extra_events_per_op;

	if (isfinite(out->vs_base_pct))
		t = tb * (1 - out->vs_base_pct / 100);
	out->ns_per_extra_event = lb_stats_ns_per_event(tb, t, extra);
	lb_stats_ns_per_event_ci95(tb, extra, out->vs_base_ci95, out->ns_per_extra_event_ci95);
}

int lb_results_pair(const struct lb_results *res, const struct lb_probeset_result *psr,
		    struct lb_pair *out)
{
	const struct lb_probeset_result *base = NULL;
	double t, tb, *pb = NULL, *pt = NULL;
	struct lb_rounds rounds = { NULL, 0 };
	size_t k, n = 0;
	int ret = -ENOENT;

	if (!psr->compare_with)
		return -ENOENT;
	for (k = 0; k < res->nprobesets && !base; k++)
		if (res->probesets[k].name && !strcmp(res->probesets[k].name, psr->compare_with))
			base = &res->probesets[k];
	if (!base)
		return -ENOENT;
	t = psr->summary.throughput_median;
	tb = base->summary.throughput_median;
	if (!(t > 0) || !(tb > 0))
		return -ENOENT;
	out->set = psr;
	out->base = base;
	out->slowdown_ratio = base->summary.slowdown_pct > 0 ?
			      psr->summary.slowdown_pct / base->summary.slowdown_pct : NAN;
	out->extra_events_per_op = psr->summary.events_per_op - base->summary.events_per_op;

	out->vs_base_ci95[0] = out->vs_base_ci95[1] = NAN;
	out->units = 0;
	if (lb_results_alternate(res)) {
		/* Alternated together: the set against its base unit by unit. */
		pt = calloc(psr->nslices + 1, sizeof(*pt));
		if (!pt)
			return -ENOMEM;
		n = lb_slices_unit_ratios(psr->slices, psr->nslices, lb_probeset_index(res, psr),
					  lb_probeset_index(res, base), pt, psr->nslices + 1);
		out->units = n;
		out->vs_base_pct = lb_stats_ratio_slowdown_pct(pt, n);
		if (n >= 2)
			lb_stats_block_ci95(pt, n, LB_CI_RESAMPLES, LB_CI_SEED, &out->vs_base_ci95[0],
					    &out->vs_base_ci95[1]);
		free(pt);
		lb_pair_ns_per_extra(out, tb, t);
		return 0;
	}
	/* The set against its base, run by run in the same round: neighbours in time. */
	pb = calloc(psr->nruns + 1, sizeof(*pb));
	pt = calloc(psr->nruns + 1, sizeof(*pt));
	if (!pb || !pt || lb_rounds_init(&rounds, base)) {
		ret = -ENOMEM;
		goto out;
	}
	n = lb_rounds_pair(&rounds, psr, pb, pt);
	out->vs_base_pct = lb_stats_slowdown_pct(pb, pt, n);
	if (n >= 2)
		lb_stats_slowdown_ci95(pb, pt, n, LB_CI_RESAMPLES, LB_CI_SEED, &out->vs_base_ci95[0],
				       &out->vs_base_ci95[1]);
	lb_pair_ns_per_extra(out, tb, t);
	ret = 0;
out:
	free(rounds.run);
	free(pb);
	free(pt);
	return ret;
}
