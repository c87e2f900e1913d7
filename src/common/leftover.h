/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the walkers that find a dead run's leftovers share: how they report
 * each one, and the test that takes a name as a dead run's (owner.h). Each
 * layer that creates shared state walks its own (the tracers their
 * sessions and trace directories, loadgen its veth pairs); bench/cleanup.c
 * calls them all.
 */
#ifndef LB_LEFTOVER_H
#define LB_LEFTOVER_H

#include <stdbool.h>
#include <sys/types.h>

#include "owner.h"

/* A report's @err for a name no run lock proves dead: left alone. */
#define LB_CLEANUP_LEFT 1
/* A report's @err for a dead run's name on what loadbench does not make (another user's). */
#define LB_CLEANUP_FOREIGN 2

/* Called for each leftover: @what names it ("tracefs instance loadbench_123"); @err is
 * 0, the -errno of a failed removal (0 when not removing), LB_CLEANUP_LEFT or
 * LB_CLEANUP_FOREIGN. */
typedef void (*lb_cleanup_report_fn)(const char *what, int err, void *arg);

/*
 * lb_cleanup_take - for the walkers: true when @name (@what describes it) is
 * a dead run's in @o, its pid into *@pid; an unproven one is reported with
 * LB_CLEANUP_LEFT.
 */
static inline bool lb_cleanup_take(struct lb_owners *o, const char *name, const char *what,
				   pid_t *pid, lb_cleanup_report_fn report, void *arg)
{
	switch (lb_owners_judge(o, name, pid)) {
	case LB_OWNER_DEAD:
		return true;
	case LB_OWNER_UNPROVEN:
		if (report)
			report(what, LB_CLEANUP_LEFT, arg);
		return false;
	default:
		return false;
	}
}

#endif
