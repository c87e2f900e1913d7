// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A probe set's operation latencies against the baseline's (struct
 * lb_lat_summary): its runs' histograms merged for the quantiles, and the
 * added latency at each quantile from the per-round (--method runs) or
 * per-unit (--method alternate) ratios traced over untraced, with the
 * slowdown's own estimator and bootstrap.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "results.h"
#include "results_int.h"
#include "stats.h"

/* Whether quantile @q can be estimated from @n operations: LB_LAT_MIN_TAIL beyond it; not the max. */
static bool lb_lat_estimable(uint64_t n, int q)
{
	return q < LB_LAT_NQ - 1 && lb_lat_quantile_shown(n, q);
}

/*
 * --method alternate: the ratio of quantile @q in each unit of @psr's
 * slices, the mean of its on slices (state @me) over the mean of its off
 * slices, into @out; units with a dropped slice, or a slice with too few
 * operations, are left out. Returns how many.
 */
static size_t lb_lat_unit_ratios(const struct lb_probeset_result *psr, int me, int q, double *out)
{
	double on = 0, off = 0;
	size_t n = 0, non = 0, noff = 0;
	bool bad = false;

	for (size_t i = 0; i <= psr->nslices; i++) {
		const struct lb_slice *sl = i < psr->nslices ? &psr->slices[i] : NULL;

		if (sl && sl->on == LB_SLICE_PLAIN)
			continue;
		/* A unit ends: its ratio, when it has both states and nothing against it. */
		if (!sl || (i && sl->unit != psr->slices[i - 1].unit &&
			    psr->slices[i - 1].on != LB_SLICE_PLAIN)) {
			if (!bad && non && noff && off > 0)
				out[n++] = (on / non) / (off / noff);
			on = off = 0;
			non = noff = 0;
			bad = false;
		}
		if (!sl)
			break;
		if (sl->on != me && sl->on != -1)
			continue;
		if (sl->dropped || !lb_lat_estimable(sl->lat_count, q) || !isfinite(sl->lat_ns[q])) {
			bad = true;
			continue;
		}
		if (sl->on == me) {
			on += sl->lat_ns[q];
			non++;
		} else {
			off += sl->lat_ns[q];
			noff++;
		}
	}
	return n;
}

/* --method runs: the ratio of quantile @q of each run of @psr over the baseline's of its round. */
static size_t lb_lat_round_ratios(const struct lb_results *res,
				  const struct lb_probeset_result *psr, int q, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];
		const struct lb_run *b = lb_round_run(&res->baseline, r->round);

		if (!b || !lb_lat_estimable(r->latency.count, q) ||
		    !lb_lat_estimable(b->latency.count, q) || !(b->latency.ns[q] > 0))
			continue;
		out[n++] = r->latency.ns[q] / b->latency.ns[q];
	}
	return n;
}

/*
 * What tracing added to a quantile of @ns, @pct percent above its untraced
 * value: @ns less @ns / (1 + @pct / 100). Held against the set's own
 * quantile, not the baseline's (the plain slices or runs differ from the
 * untraced state a set is compared with by their own noise), so that the
 * added latency is never more than the latency.
 */
static double lb_lat_added_ns(double ns, double pct)
{
	return 1 + pct / 100 > 0 ? ns - ns / (1 + pct / 100) : NAN;
}

int lb_summary_latency(const struct lb_results *res, struct lb_probeset_result *psr)
{
	struct lb_lat_summary *l = &psr->summary.latency;
	const struct lb_lat_summary *base = &res->baseline.summary.latency;
	bool alternate = lb_results_alternate(res), is_base = psr == &res->baseline;
	size_t max = (alternate ? psr->nslices : psr->nruns) + 1;
	int me = (int)(psr - res->probesets);
	struct lb_hist *h = NULL;
	double *ratio = NULL;
	int ret = -ENOMEM;

	lb_lat_summary_init(l);
	if (res->config.rate > 0) {
		uint64_t late = 0, ops = 0;

		for (size_t i = 0; i < psr->nruns; i++) {
			late += psr->runs[i].late;
			ops += psr->runs[i].ops;
		}
		if (ops)
			psr->summary.late_pct = 100.0 * (double)late / (double)ops;
	}
	for (size_t i = 0; i < psr->nruns; i++)
		l->count += psr->runs[i].latency.count;
	if (!l->count)
		return 0;
	h = calloc(1, sizeof(*h));
	ratio = malloc(max * sizeof(*ratio));
	if (!h || !ratio)
		goto out;
	for (size_t i = 0; i < psr->nruns; i++)
		lb_latency_add_to(&psr->runs[i].latency, h);
	for (int q = 0; q < LB_LAT_NQ; q++)
		l->ns[q] = lb_hist_percentile(h, lb_lat_q[q]);
	ret = 0;
	if (is_base || !base->count)
		goto out;
	for (int q = 0; q < LB_LAT_NQ; q++) {
		size_t n = alternate ? lb_lat_unit_ratios(psr, me, q, ratio)
				     : lb_lat_round_ratios(res, psr, q, ratio);
		double lo, hi;

		if (!n)
			continue;
		l->added_pct[q] = 100 * (lb_stats_ratio_center(ratio, n) - 1);
		l->added_ns[q] = lb_lat_added_ns(l->ns[q], l->added_pct[q]);
		if (n < 2)
			continue;
		/* The bootstrap gives 100 * (1 - center): the added share is its negative. */
		ret = lb_stats_block_ci95(ratio, n, LB_CI_RESAMPLES, LB_CI_SEED, &lo, &hi);
		if (ret)
			goto out;
		l->added_pct_ci95[q][0] = -hi;
		l->added_pct_ci95[q][1] = -lo;
		l->added_ns_ci95[q][0] = lb_lat_added_ns(l->ns[q], -hi);
		l->added_ns_ci95[q][1] = lb_lat_added_ns(l->ns[q], -lo);
	}
out:
	free(h);
	free(ratio);
	return ret;
}
