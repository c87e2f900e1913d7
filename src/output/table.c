// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The result set for people, as text: the "probe set  tracer  ops/s off
 * ops/s on ..." table under the workload, host, method and baseline
 * (nothing armed) lines, then each set beside
 * the set it builds on, the alternation's lines, the capture's and the
 * readers' lines, the warnings and the skipped sets (summary.txt, and what
 * `loadbench run' and `loadbench report --format text' print). Every string
 * may come from someone else's results.json: none is printed raw.
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "atomic.h"
#include "format.h"
#include "results.h"
#include "table.h"
#include "util.h"
#include "verdict.h"

enum {
	LB_COL_NAME,
	LB_COL_TRACER,
	LB_COL_OFF,
	LB_COL_ON,
	LB_COL_CV,
	LB_COL_SLOWDOWN,
	LB_COL_CI,
	LB_COL_EPO,
	LB_COL_NSPE,
	LB_COL_NSCI,
	LB_COL_LOST,
	LB_COL_OVERWRITTEN,
	LB_NCOLS,
};

/*
 * The columns' titles; "ops/s off" and "ops/s on" are the throughputs the
 * slowdown compares (lb_results_off_on()), "ops/s" the unit of lb_tput_unit().
 */
static const char *const lb_col_title[LB_NCOLS] = {
	"probe set", "tracer", "ops/s off", "ops/s on", "CV %", "slowdown %",
	"[95% CI]", "events/op", "ns/event", "[95% CI]", "lost events", "overwritten",
};

struct lb_row {
	const char *cell[LB_NCOLS];
	char buf[LB_NCOLS][64];
};

/* @d with @prec decimals in column @col, or "-" when it is not finite. */
static void lb_row_num(struct lb_row *row, int col, int prec, double d)
{
	if (!isfinite(d)) {
		row->cell[col] = "-";
		return;
	}
	snprintf(row->buf[col], sizeof(row->buf[col]), "%.*f", prec, d);
	row->cell[col] = row->buf[col];
}

/* What the throughput of @c is counted in: ops/s, or a command's runs/s or metric. */
static const char *lb_tput_unit(const struct lb_config *c)
{
	if (!(c->exec_timeout > 0))	/* NAN: not a command */
		return "ops/s";
	return !c->exec_metric ? "runs/s" : c->exec_metric_lower ? "1/metric" : "metric";
}

/*
 * The decimals of the throughputs of @res: a command's runs per second, a
 * metric, a few per second, need three; the baseline's decides for all.
 */
static int lb_tput_prec(const struct lb_results *res, double d)
{
	double b = res->baseline.summary.throughput_median;

	return (isfinite(b) ? b : d) < 100 ? 3 : 0;
}

/*
 * The cells of @psr's row: the throughputs its slowdown compares (its
 * probes off and on, lb_results_off_on()), the spread of the on ones, the
 * slowdown and the events.
 */
static void lb_row_fill(struct lb_row *row, const struct lb_results *res,
			const struct lb_probeset_result *psr)
{
	const struct lb_summary *s = &psr->summary;
	double off, on;
	int i;

	for (i = 0; i < LB_NCOLS; i++)
		row->cell[i] = "-";
	row->cell[LB_COL_NAME] = psr->name ? psr->name : "?";
	row->cell[LB_COL_TRACER] = psr->tracer ? psr->tracer : "?";
	lb_results_off_on(res, psr, &off, &on);	/* -ENOMEM: off NAN, shown as "-" */
	lb_row_num(row, LB_COL_OFF, lb_tput_prec(res, off), off);
	lb_row_num(row, LB_COL_ON, lb_tput_prec(res, on), on);
	lb_row_num(row, LB_COL_CV, 1, 100 * s->throughput_cv);
	lb_row_num(row, LB_COL_SLOWDOWN, 1, s->slowdown_pct);
	if (isfinite(s->slowdown_ci95[0]) && isfinite(s->slowdown_ci95[1])) {
		snprintf(row->buf[LB_COL_CI], sizeof(row->buf[LB_COL_CI]), "[%.1f, %.1f]",
			 s->slowdown_ci95[0], s->slowdown_ci95[1]);
		row->cell[LB_COL_CI] = row->buf[LB_COL_CI];
	}
	lb_row_num(row, LB_COL_EPO, 2, s->events_per_op);
	lb_row_num(row, LB_COL_NSPE, 1, s->ns_per_event);
	if (isfinite(s->ns_per_event_ci95[0]) && isfinite(s->ns_per_event_ci95[1])) {
		snprintf(row->buf[LB_COL_NSCI], sizeof(row->buf[LB_COL_NSCI]), "[%.1f, %.1f]",
			 s->ns_per_event_ci95[0], s->ns_per_event_ci95[1]);
		row->cell[LB_COL_NSCI] = row->buf[LB_COL_NSCI];
	}
	row->cell[LB_COL_LOST] = lb_fmt_lost_cell(s, row->buf[LB_COL_LOST],
						  sizeof(row->buf[LB_COL_LOST]));
	/* Overwritten events are the flight recorder working as designed, not losses. */
	lb_fmt_overwritten_cell(s, row->buf[LB_COL_OVERWRITTEN], sizeof(row->buf[LB_COL_OVERWRITTEN]));
	row->cell[LB_COL_OVERWRITTEN] = row->buf[LB_COL_OVERWRITTEN];
}

/* The width of @cell as lb_row_print() prints it: names from the file are escaped. */
static int lb_cell_width(const char *cell)
{
	size_t w = lb_str_safe_len(cell);

	return w < INT_MAX ? (int)w : INT_MAX;
}

static void lb_row_print(FILE *f, const char *const *cell, const int *width)
{
	int i, pad;

	for (i = 0; i < LB_NCOLS; i++) {
		/* Names left-aligned, numbers right-aligned; no trailing blanks. */
		pad = width[i] - lb_cell_width(cell[i]);
		if (i > LB_COL_TRACER && pad > 0)
			fprintf(f, "%*s", pad, "");
		lb_str_put_safe(f, cell[i]);
		if (i <= LB_COL_TRACER && pad > 0)
			fprintf(f, "%*s", pad, "");
		fputs(i == LB_NCOLS - 1 ? "\n" : "  ", f);
	}
}

/* One line on how the capture's counts compare with the workload's, and one per disagreement. */
static void lb_print_pcap(const struct lb_results *res, FILE *f)
{
	const struct lb_run *worst = NULL;
	const char *worst_name = NULL;
	size_t k, i, nruns = 0, nagree = 0;
	double worst_pct = -1;
	int64_t d;

	for (k = 0; k <= res->nprobesets; k++) {
		const struct lb_probeset_result *psr = k ? &res->probesets[k - 1] : &res->baseline;

		for (i = 0; i < psr->nruns; i++) {
			const struct lb_run *r = &psr->runs[i];
			double want = (double)r->ops + (double)r->server_drops, pct;

			if (!r->pcap)
				continue;
			nruns++;
			if (lb_run_pcap_agrees(r, &d)) {
				nagree++;
			} else {
				fprintf(f, "%spcap DISAGREES: ", nruns - nagree == 1 ? "\n" : "");
				lb_str_put_safe(f, lb_str_or(psr->name, "?"));
				fprintf(f, " round %d: captured %" PRIu64
					" packets, the workload counted %" PRIu64 " + %" PRIu64
					" dropped by the server socket (difference %+" PRId64 ")%s\n",
					r->round, r->pcap_packets, r->ops, r->server_drops, d,
					r->pcap_dropped ? "; the capture itself dropped packets" : "");
			}
			pct = want > 0 ? 100.0 * fabs((double)d) / want : 0;
			if (pct > worst_pct) {
				worst_pct = pct;
				worst = r;
				worst_name = psr->name;
			}
		}
	}
	if (!nruns)
		return;
	lb_run_pcap_agrees(worst, &d);
	fprintf(f, "%spcap count (", nruns == nagree ? "\n" : "");
	lb_str_put_safe(f, lb_str_or(res->config.pcap_filter, "?"));
	fprintf(f, " on lo): agrees with the workload's count (+ server socket drops) within %d "
		"packets + %g%% in %zu of %zu runs; largest difference %+" PRId64 " (%.2f%%, ",
		LB_PCAP_TOL_PACKETS, LB_PCAP_TOL_PCT, nagree, nruns, d, worst_pct);
	lb_str_put_safe(f, lb_str_or(worst_name, "?"));
	fprintf(f, " round %d)\n", worst->round);
}

/* What the readers of `mode consumer' probe sets read, and whether they kept up. */
static void lb_results_print_readers(const struct lb_results *res, FILE *f)
{
	bool first = true;

	for (size_t k = 0; k < res->nprobesets; k++) {
		const struct lb_summary *s = &res->probesets[k].summary;

		if (!s->read_bytes)
			continue;
		fprintf(f, "%sreader of ", first ? "\n" : "");
		lb_str_put_safe(f, lb_str_or(res->probesets[k].name, "?"));
		fprintf(f, ": read %" PRIu64 " events (%.1f MiB) in the measured windows; %s (%"
			PRIu64 " events lost)\n", s->read_events, s->read_bytes / 1048576.0,
			s->lost_events ? "did NOT keep up" : "kept up", s->lost_events);
		first = false;
	}
}

/*
 * --method alternate: per set, how precise it got, what switching cost, and
 * the checks that the method is honest (off really off, the armed-but-off
 * tracer against the plain baseline beside it).
 */
static void lb_results_print_alternation(const struct lb_results *res, FILE *f)
{
	bool first = true;

	if (!lb_results_alternate(res))
		return;
	for (size_t k = 0; k < res->nprobesets; k++) {
		const struct lb_probeset_result *psr = &res->probesets[k];
		const struct lb_summary *s = &psr->summary;

		if (!psr->nslices)
			continue;
		fputs(first ? "\n" : "", f);
		lb_str_put_safe(f, lb_str_or(psr->name, "?"));
		fprintf(f, ": %d units in %.1f s", s->units, s->seconds);
		if (s->alternations > 1)
			fprintf(f, " (%.1f s in the first pass, %.1f s in %d top-up%s of the budget)",
				s->seconds - s->topup_seconds, s->topup_seconds, s->alternations - 1,
				s->alternations > 2 ? "s" : "");
		fprintf(f, ", CI +-%.2f pp%s", s->ci_half_width,
			s->precision_reached ? "" : " (precision NOT reached)");
		if (s->dropped_units)
			fprintf(f, ", %d units dropped", s->dropped_units);
		if (s->off_dropped_units)
			fprintf(f, " (%d of them for events counted while off)", s->off_dropped_units);
		fprintf(f, "; switch on %.1f ms, off %.1f ms (median)", s->switch_on_ms,
			s->switch_off_ms);
		if (isfinite(s->residue_pct))
			fprintf(f, "; off slices %.1f%% %s the plain slices (nothing armed) before "
				"and after", fabs(s->residue_pct),
				s->residue_pct < 0 ? "above" : "below");
		if (s->off_events)
			fprintf(f, "; %" PRIu64 " events counted while off (their units dropped)",
				s->off_events);
		fputc('\n', f);
		if (psr->off_residue) {
			fputs("  while off: ", f);
			lb_str_put_safe(f, psr->off_residue);
			fputc('\n', f);
		}
		first = false;
	}
}

/* Each probe set beside the one it builds on: the 2006 "kprobes doubles the impact" line. */
static void lb_results_print_pairs(const struct lb_results *res, FILE *f)
{
	bool first = true;
	struct lb_pair pr;
	size_t k;

	for (k = 0; k < res->nprobesets; k++) {
		if (lb_results_pair(res, &res->probesets[k], &pr))
			continue;
		fputs(first ? "\n" : "", f);
		lb_str_put_safe(f, pr.set->name);
		fputs(" vs ", f);
		lb_str_put_safe(f, pr.base->name);
		fprintf(f, " (the set it builds on): %.1f%% vs %.1f%% slower than the baseline",
			pr.set->summary.slowdown_pct, pr.base->summary.slowdown_pct);
		if (isfinite(pr.slowdown_ratio))
			fprintf(f, " (%.2fx the slowdown)", pr.slowdown_ratio);
		if (isfinite(pr.vs_base_pct)) {
			fputs(", slowdown against ", f);
			lb_str_put_safe(f, pr.base->name);
			fprintf(f, " %.1f%%", pr.vs_base_pct);
			if (isfinite(pr.vs_base_ci95[0]))
				fprintf(f, " [%.1f, %.1f]%s", pr.vs_base_ci95[0], pr.vs_base_ci95[1],
					pr.vs_base_ci95[0] <= 0 && pr.vs_base_ci95[1] >= 0 ?
					" (within the noise)" : "");
		}
		fprintf(f, "; %.2f vs %.2f events/op", pr.set->summary.events_per_op,
			pr.base->summary.events_per_op);
		if (isfinite(pr.ns_per_extra_event)) {
			fprintf(f, "; each of the %.2f extra events/op costs %.1f ns",
				pr.extra_events_per_op, pr.ns_per_extra_event);
			/*
			 * A slowdown CI reaching 100% (a wide one, under TCG) has no
			 * finite cost at that end: the interval is said to be open there.
			 */
			if (isfinite(pr.ns_per_extra_event_ci95[0]) &&
			    isfinite(pr.ns_per_extra_event_ci95[1]))
				fprintf(f, " [%.1f, %.1f]", pr.ns_per_extra_event_ci95[0],
					pr.ns_per_extra_event_ci95[1]);
			else if (isfinite(pr.ns_per_extra_event_ci95[0]) &&
				 isfinite(pr.vs_base_ci95[1]))
				fprintf(f, " [%.1f, unbounded]", pr.ns_per_extra_event_ci95[0]);
		}
		fputc('\n', f);
		first = false;
	}
}

/* The per-set notes below the table: a block of lines, each printed safe. */
static const struct lb_note_style lb_table_notes = {
	.put = lb_str_put_safe, .head = "\n", .pre = "", .post = "\n",
};

void lb_results_print_table(const struct lb_results *res, FILE *f)
{
	const struct lb_config *c = &res->config;
	const struct lb_host *h = &res->host;
	const struct lb_summary *b = &res->baseline.summary;
	const char *unit = lb_tput_unit(c);
	char title_off[32], title_on[32];
	int width[LB_NCOLS], i;
	struct lb_row row;
	size_t k;
	const char *title[LB_NCOLS];

	/* A command's runs: its rate is runs per second (or its metric), its slowdown its time. */
	memcpy(title, lb_col_title, sizeof(title));
	snprintf(title_off, sizeof(title_off), "%s off", unit);
	snprintf(title_on, sizeof(title_on), "%s on", unit);
	title[LB_COL_OFF] = title_off;
	title[LB_COL_ON] = title_on;

	/* Every string here may come from someone else's results.json: none is printed raw. */
	fputs("workload: ", f);
	lb_str_put_safe(f, lb_str_or(c->workload, "?"));
	/* loadgen's placement line starts with the workload's name: do not say it twice. */
	if (c->placement && *c->placement) {
		size_t wl = c->workload ? strlen(c->workload) : 0;

		if (wl && !strncmp(c->placement, c->workload, wl) && c->placement[wl] == ' ') {
			lb_str_put_safe(f, c->placement + wl);
		} else {
			fputs(", ", f);
			lb_str_put_safe(f, c->placement);
		}
	}
	/* loadgen's placement names the engine; say it for results whose placement does not. */
	if (c->engine && (!c->placement || !strstr(c->placement, "engine="))) {
		fputs(", engine ", f);
		lb_str_put_safe(f, c->engine);
	}
	fputs("\nkernel: ", f);
	lb_str_put_safe(f, lb_str_or(h->kernel_release, "?"));
	fputs(" (", f);
	lb_str_put_safe(f, lb_str_or(h->machine, "?"));
	fputs("), virtualization: ", f);
	lb_str_put_safe(f, lb_str_or(h->virtualization, "unknown"));
	if (h->vm_accelerator && *h->vm_accelerator) {
		fputs(", VM accelerator ", f);
		lb_str_put_safe(f, h->vm_accelerator);
	}
	fputs("\nCPU: ", f);
	lb_str_put_safe(f, lb_str_or(h->cpu_model, "?"));
	fprintf(f, ", %d online\n", h->ncpus);
	if (lb_results_alternate(res)) {
		fprintf(f, "method: alternate, %g s slices (%g s settle after each switch), each "
			"set until its 95%% CI is +-%g pp or %g s", c->slice, c->settle,
			c->precision, c->max_time);
		if (c->time_budget > 0)
			fprintf(f, " (within a %g s budget for all sets: %.0f%% of it shared out "
				"equally, the rest to top-ups of the sets that need them most)",
				c->time_budget, (double)LB_ALT_FIRST_PASS_PCT);
		fprintf(f, "; baseline: %d plain slices (nothing armed) before arm and %d after "
			"disarm, in the same workload (warm-up %g s)", LB_ALT_PLAIN_SLICES,
			LB_ALT_PLAIN_SLICES, c->warmup);
	}
	else if (c->exec_timeout > 0)
		fprintf(f, "runs: %d of the command, each to completion (--timeout %g s)", c->repeat,
			c->exec_timeout);
	else
		fprintf(f, "runs: %d x %g s (warm-up %g s)", c->repeat, c->duration, c->warmup);
	if (res->started) {
		fputs(", started ", f);
		lb_str_put_safe(f, res->started);
	}
	if (lb_results_failed(res))
		fputs("; INCOMPLETE: a run failed (its warning below), partial results", f);
	else if (!res->complete)
		fputs("; INTERRUPTED: partial results", f);
	fputs("\n\n", f);

	/*
	 * The plain baseline once, above the table and not in a column of it:
	 * under alternate no set's slowdown is against it (issue 28).
	 */
	lb_row_num(&row, LB_COL_ON, lb_tput_prec(res, b->throughput_median), b->throughput_median);
	fprintf(f, "baseline (nothing armed): %s %s (median)", row.cell[LB_COL_ON], unit);
	if (isfinite(b->throughput_cv))
		fprintf(f, ", CV %.1f%%", 100 * b->throughput_cv);
	fputc('\n', f);

	for (i = 0; i < LB_NCOLS; i++)
		width[i] = strlen(title[i]);
	for (k = 0; k < res->nprobesets; k++) {
		lb_row_fill(&row, res, &res->probesets[k]);
		for (i = 0; i < LB_NCOLS; i++) {
			int w = lb_cell_width(row.cell[i]);

			if (w > width[i])
				width[i] = w;
		}
	}
	lb_row_print(f, title, width);
	for (k = 0; k < res->nprobesets; k++) {
		lb_row_fill(&row, res, &res->probesets[k]);
		lb_row_print(f, row.cell, width);
	}
	if (res->nprobesets && lb_results_alternate(res))
		fprintf(f, "%s off, on: the set's own off slices and its on slices (each total / "
			"seconds), which its slowdown pairs unit by unit; CV %%: of the on "
			"slices\n", unit);
	else if (res->nprobesets)
		fprintf(f, "%s off, on: the medians of the baseline's runs (nothing armed) and of "
			"the set's, over the rounds its slowdown pairs; CV %%: of the set's runs\n",
			unit);
	if (c->exec_timeout > 0 && c->exec_metric && c->exec_metric_lower) {
		fputs("1/metric: the reciprocal of what --metric '", f);
		lb_str_put_safe(f, c->exec_metric);
		fputs("' found in its output, lower being better (a time, a latency), so the "
		      "slowdown is the share the probes added to it as a rate (25% higher is 20% "
		      "slower); events/op: per run\n", f);
	} else if (c->exec_timeout > 0 && c->exec_metric) {
		fputs("the command's metric: what --metric '", f);
		lb_str_put_safe(f, c->exec_metric);
		fputs("' found in its output, higher is better; events/op: per operation of the "
		      "metric (its value x the run's seconds)\n", f);
	} else if (c->exec_timeout > 0) {
		fputs("runs/s: 1 / the command's run time, so the slowdown is the share of its run "
		      "time the probes added back as a rate (a run 25% longer is 20% slower); "
		      "events/op: per run\n", f);
	}
	if (c->rate > 0)
		fprintf(f, "open loop at %d requests/s per flow: the schedule sets the throughput, "
			"which falls (a slowdown) only when the generator cannot keep up; what "
			"tracing costs shows in the latency and the CPU per operation below\n",
			c->rate);
	/* Untimed (the latency table, which has them, is not printed): the late sends here. */
	if (c->rate > 0 && !res->baseline.summary.latency.count) {
		fputs("sent late (a period or more behind schedule), % of operations:", f);
		for (k = 0; k <= res->nprobesets; k++) {
			const struct lb_probeset_result *psr = k ? &res->probesets[k - 1]
								  : &res->baseline;

			fputs(k ? ", " : " ", f);
			lb_str_put_safe(f, lb_str_or(psr->name, "?"));
			fprintf(f, " %.2f", psr->summary.late_pct);
		}
		fputc('\n', f);
	}
	lb_results_print_latency(res, f);
	lb_results_print_cpu(res, f);
	lb_results_print_pairs(res, f);
	lb_results_print_alternation(res, f);
	/* What the sets' kprobes were, then the verdict on the sets that add them. */
	lb_notes_print(res, LB_NOTE_KPROBES, f, &lb_table_notes);
	lb_notes_print(res, LB_NOTE_VERDICT, f, &lb_table_notes);
	lb_print_pcap(res, f);
	lb_results_print_readers(res, f);
	/* The handler alone against everything the hook adds, where the statistics were read. */
	lb_notes_print(res, LB_NOTE_BPF, f, &lb_table_notes);
	for (k = 0; k < res->nwarnings; k++) {
		fprintf(f, "%swarning: ", k ? "" : "\n");
		lb_str_put_safe(f, res->warnings[k]);
		fputc('\n', f);
	}
	for (k = 0; k < res->nskipped; k++) {
		fprintf(f, "%sskipped ", k || res->nwarnings ? "" : "\n");
		lb_str_put_safe(f, res->skipped[k].name);
		fputs(": ", f);
		lb_str_put_safe(f, res->skipped[k].reason);
		fputc('\n', f);
	}
}

/* The table of @arg (a struct lb_results) on @f. */
static void lb_table_print(FILE *f, const void *arg)
{
	lb_results_print_table(arg, f);
}

int lb_results_write_summary(const struct lb_results *res, int dirfd, const char *name)
{
	return lb_atomic_write_stream_at(dirfd, name, lb_table_print, res);
}
