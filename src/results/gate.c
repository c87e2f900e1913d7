// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The regression gate (gate.h): each probe set a candidate run shares with
 * a baseline run, the change in its slowdown and in its cost per event,
 * with a 95% CI of the change, and the verdict at a threshold.
 *
 * The CI: the two runs are independent (minutes, commits or kernels apart),
 * so each is resampled on its own, the way its own CI was made: the units
 * of an alternation by the moving-block bootstrap (neighbouring units share
 * the machine's slow drifts; a block keeps them together), the rounds of
 * --method runs by the paired bootstrap (a round keeps its baseline and
 * traced run together). Resample i of the candidate minus resample i of
 * the baseline is one draw of the change; its 2.5th and 97.5th percentiles
 * are the CI. Each run's draws are widened as its own interval is (few
 * blocks), so a run's contribution to the change's width is its own CI's.
 * The runs draw from different seeds: the same seed would pick the same
 * unit positions in both, pairing units that have nothing in common.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "results.h"
#include "results_int.h"
#include "stats.h"
#include "util.h"

/* The candidate's seed: LB_CI_SEED's, with the golden ratio's bits mixed in. */
#define LB_GATE_CAND_SEED (LB_CI_SEED ^ 0x9e3779b97f4a7c15ULL)

const char *lb_gate_verdict_name(enum lb_gate_verdict v)
{
	switch (v) {
	case LB_GATE_WORSE:
		return "worse";
	case LB_GATE_BETTER:
		return "better";
	case LB_GATE_UNCHANGED:
		return "unchanged";
	case LB_GATE_INCONCLUSIVE:
	default:
		return "inconclusive";
	}
}

/* Results before --method: runs. */
static const char *lb_gate_method(const struct lb_results *r)
{
	return lb_results_alternate(r) ? "alternate" : "runs";
}

/* The workload and what shapes its operations, as one string in @buf. */
static const char *lb_gate_workload(const struct lb_results *r, char *buf, size_t len)
{
	const struct lb_config *c = &r->config;

	snprintf(buf, len, "%s (engine %s, %d B, %d syscalls/op, %d flow%s, %s%s%.0d%s%.0d)",
		 lb_str_or(c->workload, "?"), lb_str_or(c->engine, "syscall"), c->msg_size,
		 c->syscalls_per_op, c->flows > 0 ? c->flows : 1, c->flows > 1 ? "s" : "",
		 lb_str_or(c->topology, "lo"), c->rate ? ", rate " : "", c->rate,
		 c->window ? ", window " : "", c->window);
	return buf;
}

bool lb_gate_mismatch(const struct lb_results *base, const struct lb_results *cand, char *buf,
		      size_t len)
{
	char a[256], b[256];
	size_t off = 0;
	int n;

	buf[0] = '\0';
#define LB_GATE_DIFF(what, x, y)                                                              \
	do {                                                                                  \
		if (strcmp(x, y) && off < len) {                                              \
			n = snprintf(buf + off, len - off, "%s%s %s vs %s", off ? ", " : "",  \
				     what, x, y);                                             \
			off += n > 0 ? (size_t)n : 0;                                         \
		}                                                                             \
	} while (0)
	LB_GATE_DIFF("workload", lb_gate_workload(base, a, sizeof(a)),
		     lb_gate_workload(cand, b, sizeof(b)));
	LB_GATE_DIFF("kernel", lb_str_or(base->host.kernel_release, "?"),
		     lb_str_or(cand->host.kernel_release, "?"));
	LB_GATE_DIFF("method", lb_gate_method(base), lb_gate_method(cand));
#undef LB_GATE_DIFF
	return buf[0] != '\0';
}

/* The set named @name in @r, or NULL. */
static const struct lb_probeset_result *lb_gate_find(const struct lb_results *r, const char *name)
{
	for (size_t i = 0; i < r->nprobesets; i++)
		if (r->probesets[i].name && !strcmp(r->probesets[i].name, name))
			return &r->probesets[i];
	return NULL;
}

/*
 * The LB_CI_RESAMPLES resampled slowdowns of @psr in @r into @out (NAN where
 * a resample has none), from @seed; *@n gets the units or rounds resampled.
 * Returns 0, -EINVAL when there are fewer than 2 (no CI), or -ENOMEM.
 */
static int lb_gate_resample(const struct lb_results *r, const struct lb_probeset_result *psr,
			    unsigned long long seed, double *out, size_t *n)
{
	double *a = NULL, *b = NULL;
	size_t i, got = 0;
	int ret = -ENOMEM;

	*n = 0;
	if (lb_results_alternate(r)) {
		a = calloc(psr->nslices + 1, sizeof(*a));
		if (!a)
			goto out;
		got = lb_slices_unit_ratios(psr->slices, psr->nslices, (int)(psr - r->probesets),
					    -1, a, psr->nslices + 1);
		*n = got;
		ret = lb_stats_block_resample(a, got, LB_CI_RESAMPLES, seed, out);
		goto out;
	}
	a = calloc(psr->nruns + 1, sizeof(*a));
	b = calloc(psr->nruns + 1, sizeof(*b));
	if (!a || !b)
		goto out;
	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *br = lb_round_run(&r->baseline, psr->runs[i].round);

		if (!br)
			continue;
		a[got] = br->throughput;
		b[got++] = psr->runs[i].throughput;
	}
	*n = got;
	ret = lb_stats_slowdown_resample(a, b, got, LB_CI_RESAMPLES, seed, out);
out:
	free(a);
	free(b);
	return ret;
}

/* ns per event at slowdown @pct (%), for a set of @r whose probes-off throughput is @off. */
static double lb_gate_ns(double off, double pct, double events_per_op)
{
	if (!(off > 0) || !(events_per_op > 0) || isnan(pct))
		return NAN;
	return lb_stats_ns_per_event(off, off * (1 - pct / 100), events_per_op);
}

/* The verdict on @row at @fail_above, and what an inconclusive one would need. */
static void lb_gate_decide(struct lb_gate_row *row, double fail_above)
{
	double lo = row->diff_ci95[0], hi = row->diff_ci95[1], d = row->diff_pp;

	row->needed_half_pp = NAN;
	row->needed_precision = NAN;
	if (isnan(lo) || isnan(hi) || isnan(d))
		row->verdict = LB_GATE_INCONCLUSIVE;
	else if (lo > 0 && d > fail_above)
		row->verdict = LB_GATE_WORSE;
	else if (hi < 0 && d < -fail_above)
		row->verdict = LB_GATE_BETTER;
	else if (lo >= -fail_above && hi <= fail_above)
		row->verdict = LB_GATE_UNCHANGED;
	else
		row->verdict = LB_GATE_INCONCLUSIVE;
	if (row->verdict != LB_GATE_INCONCLUSIVE || isnan(d))
		return;
	/*
	 * A change near the threshold can never be told from it: then ask for a
	 * tenth of the threshold.
	 */
	if (fabs(d) > fail_above) /* worse or better: the CI must leave 0 out */
		row->needed_half_pp = fabs(d);
	else /* unchanged: the CI must fit inside +-fail_above */
		row->needed_half_pp = fmax(fail_above - fabs(d), fail_above / 10);
	row->needed_precision = row->needed_half_pp / sqrt(2);
}

/* Fill @row for @b (in @base) and @c (in @cand); @sb, @sc: scratch of LB_CI_RESAMPLES. */
static int lb_gate_row_fill(const struct lb_results *base, const struct lb_results *cand,
			    const struct lb_probeset_result *b, const struct lb_probeset_result *c,
			    double fail_above, double *sb, double *sc, struct lb_gate_row *row)
{
	double boff, bon, coff, con;
	int ret, rb, rc;

	memset(row, 0, sizeof(*row));
	row->name = c->name;
	row->base = b;
	row->cand = c;
	row->base_pct = b->summary.slowdown_pct;
	row->cand_pct = c->summary.slowdown_pct;
	row->diff_pp = row->cand_pct - row->base_pct;
	row->base_ns = b->summary.ns_per_event;
	row->cand_ns = c->summary.ns_per_event;
	row->diff_ns = row->cand_ns - row->base_ns;
	row->diff_ci95[0] = row->diff_ci95[1] = NAN;
	row->diff_ns_ci95[0] = row->diff_ns_ci95[1] = NAN;

	ret = lb_results_off_on(base, b, &boff, &bon);
	if (!ret)
		ret = lb_results_off_on(cand, c, &coff, &con);
	if (ret)
		return ret;
	rb = lb_gate_resample(base, b, LB_CI_SEED, sb, &row->base_n);
	rc = lb_gate_resample(cand, c, LB_GATE_CAND_SEED, sc, &row->cand_n);
	if (rb == -ENOMEM || rc == -ENOMEM)
		return -ENOMEM;
	if (!rb && !rc) {
		double *dn = malloc(LB_CI_RESAMPLES * sizeof(*dn));

		if (!dn)
			return -ENOMEM;
		for (size_t i = 0; i < LB_CI_RESAMPLES; i++) {
			dn[i] = lb_gate_ns(coff, sc[i], c->summary.events_per_op) -
				lb_gate_ns(boff, sb[i], b->summary.events_per_op);
			sc[i] -= sb[i]; /* NAN - x is NAN: left out */
		}
		lb_stats_percentiles95(sc, LB_CI_RESAMPLES, &row->diff_ci95[0], &row->diff_ci95[1]);
		lb_stats_percentiles95(dn, LB_CI_RESAMPLES, &row->diff_ns_ci95[0],
				       &row->diff_ns_ci95[1]);
		free(dn);
	}
	lb_gate_decide(row, fail_above);
	return 0;
}

/* Append @name to the @n names at *@v. Returns 0 or -ENOMEM. */
static int lb_gate_add_name(const char ***v, size_t *n, const char *name)
{
	const char **t = realloc(*v, (*n + 1) * sizeof(**v));

	if (!t)
		return -ENOMEM;
	t[(*n)++] = name;
	*v = t;
	return 0;
}

int lb_gate_compare(const struct lb_results *base, const struct lb_results *cand,
		    double fail_above, struct lb_gate *out)
{
	double *sb = NULL, *sc = NULL;
	size_t i;
	int ret = -EINVAL;

	memset(out, 0, sizeof(*out));
	out->fail_above = fail_above;
	out->bootstrap = "each run resampled on its own as its CI was (an alternation's units "
			 "by a moving-block bootstrap, --method runs' rounds by a paired one), "
			 "10,000 times; the change's CI the 2.5th to 97.5th percentile of the "
			 "differences";
	if (!(fail_above > 0) || !isfinite(fail_above))
		return -EINVAL;
	ret = -ENOMEM;
	out->rows = calloc(cand->nprobesets + 1, sizeof(*out->rows));
	sb = malloc(LB_CI_RESAMPLES * sizeof(*sb));
	sc = malloc(LB_CI_RESAMPLES * sizeof(*sc));
	if (!out->rows || !sb || !sc)
		goto out;
	for (i = 0; i < cand->nprobesets; i++) {
		const struct lb_probeset_result *c = &cand->probesets[i];
		const struct lb_probeset_result *b = c->name ? lb_gate_find(base, c->name) : NULL;
		struct lb_gate_row *row;

		if (!b) {
			if (c->name && lb_gate_add_name(&out->only_cand, &out->nonly_cand, c->name))
				goto out;
			continue;
		}
		row = &out->rows[out->nrows++];
		if (lb_gate_row_fill(base, cand, b, c, fail_above, sb, sc, row))
			goto out;
		switch (row->verdict) {
		case LB_GATE_WORSE:
			out->nworse++;
			break;
		case LB_GATE_BETTER:
			out->nbetter++;
			break;
		case LB_GATE_UNCHANGED:
			out->nunchanged++;
			break;
		default:
			out->ninconclusive++;
		}
	}
	for (i = 0; i < base->nprobesets; i++) {
		const char *name = base->probesets[i].name;

		if (name && !lb_gate_find(cand, name) &&
		    lb_gate_add_name(&out->only_base, &out->nonly_base, name))
			goto out;
	}
	ret = 0;
out:
	free(sb);
	free(sc);
	if (ret)
		lb_gate_release(out);
	return ret;
}

void lb_gate_release(struct lb_gate *g)
{
	free(g->rows);
	free(g->only_base);
	free(g->only_cand);
	g->rows = NULL;
	g->only_base = g->only_cand = NULL;
	g->nrows = g->nonly_base = g->nonly_cand = 0;
}
