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

struct lb_cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);	/* argv[0]: the command's name, but see whole */
	const char *synopsis;	/* after "loadbench " in --help */
	const char *help;	/* one line, wrapped by --help */
	bool whole;		/* fn gets the whole command line (run, which may go unnamed,
				 * records it in results.json as given) */
	const char *details;	/* `loadbench NAME --help' after its synopsis, wrapped at 80 */
};

static const struct lb_cli_command commands[] = {
	{ "run", run, "[run] [OPTIONS]", "measure the baseline and probe sets", true, NULL },
	{ "list", lb_cmd_list, "list", "the probe-set catalog and what runs here", false,
	  "Print every probe set of the catalog with its tracer and description, and\n"
	  "whether it runs on this machine or the exact reason it cannot.\n" },
	{ "plot", lb_cmd_plot, "plot [--style lab|paper|talk] DIR",
	  "render the figures of a results directory", false,
	  "Render the figures of the results directory DIR again (of a --sweep's\n"
	  "directory: the sweep figure): NAME.png, .svg and .pdf beside NAME.gp,\n"
	  "NAME.dat and the caption NAME.caption.txt and .tex; without gnuplot, the\n"
	  "files but the images (exit 1). --style: lab (the default: a screen, the\n"
	  "provenance in a footer), paper (3.3 in wide, 7 in for small multiples,\n"
	  "8 pt type, no footer: the captions say it) or talk (16:9 slides).\n" },
	{ "report", lb_cmd_report, "report [--format markdown|latex|text|lines] DIR",
	  "print the summary of a results directory", false,
	  "Print the summary of the results directory DIR: a Markdown table (default),\n"
	  "a LaTeX booktabs table, the text table, or one line per probe set. A --sweep's\n"
	  "directory (sweep.json): its points and, per set, the line through them.\n" },
	{ "compare", lb_cmd_compare,
	  "compare [-o OUT] [--force] [--no-plot] [--style lab|paper|talk] DIR DIR...\n"
	  "       loadbench compare --baseline BASE [--fail-above PP] [--format lines|markdown]\n"
	  "         [--force] DIR...",
	  "draw several results directories side by side, or gate DIR... on BASE", false,
	  "Draw the slowdown of every probe set in the results directories DIR... side\n"
	  "by side (compare.png, .svg, .pdf with compare.dat and compare.gp in OUT,\n"
	  "default ./loadbench-compare-DATE-TIME; a non-empty OUT needs --force) and\n"
	  "print a Markdown table.\n"
	  "With --baseline, the regression gate instead: for each probe set in BASE and\n"
	  "DIR, the change in slowdown (and in ns/event) with a 95% CI of the change\n"
	  "(each run resampled on its own, as its own CI was), and a verdict: worse or\n"
	  "better (the CI leaves 0 out and the change is beyond PP, default 2 pp),\n"
	  "unchanged (the CI inside +-PP) or inconclusive (with the CI that would tell).\n"
	  "One line per set (lines, default) or a Markdown table for a pull request.\n"
	  "Runs of another workload, kernel or method are refused unless --force.\n"
	  "Exit status: 0 no set worse, 1 a set worse, 2 an error.\n" },
	{ "export", lb_cmd_export,
	  "export --format kcidb|benchmark-action|lava|junit [-o FILE] [--force]\n"
	  "         [--origin NAME] [--build-id ID] [--baseline BASE [--fail-above PP]] DIR",
	  "write a results directory's numbers for a CI system (KCIDB, "
	  "github-action-benchmark, LAVA, JUnit)", false,
	  "Write the numbers of the results directory DIR in a format a CI system reads,\n"
	  "on standard output or into FILE (- for standard output; written whole, an\n"
	  "existing FILE replaced only with --force, a symbolic link never): kcidb, a\n"
	  "KCIDB v5 document, a test per probe set at loadbench.WORKLOAD.SET with its\n"
	  "slowdown as its number (--origin: your CI system's KCIDB origin, default\n"
	  "loadbench; --build-id ORIGIN:ID: the build the tests ran on, else a checkout\n"
	  "and a build that stand for the kernel); benchmark-action, github-action-\n"
	  "benchmark's customSmallerIsBetter JSON (each set's slowdown and ns/event,\n"
	  "of a complete run only); lava, a lava-test-case line per set; junit, JUnit\n"
	  "XML, a testcase per set. With --baseline BASE (junit only), a set worse than\n"
	  "in BASE by more than PP percentage points (default 2) with 95% confidence is\n"
	  "a failure; runs not measured alike are refused unless --force.\n"
	  "Exit status: 0 written, 1 an error, 2 a usage error.\n" },
	{ "cleanup", lb_cmd_cleanup, "cleanup",
	  "remove what dead loadbench runs left (tracefs, LTTng, trace directories, veth): those "
	  "whose run lock in /run/loadbench is free", false,
	  "Remove what dead loadbench runs left behind (tracefs instances, dynamic\n"
	  "events, LTTng sessions and trace directories, SystemTap modules and\n"
	  "directories, veth pairs): those whose run lock in /run/loadbench is free.\n"
	  "Says what it removed and what it left alone, and why. Needs root.\n" },
	{ "stap-build", lb_cmd_stap_build,
	  "stap-build [-r KBUILD] [-R RUNTIME] [-D N=V]... -o DIR [SET...]",
	  "build the SystemTap modules of probe sets (default: the catalog's) for a kernel "
	  "build tree, for LOADBENCH_STAP_MODULES=DIR", false,
	  "Builds the SystemTap module of each probe set SET (default: the catalog's sets\n"
	  "of tracer systemtap) into DIR/NAME.ko with stap -p4, for the kernel build tree\n"
	  "KBUILD (default: the running kernel's; stap finds the headers' include tree\n"
	  "in its sibling source/ and the symbols in its System.map, where the names\n"
	  "of that kernel's /proc/kallsyms are enough), each -D N=V passed to stap, and\n"
	  "-R a SystemTap runtime to build with (fixes for a kernel this stap does not\n"
	  "know; not part of NAME). Run loadbench with LOADBENCH_STAP_MODULES=DIR to\n"
	  "load them.\n" },
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
		   "written, kernel state removed. Every command takes -h, --help: its usage.\n"
		   "See loadbench(1), doc/probesets.md (the probe-set format) and doc/method.md.\n");
}

/*
 * Whether a command's arguments @argv (not its name) ask for its help:
 * -h or --help before a "--" that ends its options.
 */
static bool help_asked(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
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
		/* Every command's --help is said here, from this table: one text each. */
		if (help_asked(argc - 2, argv + 2)) {
			printf("Usage: loadbench %s\n%s", commands[i].synopsis, commands[i].details);
			return 0;
		}
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
