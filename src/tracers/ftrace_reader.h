/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reader of the ftrace tracer's `mode consumer': one thread per CPU
 * buffer of a tracefs instance that moves every full page out of
 * per_cpu/cpuN/trace_pipe_raw while the workload runs (libtracefs's
 * tracefs_cpu_write(): splice into a pipe, then into /dev/null), as
 * trace-cmd record's per-CPU readers do. The pages leave the ring buffer
 * exactly as they would for a recorder; only the write to storage is left
 * out, so what is measured is the tracer's reading, not a disk.
 */
#ifndef LB_FTRACE_READER_H
#define LB_FTRACE_READER_H

#include <sched.h>
#include <time.h>
#include <stddef.h>
#include <stdint.h>

struct tracefs_instance;
struct lb_ftrace_reader;

/*
 * lb_ftrace_reader_start - open the raw buffers of CPUs 0..@ncpus-1 of @inst
 * (those that exist) and start a reader thread for each, with every signal
 * blocked. Returns 0 and sets *@out, or -errno with the reason in @err
 * (nothing is left running then).
 */
int lb_ftrace_reader_start(struct tracefs_instance *inst, int ncpus,
			   struct lb_ftrace_reader **out, char *err, size_t len);

/*
 * lb_ftrace_reader_clocks - the CPU-time clocks of the running reader
 * threads into @clk, at most @max. Returns how many, or -errno.
 */
int lb_ftrace_reader_clocks(const struct lb_ftrace_reader *r, clockid_t *clk, int max);

/* lb_ftrace_reader_pin - run every reader thread on the CPUs of @set. Returns 0 or -errno. */
int lb_ftrace_reader_pin(struct lb_ftrace_reader *r, const cpu_set_t *set);

/*
 * lb_ftrace_reader_bytes - bytes read so far; sets *@error to the first
 * -errno a reader thread stopped on (0 when none did).
 */
uint64_t lb_ftrace_reader_bytes(struct lb_ftrace_reader *r, int *error);

/*
 * lb_ftrace_reader_stop - stop and join every reader thread, close the
 * buffers, free @r (NULL is fine). Returns 0 or the first -errno.
 */
int lb_ftrace_reader_stop(struct lb_ftrace_reader *r);

#endif
