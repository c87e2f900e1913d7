/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics on repetitions: plain functions on arrays, no state, no root.
 */
#ifndef LB_STATS_H
#define LB_STATS_H

#include <stddef.h>

/* lb_stats_median - median of @n values (not modified); NAN when @n == 0. */
double lb_stats_median(const double *v, size_t n);

/* lb_stats_mean - arithmetic mean of @n values; NAN when @n == 0. */
double lb_stats_mean(const double *v, size_t n);

/* lb_stats_stddev - sample standard deviation (n-1); NAN when @n < 2. */
double lb_stats_stddev(const double *v, size_t n);

/* lb_stats_cv - coefficient of variation stddev/mean; NAN when @n < 2 or mean == 0. */
double lb_stats_cv(const double *v, size_t n);

/*
 * lb_stats_t975 - the two-sided 95% Student t quantile for @df degrees of
 * freedom (t_{0.975,df}); NAN when @df < 1.
 */
double lb_stats_t975(int df);

/*
 * lb_stats_slowdown_pct - 100 * (1 - median(traced) / median(base)) over
 * @n paired repetitions. NAN when @n == 0 or the baseline median is 0.
 */
double lb_stats_slowdown_pct(const double *base, const double *traced, size_t n);

/*
 * lb_stats_slowdown_ci95 - 95% confidence interval of lb_stats_slowdown_pct()
 * by a paired percentile bootstrap: @resamples resamples of the @n
 * repetition indices with replacement (each index keeps its baseline and
 * traced values together), the slowdown statistic computed on each, the
 * 2.5th and 97.5th percentiles returned in @lo and @hi. Deterministic for a
 * given @seed. Returns 0, or -EINVAL when @n < 2 (then @lo and @hi are NAN).
 */
int lb_stats_slowdown_ci95(const double *base, const double *traced, size_t n,
			   unsigned int resamples, unsigned long long seed,
			   double *lo, double *hi);

/*
 * The share of the unit ratios trimmed from each end before their logs are
 * averaged (a 20% trimmed mean, Wilcox's usual choice). Why: on these
 * machines the workload's rate moves between levels ~25% apart that last
 * 0.5-2 s, so a unit that a step falls into gives a ratio far off on either
 * side: 120 units of one default run of `syscalls` had a standard deviation
 * of 7.3% but a MAD-based one of 3.6%. Trimmed, that run's 95% CI was
 * +-0.67 pp instead of +-0.96 (its slices re-analysed offline). Why logs: a mean of ratios overstates the
 * ratio by about its variance (Jensen; -0.16 to -0.40 pp of slowdown in a
 * simulation of these units), the mean of their logs does not, and it does
 * not change when traced and untraced trade places.
 */
#define LB_RATIO_TRIM 0.2

/*
 * lb_stats_ratio_center - the typical ratio of @n per-unit ratios (each
 * traced/untraced throughput within one unit): exp of the LB_RATIO_TRIM
 * trimmed mean of their logs (a ratio of 0, a unit whose traced slices did
 * nothing, is log 0 = -inf: 0 if it survives the trimming). NAN when
 * @n == 0 or memory runs out. The ratios are never negative.
 */
double lb_stats_ratio_center(const double *ratio, size_t n);

/*
 * lb_stats_ratio_slowdown_pct - 100 * (1 - lb_stats_ratio_center()) over @n
 * paired units. NAN when @n == 0.
 */
double lb_stats_ratio_slowdown_pct(const double *ratio, size_t n);

/*
 * lb_stats_block_len - the block length lb_stats_block_ci95() uses for @n
 * units: n^(1/3) rounded, at least 1 (the usual rate for a moving-block
 * bootstrap of a mean).
 */
size_t lb_stats_block_len(size_t n);

/*
 * lb_stats_block_ci95 - 95% confidence interval of
 * lb_stats_ratio_slowdown_pct() by a moving-block bootstrap: each resample
 * strings together blocks of lb_stats_block_len(@n) consecutive units,
 * starting at uniformly drawn units, up to @n units, so that correlation
 * between neighbouring units survives resampling. @resamples resamples,
 * deterministic for @seed; 2.5th and 97.5th percentiles in @lo and @hi,
 * widened around the point estimate by t_{0.975,b-1}/z_{0.975} for b whole
 * blocks (a percentile interval of few blocks is too narrow).
 * Returns 0, or -EINVAL when @n < 2 (then NAN), -ENOMEM.
 */
int lb_stats_block_ci95(const double *ratio, size_t n, unsigned int resamples,
			unsigned long long seed, double *lo, double *hi);

/*
 * lb_stats_slowdown_ratio_ci95 - --method runs: 95% confidence interval of
 * the ratio of two slowdowns over the same @n rounds,
 * lb_stats_slowdown_pct(@base, @a) / lb_stats_slowdown_pct(@base, @b), by a
 * paired percentile bootstrap over the rounds (a round keeps its three
 * values together, as in lb_stats_slowdown_ci95()). Resamples in which
 * @b's slowdown is not above 0 have no ratio and are left out. @resamples
 * resamples, deterministic for @seed; 2.5th and 97.5th percentiles in @lo
 * and @hi (NAN when no resample had a ratio). Returns 0, -EINVAL when
 * @n < 2 (then NAN), or -ENOMEM.
 */
int lb_stats_slowdown_ratio_ci95(const double *base, const double *a, const double *b, size_t n,
				 unsigned int resamples, unsigned long long seed, double *lo,
				 double *hi);

/*
 * lb_stats_block_ratio_ci95 - --method alternate: 95% confidence interval
 * of the ratio of two slowdowns over the same @n units,
 * lb_stats_ratio_slowdown_pct(@ra) / lb_stats_ratio_slowdown_pct(@rb),
 * @ra[i] and @rb[i] the per-unit throughput ratios of unit i against the
 * same state. A moving-block bootstrap as in lb_stats_block_ci95(): each
 * resample draws the same blocks of units for both, and the percentile
 * interval is widened around the ratio of the whole the same way.
 * Resamples in which @rb's slowdown is not above 0 are left out. Returns
 * 0, -EINVAL when @n < 2 (then NAN), or -ENOMEM.
 */
int lb_stats_block_ratio_ci95(const double *ra, const double *rb, size_t n,
			      unsigned int resamples, unsigned long long seed, double *lo,
			      double *hi);

/*
 * lb_stats_block_resample - the @resamples statistics behind
 * lb_stats_block_ci95(), in resample order, into @out: each the slowdown
 * (%) of one moving-block resample of the @n unit ratios, widened around
 * the point estimate by the factor its interval is (so that their 2.5th
 * and 97.5th percentiles are lb_stats_block_ci95()'s ends). For statistics
 * of two independent runs combined resample by resample. Returns 0,
 * -EINVAL when @n < 2 (then @out is untouched), or -ENOMEM.
 */
int lb_stats_block_resample(const double *ratio, size_t n, unsigned int resamples,
			    unsigned long long seed, double *out);

/*
 * lb_stats_slowdown_resample - the @resamples statistics behind
 * lb_stats_slowdown_ci95() (the paired bootstrap of @n rounds), in
 * resample order, into @out; NAN where a resample has no slowdown.
 * Returns 0, -EINVAL when @n < 2, or -ENOMEM.
 */
int lb_stats_slowdown_resample(const double *base, const double *traced, size_t n,
			       unsigned int resamples, unsigned long long seed, double *out);

/*
 * lb_stats_percentiles95 - the 2.5th and 97.5th percentiles of the @n
 * values @v (sorted in place; NANs left out, moved to the end) into @lo and
 * @hi: NAN when no value is a number. Returns how many values were numbers.
 */
size_t lb_stats_percentiles95(double *v, size_t n, double *lo, double *hi);

/*
 * lb_stats_rand_below - a pseudo-random number in [0, @n) from *@state
 * (splitmix64; advances it), for orders that must not follow a pattern.
 * Returns 0 when @n == 0.
 */
size_t lb_stats_rand_below(unsigned long long *state, size_t n);

/* A straight line fitted by least squares, y = intercept + slope * x, with 95% CIs. */
struct lb_linfit {
	size_t n;		/* points used (finite x and y) */
	double intercept, slope;
	double intercept_ci95[2], slope_ci95[2]; /* t_{0.975,n-2} standard errors; NAN with n < 3 */
	double r2;		/* share of y's variance the line explains; NAN when y is constant */
};

/*
 * lb_stats_linfit - the least-squares line through the points (@x[i],
 * @y[i]) of @n (points with a non-finite coordinate are left out) into
 * @fit. Returns 0, or -EINVAL when fewer than 2 points are left or their x
 * are all the same (then every value is NAN).
 */
int lb_stats_linfit(const double *x, const double *y, size_t n, struct lb_linfit *fit);

/*
 * lb_stats_ns_per_event - cost per event in nanoseconds:
 * (1/traced - 1/base) / events_per_op * 1e9, with @base and @traced in
 * operations per second. NAN when any input is <= 0.
 */
double lb_stats_ns_per_event(double base, double traced, double events_per_op);

/*
 * lb_stats_ns_per_event_ci95 - the slowdown's 95% interval @slowdown_ci95
 * (percent) as a cost per event: each end's traced throughput
 * @base * (1 - end / 100) through lb_stats_ns_per_event(), into @out
 * ([low, high]; the cost grows with the slowdown). @base and @events_per_op
 * are held as measured: the interval is the slowdown's uncertainty, not
 * theirs. NAN ends where an input is not finite or an end reaches 100%.
 */
void lb_stats_ns_per_event_ci95(double base, double events_per_op, const double slowdown_ci95[2],
				double out[2]);

#endif
