/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CPU time at a window's edges: the workload's processes (their CPU
 * clocks, and /proc/PID/stat's user and system ticks), the tracers' own
 * tasks (lb_tracer_cpu_clocks), and the machine (/proc/stat). The
 * difference of two snapshots is a struct lb_cpu (results.h).
 */
#ifndef LB_BENCH_CPU_H
#define LB_BENCH_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "results.h"

struct lb_tracer;
struct lb_workload;

/* One snapshot; zeroed is "not taken". */
struct lb_cpu_snap {
	bool ok;
	uint64_t workload_ns;
	uint64_t workload_ticks[2];	/* user, system: /proc/PID/stat utime, stime */
	double tracer_ns;		/* NAN: a clock could not be read */
	int tracer_tasks;
	uint64_t machine_ticks[LB_CPU_NKINDS];
};

/*
 * lb_cpu_snap_take - the CPU times now of @w's processes (none when @w is
 * NULL), of the @ntr tracers @tr (may be 0) and of the machine, into @s.
 * Returns 0, or
 * -errno when /proc/stat cannot be read (then @s is not ok).
 */
int lb_cpu_snap_take(const struct lb_workload *w, struct lb_tracer *const *tr, int ntr,
		     struct lb_cpu_snap *s);

/*
 * lb_cpu_pids_ns - add the user and system CPU time so far of the processes
 * @pids[0..@n) (all their threads; /proc/PID/stat) to @ns[0] and @ns[1].
 * Returns how many could be read (the others have exited).
 */
int lb_cpu_pids_ns(const pid_t *pids, int n, double ns[2]);

/*
 * lb_cpu_snap_diff - the CPU time from @a to @b into @out (not measured
 * when either is not ok; tracer_ns NAN when either's is, or when the
 * tracers' tasks changed in between). Returns nothing.
 */
void lb_cpu_snap_diff(const struct lb_cpu_snap *a, const struct lb_cpu_snap *b,
		      struct lb_cpu *out);

#endif
