/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen: the workload pair (load generator + syscall-heavy server).
 *
 * This library knows nothing about tracing. The orchestrator creates a
 * workload, starts it, reads the completed-operation counter whenever it
 * likes (the generator publishes it in shared memory; reading it costs the
 * workload nothing), and stops it. Timing (warm-up, measured window,
 * per-interval samples) is the caller's business, so that tracer snapshots
 * and counter reads happen at the same instants.
 */
#ifndef LB_LOADGEN_H
#define LB_LOADGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "leftover.h"

struct lb_workload;

#define LB_FLOWS_MAX 64 /* most flows (generator/server pairs) in one workload */

/* Where the servers run. */
enum lb_topology {
	LB_TOPO_LO,   /* on loopback, in loadbench's network namespace */
	LB_TOPO_VETH, /* in a network namespace of their own, behind one veth pair per flow */
};

/* Names of the topologies, indexed by enum lb_topology, NULL-terminated: "lo", "veth". */
extern const char *const lb_topology_names[];

/* The fields of struct lb_workload_config, for messages that name one. */
enum lb_workload_field {
	LB_WF_NAME,
	LB_WF_ADDR,
	LB_WF_PORT,
	LB_WF_MSG_SIZE,
	LB_WF_SYSCALLS_PER_OP,
	LB_WF_SERVER_CPU,
	LB_WF_CLIENT_CPU,
	LB_WF_MAX_SECONDS,
	LB_WF_WINDOW,
	LB_WF_FLOWS,
	LB_WF_TOPOLOGY,
	LB_WF_ENGINE,
	LB_WF_RATE,
	LB_WF_COUNT
};

/*
 * How loadgen's messages name the configuration. A library caller passes
 * none: messages name the fields ("choose another with port", "use engine
 * syscall"). A command line passes its options ("--port", "--engine").
 */
struct lb_workload_naming {
	const char *field[LB_WF_COUNT]; /* NULL entry: lb_workload_field_name() */
	const char *unpinned;		/* how to ask for no pinning; NULL: "server_cpu and
					   client_cpu -1" */
};

/* lb_workload_field_name - @f's name in struct lb_workload_config ("server_cpu"), or "?". */
const char *lb_workload_field_name(enum lb_workload_field f);

struct lb_workload_config {
	const char *name;	/* workload name, e.g. "udp-rr" */
	const char *addr;	/* server address, a loopback literal: "127.0.0.1" */
	uint16_t port;		/* server port; 0 = ephemeral */
	size_t msg_size;	/* request/response payload bytes (>= 8) */
	int syscalls_per_op;	/* extra cheap real syscalls the server makes per request */
	int server_cpu;		/* CPU to pin the server to, -1 = not pinned */
	int client_cpu;		/* CPU to pin the generator to, -1 = not pinned */
	double max_seconds;	/* safety bound: the processes stop by themselves after this long */
	int window;		/* icmp-flood: echoes kept outstanding (1 = ping -f); others 1 */
	int flows;		/* generator/server pairs, 1..LB_FLOWS_MAX; 0 = 1 */
	enum lb_topology topology; /* LB_TOPO_LO (default) or LB_TOPO_VETH (root) */
	const char *engine;	/* server engine: "syscall" (default) or "uring" (io_uring) */
	/*
	 * Open loop: each flow's generator sends this many requests per second
	 * on a fixed schedule, whatever the replies do, and times each from its
	 * scheduled send (traits.rate workloads); 0 = closed loop (the default).
	 */
	int rate;
	/* How messages name the fields (must outlive the workload); NULL: by their names. */
	const struct lb_workload_naming *naming;
	/*
	 * The LTTng-UST provider shared object the request/response servers load
	 * at their start, for a run with an lttng-ust probe set; NULL: none (their
	 * LTTng-UST markers stay a pointer test).
	 */
	const char *ust_provider;
};

/* What a stopped workload reports (all counts since lb_workload_start()). */
struct lb_workload_stats {
	uint64_t ops;		/* completed operations, as lb_workload_ops() counts them */
	uint64_t timeouts;	/* requests resent after no reply within the timeout */
	uint64_t mismatches;	/* replies whose sequence number did not match */
	uint64_t server_requests; /* requests answered (udp-stream: datagrams received) */
	uint64_t sent;		/* requests, echoes or datagrams the generator sent */
	uint64_t received;	/* matched replies; udp-stream: datagrams the server received */
	uint64_t dropped;	/* udp-stream: sent - received; the others: timeouts (requests lost) */
	uint64_t late;		/* rate: requests sent a period or more after their scheduled time */
	int nflows;		/* entries in flow_ops */
	uint64_t flow_ops[LB_FLOWS_MAX]; /* ops of each flow; the counts above are sums */
};

/* Names of the workloads loadgen knows, NULL-terminated. */
extern const char *const lb_workload_names[];

/* What a workload type is, so that callers need not compare its name. */
struct lb_workload_traits {
	const char *name; /* as in lb_workload_names[]: "udp-rr" */
	const char *op;	  /* one operation: "round trip", "echo round trip", "datagram received" */
	const char *ops;  /* the same, plural: "round trips" */
	const char *addr; /* the default server address: "127.0.0.1"; pcap-flood "::1" */
	bool window;	  /* keeps several requests outstanding: window may be above 1 */
	bool veth;	  /* runs with LB_TOPO_VETH (pcap-flood injects on lo: no) */
	bool engine;	  /* has a server loop of its own, so engine "uring" applies */
	bool latency;	  /* the generator times each operation (request to matching reply) */
	bool rate;	  /* has an open loop: rate may be above 0 */
};

/*
 * lb_workload_traits - the traits of the workload named @name. Returns
 * them, or NULL when @name is NULL or no workload loadgen knows.
 */
const struct lb_workload_traits *lb_workload_traits(const char *name);

/* Names of the server engines loadgen knows ("syscall", "uring"), NULL-terminated. */
extern const char *const lb_engine_names[];

/*
 * lb_workload_config_init - fill @cfg with defaults (udp-rr, 127.0.0.1,
 * ephemeral port, 64-byte messages, 0 extra syscalls, not pinned,
 * max_seconds 600, window 1, one flow, topology lo, engine "syscall",
 * naming NULL).
 */
void lb_workload_config_init(struct lb_workload_config *cfg);

/*
 * lb_workload_config_check - what lb_workload_create() checks of @cfg that
 * needs nothing opened and no privilege: the workload's name, flows,
 * topology and ports, the address (a loopback literal), the sizes, window,
 * rate and bound, the CPUs against this process's affinity, the engine's
 * name. For a command line to refuse bad values before anything starts.
 * Returns 0, or -EINVAL (-EADDRNOTAVAIL for an address that is not
 * loopback) with a one-line message naming the cause and the fix in @err.
 */
int lb_workload_config_check(const struct lb_workload_config *cfg, char *err, size_t errlen);

/*
 * lb_workload_create - validate @cfg, open and bind the server socket (so a
 * busy port is reported here, before anything else happens).
 * Returns 0 and sets *@out, or -errno: -EINVAL bad config or unknown
 * workload, -EADDRINUSE port busy, -EADDRNOTAVAIL address is not loopback,
 * -EPERM icmp-flood without root or CAP_NET_RAW, -EAFNOSUPPORT icmp-flood on ::1,
 * -ENOSYS/-EPERM engine uring without liburing or refused by the kernel;
 * with the veth topology also -EPERM without root, -EOPNOTSUPP when the
 * kernel lacks network namespaces or veth or the build lacks libnl-route-3.
 * Every flow's server socket is bound here, and the topology created.
 * On failure a one-line message naming the cause and the fix is written
 * to @err (@errlen bytes).
 */
int lb_workload_create(const struct lb_workload_config *cfg, struct lb_workload **out,
		       char *err, size_t errlen);

/*
 * lb_workload_start - fork every flow's server and generator processes
 * (pinned as configured) and return once they are running and each flow's
 * first operation has completed. Returns 0 or -errno.
 */
int lb_workload_start(struct lb_workload *w);

/*
 * lb_workload_ops - completed operations so far in the current start (round
 * trips, matched echo replies; udp-stream: datagrams the server received); cheap.
 */
uint64_t lb_workload_ops(const struct lb_workload *w);

/*
 * lb_workload_expect - the caller will act again within @seconds (read an
 * edge, switch a tracer): until then the generators run flat out; once it
 * is overdue they nap until it next calls this, so that a caller blocked
 * in the kernel on a kernel thread that they starve gets it run. @seconds
 * 0: no expectation (the default; a caller that switches nothing while
 * the workload runs).
 */
void lb_workload_expect(struct lb_workload *w, double seconds);

struct lb_hist;

#define LB_RATE_MAX 1000000 /* most requests per second per flow of an open loop */

/*
 * lb_workload_late - requests sent late since the last start (rate > 0: a
 * period or more after their scheduled time, because the generator was held
 * up or had LB_PACE_RING requests unanswered), every flow's; cheap. Returns
 * the count, 0 in a closed loop.
 */
uint64_t lb_workload_late(const struct lb_workload *w);

/*
 * lb_workload_latency - the latencies of the operations completed since the
 * last start, every flow's histogram (src/common/hist.h) summed into @h;
 * cheap enough for every edge of a window (each flow's buckets read once),
 * costs the workload nothing. Returns 0, or -EOPNOTSUPP when the workload
 * does not time its operations (lb_workload_latency_off() says why).
 */
int lb_workload_latency(const struct lb_workload *w, struct lb_hist *h);

/*
 * lb_workload_latency_off - why @w's operations are not timed ("udp-stream
 * has no request and reply to time", "the clock source is hpet, ..."), or
 * NULL when they are.
 */
const char *lb_workload_latency_off(const struct lb_workload *w);

/*
 * lb_workload_pids - the pids of the running workload processes, flow by
 * flow (server then generator; icmp-flood has no server process, the kernel
 * answers). Returns how many were stored in @pids (at most @max).
 */
int lb_workload_pids(const struct lb_workload *w, pid_t *pids, int max);

/*
 * lb_workload_stop - tell the processes to stop, reap them (killing them
 * after a bounded grace period), fill @st. Returns 0, or -EIO when a process
 * died abnormally or reported an error (message in lb_workload_error()).
 * Safe to call when not started.
 */
int lb_workload_stop(struct lb_workload *w, struct lb_workload_stats *st);

/*
 * lb_workload_count_filter - a pcap filter expression matching one packet per
 * operation of @w as lo delivers it to the server, e.g. "inbound and udp dst
 * port 40213", into @buf (@len bytes). Returns 0, or -EOPNOTSUPP when the
 * workload has none (icmp-flood: the echo identifier changes every start).
 */
int lb_workload_count_filter(const struct lb_workload *w, char *buf, size_t len);

/*
 * lb_workload_server_drops - datagrams the server socket has dropped since
 * create because its receive queue was full (the kernel's sk_drops, read
 * with SO_MEMINFO); cheap, callable while running. Returns 0 without a server
 * socket.
 */
uint64_t lb_workload_server_drops(const struct lb_workload *w);

/* lb_workload_error - the last error message for @w (never NULL). */
const char *lb_workload_error(const struct lb_workload *w);

/*
 * lb_workload_describe - a one-line description of the workload and its
 * placement, e.g. "udp-rr 127.0.0.1:40213 64B server@cpu1 client@cpu1".
 * Returns @buf.
 */
const char *lb_workload_describe(const struct lb_workload *w, char *buf, size_t len);

/*
 * lb_flow_cpu - the placement rule for flows: flow @flow of a process whose
 * flow 0 is pinned to @base runs on the @flow-th CPU after @base in @allowed
 * (the @nallowed CPUs this process may use, ascending), wrapping around; so
 * flow 0 is on @base and the flows spread over every allowed CPU. Returns
 * the CPU, or -1 when @base is -1 (unpinned) or not in @allowed.
 */
int lb_flow_cpu(int base, int flow, const int *allowed, int nallowed);

/*
 * lb_workload_placement - where each flow runs: its server's and its
 * generator's CPU (-1 = unpinned) into @server_cpu[i] and @client_cpu[i].
 * Returns the number of flows (at most @max are stored).
 */
int lb_workload_placement(const struct lb_workload *w, int *server_cpu, int *client_cpu, int max);

/* lb_workload_destroy - stop if running, close sockets, free. NULL is fine. */
void lb_workload_destroy(struct lb_workload *w);

/*
 * lb_loadgen_cleanup - find the host ends of --topology veth pairs whose
 * alias (loadbench_<pid>) names a dead run in @o (leftover.h); with @remove,
 * delete them (and so their peers). @report (may be NULL) is called for
 * each. Returns how many were found.
 */
int lb_loadgen_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg);

#endif
