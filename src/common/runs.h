/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which loadbench runs measure on this machine now. Two runs at once each
 * measure the other's load (events per operation and baselines both wrong),
 * so a run that finds another refuses unless told to go on, and then both
 * runs' results say so. The record is LB_OWNER_DIR/runs, one line per run
 * that went on ("GENERATION PID START"), read and written under the "runs"
 * mutex; a line is live while its run's lock is held (owner.h). Root only,
 * as the run locks are.
 */
#ifndef LB_RUNS_H
#define LB_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct lb_run_seen {
	pid_t pid;
	time_t since;		/* when it started measuring */
};

/*
 * lb_runs_join - the other runs measuring now into @runs (at most @max;
 * the count is returned even when more); unless there are some and
 * !@allow, this run (which holds its run lock) is recorded among them and
 * its generation put in *@gen. Returns the number of other runs (0: this
 * one is alone), or -errno with a reason in @err.
 */
int lb_runs_join(bool allow, struct lb_run_seen *runs, int max, unsigned long *gen, char *err,
		 size_t len);

/*
 * lb_runs_since - the runs recorded after generation @gen (that started
 * while the run of @gen measured, whether they still run or not) into
 * @runs (at most @max). Returns their number, or -errno.
 */
int lb_runs_since(unsigned long gen, struct lb_run_seen *runs, int max);

#endif
