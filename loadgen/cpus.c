// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: CPU placement. The CPUs this process may use, the check of a
 * configured CPU against them, and the rule that spreads flows over them.
 *
 * This file must not include any tracing header.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "cpus.h"
#include "loadgen.h"
#include "util.h"

/* The affinity mask of this process, CPU_ALLOC'd; its byte size in *@size. NULL + errno. */
cpu_set_t *lb_affinity_get(size_t *size)
{
	int ncpu;

	for (ncpu = 1024; ncpu <= (1 << 22); ncpu *= 2) {
		cpu_set_t *set = CPU_ALLOC(ncpu);
		size_t sz = CPU_ALLOC_SIZE(ncpu);

		if (!set)
			return NULL;
		if (sched_getaffinity(0, sz, set) == 0) {
			*size = sz;
			return set;
		}
		CPU_FREE(set);
		if (errno != EINVAL)
			return NULL;
	}
	errno = EINVAL;
	return NULL;
}

/* Returns 0 when @cpu is -1 or a CPU in @allowed, else -EINVAL with a message in @err. */
int lb_cpu_check(const char *who, const char *field, int cpu, const cpu_set_t *allowed, size_t size,
		 char *err, size_t errlen)
{
	long nconf = sysconf(_SC_NPROCESSORS_CONF);
	char list[128];

	if (cpu == -1)
		return 0;
	lb_cpus_format(allowed, size, list, sizeof(list));
	if (cpu < -1) {
		lb_seterr(err, errlen,
			  "%s CPU %d is not a CPU number: choose one of %s with "
			  "%s, or -1 for unpinned",
			  who, cpu, list, field);
		return -EINVAL;
	}
	if (cpu >= nconf || (size_t)cpu >= size * 8) {
		lb_seterr(err, errlen,
			  "%s CPU %d does not exist (this machine has CPUs 0-%ld): "
			  "choose one of %s with %s, or -1 for unpinned",
			  who, cpu, nconf - 1, list, field);
		return -EINVAL;
	}
	if (!CPU_ISSET_S(cpu, size, allowed)) {
		lb_seterr(err, errlen,
			  "%s CPU %d is not in this process's allowed CPUs (%s; see "
			  "taskset or the cgroup cpuset): choose one of them with %s",
			  who, cpu, list, field);
		return -EINVAL;
	}
	return 0;
}

/* The CPUs this process may run on, ascending, into @cpus. Returns how many, or -errno. */
int lb_cpus_allowed(int *cpus, int max)
{
	cpu_set_t *set;
	size_t size;
	int cpu, n = 0;

	set = lb_affinity_get(&size);
	if (!set)
		return -errno;
	for (cpu = 0; (size_t)cpu < size * 8 && n < max; cpu++)
		if (CPU_ISSET_S(cpu, size, set))
			cpus[n++] = cpu;
	CPU_FREE(set);
	return n;
}

/* Returns the CPU of flow @flow: the @flow-th allowed CPU after @base, cyclically; or -1. */
int lb_flow_cpu(int base, int flow, const int *allowed, int nallowed)
{
	int i;

	if (base < 0 || flow < 0)
		return -1;
	for (i = 0; i < nallowed; i++)
		if (allowed[i] == base)
			return allowed[(i + flow) % nallowed];
	return -1;
}
