// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figures of one results directory under --method runs (and the
 * slowdown and cost figures under alternate too): slowdown.dat (sorted by
 * slowdown), throughput.dat (every run's samples), cost.dat (cost per
 * event, lost and overwritten events), and their scripts' headers.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "figure.h"
#include "format.h"
#include "results.h"

/*
 * Order of rows in slowdown.dat (by slowdown) and cost.dat (by cost per
 * event): smallest first, NaN last, then input order.
 */
struct row {
	const struct lb_probeset_result *psr;
	size_t index;
	double key;
};

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	double x = a->key, y = b->key;

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x < y ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * The probe sets of @res sorted by slowdown, or by cost per event when
 * @by_cost (smallest first, NaN last): a malloc'd array.
 */
static struct row *sorted_rows(const struct lb_results *res, bool by_cost)
{
	struct row *rows;
	size_t i;

	rows = calloc(res->nprobesets ? res->nprobesets : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < res->nprobesets; i++) {
		rows[i].psr = &res->probesets[i];
		rows[i].index = i;
		rows[i].key = by_cost ? res->probesets[i].summary.ns_per_event :
			      res->probesets[i].summary.slowdown_pct;
	}
	qsort(rows, res->nprobesets, sizeof(*rows), cmp_rows);
	return rows;
}

static int write_slowdown_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	bool alternate = lb_results_alternate(res);
	struct row *rows;
	size_t i;

	rows = sorted_rows(res, false);
	if (!rows)
		return -ENOMEM;

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput slowdown per probe set, read by slowdown.gp\n", f);
	if (alternate)
		fputs("# --method alternate: slowdown_pct = 100 * (1 - exp(20% trimmed mean over\n"
		      "# the units of alternation of log(on / off throughput))); ci95_low, ci95_high: its 95%\n"
		      "# confidence interval (moving-block bootstrap over the units);\n"
		      "# throughput_median in operations/s, its probes on; units: units used;\n"
		      "# ci_half_width in percentage points; precision_reached: 1 when\n"
		      "# ci_half_width <= the target (config precision). Sorted by slowdown;\n"
		      "# NaN = missing value.\n", f);
	else
		fputs("# slowdown_pct = 100 * (1 - median traced / median baseline throughput);\n"
		      "# ci95_low, ci95_high: its 95% confidence interval (paired percentile "
		      "bootstrap);\n# throughput_median in operations/s. Sorted by slowdown; NaN = "
		      "missing value.\n", f);
	fprintf(f, "# baseline throughput_median: ");
	lb_fig_put_num(f, 2, res->baseline.summary.throughput_median);
	fprintf(f, " ops/s over %zu run(s)\n", res->baseline.nruns);
	fprintf(f, "# name\tslowdown_pct\tci95_low\tci95_high\tthroughput_median%s\n",
		alternate ? "\tunits\tci_half_width\tprecision_reached" : "");
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_summary *s = &rows[i].psr->summary;

		lb_fig_put_name(f, rows[i].psr->name);
		fputc('\t', f);
		lb_fig_put_num(f, 4, s->slowdown_pct);
		fputc('\t', f);
		lb_fig_put_num(f, 4, s->slowdown_ci95[0]);
		fputc('\t', f);
		lb_fig_put_num(f, 4, s->slowdown_ci95[1]);
		fputc('\t', f);
		lb_fig_put_num(f, 2, s->throughput_median);
		if (alternate) {
			fprintf(f, "\t%d\t", s->units);
			lb_fig_put_num(f, 4, s->ci_half_width);
			fprintf(f, "\t%d", s->precision_reached ? 1 : 0);
		}
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

/* The largest round number of @psr's runs (0 without runs). */
static int last_round(const struct lb_probeset_result *psr)
{
	int last = 0;
	size_t i;

	for (i = 0; i < psr->nruns; i++)
		if (psr->runs[i].round > last)
			last = psr->runs[i].round;
	return last;
}

/* The first columns of a row of throughput.dat's index 0: number, name, tracer, median. */
void lb_fig_put_set_head(FILE *f, int set, const struct lb_probeset_result *psr)
{
	fprintf(f, "%d\t", set);
	lb_fig_put_name(f, psr->name);
	fputc('\t', f);
	lb_fig_put_name(f, psr->tracer);
	fputc('\t', f);
	lb_fig_put_num(f, 2, psr->summary.throughput_median);
}

/* One row of throughput.dat's index 0: set number, name, tracer, median, runs, last round. */
static void put_set_row(FILE *f, int set, const struct lb_probeset_result *psr)
{
	lb_fig_put_set_head(f, set, psr);
	fprintf(f, "\t%zu\t%d\n", psr->nruns, last_round(psr));
}

/* The samples of @psr's runs, one block (ended by a blank line) per run. */
static void put_samples(FILE *f, int set, const struct lb_probeset_result *psr)
{
	size_t i, j;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];
		double len = r->seconds;

		if (!r->nsamples || !(len > 0) || !(r->sample_interval > 0))
			continue;
		for (j = 0; j < r->nsamples; j++) {
			double from = j * r->sample_interval;
			double to = j + 1 == r->nsamples ? len : (j + 1) * r->sample_interval;
			double mid;

			if (from > len)
				from = len;
			if (to > len)
				to = len;
			mid = (from + to) / 2;
			fprintf(f, "%d\t%d\t%.4f\t%.5f\t", set, r->round, mid,
				r->round - 1 + mid / len);
			lb_fig_put_num(f, 2, r->samples[j]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

static int write_throughput_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput over time, every run, read by throughput.gp\n", f);
	fputs("# Two blocks (gnuplot index 0 and 1), separated by two blank lines.\n"
	      "# index 0, one row per probe set: set (0 = the baseline, then the probe sets in\n"
	      "#   run order), name, tracer, throughput_median (ops/s), runs, last_round.\n"
	      "# index 1, one row per throughput sample, one block per run: set, round,\n"
	      "#   t (s, middle of the sample's interval in the measured window), x = round - 1 +\n"
	      "#   t / window length (the plot's axis: one unit per round), ops_per_s.\n", f);
	fputs("# set\tname\ttracer\tthroughput_median\truns\tlast_round\n", f);
	put_set_row(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		put_set_row(f, (int)i + 1, &res->probesets[i]);
	fputs("\n\n# set\tround\tt\tx\tops_per_s\n", f);
	put_samples(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		put_samples(f, (int)i + 1, &res->probesets[i]);
	return 0;
}

/* 100 * @part / @whole, NaN when @whole is 0. */
static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

/*
 * The mark cost.gp prints beside a probe set's events: "1,772,788 lost (61.0%)",
 * "99.7% overwritten", both, or "none".
 */
static const char *event_mark(const struct lb_summary *s, char *buf, size_t len)
{
	char lost[128], pct[32];

	if (s->lost_events && s->overwritten_events)
		snprintf(buf, len, "%s, %s overwritten",
			 lb_fmt_lost(s, ",", " lost", lost, sizeof(lost)),
			 lb_results_share(s->overwritten_events, s->events, pct, sizeof(pct)));
	else if (s->lost_events)
		lb_fmt_lost(s, ",", " lost", buf, len);
	else if (s->overwritten_events)
		snprintf(buf, len, "%s overwritten",
			 lb_results_share(s->overwritten_events, s->events, pct, sizeof(pct)));
	else
		snprintf(buf, len, "none");
	return buf;
}

/* A share for a .dat column: six significant digits, so that a tiny one is not 0. */
static void put_share(FILE *f, double pct)
{
	if (isfinite(pct))
		fprintf(f, "%.6g", pct);
	else
		fputs("NaN", f);
}

static int write_cost_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	struct row *rows;
	char mark[256];
	size_t i;

	rows = sorted_rows(res, true);
	if (!rows)
		return -ENOMEM;
	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": cost per event and events per operation, read by cost.gp\n", f);
	fputs("# ns_per_event = (1/traced - 1/baseline median throughput) / events_per_op, in ns;\n"
	      "# events_per_op: median over runs of events / operations; events, lost_events:\n"
	      "# sums over runs; lost_pct = 100 * lost / events (never recorded: dropped);\n"
	      "# overwritten_pct: recorded, then overwritten (flight recorder, by design);\n"
	      "# mark: what cost.gp prints beside the events (lost and overwritten, or none);\n"
	      "# ns_ci_lo, ns_ci_hi: the slowdown's 95% CI as a cost per event.\n"
	      "# Sorted by cost per event, smallest first; NaN = missing value.\n", f);
	fputs("# name\tns_per_event\tevents_per_op\tevents\tlost_events\tlost_pct\t"
	      "overwritten_pct\tslowdown_pct\tmark\tns_ci_lo\tns_ci_hi\n", f);
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_summary *s = &rows[i].psr->summary;

		lb_fig_put_name(f, rows[i].psr->name);
		fputc('\t', f);
		lb_fig_put_num(f, 2, s->ns_per_event);
		fputc('\t', f);
		lb_fig_put_num(f, 4, s->events_per_op);
		fprintf(f, "\t%" PRIu64 "\t%" PRIu64 "\t", s->events, s->lost_events);
		put_share(f, pct_of(s->lost_events, s->events));
		fputc('\t', f);
		put_share(f, pct_of(s->overwritten_events, s->events));
		fputc('\t', f);
		lb_fig_put_num(f, 4, s->slowdown_pct);
		fputc('\t', f);
		lb_fig_put_name(f, event_mark(s, mark, sizeof(mark)));
		fputc('\t', f);
		lb_fig_put_num(f, 2, s->ns_per_event_ci95[0]);
		fputc('\t', f);
		lb_fig_put_num(f, 2, s->ns_per_event_ci95[1]);
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

static void write_slowdown_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	double cv = res->baseline.summary.throughput_cv;
	bool alternate = lb_results_alternate(res);
	char line[1024], units[64];

	lb_fig_put_intro(f, "slowdown", "throughput slowdown per probe set", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "Throughput slowdown under tracing");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	/*
	 * The band a slowdown must leave to be told from noise (as the run's
	 * warning says). Under alternate the intervals carry the noise of the
	 * slices themselves, and the plain runs' spread says nothing about them.
	 */
	fputs("\nnoise_pct = ", f);
	lb_fig_put_num(f, 2, !alternate && res->baseline.nruns > 1 && cv > 0 ? 200 * cv : NAN);
	if (alternate) {
		snprintf(line, sizeof(line), "whiskers: 95%% CI, moving-block bootstrap over %s",
			 lb_fig_units_text(res, units, sizeof(units)));
		fputs("\nalternate = 1\nci_label = ", f);
		lb_fig_put_string(f, line);
		fputs("\nno_ci_label = ", f);
		lb_fig_put_string(f, "no confidence interval: it needs 2 or more units");
	}
	lb_fig_put_common(res, f);
}

static void write_throughput_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	double iv = 0;
	char line[1024];
	size_t i;

	for (i = 0; i < res->baseline.nruns && !(iv > 0); i++)
		iv = res->baseline.runs[i].sample_interval;
	lb_fig_put_intro(f, "throughput", "throughput over time, every run", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "Throughput over time, every repetition");
	if (iv > 0)
		snprintf(line, sizeof(line), "one point per %g s sample of each run (%g s measured "
			 "after %g s warm-up); one panel per probe set, over the baseline's runs", iv,
			 res->config.duration, res->config.warmup);
	else
		snprintf(line, sizeof(line), "no per-interval samples in these results");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, line);
	lb_fig_put_common(res, f);
}

/*
 * Whether cost.gp draws the costs on a log axis: those above 0 span more
 * than 20x (strace's 17.6 us beside bpf-raw's 52 ns), where a linear axis
 * would leave all but the dearest a sliver.
 */
static bool cost_log(const struct lb_results *res)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < res->nprobesets; i++) {
		double v = res->probesets[i].summary.ns_per_event;

		if (isfinite(v) && v > 0) {
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	return hi > 0 && hi / lo > 20;
}

static void write_cost_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	lb_fig_put_intro(f, "cost", "cost per event and events per operation", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "What each traced event costs");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	fprintf(f, "\nlogx = %d", cost_log(res));
	lb_fig_put_common(res, f);
}

/* What the slowdown is against, for a caption: "against its probes off in ...". */
static const char *against(const struct lb_results *res, char *buf, size_t len)
{
	if (lb_results_alternate(res))
		snprintf(buf, len, "against its probes off in the same running workload (switched "
			 "off and on in %g s slices)", res->config.slice);
	else
		snprintf(buf, len, "against the workload without tracing (%d rounds of %g s)",
			 res->config.repeat, res->config.duration);
	return buf;
}

static void write_slowdown_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[1024], vs[256];

	snprintf(what, sizeof(what), "Throughput slowdown of the %s workload under each probe "
		 "set, %s; bars: the median, whiskers: the 95%% confidence interval.",
		 lb_fmt_or_unknown(res->config.workload), against(res, vs, sizeof(vs)));
	lb_fig_put_caption(res, what, f, tex);
}

static void write_throughput_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	int rounds = last_round(&res->baseline);
	char what[1024];

	snprintf(what, sizeof(what), "Throughput of the %s workload over time in every run "
		 "(%d round%s; each run %g s measured after %g s warm-up), one panel per probe "
		 "set, in run order, on shared axes (one unit of x per round, each run's window "
		 "from its start to its end; throughput from zero). Filled circles joined by a "
		 "line: the set's runs, one point per throughput sample; hollow grey circles: the "
		 "runs without tracing (the baseline), the same in every panel; dashed lines: the "
		 "set's and the baseline's median throughput over their runs.",
		 lb_fmt_or_unknown(res->config.workload), rounds, rounds == 1 ? "" : "s",
		 res->config.duration, res->config.warmup);
	lb_fig_put_caption(res, what, f, tex);
}

static void write_cost_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[1024], vs[256];

	snprintf(what, sizeof(what), "What each traced event costs, one row per probe set, the "
		 "dearest at the top: the time per event that explains its slowdown (%s) given "
		 "its events per operation (dots%s; whiskers: the slowdown's 95%% confidence "
		 "interval per event, the untraced throughput and the events per operation held "
		 "as measured), and the events per operation (bars); lost events were dropped, "
		 "never recorded; overwritten ones were recorded, then overwritten, and count.",
		 against(res, vs, sizeof(vs)), cost_log(res) ? ", on a log scale" : "");
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_slowdown = {
	.name = "slowdown",
	.write_dat = write_slowdown_dat,
	.write_header = write_slowdown_header,
	.write_caption = write_slowdown_caption,
};

const struct lb_figure lb_figure_throughput = {
	.name = "throughput",
	.write_dat = write_throughput_dat,
	.write_header = write_throughput_header,
	.write_caption = write_throughput_caption,
	.wide = true,
};

const struct lb_figure lb_figure_cost = {
	.name = "cost",
	.write_dat = write_cost_dat,
	.write_header = write_cost_header,
	.write_caption = write_cost_caption,
	.wide = true,
};
