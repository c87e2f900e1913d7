// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results.json from a result set (json-c), written atomically. Numbers are
 * written in the shortest form that reads back to the same double; NaN and
 * infinities are null (read back as NAN).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "atomic.h"
#include "hist.h"
#include "json_build.h"
#include "results.h"
#include "results_int.h"

/*
 * A run's "latency", when its operations were timed: the count, the mean,
 * the quantiles as "p50_ns" ... "max_ns", and its nonempty buckets as
 * [lower_ns, upper_ns, count] (the bounds from the histogram's layout, so
 * that the file says what each bucket holds).
 */
static void lb_jb_latency(struct lb_jb *jb, struct json_object *parent,
			  const struct lb_latency *l)
{
	struct json_object *o, *arr, *b;
	char key[32];

	if (!l->count)
		return;
	o = lb_jb_child(jb, parent, "latency", false);
	lb_jb_int(jb, o, "count", (int64_t)l->count);
	lb_jb_double(jb, o, "mean_ns", l->mean_ns);
	for (int q = 0; q < LB_LAT_NQ; q++) {
		snprintf(key, sizeof(key), "%s_ns", lb_lat_q_names[q]);
		lb_jb_double(jb, o, key, l->ns[q]);
	}
	arr = lb_jb_child(jb, o, "buckets", true);
	for (size_t i = 0; i < l->nbuckets; i++) {
		b = lb_jb_child(jb, arr, NULL, true);
		lb_jb_int(jb, b, NULL, (int64_t)lb_hist_lower(l->bucket[i]));
		lb_jb_int(jb, b, NULL, (int64_t)lb_hist_upper(l->bucket[i]));
		lb_jb_int(jb, b, NULL, (int64_t)l->bucket_count[i]);
	}
}

/*
 * A summary's "latency", when its runs were timed: the count, and per
 * quantile ("p50" ... "max") its value and what the set adds to the
 * baseline's, in ns and in percent, each with its 95% CI.
 */
static void lb_jb_lat_summary(struct lb_jb *jb, struct json_object *parent,
			      const struct lb_lat_summary *l)
{
	struct json_object *o, *p;

	if (!l->count)
		return;
	o = lb_jb_child(jb, parent, "latency", false);
	lb_jb_int(jb, o, "count", (int64_t)l->count);
	for (int q = 0; q < LB_LAT_NQ; q++) {
		p = lb_jb_child(jb, o, lb_lat_q_names[q], false);
		lb_jb_double(jb, p, "ns", l->ns[q]);
		lb_jb_double(jb, p, "added_ns", l->added_ns[q]);
		lb_jb_pair(jb, p, "added_ns_ci95", l->added_ns_ci95[q]);
		lb_jb_double(jb, p, "added_pct", l->added_pct[q]);
		lb_jb_pair(jb, p, "added_pct_ci95", l->added_pct_ci95[q]);
	}
}

/*
 * A run's or slice's "cpu", when measured: the workload's, the tracer's and
 * the machine's CPU time in ns ("machine" by kind: user, system, irq,
 * softirq, steal, idle).
 */
static void lb_jb_cpu(struct lb_jb *jb, struct json_object *parent, const struct lb_cpu *c)
{
	struct json_object *o, *m;

	if (!c->measured)
		return;
	o = lb_jb_child(jb, parent, "cpu", false);
	lb_jb_double(jb, o, "workload_ns", c->workload_ns);
	lb_jb_double(jb, o, "workload_user_ns", c->workload_user_ns);
	lb_jb_double(jb, o, "workload_sys_ns", c->workload_sys_ns);
	lb_jb_double(jb, o, "tracer_ns", c->tracer_ns);
	lb_jb_int(jb, o, "tracer_tasks", c->tracer_tasks);
	m = lb_jb_child(jb, o, "machine_ns", false);
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		lb_jb_double(jb, m, lb_cpu_kind_names[k], c->machine_ns[k]);
}

/* A summary's "cpu", when measured: per operation in us, the tracer's share, steal. */
static void lb_jb_cpu_summary(struct lb_jb *jb, struct json_object *parent,
			      const struct lb_cpu_summary *c)
{
	struct json_object *o;

	if (!c->measured)
		return;
	o = lb_jb_child(jb, parent, "cpu", false);
	lb_jb_double(jb, o, "workload_us_per_op", c->workload_us_per_op);
	lb_jb_double(jb, o, "workload_user_us_per_op", c->workload_user_us_per_op);
	lb_jb_double(jb, o, "workload_sys_us_per_op", c->workload_sys_us_per_op);
	lb_jb_double(jb, o, "tracer_us_per_op", c->tracer_us_per_op);
	lb_jb_double(jb, o, "tracer_cpu_pct", c->tracer_cpu_pct);
	lb_jb_int(jb, o, "tracer_tasks", c->tracer_tasks);
	lb_jb_double(jb, o, "machine_us_per_op", c->machine_us_per_op);
	lb_jb_double(jb, o, "steal_pct", c->steal_pct);
	lb_jb_int(jb, o, "steal_windows", c->steal_windows);
	lb_jb_int(jb, o, "windows", c->windows);
}

/*
 * Whether @s holds any --method alternate number: then they are written even
 * for results without config.method, so that nothing is lost on the way.
 */
static bool lb_summary_has_alternate(const struct lb_summary *s)
{
	return s->units || s->dropped_units || s->precision_reached || s->off_events ||
	       !isnan(s->ci_half_width) || !isnan(s->off_throughput) || !isnan(s->residue_pct) ||
	       !isnan(s->switch_on_ms) || !isnan(s->switch_off_ms) || !isnan(s->seconds);
}

static void lb_jb_summary(struct lb_jb *jb, struct json_object *parent,
			  const struct lb_summary *s, bool alternate)
{
	struct json_object *o = lb_jb_child(jb, parent, "summary", false), *ci;

	lb_jb_double(jb, o, "throughput_median", s->throughput_median);
	lb_jb_double(jb, o, "throughput_cv", s->throughput_cv);
	lb_jb_double(jb, o, "slowdown_pct", s->slowdown_pct);
	ci = lb_jb_child(jb, o, "slowdown_ci95", true);
	lb_jb_double(jb, ci, NULL, s->slowdown_ci95[0]);
	lb_jb_double(jb, ci, NULL, s->slowdown_ci95[1]);
	lb_jb_double(jb, o, "events_per_op", s->events_per_op);
	lb_jb_double(jb, o, "ns_per_event", s->ns_per_event);
	ci = lb_jb_child(jb, o, "ns_per_event_ci95", true);
	lb_jb_double(jb, ci, NULL, s->ns_per_event_ci95[0]);
	lb_jb_double(jb, ci, NULL, s->ns_per_event_ci95[1]);
	lb_jb_int(jb, o, "events", (int64_t)s->events);
	lb_jb_int(jb, o, "lost_events", (int64_t)s->lost_events);
	lb_jb_int(jb, o, "overwritten_events", (int64_t)s->overwritten_events);
	/* Only tracers with a reader (mode consumer) have these. */
	if (s->read_bytes) {
		lb_jb_int(jb, o, "read_events", (int64_t)s->read_events);
		lb_jb_int(jb, o, "read_bytes", (int64_t)s->read_bytes);
	}
	/* Only tracers whose BPF programs' statistics were read have these. */
	if (s->bpf_runs) {
		lb_jb_int(jb, o, "bpf_runs", (int64_t)s->bpf_runs);
		lb_jb_int(jb, o, "bpf_run_ns", (int64_t)s->bpf_run_ns);
		lb_jb_double(jb, o, "bpf_ns_per_run", (double)s->bpf_run_ns / s->bpf_runs);
	}
	/* Results of --method runs keep the keys they always had. */
	if (alternate || lb_summary_has_alternate(s)) {
		lb_jb_int(jb, o, "units", s->units);
		lb_jb_int(jb, o, "dropped_units", s->dropped_units);
		/* Only when off was not off for some switch. */
		if (s->off_dropped_units)
			lb_jb_int(jb, o, "off_dropped_units", s->off_dropped_units);
		lb_jb_double(jb, o, "ci_half_width", s->ci_half_width);
		lb_jb_bool(jb, o, "precision_reached", s->precision_reached);
		lb_jb_double(jb, o, "off_throughput", s->off_throughput);
		if (!isnan(s->on_throughput)) /* files of earlier versions have none */
			lb_jb_double(jb, o, "on_throughput", s->on_throughput);
		lb_jb_double(jb, o, "residue_pct", s->residue_pct);
		lb_jb_double(jb, o, "switch_on_ms", s->switch_on_ms);
		lb_jb_double(jb, o, "switch_off_ms", s->switch_off_ms);
		lb_jb_int(jb, o, "off_events", (int64_t)s->off_events);
		lb_jb_double(jb, o, "seconds", s->seconds);
		/* Only for a set that --time-budget topped up. */
		if (s->alternations > 1) {
			lb_jb_int(jb, o, "alternations", s->alternations);
			lb_jb_double(jb, o, "topup_seconds", s->topup_seconds);
		}
	}
	if (!isnan(s->late_pct))
		lb_jb_double(jb, o, "late_pct", s->late_pct);
	lb_jb_lat_summary(jb, o, &s->latency);
	lb_jb_cpu_summary(jb, o, &s->cpu);
}

static void lb_jb_runs(struct lb_jb *jb, struct json_object *parent,
		       const struct lb_probeset_result *psr, bool rate)
{
	struct json_object *runs = lb_jb_child(jb, parent, "runs", true);
	size_t i, k;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];
		struct json_object *o = lb_jb_child(jb, runs, NULL, false), *samples;

		lb_jb_int(jb, o, "round", r->round);
		lb_jb_double(jb, o, "seconds", r->seconds);
		lb_jb_int(jb, o, "ops", (int64_t)r->ops);
		if (rate)
			lb_jb_int(jb, o, "late", (int64_t)r->late);
		lb_jb_double(jb, o, "throughput", r->throughput);
		lb_jb_int(jb, o, "events", (int64_t)r->events);
		lb_jb_int(jb, o, "lost_events", (int64_t)r->lost_events);
		lb_jb_int(jb, o, "overwritten_events", (int64_t)r->overwritten_events);
		if (r->read_bytes) {
			lb_jb_int(jb, o, "read_events", (int64_t)r->read_events);
			lb_jb_int(jb, o, "read_bytes", (int64_t)r->read_bytes);
		}
		if (r->bpf_runs) {
			lb_jb_int(jb, o, "bpf_runs", (int64_t)r->bpf_runs);
			lb_jb_int(jb, o, "bpf_run_ns", (int64_t)r->bpf_run_ns);
		}
		lb_jb_int(jb, o, "timeouts", (int64_t)r->timeouts);
		lb_jb_int(jb, o, "sent", (int64_t)r->sent);
		lb_jb_int(jb, o, "received", (int64_t)r->received);
		lb_jb_int(jb, o, "dropped", (int64_t)r->dropped);
		lb_jb_int(jb, o, "mismatches", (int64_t)r->mismatches);
		lb_jb_int(jb, o, "edge_spread_ops", (int64_t)r->edge_spread_ops);
		if (r->nflow_ops) {
			struct json_object *fo = lb_jb_child(jb, o, "flow_ops", true);

			for (k = 0; k < r->nflow_ops; k++)
				lb_jb_int(jb, fo, NULL, (int64_t)r->flow_ops[k]);
		}
		lb_jb_double(jb, o, "sample_interval_s", r->sample_interval);
		if (r->pcap) {
			lb_jb_int(jb, o, "pcap_packets", (int64_t)r->pcap_packets);
			lb_jb_int(jb, o, "pcap_dropped", (int64_t)r->pcap_dropped);
			lb_jb_int(jb, o, "server_drops", (int64_t)r->server_drops);
			lb_jb_bool(jb, o, "pcap_agrees", lb_run_pcap_agrees(r, NULL));
		}
		lb_jb_latency(jb, o, &r->latency);
		lb_jb_cpu(jb, o, &r->cpu);
		samples = lb_jb_child(jb, o, "samples", true);
		for (k = 0; k < r->nsamples; k++)
			lb_jb_double(jb, samples, NULL, r->samples[k]);
	}
}

/*
 * The slices of @psr's alternation, "on" as the name of the set that was on
 * (null: all off), so that the file does not depend on the order of its
 * entries. Written only when there are any.
 */
static void lb_jb_slices(struct lb_jb *jb, struct json_object *parent,
			 const struct lb_results *res, const struct lb_probeset_result *psr)
{
	bool rate = res->config.rate > 0;
	struct json_object *arr;
	size_t i;

	if (!psr->nslices)
		return;
	arr = lb_jb_child(jb, parent, "slices", true);
	for (i = 0; i < psr->nslices; i++) {
		const struct lb_slice *sl = &psr->slices[i];
		struct json_object *o = lb_jb_child(jb, arr, NULL, false);
		bool on = sl->on >= 0 && (size_t)sl->on < res->nprobesets;

		lb_jb_int(jb, o, "unit", sl->unit);
		lb_jb_str(jb, o, "on", on ? res->probesets[sl->on].name : NULL);
		if (sl->on == LB_SLICE_PLAIN)
			lb_jb_bool(jb, o, "plain", true);
		lb_jb_double(jb, o, "start", sl->start);
		lb_jb_double(jb, o, "seconds", sl->seconds);
		lb_jb_double(jb, o, "switch_s", sl->switch_s);
		lb_jb_int(jb, o, "ops", (int64_t)sl->ops);
		if (rate)
			lb_jb_int(jb, o, "late", (int64_t)sl->late);
		lb_jb_int(jb, o, "events", (int64_t)sl->events);
		lb_jb_int(jb, o, "lost_events", (int64_t)sl->lost_events);
		lb_jb_int(jb, o, "overwritten_events", (int64_t)sl->overwritten_events);
		lb_jb_int(jb, o, "read_events", (int64_t)sl->read_events);
		lb_jb_int(jb, o, "off_events", (int64_t)sl->off_events);
		if (sl->bpf_runs) {
			lb_jb_int(jb, o, "bpf_runs", (int64_t)sl->bpf_runs);
			lb_jb_int(jb, o, "bpf_run_ns", (int64_t)sl->bpf_run_ns);
		}
		lb_jb_int(jb, o, "edge_spread_ops", (int64_t)sl->edge_spread_ops);
		lb_jb_bool(jb, o, "dropped", sl->dropped);
		if (sl->lat_count) {
			struct json_object *ns;

			lb_jb_int(jb, o, "latency_count", (int64_t)sl->lat_count);
			ns = lb_jb_child(jb, o, "latency_ns", false);
			for (int q = 0; q < LB_LAT_NQ; q++)
				lb_jb_double(jb, ns, lb_lat_q_names[q], sl->lat_ns[q]);
		}
		lb_jb_cpu(jb, o, &sl->cpu);
	}
}

/* "kprobes": the optimization setting, where the mechanisms were read, each probe placed. */
static void lb_jb_kprobes(struct lb_jb *jb, struct json_object *parent,
			  const struct lb_kprobes_info *k)
{
	struct json_object *o = lb_jb_child(jb, parent, "kprobes", false), *arr, *p;

	/* The set's setting: 0 off, 1 on, anything else left alone (null). */
	lb_jb_str(jb, o, "optimization",
		  k->optimization == 0 ? "off" : k->optimization == 1 ? "on" : NULL);
	if (k->optimization_before >= 0)
		lb_jb_int(jb, o, "optimization_before", k->optimization_before);
	else
		lb_jb_put(jb, o, "optimization_before", NULL, true);
	lb_jb_str(jb, o, "source", k->source);
	arr = lb_jb_child(jb, o, "probes", true);
	for (size_t i = 0; i < k->nprobes; i++) {
		p = lb_jb_child(jb, arr, NULL, false);
		lb_jb_str(jb, p, "symbol", k->probes[i].symbol);
		lb_jb_int(jb, p, "offset", (int64_t)k->probes[i].offset);
		lb_jb_str(jb, p, "type", k->probes[i].ret ? "kretprobe" : "kprobe");
		lb_jb_str(jb, p, "mechanism", lb_kprobe_mech_name(k->probes[i].mech));
	}
}

static struct json_object *lb_results_to_json(const struct lb_results *res)
{
	struct lb_jb jb = { .oom = false };
	struct json_object *root = json_object_new_object(), *o, *arr;
	size_t i;

	if (!root)
		return NULL;
	lb_jb_int(&jb, root, "schema_version", LB_RESULTS_SCHEMA);
	lb_jb_str(&jb, root, "loadbench_version", res->version);
	lb_jb_str(&jb, root, "started", res->started);
	lb_jb_bool(&jb, root, "complete", res->complete);

	o = lb_jb_child(&jb, root, "host", false);
	lb_jb_str(&jb, o, "kernel_release", res->host.kernel_release);
	lb_jb_str(&jb, o, "kernel_version", res->host.kernel_version);
	lb_jb_str(&jb, o, "machine", res->host.machine);
	lb_jb_str(&jb, o, "cpu_model", res->host.cpu_model);
	lb_jb_str(&jb, o, "virtualization", res->host.virtualization);
	lb_jb_int(&jb, o, "ncpus", res->host.ncpus);
	if (res->host.vm_accelerator)
		lb_jb_str(&jb, o, "vm_accelerator", res->host.vm_accelerator);

	o = lb_jb_child(&jb, root, "config", false);
	lb_jb_str(&jb, o, "workload", res->config.workload);
	lb_jb_str(&jb, o, "placement", res->config.placement);
	lb_jb_str(&jb, o, "engine", res->config.engine);
	lb_jb_str(&jb, o, "command_line", res->config.command_line);
	lb_jb_double(&jb, o, "duration_s", res->config.duration);
	lb_jb_double(&jb, o, "warmup_s", res->config.warmup);
	lb_jb_int(&jb, o, "repeat", res->config.repeat);
	lb_jb_int(&jb, o, "syscalls_per_op", res->config.syscalls_per_op);
	lb_jb_int(&jb, o, "msg_size", res->config.msg_size);
	lb_jb_int(&jb, o, "server_cpu", res->config.server_cpu);
	lb_jb_int(&jb, o, "client_cpu", res->config.client_cpu);
	lb_jb_int(&jb, o, "buffer_kb", res->config.buffer_kb);
	if (res->config.topology)
		lb_jb_str(&jb, o, "topology", res->config.topology);
	if (res->config.flows)
		lb_jb_int(&jb, o, "flows", res->config.flows);
	if (res->config.nflow_placement) {
		struct json_object *fp = lb_jb_child(&jb, o, "flow_placement", true);

		for (i = 0; i < res->config.nflow_placement; i++) {
			struct json_object *e = lb_jb_child(&jb, fp, NULL, false);

			lb_jb_int(&jb, e, "flow", (int64_t)i);
			lb_jb_int(&jb, e, "server_cpu", res->config.flow_placement[i].server_cpu);
			lb_jb_int(&jb, e, "client_cpu", res->config.flow_placement[i].client_cpu);
		}
	}
	if (res->config.window)
		lb_jb_int(&jb, o, "window", res->config.window);
	if (res->config.rate)
		lb_jb_int(&jb, o, "rate", res->config.rate);
	/* Older results have none of these: NULL (= runs) and 0 read back as they were. */
	if (res->config.method)
		lb_jb_str(&jb, o, "method", res->config.method);
	if (res->config.method || res->config.slice || res->config.settle ||
	    res->config.precision || res->config.max_time) {
		lb_jb_double(&jb, o, "slice_s", res->config.slice);
		lb_jb_double(&jb, o, "settle_s", res->config.settle);
		lb_jb_double(&jb, o, "precision_pp", res->config.precision);
		lb_jb_double(&jb, o, "max_time_s", res->config.max_time);
	}
	/* Results before --time-budget have none: 0 reads back as none. */
	if (res->config.time_budget)
		lb_jb_double(&jb, o, "time_budget_s", res->config.time_budget);
	if (res->config.exec_timeout > 0)
		lb_jb_double(&jb, o, "timeout_s", res->config.exec_timeout);
	if (res->config.exec_metric)
		lb_jb_str(&jb, o, "metric", res->config.exec_metric);
	if (res->config.exec_metric_lower)
		lb_jb_bool(&jb, o, "metric_lower_is_better", true);
	if (res->config.concurrent)
		lb_jb_bool(&jb, o, "concurrent", true);
	if (res->config.count_with) {
		lb_jb_str(&jb, o, "count_with", res->config.count_with);
		lb_jb_str(&jb, o, "pcap_filter", res->config.pcap_filter);
		lb_jb_double(&jb, o, "pcap_tolerance_packets", LB_PCAP_TOL_PACKETS);
		lb_jb_double(&jb, o, "pcap_tolerance_pct", LB_PCAP_TOL_PCT);
	}

	o = lb_jb_child(&jb, root, "baseline", false);
	lb_jb_str(&jb, o, "name", res->baseline.name);
	lb_jb_str(&jb, o, "tracer", res->baseline.tracer);
	lb_jb_runs(&jb, o, &res->baseline, res->config.rate > 0);
	lb_jb_summary(&jb, o, &res->baseline.summary, false);

	arr = lb_jb_child(&jb, root, "probesets", true);
	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];

		o = lb_jb_child(&jb, arr, NULL, false);
		lb_jb_str(&jb, o, "name", psr->name);
		lb_jb_str(&jb, o, "tracer", psr->tracer);
		lb_jb_str(&jb, o, "description", psr->description);
		lb_jb_str(&jb, o, "file", psr->file);
		lb_jb_str(&jb, o, "file_text", psr->text);
		if (psr->compare_with)
			lb_jb_str(&jb, o, "compare_with", psr->compare_with);
		if (psr->added_for)
			lb_jb_str(&jb, o, "added_for", psr->added_for);
		if (psr->off_residue)
			lb_jb_str(&jb, o, "off_residue", psr->off_residue);
		if (psr->reference)
			lb_jb_str(&jb, o, "reference", psr->reference);
		if (lb_kprobes_info_present(&psr->kprobes))
			lb_jb_kprobes(&jb, o, &psr->kprobes);
		lb_jb_runs(&jb, o, psr, res->config.rate > 0);
		lb_jb_slices(&jb, o, res, psr);
		lb_jb_summary(&jb, o, &psr->summary, lb_results_alternate(res));
	}

	arr = lb_jb_child(&jb, root, "warnings", true);
	for (i = 0; i < res->nwarnings; i++)
		lb_jb_str(&jb, arr, NULL, res->warnings[i]);

	arr = lb_jb_child(&jb, root, "skipped", true);
	for (i = 0; i < res->nskipped; i++) {
		o = lb_jb_child(&jb, arr, NULL, false);
		lb_jb_str(&jb, o, "name", res->skipped[i].name);
		lb_jb_str(&jb, o, "reason", res->skipped[i].reason);
	}

	if (jb.oom) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

/*
 * @root as pretty JSON and a newline, in a malloc'd *@data of *@len bytes;
 * @root is put (freed) in any case. Returns 0 or -ENOMEM.
 */
static int json_text(struct json_object *root, char **data, size_t *len)
{
	const char *text;
	int ret = -ENOMEM;

	*data = NULL;
	if (!root)
		return -ENOMEM;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		goto out;
	*len = strlen(text);
	*data = malloc(*len + 2);
	if (!*data)
		goto out;
	memcpy(*data, text, *len);
	(*data)[(*len)++] = '\n';
	(*data)[*len] = '\0';
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

int lb_results_write_json(const struct lb_results *res, int dirfd, const char *name)
{
	return lb_json_write_file(lb_results_to_json(res), dirfd, name);
}

int lb_results_print_json(const struct lb_results *res, FILE *f)
{
	char *data;
	size_t len;
	int ret = json_text(lb_results_to_json(res), &data, &len);

	if (ret)
		return ret;
	if (fwrite(data, 1, len, f) != len || fflush(f))
		ret = errno ? -errno : -EIO;
	free(data);
	return ret;
}

int lb_json_write_file(struct json_object *root, int dirfd, const char *name)
{
	char *data;
	size_t len;
	int ret = json_text(root, &data, &len);

	if (ret)
		return ret;
	ret = lb_atomic_write_at(dirfd, name, data, len);
	free(data);
	return ret;
}
