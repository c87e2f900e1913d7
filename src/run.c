// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadgen.h"
#include "results.h"
#include "run.h"
#include "tracer.h"
#include "util.h"

/* The workload's processes (server and generator) a tracer is told about. */
#define LB_RUN_MAX_PIDS 8

static bool stopped(const struct lb_bench *b)
{
	return b->stop && *b->stop;
}

/* The live progress line: shown only when stderr is a terminal. */
struct progress {
	bool on;
	const char *name;	/* probe set being measured */
	int round, repeat;
	int run, nruns;		/* 1-based run number, runs in total */
	double started, total;	/* lb_now() at the start; estimated seconds in all */
};

/* Rewrite the progress line in place with the current rate @rate (ops/s). */
static void progress_show(const struct progress *p, double rate)
{
	double elapsed;
	char now[32];

	if (!p->on)
		return;
	elapsed = lb_now() - p->started;
	if (rate > 0)
		snprintf(now, sizeof(now), "%.0f ops/s", rate);
	else
		snprintf(now, sizeof(now), "warming up");
	fprintf(stderr, "\r\033[Kloadbench: %s, round %d/%d (run %d/%d), %.0f s of ~%.0f s, %s",
		p->name, p->round, p->repeat, p->run, p->nruns, elapsed,
		elapsed > p->total ? elapsed : p->total, now);
	fflush(stderr);
}

/*
 * One measured run. The tracer (NULL for the baseline) records from before
 * the workload starts, so the warm-up also warms the tracing paths; counts
 * are the difference of two snapshots taken right after the two counter
 * reads that bound the window.
 */
static int run_once(const struct lb_bench *b, struct lb_tracer *tracer, int round,
		    const struct progress *p, struct lb_run *run, char *err, size_t len)
{
	struct lb_tracer_counts c0 = {0}, c1 = {0};
	struct lb_workload_stats st = {0};
	size_t max_samples, n = 0;
	double t0, t1, t, next, end;
	uint64_t ops0, ops1, prev;
	int ret, sret;

	memset(run, 0, sizeof(*run));
	run->round = round;
	run->sample_interval = b->sample_interval;
	max_samples = (size_t)(b->duration / b->sample_interval) + 2;
	run->samples = calloc(max_samples, sizeof(double));
	if (!run->samples)
		return -ENOMEM;

	if (tracer) {
		ret = lb_tracer_arm(tracer, err, len);
		if (ret)
			goto out;
	}
	ret = lb_workload_start(b->workload);
	if (ret) {
		snprintf(err, len, "%s", lb_workload_error(b->workload));
		goto out_disarm;
	}
	if (tracer) {
		/* Tracers of the workload's processes only learn them now, before the warm-up. */
		pid_t pids[LB_RUN_MAX_PIDS];
		int npids = lb_workload_pids(b->workload, pids, LB_RUN_MAX_PIDS);

		ret = lb_tracer_attach(tracer, pids, npids, err, len);
		if (ret)
			goto out_stop;
	}
	if (!lb_sleep_until(lb_now() + b->warmup, b->stop)) {
		ret = -EINTR;
		goto out_stop;
	}

	t0 = lb_now();
	ops0 = lb_workload_ops(b->workload);
	if (tracer && (ret = lb_tracer_snapshot(tracer, &c0))) {
		snprintf(err, len, "cannot read the tracer's counts: %s", strerror(-ret));
		goto out_stop;
	}
	end = t0 + b->duration;
	prev = ops0;
	t = t0;
	while (t < end) {
		next = t + b->sample_interval;
		if (next > end || end - next < b->sample_interval / 2)
			next = end;
		if (!lb_sleep_until(next, b->stop)) {
			ret = -EINTR;
			goto out_stop;
		}
		{
			double now = lb_now();
			uint64_t ops = lb_workload_ops(b->workload);

			if (n < max_samples) {
				run->samples[n++] = (double)(ops - prev) / (now - t);
				progress_show(p, run->samples[n - 1]);
			}
			prev = ops;
			t = now;
		}
	}
	t1 = t;
	ops1 = prev;
	if (tracer && (ret = lb_tracer_snapshot(tracer, &c1))) {
		snprintf(err, len, "cannot read the tracer's counts: %s", strerror(-ret));
		goto out_stop;
	}
	run->seconds = t1 - t0;
	run->ops = ops1 - ops0;
	run->throughput = run->seconds > 0 ? (double)run->ops / run->seconds : 0;
	run->events = c1.events - c0.events;
	run->lost_events = c1.lost - c0.lost;
	run->overwritten_events = c1.overwritten - c0.overwritten;
	run->read_events = c1.read - c0.read;
	run->read_bytes = c1.read_bytes - c0.read_bytes;
	run->nsamples = n;
out_stop:
	sret = lb_workload_stop(b->workload, &st);
	run->timeouts = st.timeouts;
	if (sret && !ret) {
		ret = sret;
		snprintf(err, len, "%s", lb_workload_error(b->workload));
	}
out_disarm:
	if (tracer) {
		int dret = lb_tracer_disarm(tracer);

		if (dret && !ret) {
			ret = dret;
			snprintf(err, len, "cannot remove the %s tracer's kernel state: %s",
				 lb_tracer_name(tracer), strerror(-dret));
		}
	}
out:
	if (ret) {
		free(run->samples);
		run->samples = NULL;
	}
	return ret;
}

static int bench_rounds(const struct lb_bench *b, struct lb_results *res, struct progress *p,
			char *err, size_t len)
{
	int nsets = (int)res->nprobesets, ret = 0;

	for (int round = 1; round <= b->repeat; round++) {
		for (int i = -1; i < nsets; i++) {
			struct lb_probeset_result *psr = i < 0 ? &res->baseline : &res->probesets[i];
			struct lb_tracer *tracer = i < 0 ? NULL : b->tracers[i];
			struct lb_run run;

			if (stopped(b))
				return -EINTR;
			p->name = psr->name;
			p->round = round;
			p->run++;
			progress_show(p, 0);
			ret = run_once(b, tracer, round, p, &run, err, len);
			if (ret == -EINTR || stopped(b))
				return -EINTR;
			if (ret) {
				char msg[512];

				snprintf(msg, sizeof(msg), "%s", err);
				snprintf(err, len, "%s, round %d: %s", psr->name, round, msg);
				return ret;
			}
			ret = lb_probeset_result_add_run(psr, &run);
			free(run.samples);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int lb_bench_run(const struct lb_bench *b, struct lb_results *res, char *err, size_t len)
{
	int nruns = b->repeat * ((int)res->nprobesets + 1);
	struct progress p = {
		.on = b->progress && isatty(STDERR_FILENO),
		.repeat = b->repeat,
		.nruns = nruns,
		.started = lb_now(),
		.total = nruns * (b->warmup + b->duration + 0.05),
	};
	int ret;

	res->complete = false;
	ret = bench_rounds(b, res, &p, err, len);
	/* Clear the line, so that what follows starts in column 0. */
	if (p.on)
		fputs("\r\033[K", stderr);
	if (!ret)
		res->complete = true;
	return ret;
}
