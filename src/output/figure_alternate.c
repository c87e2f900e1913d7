// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The throughput figure under --method alternate: every slice of every
 * alternation (one slot per alternation; a compare-with pair that shares
 * one is drawn once), the dashed medians and plain runs, and its header;
 * its own template, throughput-alternate.gp, so that the figure of
 * --method runs stays as it was.
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
#include "results.h"

/* A probe set and its position among them. */
struct entry {
	const struct lb_probeset_result *psr;
	size_t index;
};

/* -1, 0 or 1 as @a is below, equal to or above @b; NaN equals NaN and is above numbers. */
static int cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

/*
 * An order of the entries by their slices, 0 when @a and @b hold the same
 * ones: the two entries of a compare-with pair may. Field by field: padding
 * and NaN would defeat memcmp().
 */
static int cmp_slices(const struct lb_probeset_result *a, const struct lb_probeset_result *b)
{
	size_t k;
	int c;

	if (a->nslices != b->nslices)
		return CMP(a->nslices, b->nslices);
	for (k = 0; k < a->nslices; k++) {
		const struct lb_slice *x = &a->slices[k], *y = &b->slices[k];

		c = CMP(x->unit, y->unit);
		if (!c)
			c = CMP(x->on, y->on);
		if (!c)
			c = cmp_num(x->start, y->start);
		if (!c)
			c = cmp_num(x->seconds, y->seconds);
		if (!c)
			c = CMP(x->ops, y->ops);
		if (!c)
			c = CMP(x->events, y->events);
		if (!c)
			c = CMP(x->dropped, y->dropped);
		if (c)
			return c;
	}
	return 0;
}

/* By slices, then by position. */
static int cmp_slice_rows(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = cmp_slices(a->psr, b->psr);

	return c ? c : CMP(a->index, b->index);
}

/*
 * Which entries' alternations get a slot of their own in the figure, as a
 * malloc'd array of flags (NULL on ENOMEM): those with slices, but for one
 * whose slices an earlier entry holds too (a pair's alternation is drawn
 * once). Sorted by their slices, the entries that hold the same ones stand
 * together: each against every earlier one was entries x entries x slices.
 */
static bool *alternation_slots(const struct lb_results *res)
{
	bool *slot = calloc(res->nprobesets + 1, sizeof(*slot));
	struct entry *rows = calloc(res->nprobesets + 1, sizeof(*rows));
	size_t i, n = 0;

	if (!slot || !rows) {
		free(slot);
		free(rows);
		return NULL;
	}
	for (i = 0; i < res->nprobesets; i++)
		if (res->probesets[i].nslices)
			rows[n++] = (struct entry){ &res->probesets[i], i };
	qsort(rows, n, sizeof(*rows), cmp_slice_rows);
	for (i = 0; i < n; i++)
		slot[rows[i].index] = !i || cmp_slices(rows[i - 1].psr, rows[i].psr);
	free(rows);
	return slot;
}

/* The length of @psr's alternation: the end of its last slice's window. */
static double alternation_span(const struct lb_probeset_result *psr)
{
	double end = 0;
	size_t k;

	for (k = 0; k < psr->nslices; k++) {
		const struct lb_slice *sl = &psr->slices[k];

		if (sl->start + sl->seconds > end)
			end = sl->start + sl->seconds;
	}
	return end;
}

/* Which of the @n probe sets were on in some slice of @psr: @on[j] for set j. */
static void slices_on(const struct lb_probeset_result *psr, bool *on, size_t n)
{
	size_t k;

	memset(on, 0, n * sizeof(*on));
	for (k = 0; k < psr->nslices; k++)
		if (psr->slices[k].on >= 0 && (size_t)psr->slices[k].on < n)
			on[psr->slices[k].on] = true;
}

/* The baseline's plain run measured before @psr's alternation (its round), or NULL. */
static const struct lb_run *plain_run_before(const struct lb_results *res,
					     const struct lb_probeset_result *psr)
{
	size_t k;

	if (!psr->nruns)
		return NULL;
	for (k = 0; k < res->baseline.nruns; k++)
		if (res->baseline.runs[k].round == psr->runs[0].round)
			return &res->baseline.runs[k];
	return NULL;
}

/* One slot's slices in throughput.dat's index 1: set numbers are 1 + probe-set index. */
static void put_slices(FILE *f, int slot, size_t set, const struct lb_probeset_result *psr)
{
	double span = alternation_span(psr);
	size_t k;

	for (k = 0; k < psr->nslices; k++) {
		const struct lb_slice *sl = &psr->slices[k];
		double t = sl->start + sl->seconds / 2;

		fprintf(f, "%d\t%zu\t%d\t%d\t%.4f\t%.5f\t", slot, set + 1, sl->on + 1, sl->unit, t,
			slot + (span > 0 ? t / span : 0));
		lb_fig_put_num(f, 2, sl->seconds > 0 ? sl->ops / sl->seconds : NAN);
		fprintf(f, "\t%d\n", sl->dropped ? 1 : 0);
	}
	fputc('\n', f);
}

static int write_throughput_alt_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	bool *slots = alternation_slots(res), *on = calloc(res->nprobesets + 1, sizeof(*on));
	size_t i, j;
	int slot;

	if (!slots || !on) {
		free(slots);
		free(on);
		return -ENOMEM;
	}

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput of every slice of every alternation, read by throughput.gp\n", f);
	fputs("# --method alternate: four blocks (gnuplot index 0 to 3), separated by two blank\n"
	      "# lines. Sets are numbered 0 = the baseline, then the probe sets in run order.\n"
	      "# index 0, one row per set: set, name, tracer, throughput_median (ops/s, its\n"
	      "#   probes on), runs, last_round.\n"
	      "# index 1, one row per slice, one block per alternation (slot, from 0): slot, set\n"
	      "#   (whose alternation), state (the set that was on, 0 = all off), unit, t (s from\n"
	      "#   the alternation's first slice, middle of the measured window), x = slot + t /\n"
	      "#   the alternation's length (the plot's axis), ops_per_s, dropped (1 = its unit\n"
	      "#   was left out of the statistics).\n"
	      "# index 2, one row per dashed line: slot, set (0 = the baseline's plain run before\n"
	      "#   the alternation, else the set's median with its probes on), ops_per_s.\n"
	      "# index 3, one row per alternation: slot, label (the sets it switched on),\n"
	      "#   seconds (its length).\n", f);
	fputs("# set\tname\ttracer\tthroughput_median\truns\tlast_round\n", f);
	lb_fig_put_set_row(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		lb_fig_put_set_row(f, (int)i + 1, &res->probesets[i]);

	fputs("\n\n# slot\tset\tstate\tunit\tt\tx\tops_per_s\tdropped\n", f);
	for (i = 0, slot = 0; i < res->nprobesets; i++)
		if (slots[i])
			put_slices(f, slot++, i, &res->probesets[i]);

	fputs("\n\n# slot\tset\tops_per_s\n", f);
	for (i = 0, slot = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		const struct lb_run *plain;

		if (!slots[i])
			continue;
		plain = plain_run_before(res, psr);
		if (plain) {
			fprintf(f, "%d\t0\t", slot);
			lb_fig_put_num(f, 2, plain->throughput);
			fputc('\n', f);
		}
		slices_on(psr, on, res->nprobesets);
		for (j = 0; j < res->nprobesets; j++) {
			if (!on[j])
				continue;
			fprintf(f, "%d\t%zu\t", slot, j + 1);
			lb_fig_put_num(f, 2, res->probesets[j].summary.throughput_median);
			fputc('\n', f);
		}
		slot++;
	}

	fputs("\n\n# slot\tlabel\tseconds\n", f);
	for (i = 0, slot = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		char label[512];
		size_t off = 0;

		if (!slots[i])
			continue;
		label[0] = '\0';
		slices_on(psr, on, res->nprobesets);
		for (j = 0; j < res->nprobesets && off < sizeof(label); j++)
			if (on[j])
				off += (size_t)snprintf(label + off, sizeof(label) - off, "%s%s",
							off ? " / " : "",
							lb_fmt_or_unknown(res->probesets[j].name));
		fprintf(f, "%d\t", slot++);
		lb_fig_put_name(f, off ? label : lb_fmt_or_unknown(psr->name));
		fputc('\t', f);
		lb_fig_put_num(f, 3, alternation_span(psr));
		fputc('\n', f);
	}
	free(slots);
	free(on);
	return 0;
}

static void write_throughput_alt_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	lb_fig_put_intro_from(f, "throughput", "throughput of every slice of every alternation",
			      res->version, "throughput-alternate");
	fputs("title = ", f);
	lb_fig_put_string(f, "Throughput over time, the probes switched on and off");
	snprintf(line, sizeof(line), "one point per %g s slice (measured after %g s settling); "
		 "dashed: median with the probes on; black: plain run before", res->config.slice,
		 res->config.settle);
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, line);
	lb_fig_put_common(res, f);
}

static void write_throughput_alt_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	char what[512];

	snprintf(what, sizeof(what), "Throughput of the %s workload in every %g s slice of each "
		 "alternation (measured after %g s settling), one panel per probe set: its probes "
		 "on and off in the same running workload.",
		 lb_fmt_or_unknown(res->config.workload), res->config.slice, res->config.settle);
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_throughput_alternate = {
	.name = "throughput",
	.write_dat = write_throughput_alt_dat,
	.write_header = write_throughput_alt_header,
	.template = "throughput-alternate",
	.write_caption = write_throughput_alt_caption,
	.wide = true,
};
