// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of --time-budget under --method alternate (src/measure/budget.c):
 * the first pass's shares, when a first alternation at its hard cap finishes
 * its last units rather than be armed again, the projected need of a group,
 * and which group a top-up goes to: one with fewer than 16 units first, then
 * the widest, with the time the water level gives it; none when nothing fits.
 */
#include <math.h>
#include <stdio.h>

#include "budget.h"
#include "helpers.h"
#include "results.h"

/* A group after its first alternation: @used units in @units_s s, CI +-@hw, set-up @setup s. */
static struct lb_alt_outcome outcome(int used, double units_s, double hw, double setup)
{
	return (struct lb_alt_outcome){ .alternations = 1, .units_s = units_s, .used = used,
					.widest = hw, .setup_s = setup };
}

static void test_share(void)
{
	struct lb_budget bg = { .time_budget = 270, .max_time = 60, .target = 0.97 };
	struct lb_budget none = { .time_budget = 0, .max_time = 60, .target = 0.97 };

	/* 16 groups: 70% of 270 s shared, 4 s of set-up guessed for each. */
	T_CHECK_NEAR(lb_budget_share(&bg, 0, 16, 0, 0), 0.7 * 270 / 16 - 4, 1e-9);
	/* Group 8, 100 s in, the 8 before having spent 24 s outside their units. */
	T_CHECK_NEAR(lb_budget_share(&bg, 8, 16, 100, 24), (189 - 100) / 8.0 - 3, 1e-9);
	/* Never above --max-time, never below the floor; no budget: --max-time. */
	T_CHECK_NEAR(lb_budget_share(&bg, 0, 1, 0, 0), 60, 1e-9);
	T_CHECK_NEAR(lb_budget_share(&bg, 15, 16, 260, 60), LB_BUDGET_MIN_SHARE, 1e-9);
	T_CHECK_NEAR(lb_budget_share(&none, 3, 16, 100, 10), 60, 1e-9);
	/* The set-up to expect: the mean of the groups before, a guess for the first. */
	T_CHECK_NEAR(lb_budget_setup(8, 24), 3, 1e-9);
	T_CHECK_NEAR(lb_budget_setup(0, 0), LB_BUDGET_SETUP_GUESS, 1e-9);
}

static void test_need(void)
{
	struct lb_alt_outcome o = outcome(16, 8, 2.0, 3);

	/* Twice as wide as asked: 4 times the units, 48 more at 0.5 s each, with the slack. */
	T_CHECK_NEAR(lb_budget_need(&o, 1.0), LB_BUDGET_TOPUP_SLACK * 48 * 0.5, 1e-9);
	/* Already there: nothing; no interval to project from: unknown. */
	T_CHECK(lb_budget_need(&o, 2.5) == 0);
	o.used = 1;
	T_CHECK(isinf(lb_budget_need(&o, 1.0)));
	/* Narrow enough but too few units: up to LB_ALT_MIN_UNITS. */
	o = outcome(8, 4, 0.5, 3);
	T_CHECK_NEAR(lb_budget_need(&o, 1.0), LB_BUDGET_TOPUP_SLACK * (LB_ALT_MIN_UNITS - 8) * 0.5,
		     1e-9);
}

static void test_topup(void)
{
	struct lb_budget bg = { .time_budget = 270, .max_time = 60, .target = 1.0 };
	struct lb_alt_outcome o[4];
	double s = -1;

	/* Reached (0), near (1), 10 units (2), 8 units and far (3). */
	o[0] = outcome(20, 10, 0.9, 3);
	o[1] = outcome(20, 10, 1.22, 3);
	o[2] = outcome(10, 12, 2.0, 3);
	o[3] = outcome(8, 14, 9.0, 3);
	/* A CI from fewer than 16 units first, the fewest first: 8 more at 1.75 s, x1.25. */
	T_CHECK(lb_budget_topup(&bg, o, 4, 80, &s) == 3);
	T_CHECK_NEAR(s, 17.5, 1e-9);
	o[3] = outcome(16, 31.5, 4.0, 3);
	T_CHECK(lb_budget_topup(&bg, o, 4, 60, &s) == 2);
	T_CHECK_NEAR(s, 9, 1e-9);
	o[2] = outcome(16, 21, 1.6, 3);
	/*
	 * Then the widest (3), with what brings it to the level the three
	 * still wide can reach together in 40 s: not all of it.
	 */
	T_CHECK(lb_budget_topup(&bg, o, 4, 40, &s) == 3);
	T_CHECK(s >= LB_BUDGET_MIN_SHARE && s < 40 - 3);
	/* With time for all, the level is the precision: its whole need, within --max-time. */
	bg.max_time = 1000;
	T_CHECK(lb_budget_topup(&bg, o, 4, 2000, &s) == 3);
	T_CHECK_NEAR(s, lb_budget_need(&o[3], 1.0), 1e-9);
	/* --max-time bounds a group's units in all: 31.5 + 28.5 = 60. */
	bg.max_time = 60;
	T_CHECK(lb_budget_topup(&bg, o, 4, 200, &s) == 3);
	T_CHECK_NEAR(s, 28.5, 1e-9);
	/*
	 * Two as wide, 10 s left: the level both reach (~2.84 pp) gives the
	 * wider 2.9 s, less than a re-arm buys: it gets that much.
	 */
	{
		struct lb_alt_outcome two[2] = { outcome(20, 20, 3.0, 3), outcome(20, 20, 2.9, 3) };

		T_CHECK(lb_budget_topup(&bg, two, 2, 10, &s) == 0);
		T_CHECK_NEAR(s, LB_BUDGET_MIN_SHARE, 1e-9);
	}
	/* Too little left for a re-arm and LB_BUDGET_MIN_SHARE of units: none. */
	T_CHECK(lb_budget_topup(&bg, o, 4, 5, &s) == -1);
	/* No budget (--time-budget 0): none either. */
	bg.time_budget = 0;
	T_CHECK(lb_budget_topup(&bg, o, 4, 100, &s) == -1);
}

static void test_finish(void)
{
	/*
	 * usdt in a default run: 15 units in 9.2 s at a cap of 3 x 3.07 s;
	 * the 16th takes 0.61 s, a re-arm about 4: go on.
	 */
	T_CHECK(lb_budget_finish(15, 16, 9.2, 9.2, 4.0));
	/* 8 units short at 1.2 s each: a re-arm costs less, stop. */
	T_CHECK(!lb_budget_finish(8, 16, 9.6, 9.6, 4.0));
	/* Gone on as far as a re-arm would cost, units dropped meanwhile: stop. */
	T_CHECK(!lb_budget_finish(15, 16, 13.3, 9.2, 4.0));
	/* Nothing short, nothing to project from, or no re-arm to weigh: stop. */
	T_CHECK(!lb_budget_finish(16, 16, 9.2, 9.2, 4.0));
	T_CHECK(!lb_budget_finish(0, 16, 9.2, 9.2, 4.0));
	T_CHECK(!lb_budget_finish(15, 16, 9.2, 9.2, 0));
}

int main(void)
{
	test_share();
	test_need();
	test_finish();
	test_topup();
	return t_exit();
}
