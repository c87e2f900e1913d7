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
 * lb_plot_write - write the figures' data and scripts into @dir: slowdown,
 * throughput (over time, every run; under --method alternate every slice,
 * on and off, from the template throughput-alternate.gp) and cost (per
 * event, events per operation), each as NAME.dat and NAME.gp (the template
 * @template_dir/NAME.gp after a generated header of titles). No gnuplot
 * needed. Returns 0 or -errno with a message in @err.
 */
int lb_plot_write(const struct lb_results *res, const char *dir, const char *template_dir,
		  char *err, size_t errlen);

/*
 * lb_plot_write_compare - write compare.dat and compare.gp into @dir: the
 * slowdown of every probe set in each of the @n results @res (labelled
 * @labels[i] in the legend, which should name what differs between them)
 * as grouped bars; @common (what they all share, or NULL) goes in the
 * footer. Returns 0 or -errno with a message in @err.
 */
int lb_plot_write_compare(const struct lb_results *const *res, const char *const *labels,
			  size_t n, const char *common, const char *dir, const char *template_dir,
			  char *err, size_t errlen);

/*
 * lb_plot_render - run gnuplot on every figure script (slowdown.gp,
 * throughput.gp, cost.gp, compare.gp) that is in @dir (working directory
 * @dir, no shell). Returns 0; -ENOENT when gnuplot is not installed; -EIO
 * when there is no script or gnuplot failed (its first error line in @err).
 */
int lb_plot_render(const char *dir, char *err, size_t errlen);

#endif
