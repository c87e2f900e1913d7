/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figures of a results directory, for the run and plot commands. */
#ifndef LB_FIGURES_H
#define LB_FIGURES_H

#include <stdbool.h>

struct lb_plot;
struct lb_results;

/*
 * lb_figures_open - open @dir for figures: the handle, or NULL when it
 * cannot be or is refused (said in one line: an error when @is_error, else
 * a warning that no figures were written).
 */
struct lb_plot *lb_figures_open(const char *dir, bool is_error);

/*
 * lb_figures_open_fd - the same for @dir, already open at @dirfd (a run's
 * results directory, checked when it was opened). Returns the handle or NULL.
 */
struct lb_plot *lb_figures_open_fd(int dirfd, const char *dir, bool is_error);

/*
 * lb_figures_render - write the figures of @res through @plot (a handle on
 * @dir, closed here) and render them. Returns 0 when they were rendered;
 * -ENOENT without gnuplot, another -errno when they could not be written or
 * rendered (each case said in one line on stderr, as an error when
 * @is_error, else as a warning).
 */
int lb_figures_render(const struct lb_results *res, struct lb_plot *plot, const char *dir,
		      bool is_error);

/*
 * lb_figures_style - the figure style named @name (--style), or -EINVAL after
 * saying in one line which there are.
 */
int lb_figures_style(const char *name);

struct lb_sweep;

/*
 * lb_figures_render_sweep - the sweep's figure (sweep.png, .svg, .pdf with
 * sweep.dat and sweep.gp) written through @plot (a handle on @dir, closed
 * here), a failure said in one warning. Returns 0, -ENOENT without gnuplot,
 * or another -errno.
 */
int lb_figures_render_sweep(const struct lb_sweep *s, struct lb_plot *plot, const char *dir);

#endif
