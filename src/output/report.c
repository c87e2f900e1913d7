// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reports for papers and talks: the summary of a results directory as
 * Markdown, as a LaTeX booktabs table, as the text table, or as one
 * sentence per probe set ("N ops/s without tracing, M ops/s with ftrace:
 * X% slower"); 'loadbench report' prints them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "report.h"
#include "report_latency.h"
#include "results.h"
#include "sweep.h"
#include "table.h"
#include "util.h"
#include "verdict.h"

/* @d with @prec decimals, or @none when it is not finite. */
static const char *num(double d, int prec, const char *none, char *buf, size_t len)
{
	if (!isfinite(d))
		return none;
	snprintf(buf, len, "%.*f", prec, d);
	return buf;
}

/* A throughput @d grouped with @sep ("76,525"), or @none when it is not finite. */
static const char *tput(double d, const char *sep, const char *none, char *buf, size_t len)
{
	return isfinite(d) ? lb_fmt_grouped(d, sep, buf, len) : none;
}

/* ", emulated: timings are not real" when @res was measured under QEMU's TCG. */
static const char *emulated(const struct lb_results *res)
{
	return lb_results_emulated(res) ?
	       " (emulated: timings are not real; compare probe sets with each other)" : "";
}

/* Whether @res was measured with --method alternate: its numbers are per unit of alternation. */
static bool alternate(const struct lb_results *res)
{
	return lb_results_alternate(res);
}

/* Whether some probe set's interval stayed wider than the precision asked for. */
static bool any_short(const struct lb_results *res)
{
	size_t i;

	for (i = 0; i < res->nprobesets; i++)
		if (!res->probesets[i].summary.precision_reached)
			return true;
	return false;
}

/* ---- Markdown -------------------------------------------------------------------------------- */

/*
 * A probe set's row: the throughputs its slowdown compares (its probes off
 * and on, lb_results_off_on()), then under --method alternate (@alt) with the
 * CI's half-width ("0.69\*" when wider than the precision asked for) and the
 * units used ("7 (1 dropped)").
 */
static void md_row(FILE *f, const struct lb_results *res, const struct lb_probeset_result *psr,
		   bool alt)
{
	const struct lb_summary *s = &psr->summary;
	char b[6][64];
	double off, on;

	lb_results_off_on(res, psr, &off, &on);	/* -ENOMEM: off NAN, shown as "-" */
	fputs("| ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(psr->name));
	fputs(" | ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(psr->tracer));
	fprintf(f, " | %s | %s | %s |", tput(off, ",", "-", b[0], sizeof(b[0])),
		tput(on, ",", "-", b[1], sizeof(b[1])),
		num(100 * s->throughput_cv, 1, "-", b[2], sizeof(b[2])));
	fprintf(f, " %s |", num(s->slowdown_pct, 1, "-", b[2], sizeof(b[2])));
	if (isfinite(s->slowdown_ci95[0]) && isfinite(s->slowdown_ci95[1]))
		fprintf(f, " [%.1f, %.1f] |", s->slowdown_ci95[0], s->slowdown_ci95[1]);
	else
		fputs(" - |", f);
	if (alt) {
		fprintf(f, " %s%s |", num(s->ci_half_width, 2, "-", b[3], sizeof(b[3])),
			s->precision_reached ? "" : "\\*");
		if (s->dropped_units)
			fprintf(f, " %d (%d dropped) |", s->units, s->dropped_units);
		else
			fprintf(f, " %d |", s->units);
	}
	fprintf(f, " %s | %s |", num(s->events_per_op, 2, "-", b[3], sizeof(b[3])),
		num(s->ns_per_event, 1, "-", b[4], sizeof(b[4])));
	if (isfinite(s->ns_per_event_ci95[0]) && isfinite(s->ns_per_event_ci95[1]))
		fprintf(f, " [%.1f, %.1f] |", s->ns_per_event_ci95[0], s->ns_per_event_ci95[1]);
	else
		fputs(" - |", f);
	fprintf(f, " %s | %s |\n", lb_fmt_lost_cell(s, b[5], sizeof(b[5])),
		lb_fmt_overwritten_cell(s, b[0], sizeof(b[0])));
}

static void print_markdown(const struct lb_results *res, FILE *f)
{
	const struct lb_config *c = &res->config;
	const struct lb_host *h = &res->host;
	bool alt = alternate(res);
	char budget[96] = "", tb[64];
	size_t i;

	if (c->time_budget > 0)
		snprintf(budget, sizeof(budget), "within a %g s budget for all (%.0f%% shared "
			 "equally, then top-ups); ", c->time_budget, (double)LB_ALT_FIRST_PASS_PCT);
	fputs("## Throughput slowdown under tracing\n\n", f);
	fputs("- workload: ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(c->placement));
	fputs("\n- kernel: Linux ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(h->kernel_release));
	fputs(" (", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(h->machine));
	fputs("), virtualization: ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(h->virtualization));
	fputs(emulated(res), f);
	if (h->vm_accelerator && *h->vm_accelerator) {
		fputs(", VM accelerator: ", f);
		lb_fmt_put_md(f, h->vm_accelerator);
	}
	fputs("\n- CPU: ", f);
	lb_fmt_put_md(f, lb_fmt_or_unknown(h->cpu_model));
	fprintf(f, ", %d online\n", h->ncpus);
	if (alt)
		fprintf(f, "- method: alternate, each probe set's probes switched on and off on "
			"one running workload in %g s slices (%g s settling after each switch), in "
			"units that visit every state twice in mirrored order, until the 95%% CI "
			"is within \u00b1%g pp or for %g s at most; in the same workload, %d "
			"plain slices (nothing armed) before arm and %d after disarm, the "
			"baseline; %sloadbench ", c->slice, c->settle, c->precision, c->max_time,
			LB_ALT_PLAIN_SLICES, LB_ALT_PLAIN_SLICES, budget);
	else
		fprintf(f, "- method: runs, %d rounds of %g s measured after %g s warm-up, "
			"loadbench ", c->repeat, c->duration, c->warmup);
	lb_fmt_put_md(f, lb_fmt_or_unknown(res->version));
	if (res->started) {
		fputs(", started ", f);
		lb_fmt_put_md(f, res->started);
	}
	fputs(res->complete ? "\n" : lb_results_failed(res) ?
	      "; **incomplete: a run failed (its warning below), partial results**\n" :
	      "; **interrupted: partial results**\n", f);
	/* The plain baseline once, not in a column: under alternate no slowdown is against it. */
	fprintf(f, "- baseline (nothing armed): %s ops/s (median)",
		tput(res->baseline.summary.throughput_median, ",", "-", tb, sizeof(tb)));
	if (isfinite(res->baseline.summary.throughput_cv))
		fprintf(f, ", CV %.1f%%", 100 * res->baseline.summary.throughput_cv);
	fputc('\n', f);
	for (i = 0; i < res->nskipped; i++) {
		fputs("- not measured: ", f);
		lb_fmt_put_md(f, lb_fmt_or_unknown(res->skipped[i].name));
		fputs(" (", f);
		lb_fmt_put_md(f, lb_fmt_or_unknown(res->skipped[i].reason));
		fputs(")\n", f);
	}
	fputc('\n', f);

	if (alt)
		fputs("| probe set | tracer | ops/s off | ops/s on | CV % | slowdown % | 95% CI | "
		      "\u00b1pp | units | events/op | ns/event | 95% CI | lost events | "
		      "overwritten |\n"
		      "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	else
		fputs("| probe set | tracer | ops/s off | ops/s on | CV % | slowdown % | 95% CI | "
		      "events/op | ns/event | 95% CI | lost events | overwritten |\n"
		      "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", f);
	for (i = 0; i < res->nprobesets; i++)
		md_row(f, res, &res->probesets[i], alt);
	if (alt) {
		fputs("\nSlowdown = 100 (1 - geometric mean over the units of on / off throughput, "
		      "20% trimmed at each end), a unit "
		      "visiting every state twice in mirrored order so that a linear drift cancels "
		      "in it; 95% confidence interval by a moving-block bootstrap over the units, "
		      "\u00b1pp its half-width; ops/s off, on: the set's own off slices "
		      "and its on slices (each total / seconds), the throughputs "
		      "its slowdown pairs unit by unit (the baseline above, nothing armed, "
		      "is the plain slices); CV %: of the on slices; "
		      "ns/event: the time the probes add to an operation / events per "
		      "operation, its 95% CI the slowdown's, per event.\n", f);
		if (any_short(res))
			fprintf(f, "\n\\* Wider than the \u00b1%g pp asked for after %g s of "
				"alternation.\n", c->precision, c->max_time);
	} else {
		fputs("\nSlowdown = 100 (1 - median traced / median baseline throughput), with a "
		      "paired bootstrap 95% confidence interval over the rounds; ops/s off, on: "
		      "those medians, of the baseline's runs (nothing armed) and of the set's, "
		      "over the rounds it pairs; CV %: of the set's runs; ns/event = "
		      "(1/traced - 1/baseline) / events per operation, its 95% CI the slowdown's, "
		      "per event.\n", f);
	}
	lb_report_latency_markdown(res, f, lb_fmt_put_md);
	lb_report_cpu_markdown(res, f, lb_fmt_put_md);
	lb_notes_print(res, LB_NOTE_KPROBES, f, &(const struct lb_note_style){
		.put = lb_fmt_put_md, .head = "\nKprobes placed:\n\n", .pre = "- ", .post = "\n" });
	lb_notes_print(res, LB_NOTE_BPF, f, &(const struct lb_note_style){
		.put = lb_fmt_put_md, .head = "\nTime inside the BPF programs:\n\n", .pre = "- ",
		.post = "\n" });
	lb_notes_print(res, LB_NOTE_VERDICT, f, &(const struct lb_note_style){
		.put = lb_fmt_put_md, .head = "\n### Verdict\n\n", .pre = "- ", .post = "\n" });
	for (i = 0; i < res->nwarnings; i++) {
		fputs(i ? "" : "\n", f);
		fputs("> **Warning:** ", f);
		lb_fmt_put_md(f, res->warnings[i]);
		fputc('\n', f);
	}
}

/* ---- LaTeX ----------------------------------------------------------------------------------- */

/* A probe set's row: the throughputs its slowdown compares (lb_results_off_on()), then the rest. */
static void tex_row(FILE *f, const struct lb_results *res, const struct lb_probeset_result *psr)
{
	const struct lb_summary *s = &psr->summary;
	char b[4][64];
	double off, on;

	lb_results_off_on(res, psr, &off, &on);	/* -ENOMEM: off NAN, shown as "--" */
	lb_fmt_put_tex(f, lb_fmt_or_unknown(psr->name));
	fputs(" & ", f);
	lb_fmt_put_tex(f, lb_fmt_or_unknown(psr->tracer));
	fprintf(f, " & %s & %s", tput(off, "{,}", "--", b[0], sizeof(b[0])),
		tput(on, "{,}", "--", b[1], sizeof(b[1])));
	fprintf(f, " & %s", num(s->slowdown_pct, 1, "--", b[1], sizeof(b[1])));
	if (isfinite(s->slowdown_ci95[0]) && isfinite(s->slowdown_ci95[1]))
		fprintf(f, " & [%.1f, %.1f]", s->slowdown_ci95[0], s->slowdown_ci95[1]);
	else
		fputs(" & --", f);
	fprintf(f, " & %s & %s", num(s->events_per_op, 2, "--", b[2], sizeof(b[2])),
		num(s->ns_per_event, 1, "--", b[3], sizeof(b[3])));
	if (isfinite(s->ns_per_event_ci95[0]) && isfinite(s->ns_per_event_ci95[1]))
		fprintf(f, " & [%.1f, %.1f] & ", s->ns_per_event_ci95[0], s->ns_per_event_ci95[1]);
	else
		fputs(" & -- & ", f);
	lb_fmt_put_tex(f, lb_fmt_lost_cell(s, b[0], sizeof(b[0])));
	fputs(" & ", f);
	lb_fmt_put_tex(f, lb_fmt_overwritten_cell(s, b[0], sizeof(b[0])));
	fputs(" \\\\\n", f);
}

static void print_latex(const struct lb_results *res, FILE *f)
{
	const struct lb_config *c = &res->config;
	const struct lb_host *h = &res->host;
	char tb[64];
	const char *cut = res->complete ? "" : lb_results_failed(res) ?
			  " Incomplete: a run failed, fewer runs than asked for." :
			  " Interrupted: partial results.";
	size_t i;

	fputs("% loadbench ", f);
	lb_fmt_put_tex(f, lb_fmt_or_unknown(res->version));
	fputs(" results", f);
	if (res->started) {
		fputs(", started ", f);
		lb_fmt_put_tex(f, res->started);
	}
	fputs(". Needs \\usepackage{booktabs}.\n", f);
	fputs("\\begin{table}[t]\n\\centering\n\\caption{Throughput slowdown under tracing: ", f);
	lb_fmt_put_tex(f, lb_fmt_or_unknown(c->workload));
	fputs(" on Linux ", f);
	lb_fmt_put_tex(f, lb_fmt_or_unknown(h->kernel_release));
	fputs(", ", f);
	lb_fmt_put_tex(f, lb_fmt_or_unknown(h->cpu_model));
	if (h->virtualization && strcmp(h->virtualization, "none")) {
		fputs(" (", f);
		lb_fmt_put_tex(f, h->virtualization);
		fputs(")", f);
	}
	lb_fmt_put_tex(f, emulated(res));
	if (h->vm_accelerator && *h->vm_accelerator) {
		fputs(", VM accelerator ", f);
		lb_fmt_put_tex(f, h->vm_accelerator);
	}
	/* The plain baseline once, not in a column: under alternate no slowdown is against it. */
	fprintf(f, "; baseline (nothing armed) %s ops/s (median)",
		tput(res->baseline.summary.throughput_median, "{,}", "--", tb, sizeof(tb)));
	if (alternate(res)) {
		int lo, hi;

		lb_results_units_range(res, &lo, &hi);
		fprintf(f, "; method alternate: each probe set's probes switched on and off on one "
			"running workload in %g\\,s slices, in units visiting every state twice in "
			"mirrored order (%d", c->slice, lo);
		if (hi != lo)
			fprintf(f, "--%d", hi);
		fprintf(f, " units per set). Slowdown $= 100\\,(1 - \\overline{r})$, $r$ a unit's "
			"on/off throughput ratio, with its moving-block bootstrap 95\\%% "
			"confidence interval over the units%s; ops/s off, on: the set's own off "
			"slices and its on slices (each total / seconds), which the slowdown pairs; "
			"ns/event: the time the probes add to an operation / "
			"$\\mathit{events\\ per\\ op}$; overwritten: recorded, "
			"then overwritten by the flight recorder (counted in the events).%s}\n",
			any_short(res) ? " (not all within the precision asked for)" : "",
			cut);
	} else {
		fprintf(f, "; method runs: median of %d rounds of %g\\,s. Slowdown with its "
			"paired bootstrap 95\\%% confidence interval; ops/s off, on: the "
			"medians of the baseline's runs and of the set's, over the rounds it "
			"pairs; ns/event $= "
			"(1/\\mathit{traced} - 1/\\mathit{baseline}) / \\mathit{events\\ per\\ "
			"op}$; overwritten: recorded, then overwritten by the flight recorder "
			"(counted in the events).%s}\n", c->repeat, c->duration, cut);
	}
	fputs("\\label{tab:loadbench}\n\\begin{tabular}{llrrrrrrrrr}\n\\toprule\n"
	      "Probe set & Tracer & ops/s off & ops/s on & Slowdown (\\%) & 95\\% CI & "
	      "Events/op & ns/event & 95\\% CI & Lost events & Overwritten \\\\\n\\midrule\n", f);
	for (i = 0; i < res->nprobesets; i++)
		tex_row(f, res, &res->probesets[i]);
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n", f);
	lb_report_latency_latex(res, f, lb_fmt_put_tex);
	lb_report_cpu_latex(res, f, lb_fmt_put_tex);
	lb_notes_print(res, LB_NOTE_KPROBES, f, &(const struct lb_note_style){
		.put = lb_fmt_put_tex, .head = "\n\\paragraph{Kprobes placed.}\n", .pre = "",
		.post = "\\par\n" });
	lb_notes_print(res, LB_NOTE_BPF, f, &(const struct lb_note_style){
		.put = lb_fmt_put_tex, .head = "\n\\paragraph{Time inside the BPF programs.}\n",
		.pre = "", .post = "\\par\n" });
	lb_notes_print(res, LB_NOTE_VERDICT, f, &(const struct lb_note_style){
		.put = lb_fmt_put_tex, .head = "\n\\paragraph{Verdict.}\n", .pre = "",
		.post = "\\par\n" });
}

/* ---- lines ----------------------------------------------------------------------------------- */

/* The 2006 line: "kprobes doubles the tracer impact", for a set beside the one it builds on. */
static void print_pair_line(const struct lb_results *res, const struct lb_probeset_result *psr,
			    FILE *f)
{
	struct lb_pair pr;

	if (lb_results_pair(res, psr, &pr) || !isfinite(pr.vs_base_pct))
		return;
	fputs("  ", f);
	lb_str_put_safe(f, lb_fmt_or_unknown(psr->name));
	fputs(" on top of ", f);
	lb_str_put_safe(f, lb_fmt_or_unknown(pr.base->name));
	fputs(": ", f);
	if (isfinite(pr.slowdown_ratio))
		fprintf(f, "%.2f times its slowdown, ", pr.slowdown_ratio);
	fprintf(f, "%.1f%% %s than ", fabs(pr.vs_base_pct),
		pr.vs_base_pct >= 0 ? "slower" : "faster");
	lb_str_put_safe(f, lb_fmt_or_unknown(pr.base->name));
	if (isfinite(pr.vs_base_ci95[0]) && isfinite(pr.vs_base_ci95[1]))
		fprintf(f, " (95%% CI of that slowdown: %.1f%% to %.1f%%)", pr.vs_base_ci95[0],
			pr.vs_base_ci95[1]);
	fputc('\n', f);
}

static void print_lines(const struct lb_results *res, FILE *f)
{
	static const struct lb_note_style lines_note = {
		.put = lb_str_put_safe, .head = "", .pre = "  ", .post = "\n",
	};
	const struct lb_summary *b = &res->baseline.summary;
	bool alt = alternate(res);
	char n1[64], n2[64];
	size_t i;

	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		const struct lb_summary *s = &psr->summary;

		/* The name is someone else's string: escaped, never printed raw. */
		if (alt)
			/* Its slowdown is against its own off slices, not the plain runs. */
			fprintf(f, "%s ops/s with its probes off, %s ops/s with ",
				lb_fmt_grouped(isfinite(s->off_throughput) ? s->off_throughput :
					       b->throughput_median, ",", n1, sizeof(n1)),
				lb_fmt_grouped(s->throughput_median, ",", n2, sizeof(n2)));
		else
			fprintf(f, "%s ops/s without tracing, %s ops/s with ",
				lb_fmt_grouped(b->throughput_median, ",", n1, sizeof(n1)),
				lb_fmt_grouped(s->throughput_median, ",", n2, sizeof(n2)));
		lb_str_put_safe(f, lb_fmt_or_unknown(psr->name));
		fputs(alt ? " on: " : ": ", f);
		if (!isfinite(s->slowdown_pct)) {
			fputs("slowdown unknown\n", f);
			continue;
		}
		fprintf(f, "%.1f%% %s", fabs(s->slowdown_pct),
			s->slowdown_pct >= 0 ? "slower" : "faster");
		if (alt) {
			if (isfinite(s->slowdown_ci95[0]) && isfinite(s->slowdown_ci95[1]))
				fprintf(f, " [%.1f, %.1f]", s->slowdown_ci95[0],
					s->slowdown_ci95[1]);
			fprintf(f, ", %d unit%s of alternation", s->units,
				s->units == 1 ? "" : "s");
			if (!s->precision_reached)
				fprintf(f, " (wider than the \u00b1%g pp asked for)",
					res->config.precision);
		} else if (isfinite(s->slowdown_ci95[0]) && isfinite(s->slowdown_ci95[1])) {
			fprintf(f, " (95%% CI of the slowdown: %.1f%% to %.1f%%)",
				s->slowdown_ci95[0], s->slowdown_ci95[1]);
		}
		fputc('\n', f);
		print_pair_line(res, psr, f);
		lb_note_print(res, psr, LB_NOTE_KPROBES, f, &lines_note);
		lb_note_print(res, psr, LB_NOTE_BPF, f, &lines_note);
	}
	/* The verdicts: exactly one line each, for scripts to grep. */
	lb_notes_print(res, LB_NOTE_VERDICT, f, &(const struct lb_note_style){
		.put = lb_str_put_safe, .head = "", .pre = "", .post = "\n" });
	if (!res->nprobesets)
		fprintf(f, "%s ops/s without tracing; no probe sets measured\n",
			lb_fmt_grouped(b->throughput_median, ",", n1, sizeof(n1)));
	if (*emulated(res))
		fputs("(measured under QEMU TCG: the timings are emulated; compare probe sets with "
		      "each other, not with native numbers)\n", f);
	if (lb_results_failed(res))
		fputs("(incomplete: a run failed, fewer runs than asked for)\n", f);
	else if (!res->complete)
		fputs("(interrupted: partial results, fewer rounds than asked for)\n", f);
}

int lb_report_format_parse(const char *s, enum lb_report_format *fmt)
{
	static const char *const names[] = { "markdown", "latex", "text", "lines" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*fmt = (enum lb_report_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

int lb_report_print(const struct lb_results *res, enum lb_report_format fmt, FILE *f)
{
	switch (fmt) {
	case LB_REPORT_MARKDOWN:
		print_markdown(res, f);
		break;
	case LB_REPORT_LATEX:
		print_latex(res, f);
		break;
	case LB_REPORT_TEXT:
		lb_results_print_table(res, f);
		break;
	case LB_REPORT_LINES:
		print_lines(res, f);
		break;
	}
	return ferror(f) ? -EIO : 0;
}

int lb_report_print_compare(const struct lb_results *const *res, const char *const *labels,
			    size_t n, FILE *f)
{
	char b[64];
	size_t i, j, m;

	fputs("| probe set |", f);
	for (m = 0; m < n; m++) {
		fputc(' ', f);
		lb_fmt_put_md(f, labels[m]);
		fputs(" |", f);
	}
	fputs("\n|---|", f);
	for (m = 0; m < n; m++)
		fputs("--:|", f);
	fputs("\n| baseline ops/s |", f);
	for (m = 0; m < n; m++)
		fprintf(f, " %s |", lb_fmt_grouped(res[m]->baseline.summary.throughput_median,
						   ",", b, sizeof(b)));
	fputc('\n', f);
	/* Every probe set once, in order of first appearance. */
	for (m = 0; m < n; m++) {
		for (i = 0; i < res[m]->nprobesets; i++) {
			const char *name = res[m]->probesets[i].name;
			bool seen = false;
			size_t k;

			for (k = 0; k < m && !seen; k++)
				for (j = 0; j < res[k]->nprobesets && !seen; j++)
					seen = !strcmp(lb_fmt_or_unknown(res[k]->probesets[j].name),
						       lb_fmt_or_unknown(name));
			if (seen)
				continue;
			fputs("| ", f);
			lb_fmt_put_md(f, lb_fmt_or_unknown(name));
			fputs(" |", f);
			for (k = 0; k < n; k++) {
				const struct lb_summary *s = NULL;

				for (j = 0; j < res[k]->nprobesets && !s; j++)
					if (!strcmp(lb_fmt_or_unknown(res[k]->probesets[j].name),
						    lb_fmt_or_unknown(name)))
						s = &res[k]->probesets[j].summary;
				if (!s || !isfinite(s->slowdown_pct))
					fputs(" - |", f);
				else if (isfinite(s->slowdown_ci95[0]) &&
					 isfinite(s->slowdown_ci95[1]))
					fprintf(f, " %.1f%% [%.1f, %.1f] |", s->slowdown_pct,
						s->slowdown_ci95[0], s->slowdown_ci95[1]);
				else
					fprintf(f, " %.1f%% |", s->slowdown_pct);
			}
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- loadbench report ------------------------------------------------------------------------ */

int lb_report_read(const char *dir, struct lb_results **res)
{
	char path[PATH_MAX], err[512] = "";
	int ret;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	ret = lb_results_read_json(path, res, err, sizeof(err));
	if (ret == -ENOENT)
		lb_err("%s is not a results directory (no results.json in it): give a directory "
		       "a loadbench run wrote (its --output)", dir);
	else if (ret)
		lb_err("%s", err[0] ? err : strerror(-ret));
	return ret;
}

int lb_report_print_sweep(const struct lb_sweep *s, enum lb_report_format fmt, FILE *f)
{
	switch (fmt) {
	case LB_REPORT_MARKDOWN:
		lb_report_sweep_markdown(s, f, lb_fmt_put_md);
		break;
	case LB_REPORT_LATEX:
		lb_report_sweep_latex(s, f, lb_fmt_put_tex);
		break;
	case LB_REPORT_TEXT:
	case LB_REPORT_LINES:
		lb_sweep_print(s, f);
		break;
	}
	return ferror(f) ? -EIO : 0;
}
