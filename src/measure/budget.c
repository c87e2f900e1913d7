// SPDX-License-Identifier: GPL-2.0-or-later
/* --time-budget under --method alternate: the first pass's shares and the top-ups. */
#include <math.h>

#include "budget.h"
#include "run.h"

double lb_budget_setup(int g, double setup)
{
	return g > 0 ? setup / g : LB_BUDGET_SETUP_GUESS;
}

double lb_budget_share(const struct lb_budget *bg, int g, int ngroups, double elapsed,
		       double setup)
{
	double per_setup = lb_budget_setup(g, setup), share;

	if (!(bg->time_budget > 0))
		return bg->max_time;
	share = (LB_BUDGET_FIRST_PASS * bg->time_budget - elapsed) / (ngroups - g) - per_setup;
	if (share > bg->max_time)
		return bg->max_time;
	return share > LB_BUDGET_MIN_SHARE ? share : LB_BUDGET_MIN_SHARE;
}

bool lb_budget_finish(int used, int want, double elapsed, double cap, double setup)
{
	if (used < 1 || used >= want || !(elapsed > 0) || !(setup > 0))
		return false;
	return elapsed + (want - used) * elapsed / used <= cap + setup;
}

double lb_budget_need(const struct lb_alt_outcome *o, double hw)
{
	double units;

	if (o->used < 2 || !isfinite(o->widest) || !(o->units_s > 0) || !(hw > 0))
		return INFINITY;
	units = o->used * (o->widest / hw) * (o->widest / hw);
	if (units < LB_ALT_MIN_UNITS)
		units = LB_ALT_MIN_UNITS;
	if (units <= o->used)
		return 0;
	return LB_BUDGET_TOPUP_SLACK * (units - o->used) * o->units_s / o->used;
}

/*
 * The level the groups with room can all be brought to within @left seconds
 * (set-ups included), by bisection between bg->target and @hi.
 */
static double budget_level(const struct lb_budget *bg, const struct lb_alt_outcome *o,
			   const double *room, int ngroups, double left, double hi)
{
	double lo = bg->target;

	for (int it = 0; it < 50; it++) {
		double level = (lo + hi) / 2, cost = 0;

		for (int g = 0; g < ngroups; g++) {
			double need = room[g] > 0 ? lb_budget_need(&o[g], level) : 0;

			if (need > 0)
				cost += o[g].setup_s + (need < room[g] ? need : room[g]);
		}
		if (cost > left)
			lo = level;
		else
			hi = level;
	}
	return hi;
}

int lb_budget_topup(const struct lb_budget *bg, const struct lb_alt_outcome *o, int ngroups,
		    double left, double *seconds)
{
	double room[LB_MAX_PROBESETS], widest = 0;
	int pick = -1, fewest = LB_ALT_MIN_UNITS;

	if (!(bg->time_budget > 0) || ngroups < 1 || ngroups > LB_MAX_PROBESETS)
		return -1;
	/* What each group may still have: its --max-time, and what is left after a set-up. */
	for (int g = 0; g < ngroups; g++) {
		double need = lb_budget_need(&o[g], bg->target);

		room[g] = bg->max_time - o[g].units_s;
		if (left - o[g].setup_s < room[g])
			room[g] = left - o[g].setup_s;
		if (room[g] < LB_BUDGET_MIN_SHARE || !(need > 0) || !isfinite(need))
			room[g] = 0;
		/* First, a CI not to be trusted: the group with the fewest units, to LB_ALT_MIN_UNITS. */
		if (room[g] > 0 && o[g].used < fewest) {
			fewest = o[g].used;
			pick = g;
		}
	}
	if (pick >= 0) {
		*seconds = LB_BUDGET_TOPUP_SLACK * (LB_ALT_MIN_UNITS - o[pick].used) *
			   o[pick].units_s / o[pick].used;
	} else {
		/* Then the widest, to the level the widest can all reach together. */
		for (int g = 0; g < ngroups; g++) {
			if (room[g] > 0 && o[g].widest > widest) {
				widest = o[g].widest;
				pick = g;
			}
		}
		if (pick < 0)
			return -1;
		*seconds = lb_budget_need(&o[pick], budget_level(bg, o, room, ngroups, left, widest));
	}
	/* A re-arm buys LB_BUDGET_MIN_SHARE at least (its room has that much). */
	if (!(*seconds >= LB_BUDGET_MIN_SHARE))
		*seconds = LB_BUDGET_MIN_SHARE;
	if (*seconds > room[pick])
		*seconds = room[pick];
	return pick;
}
