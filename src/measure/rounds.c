// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --method runs: a run per set and round, each in a workload of its own (a
 * command's rounds through exec.c), its window's edges read between two
 * reads of the operation counter.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cpu.h"
#include "hist.h"
#include "loadgen.h"
#include "pcap_count.h"
#include "plan.h"
#include "measure_int.h"
#include "results.h"
#include "run.h"
#include "stats.h"
#include "tracer.h"
#include "util.h"

/*
 * --count-with pcap: the capture's count, its drops and the server socket's
 * drops at one edge of the window, into @at[0..2]. Returns 0 or -errno + @err.
 */
static int pcap_edge(const struct lb_measure *b, uint64_t at[3], char *err, size_t len)
{
	at[2] = lb_workload_server_drops(b->workload);
	return lb_pcap_count_read(b->pcap, &at[0], &at[1], err, len);
}

/*
 * Rewrite the progress line in place with the current rate @rate (ops/s), cut
 * to the terminal's width: a line that wrapped could not be rewritten by '\r'.
 */
static void progress_show(const struct lb_progress *p, double rate)
{
	struct winsize ws;
	double elapsed;
	char now[32], line[256];
	int width = sizeof(line) - 1;

	if (!p->on)
		return;
	elapsed = lb_now() - p->started;
	if (rate > 0)
		snprintf(now, sizeof(now), "%.0f ops/s", rate);
	else
		snprintf(now, sizeof(now), "warming up");
	snprintf(line, sizeof(line), "loadbench: %s, round %d/%d (run %d/%d), %.0f s of ~%.0f s, %s",
		 p->name, p->round, p->repeat, p->run, p->nruns, elapsed,
		 elapsed > p->total ? elapsed : p->total, now);
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 && ws.ws_col - 1 < width)
		width = ws.ws_col - 1;
	fprintf(stderr, "\r\033[K%.*s", width, line);
	fflush(stderr);
}

/*
 * One edge of the measured window: the time and operation count read just
 * before and just after the tracer's snapshot, averaged, so that a snapshot
 * that takes long (or a parent preempted in the middle of it) adds the same
 * error on both sides instead of counting the workload's events of that
 * moment against no operations. The workload's latency histogram (@lat, when
 * not NULL) is copied between the same two reads: the operations it counts
 * over a window differ from the window's by at most the edges' spread.
 * *@spread gets the operations done between the two reads (0 with neither
 * a tracer nor @lat): how uncertain the edge is; *@late the requests sent
 * late so far (--rate). Returns 0 or -errno with
 * @err set.
 */
static int window_edge(const struct lb_measure *b, struct lb_tracer *tracer, struct lb_hist *lat,
		       double *t, uint64_t *ops, uint64_t *spread, uint64_t *late,
		       struct lb_tracer_counts *c, char *err, size_t len)
{
	double ta = lb_now();
	uint64_t oa = lb_workload_ops(b->workload), ob;
	int ret;

	*spread = 0;
	*late = lb_workload_late(b->workload);
	if (!tracer && !lat) {
		*t = ta;
		*ops = oa;
		return 0;
	}
	ret = tracer ? lb_tracer_snapshot(tracer, c) : 0;
	if (ret) {
		snprintf(err, len, "cannot read the tracer's counts: %s",
			 lb_tracer_why(tracer, ret));
		return ret;
	}
	if (lat)
		lb_workload_latency(b->workload, lat);
	ob = lb_workload_ops(b->workload);
	*t = (ta + lb_now()) / 2;
	*ops = oa + (ob - oa) / 2;
	*spread = ob - oa;
	return 0;
}

/*
 * One measured run. The tracer (NULL for the baseline) records from before
 * the workload starts, so the warm-up also warms the tracing paths; counts
 * are the difference of two snapshots, each taken between two reads of the
 * operation counter that bound that edge of the window (window_edge()).
 */
static int run_once(const struct lb_measure *b, struct lb_tracer *tracer, int round,
		    const struct lb_progress *p, struct lb_run *run, char *err, size_t len)
{
	struct lb_tracer_counts c0 = {0}, c1 = {0};
	struct lb_workload_stats st = {0};
	struct lb_hist *lat = NULL; /* the workload's latencies at both edges */
	struct lb_cpu_snap cpu0, cpu1;
	size_t max_samples, n = 0;
	double t0, t1, t, next, end;
	uint64_t ops0, ops1, prev, pcap0[3] = {0}, pcap1[3] = {0}, spread0 = 0, spread1 = 0;
	uint64_t late0 = 0, late1 = 0;
	int ret, sret;

	memset(run, 0, sizeof(*run));
	run->round = round;
	run->sample_interval = b->sample_interval;
	max_samples = (size_t)(b->duration / b->sample_interval) + 2;
	run->samples = calloc(max_samples, sizeof(double));
	if (!run->samples)
		return -ENOMEM;
	if (!lb_workload_latency_off(b->workload)) {
		lat = calloc(2, sizeof(*lat));
		if (!lat) {
			ret = -ENOMEM;
			goto out;
		}
	}

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

	ret = window_edge(b, tracer, lat ? &lat[0] : NULL, &t0, &ops0, &spread0, &late0, &c0, err,
			  len);
	if (ret)
		goto out_stop;
	lb_cpu_snap_take(b->workload, &tracer, tracer ? 1 : 0, &cpu0);
	if (b->pcap && (ret = pcap_edge(b, pcap0, err, len)))
		goto out_stop;
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
	ret = window_edge(b, tracer, lat ? &lat[1] : NULL, &t1, &ops1, &spread1, &late1, &c1, err,
			  len);
	if (ret)
		goto out_stop;
	lb_cpu_snap_take(b->workload, &tracer, tracer ? 1 : 0, &cpu1);
	lb_cpu_snap_diff(&cpu0, &cpu1, &run->cpu);
	if (lat) {
		lb_hist_sub(&lat[1], &lat[1], &lat[0]);
		ret = lb_latency_set(&run->latency, &lat[1]);
		if (ret)
			goto out_stop;
	}
	/* Still on: how the kernel placed its kprobes (a failure only leaves them unknown). */
	if (tracer) {
		char why[256];

		lb_tracer_kprobes_check(tracer, why, sizeof(why));
	}
	if (b->pcap && (ret = pcap_edge(b, pcap1, err, len)))
		goto out_stop;
	run->pcap = b->pcap != NULL;
	run->pcap_packets = pcap1[0] - pcap0[0];
	run->pcap_dropped = pcap1[1] - pcap0[1];
	run->server_drops = pcap1[2] - pcap0[2];
	run->seconds = t1 - t0;
	run->ops = ops1 - ops0;
	run->late = late1 - late0;
	run->edge_spread_ops = spread0 > spread1 ? spread0 : spread1;
	run->throughput = run->seconds > 0 ? (double)run->ops / run->seconds : 0;
	lb_run_tracer_counts(run, &c0, &c1);
	run->read_events = c1.read - c0.read;
	run->bpf_runs = c1.bpf_runs - c0.bpf_runs;
	run->bpf_run_ns = c1.bpf_run_ns - c0.bpf_run_ns;
	run->read_bytes = c1.read_bytes - c0.read_bytes;
	run->nsamples = n;
out_stop:
	sret = lb_workload_stop(b->workload, &st);
	lb_run_workload_counts(run, &st);
	if (!ret && st.nflows > 0) {
		run->flow_ops = calloc((size_t)st.nflows, sizeof(*run->flow_ops));
		if (!run->flow_ops) {
			ret = -ENOMEM;
			snprintf(err, len, "out of memory");
		} else {
			memcpy(run->flow_ops, st.flow_ops, (size_t)st.nflows * sizeof(*run->flow_ops));
			run->nflow_ops = (size_t)st.nflows;
		}
	}
	if (sret && !ret) {
		ret = sret;
		snprintf(err, len, "%s", lb_workload_error(b->workload));
	} else if (sret && ret == -ESRCH) {
		/* A tracer found a workload process gone: say what became of it. */
		size_t used = strlen(err);

		if (used < len)
			snprintf(err + used, len - used, " (the workload: %s)",
				 lb_workload_error(b->workload));
	}
out_disarm:
	if (tracer)
		lb_measure_disarm_collect(tracer, run, &ret, err, len);
out:
	free(lat);
	if (ret) {
		free(run->samples);
		run->samples = NULL;
		free(run->flow_ops);
		run->flow_ops = NULL;
		lb_latency_release(&run->latency);
	}
	return ret;
}

int lb_measure_rounds(const struct lb_measure *b, struct lb_results *res, struct lb_progress *p,
		    char *err, size_t len)
{
	int nsets = (int)res->nprobesets, ret = 0;

	for (int round = 1; round <= b->repeat; round++) {
		for (int i = -1; i < nsets; i++) {
			struct lb_probeset_result *psr = i < 0 ? &res->baseline : &res->probesets[i];
			struct lb_tracer *tracer = i < 0 ? NULL : lb_plan_tracer(b->plan, i);
			struct lb_run run;

			if (lb_measure_stopped(b))
				return -EINTR;
			p->name = psr->name;
			p->round = round;
			p->run++;
			progress_show(p, 0);
			ret = b->exec ? lb_measure_exec_once(b, tracer, psr->name, round, &run, err,
							   len)
				      : run_once(b, tracer, round, p, &run, err, len);
			if (ret == -EINTR || (ret && lb_measure_stopped(b)))
				return -EINTR;
			if (ret) {
				char msg[512];

				snprintf(msg, sizeof(msg), "%s", err);
				snprintf(err, len, "%s, round %d: %s", psr->name, round, msg);
				return ret;
			}
			ret = lb_probeset_result_add_run(psr, &run);
			if (!ret && tracer)
				ret = lb_measure_kprobes_store(psr, tracer);
			free(run.samples);
			free(run.flow_ops);
			lb_latency_release(&run.latency);
			if (ret)
				return ret;
			/* A run that completed as the signal came is kept with the others. */
			if (lb_measure_stopped(b))
				return -EINTR;
		}
	}
	return 0;
}
