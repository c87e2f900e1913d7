// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: one flow, a server and a generator with their own sockets, port,
 * CPUs and shared region (struct lb_flow, workload.h): create (validate,
 * map the shared region, open the server socket), describe, destroy; and
 * what the workload files call on their flow: its sockets, its server
 * engine. Its processes, and its endpoint as messages name it, are
 * procs.c's: this file calls that one (destroy stops the processes), never
 * the other way round.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "engine.h"
#include "flow.h"
#include "naming.h"
#include "sockets.h"
#include "topology.h"
#include "util.h"
#include "workload.h"

/* Returns 0 with the bound socket in w->srv_fd, or -errno with a message in @err. */
int lb_server_socket_open(struct lb_flow *w, int socktype, char *err, size_t errlen)
{
	return lb_sock_server_open(w->addr, w->cfg.port, socktype, w->type->proto, w->cfg.naming,
				   &w->srv_fd, &w->srv_addr, &w->srv_addrlen, &w->port, err,
				   errlen);
}

/* Returns 0 with the connected socket in w->cli_fd, or -errno with a message in w->errmsg. */
int lb_client_socket_open(struct lb_flow *w, int socktype)
{
	char ep[LB_ENDPOINT_LEN];

	lb_endpoint_format(w, ep, sizeof(ep));
	return lb_sock_client_open(&w->srv_addr, w->srv_addrlen, ep, socktype, w->type->proto,
				   &w->cli_fd, &w->cli_addr, &w->cli_addrlen, w->errmsg,
				   sizeof(w->errmsg));
}

/* Renders the fixes a child copies when it fails, naming settings as @cfg says. */
static void lb_flow_fixes(struct lb_flow *w, const struct lb_workload_config *cfg)
{
	const enum lb_workload_field cpu[LB_NCHILD] = {LB_WF_SERVER_CPU, LB_WF_CLIENT_CPU};
	int i;

	for (i = 0; i < LB_NCHILD; i++)
		snprintf(w->fix_cpu[i], sizeof(w->fix_cpu[i]),
			 "the CPU is offline or outside the cpuset: choose another with %s",
			 lb_wf(cfg->naming, cpu[i]));
	snprintf(w->fix_engine, sizeof(w->fix_engine),
		 "check RLIMIT_MEMLOCK and dmesg, or use %s syscall",
		 lb_wf(cfg->naming, LB_WF_ENGINE));
}

/*
 * Flow @index of a workload: validate @cfg (already this flow's address,
 * port and CPUs), open its server socket, in @topo's namespace when not NULL.
 * Returns 0 and sets *@out, or -errno with a one-line message in @err.
 */
int lb_flow_create(const struct lb_workload_config *cfg, int index, const struct lb_topo *topo,
		   struct lb_flow **out, char *err, size_t errlen)
{
	struct lb_flow *w;
	void *sh;
	int ret;

	lb_seterr(err, errlen, "%s", "");
	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w) {
		ret = -ENOMEM;
		lb_seterr(err, errlen, "out of memory: free memory and retry");
		goto out;
	}
	w->srv_fd = -1;
	w->cli_fd = -1;
	w->gate[0] = w->gate[1] = -1;
	w->cfg = *cfg;
	w->index = index;
	w->netns_fd = topo ? lb_topo_netns_fd(topo) : -1;

	w->type = cfg->name ? lb_workload_type_find(cfg->name) : NULL;
	if (!w->type) {
		ret = lb_workload_unknown(cfg->name, err, errlen);
		goto out_free;
	}
	ret = lb_config_check(w, cfg, err, errlen);
	if (ret < 0)
		goto out_free;
	ret = lb_engine_check(w, cfg, err, errlen);
	if (ret < 0)
		goto out_free;
	snprintf(w->addr, sizeof(w->addr), "%s", cfg->addr);
	lb_flow_fixes(w, cfg);
	w->cfg.name = w->type->traits.name;
	w->cfg.addr = w->addr;
	if (!w->cfg.window)
		w->cfg.window = 1;

	/* Room for the IP and ICMP headers a raw socket sees. */
	w->buflen = cfg->msg_size + 128;
	w->buf = malloc(2 * w->buflen); /* a receive and a send buffer */
	if (!w->buf) {
		ret = -ENOMEM;
		lb_seterr(err, errlen,
			  "out of memory for %zu-byte messages: use a smaller "
			  "%s",
			  cfg->msg_size, lb_wf(cfg->naming, LB_WF_MSG_SIZE));
		goto out_free;
	}
	sh = mmap(NULL, sizeof(struct lb_shared), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		ret = -errno;
		lb_seterr(err, errlen, "cannot map the shared counters: %s: free memory and retry",
			  strerror(-ret));
		goto out_free;
	}
	w->sh = sh;

	if (topo) {
		ret = lb_topo_enter(topo);
		if (ret < 0) {
			lb_seterr(err, errlen,
				  "cannot enter the servers' network namespace: %s: this is "
				  "a bug, please report it",
				  strerror(-ret));
			goto out_free;
		}
	}
	ret = w->type->server_open(w, err, errlen);
	if (topo && lb_topo_leave(topo) < 0)
		abort(); /* the one we came from: never carry on in the wrong namespace */
	if (ret < 0)
		goto out_free;
	*out = w;
	return 0;

out_free:
	lb_flow_destroy(w);
out:
	return ret;
}

/*
 * Returns @buf, e.g. "udp-rr 127.0.0.1:40213 msg=64B syscalls/op=2+4 server@cpu1 client@cpu1":
 * the workload; the server's address and bound port; the request (= reply) payload size; the
 * server's syscalls per operation as base + extra, where base is its recvfrom + sendto and
 * extra is syscalls_per_op (the generator makes 2 more: send + recv; with engine uring the
 * base is the one io_uring_enter that submits the reply and waits for the next request); the
 * server engine ("engine=syscall", "engine=uring/multishot", "engine=uring/single-shot");
 * where each process is pinned, or "unpinned". Each workload may say more or other things in the middle (its
 * describe hook), e.g. "icmp-flood 127.0.0.1 msg=64B window=1 server=kernel client@cpu1".
 */
const char *lb_flow_describe(const struct lb_flow *w, char *buf, size_t len)
{
	char ep[LB_ENDPOINT_LEN], mid[160], cpu[LB_NCHILD][24], engine[40] = "", rate[40] = "";
	const int c[LB_NCHILD] = {w->cfg.server_cpu, w->cfg.client_cpu};
	int i;

	if (!len)
		return buf;
	if (w->type->describe) {
		w->type->describe(w, mid, sizeof(mid));
	} else {
		lb_endpoint_format(w, ep, sizeof(ep));
		/* recvfrom + sendto, or one io_uring_enter for both. */
		snprintf(mid, sizeof(mid), "%s msg=%zuB syscalls/op=%d+%d", ep, w->cfg.msg_size,
			 w->engine == LB_ENGINE_URING ? 1 : 2, w->cfg.syscalls_per_op);
	}
	if (w->type->traits.engine)
		snprintf(engine, sizeof(engine), " engine=%s", lb_engine_describe(w));
	if (w->cfg.rate)
		snprintf(rate, sizeof(rate), " rate=%d/s", w->cfg.rate);
	for (i = 0; i < LB_NCHILD; i++) {
		if (i == LB_SERVER && !w->type->server_run)
			snprintf(cpu[i], sizeof(cpu[i]), "=kernel");
		else if (c[i] < 0)
			snprintf(cpu[i], sizeof(cpu[i]), " unpinned");
		else
			snprintf(cpu[i], sizeof(cpu[i]), "@cpu%d", c[i]);
	}
	snprintf(buf, len, "%s %s%s%s server%s client%s", w->type->traits.name, mid, engine, rate,
		 cpu[LB_SERVER], cpu[LB_CLIENT]);
	return buf;
}

/* Stops the workload if running, closes its sockets and frees it. */
void lb_flow_destroy(struct lb_flow *w)
{
	int i;

	if (!w)
		return;
	if (w->sh)
		lb_flow_stop(w, NULL);
	if (w->srv_fd >= 0)
		close(w->srv_fd);
	lb_client_release(w);
	if (w->sh)
		munmap(w->sh, sizeof(*w->sh));
	for (i = 0; i < LB_NCHILD; i++)
		if (w->cpus[i])
			CPU_FREE(w->cpus[i]);
	free(w->buf);
	free(w);
}

/* Returns 0, or -1 after filling the server's error slot. */
int lb_server_engine_open(struct lb_flow *w, struct lb_engine *e, int fd, size_t cap,
			  int flags)
{
	int ret;

	ret = lb_engine_open(e, w->engine, w->uring_mode, fd, cap, flags);
	if (ret < 0)
		return lb_child_fail(w, LB_SERVER, -ret, e->what,
				     w->engine == LB_ENGINE_URING ? w->fix_engine : lb_fix_socket);
	return 0;
}

/* Returns w's engine as it receives: "syscall", "uring/multishot", "uring/single-shot". */
const char *lb_engine_describe(const struct lb_flow *w)
{
	if (w->engine != LB_ENGINE_URING)
		return "syscall";
	return w->uring_mode == LB_URING_MULTISHOT ? "uring/multishot" : "uring/single-shot";
}
