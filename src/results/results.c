// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results of one loadbench invocation: the in-memory model, its summary
 * statistics, results.json (json-c), results.csv and slices.csv. The text
 * table is the output layer's (src/output/table.c).
 *
 * Numbers are written in the shortest form that reads back to the same
 * double ("%.15g", else "%.16g", else "%.17g"), so files stay readable and
 * round-trip exactly. NaN and infinities are JSON null (read back as NAN) and
 * empty CSV fields. Every file is written atomically (lb_atomic_write()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "atomic.h"
#include "results.h"
#include "util.h"
#include "stats.h"

/* The slowdown interval: bootstrap resamples and a fixed seed, so reruns of summarize agree. */
#define LB_CI_RESAMPLES 10000
#define LB_EDGE_WARN_PCT 1.0	/* edge spread, % of a run's operations, worth a warning */
#define LB_CI_SEED 0x6c6f616462656e63ULL /* "loadbenc" */

/* The baseline's CV (in %) above which every result is flagged as noisy. */
#define LB_CV_WARN_PCT 5.0

#define LB_CSV_HEADER \
	"probeset,tracer,round,seconds,ops,throughput,events,lost_events,timeouts," \
	"overwritten_events\n"

/* slices.csv: "state" is the name of the set that was on, "off", or "plain" (nothing armed). */
#define LB_SLICES_CSV_HEADER \
	"probeset,unit,state,start,seconds,switch_s,ops,throughput,events,lost_events," \
	"off_events,edge_spread_ops,dropped\n"

/* Largest file lb_results_read_json() accepts. */
#define LB_JSON_MAX (256UL << 20)

/* ---- model ---------------------------------------------------------------------------------- */

static char *lb_strdup_null(const char *s, int *ret)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*ret = -ENOMEM;
	return d;
}

static const char *lb_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

static void lb_summary_init(struct lb_summary *s)
{
	s->throughput_median = NAN;
	s->throughput_cv = NAN;
	s->slowdown_pct = NAN;
	s->slowdown_ci95[0] = NAN;
	s->slowdown_ci95[1] = NAN;
	s->events_per_op = NAN;
	s->ns_per_event = NAN;
	s->events = 0;
	s->lost_events = 0;
	s->overwritten_events = 0;
	s->read_events = 0;
	s->read_bytes = 0;
	s->units = 0;
	s->dropped_units = 0;
	s->ci_half_width = NAN;
	s->precision_reached = false;
	s->off_throughput = NAN;
	s->residue_pct = NAN;
	s->switch_on_ms = NAN;
	s->switch_off_ms = NAN;
	s->off_events = 0;
	s->seconds = NAN;
}

static void lb_probeset_result_release(struct lb_probeset_result *psr)
{
	size_t i;

	free(psr->name);
	free(psr->tracer);
	free(psr->description);
	free(psr->file);
	free(psr->text);
	free(psr->compare_with);
	free(psr->added_for);
	for (i = 0; i < psr->nruns; i++) {
		free(psr->runs[i].samples);
		free(psr->runs[i].flow_ops);
	}
	free(psr->runs);
	free(psr->slices);
	free(psr->off_residue);
	memset(psr, 0, sizeof(*psr));
}

struct lb_results *lb_results_new(void)
{
	struct lb_results *res = calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	res->baseline.name = strdup("baseline");
	res->baseline.tracer = strdup("none");
	if (!res->baseline.name || !res->baseline.tracer) {
		lb_results_free(res);
		return NULL;
	}
	lb_summary_init(&res->baseline.summary);
	/* Zero would mean "pinned to CPU 0". */
	res->config.server_cpu = -1;
	res->config.client_cpu = -1;
	return res;
}

void lb_results_free(struct lb_results *res)
{
	size_t i;

	if (!res)
		return;
	free(res->version);
	free(res->started);
	free(res->host.kernel_release);
	free(res->host.kernel_version);
	free(res->host.machine);
	free(res->host.cpu_model);
	free(res->host.virtualization);
	free(res->host.vm_accelerator);
	free(res->config.workload);
	free(res->config.placement);
	free(res->config.engine);
	free(res->config.command_line);
	free(res->config.topology);
	free(res->config.flow_placement);
	free(res->config.method);
	free(res->config.count_with);
	free(res->config.pcap_filter);
	lb_probeset_result_release(&res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		lb_probeset_result_release(&res->probesets[i]);
	free(res->probesets);
	for (i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	for (i = 0; i < res->nskipped; i++) {
		free(res->skipped[i].name);
		free(res->skipped[i].reason);
	}
	free(res->skipped);
	free(res);
}

struct lb_probeset_result *lb_results_add_probeset(struct lb_results *res, const char *name,
						   const char *tracer)
{
	struct lb_probeset_result *arr, *psr;
	int ret = 0;

	arr = realloc(res->probesets, (res->nprobesets + 1) * sizeof(*arr));
	if (!arr)
		return NULL;
	res->probesets = arr;
	psr = &arr[res->nprobesets];
	memset(psr, 0, sizeof(*psr));
	lb_summary_init(&psr->summary);
	psr->name = lb_strdup_null(name, &ret);
	psr->tracer = lb_strdup_null(tracer, &ret);
	if (ret) {
		lb_probeset_result_release(psr);
		return NULL;
	}
	res->nprobesets++;
	return psr;
}

int lb_probeset_result_add_run(struct lb_probeset_result *psr, const struct lb_run *run)
{
	struct lb_run *arr, copy = *run;

	copy.samples = NULL;
	copy.flow_ops = NULL;
	if (!run->samples)
		copy.nsamples = 0;
	if (!run->flow_ops)
		copy.nflow_ops = 0;
	if (copy.nsamples) {
		copy.samples = malloc(copy.nsamples * sizeof(*copy.samples));
		if (!copy.samples)
			return -ENOMEM;
		memcpy(copy.samples, run->samples, copy.nsamples * sizeof(*copy.samples));
	}
	if (copy.nflow_ops) {
		copy.flow_ops = malloc(copy.nflow_ops * sizeof(*copy.flow_ops));
		if (!copy.flow_ops) {
			free(copy.samples);
			return -ENOMEM;
		}
		memcpy(copy.flow_ops, run->flow_ops, copy.nflow_ops * sizeof(*copy.flow_ops));
	}
	arr = realloc(psr->runs, (psr->nruns + 1) * sizeof(*arr));
	if (!arr) {
		free(copy.samples);
		free(copy.flow_ops);
		return -ENOMEM;
	}
	psr->runs = arr;
	psr->runs[psr->nruns++] = copy;
	return 0;
}

int lb_probeset_result_add_slices(struct lb_probeset_result *psr, const struct lb_slice *s,
				  size_t n)
{
	struct lb_slice *arr;

	if (!n)
		return 0;
	arr = realloc(psr->slices, (psr->nslices + n) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	memcpy(arr + psr->nslices, s, n * sizeof(*s));
	psr->slices = arr;
	psr->nslices += n;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int lb_slices_mark_dropped(struct lb_slice *s, size_t n)
{
	uint64_t *sp = malloc((n + 1) * sizeof(*sp)), med[2] = { 0, 0 };
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
					     edge > LB_ALT_EDGE_OUTLIER * (double)med[plain]);
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

void lb_results_units_range(const struct lb_results *res, int *lo, int *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < res->nprobesets; i++) {
		int u = res->probesets[i].summary.units;

		if (!i || u < *lo)
			*lo = u;
		if (!i || u > *hi)
			*hi = u;
	}
}

bool lb_results_alternate(const struct lb_results *res)
{
	return res->config.method && !strcmp(res->config.method, "alternate");
}

/* Append @msg (taking ownership) unless the same text is already there. */
static int lb_results_take_warning(struct lb_results *res, char *msg)
{
	char **arr;
	size_t i;

	for (i = 0; i < res->nwarnings; i++) {
		if (!strcmp(res->warnings[i], msg)) {
			free(msg);
			return 0;
		}
	}
	arr = realloc(res->warnings, (res->nwarnings + 1) * sizeof(*arr));
	if (!arr) {
		free(msg);
		return -ENOMEM;
	}
	res->warnings = arr;
	res->warnings[res->nwarnings++] = msg;
	return 0;
}

int lb_results_add_warning(struct lb_results *res, const char *fmt, ...)
{
	char *msg, **arr;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	arr = realloc(res->warnings, (res->nwarnings + 1) * sizeof(*arr));
	if (!arr) {
		free(msg);
		return -ENOMEM;
	}
	res->warnings = arr;
	res->warnings[res->nwarnings++] = msg;
	return 0;
}

int lb_results_add_skipped(struct lb_results *res, const char *name, const char *reason)
{
	struct lb_skipped *arr, sk;

	sk.name = strdup(name ? name : "");
	sk.reason = strdup(reason ? reason : "");
	arr = sk.name && sk.reason ?
	      realloc(res->skipped, (res->nskipped + 1) * sizeof(*arr)) : NULL;
	if (!arr) {
		free(sk.name);
		free(sk.reason);
		return -ENOMEM;
	}
	res->skipped = arr;
	res->skipped[res->nskipped++] = sk;
	return 0;
}

/* ---- summary -------------------------------------------------------------------------------- */

/* The run of @psr in @round, or NULL. */
static const struct lb_run *lb_round_run(const struct lb_probeset_result *psr, int round)
{
	size_t i;

	for (i = 0; i < psr->nruns; i++) {
		if (psr->runs[i].round == round)
			return &psr->runs[i];
	}
	return NULL;
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

	if (!nfew)
		return 0;
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
	double *on_ms, *off_ms;
	size_t n = psr->nslices, nr, non = 0, nsw_on = 0, nsw_off = 0, units = 0;
	int prev = -2, prev_unit = -1, ret = 0;
	bool unit_dropped = false;

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
		}
		/* A unit is dropped with any of its slices. */
		if (sl->dropped && !unit_dropped) {
			s->dropped_units++;
			unit_dropped = true;
		}
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
			if (sl->seconds > 0)
				v[non++] = sl->ops / sl->seconds;
		} else if (sl->on < 0) {
			off_ops += sl->ops;
			off_s += sl->seconds;
		}
		if (sl->on != me)
			s->off_events += sl->off_events;
	}
	s->units = (int)(units - (size_t)s->dropped_units);
	/* The units' span: the arm before them and the plain slices around them are not in it. */
	for (size_t i = 0, first = n; i < n; i++) {
		const struct lb_slice *sl = &psr->slices[i];

		if (sl->on == LB_SLICE_PLAIN)
			continue;
		if (first == n)
			first = i;
		s->seconds = sl->start + sl->seconds - psr->slices[first].start;
	}
	s->throughput_median = lb_stats_median(v, non);
	s->throughput_cv = lb_stats_cv(v, non);
	s->off_throughput = off_s > 0 ? off_ops / off_s : NAN;
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
	if (on_s > 0 && mean > 0)
		s->ns_per_event = lb_stats_ns_per_event(on_ops / on_s / mean, on_ops / on_s,
							s->events_per_op);
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
			     "alike; a longer --slice makes them sharp", lb_or(psr->name, "?"),
			     100 * med) < 0 || lb_results_take_warning(res, msg))
			ret = -ENOMEM;
	}
	return ret;
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
	for (size_t i = 0; i < res->nprobesets && !ret; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];
		struct lb_summary *s;

		lb_summary_init(&psr->summary);
		ret = lb_summary_slices(res, psr);
		s = &psr->summary;
		if (ret || !psr->nslices)
			continue;
		msg = NULL;
		if (!isfinite(s->ci_half_width))
			ret = asprintf(&msg, "%s: fewer than 2 units of alternation: no confidence "
				       "interval", lb_or(psr->name, "?"));
		else if (s->units < LB_ALT_MIN_UNITS)
			ret = asprintf(&msg, "%s: only %d units of alternation in %.0f s (its switch "
				       "takes %.0f ms): a CI from fewer than %d is not to be trusted; "
				       "give it more %s", lb_or(psr->name, "?"), s->units,
				       s->seconds, s->switch_off_ms > s->switch_on_ms ?
				       s->switch_off_ms : s->switch_on_ms, LB_ALT_MIN_UNITS, more);
		else if (!s->precision_reached)
			ret = asprintf(&msg, "%s did not reach the precision asked: its 95%% CI is "
				       "+-%.2f pp after %d units (%.0f s), not +-%.2f pp: give it "
				       "more %s or quieten the machine", lb_or(psr->name, "?"),
				       s->ci_half_width, s->units, s->seconds, res->config.precision,
				       more);
		if (ret < 0)
			ret = -ENOMEM;
		else if (msg)
			ret = lb_results_take_warning(res, msg) ? -ENOMEM : 0;
		if (!ret)
			ret = lb_warn_slow_edges(res, psr);
	}
	return ret;
}

int lb_results_summarize(struct lb_results *res)
{
	struct lb_probeset_result *base = &res->baseline;
	double *scratch = NULL, *pb = NULL, *pt = NULL;
	size_t maxruns = base->nruns, max_pairs = 0, nfew = 0, i, j;
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

	for (i = 0; i < res->nprobesets; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];
		struct lb_summary *s = &psr->summary;
		size_t npairs = 0;

		lb_summary_own(psr, scratch);
		for (j = 0; j < psr->nruns; j++) {
			const struct lb_run *br = lb_rounds_find(&rounds, psr->runs[j].round);

			if (!br)
				continue;
			pb[npairs] = br->throughput;
			pt[npairs++] = psr->runs[j].throughput;
		}
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

/* ---- number formatting ---------------------------------------------------------------------- */

/* The shortest of %.15g, %.16g, %.17g that reads back as @d. @d is finite. */
static void lb_format_double(char *buf, size_t len, double d)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, len, "%.17g", d);
}

/* ---- JSON writing --------------------------------------------------------------------------- */

/* Builds a json-c tree; any allocation failure sets @oom and later additions become no-ops. */
struct lb_jb {
	bool oom;
};

/*
 * Add @val under @key of the object @parent, or append it to the array
 * @parent when @key is NULL. @val NULL stands for JSON null when @is_null,
 * for a failed allocation otherwise. Ownership of @val always passes.
 */
static bool lb_jb_put(struct lb_jb *jb, struct json_object *parent, const char *key,
		      struct json_object *val, bool is_null)
{
	int ret;

	if (!val && !is_null) {
		jb->oom = true;
		return false;
	}
	if (!parent) {
		json_object_put(val);
		return false;
	}
	ret = key ? json_object_object_add(parent, key, val) : json_object_array_add(parent, val);
	if (ret) {
		json_object_put(val);
		jb->oom = true;
		return false;
	}
	return true;
}

/* A new object (or array when @array) added to @parent; NULL after a failure. */
static struct json_object *lb_jb_child(struct lb_jb *jb, struct json_object *parent,
				       const char *key, bool array)
{
	struct json_object *child = array ? json_object_new_array() : json_object_new_object();

	return lb_jb_put(jb, parent, key, child, false) ? child : NULL;
}

static void lb_jb_str(struct lb_jb *jb, struct json_object *parent, const char *key,
		      const char *s)
{
	lb_jb_put(jb, parent, key, s ? json_object_new_string(s) : NULL, !s);
}

static void lb_jb_double(struct lb_jb *jb, struct json_object *parent, const char *key, double d)
{
	char buf[40];

	if (!isfinite(d)) {
		lb_jb_put(jb, parent, key, NULL, true);
		return;
	}
	lb_format_double(buf, sizeof(buf), d);
	lb_jb_put(jb, parent, key, json_object_new_double_s(d, buf), false);
}

static void lb_jb_int(struct lb_jb *jb, struct json_object *parent, const char *key, int64_t v)
{
	lb_jb_put(jb, parent, key, json_object_new_int64(v), false);
}

static void lb_jb_bool(struct lb_jb *jb, struct json_object *parent, const char *key, bool v)
{
	lb_jb_put(jb, parent, key, json_object_new_boolean(v), false);
}

/*
 * Whether @s holds any --method alternate number: then they are written even
 * for results without config.method, so that nothing is lost on the way.
 */
static bool lb_summary_has_alternate(const struct lb_summary *s)
{
	return s->units || s->dropped_units || s->precision_reached || s->off_events ||
	       !isnan(s->ci_half_width) || !isnan(s->off_throughput) || !isnan(s->residue_pct) ||
	       !isnan(s->switch_on_ms) || !isnan(s->switch_off_ms) || !isnan(s->seconds);
}

static void lb_jb_summary(struct lb_jb *jb, struct json_object *parent,
			  const struct lb_summary *s, bool alternate)
{
	struct json_object *o = lb_jb_child(jb, parent, "summary", false), *ci;

	lb_jb_double(jb, o, "throughput_median", s->throughput_median);
	lb_jb_double(jb, o, "throughput_cv", s->throughput_cv);
	lb_jb_double(jb, o, "slowdown_pct", s->slowdown_pct);
	ci = lb_jb_child(jb, o, "slowdown_ci95", true);
	lb_jb_double(jb, ci, NULL, s->slowdown_ci95[0]);
	lb_jb_double(jb, ci, NULL, s->slowdown_ci95[1]);
	lb_jb_double(jb, o, "events_per_op", s->events_per_op);
	lb_jb_double(jb, o, "ns_per_event", s->ns_per_event);
	lb_jb_int(jb, o, "events", (int64_t)s->events);
	lb_jb_int(jb, o, "lost_events", (int64_t)s->lost_events);
	lb_jb_int(jb, o, "overwritten_events", (int64_t)s->overwritten_events);
	/* Only tracers with a reader (mode consumer) have these. */
	if (s->read_bytes) {
		lb_jb_int(jb, o, "read_events", (int64_t)s->read_events);
		lb_jb_int(jb, o, "read_bytes", (int64_t)s->read_bytes);
	}
	/* Results of --method runs keep the keys they always had. */
	if (!alternate && !lb_summary_has_alternate(s))
		return;
	lb_jb_int(jb, o, "units", s->units);
	lb_jb_int(jb, o, "dropped_units", s->dropped_units);
	lb_jb_double(jb, o, "ci_half_width", s->ci_half_width);
	lb_jb_bool(jb, o, "precision_reached", s->precision_reached);
	lb_jb_double(jb, o, "off_throughput", s->off_throughput);
	lb_jb_double(jb, o, "residue_pct", s->residue_pct);
	lb_jb_double(jb, o, "switch_on_ms", s->switch_on_ms);
	lb_jb_double(jb, o, "switch_off_ms", s->switch_off_ms);
	lb_jb_int(jb, o, "off_events", (int64_t)s->off_events);
	lb_jb_double(jb, o, "seconds", s->seconds);
}

static void lb_jb_runs(struct lb_jb *jb, struct json_object *parent,
		       const struct lb_probeset_result *psr)
{
	struct json_object *runs = lb_jb_child(jb, parent, "runs", true);
	size_t i, k;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];
		struct json_object *o = lb_jb_child(jb, runs, NULL, false), *samples;

		lb_jb_int(jb, o, "round", r->round);
		lb_jb_double(jb, o, "seconds", r->seconds);
		lb_jb_int(jb, o, "ops", (int64_t)r->ops);
		lb_jb_double(jb, o, "throughput", r->throughput);
		lb_jb_int(jb, o, "events", (int64_t)r->events);
		lb_jb_int(jb, o, "lost_events", (int64_t)r->lost_events);
		lb_jb_int(jb, o, "overwritten_events", (int64_t)r->overwritten_events);
		if (r->read_bytes) {
			lb_jb_int(jb, o, "read_events", (int64_t)r->read_events);
			lb_jb_int(jb, o, "read_bytes", (int64_t)r->read_bytes);
		}
		lb_jb_int(jb, o, "timeouts", (int64_t)r->timeouts);
		lb_jb_int(jb, o, "sent", (int64_t)r->sent);
		lb_jb_int(jb, o, "received", (int64_t)r->received);
		lb_jb_int(jb, o, "dropped", (int64_t)r->dropped);
		lb_jb_int(jb, o, "mismatches", (int64_t)r->mismatches);
		lb_jb_int(jb, o, "edge_spread_ops", (int64_t)r->edge_spread_ops);
		if (r->nflow_ops) {
			struct json_object *fo = lb_jb_child(jb, o, "flow_ops", true);

			for (k = 0; k < r->nflow_ops; k++)
				lb_jb_int(jb, fo, NULL, (int64_t)r->flow_ops[k]);
		}
		lb_jb_double(jb, o, "sample_interval_s", r->sample_interval);
		if (r->pcap) {
			lb_jb_int(jb, o, "pcap_packets", (int64_t)r->pcap_packets);
			lb_jb_int(jb, o, "pcap_dropped", (int64_t)r->pcap_dropped);
			lb_jb_int(jb, o, "server_drops", (int64_t)r->server_drops);
			lb_jb_bool(jb, o, "pcap_agrees", lb_run_pcap_agrees(r, NULL));
		}
		samples = lb_jb_child(jb, o, "samples", true);
		for (k = 0; k < r->nsamples; k++)
			lb_jb_double(jb, samples, NULL, r->samples[k]);
	}
}

/*
 * The slices of @psr's alternation, "on" as the name of the set that was on
 * (null: all off), so that the file does not depend on the order of its
 * entries. Written only when there are any.
 */
static void lb_jb_slices(struct lb_jb *jb, struct json_object *parent,
			 const struct lb_results *res, const struct lb_probeset_result *psr)
{
	struct json_object *arr;
	size_t i;

	if (!psr->nslices)
		return;
	arr = lb_jb_child(jb, parent, "slices", true);
	for (i = 0; i < psr->nslices; i++) {
		const struct lb_slice *sl = &psr->slices[i];
		struct json_object *o = lb_jb_child(jb, arr, NULL, false);
		bool on = sl->on >= 0 && (size_t)sl->on < res->nprobesets;

		lb_jb_int(jb, o, "unit", sl->unit);
		lb_jb_str(jb, o, "on", on ? res->probesets[sl->on].name : NULL);
		if (sl->on == LB_SLICE_PLAIN)
			lb_jb_bool(jb, o, "plain", true);
		lb_jb_double(jb, o, "start", sl->start);
		lb_jb_double(jb, o, "seconds", sl->seconds);
		lb_jb_double(jb, o, "switch_s", sl->switch_s);
		lb_jb_int(jb, o, "ops", (int64_t)sl->ops);
		lb_jb_int(jb, o, "events", (int64_t)sl->events);
		lb_jb_int(jb, o, "lost_events", (int64_t)sl->lost_events);
		lb_jb_int(jb, o, "overwritten_events", (int64_t)sl->overwritten_events);
		lb_jb_int(jb, o, "read_events", (int64_t)sl->read_events);
		lb_jb_int(jb, o, "off_events", (int64_t)sl->off_events);
		lb_jb_int(jb, o, "edge_spread_ops", (int64_t)sl->edge_spread_ops);
		lb_jb_bool(jb, o, "dropped", sl->dropped);
	}
}

static struct json_object *lb_results_to_json(const struct lb_results *res)
{
	struct lb_jb jb = { .oom = false };
	struct json_object *root = json_object_new_object(), *o, *arr;
	size_t i;

	if (!root)
		return NULL;
	lb_jb_str(&jb, root, "loadbench_version", res->version);
	lb_jb_str(&jb, root, "started", res->started);
	lb_jb_bool(&jb, root, "complete", res->complete);

	o = lb_jb_child(&jb, root, "host", false);
	lb_jb_str(&jb, o, "kernel_release", res->host.kernel_release);
	lb_jb_str(&jb, o, "kernel_version", res->host.kernel_version);
	lb_jb_str(&jb, o, "machine", res->host.machine);
	lb_jb_str(&jb, o, "cpu_model", res->host.cpu_model);
	lb_jb_str(&jb, o, "virtualization", res->host.virtualization);
	lb_jb_int(&jb, o, "ncpus", res->host.ncpus);
	if (res->host.vm_accelerator)
		lb_jb_str(&jb, o, "vm_accelerator", res->host.vm_accelerator);

	o = lb_jb_child(&jb, root, "config", false);
	lb_jb_str(&jb, o, "workload", res->config.workload);
	lb_jb_str(&jb, o, "placement", res->config.placement);
	lb_jb_str(&jb, o, "engine", res->config.engine);
	lb_jb_str(&jb, o, "command_line", res->config.command_line);
	lb_jb_double(&jb, o, "duration_s", res->config.duration);
	lb_jb_double(&jb, o, "warmup_s", res->config.warmup);
	lb_jb_int(&jb, o, "repeat", res->config.repeat);
	lb_jb_int(&jb, o, "syscalls_per_op", res->config.syscalls_per_op);
	lb_jb_int(&jb, o, "msg_size", res->config.msg_size);
	lb_jb_int(&jb, o, "server_cpu", res->config.server_cpu);
	lb_jb_int(&jb, o, "client_cpu", res->config.client_cpu);
	lb_jb_int(&jb, o, "buffer_kb", res->config.buffer_kb);
	if (res->config.topology)
		lb_jb_str(&jb, o, "topology", res->config.topology);
	if (res->config.flows)
		lb_jb_int(&jb, o, "flows", res->config.flows);
	if (res->config.nflow_placement) {
		struct json_object *fp = lb_jb_child(&jb, o, "flow_placement", true);

		for (i = 0; i < res->config.nflow_placement; i++) {
			struct json_object *e = lb_jb_child(&jb, fp, NULL, false);

			lb_jb_int(&jb, e, "flow", (int64_t)i);
			lb_jb_int(&jb, e, "server_cpu", res->config.flow_placement[i].server_cpu);
			lb_jb_int(&jb, e, "client_cpu", res->config.flow_placement[i].client_cpu);
		}
	}
	if (res->config.window)
		lb_jb_int(&jb, o, "window", res->config.window);
	/* Older results have none of these: NULL (= runs) and 0 read back as they were. */
	if (res->config.method)
		lb_jb_str(&jb, o, "method", res->config.method);
	if (res->config.method || res->config.slice || res->config.settle ||
	    res->config.precision || res->config.max_time) {
		lb_jb_double(&jb, o, "slice_s", res->config.slice);
		lb_jb_double(&jb, o, "settle_s", res->config.settle);
		lb_jb_double(&jb, o, "precision_pp", res->config.precision);
		lb_jb_double(&jb, o, "max_time_s", res->config.max_time);
	}
	/* Results before --time-budget have none: 0 reads back as none. */
	if (res->config.time_budget)
		lb_jb_double(&jb, o, "time_budget_s", res->config.time_budget);
	if (res->config.count_with) {
		lb_jb_str(&jb, o, "count_with", res->config.count_with);
		lb_jb_str(&jb, o, "pcap_filter", res->config.pcap_filter);
		lb_jb_double(&jb, o, "pcap_tolerance_packets", LB_PCAP_TOL_PACKETS);
		lb_jb_double(&jb, o, "pcap_tolerance_pct", LB_PCAP_TOL_PCT);
	}

	o = lb_jb_child(&jb, root, "baseline", false);
	lb_jb_str(&jb, o, "name", res->baseline.name);
	lb_jb_str(&jb, o, "tracer", res->baseline.tracer);
	lb_jb_runs(&jb, o, &res->baseline);
	lb_jb_summary(&jb, o, &res->baseline.summary, false);

	arr = lb_jb_child(&jb, root, "probesets", true);
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		o = lb_jb_child(&jb, arr, NULL, false);
		lb_jb_str(&jb, o, "name", psr->name);
		lb_jb_str(&jb, o, "tracer", psr->tracer);
		lb_jb_str(&jb, o, "description", psr->description);
		lb_jb_str(&jb, o, "file", psr->file);
		lb_jb_str(&jb, o, "file_text", psr->text);
		if (psr->compare_with)
			lb_jb_str(&jb, o, "compare_with", psr->compare_with);
		if (psr->added_for)
			lb_jb_str(&jb, o, "added_for", psr->added_for);
		if (psr->off_residue)
			lb_jb_str(&jb, o, "off_residue", psr->off_residue);
		lb_jb_runs(&jb, o, psr);
		lb_jb_slices(&jb, o, res, psr);
		lb_jb_summary(&jb, o, &psr->summary, lb_results_alternate(res));
	}

	arr = lb_jb_child(&jb, root, "warnings", true);
	for (i = 0; i < res->nwarnings; i++)
		lb_jb_str(&jb, arr, NULL, res->warnings[i]);

	arr = lb_jb_child(&jb, root, "skipped", true);
	for (i = 0; i < res->nskipped; i++) {
		o = lb_jb_child(&jb, arr, NULL, false);
		lb_jb_str(&jb, o, "name", res->skipped[i].name);
		lb_jb_str(&jb, o, "reason", res->skipped[i].reason);
	}

	if (jb.oom) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

int lb_results_write_json(const struct lb_results *res, const char *path)
{
	struct json_object *root;
	const char *text;
	char *data = NULL;
	size_t len;
	int ret = -ENOMEM;

	root = lb_results_to_json(res);
	if (!root)
		return -ENOMEM;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		goto out;
	len = strlen(text);
	data = malloc(len + 2);
	if (!data)
		goto out;
	memcpy(data, text, len);
	data[len++] = '\n';
	data[len] = '\0';
	ret = lb_atomic_write(path, data, len);
out:
	free(data);
	json_object_put(root);
	return ret;
}

/* ---- JSON reading --------------------------------------------------------------------------- */

struct lb_reader {
	const char *path;
	char *err;
	size_t errlen;
	size_t nruns;		/* runs read so far, of every entry: LB_RESULTS_MAX_RUNS */
	size_t nslices;		/* slices read so far, of every entry: LB_RESULTS_MAX_SLICES */
};

/*
 * Put "PATH: MESSAGE" in the caller's error buffer; returns -EINVAL. Strings
 * from the file (and the path) go to a terminal: escape them (lb_str_safe()).
 */
static int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	if (!rd->err || !rd->errlen)
		return -EINVAL;
	n = snprintf(rd->err, rd->errlen, "%s: ", lb_str_safe(rd->path, path, sizeof(path)));
	if (n >= 0 && (size_t)n < rd->errlen) {
		va_start(ap, fmt);
		vsnprintf(rd->err + n, rd->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *lb_json_type_name(const struct json_object *o)
{
	return json_type_to_name(json_object_get_type(o));
}

static const char *lb_json_type_wanted(enum json_type type)
{
	switch (type) {
	case json_type_boolean:
		return "true or false";
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	default:
		return "null";
	}
}

/*
 * Look up @key in @obj. Returns 1 and sets *@val when present and not null,
 * 0 when missing or null, or -EINVAL (with the message) when present with a
 * type other than @type; json_type_double also accepts integers.
 */
static int lb_get(struct lb_reader *rd, const struct json_object *obj, const char *where,
		  const char *key, enum json_type type, struct json_object **val)
{
	struct json_object *v = NULL;
	enum json_type t;

	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	t = json_object_get_type(v);
	if (t != type && !(type == json_type_double && t == json_type_int))
		return lb_reader_fail(rd, "%s%s%s: expected %s, found %s", where,
				      *where ? "." : "", key, lb_json_type_wanted(type),
				      lb_json_type_name(v));
	*val = v;
	return 1;
}

static int lb_get_str(struct lb_reader *rd, const struct json_object *obj, const char *where,
		      const char *key, char **out)
{
	struct json_object *v;
	int ret = lb_get(rd, obj, where, key, json_type_string, &v);

	if (ret <= 0)
		return ret;
	free(*out);
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

static int lb_get_double(struct lb_reader *rd, const struct json_object *obj, const char *where,
			 const char *key, double *out)
{
	struct json_object *v;
	int ret = lb_get(rd, obj, where, key, json_type_double, &v);

	*out = NAN;
	if (ret <= 0)
		return ret;
	*out = json_object_get_double(v);
	return 0;
}

/* As lb_get_double(), but *@out keeps its value when @key is not there (null is NAN). */
static int lb_get_double_present(struct lb_reader *rd, const struct json_object *obj,
				 const char *where, const char *key, double *out)
{
	if (!json_object_object_get_ex(obj, key, NULL))
		return 0;
	return lb_get_double(rd, obj, where, key, out);
}

static int lb_get_u64(struct lb_reader *rd, const struct json_object *obj, const char *where,
		      const char *key, uint64_t *out)
{
	struct json_object *v;
	int ret = lb_get(rd, obj, where, key, json_type_int, &v);

	*out = 0;
	if (ret <= 0)
		return ret;
	/* Written as int64 (see lb_jb_int); the cast back restores every uint64. */
	*out = (uint64_t)json_object_get_int64(v);
	return 0;
}

static int lb_get_int(struct lb_reader *rd, const struct json_object *obj, const char *where,
		      const char *key, int *out)
{
	struct json_object *v;
	int ret = lb_get(rd, obj, where, key, json_type_int, &v);
	int64_t x;

	if (ret <= 0)
		return ret;
	x = json_object_get_int64(v);
	if (x < INT_MIN || x > INT_MAX)
		return lb_reader_fail(rd, "%s%s%s: %" PRId64 " is out of range", where,
				      *where ? "." : "", key, x);
	*out = (int)x;
	return 0;
}

static int lb_get_bool(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       const char *key, bool *out)
{
	struct json_object *v;
	int ret = lb_get(rd, obj, where, key, json_type_boolean, &v);

	if (ret <= 0)
		return ret;
	*out = json_object_get_boolean(v);
	return 0;
}

/* A number or null at index @i of @arr. */
static int lb_array_double(struct lb_reader *rd, const struct json_object *arr, size_t i,
			   const char *where, double *out)
{
	struct json_object *v = json_object_array_get_idx(arr, i);
	enum json_type t = json_object_get_type(v);

	*out = NAN;
	if (!v)
		return 0;
	if (t != json_type_double && t != json_type_int)
		return lb_reader_fail(rd, "%s[%zu]: expected a number, found %s", where, i,
				      lb_json_type_name(v));
	*out = json_object_get_double(v);
	return 0;
}

/*
 * Refuse @n more entries of @what in the array at @where when they and the
 * *@total read before pass @cap (every entry's together when @total is not
 * NULL); count them in *@total.
 */
static int lb_reader_cap(struct lb_reader *rd, const char *where, const char *what, size_t n,
			 size_t *total, size_t cap)
{
	size_t before = total ? *total : 0;

	if (n > cap - before) {
		if (before)
			return lb_reader_fail(rd, "%s: %zu %s, %zu with those of the entries "
					      "before: more than the %zu a results file may hold",
					      where, n, what, before + n, cap);
		return lb_reader_fail(rd, "%s: %zu %s, more than the %zu a results file may hold",
				      where, n, what, cap);
	}
	if (total)
		*total += n;
	return 0;
}

static int lb_read_summary(struct lb_reader *rd, const struct json_object *obj,
			   const char *where, struct lb_summary *s)
{
	struct json_object *o, *ci;
	char w[128];
	int ret;

	lb_summary_init(s);
	ret = lb_get(rd, obj, where, "summary", json_type_object, &o);
	if (ret <= 0)
		return ret;
	snprintf(w, sizeof(w), "%s.summary", where);
	ret = lb_get_double(rd, o, w, "throughput_median", &s->throughput_median);
	if (!ret)
		ret = lb_get_double(rd, o, w, "throughput_cv", &s->throughput_cv);
	if (!ret)
		ret = lb_get_double(rd, o, w, "slowdown_pct", &s->slowdown_pct);
	if (!ret)
		ret = lb_get_double(rd, o, w, "events_per_op", &s->events_per_op);
	if (!ret)
		ret = lb_get_double(rd, o, w, "ns_per_event", &s->ns_per_event);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "events", &s->events);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "lost_events", &s->lost_events);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "overwritten_events", &s->overwritten_events);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "read_events", &s->read_events);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "read_bytes", &s->read_bytes);
	if (!ret)
		ret = lb_get_int(rd, o, w, "units", &s->units);
	if (!ret)
		ret = lb_get_int(rd, o, w, "dropped_units", &s->dropped_units);
	if (!ret)
		ret = lb_get_double(rd, o, w, "ci_half_width", &s->ci_half_width);
	if (!ret)
		ret = lb_get_bool(rd, o, w, "precision_reached", &s->precision_reached);
	if (!ret)
		ret = lb_get_double(rd, o, w, "off_throughput", &s->off_throughput);
	if (!ret)
		ret = lb_get_double(rd, o, w, "residue_pct", &s->residue_pct);
	if (!ret)
		ret = lb_get_double(rd, o, w, "switch_on_ms", &s->switch_on_ms);
	if (!ret)
		ret = lb_get_double(rd, o, w, "switch_off_ms", &s->switch_off_ms);
	if (!ret)
		ret = lb_get_u64(rd, o, w, "off_events", &s->off_events);
	if (!ret)
		ret = lb_get_double(rd, o, w, "seconds", &s->seconds);
	if (ret)
		return ret;
	ret = lb_get(rd, o, w, "slowdown_ci95", json_type_array, &ci);
	if (ret <= 0)
		return ret;
	snprintf(w, sizeof(w), "%s.summary.slowdown_ci95", where);
	if (json_object_array_length(ci) != 2)
		return lb_reader_fail(rd, "%s: expected [low, high], found %zu elements", w,
				      json_object_array_length(ci));
	ret = lb_array_double(rd, ci, 0, w, &s->slowdown_ci95[0]);
	if (!ret)
		ret = lb_array_double(rd, ci, 1, w, &s->slowdown_ci95[1]);
	return ret;
}

/* The optional "flow_ops" array of whole numbers of the run at @where. */
static int lb_read_flow_ops(struct lb_reader *rd, const struct json_object *o, const char *where,
			    struct lb_run *r)
{
	struct json_object *arr, *v;
	size_t i, n;
	int ret;

	ret = lb_get(rd, o, where, "flow_ops", json_type_array, &arr);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	r->flow_ops = calloc(n, sizeof(*r->flow_ops));
	if (!r->flow_ops)
		return -ENOMEM;
	r->nflow_ops = n;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_int))
			return lb_reader_fail(rd, "%s.flow_ops[%zu]: expected a whole number, "
					      "found %s", where, i, lb_json_type_name(v));
		r->flow_ops[i] = (uint64_t)json_object_get_int64(v);
	}
	return 0;
}

/* The optional "flow_placement" array of config: [{flow, server_cpu, client_cpu}]. */
static int lb_read_flow_placement(struct lb_reader *rd, const struct json_object *o,
				  struct lb_config *c)
{
	struct json_object *arr, *e;
	char w[64];
	size_t i, n;
	int ret;

	ret = lb_get(rd, o, "config", "flow_placement", json_type_array, &arr);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	c->flow_placement = calloc(n, sizeof(*c->flow_placement));
	if (!c->flow_placement)
		return -ENOMEM;
	c->nflow_placement = n;
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "config.flow_placement[%zu]", i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      lb_json_type_name(e));
		c->flow_placement[i].server_cpu = c->flow_placement[i].client_cpu = -1;
		ret = lb_get_int(rd, e, w, "server_cpu", &c->flow_placement[i].server_cpu);
		if (!ret)
			ret = lb_get_int(rd, e, w, "client_cpu", &c->flow_placement[i].client_cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static int lb_read_run(struct lb_reader *rd, const struct json_object *o, const char *where,
		       struct lb_run *r)
{
	struct json_object *samples;
	char w[128];
	size_t i, n;
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object, found %s", where,
				      lb_json_type_name(o));
	ret = lb_get_int(rd, o, where, "round", &r->round);
	if (!ret)
		ret = lb_get_double(rd, o, where, "seconds", &r->seconds);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "ops", &r->ops);
	if (!ret)
		ret = lb_get_double(rd, o, where, "throughput", &r->throughput);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "events", &r->events);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "lost_events", &r->lost_events);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "overwritten_events", &r->overwritten_events);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "read_events", &r->read_events);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "read_bytes", &r->read_bytes);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "timeouts", &r->timeouts);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "sent", &r->sent);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "received", &r->received);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "dropped", &r->dropped);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "mismatches", &r->mismatches);
	if (!ret)
		ret = lb_get_u64(rd, o, where, "edge_spread_ops", &r->edge_spread_ops);
	if (!ret)
		ret = lb_get_double(rd, o, where, "sample_interval_s", &r->sample_interval);
	if (!ret)
		ret = lb_read_flow_ops(rd, o, where, r);
	if (!ret && json_object_object_get_ex(o, "pcap_packets", NULL)) {
		r->pcap = true;
		ret = lb_get_u64(rd, o, where, "pcap_packets", &r->pcap_packets);
		if (!ret)
			ret = lb_get_u64(rd, o, where, "pcap_dropped", &r->pcap_dropped);
		if (!ret)
			ret = lb_get_u64(rd, o, where, "server_drops", &r->server_drops);
	}
	if (ret)
		return ret;
	ret = lb_get(rd, o, where, "samples", json_type_array, &samples);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(samples);
	if (!n)
		return 0;
	r->samples = calloc(n, sizeof(*r->samples));
	if (!r->samples)
		return -ENOMEM;
	r->nsamples = n;
	snprintf(w, sizeof(w), "%s.samples", where);
	for (i = 0; i < n; i++) {
		ret = lb_array_double(rd, samples, i, w, &r->samples[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The optional "slices" array of the probe set at @where, every field but
 * "on": the set it names may come later in the file (lb_read_slice_states()).
 */
static int lb_read_slices(struct lb_reader *rd, const struct json_object *o, const char *where,
			  struct lb_probeset_result *psr)
{
	struct json_object *arr, *e;
	char w[128];
	size_t i, n;
	int ret;

	ret = lb_get(rd, o, where, "slices", json_type_array, &arr);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	snprintf(w, sizeof(w), "%s.slices", where);
	ret = lb_reader_cap(rd, w, "slices", n, &rd->nslices, LB_RESULTS_MAX_SLICES);
	if (ret)
		return ret;
	psr->slices = calloc(n, sizeof(*psr->slices));
	if (!psr->slices)
		return -ENOMEM;
	psr->nslices = n;
	for (i = 0; i < n; i++) {
		struct lb_slice *sl = &psr->slices[i];

		snprintf(w, sizeof(w), "%s.slices[%zu]", where, i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      e ? lb_json_type_name(e) : "null");
		bool plain = false;

		sl->on = -1;
		ret = lb_get_bool(rd, e, w, "plain", &plain);
		if (!ret && plain)
			sl->on = LB_SLICE_PLAIN;
		if (!ret)
			ret = lb_get_int(rd, e, w, "unit", &sl->unit);
		if (!ret)
			ret = lb_get_double(rd, e, w, "start", &sl->start);
		if (!ret)
			ret = lb_get_double(rd, e, w, "seconds", &sl->seconds);
		if (!ret)
			ret = lb_get_double(rd, e, w, "switch_s", &sl->switch_s);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "ops", &sl->ops);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "events", &sl->events);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "lost_events", &sl->lost_events);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "overwritten_events", &sl->overwritten_events);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "read_events", &sl->read_events);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "off_events", &sl->off_events);
		if (!ret)
			ret = lb_get_u64(rd, e, w, "edge_spread_ops", &sl->edge_spread_ops);
		if (!ret)
			ret = lb_get_bool(rd, e, w, "dropped", &sl->dropped);
		if (ret)
			return ret;
	}
	return 0;
}

/* An entry's name and index, for lookups by name. */
struct lb_named {
	const char *name;
	size_t index;
};

/* By name, then by index: the first entry of a name comes first. */
static int lb_cmp_named(const void *a, const void *b)
{
	const struct lb_named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The index of the first entry named @name in the @n sorted @by_name, or @n when none is. */
static size_t lb_named_find(const struct lb_named *by_name, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	/* The first whose name is not below @name. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(by_name[lo].name, name) ? by_name[lo].index : n;
}

/*
 * The "on" of every slice of every probe set, once all the entries are read:
 * a name of an entry (its index; the first of that name), or null for off.
 * Looked up in the entries sorted by name: a slice at a time through every
 * entry was slices x entries.
 */
static int lb_read_slice_states(struct lb_reader *rd, const struct json_object *arr,
				struct lb_results *res)
{
	struct json_object *slices, *v;
	struct lb_named *by_name;
	char w[128], name[256];
	size_t i, k, j;
	int ret = 0;

	if (!rd->nslices)
		return 0;
	by_name = calloc(res->nprobesets, sizeof(*by_name));
	if (!by_name)
		return -ENOMEM;
	for (i = 0; i < res->nprobesets; i++)
		by_name[i] = (struct lb_named){ res->probesets[i].name, i };
	qsort(by_name, res->nprobesets, sizeof(*by_name), lb_cmp_named);
	for (i = 0; i < res->nprobesets && !ret; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];

		if (!psr->nslices)
			continue;
		/* Read once already: an array of objects with as many entries. */
		json_object_object_get_ex(json_object_array_get_idx(arr, i), "slices", &slices);
		for (k = 0; k < psr->nslices; k++) {
			snprintf(w, sizeof(w), "probesets[%zu].slices[%zu]", i, k);
			ret = lb_get(rd, json_object_array_get_idx(slices, k), w, "on",
				     json_type_string, &v);
			if (ret < 0)
				break;
			if (!ret)
				continue;
			ret = 0;
			if (psr->slices[k].on == LB_SLICE_PLAIN) {
				ret = lb_reader_fail(rd, "%s: a plain slice (nothing armed) has no "
						     "set on: its \"on\" is null", w);
				break;
			}
			j = lb_named_find(by_name, res->nprobesets, json_object_get_string(v));
			if (j == res->nprobesets) {
				lb_str_safe(json_object_get_string(v), name, sizeof(name));
				ret = lb_reader_fail(rd, "%s.on: \"%s\" is not the name of a "
						     "probe set in this file (null means all "
						     "off)", w, name);
				break;
			}
			psr->slices[k].on = (int)j;
		}
	}
	free(by_name);
	return ret;
}

/* One probe set (or the baseline) at @where; @is_baseline reads only what the baseline has. */
static int lb_read_probeset(struct lb_reader *rd, const struct json_object *o, const char *where,
			    bool is_baseline, struct lb_probeset_result *psr)
{
	struct json_object *runs;
	char w[96];
	size_t i, n;
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object, found %s", where,
				      lb_json_type_name(o));
	ret = lb_get_str(rd, o, where, "name", &psr->name);
	if (!ret)
		ret = lb_get_str(rd, o, where, "tracer", &psr->tracer);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "description", &psr->description);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "file", &psr->file);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "file_text", &psr->text);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "compare_with", &psr->compare_with);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "added_for", &psr->added_for);
	if (!ret && !is_baseline)
		ret = lb_get_str(rd, o, where, "off_residue", &psr->off_residue);
	if (ret)
		return ret;
	if (!psr->name)
		return lb_reader_fail(rd, "%s: no \"name\"", where);
	/* Names are looked up and compared: a long one would make each comparison long. */
	if (strlen(psr->name) > LB_RESULTS_MAX_NAME)
		return lb_reader_fail(rd, "%s.name: %zu bytes, longer than the %d of a probe-set "
				      "file's name", where, strlen(psr->name), LB_RESULTS_MAX_NAME);
	ret = lb_read_summary(rd, o, where, &psr->summary);
	if (!ret && !is_baseline)
		ret = lb_read_slices(rd, o, where, psr);
	if (ret)
		return ret;
	ret = lb_get(rd, o, where, "runs", json_type_array, &runs);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(runs);
	if (!n)
		return 0;
	snprintf(w, sizeof(w), "%s.runs", where);
	ret = lb_reader_cap(rd, w, "runs", n, &rd->nruns, LB_RESULTS_MAX_RUNS);
	if (ret)
		return ret;
	psr->runs = calloc(n, sizeof(*psr->runs));
	if (!psr->runs)
		return -ENOMEM;
	psr->nruns = n;
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "%s.runs[%zu]", where, i);
		ret = lb_read_run(rd, json_object_array_get_idx(runs, i), w, &psr->runs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int lb_read_host_config(struct lb_reader *rd, const struct json_object *root,
			       struct lb_results *res)
{
	struct lb_config *c = &res->config;
	struct lb_host *h = &res->host;
	struct json_object *o;
	int ret;

	ret = lb_get(rd, root, "", "host", json_type_object, &o);
	if (ret > 0) {
		ret = lb_get_str(rd, o, "host", "kernel_release", &h->kernel_release);
		if (!ret)
			ret = lb_get_str(rd, o, "host", "kernel_version", &h->kernel_version);
		if (!ret)
			ret = lb_get_str(rd, o, "host", "machine", &h->machine);
		if (!ret)
			ret = lb_get_str(rd, o, "host", "cpu_model", &h->cpu_model);
		if (!ret)
			ret = lb_get_str(rd, o, "host", "virtualization", &h->virtualization);
		if (!ret)
			ret = lb_get_int(rd, o, "host", "ncpus", &h->ncpus);
		if (!ret)
			ret = lb_get_str(rd, o, "host", "vm_accelerator", &h->vm_accelerator);
	}
	if (ret)
		return ret;

	ret = lb_get(rd, root, "", "config", json_type_object, &o);
	if (ret > 0) {
		ret = lb_get_str(rd, o, "config", "workload", &c->workload);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "placement", &c->placement);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "engine", &c->engine);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "command_line", &c->command_line);
		if (!ret)
			ret = lb_get_double(rd, o, "config", "duration_s", &c->duration);
		if (!ret)
			ret = lb_get_double(rd, o, "config", "warmup_s", &c->warmup);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "repeat", &c->repeat);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "syscalls_per_op", &c->syscalls_per_op);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "msg_size", &c->msg_size);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "server_cpu", &c->server_cpu);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "client_cpu", &c->client_cpu);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "buffer_kb", &c->buffer_kb);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "topology", &c->topology);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "flows", &c->flows);
		if (!ret)
			ret = lb_read_flow_placement(rd, o, c);
		if (!ret)
			ret = lb_get_int(rd, o, "config", "window", &c->window);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "count_with", &c->count_with);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "pcap_filter", &c->pcap_filter);
		if (!ret)
			ret = lb_get_str(rd, o, "config", "method", &c->method);
		if (!ret)
			ret = lb_get_double_present(rd, o, "config", "slice_s", &c->slice);
		if (!ret)
			ret = lb_get_double_present(rd, o, "config", "settle_s", &c->settle);
		if (!ret)
			ret = lb_get_double_present(rd, o, "config", "precision_pp", &c->precision);
		if (!ret)
			ret = lb_get_double_present(rd, o, "config", "max_time_s", &c->max_time);
		if (!ret)
			ret = lb_get_double_present(rd, o, "config", "time_budget_s",
						    &c->time_budget);
	}
	return ret;
}

/*
 * The "warnings" array, each text once: a repeated one is kept where it
 * first stands. The repeats are found in a sorted copy; a search of those
 * kept so far for each one took warnings x warnings.
 */
static int lb_read_warnings(struct lb_reader *rd, const struct json_object *root,
			    struct lb_results *res)
{
	struct lb_named *sorted = NULL;
	struct json_object *arr, *v;
	bool *first = NULL;
	size_t i, n;
	int ret;

	ret = lb_get(rd, root, "", "warnings", json_type_array, &arr);
	if (ret <= 0)
		return ret;
	n = json_object_array_length(arr);
	ret = lb_reader_cap(rd, "warnings", "warnings", n, NULL, LB_RESULTS_MAX_WARNINGS);
	if (ret || !n)
		return ret;
	ret = -ENOMEM;
	sorted = calloc(n, sizeof(*sorted));
	first = calloc(n, sizeof(*first));
	res->warnings = calloc(n, sizeof(*res->warnings));
	if (!sorted || !first || !res->warnings)
		goto out;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_string)) {
			ret = lb_reader_fail(rd, "warnings[%zu]: expected a string, found %s", i,
					     v ? lb_json_type_name(v) : "null");
			goto out;
		}
		sorted[i] = (struct lb_named){ json_object_get_string(v), i };
	}
	qsort(sorted, n, sizeof(*sorted), lb_cmp_named);
	for (i = 0; i < n; i++)
		first[sorted[i].index] = !i || strcmp(sorted[i].name, sorted[i - 1].name);
	for (i = 0; i < n; i++) {
		if (!first[i])
			continue;
		res->warnings[res->nwarnings] =
			strdup(json_object_get_string(json_object_array_get_idx(arr, i)));
		if (!res->warnings[res->nwarnings])
			goto out;
		res->nwarnings++;
	}
	ret = 0;
out:
	free(sorted);
	free(first);
	return ret;
}

static int lb_results_from_json(struct lb_reader *rd, const struct json_object *root,
				struct lb_results *res)
{
	struct json_object *o, *arr;
	char w[64];
	size_t i, n;
	int ret;

	if (!json_object_is_type(root, json_type_object))
		return lb_reader_fail(rd, "not loadbench results: the top level is %s, "
				      "not an object", root ? lb_json_type_name(root) : "null");
	ret = lb_get(rd, root, "", "probesets", json_type_array, &arr);
	if (ret < 0)
		return ret;
	if (!ret)
		return lb_reader_fail(rd, "not loadbench results: no \"probesets\" array");

	ret = lb_get_str(rd, root, "", "loadbench_version", &res->version);
	if (!ret)
		ret = lb_get_str(rd, root, "", "started", &res->started);
	if (!ret)
		ret = lb_get_bool(rd, root, "", "complete", &res->complete);
	if (!ret)
		ret = lb_read_host_config(rd, root, res);
	if (ret)
		return ret;

	ret = lb_get(rd, root, "", "baseline", json_type_object, &o);
	if (ret > 0)
		ret = lb_read_probeset(rd, o, "baseline", true, &res->baseline);
	if (ret)
		return ret;

	n = json_object_array_length(arr);
	ret = lb_reader_cap(rd, "probesets", "probe sets", n, NULL, LB_RESULTS_MAX_PROBESETS);
	if (ret)
		return ret;
	if (n) {
		res->probesets = calloc(n, sizeof(*res->probesets));
		if (!res->probesets)
			return -ENOMEM;
		res->nprobesets = n;
	}
	for (i = 0; i < n; i++) {
		snprintf(w, sizeof(w), "probesets[%zu]", i);
		ret = lb_read_probeset(rd, json_object_array_get_idx(arr, i), w, false,
				       &res->probesets[i]);
		if (ret)
			return ret;
	}
	ret = lb_read_slice_states(rd, arr, res);
	if (ret)
		return ret;

	ret = lb_get(rd, root, "", "skipped", json_type_array, &arr);
	if (ret < 0)
		return ret;
	n = ret ? json_object_array_length(arr) : 0;
	ret = lb_reader_cap(rd, "skipped", "probe sets", n, NULL, LB_RESULTS_MAX_PROBESETS);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		char *name = NULL, *reason = NULL;

		snprintf(w, sizeof(w), "skipped[%zu]", i);
		if (!json_object_is_type(v, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      v ? lb_json_type_name(v) : "null");
		ret = lb_get_str(rd, v, w, "name", &name);
		if (!ret)
			ret = lb_get_str(rd, v, w, "reason", &reason);
		if (!ret)
			ret = lb_results_add_skipped(res, name, reason);
		free(name);
		free(reason);
		if (ret)
			return ret;
	}

	return lb_read_warnings(rd, root, res);
}

/* The whole of @path, NUL-terminated, in *@buf; -errno with the reason in @rd. */
static int lb_read_whole(struct lb_reader *rd, char **buf, size_t *len)
{
	int ret = lb_read_file(rd->path, LB_JSON_MAX, buf, len);

	if (ret == -EFBIG)
		lb_reader_fail(rd, "larger than %lu MiB; not loadbench results",
			       (unsigned long)(LB_JSON_MAX >> 20));
	else if (ret && ret != -ENOMEM)
		lb_reader_fail(rd, "%s", strerror(-ret));
	return ret;
}

int lb_results_read_json(const char *path, struct lb_results **out, char *err, size_t errlen)
{
	struct lb_reader rd = { .path = path, .err = err, .errlen = errlen };
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	struct lb_results *res = NULL;
	enum json_tokener_error jerr;
	char *data = NULL;
	size_t len = 0, end;
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	ret = lb_read_whole(&rd, &data, &len);
	if (ret)
		goto out;

	ret = -EINVAL;
	end = strspn(data, " \t\r\n");
	if (end == len) {
		lb_reader_fail(&rd, "empty file; not loadbench results");
		goto out;
	}
	if (strlen(data) != len) {
		lb_reader_fail(&rd, "contains a NUL byte; not loadbench results (JSON)");
		goto out;
	}
	ret = -ENOMEM;
	tok = json_tokener_new();
	if (!tok)
		goto out;
	ret = -EINVAL;
	root = json_tokener_parse_ex(tok, data, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		lb_reader_fail(&rd, "the file ends inside the JSON document (truncated?)");
		goto out;
	}
	if (jerr != json_tokener_success) {
		lb_reader_fail(&rd, "not valid JSON: %s at byte %zu", json_tokener_error_desc(jerr),
			       json_tokener_get_parse_end(tok));
		goto out;
	}
	end = json_tokener_get_parse_end(tok);
	end += strspn(data + end, " \t\r\n");
	if (end < len) {
		lb_reader_fail(&rd, "not valid JSON: trailing data at byte %zu", end);
		goto out;
	}

	ret = -ENOMEM;
	res = lb_results_new();
	if (!res)
		goto out;
	ret = lb_results_from_json(&rd, root, res);
	if (ret)
		goto out;
	*out = res;
	res = NULL;
out:
	if (ret == -ENOMEM && err && errlen && !err[0])
		lb_reader_fail(&rd, "%s", strerror(ENOMEM));
	lb_results_free(res);
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(data);
	return ret;
}

/* ---- CSV ------------------------------------------------------------------------------------ */

/* One field per RFC 4180: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
static void lb_csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number, or an empty field for NaN and infinities. */
static void lb_csv_double(FILE *f, double d)
{
	char buf[40];

	if (!isfinite(d))
		return;
	lb_format_double(buf, sizeof(buf), d);
	fputs(buf, f);
}

static void lb_csv_runs(FILE *f, const char *name, const char *tracer,
			const struct lb_probeset_result *psr)
{
	size_t i;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];

		lb_csv_str(f, name);
		fputc(',', f);
		lb_csv_str(f, tracer);
		fprintf(f, ",%d,", r->round);
		lb_csv_double(f, r->seconds);
		fprintf(f, ",%" PRIu64 ",", r->ops);
		lb_csv_double(f, r->throughput);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->events,
			r->lost_events, r->timeouts, r->overwritten_events);
	}
}

/* results.csv of @arg (a struct lb_results) on @f. */
static void lb_csv_print_runs(FILE *f, const void *arg)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs(LB_CSV_HEADER, f);
	lb_csv_runs(f, "baseline", "none", &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		lb_csv_runs(f, res->probesets[i].name, res->probesets[i].tracer,
			    &res->probesets[i]);
}

int lb_results_write_csv(const struct lb_results *res, const char *path)
{
	return lb_atomic_write_stream(path, lb_csv_print_runs, res);
}

bool lb_results_has_slices(const struct lb_results *res)
{
	size_t i;

	for (i = 0; i < res->nprobesets; i++)
		if (res->probesets[i].nslices)
			return true;
	return false;
}

static void lb_csv_slices(FILE *f, const struct lb_results *res,
			  const struct lb_probeset_result *psr)
{
	size_t i;

	for (i = 0; i < psr->nslices; i++) {
		const struct lb_slice *sl = &psr->slices[i];
		bool on = sl->on >= 0 && (size_t)sl->on < res->nprobesets;

		lb_csv_str(f, psr->name);
		fprintf(f, ",%d,", sl->unit);
		lb_csv_str(f, on ? res->probesets[sl->on].name :
			   sl->on == LB_SLICE_PLAIN ? "plain" : "off");
		fputc(',', f);
		lb_csv_double(f, sl->start);
		fputc(',', f);
		lb_csv_double(f, sl->seconds);
		fputc(',', f);
		lb_csv_double(f, sl->switch_s);
		fprintf(f, ",%" PRIu64 ",", sl->ops);
		lb_csv_double(f, sl->seconds > 0 ? sl->ops / sl->seconds : NAN);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", sl->events,
			sl->lost_events, sl->off_events, sl->edge_spread_ops, sl->dropped ? 1 : 0);
	}
}

/* slices.csv of @arg (a struct lb_results) on @f. */
static void lb_csv_print_slices(FILE *f, const void *arg)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs(LB_SLICES_CSV_HEADER, f);
	for (i = 0; i < res->nprobesets; i++)
		lb_csv_slices(f, res, &res->probesets[i]);
}

int lb_results_write_slices_csv(const struct lb_results *res, const char *path)
{
	if (!lb_results_has_slices(res))
		return 0;
	return lb_atomic_write_stream(path, lb_csv_print_slices, res);
}

/* ---- questions asked of the results ------------------------------------------------------ */

bool lb_results_emulated(const struct lb_results *res)
{
	return res->host.virtualization && strstr(res->host.virtualization, "tcg");
}

const char *lb_results_share(uint64_t part, uint64_t whole, char *buf, size_t len)
{
	double pct = whole ? 100.0 * (double)part / (double)whole : NAN;
	int decimals = 1;

	if (!isfinite(pct)) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* 99.96% is not "100.0%" while anything was kept, nor 0.04% "0.0%". */
	if (pct > 0 && pct < 0.1)
		decimals = (int)ceil(-log10(pct)) + 1;
	else if (pct > 99.9 && pct < 100)
		decimals = (int)ceil(-log10(100 - pct));
	if (decimals > 12)
		decimals = 12;
	snprintf(buf, len, "%.*f%%", decimals, pct);
	return buf;
}

/* Whether |pcap - (ops + server drops)| <= 512 + 1%; the difference in *@diff. */
bool lb_run_pcap_agrees(const struct lb_run *r, int64_t *diff)
{
	double want = (double)r->ops + (double)r->server_drops;
	int64_t d = (int64_t)r->pcap_packets - (int64_t)(r->ops + r->server_drops);

	if (diff)
		*diff = d;
	return r->pcap && !r->pcap_dropped &&
	       fabs((double)d) <= LB_PCAP_TOL_PACKETS + LB_PCAP_TOL_PCT / 100 * want;
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
	out->ns_per_extra_event = lb_stats_ns_per_event(tb, t, out->extra_events_per_op);

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
		return 0;
	}
	/* The set against its base, run by run in the same round: neighbours in time. */
	pb = calloc(psr->nruns + 1, sizeof(*pb));
	pt = calloc(psr->nruns + 1, sizeof(*pt));
	if (!pb || !pt || lb_rounds_init(&rounds, base)) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0; k < psr->nruns; k++) {
		const struct lb_run *br = lb_rounds_find(&rounds, psr->runs[k].round);

		if (!br)
			continue;
		pb[n] = br->throughput;
		pt[n++] = psr->runs[k].throughput;
	}
	out->vs_base_pct = lb_stats_slowdown_pct(pb, pt, n);
	if (n >= 2)
		lb_stats_slowdown_ci95(pb, pt, n, LB_CI_RESAMPLES, LB_CI_SEED, &out->vs_base_ci95[0],
				       &out->vs_base_ci95[1]);
	ret = 0;
out:
	free(rounds.run);
	free(pb);
	free(pt);
	return ret;
}
