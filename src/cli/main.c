// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadbench: how much does kernel tracing slow a busy workload?
 * The commands, and --help; each command is a file of its own.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "commands.h"
#include "options.h"
#include "report.h"
#include "util.h"

static int run(int argc, char **argv);

struct lb_command {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0]: the command's name, but see whole */
	const char *synopsis;	/* after "loadbench " in --help */
	const char *help;	/* one line, wrapped by --help */
	bool whole;		/* fn gets the whole command line (run, which may go unnamed,
				 * records it in results.json as given) */
};

static const struct lb_command commands[] = {
	{ "run", run, "[run] [OPTIONS]", "measure the baseline and probe sets", true },
	{ "list", lb_cmd_list, "list", "the probe-set catalog and what runs here", false },
	{ "plot", lb_cmd_plot, "plot DIR", "render the figures of a results directory", false },
	{ "report", lb_report_main, "report [--format markdown|latex|text|lines] DIR",
	  "print the summary of a results directory", false },
	{ "compare", lb_compare_main, "compare [-o OUT] DIR DIR...",
	  "draw several results directories side by side", false },
	{ "cleanup", lb_cmd_cleanup, "cleanup",
	  "remove what dead loadbench runs left (tracefs, LTTng, trace directories, veth): those "
	  "whose run lock in /run/loadbench is free", false },
	{ "stap-build", lb_cmd_stap_build, "stap-build [-r KBUILD] [-D N=V] -o DIR [SET...]",
	  "build the SystemTap modules of probe sets (default: the catalog's) for a kernel "
	  "build tree, for LOADBENCH_STAP_MODULES=DIR", false },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		int col = fprintf(f, "%s%s", i ? "       loadbench " : "Usage: loadbench ",
				  commands[i].synopsis);

		/* The commands' help from column 36, as wide as it always was. */
		lb_help_wrap(f, col, 36, 82, commands[i].help);
	}
	fprintf(f, "\nMeasures how much each probe set (a tracer and the probes it enables) slows a\n"
		   "loopback request/response workload: throughput slowdown with a 95%% confidence\n"
		   "interval, events recorded and lost, and the cost per event.\n\nOptions:\n");
	lb_options_help(f);
	fprintf(f, "\nNeeds root to trace (tracefs). Example: sudo loadbench --probeset ftrace,syscalls\n"
		   "Exit status: 0 done, 1 error or failed run, 2 usage error (an option's value\n"
		   "too), 128+N interrupted by signal N (130 Ctrl-C, 143 SIGTERM): partial results\n"
		   "written, kernel state removed.\n"
		   "See loadbench(1) and README.md for the probe-set format and the method.\n");
}

/* The run command: its options (--help and --version among them), then the run. */
static int run(int argc, char **argv)
{
	int shift = argc > 1 && !strcmp(argv[1], "run");
	struct lb_options o;
	int ret;

	/* Joined first: parsing splits the --probeset lists in place. */
	char *cmdline = lb_options_join(argc, argv);

	if (!cmdline) {
		lb_err("out of memory");
		return 1;
	}
	ret = lb_options_parse(argc - shift, argv + shift, &o);
	if (ret == LB_OPTIONS_HELP) {
		usage(stdout);
		ret = 0;
	} else if (ret == LB_OPTIONS_VERSION) {
		printf("loadbench %s\n", PACKAGE_VERSION);
		ret = 0;
	} else if (ret) {
		ret = 2;
	} else if (optind + shift < argc) {
		char q[LB_STR_SHORT_BUF];

		lb_err("unexpected argument '%s' (see loadbench --help)",
		       lb_str_short(argv[optind + shift], q, sizeof(q)));
		ret = 2;
	} else {
		o.command_line = cmdline;
		ret = lb_cmd_run(&o);
	}
	free(cmdline);
	return ret;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : "run";

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, commands[i].name))
			continue;
		if (commands[i].whole)
			return commands[i].fn(argc, argv);
		return commands[i].fn(argc - 1, argv + 1);
	}
	{
		char names[256] = "", q[LB_STR_SHORT_BUF];
		size_t off = 0;

		for (size_t i = 0; i < NCOMMANDS; i++)
			off += snprintf(names + off, sizeof(names) - off, "%s%s",
					!i ? "" : i + 1 < NCOMMANDS ? ", " : " or ",
					commands[i].name);
		lb_err("unknown command '%s': expected %s (see loadbench --help)",
		       lb_str_short(name, q, sizeof(q)), names);
	}
	return 2;
}
