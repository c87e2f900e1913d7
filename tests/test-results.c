// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of src/results/: summary numbers against hand-computed values,
 * the JSON round trip (--method alternate's slices too, and files older than
 * it), the CSV texts, bad input, the caps on what a file may hold, atomic
 * writes, the table.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "hist.h"
#include "results.h"
#include "stats.h"
#include "sysinfo.h"
#include "table.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const warning0 = "note: \"quoted\", comma, newline\nand UTF-8 \u2713 \\ / \t";

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Equal, or both NaN: what a JSON round trip must preserve. */
static bool same_double(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int add_run(struct lb_probeset_result *psr, int round, double seconds, uint64_t ops,
		   uint64_t events, uint64_t lost, uint64_t timeouts, const double *samples,
		   size_t nsamples)
{
	struct lb_run run = {
		.round = round,
		.seconds = seconds,
		.ops = ops,
		.throughput = ops / seconds,
		.events = events,
		.lost_events = lost,
		.overwritten_events = 2 * lost,	/* distinct from lost, to catch mix-ups */
		.timeouts = timeouts,
		.sample_interval = nsamples ? seconds / nsamples : 0,
		.samples = (double *)samples,
		.nsamples = nsamples,
	};

	return lb_probeset_result_add_run(psr, &run);
}

/* Baseline + 2 probe sets over 3 rounds, one extra unpaired round; strings that need escaping. */
static struct lb_results *build(void)
{
	const double s1[] = { 99000, 101000 }, s2[] = { 80000, NAN, 80000.125 };
	const double s3[] = { 1e-300, 1.0 / 3, 123456789.123 };
	struct lb_probeset_result *a, *b;
	struct lb_results *res = lb_results_new();
	int ret = 0;

	if (!res)
		return NULL;
	res->version = strdup("0.1.0");
	res->started = strdup("2024-03-01T12:00:00Z");
	res->complete = true;
	res->host.kernel_release = strdup("6.1.0-18-amd64");
	res->host.kernel_version = strdup("#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
	res->host.machine = strdup("x86_64");
	res->host.cpu_model = strdup("Intel(R) Xeon(R) \u201cGold\u201d 6230, \u00fcber \"fast\"");
	res->host.virtualization = strdup("kvm");
	res->host.ncpus = 8;
	res->host.vm_accelerator = strdup("tcg: /dev/kvm is kvm_pvm (runs only PVM guests)");
	res->config.workload = strdup("udp-rr");
	res->config.placement = strdup("server on CPU 2, client on CPU 3 (\"pinned\")");
	res->config.engine = strdup("uring");
	res->config.command_line = strdup("loadbench --probeset 'a,b' --repeat 3");
	res->config.duration = 10;
	res->config.warmup = 2.5;
	res->config.repeat = 3;
	res->config.syscalls_per_op = 2;
	res->config.msg_size = 64;
	res->config.server_cpu = 2;
	res->config.client_cpu = 3;
	res->config.buffer_kb = 0;
	res->config.topology = strdup("veth");
	res->config.flows = 2;
	res->config.flow_placement = calloc(2, sizeof(*res->config.flow_placement));
	if (!res->config.topology || !res->config.flow_placement)
		goto fail;
	res->config.nflow_placement = 2;
	res->config.flow_placement[0] = (struct lb_flow_place){ .server_cpu = 2, .client_cpu = 3 };
	res->config.flow_placement[1] = (struct lb_flow_place){ .server_cpu = 4, .client_cpu = -1 };

	ret |= add_run(&res->baseline, 1, 10, 1000000, 0, 0, 0, s1, ARRAY_SIZE(s1));

	ret |= add_run(&res->baseline, 2, 10, 1020000, 0, 0, 1, NULL, 0);
	ret |= add_run(&res->baseline, 3, 9.5, 931000, 0, 0, 0, NULL, 0);
	if (!ret) {
		/* The workload's own counts, per flow too, on round 2. */
		struct lb_run *r = &res->baseline.runs[1];

		r->flow_ops = calloc(2, sizeof(*r->flow_ops));
		if (!r->flow_ops)
			goto fail;
		r->flow_ops[0] = 700001;
		r->flow_ops[1] = 500002;
		r->nflow_ops = 2;
		r->sent = 1200010;
		r->received = 1200003;
		r->dropped = 7;
		r->mismatches = 3;
		r->edge_spread_ops = 41;
	}

	a = lb_results_add_probeset(res, "ftrace", "ftrace");
	if (!a)
		goto fail;
	a->description = strdup("syscalls, \"net\" events");
	a->file = strdup("/usr/share/loadbench/probesets/ftrace.probeset");
	a->text = strdup("# ftrace\ntracer ftrace\nsyscall all\n");
	ret |= add_run(a, 1, 10, 800000, 8000000, 0, 0, s2, ARRAY_SIZE(s2));
	ret |= add_run(a, 2, 10, 820000, 8200000, 5, 0, NULL, 0);
	ret |= add_run(a, 3, 10, 790000, 7900000, 10, 0, s3, ARRAY_SIZE(s3));

	b = lb_results_add_probeset(res, "lttng+kprobe, \"x\"", "lttng");
	if (!b)
		goto fail;
	b->text = strdup("tracer lttng\nkprobe \u00fc\u00df\n");
	/*
	 * b builds on a, which the run added for it (round-tripped, and the pair line).
	 * Adding b may have moved the array: a is taken again.
	 */
	a = &res->probesets[0];
	b->compare_with = strdup("ftrace");
	a->added_for = strdup(b->name);
	if (!b->compare_with || !a->added_for)
		goto fail;
	ret |= add_run(b, 1, 10, 500000, 1500000, 0, 0, NULL, 0);
	ret |= add_run(b, 2, 10, 490000, 1470000, 0, 0, NULL, 0);
	ret |= add_run(b, 3, 10, 520000, 2080000, 0, 0, NULL, 0);
	/* Round 4 has no baseline partner: counted in its own median, not in the slowdown. */
	ret |= add_run(b, 4, 10, 100000, 200000, 0, 7, NULL, 0);

	ret |= lb_results_add_warning(res, "%s", warning0);
	ret |= lb_results_add_skipped(res, "ftrace+kprobe", "kernel without CONFIG_KPROBES, \"q\"");
	ret |= lb_results_add_skipped(res, "strace", "needs root");
	if (ret)
		goto fail;
	return res;
fail:
	lb_results_free(res);
	return NULL;
}

/*
 * Four states per unit in mirrored order for set @on (off on on off, or on off
 * off on from unit 1), or six for a pair @base, @on (off base set set base
 * off): @nunits units appended to @psr, throughputs @off_rate off and
 * lower by the share @cost with the base on, twice that with the set on.
 */
static int add_slices(struct lb_probeset_result *psr, int base, int on, int nunits,
		      double off_rate, double cost)
{
	static const int single[2][4] = { { -1, 1, 1, -1 }, { 1, -1, -1, 1 } };
	static const int pair[2][6] = { { -1, 0, 1, 1, 0, -1 }, { 1, 0, -1, -1, 0, 1 } };
	double t = 0;
	int u, k, ret = 0;

	for (u = 0; u < nunits; u++) {
		int n = base >= 0 ? 6 : 4;

		for (k = 0; k < n; k++) {
			int st = base >= 0 ? pair[u % 2][k] : single[u % 2][k];
			int set = st < 0 ? -1 : st == 0 ? base : on;
			double share = set < 0 ? 0 : set == base ? cost : 2 * cost;
			double rate = off_rate * (1 - share);
			struct lb_slice sl = {
				.unit = u,
				.on = set,
				.start = t,
				/* Not a round number of seconds: 0.1 + 0.2 is not 0.3. */
				.seconds = 0.1 + (k % 3) * 0.1,
				/* The first slice was not switched into. */
				.switch_s = u || k ? 0.0003 + k / 3e4 : NAN,
				.events = set < 0 ? 0 : 12345 + 7 * u + k,
				.lost_events = set == on && u == 1 ? 3 : 0,
				.overwritten_events = set == on ? 5 : 0,
				.read_events = set >= 0 ? 11 : 0,
				/* BPF statistics: the on set's only (command sets, --bpf-stats). */
				.bpf_runs = set == on ? 1000 + (uint64_t)k : 0,
				.bpf_run_ns = set == on ? 50000 + (uint64_t)k : 0,
				.off_events = set < 0 && u == 2 ? 1 : 0,
				.edge_spread_ops = (uint64_t)(u + k),
				/* A unit whose edges were too uncertain: all of its slices. */
				.dropped = u == 1,
			};

			sl.ops = (uint64_t)(rate * sl.seconds) + (uint64_t)u;
			ret |= lb_probeset_result_add_slices(psr, &sl, 1);
			t += sl.seconds + 0.02;
		}
	}
	return ret;
}

/*
 * --method alternate: ftrace alone (four states per unit), and
 * syscalls+kprobe beside syscalls (compare-with: off, base, set), whose
 * slices both of the pair's entries hold; the baseline is one plain run per
 * alternation. The base names the set after it in the file.
 */
static struct lb_results *build_alternate(void)
{
	struct lb_probeset_result *f, *b, *k;
	struct lb_results *res = lb_results_new();
	const double on_rates[] = { 53000.5, 1.0 / 3, 52999 };
	int ret = 0;

	if (!res)
		return NULL;
	res->version = strdup("0.2.0");
	res->started = strdup("2026-12-01T20:00:00Z");
	res->complete = true;
	res->host.kernel_release = strdup("6.18.44-test");
	res->host.virtualization = strdup("kvm");
	res->host.ncpus = 2;
	res->config.workload = strdup("udp-rr");
	res->config.method = strdup("alternate");
	res->config.duration = 2;
	res->config.repeat = 1;
	res->config.slice = 0.1;
	res->config.settle = 0.02;
	res->config.precision = 1;
	res->config.max_time = 60;
	res->config.time_budget = 270;
	res->config.server_cpu = res->config.client_cpu = 1;
	ret |= add_run(&res->baseline, 1, 2, 154000, 0, 0, 0, NULL, 0);
	ret |= add_run(&res->baseline, 2, 2, 153000, 0, 0, 0, NULL, 0);

	f = lb_results_add_probeset(res, "ftrace", "ftrace");
	if (!f)
		goto fail;
	ret |= add_run(f, 1, 0.6, 31800, 148140, 0, 0, on_rates, 3);
	ret |= add_slices(f, -1, 0, 3, 76000, 0.15);
	f->summary.units = 2;
	f->summary.dropped_units = 1;
	f->summary.ci_half_width = 0.7;
	f->summary.precision_reached = true;
	f->summary.off_throughput = 76000.25;
	f->summary.residue_pct = 1.0 / 7;
	f->summary.switch_on_ms = 0.3;
	f->summary.switch_off_ms = 0.35;
	f->summary.off_events = 1;
	f->summary.seconds = 1.5;
	f->summary.slowdown_pct = 30.1;
	f->summary.slowdown_ci95[0] = 29.4;
	f->summary.slowdown_ci95[1] = 30.8;

	b = lb_results_add_probeset(res, "syscalls", "ftrace");
	k = b ? lb_results_add_probeset(res, "syscalls+kprobe", "ftrace") : NULL;
	if (!k)
		goto fail;
	b = &res->probesets[1];	/* adding k may have moved the array */
	b->added_for = strdup("syscalls+kprobe");
	k->compare_with = strdup("syscalls");
	k->off_residue = strdup("kprobe 'p:lb_x' stays registered while off, \"disabled\"");
	if (!b->added_for || !k->compare_with || !k->off_residue)
		goto fail;
	ret |= add_run(b, 2, 0.8, 52000, 130000, 0, 0, NULL, 0);
	ret |= add_run(k, 2, 0.8, 40000, 150000, 3, 0, NULL, 0);
	ret |= add_slices(b, 1, 2, 3, 75000, 0.1);
	ret |= add_slices(k, 1, 2, 3, 75000, 0.1);
	b->summary.units = 3;
	b->summary.slowdown_pct = 10;
	k->summary.units = 2;
	k->summary.dropped_units = 1;
	k->summary.ci_half_width = 2.5;
	k->summary.precision_reached = false;
	k->summary.switch_on_ms = 0.5;
	k->summary.seconds = 60.000001;
	k->summary.slowdown_pct = 20;
	k->summary.slowdown_ci95[0] = 17.5;
	k->summary.slowdown_ci95[1] = 22.5;
	if (ret)
		goto fail;
	return res;
fail:
	lb_results_free(res);
	return NULL;
}

static void test_summary(struct lb_results *res)
{
	const struct lb_summary *bs = &res->baseline.summary;
	const struct lb_summary *sa = &res->probesets[0].summary;
	const struct lb_summary *sb = &res->probesets[1].summary;

	T_CHECK(lb_results_summarize(res) == 0);

	/* Baseline 100000, 102000, 98000: median 100000, sd 2000. */
	T_CHECK_NEAR(bs->throughput_median, 100000, 1e-9);
	T_CHECK_NEAR(bs->throughput_cv, 0.02, 1e-12);
	T_CHECK(isnan(bs->slowdown_pct));

	/* ftrace 80000, 82000, 79000: 20% slower, 10 events per op. */
	T_CHECK_NEAR(sa->throughput_median, 80000, 1e-9);
	T_CHECK_NEAR(sa->throughput_cv, sqrt(7e6 / 3) / (241000 / 3.0), 1e-12);
	T_CHECK_NEAR(sa->slowdown_pct, 20, 1e-9);
	T_CHECK(sa->slowdown_ci95[0] <= sa->slowdown_pct);
	T_CHECK(sa->slowdown_pct <= sa->slowdown_ci95[1]);
	/* Every resample's slowdown lies between the extreme pairings. */
	T_CHECK(sa->slowdown_ci95[0] >= 100 * (1 - 82000 / 98000.0) - 1e-9);
	T_CHECK(sa->slowdown_ci95[1] <= 100 * (1 - 79000 / 102000.0) + 1e-9);
	T_CHECK_NEAR(sa->events_per_op, 10, 1e-12);
	T_CHECK_NEAR(sa->ns_per_event, 250, 1e-6);
	/* Its CI: the slowdown's ends as a cost per event, around it. */
	T_CHECK_NEAR(sa->ns_per_event_ci95[0],
		     lb_stats_ns_per_event(100000, 100000 * (1 - sa->slowdown_ci95[0] / 100), 10), 1e-9);
	T_CHECK_NEAR(sa->ns_per_event_ci95[1],
		     lb_stats_ns_per_event(100000, 100000 * (1 - sa->slowdown_ci95[1] / 100), 10), 1e-9);
	T_CHECK(sa->ns_per_event_ci95[0] <= sa->ns_per_event &&
		sa->ns_per_event <= sa->ns_per_event_ci95[1]);
	T_CHECK(sa->events == 24100000);
	T_CHECK(sa->lost_events == 15);
	T_CHECK(sa->overwritten_events == 30);

	/* lttng: 50000, 49000, 52000 paired; 10000 in round 4 unpaired. */
	T_CHECK_NEAR(sb->throughput_median, 49500, 1e-9);
	T_CHECK_NEAR(sb->throughput_cv, sqrt(1224750000.0 / 3) / 40250, 1e-12);
	T_CHECK_NEAR(sb->slowdown_pct, 50, 1e-9);
	T_CHECK(sb->slowdown_ci95[0] <= 50 && 50 <= sb->slowdown_ci95[1]);
	T_CHECK_NEAR(sb->events_per_op, 3, 1e-12);
	T_CHECK_NEAR(sb->ns_per_event, (1 / 49500.0 - 1 / 100000.0) / 3 * 1e9, 1e-6);
	T_CHECK(sb->events == 5250000);
	T_CHECK(sb->lost_events == 0);

	/* A quiet baseline and three rounds: beyond the one added, that 3 rounds are few. */
	T_CHECK(res->nwarnings == 2);
	if (res->nwarnings == 2) {
		T_CHECK_STR(res->warnings[0], warning0);
		T_CHECK_STR(res->warnings[1], "only 3 rounds paired with the baseline: a bootstrap "
			    "95% confidence interval from fewer than 5 rounds is too narrow (it spans "
			    "little more than what those rounds gave): use --repeat 5 or more before "
			    "comparing intervals");
	}
}

/* Noise and missing-interval warnings, once each even when summarized twice. */
static void test_warnings(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *p;

	T_CHECK(res != NULL);
	if (!res)
		return;
	add_run(&res->baseline, 1, 1, 100000, 0, 0, 0, NULL, 0);
	add_run(&res->baseline, 2, 1, 120000, 0, 0, 0, NULL, 0);
	add_run(&res->baseline, 3, 1, 80000, 0, 0, 0, NULL, 0);
	p = lb_results_add_probeset(res, "small", "ftrace");
	add_run(p, 1, 1, 97000, 97000, 0, 0, NULL, 0);
	add_run(p, 2, 1, 118000, 118000, 0, 0, NULL, 0);
	add_run(p, 3, 1, 77000, 77000, 0, 0, NULL, 0);
	p = lb_results_add_probeset(res, "single", "perf");
	add_run(p, 2, 1, 60000, 60000, 0, 0, NULL, 0);

	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(res->nwarnings == 2);
	if (res->nwarnings == 2) {
		/* CV 20%: slowdowns below ~40% are noise; the smallest here is 3%. */
		T_CHECK(strstr(res->warnings[0], "varies by 20.0%") != NULL);
		T_CHECK(strstr(res->warnings[0], "below ~40.0%") != NULL);
		T_CHECK(strstr(res->warnings[0], "small at 3.0%") != NULL);
		T_CHECK(strstr(res->warnings[0], "--repeat") != NULL);
		T_CHECK(strstr(res->warnings[0], "--duration") != NULL);
		T_CHECK(strstr(res->warnings[0], "--cpus") != NULL);
		T_CHECK(strstr(res->warnings[1], "for single") != NULL);
		T_CHECK(strstr(res->warnings[1], "cannot be computed") != NULL);
	}
	T_CHECK(isnan(res->probesets[1].summary.slowdown_ci95[0]));
	T_CHECK(isnan(res->probesets[1].summary.slowdown_ci95[1]));
	T_CHECK_NEAR(res->probesets[1].summary.slowdown_pct, 100 * (1 - 60000 / 120000.0), 1e-9);
	lb_results_free(res);

	/* One round: the CI cannot be computed for anything; CV unknown, no noise warning. */
	res = lb_results_new();
	T_CHECK(res != NULL);
	if (!res)
		return;
	add_run(&res->baseline, 1, 1, 100000, 0, 0, 0, NULL, 0);
	p = lb_results_add_probeset(res, "ftrace", "ftrace");
	add_run(p, 1, 1, 90000, 90000, 0, 0, NULL, 0);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(res->nwarnings == 1);
	if (res->nwarnings == 1) {
		T_CHECK(strstr(res->warnings[0], "only 1 round") != NULL);
		T_CHECK(strstr(res->warnings[0], "cannot be computed") != NULL);
	}
	T_CHECK_NEAR(res->probesets[0].summary.slowdown_pct, 10, 1e-9);
	lb_results_free(res);

	/*
	 * An edge of the window read while loadbench was held up: 2000 of a run's
	 * 90000 operations (2.2%) is flagged, for the worst run; 500 (0.6%) is not.
	 */
	res = lb_results_new();
	T_CHECK(res != NULL);
	if (!res)
		return;
	for (int round = 1; round <= 3; round++)
		add_run(&res->baseline, round, 1, 100000, 0, 0, 0, NULL, 0);
	p = lb_results_add_probeset(res, "held", "ftrace");
	for (int round = 1; round <= 3; round++)
		add_run(p, round, 1, 90000, 90000, 0, 0, NULL, 0);
	p->runs[0].edge_spread_ops = 500;
	p->runs[2].edge_spread_ops = 2000;
	p = lb_results_add_probeset(res, "quiet", "ftrace");
	for (int round = 1; round <= 3; round++)
		add_run(p, round, 1, 90000, 90000, 0, 0, NULL, 0);
	p->runs[1].edge_spread_ops = 500;
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(res->nwarnings == 2);
	if (res->nwarnings == 2) {
		T_CHECK_STR(res->warnings[0], "held, round 3: reading the tracer's counts at an edge "
			    "of the measured window took 2000 operations (2.2% of the window's): its "
			    "events per operation can be off by up to that much; loadbench was held "
			    "up (a busy machine)");
		T_CHECK(strstr(res->warnings[1], "only 3 rounds") != NULL);
	}
	lb_results_free(res);

	/* A baseline over 5% CV is flagged even against large slowdowns. */
	res = lb_results_new();
	T_CHECK(res != NULL);
	if (!res)
		return;
	add_run(&res->baseline, 1, 1, 100000, 0, 0, 0, NULL, 0);
	add_run(&res->baseline, 2, 1, 110000, 0, 0, 0, NULL, 0);
	add_run(&res->baseline, 3, 1, 90000, 0, 0, 0, NULL, 0);
	p = lb_results_add_probeset(res, "big", "ftrace");
	add_run(p, 1, 1, 50000, 1, 0, 0, NULL, 0);
	add_run(p, 2, 1, 55000, 1, 0, 0, NULL, 0);
	add_run(p, 3, 1, 45000, 1, 0, 0, NULL, 0);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(res->nwarnings == 2);
	if (res->nwarnings == 2) {
		T_CHECK(strstr(res->warnings[0], "varies by 10.0%") != NULL);
		T_CHECK(strstr(res->warnings[1], "only 3 rounds") != NULL);
	}
	lb_results_free(res);

	/*
	 * Rounds enough for a bootstrap interval: five paired rounds, one set
	 * with a sixth unpaired, a quiet baseline: no warning. Four are said.
	 */
	for (int rounds = 4; rounds <= 5; rounds++) {
		res = lb_results_new();
		T_CHECK(res != NULL);
		if (!res)
			return;
		for (int round = 1; round <= rounds; round++)
			add_run(&res->baseline, round, 1, 100000 + 100 * round, 0, 0, 0, NULL, 0);
		p = lb_results_add_probeset(res, "ftrace", "ftrace");
		for (int round = 1; round <= rounds + 1; round++)
			add_run(p, round, 1, 80000 + 100 * round, 80000, 0, 0, NULL, 0);
		T_CHECK(lb_results_summarize(res) == 0);
		if (rounds == 5) {
			T_CHECK(res->nwarnings == 0);
		} else {
			T_CHECK(res->nwarnings == 1);
			if (res->nwarnings == 1)
				T_CHECK(strstr(res->warnings[0], "only 4 rounds paired") != NULL);
		}
		lb_results_free(res);
	}
}

static void compare_summary(const struct lb_summary *a, const struct lb_summary *b)
{
	T_CHECK(same_double(a->throughput_median, b->throughput_median));
	T_CHECK(same_double(a->throughput_cv, b->throughput_cv));
	T_CHECK(same_double(a->slowdown_pct, b->slowdown_pct));
	T_CHECK(same_double(a->slowdown_ci95[0], b->slowdown_ci95[0]));
	T_CHECK(same_double(a->slowdown_ci95[1], b->slowdown_ci95[1]));
	T_CHECK(same_double(a->events_per_op, b->events_per_op));
	T_CHECK(same_double(a->ns_per_event, b->ns_per_event));
	T_CHECK(same_double(a->ns_per_event_ci95[0], b->ns_per_event_ci95[0]));
	T_CHECK(same_double(a->ns_per_event_ci95[1], b->ns_per_event_ci95[1]));
	T_CHECK(a->events == b->events);
	T_CHECK(a->lost_events == b->lost_events);
	T_CHECK(a->overwritten_events == b->overwritten_events);
	T_CHECK(a->read_events == b->read_events);
	T_CHECK(a->read_bytes == b->read_bytes);
	T_CHECK(a->bpf_runs == b->bpf_runs);
	T_CHECK(a->bpf_run_ns == b->bpf_run_ns);
	T_CHECK(a->units == b->units);
	T_CHECK(a->dropped_units == b->dropped_units);
	T_CHECK(same_double(a->ci_half_width, b->ci_half_width));
	T_CHECK(a->precision_reached == b->precision_reached);
	T_CHECK(same_double(a->off_throughput, b->off_throughput));
	T_CHECK(same_double(a->residue_pct, b->residue_pct));
	T_CHECK(same_double(a->switch_on_ms, b->switch_on_ms));
	T_CHECK(same_double(a->switch_off_ms, b->switch_off_ms));
	T_CHECK(a->off_events == b->off_events);
	T_CHECK(same_double(a->seconds, b->seconds));
	T_CHECK(a->latency.count == b->latency.count);
	for (int q = 0; q < LB_LAT_NQ && a->latency.count; q++) {
		const struct lb_lat_summary *x = &a->latency, *y = &b->latency;

		T_CHECK(same_double(x->ns[q], y->ns[q]));
		T_CHECK(same_double(x->added_pct[q], y->added_pct[q]));
		T_CHECK(same_double(x->added_ns[q], y->added_ns[q]));
		for (int k = 0; k < 2; k++) {
			T_CHECK(same_double(x->added_pct_ci95[q][k], y->added_pct_ci95[q][k]));
			T_CHECK(same_double(x->added_ns_ci95[q][k], y->added_ns_ci95[q][k]));
		}
	}
}

static void compare_slices(const struct lb_probeset_result *a, const struct lb_probeset_result *b)
{
	size_t i;

	T_CHECK(a->nslices == b->nslices);
	for (i = 0; i < a->nslices && i < b->nslices; i++) {
		const struct lb_slice *x = &a->slices[i], *y = &b->slices[i];

		T_CHECK(x->unit == y->unit);
		T_CHECK(x->on == y->on);
		T_CHECK(same_double(x->start, y->start));
		T_CHECK(same_double(x->seconds, y->seconds));
		T_CHECK(same_double(x->switch_s, y->switch_s));
		T_CHECK(x->ops == y->ops);
		T_CHECK(x->events == y->events);
		T_CHECK(x->lost_events == y->lost_events);
		T_CHECK(x->overwritten_events == y->overwritten_events);
		T_CHECK(x->read_events == y->read_events);
		T_CHECK(x->off_events == y->off_events);
		T_CHECK(x->bpf_runs == y->bpf_runs);
		T_CHECK(x->bpf_run_ns == y->bpf_run_ns);
		T_CHECK(x->edge_spread_ops == y->edge_spread_ops);
		T_CHECK(x->dropped == y->dropped);
		T_CHECK(x->lat_count == y->lat_count);
		for (int q = 0; q < LB_LAT_NQ && x->lat_count; q++)
			T_CHECK(same_double(x->lat_ns[q], y->lat_ns[q]));
	}
}

/* The same latencies: count, mean, buckets and quantiles. */
static void compare_latency(const struct lb_latency *a, const struct lb_latency *b)
{
	size_t k;

	T_CHECK(a->count == b->count);
	if (!a->count || a->count != b->count)
		return;
	T_CHECK(same_double(a->mean_ns, b->mean_ns));
	for (int q = 0; q < LB_LAT_NQ; q++)
		T_CHECK(same_double(a->ns[q], b->ns[q]));
	T_CHECK(a->nbuckets == b->nbuckets);
	for (k = 0; k < a->nbuckets && k < b->nbuckets; k++) {
		T_CHECK(a->bucket[k] == b->bucket[k]);
		T_CHECK(a->bucket_count[k] == b->bucket_count[k]);
	}
}

static void compare_probeset(const struct lb_probeset_result *a,
			     const struct lb_probeset_result *b, bool is_baseline)
{
	size_t i, k;

	T_CHECK(same_str(a->name, b->name));
	T_CHECK(same_str(a->tracer, b->tracer));
	if (!is_baseline) {
		T_CHECK(same_str(a->description, b->description));
		T_CHECK(same_str(a->file, b->file));
		T_CHECK(same_str(a->text, b->text));
		T_CHECK(same_str(a->compare_with, b->compare_with));
		T_CHECK(same_str(a->added_for, b->added_for));
		T_CHECK(same_str(a->off_residue, b->off_residue));
		compare_slices(a, b);
	}
	compare_summary(&a->summary, &b->summary);
	T_CHECK(a->nruns == b->nruns);
	for (i = 0; i < a->nruns && i < b->nruns; i++) {
		const struct lb_run *ra = &a->runs[i], *rb = &b->runs[i];

		T_CHECK(ra->round == rb->round);
		T_CHECK(same_double(ra->seconds, rb->seconds));
		T_CHECK(ra->ops == rb->ops);
		T_CHECK(same_double(ra->throughput, rb->throughput));
		T_CHECK(ra->events == rb->events);
		T_CHECK(ra->lost_events == rb->lost_events);
		T_CHECK(ra->overwritten_events == rb->overwritten_events);
		T_CHECK(ra->timeouts == rb->timeouts);
		T_CHECK(ra->sent == rb->sent);
		T_CHECK(ra->received == rb->received);
		T_CHECK(ra->dropped == rb->dropped);
		T_CHECK(ra->mismatches == rb->mismatches);
		T_CHECK(ra->edge_spread_ops == rb->edge_spread_ops);
		T_CHECK(ra->nflow_ops == rb->nflow_ops);
		for (k = 0; k < ra->nflow_ops && k < rb->nflow_ops; k++)
			T_CHECK(ra->flow_ops[k] == rb->flow_ops[k]);
		T_CHECK(same_double(ra->sample_interval, rb->sample_interval));
		T_CHECK(ra->nsamples == rb->nsamples);
		for (k = 0; k < ra->nsamples && k < rb->nsamples; k++)
			T_CHECK(same_double(ra->samples[k], rb->samples[k]));
		compare_latency(&ra->latency, &rb->latency);
	}
}

static void compare_results(const struct lb_results *a, const struct lb_results *b)
{
	size_t i;

	T_CHECK(same_str(a->version, b->version));
	T_CHECK(same_str(a->started, b->started));
	T_CHECK(a->complete == b->complete);
	T_CHECK(same_str(a->host.kernel_release, b->host.kernel_release));
	T_CHECK(same_str(a->host.kernel_version, b->host.kernel_version));
	T_CHECK(same_str(a->host.machine, b->host.machine));
	T_CHECK(same_str(a->host.cpu_model, b->host.cpu_model));
	T_CHECK(same_str(a->host.virtualization, b->host.virtualization));
	T_CHECK(a->host.ncpus == b->host.ncpus);
	T_CHECK(same_str(a->host.vm_accelerator, b->host.vm_accelerator));
	T_CHECK(same_str(a->config.workload, b->config.workload));
	T_CHECK(same_str(a->config.placement, b->config.placement));
	T_CHECK(same_str(a->config.engine, b->config.engine));
	T_CHECK(same_str(a->config.command_line, b->config.command_line));
	T_CHECK(same_double(a->config.duration, b->config.duration));
	T_CHECK(same_double(a->config.warmup, b->config.warmup));
	T_CHECK(a->config.repeat == b->config.repeat);
	T_CHECK(a->config.syscalls_per_op == b->config.syscalls_per_op);
	T_CHECK(a->config.msg_size == b->config.msg_size);
	T_CHECK(a->config.server_cpu == b->config.server_cpu);
	T_CHECK(a->config.client_cpu == b->config.client_cpu);
	T_CHECK(a->config.buffer_kb == b->config.buffer_kb);
	T_CHECK(same_str(a->config.topology, b->config.topology));
	T_CHECK(a->config.flows == b->config.flows);
	T_CHECK(a->config.nflow_placement == b->config.nflow_placement);
	for (i = 0; i < a->config.nflow_placement && i < b->config.nflow_placement; i++) {
		T_CHECK(a->config.flow_placement[i].server_cpu ==
			b->config.flow_placement[i].server_cpu);
		T_CHECK(a->config.flow_placement[i].client_cpu ==
			b->config.flow_placement[i].client_cpu);
	}
	T_CHECK(a->config.window == b->config.window);
	T_CHECK(same_str(a->config.method, b->config.method));
	T_CHECK(same_double(a->config.slice, b->config.slice));
	T_CHECK(same_double(a->config.settle, b->config.settle));
	T_CHECK(same_double(a->config.precision, b->config.precision));
	T_CHECK(same_double(a->config.max_time, b->config.max_time));
	T_CHECK(same_double(a->config.time_budget, b->config.time_budget));
	compare_probeset(&a->baseline, &b->baseline, true);
	T_CHECK(a->nprobesets == b->nprobesets);
	for (i = 0; i < a->nprobesets && i < b->nprobesets; i++)
		compare_probeset(&a->probesets[i], &b->probesets[i], false);
	T_CHECK(a->nwarnings == b->nwarnings);
	for (i = 0; i < a->nwarnings && i < b->nwarnings; i++)
		T_CHECK_STR(a->warnings[i], b->warnings[i]);
	T_CHECK(a->nskipped == b->nskipped);
	for (i = 0; i < a->nskipped && i < b->nskipped; i++) {
		T_CHECK_STR(a->skipped[i].name, b->skipped[i].name);
		T_CHECK_STR(a->skipped[i].reason, b->skipped[i].reason);
	}
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

static int write_text(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fwrite(text, 1, len, f);
	return fclose(f) ? -errno : 0;
}

static void test_json(struct lb_results *res, const char *dir)
{
	char *path = path_in(dir, "results.json"), *text;
	struct lb_results *back = NULL;
	char err[512] = "";
	int ret;

	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	ret = lb_results_read_json(path, &back, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "read_json: %s\n", err);
	if (back) {
		compare_results(res, back);
		/* NaN went out as null and came back as NAN. */
		T_CHECK(isnan(back->probesets[0].runs[0].samples[1]));
		T_CHECK(isnan(back->baseline.summary.slowdown_pct));
		/* Written again, the file is byte-for-byte the same (stable layout). */
		{
			char *path2 = path_in(dir, "again.json"), *t1, *t2;

			T_CHECK(lb_results_write_json(back, AT_FDCWD, path2) == 0);
			t1 = t_read_all(path, NULL);
			t2 = t_read_all(path2, NULL);
			T_CHECK(t1 && t2 && !strcmp(t1, t2));
			free(t1);
			free(t2);
			unlink(path2);
			free(path2);
		}
	}
	lb_results_free(back);

	/* The stable keys literally, and NaN as null. */
	text = t_read_all(path, NULL);
	T_CHECK(text != NULL);
	if (text) {
		T_CHECK(strstr(text, "\"probesets\": [") != NULL);
		T_CHECK(strstr(text, "\"slowdown_ci95\": [") != NULL);
		T_CHECK(strstr(text, "\"throughput_median\": 80000,") != NULL);
		T_CHECK(strstr(text, "\"slowdown_pct\": null,") != NULL);
		T_CHECK(strstr(text, "\"file\": \"/usr/share/loadbench/probesets/ftrace."
				     "probeset\"") != NULL);
		T_CHECK(strstr(text, "\"seconds\": 9.5,") != NULL);
		T_CHECK(strstr(text, "\"loadbench_version\": \"0.1.0\"") != NULL);
		T_CHECK(strstr(text, "\"ncpus\": 8,\n    \"vm_accelerator\": \"tcg: /dev/kvm is "
				     "kvm_pvm (runs only PVM guests)\"\n  },") != NULL);
		T_CHECK(text[strlen(text) - 1] == '\n');
	}

	/* Infinity is written as null too and reads back as NaN. */
	{
		char *p = path_in(dir, "inf.json");
		double saved = res->probesets[1].summary.ns_per_event;

		res->probesets[1].summary.ns_per_event = INFINITY;
		T_CHECK(lb_results_write_json(res, AT_FDCWD, p) == 0);
		res->probesets[1].summary.ns_per_event = saved;
		back = NULL;
		T_CHECK(lb_results_read_json(p, &back, err, sizeof(err)) == 0);
		if (back)
			T_CHECK(isnan(back->probesets[1].summary.ns_per_event));
		lb_results_free(back);
		unlink(p);
		free(p);
	}

	/* A truncated file. */
	if (text) {
		char *p = path_in(dir, "truncated.json");

		T_CHECK(write_text(p, text, strlen(text) / 2) == 0);
		back = NULL;
		err[0] = '\0';
		ret = lb_results_read_json(p, &back, err, sizeof(err));
		T_CHECK(ret == -EINVAL);
		T_CHECK(back == NULL);
		T_CHECK(strstr(err, p) != NULL);
		T_CHECK(strstr(err, "truncated") != NULL);
		unlink(p);
		free(p);
	}
	free(text);
	free(path);
}

/* @text with its first @from replaced by @to, malloc'd; NULL when @from is not in it. */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *p = text ? strstr(text, from) : NULL;
	char *out;

	if (!p || asprintf(&out, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from)) < 0)
		return NULL;
	return out;
}

/* @bad (freed here) written to @path is refused with a message that holds @msg. */
static void refused(char *bad, const char *path, const char *msg)
{
	struct lb_results *back = NULL;
	char err[512] = "";

	T_CHECK(bad != NULL);
	if (!bad)
		return;
	T_CHECK(write_text(path, bad, strlen(bad)) == 0);
	T_CHECK(lb_results_read_json(path, &back, err, sizeof(err)) == -EINVAL && back == NULL);
	if (!strstr(err, msg)) {
		fprintf(stderr, "expected \"%s\" in \"%s\"\n", msg, err);
		t_failures++;
	}
	lb_results_free(back);
	free(bad);
}

/*
 * --method alternate: the slices (a set alone, a compare-with pair's three
 * states), off_residue, the config and the summary's new fields read back
 * exactly, and the file written again is byte for byte the same. A slice
 * naming a set that is not in the file is refused with a message.
 */
static void test_json_alternate(const char *dir)
{
	struct lb_results *res = build_alternate(), *back = NULL, *sum;
	char *path = path_in(dir, "alternate.json"), *path2 = path_in(dir, "again.json");
	char *t1 = NULL, *t2 = NULL, *bad, err[512] = "";
	int ret;

	T_CHECK(res != NULL);
	if (!res)
		goto out;
	T_CHECK(lb_results_alternate(res));
	/* Summarized, a set's BPF runs and ns are its on slices kept (not dropped), summed. */
	sum = build_alternate();
	T_CHECK(sum && lb_results_summarize(sum) == 0);
	for (size_t i = 0; sum && i < sum->nprobesets; i++) {
		const struct lb_probeset_result *p = &sum->probesets[i];
		uint64_t runs = 0, ns = 0;

		for (size_t j = 0; j < p->nslices; j++) {
			if (p->slices[j].on != (int)i || p->slices[j].dropped)
				continue;
			runs += p->slices[j].bpf_runs;
			ns += p->slices[j].bpf_run_ns;
		}
		T_CHECK(p->summary.bpf_runs == runs && p->summary.bpf_run_ns == ns);
		if (i == sum->nprobesets - 1)
			T_CHECK(runs > 0);
	}
	lb_results_free(sum);
	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	ret = lb_results_read_json(path, &back, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "read_json: %s\n", err);
	if (!back)
		goto out;
	compare_results(res, back);
	T_CHECK(lb_results_alternate(back));
	T_CHECK(back->probesets[0].nslices == 12 && back->probesets[2].nslices == 18);
	/* The base's slices name the set after it in the file. */
	T_CHECK(back->probesets[1].slices[2].on == 2 && back->probesets[1].slices[1].on == 1);
	T_CHECK(back->probesets[1].slices[0].on == -1);
	T_CHECK(isnan(back->probesets[0].slices[0].switch_s));
	T_CHECK(lb_results_write_json(back, AT_FDCWD, path2) == 0);
	t1 = t_read_all(path, NULL);
	t2 = t_read_all(path2, NULL);
	T_CHECK(t1 && t2 && !strcmp(t1, t2));
	if (!t1)
		goto out;
	T_CHECK(strstr(t1, "\"method\": \"alternate\",\n    \"slice_s\": 0.1,\n"
			   "    \"settle_s\": 0.02,\n    \"precision_pp\": 1,\n"
			   "    \"max_time_s\": 60,\n    \"time_budget_s\": 270\n") != NULL);
	T_CHECK(strstr(t1, "\"slices\": [\n        {\n          \"unit\": 0,\n"
			   "          \"on\": null,\n          \"start\": 0,\n"
			   "          \"seconds\": 0.1,\n          \"switch_s\": null,\n") != NULL);
	T_CHECK(strstr(t1, "\"on\": \"syscalls+kprobe\",") != NULL);
	T_CHECK(strstr(t1, "\"off_residue\": \"kprobe 'p:lb_x' stays registered while off, "
			   "\\\"disabled\\\"\",") != NULL);
	T_CHECK(strstr(t1, "\"precision_reached\": false,") != NULL);
	T_CHECK(strstr(t1, "\"residue_pct\": 0.14285714285714285,") != NULL);
	T_CHECK(strstr(t1, "\"dropped\": true") != NULL);
	/* The baseline has no slices and no alternate summary. */
	T_CHECK(strstr(t1, "\"units\"") > strstr(t1, "\"probesets\""));

	/* The fixture of the figures and reports, as loadbench wrote it, reads back the same. */
	lb_results_free(back);
	back = NULL;
	ret = lb_results_read_json(LB_SRCDIR "/tests/fixtures/results-alternate.json", &back, err,
				   sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		char *want = t_read_all(LB_SRCDIR "/tests/fixtures/results-alternate.json", NULL);
		char *got;

		T_CHECK(lb_results_alternate(back) && lb_results_has_slices(back));
		T_CHECK(lb_results_write_json(back, AT_FDCWD, path2) == 0);
		got = t_read_all(path2, NULL);
		T_CHECK(want && got && !strcmp(want, got));
		free(want);
		free(got);
	}

	/* A slice naming a set that is not in the file. */
	bad = replace(t1, "\"on\": \"ftrace\"", "\"on\": \"nosuch\"");
	T_CHECK(bad != NULL);
	if (bad) {
		T_CHECK(write_text(path2, bad, strlen(bad)) == 0);
		lb_results_free(back);
		back = NULL;
		ret = lb_results_read_json(path2, &back, err, sizeof(err));
		T_CHECK(ret == -EINVAL && back == NULL);
		T_CHECK(strstr(err, path2) != NULL);
		if (!strstr(err, "probesets[0].slices[1].on: \"nosuch\" is not the name of a "
			    "probe set in this file")) {
			fprintf(stderr, "unknown set: message \"%s\"\n", err);
			t_failures++;
		}
		free(bad);
	}
	/* A newer layout is refused before its keys are read as this one's; so is a wrong type. */
	bad = replace(t1, "\"schema_version\": 1,", "\"schema_version\": 2,");
	refused(bad, path2, "schema_version 2: this loadbench reads schema 1 and older "
		"(doc/results-schema.md): read it with the loadbench that wrote it");
	bad = replace(t1, "\"schema_version\": 1,", "\"schema_version\": 0,");
	refused(bad, path2, "schema_version 0: expected 1 or more");
	bad = replace(t1, "\"schema_version\": 1,", "\"schema_version\": \"1\",");
	refused(bad, path2, "schema_version");
	T_CHECK(strncmp(t1, "{\n  \"schema_version\": 1,\n", 24) == 0);
	/* Or not a name at all. */
	bad = replace(t1, "\"on\": \"ftrace\"", "\"on\": 0");
	refused(bad, path2, "probesets[0].slices[1].on: expected a string, found int");
	/* A plain slice (nothing armed): "plain": true and "on" null, read back as such. */
	res->probesets[0].slices[0].on = LB_SLICE_PLAIN;
	res->probesets[0].slices[0].unit = -1;
	free(t1);
	t1 = NULL;
	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	t1 = t_read_all(path, NULL);
	T_CHECK(t1 && strstr(t1, "\"plain\": true"));
	lb_results_free(back);
	back = NULL;
	T_CHECK(lb_results_read_json(path, &back, err, sizeof(err)) == 0);
	T_CHECK(back && back->probesets[0].slices[0].on == LB_SLICE_PLAIN &&
		back->probesets[0].slices[0].unit == -1 && back->probesets[0].slices[1].on != LB_SLICE_PLAIN);
	/* With a set on, refused: nothing is armed in a plain slice. */
	bad = replace(t1, "\"on\": null", "\"on\": \"ftrace\"");
	refused(bad, path2, "probesets[0].slices[0]: a plain slice (nothing armed) has no set on");
	/*
	 * The units' span starts at the first armed slice: a plain slice before
	 * it, and the arm between them (here 100 s of it), are not in it.
	 */
	for (size_t i = 1; i < res->probesets[0].nslices; i++)
		res->probesets[0].slices[i].start += 100;
	T_CHECK(lb_results_summarize(res) == 0);
	{
		const struct lb_probeset_result *f = &res->probesets[0];
		const struct lb_slice *last = &f->slices[f->nslices - 1];
		double want = last->start + last->seconds - f->slices[1].start;

		T_CHECK(want > 0.5 && want < 10 && fabs(f->summary.seconds - want) < 1e-9);
	}
out:
	lb_results_free(res);
	lb_results_free(back);
	free(t1);
	free(t2);
	unlink(path);
	unlink(path2);
	free(path);
	free(path2);
}

/* Field @i (0-based) of the CSV line @line without quoted fields, as a number; NAN if empty. */
static double csv_field(const char *line, int i)
{
	for (; i > 0 && line; i--) {
		line = strpbrk(line, ",\n");
		line = line && *line == ',' ? line + 1 : NULL;
	}
	if (!line || *line == ',' || *line == '\n' || !*line)
		return NAN;
	return strtod(line, NULL);
}

/*
 * Operation latencies: a run's histogram (its buckets, count, mean and
 * quantiles, a value past the last bucket's bound too), a slice's
 * quantiles and a summary's added latency with a NAN CI read back exactly,
 * and the file written again is byte for byte the same; the quantiles come
 * from the buckets, not from what the file says they are; the CSV columns.
 */
static void test_json_latency(const char *dir)
{
	struct lb_results *res = build_alternate(), *back = NULL;
	char *path = path_in(dir, "latency.json"), *path2 = path_in(dir, "again.json");
	char *csv = path_in(dir, "latency.csv"), *t1 = NULL, *t2 = NULL, *bad, *lied;
	char err[512] = "";
	struct lb_hist *h = calloc(1, sizeof(*h));
	struct lb_lat_summary *ls;
	struct lb_latency *l;
	struct lb_slice *sl;
	const char *row;
	uint64_t v;
	int q, ret;

	T_CHECK(res && h);
	if (!res || !h)
		goto out;
	/* 50 exact, 1000..1999 in buckets 4 or 8 wide, 2^40 past the last bucket's bound. */
	lb_hist_record(h, 50);
	for (v = 1000; v < 2000; v++)
		lb_hist_record(h, v);
	lb_hist_record(h, 1ull << 40);
	l = &res->probesets[0].runs[0].latency;
	T_CHECK(lb_latency_set(l, h) == 0);
	T_CHECK(l->count == 1002 && l->nbuckets == lb_hist_nonzero(h, NULL, NULL, 0));
	T_CHECK(lb_latency_set(&res->baseline.runs[1].latency, h) == 0);
	/* A slice's quantiles, p99.99 unknown (too few operations beyond it). */
	sl = &res->probesets[0].slices[1];
	sl->lat_count = 1000;
	for (q = 0; q < LB_LAT_NQ; q++)
		sl->lat_ns[q] = 500 * (q + 1) + 0.5;
	sl->lat_ns[4] = NAN;
	/* The set's latency against the baseline's: the max's and p99.99's CI unknown. */
	ls = &res->probesets[0].summary.latency;
	ls->count = 2004;
	for (q = 0; q < LB_LAT_NQ; q++) {
		ls->ns[q] = 1000 + 100.5 * q;
		ls->added_pct[q] = q < LB_LAT_NQ - 1 ? 1.25 * (q + 1) : NAN;
		ls->added_pct_ci95[q][0] = ls->added_pct[q] - 0.5;
		ls->added_pct_ci95[q][1] = ls->added_pct[q] + 0.5;
		ls->added_ns[q] = ls->added_pct[q] / 100 * 990;
		ls->added_ns_ci95[q][0] = ls->added_pct_ci95[q][0] / 100 * 990;
		ls->added_ns_ci95[q][1] = ls->added_pct_ci95[q][1] / 100 * 990;
	}
	ls->added_pct_ci95[4][0] = ls->added_pct_ci95[4][1] = NAN;
	ls->added_ns_ci95[4][0] = ls->added_ns_ci95[4][1] = NAN;

	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	ret = lb_results_read_json(path, &back, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "read_json: %s\n", err);
	if (!back)
		goto out;
	compare_results(res, back);
	l = &back->probesets[0].runs[0].latency;
	T_CHECK(l->count == 1002 && l->nbuckets == res->probesets[0].runs[0].latency.nbuckets);
	T_CHECK(l->nbuckets && l->bucket[0] == 50 && l->bucket_count[0] == 1);
	T_CHECK(l->nbuckets && l->bucket[l->nbuckets - 1] == LB_HIST_BUCKETS - 1);
	for (q = 0; q < LB_LAT_NQ; q++)
		T_CHECK(l->ns[q] == lb_hist_percentile(h, lb_lat_q[q]));
	T_CHECK(l->ns[0] > 1490 && l->ns[0] < 1510);
	T_CHECK(l->ns[LB_LAT_NQ - 1] == lb_hist_mid(LB_HIST_BUCKETS - 1));
	T_CHECK(l->mean_ns == (double)h->sum_ns / 1002);
	T_CHECK(back->baseline.runs[1].latency.count == 1002);
	T_CHECK(!back->baseline.runs[0].latency.count);
	T_CHECK(isnan(back->baseline.runs[0].latency.ns[0]));
	T_CHECK(back->probesets[0].slices[1].lat_count == 1000);
	T_CHECK(isnan(back->probesets[0].slices[1].lat_ns[4]));
	T_CHECK(!back->probesets[0].slices[0].lat_count);
	T_CHECK(isnan(back->probesets[0].slices[0].lat_ns[0]));
	ls = &back->probesets[0].summary.latency;
	T_CHECK(ls->count == 2004 && ls->ns[2] == 1201);
	T_CHECK(ls->added_pct[1] == 2.5 && ls->added_pct_ci95[1][1] == 3);
	T_CHECK(isnan(ls->added_pct_ci95[4][0]) && isnan(ls->added_ns_ci95[4][1]));
	T_CHECK(isnan(ls->added_pct[5]) && isnan(ls->added_ns[5]) && ls->ns[5] == 1502.5);
	T_CHECK(!back->probesets[1].summary.latency.count);
	T_CHECK(isnan(back->probesets[1].summary.latency.added_pct[0]));
	T_CHECK(lb_results_write_json(back, AT_FDCWD, path2) == 0);
	t1 = t_read_all(path, NULL);
	t2 = t_read_all(path2, NULL);
	T_CHECK(t1 && t2 && !strcmp(t1, t2));
	if (!t1)
		goto out;
	T_CHECK(strstr(t1, "\"latency\": {\n            \"count\": 1002,\n"
			   "            \"mean_ns\": ") != NULL);
	T_CHECK(strstr(t1, "\"p99.9_ns\": ") && strstr(t1, "\"p99.99_ns\": "));
	T_CHECK(strstr(t1, "\"buckets\": [\n              [\n                50,\n"
			   "                51,\n                1\n              ],\n") != NULL);
	/* 1000 is in [1000, 1004); 2^40 is counted in the last bucket, [255 << 28, 2^36). */
	T_CHECK(strstr(t1, "                1000,\n                1004,\n                4\n"));
	T_CHECK(strstr(t1, "                68451041280,\n                68719476736,\n"
			   "                1\n"));
	T_CHECK(strstr(t1, "\"latency_count\": 1000,\n          \"latency_ns\": {\n"
			   "            \"p50\": 500.5,\n"));
	T_CHECK(strstr(t1, "\"p99.99\": null,\n            \"max\": 3000.5\n"));
	T_CHECK(strstr(t1, "\"seconds\": 1.5,\n        \"latency\": {\n          \"count\": 2004,\n"
			   "          \"p50\": {\n            \"ns\": 1000,\n"
			   "            \"added_ns\": 12.375,\n"));
	T_CHECK(strstr(t1, "\"added_pct_ci95\": [\n              null,\n              null\n"));

	/* The count and the quantiles follow from the buckets, whatever the file says. */
	bad = replace(t1, "\"count\": 1002,", "\"count\": 7,");
	lied = bad ? replace(bad, "\"p50_ns\": ", "\"p50_ns\": 7, \"was\": ") : NULL;
	T_CHECK(lied && write_text(path2, lied, strlen(lied)) == 0);
	lb_results_free(back);
	back = NULL;
	T_CHECK(lb_results_read_json(path2, &back, err, sizeof(err)) == 0);
	/* The baseline's run comes first in the file. */
	l = back ? &back->baseline.runs[1].latency : NULL;
	T_CHECK(l && l->count == 1002 && l->ns[0] == lb_hist_percentile(h, 0.5));
	free(bad);
	free(lied);
	/* A bucket of another layout: refused, naming the run. */
	bad = replace(t1, "                1000,\n                1004,\n",
		      "                1000,\n                1008,\n");
	refused(bad, path2, "probesets[0].runs[0].latency.buckets[1]: [1000, 1008) ns is not a "
		"bucket of this loadbench's latency histogram (doc/results-schema.md): written "
		"with another layout");

	/* results.csv: the run's count, mean and quantiles; empty where nothing was timed. */
	T_CHECK(lb_results_write_csv(res, AT_FDCWD, csv) == 0);
	free(t2);
	t2 = t_read_all(csv, NULL);
	row = t2 ? strstr(t2, "\nftrace,ftrace,1,") : NULL;
	T_CHECK(row != NULL);
	if (row) {
		l = &res->probesets[0].runs[0].latency;
		T_CHECK(csv_field(row + 1, 10) == 1002);
		T_CHECK(csv_field(row + 1, 11) == l->mean_ns);
		for (q = 0; q < LB_LAT_NQ; q++)
			T_CHECK(csv_field(row + 1, 12 + q) == l->ns[q]);
	}
	T_CHECK(t2 && strstr(t2, "\nbaseline,none,1,2,154000,77000,0,0,0,0,,,,,,,,,,,,,,,,\n"));
	T_CHECK(t2 && strstr(t2, "\nbaseline,none,2,2,153000,76500,0,0,0,0,1002,"));
	/* slices.csv: the slice's count and quantiles, p99.99 empty. */
	T_CHECK(lb_results_write_slices_csv(res, AT_FDCWD, csv) == 0);
	free(t2);
	t2 = t_read_all(csv, NULL);
	T_CHECK(t2 && strstr(t2, ",dropped,lat_count,lat_p50_ns,lat_p90_ns,lat_p99_ns,"
			     "lat_p999_ns,lat_p9999_ns,lat_max_ns,late,cpu_workload_ns,"));
	T_CHECK(t2 && strstr(t2, "\nftrace,0,ftrace,0.12000000000000001,0.2,0.0003333333333333333,"
			     "10640,53200,12346,0,0,1,0,"
			     "1000,500.5,1000.5,1500.5,2000.5,,3000.5,,,,,,,,\n"));
	T_CHECK(t2 && strstr(t2, "\nftrace,0,off,0,0.1,,7600,76000,0,0,0,0,0,,,,,,,,,,,,,,,\n"));
out:
	lb_results_free(res);
	lb_results_free(back);
	free(h);
	free(t1);
	free(t2);
	unlink(path);
	unlink(path2);
	unlink(csv);
	free(path);
	free(path2);
	free(csv);
}

/*
 * Results of versions before --method alternate (the fixture, and the runs
 * of build()): no method, no slices, the summaries' alternate numbers
 * unknown; and results of --method runs are written with none of the keys.
 */
static void test_json_old(const struct lb_results *runs, const char *dir)
{
	char *path = path_in(dir, "runs.json"), *text, err[512] = "";
	struct lb_results *res = NULL;
	size_t i;
	int ret;

	ret = lb_results_read_json(LB_SRCDIR "/tests/fixtures/results.json", &res, err,
				   sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "fixture: %s\n", err);
	if (res) {
		T_CHECK(res->config.method == NULL && !lb_results_alternate(res));
		T_CHECK(res->config.slice == 0 && res->config.settle == 0);
		T_CHECK(res->config.precision == 0 && res->config.max_time == 0);
		T_CHECK(res->config.time_budget == 0);
		T_CHECK(res->nprobesets == 3);
		for (i = 0; i < res->nprobesets; i++) {
			const struct lb_summary *s = &res->probesets[i].summary;

			T_CHECK(!res->probesets[i].nslices && !res->probesets[i].slices);
			T_CHECK(!res->probesets[i].off_residue);
			T_CHECK(!s->units && !s->dropped_units && !s->precision_reached);
			T_CHECK(isnan(s->ci_half_width) && isnan(s->off_throughput));
			T_CHECK(isnan(s->seconds) && !s->off_events);
			/* Nothing was timed: no latency, anywhere. */
			T_CHECK(!s->latency.count && isnan(s->latency.ns[0]));
			T_CHECK(isnan(s->latency.added_pct_ci95[0][0]));
			for (size_t k = 0; k < res->probesets[i].nruns; k++) {
				const struct lb_latency *l = &res->probesets[i].runs[k].latency;

				T_CHECK(!l->count && !l->nbuckets && !l->bucket);
				T_CHECK(isnan(l->mean_ns) && isnan(l->ns[LB_LAT_NQ - 1]));
			}
		}
		T_CHECK(!res->baseline.summary.latency.count);
		T_CHECK(res->baseline.nruns && !res->baseline.runs[0].latency.count);
		T_CHECK(!lb_results_has_slices(res));
	}
	lb_results_free(res);

	T_CHECK(lb_results_write_json(runs, AT_FDCWD, path) == 0);
	text = t_read_all(path, NULL);
	T_CHECK(text && !strstr(text, "\"method\"") && !strstr(text, "\"slices\"") &&
		!strstr(text, "\"units\"") && !strstr(text, "\"slice_s\"") &&
		!strstr(text, "\"off_residue\"") && !strstr(text, "latency"));
	free(text);
	unlink(path);
	free(path);
}

/* Files that are not loadbench results: each fails with -EINVAL and a message naming the file. */
static void test_json_bad(const char *dir)
{
	static const struct {
		const char *text, *needle;
	} bad[] = {
		{ "{ \"foo\": [1, 2] }\n", "no \"probesets\" array" },
		{ "[1, 2, 3]\n", "not an object" },
		{ "null\n", "not an object" },
		{ "{ \"probesets\": {} }\n", "probesets: expected an array, found object" },
		{ "{ \"probesets\": [ { \"name\": 3 } ] }",
		  "probesets[0].name: expected a string" },
		{ "{ \"probesets\": [ { \"tracer\": \"x\" } ] }", "probesets[0]: no \"name\"" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"ops\": \"1\" } ] } ] }",
		  "probesets[0].runs[0].ops: expected an integer, found string" },
		{ "{ \"probesets\": [ { \"name\": \"x\", "
		  "\"summary\": { \"slowdown_ci95\": [1] } } ] }",
		  "probesets[0].summary.slowdown_ci95: expected [low, high]" },
		{ "{ \"probesets\": [], \"skipped\": [ \"x\" ] }",
		  "skipped[0]: expected an object, found string" },
		{ "{ \"probesets\": [], \"skipped\": [ { \"name\": \"x\", \"reason\": 1 } ] }",
		  "skipped[0].reason: expected a string" },
		{ "{ \"probesets\": [], \"host\": { \"vm_accelerator\": 1 } }",
		  "host.vm_accelerator: expected a string" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"slices\": {} } ] }",
		  "probesets[0].slices: expected an array, found object" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"slices\": [ 1 ] } ] }",
		  "probesets[0].slices[0]: expected an object, found int" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"slices\": [ { \"ops\": 1.5 } ] } ] }",
		  "probesets[0].slices[0].ops: expected an integer, found double" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"slices\": [ { \"on\": \"y\" } ] } ] }",
		  "probesets[0].slices[0].on: \"y\" is not the name of a probe set" },
		/* What the message quotes of the file is escaped: it goes to a terminal. */
		{ "{ \"probesets\": [ { \"name\": \"x\", "
		  "\"slices\": [ { \"on\": \"y\\u001b[2J\\n\" } ] } ] }",
		  "probesets[0].slices[0].on: \"y\\x1b[2J\\x0a\" is not the name of a probe set" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"off_residue\": [] } ] }",
		  "probesets[0].off_residue: expected a string, found array" },
		{ "{ \"config\": { \"slice_s\": \"0.1\" }, \"probesets\": [] }",
		  "config.slice_s: expected a number, found string" },
		{ "{ \"probesets\": [ { \"name\": \"x\", "
		  "\"summary\": { \"precision_reached\": 1 } } ] }",
		  "probesets[0].summary.precision_reached: expected true or false, found int" },
		/* Latency buckets: this layout's bounds, ascending, three integers each. */
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ {}, { \"latency\": "
		  "{ \"count\": 1, \"buckets\": [ [1000, 1010, 1] ] } } ] } ] }",
		  "probesets[0].runs[1].latency.buckets[0]: [1000, 1010) ns is not a bucket of "
		  "this loadbench's latency histogram (doc/results-schema.md): written with "
		  "another layout" },
		{ "{ \"baseline\": { \"runs\": [ { \"latency\": { \"buckets\": "
		  "[ [1001, 1005, 1] ] } } ] }, \"probesets\": [] }",
		  "baseline.runs[0].latency.buckets[0]: [1001, 1005) ns is not a bucket" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [-1, 0, 1] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[0]: [-1, 0) ns is not a bucket" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [1004, 1008, 1], [1000, 1004, 2] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[1]: lower_ns 1000 is not above the "
		  "bucket before it" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [5, 6] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[0]: expected [lower_ns, upper_ns, count], "
		  "found 2 elements" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ 5 ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[0]: expected [lower_ns, upper_ns, count], "
		  "found int" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [5, 6, 1.5] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[0][2]: expected an integer, found double" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [5, 6, -1], [6, 7, 1] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets[0][2]: -1 is out of range "
		  "[0, 9223372036854775807]" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
		  "{ \"buckets\": [ [5, 6, 9223372036854775807], [6, 7, 9223372036854775807], "
		  "[7, 8, 2] ] } } ] } ] }",
		  "probesets[0].runs[0].latency.buckets: the counts add up to more than 2^64" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": [] } ] } ] }",
		  "probesets[0].runs[0].latency: expected an object, found array" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"slices\": [ { \"latency_ns\": "
		  "{ \"p99.9\": \"1\" } } ] } ] }",
		  "probesets[0].slices[0].latency_ns.p99.9: expected a number, found string" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"summary\": { \"latency\": "
		  "{ \"count\": 5, \"p90\": { \"added_pct_ci95\": [1, 2, 3] } } } } ] }",
		  "probesets[0].summary.latency.p90.added_pct_ci95: expected [low, high], "
		  "found 3 elements" },
		{ "{ \"probesets\": [ { \"name\": \"x\", \"summary\": { \"latency\": "
		  "{ \"max\": 1 } } } ] }",
		  "probesets[0].summary.latency.max: expected an object, found int" },
		{ "{ \"probesets\": [] } x", "trailing data" },
		{ "hello", "not valid JSON" },
		{ "", "empty" },
		{ "{ \"probesets\": [", "truncated" },
	};
	char *p = path_in(dir, "bad.json"), err[512];
	struct lb_results *res;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		T_CHECK(write_text(p, bad[i].text, strlen(bad[i].text)) == 0);
		res = NULL;
		err[0] = '\0';
		ret = lb_results_read_json(p, &res, err, sizeof(err));
		T_CHECK(ret == -EINVAL);
		T_CHECK(res == NULL);
		T_CHECK(!strncmp(err, p, strlen(p)));
		if (!strstr(err, bad[i].needle)) {
			fprintf(stderr, "case %zu: message \"%s\" lacks \"%s\"\n", i, err,
				bad[i].needle);
			t_failures++;
		}
		lb_results_free(res);
	}
	unlink(p);

	/* Missing file: -ENOENT with the name. */
	res = NULL;
	ret = lb_results_read_json(p, &res, err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, p) != NULL);

	/* The smallest acceptable file: defaults everywhere. */
	T_CHECK(write_text(p, "{\"probesets\": []}", 17) == 0);
	res = NULL;
	ret = lb_results_read_json(p, &res, err, sizeof(err));
	T_CHECK(ret == 0);
	if (res) {
		T_CHECK_STR(res->baseline.name, "baseline");
		T_CHECK_STR(res->baseline.tracer, "none");
		T_CHECK(res->nprobesets == 0 && res->nwarnings == 0);
		T_CHECK(isnan(res->baseline.summary.throughput_median));
	}
	lb_results_free(res);
	unlink(p);
	free(p);
}

/* @n items on @f, comma-separated: @pre, the item's index (modulo @mod when not 0), @post. */
static void put_items(FILE *f, const char *pre, const char *post, size_t n, size_t mod)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s%zu%s", i ? ", " : "", pre, mod ? i % mod : i, post);
}

/* The text of the memory stream @f writing *@text (NULL if writing failed); @f is closed. */
static char *closed(FILE *f, char **text)
{
	if (!f)
		return NULL;
	if (fclose(f)) {
		free(*text);
		return NULL;
	}
	return *text;
}

/* A results.json text: @before, the @n items of put_items(), @after. */
static char *json_of(const char *before, const char *pre, const char *post, size_t n,
		     size_t mod, const char *after)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		fputs(before, f);
		put_items(f, pre, post, n, mod);
		fputs(after, f);
	}
	return closed(f, &text);
}

/* A baseline of @nbase runs and a probe set of @nset, as a results.json text. */
static char *json_runs(size_t nbase, size_t nset)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		fputs("{ \"baseline\": { \"name\": \"baseline\", \"runs\": [", f);
		put_items(f, "{ \"round\": ", " }", nbase, 0);
		fputs("] }, \"probesets\": [ { \"name\": \"x\", \"runs\": [", f);
		put_items(f, "{ \"round\": ", " }", nset, 0);
		fputs("] } ] }", f);
	}
	return closed(f, &text);
}

/* @text (freed here) written to @path reads back: the results, or NULL with the message said. */
static struct lb_results *accepted(char *text, const char *path)
{
	struct lb_results *res = NULL;
	char err[512] = "";

	T_CHECK(text != NULL);
	if (!text)
		return NULL;
	T_CHECK(write_text(path, text, strlen(text)) == 0);
	T_CHECK(lb_results_read_json(path, &res, err, sizeof(err)) == 0);
	if (!res)
		fprintf(stderr, "%s refused: %s\n", path, err);
	free(text);
	return res;
}

/*
 * The caps on what a results.json may hold (LB_RESULTS_MAX_*): one more
 * than each is refused in one line naming the field, the count and the cap;
 * runs count over every entry. At the caps the file is read: 100,000
 * warnings sharing a 200-byte prefix, a third of them repeats, are read in
 * a moment; each searched for among those kept before (as they were) took
 * ~40 s here (1.65 s for 20,000, quadratic). The slices' cap is checked
 * before their elements: 4,000,001 numbers (~300 MB in json-c, a second)
 * are refused by their count, not as the non-objects they are.
 */
/*
 * Numbers out of the range their meaning allows, in a damaged copy of the
 * fixture: each refused with a message naming the field, the value and the
 * range (issue 34: a slowdown of 1e308 was read, and gnuplot got it). What
 * runs write stays readable: a negative slowdown, null.
 */
static void test_json_ranges(const char *dir)
{
	static const char big[] = "1000000000000000000000000000000000000000000000000000000000"
		"00000000000000000000000000000000000000000000000000000000000000000000000000000"
		"00000000000000000000000000000000000000000000000000000000000000000000000000000"
		"00000000000000000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000";
	static const struct {
		const char *from, *to, *msg;
	} bad[] = {
		{ "\"slowdown_pct\": 23.98201803393706,", "\"slowdown_pct\": 1e308,",
		  "probesets[1].summary.slowdown_pct: 1e+308 is out of range [-1e6, 100]: the "
		  "file is damaged or not loadbench's" },
		{ "\"slowdown_pct\": 23.98201803393706,", NULL,
		  "probesets[1].summary.slowdown_pct: 1.8446744073709552e+19 is out of range "
		  "[-1e6, 100]" },
		{ "\"slowdown_pct\": 23.98201803393706,", "\"slowdown_pct\": Infinity,",
		  "probesets[1].summary.slowdown_pct: inf is out of range [-1e6, 100]" },
		{ "\"slowdown_pct\": 23.98201803393706,", "\"slowdown_pct\": NaN,",
		  "probesets[1].summary.slowdown_pct: nan is out of range" },
		{ "\"slowdown_pct\": 23.98201803393706,", "\"slowdown_pct\": -1e7,",
		  "probesets[1].summary.slowdown_pct: -10000000 is out of range [-1e6, 100]" },
		{ "\"ns_per_event\": 243.85204658373516,", "\"ns_per_event\": -1e300,",
		  "probesets[1].summary.ns_per_event: -1e+300 is out of range [-1e18, 1e18]" },
		{ "\"throughput\": 54743,", "\"throughput\": -54743,",
		  "probesets[0].runs[0].throughput: -54743 is out of range [0, 1e12]" },
		{ "\"throughput_median\": 58508,", "\"throughput_median\": 1e12345,",
		  "probesets[1].summary.throughput_median: inf is out of range [0, 1e12]" },
		{ "\"ops\": 54743,", "\"ops\": -1,",
		  "probesets[0].runs[0].ops: -1 is out of range [0, 9223372036854775807]" },
		{ "\"round\": 1,", "\"round\": -1,",
		  "baseline.runs[0].round: -1 is out of range [0, 2147483647]" },
		{ "\"client_cpu\": 1,", "\"client_cpu\": -2,",
		  "config.client_cpu: -2 is out of range [-1, 2147483647]" },
		{ "\"duration_s\": 1,", "\"duration_s\": -1,",
		  "config.duration_s: -1 is out of range [0, 1e9]" },
		{ "59196.75,", "1e13,",
		  "probesets[1].runs[2].samples[1]: 10000000000000 is out of range [0, 1e12]" },
		{ "20.218917247129063,\n          28.484005924694024",
		  "28.484005924694024,\n          20.218917247129063",
		  "probesets[1].summary.slowdown_ci95: low 28.484005924694024 is above high "
		  "20.218917247129063: the file is damaged or not loadbench's" },
		{ "20.218917247129063,\n          28.484005924694024",
		  "-2e6,\n          28.484005924694024",
		  "probesets[1].summary.slowdown_ci95[0]: -2000000 is out of range [-1e6, 1e6]" },
	};
	char *p = path_in(dir, "ranges.json"), *text, *to, *ok, err[512] = "";
	struct lb_results *back = NULL;

	text = t_read_all(LB_SRCDIR "/tests/fixtures/results.json", NULL);
	T_CHECK(p && text);
	if (!p || !text)
		goto out;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		to = NULL;
		if (!bad[i].to && asprintf(&to, "\"slowdown_pct\": %s,", big) < 0)
			break;
		refused(replace(text, bad[i].from, bad[i].to ? bad[i].to : to), p, bad[i].msg);
		free(to);
	}

	/* Faster when traced, and no value at all: what a run can write. */
	ok = replace(text, "\"slowdown_pct\": 23.98201803393706,", "\"slowdown_pct\": -500,");
	T_CHECK(ok && write_text(p, ok, strlen(ok)) == 0);
	T_CHECK(lb_results_read_json(p, &back, err, sizeof(err)) == 0);
	if (back)
		T_CHECK(back->probesets[1].summary.slowdown_pct == -500);
	else
		fprintf(stderr, "a slowdown of -500%%: %s\n", err);
	lb_results_free(back);
	free(ok);

	/*
	 * A CI widened by t/z from a few units passes 100% (TCG: -4.9% [-60.5,
	 * 151.6]); an added latency's passes -100% (a real run: -110.97).
	 */
	ok = replace(text, "20.218917247129063,\n          28.484005924694024",
		     "-20.2,\n          151.6");
	back = NULL;
	T_CHECK(ok && write_text(p, ok, strlen(ok)) == 0);
	T_CHECK(lb_results_read_json(p, &back, err, sizeof(err)) == 0);
	if (back)
		T_CHECK(back->probesets[1].summary.slowdown_ci95[1] == 151.6);
	else
		fprintf(stderr, "a CI up to 151.6%%: %s\n", err);
	lb_results_free(back);
	free(ok);
	unlink(p);
out:
	free(text);
	free(p);
}

static void test_json_caps(const char *dir)
{
	static const char prefix[] =
		"the same two hundred bytes before the number that tells these warnings apart, "
		"so that comparing two of them takes as long as it would for a real warning "
		"of loadbench's, which is a long sentence too, numbered";
	size_t i, distinct = LB_RESULTS_MAX_WARNINGS / 3 * 2;
	char *p = path_in(dir, "caps.json"), *item = NULL, name[LB_RESULTS_MAX_NAME + 2];
	struct lb_results *res;

	if (!p) {
		t_failures++;
		return;
	}
	refused(json_of("{ \"probesets\": [", "{ \"name\": \"p", "\" }",
			LB_RESULTS_MAX_PROBESETS + 1, 0, "] }"), p,
		"probesets: 1025 probe sets, more than the 1024 a results file may hold");
	res = accepted(json_of("{ \"probesets\": [", "{ \"name\": \"p", "\" }",
			       LB_RESULTS_MAX_PROBESETS, 0, "] }"), p);
	T_CHECK(res && res->nprobesets == LB_RESULTS_MAX_PROBESETS);
	lb_results_free(res);
	refused(json_of("{ \"probesets\": [], \"skipped\": [", "{ \"name\": \"p", "\" }",
			LB_RESULTS_MAX_PROBESETS + 1, 0, "] }"), p,
		"skipped: 1025 probe sets, more than the 1024 a results file may hold");

	/* A name longer than a file's (looked up in every slice) is refused; one as long is not. */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	if (asprintf(&item, "{ \"probesets\": [ { \"name\": \"%s\" } ] }", name) < 0)
		item = NULL;
	refused(item, p, "probesets[0].name: 256 bytes, longer than the 255 of a probe-set "
		"file's name");
	name[LB_RESULTS_MAX_NAME] = '\0';
	if (asprintf(&item, "{ \"probesets\": [ { \"name\": \"%s\" } ] }", name) < 0)
		item = NULL;
	res = accepted(item, p);
	T_CHECK(res && strlen(res->probesets[0].name) == LB_RESULTS_MAX_NAME);
	lb_results_free(res);

	/* Runs of every entry together: the baseline's 60,000 and the set's 40,001 are too many. */
	refused(json_runs(60000, LB_RESULTS_MAX_RUNS - 60000 + 1), p,
		"probesets[0].runs: 40001 runs, 100001 with those of the entries before: more "
		"than the 100000 a results file may hold");
	refused(json_runs(LB_RESULTS_MAX_RUNS + 1, 0), p,
		"baseline.runs: 100001 runs, more than the 100000 a results file may hold");
	res = accepted(json_runs(60000, LB_RESULTS_MAX_RUNS - 60000), p);
	T_CHECK(res && res->baseline.nruns == 60000 && res->nprobesets == 1 &&
		res->probesets[0].nruns == LB_RESULTS_MAX_RUNS - 60000);
	T_CHECK(res && res->baseline.runs[59999].round == 59999);
	lb_results_free(res);

	refused(json_of("{ \"probesets\": [ { \"name\": \"x\", \"slices\": [", "", "",
			LB_RESULTS_MAX_SLICES + 1, 0, "] } ] }"), p,
		"probesets[0].slices: 4000001 slices, more than the 4000000 a results file may "
		"hold");

	/* A run's latency buckets: at most the histogram's, checked before their elements. */
	refused(json_of("{ \"probesets\": [ { \"name\": \"x\", \"runs\": [ { \"latency\": "
			"{ \"buckets\": [", "", "", LB_HIST_BUCKETS + 1, 0, "] } } ] } ] }"), p,
		"probesets[0].runs[0].latency.buckets: 3841 buckets, more than the 3840 a results "
		"file may hold");

	refused(json_of("{ \"probesets\": [], \"warnings\": [", "\"w", "\"",
			LB_RESULTS_MAX_WARNINGS + 1, 0, "] }"), p,
		"warnings: 100001 warnings, more than the 100000 a results file may hold");
	/* Warning i says i modulo @distinct: the repeats go, the first of each stays in order. */
	if (asprintf(&item, "\"%s ", prefix) < 0)
		item = NULL;
	res = item ? accepted(json_of("{ \"probesets\": [], \"warnings\": [", item, "\"",
				      LB_RESULTS_MAX_WARNINGS, distinct, "] }"), p) : NULL;
	T_CHECK(res && res->nwarnings == distinct);
	for (i = 0; res && i < res->nwarnings; i++) {
		char want[sizeof(prefix) + 32];

		snprintf(want, sizeof(want), "%s %zu", prefix, i);
		if (strcmp(res->warnings[i], want)) {
			fprintf(stderr, "warnings[%zu] = \"%s\", expected \"%s\"\n", i,
				res->warnings[i], want);
			t_failures++;
			break;
		}
	}
	lb_results_free(res);
	free(item);
	unlink(p);
	free(p);
}

static void test_csv(const struct lb_results *res, const char *dir)
{
	static const char expect[] =
		"probeset,tracer,round,seconds,ops,throughput,events,lost_events,timeouts,"
		"overwritten_events,lat_count,lat_mean_ns,lat_p50_ns,lat_p90_ns,lat_p99_ns,"
		"lat_p999_ns,lat_p9999_ns,lat_max_ns,late,cpu_workload_ns,"
		"cpu_workload_user_ns,cpu_workload_sys_ns,cpu_tracer_ns,cpu_tracer_tasks,"
		"cpu_machine_busy_ns,cpu_steal_pct\n"
		"baseline,none,1,10,1000000,100000,0,0,0,0,,,,,,,,,,,,,,,,\n"
		"baseline,none,2,10,1020000,102000,0,0,1,0,,,,,,,,,,,,,,,,\n"
		"baseline,none,3,9.5,931000,98000,0,0,0,0,,,,,,,,,,,,,,,,\n"
		"ftrace,ftrace,1,10,800000,80000,8000000,0,0,0,,,,,,,,,,,,,,,,\n"
		"ftrace,ftrace,2,10,820000,82000,8200000,5,0,10,,,,,,,,,,,,,,,,\n"
		"ftrace,ftrace,3,10,790000,79000,7900000,10,0,20,,,,,,,,,,,,,,,,\n"
		"\"lttng+kprobe, \"\"x\"\"\",lttng,1,10,500000,50000,1500000,0,0,0,,,,,,,,,,,,,,,,\n"
		"\"lttng+kprobe, \"\"x\"\"\",lttng,2,10,490000,49000,1470000,0,0,0,,,,,,,,,,,,,,,,\n"
		"\"lttng+kprobe, \"\"x\"\"\",lttng,3,10,520000,52000,2080000,0,0,0,,,,,,,,,,,,,,,,\n"
		"\"lttng+kprobe, \"\"x\"\"\",lttng,4,10,100000,10000,200000,0,7,0,,,,,,,,,,,,,,,,\n";
	char *path = path_in(dir, "results.csv"), *text;
	struct stat st;

	T_CHECK(lb_results_write_csv(res, AT_FDCWD, path) == 0);
	text = t_read_all(path, NULL);
	T_CHECK_STR(text, expect);
	T_CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	free(text);
	free(path);
}

/*
 * slices.csv: one row per slice of each probe set, the state named; a
 * throughput beside the ops; nothing written for results without slices.
 */
static void test_slices_csv(const struct lb_results *runs, const char *dir)
{
	static const char head[] =
		"probeset,unit,state,start,seconds,switch_s,ops,throughput,events,lost_events,"
		"off_events,edge_spread_ops,dropped,lat_count,lat_p50_ns,lat_p90_ns,lat_p99_ns,"
		"lat_p999_ns,lat_p9999_ns,lat_max_ns,late,cpu_workload_ns,cpu_workload_user_ns,"
		"cpu_workload_sys_ns,cpu_tracer_ns,cpu_tracer_tasks,cpu_machine_busy_ns,cpu_steal_pct\n"
		"ftrace,0,off,0,0.1,,7600,76000,0,0,0,0,0,,,,,,,,,,,,,,,\n"
		"ftrace,0,ftrace,0.12000000000000001,0.2,0.0003333333333333333,10640,53200,"
		"12346,0,0,1,0,,,,,,,,,,,,,,,\n";
	struct lb_results *res = build_alternate();
	char *path = path_in(dir, "slices.csv"), *text;
	size_t rows = 0;
	struct stat st;
	const char *p;

	T_CHECK(res && lb_results_has_slices(res));
	if (!res)
		goto out;
	T_CHECK(lb_results_write_slices_csv(res, AT_FDCWD, path) == 0);
	text = t_read_all(path, NULL);
	T_CHECK(text && !strncmp(text, head, strlen(head)));
	if (text && strncmp(text, head, strlen(head)))
		fprintf(stderr, "slices.csv starts:\n%.400s\n", text);
	for (p = text; p && *p; p++)
		rows += *p == '\n';
	T_CHECK(rows == 1 + 12 + 18 + 18);
	/* A dropped unit's slice, and the pair's states by name. */
	T_CHECK(text && strstr(text, "\nftrace,1,ftrace,0.7800000000000001,0.1,0.0003,5321,53210,"
			      "12352,3,0,1,1,,,,,,,,,,,,,,,\n"));
	T_CHECK(text && strstr(text, "\nsyscalls,0,syscalls+kprobe,0.34,"));
	T_CHECK(text && strstr(text, "\nsyscalls+kprobe,0,syscalls,0.12000000000000001,0.2,"));
	T_CHECK(text && strstr(text, "\nsyscalls+kprobe,2,off,"));
	T_CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	free(text);
	T_CHECK(unlink(path) == 0);

	/* No slices: no file. */
	T_CHECK(!lb_results_has_slices(runs));
	T_CHECK(lb_results_write_slices_csv(runs, AT_FDCWD, path) == 0);
	T_CHECK(access(path, F_OK) && errno == ENOENT);
	T_CHECK(lb_results_write_slices_csv(res, AT_FDCWD, "/nonexistent/slices.csv") == -ENOENT);
out:
	lb_results_free(res);
	free(path);
}

/* Write failures: nothing is left behind. */
static void test_write_fail(const struct lb_results *res, const char *dir)
{
	char *sub = path_in(dir, "sub"), *missing = path_in(dir, "missing/results.json");

	T_CHECK(lb_results_write_json(res, AT_FDCWD, missing) == -ENOENT);
	T_CHECK(lb_results_write_csv(res, AT_FDCWD, missing) == -ENOENT);
	/* The target is a directory: the rename fails after the temp file was written. */
	T_CHECK(mkdir(sub, 0755) == 0);
	T_CHECK(lb_results_write_json(res, AT_FDCWD, sub) == -EISDIR);
	T_CHECK(lb_results_write_csv(res, AT_FDCWD, sub) == -EISDIR);
	T_CHECK(rmdir(sub) == 0);
	free(sub);
	free(missing);
}

static void test_table(const struct lb_results *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	T_CHECK(f != NULL);
	if (!f)
		return;
	lb_results_print_table(res, f);
	fclose(f);
	fputs(buf, stdout);
	T_CHECK(strstr(buf, "workload: udp-rr, server on CPU 2") != NULL);
	T_CHECK(strstr(buf, "(\"pinned\"), engine uring\n") != NULL);
	T_CHECK(strstr(buf, "6.1.0-18-amd64") != NULL);
	T_CHECK(strstr(buf, "\nkernel: 6.1.0-18-amd64 (x86_64), virtualization: kvm, VM accelerator "
			"tcg: /dev/kvm is kvm_pvm (runs only PVM guests)\n") != NULL);
	T_CHECK(strstr(buf, "Xeon") != NULL);
	T_CHECK(strstr(buf, "3 x 10 s") != NULL);
	T_CHECK(strstr(buf, "probe set") != NULL);
	T_CHECK(strstr(buf, "\nbaseline ") != NULL);
	T_CHECK(strstr(buf, "\nftrace ") != NULL);
	/* The plain baseline once, above the table; each set beside the baseline it pairs with. */
	T_CHECK(strstr(buf, "\nbaseline (nothing armed): 100000 ops/s (median), CV 2.0%\n"
			"probe set ") != NULL);
	T_CHECK(strstr(buf, "  ops/s off  ops/s on  CV %  slowdown %  ") != NULL);
	T_CHECK(strstr(buf, "  100000     80000   1.9        20.0  ") != NULL);
	T_CHECK(strstr(buf, "20.0") != NULL);
	T_CHECK(strstr(buf, "250.0") != NULL);
	T_CHECK(strstr(buf, "10.00") != NULL);
	T_CHECK(strstr(buf, "15 (0.000062%)") != NULL);
	T_CHECK(strstr(buf, "\nwarning: note: \"quoted\"") != NULL);
	T_CHECK(strstr(buf, "\nskipped strace: needs root\n") != NULL);
	/* Fewer events/op than the set it builds on: no cost per extra event. */
	T_CHECK(strstr(buf, "\nlttng+kprobe, \"x\" vs ftrace (the set it builds on): 50.0% vs "
			"20.0% slower than the baseline (2.50x the slowdown), slowdown against "
			"ftrace 37.5% [") != NULL);
	T_CHECK(strstr(buf, "]; 3.00 vs 10.00 events/op\n") != NULL);
	/* The baseline line before the probe sets, which keep their order. */
	T_CHECK(strstr(buf, "\nbaseline ") < strstr(buf, "\nftrace "));
	T_CHECK(strstr(buf, "\nftrace ") < strstr(buf, "\nlttng+kprobe"));
	free(buf);
}

/*
 * The VM runner's accelerator: from $LOADBENCH_VM_ACCEL, made one printable line; no key
 * in results.json and no words in the host line without it; a JSON null reads as none.
 */
static void test_vm_accelerator(const char *dir)
{
	char *p = path_in(dir, "accel.json"), *text, *buf = NULL, err[512];
	struct lb_results *res = lb_results_new(), *back = NULL;
	size_t len = 0;
	FILE *f;

	T_CHECK(res && p);
	if (!res || !p)
		goto out;
	T_CHECK(setenv("LOADBENCH_VM_ACCEL", "kvm: asked\nwith --accel \xe2\x9c\x93", 1) == 0);
	T_CHECK(lb_sysinfo_read(&res->host) == 0);
	T_CHECK_STR(res->host.vm_accelerator, "kvm: asked?with --accel ???");
	lb_results_free(res);
	res = lb_results_new();
	T_CHECK(unsetenv("LOADBENCH_VM_ACCEL") == 0);
	T_CHECK(res && lb_sysinfo_read(&res->host) == 0 && !res->host.vm_accelerator);
	if (!res)
		goto out;

	T_CHECK(lb_results_write_json(res, AT_FDCWD, p) == 0);
	text = t_read_all(p, NULL);
	T_CHECK(text && !strstr(text, "vm_accelerator"));
	free(text);
	f = open_memstream(&buf, &len);
	T_CHECK(f != NULL);
	if (f) {
		lb_results_print_table(res, f);
		fclose(f);
		T_CHECK(buf && !strstr(buf, "accelerator"));
		free(buf);
	}

	text = "{ \"probesets\": [], \"host\": { \"vm_accelerator\": null } }";
	T_CHECK(write_text(p, text, strlen(text)) == 0);
	T_CHECK(lb_results_read_json(p, &back, err, sizeof(err)) == 0);
	T_CHECK(back && !back->host.vm_accelerator);
	lb_results_free(back);
	unlink(p);
out:
	lb_results_free(res);
	free(p);
}

/* Shares readable however small or close to all. */
static void test_share(void)
{
	char buf[40];

	T_CHECK_STR(lb_results_share(1, 2, buf, sizeof(buf)), "50.0%");
	T_CHECK_STR(lb_results_share(997, 1000, buf, sizeof(buf)), "99.7%");
	T_CHECK_STR(lb_results_share(9996, 10000, buf, sizeof(buf)), "99.96%");
	T_CHECK_STR(lb_results_share(10000, 10000, buf, sizeof(buf)), "100.0%");
	T_CHECK_STR(lb_results_share(1, 1000, buf, sizeof(buf)), "0.1%");
	T_CHECK_STR(lb_results_share(15, 24100000, buf, sizeof(buf)), "0.000062%");
	T_CHECK_STR(lb_results_share(1, 0, buf, sizeof(buf)), "-");
}

/*
 * A set beside the one it builds on: baseline 100000 ops/s; base 80000 at 10
 * events/op; set 50000 at 20: 2.5x the slowdown, 10 extra events/op at
 * (1/50000 - 1/80000) s / 10 = 750 ns each. No pair without compare_with,
 * or when the named set is absent.
 */
static void test_pairs(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *base, *set, *lone;
	struct lb_pair pr = { 0 };
	int ret = 0;

	T_CHECK(res != NULL);
	if (!res)
		return;
	/* Pointers taken after the last add: each add may move the array. */
	if (!lb_results_add_probeset(res, "ftrace", "ftrace") ||
	    !lb_results_add_probeset(res, "ftrace+kprobe", "ftrace") ||
	    !lb_results_add_probeset(res, "bpf+kprobe", "bpf")) {
		t_failures++;
		goto out;
	}
	base = &res->probesets[0];
	set = &res->probesets[1];
	lone = &res->probesets[2];
	set->compare_with = strdup("ftrace");
	lone->compare_with = strdup("bpf");
	for (int round = 1; round <= 3; round++) {
		ret |= add_run(&res->baseline, round, 1, 100000, 0, 0, 0, NULL, 0);
		ret |= add_run(base, round, 1, 80000, 800000, 0, 0, NULL, 0);
		ret |= add_run(set, round, 1, 50000, 1000000, 0, 0, NULL, 0);
		ret |= add_run(lone, round, 1, 90000, 90000, 0, 0, NULL, 0);
	}
	T_CHECK(ret == 0 && set->compare_with && lone->compare_with);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(lb_results_pair(res, set, &pr) == 0);
	T_CHECK(pr.set == set && pr.base == base);
	T_CHECK_NEAR(pr.slowdown_ratio, 2.5, 1e-9);
	T_CHECK_NEAR(pr.extra_events_per_op, 10, 1e-9);
	T_CHECK_NEAR(pr.ns_per_extra_event, 750, 1e-6);
	/* Against its base round by round: 1 - 50000/80000 every time. */
	T_CHECK_NEAR(pr.vs_base_pct, 37.5, 1e-9);
	T_CHECK_NEAR(pr.vs_base_ci95[0], 37.5, 1e-9);
	T_CHECK_NEAR(pr.vs_base_ci95[1], 37.5, 1e-9);
	/* The same every round: the cost's interval is the point. */
	T_CHECK_NEAR(pr.ns_per_extra_event_ci95[0], 750, 1e-6);
	T_CHECK_NEAR(pr.ns_per_extra_event_ci95[1], 750, 1e-6);
	T_CHECK(lb_results_pair(res, base, &pr) == -ENOENT);
	T_CHECK(lb_results_pair(res, lone, &pr) == -ENOENT);
out:
	lb_results_free(res);
}

/*
 * Rounds that vary: base 78000-82000 ops/s at 10 events/op, the set
 * 47000-52000 at 20. The cost of each extra event comes from the paired
 * slowdown against the base (here the medians' 37.5%: 750 ns), and its
 * interval is that slowdown's interval through the same formula: wider
 * than a point, around it.
 */
static void test_pair_cost_ci(void)
{
	static const uint64_t base_ops[] = { 80000, 82000, 78000, 81000, 79000 };
	static const uint64_t set_ops[] = { 50000, 52000, 47000, 51000, 49500 };
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *base, *set;
	struct lb_pair pr = { 0 };
	int ret = 0;

	T_CHECK(res != NULL);
	if (!res)
		return;
	if (!lb_results_add_probeset(res, "ftrace", "ftrace") ||
	    !lb_results_add_probeset(res, "ftrace+kprobe", "ftrace")) {
		t_failures++;
		goto out;
	}
	base = &res->probesets[0];
	set = &res->probesets[1];
	set->compare_with = strdup("ftrace");
	for (int r = 0; r < 5; r++) {
		ret |= add_run(&res->baseline, r + 1, 1, 100000, 0, 0, 0, NULL, 0);
		ret |= add_run(base, r + 1, 1, base_ops[r], 10 * base_ops[r], 0, 0, NULL, 0);
		ret |= add_run(set, r + 1, 1, set_ops[r], 20 * set_ops[r], 0, 0, NULL, 0);
	}
	T_CHECK(ret == 0 && set->compare_with);
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(lb_results_pair(res, set, &pr) == 0);
	T_CHECK_NEAR(pr.vs_base_pct, 37.5, 1e-9);
	T_CHECK_NEAR(pr.ns_per_extra_event, 750, 1e-6);
	T_CHECK(pr.vs_base_ci95[0] < pr.vs_base_ci95[1]);
	T_CHECK(pr.ns_per_extra_event_ci95[0] < 750 && 750 < pr.ns_per_extra_event_ci95[1]);
	for (int e = 0; e < 2; e++)
		T_CHECK_NEAR(pr.ns_per_extra_event_ci95[e],
			     (1 / (80000 * (1 - pr.vs_base_ci95[e] / 100)) - 1 / 80000.0) / 10 * 1e9,
			     1e-6);
out:
	lb_results_free(res);
}

/* Nothing but the expected files in @dir: no temporary left by any write. */
static void check_dir_clean(const char *dir)
{
	static const char *const expected[] = { "results.json", "results.csv" };
	struct dirent *de;
	size_t n = 0, i;
	DIR *d = opendir(dir);

	T_CHECK(d != NULL);
	if (!d)
		return;
	while ((de = readdir(d))) {
		bool known = false;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; i < ARRAY_SIZE(expected); i++)
			known |= !strcmp(de->d_name, expected[i]);
		if (!known) {
			fprintf(stderr, "unexpected file left in %s: %s\n", dir, de->d_name);
			t_failures++;
		}
		n++;
	}
	closedir(d);
	T_CHECK(n == ARRAY_SIZE(expected));
}

/*
 * --rate: the late sends of every run and slice, the rate in the
 * configuration, and each set's share of late sends survive a JSON round
 * trip; the CSV files carry them in their last column; the table says the
 * loop was open.
 */
static void test_rate(const char *dir)
{
	struct lb_results *res = build_alternate(), *back = NULL;
	char *path = path_in(dir, "rate.json"), *csv = path_in(dir, "rate.csv"), *text = NULL;
	struct lb_probeset_result *f;
	char err[256] = "", *buf = NULL;
	uint64_t late = 0, ops = 0;
	size_t len = 0;
	FILE *mf;

	T_CHECK(res && path && csv);
	if (!res || !path || !csv)
		goto out;
	/* A closed loop has no share of late sends. */
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(isnan(res->baseline.summary.late_pct));
	res->config.rate = 1000;
	res->baseline.runs[0].late = 10;
	f = &res->probesets[0];
	f->runs[0].late = 3;
	for (size_t i = 0; i < f->nslices; i++)
		f->slices[i].late = i;
	T_CHECK(lb_results_summarize(res) == 0);
	T_CHECK(fabs(res->baseline.summary.late_pct -
		     100.0 * 10 / (double)(res->baseline.runs[0].ops + res->baseline.runs[1].ops)) <
		1e-12);
	for (size_t i = 0; i < f->nruns; i++) {
		late += f->runs[i].late;
		ops += f->runs[i].ops;
	}
	T_CHECK(ops && fabs(f->summary.late_pct - 100.0 * (double)late / (double)ops) <
			       1e-12);
	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	T_CHECK(lb_results_read_json(path, &back, err, sizeof(err)) == 0);
	if (back) {
		T_CHECK(back->config.rate == 1000);
		T_CHECK(back->baseline.runs[0].late == 10 && back->baseline.runs[1].late == 0);
		T_CHECK(back->probesets[0].runs[0].late == 3);
		T_CHECK(back->probesets[0].nslices == f->nslices);
		for (size_t i = 0; i < f->nslices && i < back->probesets[0].nslices; i++)
			T_CHECK(back->probesets[0].slices[i].late == i);
		T_CHECK(fabs(back->probesets[0].summary.late_pct -
			     f->summary.late_pct) < 1e-9);
	}
	{
		struct lb_cpu *c = &res->baseline.runs[1].cpu;

		c->measured = true;
		c->workload_ns = 3e6;
		c->workload_user_ns = 1e6;
		c->workload_sys_ns = 2e6;
		c->machine_ns[LB_CPU_USER] = 4e6;
		c->machine_ns[LB_CPU_SYSTEM] = 2e6;
		c->machine_ns[LB_CPU_STEAL] = 1e6;
		c->machine_ns[LB_CPU_IDLE] = 1e6;
	}
	T_CHECK(lb_results_write_csv(res, AT_FDCWD, csv) == 0);
	text = t_read_all(csv, NULL);
	T_CHECK(text && strstr(text, ",lat_max_ns,late,cpu_workload_ns,") &&
		strstr(text, "\nbaseline,none,1,2,154000,77000,0,0,0,0,,,,,,,,,10,,,,,,,\n"));
	/* A run's CPU time: the workload's, the tracer's, the machine's busy time, steal. */
	T_CHECK(text && strstr(text, "\nbaseline,none,2,2,153000,76500,0,0,0,0,,,,,,,,,0,"
			       "3000000,1000000,2000000,0,0,7000000,12.5\n"));
	free(text);
	T_CHECK(lb_results_write_slices_csv(res, AT_FDCWD, csv) == 0);
	text = t_read_all(csv, NULL);
	T_CHECK(text && strstr(text, ",,,,,,,1,,,,,,,\n") && strstr(text, ",,,,,,,2,,,,,,,\n"));
	mf = open_memstream(&buf, &len);
	if (mf) {
		lb_results_print_table(res, mf);
		fclose(mf);
	}
	T_CHECK(buf && strstr(buf, "\nopen loop at 1000 requests/s per flow: "));
	/* Not timed: the late sends are said under the table. */
	T_CHECK(buf && strstr(buf, "% of operations: baseline 0.00, ftrace "));
	free(buf);
out:
	free(text);
	lb_results_free(back);
	lb_results_free(res);
	if (path)
		unlink(path);
	if (csv)
		unlink(csv);
	free(path);
	free(csv);
}

/*
 * The table's ops/s off and on (lb_results_off_on()) are one estimator, total
 * / seconds, over the set's off and on slices, so that on / off agrees with
 * the slowdown beside it: in the example run (a busy machine, CV up to 15%)
 * the on slices' median read higher than off for perf-count, 5.7% slower.
 */
static void test_off_on_agree(void)
{
	struct lb_results *res = NULL;
	char err[512];

	T_CHECK(lb_results_read_json(LB_SRCDIR "/doc/example/results.json", &res, err,
				     sizeof(err)) == 0);
	if (!res)
		return;
	T_CHECK(lb_results_summarize(res) == 0);
	for (size_t i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *p = &res->probesets[i];
		const struct lb_summary *s = &p->summary;
		double ops = 0, sec = 0, off, on, pct;

		for (size_t k = 0; k < p->nslices; k++) {
			if (p->slices[k].on != (int)i || p->slices[k].dropped)
				continue;
			ops += p->slices[k].ops;
			sec += p->slices[k].seconds;
		}
		T_CHECK_NEAR(s->on_throughput, ops / sec, 1e-6);
		T_CHECK(lb_results_off_on(res, p, &off, &on) == 0);
		T_CHECK(on == s->on_throughput && off == s->off_throughput);
		pct = 100 * (1 - on / off);
		if (!(pct > s->slowdown_ci95[0] - 1 && pct < s->slowdown_ci95[1] + 1))
			fprintf(stderr, "%s: on/off %.2f%%, slowdown %.2f%% [%.2f, %.2f]\n", p->name,
				pct, s->slowdown_pct, s->slowdown_ci95[0], s->slowdown_ci95[1]);
		T_CHECK(pct > s->slowdown_ci95[0] - 1 && pct < s->slowdown_ci95[1] + 1);
	}
	lb_results_free(res);
}

int main(void)
{
	const char *tmpdir = getenv("TMPDIR");
	struct lb_results *res, *empty;
	char *dir;
	int ret;

	if (asprintf(&dir, "%s/lb-test-results.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
		return T_EXIT_ERROR;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		free(dir);
		return T_EXIT_ERROR;
	}
	res = build();
	if (!res) {
		fprintf(stderr, "out of memory building the results\n");
		t_remove_dir(dir);
		free(dir);
		return T_EXIT_ERROR;
	}
	empty = lb_results_new();
	T_CHECK(empty && empty->config.server_cpu == -1 && !empty->nprobesets);
	T_CHECK(empty && lb_results_summarize(empty) == 0 && !empty->nwarnings);
	lb_results_free(empty);
	lb_results_free(NULL);

	test_summary(res);
	test_warnings();
	test_json(res, dir);
	test_json_alternate(dir);
	test_off_on_agree();
	test_json_latency(dir);
	test_json_old(res, dir);
	test_json_bad(dir);
	test_json_ranges(dir);
	test_json_caps(dir);
	test_csv(res, dir);
	test_slices_csv(res, dir);
	test_write_fail(res, dir);
	test_table(res);
	test_vm_accelerator(dir);
	test_rate(dir);
	test_pairs();
	test_pair_cost_ci();
	test_share();
	check_dir_clean(dir);

	lb_results_free(res);
	t_remove_dir(dir);
	ret = access(dir, F_OK) ? t_exit() : T_EXIT_ERROR;
	free(dir);
	return ret;
}
