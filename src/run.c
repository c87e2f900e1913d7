// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen.h"
#include "results.h"
#include "run.h"
#include "tracer.h"
#include "util.h"

static bool stopped(const struct lb_bench *b)
{
	return b->stop && *b->stop;
}

/*
 * One measured run. The tracer (NULL for the baseline) records from before
 * the workload starts, so the warm-up also warms the tracing paths; counts
 * are the difference of two snapshots taken right after the two counter
 * reads that bound the window.
 */
static int run_once(const struct lb_bench *b, struct lb_tracer *tracer, int round,
		    struct lb_run *run, char *err, size_t len)
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

			if (n < max_samples)
				run->samples[n++] = (double)(ops - prev) / (now - t);
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

int lb_bench_run(const struct lb_bench *b, struct lb_results *res, char *err, size_t len)
{
	int nsets = (int)res->nprobesets, ret = 0;
	double started = lb_now(), per_run = b->warmup + b->duration;
	int total = b->repeat * (nsets + 1), done = 0;

	res->complete = false;
	for (int round = 1; round <= b->repeat; round++) {
		for (int i = -1; i < nsets; i++) {
			struct lb_probeset_result *psr = i < 0 ? &res->baseline : &res->probesets[i];
			struct lb_tracer *tracer = i < 0 ? NULL : b->tracers[i];
			struct lb_run run;

			if (stopped(b))
				return -EINTR;
			ret = run_once(b, tracer, round, &run, err, len);
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
			done++;
			if (b->progress) {
				double left = (total - done) * (per_run + 0.05);

				fprintf(stderr, "[%d/%d] round %d/%d %-18s %12.0f ops/s  %10.2f events/op"
					"  (about %.0f s left, %.0f s so far)\n", done, total, round,
					b->repeat, psr->name, run.throughput,
					run.ops ? (double)run.events / (double)run.ops : 0.0, left,
					lb_now() - started);
			}
		}
	}
	res->complete = true;
	return 0;
}
