// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures of a results directory: opened, written and rendered, each failure said once. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "figures.h"
#include "gnuplot.h"
#include "plot.h"
#include "util.h"

/*
 * After the figures' files were written through @plot (@ret: how that
 * went, @err: why not): render them, move them into @dir, free @plot, each
 * failure said once through @say. Returns the first failure, or 0.
 */
static int lb_figures_finish(struct lb_plot *plot, int ret, char *err, size_t errlen,
			     const char *dir, void (*say)(const char *fmt, ...))
{
	int cret;

	if (ret) {
		say("figures not written: %s", err);
	} else {
		ret = lb_plot_render(plot, err, errlen);
		if (ret == -ENOENT)
			lb_gnuplot_say_missing(say, err, dir, NULL);
		else if (ret)
			say("gnuplot failed to render the figures in %s: %s", dir, err);
	}
	cret = lb_plot_close(plot, err, errlen);
	if (cret) {
		say("figures not written: %s", err);
		if (!ret || ret == -ENOENT)
			ret = cret;
	}
	return ret;
}

int lb_figures_render(const struct lb_results *res, struct lb_plot *plot, const char *dir,
		      bool is_error)
{
	char tdir[PATH_MAX], err[512];
	int ret;

	ret = lb_plot_write(plot, res, lb_datadir("plots", tdir, sizeof(tdir)), err, sizeof(err));
	return lb_figures_finish(plot, ret, err, sizeof(err), dir, is_error ? lb_err : lb_warn);
}

int lb_figures_render_sweep(const struct lb_sweep *s, struct lb_plot *plot, const char *dir)
{
	char tdir[PATH_MAX], err[512];
	int ret;

	ret = lb_plot_write_sweep(plot, s, lb_datadir("plots", tdir, sizeof(tdir)), err,
				  sizeof(err));
	return lb_figures_finish(plot, ret, err, sizeof(err), dir, lb_warn);
}

/* The handle of lb_figures_open() or, for @dirfd >= 0, of lb_figures_open_fd(). */
static struct lb_plot *figures_open(int dirfd, const char *dir, bool is_error)
{
	struct lb_plot *plot;
	char err[1024];

	if (dirfd >= 0 ? lb_plot_open_fd(dirfd, dir, &plot, err, sizeof(err)) :
	    lb_plot_open(dir, &plot, err, sizeof(err))) {
		if (is_error)
			lb_err("%s", err);
		else
			lb_warn("figures not written: %s", err);
		return NULL;
	}
	return plot;
}

struct lb_plot *lb_figures_open(const char *dir, bool is_error)
{
	return figures_open(-1, dir, is_error);
}

struct lb_plot *lb_figures_open_fd(int dirfd, const char *dir, bool is_error)
{
	return figures_open(dirfd, dir, is_error);
}

int lb_figures_style(const char *name)
{
	int style = lb_fig_style_parse(name);

	if (style < 0)
		lb_err("--style '%s': choose lab (a screen; the default, with the provenance in "
		       "a footer), paper (3.3 in, 8 pt type, captions in NAME.caption.txt/.tex) "
		       "or talk (16:9 slides)", name);
	return style;
}
