// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Statistics on repetitions: median, mean, spread, Student t quantiles, the
 * slowdown estimate and its paired percentile bootstrap interval.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Ascending order; NaN sorts after every number so it cannot break qsort(). */
static int lb_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/* Median of @v, which is sorted in place. @n > 0. */
static double lb_stats_median_inplace(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), lb_double_cmp);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

double lb_stats_median(const double *v, size_t n)
{
	double *copy, m;

	if (!n)
		return NAN;
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return NAN;
	memcpy(copy, v, n * sizeof(*copy));
	m = lb_stats_median_inplace(copy, n);
	free(copy);
	return m;
}

double lb_stats_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += v[i];
	return sum / n;
}

double lb_stats_stddev(const double *v, size_t n)
{
	double mean, ss = 0;
	size_t i;

	if (n < 2)
		return NAN;
	/* Two passes: the sum of squared deviations, not E[x^2] - E[x]^2. */
	mean = lb_stats_mean(v, n);
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (n - 1));
}

double lb_stats_cv(const double *v, size_t n)
{
	double mean;

	if (n < 2)
		return NAN;
	mean = lb_stats_mean(v, n);
	if (mean == 0)
		return NAN;
	return lb_stats_stddev(v, n) / mean;
}

/* t_{0.975,df} for df = 1..30, computed to 12 digits from the regularized incomplete beta. */
static const double lb_t975_table[30] = {
	12.7062047362, 4.30265272975, 3.18244630528, 2.7764451052,  2.57058183564,
	2.44691185114, 2.36462425159, 2.3060041352,  2.2621571628,  2.22813885199,
	2.20098516009, 2.17881282967, 2.16036865646, 2.14478668792, 2.13144954556,
	2.11990529922, 2.10981557783, 2.10092204024, 2.09302405441, 2.08596344727,
	2.07961384473, 2.0738730679,  2.06865761042, 2.06389856163, 2.05953855275,
	2.05552943864, 2.05183051648, 2.0484071418,  2.04522964213, 2.0422724563,
};

/*
 * Beyond the table: the Cornish-Fisher expansion of the t quantile in powers
 * of 1/df around the normal quantile z = 1.959963984540054 (Abramowitz and
 * Stegun 26.7.5, four terms). Its error is 2.6e-8 at df = 31 and falls fast.
 */
double lb_stats_t975(int df)
{
	const double z = 1.959963984540054;
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1, g2, g3, g4, d;

	if (df < 1)
		return NAN;
	if (df <= 30)
		return lb_t975_table[df - 1];
	g1 = (z3 + z) / 4;
	g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	d = df;
	return z + g1 / d + g2 / (d * d) + g3 / (d * d * d) + g4 / (d * d * d * d);
}

/* 100 * (1 - median(@traced) / median(@base)); both arrays are sorted in place. */
static double lb_stats_slowdown_inplace(double *base, double *traced, size_t n)
{
	double mb = lb_stats_median_inplace(base, n);
	double mt = lb_stats_median_inplace(traced, n);

	if (mb == 0)
		return NAN;
	return 100 * (1 - mt / mb);
}

double lb_stats_slowdown_pct(const double *base, const double *traced, size_t n)
{
	double mb, mt;

	if (!n)
		return NAN;
	mb = lb_stats_median(base, n);
	mt = lb_stats_median(traced, n);
	if (mb == 0)
		return NAN;
	return 100 * (1 - mt / mb);
}

/*
 * The bootstrap's generator: xoshiro256** (Blackman and Vigna), its state
 * filled from the seed by splitmix64 as its authors recommend. Small, fast,
 * and the same sequence on every platform.
 */
struct lb_rng {
	uint64_t s[4];
};

static uint64_t lb_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void lb_rng_seed(struct lb_rng *rng, unsigned long long seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		rng->s[i] = lb_splitmix64(&x);
}

static uint64_t lb_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t lb_rng_next(struct lb_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = lb_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = lb_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, @n) without modulo bias: reject the short last stretch. */
static size_t lb_rng_below(struct lb_rng *rng, size_t n)
{
	uint64_t bound = n, threshold = -bound % bound, r;

	do
		r = lb_rng_next(rng);
	while (r < threshold);
	return r % bound;
}

/*
 * The p-quantile of the sorted @v[0..n-1] by linear interpolation between
 * order statistics at rank h = (n - 1) * p (Hyndman and Fan's type 7, the
 * default of R and NumPy).
 */
static double lb_quantile_sorted(const double *v, size_t n, double p)
{
	double h = (n - 1) * p;
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - i) * (v[i + 1] - v[i]);
}

/*
 * The 2.5th and 97.5th percentiles of the @nstat statistics @stat (sorted
 * here) into @lo and @hi; NAN when there are none.
 */
static void lb_percentile_ci95(double *stat, size_t nstat, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (!nstat)
		return;
	qsort(stat, nstat, sizeof(*stat), lb_double_cmp);
	*lo = lb_quantile_sorted(stat, nstat, 0.025);
	*hi = lb_quantile_sorted(stat, nstat, 0.975);
}

size_t lb_stats_percentiles95(double *v, size_t n, double *lo, double *hi)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isnan(v[i])) {
			double t = v[got];

			v[got++] = v[i];
			v[i] = t;
		}
	}
	lb_percentile_ci95(v, got, lo, hi);
	return got;
}

int lb_stats_slowdown_resample(const double *base, const double *traced, size_t n,
			       unsigned int resamples, unsigned long long seed, double *out)
{
	double *rb = NULL, *rt = NULL;
	struct lb_rng rng;
	size_t i, j;
	int ret = -EINVAL;

	if (n < 2 || !resamples)
		return -EINVAL;
	ret = -ENOMEM;
	rb = malloc(n * sizeof(*rb));
	rt = malloc(n * sizeof(*rt));
	if (!rb || !rt)
		goto out;

	lb_rng_seed(&rng, seed);
	for (i = 0; i < resamples; i++) {
		for (j = 0; j < n; j++) {
			size_t k = lb_rng_below(&rng, n);

			rb[j] = base[k];
			rt[j] = traced[k];
		}
		out[i] = lb_stats_slowdown_inplace(rb, rt, n);
	}
	ret = 0;
out:
	free(rb);
	free(rt);
	return ret;
}

int lb_stats_slowdown_ci95(const double *base, const double *traced, size_t n,
			   unsigned int resamples, unsigned long long seed,
			   double *lo, double *hi)
{
	double *stat;
	int ret;

	*lo = NAN;
	*hi = NAN;
	if (n < 2 || !resamples)
		return -EINVAL;
	stat = malloc(resamples * sizeof(*stat));
	if (!stat)
		return -ENOMEM;
	ret = lb_stats_slowdown_resample(base, traced, n, resamples, seed, stat);
	if (!ret)
		lb_stats_percentiles95(stat, resamples, lo, hi);
	free(stat);
	return ret;
}

double lb_stats_ns_per_event(double base, double traced, double events_per_op)
{
	if (!(base > 0) || !(traced > 0) || !(events_per_op > 0))
		return NAN;
	return (1 / traced - 1 / base) / events_per_op * 1e9;
}

void lb_stats_ns_per_event_ci95(double base, double events_per_op, const double slowdown_ci95[2],
				double out[2])
{
	for (int i = 0; i < 2; i++)
		out[i] = isfinite(slowdown_ci95[i]) ?
			 lb_stats_ns_per_event(base, base * (1 - slowdown_ci95[i] / 100),
					       events_per_op) : NAN;
}

/*
 * Reorder the @n values @v so that v[k] is the one a sort would put there,
 * none before it larger and none after it smaller (Hoare's selection,
 * middle pivot): linear on average, where a sort per bootstrap resample
 * made the stopping rule's check take 27 ms at 200 units.
 */
static void lb_select(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (!j--)
					break;
			}
		}
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* The LB_RATIO_TRIM-trimmed mean of the @n values @v (reordered), n > 0. */
static double lb_trimmed_mean(double *v, size_t n)
{
	size_t k = (size_t)(LB_RATIO_TRIM * (double)n);
	double sum = 0;

	if (k) {
		lb_select(v, n, k);			/* the k lowest before k */
		lb_select(v + k, n - k, n - 2 * k);	/* the k highest after n - k */
	}
	for (size_t i = k; i < n - k; i++)
		sum += v[i];
	return sum / (double)(n - 2 * k);
}

double lb_stats_ratio_center(const double *ratio, size_t n)
{
	double *l, c;

	if (!n)
		return NAN;
	l = malloc(n * sizeof(*l));
	if (!l)
		return NAN;
	for (size_t i = 0; i < n; i++)
		l[i] = log(ratio[i]);
	c = exp(lb_trimmed_mean(l, n));
	free(l);
	return c;
}

double lb_stats_ratio_slowdown_pct(const double *ratio, size_t n)
{
	return 100 * (1 - lb_stats_ratio_center(ratio, n));
}

size_t lb_stats_block_len(size_t n)
{
	size_t l = (size_t)lround(cbrt((double)n));

	return l ? l : 1;
}

/* The first unit of a block of @block drawn for a resample of @n units. */
static size_t lb_block_start(struct lb_rng *rng, size_t n, size_t block)
{
	return lb_rng_below(rng, n - block + 1);
}

/* The factor lb_block_interval() widens the interval of @n units by. */
static double lb_block_widen(size_t n)
{
	size_t block = lb_stats_block_len(n), nb = n / block > 1 ? n / block : 2;

	return lb_stats_t975((int)nb - 1) / 1.959963984540054;
}

/*
 * lb_percentile_ci95() of the @nstat statistics @stat. A percentile bootstrap
 * of few blocks is too narrow (it knows only the spread it has seen, as a z
 * interval does): widened around @point by t_{0.975, b-1} / z_{0.975}, b
 * the number of whole blocks of @n units: x1.42 for 16 units (5 blocks of
 * 3), x1.07 for 100 (20 of 5).
 */
static void lb_block_interval(double *stat, size_t nstat, double point, size_t n, double *lo,
			      double *hi)
{
	double k = lb_block_widen(n);

	lb_percentile_ci95(stat, nstat, lo, hi);
	if (!nstat)
		return;
	*lo = point - (point - *lo) * k;
	*hi = point + (*hi - point) * k;
}

/*
 * The @resamples moving-block resamples of the @n unit ratios: each one's
 * slowdown into @stat, in resample order, unwidened. Returns 0 or -ENOMEM.
 */
static int lb_block_stats(const double *ratio, size_t n, unsigned int resamples,
			  unsigned long long seed, double *stat)
{
	size_t block = lb_stats_block_len(n), i;
	struct lb_rng rng;
	double *l, *res;

	l = malloc(2 * n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	res = l + n;
	for (i = 0; i < n; i++)
		l[i] = log(ratio[i]);
	lb_rng_seed(&rng, seed);
	for (i = 0; i < resamples; i++) {
		size_t got = 0;

		while (got < n) {
			size_t k = lb_block_start(&rng, n, block);

			for (size_t j = 0; j < block && got < n; j++, got++)
				res[got] = l[k + j];
		}
		stat[i] = 100 * (1 - exp(lb_trimmed_mean(res, n)));
	}
	free(l);
	return 0;
}

int lb_stats_block_ci95(const double *ratio, size_t n, unsigned int resamples,
			unsigned long long seed, double *lo, double *hi)
{
	double *stat;
	int ret;

	*lo = NAN;
	*hi = NAN;
	if (n < 2 || !resamples)
		return -EINVAL;
	stat = malloc(resamples * sizeof(*stat));
	if (!stat)
		return -ENOMEM;
	ret = lb_block_stats(ratio, n, resamples, seed, stat);
	if (!ret)
		lb_block_interval(stat, resamples, lb_stats_ratio_slowdown_pct(ratio, n), n, lo,
				  hi);
	free(stat);
	return ret;
}

int lb_stats_block_resample(const double *ratio, size_t n, unsigned int resamples,
			    unsigned long long seed, double *out)
{
	double point, k;
	int ret;

	if (n < 2 || !resamples)
		return -EINVAL;
	ret = lb_block_stats(ratio, n, resamples, seed, out);
	if (ret)
		return ret;
	point = lb_stats_ratio_slowdown_pct(ratio, n);
	k = lb_block_widen(n);
	for (unsigned int i = 0; i < resamples; i++)
		out[i] = point + (out[i] - point) * k;
	return 0;
}

int lb_stats_linfit(const double *x, const double *y, size_t n, struct lb_linfit *fit)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0, sse, s2, t;
	size_t m = 0;

	fit->n = 0;
	fit->intercept = fit->slope = fit->r2 = NAN;
	fit->intercept_ci95[0] = fit->intercept_ci95[1] = NAN;
	fit->slope_ci95[0] = fit->slope_ci95[1] = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			continue;
		mx += x[i];
		my += y[i];
		m++;
	}
	if (m < 2)
		return -EINVAL;
	mx /= (double)m;
	my /= (double)m;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			continue;
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (!(sxx > 0))
		return -EINVAL;
	fit->n = m;
	fit->slope = sxy / sxx;
	fit->intercept = my - fit->slope * mx;
	sse = syy - fit->slope * sxy;
	if (sse < 0)
		sse = 0;
	fit->r2 = syy > 0 ? 1 - sse / syy : NAN;
	if (m < 3)
		return 0;
	s2 = sse / (double)(m - 2);
	t = lb_stats_t975((int)m - 2);
	fit->slope_ci95[0] = fit->slope - t * sqrt(s2 / sxx);
	fit->slope_ci95[1] = fit->slope + t * sqrt(s2 / sxx);
	fit->intercept_ci95[0] = fit->intercept - t * sqrt(s2 * (1.0 / (double)m + mx * mx / sxx));
	fit->intercept_ci95[1] = fit->intercept + t * sqrt(s2 * (1.0 / (double)m + mx * mx / sxx));
	return 0;
}

size_t lb_stats_rand_below(unsigned long long *state, size_t n)
{
	uint64_t x = *state, r = lb_splitmix64(&x);

	*state = x;
	return n ? r % n : 0;
}

/* @a / @b, or NAN when @b is not above 0 (a ratio of slowdowns: the second must be one). */
static double lb_ratio_over_positive(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

int lb_stats_slowdown_ratio_ci95(const double *base, const double *a, const double *b, size_t n,
				 unsigned int resamples, unsigned long long seed, double *lo,
				 double *hi)
{
	double *rbase = NULL, *ra = NULL, *rb = NULL, *stat = NULL;
	size_t nstat = 0;
	struct lb_rng rng;
	int ret = -EINVAL;

	*lo = NAN;
	*hi = NAN;
	if (n < 2 || !resamples)
		return -EINVAL;
	ret = -ENOMEM;
	rbase = malloc(n * sizeof(*rbase));
	ra = malloc(n * sizeof(*ra));
	rb = malloc(n * sizeof(*rb));
	stat = malloc(resamples * sizeof(*stat));
	if (!rbase || !ra || !rb || !stat)
		goto out;
	lb_rng_seed(&rng, seed);
	for (unsigned int i = 0; i < resamples; i++) {
		double sa, sb, r;

		/* A round keeps its three values together. */
		for (size_t j = 0; j < n; j++) {
			size_t k = lb_rng_below(&rng, n);

			rbase[j] = base[k];
			ra[j] = a[k];
			rb[j] = b[k];
		}
		sa = lb_stats_slowdown_inplace(rbase, ra, n);
		sb = lb_stats_slowdown_inplace(rbase, rb, n);
		r = lb_ratio_over_positive(sa, sb);
		if (isfinite(r))
			stat[nstat++] = r;
	}
	lb_percentile_ci95(stat, nstat, lo, hi);
	ret = 0;
out:
	free(rbase);
	free(ra);
	free(rb);
	free(stat);
	return ret;
}

int lb_stats_block_ratio_ci95(const double *ra, const double *rb, size_t n,
			      unsigned int resamples, unsigned long long seed, double *lo,
			      double *hi)
{
	size_t block = lb_stats_block_len(n), nstat = 0;
	double *stat = NULL, *l = NULL;
	struct lb_rng rng;
	int ret = -EINVAL;

	*lo = NAN;
	*hi = NAN;
	if (n < 2 || !resamples)
		return -EINVAL;
	ret = -ENOMEM;
	stat = malloc(resamples * sizeof(*stat));
	/* The logs of both ratios, then a resample of each (the same units). */
	l = malloc(4 * n * sizeof(*l));
	if (!stat || !l)
		goto out;
	for (size_t i = 0; i < n; i++) {
		l[i] = log(ra[i]);
		l[n + i] = log(rb[i]);
	}
	lb_rng_seed(&rng, seed);
	for (unsigned int i = 0; i < resamples; i++) {
		double *res_a = l + 2 * n, *res_b = l + 3 * n, r;
		size_t got = 0;

		while (got < n) {
			size_t k = lb_block_start(&rng, n, block);

			for (size_t j = 0; j < block && got < n; j++, got++) {
				res_a[got] = l[k + j];
				res_b[got] = l[n + k + j];
			}
		}
		r = lb_ratio_over_positive(100 * (1 - exp(lb_trimmed_mean(res_a, n))),
					   100 * (1 - exp(lb_trimmed_mean(res_b, n))));
		if (isfinite(r))
			stat[nstat++] = r;
	}
	lb_block_interval(stat, nstat,
			  lb_ratio_over_positive(lb_stats_ratio_slowdown_pct(ra, n),
						 lb_stats_ratio_slowdown_pct(rb, n)),
			  n, lo, hi);
	ret = 0;
out:
	free(stat);
	free(l);
	return ret;
}
