/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload server's LTTng-UST markers: at the places of the USDT markers
 * (usdt.h), a call through a pointer that is NULL unless the server loaded
 * the LTTng-UST provider (ust_provider.c: a run with an lttng-ust probe set
 * asks for it). Unloaded, a marker is the test of that pointer.
 */
#ifndef LB_LOADGEN_UST_H
#define LB_LOADGEN_UST_H

#include <stddef.h>
#include <stdint.h>

typedef void (*lb_ust_fn)(uint64_t seq, int64_t len);

/* The provider's tracepoint functions, set by lb_ust_load(); NULL until then. */
extern lb_ust_fn lb_ust_request_fn;
extern lb_ust_fn lb_ust_reply_fn;

#define LB_UST2(name, a, b)							\
	do {									\
		lb_ust_fn f_ = lb_ust_##name##_fn;				\
		if (__builtin_expect(f_ != NULL, 0))				\
			f_((uint64_t)(a), (int64_t)(b));			\
	} while (0)

/*
 * lb_ust_load - load the provider shared object at @path (dlopen: its
 * liblttng-ust registers this process with lttng-sessiond) and take its
 * tracepoint functions. Returns 0, or -errno with the loader's message in
 * @err (-ENOSYS when this loadbench was built without liblttng-ust).
 */
int lb_ust_load(const char *path, char *err, size_t len);

#endif
