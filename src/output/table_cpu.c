// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPU table under the summary table: per probe set, the CPU time per
 * operation of the workload's processes (user and system), of the
 * tracer's own tasks and of the whole machine, and the hypervisor's steal;
 * then a line for each tracer whose own tasks used much of a CPU, and for
 * each set measured while the hypervisor took the CPU away.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "table.h"
#include "util.h"

static void put_num(FILE *f, int width, int prec, double v)
{
	if (isfinite(v))
		fprintf(f, "  %*.*f", width, prec, v);
	else
		fprintf(f, "  %*s", width, "-");
}

static void put_name(FILE *f, const struct lb_probeset_result *psr, int w)
{
	const char *name = psr->name ? psr->name : "?";
	int pad = w - (int)lb_str_safe_len(name);

	lb_str_put_safe(f, name);
	fprintf(f, "%*s", pad > 0 ? pad : 0, "");
}

void lb_results_print_cpu(const struct lb_results *res, FILE *f)
{
	static const char *const title[] = { "workload", "user", "sys", "tracer", "tracer %CPU",
					     "machine", "steal %" };
	int w = lb_table_name_width(res);

	if (!res->baseline.summary.cpu.measured)
		return;
	fputs("\nCPU per operation, us (workload: its processes; tracer: its own threads and "
	      "processes; machine: every CPU busy, /proc/stat):\n", f);
	fprintf(f, "%-*s", w, "probe set");
	for (size_t i = 0; i < sizeof(title) / sizeof(title[0]); i++)
		fprintf(f, "  %*s", i == 4 ? 11 : 8, title[i]);
	fputc('\n', f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;
		const struct lb_cpu_summary *c = &psr->summary.cpu;

		put_name(f, psr, w);
		put_num(f, 8, 2, c->workload_us_per_op);
		put_num(f, 8, 2, c->workload_user_us_per_op);
		put_num(f, 8, 2, c->workload_sys_us_per_op);
		if (k && c->measured && !c->tracer_tasks) {
			/* In the kernel only: nothing of its own to run. */
			fprintf(f, "  %8s  %11s", "none", "none");
		} else {
			put_num(f, 8, 3, k ? c->tracer_us_per_op : NAN);
			put_num(f, 11, 1, k ? c->tracer_cpu_pct : NAN);
		}
		put_num(f, 8, 2, c->machine_us_per_op);
		put_num(f, 8, 1, c->steal_pct);
		fputc('\n', f);
	}
	for (size_t k = 0; k < res->nprobesets; k++) {
		const struct lb_probeset_result *psr = &res->probesets[k];
		const struct lb_cpu_summary *c = &psr->summary.cpu;

		if (!(c->tracer_cpu_pct > LB_TRACER_CPU_NOTE_PCT))
			continue;
		fputc('\n', f);
		put_name(f, psr, 0);
		fprintf(f, ": the tracer's own tasks used %.1f%% of a CPU while it was on (%.3f us "
			"per operation)", c->tracer_cpu_pct, c->tracer_us_per_op);
	}
	/* One line for every set measured while the hypervisor took the CPU away. */
	for (size_t k = 0, n = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;
		const struct lb_cpu_summary *c = &psr->summary.cpu;

		if (!c->steal_windows)
			continue;
		fprintf(f, n++ ? ", " : "\nsteal above %g%% of the machine's time (windows kept: "
			"the states of a unit share that noise): ", LB_STEAL_FLAG_PCT);
		put_name(f, psr, 0);
		fprintf(f, " %d of %d windows", c->steal_windows, c->windows);
	}
	fputc('\n', f);
}
