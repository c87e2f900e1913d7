// SPDX-License-Identifier: GPL-2.0-or-later
/* A run's claim: leftovers of dead runs said, the run lock taken, the watchdog started. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "claim.h"
#include "cleanup.h"
#include "owner.h"
#include "util.h"
#include "watchdog.h"

/* A dead run's leftover, at a run's start: said, left for `loadbench cleanup'. */
static void report_leftover(const char *what, int err, void *arg)
{
	(void)arg;
	/* Said by cleanup; a run leaves it be without a word on every start. */
	if (err == LB_CLEANUP_LEFT || err == LB_CLEANUP_FOREIGN)
		return;
	lb_warn("%s was left by a loadbench that no longer runs: remove it with "
		"'loadbench cleanup'", what);
}

/* The first name bearing this run's pid that no dead run's lock explains. */
static void report_first(const char *what, int err, void *arg)
{
	char *first = arg;

	if (!first[0] && err != LB_CLEANUP_FOREIGN)
		snprintf(first, 256, "%s", what);
}

static void report_own_leftover(const char *what, int err, void *arg)
{
	(void)arg;
	if (err == LB_CLEANUP_FOREIGN)
		lb_warn("%s bears this run's pid but is not as loadbench makes it: left alone", what);
	else if (err)
		lb_warn("%s was left by an earlier loadbench with this pid and cannot be removed: "
			"%s", what, strerror(-err));
	else
		lb_warn("removed %s, left by an earlier loadbench that had this pid", what);
}

int lb_claim_take(void)
{
	char first[256] = "", err[1024];
	bool earlier;
	int n, ret;

	lb_cleanup_run(false, report_leftover, NULL);
	ret = lb_owner_claim(&earlier, err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		return -1;
	}
	/*
	 * Nothing is ours yet. With the lock file there before us, what
	 * bears our pid is a dead run's that had it; without, it may be a
	 * live run's in another pid namespace that does not share /run.
	 */
	if (earlier) {
		lb_cleanup_pid(getpid(), true, report_own_leftover, NULL);
	} else if ((n = lb_cleanup_pid(getpid(), false, report_first, first)) > 0) {
		lb_err("%s bears this run's pid (loadbench_%d), and no run lock proves the "
		       "run that made it dead (a loadbench with this pid in a container "
		       "that does not share %s?): left alone; start this run with another "
		       "pid, or remove it by hand if you know its run is gone", first,
		       (int)getpid(), LB_OWNER_DIR);
		return -1;
	}
	ret = lb_watchdog_start(err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		return -1;
	}
	return 0;
}

void lb_claim_release(void)
{
	lb_watchdog_stop();
	lb_owner_release(geteuid() == 0 && lb_cleanup_pid(getpid(), false, NULL, NULL) > 0);
}
