// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU accounting: snapshots of a real running workload (no root) whose
 * processes must have used CPU, as the machine must have; the per-operation
 * summary of known runs; the steal flag.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "helpers.h"
#include "loadgen.h"
#include "report.h"
#include "results.h"

static void test_snapshots(void)
{
	struct lb_workload_config cfg;
	struct lb_workload *w = NULL;
	struct lb_cpu_snap a, b;
	struct lb_cpu c;
	char err[512];
	double busy = 0, total = 0;

	lb_workload_config_init(&cfg);
	cfg.max_seconds = 30;
	if (lb_workload_create(&cfg, &w, err, sizeof(err)) || lb_workload_start(w)) {
		fprintf(stderr, "udp-rr: %s\n", w ? lb_workload_error(w) : err);
		t_failures++;
		lb_workload_destroy(w);
		return;
	}
	T_CHECK(lb_cpu_snap_take(w, NULL, 0, &a) == 0 && a.ok);
	usleep(300000);
	T_CHECK(lb_cpu_snap_take(w, NULL, 0, &b) == 0 && b.ok);
	lb_cpu_snap_diff(&a, &b, &c);
	lb_workload_stop(w, NULL);
	for (int k = 0; k < LB_CPU_NKINDS; k++) {
		total += c.machine_ns[k];
		if (k != LB_CPU_IDLE)
			busy += c.machine_ns[k];
	}
	printf("udp-rr over 0.3 s: workload %.1f ms (user %.0f ms, sys %.0f ms), machine busy "
	       "%.1f ms of %.1f ms, steal %.2f%%\n", c.workload_ns / 1e6, c.workload_user_ns / 1e6,
	       c.workload_sys_ns / 1e6, busy / 1e6, total / 1e6, lb_cpu_steal_pct(&c));
	T_CHECK(c.measured);
	/* A closed loop never waits for long: its two processes run most of the window. */
	T_CHECK(c.workload_ns > 0.05e9 && c.workload_ns < 0.3e9 * 2 * 1.1);
	T_CHECK(c.workload_user_ns + c.workload_sys_ns > 0);
	/* No tracer: none of its tasks, and nothing read. */
	T_CHECK(c.tracer_tasks == 0 && c.tracer_ns == 0);
	/* The machine's clock ticked over the window on every CPU, some of it busy. */
	T_CHECK(total > 0.2e9 && busy > 0.05e9);
	/* A snapshot not taken gives no measurement. */
	memset(&a, 0, sizeof(a));
	lb_cpu_snap_diff(&a, &b, &c);
	T_CHECK(!c.measured);
	lb_workload_destroy(w);
}

static void run_cpu(struct lb_run *r, int round, uint64_t ops, double wl_ms, double tr_ms,
		    double steal_ms)
{
	memset(r, 0, sizeof(*r));
	r->round = round;
	r->seconds = 1;
	r->ops = ops;
	r->throughput = (double)ops;
	r->cpu.measured = true;
	r->cpu.workload_ns = wl_ms * 1e6;
	r->cpu.workload_user_ns = wl_ms * 1e6 / 4;
	r->cpu.workload_sys_ns = wl_ms * 1e6 * 3 / 4;
	r->cpu.tracer_ns = tr_ms * 1e6;
	r->cpu.tracer_tasks = tr_ms > 0 ? 2 : 0;
	r->cpu.machine_ns[LB_CPU_SYSTEM] = wl_ms * 1e6 + tr_ms * 1e6;
	r->cpu.machine_ns[LB_CPU_STEAL] = steal_ms * 1e6;
	r->cpu.machine_ns[LB_CPU_IDLE] = 2e9 - r->cpu.machine_ns[LB_CPU_SYSTEM] - steal_ms * 1e6;
}

/* results.json keeps every CPU number; a file without them reads as not measured. */
static void test_json(const struct lb_results *res)
{
	char dir[] = "/tmp/lb-test-cpu-XXXXXX", path[64], err[512] = "";
	struct lb_results *back = NULL;
	const struct lb_cpu *a, *b;
	const struct lb_cpu_summary *sa, *sb;

	if (!mkdtemp(dir)) {
		t_failures++;
		return;
	}
	snprintf(path, sizeof(path), "%s/results.json", dir);
	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	T_CHECK(lb_results_read_json(path, &back, err, sizeof(err)) == 0);
	if (!back) {
		fprintf(stderr, "read_json: %s\n", err);
		t_failures++;
		goto out;
	}
	a = &res->probesets[0].runs[1].cpu;
	b = &back->probesets[0].runs[1].cpu;
	T_CHECK(b->measured && b->workload_ns == a->workload_ns && b->tracer_ns == a->tracer_ns);
	T_CHECK(b->workload_sys_ns == a->workload_sys_ns && b->tracer_tasks == a->tracer_tasks);
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		T_CHECK(b->machine_ns[k] == a->machine_ns[k]);
	sa = &res->probesets[0].summary.cpu;
	sb = &back->probesets[0].summary.cpu;
	T_CHECK(sb->measured && sb->workload_us_per_op == sa->workload_us_per_op);
	T_CHECK(sb->tracer_cpu_pct == sa->tracer_cpu_pct && sb->tracer_tasks == sa->tracer_tasks);
	T_CHECK(sb->steal_pct == sa->steal_pct && sb->steal_windows == sa->steal_windows &&
		sb->windows == sa->windows);
	T_CHECK(!back->baseline.runs[0].cpu.tracer_tasks);
out:
	lb_results_free(back);
	unlink(path);
	rmdir(dir);
}

/* loadbench report: the CPU table in Markdown and LaTeX, the baseline's tracer cells empty. */
static void test_report(const struct lb_results *res)
{
	char *md = NULL, *tex = NULL;
	size_t len;
	FILE *f;

	f = open_memstream(&md, &len);
	T_CHECK(f && lb_report_print(res, LB_REPORT_MARKDOWN, f) == 0);
	if (f)
		fclose(f);
	T_CHECK(md && strstr(md, "\n### CPU per operation\n"));
	T_CHECK(md && strstr(md, "| baseline | 9.00 | 2.25 | 6.75 | - | - | 9.00 | 0.0 |"));
	T_CHECK(md && strstr(md, "| set | 19.00 | 4.75 | 14.25 | 5.000 | 25.0 | 25.00 | 2.5 |"));
	f = open_memstream(&tex, &len);
	T_CHECK(f && lb_report_print(res, LB_REPORT_LATEX, f) == 0);
	if (f)
		fclose(f);
	T_CHECK(tex && strstr(tex, "\\label{tab:loadbench-cpu}"));
	T_CHECK(tex && strstr(tex, "set & 19.00 & 4.75 & 14.25 & 5.000 & 25.0 & 25.00 & 2.5 \\\\"));
	free(md);
	free(tex);
}

static void test_summary(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *p;
	const struct lb_cpu_summary *s;
	struct lb_run r;

	T_CHECK(res != NULL);
	if (!res)
		return;
	p = lb_results_add_probeset(res, "set", "ftrace");
	for (int round = 1; round <= 4; round++) {
		run_cpu(&r, round, 100000, 900, 0, 0);
		T_CHECK(!lb_probeset_result_add_run(&res->baseline, &r));
		/* Round 2 had the hypervisor take 10% of the machine. */
		run_cpu(&r, round, 50000, 950, 250, round == 2 ? 200 : 0);
		T_CHECK(!lb_probeset_result_add_run(p, &r));
	}
	T_CHECK(!lb_results_summarize(res));
	s = &res->baseline.summary.cpu;
	T_CHECK(s->measured);
	T_CHECK_NEAR(s->workload_us_per_op, 9.0, 1e-9);
	T_CHECK_NEAR(s->workload_sys_us_per_op, 6.75, 1e-9);
	T_CHECK(s->tracer_tasks == 0 && s->steal_windows == 0 && s->windows == 4);
	s = &res->probesets[0].summary.cpu;
	T_CHECK_NEAR(s->workload_us_per_op, 19.0, 1e-9);
	T_CHECK_NEAR(s->tracer_us_per_op, 5.0, 1e-9);
	T_CHECK_NEAR(s->tracer_cpu_pct, 25.0, 1e-9);
	T_CHECK_NEAR(s->machine_us_per_op, 24.0 + 1.0, 1e-9); /* steal is busy time too */
	T_CHECK(s->tracer_tasks == 2);
	T_CHECK(s->steal_windows == 1 && s->windows == 4);
	T_CHECK_NEAR(s->steal_pct, 100 * 0.2 / 8, 1e-9);
	test_json(res);
	test_report(res);
	lb_results_free(res);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_summary();
	test_snapshots();
	return t_exit();
}
