/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracers: one backend per file behind one ops table. Adding a tracer is a
 * new file with a `const struct lb_tracer_ops` and one line in tracer.c.
 *
 * Life cycle, per probe set: create (validates the probe set against this
 * kernel and changes nothing in it) -> for every measured run: arm (creates
 * what the kernel needs and starts recording) -> attach (the workload's pids,
 * once it runs; only tracers that have the op) -> snapshot ... snapshot ->
 * disarm (removes everything arm and attach created) -> collect (the counts
 * at every snapshot, for tracers that have the op) -> destroy.
 *
 * --method alternate keeps one run armed and switches it: arm -> attach ->
 * disable -> (enable ... disable)* with snapshots at every slice edge ->
 * disarm. Counts stay cumulative since arm across switches.
 */
#ifndef LB_TRACER_H
#define LB_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kprobe_list.h"
#include "leftover.h"
#include "probeset.h"
#include "unavailable.h"

/* Cumulative counts since arm; the orchestrator subtracts two snapshots. */
struct lb_tracer_counts {
	uint64_t events;	/* events the tracer handled: recorded, overwritten or dropped */
	uint64_t lost;		/* of those, never recorded: dropped */
	uint64_t overwritten;	/* of those, recorded and later overwritten (flight recorder) */
	uint64_t read;		/* of those, consumed by a reader during the run (mode consumer) */
	uint64_t read_bytes;	/* bytes that reader moved out of the buffer */
	/* The tracer's BPF programs, from the kernel's BPF statistics (0: not read): */
	uint64_t bpf_runs;	/* their runs */
	uint64_t bpf_run_ns;	/* nanoseconds spent inside them */
};

/* Options from the command line that override a probe set's own. */
struct lb_tracer_opts {
	int buffer_kb;			/* per-CPU buffer, 0 = the probe set's */
	enum lb_buffer_mode mode;	/* LB_MODE_DEFAULT = the probe set's */
	bool bpf_stats;			/* bpf tracers: the kernel's BPF statistics on while armed */
};

struct lb_tracer_ops {
	const char *name;
	/*
	 * 0 when the tracer can run here; else -errno with the reason in
	 * @why, written with lb_unavailable_say() when one of its codes says
	 * it (create's reasons too).
	 */
	int (*available)(char *why, size_t len);
	/* Validate @ps on this kernel, allocate private state; no kernel change. */
	int (*create)(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
		      void **priv, char *err, size_t len);
	int (*arm)(void *priv, char *err, size_t len);
	/*
	 * Optional: the workload just started, these are its @n processes
	 * (server first). A probe set with `scope workload' needs it: create
	 * refuses such a probe set for a tracer without it. Called once per
	 * arm; a failure is undone by disarm.
	 */
	int (*attach)(void *priv, const pid_t *pids, int n, char *err, size_t len);
	int (*snapshot)(void *priv, struct lb_tracer_counts *c);
	/*
	 * Optional: why the last snapshot failed, in words, when strerror
	 * does not say it (the command tracer's tool died: how, and what it
	 * printed last); NULL when it has nothing to add.
	 */
	const char *(*failure)(void *priv);
	/*
	 * Optional (--method alternate): switch an armed tracer's probes off
	 * and on again inside one run. Off must cost what no tracer costs:
	 * events disabled (their static keys off), kprobes and uprobes
	 * disabled, BPF links detached, ptrace detached; recording paused
	 * with the probes still firing is not off. A tracer that cannot get
	 * all the way says what stays in off_residue. arm leaves the tracer
	 * on. Both return 0 or -errno with the reason in @err.
	 */
	int (*enable)(void *priv, char *err, size_t len);
	int (*disable)(void *priv, char *err, size_t len);
	/* Optional: what stays in the kernel while switched off; NULL when nothing does. */
	const char *(*off_residue)(void *priv);
	/*
	 * Optional: the CPU-time clocks (pthread_getcpuclockid,
	 * clock_getcpuclockid) of the tracer's own user-space tasks while
	 * armed: reader or consumer threads, a helper process, the daemons
	 * it talks to, up to @max into @clk. Returns how many (0: none
	 * now), or -errno. Without it the tracer has no user-space part.
	 */
	int (*cpu_clocks)(void *priv, clockid_t *clk, int max);
	/* Remove everything arm created; safe when not armed. */
	int (*disarm)(void *priv);
	/*
	 * Optional: after disarm, for a tracer that knows its counts only once
	 * it stopped recording (lttng reads its trace back), the cumulative
	 * counts since arm at each of the run's snapshots, in order: @at[i] at
	 * the i-th snapshot, for the first @n. They replace what those
	 * snapshots returned. 0, or -errno with the reason in @err (-ERANGE:
	 * fewer than @n snapshots were taken).
	 */
	int (*collect)(void *priv, struct lb_tracer_counts *at, size_t n, char *err, size_t len);
	/* Disarm if armed, free. */
	void (*destroy)(void *priv);
	/*
	 * Optional: find what dead runs in @o (leftover.h) left of this
	 * tracer's kind (instances, sessions, trace directories), and with
	 * @remove remove it, each reported through @report (may be NULL).
	 * Returns how many were found. Needs no create: it runs in `loadbench
	 * cleanup', in a new run and in the watchdog.
	 */
	int (*cleanup)(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg);
};

struct lb_tracer;

extern const struct lb_tracer_ops lb_tracer_ftrace;
extern const struct lb_tracer_ops lb_tracer_perf;	/* perf record: rings + consumer */
extern const struct lb_tracer_ops lb_tracer_perf_count;	/* perf stat: counters */
extern const struct lb_tracer_ops lb_tracer_bpf;	/* eBPF counting program on tracepoints */
extern const struct lb_tracer_ops lb_tracer_bpf_raw;	/* the same on raw tracepoints */
extern const struct lb_tracer_ops lb_tracer_strace;	/* ptrace: the workload's syscalls */
extern const struct lb_tracer_ops lb_tracer_lttng;	/* LTTng kernel domain (liblttng-ctl) */
extern const struct lb_tracer_ops lb_tracer_lttng_ust;	/* LTTng user-space domain: the server's */
extern const struct lb_tracer_ops lb_tracer_stap;	/* SystemTap: a module run by staprun */
extern const struct lb_tracer_ops lb_tracer_command;	/* a tool people deploy, as a process */

/* lb_tracer_ops_find - the ops of tracer @name, or NULL when unknown. */
const struct lb_tracer_ops *lb_tracer_ops_find(const char *name);

/* lb_tracer_names - the known tracer names joined by ", " into @buf; returns @buf. */
const char *lb_tracer_names(char *buf, size_t len);

/*
 * lb_tracer_available - whether tracer @name runs on this kernel. Returns 0,
 * -ENOENT for an unknown tracer, or the backend's -errno; the reason is in
 * @why.
 */
int lb_tracer_available(const char *name, char *why, size_t len);

/*
 * lb_tracer_create - a tracer for probe set @ps, validated against this
 * kernel (every event and symbol exists). Changes no kernel state. Returns 0
 * and sets *@out, or -errno with "PATH:LINE: problem" or the reason in @err
 * and, when @why is not NULL, the reason's code in *@why (LB_UNAVAIL_OTHER
 * when the message has none: unavailable.h).
 */
int lb_tracer_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
		     struct lb_tracer **out, enum lb_unavailable *why, char *err, size_t len);

/* lb_tracer_arm - start recording. Returns 0, or -errno (already disarmed again). */
int lb_tracer_arm(struct lb_tracer *t, char *err, size_t len);

/*
 * lb_tracer_attach - tell an armed tracer the workload's processes @pids
 * (lb_workload_pids()), right after the workload started. A no-op for a
 * tracer without the op. Returns 0, or -errno with the reason in @err.
 */
int lb_tracer_attach(struct lb_tracer *t, const pid_t *pids, int n, char *err, size_t len);

/* lb_tracer_snapshot - cumulative counts since arm into @c. Returns 0 or -errno. */
int lb_tracer_snapshot(struct lb_tracer *t, struct lb_tracer_counts *c);

/*
 * lb_tracer_why - why @t's snapshot returned @ret (< 0): the tracer's own
 * words when it has them (the failure op), else strerror(-@ret).
 */
const char *lb_tracer_why(const struct lb_tracer *t, int ret);

/* lb_tracer_can_switch - whether @t has enable and disable (--method alternate). */
bool lb_tracer_can_switch(const struct lb_tracer *t);

/*
 * lb_tracer_enable, lb_tracer_disable - switch an armed tracer's probes on
 * or off (see enable/disable in the ops). Return 0, -EOPNOTSUPP for a tracer
 * without the ops, or -errno with the reason in @err.
 */
int lb_tracer_enable(struct lb_tracer *t, char *err, size_t len);
int lb_tracer_disable(struct lb_tracer *t, char *err, size_t len);

/*
 * lb_tracer_cpu_clocks - the CPU-time clocks of @t's own user-space tasks
 * (reader threads, consumer, helper, daemons) into @clk, at most @max.
 * Returns how many (0 for a tracer that works in the kernel only), or
 * -errno when they cannot be told.
 */
int lb_tracer_cpu_clocks(const struct lb_tracer *t, clockid_t *clk, int max);

/* lb_tracer_off_residue - what @t leaves in the kernel while off, or NULL. */
const char *lb_tracer_off_residue(const struct lb_tracer *t);

/* One kprobe or kretprobe of a tracer's probe set, and how the kernel placed it. */
struct lb_tracer_kprobe {
	const char *symbol;		/* the probe set's; valid while it is */
	unsigned long offset;		/* SYMBOL+OFFSET's; 0 = the entry */
	bool ret;			/* a kretprobe */
	enum lb_kprobe_seen seen;	/* as last checked; LB_SEEN_UNKNOWN before */
};

/*
 * lb_tracer_kprobes_check - with @t armed and on, read the kernel's kprobe
 * list and record how each of its kprobes went in. Returns how many
 * kprobes it has (0: nothing read), or -errno with the reason in @err (the
 * mechanisms stay as they were; the reason is kept for lb_tracer_kprobes()).
 */
int lb_tracer_kprobes_check(struct lb_tracer *t, char *err, size_t len);

/*
 * lb_tracer_kprobes - @t's kprobes, as last checked, their count into *@n;
 * *@source gets where the mechanisms were read ("debugfs"), why they could
 * not be, or NULL before any check.
 */
const struct lb_tracer_kprobe *lb_tracer_kprobes(const struct lb_tracer *t, size_t *n,
						 const char **source);

/*
 * lb_tracer_kprobe_opt - the set's kprobe-optimization setting: 0 off, 1 on,
 * -1 left alone (lb_kprobe_opt_hold() holds it while the set is on). *@before
 * gets the setting's value before the run; -1 unknown or absent.
 */
int lb_tracer_kprobe_opt(const struct lb_tracer *t, int *before);

/* lb_tracer_disarm - stop and remove what arm created. Returns 0 or the first -errno. */
int lb_tracer_disarm(struct lb_tracer *t);

/*
 * lb_tracer_collect - after lb_tracer_disarm(), for a tracer that reads its
 * counts back (see collect in the ops), the cumulative counts at each of the
 * first @n snapshots of the last arm into @at. Returns 1 when @at was filled,
 * 0 when the tracer has no such step (keep the snapshots), or -errno with the
 * reason in @err.
 */
int lb_tracer_collect(struct lb_tracer *t, struct lb_tracer_counts *at, size_t n, char *err,
		      size_t len);

/*
 * lb_tracers_cleanup - every tracer's cleanup op, in the registry's order
 * (ftrace's instances first), then the dynamic events several tracers create
 * (lb_dynevent_cleanup(), last: what the others leave holds them busy).
 * Returns how many leftovers were found, or -ENODEV when there is no tracefs.
 */
int lb_tracers_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg);

/* lb_tracer_destroy - disarm if needed and free; NULL is fine. */
void lb_tracer_destroy(struct lb_tracer *t);

/* lb_tracer_name - the tracer's name. */
const char *lb_tracer_name(const struct lb_tracer *t);

/*
 * lb_tracer_disarm_all - disarm every tracer that is armed right now.
 * Async-signal-unsafe; for the orchestrator's error and interrupt paths.
 */
void lb_tracer_disarm_all(void);

#endif
