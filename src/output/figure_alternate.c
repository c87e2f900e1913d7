// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The throughput figure under --method alternate: one panel per probe set,
 * every slice of its alternation (its probes on, all off, another set of
 * its compare-with group on, nothing armed), its medians on and off and
 * the throughput with nothing armed; its header and caption. The template
 * is that of --method runs, plots/throughput.gp, told by alternate = 1.
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
#include "stats.h"

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

/*
 * The median throughput of @psr's slices with every probe off (its units
 * left out of the statistics left out here too), NaN without any; malloc
 * failing is -ENOMEM in @ret.
 */
static double off_median(const struct lb_probeset_result *psr, int *ret)
{
	double *v = calloc(psr->nslices + 1, sizeof(*v)), m;
	size_t k, n = 0;

	if (!v) {
		*ret = -ENOMEM;
		return NAN;
	}
	for (k = 0; k < psr->nslices; k++) {
		const struct lb_slice *sl = &psr->slices[k];

		if (sl->on == -1 && !sl->dropped && sl->seconds > 0)
			v[n++] = sl->ops / sl->seconds;
	}
	m = lb_stats_median(v, n);
	free(v);
	return m;
}

/* The baseline's plain run of @psr's alternation (its round), or NULL. */
static const struct lb_run *plain_run_of(const struct lb_results *res,
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

/*
 * The other sets switched on in set @me's alternation (a compare-with
 * group), " / " between their names, in @buf ("" when none), @on a scratch
 * array of a flag per probe set. Returns @buf.
 */
static const char *others_on(const struct lb_results *res, size_t me, bool *on, char *buf,
			     size_t len)
{
	const struct lb_probeset_result *psr = &res->probesets[me];
	size_t k, j, off = 0;

	memset(on, 0, res->nprobesets * sizeof(*on));
	for (k = 0; k < psr->nslices; k++)
		if (psr->slices[k].on >= 0 && (size_t)psr->slices[k].on < res->nprobesets)
			on[psr->slices[k].on] = true;
	buf[0] = '\0';
	for (j = 0; j < res->nprobesets && off < len; j++)
		if (on[j] && j != me)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " / " : "",
						lb_fmt_or_unknown(res->probesets[j].name));
	return buf;
}

/* What set @me's slice @sl was: its probes on, all off, another set on, nothing armed. */
static const char *slice_state(const struct lb_slice *sl, size_t me)
{
	if (sl->on == LB_SLICE_PLAIN)
		return "plain";
	if (sl->on < 0)
		return "off";
	return (size_t)sl->on == me ? "on" : "other";
}

static int write_throughput_alt_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	bool *on = calloc(res->nprobesets + 1, sizeof(*on));
	char with[512];
	size_t i, k;
	int ret = 0;

	if (!on)
		return -ENOMEM;

	fputs("# loadbench ", f);
	lb_fig_put_comment(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput of every slice, one panel per probe set, read by throughput.gp\n", f);
	fputs("# --method alternate: two blocks (gnuplot index 0 and 1), separated by two blank\n"
	      "# lines; throughputs in operations/s, NaN = none.\n"
	      "# index 0, one row per panel (a probe set, in run order; panel from 0): panel,\n"
	      "#   name, tracer, on_median (median of its slices with its probes on), off_median\n"
	      "#   (of its slices with every probe off; both without the units left out),\n"
	      "#   plain (nothing armed: its alternation's plain slices, or in older results\n"
	      "#   the baseline's plain run before it), seconds (its alternation's length),\n"
	      "#   units (kept), dropped_units, with (the other sets its alternation switched\n"
	      "#   on: a compare-with group; \"\" when none).\n"
	      "# index 1, one row per slice of the panel's alternation (a group's slices are in\n"
	      "#   each of its sets' panels): panel, state (on: its probes on, off: every probe\n"
	      "#   off, other: a set of \"with\" on, plain: nothing armed), unit (-1: plain), t (s\n"
	      "#   from the alternation's first slice to the middle of the measured window),\n"
	      "#   ops_per_s, dropped (1: its unit was left out of the statistics).\n", f);
	fputs("# panel\tname\ttracer\ton_median\toff_median\tplain\tseconds\tunits\t"
	      "dropped_units\twith\n", f);
	for (i = 0; i < res->nprobesets && !ret; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		const struct lb_run *plain = plain_run_of(res, psr);

		lb_fig_put_set_head(f, (int)i, psr);
		fputc('\t', f);
		lb_fig_put_num(f, 2, off_median(psr, &ret));
		fputc('\t', f);
		lb_fig_put_num(f, 2, plain ? plain->throughput : NAN);
		fputc('\t', f);
		lb_fig_put_num(f, 3, alternation_span(psr));
		fprintf(f, "\t%d\t%d\t", psr->summary.units, psr->summary.dropped_units);
		lb_fig_put_name(f, others_on(res, i, on, with, sizeof(with)));
		fputc('\n', f);
	}
	free(on);
	if (ret)
		return ret;

	fputs("\n\n# panel\tstate\tunit\tt\tops_per_s\tdropped\n", f);
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		for (k = 0; k < psr->nslices; k++) {
			const struct lb_slice *sl = &psr->slices[k];

			fprintf(f, "%zu\t%s\t%d\t%.4f\t", i, slice_state(sl, i), sl->unit,
				sl->start + sl->seconds / 2);
			lb_fig_put_num(f, 2, sl->seconds > 0 ? sl->ops / sl->seconds : NAN);
			fprintf(f, "\t%d\n", sl->dropped ? 1 : 0);
		}
		if (psr->nslices)
			fputc('\n', f);
	}
	return 0;
}

static void write_throughput_alt_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	lb_fig_put_intro(f, "throughput", "throughput of every slice, one panel per set",
			 res->version);
	fputs("alternate = 1\ntitle = ", f);
	lb_fig_put_string(f, "Throughput over time, the probes switched on and off");
	snprintf(line, sizeof(line), "one point per %g s slice (measured after %g s settling); "
		 "one panel per probe set: its alternation, the axes shared", res->config.slice,
		 res->config.settle);
	fputs("\nsubtitle = ", f);
	lb_fig_put_string(f, line);
	lb_fig_put_common(res, f);
}

/* Whether some set's alternation switched another set on, had a unit dropped, plain slices. */
static void slices_seen(const struct lb_results *res, bool *other, bool *dropped, bool *plain)
{
	size_t i, k;

	*other = *dropped = *plain = false;
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		for (k = 0; k < psr->nslices; k++) {
			*other |= psr->slices[k].on >= 0 && (size_t)psr->slices[k].on != i;
			*dropped |= psr->slices[k].dropped;
			*plain |= psr->slices[k].on == LB_SLICE_PLAIN;
		}
	}
}

static void write_throughput_alt_caption(const void *arg, FILE *f, bool tex)
{
	const struct lb_results *res = arg;
	bool other, dropped, plain, topped = false;
	char what[2048];

	slices_seen(res, &other, &dropped, &plain);
	for (size_t k = 0; k < res->nprobesets; k++)
		topped |= res->probesets[k].summary.alternations > 1;
	snprintf(what, sizeof(what), "Throughput of the %s workload in every %g s slice (measured "
		 "after %g s settling) of each probe set's alternation, its probes switched on and "
		 "off in the same running workload; one panel per set, in run order, on shared "
		 "axes (seconds from the alternation's first slice; throughput from zero). Filled "
		 "circles: the slices with the set's probes on; hollow circles: every probe off;%s%s "
		 "dashed lines: the medians of the on and of the off slices%s; thin grey line, once "
		 "per panel: the throughput with nothing armed in that alternation (%s).%s",
		 lb_fmt_or_unknown(res->config.workload), res->config.slice, res->config.settle,
		 other ? " filled triangles: another set of its compare-with group on (named "
			 "in the panel's title);" : "",
		 dropped ? " crosses: the slices of units left out of the statistics;" : "",
		 dropped ? ", those units left out" : "",
		 plain ? "its plain slices, before the probes were placed and after they were "
			 "removed; those slices are not drawn" : "the baseline's run before it",
		 topped ? " A set the time budget topped up was armed again later in a workload "
			  "of its own: that alternation's slices follow its first one's, 1 s "
			  "after them." : "");
	lb_fig_put_caption(res, what, f, tex);
}

const struct lb_figure lb_figure_throughput_alternate = {
	.name = "throughput",
	.write_dat = write_throughput_alt_dat,
	.write_header = write_throughput_alt_header,
	.write_caption = write_throughput_alt_caption,
	.wide = true,
};
