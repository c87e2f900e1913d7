/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: CPU placement (cpus.c); lb_flow_cpu() is in loadgen.h.
 */
#ifndef LB_CPUS_H
#define LB_CPUS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stddef.h>

#define LB_CPUS_MAX 4096 /* most CPUs lb_cpus_allowed() is asked for */

/*
 * lb_affinity_get - the affinity mask of this process, CPU_ALLOC'd (free
 * with CPU_FREE); its byte size in *@size. Returns it, or NULL with errno.
 */
cpu_set_t *lb_affinity_get(size_t *size);


/*
 * lb_cpu_check - is the @who ("server", "client") CPU @cpu -1 or one of
 * @allowed (@size bytes)? @field is how messages name its setting
 * ("server_cpu", "--cpus"). Returns 0, or -EINVAL with a message in @err.
 */
int lb_cpu_check(const char *who, const char *field, int cpu, const cpu_set_t *allowed, size_t size,
		 char *err, size_t errlen);

/* lb_cpus_allowed - the CPUs this process may run on, ascending. Returns how many, or -errno. */
int lb_cpus_allowed(int *cpus, int max);

#endif
