/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the figures (the commands use plot.h): what the handle in plot.c
 * needs of a figure, the figures it writes, and the gnuplot text the figure
 * writers share (figure_text.c, figure_header.c).
 */
#ifndef LB_FIGURE_H
#define LB_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct lb_plot;
struct lb_results;
struct lb_probeset_result;

/*
 * A figure: its name (NAME.dat, NAME.gp, and its template plots/NAME.gp),
 * what writes its files (the data, the header of the script before its
 * template, and its caption as plain text or, @tex, LaTeX: what is drawn,
 * how it was measured, where), and whether it is wide (small multiples: a
 * paper's two columns, not one). write_dat returns 0 or -ENOMEM.
 */
struct lb_figure {
	const char *name;
	int (*write_dat)(const void *arg, FILE *f);
	void (*write_header)(const void *arg, FILE *f);
	void (*write_caption)(const void *arg, FILE *f, bool tex);
	bool wide;
};

/* The figures of a results directory (figure_results.c, figure_alternate.c). */
extern const struct lb_figure lb_figure_slowdown;
extern const struct lb_figure lb_figure_throughput;
extern const struct lb_figure lb_figure_throughput_alternate;
extern const struct lb_figure lb_figure_cost;
/* figure_latency.c: drawn when the baseline's operations were timed. */
extern const struct lb_figure lb_figure_latency;
/* figure_cpu.c: drawn when the baseline's CPU time was read. */
extern const struct lb_figure lb_figure_cpu;

/*
 * lb_plot_write_figure - write @fig's NAME.dat and NAME.gp from @arg into
 * @plot's staging directory and add it to the figures to render. Returns 0
 * or -errno with a message in @err (then neither file is left there).
 */
int lb_plot_write_figure(struct lb_plot *plot, const struct lb_figure *fig, const void *arg,
			 const char *template_dir, char *err, size_t errlen);

#define LB_FIG_FOOTER_WIDTH	140	/* characters of a footer line (1200 px, font 11) */
#define LB_FIG_FOOTER_LINES	5	/* lines of a footer at most */

/* ---- figure_text.c: gnuplot text ---------------------------------------------------------- */

/* lb_fig_put_num - @v with @decimals in a .dat column, "NaN" when not finite. Returns nothing. */
void lb_fig_put_num(FILE *f, int decimals, double v);

/* lb_fig_put_name - @s as a double-quoted .dat string, read back as it is. Returns nothing. */
void lb_fig_put_name(FILE *f, const char *s);

/* lb_fig_put_string - @s as a single-quoted gnuplot string, made inert. Returns nothing. */
void lb_fig_put_string(FILE *f, const char *s);

/* lb_fig_put_comment - @s escaped for a comment line. Returns nothing. */
void lb_fig_put_comment(FILE *f, const char *s);

/*
 * lb_fig_put_wrapped - @text appended to a gnuplot string expression,
 * wrapped to LB_FIG_FOOTER_WIDTH, after @lines lines and up to @max.
 * Returns the new line count.
 */
int lb_fig_put_wrapped(FILE *f, const char *text, int lines, int max);

/*
 * lb_fig_put_intro - the opening comment of NAME.gp (@name), saying @what
 * it draws, the @version that wrote it, and its template plots/@name.gp.
 * Returns nothing.
 */
void lb_fig_put_intro(FILE *f, const char *name, const char *what, const char *version);

/*
 * lb_fig_put_caption_stream - close @m (an open_memstream() of *@text, a
 * caption), write what it holds to @f as plain text or, @tex, LaTeX (nothing
 * when closing it failed), and free it. Returns nothing.
 */
void lb_fig_put_caption_stream(FILE *m, char **text, FILE *f, bool tex);

/* ---- figure_header.c: the texts a results directory's figures share ------------------------- */

/* lb_fig_units_text - "6 units", "6 to 7 units" of alternation, in @buf. Returns @buf. */
const char *lb_fig_units_text(const struct lb_results *res, char *buf, size_t len);

/* lb_fig_baseline_line - the subtitle's baseline (or alternate) line, in @buf. Returns @buf. */
const char *lb_fig_baseline_line(const struct lb_results *res, char *buf, size_t len);

/*
 * lb_fig_put_caption - a caption of a figure of @res: @what (the figure's
 * own sentences), then where and how it was measured (kernel, CPU,
 * placement, version, command, method, kprobes, sets not measured,
 * emulated or incomplete), as plain text or, @tex, LaTeX. Returns nothing.
 */
void lb_fig_put_caption(const struct lb_results *res, const char *what, FILE *f, bool tex);

/* lb_fig_put_common - footer, note and operation names of @res's figures. Returns nothing. */
void lb_fig_put_common(const struct lb_results *res, FILE *f);

/*
 * lb_fig_row_order - the indices of @res's probe sets in the order of a
 * figure's rows from the bottom up: by @key of each set, smallest first,
 * those whose key is not finite (nothing known) first of all, equal keys in
 * the sets' order. Returns a malloc()ed array of res->nprobesets indices,
 * or NULL without memory.
 */
size_t *lb_fig_row_order(const struct lb_results *res,
			 double (*key)(const struct lb_probeset_result *psr));

/* ---- figure_results.c ---------------------------------------------------------------------- */

/*
 * lb_fig_put_set_head - the first columns of a row of throughput.dat's
 * index 0 for set @set: number, name, tracer, median (tab-separated, no
 * tab or newline after). Returns nothing.
 */
void lb_fig_put_set_head(FILE *f, int set, const struct lb_probeset_result *psr);

#endif
