/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: a flow (struct lb_flow) and a workload kind (struct
 * lb_workload_type), as the common part (flow.c, procs.c, check.c,
 * workload.c) shares them with the files that each implement one workload
 * (udp_rr.c, tcp_rr.c, icmp_flood.c, udp_stream.c, pcap_flood.c). Not
 * installed, not for src/: the API is loadgen.h.
 *
 * A workload kind is one struct lb_workload_type; adding one = a file with
 * its functions and the type, and one line in types.c's table.
 */
#ifndef LB_WORKLOAD_H
#define LB_WORKLOAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <netinet/in.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "engine.h"
#include "hist.h"
#include "loadgen.h"

#define LB_CACHELINE 128	 /* two 64-byte lines: the adjacent-line prefetcher pairs them */
#define LB_DEADLINE_EVERY 1024	 /* ops between two deadline checks in the hot loops */
#define LB_START_TIMEOUT_MS 3000 /* start: wait this long for the first operation */
/* ... and this much longer per further flow: they all compete for the same CPUs. */
#define LB_START_PER_FLOW_MS 100
#define LB_STOP_GRACE_MS 1000	 /* stop: wait this long before SIGKILL */
#define LB_STOP_UNPIN_MS 100	 /* stop: after this long, let the children run on any CPU */
#define LB_POLL_US 500		 /* parent's poll interval while waiting for children */
#define LB_NAP_NS 5000000	 /* a generator's nap while its parent is overdue (lb_past_deadline) */
#define LB_MSG_MIN 8		 /* room for the sequence number */
#define LB_MSG_MAX 65000
#define LB_SYSCALLS_MAX 1000
#define LB_WINDOW_MAX 1024 /* icmp-flood: most echoes outstanding */
#define LB_MAX_SECONDS_MAX 1e9
#define LB_ERRLEN 512
#define LB_FIXLEN 96 /* a child's fix: "the CPU is offline ...: choose another with --cpus" */

enum { LB_SERVER, LB_CLIENT, LB_NCHILD };

/* What a failing child leaves for the parent: errno, what it was doing, the fix. */
struct lb_child_error {
	int err;      /* errno, 0 = no error reported */
	char msg[64]; /* e.g. "recvfrom on the server socket" */
	char fix[LB_FIXLEN]; /* e.g. "check dmesg, then rerun" */
};

/* The region shared by the parent and both children. */
struct lb_shared {
	/* Written only by the generator, read by anyone: its own cache line. */
	_Alignas(LB_CACHELINE) _Atomic uint64_t ops;
	_Atomic uint64_t timeouts;
	_Atomic uint64_t mismatches;
	_Atomic uint64_t sent; /* requests, echoes or datagrams sent */
	_Atomic uint64_t late; /* rate: requests sent a period or more behind their schedule */

	/* Written only by the server. */
	_Alignas(LB_CACHELINE) _Atomic uint64_t server_requests;
	_Atomic uint64_t server_mismatches; /* udp-stream: datagrams of the wrong size */

	/* Written by the parent (before fork, and the stop flag), read by the children. */
	_Alignas(LB_CACHELINE) atomic_int stop;
	struct timespec deadline; /* CLOCK_MONOTONIC: stop by then whatever happens */
	_Atomic uint64_t expect_ns; /* lb_workload_expect(): the parent is back by then; 0: no word */
	bool timed;		  /* the generator times each operation into lat */
	uint64_t period_ns;	  /* open loop: ns between two scheduled sends; 0 = closed loop */

	/* Written only by the generator: each operation's latency, send to matching reply. */
	_Alignas(LB_CACHELINE) struct lb_hist lat;

	/* Written once by a failing child, before it exits. */
	_Alignas(LB_CACHELINE) struct lb_child_error error[LB_NCHILD];
};

struct lb_child {
	pid_t pid; /* 0 = none */
	bool reaped;
	int status;  /* waitpid status once reaped */
	bool killed; /* we had to SIGKILL it */
};

struct lb_workload_type;

/*
 * lb_clock_ns - CLOCK_MONOTONIC in ns, for a generator's hot loop: through
 * the vDSO, no syscall, when the clock source allows it (the workload times
 * operations only then: lb_workload_latency_off()).
 */
static inline uint64_t lb_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* lb_lat_start - the send time of an operation for lb_lat_record(), when timed (else 0). */
static inline uint64_t lb_lat_start(const struct lb_shared *sh)
{
	return sh->timed ? lb_clock_ns() : 0;
}

/* lb_lat_record - count an operation sent at @t0 (lb_clock_ns) and answered now, if timed. */
static inline void lb_lat_record(struct lb_shared *sh, uint64_t t0)
{
	if (sh->timed)
		lb_hist_record(&sh->lat, lb_clock_ns() - t0);
}

/*
 * One flow: a server and a generator with their own sockets, port, CPUs and
 * shared region. A workload (struct lb_workload in workload.c) is 1 to
 * LB_FLOWS_MAX flows; the per-workload files only ever see one flow.
 */
struct lb_flow {
	const struct lb_workload_type *type;
	struct lb_workload_config cfg; /* this flow's: its address, port and CPUs */
	int index;		       /* 0-based flow number */
	int netns_fd;		       /* veth topology: the server's netns; -1 = none */
	uint16_t nonce; /* drawn once per start, the same in every flow (icmp-flood's ids) */
	char addr[INET6_ADDRSTRLEN];	  /* our copy of cfg.addr */
	struct sockaddr_storage srv_addr; /* bound address, with the real port */
	socklen_t srv_addrlen;
	struct sockaddr_storage cli_addr; /* the current generator socket's address */
	socklen_t cli_addrlen;
	uint16_t port;	  /* the bound port (the ephemeral one if cfg.port = 0) */
	uint16_t icmp_id; /* icmp-flood: the echo identifier of the current start */
	int srv_fd;	  /* server socket, bound in create, reused by every start; -1 = none */
	int cli_fd;	  /* generator socket, fresh per start; -1 in the parent once forked */
	void *cli_priv;	  /* what else client_open made (pcap-flood: its pcap_t); NULL = none */
	int engine;		    /* enum lb_engine_kind of cfg.engine */
	enum lb_uring_mode uring_mode; /* engine uring: how the kernel lets it receive */
	cpu_set_t *cpus[LB_NCHILD]; /* affinity masks prepared in create, NULL = unpinned */
	size_t cpus_size;
	unsigned char *buf; /* 2 * buflen bytes; each child uses its own copy (fork) */
	size_t buflen;	    /* msg_size + room for IP and ICMP headers */
	struct lb_shared *sh;
	struct lb_child child[LB_NCHILD];
	/*
	 * The start gate, set by the workload for one start: the generator
	 * reads gate[0] until the parent closes gate[1] (EOF), so that the
	 * flows all start together once every process is forked. -1 = none.
	 */
	int gate[2];
	bool running;
	bool timed; /* its generator times operations (set by the workload, copied at start) */
	struct lb_workload_stats last; /* stats of the last stop */
	char errmsg[LB_ERRLEN];
	/* The children's fixes that name a setting, rendered in create: a child formats nothing. */
	char fix_cpu[LB_NCHILD][LB_FIXLEN]; /* sched_setaffinity failed */
	char fix_engine[LB_FIXLEN];	    /* the uring engine failed to open */
};

/*
 * struct lb_workload_type - what one workload kind provides. (Not named
 * lb_workload_ops: that is the counter function in loadgen.h.)
 * @traits: what callers may know of it (loadgen.h): its name, as in
 *	lb_workload_names[], what an operation is, its default address, whether
 *	it has a window, runs with veth, serves through an engine (traits.engine:
 *	the server loop receives and sends through struct lb_engine, engine.h,
 *	so engine uring applies to it).
 * @proto: "UDP", "TCP", "ICMP": named in messages.
 * @server_open: in create, in the parent: open and bind the server socket (sets
 *	srv_fd, srv_addr, port), or for a kernel-served workload check that the
 *	generator's socket can be opened; -errno and a message in @err.
 * @reset: optional; in start before any fork: discard what a previous start
 *	left in the server socket.
 * @client_open: in start, in the parent: a fresh generator socket (sets cli_fd);
 *	-errno and a message in w->errmsg on failure.
 * @server_run: the server loop, or NULL when the kernel itself answers (no
 *	server process).
 * @client_run: the generator loop. Both return 0 when stopped (stop flag or
 *	deadline), -1 after filling the child's error slot (lb_child_fail).
 * @wake: called by stop after the stop flag is set: make children blocked in
 *	a receive return now rather than at their receive timeout.
 * @ops_by_server: the operation counter is the server's (server_requests):
 *	an open-loop workload counts what arrived, not what was sent.
 * @describe: optional; the workload-specific middle of lb_workload_describe()
 *	("127.0.0.1:4000 msg=64B syscalls/op=2+4" when NULL).
 * @client_release: optional; in the parent after the generator fork, after a
 *	failed start and in destroy: free the parent's copy of w->cli_priv (the
 *	common code closes cli_fd).
 * @count_filter: optional; a pcap filter expression that, and'ed with "dst port
 *	PORT", matches one packet per operation as lo delivers it to the server.
 */
struct lb_workload_type {
	struct lb_workload_traits traits;
	const char *proto;
	int (*server_open)(struct lb_flow *w, char *err, size_t errlen);
	void (*reset)(struct lb_flow *w);
	int (*client_open)(struct lb_flow *w);
	int (*server_run)(struct lb_flow *w);
	int (*client_run)(struct lb_flow *w);
	void (*wake)(struct lb_flow *w);
	bool ops_by_server;
	void (*describe)(const struct lb_flow *w, char *buf, size_t len);
	void (*client_release)(struct lb_flow *w);
	const char *count_filter;
};

extern const struct lb_workload_type lb_udp_rr_type;
extern const struct lb_workload_type lb_tcp_rr_type;
extern const struct lb_workload_type lb_icmp_flood_type;
extern const struct lb_workload_type lb_udp_stream_type;
extern const struct lb_workload_type lb_pcap_flood_type;
/* pcap-flood's traits, the same with libpcap (pcap_flood.c) and without (pcap_flood_none.c). */
#define LB_PCAP_FLOOD_TRAITS {						\
	.name = "pcap-flood",						\
	.op = "datagram received",					\
	.ops = "datagrams received",					\
	.addr = "::1",							\
	.engine = true, /* udp-stream's server loop */			\
}

/*
 * lb_child_fail - in a child: record errno @err, what failed and the fix in
 * the child's error slot (async-signal-safe). Returns -1.
 */
int lb_child_fail(struct lb_flow *w, int which, int err, const char *what, const char *fix);

/* lb_stopping - true once the parent has set the stop flag. */
static inline bool lb_stopping(const struct lb_shared *sh)
{
	return atomic_load_explicit(&sh->stop, memory_order_relaxed) != 0;
}

/*
 * lb_past_deadline - true once the safety deadline has passed. First, while
 * the parent is overdue (past lb_workload_expect()'s time), naps in
 * LB_NAP_NS steps until it is back, stops, or the deadline passes.
 */
bool lb_past_deadline(const struct lb_shared *sh);

/* lb_napped_ns - the ns this process has napped in lb_past_deadline() so far. */
uint64_t lb_napped_ns(void);

/*
 * lb_server_request - the server answered its @requests-th request: publish
 * the count. Called once per request by the request/response servers, never
 * inlined, so that a uprobe on it (the uprobe probe set) fires once per
 * operation. Returns @requests.
 */
uint64_t lb_server_request(struct lb_shared *sh, uint64_t requests);

/*
 * lb_server_engine_open - open @e on the server's socket @fd with w's engine,
 * receives of at most @cap bytes, @flags as lb_engine_open(). In the server
 * process. Returns 0, or -1 after filling the server's error slot.
 */
int lb_server_engine_open(struct lb_flow *w, struct lb_engine *e, int fd, size_t cap,
			  int flags);

/* lb_engine_describe - "syscall", "uring/multishot" or "uring/single-shot": w's engine. */
const char *lb_engine_describe(const struct lb_flow *w);

/*
 * lb_workload_force_singleshot - for tests: every flow of @w receives one
 * request per submission, as on a kernel without multishot receive or buffer
 * rings. Returns nothing; call before lb_workload_start().
 */
void lb_workload_force_singleshot(struct lb_workload *w);

/* lb_endpoint_format - "127.0.0.1:5000" or "[::1]:5000" into @buf. */
void lb_endpoint_format(const struct lb_flow *w, char *buf, size_t len);

/*
 * lb_server_socket_open - a socket of @socktype (SOCK_DGRAM, SOCK_STREAM)
 * bound to the configured address and port, in w->srv_fd; sets srv_addr
 * and port. Returns 0, or -errno with a one-line message in @err.
 */
int lb_server_socket_open(struct lb_flow *w, int socktype, char *err, size_t errlen);

/*
 * lb_client_socket_open - a socket of @socktype connected to the server, with
 * the receive timeout set, in w->cli_fd; sets cli_addr. Returns 0, or -errno
 * with a one-line message in w->errmsg.
 */
int lb_client_socket_open(struct lb_flow *w, int socktype);

#endif
