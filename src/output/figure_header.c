// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The texts every figure of a results directory shares, as gnuplot string
 * variables in its script's header: the footer (environment, placement,
 * version, method, what could not run), the note a reader must see first,
 * the names of an operation, and the subtitle's baseline line; and the
 * order of the rows of a figure by rows.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "format.h"
#include "loadgen.h"
#include "results.h"
#include "util.h"
#include "verdict.h"

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
	accel = lb_str_or(h->vm_accelerator, NULL);
	snprintf(cpus, sizeof(cpus), h->ncpus > 0 ? ", %d CPUs" : "", h->ncpus);
	snprintf(buf, len, "Linux %s %s, %s%s%s%s%s%s%s",
		 lb_fmt_or_unknown(h->kernel_release), lb_fmt_or_unknown(h->machine),
		 lb_fmt_or_unknown(h->cpu_model),
		 cpus, virt ? ", virtualization " : "", lb_str_or(virt, ""),
		 lb_results_emulated(res) ? LB_EMULATED_LABEL : "",
		 accel ? ", VM accelerator " : "", lb_str_or(accel, ""));
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

/* "6 units", "6 to 7 units": how many units of alternation the probe sets' CIs are over. */
const char *lb_fig_units_text(const struct lb_results *res, char *buf, size_t len)
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
			       lb_fig_units_text(res, units, sizeof(units)));
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
 * What the sets' kprobes were, in @buf: "kprobes: lttng+kprobe 11 kprobes:
 * 11 ftrace-based; ..."; "" when no set says anything about kprobes.
 */
static const char *kprobes_line(const struct lb_results *res, char *buf, size_t len)
{
	size_t off = 0, i, n = 0;
	char desc[320];

	buf[0] = '\0';
	for (i = 0; i < res->nprobesets && off < len; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		if (!lb_kprobes_info_present(&psr->kprobes))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s", n++ ? "; " : "kprobes: ",
					lb_fmt_or_unknown(psr->name),
					lb_kprobes_describe(&psr->kprobes, desc, sizeof(desc)));
	}
	return buf;
}

/*
 * "footer = 'ENVIRONMENT' . "\n" . 'PLACEMENT | loadbench VERSION | STARTED'", wrapped
 * (footer_lines says how many lines), then under --method alternate how it
 * measured (method_line()), what the sets' kprobes were (kprobes_line()),
 * then the probe sets that could not run here, if
 * any; the placement names the server engine ("engine=uring/multishot"), or
 * " | engine E" follows it.
 */
static void put_footer(const struct lb_results *res, FILE *f)
{
	const struct lb_config *c = &res->config;
	bool engine = c->engine && (!c->placement || !strstr(c->placement, "engine="));
	bool alternate = lb_results_alternate(res);
	char line[2048], place[1024], kprobes[1024];
	bool kp = *kprobes_line(res, kprobes, sizeof(kprobes));
	int lines;

	fputs("\nfooter = ", f);
	lines = lb_fig_put_wrapped(f, environment(res, line, sizeof(line)), 0, LB_FIG_FOOTER_LINES);
	snprintf(line, sizeof(line), "%s%s%s | loadbench %s%s%s",
		 short_placement(c, place, sizeof(place)), engine ? " | engine " : "",
		 engine ? c->engine : "", lb_fmt_or_unknown(res->version),
		 res->started ? " | " : "",
		 lb_str_or(res->started, ""));
	/* The last lines are kept for the method, the kprobes and the sets that could not run. */
	lines = lb_fig_put_wrapped(f, line, lines, LB_FIG_FOOTER_LINES -
				   (res->nskipped ? 1 : 0) - (alternate ? 1 : 0) - kp);
	if (alternate)
		lines = lb_fig_put_wrapped(f, method_line(res, line, sizeof(line)), lines,
					   LB_FIG_FOOTER_LINES - (res->nskipped ? 1 : 0) - kp);
	if (kp)
		lines = lb_fig_put_wrapped(f, kprobes, lines,
					   LB_FIG_FOOTER_LINES - (res->nskipped ? 1 : 0));
	if (res->nskipped) {
		size_t i, off;

		off = (size_t)snprintf(line, sizeof(line), "not measured, cannot run here:");
		for (i = 0; i < res->nskipped && off < sizeof(line); i++)
			off += (size_t)snprintf(line + off, sizeof(line) - off, "%s %s",
						i ? "," : "",
						lb_fmt_or_unknown(res->skipped[i].name));
		lines = lb_fig_put_wrapped(f, line, lines, LB_FIG_FOOTER_LINES);
	}
	if (!lines)
		fputs("''", f);
	fprintf(f, "\nfooter_lines = %d\n", lines);
}

/*
 * "note = '...'": what a reader must know before reading any number off the
 * figure (emulated timings, an interrupted run or one a failed run cut short), in
 * vermillion; '' otherwise.
 */
static void put_note(const struct lb_results *res, FILE *f)
{
	bool emulated = lb_results_emulated(res);
	char line[512];

	snprintf(line, sizeof(line), "%s%s%s",
		 emulated ? "EMULATED (QEMU TCG): timings are not real; compare probe sets "
			    "with each other, not with native numbers" : "",
		 emulated && !res->complete ? " | " : "",
		 res->complete ? "" : lb_results_failed(res) ?
		 "INCOMPLETE: a run failed (its warning: summary.txt), fewer runs than asked for" :
		 "INTERRUPTED: partial results, fewer rounds than asked for");
	fputs("note = ", f);
	lb_fig_put_string(f, line);
	fputc('\n', f);
}

/*
 * What one operation of @workload is: "round trip" (request/reply), "datagram
 * received", as its workload type says; a name loadgen does not know (a file
 * from elsewhere) by its "-rr" suffix, else "operation".
 */
static const char *op_name(const char *workload, bool plural)
{
	const struct lb_workload_traits *t = lb_workload_traits(workload);

	if (t)
		return plural ? t->ops : t->op;
	if (workload && strstr(workload, "-rr"))
		return plural ? "round trips" : "round trip";
	return plural ? "operations" : "operation";
}

/* "op_name = 'round trip'" and "op_names = 'round trips'". */
static void put_op_names(const struct lb_results *res, FILE *f)
{
	fputs("op_name = ", f);
	lb_fig_put_string(f, op_name(res->config.workload, false));
	fputs("\nop_names = ", f);
	lb_fig_put_string(f, op_name(res->config.workload, true));
	fputc('\n', f);
}

/*
 * "baseline 88,100 ops/s (median of 3), udp-rr, 2 s x 3"; under --method
 * alternate, what the slowdowns are against (the same workload, probes off)
 * and its plain slices (nothing armed; median over the alternations, one
 * running workload each): "each set vs. its probes off in the same running
 * udp-rr; nothing armed: 76,783 ops/s (plain slices of 2 alternations)".
 */
const char *lb_fig_baseline_line(const struct lb_results *res, char *buf, size_t len)
{
	const struct lb_config *c = &res->config;
	const char *cut = res->complete ? "" : lb_results_failed(res) ?
			  " (a run failed: incomplete)" : " (interrupted: incomplete)";
	char num[64];

	if (lb_results_alternate(res)) {
		snprintf(buf, len, "each set vs. its probes off in the same running %s; nothing "
			 "armed: %s ops/s (plain slices of %zu alternation%s)%s",
			 lb_fmt_or_unknown(c->workload),
			 lb_fmt_grouped(res->baseline.summary.throughput_median, ",", num,
					sizeof(num)),
			 res->baseline.nruns, res->baseline.nruns == 1 ? "" : "s", cut);
		return buf;
	}
	snprintf(buf, len, "baseline %s ops/s (median of %zu), %s, %g s x %d%s",
		 lb_fmt_grouped(res->baseline.summary.throughput_median, ",", num, sizeof(num)),
		 res->baseline.nruns, lb_fmt_or_unknown(c->workload), c->duration, c->repeat, cut);
	return buf;
}

/* The sets that could not run here, "; not measured (cannot run here): a, b", in @buf. */
static const char *skipped_line(const struct lb_results *res, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < res->nskipped && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? ", " : "Not measured (cannot run here): ",
					lb_fmt_or_unknown(res->skipped[i].name));
	if (off && off < len)
		snprintf(buf + off, len - off, ".");
	return buf;
}

void lb_fig_put_caption(const struct lb_results *res, const char *what, FILE *f, bool tex)
{
	char env[1024], method[2048], kprobes[1024], skipped[2048];
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	bool emulated = lb_results_emulated(res);

	if (!m)
		return;
	fprintf(m, "%s Measured on %s; %s; loadbench %s, %s. Command: %s.", what,
		environment(res, env, sizeof(env)), lb_fmt_or_unknown(res->config.placement),
		lb_fmt_or_unknown(res->version), lb_fmt_or_unknown(res->started),
		lb_fmt_or_unknown(res->config.command_line));
	if (lb_results_alternate(res))
		fprintf(m, " Method: %s.", method_line(res, method, sizeof(method)) +
			strlen("method "));
	if (*kprobes_line(res, kprobes, sizeof(kprobes)))
		fprintf(m, " %c%s.", 'K', kprobes + 1);
	if (*skipped_line(res, skipped, sizeof(skipped)))
		fprintf(m, " %s", skipped);
	if (emulated)
		fputs(" EMULATED (QEMU TCG): the timings are not real; compare the probe sets with "
		      "each other, not with native numbers.", m);
	if (!res->complete)
		fputs(lb_results_failed(res) ? " INCOMPLETE: a run failed, fewer runs than asked "
		      "for." : " INTERRUPTED: partial results, fewer rounds than asked for.", m);
	lb_fig_put_caption_stream(m, &text, f, tex);
}

/* Smaller key first, keys that are not finite before all; the sets' own order between equals. */
static int cmp_row(const void *a, const void *b, void *keys)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	double x = ((const double *)keys)[i], y = ((const double *)keys)[j];

	if (isfinite(x) != isfinite(y))
		return isfinite(x) ? 1 : -1;
	if (isfinite(x) && x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

size_t *lb_fig_row_order(const struct lb_results *res,
			 double (*key)(const struct lb_probeset_result *psr))
{
	size_t n = res->nprobesets, *order = malloc((n ? n : 1) * sizeof(*order));
	double *keys = malloc((n ? n : 1) * sizeof(*keys));

	if (!order || !keys) {
		free(order);
		free(keys);
		return NULL;
	}
	for (size_t k = 0; k < n; k++) {
		order[k] = k;
		keys[k] = key(&res->probesets[k]);
	}
	qsort_r(order, n, sizeof(*order), cmp_row, keys);
	free(keys);
	return order;
}

/* The texts every figure of a results directory shares: footer, note, operation names. */
void lb_fig_put_common(const struct lb_results *res, FILE *f)
{
	put_footer(res, f);
	put_note(res, f);
	put_op_names(res, f);
	fputc('\n', f);
}
