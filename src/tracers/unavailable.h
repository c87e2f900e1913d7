/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why a probe set cannot run here, as a code beside the message: the place
 * that writes the message (a tracer's available() or create() path, or a
 * helper of theirs) writes it with lb_unavailable_say(), which keeps the code
 * for lb_tracer_create() to hand out. A run's one-line warning groups the
 * sets it skips by code (src/cli/skipped.c); the message, worded as its
 * writer likes, stays the full reason.
 */
#ifndef LB_UNAVAILABLE_H
#define LB_UNAVAILABLE_H

#include <stddef.h>

enum lb_unavailable {
	LB_UNAVAIL_OTHER,		/* none of these: the message says it */
	LB_UNAVAIL_ROOT,		/* not root, and the tracer needs it */
	LB_UNAVAIL_KPROBES,		/* no kprobe_events (CONFIG_KPROBES) */
	LB_UNAVAIL_UPROBES,		/* no uprobe_events (CONFIG_UPROBE_EVENTS) */
	LB_UNAVAIL_LTTNG_MODULES,	/* LTTng's kernel tracer is not loaded or cannot be */
	LB_UNAVAIL_LTTNG_SESSIOND,	/* no lttng-sessiond to talk to */
	LB_UNAVAIL_LTTNG_CTL,		/* built without liblttng-ctl */
	LB_UNAVAIL_BABELTRACE,		/* no babeltrace2 ctf plugin to read the trace */
	LB_UNAVAIL_MODULES,		/* a kernel without loadable modules (SystemTap) */
	LB_UNAVAIL_STAPRUN,		/* no staprun */
	LB_UNAVAIL_STAP,		/* no stap to build the module */
	LB_UNAVAIL_KBUILD,		/* no build tree (headers) for the running kernel */
	LB_UNAVAIL_KSYMS,		/* stap-build had no kernel symbols for kprobes */
	LB_UNAVAIL_STAP_MODULE,		/* stap-build did not build the set's module */
	LB_UNAVAIL_LIBBPF,		/* built without libbpf */
	LB_UNAVAIL_BPF_REFUSED,		/* the kernel refuses BPF programs of the type */
	LB_UNAVAIL_PERF_EVENTS,		/* no perf events (CONFIG_PERF_EVENTS) */
	LB_UNAVAIL_PERF_OPEN,		/* perf_event_open(2) fails */
	LB_UNAVAIL_PTRACE,		/* ptrace attach is blocked */
	LB_UNAVAIL_TRACEFS,		/* no tracefs, and it cannot be mounted */
	LB_UNAVAIL_TRACEPOINT,		/* a tracepoint of the set is not in this kernel */
	LB_UNAVAIL_TOOL,		/* a command tracer's tool is not installed */
	LB_UNAVAIL_LTTNG_UST,		/* built without liblttng-ust (lttng-ust) */
	LB_UNAVAIL_COUNT
};

/*
 * lb_unavailable_brief - @code in a few words ("needs root", "no kprobes"),
 * as a run's warning says it. Returns NULL for LB_UNAVAIL_OTHER and a value
 * out of range: then only the message says why.
 */
const char *lb_unavailable_brief(enum lb_unavailable code);

/*
 * lb_unavailable_find - the code whose brief is exactly @brief (how a
 * stap-build .why file keeps it). Returns LB_UNAVAIL_OTHER when none is.
 */
enum lb_unavailable lb_unavailable_find(const char *brief);

/*
 * lb_unavailable_say - write the message @fmt into @buf (as snprintf) and
 * keep @code as why, for this thread's next lb_unavailable_take(). Returns
 * nothing: the caller returns its -errno as before.
 */
void lb_unavailable_say(enum lb_unavailable code, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * lb_unavailable_take - the code of the last message this thread wrote with
 * lb_unavailable_say() since the last take, and forget it. Returns
 * LB_UNAVAIL_OTHER when none was written.
 */
enum lb_unavailable lb_unavailable_take(void);

#endif
