// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures. lb_plot_write() writes each figure's data (.dat) and script (.gp:
 * a generated header of gnuplot string variables, then the template from
 * plots/) into a private staging directory inside the results directory;
 * the script reads only the .dat beside it, so a figure can be edited and
 * re-rendered by hand. lb_plot_render() runs gnuplot there (gnuplot.c) on
 * those scripts only; lb_plot_close() renames the files into the results
 * directory.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "format.h"
#include "gnuplot.h"
#include "plot.h"
#include "util.h"
#include "results.h"

#define LB_PLOT_MAX_FIGURES	8	/* figures one struct lb_plot writes at most */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


/* Order of rows in slowdown.dat: smallest slowdown first, NaN last, then input order. */
struct row {
	const struct lb_probeset_result *psr;
	size_t index;
};

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	double x = a->psr->summary.slowdown_pct, y = b->psr->summary.slowdown_pct;

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (!isnan(x) && x != y)
		return x < y ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* A number for a .dat column: "NaN" is the missing value (set datafile missing). */
static void put_num(FILE *f, int decimals, double v)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
	else
		fputs("NaN", f);
}

/* One character of a double-quoted data string: ' for ". */
static void put_name_char(FILE *f, const char *c, size_t n)
{
	if (*c == '"')
		fputc('\'', f);
	else
		fwrite(c, 1, n, f);
}

/*
 * A name as a double-quoted gnuplot data string: no quotes inside, and no
 * control characters (C0, DEL, C1) or bytes that are not UTF-8
 * (lb_str_char()): a newline would end the row, and the figure's text is
 * no place for them.
 */
static void put_name(FILE *f, const char *s)
{
	fputc('"', f);
	lb_fmt_put_each(f, s, put_name_char);
	fputc('"', f);
}

/* One character of a single-quoted gnuplot string: '' for '. */
static void put_gp_char(FILE *f, const char *c, size_t n)
{
	if (*c == '\'')
		fputc('\'', f);
	fwrite(c, 1, n, f);
}

/*
 * @s as a single-quoted gnuplot string: '' for ', control characters and
 * non-UTF-8 dropped as in put_name(). Inside single quotes gnuplot
 * substitutes nothing (no `command`, no @macro, no backslash escape), and
 * without a newline the string cannot end the command it is in.
 */
static void put_gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	lb_fmt_put_each(f, s, put_gp_char);
	fputc('\'', f);
}

/*
 * @s in a comment line of a script or data file: escaped (lb_str_put_safe()),
 * since a newline in it would end the comment and start a gnuplot command.
 */
static void put_comment_text(FILE *f, const char *s)
{
	lb_str_put_safe(f, s);
}

/* The probe sets of @res sorted by slowdown (smallest first, NaN last): a malloc'd array. */
static struct row *sorted_rows(const struct lb_results *res)
{
	struct row *rows;
	size_t i;

	rows = calloc(res->nprobesets ? res->nprobesets : 1, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < res->nprobesets; i++) {
		rows[i].psr = &res->probesets[i];
		rows[i].index = i;
	}
	qsort(rows, res->nprobesets, sizeof(*rows), cmp_rows);
	return rows;
}

static int write_slowdown_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	bool alternate = lb_results_alternate(res);
	struct row *rows;
	size_t i;

	rows = sorted_rows(res);
	if (!rows)
		return -ENOMEM;

	fputs("# loadbench ", f);
	put_comment_text(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput slowdown per probe set, read by slowdown.gp\n", f);
	if (alternate)
		fputs("# --method alternate: slowdown_pct = 100 * (1 - exp(20% trimmed mean over\n"
		      "# the units of alternation of log(on / off throughput))); ci95_low, ci95_high: its 95%\n"
		      "# confidence interval (moving-block bootstrap over the units);\n"
		      "# throughput_median in operations/s, its probes on; units: units used;\n"
		      "# ci_half_width in percentage points; precision_reached: 1 when\n"
		      "# ci_half_width <= the target (config precision). Sorted by slowdown;\n"
		      "# NaN = missing value.\n", f);
	else
		fputs("# slowdown_pct = 100 * (1 - median traced / median baseline throughput);\n"
		      "# ci95_low, ci95_high: its 95% confidence interval (paired percentile "
		      "bootstrap);\n# throughput_median in operations/s. Sorted by slowdown; NaN = "
		      "missing value.\n", f);
	fprintf(f, "# baseline throughput_median: ");
	put_num(f, 2, res->baseline.summary.throughput_median);
	fprintf(f, " ops/s over %zu run(s)\n", res->baseline.nruns);
	fprintf(f, "# name\tslowdown_pct\tci95_low\tci95_high\tthroughput_median%s\n",
		alternate ? "\tunits\tci_half_width\tprecision_reached" : "");
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_summary *s = &rows[i].psr->summary;

		put_name(f, rows[i].psr->name);
		fputc('\t', f);
		put_num(f, 4, s->slowdown_pct);
		fputc('\t', f);
		put_num(f, 4, s->slowdown_ci95[0]);
		fputc('\t', f);
		put_num(f, 4, s->slowdown_ci95[1]);
		fputc('\t', f);
		put_num(f, 2, s->throughput_median);
		if (alternate) {
			fprintf(f, "\t%d\t", s->units);
			put_num(f, 4, s->ci_half_width);
			fprintf(f, "\t%d", s->precision_reached ? 1 : 0);
		}
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

/* The largest round number of @psr's runs (0 without runs). */
static int last_round(const struct lb_probeset_result *psr)
{
	int last = 0;
	size_t i;

	for (i = 0; i < psr->nruns; i++)
		if (psr->runs[i].round > last)
			last = psr->runs[i].round;
	return last;
}

/* One row of throughput.dat's index 0: set number, name, tracer, median, runs, last round. */
static void put_set_row(FILE *f, int set, const struct lb_probeset_result *psr)
{
	fprintf(f, "%d\t", set);
	put_name(f, psr->name);
	fputc('\t', f);
	put_name(f, psr->tracer);
	fputc('\t', f);
	put_num(f, 2, psr->summary.throughput_median);
	fprintf(f, "\t%zu\t%d\n", psr->nruns, last_round(psr));
}

/* The samples of @psr's runs, one block (ended by a blank line) per run. */
static void put_samples(FILE *f, int set, const struct lb_probeset_result *psr)
{
	size_t i, j;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];
		double len = r->seconds;

		if (!r->nsamples || !(len > 0) || !(r->sample_interval > 0))
			continue;
		for (j = 0; j < r->nsamples; j++) {
			double from = j * r->sample_interval;
			double to = j + 1 == r->nsamples ? len : (j + 1) * r->sample_interval;
			double mid;

			if (from > len)
				from = len;
			if (to > len)
				to = len;
			mid = (from + to) / 2;
			fprintf(f, "%d\t%d\t%.4f\t%.5f\t", set, r->round, mid,
				r->round - 1 + mid / len);
			put_num(f, 2, r->samples[j]);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

static int write_throughput_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs("# loadbench ", f);
	put_comment_text(f, lb_fmt_or_unknown(res->version));
	fputs(": throughput over time, every run, read by throughput.gp\n", f);
	fputs("# Two blocks (gnuplot index 0 and 1), separated by two blank lines.\n"
	      "# index 0, one row per probe set: set (0 = the baseline, then the probe sets in\n"
	      "#   run order), name, tracer, throughput_median (ops/s), runs, last_round.\n"
	      "# index 1, one row per throughput sample, one block per run: set, round,\n"
	      "#   t (s, middle of the sample's interval in the measured window), x = round - 1 +\n"
	      "#   t / window length (the plot's axis: one unit per round), ops_per_s.\n", f);
	fputs("# set\tname\ttracer\tthroughput_median\truns\tlast_round\n", f);
	put_set_row(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		put_set_row(f, (int)i + 1, &res->probesets[i]);
	fputs("\n\n# set\tround\tt\tx\tops_per_s\n", f);
	put_samples(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		put_samples(f, (int)i + 1, &res->probesets[i]);
	return 0;
}

/* ---- throughput under --method alternate ---------------------------------------------------- */

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
	const struct row *a = pa, *b = pb;
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
	struct row *rows = calloc(res->nprobesets + 1, sizeof(*rows));
	size_t i, n = 0;

	if (!slot || !rows) {
		free(slot);
		free(rows);
		return NULL;
	}
	for (i = 0; i < res->nprobesets; i++)
		if (res->probesets[i].nslices)
			rows[n++] = (struct row){ &res->probesets[i], i };
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
		put_num(f, 2, sl->seconds > 0 ? sl->ops / sl->seconds : NAN);
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
	put_comment_text(f, lb_fmt_or_unknown(res->version));
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
	put_set_row(f, 0, &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		put_set_row(f, (int)i + 1, &res->probesets[i]);

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
			put_num(f, 2, plain->throughput);
			fputc('\n', f);
		}
		slices_on(psr, on, res->nprobesets);
		for (j = 0; j < res->nprobesets; j++) {
			if (!on[j])
				continue;
			fprintf(f, "%d\t%zu\t", slot, j + 1);
			put_num(f, 2, res->probesets[j].summary.throughput_median);
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
		put_name(f, off ? label : lb_fmt_or_unknown(psr->name));
		fputc('\t', f);
		put_num(f, 3, alternation_span(psr));
		fputc('\n', f);
	}
	free(slots);
	free(on);
	return 0;
}

/* 100 * @part / @whole, NaN when @whole is 0. */
static double pct_of(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : NAN;
}

/*
 * The mark cost.gp prints beside a probe set's events: "1,772,788 lost (61.0%)",
 * "99.7% overwritten", both, or "none".
 */
static const char *event_mark(const struct lb_summary *s, char *buf, size_t len)
{
	char lost[128], pct[32];

	if (s->lost_events && s->overwritten_events)
		snprintf(buf, len, "%s, %s overwritten",
			 lb_fmt_lost(s, ",", " lost", lost, sizeof(lost)),
			 lb_results_share(s->overwritten_events, s->events, pct, sizeof(pct)));
	else if (s->lost_events)
		lb_fmt_lost(s, ",", " lost", buf, len);
	else if (s->overwritten_events)
		snprintf(buf, len, "%s overwritten",
			 lb_results_share(s->overwritten_events, s->events, pct, sizeof(pct)));
	else
		snprintf(buf, len, "none");
	return buf;
}

/* A share for a .dat column: six significant digits, so that a tiny one is not 0. */
static void put_share(FILE *f, double pct)
{
	if (isfinite(pct))
		fprintf(f, "%.6g", pct);
	else
		fputs("NaN", f);
}

static int write_cost_dat(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	struct row *rows;
	char mark[256];
	size_t i;

	rows = sorted_rows(res);
	if (!rows)
		return -ENOMEM;
	fputs("# loadbench ", f);
	put_comment_text(f, lb_fmt_or_unknown(res->version));
	fputs(": cost per event and events per operation, read by cost.gp\n", f);
	fputs("# ns_per_event = (1/traced - 1/baseline median throughput) / events_per_op, in ns;\n"
	      "# events_per_op: median over runs of events / operations; events, lost_events:\n"
	      "# sums over runs; lost_pct = 100 * lost / events (never recorded: dropped);\n"
	      "# overwritten_pct: recorded, then overwritten (flight recorder, by design);\n"
	      "# mark: what cost.gp prints beside the events (lost and overwritten, or none).\n"
	      "# Same order as slowdown.dat; NaN = missing value.\n", f);
	fputs("# name\tns_per_event\tevents_per_op\tevents\tlost_events\tlost_pct\t"
	      "overwritten_pct\tslowdown_pct\tmark\n", f);
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_summary *s = &rows[i].psr->summary;

		put_name(f, rows[i].psr->name);
		fputc('\t', f);
		put_num(f, 2, s->ns_per_event);
		fputc('\t', f);
		put_num(f, 4, s->events_per_op);
		fprintf(f, "\t%" PRIu64 "\t%" PRIu64 "\t", s->events, s->lost_events);
		put_share(f, pct_of(s->lost_events, s->events));
		fputc('\t', f);
		put_share(f, pct_of(s->overwritten_events, s->events));
		fputc('\t', f);
		put_num(f, 4, s->slowdown_pct);
		fputc('\t', f);
		put_name(f, event_mark(s, mark, sizeof(mark)));
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

/*
 * The environment of @res in one line: kernel, machine, CPU, CPUs, virtualization, and the
 * VM runner's accelerator.
 */
static const char *environment(const struct lb_results *res, char *buf, size_t len)
{
	const struct lb_host *h = &res->host;
	const char *virt, *accel;
	char cpus[32];

	virt = h->virtualization && strcmp(h->virtualization, "none") ? h->virtualization : NULL;
	accel = lb_fmt_or(h->vm_accelerator, NULL);
	snprintf(cpus, sizeof(cpus), h->ncpus > 0 ? ", %d CPUs" : "", h->ncpus);
	snprintf(buf, len, "Linux %s %s, %s%s%s%s%s%s%s",
		 lb_fmt_or_unknown(h->kernel_release), lb_fmt_or_unknown(h->machine),
		 lb_fmt_or_unknown(h->cpu_model),
		 cpus, virt ? ", virtualization " : "", lb_fmt_or(virt, ""),
		 lb_results_emulated(res) ? " (emulated: timings are not real)" : "",
		 accel ? ", VM accelerator " : "", lb_fmt_or(accel, ""));
	return buf;
}

/*
 * The placement of @c, short: the first flow's line as lb_workload_describe()
 * wrote it, and for more flows only their CPUs ("; flows 1-3 server/client
 * CPU 0/0 1/1 0/0"); the full line is in results.json.
 */
static const char *short_placement(const struct lb_config *c, char *buf, size_t len)
{
	const char *p = lb_fmt_or_unknown(c->placement), *cut = strstr(p, "; flow");
	size_t off, i;

	off = (size_t)snprintf(buf, len, "%.*s", cut ? (int)(cut - p) : (int)strlen(p), p);
	if (!cut || c->nflow_placement < 2)
		return buf;
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, "; flows 1-%zu server/client CPU",
					c->nflow_placement - 1);
	for (i = 1; i < c->nflow_placement && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %d/%d",
					c->flow_placement[i].server_cpu,
					c->flow_placement[i].client_cpu);
	return buf;
}

#define FOOTER_WIDTH	140	/* characters of a footer line (1200 px, font 11) */
#define FOOTER_LINES	5	/* lines of a footer at most */

/*
 * Append @text to the gnuplot string expression on @f, wrapped at spaces to
 * lines of FOOTER_WIDTH characters ('a' . "\n" . 'b'); @lines counts the
 * lines written so far. Past @max lines the text is cut with
 * "... (in full in results.json)". Returns the new line count.
 */
static int put_wrapped(FILE *f, const char *text, int lines, int max)
{
	static const char more[] = " ... (in full in results.json)";
	const char *p = text;
	char line[FOOTER_WIDTH + 1];

	while (*p) {
		size_t n = strlen(p), cut = n;

		if (lines >= max)
			return lines;
		if (n > FOOTER_WIDTH) {
			cut = FOOTER_WIDTH;
			while (cut > FOOTER_WIDTH / 2 && p[cut] != ' ')
				cut--;
			if (p[cut] != ' ')
				cut = FOOTER_WIDTH;
		}
		if (lines + 1 == max && cut < n) {
			cut = FOOTER_WIDTH - (sizeof(more) - 1);
			while (cut > FOOTER_WIDTH / 2 && p[cut] != ' ')
				cut--;
			snprintf(line, sizeof(line), "%.*s%s", (int)cut, p, more);
			cut = n;
		} else {
			snprintf(line, sizeof(line), "%.*s", (int)cut, p);
		}
		fputs(lines ? " . \"\\n\" . " : "", f);
		put_gp_string(f, line);
		lines++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}

/* "6 units", "6 to 7 units": how many units of alternation the probe sets' CIs are over. */
static const char *units_text(const struct lb_results *res, char *buf, size_t len)
{
	int lo, hi;

	lb_results_units_range(res, &lo, &hi);
	if (lo == hi)
		snprintf(buf, len, "%d unit%s", lo, lo == 1 ? "" : "s");
	else
		snprintf(buf, len, "%d to %d units", lo, hi);
	return buf;
}

/*
 * --method alternate: how the numbers were measured, and the probe sets
 * whose interval did not narrow to the target (their half-width), in @buf.
 */
static const char *method_line(const struct lb_results *res, char *buf, size_t len)
{
	const struct lb_config *c = &res->config;
	char units[64];
	size_t off, i, nmissed = 0;

	off = (size_t)snprintf(buf, len, "method alternate: probes on and off in %g s slices "
			       "(%g s settling), mirrored units; 95%% CI: moving-block bootstrap "
			       "over %s", c->slice, c->settle,
			       units_text(res, units, sizeof(units)));
	for (i = 0; i < res->nprobesets && off < len; i++) {
		const struct lb_summary *s = &res->probesets[i].summary;

		if (s->precision_reached)
			continue;
		if (!nmissed++)
			off += (size_t)snprintf(buf + off, len - off,
						"; not within \u00b1%g pp after %g s:",
						c->precision, c->max_time);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s %s",
						nmissed > 1 ? "," : "",
						lb_fmt_or_unknown(res->probesets[i].name));
		if (off < len && isfinite(s->ci_half_width))
			off += (size_t)snprintf(buf + off, len - off, " (\u00b1%.2f)",
						s->ci_half_width);
	}
	return buf;
}

/*
 * "footer = 'ENVIRONMENT' . "\n" . 'PLACEMENT | loadbench VERSION | STARTED'", wrapped
 * (footer_lines says how many lines), then under --method alternate how it
 * measured (method_line()), then the probe sets that could not run here, if
 * any; the placement names the server engine ("engine=uring/multishot"), or
 * " | engine E" follows it.
 */
static void put_footer(const struct lb_results *res, FILE *f)
{
	const struct lb_config *c = &res->config;
	bool engine = c->engine && (!c->placement || !strstr(c->placement, "engine="));
	bool alternate = lb_results_alternate(res);
	char line[2048], place[1024];
	int lines;

	fputs("\nfooter = ", f);
	lines = put_wrapped(f, environment(res, line, sizeof(line)), 0, FOOTER_LINES);
	snprintf(line, sizeof(line), "%s%s%s | loadbench %s%s%s",
		 short_placement(c, place, sizeof(place)), engine ? " | engine " : "",
		 engine ? c->engine : "", lb_fmt_or_unknown(res->version),
		 res->started ? " | " : "",
		 lb_fmt_or(res->started, ""));
	/* The last lines are kept for the method and the probe sets that could not run. */
	lines = put_wrapped(f, line, lines,
			    FOOTER_LINES - (res->nskipped ? 1 : 0) - (alternate ? 1 : 0));
	if (alternate)
		lines = put_wrapped(f, method_line(res, line, sizeof(line)), lines,
				    FOOTER_LINES - (res->nskipped ? 1 : 0));
	if (res->nskipped) {
		size_t i, off;

		off = (size_t)snprintf(line, sizeof(line), "not measured, cannot run here:");
		for (i = 0; i < res->nskipped && off < sizeof(line); i++)
			off += (size_t)snprintf(line + off, sizeof(line) - off, "%s %s",
						i ? "," : "",
						lb_fmt_or_unknown(res->skipped[i].name));
		lines = put_wrapped(f, line, lines, FOOTER_LINES);
	}
	if (!lines)
		fputs("''", f);
	fprintf(f, "\nfooter_lines = %d\n", lines);
}

/*
 * "note = '...'": what a reader must know before reading any number off the
 * figure (emulated timings, an interrupted run), in vermillion; '' otherwise.
 */
static void put_note(const struct lb_results *res, FILE *f)
{
	bool emulated = lb_results_emulated(res);
	char line[512];

	snprintf(line, sizeof(line), "%s%s%s",
		 emulated ? "EMULATED (QEMU TCG): timings are not real; compare probe sets "
			    "with each other, not with native numbers" : "",
		 emulated && !res->complete ? " | " : "",
		 res->complete ? "" : "INTERRUPTED: partial results, fewer rounds than asked for");
	fputs("note = ", f);
	put_gp_string(f, line);
	fputc('\n', f);
}

/* What one operation of @workload is: "round trip" (request/reply), "datagram received". */
static const char *op_name(const char *workload, bool plural)
{
	if (workload && (!strcmp(workload, "udp-stream") || !strcmp(workload, "pcap-flood")))
		return plural ? "datagrams received" : "datagram received";
	if (workload && !strcmp(workload, "icmp-flood"))
		return plural ? "echo round trips" : "echo round trip";
	if (workload && strstr(workload, "-rr"))
		return plural ? "round trips" : "round trip";
	return plural ? "operations" : "operation";
}

/* "op_name = 'round trip'" and "op_names = 'round trips'". */
static void put_op_names(const struct lb_results *res, FILE *f)
{
	fputs("op_name = ", f);
	put_gp_string(f, op_name(res->config.workload, false));
	fputs("\nop_names = ", f);
	put_gp_string(f, op_name(res->config.workload, true));
	fputc('\n', f);
}

static void put_intro_from(FILE *f, const char *name, const char *what, const char *version,
			   const char *template)
{
	/* The version is the results file's: a newline in it would start a gnuplot command. */
	fprintf(f, "# %s.gp: %s, written by loadbench ", name, what);
	put_comment_text(f, lb_fmt_or_unknown(version));
	fprintf(f, ".\n# Render it in this directory with: gnuplot %s.gp (it reads %s.dat\n"
		"# and writes %s.png, %s.svg and %s.pdf). The header sets the texts; the rest\n"
		"# is the template plots/%s.gp.\n\n", name, name, name, name, name, template);
}

static void put_intro(FILE *f, const char *name, const char *what, const char *version)
{
	put_intro_from(f, name, what, version, name);
}

/*
 * "baseline 88,100 ops/s (median of 3), udp-rr, 2 s x 3"; under --method
 * alternate, what the slowdowns are against (the same workload, probes off)
 * and its plain slices (nothing armed; median of the alternations): "vs. its
 * probes off in the same workload (udp-rr); plain 76,783 ops/s, 2 workloads".
 */
static const char *baseline_line(const struct lb_results *res, char *buf, size_t len)
{
	const struct lb_config *c = &res->config;
	char num[64];

	if (lb_results_alternate(res)) {
		snprintf(buf, len, "vs. its probes off in the same workload (%s); nothing armed "
			 "%s ops/s, %zu workload%s%s", lb_fmt_or_unknown(c->workload),
			 lb_fmt_grouped(res->baseline.summary.throughput_median, ",", num,
					sizeof(num)),
			 res->baseline.nruns, res->baseline.nruns == 1 ? "" : "s",
			 res->complete ? "" : " (interrupted: incomplete)");
		return buf;
	}
	snprintf(buf, len, "baseline %s ops/s (median of %zu), %s, %g s x %d%s",
		 lb_fmt_grouped(res->baseline.summary.throughput_median, ",", num, sizeof(num)),
		 res->baseline.nruns, lb_fmt_or_unknown(c->workload), c->duration, c->repeat,
		 res->complete ? "" : " (interrupted: incomplete)");
	return buf;
}

/* The texts every figure of a results directory shares: footer, note, operation names. */
static void put_common(const struct lb_results *res, FILE *f)
{
	put_footer(res, f);
	put_note(res, f);
	put_op_names(res, f);
	fputc('\n', f);
}

static void write_slowdown_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	double cv = res->baseline.summary.throughput_cv;
	bool alternate = lb_results_alternate(res);
	char line[1024], units[64];

	put_intro(f, "slowdown", "throughput slowdown per probe set", res->version);
	fputs("title = ", f);
	put_gp_string(f, "Throughput slowdown under tracing");
	fputs("\nsubtitle = ", f);
	put_gp_string(f, baseline_line(res, line, sizeof(line)));
	/*
	 * The band a slowdown must leave to be told from noise (as the run's
	 * warning says). Under alternate the intervals carry the noise of the
	 * slices themselves, and the plain runs' spread says nothing about them.
	 */
	fputs("\nnoise_pct = ", f);
	put_num(f, 2, !alternate && res->baseline.nruns > 1 && cv > 0 ? 200 * cv : NAN);
	if (alternate) {
		snprintf(line, sizeof(line), "whiskers: 95%% CI, moving-block bootstrap over %s",
			 units_text(res, units, sizeof(units)));
		fputs("\nalternate = 1\nci_label = ", f);
		put_gp_string(f, line);
		fputs("\nno_ci_label = ", f);
		put_gp_string(f, "no confidence interval: it needs 2 or more units");
	}
	put_common(res, f);
}

static void write_throughput_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	double iv = 0;
	char line[1024];
	size_t i;

	for (i = 0; i < res->baseline.nruns && !(iv > 0); i++)
		iv = res->baseline.runs[i].sample_interval;
	put_intro(f, "throughput", "throughput over time, every run", res->version);
	fputs("title = ", f);
	put_gp_string(f, "Throughput over time, every repetition");
	if (iv > 0)
		snprintf(line, sizeof(line), "one %g s sample per point; %g s measured per run, "
			 "%g s warm-up before it; dashed and in the key: median ops/s", iv,
			 res->config.duration, res->config.warmup);
	else
		snprintf(line, sizeof(line), "no per-interval samples in these results");
	fputs("\nsubtitle = ", f);
	put_gp_string(f, line);
	put_common(res, f);
}

static void write_throughput_alt_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	put_intro_from(f, "throughput", "throughput of every slice of every alternation",
		       res->version, "throughput-alternate");
	fputs("title = ", f);
	put_gp_string(f, "Throughput over time, the probes switched on and off");
	snprintf(line, sizeof(line), "one point per %g s slice (measured after %g s settling); "
		 "dashed: median with the probes on; black: plain run before", res->config.slice,
		 res->config.settle);
	fputs("\nsubtitle = ", f);
	put_gp_string(f, line);
	put_common(res, f);
}

static void write_cost_header(const void *arg, FILE *f)
{
	const struct lb_results *res = arg;
	char line[1024];

	put_intro(f, "cost", "cost per event and events per operation", res->version);
	fputs("title = ", f);
	put_gp_string(f, "What each traced event costs");
	fputs("\nsubtitle = ", f);
	put_gp_string(f, baseline_line(res, line, sizeof(line)));
	put_common(res, f);
}

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
};

int lb_plot_open(const char *dir, struct lb_plot **plotp, char *err, size_t errlen)
{
	struct lb_plot *plot;
	struct stat st;
	size_t len;
	int ret;

	*plotp = NULL;
	plot = calloc(1, sizeof(*plot));
	if (plot)
		plot->dir = strdup(dir);
	if (!plot || !plot->dir) {
		free(plot);
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	plot->dirfd = -1;
	plot->stagefd = -1;
	/* O_NOFOLLOW applies to the last component only: "link/" and "link/." would follow. */
	len = strlen(plot->dir);
	for (;;) {
		if (len > 1 && plot->dir[len - 1] == '/')
			len--;
		else if (len > 2 && plot->dir[len - 1] == '.' && plot->dir[len - 2] == '/')
			len -= 2;
		else
			break;
		plot->dir[len] = '\0';
	}
	plot->dirfd = open(plot->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (plot->dirfd < 0) {
		ret = -errno;
		if (!lstat(plot->dir, &st) && S_ISLNK(st.st_mode)) {
			ret = -ELOOP;
			lb_seterr(err, errlen, "%s is a symbolic link, and loadbench does not "
				  "write figures through one (whoever can change it would choose "
				  "where they go): give the directory it points to instead", dir);
		} else {
			lb_seterr(err, errlen, "cannot open the results directory %s: %s", dir,
				  strerror(-ret));
		}
		goto err;
	}
	if (fstat(plot->dirfd, &st)) {
		ret = -errno;
		lb_seterr(err, errlen, "cannot open the results directory %s: %s", dir,
			  strerror(-ret));
		goto err;
	}
	if (st.st_uid != getuid() && st.st_uid != 0 && (st.st_mode & (S_IWGRP | S_IWOTH))) {
		ret = -EPERM;
		lb_seterr(err, errlen, "%s belongs to uid %u and others may write in it (mode "
			  "%03o), so they could swap the figures loadbench writes there: make it "
			  "writable by its owner only (chmod go-w %s) or run loadbench as uid %u",
			  dir, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777), dir,
			  (unsigned int)st.st_uid);
		goto err;
	}
	*plotp = plot;
	return 0;
err:
	lb_plot_close(plot, NULL, 0);
	return ret;
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
 * Move each regular file of the staging directory into the results directory.
 * 0, or -errno of the first that could not be moved (the others still are).
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
		if (fstatat(plot->stagefd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (renameat(plot->stagefd, de->d_name, plot->dirfd, de->d_name) && !ret) {
			ret = -errno;
			lb_seterr(err, errlen, "cannot write %s/%s: %s", plot->dir, de->d_name,
				  strerror(-ret));
		}
	}
	closedir(d);
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
 * A figure: its name (NAME.dat, NAME.gp), what writes its two files, and its
 * template plots/TEMPLATE.gp (NULL: plots/NAME.gp).
 */
struct figure {
	const char *name;
	int (*write_dat)(const void *arg, FILE *f);
	void (*write_header)(const void *arg, FILE *f);
	const char *template;
};

static const struct figure result_figures[] = {
	{ "slowdown", write_slowdown_dat, write_slowdown_header, NULL },
	{ "throughput", write_throughput_dat, write_throughput_header, NULL },
	{ "cost", write_cost_dat, write_cost_header, NULL },
};

/*
 * --method alternate: the throughput figure shows slices, not runs; its own
 * template, so that the figure of --method runs stays as it was.
 */
static const struct figure throughput_alt_figure = {
	"throughput", write_throughput_alt_dat, write_throughput_alt_header, "throughput-alternate"
};

/*
 * Write @fig's NAME.dat and NAME.gp (header, then @template_dir/NAME.gp) from
 * @arg into @plot's staging directory, and add it to the figures to render.
 * A figure that fails leaves neither file there, so none half-written reaches
 * the results directory.
 */
static int write_figure(struct lb_plot *plot, const struct figure *fig, const void *arg,
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
	if (asprintf(&tmpl, "%s/%s.gp", template_dir,
		     fig->template ? fig->template : fig->name) < 0) {
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
	ret = copy_file(tmpl, fgp);
	if (ret) {
		lb_seterr(err, errlen, "cannot read the figure template %s: %s", tmpl,
			  strerror(-ret));
		goto out;
	}
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
	plot->figures[plot->nfigures++] = fig->name;
out:
	close_file(fdat);
	close_file(fgp);
	if (ret && plot->stagefd >= 0) {
		unlinkat(plot->stagefd, dat, 0);
		unlinkat(plot->stagefd, gp, 0);
	}
	free(tmpl);
	return ret;
}

int lb_plot_write(struct lb_plot *plot, const struct lb_results *res, const char *template_dir,
		  char *err, size_t errlen)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(result_figures); i++) {
		const struct figure *fig = &result_figures[i];

		if (fig->write_dat == write_throughput_dat && lb_results_alternate(res))
			fig = &throughput_alt_figure;
		ret = write_figure(plot, fig, res, template_dir, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- compare -------------------------------------------------------------------------------- */

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
		put_name(f, cmp->labels[m]);
		fputc('\t', f);
		put_num(f, 2, cmp->res[m]->baseline.summary.throughput_median);
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
			put_name(f, cmp->groups[g]);
			fputc('\t', f);
			put_num(f, 4, s->slowdown_pct);
			fputc('\t', f);
			put_num(f, 4, s->slowdown_ci95[0]);
			fputc('\t', f);
			put_num(f, 4, s->slowdown_ci95[1]);
			fputc('\t', f);
			put_num(f, 2, s->throughput_median);
			fputc('\n', f);
		}
	}
	fputs("\n\n# group\tname\n", f);
	for (g = 0; g < cmp->ngroups; g++) {
		fprintf(f, "%zu\t", g);
		put_name(f, cmp->groups[g]);
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
	put_intro(f, "compare", "the slowdown of several results directories side by side",
		  cmp->n ? cmp->res[0]->version : NULL);
	fputs("title = ", f);
	put_gp_string(f, "Throughput slowdown under tracing, compared");
	fputs("\nsubtitle = ", f);
	put_gp_string(f, bars < cmp->n * cmp->ngroups ?
		      "bars: median slowdown; whiskers: 95% confidence interval; "
		      "no bar: not measured in that run" :
		      "bars: median slowdown; whiskers: 95% confidence interval");
	snprintf(line, sizeof(line), "in common: %s | loadbench %s",
		 lb_fmt_or_unknown(cmp->common),
		 lb_fmt_or_unknown(cmp->n ? cmp->res[0]->version : NULL));
	fputs("\nfooter = ", f);
	lines = put_wrapped(f, line, 0, FOOTER_LINES);
	fprintf(f, "\nfooter_lines = %d\nnote = ", lines);
	put_gp_string(f, any_emulated ? "runs marked emulated were timed under QEMU TCG: compare "
			  "their probe sets with each other, not with native numbers" : "");
	fputs("\n\n", f);
}

static const struct figure compare_figure = {
	"compare", write_compare_dat, write_compare_header, NULL
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
	ret = write_figure(plot, &compare_figure, &cmp, template_dir, err, errlen);
	free(cmp.groups);
	return ret;
}

int lb_plot_render(struct lb_plot *plot, char *err, size_t errlen)
{
	char gnuplot[PATH_MAX], script[64], where[PATH_MAX + 64];
	size_t i;
	int ret;

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
		ret = lb_gnuplot_run(gnuplot, plot->stagefd, where, script, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
