/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The workload server's USDT markers (SystemTap's <sys/sdt.h>), provider
 * "loadbench": request (a request received: its number and its length) and
 * reply (the reply sent: the request's number and the bytes sent), in every
 * request/response server (udp-rr, tcp-rr), both engines. Each has a
 * semaphore (in section .probes, named in the marker's note): the kernel
 * raises it while a uprobe with a reference counter is on the marker, and
 * the arguments are only set up while it is above 0. Untraced, a marker is
 * one nop and the test of a counter in memory. Without sys/sdt.h
 * (configure --without-usdt) the markers are nothing at all.
 */
#ifndef LB_LOADGEN_USDT_H
#define LB_LOADGEN_USDT_H

#ifdef HAVE_SDT
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

/* The semaphores, defined in procs.c: the kernel writes them, so read them every time. */
extern volatile unsigned short loadbench_request_semaphore;
extern volatile unsigned short loadbench_reply_semaphore;

#define LB_USDT2(name, a, b)							\
	do {									\
		if (__builtin_expect(loadbench_##name##_semaphore, 0))		\
			STAP_PROBE2(loadbench, name, a, b);			\
	} while (0)
#else
#define LB_USDT2(name, a, b) do { } while (0)
#endif

#endif
