// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU tables of `loadbench report' (Markdown and LaTeX): per probe set,
 * the CPU time per operation of the workload's processes and of the
 * tracer's own tasks, the tracer's share of a CPU, the machine's busy time
 * per operation and the hypervisor's steal.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "format.h"
#include "report_latency.h"
#include "results.h"

/* @v with @prec decimals, or @none. */
static void put_v(FILE *f, int prec, double v, const char *none)
{
	if (isfinite(v))
		fprintf(f, "%.*f", prec, v);
	else
		fputs(none, f);
}

/* A tracer cell: @none for the baseline, "none" for a tracer without tasks of its own. */
static void put_tracer(FILE *f, const struct lb_cpu_summary *c, bool is_base, int prec, double v,
		       const char *none)
{
	if (is_base)
		fputs(none, f);
	else if (!c->tracer_tasks)
		fputs("none", f);
	else
		put_v(f, prec, v, none);
}

/* One row's cells after the name, separated by @sep; @none for what is missing. */
static void put_cells(FILE *f, const struct lb_cpu_summary *c, bool is_base, const char *sep,
		      const char *none)
{
	fputs(sep, f);
	put_v(f, 2, c->workload_us_per_op, none);
	fputs(sep, f);
	put_v(f, 2, c->workload_user_us_per_op, none);
	fputs(sep, f);
	put_v(f, 2, c->workload_sys_us_per_op, none);
	fputs(sep, f);
	put_tracer(f, c, is_base, 3, c->tracer_us_per_op, none);
	fputs(sep, f);
	put_tracer(f, c, is_base, 1, c->tracer_cpu_pct, none);
	fputs(sep, f);
	put_v(f, 2, c->machine_us_per_op, none);
	fputs(sep, f);
	put_v(f, 1, c->steal_pct, none);
}

void lb_report_cpu_markdown(const struct lb_results *res, FILE *f, lb_report_put_fn put)
{
	if (!res->baseline.summary.cpu.measured)
		return;
	fputs("\n### CPU per operation\n\n| probe set | workload \u00b5s | user | system | "
	      "tracer \u00b5s | tracer % of a CPU | machine \u00b5s | steal % |\n"
	      "|---|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;

		fputs("| ", f);
		put(f, lb_fmt_or_unknown(psr->name));
		put_cells(f, &psr->summary.cpu, !k, " | ", "-");
		fputs(" |\n", f);
	}
	fputs("\nWorkload: its processes' CPU clocks (user and system from their clock ticks); "
	      "tracer: its own threads and processes (none: it works in the kernel only); machine: "
	      "every CPU's busy time from /proc/stat (tick-sampled); steal: the hypervisor's share "
	      "of the machine's time.\n", f);
}

void lb_report_cpu_latex(const struct lb_results *res, FILE *f, lb_report_put_fn put)
{
	if (!res->baseline.summary.cpu.measured)
		return;
	fputs("\n\\begin{table}[t]\n\\centering\n\\caption{CPU time per operation in $\\mu$s: "
	      "the workload's processes (their CPU clocks; user and system from their clock "
	      "ticks), the tracer's own threads and processes (none: it works in the kernel only) "
	      "and their share of a CPU, every CPU's busy time (/proc/stat), and the hypervisor's "
	      "steal.}\n\\label{tab:loadbench-cpu}\n\\begin{tabular}{lrrrrrrr}\n\\toprule\n"
	      "Probe set & Workload & User & System & Tracer & Tracer \\% CPU & Machine & "
	      "Steal \\% \\\\\n\\midrule\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;

		put(f, lb_fmt_or_unknown(psr->name));
		put_cells(f, &psr->summary.cpu, !k, " & ", "--");
		fputs(" \\\\\n", f);
	}
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", f);
}
