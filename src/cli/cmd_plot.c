// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench plot DIR: render the figures of a results directory (or of a --sweep's). */
#include <errno.h>

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
static int plot_sweep(const char *dir)
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
	ret = plot ? lb_figures_render_sweep(s, plot, dir) : -EPERM;
	lb_sweep_free(s);
	return ret ? 1 : 0;
}

int lb_cmd_plot(int argc, char **argv)
{
	struct lb_results *res = NULL;
	struct lb_plot *plot;
	int ret;

	if (argc != 2) {
		lb_err("usage: loadbench plot DIR (a results directory)");
		return 2;
	}
	ret = plot_sweep(argv[1]);
	if (ret != -ENOENT)
		return ret;
	/* Before reading anything in it: a directory refused is refused first. */
	plot = lb_figures_open(argv[1], true);
	if (!plot)
		return 1;
	if (lb_report_read(argv[1], &res)) {
		lb_plot_close(plot, NULL, 0);
		return 1;
	}
	ret = lb_figures_render(res, plot, argv[1], true);
	lb_results_free(res);
	return ret ? 1 : 0;
}
