// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The latency table under the summary table: each set's operation
 * latencies at the quantiles loadbench reports, and what tracing added at
 * the median and the 99th percentile with their 95% CIs.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "table.h"
#include "util.h"

enum { LB_LATQ_P50 = 0, LB_LATQ_P99 = 2 };

/* "+1.2 [0.8, 1.6]" in us, "+1.2" without a CI, "-" without a value. */
static void lb_lat_added(char *buf, size_t len, const struct lb_lat_summary *l, int q)
{
	if (!isfinite(l->added_ns[q]))
		snprintf(buf, len, "-");
	else if (isfinite(l->added_ns_ci95[q][0]) && isfinite(l->added_ns_ci95[q][1]))
		snprintf(buf, len, "%+.2f [%.2f, %.2f]", l->added_ns[q] / 1e3,
			 l->added_ns_ci95[q][0] / 1e3, l->added_ns_ci95[q][1] / 1e3);
	else
		snprintf(buf, len, "%+.2f", l->added_ns[q] / 1e3);
}

int lb_table_name_width(const struct lb_results *res)
{
	int w = (int)strlen("probe set");

	for (size_t k = 0; k < res->nprobesets; k++) {
		size_t n = lb_str_safe_len(res->probesets[k].name ? res->probesets[k].name : "?");

		if ((int)n > w && n < 64)
			w = (int)n;
	}
	return w;
}

void lb_results_print_latency(const struct lb_results *res, FILE *f)
{
	int w = lb_table_name_width(res);
	bool rate = res->config.rate > 0;
	char a50[64], a99[64];

	if (!res->baseline.summary.latency.count)
		return;
	fprintf(f, "\nlatency per operation, us (quantiles need 10 operations beyond them; "
		   "added: traced over untraced at the same quantile, 95%% CI):\n");
	if (rate)
		fprintf(f, "(open loop, %d requests/s per flow: each timed from its scheduled send; "
			   "late: sent a period or more behind schedule, %% of operations)\n",
			res->config.rate);
	fprintf(f, "%-*s  %9s", w, "probe set", "timed");
	if (rate)
		fprintf(f, "  %7s", "late %");
	for (int q = 0; q < LB_LAT_NQ; q++)
		fprintf(f, "  %8s", lb_lat_q_names[q]);
	fprintf(f, "  %-24s  %s\n", "added p50", "added p99");
	for (size_t k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;
		const struct lb_lat_summary *l = &psr->summary.latency;
		int pad = w - (int)lb_str_safe_len(psr->name ? psr->name : "?");

		lb_str_put_safe(f, psr->name ? psr->name : "?");
		fprintf(f, "%*s  %9llu", pad > 0 ? pad : 0, "", (unsigned long long)l->count);
		if (rate && isfinite(psr->summary.late_pct))
			fprintf(f, "  %7.2f", psr->summary.late_pct);
		else if (rate)
			fprintf(f, "  %7s", "-");
		for (int q = 0; q < LB_LAT_NQ; q++) {
			if (l->count && isfinite(l->ns[q]) && lb_lat_quantile_shown(l->count, q))
				fprintf(f, "  %8.2f", l->ns[q] / 1e3);
			else
				fprintf(f, "  %8s", "-");
		}
		if (!k) {
			fputc('\n', f);
			continue;
		}
		lb_lat_added(a50, sizeof(a50), l, LB_LATQ_P50);
		lb_lat_added(a99, sizeof(a99), l, LB_LATQ_P99);
		fprintf(f, "  %-24s  %s\n", a50, a99);
	}
}
