/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Figures: write the .dat data and .gp script of each figure into a results
 * directory (from the templates in plots/) and render them with gnuplot.
 *
 * A struct lb_plot holds the results directory, opened once, and a private
 * staging directory inside it: every file is created there, gnuplot runs
 * there on the scripts this handle wrote, and lb_plot_close() renames the
 * finished files into the results directory. No name in the results
 * directory is ever opened for writing or followed, so a file or symbolic
 * link planted there by another user is replaced, never written through.
 */
#ifndef LB_PLOT_H
#define LB_PLOT_H

#include <stddef.h>

struct lb_results;
struct lb_plot;

/*
 * How the figures are drawn (--style): for a lab notebook (a screen, the
 * provenance in a footer), a paper (3.3 in one column, 7 in two for small
 * multiples, 8 pt type, no footer: the caption files say it) or a talk
 * (16:9, type read from the back of a room).
 */
enum lb_fig_style {
	LB_FIG_LAB,
	LB_FIG_PAPER,
	LB_FIG_TALK,
};

/* lb_fig_style_parse - the style named @name ("lab", "paper", "talk"). Returns it, or -EINVAL. */
int lb_fig_style_parse(const char *name);

/* lb_fig_style_name - the name of @style. Returns a static string. */
const char *lb_fig_style_name(enum lb_fig_style style);

/* lb_plot_set_style - draw the figures written through @plot from now on in @style. */
void lb_plot_set_style(struct lb_plot *plot, enum lb_fig_style style);

/*
 * lb_plot_open - open the results directory @dir for figures (*@plotp), as
 * lb_wdir_open() opens a directory to write in (a link, another user's
 * directory others may write in, a path someone other than root may change
 * under root: refused with the reason and the way out in @err). Returns 0
 * or -errno.
 */
int lb_plot_open(const char *dir, struct lb_plot **plotp, char *err, size_t errlen);

/*
 * lb_plot_open_fd - the same for a results directory already open at @dirfd
 * (duplicated; @dir names it in messages). Returns 0 or -errno.
 */
int lb_plot_open_fd(int dirfd, const char *dir, struct lb_plot **plotp, char *err,
		    size_t errlen);

/*
 * lb_plot_write - write the figures' data and scripts through @plot:
 * slowdown, throughput (over time, a panel per probe set: every run, or under
 * --method alternate every slice, on and off) and cost (per event, events
 * per operation), each as NAME.dat and NAME.gp (the template
 * @template_dir/NAME.gp after a generated header of titles). No gnuplot
 * needed. Returns 0 or -errno with a message in @err.
 */
int lb_plot_write(struct lb_plot *plot, const struct lb_results *res, const char *template_dir,
		  char *err, size_t errlen);

/*
 * lb_plot_write_compare - write compare.dat and compare.gp through @plot:
 * the slowdown of every probe set in each of the @n results @res (labelled
 * @labels[i] in the legend, which should name what differs between them)
 * as grouped bars; @common (what they all share, or NULL) goes in the
 * footer. Returns 0 or -errno with a message in @err.
 */
int lb_plot_write_compare(struct lb_plot *plot, const struct lb_results *const *res,
			  const char *const *labels, size_t n, const char *common,
			  const char *template_dir, char *err, size_t errlen);

struct lb_sweep;

/*
 * lb_plot_write_sweep - write sweep.dat, sweep.gp and its captions through
 * @plot: a panel per probe set, its added time per operation against its
 * events per operation with its fitted line, and beside it, where the
 * canvas has room, its slowdown at each value swept. Returns 0 or -errno
 * with a message in @err.
 */
int lb_plot_write_sweep(struct lb_plot *plot, const struct lb_sweep *s, const char *template_dir,
			char *err, size_t errlen);

/*
 * lb_plot_render - run gnuplot (found in an absolute directory of $PATH,
 * without a shell, no init files) on each script @plot has written, and on
 * nothing else, in the staging directory. A figure whose script fails
 * leaves no image to be moved (the results directory keeps the images it
 * had; the script and data are moved, to see why); the others are still
 * rendered. Returns 0; -ENOENT when there is
 * no gnuplot (@err says where it was looked for); -EIO when nothing was
 * written or gnuplot failed (the first failure's error line in @err, and
 * how many more failed).
 */
int lb_plot_render(struct lb_plot *plot, char *err, size_t errlen);

/*
 * lb_plot_close - rename every file written or rendered through @plot into
 * the results directory (replacing what is there under that name), remove
 * the staging directory and free @plot (NULL is fine). Returns 0 or -errno
 * of the first file that could not be moved, with a message in @err.
 */
int lb_plot_close(struct lb_plot *plot, char *err, size_t errlen);

#endif
