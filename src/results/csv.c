// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * results.csv (one row per run) and slices.csv (one row per slice of
 * --method alternate), written atomically. Fields per RFC 4180; numbers in
 * the shortest form that reads back to the same double, NaN and infinities
 * as empty fields.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "atomic.h"
#include "results.h"
#include "results_int.h"

/* The latency quantiles' columns, in the order of lb_lat_q (empty when not timed). */
#define LB_CSV_LAT_QUANTILES \
	"lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p999_ns,lat_p9999_ns,lat_max_ns"

/* The CPU columns (empty when the window's CPU time was not read). */
#define LB_CSV_CPU \
	"cpu_workload_ns,cpu_workload_user_ns,cpu_workload_sys_ns,cpu_tracer_ns," \
	"cpu_tracer_tasks,cpu_machine_busy_ns,cpu_steal_pct"

#define LB_CSV_HEADER \
	"probeset,tracer,round,seconds,ops,throughput,events,lost_events,timeouts," \
	"overwritten_events,lat_count,lat_mean_ns," LB_CSV_LAT_QUANTILES ",late," LB_CSV_CPU "\n"

/* slices.csv: "state" is the name of the set that was on, "off", or "plain" (nothing armed). */
#define LB_SLICES_CSV_HEADER \
	"probeset,unit,state,start,seconds,switch_s,ops,throughput,events,lost_events," \
	"off_events,edge_spread_ops,dropped,lat_count," LB_CSV_LAT_QUANTILES ",late," LB_CSV_CPU \
	"\n"

/* One field per RFC 4180: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
static void lb_csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A number, or an empty field for NaN and infinities. */
static void lb_csv_double(FILE *f, double d)
{
	char buf[40];

	if (!isfinite(d))
		return;
	lb_format_double(buf, sizeof(buf), d);
	fputs(buf, f);
}

/*
 * ",COUNT" and ",QUANTILE" for each of lb_lat_q (@mean not NULL: ",MEAN"
 * before them), or as many empty fields when @count is 0 (not timed).
 */
static void lb_csv_latency(FILE *f, uint64_t count, const double *mean, const double *ns)
{
	fputc(',', f);
	if (count)
		fprintf(f, "%" PRIu64, count);
	if (mean) {
		fputc(',', f);
		if (count)
			lb_csv_double(f, *mean);
	}
	for (int q = 0; q < LB_LAT_NQ; q++) {
		fputc(',', f);
		if (count)
			lb_csv_double(f, ns[q]);
	}
}

/*
 * The LB_CSV_CPU fields of @c, each after a comma: the workload's, the
 * tracer's (0 tasks: 0 ns; unreadable: empty) and the machine's busy time
 * (every kind but idle) in ns, and steal in percent; all empty when not read.
 */
static void lb_csv_cpu(FILE *f, const struct lb_cpu *c)
{
	double busy = 0;

	if (!c->measured) {
		fputs(",,,,,,,", f);
		return;
	}
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		if (k != LB_CPU_IDLE)
			busy += c->machine_ns[k];
	fputc(',', f);
	lb_csv_double(f, c->workload_ns);
	fputc(',', f);
	lb_csv_double(f, c->workload_user_ns);
	fputc(',', f);
	lb_csv_double(f, c->workload_sys_ns);
	fputc(',', f);
	lb_csv_double(f, c->tracer_ns);
	fprintf(f, ",%d,", c->tracer_tasks);
	lb_csv_double(f, busy);
	fputc(',', f);
	lb_csv_double(f, lb_cpu_steal_pct(c));
}

static void lb_csv_runs(FILE *f, const char *name, const char *tracer,
			const struct lb_probeset_result *psr, bool rate)
{
	size_t i;

	for (i = 0; i < psr->nruns; i++) {
		const struct lb_run *r = &psr->runs[i];

		lb_csv_str(f, name);
		fputc(',', f);
		lb_csv_str(f, tracer);
		fprintf(f, ",%d,", r->round);
		lb_csv_double(f, r->seconds);
		fprintf(f, ",%" PRIu64 ",", r->ops);
		lb_csv_double(f, r->throughput);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, r->events,
			r->lost_events, r->timeouts, r->overwritten_events);
		lb_csv_latency(f, r->latency.count, &r->latency.mean_ns, r->latency.ns);
		fputc(',', f);
		if (rate) /* late sends: empty in a closed loop */
			fprintf(f, "%" PRIu64, r->late);
		lb_csv_cpu(f, &r->cpu);
		fputc('\n', f);
	}
}

/* results.csv of @arg (a struct lb_results) on @f. */
static void lb_csv_print_runs(FILE *f, const void *arg)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs(LB_CSV_HEADER, f);
	lb_csv_runs(f, "baseline", "none", &res->baseline, res->config.rate > 0);
	for (i = 0; i < res->nprobesets; i++)
		lb_csv_runs(f, res->probesets[i].name, res->probesets[i].tracer,
			    &res->probesets[i], res->config.rate > 0);
}

int lb_results_write_csv(const struct lb_results *res, int dirfd, const char *name)
{
	return lb_atomic_write_stream_at(dirfd, name, lb_csv_print_runs, res);
}

static void lb_csv_slices(FILE *f, const struct lb_results *res,
			  const struct lb_probeset_result *psr)
{
	size_t i;

	for (i = 0; i < psr->nslices; i++) {
		const struct lb_slice *sl = &psr->slices[i];
		bool on = sl->on >= 0 && (size_t)sl->on < res->nprobesets;

		lb_csv_str(f, psr->name);
		fprintf(f, ",%d,", sl->unit);
		lb_csv_str(f, on ? res->probesets[sl->on].name :
			   sl->on == LB_SLICE_PLAIN ? "plain" : "off");
		fputc(',', f);
		lb_csv_double(f, sl->start);
		fputc(',', f);
		lb_csv_double(f, sl->seconds);
		fputc(',', f);
		lb_csv_double(f, sl->switch_s);
		fprintf(f, ",%" PRIu64 ",", sl->ops);
		lb_csv_double(f, sl->seconds > 0 ? sl->ops / sl->seconds : NAN);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d", sl->events,
			sl->lost_events, sl->off_events, sl->edge_spread_ops, sl->dropped ? 1 : 0);
		lb_csv_latency(f, sl->lat_count, NULL, sl->lat_ns);
		fputc(',', f);
		if (res->config.rate)
			fprintf(f, "%" PRIu64, sl->late);
		lb_csv_cpu(f, &sl->cpu);
		fputc('\n', f);
	}
}

/* slices.csv of @arg (a struct lb_results) on @f. */
static void lb_csv_print_slices(FILE *f, const void *arg)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs(LB_SLICES_CSV_HEADER, f);
	for (i = 0; i < res->nprobesets; i++)
		lb_csv_slices(f, res, &res->probesets[i]);
}

int lb_results_write_slices_csv(const struct lb_results *res, int dirfd, const char *name)
{
	if (!lb_results_has_slices(res))
		return 0;
	return lb_atomic_write_stream_at(dirfd, name, lb_csv_print_slices, res);
}
