/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run command's options: what they parse into. Their rows (options.c)
 * say each one's argument, range, default and help.
 */
#ifndef LB_OPTIONS_H
#define LB_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "loadgen.h"
#include "run.h"
#include "tracer.h"

#define LB_SWEEP_MAX 16 /* values of one --sweep at most */

struct lb_options {
	char *command_line;	/* argv as given, joined before getopt and strtok touch it */
	const char *specs[LB_MAX_PROBESETS];
	int nspecs;
	double duration, warmup, sample_interval;
	int repeat;
	bool alternate;		/* --method alternate */
	bool method_given;	/* --method was given (else alternate when every tracer can) */
	double slice, settle, precision, max_time, time_budget;
	struct lb_workload_config wl;
	struct lb_tracer_opts topts;
	const char *output;
	bool force, no_plot, quiet;
	int style;		/* --style: enum lb_fig_style (plot.h) */
	bool skip_unavailable;	/* named probe sets that cannot run here are skipped */
	bool allow_concurrent;	/* measure beside another loadbench run (marked) */
	bool alone;		/* --alone: no sets added by 'compare-with' lines */
	bool addr_given;	/* --addr was given (else the workload's default) */
	bool window_given;	/* --window was given */
	bool count_pcap;	/* --count-with pcap */
	/* --sweep KEY=V1,V2,...: one measurement per value of a workload parameter. */
	const char *sweep_key;	/* the option varied, one whose row lets --sweep; NULL = none */
	int sweep_values[LB_SWEEP_MAX];
	int nsweep;
	/* --workload exec -- CMD [ARGS...] */
	char **exec_argv;	/* CMD and its arguments (in argv), NULL-terminated; NULL = none */
	bool exec_given;	/* they came after "--" */
	bool recipe;		/* --workload NAME is a recipe (workloads/NAME.workload) */
	const char *metric;	/* --metric REGEX; NULL = throughput is 1 / elapsed */
	bool metric_lower;	/* --metric-lower-is-better */
	double timeout;		/* --timeout: seconds a command's run may take */
	const char *server;	/* --server 'CMD ARGS': words split as a recipe's; NULL = none */
	char **server_argv;	/* a recipe's server, split; NULL = none (or --server's) */
	const char *ready;	/* --ready tcp:PORT | line:REGEX: when the server is ready */
	double ready_timeout;	/* --ready-timeout: seconds the server has to become ready */
};

/*
 * lb_options_sweep_apply - set the workload parameter @o->sweep_key to
 * @value in @o->wl. Returns nothing.
 */
void lb_options_sweep_apply(struct lb_options *o, int value);

/* What lb_options_parse() returns when an option asks for something else than a run. */
enum {
	LB_OPTIONS_HELP = 1,	/* --help */
	LB_OPTIONS_VERSION,	/* --version */
};

/*
 * lb_options_parse - parse @argv (argv[0] the program's or the command's
 * name) into @o, defaults first; the --probeset lists are split in place.
 * Stops at the first argument that is not an option (optind says where).
 * Returns 0, LB_OPTIONS_HELP or LB_OPTIONS_VERSION at that option, or
 * -EINVAL after saying what is wrong in one line.
 */
int lb_options_parse(int argc, char **argv, struct lb_options *o);

/* lb_options_help - the "Options:" list of --help, into @f. */
void lb_options_help(FILE *f);

/*
 * lb_help_wrap - @text after a left part that ended at column @col: its
 * words from column @indent on, in lines of at most @width columns (a left
 * part too wide starts the text on the next line).
 */
void lb_help_wrap(FILE *f, int col, int indent, int width, const char *text);

/*
 * lb_options_recipe - --workload names a recipe whose command is @argv,
 * metric @metric (NULL: none; --metric wins), server @server_argv and its
 * @ready (NULL: none; --server and --ready win): check @o as for
 * --workload exec. Returns 0 or -EINVAL (said).
 */
int lb_options_recipe(struct lb_options *o, char **argv, const char *metric, char **server_argv,
		      const char *ready);

/*
 * lb_options_double - option --@name's value @s as a number from @min to
 * @max into *@out. Returns 0, or -EINVAL after saying "--NAME 'S': expected
 * a number from MIN to MAX".
 */
int lb_options_double(const char *name, const char *s, double min, double max, double *out);

/* lb_options_join - @argv joined by spaces, allocated; NULL without memory. */
char *lb_options_join(int argc, char **argv);

#endif
