// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What dead runs left: each layer walks its own kind (loadgen its veth
 * pairs, each tracer its instances or sessions, then the dynamic events);
 * this file takes the dead runs' locks around them.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/types.h>

#include "cleanup.h"
#include "loadgen.h"
#include "owner.h"
#include "tracer.h"

/* Every kind, in the order that frees each before what it holds busy. */
static int clean_all(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	int n = lb_loadgen_cleanup(o, remove, report, arg), t;

	t = lb_tracers_cleanup(o, remove, report, arg);
	return t < 0 ? t : n + t;
}

int lb_cleanup_pid(pid_t pid, bool remove, lb_cleanup_report_fn report, void *arg)
{
	struct lb_owners *o;
	int n;

	if (lb_owners_of(pid, &o))
		return -ENOMEM;
	n = clean_all(o, remove, report, arg);
	lb_owners_free(o, false);
	return n;
}

int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg)
{
	struct lb_owners *o;
	int n;

	if (lb_owners_scan(&o))
		return -ENOMEM;
	n = clean_all(o, remove, report, arg);
	lb_owners_free(o, remove && n >= 0);
	return n;
}
