// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inert-probe: what a tracepoint costs per hit when perf's probe is still
 * registered on it but no event is enabled there, against nothing
 * registered and against a counting event. This is the state a perf or bpf
 * set is in while its events are being closed one tracepoint after the
 * other (each close waits for an RCU grace period): why --method alternate
 * does not measure an off slice before the close has returned.
 *
 * It hits task:task_rename by renaming its own thread (prctl PR_SET_NAME,
 * one syscall, one hit), in rounds of three states in turn:
 *   none      no perf event on the tracepoint
 *   inert     one perf event per online CPU, opened disabled (registered)
 *   counting  the same events enabled (counting, no ring)
 * and prints each state's median and best time per call over the rounds,
 * and the median time one close() of a tracepoint's last event took. Plain
 * libc, no loadbench code; root (system-wide perf events). Its thread's name
 * is put back at the end; every event is closed before the next state.
 *
 *   inert-probe [--rounds N] [--calls N] [--cpu N]
 *
 * Bounded: rounds x 3 x calls syscalls (default 30 x 3 x 200,000, ~25 s here).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 1024
#define TP_ID_PATH "/sys/kernel/tracing/events/task/task_rename/id"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Nanoseconds per rename, over @calls of them. */
static double hit(long calls)
{
	double t0 = now();

	for (long i = 0; i < calls; i++)
		prctl(PR_SET_NAME, (i & 1) ? "inert-probe-a" : "inert-probe-b", 0, 0, 0);
	return (now() - t0) / calls * 1e9;
}

/* The tracepoint's id from tracefs; -1 with a message on failure. */
static int tp_id(void)
{
	FILE *f = fopen(TP_ID_PATH, "re");
	int id = -1;

	if (!f || fscanf(f, "%d", &id) != 1)
		fprintf(stderr, "inert-probe: cannot read %s: %s (is tracefs mounted? run as "
			"root)\n", TP_ID_PATH, f ? "not a number" : strerror(errno));
	if (f)
		fclose(f);
	return id;
}

/* One event per CPU on tracepoint @id into @fds, enabled or not; 0 or -errno. */
static int open_events(int id, int ncpus, int *fds, int enabled)
{
	for (int c = 0; c < ncpus; c++) {
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = PERF_TYPE_TRACEPOINT,
			.config = (unsigned long long)id,
			.disabled = 1,
		};

		fds[c] = (int)syscall(SYS_perf_event_open, &a, -1, c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[c] < 0) {
			int ret = -errno;

			while (c-- > 0)
				close(fds[c]);
			return ret;
		}
		if (enabled)
			ioctl(fds[c], PERF_EVENT_IOC_ENABLE, 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static int fds[MAX_CPUS];
	static const char *const names[3] = { "none", "inert", "counting" };
	long calls = 200000;
	int rounds = 30, cpu = -1, ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN), id, ret = 1;
	double *ns[3] = { NULL }, *closes = NULL;
	char name[17] = "";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
			calls = atol(argv[++i]);
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: inert-probe [--rounds N] [--calls N] [--cpu N]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > 10000 || calls < 1000 || calls > 100000000 || ncpus < 1 ||
	    ncpus > MAX_CPUS) {
		fprintf(stderr, "inert-probe: --rounds 1-10000, --calls 1000-100000000\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "inert-probe: cannot run on CPU %d: %s\n", cpu, strerror(errno));
			return 1;
		}
	}
	id = tp_id();
	if (id < 0)
		return 1;
	prctl(PR_GET_NAME, name, 0, 0, 0);
	for (int s = 0; s < 3; s++)
		ns[s] = calloc(rounds, sizeof(double));
	closes = calloc(rounds * 2, sizeof(double));
	if (!ns[0] || !ns[1] || !ns[2] || !closes)
		goto out;
	for (int r = 0; r < rounds; r++) {
		for (int s = 0; s < 3; s++) {
			double t0;
			int err = s ? open_events(id, ncpus, fds, s == 2) : 0;

			if (err) {
				fprintf(stderr, "inert-probe: cannot open a perf event on task:task_rename: "
					"%s (root, and perf_event_paranoid, allow it)\n", strerror(-err));
				goto out;
			}
			ns[s][r] = hit(calls);
			if (!s)
				continue;
			t0 = now();
			for (int c = 0; c < ncpus; c++)
				close(fds[c]);
			closes[2 * r + s - 1] = (now() - t0) * 1e3;
		}
	}
	for (int s = 0; s < 3; s++) {
		double best = ns[s][0];

		for (int r = 1; r < rounds; r++)
			if (ns[s][r] < best)
				best = ns[s][r];
		printf("inert-probe %-8s %8.1f ns per call (median of %d rounds), best %8.1f\n",
		       names[s], median(ns[s], rounds), rounds, best);
	}
	printf("inert-probe per hit: inert %+.1f ns, counting %+.1f ns over none (medians)\n",
	       median(ns[1], rounds) - median(ns[0], rounds),
	       median(ns[2], rounds) - median(ns[0], rounds));
	printf("inert-probe closing the tracepoint's %d events: %.1f ms (median)\n", ncpus,
	       median(closes, 2 * rounds));
	ret = 0;
out:
	prctl(PR_SET_NAME, name, 0, 0, 0);
	for (int s = 0; s < 3; s++)
		free(ns[s]);
	free(closes);
	return ret;
}
