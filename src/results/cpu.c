// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU time in the results: a window's (struct lb_cpu), summed over a
 * state's slices, and a probe set's CPU per operation (struct
 * lb_cpu_summary).
 */
#include <math.h>

#include "results.h"
#include "results_int.h"

const char *const lb_cpu_kind_names[LB_CPU_NKINDS] = {
	"user", "system", "irq", "softirq", "steal", "idle",
};

double lb_cpu_steal_pct(const struct lb_cpu *c)
{
	double total = 0;

	if (!c->measured)
		return NAN;
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		total += c->machine_ns[k];
	return total > 0 ? 100 * c->machine_ns[LB_CPU_STEAL] / total : NAN;
}

void lb_cpu_add(struct lb_cpu *dst, const struct lb_cpu *src)
{
	if (!src->measured)
		return;
	if (!dst->measured) {
		*dst = *src;
		return;
	}
	dst->workload_ns += src->workload_ns;
	dst->workload_user_ns += src->workload_user_ns;
	dst->workload_sys_ns += src->workload_sys_ns;
	dst->tracer_ns += src->tracer_ns;
	if (src->tracer_tasks > dst->tracer_tasks)
		dst->tracer_tasks = src->tracer_tasks;
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		dst->machine_ns[k] += src->machine_ns[k];
}

/* One window's steal against the flag. */
static void lb_cpu_count_window(struct lb_cpu_summary *s, const struct lb_cpu *c)
{
	double steal = lb_cpu_steal_pct(c);

	if (!c->measured)
		return;
	s->windows++;
	if (isfinite(steal) && steal > LB_STEAL_FLAG_PCT)
		s->steal_windows++;
}

void lb_summary_cpu(const struct lb_results *res, struct lb_probeset_result *psr)
{
	struct lb_cpu_summary *s = &psr->summary.cpu;
	struct lb_cpu sum = { .measured = false };
	double ops = 0, seconds = 0, busy = 0;
	int me = (int)(psr - res->probesets);
	bool is_base = psr == &res->baseline;

	lb_cpu_summary_init(s);
	for (size_t i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];

		if (!r->cpu.measured)
			continue;
		lb_cpu_add(&sum, &r->cpu);
		ops += (double)r->ops;
		seconds += r->seconds;
	}
	if (!sum.measured || !(ops > 0))
		return;
	s->measured = true;
	s->workload_us_per_op = sum.workload_ns / ops / 1e3;
	s->workload_user_us_per_op = sum.workload_user_ns / ops / 1e3;
	s->workload_sys_us_per_op = sum.workload_sys_ns / ops / 1e3;
	s->tracer_us_per_op = sum.tracer_ns / ops / 1e3;
	s->tracer_cpu_pct = seconds > 0 ? 100 * sum.tracer_ns / (seconds * 1e9) : NAN;
	s->tracer_tasks = sum.tracer_tasks;
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		if (k != LB_CPU_IDLE)
			busy += sum.machine_ns[k];
	s->machine_us_per_op = busy / ops / 1e3;
	s->steal_pct = lb_cpu_steal_pct(&sum);
	/* The windows: its runs, or under alternation the slices it was on in (the plain ones). */
	if (!lb_results_alternate(res) || !psr->nslices) {
		for (size_t i = 0; i < psr->nruns; i++)
			lb_cpu_count_window(s, &psr->runs[i].cpu);
		return;
	}
	for (size_t i = 0; i < psr->nslices; i++) {
		const struct lb_slice *sl = &psr->slices[i];

		if (!sl->dropped && sl->on == (is_base ? LB_SLICE_PLAIN : me))
			lb_cpu_count_window(s, &sl->cpu);
	}
}
