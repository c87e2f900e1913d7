/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results of one loadbench invocation: the in-memory model (results.c), its
 * summary statistics (summary.c), and its files: results.json through json-c
 * (json_write.c, json_read.c), results.csv and slices.csv under --method
 * alternate (csv.c). Plain data; no root, no kernel access. The text table
 * is the output layer's (src/output/table.h).
 *
 * doc/results-schema.md describes the files and their compatibility; its
 * core keys are a stable interface: top-level "probesets" array; each entry
 * has "name", "tracer", "runs" and "summary" with "throughput_median",
 * "slowdown_pct", "slowdown_ci95" ([low, high]), "events_per_op",
 * "ns_per_event", "lost_events".
 */
#ifndef LB_RESULTS_H
#define LB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Operation latency: the quantiles loadbench reports, in this order (the
 * last is the largest value), and their names in results and tables.
 */
#define LB_LAT_NQ 6
extern const double lb_lat_q[LB_LAT_NQ];		/* 0.5 0.9 0.99 0.999 0.9999 1 */
extern const char *const lb_lat_q_names[LB_LAT_NQ];	/* "p50" ... "p99.99" "max" */

/*
 * The latencies of the operations of a run (its window; under --method
 * alternate its slices in one state): a histogram as src/common/hist.h
 * keeps it, its nonempty buckets only, and what follows from it.
 */
struct lb_latency {
	uint64_t count;		/* operations timed; 0 = latency not measured */
	double mean_ns;		/* NAN when count is 0 */
	double ns[LB_LAT_NQ];	/* the quantiles of lb_lat_q (nearest rank, bucket middle) */
	uint32_t *bucket;	/* indices of the nonempty buckets, ascending */
	uint64_t *bucket_count;	/* their counts */
	size_t nbuckets;
};

/*
 * CPU time over a window (a run's, or a slice's; summed over a state's
 * slices), in nanoseconds: the workload's processes, the tracer's own
 * user-space tasks, and the machine's CPUs as /proc/stat counts them.
 */
enum lb_cpu_kind {
	LB_CPU_USER,	/* user + nice */
	LB_CPU_SYSTEM,
	LB_CPU_IRQ,
	LB_CPU_SOFTIRQ,
	LB_CPU_STEAL,	/* taken by the hypervisor: a noise signal */
	LB_CPU_IDLE,	/* idle + iowait */
	LB_CPU_NKINDS
};
extern const char *const lb_cpu_kind_names[LB_CPU_NKINDS]; /* "user", ..., "idle" */

struct lb_cpu {
	bool measured;		/* false: nothing below was read (older results, or no /proc) */
	double workload_ns;	/* on-CPU time of the workload's processes (their CPU clocks) */
	double workload_user_ns; /* of which in user mode, from /proc/PID/stat (clock ticks) */
	double workload_sys_ns;	/* ... and in the kernel (ticks: coarse over a short slice) */
	double tracer_ns;	/* the tracer's own tasks (lb_tracer_cpu_clocks); 0: it has
				 * none; NAN: could not be read */
	int tracer_tasks;	/* how many tasks that was, at the window's end */
	double machine_ns[LB_CPU_NKINDS]; /* every CPU of the machine, /proc/stat */
};

/* lb_cpu_steal_pct - steal as a share of the machine's time in @c; NAN when not measured. */
double lb_cpu_steal_pct(const struct lb_cpu *c);

/* lb_cpu_add - @dst += @src (tracer_ns NAN if either's is; tracer_tasks the larger). */
void lb_cpu_add(struct lb_cpu *dst, const struct lb_cpu *src);

/* One measured repetition of one probe set (or of the baseline). */
struct lb_run {
	int round;		/* 1-based repetition (round) number; pairs with the baseline's */
	double seconds;		/* length of the measured window */
	uint64_t ops;		/* operations completed in the window */
	uint64_t late;		/* --rate: requests sent in the window a period or more
				 * behind their schedule (0 in a closed loop) */
	double throughput;	/* ops / seconds */
	uint64_t events;	/* events the tracer handled: recorded, overwritten or dropped */
	uint64_t lost_events;	/* of those, never recorded: dropped (buffer full, nesting) */
	uint64_t overwritten_events; /* of those, recorded then overwritten (flight recorder) */
	uint64_t read_events;	/* of those, consumed by the tracer's reader (mode consumer) */
	uint64_t read_bytes;	/* bytes the reader moved out of the buffer */
	uint64_t bpf_runs;	/* runs of the tracer's BPF programs (BPF statistics; 0: not read) */
	uint64_t bpf_run_ns;	/* nanoseconds spent inside them */
	uint64_t timeouts;	/* workload requests that timed out and were resent */
	/* The workload's own counts from its start to its stop (warm-up included): */
	uint64_t sent;		/* requests, echoes or datagrams the generators sent */
	uint64_t received;	/* replies matched; udp-stream: datagrams the servers received */
	uint64_t dropped;	/* udp-stream: sent - received; the others: requests timed out */
	uint64_t mismatches;	/* replies or datagrams that were not what was sent */
	uint64_t edge_spread_ops; /* operations done while the tracer's counts were read at
				   * an edge of the window (the larger edge): how far
				   * events per operation can be off */
	uint64_t *flow_ops;	/* operations of each flow (same span); NULL when not recorded */
	size_t nflow_ops;
	double sample_interval;	/* seconds per entry of samples[] */
	double *samples;	/* per-interval throughput (ops/s) over the window */
	size_t nsamples;
	/* --count-with pcap (all 0/false without it), counted over the same window: */
	bool pcap;		/* the run was counted by a capture */
	uint64_t pcap_packets;	/* packets the capture on lo delivered */
	uint64_t pcap_dropped;	/* packets the capture missed (its buffer was full) */
	uint64_t server_drops;	/* datagrams the server socket dropped (receive queue full) */
	struct lb_latency latency; /* the window's operation latencies; count 0 = not timed */
	struct lb_cpu cpu;	/* CPU time over the window */
};

/*
 * --method alternate: one slice of one running workload in one state, the
 * probes of one set on or every set of the alternation off. A unit visits
 * every state twice in mirrored order (off on on off, or on off off on; with
 * a compare-with pair off/base/set then set/base/off, in a random order), so
 * a drift linear over the unit cancels inside it.
 */
/*
 * Units an alternation needs before its CI is trusted (and before the
 * stopping rule looks at it): with fewer, the bootstrap has too few
 * distinct resamples to mean anything.
 */
#define LB_ALT_MIN_UNITS 16

/*
 * The share of a slice's operations that its edges (the tracers' snapshots
 * between two reads of the operation counter) may take before the slice can
 * be dropped as held up (LB_ALT_EDGE_OUTLIER says the whole rule), and above which, as
 * the median over an alternation's armed slices, the summary says that the
 * edges blur the slices.
 */
#define LB_ALT_EDGE_DROP 0.03
/*
 * A slice that ran over this many times the median slice of its kind
 * (armed, or plain) was held up as a whole (a stopped process, a stalled
 * machine: a 5.02 s slice of a 0.1 s --slice after SIGSTOP): dropped with
 * its unit. Slices of one alternation are all asked for the same length.
 */
#define LB_ALT_SLICE_LONG 2.0
/*
 * A slice is dropped with its unit when loadbench was held up at one of its
 * edges: the edge took more than LB_ALT_EDGE_DROP of the slice's operations
 * *and* more than LB_ALT_EDGE_OUTLIER times the median edge of the
 * alternation's slices of its kind. Quiet on the development hosts an edge
 * takes ~0.3% of a 0.1 s slice, so the first rule decides. Under QEMU's TCG
 * (one host thread runs both vCPUs, so reading tracefs steals the
 * workload's time) every edge is slow, not just a held-up one: 3 to 12
 * operations of 350 to 700 in 0.3 s slices for one ftrace instance, about
 * three times that for the ftrace group's three instances. The share alone
 * dropped half of those units, and a CI run was left with one unit of two:
 * no interval at all. A slow edge that every slice has is noise shared by
 * the on and off slices (every edge reads every tracer of the group), not a
 * reason to drop; the summary says when the edges are that slow.
 */
#define LB_ALT_EDGE_OUTLIER 4

/*
 * Slices of the running workload with nothing armed, before the sets are
 * armed and after they are disarmed: the baseline of the alternation, and
 * what its off slices are held against (the residue). Their unit is -1.
 */
#define LB_SLICE_PLAIN (-2)
#define LB_ALT_PLAIN_SLICES 8	/* plain slices before arm, and as many after disarm */
#define LB_ALT_TOPUP_PLAIN 4	/* the same in a --time-budget top-up (its set has 2 x 8) */
/*
 * --time-budget: the percentage of it the first pass shares out equally;
 * the rest, and what the sets that reached --precision early left, tops up
 * the sets furthest from it (src/measure/budget.c).
 */
#define LB_ALT_FIRST_PASS_PCT 70

struct lb_slice {
	int unit;		/* 0-based unit of the alternation; -1 for a plain slice */
	int on;			/* index in lb_results.probesets of the set on; -1 = all off;
				 * LB_SLICE_PLAIN = nothing armed */
	double start;		/* seconds from the alternation's first slice to this one's window */
	double seconds;		/* length of the measured window (the settle time excluded) */
	double switch_s;	/* seconds the switch into this state took */
	uint64_t ops;		/* operations in the window */
	uint64_t late;		/* --rate: requests sent late in the window */
	uint64_t events;	/* events the set that was on handled in the window */
	uint64_t lost_events;	/* of those, never recorded */
	uint64_t overwritten_events;
	uint64_t read_events;
	uint64_t off_events;	/* events counted by the sets that were off: 0 when off is off */
	uint64_t bpf_runs;	/* runs of the on set's BPF programs (BPF statistics; 0: not read) */
	uint64_t bpf_run_ns;	/* nanoseconds spent inside them */
	uint64_t edge_spread_ops; /* operations done while its edges were read (the larger) */
	bool dropped;		/* left out of the statistics (its unit was) */
	uint64_t lat_count;	/* operations timed in the window; 0 = latency not measured */
	double lat_ns[LB_LAT_NQ]; /* their quantiles (lb_lat_q), NAN when lat_count is 0 */
	struct lb_cpu cpu;	/* CPU time over the window */
};

/*
 * The tolerance of --count-with pcap: the capture's count agrees with the
 * workload's (ops + server_drops) when they differ by at most
 * LB_PCAP_TOL_PACKETS + LB_PCAP_TOL_PCT % of the workload's. The two are read
 * one after the other at each edge of the window: packets the capture saw
 * while the server had not yet read them (at most a receive queue, a few
 * hundred datagrams) and the microseconds between the two reads (a fraction
 * of a percent of a short window, more on a loaded machine) land on one side.
 */
#define LB_PCAP_TOL_PACKETS 512
#define LB_PCAP_TOL_PCT 1.0

/*
 * lb_run_pcap_agrees - whether @r's capture count agrees with the workload's
 * within the tolerance above (false when the capture dropped packets);
 * *@diff (if not NULL) gets pcap_packets - (ops + server_drops).
 */
bool lb_run_pcap_agrees(const struct lb_run *r, int64_t *diff);

/*
 * A probe set's latency against the baseline's, quantile by quantile. The
 * added latency is relative first: the center (lb_stats_ratio_center) of
 * the per-round (--method runs: traced run over the baseline run of the
 * same round) or per-unit (--method alternate: the unit's on slices over
 * its off slices) ratios of the quantile, with the same bootstrap CI as
 * the slowdown; added_ns is what that share is of the set's own quantile,
 * ns - ns / (1 + added_pct / 100). A
 * quantile a round or slice holds too few operations to estimate (fewer
 * than LB_LAT_MIN_TAIL beyond it) and the max have no ratio: NAN.
 */
#define LB_LAT_MIN_TAIL 10
struct lb_lat_summary {
	uint64_t count;			/* operations timed over its runs; 0 = no latency */
	double ns[LB_LAT_NQ];		/* quantiles of its runs' histograms merged */
	double added_pct[LB_LAT_NQ];	/* 100 * (center of the ratios - 1) */
	double added_pct_ci95[LB_LAT_NQ][2];
	double added_ns[LB_LAT_NQ];	/* ns - ns / (1 + added_pct / 100) */
	double added_ns_ci95[LB_LAT_NQ][2];
};

/*
 * A probe set's CPU per operation (over its runs; under --method alternate
 * its on slices), in microseconds, and how much of the machine's time the
 * hypervisor took. A window in which steal exceeded LB_STEAL_FLAG_PCT of
 * the machine's time is counted in steal_windows; it is kept (dropping it
 * would select the quiet moments of one state and not the other's: under
 * alternation a unit's states share the noise, which is what cancels it),
 * and the summary says so.
 */
#define LB_STEAL_FLAG_PCT 2.0
/* The tracer's own tasks using more than this share of one CPU are named in the summary. */
#define LB_TRACER_CPU_NOTE_PCT 10.0
struct lb_cpu_summary {
	bool measured;
	double workload_us_per_op;	/* the workload's processes */
	double workload_user_us_per_op;
	double workload_sys_us_per_op;
	double tracer_us_per_op;	/* the tracer's own tasks; NAN when unknown */
	double tracer_cpu_pct;		/* their CPU time over the window's, % of one CPU */
	int tracer_tasks;		/* how many tasks they were at most; 0: none */
	double machine_us_per_op;	/* every CPU busy (not idle), per operation */
	double steal_pct;		/* steal, % of the machine's time */
	int steal_windows;		/* runs or slices with steal above LB_STEAL_FLAG_PCT */
	int windows;			/* runs or slices measured */
};

struct lb_summary {
	double throughput_median;	/* ops/s */
	double throughput_cv;		/* coefficient of variation across runs */
	double slowdown_pct;		/* 100 * (1 - median traced / median baseline) */
	double slowdown_ci95[2];	/* paired percentile bootstrap, [low, high] */
	double late_pct;		/* --rate: requests sent late, % of its operations
					 * (its runs, or its on slices); NAN in a closed loop */
	double events_per_op;		/* median over runs of events / ops */
	double ns_per_event;		/* (1/traced - 1/baseline) / events_per_op, in ns */
	double ns_per_event_ci95[2];	/* slowdown_ci95 as a cost per event, [low, high] */
	uint64_t events;		/* sum over runs */
	uint64_t lost_events;		/* sum over runs */
	uint64_t overwritten_events;	/* sum over runs */
	uint64_t read_events;		/* sum over runs */
	uint64_t read_bytes;		/* sum over runs */
	uint64_t bpf_runs;		/* sum over runs: its BPF programs' runs (0: not read) */
	uint64_t bpf_run_ns;		/* sum over runs: nanoseconds inside them */
	/* --method alternate (NAN / 0 under --method runs): */
	int units;			/* units used (not dropped) */
	int dropped_units;		/* units left out (a slice's edge too uncertain) */
	double ci_half_width;		/* (high - low) / 2 of slowdown_ci95, percentage points */
	bool precision_reached;		/* LB_ALT_MIN_UNITS units and ci_half_width <= precision */
	double off_throughput;		/* ops/s over the off slices of its alternation */
	double on_throughput;		/* ops/s over its on slices (total / seconds, as off's);
					 * NAN in results of versions before it */
	double residue_pct;		/* 100 * (1 - off / the plain baseline run beside it) */
	double switch_on_ms;		/* median time to switch the set on */
	double switch_off_ms;		/* median time to switch it off */
	uint64_t off_events;		/* events its tracer counted while off: 0 when off is off
					 * (the dropped units' included) */
	int off_dropped_units;		/* of dropped_units, those with events counted while off */
	double seconds;			/* the units' wall time: first armed slice to last, summed
					 * over its alternations */
	int alternations;		/* its alternations: 1, more with --time-budget's top-ups */
	double topup_seconds;		/* of seconds, the units' time in the top-ups */
	struct lb_lat_summary latency;	/* count 0: the workload's operations were not timed */
	struct lb_cpu_summary cpu;	/* measured false: no CPU time in these results */
};

/*
 * How the kernel placed one kprobe or kretprobe of a set, in its own words
 * (debugfs kprobes/list, read while the set was on): an ftrace callback at
 * the function's fentry site, a jump into a detour buffer, or neither: a
 * breakpoint (int3) and a single-step, the 2006 kind.
 */
enum lb_kprobe_mech {
	LB_KPROBE_UNKNOWN = 0,	/* the list could not be read, or the probe was not in it */
	LB_KPROBE_BREAKPOINT,	/* neither [FTRACE] nor [OPTIMIZED] */
	LB_KPROBE_FTRACE,	/* [FTRACE]: CONFIG_KPROBES_ON_FTRACE, at the fentry site */
	LB_KPROBE_OPTIMIZED,	/* [OPTIMIZED]: CONFIG_OPTPROBES' jump */
	LB_KPROBE_DISABLED,	/* [DISABLED] or [GONE] while the set was on */
};

/* One kprobe or kretprobe a set placed, and its mechanism. */
struct lb_kprobe_placed {
	char *symbol;		/* the probe set's symbol */
	unsigned long offset;	/* bytes into it (SYMBOL+OFFSET); 0 = the entry */
	bool ret;		/* a kretprobe */
	enum lb_kprobe_mech mech;
};

/* What a set did to kprobes: where they went, and the optimization setting it ran under. */
struct lb_kprobes_info {
	struct lb_kprobe_placed *probes;
	size_t nprobes;
	/* Where the mechanisms were read ("debugfs", "debugfs, private mount") or why not; may be NULL. */
	char *source;
	int optimization;	/* the set's 'kprobe-optimization': 0 off, 1 on, -1 left alone */
	int optimization_before; /* debug.kprobes-optimization before the run; -1 unknown or absent */
};

struct lb_probeset_result {
	char *name;		/* "ftrace"; the baseline is named "baseline" */
	char *tracer;		/* "ftrace"; the baseline's tracer is "none" */
	char *description;	/* from the probe-set file; may be NULL */
	char *file;		/* path of the probe-set file; may be NULL */
	char *text;		/* full text of the probe-set file; may be NULL */
	char *compare_with;	/* the probe set this one builds on ('compare-with'); may be NULL */
	char *added_for;	/* measured because this named set compares with it; may be NULL */
	char *reference;	/* the published figure it answers ('reference' line); may be NULL */
	struct lb_run *runs;
	size_t nruns;
	struct lb_slice *slices;	/* --method alternate: every slice of its alternation */
	size_t nslices;
	char *off_residue;	/* what its tracer leaves in the kernel while off; may be NULL */
	struct lb_kprobes_info kprobes;	/* nprobes 0: the set placed none */
	struct lb_summary summary;
};

struct lb_host {
	char *kernel_release;	/* uname -r */
	char *kernel_version;	/* uname -v */
	char *machine;		/* uname -m */
	char *cpu_model;	/* /proc/cpuinfo "model name" */
	char *virtualization;	/* "none", "kvm", "qemu-tcg", ... or "unknown" */
	int ncpus;		/* online CPUs */
	char *vm_accelerator;	/* scripts/loadbench-vm's "tcg: why"; NULL when not run by it */
};

/* Where one flow's processes ran: CPU numbers, -1 = not pinned (or no such process). */
struct lb_flow_place {
	int server_cpu;
	int client_cpu;
};

struct lb_config {
	char *workload;		/* "udp-rr" */
	char *placement;	/* lb_workload_describe() line */
	char *engine;		/* server engine: "syscall", "uring"; NULL in older results */
	char *command_line;	/* argv joined by spaces */
	double duration;	/* measured seconds per run */
	double warmup;		/* warm-up seconds per run */
	int repeat;		/* rounds */
	int syscalls_per_op;
	int msg_size;
	int server_cpu;		/* -1 = not pinned */
	int client_cpu;
	int buffer_kb;		/* per-CPU buffer override, 0 = probe set's own */
	char *topology;		/* "lo" or "veth"; NULL in results of older versions */
	int flows;		/* generator/server pairs; 0 = not recorded (older versions) */
	struct lb_flow_place *flow_placement; /* where each flow ran, flows entries */
	size_t nflow_placement;
	int window;		/* icmp-flood: echoes outstanding (0 = not recorded) */
	int rate;		/* udp-rr, tcp-rr: open loop at this many requests per second
				 * per flow; 0 = closed loop */
	char *method;		/* "alternate" or "runs"; NULL in older results (= runs) */
	double slice;		/* alternate: measured seconds per slice */
	double settle;		/* alternate: seconds after each switch left unmeasured */
	double precision;	/* alternate: target CI half-width, percentage points */
	double max_time;	/* alternate: seconds of alternation per set at most */
	double time_budget;	/* alternate: seconds for every alternation together; 0 = none */
	char *exec_metric;	/* --workload exec: --metric's REGEX, or NULL (1 / run time) */
	bool exec_metric_lower;	/* --metric-lower-is-better: throughput = 1 / the metric */
	double exec_timeout;	/* --workload exec: --timeout, seconds; 0 = not exec */
	char *count_with;	/* "pcap", or NULL */
	char *pcap_filter;	/* the capture's filter expression, or NULL */
	bool concurrent;	/* measured beside another loadbench run (--allow-concurrent) */
};

/* A probe set that was named or in the catalog but cannot run here. */
struct lb_skipped {
	char *name;		/* the probe set's name */
	char *reason;		/* why it cannot run here */
};

struct lb_results {
	char *version;		/* loadbench version */
	char *started;		/* ISO 8601 UTC */
	bool complete;		/* false when the run was interrupted */
	struct lb_host host;
	struct lb_config config;
	struct lb_probeset_result baseline;
	struct lb_probeset_result *probesets;
	size_t nprobesets;
	char **warnings;
	size_t nwarnings;
	struct lb_skipped *skipped;	/* JSON "skipped": [{name, reason}] */
	size_t nskipped;
};

/*
 * The layout of results.json this version writes and reads
 * (doc/results-schema.md): written as "schema_version", incremented when a
 * key changes meaning or is removed, not when one is added. A file without
 * the key is version 1; lb_results_read_json() refuses a newer one.
 */
#define LB_RESULTS_SCHEMA 1

/*
 * The most a results.json may hold: lb_results_read_json() refuses a file
 * with more, in one line naming the field, its count and the cap. A file
 * can come from anyone; these keep what reads it (report, plot, compare)
 * to bounded work, and each is far above what a run writes:
 *  - probe sets (measured, and skipped): a run measures LB_MAX_PROBESETS (64);
 *  - a probe set's name, in bytes: it is a file's name (NAME_MAX, 255);
 *  - runs, of every entry together: --repeat is at most 1000, so 65,000;
 *  - slices, of every entry together: one per ~0.12 s of alternation, so 4
 *    million are five and a half days of it; the 256 MiB a file may take
 *    holds about a million as loadbench writes them (~300 bytes each);
 *  - warnings: a run writes a few per probe set;
 *  - kprobes of one entry: one per probe line of its set.
 */
#define LB_RESULTS_MAX_PROBESETS 1024
#define LB_RESULTS_MAX_NAME 255
#define LB_RESULTS_MAX_RUNS 100000
#define LB_RESULTS_MAX_SLICES 4000000
#define LB_RESULTS_MAX_WARNINGS 100000
/* Kprobes of one probe-set entry: a set places one per probe line, and a few hundred is many. */
#define LB_RESULTS_MAX_KPROBES 100000

/* lb_results_new - an empty, zeroed result set with the baseline named. NULL on ENOMEM. */
struct lb_results *lb_results_new(void);

/* lb_results_free - free @res and everything it owns; NULL is fine. */
void lb_results_free(struct lb_results *res);

/*
 * lb_results_add_probeset - append an entry named @name recorded by @tracer
 * (strings copied). Returns the new entry, or NULL on ENOMEM. The pointer is
 * valid until the next call.
 */
struct lb_probeset_result *lb_results_add_probeset(struct lb_results *res, const char *name,
						   const char *tracer);

/*
 * lb_probeset_result_add_slices - append copies of @n slices to @psr.
 * Returns 0 or -ENOMEM.
 */
int lb_probeset_result_add_slices(struct lb_probeset_result *psr, const struct lb_slice *s,
				  size_t n);

/*
 * lb_slices_mark_dropped - set the dropped flag of each of the @n slices @s
 * of one alternation (in order): a slice without operations, or one whose
 * edges took more than LB_ALT_EDGE_DROP of its operations and more than
 * LB_ALT_EDGE_OUTLIER times the median edge of the slices of its kind
 * (armed, or plain: nothing is read at a plain slice's edges), or one that
 * ran over LB_ALT_SLICE_LONG times the median slice of its kind, or an
 * armed slice in which a set that was off counted events (off_events: off
 * was not off for that switch). Run again as slices come, the medians are
 * those of every slice so far. Returns the number of units (armed slices
 * only) none of whose slices is dropped.
 */
int lb_slices_mark_dropped(struct lb_slice *s, size_t n);

/*
 * lb_slices_unit_ratios - for each unit of the @n slices @s (in order, units
 * contiguous), the throughput of state @on over that of state @ref (indices
 * in lb_results.probesets, -1 = all off), each state's throughput being the
 * ops over the seconds of its slices in that unit. Units with a dropped
 * slice, or without both states, are left out. Writes at most @max ratios to
 * @out; returns how many.
 */
size_t lb_slices_unit_ratios(const struct lb_slice *s, size_t n, int on, int ref, double *out,
			     size_t max);

/* lb_results_units_range - the fewest and most units any probe set of @res used, into @lo, @hi. */
void lb_results_units_range(const struct lb_results *res, int *lo, int *hi);

/* lb_results_alternate - whether @res was measured with --method alternate. */
bool lb_results_alternate(const struct lb_results *res);

/*
 * lb_probeset_result_add_run - append a copy of @run (samples copied) to
 * @psr. Returns 0 or -ENOMEM.
 */
int lb_probeset_result_add_run(struct lb_probeset_result *psr, const struct lb_run *run);

struct lb_hist;

/*
 * lb_latency_set - @l from histogram @h (src/common/hist.h): its nonempty
 * buckets copied, the count, mean and quantiles computed. What @l held is
 * released first. Returns 0, or -ENOMEM (then @l is empty).
 */
int lb_latency_set(struct lb_latency *l, const struct lb_hist *h);

/*
 * lb_latency_from_buckets - @l's count, mean and quantiles from its buckets
 * (as read from results.json), the mean from @sum_ns. Returns 0, or
 * -EINVAL when an index is out of range or the indices are not ascending.
 */
int lb_latency_from_buckets(struct lb_latency *l, double sum_ns);

/* lb_latency_add_to - add @l's buckets into histogram @h. */
void lb_latency_add_to(const struct lb_latency *l, struct lb_hist *h);

/* lb_latency_copy - @dst = a deep copy of @src. Returns 0 or -ENOMEM (then @dst is empty). */
int lb_latency_copy(struct lb_latency *dst, const struct lb_latency *src);

/*
 * lb_lat_quantile_shown - whether quantile @q (index in lb_lat_q) of @count
 * operations means anything: LB_LAT_MIN_TAIL operations or more beyond it,
 * or the max. What tables and figures print; the ratios ask the same of
 * each round or slice.
 */
bool lb_lat_quantile_shown(uint64_t count, int q);

/* lb_latency_release - free @l's buckets and empty it (count 0, NAN quantiles). */
void lb_latency_release(struct lb_latency *l);

/*
 * lb_kprobes_info_add - append a copy of one placed probe to @k. Returns 0 or
 * -ENOMEM.
 */
int lb_kprobes_info_add(struct lb_kprobes_info *k, const char *symbol, unsigned long offset,
			bool ret, enum lb_kprobe_mech mech);

/* lb_kprobes_info_release - free what @k holds and reset it (optimization -1: left alone). */
void lb_kprobes_info_release(struct lb_kprobes_info *k);

/*
 * lb_kprobes_info_present - whether @k says anything: probes placed, or an
 * optimization setting (results.json has a "kprobes" object only then).
 */
bool lb_kprobes_info_present(const struct lb_kprobes_info *k);

/*
 * lb_kprobe_mech_name - @m as results.json spells it: "breakpoint",
 * "ftrace", "optimized", "disabled", "unknown" (also for a value out of range).
 */
const char *lb_kprobe_mech_name(enum lb_kprobe_mech m);

/* lb_kprobe_mech_parse - the mechanism named @s into *@m. Returns 0, or -EINVAL for others. */
int lb_kprobe_mech_parse(const char *s, enum lb_kprobe_mech *m);

/*
 * lb_kprobes_describe - what @k's probes are in one line for people, in
 * @buf: "11 kprobes: 10 ftrace-based, 1 optimized", "1 kprobe, 2
 * kretprobes: 3 breakpoint (optimization off)", "11 kprobes: mechanism
 * unknown (debugfs not readable)" (the source says why), "no kprobes
 * (optimization off)". Returns @buf.
 */
const char *lb_kprobes_describe(const struct lb_kprobes_info *k, char *buf, size_t len);

/*
 * The start of the warning that says why a run failed, the rest of the runs
 * not made ("run failed: SET, round N: WHY"): what tells incomplete results
 * of a failed run from those a signal interrupted.
 */
#define LB_RESULTS_RUN_FAILED "run failed: "

/*
 * lb_results_failed - why @res is incomplete when a run failed: the text of
 * its LB_RESULTS_RUN_FAILED warning after that prefix. Returns NULL when
 * @res is complete, or incomplete without one (a signal interrupted it).
 */
const char *lb_results_failed(const struct lb_results *res);

/* lb_results_add_warning - append a printf-formatted warning. Returns 0 or -ENOMEM. */
int lb_results_add_warning(struct lb_results *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* lb_results_add_skipped - record probe set @name as skipped for @reason. Returns 0 or -ENOMEM. */
int lb_results_add_skipped(struct lb_results *res, const char *name, const char *reason);

/*
 * lb_results_summarize - compute every summary (baseline and probe sets)
 * from the runs; probe-set runs pair with the baseline run of the same
 * round. Adds a warning when the baseline's coefficient of variation is too
 * large for the smallest slowdown to mean anything. Returns 0 or -ENOMEM.
 */
int lb_results_summarize(struct lb_results *res);

/*
 * lb_results_off_on - the two throughputs @psr's slowdown compares, into
 * *@off (its probes off) and *@on (on): under --method alternate the
 * throughput of its own off slices (summary.off_throughput) and of its on
 * slices (summary.on_throughput, both total / seconds: one estimator for
 * both, so that their ratio agrees with the slowdown; the median of the on
 * slices in results without it), in the same workload; under
 * --method runs the medians of the baseline's runs (nothing armed) and of
 * its own over the rounds that pair them. NAN where unknown (runs with no
 * round paired: *@off NAN, *@on its own median). Returns 0 or -ENOMEM
 * (then *@off NAN and *@on its own median too).
 */
int lb_results_off_on(const struct lb_results *res, const struct lb_probeset_result *psr,
		      double *off, double *on);

/*
 * lb_results_write_json - write @res as JSON to @name in the directory
 * @dirfd (AT_FDCWD: @name is a path) atomically (a temporary file in the
 * same directory, then renameat). Returns 0 or -errno.
 */
int lb_results_write_json(const struct lb_results *res, int dirfd, const char *name);

/* lb_results_print_json - @res as results.json would hold it, on @f. Returns 0 or -errno. */
int lb_results_print_json(const struct lb_results *res, FILE *f);

/*
 * lb_results_read_json - read a results.json written by
 * lb_results_write_json(). Returns 0 and sets *@out, or -errno (-EINVAL for
 * a file that is not loadbench results; the reason goes to @err).
 */
int lb_results_read_json(const char *path, struct lb_results **out, char *err, size_t errlen);

/*
 * lb_results_write_csv - one row per run (baseline and probe sets) with a
 * header line, written atomically to @name in @dirfd (AT_FDCWD: a path).
 * Returns 0 or -errno.
 */
int lb_results_write_csv(const struct lb_results *res, int dirfd, const char *name);

/*
 * lb_results_write_slices_csv - --method alternate: one row per slice of
 * every probe set (probeset, unit, state = the set that was on or "off",
 * start, seconds, switch_s, ops, throughput, events, lost_events,
 * off_events, edge_spread_ops, dropped as 0/1, lat_count and the latency
 * quantiles, empty when not timed) with a header line, written
 * atomically to @name in @dirfd (slices.csv). Writes nothing and returns 0
 * when no probe set has slices. Returns 0 or -errno.
 */
int lb_results_write_slices_csv(const struct lb_results *res, int dirfd, const char *name);

/* lb_results_has_slices - whether any probe set of @res has slices (slices.csv is written). */
bool lb_results_has_slices(const struct lb_results *res);

/* A probe set beside the set it builds on (its 'compare-with' line). */
struct lb_pair {
	size_t units;			/* alternate: units pairing the set with its base; 0 = runs */
	const struct lb_probeset_result *set;
	const struct lb_probeset_result *base;	/* the set named by set->compare_with */
	double slowdown_ratio;		/* set's slowdown / base's; NAN when base's is <= 0 */
	double vs_base_pct;		/* 100 * (1 - median set / median base), paired by round */
	double vs_base_ci95[2];		/* its paired bootstrap 95% CI; NAN with < 2 pairs */
	double extra_events_per_op;	/* set's events/op - base's */
	/*
	 * (1/set - 1/base throughput) / extra, the set's throughput taken as the
	 * base's median x (1 - vs_base_pct / 100) (the paired estimate; the two
	 * medians when there is none); NAN if extra <= 0.
	 */
	double ns_per_extra_event;
	double ns_per_extra_event_ci95[2]; /* vs_base_ci95's ends through the same formula */
};

/*
 * lb_results_pair - fill @out for @psr and the set its compare_with names.
 * Returns 0, -ENOENT when @psr has no compare_with or that set is not in
 * @res (or has no throughput), or -ENOMEM.
 */
int lb_results_pair(const struct lb_results *res, const struct lb_probeset_result *psr,
		    struct lb_pair *out);

/*
 * The verdict on a set that adds kprobes to the set it builds on (its
 * 'compare-with'): how much further it slows the base, and how many times
 * the base's own slowdown its whole slowdown is (Desnoyers 2006: LTTng 35%,
 * LTTng with a kprobe per event 73%, 2.1x).
 */
struct lb_verdict {
	struct lb_pair pair;		/* the set beside its base: vs_base_pct, CI, extra events */
	double base_pct;		/* the base's slowdown_pct */
	double base_ci95[2];		/* and its 95% CI */
	double ratio;			/* set's slowdown / base's; NAN: ratio_why says why */
	double ratio_ci95[2];		/* paired bootstrap; NAN with the ratio or too few */
	size_t ratio_n;			/* units (alternate) or rounds (runs) the CI is over */
	char ratio_why[LB_RESULTS_MAX_NAME + 64]; /* why ratio is NAN; "" when it is not */
	char kprobes[320];		/* lb_kprobes_describe() of the set's kprobes */
	const char *reference;		/* the set's published figure; may be NULL */
	bool emulated;			/* lb_results_emulated(): timings are not real */
};

/*
 * lb_results_verdict - the verdict on @psr, into @out: the ratio's CI by a
 * paired moving-block bootstrap over the alternation's units (alternate;
 * both slowdowns from the same resampled units) or a paired bootstrap over
 * the rounds (runs). Returns 0, -ENOENT when @psr placed no kprobes or has
 * no base in @res (lb_results_pair()), or -ENOMEM.
 */
int lb_results_verdict(const struct lb_results *res, const struct lb_probeset_result *psr,
		       struct lb_verdict *out);

/* lb_results_emulated - whether @res was measured under QEMU's TCG (timings emulated). */
bool lb_results_emulated(const struct lb_results *res);

/*
 * lb_results_share - @part of @whole (> 0) in percent, readable however small,
 * in @buf: "61.0%", "99.7%", "99.96%", "0.000062%" (two significant digits
 * below 0.1%, one of the remainder above 99.9%). Returns @buf.
 */
const char *lb_results_share(uint64_t part, uint64_t whole, char *buf, size_t len);

#endif
