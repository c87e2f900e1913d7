/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The gnuplot process: finding gnuplot without trusting relative $PATH
 * entries, running it on one script in a given directory (no shell, no init
 * files, bounded in time, its stderr captured for the error line), and the
 * message that says it is missing. What to run is the caller's: lb_plot
 * runs only the scripts it wrote.
 */
#ifndef LB_GNUPLOT_H
#define LB_GNUPLOT_H

#include <stddef.h>

#define LB_GNUPLOT_TIMEOUT	60	/* seconds gnuplot may run per script */

/*
 * lb_gnuplot_find - the absolute path of the first gnuplot in an absolute
 * directory of $PATH into @path (empty and relative entries are skipped:
 * they name directories relative to wherever gnuplot would be started).
 * Returns 0, or -ENOENT with where it was looked for in @err.
 */
int lb_gnuplot_find(char *path, size_t len, char *err, size_t errlen);

/*
 * lb_gnuplot_run - run the gnuplot at @gnuplot (lb_gnuplot_find()) as
 * 'gnuplot -d @script' in the directory @dirfd (@dirname: how a message
 * names it, e.g. "the staging directory DIR/S"), stdin and stdout on
 * /dev/null, killed after LB_GNUPLOT_TIMEOUT seconds. Returns 0; -EIO with
 * gnuplot's first error line (or the timeout, or the signal) in @err;
 * another -errno when it could not be started.
 */
int lb_gnuplot_run(const char *gnuplot, int dirfd, const char *dirname, const char *script,
		   char *err, size_t errlen);

/*
 * lb_gnuplot_say_missing - say through @say (lb_err or lb_warn) that gnuplot
 * is not installed (@why: lb_plot_render()'s message), so what is in @dir is
 * only the scripts and data, and how to render them: with @figure NULL the
 * figures of a results directory ('loadbench plot DIR'), else the one figure
 * @figure ('cd DIR && gnuplot FIGURE.gp'). Returns nothing.
 */
void lb_gnuplot_say_missing(void (*say)(const char *fmt, ...), const char *why, const char *dir,
			    const char *figure);

#endif
