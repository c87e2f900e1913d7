// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe notes and the verdict lines of a result set, the same words in
 * the summary table, every report format and the figures' data: built as
 * one string each, then written by the format's escaper.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results.h"
#include "util.h"
#include "verdict.h"

/* "8.6% [2.2, 42.2]", "8.6%" without an interval, "n/a" without a value. */
static void put_pct(FILE *f, double pct, const double *ci)
{
	if (!isfinite(pct)) {
		fputs("n/a", f);
		return;
	}
	fprintf(f, "%.1f%%", pct);
	if (isfinite(ci[0]) && isfinite(ci[1]))
		fprintf(f, " [%.1f, %.1f]", ci[0], ci[1]);
}

/* What the set adds at each traced event: "a kprobe", "a kretprobe", or both kinds. */
static const char *probe_kind(const struct lb_kprobes_info *k)
{
	size_t nret = 0;

	for (size_t i = 0; i < k->nprobes; i++)
		nret += k->probes[i].ret;
	if (!nret)
		return "a kprobe";
	return nret == k->nprobes ? "a kretprobe" : "a kprobe or kretprobe";
}

char *lb_verdict_line(const struct lb_verdict *v)
{
	const char *set = lb_str_or(v->pair.set->name, "?");
	const char *base = lb_str_or(v->pair.base->name, "?");
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s: %s per traced event (%s", set, probe_kind(&v->pair.set->kprobes),
		v->kprobes);
	if (isfinite(v->pair.extra_events_per_op))
		fprintf(f, "; %+.1f events/op", v->pair.extra_events_per_op);
	fprintf(f, ") slows %s by a further ", base);
	put_pct(f, v->pair.vs_base_pct, v->pair.vs_base_ci95);
	fprintf(f, ", on top of %s's ", base);
	put_pct(f, v->base_pct, v->base_ci95);
	if (isfinite(v->ratio)) {
		fprintf(f, ": %.3gx", v->ratio);
		if (isfinite(v->ratio_ci95[0]) && isfinite(v->ratio_ci95[1]))
			fprintf(f, " [%.3g, %.3g]", v->ratio_ci95[0], v->ratio_ci95[1]);
		fputs(" the tracer's impact", f);
	} else {
		fprintf(f, ": n/a times the tracer's impact (%s)", v->ratio_why);
	}
	if (v->reference && *v->reference)
		fprintf(f, " (%s)", v->reference);
	if (v->emulated)
		fputs(LB_EMULATED_LABEL, f);
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}

/* The line of kind @which about @psr in *@line (NULL: none for it). Returns 0 or -ENOMEM. */
static int note_line(const struct lb_results *res, const struct lb_probeset_result *psr,
		     enum lb_note which, char **line)
{
	struct lb_verdict v;
	char desc[320];
	int ret;

	*line = NULL;
	if (which == LB_NOTE_BPF) {
		const struct lb_summary *s = &psr->summary;
		char beside[96] = "";

		if (!s->bpf_runs)
			return 0;
		if (isfinite(s->ns_per_event))
			snprintf(beside, sizeof(beside), ", beside %.1f ns per event from the "
				 "slowdown", s->ns_per_event);
		if (asprintf(line, "%s: %" PRIu64 " runs of its BPF programs, %.1f ns inside them "
			     "per run (the kernel's BPF statistics)%s", lb_str_or(psr->name, "?"),
			     s->bpf_runs, (double)s->bpf_run_ns / s->bpf_runs, beside) < 0) {
			*line = NULL;
			return -ENOMEM;
		}
		return 0;
	}
	if (which == LB_NOTE_KPROBES) {
		if (!lb_kprobes_info_present(&psr->kprobes))
			return 0;
		if (asprintf(line, "%s: %s", lb_str_or(psr->name, "?"),
			     lb_kprobes_describe(&psr->kprobes, desc, sizeof(desc))) < 0) {
			*line = NULL;
			return -ENOMEM;
		}
		return 0;
	}
	ret = lb_results_verdict(res, psr, &v);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	*line = lb_verdict_line(&v);
	return *line ? 0 : -ENOMEM;
}

/* @head, then @line (freed) in @st's style. */
static void note_put(FILE *f, const struct lb_note_style *st, const char *head, char *line)
{
	fputs(head, f);
	fputs(st->pre, f);
	st->put(f, line);
	fputs(st->post, f);
	free(line);
}

int lb_note_print(const struct lb_results *res, const struct lb_probeset_result *psr,
		  enum lb_note which, FILE *f, const struct lb_note_style *st)
{
	char *line;
	int ret = note_line(res, psr, which, &line);

	if (ret || !line)
		return ret;
	note_put(f, st, "", line);
	return 1;
}

int lb_notes_print(const struct lb_results *res, enum lb_note which, FILE *f,
		   const struct lb_note_style *st)
{
	int n = 0;

	for (size_t i = 0; i < res->nprobesets; i++) {
		char *line;
		int ret = note_line(res, &res->probesets[i], which, &line);

		if (ret)
			return ret;
		if (line)
			note_put(f, st, n++ ? "" : st->head, line);
	}
	return n;
}
