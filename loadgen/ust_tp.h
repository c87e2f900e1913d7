/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload server's LTTng-UST tracepoints, provider "loadbench":
 * request (a request received: its number and its length) and reply (the
 * reply sent: the request's number and the bytes sent), at the places of
 * the USDT markers of the same names (usdt.h). Read by ust_provider.c only,
 * which builds the provider shared object the server loads (ust.c).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER loadbench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "ust_tp.h"

#if !defined(LB_LOADGEN_UST_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LB_LOADGEN_UST_TP_H

#include <stdint.h>

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(loadbench, request,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int64_t, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int64_t, len, len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(loadbench, reply,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int64_t, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int64_t, len, len)
	)
)

#endif

#include <lttng/tracepoint-event.h>
