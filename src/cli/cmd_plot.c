// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench plot DIR: render the figures of a results directory. */
#include "commands.h"
#include "figures.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "util.h"

int lb_cmd_plot(int argc, char **argv)
{
	struct lb_results *res = NULL;
	struct lb_plot *plot;
	int ret;

	if (argc != 2) {
		lb_err("usage: loadbench plot DIR (a results directory)");
		return 2;
	}
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
