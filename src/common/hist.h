/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log-linear histogram of durations in nanoseconds: constant memory, no
 * allocation, recording is an index computation and one counter update, so
 * a workload's hot loop can time every operation into one that sits in
 * shared memory. Histograms of the same layout add and subtract bucket by
 * bucket: a window is the difference of two snapshots, a probe set's
 * latency the sum of its runs'.
 *
 * Layout (as HdrHistogram's, with 2^LB_HIST_SUB_BITS sub-buckets): values
 * below 2^7 = 128 ns have a bucket each; above, each power of two is cut in
 * 128 equal buckets, so a bucket is at most 1/128 of its lower bound wide.
 * A percentile is reported as the middle of its bucket: its relative error
 * is at most 1/256 (0.39%), and exact below 128 ns. Values from
 * 2^LB_HIST_MAX_BITS ns (~68.7 s) up land in the last bucket.
 *
 * Percentiles are nearest-rank: the p-th is the smallest recorded value
 * with at least ceil(p * count) values at or below it.
 */
#ifndef LB_HIST_H
#define LB_HIST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define LB_HIST_SUB_BITS 7
#define LB_HIST_SUB (1u << LB_HIST_SUB_BITS)
#define LB_HIST_MAX_BITS 36
/* Buckets: exponents 0 .. MAX_BITS - SUB_BITS - 1, each SUB wide, after the first 2 * SUB. */
#define LB_HIST_BUCKETS ((LB_HIST_MAX_BITS - LB_HIST_SUB_BITS + 1) * LB_HIST_SUB)
/* The relative error of a reported percentile, at most: half a bucket. */
#define LB_HIST_REL_ERROR (1.0 / (2 * LB_HIST_SUB))

/*
 * A histogram. One writer at a time (lb_hist_record); readers
 * (lb_hist_add of it into another) may run beside it and see each bucket either before or
 * after an update. Zeroed memory is an empty histogram.
 */
struct lb_hist {
	_Atomic uint64_t sum_ns;	/* sum of the recorded values (clamped as recorded) */
	_Atomic uint64_t bucket[LB_HIST_BUCKETS];
};

/* lb_hist_index - the bucket of @ns. Returns 0 .. LB_HIST_BUCKETS - 1. */
static inline unsigned int lb_hist_index(uint64_t ns)
{
	unsigned int msb, e;

	if (ns < LB_HIST_SUB)
		return (unsigned int)ns;
	if (ns >> LB_HIST_MAX_BITS)
		return LB_HIST_BUCKETS - 1;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	e = msb - LB_HIST_SUB_BITS;
	return e * LB_HIST_SUB + (unsigned int)(ns >> e);
}

/* lb_hist_record - count one value of @ns nanoseconds into @h (the only writer). */
static inline void lb_hist_record(struct lb_hist *h, uint64_t ns)
{
	_Atomic uint64_t *b = &h->bucket[lb_hist_index(ns)];

	if (ns >> LB_HIST_MAX_BITS)
		ns = (1ull << LB_HIST_MAX_BITS) - 1;
	atomic_store_explicit(b, atomic_load_explicit(b, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_store_explicit(&h->sum_ns,
			      atomic_load_explicit(&h->sum_ns, memory_order_relaxed) + ns,
			      memory_order_relaxed);
}

/* lb_hist_lower - the smallest value bucket @i holds, in ns. */
uint64_t lb_hist_lower(unsigned int i);

/* lb_hist_upper - one past the largest value bucket @i holds, in ns. */
uint64_t lb_hist_upper(unsigned int i);

/* lb_hist_mid - the value that stands for bucket @i: its middle (exact below 128 ns). */
double lb_hist_mid(unsigned int i);

/* lb_hist_add - @dst += @src, @src read bucket by bucket (safe beside its writer). */
void lb_hist_add(struct lb_hist *dst, const struct lb_hist *src);

/*
 * lb_hist_sub - @dst = @a - @b, for @b an earlier snapshot of @a (a bucket
 * below its earlier value, which cannot happen, counts 0).
 */
void lb_hist_sub(struct lb_hist *dst, const struct lb_hist *a, const struct lb_hist *b);

/* lb_hist_count - the values recorded in @h. */
uint64_t lb_hist_count(const struct lb_hist *h);

/*
 * lb_hist_percentile - the @q-quantile (0 < @q <= 1; 1 = the largest value)
 * of @h, nearest-rank, as its bucket's middle, in ns. Returns NAN when @h
 * is empty or @q is out of range.
 */
double lb_hist_percentile(const struct lb_hist *h, double q);

/*
 * lb_hist_percentile_sparse - the same for a histogram kept as @n
 * (bucket index, count) pairs, @idx ascending. Returns NAN when empty.
 */
double lb_hist_percentile_sparse(const uint32_t *idx, const uint64_t *count, size_t n, double q);

/*
 * lb_hist_nonzero - how many buckets of @h are not empty; with @idx and
 * @count not NULL, store them (ascending, at most @max). Returns the number
 * of nonempty buckets (which may be more than @max).
 */
size_t lb_hist_nonzero(const struct lb_hist *h, uint32_t *idx, uint64_t *count, size_t max);

#endif
