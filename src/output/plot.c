// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures. lb_plot_write() writes each figure's data (.dat) and script (.gp:
 * a generated header of gnuplot string variables, then the template from
 * plots/) into a private staging directory inside the results directory;
 * the script reads only the .dat beside it, so a figure can be edited and
 * re-rendered by hand. lb_plot_render() runs gnuplot there (gnuplot.c) on
 * those scripts only; lb_plot_close() renames the files into the results
 * directory.
 *
 * This file is the handle and its staging directory; what each figure
 * writes is in its figure_*.c (figure.h), with the gnuplot text they share
 * in figure_text.c and figure_header.c.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "atomic.h"
#include "figure.h"
#include "gnuplot.h"
#include "plot.h"
#include "util.h"
#include "results.h"
#include "wdir.h"

#define LB_PLOT_MAX_FIGURES	8	/* figures one struct lb_plot writes at most */

/* Append the file @path to @out. */
static int copy_file(const char *path, FILE *out)
{
	char buf[8192];
	size_t n;
	FILE *in;
	int ret = 0;

	in = fopen(path, "re");
	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, out) != n) {
			ret = -EIO;
			break;
		}
	}
	if (!ret && ferror(in))
		ret = -EIO;
	fclose(in);
	return ret;
}

/* Close @f (NULL is fine) and return -errno of any write error. */
static int close_file(FILE *f)
{
	int ret = 0;

	if (!f)
		return 0;
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = errno ? -errno : -EIO;
	return ret;
}

/*
 * The results directory, opened once, and the staging directory in it where
 * everything is written and rendered (see plot.h). The staging directory has
 * an unpredictable name and mode 0700: no one but loadbench's user can add,
 * swap or link anything there, and its files reach the results directory by
 * renameat(), which replaces a planted link instead of following it.
 */
struct lb_plot {
	char *dir;		/* the results directory as given, for messages */
	int dirfd;		/* it: O_DIRECTORY | O_NOFOLLOW */
	int stagefd;		/* the staging directory; -1 until the first figure */
	char stage[40];		/* its name in dirfd: .loadbench-plot-<64 random bits> */
	const char *figures[LB_PLOT_MAX_FIGURES];	/* names of the figures written, in order */
	size_t nfigures;
	enum lb_fig_style style;
};

/*
 * The styles: a figure's canvas in inches (one that is wide: small
 * multiples), pixels per inch of its PNG, and the base type in
 * points at that size (FIGURES.md: a lab notebook 1200x700 px with 12-14
 * px type, its PDF 600x350 pt; a paper's column 3.3 in, two 7 in, 7-9 pt;
 * a 16:9 slide at 1920x1080, 20 pt and more). A template may make a
 * figure taller for its rows.
 */
struct style {
	const char *name;
	double w, h, wide_w, wide_h, dpi, fs;
};

static const struct style styles[] = {
	[LB_FIG_LAB] = { "lab", 600 / 72.0, 350 / 72.0, 600 / 72.0, 350 / 72.0, 144, 7 },
	[LB_FIG_PAPER] = { "paper", 3.3, 2.2, 7, 3.4, 300, 8 },
	[LB_FIG_TALK] = { "talk", 13.333, 7.5, 13.333, 7.5, 144, 20 },
};

int lb_fig_style_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(name, styles[i].name))
			return (int)i;
	return -EINVAL;
}

const char *lb_fig_style_name(enum lb_fig_style style)
{
	return styles[style].name;
}

void lb_plot_set_style(struct lb_plot *plot, enum lb_fig_style style)
{
	plot->style = style;
}

/*
 * The lines every figure's script begins with: the style, its canvas and
 * its type, for the template to lay the figure out by.
 */
static void put_style(const struct lb_plot *plot, const struct lb_figure *fig, FILE *f)
{
	const struct style *s = &styles[plot->style];

	fprintf(f, "\n# The style (loadbench --style %s): the canvas, W x H inches (a template may\n"
		   "# make it taller for its rows), PNG pixels per inch, and the type size fs\n"
		   "# in points at print size; fnt(k) names k times that type, pt(k) its height\n"
		   "# in inches.\n"
		   "style = '%s'\nW = %.10g\nH = %.10g\ndpi = %g\nfs = %g\n"
		   "fnt(k) = sprintf('sans,%%.3g', fs * k)\npt(k) = fs * k / 72.0\n",
		   s->name, s->name, fig->wide ? s->wide_w : s->w, fig->wide ? s->wide_h : s->h,
		   s->dpi, s->fs);
	fputs("# What every template lays out with: chars_in(), the characters of k times the\n"
	      "# type that fit in so many inches (DejaVu Sans, erring wide); 'eval wrap' puts\n"
	      "# the text src in lines of wrap_chars characters at most, broken at spaces, into\n"
	      "# wrapped (wrap_lines lines, the longest wrap_longest characters); and the note\n"
	      "# (emulated, interrupted) wrapped to the canvas, note_text in note_lines lines.\n"
	      "max2(a, b) = a > b ? a : b\nmin2(a, b) = a < b ? a : b\n"
	      "chars_in(inches, k) = floor(inches / pt(0.64 * k))\n"
	      "wrap = 'wrapped = \"\"; wline = \"\"; wrap_lines = 1; wrap_longest = 0; ' . \\\n"
	      "\t'do for [wi = 1:words(src)] { ww = word(src, wi); ' . \\\n"
	      "\t'if (wline ne \"\" && strlen(wline) + 1 + strlen(ww) > wrap_chars) { ' . \\\n"
	      "\t'wrapped = wrapped . wline . \"\\n\"; wrap_longest = max2(wrap_longest, "
	      "strlen(wline)); ' . \\\n"
	      "\t'wline = ww; wrap_lines = wrap_lines + 1 } ' . \\\n"
	      "\t'else { wline = wline . (wline eq \"\" ? \"\" : \" \") . ww } }; ' . \\\n"
	      "\t'wrapped = wrapped . wline; wrap_longest = max2(wrap_longest, strlen(wline))'\n"
	      "if (!exists('note')) note = ''\n"
	      "src = note\nwrap_chars = chars_in(W - pt(1), 1.05)\neval wrap\n"
	      "note_text = wrapped\nnote_lines = note ne '' ? wrap_lines : 0\n", f);
}

/*
 * The lines every figure's script ends with: the figure the template made
 * ready ('draw') in each format at W x H inches, the type as large on the
 * page in each (SVG and PDF in points, PNG at dpi). pdfcairo's type is at
 * fontscale 0.5 unless told, and a point of its font sizes is 4/3 of a
 * point of the page: fontscale 0.75 puts the PDF's type at the size the
 * template laid out (the SVG's and the PNG's), linewidth 1.5 its lines at
 * the PNG's (gnuplot 5.4).
 */
static void put_render(const struct lb_figure *fig, FILE *f)
{
	fprintf(f, "\n# The figure in each format, W x H inches: SVG in points (its multi-line texts\n"
		   "# spaced right only at fontscale 1), PNG at dpi pixels per inch, the type as\n"
		   "# large to the canvas in each; the SVG first, so that a text a template draws\n"
		   "# only once is missing from the PNG and PDF, where a test finds it (written by\n"
		   "# loadbench).\n"
		   "set terminal svg size W * 72, H * 72 dynamic font fnt(1) background rgb 'white' \\\n"
		   "\tnoenhanced\n"
		   "set output '%s.svg'\neval draw\nset output\n\n"
		   "set terminal pngcairo size W * dpi, H * dpi font fnt(1) fontscale dpi / 96.0 \\\n"
		   "\tlinewidth dpi / 96.0 background rgb 'white' noenhanced\n"
		   "set output '%s.png'\neval draw\nset output\n\n"
		   "if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {\n"
		   "\tset terminal pdfcairo size W, H font fnt(1) fontscale 0.75 linewidth 1.5 \\\n"
		   "\t\tnoenhanced\n"
		   "\tset output '%s.pdf'\n\teval draw\n\tset output\n}\n",
		   fig->name, fig->name, fig->name);
}

static FILE *stage_create(struct lb_plot *plot, const char *name);

/* NAME.caption.txt and NAME.caption.tex of @fig from @arg. Returns 0 or -errno. */
static int write_captions(struct lb_plot *plot, const struct lb_figure *fig, const void *arg)
{
	char name[80];
	int ret = 0;

	for (int tex = 0; tex < 2 && !ret; tex++) {
		FILE *f;

		snprintf(name, sizeof(name), "%s.caption.%s", fig->name, tex ? "tex" : "txt");
		f = stage_create(plot, name);
		if (!f)
			return -errno;
		fig->write_caption(arg, f, tex);
		fputc('\n', f);
		ret = close_file(f);
	}
	return ret;
}

/* A handle on @dir, open at @dirfd (taken over: closed with the handle). */
static int plot_new(const char *dir, int dirfd, struct lb_plot **plotp, char *err, size_t errlen)
{
	struct lb_plot *plot;

	*plotp = NULL;
	plot = calloc(1, sizeof(*plot));
	if (plot)
		plot->dir = strdup(dir);
	if (!plot || !plot->dir) {
		free(plot);
		close(dirfd);
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	plot->dirfd = dirfd;
	plot->stagefd = -1;
	*plotp = plot;
	return 0;
}

int lb_plot_open(const char *dir, struct lb_plot **plotp, char *err, size_t errlen)
{
	int fd = lb_wdir_open(dir, err, errlen);

	*plotp = NULL;
	if (fd < 0)
		return fd;
	return plot_new(dir, fd, plotp, err, errlen);
}

int lb_plot_open_fd(int dirfd, const char *dir, struct lb_plot **plotp, char *err,
		    size_t errlen)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);

	*plotp = NULL;
	if (fd < 0) {
		lb_seterr(err, errlen, "cannot use the directory %s: %s", dir, strerror(errno));
		return -errno;
	}
	return plot_new(dir, fd, plotp, err, errlen);
}

/* Create @plot's staging directory (once): an unpredictable fresh name, mode 0700, ours. */
static int stage_open(struct lb_plot *plot, char *err, size_t errlen)
{
	struct stat st;
	uint64_t rnd;
	int tries, ret;

	if (plot->stagefd >= 0)
		return 0;
	for (tries = 0; tries < 16; tries++) {
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd)) {
			ret = errno ? -errno : -EIO;
			lb_seterr(err, errlen, "cannot name a staging directory in %s: %s",
				  plot->dir, strerror(-ret));
			goto err;
		}
		snprintf(plot->stage, sizeof(plot->stage), ".loadbench-plot-%016" PRIx64, rnd);
		if (!mkdirat(plot->dirfd, plot->stage, 0700))
			break;
		if (errno != EEXIST) {
			ret = -errno;
			lb_seterr(err, errlen, "cannot write in %s: %s", plot->dir, strerror(-ret));
			goto err;
		}
	}
	if (tries == 16) {
		ret = -EEXIST;
		lb_seterr(err, errlen, "cannot write in %s: 16 random staging names taken",
			  plot->dir);
		goto err;
	}
	plot->stagefd = openat(plot->dirfd, plot->stage,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (plot->stagefd < 0 || fstat(plot->stagefd, &st) || st.st_uid != geteuid() ||
	    (st.st_mode & 077)) {
		/* Swapped between mkdirat() and openat(): not ours to write in, or remove. */
		ret = -EEXIST;
		lb_seterr(err, errlen, "cannot write in %s: the staging directory %s was replaced "
			  "as soon as loadbench created it", plot->dir, plot->stage);
		goto err;
	}
	return 0;
err:
	if (plot->stagefd >= 0)
		close(plot->stagefd);
	plot->stagefd = -1;
	plot->stage[0] = '\0';
	return ret;
}

/* @name, created anew in the staging directory for writing; NULL with errno set. */
static FILE *stage_create(struct lb_plot *plot, const char *name)
{
	FILE *f;
	int fd, saved;

	if (unlinkat(plot->stagefd, name, 0) && errno != ENOENT)
		return NULL;
	fd = openat(plot->stagefd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

/* Forget @name among the figures written (it is being written again). */
static void forget_figure(struct lb_plot *plot, const char *name)
{
	size_t i;

	for (i = 0; i < plot->nfigures; i++) {
		if (!strcmp(plot->figures[i], name)) {
			memmove(&plot->figures[i], &plot->figures[i + 1],
				(plot->nfigures - i - 1) * sizeof(plot->figures[0]));
			plot->nfigures--;
			return;
		}
	}
}

/*
 * Move each regular file of the staging directory into the results directory
 * (fsync()ed, renamed, the directory fsync()ed: atomic.h's rules). 0, or
 * -errno of the first that could not be moved (the others still are).
 */
static int stage_commit(struct lb_plot *plot, char *err, size_t errlen)
{
	struct dirent *de;
	struct stat st;
	int fd, ret = 0;
	DIR *d;

	fd = fcntl(plot->stagefd, F_DUPFD_CLOEXEC, 0);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		lb_seterr(err, errlen, "cannot read the staging directory %s/%s: %s", plot->dir,
			  plot->stage, strerror(-ret));
		return ret;
	}
	while ((de = readdir(d))) {
		int mret;

		if (fstatat(plot->stagefd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		mret = lb_atomic_move_at(plot->stagefd, de->d_name, plot->dirfd);
		if (mret && !ret) {
			ret = mret;
			lb_seterr(err, errlen, "cannot write %s/%s: %s", plot->dir, de->d_name,
				  strerror(-ret));
		}
	}
	closedir(d);
	lb_atomic_sync_dir(plot->dirfd);
	return ret;
}

/* Empty and remove the staging directory, if its name is still the directory made. */
static void stage_remove(struct lb_plot *plot)
{
	struct stat ours, named;
	struct dirent *de;
	DIR *d;
	int fd;

	fd = fcntl(plot->stagefd, F_DUPFD_CLOEXEC, 0);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(plot->stagefd, de->d_name, 0);
		closedir(d);
	} else if (fd >= 0) {
		close(fd);
	}
	if (!fstat(plot->stagefd, &ours) &&
	    !fstatat(plot->dirfd, plot->stage, &named, AT_SYMLINK_NOFOLLOW) &&
	    ours.st_dev == named.st_dev && ours.st_ino == named.st_ino)
		unlinkat(plot->dirfd, plot->stage, AT_REMOVEDIR);
	close(plot->stagefd);
	plot->stagefd = -1;
}

int lb_plot_close(struct lb_plot *plot, char *err, size_t errlen)
{
	int ret = 0;

	if (!plot)
		return 0;
	if (plot->stagefd >= 0) {
		ret = stage_commit(plot, err, errlen);
		stage_remove(plot);
	}
	if (plot->dirfd >= 0)
		close(plot->dirfd);
	free(plot->dir);
	free(plot);
	return ret;
}

/*
 * Write @fig's NAME.dat and NAME.gp (header, then @template_dir/NAME.gp) from
 * @arg into @plot's staging directory, and add it to the figures to render.
 * A figure that fails leaves neither file there, so none half-written reaches
 * the results directory.
 */
int lb_plot_write_figure(struct lb_plot *plot, const struct lb_figure *fig, const void *arg,
			 const char *template_dir, char *err, size_t errlen)
{
	char dat[64], gp[64], *tmpl = NULL;
	FILE *fdat = NULL, *fgp = NULL;
	int ret;

	snprintf(dat, sizeof(dat), "%s.dat", fig->name);
	snprintf(gp, sizeof(gp), "%s.gp", fig->name);
	forget_figure(plot, fig->name);
	if (plot->nfigures == LB_PLOT_MAX_FIGURES) {
		lb_seterr(err, errlen, "more than %d figures", LB_PLOT_MAX_FIGURES);
		return -E2BIG;
	}
	if (asprintf(&tmpl, "%s/%s.gp", template_dir, fig->name) < 0) {
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = stage_open(plot, err, errlen);
	if (ret)
		goto out;

	fdat = stage_create(plot, dat);
	fgp = fdat ? stage_create(plot, gp) : NULL;
	if (!fdat || !fgp) {
		ret = -errno;
		lb_seterr(err, errlen, "cannot write in %s: %s", plot->dir, strerror(-ret));
		goto out;
	}
	ret = fig->write_dat(arg, fdat);
	if (ret) {
		lb_seterr(err, errlen, "out of memory");
		goto out;
	}
	fig->write_header(arg, fgp);
	put_style(plot, fig, fgp);
	ret = copy_file(tmpl, fgp);
	if (ret) {
		lb_seterr(err, errlen, "cannot read the figure template %s: %s", tmpl,
			  strerror(-ret));
		goto out;
	}
	put_render(fig, fgp);
	ret = close_file(fdat);
	fdat = NULL;
	if (!ret) {
		ret = close_file(fgp);
		fgp = NULL;
	}
	if (ret) {
		lb_seterr(err, errlen, "cannot write in %s: %s", plot->dir, strerror(-ret));
		goto out;
	}
	if (fig->write_caption) {
		ret = write_captions(plot, fig, arg);
		if (ret) {
			lb_seterr(err, errlen, "cannot write in %s: %s", plot->dir, strerror(-ret));
			goto out;
		}
	}
	plot->figures[plot->nfigures++] = fig->name;
out:
	close_file(fdat);
	close_file(fgp);
	if (ret && plot->stagefd >= 0) {
		char cap[80];

		unlinkat(plot->stagefd, dat, 0);
		unlinkat(plot->stagefd, gp, 0);
		for (int tex = 0; tex < 2; tex++) {
			snprintf(cap, sizeof(cap), "%s.caption.%s", fig->name, tex ? "tex" : "txt");
			unlinkat(plot->stagefd, cap, 0);
		}
	}
	free(tmpl);
	return ret;
}

int lb_plot_write(struct lb_plot *plot, const struct lb_results *res, const char *template_dir,
		  char *err, size_t errlen)
{
	const struct lb_figure *figures[] = {
		&lb_figure_slowdown,
		lb_results_alternate(res) ? &lb_figure_throughput_alternate : &lb_figure_throughput,
		&lb_figure_cost,
		res->baseline.summary.latency.count ? &lb_figure_latency : NULL,
		res->baseline.summary.cpu.measured ? &lb_figure_cpu : NULL,
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		if (!figures[i])
			continue;
		ret = lb_plot_write_figure(plot, figures[i], res, template_dir, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Remove what gnuplot made of figure @name in the staging directory (an
 * empty or partial image when it failed), so that the images of a figure
 * that failed to render never replace those in the results directory. Its
 * script and data stay, to see why.
 */
static void stage_drop(struct lb_plot *plot, const char *name)
{
	static const char *const ext[] = { "png", "svg", "pdf" };
	char file[80];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(file, sizeof(file), "%s.%s", name, ext[i]);
		unlinkat(plot->stagefd, file, 0);
	}
}

int lb_plot_render(struct lb_plot *plot, char *err, size_t errlen)
{
	char gnuplot[PATH_MAX], script[64], where[PATH_MAX + 64], why[512];
	size_t i;
	int ret, first = 0, nfailed = 0;

	if (!plot->nfigures) {
		lb_seterr(err, errlen, "no figure written in %s: nothing to render", plot->dir);
		return -EIO;
	}
	ret = lb_gnuplot_find(gnuplot, sizeof(gnuplot), err, errlen);
	if (ret)
		return ret;
	snprintf(where, sizeof(where), "the staging directory %s/%s", plot->dir, plot->stage);
	for (i = 0; i < plot->nfigures; i++) {
		snprintf(script, sizeof(script), "%s.gp", plot->figures[i]);
		ret = lb_gnuplot_run(gnuplot, plot->stagefd, where, script, why, sizeof(why));
		if (!ret)
			continue;
		/* The others are still rendered; this one leaves the old files as they were. */
		stage_drop(plot, plot->figures[i]);
		if (!nfailed++) {
			first = ret;
			lb_seterr(err, errlen, "%s", why);
		}
	}
	if (nfailed > 1) {
		size_t l = strlen(err);

		snprintf(err + l, errlen > l ? errlen - l : 0, " (and %d more figure(s) failed)",
			 nfailed - 1);
	}
	return first;
}
