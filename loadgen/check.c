// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: validation of a workload configuration, before anything is
 * opened: the workload-wide settings (flows, topology, port range), each
 * flow's (address, sizes, window, bound, CPUs) and the server engine.
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpus.h"
#include "flow.h"
#include "naming.h"
#include "util.h"
#include "workload.h"

/* Checks what concerns the flows and the topology. Returns 0 or -EINVAL with @err. */
int lb_workload_check(const struct lb_workload_config *cfg, char *err, size_t errlen)
{
	const struct lb_workload_traits *tr = lb_workload_traits(cfg->name);
	const struct lb_workload_naming *n = cfg->naming;

	if (cfg->flows < 0 || cfg->flows > LB_FLOWS_MAX) {
		lb_seterr(err, errlen, "%d flows is out of range: choose 1..%d with %s", cfg->flows,
			  LB_FLOWS_MAX, lb_wf(n, LB_WF_FLOWS));
		return -EINVAL;
	}
	if (cfg->topology != LB_TOPO_LO && cfg->topology != LB_TOPO_VETH) {
		lb_seterr(err, errlen, "unknown topology %d: choose lo or veth",
			  (int)cfg->topology);
		return -EINVAL;
	}
	if (cfg->topology == LB_TOPO_VETH && tr && !tr->veth) {
		lb_seterr(err, errlen, "%s sends on lo, not into a veth namespace: use %s lo",
			  tr->name, lb_wf(n, LB_WF_TOPOLOGY));
		return -EINVAL;
	}
	if (cfg->topology == LB_TOPO_VETH && cfg->addr && strcmp(cfg->addr, "127.0.0.1")) {
		lb_seterr(err, errlen,
			  "%s %s applies to %s lo; with veth the servers listen "
			  "on 198.18.0.0/15 addresses loadbench assigns: drop %s",
			  lb_wf(n, LB_WF_ADDR), cfg->addr, lb_wf(n, LB_WF_TOPOLOGY),
			  lb_wf(n, LB_WF_ADDR));
		return -EINVAL;
	}
	if (cfg->port && (int)cfg->port + (cfg->flows ? cfg->flows : 1) - 1 > 65535) {
		lb_seterr(err, errlen,
			  "flows use ports %u and up, one each, past 65535: choose a "
			  "lower %s, or 0 for ephemeral ports",
			  (unsigned int)cfg->port, lb_wf(n, LB_WF_PORT));
		return -EINVAL;
	}
	return 0;
}

/*
 * Validates @cfg (addr, sizes, CPUs, bound); on success also prepares @w's masks.
 * Returns 0 or -errno.
 */
int lb_config_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen)
{
	const int cpu[LB_NCHILD] = {cfg->server_cpu, cfg->client_cpu};
	const enum lb_workload_field field[LB_NCHILD] = {LB_WF_SERVER_CPU, LB_WF_CLIENT_CPU};
	const struct lb_workload_naming *n = cfg->naming;
	const char *addr = lb_wf(n, LB_WF_ADDR);
	struct in6_addr a6;
	struct in_addr a4;
	cpu_set_t *allowed = NULL;
	size_t size = 0;
	int i, ret, maxcpu;

	if (!cfg->addr || !*cfg->addr || strlen(cfg->addr) >= sizeof(w->addr)) {
		lb_seterr(err, errlen,
			  "no valid server address given: use a loopback literal "
			  "such as %s 127.0.0.1 or ::1",
			  addr);
		return -EINVAL;
	}
	if (inet_pton(AF_INET, cfg->addr, &a4) == 1) {
		/* In our own namespace (veth topology) the address is one we assigned. */
		if ((ntohl(a4.s_addr) >> 24) != 127 && w->netns_fd < 0) {
			lb_seterr(err, errlen,
				  "address %s is not loopback: the workload runs on "
				  "127.0.0.0/8 or ::1 only; use %s 127.0.0.1",
				  cfg->addr, addr);
			return -EADDRNOTAVAIL;
		}
	} else if (inet_pton(AF_INET6, cfg->addr, &a6) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK(&a6)) {
			lb_seterr(err, errlen,
				  "address %s is not loopback: the workload runs on "
				  "127.0.0.0/8 or ::1 only; use %s ::1",
				  cfg->addr, addr);
			return -EADDRNOTAVAIL;
		}
	} else {
		lb_seterr(err, errlen,
			  "'%s' is not an IPv4 or IPv6 address literal (host names "
			  "are not resolved): use %s 127.0.0.1 or ::1",
			  cfg->addr, addr);
		return -EINVAL;
	}
	if (cfg->msg_size < LB_MSG_MIN || cfg->msg_size > LB_MSG_MAX) {
		lb_seterr(err, errlen,
			  "message size %zu is out of range: choose %d..%d bytes "
			  "with %s",
			  cfg->msg_size, LB_MSG_MIN, LB_MSG_MAX, lb_wf(n, LB_WF_MSG_SIZE));
		return -EINVAL;
	}
	if (cfg->syscalls_per_op < 0 || cfg->syscalls_per_op > LB_SYSCALLS_MAX) {
		lb_seterr(err, errlen,
			  "%d extra syscalls per operation is out of range: choose "
			  "0..%d with %s",
			  cfg->syscalls_per_op, LB_SYSCALLS_MAX, lb_wf(n, LB_WF_SYSCALLS_PER_OP));
		return -EINVAL;
	}
	if (cfg->window < 0 || cfg->window > LB_WINDOW_MAX ||
	    (cfg->window > 1 && !w->type->traits.window)) {
		lb_seterr(err, errlen,
			  "a window of %d outstanding requests is not possible for %s: "
			  "choose 1..%d for icmp-flood, 1 for the closed-loop workloads",
			  cfg->window, w->type->traits.name, LB_WINDOW_MAX);
		return -EINVAL;
	}
	if (cfg->rate < 0 || cfg->rate > LB_RATE_MAX || (cfg->rate && !w->type->traits.rate)) {
		lb_seterr(err, errlen,
			  "an open loop at %d requests per second is not possible for %s: "
			  "choose 1..%d for udp-rr, tcp-rr or icmp-flood, or 0 for a closed loop "
			  "(%s)", cfg->rate, w->type->traits.name, LB_RATE_MAX,
			  lb_wf(n, LB_WF_RATE));
		return -EINVAL;
	}
	if (cfg->rate && cfg->window > 1) {
		lb_seterr(err, errlen,
			  "%s and %s: an open loop sends on its schedule, not to keep a window "
			  "of echoes outstanding: drop one", lb_wf(n, LB_WF_RATE),
			  lb_wf(n, LB_WF_WINDOW));
		return -EINVAL;
	}
	if (!(cfg->max_seconds > 0) || !isfinite(cfg->max_seconds) ||
	    cfg->max_seconds > LB_MAX_SECONDS_MAX) {
		lb_seterr(err, errlen,
			  "the safety bound max_seconds (%g) must be a positive "
			  "number of seconds up to %g: pass a longer one than the run",
			  cfg->max_seconds, LB_MAX_SECONDS_MAX);
		return -EINVAL;
	}

	allowed = lb_affinity_get(&size);
	if (!allowed) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot read this process's CPU affinity: %s: run without "
			  "pinning (CPU -1)",
			  strerror(errno));
		goto out;
	}
	for (i = 0; i < LB_NCHILD; i++) {
		ret = lb_cpu_check(i == LB_SERVER ? "server" : "client", lb_wf(n, field[i]), cpu[i],
				   allowed, size, err, errlen);
		if (ret < 0)
			goto out;
	}
	/* Masks for sched_setaffinity() in the children, sized for the larger CPU number. */
	maxcpu = cpu[LB_SERVER] > cpu[LB_CLIENT] ? cpu[LB_SERVER] : cpu[LB_CLIENT];
	w->cpus_size = CPU_ALLOC_SIZE(maxcpu + 1);
	for (i = 0; i < LB_NCHILD; i++) {
		if (cpu[i] < 0)
			continue;
		w->cpus[i] = CPU_ALLOC(maxcpu + 1);
		if (!w->cpus[i]) {
			ret = -ENOMEM;
			lb_seterr(err, errlen, "out of memory: free memory and retry");
			goto out;
		}
		CPU_ZERO_S(w->cpus_size, w->cpus[i]);
		CPU_SET_S(cpu[i], w->cpus_size, w->cpus[i]);
	}
	ret = 0;
out:
	if (allowed)
		CPU_FREE(allowed);
	return ret;
}

/* Validates @cfg's engine; for uring, asks the kernel what it allows. Returns 0 or -errno. */
int lb_engine_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen)
{
	const char *name = cfg->engine ? cfg->engine : "syscall";
	char names[128] = "";
	size_t i, off = 0;

	w->engine = lb_engine_kind_of(name);
	if (w->engine < 0) {
		lb_seterr(err, errlen, "unknown engine '%s': choose syscall or uring", name);
		return -EINVAL;
	}
	w->cfg.engine = lb_engine_names[w->engine];
	if (w->engine == LB_ENGINE_SYSCALL)
		return 0;
	if (!w->type->traits.engine) {
		for (i = 0; lb_workload_types[i]; i++)
			if (lb_workload_types[i]->traits.engine && off < sizeof(names))
				off += snprintf(names + off, sizeof(names) - off, "%s%s",
						off ? ", " : "", lb_workload_types[i]->traits.name);
		lb_seterr(err, errlen,
			  "engine %s does not apply to %s (it has no server loop of its "
			  "own): use %s syscall, or one of %s",
			  name, w->type->traits.name, lb_wf(cfg->naming, LB_WF_ENGINE), names);
		return -EINVAL;
	}
	return lb_uring_probe(&w->uring_mode, lb_wf(cfg->naming, LB_WF_ENGINE), err, errlen);
}
