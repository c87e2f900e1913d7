// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency tables of `loadbench report' (Markdown and LaTeX): the
 * quantiles of each set's operations, in microseconds, and what tracing
 * added at the median and the 99th percentile with their 95% CIs.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "format.h"
#include "report_latency.h"
#include "results.h"

/* Quantile @q of @l in us, or @none. */
static void put_q(FILE *f, const struct lb_lat_summary *l, int q, const char *none)
{
	if (isfinite(l->ns[q]) && lb_lat_quantile_shown(l->count, q))
		fprintf(f, "%.2f", l->ns[q] / 1e3);
	else
		fputs(none, f);
}

/* What was added at @q in us, its CI within @open, @sep and @close; or @none. */
static void put_added(FILE *f, const struct lb_lat_summary *l, int q, const char *none,
		      const char *open, const char *sep, const char *close)
{
	if (!isfinite(l->added_ns[q])) {
		fputs(none, f);
		return;
	}
	fprintf(f, "%+.2f", l->added_ns[q] / 1e3);
	if (isfinite(l->added_ns_ci95[q][0]) && isfinite(l->added_ns_ci95[q][1]))
		fprintf(f, "%s%.2f%s%.2f%s", open, l->added_ns_ci95[q][0] / 1e3, sep,
			l->added_ns_ci95[q][1] / 1e3, close);
}

/* The operations timed, and under --rate the share sent late: "80006 (0.13% late)". */
static void put_timed(FILE *f, const struct lb_results *res, const struct lb_probeset_result *psr,
		      const char *pct)
{
	fprintf(f, "%llu", (unsigned long long)psr->summary.latency.count);
	if (res->config.rate > 0 && isfinite(psr->summary.late_pct))
		fprintf(f, " (%.2f%s late)", psr->summary.late_pct, pct);
}

void lb_report_latency_markdown(const struct lb_results *res, FILE *f, lb_report_put_fn put)
{
	if (!res->baseline.summary.latency.count)
		return;
	fputs("\n### Latency per operation\n\n| probe set | timed |", f);
	for (int q = 0; q < LB_LAT_NQ; q++)
		fprintf(f, " %s \u00b5s |", lb_lat_q_names[q]);
	fputs(" added at p50, \u00b5s [95% CI] | added at p99, \u00b5s [95% CI] |\n"
	      "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;
		const struct lb_lat_summary *l = &psr->summary.latency;

		fputs("| ", f);
		put(f, lb_fmt_or_unknown(psr->name));
		fputs(" | ", f);
		put_timed(f, res, psr, "%");
		fputs(" |", f);
		for (int q = 0; q < LB_LAT_NQ; q++) {
			fputc(' ', f);
			put_q(f, l, q, "-");
			fputs(" |", f);
		}
		fputc(' ', f);
		put_added(f, l, 0, "-", " [", ", ", "]");
		fputs(" | ", f);
		put_added(f, l, 2, "-", " [", ", ", "]");
		fputs(" |\n", f);
	}
	fputs("\nLatency: from the first send of a request to its matching reply, every operation "
	      "timed (nearest-rank quantiles of a log-linear histogram, within 0.4%); a quantile "
	      "is given where 10 operations or more lie beyond it. Added: what tracing added at "
	      "that quantile, from the ratio traced / untraced per round (runs) or per unit of "
	      "alternation, with the slowdown's estimator and bootstrap.\n", f);
	if (res->config.rate > 0)
		fprintf(f, "\nOpen loop: each flow sent %d requests per second on a fixed schedule, "
			"each timed from its scheduled send, so that a stall counts against every "
			"request it delayed; late: sent a period or more behind schedule, in %% of "
			"the operations.\n", res->config.rate);
}

void lb_report_latency_latex(const struct lb_results *res, FILE *f, lb_report_put_fn put)
{
	if (!res->baseline.summary.latency.count)
		return;
	fputs("\n\\begin{table}[t]\n\\centering\n\\caption{Latency per operation in $\\mu$s, "
	      "from the first send of a request to its matching reply (nearest-rank quantiles, "
	      "within 0.4\\%; given where 10 operations or more lie beyond them). Added: what "
	      "tracing added at that quantile, from the traced / untraced ratio per round or "
	      "unit, with its 95\\% confidence interval.", f);
	if (res->config.rate > 0)
		fprintf(f, " Open loop at %d requests/s per flow: timed from the scheduled send; "
			"late: sent a period or more behind schedule.", res->config.rate);
	fputs("}\n\\label{tab:loadbench-latency}\n"
	      "\\begin{tabular}{lrrrrrrrll}\n\\toprule\nProbe set & Timed", f);
	for (int q = 0; q < LB_LAT_NQ; q++)
		fprintf(f, " & %s", q == LB_LAT_NQ - 1 ? "max" : lb_lat_q_names[q]);
	fputs(" & Added at p50 & Added at p99 \\\\\n\\midrule\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;
		const struct lb_lat_summary *l = &psr->summary.latency;

		put(f, lb_fmt_or_unknown(psr->name));
		fputs(" & ", f);
		put_timed(f, res, psr, "\\%");
		for (int q = 0; q < LB_LAT_NQ; q++) {
			fputs(" & ", f);
			put_q(f, l, q, "--");
		}
		fputs(" & ", f);
		put_added(f, l, 0, "--", " [", ", ", "]");
		fputs(" & ", f);
		put_added(f, l, 2, "--", " [", ", ", "]");
		fputs(" \\\\\n", f);
	}
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", f);
}
