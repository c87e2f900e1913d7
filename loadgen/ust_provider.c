// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LTTng-UST provider the workload server loads when a run has an
 * lttng-ust probe set (loadbench-ust.so, linked with liblttng-ust): the
 * probes of ust_tp.h's tracepoints, their definitions, and one function per
 * tracepoint that the server's markers call through a pointer (ust.c). So
 * neither loadbench nor a server of a run without such a set ever loads
 * liblttng-ust (its constructor registers the process with lttng-sessiond
 * and starts two listener threads). Loaded, an untraced marker is that
 * call and the test of the tracepoint's state.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "ust_tp.h"

void lb_ust_request(uint64_t seq, int64_t len);
void lb_ust_reply(uint64_t seq, int64_t len);

/* lb_ust_request - the loadbench:request tracepoint; returns nothing. */
void lb_ust_request(uint64_t seq, int64_t len)
{
	lttng_ust_tracepoint(loadbench, request, seq, len);
}

/* lb_ust_reply - the loadbench:reply tracepoint; returns nothing. */
void lb_ust_reply(uint64_t seq, int64_t len)
{
	lttng_ust_tracepoint(loadbench, reply, seq, len);
}
