// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LTTng's kernel event names checked before a run. LTTng names tracepoints
 * without a system and often differently from ftrace (net_if_receive_skb
 * for net:netif_receive_skb); enabling a name it does not know succeeds and
 * records nothing, so every name is looked up in the lists of the kernel
 * domain first and a wrong one is reported with the closest names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lttng.h"
#include "util.h"

#define LB_NEAR_MAX 3

/* The (up to 3) names of @list closest to @name, ", "-joined into @buf. */
static void near_names(const char *name, const char *const *list, size_t n, char *buf,
		       size_t len)
{
	int best[LB_NEAR_MAX], dist[LB_NEAR_MAX];
	int limit = (int)strlen(name) / 3 + 2, nbest = 0;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int d = lb_edit_distance(name, list[i]), pos = 0;
		bool dup = false;

		for (int k = 0; k < nbest; k++)
			dup |= !strcmp(list[best[k]], list[i]);
		if (d > limit || dup)
			continue;
		while (pos < nbest && dist[pos] <= d)
			pos++;
		if (pos == LB_NEAR_MAX)
			continue;
		if (nbest < LB_NEAR_MAX)
			nbest++;
		for (int k = nbest - 1; k > pos; k--) {
			best[k] = best[k - 1];
			dist[k] = dist[k - 1];
		}
		best[pos] = (int)i;
		dist[pos] = d;
	}
	for (int k = 0; k < nbest && off < len; k++)
		off += snprintf(buf + off, len - off, "%s%s", k ? ", " : "", list[best[k]]);
}

static bool listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

int lb_lttng_check_names(const struct lb_probeset *ps, const char *const *tps, size_t ntps,
			 const char *const *sys, size_t nsys, char *err, size_t len)
{
	char near[256], joined[160];

	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];

		switch (p->kind) {
		case LB_PROBE_TRACEPOINT:
			if (p->system) {
				/* net:netif_receive_skb is LTTng's net_if_receive_skb: compare joined. */
				snprintf(joined, sizeof(joined), "%s_%s", p->system,
					 strcmp(p->event, "*") ? p->event : "");
				near_names(joined, tps, ntps, near, sizeof(near));
				snprintf(err, len, "%s:%d: tracepoint %s:%s is an ftrace name: LTTng "
					 "names kernel tracepoints without a system (tracepoint "
					 "net_if_receive_skb)%s%s", ps->path, p->line, p->system,
					 p->event, near[0] ? "; similar LTTng events: " : "", near);
				return -EINVAL;
			}
			if (listed(p->event, tps, ntps))
				break;
			near_names(p->event, tps, ntps, near, sizeof(near));
			snprintf(err, len, "%s:%d: unknown LTTng kernel tracepoint %s: the kernel "
				 "domain lists no such event (lttng list -k)%s%s", ps->path, p->line,
				 p->event, near[0] ? "; similar: " : "", near);
			return -ENOENT;
		case LB_PROBE_SYSCALL:
			if (!strcmp(p->event, "all") || listed(p->event, sys, nsys))
				break;
			near_names(p->event, sys, nsys, near, sizeof(near));
			snprintf(err, len, "%s:%d: unknown syscall %s: LTTng's kernel domain lists "
				 "no such system call (lttng list -k --syscall)%s%s", ps->path,
				 p->line, p->event, near[0] ? "; similar: " : "", near);
			return -ENOENT;
		case LB_PROBE_KPROBE:
		case LB_PROBE_KRETPROBE:
			break;	/* checked in kallsyms */
		default:
			snprintf(err, len, "%s:%d: the lttng tracer records tracepoints, syscalls, "
				 "kprobes and kretprobes here, not %s lines; use tracer ftrace for "
				 "them", ps->path, p->line, lb_probe_kind_name(p->kind));
			return -EOPNOTSUPP;
		}
	}
	return 0;
}
