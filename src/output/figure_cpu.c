// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU figure of a results directory whose CPU time was read: cpu.dat
 * (per set, the baseline first: the CPU time per operation of the
 * workload's processes, user and system, and of the tracer's own tasks, and
 * the machine's busy time) and the header of cpu.gp.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "figure.h"
#include "format.h"
#include "results.h"

static void lb_fig_cpu_row(FILE *f, const struct lb_probeset_result *psr, bool is_base)
{
	const struct lb_cpu_summary *c = &psr->summary.cpu;
	/* The ticks split the exact total: user's share of it, the rest system. */
	double ticks = c->workload_user_us_per_op + c->workload_sys_us_per_op;
	double user = ticks > 0 ? c->workload_us_per_op * c->workload_user_us_per_op / ticks : NAN;

	lb_fig_put_name(f, psr->name);
	fputc('\t', f);
	lb_fig_put_num(f, 4, user);
	fputc('\t', f);
	lb_fig_put_num(f, 4, isfinite(user) ? c->workload_us_per_op - user : c->workload_us_per_op);
	fputc('\t', f);
	lb_fig_put_num(f, 4, is_base || !c->measured ? 0 : c->tracer_us_per_op);
	fputc('\t', f);
	lb_fig_put_num(f, 4, c->machine_us_per_op);
	fputc('\t', f);
	lb_fig_put_num(f, 2, c->steal_pct);
	fprintf(f, "\t%d\n", is_base ? 0 : c->tracer_tasks);
}

static int write_cpu_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": CPU time per operation, read by cpu.gp\n", f);
	fputs("# One row per set, the baseline first; in us per operation: user_us and sys_us, the\n"
	      "# workload's processes' exact CPU time split as their user and system ticks were;\n"
	      "# tracer_us, the tracer's own tasks (0 with none); machine_us, every CPU busy\n"
	      "# (/proc/stat, tick-sampled); steal_pct, steal over the machine's time; tasks, the\n"
	      "# tracer's own tasks. NaN = missing value.\n", f);
	fputs("# name\tuser_us\tsys_us\ttracer_us\tmachine_us\tsteal_pct\ttasks\n", f);
	lb_fig_cpu_row(f, &res->baseline, true);
	for (size_t k = 0; k < res->nprobesets; k++)
		lb_fig_cpu_row(f, &res->probesets[k], false);
	return 0;
}

static void write_cpu_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	lb_fig_put_intro(f, "cpu", "CPU time per operation", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "CPU time per operation: the workload and the tracer");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	fputc('\n', f);
	lb_fig_put_common(res, f);
}

static void write_cpu_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[512];

	snprintf(what, sizeof(what), "CPU time per operation of the %s workload under each probe "
		 "set: the workload's processes (user and system), the tracer's own tasks, and "
		 "every CPU of the machine busy (/proc/stat).",
		 lb_fmt_or_unknown(res->config.workload));
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_cpu = {
	.name = "cpu",
	.write_dat = write_cpu_dat,
	.write_header = write_cpu_header,
	.write_caption = write_cpu_caption,
};
