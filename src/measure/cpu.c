// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU snapshots at a window's edges (cpu.h). Reading them costs loadbench
 * a few small /proc reads and clock_gettime() calls, after the edge's
 * operation count: the window's CPU time is that of the same instants to
 * within those microseconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure_int.h"
#include "cpu.h"

#define LB_CPU_MAX_CLOCKS 256 /* tracer tasks read at most */

static uint64_t lb_clock_ns(clockid_t clk, bool *ok)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts)) {
		*ok = false;
		return 0;
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* utime and stime (fields 14 and 15) of /proc/@pid/stat into @ticks; false when unreadable. */
static bool lb_proc_ticks(pid_t pid, uint64_t ticks[2])
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The command name may hold anything: the fields start after its last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &st) != 2)
		return false;
	ticks[0] += ut;
	ticks[1] += st;
	return true;
}

/* Returns how many of @pids were read; their user and system time added to @ns. */
int lb_cpu_pids_ns(const pid_t *pids, int n, double ns[2])
{
	double tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);
	uint64_t t[2] = {0, 0};
	int got = 0;

	for (int i = 0; i < n; i++)
		got += lb_proc_ticks(pids[i], t);
	ns[0] += tick_ns * (double)t[0];
	ns[1] += tick_ns * (double)t[1];
	return got;
}

/* The machine's line of /proc/stat, in ticks per kind. */
static int lb_proc_stat(uint64_t t[LB_CPU_NKINDS])
{
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 8)
		return -EIO;
	t[LB_CPU_USER] = v[0] + v[1];
	t[LB_CPU_SYSTEM] = v[2];
	t[LB_CPU_IDLE] = v[3] + v[4];
	t[LB_CPU_IRQ] = v[5];
	t[LB_CPU_SOFTIRQ] = v[6];
	t[LB_CPU_STEAL] = v[7];
	return 0;
}

int lb_cpu_snap_take(const struct lb_workload *w, struct lb_tracer *const *tr, int ntr,
		     struct lb_cpu_snap *s)
{
	pid_t pids[LB_RUN_MAX_PIDS];
	clockid_t clk[LB_CPU_MAX_CLOCKS];
	int npids = w ? lb_workload_pids(w, pids, LB_RUN_MAX_PIDS) : 0, ret;
	bool ok = true;

	memset(s, 0, sizeof(*s));
	ret = lb_proc_stat(s->machine_ticks);
	if (ret)
		return ret;
	for (int i = 0; i < npids; i++) {
		clockid_t c;

		if (!clock_getcpuclockid(pids[i], &c))
			s->workload_ns += lb_clock_ns(c, &ok);
		lb_proc_ticks(pids[i], s->workload_ticks);
	}
	for (int k = 0; k < ntr && isfinite(s->tracer_ns); k++) {
		int n = lb_tracer_cpu_clocks(tr[k], clk, LB_CPU_MAX_CLOCKS);

		if (n < 0) {
			s->tracer_ns = NAN;
			break;
		}
		for (int i = 0; i < n; i++)
			s->tracer_ns += (double)lb_clock_ns(clk[i], &ok);
		s->tracer_tasks += n;
	}
	if (!ok)
		s->tracer_ns = NAN;
	s->ok = true;
	return 0;
}

/* @b - @a, or 0 when a process could not be read at the second edge. */
static double lb_ticks_diff(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

void lb_cpu_snap_diff(const struct lb_cpu_snap *a, const struct lb_cpu_snap *b,
		      struct lb_cpu *out)
{
	double tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);

	memset(out, 0, sizeof(*out));
	if (!a->ok || !b->ok)
		return;
	out->measured = true;
	out->workload_ns = b->workload_ns >= a->workload_ns ?
				   (double)(b->workload_ns - a->workload_ns) : 0;
	out->workload_user_ns = tick_ns * lb_ticks_diff(a->workload_ticks[0], b->workload_ticks[0]);
	out->workload_sys_ns = tick_ns * lb_ticks_diff(a->workload_ticks[1], b->workload_ticks[1]);
	/* A task that came or went in between (a helper forked on enable) breaks the sum. */
	out->tracer_ns = a->tracer_tasks == b->tracer_tasks && b->tracer_ns >= a->tracer_ns ?
				 b->tracer_ns - a->tracer_ns : NAN;
	out->tracer_tasks = b->tracer_tasks;
	for (int k = 0; k < LB_CPU_NKINDS; k++)
		out->machine_ns[k] = tick_ns * lb_ticks_diff(a->machine_ticks[k], b->machine_ticks[k]);
}
