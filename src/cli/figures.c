// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures of a results directory: opened, written and rendered, each failure said once. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "figures.h"
#include "gnuplot.h"
#include "plot.h"
#include "util.h"

int lb_figures_render(const struct lb_results *res, struct lb_plot *plot, const char *dir,
		      bool is_error)
{
	void (*say)(const char *fmt, ...) = is_error ? lb_err : lb_warn;
	char tdir[PATH_MAX], err[512];
	int ret, cret;

	ret = lb_plot_write(plot, res, lb_datadir("plots", tdir, sizeof(tdir)), err, sizeof(err));
	if (ret) {
		say("figures not written: %s", err);
	} else {
		ret = lb_plot_render(plot, err, sizeof(err));
		if (ret == -ENOENT)
			lb_gnuplot_say_missing(say, err, dir, NULL);
		else if (ret)
			say("gnuplot failed to render the figures in %s: %s", dir, err);
	}
	cret = lb_plot_close(plot, err, sizeof(err));
	if (cret) {
		say("figures not written: %s", err);
		if (!ret || ret == -ENOENT)
			ret = cret;
	}
	return ret;
}

struct lb_plot *lb_figures_open(const char *dir, bool is_error)
{
	struct lb_plot *plot;
	char err[1024];

	if (lb_plot_open(dir, &plot, err, sizeof(err))) {
		if (is_error)
			lb_err("%s", err);
		else
			lb_warn("figures not written: %s", err);
		return NULL;
	}
	return plot;
}
