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

/*
 * --method alternate: how long past a planned sleep (0 for a switch, an
 * arm) the workload waits for loadbench before it naps (lb_workload_expect()).
 * Above the slowest switch seen here (bpf off: 1.4 s median, a grace period).
 */
#define LB_ALT_OVERDUE 3.0

struct lb_command;
struct lb_pcap_count;
struct lb_plan;
struct lb_results;
struct lb_workload;

/*
 * --workload exec: the command (loadgen's command.h) each run executes to
 * completion, where its output goes, and how a run's throughput is read;
 * with a server, the long-lived process it talks to.
 */
struct lb_measure_exec {
	struct lb_command *command;
	int outdir_fd;			/* DIR/output: SET-ROUND.out and .err per run */
	char *outdir;			/* its path, for messages */
	double timeout;			/* seconds a run may take before it is killed */
	char *metric_src;		/* --metric; NULL: throughput = 1 / elapsed seconds */
	regex_t metric;			/* compiled (REG_EXTENDED), with metric_src */
	bool metric_lower;		/* lower is better: throughput = 1 / the metric */
	struct lb_command *server;	/* --server, running from open to close; or NULL */
	int server_fd[2];		/* its output/server.out and .err */
	char **argv[2];			/* the command's and the server's words, {output} filled */
};

/* What lb_measure_exec_open() starts from. */
struct lb_measure_exec_config {
	char *const *argv;		/* the command and its arguments; no shell */
	int cpus[2];			/* CPUs for the command and the server (-1 = none) */
	const char *dir;		/* the results directory, for {output} and messages */
	int dirfd;			/* it, open: DIR/output is made there */
	const char *metric;		/* --metric, or NULL */
	bool metric_lower;		/* --metric-lower-is-better: throughput = 1 / it */
	double timeout;			/* --timeout, seconds */
	char *const *server_argv;	/* --server's words, or NULL for none */
	const char *ready;		/* --ready: "tcp:PORT" or "line:REGEX" (with a server) */
	double ready_timeout;		/* seconds the server has to become ready */
	volatile int *stop;		/* set by a signal: stop waiting for the server */
};

/*
 * lb_measure_exec_open - @x for @cfg: the command checked, DIR/output made,
 * the metric compiled, "{output}" in any word replaced by DIR/output, and
 * the server (if any) started and waited for until ready. Returns 0, or
 * -errno after one line naming the cause and the fix in @err (-EINTR when
 * *stop was set while waiting for the server).
 */
int lb_measure_exec_open(struct lb_measure_exec *x, const struct lb_measure_exec_config *cfg,
		       char *err, size_t len);

/* lb_measure_exec_close - release what lb_measure_exec_open() made (not the files). */
void lb_measure_exec_close(struct lb_measure_exec *x);

/*
 * lb_measure_exec_describe - "exec /bin/CMD ARGS... (unpinned)", and
 * "; server /bin/SERVER ARGS..." with one, into @buf; returns @buf.
 */
char *lb_measure_exec_describe(const struct lb_measure_exec *x, const int *cpus, char *buf,
			     size_t len);

struct lb_measure {
	struct lb_workload *workload;	/* NULL with exec */
	const struct lb_measure_exec *exec; /* --workload exec; NULL otherwise */
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
 * lb_measure_groups - the alternation groups of @res's probe sets: a set alone,
 * or a set with every set whose compare-with names it (alternated together,
 * so that each is paired with its base). group[i] gets the group number of
 * probe set i, 0-based in order of first appearance. Returns the number of
 * groups.
 */
int lb_measure_groups(const struct lb_results *res, int *group);

/*
 * lb_measure_run - measure: for every round, the baseline then each probe
 * set, appending one run each to @res. On an interrupt (*stop set) the
 * current run is abandoned and the workload stopped; the runs so far stay in
 * @res and res->complete is false. Every tracer is disarmed on return. With
 * b->alternate, each group (lb_measure_groups()) is measured in one running
 * workload instead: a plain baseline run, then the group's tracers armed and
 * switched between off and each set in units of mirrored slices until every
 * CI is b->precision narrow or b->max_time has passed (or, with
 * b->time_budget, the group's share of what is left of it).
 * Returns 0, -EINTR when interrupted, or -errno with a message in @err.
 */
int lb_measure_run(const struct lb_measure *b, struct lb_results *res, char *err, size_t len);

#endif
