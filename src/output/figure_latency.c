// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency figure of a results directory whose operations were timed:
 * a dot plot of what each probe set adds to the latency per operation, one
 * row per set, one panel per quantile (plots/latency.gp). latency.dat holds
 * the figure's rows (index 0: the baseline as "nothing armed", then the sets
 * sorted by what they add) and every quantile of every set (index 1, not
 * drawn); the header of latency.gp says whether the axis is logarithmic, and
 * the caption says what is drawn.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figure.h"
#include "format.h"
#include "results.h"

/* The quantiles of index 0 (lb_lat_q indices): p50 p90 p99 p99.9; drawn: p50, p99, p99.9. */
static const int fig_q[] = { 0, 1, 2, 3 };
#define FIG_NQ		(sizeof(fig_q) / sizeof(fig_q[0]))
#define Q_P50		0
#define Q_P99		2
#define Q_P999		3

/* Added values spanning more than this (largest over the median, in magnitude): a log axis. */
#define LOG_SPAN	20.0

/* What set @psr adds at quantile @q, in us: NAN when unknown. */
static double added_us(const struct lb_probeset_result *psr, int q)
{
	const struct lb_lat_summary *l = &psr->summary.latency;

	return isfinite(l->added_ns[q]) ? l->added_ns[q] / 1e3 : NAN;
}

/* What a row is sorted by: what its set adds at p50, at p99 where p50 has none. */
static double sort_key(const struct lb_probeset_result *psr)
{
	double v = added_us(psr, Q_P50);

	return isfinite(v) ? v : added_us(psr, Q_P99);
}

/* A row of index 0: @name, then for each of fig_q the quantile, what it adds, its CI (us). */
static void put_row(FILE *f, const char *name, const struct lb_probeset_result *psr, bool is_base)
{
	const struct lb_lat_summary *l = &psr->summary.latency;

	lb_fig_put_name(f, name);
	for (size_t i = 0; i < FIG_NQ; i++) {
		int q = fig_q[i];

		fputc('\t', f);
		lb_fig_put_num(f, 3, lb_lat_quantile_shown(l->count, q) ? l->ns[q] / 1e3 : NAN);
		for (int k = 0; k < 3; k++) {
			double v = k == 0 ? l->added_ns[q] : l->added_ns_ci95[q][k - 1];

			fputc('\t', f);
			lb_fig_put_num(f, 3, is_base ? NAN : v / 1e3);
		}
	}
	fputc('\n', f);
}

/* Index 1: every quantile of @psr, with the ratio traced over untraced. */
static void put_all_quantiles(FILE *f, const struct lb_probeset_result *psr)
{
	const struct lb_lat_summary *l = &psr->summary.latency;

	for (int q = 0; q < LB_LAT_NQ; q++) {
		bool shown = lb_lat_quantile_shown(l->count, q);

		lb_fig_put_name(f, psr->name ? psr->name : "?");
		fprintf(f, "\t%s\t", lb_lat_q_names[q]);
		lb_fig_put_num(f, 3, shown ? l->ns[q] / 1e3 : NAN);
		fputc('\t', f);
		lb_fig_put_num(f, 3, l->added_ns[q] / 1e3);
		fputc('\t', f);
		lb_fig_put_num(f, 3, l->added_ns_ci95[q][0] / 1e3);
		fputc('\t', f);
		lb_fig_put_num(f, 3, l->added_ns_ci95[q][1] / 1e3);
		fputc('\t', f);
		lb_fig_put_num(f, 4, 1 + l->added_pct[q] / 100);
		fputc('\t', f);
		lb_fig_put_num(f, 4, 1 + l->added_pct_ci95[q][0] / 100);
		fputc('\t', f);
		lb_fig_put_num(f, 4, 1 + l->added_pct_ci95[q][1] / 100);
		fputc('\n', f);
	}
}

static int write_latency_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	size_t *order = lb_fig_row_order(res, sort_key);

	if (!order)
		return -ENOMEM;
	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": what each probe set adds to the latency per operation, read by latency.gp\n", f);
	fputs("# Index 0, the figure's rows from the bottom up: \"nothing armed\" (the\n"
	      "# baseline, no probe set on: its own latency, nothing added), then one row per\n"
	      "# probe set sorted by what it adds at p50 (at p99 where p50 has none), smallest\n"
	      "# first: the top row adds the most. For each quantile Q of p50 p90 p99 p99.9, in\n"
	      "# microseconds: Q_us, the latency at Q (NaN where fewer than 10 operations lie\n"
	      "# beyond it); Q_add, what the set adds at Q (its latency minus its untraced one,\n"
	      "# from the ratio traced over untraced paired per round or unit), and Q_lo, Q_hi,\n"
	      "# its 95% CI (NaN: none). latency.gp draws p50, p99 and, where measured and the\n"
	      "# canvas has room, p99.9.\n", f);
	fputs("# name", f);
	for (size_t i = 0; i < FIG_NQ; i++) {
		const char *q = lb_lat_q_names[fig_q[i]];

		fprintf(f, "\t%s_us\t%s_add\t%s_lo\t%s_hi", q, q, q, q);
	}
	fputc('\n', f);
	put_row(f, "nothing armed", &res->baseline, true);
	for (size_t k = 0; k < res->nprobesets; k++) {
		const struct lb_probeset_result *psr = &res->probesets[order[k]];

		put_row(f, psr->name ? psr->name : "?", psr, false);
	}
	free(order);

	fputs("\n\n# Index 1 (not drawn): every quantile of each set, the baseline first, in\n"
	      "# microseconds: us, the latency at that quantile (nearest rank, within 0.4%);\n"
	      "# added_us [added_lo_us, added_hi_us] as above; ratio [ratio_lo, ratio_hi]: traced\n"
	      "# over untraced and its CI. No ratio at the max, nor where too few operations lie\n"
	      "# beyond the quantile in a round or unit.\n", f);
	fputs("# name\tlabel\tus\tadded_us\tadded_lo_us\tadded_hi_us\tratio\tratio_lo\t"
	      "ratio_hi\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++)
		put_all_quantiles(f, k ? &res->probesets[k - 1] : &res->baseline);
	return 0;
}

/* Whether some set has what it adds at quantile @q. */
static bool any_added(const struct lb_results *res, int q)
{
	for (size_t k = 0; k < res->nprobesets; k++)
		if (isfinite(added_us(&res->probesets[k], q)))
			return true;
	return false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether the figure's axis is logarithmic, and where (*@lin: the added
 * latency in us within which it is linear): when the largest of what the
 * sets add at p50, p99 and p99.9 is more than LOG_SPAN times their median
 * (in magnitude), the axis is a symmetric log, linear within +-*@lin (the
 * power of 10 at or under the largest of their smallest quarter) and
 * logarithmic beyond, so that a latency that fell (negative) is drawn too.
 */
static bool latency_log(const struct lb_results *res, double *lin)
{
	static const int qs[] = { Q_P50, Q_P99, Q_P999 };
	double *v, max, small;
	size_t n = 0;
	bool log;

	*lin = 1;
	v = malloc((3 * res->nprobesets + 1) * sizeof(*v));
	if (!v)
		return false;
	for (size_t k = 0; k < res->nprobesets; k++)
		for (size_t i = 0; i < 3; i++) {
			double a = fabs(added_us(&res->probesets[k], qs[i]));

			if (isfinite(a) && a > 0)
				v[n++] = a;
		}
	qsort(v, n, sizeof(*v), cmp_double);
	max = n ? v[n - 1] : 0;
	log = n > 1 && max > LOG_SPAN * v[n / 2];
	if (log) {
		/* Linear up to a power of 10 under the smallest quarter's top, within 4 decades. */
		small = v[n / 4] > max / 1e4 ? v[n / 4] : max / 1e4;
		*lin = pow(10, floor(log10(small)));
	}
	free(v);
	return log;
}

/* "whiskers: 95% CI, ..." of what the sets add, in @buf. */
static const char *ci_text(const struct lb_results *res, char *buf, size_t len)
{
	char units[64];

	if (lb_results_alternate(res))
		snprintf(buf, len, "whiskers: 95%% CI, moving-block bootstrap over %s",
			 lb_fig_units_text(res, units, sizeof(units)));
	else
		snprintf(buf, len, "whiskers: 95%% CI, bootstrap of the per-round ratios");
	return buf;
}

static void write_latency_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];
	double lin;
	bool log = latency_log(res, &lin);

	lb_fig_put_intro(f, "latency", "what each probe set adds to the latency per operation",
			 res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "Latency tracing adds per operation");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	fputs("\nci_label = ", f);
	lb_fig_put_string(f, ci_text(res, line, sizeof(line)));
	fprintf(f, "\nnsets = %zu\n", res->nprobesets);
	fputs("# p99.9 has a panel where some set's addition there is known (and room).\n", f);
	fprintf(f, "has_p999 = %d\n", any_added(res, Q_P999));
	fprintf(f, "# A symmetric log axis (linear within +-lin_us, logarithmic beyond) when what\n"
		   "# the sets add spans more than %gx; 0: linear.\n", LOG_SPAN);
	fprintf(f, "log_axis = %d\nlin_us = %g\n", log, lin);
	lb_fig_put_common(res, f);
}

/* " (p50 24.5 us, p99 56.7 us)": the baseline's own latency, in @buf. */
static const char *base_text(const struct lb_results *res, char *buf, size_t len)
{
	static const int qs[] = { Q_P50, Q_P99, Q_P999 };
	const struct lb_lat_summary *l = &res->baseline.summary.latency;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < 3 && off < len; i++) {
		if (!lb_lat_quantile_shown(l->count, qs[i]) || !isfinite(l->ns[qs[i]]))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %.1f \u00b5s", off ? ", " : "",
					lb_lat_q_names[qs[i]], l->ns[qs[i]] / 1e3);
	}
	return buf;
}

static void write_latency_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	bool alternate = lb_results_alternate(res), p999 = any_added(res, Q_P999);
	char what[3072], axis[512], base[256], base_part[300] = "";
	double lin;

	if (latency_log(res, &lin))
		snprintf(axis, sizeof(axis), "The axis is logarithmic beyond \u00b1%g \u00b5s and "
			 "linear within (a symmetric log scale): what the sets add spans more than "
			 "%gx, and a latency that fell is drawn left of zero.", lin, LOG_SPAN);
	else
		snprintf(axis, sizeof(axis), "The axis is linear, zero marked.");
	if (*base_text(res, base, sizeof(base)))
		snprintf(base_part, sizeof(base_part), " (%s)", base);
	snprintf(what, sizeof(what), "The latency each probe set adds per operation of the %s "
		 "workload, one panel per quantile: p50 and p99%s. One row per set, sorted by what "
		 "it adds at p50 (at p99 where p50 has none), the most at the top. Dots: what the "
		 "set adds, its latency at that quantile minus its untraced one (from their ratio, "
		 "paired per %s), filled where the 95%% confidence interval excludes zero, hollow "
		 "where it includes zero or there is none; whiskers: that interval. %s Beside each "
		 "panel, where the figure is wide enough (not in a one-column paper figure), what "
		 "each set adds in \u00b5s, with its interval where there is room; n/a: fewer than "
		 "10 operations beyond the quantile in a %s. The bottom row, nothing armed, gives "
		 "the latency with no probe set on%s.",
		 lb_fmt_or_unknown(res->config.workload),
		 p999 ? ", and p99.9 beside them where the figure has room for a third panel" : "",
		 alternate ? "unit of alternation: its probes on against off in the same running "
			     "workload" : "round, against the workload without tracing",
		 axis, alternate ? "unit" : "round", base_part);
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_latency = {
	.name = "latency",
	.write_dat = write_latency_dat,
	.write_header = write_latency_header,
	.write_caption = write_latency_caption,
};
