// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of src/stats.c against values computed by hand or taken from
 * published tables.
 */
#include <errno.h>
#include <math.h>

#include "helpers.h"
#include "stats.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_median(void)
{
	double odd[] = { 5, 1, 3 };
	double even[] = { 4, 1, 3, 2 };
	double unsorted[] = { 9, -2, 7, 7, 0, 3, 100 };
	double one[] = { 42 };

	T_CHECK_NEAR(lb_stats_median(odd, 3), 3, 0);
	T_CHECK_NEAR(lb_stats_median(even, 4), 2.5, 0);
	T_CHECK_NEAR(lb_stats_median(unsorted, ARRAY_SIZE(unsorted)), 7, 0);
	T_CHECK_NEAR(lb_stats_median(one, 1), 42, 0);
	T_CHECK(isnan(lb_stats_median(odd, 0)));
	/* The input is not modified. */
	T_CHECK(odd[0] == 5 && odd[1] == 1 && odd[2] == 3);
	T_CHECK(even[0] == 4 && even[1] == 1 && even[2] == 3 && even[3] == 2);
	T_CHECK(unsorted[0] == 9 && unsorted[1] == -2 && unsorted[6] == 100);
}

static void test_mean_stddev_cv(void)
{
	/* The textbook example: mean 5, population sd 2, sample sd sqrt(32/7). */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double same[] = { 3, 3, 3 };
	double zero[] = { -1, 1 };

	T_CHECK_NEAR(lb_stats_mean(v, ARRAY_SIZE(v)), 5, 1e-12);
	T_CHECK_NEAR(lb_stats_stddev(v, ARRAY_SIZE(v)), sqrt(32.0 / 7), 1e-12);
	T_CHECK_NEAR(lb_stats_cv(v, ARRAY_SIZE(v)), sqrt(32.0 / 7) / 5, 1e-12);
	T_CHECK(isnan(lb_stats_mean(v, 0)));
	T_CHECK(isnan(lb_stats_stddev(v, 1)));
	T_CHECK(isnan(lb_stats_cv(v, 1)));
	T_CHECK(isnan(lb_stats_cv(zero, 2)));
	T_CHECK_NEAR(lb_stats_stddev(same, 3), 0, 0);
	T_CHECK_NEAR(lb_stats_cv(same, 3), 0, 0);
	/* Large offset, small spread: the two-pass formula keeps it exact. */
	{
		double big[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

		T_CHECK_NEAR(lb_stats_stddev(big, 3), 1, 1e-6);
	}
}

static void test_t975(void)
{
	int df;

	T_CHECK_NEAR(lb_stats_t975(1), 12.706, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(2), 4.303, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(10), 2.228, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(30), 2.042, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(31), 2.0395134, 1e-6);
	T_CHECK_NEAR(lb_stats_t975(60), 2.0002978, 1e-6);
	T_CHECK_NEAR(lb_stats_t975(100), 1.984, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(100), 1.9839715, 1e-6);
	T_CHECK_NEAR(lb_stats_t975(1000000), 1.960, 5e-4);
	T_CHECK_NEAR(lb_stats_t975(1000000), 1.959963984540054, 1e-5);
	T_CHECK(isnan(lb_stats_t975(0)));
	T_CHECK(isnan(lb_stats_t975(-3)));
	/* Decreasing in df, also across the table's end. */
	for (df = 1; df < 200; df++)
		T_CHECK(lb_stats_t975(df + 1) < lb_stats_t975(df));
}

static void test_slowdown(void)
{
	double base[] = { 100, 110, 90 };
	double traced[] = { 80, 85, 75 };
	double zero[] = { 0, 0, 0 };

	T_CHECK_NEAR(lb_stats_slowdown_pct(base, traced, 3), 20, 1e-12);
	T_CHECK_NEAR(lb_stats_slowdown_pct(base, base, 3), 0, 0);
	T_CHECK_NEAR(lb_stats_slowdown_pct(traced, base, 3), -25, 1e-12);
	T_CHECK(isnan(lb_stats_slowdown_pct(base, traced, 0)));
	T_CHECK(isnan(lb_stats_slowdown_pct(zero, traced, 3)));
	/* Even n: the medians are means of the middle two. */
	T_CHECK_NEAR(lb_stats_slowdown_pct(base, traced, 2), 100 * (1 - 82.5 / 105), 1e-12);
}

/* Realistic repetitions: a ~100k ops/s baseline and a ~15% slower traced run. */
static void fill_realistic(double *base, double *traced, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* Deterministic pseudo-noise of a few percent. */
		double nb = sin(i * 1.7 + 0.3) * 0.03;
		double nt = cos(i * 2.3 + 0.1) * 0.03;

		base[i] = 100000 * (1 + nb);
		traced[i] = 85000 * (1 + nt) * (1 + nb / 2);
	}
}

static void test_ci95(void)
{
	double base[64], traced[64], same_b[5] = { 7, 7, 7, 7, 7 }, same_t[5] = { 5, 5, 5, 5, 5 };
	double lo, hi, lo2, hi2, point, width_small, width_large;
	int ret;

	fill_realistic(base, traced, ARRAY_SIZE(base));

	/* Deterministic for a seed. */
	ret = lb_stats_slowdown_ci95(base, traced, 8, 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	ret = lb_stats_slowdown_ci95(base, traced, 8, 10000, 42, &lo2, &hi2);
	T_CHECK(ret == 0);
	T_CHECK(lo == lo2 && hi == hi2);

	/* Contains the point estimate and is a proper interval. */
	point = lb_stats_slowdown_pct(base, traced, 8);
	T_CHECK(lo <= point && point <= hi);
	T_CHECK(lo < hi);
	T_CHECK(lo > 5 && hi < 25);

	/* Another seed gives nearly the same interval. */
	ret = lb_stats_slowdown_ci95(base, traced, 8, 10000, 4242, &lo2, &hi2);
	T_CHECK(ret == 0);
	T_CHECK_NEAR(lo2, lo, 1.0);
	T_CHECK_NEAR(hi2, hi, 1.0);

	/* Narrows as n grows. */
	width_small = hi - lo;
	ret = lb_stats_slowdown_ci95(base, traced, 64, 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	width_large = hi - lo;
	T_CHECK(width_large < width_small);
	point = lb_stats_slowdown_pct(base, traced, 64);
	T_CHECK(lo <= point && point <= hi);

	/* Too few repetitions. */
	lo = hi = 0;
	ret = lb_stats_slowdown_ci95(base, traced, 1, 10000, 42, &lo, &hi);
	T_CHECK(ret == -EINVAL);
	T_CHECK(isnan(lo) && isnan(hi));
	ret = lb_stats_slowdown_ci95(base, traced, 0, 10000, 42, &lo, &hi);
	T_CHECK(ret == -EINVAL);
	T_CHECK(isnan(lo) && isnan(hi));

	/* Identical samples: a zero-width interval at the point estimate. */
	ret = lb_stats_slowdown_ci95(same_b, same_t, 5, 1000, 1, &lo, &hi);
	T_CHECK(ret == 0);
	point = lb_stats_slowdown_pct(same_b, same_t, 5);
	T_CHECK(lo == point && hi == point);
	T_CHECK_NEAR(point, 100 * (1 - 5.0 / 7), 1e-12);
}

static void test_ns_per_event(void)
{
	/* 1/80000 - 1/100000 = 2.5 us per op, over 10 events: 250 ns each. */
	T_CHECK_NEAR(lb_stats_ns_per_event(100000, 80000, 10), 250, 1e-9);
	T_CHECK_NEAR(lb_stats_ns_per_event(1000000, 500000, 1), 1000, 1e-9);
	/* Traced faster than baseline (noise): negative, not hidden. */
	T_CHECK(lb_stats_ns_per_event(100000, 110000, 10) < 0);
	T_CHECK(isnan(lb_stats_ns_per_event(0, 80000, 10)));
	T_CHECK(isnan(lb_stats_ns_per_event(100000, 0, 10)));
	T_CHECK(isnan(lb_stats_ns_per_event(100000, 80000, 0)));
	T_CHECK(isnan(lb_stats_ns_per_event(100000, 80000, -1)));
	T_CHECK(isnan(lb_stats_ns_per_event(100000, NAN, 10)));
}

static void test_ns_per_event_ci95(void)
{
	const double ci[2] = { 20, 50 }, noise[2] = { -10, 20 }, wild[2] = { NAN, 100 };
	double out[2];

	/* A slowdown of 20% to 50% of 100000 ops/s: 80000 to 50000 traced, 250 to 1000 ns. */
	lb_stats_ns_per_event_ci95(100000, 10, ci, out);
	T_CHECK_NEAR(out[0], 250, 1e-9);
	T_CHECK_NEAR(out[1], 1000, 1e-9);
	/* An interval across 0 stays across 0: -10% is 110000 traced, a negative cost. */
	lb_stats_ns_per_event_ci95(100000, 10, noise, out);
	T_CHECK_NEAR(out[0], (1 / 110000.0 - 1 / 100000.0) / 10 * 1e9, 1e-9);
	T_CHECK(out[0] < 0 && out[1] > 0);
	/* No end, or an end at 100% (nothing traced gets done): no number. */
	lb_stats_ns_per_event_ci95(100000, 10, wild, out);
	T_CHECK(isnan(out[0]) && isnan(out[1]));
	lb_stats_ns_per_event_ci95(100000, 0, ci, out);
	T_CHECK(isnan(out[0]) && isnan(out[1]));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The typical ratio: a geometric mean (0.5 and 2 average to 1, where a mean
 * of ratios says 1.25; noise symmetric in log leaves 0.75 at 0.75, where the
 * mean of ratios is above it), 20% trimmed at each end (two wild units of
 * ten change nothing; one of four is kept: 20% of 4 is no whole unit).
 */
static void test_ratio_center(void)
{
	double two[] = { 0.5, 2 }, sym[40], wild[10], four[] = { 0.75, 0.75, 0.75, 3 };
	double lo, hi;

	T_CHECK_NEAR(lb_stats_ratio_center(two, 2), 1, 1e-12);
	T_CHECK_NEAR(lb_stats_ratio_slowdown_pct(two, 2), 0, 1e-9);
	for (size_t i = 0; i < ARRAY_SIZE(sym); i++)
		sym[i] = 0.75 * exp(i % 2 ? 0.1 : -0.1);
	T_CHECK_NEAR(lb_stats_ratio_center(sym, ARRAY_SIZE(sym)), 0.75, 1e-12);
	T_CHECK(lb_stats_mean(sym, ARRAY_SIZE(sym)) > 0.7537);
	for (size_t i = 0; i < ARRAY_SIZE(wild); i++)
		wild[i] = 0.75;
	wild[3] = 0.1;
	wild[8] = 3.0;
	T_CHECK_NEAR(lb_stats_ratio_center(wild, ARRAY_SIZE(wild)), 0.75, 1e-12);
	T_CHECK_NEAR(lb_stats_ratio_slowdown_pct(wild, ARRAY_SIZE(wild)), 25, 1e-9);
	T_CHECK(!lb_stats_block_ci95(wild, ARRAY_SIZE(wild), 2000, 3, &lo, &hi));
	T_CHECK(lo <= 25 && 25 <= hi);
	T_CHECK_NEAR(lb_stats_ratio_center(four, 4), 0.75 * pow(4, 0.25), 1e-12);
	T_CHECK(isnan(lb_stats_ratio_center(four, 0)));
	/* A unit whose traced slices did nothing (ratio 0, log -inf) is trimmed like any other. */
	wild[3] = 0;
	T_CHECK_NEAR(lb_stats_ratio_center(wild, ARRAY_SIZE(wild)), 0.75, 1e-12);

	/*
	 * The selection that trims without sorting, against a sort, on lengths
	 * 1 to 60 with ties (values drawn from few levels) and without.
	 */
	for (int it = 0; it < 3000; it++) {
		double v[60], sorted[60], want = 0;
		size_t n = 1 + (size_t)(it % 60), k = (size_t)(LB_RATIO_TRIM * (double)n);
		unsigned long long st = 1000 + (unsigned long long)it;

		for (size_t i = 0; i < n; i++) {
			size_t r = lb_stats_rand_below(&st, 1000);

			v[i] = it % 2 ? 0.5 + (double)(r % 5) / 10 : 0.5 + (double)r / 1000;
			sorted[i] = log(v[i]);
		}
		qsort(sorted, n, sizeof(*sorted), cmp_double);
		for (size_t i = k; i < n - k; i++)
			want += sorted[i];
		want = exp(want / (double)(n - 2 * k));
		T_CHECK_NEAR(lb_stats_ratio_center(v, n), want, 1e-12);
	}
}

static void test_block_ci95(void)
{
	double r[200], same[10], lo, hi, lo2, hi2, point, w_iid, w_corr;
	int ret;

	/* Ratios around 0.75 with deterministic noise: slowdown 25%. */
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = 0.75 + 0.02 * sin(i * 1.7 + 0.3);
	point = lb_stats_ratio_slowdown_pct(r, ARRAY_SIZE(r));
	T_CHECK_NEAR(point, 25, 0.1);
	T_CHECK(isnan(lb_stats_ratio_slowdown_pct(r, 0)));

	ret = lb_stats_block_ci95(r, ARRAY_SIZE(r), 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK(lo <= point && point <= hi && lo < hi);
	/* A mean of 200 values of sd ~0.014: a half-width near 1.96 * 0.014 / sqrt(200) * 100. */
	T_CHECK(hi - lo > 0.2 && hi - lo < 0.8);
	ret = lb_stats_block_ci95(r, ARRAY_SIZE(r), 10000, 42, &lo2, &hi2);
	T_CHECK(ret == 0 && lo == lo2 && hi == hi2);
	w_iid = hi - lo;

	/*
	 * The same values in long runs of equal ones (serially correlated):
	 * the blocks keep the runs together, so the interval is wider than
	 * for the shuffled ones, as it must be.
	 */
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = 0.75 + 0.02 * ((i / 20) % 2 ? 1 : -1);
	ret = lb_stats_block_ci95(r, ARRAY_SIZE(r), 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	w_corr = hi - lo;
	T_CHECK(w_corr > w_iid);

	/* Block length: n^(1/3), at least 1. */
	T_CHECK(lb_stats_block_len(1) == 1);
	T_CHECK(lb_stats_block_len(8) == 2);
	T_CHECK(lb_stats_block_len(27) == 3);
	T_CHECK(lb_stats_block_len(1000) == 10);

	/* Identical ratios: a zero-width interval; too few: -EINVAL and NAN. */
	for (size_t i = 0; i < ARRAY_SIZE(same); i++)
		same[i] = 0.5;
	ret = lb_stats_block_ci95(same, ARRAY_SIZE(same), 1000, 1, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK_NEAR(lo, 50, 1e-9);
	T_CHECK_NEAR(hi, 50, 1e-9);
	ret = lb_stats_block_ci95(same, 1, 1000, 1, &lo, &hi);
	T_CHECK(ret == -EINVAL && isnan(lo) && isnan(hi));
}

/*
 * The ratio of two slowdowns over the same units or rounds: exact for
 * constant data, around the true ratio for noisy data, narrower when the
 * two are paired unit by unit than when the pairing is broken.
 */
static void test_ratio_ci95(void)
{
	double ra[60], rb[60], rb_rev[60], base[30], a[30], b[30], lo, hi, lo2, hi2, w_paired;
	/* B slows by 30%, S by a further 10%: 37% in all, 37/30 of B's. */
	const double want = (1 - 0.7 * 0.9) / (1 - 0.7);
	int ret;

	for (size_t i = 0; i < ARRAY_SIZE(ra); i++) {
		ra[i] = 0.6;
		rb[i] = 0.8;
	}
	ret = lb_stats_block_ratio_ci95(ra, rb, ARRAY_SIZE(ra), 2000, 7, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK_NEAR(lo, 2, 1e-9);
	T_CHECK_NEAR(hi, 2, 1e-9);
	for (size_t i = 0; i < ARRAY_SIZE(base); i++) {
		base[i] = 100;
		a[i] = 60;
		b[i] = 80;
	}
	ret = lb_stats_slowdown_ratio_ci95(base, a, b, ARRAY_SIZE(base), 2000, 7, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK_NEAR(lo, 2, 1e-9);
	T_CHECK_NEAR(hi, 2, 1e-9);

	/* Noisy units: the base's noise is shared by the set (the same unit). */
	for (size_t i = 0; i < ARRAY_SIZE(ra); i++) {
		rb[i] = 0.7 * exp(0.03 * sin(i * 1.7 + 0.3));
		ra[i] = rb[i] * 0.9 * exp(0.01 * cos(i * 2.3 + 0.1));
		rb_rev[ARRAY_SIZE(ra) - 1 - i] = rb[i];
	}
	ret = lb_stats_block_ratio_ci95(ra, rb, ARRAY_SIZE(ra), 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK(lo < want && want < hi);
	T_CHECK(hi - lo < 0.1);
	ret = lb_stats_block_ratio_ci95(ra, rb, ARRAY_SIZE(ra), 10000, 42, &lo2, &hi2);
	T_CHECK(ret == 0 && lo == lo2 && hi == hi2);
	w_paired = hi - lo;
	ret = lb_stats_block_ratio_ci95(ra, rb_rev, ARRAY_SIZE(ra), 10000, 42, &lo, &hi);
	T_CHECK(ret == 0 && hi - lo > w_paired);

	/* Noisy rounds: the baseline's noise shared by the round. */
	for (size_t i = 0; i < ARRAY_SIZE(base); i++) {
		base[i] = 100000 * (1 + 0.02 * sin(i * 1.3));
		b[i] = base[i] * 0.7 * (1 + 0.01 * cos(i * 0.7 + 1));
		a[i] = b[i] * 0.9 * (1 + 0.01 * sin(i * 2.9 + 0.5));
	}
	ret = lb_stats_slowdown_ratio_ci95(base, a, b, ARRAY_SIZE(base), 10000, 42, &lo, &hi);
	T_CHECK(ret == 0);
	T_CHECK(lo < want && want < hi);
	T_CHECK(hi - lo < 0.2);

	/* No slowdown to divide by: no interval; too few: -EINVAL and NAN. */
	for (size_t i = 0; i < ARRAY_SIZE(rb); i++)
		rb[i] = 1;
	ret = lb_stats_block_ratio_ci95(ra, rb, ARRAY_SIZE(ra), 1000, 1, &lo, &hi);
	T_CHECK(ret == 0 && isnan(lo) && isnan(hi));
	ret = lb_stats_block_ratio_ci95(ra, rb, 1, 1000, 1, &lo, &hi);
	T_CHECK(ret == -EINVAL && isnan(lo) && isnan(hi));
	ret = lb_stats_slowdown_ratio_ci95(base, a, b, 1, 1000, 1, &lo, &hi);
	T_CHECK(ret == -EINVAL && isnan(lo) && isnan(hi));
}

static void test_rand_below(void)
{
	unsigned long long st = 7;
	int seen[4] = { 0 };

	for (int i = 0; i < 400; i++) {
		size_t v = lb_stats_rand_below(&st, 4);

		T_CHECK(v < 4);
		seen[v]++;
	}
	for (int i = 0; i < 4; i++)
		T_CHECK(seen[i] > 50);
	T_CHECK(lb_stats_rand_below(&st, 0) == 0);
}

/*
 * The least-squares line: exact data give the line and a zero-width CI;
 * Anscombe's first quartet (published: y = 3.00 + 0.500 x, r^2 = 0.67,
 * slope standard error 0.118) gives those; too few points or one x give
 * nothing.
 */
static void test_linfit(void)
{
	const double x[] = { 0, 4, 16, 64 }, y[] = { 1.5, 3.5, 9.5, 33.5 };
	const double ax[] = { 10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5 };
	const double ay[] = { 8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68 };
	const double same[] = { 2, 2, 2 }, nan_y[] = { 1.5, NAN, 9.5, 33.5 };
	struct lb_linfit f;

	T_CHECK(lb_stats_linfit(x, y, 4, &f) == 0);
	T_CHECK(f.n == 4);
	T_CHECK_NEAR(f.slope, 0.5, 1e-12);
	T_CHECK_NEAR(f.intercept, 1.5, 1e-12);
	T_CHECK_NEAR(f.slope_ci95[0], 0.5, 1e-9);
	T_CHECK_NEAR(f.slope_ci95[1], 0.5, 1e-9);
	T_CHECK_NEAR(f.r2, 1, 1e-12);
	T_CHECK(lb_stats_linfit(ax, ay, 11, &f) == 0);
	T_CHECK_NEAR(f.slope, 0.5001, 1e-4);
	T_CHECK_NEAR(f.intercept, 3.0001, 1e-4);
	T_CHECK_NEAR(f.r2, 0.6665, 1e-4);
	/* t_{0.975,9} = 2.262 times the standard error 0.1179. */
	T_CHECK_NEAR(f.slope_ci95[1] - f.slope, 2.262 * 0.1179, 1e-3);
	/* A point with a missing y is left out; two points: a line, no CI. */
	T_CHECK(lb_stats_linfit(x, nan_y, 4, &f) == 0 && f.n == 3);
	T_CHECK_NEAR(f.slope, 0.5, 1e-12);
	T_CHECK(lb_stats_linfit(x, y, 2, &f) == 0 && isnan(f.slope_ci95[0]));
	T_CHECK_NEAR(f.slope, 0.5, 1e-12);
	T_CHECK(lb_stats_linfit(x, y, 1, &f) == -EINVAL && isnan(f.slope));
	T_CHECK(lb_stats_linfit(same, y, 3, &f) == -EINVAL && isnan(f.intercept));
}

/*
 * The resamples behind the two CIs (what the regression gate differences):
 * their percentiles are the CIs' ends, NANs are left out, and too few
 * units or rounds is -EINVAL.
 */
static void test_resample(void)
{
	double base[12], traced[12], r[40], out[5000], lo, hi, lo2, hi2;
	size_t n;

	fill_realistic(base, traced, ARRAY_SIZE(base));
	T_CHECK(lb_stats_slowdown_ci95(base, traced, 12, 5000, 7, &lo, &hi) == 0);
	T_CHECK(lb_stats_slowdown_resample(base, traced, 12, 5000, 7, out) == 0);
	n = lb_stats_percentiles95(out, 5000, &lo2, &hi2);
	T_CHECK(n == 5000);
	T_CHECK_NEAR(lo2, lo, 1e-12);
	T_CHECK_NEAR(hi2, hi, 1e-12);
	T_CHECK(lb_stats_slowdown_resample(base, traced, 1, 5000, 7, out) == -EINVAL);

	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		r[i] = 0.9 + 0.02 * ((double)((i * 7) % 11) / 10 - 0.5);
	T_CHECK(lb_stats_block_ci95(r, ARRAY_SIZE(r), 5000, 9, &lo, &hi) == 0);
	T_CHECK(lb_stats_block_resample(r, ARRAY_SIZE(r), 5000, 9, out) == 0);
	lb_stats_percentiles95(out, 5000, &lo2, &hi2);
	T_CHECK_NEAR(lo2, lo, 1e-9);
	T_CHECK_NEAR(hi2, hi, 1e-9);
	T_CHECK(lo < 10 && hi > 10);
	T_CHECK(lb_stats_block_resample(r, 1, 5000, 9, out) == -EINVAL);

	/* NANs are left out; none at all gives NAN ends. */
	out[0] = NAN;
	out[1] = 1;
	out[2] = NAN;
	out[3] = 3;
	T_CHECK(lb_stats_percentiles95(out, 4, &lo, &hi) == 2);
	T_CHECK(lo > 1 - 1e-9 && lo < 1.1 && hi > 2.9 && hi < 3 + 1e-9);
	out[0] = out[1] = NAN;
	T_CHECK(lb_stats_percentiles95(out, 2, &lo, &hi) == 0 && isnan(lo) && isnan(hi));
}

int main(void)
{
	test_resample();
	test_linfit();
	test_ratio_center();
	test_block_ci95();
	test_ratio_ci95();
	test_rand_below();
	test_median();
	test_mean_stddev_cv();
	test_t975();
	test_slowdown();
	test_ci95();
	test_ns_per_event();
	test_ns_per_event_ci95();
	return t_exit();
}
