/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Figures: write the .dat data and .gp script of each figure into a results
 * directory (from the templates in plots/) and render them with gnuplot.
 */
#ifndef LB_PLOT_H
#define LB_PLOT_H

#include <stddef.h>

struct lb_results;

/*
 * lb_plot_write - write slowdown.dat and slowdown.gp (the template from
 * @template_dir with a generated header of titles) into @dir. No gnuplot
 * needed. Returns 0 or -errno with a message in @err.
 */
int lb_plot_write(const struct lb_results *res, const char *dir, const char *template_dir,
		  char *err, size_t errlen);

/*
 * lb_plot_render - run gnuplot on every .gp script lb_plot_write() wrote in
 * @dir (working directory @dir, no shell). Returns 0; -ENOENT when gnuplot
 * is not installed; -EIO when gnuplot failed (its first error line in @err).
 */
int lb_plot_render(const char *dir, char *err, size_t errlen);

#endif
