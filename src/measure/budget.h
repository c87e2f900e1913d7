/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --time-budget under --method alternate: how much of it each group's
 * first alternation may take, and which group a top-up goes to after the
 * first pass. Plain arithmetic on what the alternations gave: no clock, no
 * kernel.
 */
#ifndef LB_BUDGET_H
#define LB_BUDGET_H

#include <stdbool.h>

#include "results.h"

/* The part of the budget the first pass shares out (every group in turn): results.h. */
#define LB_BUDGET_FIRST_PASS (LB_ALT_FIRST_PASS_PCT / 100.0)
/* The set-up seconds of a group assumed before one has been measured. */
#define LB_BUDGET_SETUP_GUESS 4.0
/* The least a group's share or a top-up may be (the 2 units a CI needs, a re-arm's worth). */
#define LB_BUDGET_MIN_SHARE 3.0
/* A top-up's time is the projected need times this: a projection from a CI is rough. */
#define LB_BUDGET_TOPUP_SLACK 1.25

/* What a group's alternations gave so far. */
struct lb_alt_outcome {
	int alternations;	/* how many the group had */
	double units_s;		/* seconds of units in all of them */
	double setup_s;		/* seconds outside the units in the last one (arm, plain slices...);
				 * before the first, what the groups before spent (an estimate) */
	int used;		/* units used in all of them */
	double widest;		/* the widest CI half-width over all of them (INFINITY: none) */
	int next_unit;		/* the number of the next alternation's first unit */
	double next_start;	/* and its first slice's start */
};

/* What the budget is shared by. */
struct lb_budget {
	double time_budget;	/* seconds for every group together (0: none) */
	double max_time;	/* seconds of units a group may have in all */
	double target;		/* the half-width at which a group stops (pp) */
};

/*
 * lb_budget_setup - the set-up seconds to expect of group @g, the groups
 * before it having spent @setup seconds outside their units: their mean,
 * or LB_BUDGET_SETUP_GUESS for the first.
 */
double lb_budget_setup(int g, double setup);

/*
 * lb_budget_share - the seconds of units group @g of @ngroups may take in
 * the first pass, started @elapsed seconds into the budget, the groups
 * before it having spent @setup seconds outside their units: an equal share
 * of what is left of the first pass's part after the set-up still to come,
 * so that a group that reached the precision early leaves its time to the
 * ones after it. Returns max_time without a budget; never more than it,
 * never less than LB_BUDGET_MIN_SHARE.
 */
double lb_budget_share(const struct lb_budget *bg, int g, int ngroups, double elapsed,
		       double setup);

/*
 * lb_budget_finish - whether a group's alternation, @used units in @elapsed
 * seconds and past its hard cap of @cap seconds, goes on to @want units:
 * when the units it lacks, at the rate it has had, end within @setup
 * seconds after the cap (what a top-up's re-arm for them would cost: a set
 * left at 15 units would be armed again for one). Returns true to go on.
 */
bool lb_budget_finish(int used, int want, double elapsed, double cap, double setup);

/*
 * lb_budget_need - the seconds of units @o would need more to reach
 * half-width @hw: a CI narrows as the square root of the units, at the rate
 * it has had, times LB_BUDGET_TOPUP_SLACK, LB_ALT_MIN_UNITS units in all at
 * least. Returns 0 when it is there, INFINITY when there is nothing to
 * project from (fewer than 2 units).
 */
double lb_budget_need(const struct lb_alt_outcome *o, double hw);

/*
 * lb_budget_topup - the group of @o[0..@ngroups) a top-up goes to when
 * @left seconds of the budget are left, and in *@seconds its seconds of
 * units at most. A group at bg->target has none; one may have max_time of
 * units in all; a top-up's set-up costs what the group's last alternation
 * did. First a group with fewer than LB_ALT_MIN_UNITS units (its CI is not
 * to be trusted), the fewest first, with what its rate says they take;
 * then the widest, with what brings it to the level the widest groups can
 * all reach together in what is left (water-filling: every group reaches
 * the target if the time allows, else the worst half-width is as small as
 * it can be); LB_BUDGET_MIN_SHARE at least. Returns the group, or -1 when
 * no top-up of LB_BUDGET_MIN_SHARE or more fits.
 */
int lb_budget_topup(const struct lb_budget *bg, const struct lb_alt_outcome *o, int ngroups,
		    double left, double *seconds);

#endif
