// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the workload, the API of loadgen.h.
 *
 * A workload is 1 to LB_FLOWS_MAX flows. A flow is a server and a load
 * generator ("client") forked from the caller, each optionally pinned to one
 * CPU; for icmp-flood the kernel itself is the server and only the generator
 * is forked. With the veth topology the servers' sockets belong to a network
 * namespace of their own (topology.c) and the server processes enter it. A
 * flow's processes share one anonymous MAP_SHARED region with the parent
 * (struct lb_shared): the generator publishes its completed-operation
 * counter there, the server its request counter, the parent sets the stop
 * flag, and a child that fails leaves errno and a short message in its
 * error slot before exiting.
 *
 * This file drives the flows; the rest lives where its job is: validation
 * in check.c, CPU placement in cpus.c, one flow's sockets and life in
 * flow.c, its processes (fork, pin, stop, reap) in procs.c, the sockets in
 * sockets.c, the table of workload kinds in types.c, and what is specific
 * to a workload in its own file (udp_rr.c, tcp_rr.c, icmp_flood.c,
 * udp_stream.c, pcap_flood.c).
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <linux/sock_diag.h>

#include "check.h"
#include "cpus.h"
#include "flow.h"
#include "naming.h"
#include "sockets.h"
#include "topology.h"
#include "util.h"
#include "workload.h"

void lb_workload_config_init(struct lb_workload_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->name = "udp-rr";
	cfg->addr = "127.0.0.1";
	cfg->port = 0;
	cfg->msg_size = 64;
	cfg->syscalls_per_op = 0;
	cfg->server_cpu = -1;
	cfg->client_cpu = -1;
	cfg->max_seconds = 600;
	cfg->window = 1;
	cfg->flows = 1;
	cfg->topology = LB_TOPO_LO;
	cfg->engine = "syscall";
	cfg->naming = NULL;
}

const char *const lb_topology_names[] = {"lo", "veth", NULL};

struct lb_workload {
	struct lb_workload_config cfg;
	const struct lb_workload_type *type;
	struct lb_topo *topo; /* veth topology; NULL on lo */
	int nflows;
	struct lb_flow *flow[LB_FLOWS_MAX];
	bool running;
	struct lb_workload_stats last; /* stats of the last stop */
	char errmsg[LB_ERRLEN];
	char latency_off[LB_ERRLEN]; /* why operations are not timed; "" = they are */
};

/*
 * Clock sources whose CLOCK_MONOTONIC the vDSO reads without entering the
 * kernel: x86's TSC and the paravirtual clocks built on it, arm64's and
 * RISC-V's counters. With another (hpet, acpi_pm, jiffies) clock_gettime()
 * is a syscall, and timing each operation would add two per operation:
 * events for every syscall probe set, so the workload does not time then.
 */
static const char *const lb_vdso_clocks[] = {
	"tsc", "kvm-clock", "hyperv_clocksource_tsc_page", "arch_sys_counter", "riscv_clocksource",
	NULL,
};

/* Whether @w's operations can be timed; if not, why, in w->latency_off. */
static void lb_workload_latency_check(struct lb_workload *w)
{
	const char *path = "/sys/devices/system/clocksource/clocksource0/current_clocksource";
	char cs[64] = "";
	FILE *f;

	w->latency_off[0] = '\0';
	if (!w->type->traits.latency) {
		snprintf(w->latency_off, sizeof(w->latency_off),
			 "%s has no request and reply to time", w->type->traits.name);
		return;
	}
	f = fopen(path, "re");
	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = '\0';
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = '\0';
	for (int i = 0; lb_vdso_clocks[i]; i++) {
		if (!strcmp(cs, lb_vdso_clocks[i]))
			return;
	}
	snprintf(w->latency_off, sizeof(w->latency_off),
		 "the clock source is %s, which the vDSO cannot read: timing each operation "
		 "would add two clock_gettime syscalls to it",
		 cs[0] ? cs : "unknown (current_clocksource not readable)");
}

/* Flow @i's configuration: its address, port and CPUs derived from @cfg. */
static void lb_flow_config(const struct lb_workload *w, int i, const int *allowed, int nallowed,
			   char *addr, size_t addrlen, struct lb_workload_config *fc)
{
	*fc = w->cfg;
	fc->flows = 1;
	if (w->topo)
		fc->addr = lb_topo_flow_addr(w->topo, i, true, addr, addrlen);
	if (fc->port)
		fc->port = (uint16_t)(w->cfg.port + i);
	if (i) {
		fc->server_cpu = lb_flow_cpu(w->cfg.server_cpu, i, allowed, nallowed);
		fc->client_cpu = lb_flow_cpu(w->cfg.client_cpu, i, allowed, nallowed);
	}
}

/* Returns 0 and sets *@out, or -errno with a one-line message in @err. */
int lb_workload_create(const struct lb_workload_config *cfg, struct lb_workload **out, char *err,
		       size_t errlen)
{
	struct lb_workload_config fc;
	char addr[INET_ADDRSTRLEN], sub[LB_ERRLEN];
	struct lb_workload *w;
	int *allowed = NULL;
	int nallowed = 0, ret, i;

	lb_seterr(err, errlen, "%s", "");
	*out = NULL;
	ret = lb_workload_check(cfg, err, errlen);
	if (ret < 0)
		return ret;
	w = calloc(1, sizeof(*w));
	allowed = calloc(LB_CPUS_MAX, sizeof(*allowed));
	if (!w || !allowed) {
		ret = -ENOMEM;
		lb_seterr(err, errlen, "out of memory: free memory and retry");
		goto out_free;
	}
	w->cfg = *cfg;
	w->nflows = cfg->flows ? cfg->flows : 1;
	w->cfg.flows = w->nflows;
	if (w->nflows > 1) {
		nallowed = lb_cpus_allowed(allowed, LB_CPUS_MAX);
		if (nallowed <= 0) {
			ret = nallowed < 0 ? nallowed : -EINVAL;
			lb_seterr(err, errlen,
				  "cannot read this process's CPU affinity: %s: run "
				  "without pinning (%s)",
				  strerror(-ret), lb_wf_unpinned(cfg->naming));
			goto out_free;
		}
	}
	/*
	 * Flow 0 first, on lo: it validates everything the user chose before any
	 * namespace or veth exists. With veth it is then made again inside the
	 * namespace (so a --port busy on this machine's lo is refused even there).
	 */
	for (i = 0; i < w->nflows; i++) {
		lb_flow_config(w, i, allowed, nallowed, addr, sizeof(addr), &fc);
		ret = lb_flow_create(&fc, i, w->topo, &w->flow[i], sub, sizeof(sub));
		if (ret < 0) {
			if (w->nflows > 1 && i > 0)
				lb_seterr(err, errlen, "flow %d: %s", i, sub);
			else
				lb_seterr(err, errlen, "%s", sub);
			goto out_free;
		}
		if (i == 0 && cfg->topology == LB_TOPO_VETH && !w->topo) {
			/* Validated on lo; now the namespace, and flow 0 again inside it. */
			lb_flow_destroy(w->flow[0]);
			w->flow[0] = NULL;
			ret = lb_topo_create(w->nflows, lb_wf(cfg->naming, LB_WF_TOPOLOGY),
					     &w->topo, err, errlen);
			if (ret < 0)
				goto out_free;
			i = -1;
		}
	}
	w->type = w->flow[0]->type;
	w->cfg.name = w->type->traits.name;
	lb_workload_latency_check(w);
	for (i = 0; i < w->nflows; i++)
		w->flow[i]->timed = !w->latency_off[0];
	free(allowed);
	*out = w;
	return 0;

out_free:
	free(allowed);
	lb_workload_destroy(w);
	return ret;
}

/* Say which flow failed (when there are several) in the workload's message. */
static void lb_workload_flow_error(struct lb_workload *w, int i)
{
	if (w->nflows > 1)
		snprintf(w->errmsg, sizeof(w->errmsg), "flow %d: %.480s", i, w->flow[i]->errmsg);
	else
		snprintf(w->errmsg, sizeof(w->errmsg), "%s", w->flow[i]->errmsg);
}

/*
 * Every flow's processes are forked first, their generators held at a gate
 * (a pipe they read until it is closed), and then let go together: a flow
 * started while the earlier ones already run would wait for the CPUs they
 * keep busy (64 flows on 2 CPUs took 20 s to start, one at a time).
 *
 * Returns 0 once every flow completed its first operation, or -errno (lb_workload_error()).
 */
int lb_workload_start(struct lb_workload *w)
{
	int timeout_ms = LB_START_TIMEOUT_MS + (w->nflows - 1) * LB_START_PER_FLOW_MS;
	int gate[2] = {-1, -1};
	int64_t end_us;
	uint16_t nonce;
	int ret, i, j;

	if (w->running) {
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "the workload is already running: stop it before starting it again");
		return -EBUSY;
	}
	w->errmsg[0] = '\0';
	if (getrandom(&nonce, sizeof(nonce), GRND_NONBLOCK) != sizeof(nonce))
		nonce = (uint16_t)(getpid() ^ (uint16_t)lb_now_us());
	if (w->nflows > 1 && pipe2(gate, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "cannot make the flows' start gate (a pipe): %s: raise the open-file limit "
			 "(ulimit -n)",
			 strerror(-ret));
		return ret;
	}
	for (i = 0; i < w->nflows; i++) {
		w->flow[i]->nonce = nonce;
		w->flow[i]->gate[0] = gate[0];
		w->flow[i]->gate[1] = gate[1];
		ret = lb_flow_spawn(w->flow[i]);
		if (ret < 0) {
			lb_workload_flow_error(w, i);
			goto out_stop;
		}
	}
	/* Open the gate: every generator reads EOF and starts. */
	if (gate[1] >= 0)
		close(gate[1]);
	gate[1] = -1;
	end_us = lb_now_us() + timeout_ms * 1000LL;
	for (i = 0; i < w->nflows; i++) {
		ret = lb_flow_started(w->flow[i], end_us, timeout_ms);
		if (ret < 0) {
			lb_workload_flow_error(w, i);
			goto out_stop;
		}
	}
	w->running = true;
	ret = 0;
	goto out;

out_stop:
	/* The gate opened first, so that held generators see the stop flag. */
	if (gate[1] >= 0)
		close(gate[1]);
	gate[1] = -1;
	for (j = 0; j < w->nflows; j++)
		lb_flow_stop(w->flow[j], NULL); /* a flow not running: nothing to do */
out:
	for (j = 0; j < w->nflows; j++)
		w->flow[j]->gate[0] = w->flow[j]->gate[1] = -1;
	if (gate[0] >= 0)
		close(gate[0]);
	if (gate[1] >= 0)
		close(gate[1]);
	return ret;
}

/* Returns the completed operations of every flow since the last start. */
uint64_t lb_workload_ops(const struct lb_workload *w)
{
	uint64_t ops = 0;
	int i;

	for (i = 0; i < w->nflows; i++)
		ops += lb_flow_ops(w->flow[i]);
	return ops;
}

/* Returns the requests every flow sent late since the last start. */
uint64_t lb_workload_late(const struct lb_workload *w)
{
	uint64_t late = 0;

	for (int i = 0; i < w->nflows; i++)
		late += atomic_load_explicit(&w->flow[i]->sh->late, memory_order_relaxed);
	return late;
}

void lb_workload_expect(struct lb_workload *w, double seconds)
{
	uint64_t t = seconds > 0 ? lb_clock_ns() + (uint64_t)(seconds * 1e9) : 0;

	for (int i = 0; i < w->nflows; i++)
		atomic_store_explicit(&w->flow[i]->sh->expect_ns, t, memory_order_relaxed);
}

/* Returns 0, or -EOPNOTSUPP when the operations are not timed. */
int lb_workload_latency(const struct lb_workload *w, struct lb_hist *h)
{
	if (w->latency_off[0])
		return -EOPNOTSUPP;
	/* Summed straight from the shared regions: each bucket read once, beside its writer. */
	memset(h, 0, sizeof(*h));
	for (int i = 0; i < w->nflows; i++)
		lb_hist_add(h, &w->flow[i]->sh->lat);
	return 0;
}

/* Returns why the operations are not timed, or NULL. */
const char *lb_workload_latency_off(const struct lb_workload *w)
{
	return w->latency_off[0] ? w->latency_off : NULL;
}

/* Returns how many pids (flow by flow, server then generator) were stored in @pids. */
int lb_workload_pids(const struct lb_workload *w, pid_t *pids, int max)
{
	int i, n = 0;

	if (!w->running)
		return 0;
	for (i = 0; i < w->nflows && n < max; i++)
		n += lb_flow_pids(w->flow[i], pids + n, max - n);
	return n;
}

/* Returns 0, or -EIO when a process of any flow died abnormally or reported an error. */
int lb_workload_stop(struct lb_workload *w, struct lb_workload_stats *st)
{
	struct lb_workload_stats fs, *t = &w->last;
	int i, ret = 0, fret;

	if (!w->running) {
		if (st)
			*st = w->last;
		return 0;
	}
	w->errmsg[0] = '\0';
	/* Every flow is told first, so that they all stop together. */
	for (i = 0; i < w->nflows; i++) {
		atomic_store(&w->flow[i]->sh->stop, 1);
		if (w->flow[i]->type->wake)
			w->flow[i]->type->wake(w->flow[i]);
	}
	memset(t, 0, sizeof(*t));
	for (i = 0; i < w->nflows; i++) {
		fret = lb_flow_stop(w->flow[i], &fs);
		if (fret < 0 && !ret) {
			ret = fret;
			if (w->nflows > 1)
				snprintf(w->errmsg, sizeof(w->errmsg), "flow %d: %.480s", i,
					 w->flow[i]->errmsg);
			else
				snprintf(w->errmsg, sizeof(w->errmsg), "%s", w->flow[i]->errmsg);
		}
		t->ops += fs.ops;
		t->timeouts += fs.timeouts;
		t->mismatches += fs.mismatches;
		t->server_requests += fs.server_requests;
		t->sent += fs.sent;
		t->late += fs.late;
		t->received += fs.received;
		t->flow_ops[i] = fs.ops;
	}
	t->nflows = w->nflows;
	/* Open loop: what was sent and not received; closed loop: requests given up on. */
	if (w->type->ops_by_server)
		t->dropped = t->sent > t->received ? t->sent - t->received : 0;
	else
		t->dropped = t->timeouts;
	if (st)
		*st = *t;
	w->running = false;
	return ret;
}

/*
 * Returns 0 with a capture filter in @buf matching one packet per delivered
 * request of every flow, or -EOPNOTSUPP when the workload has none.
 */
int lb_workload_count_filter(const struct lb_workload *w, char *buf, size_t len)
{
	size_t off;
	int i, n;

	if (!w->type->count_filter || !w->nflows)
		return -EOPNOTSUPP;
	n = snprintf(buf, len, "%s and %s", w->type->count_filter, w->nflows > 1 ? "(" : "");
	off = n > 0 ? (size_t)n : 0;
	for (i = 0; i < w->nflows && off < len; i++) {
		n = snprintf(buf + off, len - off, "%sdst port %u", i ? " or " : "",
			     (unsigned int)w->flow[i]->port);
		off += n > 0 ? (size_t)n : 0;
	}
	if (off + 2 > len)
		return -ENAMETOOLONG;
	if (w->nflows > 1)
		snprintf(buf + off, len - off, ")");
	return 0;
}

/* Returns the datagrams the flows' server sockets dropped (SO_MEMINFO), summed. */
uint64_t lb_workload_server_drops(const struct lb_workload *w)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < w->nflows; i++) {
		uint32_t mem[SK_MEMINFO_VARS] = {0};
		socklen_t len = sizeof(mem);
		int fd = w->flow[i]->srv_fd;

		if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0 ||
		    len <= SK_MEMINFO_DROPS * sizeof(mem[0]))
			continue;
		sum += mem[SK_MEMINFO_DROPS];
	}
	return sum;
}

void lb_workload_force_singleshot(struct lb_workload *w)
{
	int i;

	for (i = 0; i < w->nflows; i++)
		w->flow[i]->uring_mode = LB_URING_SINGLESHOT;
}

/* Returns the last error message for @w, "" if none (never NULL). */
const char *lb_workload_error(const struct lb_workload *w)
{
	return w ? w->errmsg : "";
}

/* Returns the number of flows; their CPUs in @server_cpu and @client_cpu (at most @max). */
int lb_workload_placement(const struct lb_workload *w, int *server_cpu, int *client_cpu, int max)
{
	int i;

	for (i = 0; i < w->nflows && i < max; i++) {
		server_cpu[i] = w->type->server_run ? w->flow[i]->cfg.server_cpu : -1;
		client_cpu[i] = w->flow[i]->cfg.client_cpu;
	}
	return w->nflows;
}

/*
 * Returns @buf: flow 0 as lb_flow_describe() says it, "topology=lo flows=1",
 * then each further flow's endpoint and placement, e.g.
 * "; flow1 127.0.0.1:40214 server@cpu0 client@cpu0".
 */
const char *lb_workload_describe(const struct lb_workload *w, char *buf, size_t len)
{
	char one[256], ep[LB_ENDPOINT_LEN];
	size_t off;
	int i;

	if (!len)
		return buf;
	lb_flow_describe(w->flow[0], buf, len);
	off = strlen(buf);
	if (off < len)
		off += snprintf(buf + off, len - off, " topology=%s flows=%d",
				lb_topology_names[w->cfg.topology], w->nflows);
	for (i = 1; i < w->nflows && off < len; i++) {
		const char *p;

		lb_flow_describe(w->flow[i], one, sizeof(one));
		/* Past "<workload> <endpoint> ... ": endpoint and placement only. */
		lb_endpoint_format(w->flow[i], ep, sizeof(ep));
		p = strstr(one, " server");
		off += snprintf(buf + off, len - off, "; flow%d %s%s", i, ep, p ? p : "");
	}
	return buf;
}

/* Stops the workload if running, closes its sockets, removes its topology and frees it. */
void lb_workload_destroy(struct lb_workload *w)
{
	int i;

	if (!w)
		return;
	lb_workload_stop(w, NULL);
	for (i = 0; i < w->nflows; i++)
		lb_flow_destroy(w->flow[i]);
	lb_topo_destroy(w->topo);
	free(w);
}
