/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The orchestrator: baseline and probe sets interleaved over N rounds, each
 * run a warm-up then a measured window, tracer snapshots and workload
 * counter reads taken at the same instants.
 */
#ifndef LB_RUN_H
#define LB_RUN_H

#include <regex.h>
#include <stdbool.h>

/*
 * --time-budget's default: the default run (14 sets here) finishes within
 * 5 minutes, plots included.
 */
#define LB_TIME_BUDGET_DEFAULT 270

/* Probe sets one invocation measures at most. */
#define LB_MAX_PROBESETS 64

/*
 * --method alternate: past --max-time an alternation goes on until 2 units
 * are used (not dropped), but stops at the end of the unit that passes this
 * many times --max-time, with or without them.
 */
#define LB_ALT_MAX_TIME_HARD 3

struct lb_command;
struct lb_pcap_count;
struct lb_plan;
struct lb_results;
struct lb_workload;

/*
 * --workload exec: the command (loadgen's command.h) each run executes to
 * completion, where its output goes, and how a run's throughput is read.
 */
struct lb_bench_exec {
	struct lb_command *command;
	int outdir_fd;			/* DIR/output: SET-ROUND.out and .err per run */
	char *outdir;			/* its path, for messages */
	double timeout;			/* seconds a run may take before it is killed */
	char *metric_src;		/* --metric; NULL: throughput = 1 / elapsed seconds */
	regex_t metric;			/* compiled (REG_EXTENDED), with metric_src */
};

/*
 * lb_bench_exec_open - @x for @argv (pinned to @cpus[0..1], -1 = none):
 * the command checked, DIR/output made in @dir, @metric compiled (NULL:
 * none). Returns 0, or -errno after one line naming the cause and the fix
 * in @err.
 */
int lb_bench_exec_open(struct lb_bench_exec *x, char *const *argv, const int *cpus,
		       const char *dir, const char *metric, double timeout, char *err, size_t len);

/* lb_bench_exec_close - release what lb_bench_exec_open() made (not the files). */
void lb_bench_exec_close(struct lb_bench_exec *x);

/* lb_bench_exec_describe - "exec /bin/CMD ARGS... (unpinned)" into @buf; returns @buf. */
char *lb_bench_exec_describe(const struct lb_bench_exec *x, char *const *argv, const int *cpus,
			     char *buf, size_t len);

struct lb_bench {
	struct lb_workload *workload;	/* NULL with exec */
	const struct lb_bench_exec *exec; /* --workload exec; NULL otherwise */
	const struct lb_plan *plan;	/* the tracer of each results->probesets[i] (plan.h) */
	double duration;		/* measured seconds per run */
	double warmup;			/* seconds before the measured window */
	double sample_interval;		/* seconds per throughput sample */
	int repeat;			/* rounds */
	bool progress;			/* live progress line on stderr, when it is a tty */
	volatile int *stop;		/* set by a signal handler: finish cleanly now */
	struct lb_pcap_count *pcap;	/* --count-with pcap: read at the window's edges; or NULL */
	/* --method alternate (alternate true): */
	bool alternate;
	double slice;			/* measured seconds per slice */
	double settle;			/* seconds after each switch before a slice is measured */
	double precision;		/* stop once every CI half-width is this narrow (pp) */
	double max_time;		/* seconds of alternation per group at most */
	double time_budget;		/* seconds for every group together (0: none) */
};

/*
 * lb_bench_groups - the alternation groups of @res's probe sets: a set alone,
 * or a set with every set whose compare-with names it (alternated together,
 * so that each is paired with its base). group[i] gets the group number of
 * probe set i, 0-based in order of first appearance. Returns the number of
 * groups.
 */
int lb_bench_groups(const struct lb_results *res, int *group);

/*
 * lb_bench_run - measure: for every round, the baseline then each probe
 * set, appending one run each to @res. On an interrupt (*stop set) the
 * current run is abandoned and the workload stopped; the runs so far stay in
 * @res and res->complete is false. Every tracer is disarmed on return. With
 * b->alternate, each group (lb_bench_groups()) is measured in one running
 * workload instead: a plain baseline run, then the group's tracers armed and
 * switched between off and each set in units of mirrored slices until every
 * CI is b->precision narrow or b->max_time has passed (or, with
 * b->time_budget, the group's share of what is left of it).
 * Returns 0, -EINTR when interrupted, or -errno with a message in @err.
 */
int lb_bench_run(const struct lb_bench *b, struct lb_results *res, char *err, size_t len);

#endif
