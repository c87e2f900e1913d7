// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The log-linear histogram of hist.h: bucket bounds, snapshots, sums and
 * differences, percentiles.
 */
#include <math.h>

#include "hist.h"

/* Plain reads and writes of one bucket (no lock: the histograms added are no one's but ours). */
static inline uint64_t lb_hist_get(const _Atomic uint64_t *b)
{
	return atomic_load_explicit(b, memory_order_relaxed);
}

static inline void lb_hist_put(_Atomic uint64_t *b, uint64_t v)
{
	atomic_store_explicit(b, v, memory_order_relaxed);
}

uint64_t lb_hist_lower(unsigned int i)
{
	unsigned int e;

	if (i < 2 * LB_HIST_SUB)
		return i;
	e = i / LB_HIST_SUB - 1;
	return (uint64_t)(i - e * LB_HIST_SUB) << e;
}

uint64_t lb_hist_upper(unsigned int i)
{
	unsigned int e;

	if (i < 2 * LB_HIST_SUB)
		return (uint64_t)i + 1;
	e = i / LB_HIST_SUB - 1;
	return (uint64_t)(i - e * LB_HIST_SUB + 1) << e;
}

double lb_hist_mid(unsigned int i)
{
	uint64_t lo = lb_hist_lower(i), hi = lb_hist_upper(i);

	/* A one-wide bucket holds one value; a wider one stands for its middle. */
	return hi - lo == 1 ? (double)lo : ((double)lo + (double)(hi - 1)) / 2;
}

void lb_hist_add(struct lb_hist *dst, const struct lb_hist *src)
{
	lb_hist_put(&dst->sum_ns, lb_hist_get(&dst->sum_ns) + lb_hist_get(&src->sum_ns));
	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++)
		lb_hist_put(&dst->bucket[i],
			    lb_hist_get(&dst->bucket[i]) + lb_hist_get(&src->bucket[i]));
}

void lb_hist_sub(struct lb_hist *dst, const struct lb_hist *a, const struct lb_hist *b)
{
	uint64_t x = lb_hist_get(&a->sum_ns), y = lb_hist_get(&b->sum_ns);

	lb_hist_put(&dst->sum_ns, x >= y ? x - y : 0);
	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++) {
		x = lb_hist_get(&a->bucket[i]);
		y = lb_hist_get(&b->bucket[i]);
		lb_hist_put(&dst->bucket[i], x >= y ? x - y : 0);
	}
}

uint64_t lb_hist_count(const struct lb_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++)
		n += lb_hist_get(&h->bucket[i]);
	return n;
}

/* The rank of the @q-quantile of @n values, 1-based: ceil(q * n), at least 1. */
static uint64_t lb_hist_rank(double q, uint64_t n)
{
	double r = ceil(q * (double)n - 1e-9);

	if (r < 1)
		return 1;
	return r > (double)n ? n : (uint64_t)r;
}

double lb_hist_percentile(const struct lb_hist *h, double q)
{
	uint64_t n = lb_hist_count(h), rank, seen = 0;

	if (!n || !(q > 0 && q <= 1))
		return NAN;
	rank = lb_hist_rank(q, n);
	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++) {
		seen += lb_hist_get(&h->bucket[i]);
		if (seen >= rank)
			return lb_hist_mid(i);
	}
	return NAN;
}

double lb_hist_percentile_sparse(const uint32_t *idx, const uint64_t *count, size_t n, double q)
{
	uint64_t total = 0, rank, seen = 0;

	for (size_t i = 0; i < n; i++)
		total += count[i];
	if (!total || !(q > 0 && q <= 1))
		return NAN;
	rank = lb_hist_rank(q, total);
	for (size_t i = 0; i < n; i++) {
		seen += count[i];
		if (seen >= rank)
			return idx[i] < LB_HIST_BUCKETS ? lb_hist_mid(idx[i]) : NAN;
	}
	return NAN;
}

size_t lb_hist_nonzero(const struct lb_hist *h, uint32_t *idx, uint64_t *count, size_t max)
{
	size_t n = 0;

	for (unsigned int i = 0; i < LB_HIST_BUCKETS; i++) {
		uint64_t c = lb_hist_get(&h->bucket[i]);

		if (!c)
			continue;
		if (idx && count && n < max) {
			idx[n] = i;
			count[n] = c;
		}
		n++;
	}
	return n;
}
