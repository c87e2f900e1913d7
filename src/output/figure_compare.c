// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 'loadbench compare's figure: the slowdown of every probe set in several
 * results directories as grouped bars (compare.dat, compare.gp), through
 * the same handle as the figures of one directory.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "format.h"
#include "plot.h"
#include "results.h"
#include "util.h"

struct compare {
	const struct lb_results *const *res;
	const char *const *labels;
	size_t n;
	const char *common;	/* what all of them share, or NULL */
	const char **groups;	/* probe-set names, in order of first appearance */
	size_t ngroups;
};

/* @name's probe set in @res, or NULL. */
static const struct lb_probeset_result *find_set(const struct lb_results *res, const char *name)
{
	size_t i;

	for (i = 0; i < res->nprobesets; i++)
		if (res->probesets[i].name && !strcmp(res->probesets[i].name, name))
			return &res->probesets[i];
	return NULL;
}

/* The slowdown a group sorts by: in the first results that have its set; NaN when none. */
static double group_key(const struct compare *cmp, const char *name)
{
	for (size_t m = 0; m < cmp->n; m++) {
		const struct lb_probeset_result *psr = find_set(cmp->res[m], name);

		if (psr)
			return psr->summary.slowdown_pct;
	}
	return NAN;
}

/* The compare whose groups qsort() is ordering (a compare is not run twice at once). */
static const struct compare *sort_cmp;

/* Groups by slowdown, smallest first, NaN last; names break ties. */
static int cmp_groups(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
	double x = group_key(sort_cmp, a), y = group_key(sort_cmp, b);

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

static int write_compare_dat(const void *arg, FILE *f)
{
	const struct compare *cmp = arg;
	size_t g, m;

	fputs("# loadbench: the slowdown of several results directories side by side, read by\n"
	      "# compare.gp. Three blocks (gnuplot index 0, 1, 2), separated by two blank lines.\n"
	      "# index 0, one row per results directory (member): member, label,\n"
	      "#   baseline throughput_median (ops/s), baseline runs.\n"
	      "# index 1, one row per probe set and member that has it: group (probe set\n"
	      "#   number), member, name, slowdown_pct, ci95_low, ci95_high, throughput_median.\n"
	      "# index 2, one row per group: group, name. NaN = missing value.\n", f);
	fputs("# member\tlabel\tbaseline_median\tbaseline_runs\n", f);
	for (m = 0; m < cmp->n; m++) {
		fprintf(f, "%zu\t", m);
		lb_fig_put_name(f, cmp->labels[m]);
		fputc('\t', f);
		lb_fig_put_num(f, 2, cmp->res[m]->baseline.summary.throughput_median);
		fprintf(f, "\t%zu\n", cmp->res[m]->baseline.nruns);
	}
	fputs("\n\n# group\tmember\tname\tslowdown_pct\tci95_low\tci95_high\tthroughput_median\n",
	      f);
	for (g = 0; g < cmp->ngroups; g++) {
		for (m = 0; m < cmp->n; m++) {
			const struct lb_probeset_result *psr = find_set(cmp->res[m], cmp->groups[g]);
			const struct lb_summary *s;

			if (!psr)
				continue;
			s = &psr->summary;
			fprintf(f, "%zu\t%zu\t", g, m);
			lb_fig_put_name(f, cmp->groups[g]);
			fputc('\t', f);
			lb_fig_put_num(f, 4, s->slowdown_pct);
			fputc('\t', f);
			lb_fig_put_num(f, 4, s->slowdown_ci95[0]);
			fputc('\t', f);
			lb_fig_put_num(f, 4, s->slowdown_ci95[1]);
			fputc('\t', f);
			lb_fig_put_num(f, 2, s->throughput_median);
			fputc('\n', f);
		}
	}
	fputs("\n\n# group\tname\n", f);
	for (g = 0; g < cmp->ngroups; g++) {
		fprintf(f, "%zu\t", g);
		lb_fig_put_name(f, cmp->groups[g]);
		fputc('\n', f);
	}
	return 0;
}

static void write_compare_header(const void *arg, FILE *f)
{
	const struct compare *cmp = arg;
	size_t m, g, bars = 0;
	bool any_emulated = false;
	char line[2048];
	int lines;

	for (m = 0; m < cmp->n; m++) {
		any_emulated |= lb_results_emulated(cmp->res[m]);
		for (g = 0; g < cmp->ngroups; g++)
			bars += find_set(cmp->res[m], cmp->groups[g]) != NULL;
	}
	lb_fig_put_intro(f, "compare", "the slowdown of several results directories side by side",
			 cmp->n ? cmp->res[0]->version : NULL);
	fputs("title = ", f);
	lb_fig_put_string(f, "Throughput slowdown under tracing, compared");
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, bars < cmp->n * cmp->ngroups ?
			  "a mark per run: its median slowdown; whiskers: 95% confidence interval; "
			  "no mark: not measured in that run" :
			  "a mark per run: its median slowdown; whiskers: 95% confidence interval");
	snprintf(line, sizeof(line), "in common: %s | loadbench %s",
		 lb_fmt_or_unknown(cmp->common),
		 lb_fmt_or_unknown(cmp->n ? cmp->res[0]->version : NULL));
	fputs("\nfooter = ", f);
	lines = lb_fig_put_wrapped(f, line, 0, LB_FIG_FOOTER_LINES);
	fprintf(f, "\nfooter_lines = %d\nnote = ", lines);
	lb_fig_put_string(f, any_emulated ? "runs marked emulated were timed under QEMU TCG: "
			  "compare their probe sets with each other, not with native numbers" :
			  "");
	fputs("\n\n", f);
}

static void write_compare_caption(const void *arg, FILE *f, bool tex)
{
	const struct compare *cmp = arg;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	fprintf(m, "Throughput slowdown under tracing in %zu results directories side by side: "
		"one row per probe set, sorted by its slowdown in the first that has it; a mark "
		"per directory (its colour and shape in the key): the median slowdown, whiskers: "
		"its 95%% confidence interval; no mark: not measured there. In common: %s; "
		"loadbench %s.", cmp->n, lb_fmt_or_unknown(cmp->common),
		lb_fmt_or_unknown(cmp->n ? cmp->res[0]->version : NULL));
	for (size_t k = 0; k < cmp->n; k++)
		fprintf(m, " %zu: %s (%s).", k + 1, lb_fmt_or_unknown(cmp->labels[k]),
			lb_fmt_or_unknown(cmp->res[k]->config.command_line));
	lb_fig_put_caption_stream(m, &text, f, tex);
}

static const struct lb_figure compare_figure = {
	.name = "compare",
	.write_dat = write_compare_dat,
	.write_header = write_compare_header,
	.write_caption = write_compare_caption,
};

int lb_plot_write_compare(struct lb_plot *plot, const struct lb_results *const *res,
			  const char *const *labels, size_t n, const char *common,
			  const char *template_dir, char *err, size_t errlen)
{
	struct compare cmp = { .res = res, .labels = labels, .n = n, .common = common };
	size_t total = 0, m, i, g;
	int ret;

	for (m = 0; m < n; m++)
		total += res[m]->nprobesets;
	cmp.groups = calloc(total ? total : 1, sizeof(*cmp.groups));
	if (!cmp.groups) {
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (m = 0; m < n; m++) {
		for (i = 0; i < res[m]->nprobesets; i++) {
			const char *name = res[m]->probesets[i].name;

			if (!name)
				continue;
			for (g = 0; g < cmp.ngroups; g++)
				if (!strcmp(cmp.groups[g], name))
					break;
			if (g == cmp.ngroups)
				cmp.groups[cmp.ngroups++] = name;
		}
	}
	/* Rows by slowdown, as in slowdown.gp: the first directory that has a set decides. */
	sort_cmp = &cmp;
	qsort(cmp.groups, cmp.ngroups, sizeof(*cmp.groups), cmp_groups);
	ret = lb_plot_write_figure(plot, &compare_figure, &cmp, template_dir, err, errlen);
	free(cmp.groups);
	return ret;
}
