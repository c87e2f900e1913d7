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
#include <stdio.h>
#include <string.h>

#include "atomic.h"
#include "results.h"
#include "results_int.h"

#define LB_CSV_HEADER \
	"probeset,tracer,round,seconds,ops,throughput,events,lost_events,timeouts," \
	"overwritten_events\n"

/* slices.csv: "state" is the name of the set that was on, "off", or "plain" (nothing armed). */
#define LB_SLICES_CSV_HEADER \
	"probeset,unit,state,start,seconds,switch_s,ops,throughput,events,lost_events," \
	"off_events,edge_spread_ops,dropped\n"

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

static void lb_csv_runs(FILE *f, const char *name, const char *tracer,
			const struct lb_probeset_result *psr)
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
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", r->events,
			r->lost_events, r->timeouts, r->overwritten_events);
	}
}

/* results.csv of @arg (a struct lb_results) on @f. */
static void lb_csv_print_runs(FILE *f, const void *arg)
{
	const struct lb_results *res = arg;
	size_t i;

	fputs(LB_CSV_HEADER, f);
	lb_csv_runs(f, "baseline", "none", &res->baseline);
	for (i = 0; i < res->nprobesets; i++)
		lb_csv_runs(f, res->probesets[i].name, res->probesets[i].tracer,
			    &res->probesets[i]);
}

int lb_results_write_csv(const struct lb_results *res, const char *path)
{
	return lb_atomic_write_stream(path, lb_csv_print_runs, res);
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
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d\n", sl->events,
			sl->lost_events, sl->off_events, sl->edge_spread_ops, sl->dropped ? 1 : 0);
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

int lb_results_write_slices_csv(const struct lb_results *res, const char *path)
{
	if (!lb_results_has_slices(res))
		return 0;
	return lb_atomic_write_stream(path, lb_csv_print_slices, res);
}
