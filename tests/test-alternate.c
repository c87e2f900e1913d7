// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of --method alternate's statistics (src/results/summary.c): per-unit
 * ratios from slices, the summary of a set and of a compare-with pair
 * alternated together, dropped units, events counted while off, and the
 * precision verdict, on slices built by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "results.h"
#include "table.h"

/* One slice of @unit with set @on (-1 = off): @rate ops/s over 0.1 s, @ev events per op. */
static struct lb_slice slice(int unit, int on, double rate, double ev, uint64_t off_ev)
{
	static double t;
	struct lb_slice s = { .unit = unit, .on = on, .start = t, .seconds = 0.1,
			      .switch_s = on < 0 ? 0.002 : 0.001 };

	t += 0.12;
	s.ops = (uint64_t)(rate * 0.1);
	s.events = on < 0 ? 0 : (uint64_t)(s.ops * ev);
	s.off_events = off_ev;
	return s;
}

static struct lb_results *results(void)
{
	struct lb_results *res = lb_results_new();
	struct lb_run b = { .round = 1, .seconds = 2, .ops = 200000, .throughput = 100000 };

	T_CHECK(res != NULL);
	res->config.method = strdup("alternate");
	res->config.precision = 1.0;
	T_CHECK(!lb_probeset_result_add_run(&res->baseline, &b));
	return res;
}

/* A set alone: off 100k, on 75k with a drift inside each unit that the mirror cancels. */
static void test_single(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "ftrace");
	struct lb_slice s[4 * 40];
	struct lb_run run = { .round = 1 };
	size_t n = 0;
	double r[64];

	for (int u = 0; u < 40; u++) {
		double d = 1 + 0.001 * u;	/* a slow rise across the units */
		bool abba = u % 3;

		s[n++] = slice(u, abba ? -1 : 0, (abba ? 100000 : 75000) * d * 1.00, 16, 0);
		s[n++] = slice(u, abba ? 0 : -1, (abba ? 75000 : 100000) * d * 1.01, 16, 0);
		s[n++] = slice(u, abba ? 0 : -1, (abba ? 75000 : 100000) * d * 1.02, 16, 0);
		s[n++] = slice(u, abba ? -1 : 0, (abba ? 100000 : 75000) * d * 1.03, 16, 0);
	}
	T_CHECK(lb_slices_unit_ratios(s, n, 0, -1, r, 64) == 40);
	T_CHECK_NEAR(r[0], 0.75, 0.001);
	/* One unit has a dropped slice: left out. */
	s[5].dropped = true;
	T_CHECK(lb_slices_unit_ratios(s, n, 0, -1, r, 64) == 39);
	/* Off events: 3 in one off slice. */
	s[8].off_events = 3;
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK_NEAR(p->summary.slowdown_pct, 25, 0.05);
	T_CHECK(p->summary.slowdown_ci95[0] <= p->summary.slowdown_pct &&
		p->summary.slowdown_pct <= p->summary.slowdown_ci95[1]);
	T_CHECK(p->summary.ci_half_width < 0.2);
	T_CHECK(p->summary.precision_reached);
	T_CHECK(p->summary.units == 39 && p->summary.dropped_units == 1);
	T_CHECK_NEAR(p->summary.events_per_op, 16, 0.01);
	T_CHECK(p->summary.off_events == 3);
	T_CHECK_NEAR(p->summary.switch_on_ms, 1, 1e-9);
	T_CHECK_NEAR(p->summary.switch_off_ms, 2, 1e-9);
	/* The off slices (~103.5k with the drift) against the plain run (100k): -3.5%. */
	T_CHECK(p->summary.residue_pct < -2 && p->summary.residue_pct > -5);
	/* (1/77.6k - 1/103.5k) / 16: the rates with their drift, 201 ns. */
	T_CHECK_NEAR(p->summary.ns_per_event, 201.3, 1);
	/* Its CI: the slowdown's, per event, around it (and as narrow: +-0.2 pp of 25%). */
	T_CHECK(p->summary.ns_per_event_ci95[0] <= p->summary.ns_per_event &&
		p->summary.ns_per_event <= p->summary.ns_per_event_ci95[1]);
	T_CHECK(p->summary.ns_per_event_ci95[1] - p->summary.ns_per_event_ci95[0] < 5);
	T_CHECK(res->nwarnings == 0);

	/* Asked for more precision than reached: the summary says so. */
	res->config.precision = 1e-6;
	T_CHECK(!lb_results_summarize(res));
	T_CHECK(!res->probesets[0].summary.precision_reached);
	T_CHECK(res->nwarnings == 1 && strstr(res->warnings[0], "did not reach the precision"));
	lb_results_free(res);
}

/*
 * Plain slices (nothing armed) before and after the units: the residue is
 * the off slices against them, not against the baseline run; they are in
 * no unit, so the slowdown, the units and the switch times stay.
 */
static void test_plain(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "ftrace");
	struct lb_slice s[2 * LB_ALT_PLAIN_SLICES + 4 * 20];
	struct lb_run run = { .round = 1 };
	size_t n = 0;
	double r[32];

	for (int i = 0; i < LB_ALT_PLAIN_SLICES; i++)
		s[n++] = slice(-1, LB_SLICE_PLAIN, 94000, 0, 0);
	for (int u = 0; u < 20; u++) {
		bool abba = u % 2;

		s[n++] = slice(u, abba ? -1 : 0, abba ? 96000 : 72000, 16, 0);
		s[n++] = slice(u, abba ? 0 : -1, abba ? 72000 : 96000, 16, 0);
		s[n++] = slice(u, abba ? 0 : -1, abba ? 72000 : 96000, 16, 0);
		s[n++] = slice(u, abba ? -1 : 0, abba ? 96000 : 72000, 16, 0);
	}
	for (int i = 0; i < LB_ALT_PLAIN_SLICES; i++)
		s[n++] = slice(-1, LB_SLICE_PLAIN, 98000, 0, 0);
	T_CHECK(lb_slices_unit_ratios(s, n, 0, -1, r, 32) == 20);
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK_NEAR(p->summary.slowdown_pct, 25, 0.05);
	T_CHECK(p->summary.units == 20 && p->summary.dropped_units == 0);
	T_CHECK_NEAR(p->summary.switch_on_ms, 1, 1e-9);
	T_CHECK_NEAR(p->summary.switch_off_ms, 2, 1e-9);
	/* Off 96k against the plain slices' mean 96k: none (the baseline run's 100k would say 4%). */
	T_CHECK_NEAR(p->summary.residue_pct, 0, 0.05);
	T_CHECK_NEAR(p->summary.off_throughput, 96000, 1);
	lb_results_free(res);
}

/*
 * A base and a set that builds on it, alternated together in @units units
 * (off first in even units, the set first in odd ones): off 100k, base 80k
 * at 24 events/op, the set at @set_rate[unit] with 40, each slice's rate
 * scaled by 1 + @wobble x its place in the unit's half. Summarized.
 */
static struct lb_results *pair_results(int units, const double *set_rate, double wobble)
{
	struct lb_results *res = results();
	struct lb_probeset_result *base, *set;
	struct lb_slice s[6 * 20];
	struct lb_run run = { .round = 1 };
	size_t n = 0;

	for (int u = 0; u < units && u < 20; u++) {
		int order[3] = { -1, 0, 1 };
		double rate[3] = { 100000, 80000, set_rate[u] };

		if (u % 2) {
			order[0] = 1;
			order[2] = -1;
		}
		for (int i = 0; i < 6; i++) {
			int st = order[i < 3 ? i : 5 - i];

			s[n++] = slice(u, st, rate[st + 1] * (1 + wobble * (i % 3)), st == 1 ? 40 : 24,
				       0);
		}
	}
	base = lb_results_add_probeset(res, "base", "ftrace");
	T_CHECK(!lb_probeset_result_add_slices(base, s, n) && !lb_probeset_result_add_run(base, &run));
	set = lb_results_add_probeset(res, "set", "ftrace");
	set->compare_with = strdup("base");
	T_CHECK(!lb_probeset_result_add_slices(set, s, n) && !lb_probeset_result_add_run(set, &run));
	T_CHECK(!lb_results_summarize(res));
	return res;
}

/* A pair alternated together: off 100k, base 80k, set 60k; set vs base 25%. */
static void test_pair(void)
{
	double set_rate[20];
	struct lb_results *res;
	struct lb_probeset_result *base, *set;
	struct lb_pair pr;

	for (int u = 0; u < 20; u++)
		set_rate[u] = 60000;
	res = pair_results(20, set_rate, 0.003);
	base = &res->probesets[0];
	set = &res->probesets[1];
	T_CHECK_NEAR(base->summary.slowdown_pct, 20, 0.3);
	T_CHECK_NEAR(set->summary.slowdown_pct, 40, 0.3);
	T_CHECK_NEAR(set->summary.events_per_op, 40, 0.01);
	T_CHECK(!lb_results_pair(res, set, &pr));
	T_CHECK(pr.units == 20);
	T_CHECK_NEAR(pr.vs_base_pct, 25, 0.3);
	T_CHECK(pr.vs_base_ci95[0] <= pr.vs_base_pct && pr.vs_base_pct <= pr.vs_base_ci95[1]);
	T_CHECK_NEAR(pr.extra_events_per_op, 16, 0.01);
	/*
	 * Each extra event: (1/60000 - 1/80000) s / 16 = 260 ns, from the paired
	 * slowdown against the base (the base's median x (1 - 25%)), and its CI
	 * that slowdown's CI through the same formula, the point inside it.
	 */
	{
		double tb = base->summary.throughput_median, v = pr.vs_base_pct;
		double want = (1 / (tb * (1 - v / 100)) - 1 / tb) / pr.extra_events_per_op * 1e9;

		T_CHECK_NEAR(pr.ns_per_extra_event, want, 1e-9);
		T_CHECK_NEAR(pr.ns_per_extra_event, 260.4, 6);
		T_CHECK(pr.ns_per_extra_event_ci95[0] <= pr.ns_per_extra_event &&
			pr.ns_per_extra_event <= pr.ns_per_extra_event_ci95[1]);
		for (int e = 0; e < 2; e++) {
			v = pr.vs_base_ci95[e];
			want = (1 / (tb * (1 - v / 100)) - 1 / tb) / pr.extra_events_per_op * 1e9;
			T_CHECK_NEAR(pr.ns_per_extra_event_ci95[e], want, 1e-9);
		}
	}
	lb_results_free(res);
}

/*
 * A pair whose units disagree wildly (the set 25%, 87.5% and 6% below its
 * base in its three units): the widened CI of its slowdown against the base
 * reaches past 100%, where no finite cost per extra event lies; the compare
 * line says the interval is open there instead of dropping it.
 */
static void test_pair_unbounded(void)
{
	static const double set_rate[3] = { 60000, 10000, 75000 };
	struct lb_results *res = pair_results(3, set_rate, 0);
	struct lb_probeset_result *set = &res->probesets[1];
	struct lb_pair pr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	T_CHECK(!lb_results_pair(res, set, &pr));
	T_CHECK(pr.units == 3 && pr.vs_base_ci95[1] >= 100);
	T_CHECK(isfinite(pr.ns_per_extra_event) && isfinite(pr.ns_per_extra_event_ci95[0]));
	T_CHECK(isnan(pr.ns_per_extra_event_ci95[1]));
	f = open_memstream(&buf, &len);
	T_CHECK(f != NULL);
	if (f) {
		lb_results_print_table(res, f);
		fclose(f);
		T_CHECK(strstr(buf, " ns [") && strstr(buf, ", unbounded]\n"));
		if (!strstr(buf, ", unbounded]\n"))
			fputs(buf, stderr);
		free(buf);
	}
	lb_results_free(res);
}

/*
 * Which slices are dropped: on a host whose edges take ~0.25% of a slice,
 * the one held up (5%); under TCG, where every edge takes ~3.3%, none of
 * those, but the one held up there (17%, five times the usual edge); a
 * slice without operations always; plain slices against plain slices. And
 * the summary says when the edges are that slow.
 */
static void test_dropped(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "ftrace");
	struct lb_slice s[2 * 4 + 4 * 20];
	struct lb_run run = { .round = 1 };
	size_t n = 0;

	for (int i = 0; i < 4; i++) {
		s[n] = slice(-1, LB_SLICE_PLAIN, 80000, 0, 0);
		s[n++].edge_spread_ops = 1;
	}
	for (int u = 0; u < 20; u++) {
		for (int k = 0; k < 4; k++) {
			s[n] = slice(u, k == 1 || k == 2 ? 0 : -1, k == 1 || k == 2 ? 60000 : 80000,
				     16, 0);
			s[n++].edge_spread_ops = 18;	/* 0.23% to 0.3% of 6,000 to 8,000 */
		}
	}
	for (int i = 0; i < 4; i++) {
		s[n] = slice(-1, LB_SLICE_PLAIN, 80000, 0, 0);
		s[n++].edge_spread_ops = 2;
	}
	T_CHECK(lb_slices_mark_dropped(s, n) == 20);
	for (size_t i = 0; i < n; i++)
		T_CHECK(!s[i].dropped);
	/* Held up: 400 of 8,000 operations (5%), in unit 3. */
	s[4 + 3 * 4].edge_spread_ops = 400;
	/* A plain slice held up: 300 of 8,000. */
	s[1].edge_spread_ops = 300;
	/* No operations at all, in unit 7. */
	s[4 + 7 * 4 + 2].ops = 0;
	T_CHECK(lb_slices_mark_dropped(s, n) == 18);
	T_CHECK(s[4 + 3 * 4].dropped && s[1].dropped && s[4 + 7 * 4 + 2].dropped);
	T_CHECK(!s[0].dropped && !s[4 + 3 * 4 + 1].dropped);
	s[4 + 7 * 4 + 2].ops = 6000;
	s[1].edge_spread_ops = 1;

	/* TCG: every edge takes 12 of 360 operations (3.3%): none dropped... */
	for (size_t i = 4; i < n - 4; i++) {
		s[i].ops = s[i].on < 0 ? 360 : 270;
		s[i].edge_spread_ops = 12;
	}
	T_CHECK(lb_slices_mark_dropped(s, n) == 20);
	/* ...but one that took 60 (17%, five times the usual). */
	s[4 + 5 * 4 + 1].edge_spread_ops = 60;
	T_CHECK(lb_slices_mark_dropped(s, n) == 19);
	T_CHECK(s[4 + 5 * 4 + 1].dropped);
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK(p->summary.units == 19 && p->summary.dropped_units == 1);
	T_CHECK_NEAR(p->summary.slowdown_pct, 25, 0.05);
	/* The edges took 3.3% (off) and 4.4% (on) of the slices, median 3.9%: said once. */
	T_CHECK(res->nwarnings == 1 && strstr(res->warnings[0], "set: reading the tracers at a "
					       "slice's edges took 3.9% of its operations"));
	lb_results_free(res);
}

/* A slice held up as a whole (SIGSTOP of 5 s in a 0.1 s slice): dropped with its unit, said. */
static void test_long_slice(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "ftrace");
	struct lb_slice s[4 * 20];
	struct lb_run run = { .round = 1 };
	size_t n = 0;

	for (int u = 0; u < 20; u++)
		for (int k = 0; k < 4; k++)
			s[n++] = slice(u, k == 1 || k == 2 ? 0 : -1,
				       k == 1 || k == 2 ? 60000 : 80000, 16, 0);
	/* Slices a little long (a busy machine: 0.19 s of 0.1 s) stay. */
	s[9].seconds = 0.19;
	s[9].ops = (uint64_t)(0.19 * 60000);
	T_CHECK(lb_slices_mark_dropped(s, n) == 20);
	/* Stopped for 5 s in unit 6's second "on" slice: 5.02 s, its rate as before. */
	s[6 * 4 + 2].seconds = 5.02;
	s[6 * 4 + 2].ops = (uint64_t)(5.02 * 60000);
	T_CHECK(lb_slices_mark_dropped(s, n) == 19);
	T_CHECK(s[6 * 4 + 2].dropped && !s[9].dropped);
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK(p->summary.units == 19 && p->summary.dropped_units == 1);
	T_CHECK(res->nwarnings == 1 &&
		strstr(res->warnings[0], "set: 1 slice(s) ran over 2x the median slice (the "
		       "longest 5.02 s against 0.10 s: a stopped process or a stalled machine); "
		       "dropped with their units"));
	lb_results_free(res);
}

/*
 * Units @first.. @first + @count - 1 of set 0 into @s from *@n on, mirrored
 * (off on on off, then on off off on): off 100k ops/s, on @on_rate, @ev
 * events per op.
 */
static void units(struct lb_slice *s, size_t *n, int first, int count, double on_rate, double ev)
{
	for (int u = first; u < first + count; u++) {
		bool abba = u % 2;

		s[(*n)++] = slice(u, abba ? -1 : 0, abba ? 100000 : on_rate, ev, 0);
		s[(*n)++] = slice(u, abba ? 0 : -1, abba ? on_rate : 100000, ev, 0);
		s[(*n)++] = slice(u, abba ? 0 : -1, abba ? on_rate : 100000, ev, 0);
		s[(*n)++] = slice(u, abba ? -1 : 0, abba ? 100000 : on_rate, ev, 0);
	}
}

/*
 * Off was not off for one switch: the off slice that counted events is
 * dropped with its unit by lb_slices_mark_dropped(), the summary counts that
 * unit among the dropped ones and says why, and keeps the events it counted.
 */
static void test_off_events(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "perf");
	struct lb_slice s[4 * 20];
	struct lb_run run = { .round = 1 };
	size_t n = 0;
	double r[32];

	units(s, &n, 0, 20, 80000, 24);
	T_CHECK(lb_slices_mark_dropped(s, n) == 20);
	/* Unit 7 (off, on, on, off): its last slice, off, counted 5 events. */
	s[7 * 4 + 3].off_events = 5;
	T_CHECK(lb_slices_mark_dropped(s, n) == 19);
	T_CHECK(s[7 * 4 + 3].dropped && !s[7 * 4].dropped);
	T_CHECK(lb_slices_unit_ratios(s, n, 0, -1, r, 32) == 19);
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK(p->summary.units == 19 && p->summary.dropped_units == 1);
	T_CHECK(p->summary.off_dropped_units == 1);
	T_CHECK(p->summary.off_events == 5);
	T_CHECK_NEAR(p->summary.slowdown_pct, 20, 0.05);
	lb_results_free(res);
}

/*
 * A set that --time-budget topped up: two alternations one after the
 * other in its slices (8 plain slices, 10 units, 8 plain; 4 plain, 10 more
 * units numbered on, 4 plain), two runs. Every unit counts; the seconds are
 * the two stretches of units added, not the time between them.
 */
static void test_topup(void)
{
	struct lb_results *res = results();
	struct lb_probeset_result *p = lb_results_add_probeset(res, "set", "bpf");
	struct lb_slice s[2 * LB_ALT_PLAIN_SLICES + 2 * LB_ALT_TOPUP_PLAIN + 4 * 20];
	struct lb_run run = { .round = 1 }, b2 = { .round = 2, .seconds = 1, .ops = 100000,
						    .throughput = 100000 };
	size_t n = 0, first, second;
	double r[32];

	for (int alt = 0; alt < 2; alt++) {
		int plain = alt ? LB_ALT_TOPUP_PLAIN : LB_ALT_PLAIN_SLICES;

		for (int i = 0; i < plain; i++)
			s[n++] = slice(-1, LB_SLICE_PLAIN, 100000, 0, 0);
		first = n;
		units(s, &n, 10 * alt, 10, 70000, 24);
		second = n;
		for (int i = 0; i < plain; i++)
			s[n++] = slice(-1, LB_SLICE_PLAIN, 100000, 0, 0);
	}
	T_CHECK(lb_slices_unit_ratios(s, n, 0, -1, r, 32) == 20);
	T_CHECK(!lb_probeset_result_add_slices(p, s, n));
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	run.round = 2;
	T_CHECK(!lb_probeset_result_add_run(p, &run));
	T_CHECK(!lb_probeset_result_add_run(&res->baseline, &b2));
	T_CHECK(!lb_results_summarize(res));
	p = &res->probesets[0];
	T_CHECK(p->summary.units == 20 && p->summary.dropped_units == 0);
	T_CHECK(p->summary.alternations == 2);
	T_CHECK_NEAR(p->summary.slowdown_pct, 30, 0.05);
	/* Each stretch: 40 slices 0.12 s apart, the last 0.1 s long: 4.78 s. */
	T_CHECK_NEAR(p->summary.seconds, 2 * 4.78, 1e-6);
	T_CHECK_NEAR(p->summary.topup_seconds, 4.78, 1e-6);
	T_CHECK_NEAR(s[second - 1].start + 0.1 - s[first].start, 4.78, 1e-6);
	lb_results_free(res);
}

int main(void)
{
	test_single();
	test_plain();
	test_pair();
	test_pair_unbounded();
	test_dropped();
	test_long_slice();
	test_off_events();
	test_topup();
	return t_exit();
}
