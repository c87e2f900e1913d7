// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The figure of a sweep (--sweep): small multiples, a panel per probe set
 * (the time its probes add to an operation against its events per
 * operation, with the line fitted through them) and, where the canvas has
 * room, a smaller one beside it (its slowdown at each value swept).
 * sweep.dat holds the points, the header of sweep.gp each set's name and
 * line, the caption what is drawn and where the numbers are.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "figure.h"
#include "plot.h"
#include "sweep.h"

/* The position of @value among @s's values, from 1; 0 when it is none of them. */
static size_t value_at(const struct lb_sweep *s, int value)
{
	for (size_t i = 0; i < s->nvalues; i++)
		if (s->values[i] == value)
			return i + 1;
	return 0;
}

static int write_sweep_dat(const void *arg, FILE *f)
{
	const struct lb_sweep *s = arg;

	fputs("# loadbench: a sweep of ", f);
	lb_fig_put_comment(f, s->key);
	fputs(", read by sweep.gp\n"
	      "# One block per probe set, separated by two blank lines. set: its panel (from 1);\n"
	      "# value: the swept parameter's; at: that value's place among the values swept\n"
	      "# (from 1; NaN: none of them); epo: events per operation; added_us [lo, hi]: the\n"
	      "# time its probes add to an operation (from the slowdown and its 95% CI);\n"
	      "# slowdown_pct [lo, hi]. NaN = missing value.\n"
	      "# set\tname\tvalue\tat\tepo\tadded_us\tadded_lo_us\tadded_hi_us\tslowdown_pct\t"
	      "slowdown_lo\tslowdown_hi\n", f);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_sweep_set *set = &s->sets[k];

		if (k)
			fputs("\n\n", f);
		for (size_t i = 0; i < set->npoints; i++) {
			const struct lb_sweep_point *p = &set->points[i];
			size_t at = value_at(s, p->value);

			fprintf(f, "%zu\t", k + 1);
			lb_fig_put_name(f, set->name);
			fprintf(f, "\t%d\t", p->value);
			lb_fig_put_num(f, 0, at ? (double)at : NAN);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->events_per_op);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns_ci95[0] / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 4, p->added_ns_ci95[1] / 1e3);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_pct);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_ci95[0]);
			fputc('\t', f);
			lb_fig_put_num(f, 3, p->slowdown_ci95[1]);
			fputc('\n', f);
		}
	}
	return 0;
}

/*
 * A cost per event @ns as a panel's title says it, "356 ns per event", "1.29
 * µs per event" (three digits from 1 µs), and with @ci (when both ends are
 * finite) its interval in the same unit and decimals, "[301, 411]" (else
 * ""), in @buf and @cibuf.
 */
static void cost_text(double ns, const double ci[2], char *buf, size_t len, char *cibuf,
		      size_t cilen)
{
	bool us = fabs(ns) >= 999.5;
	double v = us ? ns / 1e3 : ns, m = fabs(v);
	int dec = us ? (m >= 99.95 ? 0 : m >= 9.995 ? 1 : 2) : (m >= 9.95 ? 0 : 1);
	const char *unit = us ? "\u00b5s" : "ns";

	snprintf(buf, len, "%.*f %s per event", dec, v, unit);
	cibuf[0] = '\0';
	if (isfinite(ci[0]) && isfinite(ci[1]))
		snprintf(cibuf, cilen, "[%.*f, %.*f]", dec, us ? ci[0] / 1e3 : ci[0], dec,
			 us ? ci[1] / 1e3 : ci[1]);
}

/* "2, 4, 8, 16": the values of @s, in @buf. Returns @buf. */
static const char *values_text(const struct lb_sweep *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->nvalues && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%d", i ? ", " : "", s->values[i]);
	return buf;
}

static void write_sweep_header(const void *arg, FILE *f)
{
	const struct lb_sweep *s = arg;
	size_t n = s->nsets ? s->nsets : 1;
	char line[1024], vals[512];
	int lines;

	lb_fig_put_intro(f, "sweep", "what one event costs, from a sweep: a panel per probe set",
			 PACKAGE_VERSION);
	values_text(s, vals, sizeof(vals));
	snprintf(line, sizeof(line), "What one event costs, from a sweep of %s", s->key);
	fputs("title = ", f);
	lb_fig_put_string(f, line);
	snprintf(line, sizeof(line), "%s = %s; one panel per probe set, each on scales of its own",
		 s->key, vals);
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, line);
	snprintf(line, sizeof(line), "sweep.json: %s over %s (each value's results in %s=V/), "
		 "per set each value's events per operation, slowdown and added time, and the "
		 "line | drawn by loadbench %s", s->key, vals, s->key, PACKAGE_VERSION);
	fputs("\nfooter = ", f);
	lines = lb_fig_put_wrapped(f, line, 0, LB_FIG_FOOTER_LINES);
	fprintf(f, "\nfooter_lines = %d\nnote = ''\nkey_name = ", lines);
	lb_fig_put_string(f, s->key);
	fprintf(f, "\nnsets = %zu\nnvalues = %zu\narray values[%zu]\n", s->nsets, s->nvalues,
		s->nvalues ? s->nvalues : 1);
	for (size_t i = 0; i < s->nvalues; i++)
		fprintf(f, "values[%zu] = %d\n", i + 1, s->values[i]);
	fprintf(f, "array set_name[%zu]\narray fit_text[%zu]\narray fit_ci[%zu]\n"
		"array slope[%zu]\narray icpt[%zu]\n", n, n, n, n, n);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_linfit *l = &s->sets[k].fit;
		char cost[64], ci[64];

		fprintf(f, "set_name[%zu] = ", k + 1);
		lb_fig_put_string(f, s->sets[k].name);
		if (isfinite(l->slope)) {
			cost_text(l->slope, l->slope_ci95, cost, sizeof(cost), ci, sizeof(ci));
		} else {
			snprintf(cost, sizeof(cost), "no line");
			ci[0] = '\0';
		}
		fprintf(f, "\nfit_text[%zu] = ", k + 1);
		lb_fig_put_string(f, cost);
		fprintf(f, "\nfit_ci[%zu] = ", k + 1);
		lb_fig_put_string(f, ci);
		fprintf(f, "\nslope[%zu] = ", k + 1);
		lb_fig_put_num(f, 6, l->slope / 1e3);
		fprintf(f, "\nicpt[%zu] = ", k + 1);
		lb_fig_put_num(f, 6, l->intercept / 1e3);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void write_sweep_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_sweep *s = arg;
	char *text = NULL, vals[512];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	values_text(s, vals, sizeof(vals));
	fprintf(m, "What one event of each probe set costs, from a sweep of %s over %s (one "
		"results directory per value): one panel per probe set, in the sweep's order, each "
		"on scales of its own: the time the set's probes add to an operation (\u00b5s, "
		"from its slowdown and throughput; whiskers: from the slowdown's 95%% confidence "
		"interval) against its events per operation, a dot per value, and the "
		"least-squares line through them. Its slope, in the panel's title with its 95%% "
		"confidence interval (t with n-2 degrees of freedom) where there is room, is the "
		"cost of one more event, apart from the fixed cost per operation (the intercept); "
		"a set whose events per operation did not change has no line. Where the figure "
		"has room for them (a few sets; 14 in a lab notebook), a smaller panel right of "
		"each holds its slowdown (%%) at each value of %s, with its 95%% confidence "
		"interval. The numbers are in sweep.json (the key %s, the values %s and, per probe "
		"set, each value's events per operation, slowdown, added time and ns per event "
		"with their intervals, and the line: slope, intercept, r\u00b2) and sweep.txt; "
		"how each value was measured (kernel, CPU, command, method) is in the "
		"results.json of its %s=VALUE directory. Drawn by loadbench %s.", s->key, vals,
		s->key, s->key, vals, s->key, PACKAGE_VERSION);
	lb_fig_put_caption_stream(m, &text, f, tex);
}

static const struct lb_figure lb_figure_sweep = {
	.name = "sweep",
	.write_dat = write_sweep_dat,
	.write_header = write_sweep_header,
	.write_caption = write_sweep_caption,
	.wide = true,
};

int lb_plot_write_sweep(struct lb_plot *plot, const struct lb_sweep *s, const char *template_dir,
			char *err, size_t errlen)
{
	return lb_plot_write_figure(plot, &lb_figure_sweep, s, template_dir, err, errlen);
}
