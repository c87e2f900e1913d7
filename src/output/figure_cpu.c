// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU figure of a results directory whose CPU time was read: one row per
 * probe set and one for the baseline ("nothing armed"), a stacked bar of the
 * CPU time per operation of the workload's processes (user, system) and of
 * the tracer's own tasks, a tick at the machine's busy time, and the numbers
 * in columns of their own (plots/cpu.gp). cpu.dat holds the rows in the
 * figure's order; the header of cpu.gp says where the axis is cut, if it
 * is; the caption says what is drawn.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "figure.h"
#include "format.h"
#include "results.h"
#include "stats.h"

/* A bar or tick more than this times the median row's: the axis is cut for the others. */
#define CUT_SPAN	20.0

/* The user and system parts of @c's workload time, its tracer's, in us per operation. */
struct cpu_row {
	double user, sys, tracer, total, machine;
};

static struct cpu_row cpu_row(const struct lb_probeset_result *psr, bool is_base)
{
	const struct lb_cpu_summary *c = &psr->summary.cpu;
	/* The ticks split the exact total: user's share of it, the rest system. */
	double ticks = c->workload_user_us_per_op + c->workload_sys_us_per_op;
	struct cpu_row r;

	r.user = ticks > 0 ? c->workload_us_per_op * c->workload_user_us_per_op / ticks : NAN;
	r.sys = isfinite(r.user) ? c->workload_us_per_op - r.user : c->workload_us_per_op;
	r.tracer = is_base || !c->measured ? 0 : c->tracer_us_per_op;
	r.total = (isfinite(r.user) ? r.user : 0) + (isfinite(r.sys) ? r.sys : 0) +
		  (isfinite(r.tracer) ? r.tracer : 0);
	if (!isfinite(r.user) && !isfinite(r.sys))
		r.total = NAN;
	r.machine = c->machine_us_per_op;
	return r;
}

/* What a row is sorted by: its bar, the CPU time of the workload and the tracer. */
static double bar_total(const struct lb_probeset_result *psr)
{
	return cpu_row(psr, false).total;
}

static void put_row(FILE *f, const char *name, const struct lb_probeset_result *psr, bool is_base)
{
	const struct lb_cpu_summary *c = &psr->summary.cpu;
	struct cpu_row r = cpu_row(psr, is_base);

	lb_fig_put_name(f, name);
	fputc('\t', f);
	lb_fig_put_num(f, 4, r.user);
	fputc('\t', f);
	lb_fig_put_num(f, 4, r.sys);
	fputc('\t', f);
	lb_fig_put_num(f, 4, r.tracer);
	fputc('\t', f);
	lb_fig_put_num(f, 4, r.total);
	fputc('\t', f);
	lb_fig_put_num(f, 4, r.machine);
	fputc('\t', f);
	lb_fig_put_num(f, 2, c->steal_pct);
	fprintf(f, "\t%d\n", is_base ? 0 : c->tracer_tasks);
}

static int write_cpu_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	size_t *order = lb_fig_row_order(res, bar_total);

	if (!order)
		return -ENOMEM;
	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": CPU time per operation, read by cpu.gp\n", f);
	fputs("# The figure's rows from the bottom up: \"nothing armed\" (the baseline, no\n"
	      "# probe set on), then one row per probe set, the smallest bar first: the top row\n"
	      "# costs the most. In us per operation: user_us and sys_us, the workload's\n"
	      "# processes' exact CPU time split as their user and system ticks were; tracer_us,\n"
	      "# the tracer's own tasks (0 with none); total_us, their sum (the bar); machine_us,\n"
	      "# every CPU busy (/proc/stat, tick-sampled: the tick). steal_pct, steal over the\n"
	      "# machine's time; tasks, the tracer's own tasks. NaN = missing value.\n", f);
	fputs("# name\tuser_us\tsys_us\ttracer_us\ttotal_us\tmachine_us\tsteal_pct\ttasks\n", f);
	put_row(f, "nothing armed", &res->baseline, true);
	for (size_t k = 0; k < res->nprobesets; k++) {
		const struct lb_probeset_result *psr = &res->probesets[order[k]];

		put_row(f, psr->name ? psr->name : "?", psr, false);
	}
	free(order);
	return 0;
}

/*
 * Where the axis ends when a bar or tick is more than CUT_SPAN times the
 * median bar (then the longest of the others and a little more: the longer
 * ones are cut there), else 0: the axis holds every bar. *@ncut: how many
 * rows are cut.
 */
static double cpu_cut(const struct lb_results *res, size_t *ncut)
{
	size_t n = 0, nrows = res->nprobesets + 1;
	double *v = malloc(nrows * sizeof(*v)), median, keep = 0, cut = 0;

	*ncut = 0;
	if (!v)
		return 0;
	for (size_t k = 0; k < nrows; k++) {
		struct cpu_row r = cpu_row(k ? &res->probesets[k - 1] : &res->baseline, !k);

		if (isfinite(r.total) && r.total > 0)
			v[n++] = r.total;
	}
	median = n ? lb_stats_median(v, n) : 0;
	for (size_t k = 0; median > 0 && k < nrows; k++) {
		struct cpu_row r = cpu_row(k ? &res->probesets[k - 1] : &res->baseline, !k);
		double m = fmax(isfinite(r.total) ? r.total : 0,
				isfinite(r.machine) ? r.machine : 0);

		if (m > CUT_SPAN * median)
			(*ncut)++;
		else if (m > keep)
			keep = m;
	}
	if (*ncut && keep > 0) {
		/* A little past the longest of the others, in 2 significant digits. */
		double step = pow(10, floor(log10(keep * 1.15)) - 1);

		cut = ceil(keep * 1.15 / step) * step;
	}
	free(v);
	return cut;
}

static void write_cpu_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];
	size_t ncut;
	double cut = cpu_cut(res, &ncut);

	lb_fig_put_intro(f, "cpu", "CPU time per operation", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "CPU time per operation: the workload and the tracer");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	fprintf(f, "\n# Where the axis ends, in us, when a row is more than %gx the median bar:\n"
		   "# the rows past it are cut there, their numbers at the right; 0: none cut.\n"
		   "cut_us = %g\n", CUT_SPAN, cut);
	lb_fig_put_common(res, f);
}

static void write_cpu_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[2048], axis[512];
	size_t ncut;
	double cut = cpu_cut(res, &ncut);

	if (cut > 0)
		snprintf(axis, sizeof(axis), "The axis is linear and cut at %g \u00b5s: %zu "
			 "row%s more than %g times the median bar %s cut there, marked by a break, "
			 "%s numbers at the right.", cut, ncut, ncut == 1 ? "" : "s", CUT_SPAN,
			 ncut == 1 ? "is" : "are", ncut == 1 ? "its" : "their");
	else
		snprintf(axis, sizeof(axis), "The axis is linear from zero (the bars are sums: a "
			 "log axis would misdraw their parts).");
	snprintf(what, sizeof(what), "CPU time per operation of the %s workload, in \u00b5s, one "
		 "row per probe set, the costliest at the top, and at the bottom nothing armed (no "
		 "probe set on). Each bar stacks the workload's processes in user mode (dark "
		 "blue) and in the kernel (light blue), their exact CPU clocks split as their "
		 "ticks were, and the tracer's own tasks (hatched vermillion: reader or consumer "
		 "threads, a tracing process, daemons); the black tick is every CPU of the "
		 "machine busy per operation (/proc/stat: sampled by the tick, so it may fall "
		 "short of the bar by a few ticks). %s The numbers at the right are those of "
		 "the parts, or the bar's total, and the tick.",
		 lb_fmt_or_unknown(res->config.workload), axis);
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_cpu = {
	.name = "cpu",
	.write_dat = write_cpu_dat,
	.write_header = write_cpu_header,
	.write_caption = write_cpu_caption,
};
