// SPDX-License-Identifier: GPL-2.0-or-later
/* Why a probe set cannot run here: the codes' briefs, and the code of the last message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "unavailable.h"

/* A code's few words: what a run's "skipping" warning says after the sets. */
static const char *const briefs[LB_UNAVAIL_COUNT] = {
	[LB_UNAVAIL_OTHER] = NULL,
	[LB_UNAVAIL_ROOT] = "needs root",
	[LB_UNAVAIL_KPROBES] = "no kprobes",
	[LB_UNAVAIL_UPROBES] = "no uprobes",
	[LB_UNAVAIL_LTTNG_MODULES] = "no lttng-modules",
	[LB_UNAVAIL_LTTNG_SESSIOND] = "no lttng-sessiond",
	[LB_UNAVAIL_LTTNG_CTL] = "no liblttng-ctl",
	[LB_UNAVAIL_BABELTRACE] = "no babeltrace2 ctf plugin",
	[LB_UNAVAIL_MODULES] = "no loadable modules",
	[LB_UNAVAIL_STAPRUN] = "no staprun",
	[LB_UNAVAIL_STAP] = "no stap",
	[LB_UNAVAIL_KBUILD] = "no kernel headers",
	[LB_UNAVAIL_KSYMS] = "no kernel symbols to build stap kprobes",
	[LB_UNAVAIL_STAP_MODULE] = "stap module not built",
	[LB_UNAVAIL_LIBBPF] = "no libbpf",
	[LB_UNAVAIL_BPF_REFUSED] = "BPF refused",
	[LB_UNAVAIL_PERF_EVENTS] = "no perf events",
	[LB_UNAVAIL_PERF_OPEN] = "perf_event_open fails",
	[LB_UNAVAIL_PTRACE] = "ptrace blocked",
	[LB_UNAVAIL_TRACEFS] = "no tracefs",
	[LB_UNAVAIL_TRACEPOINT] = "unknown tracepoint",
	[LB_UNAVAIL_TOOL] = "tool not installed",
	[LB_UNAVAIL_LTTNG_UST] = "no liblttng-ust",
};

/* Like errno: the code of the message this thread wrote last; OTHER once taken. */
static _Thread_local enum lb_unavailable last;

const char *lb_unavailable_brief(enum lb_unavailable code)
{
	if ((unsigned int)code >= LB_UNAVAIL_COUNT)
		return NULL;
	return briefs[code];
}

enum lb_unavailable lb_unavailable_find(const char *brief)
{
	for (int i = 0; i < LB_UNAVAIL_COUNT; i++)
		if (briefs[i] && !strcmp(briefs[i], brief))
			return (enum lb_unavailable)i;
	return LB_UNAVAIL_OTHER;
}

void lb_unavailable_say(enum lb_unavailable code, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	last = code;
}

enum lb_unavailable lb_unavailable_take(void)
{
	enum lb_unavailable code = last;

	last = LB_UNAVAIL_OTHER;
	return code;
}
