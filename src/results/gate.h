/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The regression gate: a candidate run against a baseline run, probe set by
 * probe set, the change in slowdown and in cost per event with a 95% CI of
 * the difference, and a verdict a CI job can act on. Plain numbers; the
 * output layer prints them (src/output/gate_print.c, export.c).
 */
#ifndef LB_GATE_H
#define LB_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"

/* The default --fail-above: a set worse by more than this many percentage points fails. */
#define LB_GATE_FAIL_ABOVE 2.0

enum lb_gate_verdict {
	LB_GATE_UNCHANGED,	/* the CI of the change lies inside +-fail_above */
	LB_GATE_BETTER,		/* below 0 outside the noise, by more than fail_above */
	LB_GATE_WORSE,		/* above 0 outside the noise, by more than fail_above */
	LB_GATE_INCONCLUSIVE,	/* the CI is too wide to tell (or a run has no CI) */
};

/* One probe set present in both runs. */
struct lb_gate_row {
	const char *name;		/* the set's name (the candidate's string) */
	const struct lb_probeset_result *base;	/* in the baseline run */
	const struct lb_probeset_result *cand;	/* in the candidate run */
	double base_pct, cand_pct;	/* their slowdowns, % */
	double diff_pp;			/* cand_pct - base_pct, percentage points */
	double diff_ci95[2];		/* its 95% CI; NAN when a run has fewer than 2 units/rounds */
	double base_ns, cand_ns;	/* their ns per event; NAN when a set records no events */
	double diff_ns;			/* cand_ns - base_ns */
	double diff_ns_ci95[2];		/* its 95% CI (the same resamples); NAN as above */
	size_t base_n, cand_n;		/* units (alternate) or paired rounds (runs) resampled */
	enum lb_gate_verdict verdict;
	/*
	 * LB_GATE_INCONCLUSIVE: the CI half-width of the change that would
	 * decide (fail_above - |diff_pp|, at least a tenth of fail_above),
	 * and the --precision each run would need for it (half-width /
	 * sqrt 2: the two runs' errors add in quadrature). NAN otherwise.
	 */
	double needed_half_pp;
	double needed_precision;
};

struct lb_gate {
	double fail_above;		/* percentage points */
	const char *bootstrap;		/* how the CIs were made, one phrase */
	struct lb_gate_row *rows;	/* sets in both runs, in the candidate's order */
	size_t nrows;
	const char **only_base;		/* sets measured in the baseline only */
	size_t nonly_base;
	const char **only_cand;		/* sets measured in the candidate only */
	size_t nonly_cand;
	size_t nworse, nbetter, nunchanged, ninconclusive;
};

/*
 * lb_gate_mismatch - what differs between @base and @cand that makes their
 * slowdowns not comparable: the workload (and its parameters), the kernel
 * release, the method. Writes "workload udp-rr vs tcp-rr, kernel 6.1.0 vs
 * 6.18.44" into @buf. Returns true when something differs.
 */
bool lb_gate_mismatch(const struct lb_results *base, const struct lb_results *cand, char *buf,
		      size_t len);

/*
 * lb_gate_compare - the gate of @cand against @base at @fail_above
 * percentage points, into @out (free with lb_gate_release()). The CI of a
 * change comes from resampling each run's own data independently (the two
 * runs share nothing): --method alternate, the moving-block bootstrap of
 * its units that gave its own CI; --method runs, the paired bootstrap of
 * its rounds; and the difference of the two resampled statistics, resample
 * by resample. Runs of different methods (compared with --force) combine
 * the two resamplings the same way. Returns 0, -EINVAL when @fail_above is
 * not above 0, or -ENOMEM.
 */
int lb_gate_compare(const struct lb_results *base, const struct lb_results *cand,
		    double fail_above, struct lb_gate *out);

/* lb_gate_release - free what lb_gate_compare() allocated in @g (not @g). */
void lb_gate_release(struct lb_gate *g);

/* lb_gate_verdict_name - "worse", "better", "unchanged" or "inconclusive". */
const char *lb_gate_verdict_name(enum lb_gate_verdict v);

#endif
