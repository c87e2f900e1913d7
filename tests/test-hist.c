// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of src/common/hist.c: bucket bounds that tile the range, and
 * percentiles against the exact nearest-rank percentiles of known data,
 * within the stated relative error; sums, differences, the sparse form.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "helpers.h"
#include "hist.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact nearest-rank @q-quantile of @n sorted values. */
static uint64_t exact(const uint64_t *v, size_t n, double q)
{
	double r = ceil(q * (double)n - 1e-9);
	size_t k = r < 1 ? 1 : (size_t)r;

	return v[(k > n ? n : k) - 1];
}

static void test_bounds(void)
{
	/* The buckets tile [0, 2^MAX_BITS) with no gap or overlap, each value in its own. */
	T_CHECK(lb_hist_lower(0) == 0);
	for (unsigned int i = 1; i < LB_HIST_BUCKETS; i++)
		T_CHECK(lb_hist_lower(i) == lb_hist_upper(i - 1));
	T_CHECK(lb_hist_upper(LB_HIST_BUCKETS - 1) == 1ull << LB_HIST_MAX_BITS);
	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++) {
		uint64_t lo = lb_hist_lower(i), hi = lb_hist_upper(i);

		T_CHECK(lb_hist_index(lo) == i);
		T_CHECK(lb_hist_index(hi - 1) == i);
		/* At most 1/SUB of its lower bound wide: the stated error. */
		if (i >= LB_HIST_SUB)
			T_CHECK((double)(hi - lo) <= (double)lo / LB_HIST_SUB);
		else
			T_CHECK(hi - lo == 1);
	}
	/* Beyond the range: the last bucket. */
	T_CHECK(lb_hist_index(UINT64_MAX) == LB_HIST_BUCKETS - 1);
	T_CHECK(lb_hist_index(1ull << LB_HIST_MAX_BITS) == LB_HIST_BUCKETS - 1);
	T_CHECK(lb_hist_index(127) == 127 && lb_hist_index(128) == 128 && lb_hist_index(256) == 256);
	T_CHECK(lb_hist_index(257) == 256 && lb_hist_index(258) == 257);
}

/* Percentiles of @n values drawn by @draw against the exact ones. */
static void check_data(uint64_t *v, size_t n)
{
	static const double qs[] = { 0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };
	struct lb_hist *h = calloc(1, sizeof(*h));
	uint64_t sum = 0;

	if (!h) {
		t_failures++;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		lb_hist_record(h, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	T_CHECK(lb_hist_count(h) == n);
	T_CHECK(h->sum_ns == sum);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		double want = (double)exact(v, n, qs[k]), got = lb_hist_percentile(h, qs[k]);

		/* Exact below 128 ns, within half a bucket above. */
		T_CHECK_NEAR(got, want, want * LB_HIST_REL_ERROR + 0.5);
		if (want < LB_HIST_SUB)
			T_CHECK_NEAR(got, want, 0);
	}
	free(h);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static void test_percentiles(void)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));

	if (!v) {
		t_failures++;
		return;
	}
	/* Log-normal around 20 us with a heavy tail, as round trips are. */
	for (size_t i = 0; i < n; i++) {
		double g = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());

		v[i] = (uint64_t)(20000 * exp(0.8 * g));
	}
	check_data(v, n);
	/* Uniform over 0..1000 ns: the exact region and the first octaves. */
	for (size_t i = 0; i < n; i++)
		v[i] = (uint64_t)(uniform() * 1000);
	check_data(v, n);
	/* Few values, and one far out. */
	for (size_t i = 0; i < 7; i++)
		v[i] = 1000 * (i + 1);
	v[7] = 5000000000ull;
	check_data(v, 8);
	/* One value. */
	v[0] = 42;
	check_data(v, 1);
	free(v);
}

static void test_sum_sub_sparse(void)
{
	struct lb_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)),
		       *d = calloc(1, sizeof(*d));
	uint32_t idx[16];
	uint64_t cnt[16];
	size_t n;

	if (!a || !b || !d) {
		t_failures++;
		goto out;
	}
	T_CHECK(isnan(lb_hist_percentile(a, 0.5)));
	T_CHECK(isnan(lb_hist_percentile_sparse(idx, cnt, 0, 0.5)));
	for (int i = 0; i < 100; i++)
		lb_hist_record(a, 1000);
	lb_hist_add(b, a); /* an earlier snapshot (b was empty) */
	for (int i = 0; i < 50; i++)
		lb_hist_record(a, 50000);
	lb_hist_sub(d, a, b);
	/* The window holds only what came after the snapshot. */
	T_CHECK(lb_hist_count(d) == 50);
	T_CHECK(d->sum_ns == 50 * 50000ull);
	T_CHECK_NEAR(lb_hist_percentile(d, 0.01), 50000, 50000 * LB_HIST_REL_ERROR);
	lb_hist_add(d, b);
	T_CHECK(lb_hist_count(d) == 150);
	T_CHECK_NEAR(lb_hist_percentile(d, 0.5), 1000, 1000 * LB_HIST_REL_ERROR);
	T_CHECK_NEAR(lb_hist_percentile(d, 0.67), 50000, 50000 * LB_HIST_REL_ERROR);
	n = lb_hist_nonzero(d, idx, cnt, 16);
	T_CHECK(n == 2);
	T_CHECK(idx[0] == lb_hist_index(1000) && cnt[0] == 100);
	T_CHECK(idx[1] == lb_hist_index(50000) && cnt[1] == 50);
	/* The sparse form gives the same percentiles. */
	T_CHECK_NEAR(lb_hist_percentile_sparse(idx, cnt, n, 0.67), lb_hist_percentile(d, 0.67), 0);
	T_CHECK_NEAR(lb_hist_percentile_sparse(idx, cnt, n, 1.0), lb_hist_percentile(d, 1.0), 0);
	T_CHECK(isnan(lb_hist_percentile(d, 0)) && isnan(lb_hist_percentile(d, 1.5)));
out:
	free(a);
	free(b);
	free(d);
}

int main(void)
{
	test_bounds();
	test_percentiles();
	test_sum_sub_sparse();
	return t_exit();
}
