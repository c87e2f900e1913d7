/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The commands of loadbench, one file each, cmd_NAME.c. Each returns the process's exit status: 0 done, 1
 * error, 2 usage error.
 */
#ifndef LB_COMMANDS_H
#define LB_COMMANDS_H

struct lb_options;

/*
 * lb_cmd_run - measure the baseline and the probe sets @o names. Returns 0,
 * 1 (an error, a failed or incomplete run), or 128 + N when interrupted by
 * signal N.
 */
int lb_cmd_run(struct lb_options *o);

/* lb_cmd_list - the probe-set catalog and what runs here (arguments ignored). Returns 0 or 1. */
int lb_cmd_list(int argc, char **argv);

/* lb_cmd_plot - render the figures of the results directory argv[1]. Returns 0, 1 or 2. */
int lb_cmd_plot(int argc, char **argv);

/* lb_cmd_cleanup - remove what dead runs left (root; no arguments). Returns 0, 1 or 2. */
int lb_cmd_cleanup(int argc, char **argv);

/*
 * lb_cmd_stap_build - build SystemTap modules of probe sets for a kernel
 * build tree ('loadbench stap-build [-r KBUILD] -o DIR [SET...]'). Returns
 * 0, 1 (a build failed) or 2 (usage).
 */
int lb_cmd_stap_build(int argc, char **argv);

/*
 * lb_cmd_report - 'loadbench report [--format F] DIR' (@argv[0] is
 * "report"): the summary of a results directory, or a sweep's, on stdout.
 * Returns 0, 1 on an error, 2 on a usage error.
 */
int lb_cmd_report(int argc, char **argv);

/*
 * lb_cmd_compare - 'loadbench compare [-o OUT] [--force] [--no-plot]
 * [--style S] DIR DIR...' (@argv[0] is "compare"): the figure and a
 * table. Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int lb_cmd_compare(int argc, char **argv);

/*
 * lb_cmd_export - 'loadbench export --format FORMAT [-o FILE] [--force]
 * [--origin NAME] [--build-id ID] [--baseline BASE [--fail-above PP]] DIR'
 * (@argv[0] is "export"): DIR's numbers for a CI system, on stdout or in
 * FILE. Returns the exit status: 0, 1 on an error, 2 on a usage error.
 */
int lb_cmd_export(int argc, char **argv);

#endif
