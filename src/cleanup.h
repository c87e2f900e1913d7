/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Leftovers: tracing state that a loadbench process which no longer runs
 * (SIGKILL, crash, power loss of the tracer but not the kernel) left behind.
 * Everything loadbench creates is named loadbench_<pid>, and a run lock
 * (owner.h) tells a dead run's names from a live one's, so what a dead run
 * left can be removed without touching anybody else's state.
 */
#ifndef LB_CLEANUP_H
#define LB_CLEANUP_H

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

/*
 * lb_cleanup_run - find the tracefs instances, dynamic events (kprobes,
 * uprobes), LTTng sessions and trace directories named loadbench_<pid>, and
 * the veth interfaces with that alias (--topology veth), of runs that are
 * dead by their run lock (owner.h); with @remove, remove them and then their
 * lock files. Names no lock proves dead are reported with LB_CLEANUP_LEFT and
 * left alone. @report (may be NULL) is called for each. Returns how many dead
 * runs' leftovers were found, or -errno (-ENODEV: no tracefs).
 */
int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg);

/*
 * lb_cleanup_pid - the same for the names of @pid alone, whose run lock the
 * caller holds or has just taken (a new run's leftovers of an earlier run
 * with its pid; the watchdog, for the run that died). Returns how many were
 * found, or -errno.
 */
int lb_cleanup_pid(pid_t pid, bool remove, lb_cleanup_report_fn report, void *arg);

#endif
