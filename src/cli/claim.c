// SPDX-License-Identifier: GPL-2.0-or-later
/* A run's claim: leftovers of dead runs said, the run lock taken, the watchdog started. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "claim.h"
#include "cleanup.h"
#include "owner.h"
#include "runs.h"
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

#define LB_CLAIM_SEEN 8	/* other runs named at most */

/* The other runs measuring when this one started, and this run's generation. */
static struct lb_run_seen seen[LB_CLAIM_SEEN];
static int nseen;
static unsigned long own_gen;

/* "pid N (since YYYY-MM-DD HH:MM:SS)", @n of @runs, and how many more, into @buf. */
static void runs_describe(const struct lb_run_seen *runs, int n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && i < LB_CLAIM_SEEN && off < len; i++) {
		char when[32];
		struct tm tm;

		localtime_r(&runs[i].since, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		off += snprintf(buf + off, len - off, "%spid %d (since %s)", i ? ", " : "",
				(int)runs[i].pid, when);
	}
	if (n > LB_CLAIM_SEEN && off < len)
		snprintf(buf + off, len - off, " and %d more", n - LB_CLAIM_SEEN);
}

/*
 * Another run measuring now: refused unless @allow. Returns 0, or -1 after
 * saying why in one line.
 */
static int claim_alone(bool allow)
{
	char err[1024], who[512];
	int n;

	if (geteuid() != 0)
		return 0;	/* no run lock without root: nothing to see others by */
	n = lb_runs_join(allow, seen, LB_CLAIM_SEEN, &own_gen, err, sizeof(err));
	if (n < 0) {
		lb_err("%s", err);
		return -1;
	}
	nseen = n;
	runs_describe(seen, n, who, sizeof(who));
	if (n && !allow) {
		lb_err("another loadbench run measures on this machine: %s; two at once each "
		       "measure the other's load: wait for it to end, or add --allow-concurrent "
		       "(both runs' results then say so)", who);
		return -1;
	}
	if (n)
		lb_warn("measuring beside another loadbench run (%s): --allow-concurrent; each "
			"slows the other, and both runs' results say so", who);
	return 0;
}

int lb_claim_beside(char *buf, size_t len)
{
	struct lb_run_seen runs[2 * LB_CLAIM_SEEN];
	int n = nseen < LB_CLAIM_SEEN ? nseen : LB_CLAIM_SEEN, later = 0;

	memcpy(runs, seen, (size_t)n * sizeof(runs[0]));
	if (own_gen)
		later = lb_runs_since(own_gen, runs + n, LB_CLAIM_SEEN);
	if (later < 0)
		later = 0;
	runs_describe(runs, n + (later < LB_CLAIM_SEEN ? later : LB_CLAIM_SEEN), buf, len);
	return nseen + later;
}

int lb_claim_take(bool allow_concurrent)
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
	if (claim_alone(allow_concurrent))
		return -1;
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
