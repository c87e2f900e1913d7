// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results of one loadbench invocation in memory: a result set, its
 * probe-set entries with their runs and slices, warnings and skipped sets,
 * and the questions asked of it (measured how, where, with what). The
 * statistics are in summary.c, the files in json_write.c, json_read.c and
 * csv.c; the text table is the output layer's (src/output/table.c).
 * The bottom of src/results: what the summaries start from (each part
 * empty) and a run by its round are here, so that summary.c, cpu.c and
 * summary_latency.c use this file and it uses none of them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "results_int.h"

static char *lb_strdup_null(const char *s, int *ret)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*ret = -ENOMEM;
	return d;
}

void lb_lat_summary_init(struct lb_lat_summary *l)
{
	l->count = 0;
	for (int q = 0; q < LB_LAT_NQ; q++) {
		l->ns[q] = NAN;
		l->added_pct[q] = NAN;
		l->added_ns[q] = NAN;
		for (int e = 0; e < 2; e++) {
			l->added_pct_ci95[q][e] = NAN;
			l->added_ns_ci95[q][e] = NAN;
		}
	}
}

void lb_cpu_summary_init(struct lb_cpu_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->workload_us_per_op = NAN;
	s->workload_user_us_per_op = NAN;
	s->workload_sys_us_per_op = NAN;
	s->tracer_us_per_op = NAN;
	s->tracer_cpu_pct = NAN;
	s->machine_us_per_op = NAN;
	s->steal_pct = NAN;
}

void lb_summary_init(struct lb_summary *s)
{
	s->throughput_median = NAN;
	s->throughput_cv = NAN;
	s->slowdown_pct = NAN;
	s->slowdown_ci95[0] = NAN;
	s->slowdown_ci95[1] = NAN;
	s->events_per_op = NAN;
	s->ns_per_event = NAN;
	s->ns_per_event_ci95[0] = NAN;
	s->ns_per_event_ci95[1] = NAN;
	s->events = 0;
	s->lost_events = 0;
	s->overwritten_events = 0;
	s->read_events = 0;
	s->read_bytes = 0;
	s->bpf_runs = 0;
	s->bpf_run_ns = 0;
	s->units = 0;
	s->dropped_units = 0;
	s->off_dropped_units = 0;
	s->alternations = 0;
	s->topup_seconds = 0;
	s->ci_half_width = NAN;
	s->precision_reached = false;
	s->off_throughput = NAN;
	s->on_throughput = NAN;
	s->residue_pct = NAN;
	s->switch_on_ms = NAN;
	s->switch_off_ms = NAN;
	s->off_events = 0;
	s->seconds = NAN;
	s->late_pct = NAN;
	lb_lat_summary_init(&s->latency);
	lb_cpu_summary_init(&s->cpu);
}

static void lb_probeset_result_release(struct lb_probeset_result *psr)
{
	size_t i;

	free(psr->name);
	free(psr->tracer);
	free(psr->description);
	free(psr->file);
	free(psr->text);
	free(psr->compare_with);
	free(psr->added_for);
	free(psr->reference);
	for (i = 0; i < psr->nruns; i++) {
		free(psr->runs[i].samples);
		free(psr->runs[i].flow_ops);
		lb_latency_release(&psr->runs[i].latency);
	}
	free(psr->runs);
	free(psr->slices);
	free(psr->off_residue);
	lb_kprobes_info_release(&psr->kprobes);
	memset(psr, 0, sizeof(*psr));
}

void lb_kprobes_info_release(struct lb_kprobes_info *k)
{
	for (size_t i = 0; i < k->nprobes; i++)
		free(k->probes[i].symbol);
	free(k->probes);
	free(k->source);
	memset(k, 0, sizeof(*k));
	k->optimization = -1;
	k->optimization_before = -1;
}

int lb_kprobes_info_add(struct lb_kprobes_info *k, const char *symbol, unsigned long offset,
			bool ret, enum lb_kprobe_mech mech)
{
	struct lb_kprobe_placed *arr = realloc(k->probes, (k->nprobes + 1) * sizeof(*arr));

	if (!arr)
		return -ENOMEM;
	k->probes = arr;
	arr[k->nprobes] = (struct lb_kprobe_placed){ .offset = offset, .ret = ret, .mech = mech };
	arr[k->nprobes].symbol = strdup(symbol);
	if (!arr[k->nprobes].symbol)
		return -ENOMEM;
	k->nprobes++;
	return 0;
}

bool lb_kprobes_info_present(const struct lb_kprobes_info *k)
{
	return k->nprobes || k->optimization != -1;
}

/* How results.json names each mechanism, by enum lb_kprobe_mech. */
static const char *const lb_kprobe_mech_names[] = {
	[LB_KPROBE_UNKNOWN] = "unknown",
	[LB_KPROBE_BREAKPOINT] = "breakpoint",
	[LB_KPROBE_FTRACE] = "ftrace",
	[LB_KPROBE_OPTIMIZED] = "optimized",
	[LB_KPROBE_DISABLED] = "disabled",
};

#define LB_KPROBE_NMECH (sizeof(lb_kprobe_mech_names) / sizeof(lb_kprobe_mech_names[0]))

const char *lb_kprobe_mech_name(enum lb_kprobe_mech m)
{
	return (size_t)m < LB_KPROBE_NMECH ? lb_kprobe_mech_names[m] : "unknown";
}

int lb_kprobe_mech_parse(const char *s, enum lb_kprobe_mech *m)
{
	for (size_t i = 0; i < LB_KPROBE_NMECH; i++) {
		if (!strcmp(s, lb_kprobe_mech_names[i])) {
			*m = (enum lb_kprobe_mech)i;
			return 0;
		}
	}
	return -EINVAL;
}

struct lb_results *lb_results_new(void)
{
	struct lb_results *res = calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	res->baseline.name = strdup("baseline");
	res->baseline.tracer = strdup("none");
	if (!res->baseline.name || !res->baseline.tracer) {
		lb_results_free(res);
		return NULL;
	}
	lb_summary_init(&res->baseline.summary);
	res->baseline.kprobes.optimization = -1;
	res->baseline.kprobes.optimization_before = -1;
	/* Zero would mean "pinned to CPU 0". */
	res->config.server_cpu = -1;
	res->config.client_cpu = -1;
	return res;
}

void lb_results_free(struct lb_results *res)
{
	size_t i;

	if (!res)
		return;
	free(res->version);
	free(res->started);
	free(res->host.kernel_release);
	free(res->host.kernel_version);
	free(res->host.machine);
	free(res->host.cpu_model);
	free(res->host.virtualization);
	free(res->host.vm_accelerator);
	free(res->config.workload);
	free(res->config.placement);
	free(res->config.engine);
	free(res->config.command_line);
	free(res->config.topology);
	free(res->config.flow_placement);
	free(res->config.method);
	free(res->config.count_with);
	free(res->config.exec_metric);
	free(res->config.pcap_filter);
	lb_probeset_result_release(&res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		lb_probeset_result_release(&res->probesets[i]);
	free(res->probesets);
	for (i = 0; i < res->nwarnings; i++)
		free(res->warnings[i]);
	free(res->warnings);
	for (i = 0; i < res->nskipped; i++) {
		free(res->skipped[i].name);
		free(res->skipped[i].reason);
	}
	free(res->skipped);
	free(res);
}

struct lb_probeset_result *lb_results_add_probeset(struct lb_results *res, const char *name,
						   const char *tracer)
{
	struct lb_probeset_result *arr, *psr;
	int ret = 0;

	arr = realloc(res->probesets, (res->nprobesets + 1) * sizeof(*arr));
	if (!arr)
		return NULL;
	res->probesets = arr;
	psr = &arr[res->nprobesets];
	memset(psr, 0, sizeof(*psr));
	lb_summary_init(&psr->summary);
	psr->kprobes.optimization = -1;
	psr->kprobes.optimization_before = -1;
	psr->name = lb_strdup_null(name, &ret);
	psr->tracer = lb_strdup_null(tracer, &ret);
	if (ret) {
		lb_probeset_result_release(psr);
		return NULL;
	}
	res->nprobesets++;
	return psr;
}

int lb_probeset_result_add_run(struct lb_probeset_result *psr, const struct lb_run *run)
{
	struct lb_run *arr, copy = *run;

	copy.samples = NULL;
	copy.flow_ops = NULL;
	if (!run->samples)
		copy.nsamples = 0;
	if (!run->flow_ops)
		copy.nflow_ops = 0;
	if (copy.nsamples) {
		copy.samples = malloc(copy.nsamples * sizeof(*copy.samples));
		if (!copy.samples)
			return -ENOMEM;
		memcpy(copy.samples, run->samples, copy.nsamples * sizeof(*copy.samples));
	}
	if (copy.nflow_ops) {
		copy.flow_ops = malloc(copy.nflow_ops * sizeof(*copy.flow_ops));
		if (!copy.flow_ops) {
			free(copy.samples);
			return -ENOMEM;
		}
		memcpy(copy.flow_ops, run->flow_ops, copy.nflow_ops * sizeof(*copy.flow_ops));
	}
	if (lb_latency_copy(&copy.latency, &run->latency)) {
		free(copy.samples);
		free(copy.flow_ops);
		return -ENOMEM;
	}
	arr = realloc(psr->runs, (psr->nruns + 1) * sizeof(*arr));
	if (!arr) {
		free(copy.samples);
		free(copy.flow_ops);
		lb_latency_release(&copy.latency);
		return -ENOMEM;
	}
	psr->runs = arr;
	psr->runs[psr->nruns++] = copy;
	return 0;
}

int lb_probeset_result_add_slices(struct lb_probeset_result *psr, const struct lb_slice *s,
				  size_t n)
{
	struct lb_slice *arr;

	if (!n)
		return 0;
	arr = realloc(psr->slices, (psr->nslices + n) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	memcpy(arr + psr->nslices, s, n * sizeof(*s));
	psr->slices = arr;
	psr->nslices += n;
	return 0;
}

void lb_results_units_range(const struct lb_results *res, int *lo, int *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < res->nprobesets; i++) {
		int u = res->probesets[i].summary.units;

		if (!i || u < *lo)
			*lo = u;
		if (!i || u > *hi)
			*hi = u;
	}
}

const struct lb_run *lb_round_run(const struct lb_probeset_result *psr, int round)
{
	size_t i;

	for (i = 0; i < psr->nruns; i++) {
		if (psr->runs[i].round == round)
			return &psr->runs[i];
	}
	return NULL;
}

bool lb_results_alternate(const struct lb_results *res)
{
	return res->config.method && !strcmp(res->config.method, "alternate");
}

bool lb_results_has_slices(const struct lb_results *res)
{
	size_t i;

	for (i = 0; i < res->nprobesets; i++)
		if (res->probesets[i].nslices)
			return true;
	return false;
}

bool lb_results_emulated(const struct lb_results *res)
{
	return res->host.virtualization && strstr(res->host.virtualization, "tcg");
}

/* Whether |pcap - (ops + server drops)| <= 512 + 1%; the difference in *@diff. */
bool lb_run_pcap_agrees(const struct lb_run *r, int64_t *diff)
{
	double want = (double)r->ops + (double)r->server_drops;
	int64_t d = (int64_t)r->pcap_packets - (int64_t)(r->ops + r->server_drops);

	if (diff)
		*diff = d;
	return r->pcap && !r->pcap_dropped &&
	       fabs((double)d) <= LB_PCAP_TOL_PACKETS + LB_PCAP_TOL_PCT / 100 * want;
}

/* Append @msg (taking ownership) unless the same text is already there. */
int lb_results_take_warning(struct lb_results *res, char *msg)
{
	char **arr;
	size_t i;

	for (i = 0; i < res->nwarnings; i++) {
		if (!strcmp(res->warnings[i], msg)) {
			free(msg);
			return 0;
		}
	}
	arr = realloc(res->warnings, (res->nwarnings + 1) * sizeof(*arr));
	if (!arr) {
		free(msg);
		return -ENOMEM;
	}
	res->warnings = arr;
	res->warnings[res->nwarnings++] = msg;
	return 0;
}

int lb_results_add_warning(struct lb_results *res, const char *fmt, ...)
{
	char *msg, **arr;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	arr = realloc(res->warnings, (res->nwarnings + 1) * sizeof(*arr));
	if (!arr) {
		free(msg);
		return -ENOMEM;
	}
	res->warnings = arr;
	res->warnings[res->nwarnings++] = msg;
	return 0;
}

const char *lb_results_failed(const struct lb_results *res)
{
	static const char prefix[] = LB_RESULTS_RUN_FAILED;

	if (res->complete)
		return NULL;
	for (size_t i = 0; i < res->nwarnings; i++)
		if (!strncmp(res->warnings[i], prefix, sizeof(prefix) - 1))
			return res->warnings[i] + sizeof(prefix) - 1;
	return NULL;
}

int lb_results_add_skipped(struct lb_results *res, const char *name, const char *reason)
{
	struct lb_skipped *arr, sk;

	sk.name = strdup(name ? name : "");
	sk.reason = strdup(reason ? reason : "");
	arr = sk.name && sk.reason ?
	      realloc(res->skipped, (res->nskipped + 1) * sizeof(*arr)) : NULL;
	if (!arr) {
		free(sk.name);
		free(sk.reason);
		return -ENOMEM;
	}
	res->skipped = arr;
	res->skipped[res->nskipped++] = sk;
	return 0;
}
