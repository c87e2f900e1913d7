// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `loadbench report' of a sweep's directory (sweep.json): per probe set and
 * value, the events per operation, the slowdown and the added time per
 * operation with their CIs and the ns/event; then per set the line through
 * the added time against the events per operation, its slope (the marginal
 * cost of one event) with its CI, its intercept and r². Markdown and LaTeX.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "format.h"
#include "report_latency.h"
#include "sweep.h"

/* @v with @prec decimals, "[lo, hi]" after it when both are finite; @none when @v is not. */
static void put_ci(FILE *f, double v, const double ci[2], int prec, const char *none,
		   const char *open, const char *close)
{
	if (!isfinite(v)) {
		fputs(none, f);
		return;
	}
	fprintf(f, "%.*f", prec, v);
	if (ci && isfinite(ci[0]) && isfinite(ci[1]))
		fprintf(f, " %s%.*f, %.*f%s", open, prec, ci[0], prec, ci[1], close);
}

static void put_num(FILE *f, double v, int prec, const char *none)
{
	put_ci(f, v, NULL, prec, none, "", "");
}

/* How a table's rows are written: before a row, between cells, after it; an empty cell. */
struct lb_sweep_style {
	const char *lead, *sep, *end, *none;
};

static const struct lb_sweep_style lb_md = { "| ", " | ", " |\n", "-" };
static const struct lb_sweep_style lb_tex = { "", " & ", " \\\\\n", "--" };

/* Every set's points, a row each (the set's name on its first). */
static void put_points(const struct lb_sweep *s, FILE *f, lb_report_put_fn put,
		       const struct lb_sweep_style *st)
{
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_sweep_set *set = &s->sets[k];

		for (size_t i = 0; i < set->npoints; i++) {
			const struct lb_sweep_point *p = &set->points[i];

			fputs(st->lead, f);
			if (!i)
				put(f, lb_fmt_or_unknown(set->name));
			fprintf(f, "%s%d%s", st->sep, p->value, st->sep);
			put_num(f, p->events_per_op, 2, st->none);
			fputs(st->sep, f);
			put_ci(f, p->slowdown_pct, p->slowdown_ci95, 1, st->none, "[", "]");
			fputs(st->sep, f);
			put_ci(f, p->added_ns, p->added_ns_ci95, 0, st->none, "[", "]");
			fputs(st->sep, f);
			put_num(f, p->ns_per_event, 1, st->none);
			fputs(st->end, f);
		}
	}
}

/* Every set's line, a row each: slope, intercept, r², values used. */
static void put_lines(const struct lb_sweep *s, FILE *f, lb_report_put_fn put,
		      const struct lb_sweep_style *st)
{
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_linfit *l = &s->sets[k].fit;

		fputs(st->lead, f);
		put(f, lb_fmt_or_unknown(s->sets[k].name));
		fputs(st->sep, f);
		put_ci(f, l->slope, l->slope_ci95, 1, st->none, "[", "]");
		fputs(st->sep, f);
		put_ci(f, l->intercept, l->intercept_ci95, 0, st->none, "[", "]");
		fputs(st->sep, f);
		put_num(f, l->r2, 3, st->none);
		fprintf(f, "%s%zu%s", st->sep, l->n, st->end);
	}
}

void lb_report_sweep_markdown(const struct lb_sweep *s, FILE *f, lb_report_put_fn put)
{
	fputs("## Sweep of ", f);
	put(f, lb_fmt_or_unknown(s->key));
	fputs("\n\n| probe set | ", f);
	put(f, lb_fmt_or_unknown(s->key));
	fputs(" | events/op | slowdown % [95% CI] | added ns/op [95% CI] | ns/event |\n"
	      "|---|--:|--:|--:|--:|--:|\n", f);
	put_points(s, f, put, &lb_md);
	fputs("\n| probe set | slope: ns per event [95% CI] | intercept: ns/op [95% CI] | r\u00b2 | "
	      "values |\n|---|--:|--:|--:|--:|\n", f);
	put_lines(s, f, put, &lb_md);
	fputs("\nThe slope is the marginal cost of one more event, free of what a set costs once "
	      "per operation (the intercept), which divides into each value's ns/event; its CI "
	      "is a t-interval (3 values or more); - : no line (fewer than 2 values, or the "
	      "events per operation did not change).\n", f);
}

void lb_report_sweep_latex(const struct lb_sweep *s, FILE *f, lb_report_put_fn put)
{
	fputs("\\begin{table}[t]\n\\centering\n\\caption{Sweep of ", f);
	put(f, lb_fmt_or_unknown(s->key));
	fputs(": per probe set and value, events per operation, slowdown and added time per "
	      "operation with their 95\\% confidence intervals, and ns per event.}\n"
	      "\\label{tab:loadbench-sweep}\n\\begin{tabular}{lrrlll}\n\\toprule\nProbe set & ", f);
	put(f, lb_fmt_or_unknown(s->key));
	fputs(" & Events/op & Slowdown \\% & Added ns/op & ns/event \\\\\n\\midrule\n", f);
	put_points(s, f, put, &lb_tex);
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n\n\\begin{table}[t]\n\\centering\n"
	      "\\caption{The least-squares line through the added time per operation against the "
	      "events per operation: its slope is the marginal cost of one event (95\\% "
	      "t-interval), its intercept the per-operation cost that is not per event.}\n"
	      "\\label{tab:loadbench-sweep-fit}\n\\begin{tabular}{lllrr}\n\\toprule\n"
	      "Probe set & Slope, ns/event & Intercept, ns/op & $r^2$ & Values \\\\\n\\midrule\n", f);
	put_lines(s, f, put, &lb_tex);
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", f);
}
