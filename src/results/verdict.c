// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a set's kprobes were (lb_kprobes_describe()) and the verdict on a set
 * that adds them to the tracer it builds on (lb_results_verdict()): the
 * further slowdown against that tracer, the tracer's own slowdown, and the
 * ratio of the two slowdowns with its paired bootstrap interval. Plain
 * numbers; the output layer prints them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "results_int.h"
#include "stats.h"
#include "util.h"

/* printf @fmt at *@off of @buf (@len bytes), cut at its end; advances *@off. */
static void __attribute__((format(printf, 4, 5)))
lb_buf_add(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off = *off + (size_t)n < len ? *off + (size_t)n : len;
}

const char *lb_kprobes_describe(const struct lb_kprobes_info *k, char *buf, size_t len)
{
	/* The order people read them in: the cheap kinds first. */
	static const struct {
		enum lb_kprobe_mech mech;
		const char *word;
	} kinds[] = {
		{ LB_KPROBE_FTRACE, "ftrace-based" },
		{ LB_KPROBE_OPTIMIZED, "optimized" },
		{ LB_KPROBE_BREAKPOINT, "breakpoint" },
		{ LB_KPROBE_DISABLED, "disabled" },
		{ LB_KPROBE_UNKNOWN, "unknown" },
	};
	size_t count[LB_KPROBE_DISABLED + 1] = { 0 }, nret = 0, nk, off = 0, i;
	const char *sep = " ";

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < k->nprobes; i++) {
		enum lb_kprobe_mech m = k->probes[i].mech;

		count[m <= LB_KPROBE_DISABLED ? m : LB_KPROBE_UNKNOWN]++;
		nret += k->probes[i].ret;
	}
	nk = k->nprobes - nret;
	if (!k->nprobes)
		lb_buf_add(buf, len, &off, "no kprobes");
	if (nk)
		lb_buf_add(buf, len, &off, "%zu kprobe%s", nk, nk == 1 ? "" : "s");
	if (nret)
		lb_buf_add(buf, len, &off, "%s%zu kretprobe%s", nk ? ", " : "", nret,
			   nret == 1 ? "" : "s");
	if (k->nprobes && count[LB_KPROBE_UNKNOWN] == k->nprobes) {
		lb_buf_add(buf, len, &off, ": mechanism unknown");
		if (k->source && *k->source)
			lb_buf_add(buf, len, &off, " (%s)", k->source);
	} else if (k->nprobes) {
		lb_buf_add(buf, len, &off, ":");
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			if (!count[kinds[i].mech])
				continue;
			lb_buf_add(buf, len, &off, "%s%zu %s", sep, count[kinds[i].mech],
				   kinds[i].word);
			sep = ", ";
		}
	}
	if (k->optimization == 0 || k->optimization == 1) {
		lb_buf_add(buf, len, &off, " (optimization %s", k->optimization ? "on" : "off");
		if ((k->optimization_before == 0 || k->optimization_before == 1) &&
		    k->optimization_before != k->optimization)
			lb_buf_add(buf, len, &off, ", was %s",
				   k->optimization_before ? "on" : "off");
		lb_buf_add(buf, len, &off, ")");
	}
	return buf;
}

/*
 * --method alternate: the ratio's interval over the units of @psr's
 * alternation in which both @psr and its base were on: each unit's
 * throughput ratio of either against the all-off state.
 */
static int lb_verdict_units(const struct lb_results *res, const struct lb_probeset_result *psr,
			    struct lb_verdict *v)
{
	int me = (int)(psr - res->probesets), base = (int)(v->pair.base - res->probesets);
	const struct lb_slice *s = psr->slices;
	double *ra = calloc(psr->nslices + 1, sizeof(*ra));
	double *rb = calloc(psr->nslices + 1, sizeof(*rb));
	size_t i, j, n = 0;
	int ret = -ENOMEM;

	if (!ra || !rb)
		goto out;
	for (i = 0; i < psr->nslices; i = j) {
		for (j = i; j < psr->nslices && s[j].unit == s[i].unit; j++)
			;
		if (lb_slices_unit_ratios(s + i, j - i, me, -1, &ra[n], 1) == 1 &&
		    lb_slices_unit_ratios(s + i, j - i, base, -1, &rb[n], 1) == 1)
			n++;
	}
	v->ratio_n = n;
	ret = lb_stats_block_ratio_ci95(ra, rb, n, LB_CI_RESAMPLES, LB_CI_SEED, &v->ratio_ci95[0],
					&v->ratio_ci95[1]);
out:
	free(ra);
	free(rb);
	return ret;
}

/* --method runs: the ratio's interval over the rounds that have the baseline, the base and @psr. */
static int lb_verdict_rounds(const struct lb_results *res, const struct lb_probeset_result *psr,
			     struct lb_verdict *v)
{
	double *pbase = calloc(psr->nruns + 1, sizeof(*pbase));
	double *pa = calloc(psr->nruns + 1, sizeof(*pa));
	double *pb = calloc(psr->nruns + 1, sizeof(*pb));
	size_t n = 0;
	int ret = -ENOMEM;

	if (!pbase || !pa || !pb)
		goto out;
	for (size_t i = 0; i < psr->nruns; i++) {
		const struct lb_run *r0 = lb_round_run(&res->baseline, psr->runs[i].round);
		const struct lb_run *rb = lb_round_run(v->pair.base, psr->runs[i].round);

		if (!r0 || !rb)
			continue;
		pbase[n] = r0->throughput;
		pb[n] = rb->throughput;
		pa[n++] = psr->runs[i].throughput;
	}
	v->ratio_n = n;
	ret = lb_stats_slowdown_ratio_ci95(pbase, pa, pb, n, LB_CI_RESAMPLES, LB_CI_SEED,
					   &v->ratio_ci95[0], &v->ratio_ci95[1]);
out:
	free(pbase);
	free(pa);
	free(pb);
	return ret;
}

int lb_results_verdict(const struct lb_results *res, const struct lb_probeset_result *psr,
		       struct lb_verdict *out)
{
	const struct lb_summary *b;
	const char *bname;
	int ret;

	if (!psr->kprobes.nprobes)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	ret = lb_results_pair(res, psr, &out->pair);
	if (ret)
		return ret;
	b = &out->pair.base->summary;
	bname = lb_str_or(out->pair.base->name, "?");
	out->base_pct = b->slowdown_pct;
	out->base_ci95[0] = b->slowdown_ci95[0];
	out->base_ci95[1] = b->slowdown_ci95[1];
	out->ratio = out->ratio_ci95[0] = out->ratio_ci95[1] = NAN;
	lb_kprobes_describe(&psr->kprobes, out->kprobes, sizeof(out->kprobes));
	out->reference = psr->reference;
	out->emulated = lb_results_emulated(res);

	/* A ratio to a slowdown that may be none says nothing. */
	if (!(out->base_pct > 0)) {
		snprintf(out->ratio_why, sizeof(out->ratio_why), "%s's slowdown is not above 0",
			 bname);
		return 0;
	}
	if (out->base_ci95[0] <= 0 && out->base_ci95[1] >= 0) {
		snprintf(out->ratio_why, sizeof(out->ratio_why),
			 "%s's slowdown is within the noise: its 95%% CI includes 0", bname);
		return 0;
	}
	if (!isfinite(psr->summary.slowdown_pct)) {
		snprintf(out->ratio_why, sizeof(out->ratio_why), "its own slowdown is unknown");
		return 0;
	}
	out->ratio = psr->summary.slowdown_pct / out->base_pct;
	ret = lb_results_alternate(res) ? lb_verdict_units(res, psr, out) :
					   lb_verdict_rounds(res, psr, out);
	/* Fewer than 2 units or rounds: the ratio without an interval. */
	return ret == -EINVAL ? 0 : ret;
}
