// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency figure of a results directory whose operations were timed:
 * latency.dat (each set's quantiles and the latency tracing added at each,
 * one block per set, the baseline first) and the header of latency.gp.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "figure.h"
#include "format.h"
#include "results.h"

static void lb_fig_lat_block(FILE *f, const struct lb_probeset_result *psr)
{
	const struct lb_lat_summary *l = &psr->summary.latency;

	for (int q = 0; q < LB_LAT_NQ; q++) {
		bool shown = lb_lat_quantile_shown(l->count, q);

		lb_fig_put_name(f, psr->name);
		fprintf(f, "\t%d\t%s\t", q, lb_lat_q_names[q]);
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

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": latency per operation at each quantile, read by latency.gp\n", f);
	fputs("# One block per probe set, the baseline first, separated by two blank lines.\n"
	      "# q: 0..5 for p50 p90 p99 p99.9 p99.99 max (nearest rank, within 0.4%);\n"
	      "# us: the quantile in microseconds, NaN where fewer than 10 operations lie\n"
	      "# beyond it; added_us [added_lo_us, added_hi_us]: what tracing added at that\n"
	      "# quantile and its 95% CI (traced over untraced per round or unit; NaN: none);\n"
	      "# ratio [ratio_lo, ratio_hi]: that ratio, traced over untraced, and its CI.\n", f);
	fputs("# name\tq\tlabel\tus\tadded_us\tadded_lo_us\tadded_hi_us\tratio\tratio_lo\t"
	      "ratio_hi\n", f);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		if (k)
			fputs("\n\n", f);
		lb_fig_lat_block(f, k ? &res->probesets[k - 1] : &res->baseline);
	}
	return 0;
}

static void write_latency_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	lb_fig_put_intro(f, "latency", "latency per operation at each quantile", res->version);
	fputs("title = ", f);
	lb_fig_put_string(f, "Latency per operation, traced and untraced");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, lb_fig_baseline_line(res, line, sizeof(line)));
	fprintf(f, "\nnsets = %zu\narray set_name[%zu]\n", res->nprobesets + 1,
		res->nprobesets + 1);
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const char *name = k ? res->probesets[k - 1].name : res->baseline.name;

		fprintf(f, "set_name[%zu] = ", k + 1);
		lb_fig_put_string(f, name ? name : "?");
		fputc('\n', f);
	}
	lb_fig_put_common(res, f);
}

static void write_latency_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[512];

	snprintf(what, sizeof(what), "Latency per operation of the %s workload at each quantile, "
		 "and what each probe set adds to it, with the 95%% confidence interval of what "
		 "it adds (traced over untraced, paired per round or unit).",
		 lb_fmt_or_unknown(res->config.workload));
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_latency = {
	.name = "latency",
	.write_dat = write_latency_dat,
	.write_header = write_latency_header,
	.write_caption = write_latency_caption,
};
