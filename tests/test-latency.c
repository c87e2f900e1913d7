// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the latency summary (src/results/summary_latency.c): runs
 * and slices whose latencies are known, and the quantiles, the added
 * latency and its CI that must follow; too few operations for a quantile
 * give no ratio, never a made-up one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "hist.h"
#include "report.h"
#include "results.h"

/* A run of round @round whose @n operations take @ns each, give or take 1%. */
static void run_with(struct lb_run *r, int round, uint64_t n, double ns)
{
	struct lb_hist *h = calloc(1, sizeof(*h));

	memset(r, 0, sizeof(*r));
	r->round = round;
	r->seconds = 1;
	r->ops = n;
	r->throughput = (double)n;
	if (!h) {
		t_failures++;
		return;
	}
	for (uint64_t i = 0; i < n; i++)
		lb_hist_record(h, (uint64_t)(ns * (0.99 + 0.02 * (double)(i % 101) / 100)));
	T_CHECK(!lb_latency_set(&r->latency, h));
	free(h);
}

/* loadbench report: the latency table in Markdown and LaTeX, with the added latency's CI. */
static void test_report(const struct lb_results *res)
{
	char *md = NULL, *tex = NULL;
	size_t len;
	FILE *f;

	f = open_memstream(&md, &len);
	T_CHECK(f && lb_report_print(res, LB_REPORT_MARKDOWN, f) == 0);
	if (f)
		fclose(f);
	T_CHECK(md && strstr(md, "\n### Latency per operation\n"));
	T_CHECK(md && strstr(md, "| baseline | 100000 |"));
	T_CHECK(md && strstr(md, "| set | 100000 |"));
	f = open_memstream(&tex, &len);
	T_CHECK(f && lb_report_print(res, LB_REPORT_LATEX, f) == 0);
	if (f)
		fclose(f);
	T_CHECK(tex && strstr(tex, "\\label{tab:loadbench-latency}"));
	T_CHECK(tex && strstr(tex, "set & 100000 & "));
	free(md);
	free(tex);
}

/* --method runs: a set 1.5x the baseline's latency, round by round. */
static void test_runs(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *p;
	const struct lb_lat_summary *l;
	struct lb_run r;

	T_CHECK(res != NULL);
	if (!res)
		return;
	p = lb_results_add_probeset(res, "set", "ftrace");
	for (int round = 1; round <= 5; round++) {
		double noise = 1 + 0.01 * round;

		run_with(&r, round, 20000, 10000 * noise);
		T_CHECK(!lb_probeset_result_add_run(&res->baseline, &r));
		lb_latency_release(&r.latency);
		run_with(&r, round, 20000, 15000 * noise);
		T_CHECK(!lb_probeset_result_add_run(p, &r));
		lb_latency_release(&r.latency);
	}
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	l = &p->summary.latency;
	T_CHECK(res->baseline.summary.latency.count == 100000 && l->count == 100000);
	T_CHECK(isnan(res->baseline.summary.latency.added_pct[0]));
	/* The merged median: 15000 * (1.01 .. 1.05), within the histogram's error. */
	T_CHECK(l->ns[0] > 15000 && l->ns[0] < 15000 * 1.05 * 1.01);
	T_CHECK_NEAR(l->added_pct[0], 50, 0.5);
	T_CHECK(l->added_pct_ci95[0][0] <= l->added_pct[0] && l->added_pct[0] <= l->added_pct_ci95[0][1]);
	/* The histogram's buckets (0.8% wide) are the only noise here. */
	T_CHECK(l->added_pct_ci95[0][0] > 45 && l->added_pct_ci95[0][1] < 55);
	/* Added: a third of the set's own median. */
	T_CHECK_NEAR(l->added_ns[0], l->ns[0] / 3, l->ns[0] * 0.01);
	T_CHECK(l->added_ns_ci95[0][0] <= l->added_ns[0] && l->added_ns[0] <= l->added_ns_ci95[0][1]);
	/* 20000 per round: p99.9 has 20 beyond it, p99.99 only 2: no ratio; the max never. */
	T_CHECK(isfinite(l->added_pct[3]));
	T_CHECK(isnan(l->added_pct[4]) && isnan(l->added_pct_ci95[4][0]));
	T_CHECK(isnan(l->added_pct[5]));
	/* But the merged quantiles are there: 100000 operations. */
	T_CHECK(isfinite(l->ns[4]) && isfinite(l->ns[5]));
	test_report(res);
	lb_results_free(res);
}

/* A slice of unit @u in state @on with @n operations whose quantiles are @ns each. */
static struct lb_slice slice(int u, int on, uint64_t n, double ns)
{
	struct lb_slice s = { .unit = u, .on = on, .seconds = 0.1, .ops = n, .lat_count = n };

	for (int q = 0; q < LB_LAT_NQ; q++)
		s.lat_ns[q] = ns * (1 + 0.1 * q);
	return s;
}

/* --method alternate: on slices 1.2x their unit's off slices; a unit with a short slice is out. */
static void test_alternate(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *p;
	const struct lb_lat_summary *l;
	struct lb_slice s[4 * 20 + 2];
	struct lb_run r;
	size_t n = 0;

	T_CHECK(res != NULL);
	if (!res)
		return;
	res->config.method = strdup("alternate");
	res->config.precision = 1.0;
	p = lb_results_add_probeset(res, "set", "ftrace");
	s[n++] = slice(-1, LB_SLICE_PLAIN, 5000, 10000);
	for (int u = 0; u < 20; u++) {
		double d = 1 + 0.01 * (u % 4);

		s[n++] = slice(u, -1, 5000, 10000 * d);
		s[n++] = slice(u, 0, 5000, 12000 * d);
		s[n++] = slice(u, 0, 5000, 12000 * d);
		s[n++] = slice(u, -1, 5000, 10000 * d);
	}
	s[n++] = slice(-1, LB_SLICE_PLAIN, 5000, 10000);
	/*
	 * Units 1, 4, ..., 19 (7 of 20) are 10x worse in one on slice, which has
	 * only 500 operations: out for p99, in for p50 (the trimmed mean drops
	 * the 4 highest of 20 ratios, not 7).
	 */
	for (int u = 1; u < 20; u += 3) {
		s[1 + 4 * u + 1].lat_count = 500;
		for (int q = 0; q < LB_LAT_NQ; q++)
			s[1 + 4 * u + 1].lat_ns[q] *= 10;
	}
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	run_with(&r, 1, 200000, 10000);
	T_CHECK(!lb_probeset_result_add_run(&res->baseline, &r));
	lb_latency_release(&r.latency);
	run_with(&r, 1, 200000, 12000);
	T_CHECK(!lb_probeset_result_add_run(p, &r));
	lb_latency_release(&r.latency);
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	l = &p->summary.latency;
	/* p99 (index 2): the 13 units whose slices have the operations, all at 1.2. */
	T_CHECK_NEAR(l->added_pct[2], 20, 0.01);
	T_CHECK_NEAR(l->added_pct_ci95[2][0], 20, 0.01);
	/* p50: the 7 count (250 beyond the median), and their 10x pulls the center up. */
	T_CHECK(l->added_pct[0] > 20.5);
	T_CHECK(l->added_pct_ci95[0][1] > l->added_pct_ci95[0][0]);
	/* p99.99 needs 100000 operations a slice: none has them. */
	T_CHECK(isnan(l->added_pct[4]));
	lb_results_free(res);
}

int main(void)
{
	test_runs();
	test_alternate();
	return t_exit();
}
