/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reports: the summary of a results directory as Markdown, a LaTeX booktabs
 * table, the text table, or one sentence per probe set; and the
 * 'loadbench report' and 'loadbench compare' commands.
 */
#ifndef LB_REPORT_H
#define LB_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct lb_results;

enum lb_report_format {
	LB_REPORT_MARKDOWN,
	LB_REPORT_LATEX,
	LB_REPORT_TEXT,
	LB_REPORT_LINES,
};

/*
 * lb_report_format_parse - @s ("markdown", "latex", "text", "lines") as
 * *@fmt. Returns 0 or -EINVAL.
 */
int lb_report_format_parse(const char *s, enum lb_report_format *fmt);

struct lb_sweep;

/*
 * lb_report_print_sweep - the sweep @s in format @fmt on @f (text and lines:
 * what the run printed). Returns 0 or -EIO.
 */
int lb_report_print_sweep(const struct lb_sweep *s, enum lb_report_format fmt, FILE *f);

/* lb_report_print - the summary of @res in format @fmt on @f. Returns 0 or -EIO. */
int lb_report_print(const struct lb_results *res, enum lb_report_format fmt, FILE *f);

/*
 * lb_report_print_compare - a Markdown table of the slowdown of every probe
 * set (rows) in each of the @n results @res (columns headed @labels[i]) on
 * @f. Returns 0 or -EIO.
 */
int lb_report_print_compare(const struct lb_results *const *res, const char *const *labels,
			    size_t n, FILE *f);

/*
 * lb_report_read - read @dir/results.json into *@res. Returns 0, or -errno
 * after one error line on stderr (a directory without results.json is named
 * as not a results directory).
 */
int lb_report_read(const char *dir, struct lb_results **res);

#endif
