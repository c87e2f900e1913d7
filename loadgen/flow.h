/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: what the workload (workload.c, 1 to LB_FLOWS_MAX
 * flows) asks of one flow: the table of workload kinds (types.c), a flow's
 * life (flow.c) and its processes (procs.c). Not for src/: the API is
 * loadgen.h.
 */
#ifndef LB_FLOW_H
#define LB_FLOW_H

#include <stdint.h>
#include <sys/types.h>

#include "loadgen.h"

struct lb_flow;
struct lb_topo;
struct lb_workload_type;

/* Every workload kind, in the order of lb_workload_names[], NULL-terminated. */
extern const struct lb_workload_type *const lb_workload_types[];

/* lb_workload_type_find - the kind named @name. Returns it, or NULL. */
const struct lb_workload_type *lb_workload_type_find(const char *name);

/*
 * lb_flow_create - flow @index of a workload: validate @cfg (already this
 * flow's address, port and CPUs), open its server socket, in @topo's
 * namespace when not NULL. Returns 0 and sets *@out, or -errno with a
 * one-line message in @err.
 */
int lb_flow_create(const struct lb_workload_config *cfg, int index, const struct lb_topo *topo,
		   struct lb_flow **out, char *err, size_t errlen);

/*
 * lb_flow_spawn - fork the flow's processes; its generator waits at the
 * start gate in w->gate, when there is one, before its first request.
 * Returns 0, or -errno with the message in the flow's errmsg (nothing of
 * the flow left running).
 */
int lb_flow_spawn(struct lb_flow *w);

/*
 * lb_flow_started - wait for the spawned flow's first operation until
 * @end_us (lb_now_us()); @timeout_ms is the wait's length, for the message.
 * Returns 0, or -errno with the message in the flow's errmsg (the flow is
 * stopped).
 */
int lb_flow_started(struct lb_flow *w, int64_t end_us, int timeout_ms);

/* lb_flow_ops - completed operations since the last start (udp-stream: datagrams received). */
uint64_t lb_flow_ops(const struct lb_flow *w);

/* lb_flow_pids - the running processes' pids (server first) into @pids. Returns how many. */
int lb_flow_pids(const struct lb_flow *w, pid_t *pids, int max);

/*
 * lb_flow_stop - stop and reap the flow's processes, fill @st (may be NULL).
 * Returns 0, or -EIO when a process died abnormally or reported an error
 * (message in the flow's errmsg). Safe to call when not started.
 */
int lb_flow_stop(struct lb_flow *w, struct lb_workload_stats *st);

/*
 * lb_flow_describe - the flow as lb_workload_describe() says it, e.g.
 * "udp-rr 127.0.0.1:40213 msg=64B syscalls/op=2+4 engine=syscall server@cpu1
 * client@cpu1". Returns @buf.
 */
const char *lb_flow_describe(const struct lb_flow *w, char *buf, size_t len);

/* lb_flow_destroy - stop if running, close the sockets, free. NULL is fine. */
void lb_flow_destroy(struct lb_flow *w);

/* lb_client_release - in the parent: drop its copy of the generator's socket and the rest. */
void lb_client_release(struct lb_flow *w);

/* lb_now_us - CLOCK_MONOTONIC in microseconds. */
int64_t lb_now_us(void);

#endif
