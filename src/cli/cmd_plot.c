// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench plot DIR: render the figures of a results directory (or of a --sweep's). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "figures.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "sweep.h"
#include "util.h"

/*
 * A --sweep's directory (sweep.json, no results.json): its figure. Returns
 * the exit status, or -ENOENT when @dir is not one (nothing said).
 */
static int plot_sweep(const char *dir, int style)
{
	struct lb_sweep *s = NULL;
	struct lb_plot *plot;
	char err[512] = "";
	int ret;

	ret = lb_sweep_dir_read(dir, &s, err, sizeof(err));
	if (ret == -ENOENT && !err[0])
		return -ENOENT;
	if (ret) {
		lb_err("%s", err);
		return 1;
	}
	plot = lb_figures_open(dir, true);
	if (plot)
		lb_plot_set_style(plot, style);
	ret = plot ? lb_figures_render_sweep(s, plot, dir) : -EPERM;
	lb_sweep_free(s);
	return ret ? 1 : 0;
}

int lb_cmd_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "style", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },	/* --help is main.c's, from its commands table */
	};
	struct lb_results *res = NULL;
	struct lb_plot *plot;
	int opt, ret, style = LB_FIG_LAB;
	const char *dir;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
			style = lb_figures_style(optarg);
			if (style < 0)
				return 2;
			break;
		default:
			lb_err("usage: loadbench plot [--style lab|paper|talk] DIR (a results directory)");
			return 2;
		}
	}
	if (argc - optind != 1) {
		lb_err("usage: loadbench plot [--style lab|paper|talk] DIR (a results directory)");
		return 2;
	}
	dir = argv[optind];
	ret = plot_sweep(dir, style);
	if (ret != -ENOENT)
		return ret;
	/* Before reading anything in it: a directory refused is refused first. */
	plot = lb_figures_open(dir, true);
	if (!plot)
		return 1;
	lb_plot_set_style(plot, style);
	if (lb_report_read(dir, &res)) {
		lb_plot_close(plot, NULL, 0);
		return 1;
	}
	ret = lb_figures_render(res, plot, dir, true);
	lb_results_free(res);
	return ret ? 1 : 0;
}
