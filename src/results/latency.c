// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run's operation latencies (struct lb_latency): kept as the nonempty
 * buckets of its histogram (src/common/hist.h), the quantiles loadbench
 * reports computed from them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "results.h"

const double lb_lat_q[LB_LAT_NQ] = { 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };
const char *const lb_lat_q_names[LB_LAT_NQ] = { "p50", "p90", "p99", "p99.9", "p99.99", "max" };

bool lb_lat_quantile_shown(uint64_t count, int q)
{
	return count && (q == LB_LAT_NQ - 1 || (1 - lb_lat_q[q]) * (double)count >= LB_LAT_MIN_TAIL);
}

void lb_latency_release(struct lb_latency *l)
{
	free(l->bucket);
	free(l->bucket_count);
	memset(l, 0, sizeof(*l));
	l->mean_ns = NAN;
	for (int q = 0; q < LB_LAT_NQ; q++)
		l->ns[q] = NAN;
}

int lb_latency_from_buckets(struct lb_latency *l, double sum_ns)
{
	l->count = 0;
	for (size_t i = 0; i < l->nbuckets; i++) {
		if (l->bucket[i] >= LB_HIST_BUCKETS || (i && l->bucket[i] <= l->bucket[i - 1]))
			return -EINVAL;
		l->count += l->bucket_count[i];
	}
	l->mean_ns = l->count ? sum_ns / (double)l->count : NAN;
	for (int q = 0; q < LB_LAT_NQ; q++)
		l->ns[q] = lb_hist_percentile_sparse(l->bucket, l->bucket_count, l->nbuckets,
						     lb_lat_q[q]);
	return 0;
}

int lb_latency_set(struct lb_latency *l, const struct lb_hist *h)
{
	size_t n = lb_hist_nonzero(h, NULL, NULL, 0);

	lb_latency_release(l);
	if (!n)
		return 0;
	l->bucket = malloc(n * sizeof(*l->bucket));
	l->bucket_count = malloc(n * sizeof(*l->bucket_count));
	if (!l->bucket || !l->bucket_count) {
		lb_latency_release(l);
		return -ENOMEM;
	}
	l->nbuckets = lb_hist_nonzero(h, l->bucket, l->bucket_count, n);
	return lb_latency_from_buckets(l, (double)h->sum_ns);
}

void lb_latency_add_to(const struct lb_latency *l, struct lb_hist *h)
{
	for (size_t i = 0; i < l->nbuckets; i++) {
		if (l->bucket[i] < LB_HIST_BUCKETS)
			h->bucket[l->bucket[i]] += l->bucket_count[i];
	}
	if (l->count && isfinite(l->mean_ns))
		h->sum_ns += (uint64_t)llround(l->mean_ns * (double)l->count);
}

int lb_latency_copy(struct lb_latency *dst, const struct lb_latency *src)
{
	*dst = *src;
	dst->bucket = NULL;
	dst->bucket_count = NULL;
	if (!src->nbuckets || !src->bucket || !src->bucket_count) {
		dst->nbuckets = 0;
		return 0;
	}
	dst->bucket = malloc(src->nbuckets * sizeof(*dst->bucket));
	dst->bucket_count = malloc(src->nbuckets * sizeof(*dst->bucket_count));
	if (!dst->bucket || !dst->bucket_count) {
		lb_latency_release(dst);
		return -ENOMEM;
	}
	memcpy(dst->bucket, src->bucket, src->nbuckets * sizeof(*dst->bucket));
	memcpy(dst->bucket_count, src->bucket_count, src->nbuckets * sizeof(*dst->bucket_count));
	return 0;
}
