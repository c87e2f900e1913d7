// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A result set from results.json: every field checked for its type, every
 * array for its size (LB_RESULTS_MAX_*), each refusal one line naming the
 * file and the field. Longer than 600 lines for one job: it reads each
 * field of the format, one lookup per field in the order the file has
 * them; the lookups themselves are in json_get.c. The reader's first
 * failure sticks (struct lb_reader): after it every lookup does nothing,
 * so each function makes its lookups one after the other and returns
 * rd->ret, checking it before a step that would write a message of its own
 * or use what was read.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "hist.h"
#include "json_get.h"
#include "results.h"
#include "results_int.h"
#include "util.h"

/* Largest file lb_results_read_json() accepts. */
#define LB_JSON_MAX (256UL << 20)

/*
 * The optional "latency" of the summary at @where (the summary's path):
 * "count", and per quantile ("p50" ... "max") an object of "ns",
 * "added_ns", "added_ns_ci95", "added_pct", "added_pct_ci95".
 */
static int lb_read_lat_summary(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, struct lb_lat_summary *l)
{
	struct json_object *o, *p;
	char w[160], wq[176];

	if (lb_json_get(rd, obj, where, "latency", json_type_object, &o) <= 0)
		return rd->ret;
	snprintf(w, sizeof(w), "%s.latency", where);
	lb_json_get_u64(rd, o, w, "count", &l->count);
	for (int q = 0; q < LB_LAT_NQ && !rd->ret; q++) {
		if (lb_json_get(rd, o, w, lb_lat_q_names[q], json_type_object, &p) <= 0)
			continue;
		snprintf(wq, sizeof(wq), "%s.%s", w, lb_lat_q_names[q]);
		lb_json_get_double(rd, p, wq, "ns", LB_NUM_NS, &l->ns[q]);
		lb_json_get_double(rd, p, wq, "added_ns", LB_NUM_NS_DIFF, &l->added_ns[q]);
		lb_json_get_pair(rd, p, wq, "added_ns_ci95", LB_NUM_NS_DIFF, l->added_ns_ci95[q]);
		lb_json_get_double(rd, p, wq, "added_pct", LB_NUM_ADDED_PCT, &l->added_pct[q]);
		lb_json_get_pair(rd, p, wq, "added_pct_ci95", LB_NUM_PCT_CI, l->added_pct_ci95[q]);
	}
	return rd->ret;
}

/* The optional "cpu" of a run or slice at @where; absent: not measured. */
static int lb_read_cpu(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       struct lb_cpu *c)
{
	struct json_object *o, *m;
	char w[160], wm[176];

	memset(c, 0, sizeof(*c));
	if (lb_json_get(rd, obj, where, "cpu", json_type_object, &o) <= 0)
		return rd->ret;
	c->measured = true;
	snprintf(w, sizeof(w), "%s.cpu", where);
	lb_json_get_double(rd, o, w, "workload_ns", LB_NUM_NS, &c->workload_ns);
	lb_json_get_double(rd, o, w, "workload_user_ns", LB_NUM_NS, &c->workload_user_ns);
	lb_json_get_double(rd, o, w, "workload_sys_ns", LB_NUM_NS, &c->workload_sys_ns);
	lb_json_get_double(rd, o, w, "tracer_ns", LB_NUM_NS, &c->tracer_ns);
	lb_json_get_int(rd, o, w, "tracer_tasks", LB_NUM_COUNT, &c->tracer_tasks);
	if (lb_json_get(rd, o, w, "machine_ns", json_type_object, &m) <= 0)
		return rd->ret;
	snprintf(wm, sizeof(wm), "%s.machine_ns", w);
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		lb_json_get_double(rd, m, wm, lb_cpu_kind_names[k], LB_NUM_NS, &c->machine_ns[k]);
	return rd->ret;
}

/* The optional "cpu" of the summary at @where (the summary's path). */
static int lb_read_cpu_summary(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, struct lb_cpu_summary *c)
{
	struct json_object *o;
	char w[160];

	if (lb_json_get(rd, obj, where, "cpu", json_type_object, &o) <= 0)
		return rd->ret;
	c->measured = true;
	snprintf(w, sizeof(w), "%s.cpu", where);
	lb_json_get_double(rd, o, w, "workload_us_per_op", LB_NUM_US_PER_OP,
			   &c->workload_us_per_op);
	lb_json_get_double(rd, o, w, "workload_user_us_per_op", LB_NUM_US_PER_OP,
			   &c->workload_user_us_per_op);
	lb_json_get_double(rd, o, w, "workload_sys_us_per_op", LB_NUM_US_PER_OP,
			   &c->workload_sys_us_per_op);
	lb_json_get_double(rd, o, w, "tracer_us_per_op", LB_NUM_US_PER_OP, &c->tracer_us_per_op);
	lb_json_get_double(rd, o, w, "tracer_cpu_pct", LB_NUM_WIDE_PCT, &c->tracer_cpu_pct);
	lb_json_get_int(rd, o, w, "tracer_tasks", LB_NUM_COUNT, &c->tracer_tasks);
	lb_json_get_double(rd, o, w, "machine_us_per_op", LB_NUM_US_PER_OP,
			   &c->machine_us_per_op);
	lb_json_get_double(rd, o, w, "steal_pct", LB_NUM_SHARE_PCT, &c->steal_pct);
	lb_json_get_int(rd, o, w, "steal_windows", LB_NUM_COUNT, &c->steal_windows);
	lb_json_get_int(rd, o, w, "windows", LB_NUM_COUNT, &c->windows);
	return rd->ret;
}

static int lb_read_summary(struct lb_reader *rd, const struct json_object *obj,
			   const char *where, struct lb_summary *s)
{
	struct json_object *o;
	char w[128];

	lb_summary_init(s);
	if (lb_json_get(rd, obj, where, "summary", json_type_object, &o) <= 0)
		return rd->ret;
	snprintf(w, sizeof(w), "%s.summary", where);
	lb_json_get_double(rd, o, w, "throughput_median", LB_NUM_THROUGHPUT,
			   &s->throughput_median);
	lb_json_get_double(rd, o, w, "throughput_cv", LB_NUM_CV, &s->throughput_cv);
	lb_json_get_double(rd, o, w, "slowdown_pct", LB_NUM_SLOWDOWN_PCT, &s->slowdown_pct);
	lb_json_get_double(rd, o, w, "events_per_op", LB_NUM_PER_OP, &s->events_per_op);
	lb_json_get_double(rd, o, w, "ns_per_event", LB_NUM_NS_DIFF, &s->ns_per_event);
	lb_json_get_u64(rd, o, w, "events", &s->events);
	lb_json_get_u64(rd, o, w, "lost_events", &s->lost_events);
	lb_json_get_u64(rd, o, w, "overwritten_events", &s->overwritten_events);
	lb_json_get_u64(rd, o, w, "read_events", &s->read_events);
	lb_json_get_u64(rd, o, w, "read_bytes", &s->read_bytes);
	lb_json_get_u64(rd, o, w, "bpf_runs", &s->bpf_runs);
	lb_json_get_u64(rd, o, w, "bpf_run_ns", &s->bpf_run_ns);
	lb_json_get_int(rd, o, w, "units", LB_NUM_COUNT, &s->units);
	lb_json_get_int(rd, o, w, "dropped_units", LB_NUM_COUNT, &s->dropped_units);
	lb_json_get_int(rd, o, w, "off_dropped_units", LB_NUM_COUNT, &s->off_dropped_units);
	lb_json_get_double(rd, o, w, "ci_half_width", LB_NUM_WIDE_PCT, &s->ci_half_width);
	lb_json_get_bool(rd, o, w, "precision_reached", &s->precision_reached);
	lb_json_get_double(rd, o, w, "off_throughput", LB_NUM_THROUGHPUT, &s->off_throughput);
	lb_json_get_double(rd, o, w, "on_throughput", LB_NUM_THROUGHPUT, &s->on_throughput);
	lb_json_get_double(rd, o, w, "residue_pct", LB_NUM_SLOWDOWN_PCT, &s->residue_pct);
	lb_json_get_double(rd, o, w, "switch_on_ms", LB_NUM_MS, &s->switch_on_ms);
	lb_json_get_double(rd, o, w, "switch_off_ms", LB_NUM_MS, &s->switch_off_ms);
	lb_json_get_u64(rd, o, w, "off_events", &s->off_events);
	lb_json_get_double(rd, o, w, "seconds", LB_NUM_SECONDS, &s->seconds);
	lb_json_get_int(rd, o, w, "alternations", LB_NUM_COUNT, &s->alternations);
	lb_json_get_double(rd, o, w, "topup_seconds", LB_NUM_SECONDS, &s->topup_seconds);
	lb_json_get_pair(rd, o, w, "slowdown_ci95", LB_NUM_PCT_CI, s->slowdown_ci95);
	lb_json_get_pair(rd, o, w, "ns_per_event_ci95", LB_NUM_NS_DIFF, s->ns_per_event_ci95);
	lb_read_lat_summary(rd, o, w, &s->latency);
	lb_json_get_double(rd, o, w, "late_pct", LB_NUM_SHARE_PCT, &s->late_pct);
	lb_read_cpu_summary(rd, o, w, &s->cpu);
	return rd->ret;
}

/* The optional "flow_ops" array of whole numbers of the run at @where. */
static int lb_read_flow_ops(struct lb_reader *rd, const struct json_object *o, const char *where,
			    struct lb_run *r)
{
	struct json_object *arr;
	char w[160];
	size_t i, n;

	if (lb_json_get(rd, o, where, "flow_ops", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	r->flow_ops = calloc(n, sizeof(*r->flow_ops));
	if (!r->flow_ops)
		return lb_reader_note(rd, -ENOMEM);
	r->nflow_ops = n;
	snprintf(w, sizeof(w), "%s.flow_ops", where);
	for (i = 0; i < n && !rd->ret; i++)
		lb_json_array_u64(rd, arr, i, w, &r->flow_ops[i]);
	return rd->ret;
}

/* The optional "flow_placement" array of config: [{flow, server_cpu, client_cpu}]. */
static int lb_read_flow_placement(struct lb_reader *rd, const struct json_object *o,
				  struct lb_config *c)
{
	struct json_object *arr, *e;
	char w[64];
	size_t i, n;

	if (lb_json_get(rd, o, "config", "flow_placement", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	c->flow_placement = calloc(n, sizeof(*c->flow_placement));
	if (!c->flow_placement)
		return lb_reader_note(rd, -ENOMEM);
	c->nflow_placement = n;
	for (i = 0; i < n && !rd->ret; i++) {
		snprintf(w, sizeof(w), "config.flow_placement[%zu]", i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      lb_json_type_name(e));
		c->flow_placement[i].server_cpu = c->flow_placement[i].client_cpu = -1;
		lb_json_get_int(rd, e, w, "server_cpu", LB_NUM_INDEX,
				&c->flow_placement[i].server_cpu);
		lb_json_get_int(rd, e, w, "client_cpu", LB_NUM_INDEX,
				&c->flow_placement[i].client_cpu);
	}
	return rd->ret;
}

/*
 * The optional "latency" of the run at @where: its "buckets", each
 * [lower_ns, upper_ns, count], must be buckets of this build's histogram
 * (src/common/hist.h), ascending, at most LB_HIST_BUCKETS; the count and the
 * quantiles are computed again from them, the mean is kept as written.
 */
static int lb_read_latency(struct lb_reader *rd, const struct json_object *o, const char *where,
			   struct lb_latency *l)
{
	struct json_object *lo, *arr, *e, *v[3];
	uint64_t total = 0;
	double mean;
	char w[160], wb[192];
	size_t i, k, n;

	lb_latency_release(l);
	if (lb_json_get(rd, o, where, "latency", json_type_object, &lo) <= 0)
		return rd->ret;
	snprintf(w, sizeof(w), "%s.latency", where);
	lb_json_get_double(rd, lo, w, "mean_ns", LB_NUM_NS, &mean);
	if (lb_json_get(rd, lo, w, "buckets", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	snprintf(w, sizeof(w), "%s.latency.buckets", where);
	if (lb_reader_cap(rd, w, "buckets", n, NULL, LB_HIST_BUCKETS) || !n)
		return rd->ret;
	l->bucket = calloc(n, sizeof(*l->bucket));
	l->bucket_count = calloc(n, sizeof(*l->bucket_count));
	if (!l->bucket || !l->bucket_count)
		return lb_reader_note(rd, -ENOMEM);
	l->nbuckets = n;
	for (i = 0; i < n; i++) {
		int64_t lower, upper;
		unsigned int b;

		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_array))
			return lb_reader_fail(rd, "%s[%zu]: expected [lower_ns, upper_ns, count], "
					      "found %s", w, i, lb_json_type_name(e));
		if (json_object_array_length(e) != 3)
			return lb_reader_fail(rd, "%s[%zu]: expected [lower_ns, upper_ns, count], "
					      "found %zu elements", w, i,
					      json_object_array_length(e));
		for (k = 0; k < 3; k++) {
			v[k] = json_object_array_get_idx(e, k);
			if (!json_object_is_type(v[k], json_type_int))
				return lb_reader_fail(rd, "%s[%zu][%zu]: expected an integer, "
						      "found %s", w, i, k,
						      lb_json_type_name(v[k]));
		}
		lower = json_object_get_int64(v[0]);
		upper = json_object_get_int64(v[1]);
		b = lb_hist_index((uint64_t)lower);
		if (lower < 0 || upper < 0 || lb_hist_lower(b) != (uint64_t)lower ||
		    lb_hist_upper(b) != (uint64_t)upper)
			return lb_reader_fail(rd, "%s[%zu]: [%" PRId64 ", %" PRId64 ") ns is not a "
					      "bucket of this loadbench's latency histogram "
					      "(doc/results-schema.md): written with another "
					      "layout", w, i, lower, upper);
		if (i && b <= l->bucket[i - 1])
			return lb_reader_fail(rd, "%s[%zu]: lower_ns %" PRId64 " is not above the "
					      "bucket before it", w, i, lower);
		l->bucket[i] = b;
		snprintf(wb, sizeof(wb), "%s[%zu]", w, i);
		if (lb_json_array_u64(rd, e, 2, wb, &l->bucket_count[i]))
			return rd->ret;
		if (l->bucket_count[i] > UINT64_MAX - total)
			return lb_reader_fail(rd, "%s: the counts add up to more than 2^64", w);
		total += l->bucket_count[i];
	}
	/* The stored count and quantiles are not trusted: they follow from the buckets. */
	if (lb_latency_from_buckets(l, mean * (double)total))
		return lb_reader_fail(rd, "%s: not a histogram of this loadbench", w);
	/* The mean as written: mean * count / count may differ from it in the last bit. */
	if (l->count)
		l->mean_ns = mean;
	return 0;
}

static int lb_read_run(struct lb_reader *rd, const struct json_object *o, const char *where,
		       struct lb_run *r)
{
	struct json_object *samples;
	char w[128];
	size_t i, n;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object, found %s", where,
				      lb_json_type_name(o));
	lb_json_get_int(rd, o, where, "round", LB_NUM_COUNT, &r->round);
	lb_json_get_double(rd, o, where, "seconds", LB_NUM_SECONDS, &r->seconds);
	lb_json_get_u64(rd, o, where, "ops", &r->ops);
	lb_json_get_u64(rd, o, where, "late", &r->late);
	lb_json_get_double(rd, o, where, "throughput", LB_NUM_THROUGHPUT, &r->throughput);
	lb_json_get_u64(rd, o, where, "events", &r->events);
	lb_json_get_u64(rd, o, where, "lost_events", &r->lost_events);
	lb_json_get_u64(rd, o, where, "overwritten_events", &r->overwritten_events);
	lb_json_get_u64(rd, o, where, "read_events", &r->read_events);
	lb_json_get_u64(rd, o, where, "read_bytes", &r->read_bytes);
	lb_json_get_u64(rd, o, where, "bpf_runs", &r->bpf_runs);
	lb_json_get_u64(rd, o, where, "bpf_run_ns", &r->bpf_run_ns);
	lb_json_get_u64(rd, o, where, "timeouts", &r->timeouts);
	lb_json_get_u64(rd, o, where, "sent", &r->sent);
	lb_json_get_u64(rd, o, where, "received", &r->received);
	lb_json_get_u64(rd, o, where, "dropped", &r->dropped);
	lb_json_get_u64(rd, o, where, "mismatches", &r->mismatches);
	lb_json_get_u64(rd, o, where, "edge_spread_ops", &r->edge_spread_ops);
	lb_json_get_double(rd, o, where, "sample_interval_s", LB_NUM_SECONDS,
			   &r->sample_interval);
	lb_read_flow_ops(rd, o, where, r);
	if (!rd->ret && json_object_object_get_ex(o, "pcap_packets", NULL)) {
		r->pcap = true;
		lb_json_get_u64(rd, o, where, "pcap_packets", &r->pcap_packets);
		lb_json_get_u64(rd, o, where, "pcap_dropped", &r->pcap_dropped);
		lb_json_get_u64(rd, o, where, "server_drops", &r->server_drops);
	}
	lb_read_latency(rd, o, where, &r->latency);
	lb_read_cpu(rd, o, where, &r->cpu);
	if (lb_json_get(rd, o, where, "samples", json_type_array, &samples) <= 0)
		return rd->ret;
	n = json_object_array_length(samples);
	if (!n)
		return 0;
	r->samples = calloc(n, sizeof(*r->samples));
	if (!r->samples)
		return lb_reader_note(rd, -ENOMEM);
	r->nsamples = n;
	snprintf(w, sizeof(w), "%s.samples", where);
	for (i = 0; i < n && !rd->ret; i++)
		lb_json_array_double(rd, samples, i, w, LB_NUM_THROUGHPUT, &r->samples[i]);
	return rd->ret;
}

/* A slice's "latency_count" and "latency_ns" {"p50": ... "max": ...}; none: 0 and NAN. */
static int lb_read_slice_latency(struct lb_reader *rd, const struct json_object *e,
				 const char *where, struct lb_slice *sl)
{
	struct json_object *ns;
	char w[160];

	for (int q = 0; q < LB_LAT_NQ; q++)
		sl->lat_ns[q] = NAN;
	lb_json_get_u64(rd, e, where, "latency_count", &sl->lat_count);
	if (lb_json_get(rd, e, where, "latency_ns", json_type_object, &ns) <= 0)
		return rd->ret;
	snprintf(w, sizeof(w), "%s.latency_ns", where);
	for (int q = 0; q < LB_LAT_NQ; q++)
		lb_json_get_double(rd, ns, w, lb_lat_q_names[q], LB_NUM_NS, &sl->lat_ns[q]);
	return rd->ret;
}

/*
 * The optional "slices" array of the probe set at @where, every field but
 * "on": the set it names may come later in the file (lb_read_slice_states()).
 */
static int lb_read_slices(struct lb_reader *rd, const struct json_object *o, const char *where,
			  struct lb_probeset_result *psr)
{
	struct json_object *arr, *e;
	char w[128];
	size_t i, n;

	if (lb_json_get(rd, o, where, "slices", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	if (!n)
		return 0;
	snprintf(w, sizeof(w), "%s.slices", where);
	if (lb_reader_cap(rd, w, "slices", n, &rd->nslices, LB_RESULTS_MAX_SLICES))
		return rd->ret;
	psr->slices = calloc(n, sizeof(*psr->slices));
	if (!psr->slices)
		return lb_reader_note(rd, -ENOMEM);
	psr->nslices = n;
	for (i = 0; i < n && !rd->ret; i++) {
		struct lb_slice *sl = &psr->slices[i];
		bool plain = false;

		snprintf(w, sizeof(w), "%s.slices[%zu]", where, i);
		e = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(e, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      e ? lb_json_type_name(e) : "null");
		sl->on = -1;
		if (!lb_json_get_bool(rd, e, w, "plain", &plain) && plain)
			sl->on = LB_SLICE_PLAIN;
		lb_json_get_int(rd, e, w, "unit", LB_NUM_INDEX, &sl->unit);
		lb_json_get_double(rd, e, w, "start", LB_NUM_SECONDS, &sl->start);
		lb_json_get_double(rd, e, w, "seconds", LB_NUM_SECONDS, &sl->seconds);
		lb_json_get_double(rd, e, w, "switch_s", LB_NUM_SECONDS, &sl->switch_s);
		lb_json_get_u64(rd, e, w, "ops", &sl->ops);
		lb_json_get_u64(rd, e, w, "late", &sl->late);
		lb_json_get_u64(rd, e, w, "events", &sl->events);
		lb_json_get_u64(rd, e, w, "lost_events", &sl->lost_events);
		lb_json_get_u64(rd, e, w, "overwritten_events", &sl->overwritten_events);
		lb_json_get_u64(rd, e, w, "read_events", &sl->read_events);
		lb_json_get_u64(rd, e, w, "off_events", &sl->off_events);
		lb_json_get_u64(rd, e, w, "bpf_runs", &sl->bpf_runs);
		lb_json_get_u64(rd, e, w, "bpf_run_ns", &sl->bpf_run_ns);
		lb_json_get_u64(rd, e, w, "edge_spread_ops", &sl->edge_spread_ops);
		lb_json_get_bool(rd, e, w, "dropped", &sl->dropped);
		lb_read_slice_latency(rd, e, w, sl);
		lb_read_cpu(rd, e, w, &sl->cpu);
	}
	return rd->ret;
}

/* An entry's name and index, for lookups by name. */
struct lb_named {
	const char *name;
	size_t index;
};

/* By name, then by index: the first entry of a name comes first. */
static int lb_cmp_named(const void *a, const void *b)
{
	const struct lb_named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The index of the first entry named @name in the @n sorted @by_name, or @n when none is. */
static size_t lb_named_find(const struct lb_named *by_name, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	/* The first whose name is not below @name. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(by_name[lo].name, name) ? by_name[lo].index : n;
}

/*
 * The "on" of every slice of every probe set, once all the entries are read:
 * a name of an entry (its index; the first of that name), or null for off.
 * Looked up in the entries sorted by name: a slice at a time through every
 * entry was slices x entries.
 */
static int lb_read_slice_states(struct lb_reader *rd, const struct json_object *arr,
				struct lb_results *res)
{
	struct json_object *slices, *v;
	struct lb_named *by_name;
	char w[128], name[256];
	size_t i, k, j;

	/* After a failure the entries may lack their names: nothing to look up in. */
	if (rd->ret || !rd->nslices)
		return rd->ret;
	by_name = calloc(res->nprobesets, sizeof(*by_name));
	if (!by_name)
		return lb_reader_note(rd, -ENOMEM);
	for (i = 0; i < res->nprobesets; i++)
		by_name[i] = (struct lb_named){ res->probesets[i].name, i };
	qsort(by_name, res->nprobesets, sizeof(*by_name), lb_cmp_named);
	for (i = 0; i < res->nprobesets && !rd->ret; i++) {
		struct lb_probeset_result *psr = &res->probesets[i];

		if (!psr->nslices)
			continue;
		/* Read once already: an array of objects with as many entries. */
		json_object_object_get_ex(json_object_array_get_idx(arr, i), "slices", &slices);
		for (k = 0; k < psr->nslices && !rd->ret; k++) {
			snprintf(w, sizeof(w), "probesets[%zu].slices[%zu]", i, k);
			if (lb_json_get(rd, json_object_array_get_idx(slices, k), w, "on",
					json_type_string, &v) <= 0)
				continue;
			if (psr->slices[k].on == LB_SLICE_PLAIN) {
				lb_reader_fail(rd, "%s: a plain slice (nothing armed) has no "
					       "set on: its \"on\" is null", w);
				break;
			}
			j = lb_named_find(by_name, res->nprobesets, json_object_get_string(v));
			if (j == res->nprobesets) {
				lb_str_safe(json_object_get_string(v), name, sizeof(name));
				lb_reader_fail(rd, "%s.on: \"%s\" is not the name of a probe "
					       "set in this file (null means all off)", w, name);
				break;
			}
			psr->slices[k].on = (int)j;
		}
	}
	free(by_name);
	return rd->ret;
}

/* One probe of "kprobes" at @where: its symbol, offset, type and mechanism. */
static int lb_read_kprobe(struct lb_reader *rd, const struct json_object *o, const char *where,
			  struct lb_kprobes_info *k)
{
	char *symbol = NULL, *type = NULL, *mech = NULL;
	enum lb_kprobe_mech m = LB_KPROBE_UNKNOWN;
	uint64_t offset = 0;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object, found %s", where,
				      lb_json_type_name(o));
	lb_json_get_str(rd, o, where, "symbol", &symbol);
	lb_json_get_u64(rd, o, where, "offset", &offset);
	lb_json_get_str(rd, o, where, "type", &type);
	lb_json_get_str(rd, o, where, "mechanism", &mech);
	if (rd->ret)
		goto out;
	if (!symbol)
		lb_reader_fail(rd, "%s: no \"symbol\"", where);
	else if (type && strcmp(type, "kprobe") && strcmp(type, "kretprobe"))
		lb_reader_fail(rd, "%s.type: \"%s\": expected \"kprobe\" or \"kretprobe\"", where,
			       type);
	else if (mech && lb_kprobe_mech_parse(mech, &m))
		lb_reader_fail(rd, "%s.mechanism: \"%s\": expected \"breakpoint\", \"ftrace\", "
			       "\"optimized\", \"disabled\" or \"unknown\"", where, mech);
	else
		lb_reader_note(rd, lb_kprobes_info_add(k, symbol, (unsigned long)offset,
						       type && !strcmp(type, "kretprobe"), m));
out:
	free(symbol);
	free(type);
	free(mech);
	return rd->ret;
}

/* The "kprobes" object of a probe-set entry at @where into @k (released: nothing in it). */
static int lb_read_kprobes(struct lb_reader *rd, const struct json_object *o, const char *where,
			   struct lb_kprobes_info *k)
{
	struct json_object *ko, *arr;
	char w[96], *opt = NULL;
	size_t i, n;

	/* Absent: no kprobes, the setting left alone and unknown before. */
	k->optimization = -1;
	k->optimization_before = -1;
	if (lb_json_get(rd, o, where, "kprobes", json_type_object, &ko) <= 0)
		return rd->ret;
	snprintf(w, sizeof(w), "%s.kprobes", where);
	if (!lb_json_get_str(rd, ko, w, "optimization", &opt) && opt) {
		if (strcmp(opt, "on") && strcmp(opt, "off"))
			lb_reader_fail(rd, "%s.optimization: \"%s\": expected \"on\", \"off\" or "
				       "null", w, opt);
		else
			k->optimization = !strcmp(opt, "on");
	}
	free(opt);
	if (!lb_json_get_int(rd, ko, w, "optimization_before", LB_NUM_SWITCH,
			     &k->optimization_before) && k->optimization_before < 0)
		k->optimization_before = -1;
	lb_json_get_str(rd, ko, w, "source", &k->source);
	if (lb_json_get(rd, ko, w, "probes", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	lb_reader_cap(rd, w, "kprobes", n, NULL, LB_RESULTS_MAX_KPROBES);
	for (i = 0; i < n && !rd->ret; i++) {
		char wp[128];

		snprintf(wp, sizeof(wp), "%s.probes[%zu]", w, i);
		lb_read_kprobe(rd, json_object_array_get_idx(arr, i), wp, k);
	}
	return rd->ret;
}

/* One probe set (or the baseline) at @where; @is_baseline reads only what the baseline has. */
static int lb_read_probeset(struct lb_reader *rd, const struct json_object *o, const char *where,
			    bool is_baseline, struct lb_probeset_result *psr)
{
	struct json_object *runs;
	char w[96];
	size_t i, n;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object, found %s", where,
				      lb_json_type_name(o));
	lb_json_get_str(rd, o, where, "name", &psr->name);
	lb_json_get_str(rd, o, where, "tracer", &psr->tracer);
	if (!is_baseline) {
		lb_json_get_str(rd, o, where, "description", &psr->description);
		lb_json_get_str(rd, o, where, "file", &psr->file);
		lb_json_get_str(rd, o, where, "file_text", &psr->text);
		lb_json_get_str(rd, o, where, "compare_with", &psr->compare_with);
		lb_json_get_str(rd, o, where, "added_for", &psr->added_for);
		lb_json_get_str(rd, o, where, "off_residue", &psr->off_residue);
		lb_json_get_str(rd, o, where, "reference", &psr->reference);
		lb_read_kprobes(rd, o, where, &psr->kprobes);
	}
	if (rd->ret)
		return rd->ret;
	if (!psr->name)
		return lb_reader_fail(rd, "%s: no \"name\"", where);
	/* Names are looked up and compared: a long one would make each comparison long. */
	if (strlen(psr->name) > LB_RESULTS_MAX_NAME)
		return lb_reader_fail(rd, "%s.name: %zu bytes, longer than the %d of a probe-set "
				      "file's name", where, strlen(psr->name), LB_RESULTS_MAX_NAME);
	lb_read_summary(rd, o, where, &psr->summary);
	if (!is_baseline)
		lb_read_slices(rd, o, where, psr);
	if (lb_json_get(rd, o, where, "runs", json_type_array, &runs) <= 0)
		return rd->ret;
	n = json_object_array_length(runs);
	if (!n)
		return 0;
	snprintf(w, sizeof(w), "%s.runs", where);
	if (lb_reader_cap(rd, w, "runs", n, &rd->nruns, LB_RESULTS_MAX_RUNS))
		return rd->ret;
	psr->runs = calloc(n, sizeof(*psr->runs));
	if (!psr->runs)
		return lb_reader_note(rd, -ENOMEM);
	psr->nruns = n;
	for (i = 0; i < n && !rd->ret; i++) {
		snprintf(w, sizeof(w), "%s.runs[%zu]", where, i);
		lb_read_run(rd, json_object_array_get_idx(runs, i), w, &psr->runs[i]);
	}
	return rd->ret;
}

static int lb_read_host_config(struct lb_reader *rd, const struct json_object *root,
			       struct lb_results *res)
{
	struct lb_config *c = &res->config;
	struct lb_host *h = &res->host;
	struct json_object *o;

	if (lb_json_get(rd, root, "", "host", json_type_object, &o) > 0) {
		lb_json_get_str(rd, o, "host", "kernel_release", &h->kernel_release);
		lb_json_get_str(rd, o, "host", "kernel_version", &h->kernel_version);
		lb_json_get_str(rd, o, "host", "machine", &h->machine);
		lb_json_get_str(rd, o, "host", "cpu_model", &h->cpu_model);
		lb_json_get_str(rd, o, "host", "virtualization", &h->virtualization);
		lb_json_get_int(rd, o, "host", "ncpus", LB_NUM_COUNT, &h->ncpus);
		lb_json_get_str(rd, o, "host", "vm_accelerator", &h->vm_accelerator);
	}

	if (lb_json_get(rd, root, "", "config", json_type_object, &o) <= 0)
		return rd->ret;
	lb_json_get_str(rd, o, "config", "workload", &c->workload);
	lb_json_get_str(rd, o, "config", "placement", &c->placement);
	lb_json_get_str(rd, o, "config", "engine", &c->engine);
	lb_json_get_str(rd, o, "config", "command_line", &c->command_line);
	lb_json_get_double(rd, o, "config", "duration_s", LB_NUM_SECONDS, &c->duration);
	lb_json_get_double(rd, o, "config", "warmup_s", LB_NUM_SECONDS, &c->warmup);
	lb_json_get_int(rd, o, "config", "repeat", LB_NUM_COUNT, &c->repeat);
	lb_json_get_int(rd, o, "config", "syscalls_per_op", LB_NUM_COUNT, &c->syscalls_per_op);
	lb_json_get_int(rd, o, "config", "msg_size", LB_NUM_COUNT, &c->msg_size);
	lb_json_get_int(rd, o, "config", "server_cpu", LB_NUM_INDEX, &c->server_cpu);
	lb_json_get_int(rd, o, "config", "client_cpu", LB_NUM_INDEX, &c->client_cpu);
	lb_json_get_int(rd, o, "config", "buffer_kb", LB_NUM_COUNT, &c->buffer_kb);
	lb_json_get_str(rd, o, "config", "topology", &c->topology);
	lb_json_get_int(rd, o, "config", "flows", LB_NUM_COUNT, &c->flows);
	lb_read_flow_placement(rd, o, c);
	lb_json_get_int(rd, o, "config", "window", LB_NUM_COUNT, &c->window);
	lb_json_get_int(rd, o, "config", "rate", LB_NUM_COUNT, &c->rate);
	lb_json_get_str(rd, o, "config", "count_with", &c->count_with);
	lb_json_get_double(rd, o, "config", "timeout_s", LB_NUM_SECONDS, &c->exec_timeout);
	lb_json_get_str(rd, o, "config", "metric", &c->exec_metric);
	lb_json_get_bool(rd, o, "config", "metric_lower_is_better", &c->exec_metric_lower);
	lb_json_get_str(rd, o, "config", "pcap_filter", &c->pcap_filter);
	lb_json_get_bool(rd, o, "config", "concurrent", &c->concurrent);
	lb_json_get_str(rd, o, "config", "method", &c->method);
	lb_json_get_double_present(rd, o, "config", "slice_s", LB_NUM_SECONDS, &c->slice);
	lb_json_get_double_present(rd, o, "config", "settle_s", LB_NUM_SECONDS, &c->settle);
	lb_json_get_double_present(rd, o, "config", "precision_pp", LB_NUM_WIDE_PCT,
				   &c->precision);
	lb_json_get_double_present(rd, o, "config", "max_time_s", LB_NUM_SECONDS, &c->max_time);
	lb_json_get_double_present(rd, o, "config", "time_budget_s", LB_NUM_SECONDS,
				   &c->time_budget);
	return rd->ret;
}

/*
 * The "warnings" array, each text once: a repeated one is kept where it
 * first stands. The repeats are found in a sorted copy; a search of those
 * kept so far for each one took warnings x warnings.
 */
static int lb_read_warnings(struct lb_reader *rd, const struct json_object *root,
			    struct lb_results *res)
{
	struct lb_named *sorted = NULL;
	struct json_object *arr, *v;
	bool *first = NULL;
	size_t i, n;
	int ret = -ENOMEM;

	if (lb_json_get(rd, root, "", "warnings", json_type_array, &arr) <= 0)
		return rd->ret;
	n = json_object_array_length(arr);
	if (lb_reader_cap(rd, "warnings", "warnings", n, NULL, LB_RESULTS_MAX_WARNINGS) || !n)
		return rd->ret;
	sorted = calloc(n, sizeof(*sorted));
	first = calloc(n, sizeof(*first));
	res->warnings = calloc(n, sizeof(*res->warnings));
	if (!sorted || !first || !res->warnings)
		goto out;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_string)) {
			ret = lb_reader_fail(rd, "warnings[%zu]: expected a string, found %s", i,
					     v ? lb_json_type_name(v) : "null");
			goto out;
		}
		sorted[i] = (struct lb_named){ json_object_get_string(v), i };
	}
	qsort(sorted, n, sizeof(*sorted), lb_cmp_named);
	for (i = 0; i < n; i++)
		first[sorted[i].index] = !i || strcmp(sorted[i].name, sorted[i - 1].name);
	for (i = 0; i < n; i++) {
		if (!first[i])
			continue;
		res->warnings[res->nwarnings] =
			strdup(json_object_get_string(json_object_array_get_idx(arr, i)));
		if (!res->warnings[res->nwarnings])
			goto out;
		res->nwarnings++;
	}
	ret = 0;
out:
	free(sorted);
	free(first);
	return lb_reader_note(rd, ret);
}

static int lb_results_from_json(struct lb_reader *rd, const struct json_object *root,
				struct lb_results *res)
{
	struct json_object *o, *arr;
	char w[64];
	size_t i, n;
	int schema = 1;

	if (!json_object_is_type(root, json_type_object))
		return lb_reader_fail(rd, "not loadbench results: the top level is %s, "
				      "not an object", root ? lb_json_type_name(root) : "null");
	if (!lb_json_get(rd, root, "", "probesets", json_type_array, &arr))
		return lb_reader_fail(rd, "not loadbench results: no \"probesets\" array");

	/* Before anything else: a newer layout may mean something else by the same keys. */
	lb_json_get_int(rd, root, "", "schema_version", LB_NUM_COUNT, &schema);
	if (rd->ret)
		return rd->ret;
	if (schema < 1)
		return lb_reader_fail(rd, "schema_version %d: expected 1 or more", schema);
	if (schema > LB_RESULTS_SCHEMA)
		return lb_reader_fail(rd, "schema_version %d: this loadbench reads schema %d and "
				      "older (doc/results-schema.md): read it with the loadbench "
				      "that wrote it", schema, LB_RESULTS_SCHEMA);
	lb_json_get_str(rd, root, "", "loadbench_version", &res->version);
	lb_json_get_str(rd, root, "", "started", &res->started);
	lb_json_get_bool(rd, root, "", "complete", &res->complete);
	lb_read_host_config(rd, root, res);

	if (lb_json_get(rd, root, "", "baseline", json_type_object, &o) > 0)
		lb_read_probeset(rd, o, "baseline", true, &res->baseline);

	n = json_object_array_length(arr);
	if (lb_reader_cap(rd, "probesets", "probe sets", n, NULL, LB_RESULTS_MAX_PROBESETS))
		return rd->ret;
	if (n) {
		res->probesets = calloc(n, sizeof(*res->probesets));
		if (!res->probesets)
			return lb_reader_note(rd, -ENOMEM);
		res->nprobesets = n;
	}
	for (i = 0; i < n && !rd->ret; i++) {
		snprintf(w, sizeof(w), "probesets[%zu]", i);
		lb_read_probeset(rd, json_object_array_get_idx(arr, i), w, false,
				 &res->probesets[i]);
	}
	lb_read_slice_states(rd, arr, res);

	n = lb_json_get(rd, root, "", "skipped", json_type_array, &arr) > 0 ?
		json_object_array_length(arr) : 0;
	lb_reader_cap(rd, "skipped", "probe sets", n, NULL, LB_RESULTS_MAX_PROBESETS);
	for (i = 0; i < n && !rd->ret; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);
		char *name = NULL, *reason = NULL;

		snprintf(w, sizeof(w), "skipped[%zu]", i);
		if (!json_object_is_type(v, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object, found %s", w,
					      v ? lb_json_type_name(v) : "null");
		lb_json_get_str(rd, v, w, "name", &name);
		lb_json_get_str(rd, v, w, "reason", &reason);
		if (!rd->ret)
			lb_reader_note(rd, lb_results_add_skipped(res, name, reason));
		free(name);
		free(reason);
	}

	return lb_read_warnings(rd, root, res);
}

/* The whole of @path, NUL-terminated, in *@buf; -errno with the reason in @rd. */
static int lb_read_whole(struct lb_reader *rd, char **buf, size_t *len)
{
	int ret = lb_read_file(rd->path, LB_JSON_MAX, buf, len);
	char q[LB_STR_SHORT_BUF];

	if (ret == -EINVAL)
		lb_seterr(rd->err, rd->errlen, "%s is not a regular file (%s): not loadbench "
			  "results; give the directory of a loadbench run (its --output)",
			  lb_str_short(rd->path, q, sizeof(q)), lb_file_kind(rd->path));
	else if (ret == -EFBIG)
		lb_reader_fail(rd, "larger than %lu MiB; not loadbench results",
			       (unsigned long)(LB_JSON_MAX >> 20));
	else if (ret && ret != -ENOMEM)
		lb_reader_fail(rd, "%s", strerror(-ret));
	return ret;
}

int lb_results_read_json(const char *path, struct lb_results **out, char *err, size_t errlen)
{
	struct lb_reader rd = { .path = path, .err = err, .errlen = errlen };
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL;
	struct lb_results *res = NULL;
	enum json_tokener_error jerr;
	char *data = NULL;
	size_t len = 0, end;
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	ret = lb_read_whole(&rd, &data, &len);
	if (ret)
		goto out;

	ret = -EINVAL;
	end = strspn(data, " \t\r\n");
	if (end == len) {
		lb_reader_fail(&rd, "empty file; not loadbench results");
		goto out;
	}
	if (strlen(data) != len) {
		lb_reader_fail(&rd, "contains a NUL byte; not loadbench results (JSON)");
		goto out;
	}
	ret = -ENOMEM;
	tok = json_tokener_new();
	if (!tok)
		goto out;
	ret = -EINVAL;
	root = json_tokener_parse_ex(tok, data, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		lb_reader_fail(&rd, "the file ends inside the JSON document (truncated?)");
		goto out;
	}
	if (jerr != json_tokener_success) {
		lb_reader_fail(&rd, "not valid JSON: %s at byte %zu", json_tokener_error_desc(jerr),
			       json_tokener_get_parse_end(tok));
		goto out;
	}
	end = json_tokener_get_parse_end(tok);
	end += strspn(data + end, " \t\r\n");
	if (end < len) {
		lb_reader_fail(&rd, "not valid JSON: trailing data at byte %zu", end);
		goto out;
	}

	ret = -ENOMEM;
	res = lb_results_new();
	if (!res)
		goto out;
	ret = lb_results_from_json(&rd, root, res);
	if (ret)
		goto out;
	*out = res;
	res = NULL;
out:
	if (ret == -ENOMEM && err && errlen && !err[0])
		lb_reader_fail(&rd, "%s", strerror(ENOMEM));
	lb_results_free(res);
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(data);
	return ret;
}
