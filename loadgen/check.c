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
#include <stdbool.h>
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
		char q[LB_STR_SHORT_BUF];

		lb_seterr(err, errlen,
			  "%s %s applies to %s lo; with veth the servers listen "
			  "on 198.18.0.0/15 addresses loadbench assigns: drop %s",
			  lb_wf(n, LB_WF_ADDR), lb_str_short(cfg->addr, q, sizeof(q)),
			  lb_wf(n, LB_WF_TOPOLOGY), lb_wf(n, LB_WF_ADDR));
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
 * What @cfg says of one flow of @type that needs nothing opened: the address
 * (a loopback literal; in a namespace of ours, @in_netns, one we assigned),
 * the sizes, the window, the rate and the bound. Returns 0 or -errno with @err.
 */
static int lb_config_values_check(const struct lb_workload_config *cfg,
				  const struct lb_workload_type *type, bool in_netns, char *err,
				  size_t errlen)
{
	const struct lb_workload_naming *n = cfg->naming;
	const char *addr = lb_wf(n, LB_WF_ADDR);
	char q[LB_STR_SHORT_BUF];
	struct in6_addr a6;
	struct in_addr a4;

	/* What inet_pton() takes fits INET6_ADDRSTRLEN. */
	if (!cfg->addr) {
		lb_seterr(err, errlen,
			  "no valid server address given: use a loopback literal "
			  "such as %s 127.0.0.1 or ::1",
			  addr);
		return -EINVAL;
	}
	if (inet_pton(AF_INET, cfg->addr, &a4) == 1) {
		/* In our own namespace (veth topology) the address is one we assigned. */
		if ((ntohl(a4.s_addr) >> 24) != 127 && !in_netns) {
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
			  lb_str_short(cfg->addr, q, sizeof(q)), addr);
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
	    (cfg->window > 1 && !type->traits.window)) {
		lb_seterr(err, errlen,
			  "a window of %d outstanding requests is not possible for %s: "
			  "choose 1..%d for icmp-flood, 1 for the closed-loop workloads",
			  cfg->window, type->traits.name, LB_WINDOW_MAX);
		return -EINVAL;
	}
	if (cfg->rate < 0 || cfg->rate > LB_RATE_MAX || (cfg->rate && !type->traits.rate)) {
		lb_seterr(err, errlen,
			  "an open loop at %d requests per second is not possible for %s: "
			  "choose 1..%d for udp-rr, tcp-rr or icmp-flood, or 0 for a closed loop "
			  "(%s)", cfg->rate, type->traits.name, LB_RATE_MAX,
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
	return 0;
}

/*
 * @cfg's engine for a workload of @type, by name: "syscall", or "uring" for
 * a type with a server loop of its own. Returns its kind, or -EINVAL with @err.
 */
static int lb_engine_name_check(const struct lb_workload_config *cfg,
				const struct lb_workload_type *type, char *err, size_t errlen)
{
	const char *name = cfg->engine ? cfg->engine : "syscall";
	char names[128] = "", q[LB_STR_SHORT_BUF];
	int kind = lb_engine_kind_of(name);
	size_t i, off = 0;

	if (kind < 0) {
		lb_seterr(err, errlen, "unknown engine '%s': choose syscall or uring",
			  lb_str_short(name, q, sizeof(q)));
		return -EINVAL;
	}
	if (kind != LB_ENGINE_SYSCALL && !type->traits.engine) {
		for (i = 0; lb_workload_types[i]; i++)
			if (lb_workload_types[i]->traits.engine && off < sizeof(names))
				off += snprintf(names + off, sizeof(names) - off, "%s%s",
						off ? ", " : "", lb_workload_types[i]->traits.name);
		lb_seterr(err, errlen,
			  "engine %s does not apply to %s (it has no server loop of its "
			  "own): use %s syscall, or one of %s",
			  name, type->traits.name, lb_wf(cfg->naming, LB_WF_ENGINE), names);
		return -EINVAL;
	}
	return kind;
}

/* Both CPUs of @cfg in this process's affinity (-1: unpinned). Returns 0 or -errno with @err. */
static int lb_config_cpus_check(const struct lb_workload_config *cfg, char *err, size_t errlen)
{
	const int cpu[LB_NCHILD] = {cfg->server_cpu, cfg->client_cpu};
	const enum lb_workload_field field[LB_NCHILD] = {LB_WF_SERVER_CPU, LB_WF_CLIENT_CPU};
	cpu_set_t *allowed;
	size_t size = 0;
	int i, ret = 0;

	allowed = lb_affinity_get(&size);
	if (!allowed) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot read this process's CPU affinity: %s: run without "
			  "pinning (CPU -1)",
			  strerror(-ret));
		return ret;
	}
	for (i = 0; i < LB_NCHILD && !ret; i++)
		ret = lb_cpu_check(i == LB_SERVER ? "server" : "client", lb_wf(cfg->naming, field[i]),
				   cpu[i], allowed, size, err, errlen);
	CPU_FREE(allowed);
	return ret < 0 ? ret : 0;
}

int lb_workload_config_check(const struct lb_workload_config *cfg, char *err, size_t errlen)
{
	const struct lb_workload_type *type = cfg->name ? lb_workload_type_find(cfg->name) : NULL;
	int ret = lb_workload_check(cfg, err, errlen);

	if (ret < 0)
		return ret;
	if (!type)
		return lb_workload_unknown(cfg->name, err, errlen);
	ret = lb_config_values_check(cfg, type, false, err, errlen);
	if (!ret)
		ret = lb_config_cpus_check(cfg, err, errlen);
	if (!ret)
		ret = lb_engine_name_check(cfg, type, err, errlen);
	return ret < 0 ? ret : 0;
}

int lb_workload_unknown(const char *name, char *err, size_t errlen)
{
	char names[128] = "", q[LB_STR_SHORT_BUF];
	size_t off = 0;

	for (int i = 0; lb_workload_names[i] && off < sizeof(names); i++)
		off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
				lb_workload_names[i]);
	lb_seterr(err, errlen, "unknown workload '%s': choose one of %s",
		  name ? lb_str_short(name, q, sizeof(q)) : "(none)", names);
	return -EINVAL;
}

/*
 * Validates @cfg (addr, sizes, CPUs, bound); on success also prepares @w's masks.
 * Returns 0 or -errno.
 */
int lb_config_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen)
{
	const int cpu[LB_NCHILD] = {cfg->server_cpu, cfg->client_cpu};
	int i, ret, maxcpu;

	ret = lb_config_values_check(cfg, w->type, w->netns_fd >= 0, err, errlen);
	if (!ret)
		ret = lb_config_cpus_check(cfg, err, errlen);
	if (ret)
		return ret;
	/* Masks for sched_setaffinity() in the children, sized for the larger CPU number. */
	maxcpu = cpu[LB_SERVER] > cpu[LB_CLIENT] ? cpu[LB_SERVER] : cpu[LB_CLIENT];
	w->cpus_size = CPU_ALLOC_SIZE(maxcpu + 1);
	for (i = 0; i < LB_NCHILD; i++) {
		if (cpu[i] < 0)
			continue;
		w->cpus[i] = CPU_ALLOC(maxcpu + 1);
		if (!w->cpus[i]) {
			lb_seterr(err, errlen, "out of memory: free memory and retry");
			return -ENOMEM;
		}
		CPU_ZERO_S(w->cpus_size, w->cpus[i]);
		CPU_SET_S(cpu[i], w->cpus_size, w->cpus[i]);
	}
	return 0;
}

/* Validates @cfg's engine; for uring, asks the kernel what it allows. Returns 0 or -errno. */
int lb_engine_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
		    size_t errlen)
{
	int kind = lb_engine_name_check(cfg, w->type, err, errlen);

	if (kind < 0)
		return kind;
	w->engine = kind;
	w->cfg.engine = lb_engine_names[w->engine];
	if (w->engine == LB_ENGINE_SYSCALL)
		return 0;
	return lb_uring_probe(&w->uring_mode, lb_wf(cfg->naming, LB_WF_ENGINE), err, errlen);
}
