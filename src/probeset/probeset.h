/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Probe sets: text files naming a tracer and the probes it enables.
 *
 *   # comment (to end of line, anywhere)
 *   description  Static tracepoints on the packet path, IRQs and the scheduler
 *   tracer       ftrace
 *   tracepoint   net:netif_receive_skb
 *   tracepoint   sched:*            every event of a system
 *   tracepoint   net_if_receive_skb an LTTng event name (tracer lttng): no system
 *   syscall      all                every syscall entry and exit
 *   syscall      getppid            one syscall's entry and exit
 *   kprobe       netif_rx           a kprobe on a kernel symbol (kretprobe: on its return)
 *   kprobe       schedule+5         a kprobe OFFSET bytes into the function (decimal or
 *                                   0x hex; an instruction boundary, the kernel checks)
 *   uprobe       lb_server_request  a uprobe on a function of the workload server
 *                                   (the loadbench executable; uretprobe: on its return)
 *   usdt         loadbench:request  a USDT marker of the workload server, PROVIDER:NAME
 *                                   (every place it is in; its semaphore raised while on)
 *   buffer-kb    4096               per-CPU buffer size
 *   mode         overwrite          or: discard, or consumer (a reader drains the
 *                                   buffer while the workload runs)
 *   reader-cpu   workload           consumer's reader threads on the workload's
 *                                   CPUs (its cost included), or: other
 *   scope        workload           record only the workload's processes (default: system)
 *   compare-with ftrace             the probe set this one builds on: named on the
 *                                   command line, this set brings that one along
 *   kprobe-optimization off         debug.kprobes-optimization while the set is on
 *                                   (or: on); restored after. No line: left alone
 *   reference    2006: 35% -> 73%   the published figure the set answers (one line)
 *   default-run  no                 left out of the default run (no line: yes); named
 *                                   with --probeset it runs
 *
 * Tracer `command' runs a tool as the tracer (tracer_command.c) and takes:
 *   start        bpftrace -e '...'  its command line: words as --server's, no shell;
 *                                   {pid} the workload server's pid, {pids} all of
 *                                   the workload's, comma-separated
 *   ready        line:^Attaching    ready once a line of its output matches (POSIX
 *                                   ERE), or: delay:SEC, file:PATH (exists), bpf (it
 *                                   holds BPF programs, as many for 0.3 s), bpf:N (N
 *                                   of them at least, then as many for 0.3 s). No
 *                                   line: ready once started
 *   ready-within 30                 seconds it has to get ready (default 30)
 *   stop         SIGINT 5           the signal that asks it to stop, and the seconds
 *                                   after which its process group is killed
 *   events       bpf                what counts as its events: its BPF programs' runs
 *                                   (the kernel's BPF statistics), or regex:ERE (its
 *                                   output lines that match), or none
 * A '#' starts a comment there too: a regex cannot hold one.
 *
 * The parser checks syntax only; whether an event exists on this kernel is
 * the tracer's check (it reports the probe's line number).
 */
#ifndef LB_PROBESET_H
#define LB_PROBESET_H

#include <stddef.h>

enum lb_probe_kind {
	LB_PROBE_TRACEPOINT,	/* system:event, event may be "*"; LTTng: event, system NULL */
	LB_PROBE_SYSCALL,	/* event = syscall name, or "all" */
	LB_PROBE_KPROBE,	/* event = kernel symbol, [A-Za-z0-9_.]+ */
	LB_PROBE_KRETPROBE,	/* event = kernel symbol; fires on return */
	LB_PROBE_UPROBE,	/* event = function of the set's binary (default: loadbench) */
	LB_PROBE_URETPROBE,	/* event = function of the set's binary; fires on return */
	LB_PROBE_USDT,		/* system = provider, event = name: a USDT marker of the binary */
};

enum lb_scope {
	LB_SCOPE_SYSTEM = 0,	/* every process on the machine (the default) */
	LB_SCOPE_WORKLOAD,	/* only the workload's processes (pids known after start) */
};

enum lb_buffer_mode {
	LB_MODE_DEFAULT = 0,	/* the tracer's default (ftrace: overwrite) */
	LB_MODE_OVERWRITE,	/* flight recorder: oldest events overwritten */
	LB_MODE_DISCARD,	/* new events dropped when the buffer is full */
	LB_MODE_CONSUMER,	/* a reader drains the buffer during the run; full = dropped */
};

/* Where the reader of `mode consumer' runs (ftrace). */
enum lb_reader_cpu {
	LB_READER_WORKLOAD = 0,	/* on the workload's CPUs: its cost is in the slowdown */
	LB_READER_OTHER,	/* on the CPUs the workload does not use */
};

struct lb_probe {
	enum lb_probe_kind kind;
	char *system;		/* tracepoint system; NULL for the other kinds and LTTng names */
	char *event;		/* tracepoint event or "*"; syscall name or "all"; symbol */
	unsigned long offset;	/* kprobe: bytes into the symbol (SYMBOL+OFFSET); else 0 */
	int line;		/* line in the file, for error messages */
};

struct lb_probeset {
	char *name;		/* file basename without ".probeset" */
	char *path;		/* file it was read from ("<string>" when parsed from memory) */
	char *text;		/* the whole file */
	char *description;	/* may be NULL */
	char *tracer;		/* required */
	int tracer_line;
	struct lb_probe *probes;
	size_t nprobes;
	int buffer_kb;		/* 0 = tracer default */
	enum lb_buffer_mode mode;
	enum lb_reader_cpu reader_cpu;
	int reader_cpu_line;	/* 0 when the file has no 'reader-cpu' line */
	enum lb_scope scope;
	int scope_line;		/* 0 when the file has no 'scope' line */
	char *compare_with;	/* the probe set this one builds on; NULL when none */
	int compare_with_line;	/* 0 when the file has no 'compare-with' line */
	char *added_for;	/* not from the file: the named set whose compare-with added it */
	char *reference;	/* the published figure it answers (one line); NULL when none */
	int reference_line;
	int kprobe_optimization; /* 'kprobe-optimization': 0 off, 1 on, -1 (no line) left alone */
	int kprobe_optimization_line;
	int default_run;	/* 1: in the default run (no line), 0: only when named */
	int default_run_line;
	/*
	 * 'binary': the absolute path of the executable whose functions and USDT
	 * markers the uprobe, uretprobe and usdt lines name; NULL = the workload
	 * server (the loadbench executable, of which the server is a fork).
	 */
	char *binary;
	int binary_line;
	/* tracer command: the tool it runs (see above); NULL / 0 when the line is absent */
	char *start;		/* the command line, as written */
	int start_line;
	char *ready;		/* line:ERE, delay:SEC, file:PATH, bpf or bpf:N */
	int ready_nprogs;	/* bpf:N's N; 0 otherwise */
	int ready_line;
	double ready_within;	/* seconds; 0 = the tracer's default */
	int ready_within_line;
	int stop_signal;	/* 0 = SIGINT */
	double stop_within;	/* seconds before SIGKILL; 0 = the tracer's default */
	int stop_line;
	char *events;		/* bpf, regex:ERE or none */
	int events_line;
};

#define LB_PROBESET_EXT ".probeset"

/*
 * lb_probeset_parse - parse @text (from @path, used in messages and for the
 * name). Returns 0 and sets *@out, or -EINVAL with "PATH:LINE: problem"
 * written to @err, or -ENOMEM.
 */
int lb_probeset_parse(const char *text, const char *path, struct lb_probeset **out,
		      char *err, size_t errlen);

/*
 * lb_probeset_load - read and parse the file @path. Returns 0 and sets
 * *@out, or -errno with a message in @err.
 */
int lb_probeset_load(const char *path, struct lb_probeset **out, char *err, size_t errlen);

/*
 * lb_probeset_find - @spec is a catalog name ("ftrace", looked up as
 * @catalog_dir/ftrace.probeset) or a path (contains a '/' or ends in
 * ".probeset"). Returns 0 and sets *@out, or -errno with a message in @err
 * (an unknown name lists the catalog's names).
 */
int lb_probeset_find(const char *spec, const char *catalog_dir, struct lb_probeset **out,
		     char *err, size_t errlen);

/*
 * lb_catalog_names - the probe-set names in @catalog_dir, sorted, as a
 * NULL-terminated array (free with lb_catalog_names_free). Returns the
 * count, or -errno.
 */
int lb_catalog_names(const char *catalog_dir, char ***names);

/* lb_catalog_names_free - free an array from lb_catalog_names(); NULL is fine. */
void lb_catalog_names_free(char **names);

/* lb_probe_kind_name - @kind's keyword in a probe-set file ("tracepoint", "usdt"). */
const char *lb_probe_kind_name(enum lb_probe_kind kind);

/* lb_probeset_free - free @ps; NULL is fine. */
void lb_probeset_free(struct lb_probeset *ps);

#endif
