/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: how a message names a configuration field
 * (naming.c). Messages format the name with "%s" where they used to say
 * a command-line option, so the library says "port" and loadbench's
 * command line "--port". See struct lb_workload_naming in loadgen.h.
 */
#ifndef LB_NAMING_H
#define LB_NAMING_H

#include "loadgen.h"

/* lb_wf - what @n calls field @f ("--port"; "port" when @n is NULL). Returns it, never NULL. */
const char *lb_wf(const struct lb_workload_naming *n, enum lb_workload_field f);

/* lb_wf_unpinned - what @n calls no pinning ("--cpus none"). Returns it, never NULL. */
const char *lb_wf_unpinned(const struct lb_workload_naming *n);

#endif
