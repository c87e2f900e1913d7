// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: how messages name the configuration (see naming.h).
 *
 * This file must not include any tracing header.
 */
#include <stddef.h>

#include "loadgen.h"
#include "naming.h"

/* Indexed by enum lb_workload_field: keep the two in step. */
static const char *const lb_field_names[LB_WF_COUNT] = {
    [LB_WF_NAME] = "name",
    [LB_WF_ADDR] = "addr",
    [LB_WF_PORT] = "port",
    [LB_WF_MSG_SIZE] = "msg_size",
    [LB_WF_SYSCALLS_PER_OP] = "syscalls_per_op",
    [LB_WF_SERVER_CPU] = "server_cpu",
    [LB_WF_CLIENT_CPU] = "client_cpu",
    [LB_WF_MAX_SECONDS] = "max_seconds",
    [LB_WF_WINDOW] = "window",
    [LB_WF_FLOWS] = "flows",
    [LB_WF_TOPOLOGY] = "topology",
    [LB_WF_ENGINE] = "engine",
    [LB_WF_RATE] = "rate",
};

/* Returns @f's name in struct lb_workload_config, or "?". */
const char *lb_workload_field_name(enum lb_workload_field f)
{
	return (unsigned int)f < LB_WF_COUNT ? lb_field_names[f] : "?";
}

/* Returns what @n calls @f, else the field's own name. */
const char *lb_wf(const struct lb_workload_naming *n, enum lb_workload_field f)
{
	if (n && (unsigned int)f < LB_WF_COUNT && n->field[f])
		return n->field[f];
	return lb_workload_field_name(f);
}

/* Returns what @n calls no pinning, else the fields' way of saying it. */
const char *lb_wf_unpinned(const struct lb_workload_naming *n)
{
	return n && n->unpinned ? n->unpinned : "server_cpu and client_cpu -1";
}
