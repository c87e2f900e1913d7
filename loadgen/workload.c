// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the common part of every workload.
 *
 * A workload is 1 to LB_FLOWS_MAX flows (--flows). A flow is a server and a
 * load generator ("client") forked from the caller, each optionally pinned
 * to one CPU; for icmp-flood the kernel itself is the server and only the
 * generator is forked. With the veth topology the servers' sockets belong to
 * a network namespace of their own (topology.c) and the server processes
 * enter it. The functions named lb_flow_* below handle one flow; the
 * lb_workload_* API at the end drives all of them. A flow's processes share one anonymous
 * MAP_SHARED region with the parent (struct lb_shared): the generator
 * publishes its completed-operation counter there, the server its request
 * counter, the parent sets the stop flag, and a child that fails leaves
 * errno and a short message in its error slot before exiting.
 *
 * This file holds what is workload-independent (validation, the shared
 * region, fork/pin/signals, start, stop and reap, the sockets every IP
 * workload opens); what is specific to a workload lives in its own file
 * (udp_rr.c, tcp_rr.c, icmp_flood.c, udp_stream.c) as a struct
 * lb_workload_type listed in lb_workload_types[] below.
 *
 * The children only call async-signal-safe functions (the caller may have
 * threads) and leave with _exit().
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/sock_diag.h>

#include "topology.h"
#include "util.h"
#include "workload.h"

static const char *const lb_child_names[LB_NCHILD] = {"server", "generator"};

/* Every workload, in the order of lb_workload_names[]. */
static const struct lb_workload_type *const lb_workload_types[] = {
    &lb_udp_rr_type,
    &lb_tcp_rr_type,
    &lb_icmp_flood_type,
    &lb_udp_stream_type,
    &lb_pcap_flood_type,
};

/* Keep in step with lb_workload_types[] above. */
const char *const lb_workload_names[] = {"udp-rr", "tcp-rr", "icmp-flood", "udp-stream",
					 "pcap-flood", NULL};

/* ---- helpers ---- */

static void lb_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

const char lb_fix_socket[] = "unexpected on loopback: check dmesg and socket memory "
			     "(net.core.*mem*), then rerun";

/* Child side: record errno, what failed and the fix; async-signal-safe. Returns -1. */
int lb_child_fail(struct lb_flow *w, int which, int err, const char *what, const char *fix)
{
	struct lb_child_error *e = &w->sh->error[which];

	lb_strlcpy(e->msg, what, sizeof(e->msg));
	lb_strlcpy(e->fix, fix, sizeof(e->fix));
	e->err = err ? err : EIO;
	return -1;
}

/* Returns true once the safety deadline in @sh has passed. */
bool lb_past_deadline(const struct lb_shared *sh)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > sh->deadline.tv_sec ||
	       (now.tv_sec == sh->deadline.tv_sec && now.tv_nsec >= sh->deadline.tv_nsec);
}

/* Kept out of line and apart from its callers' files, so no compiler clones or inlines it. */
__attribute__((noinline, used)) uint64_t lb_server_request(struct lb_shared *sh,
							   uint64_t requests)
{
	atomic_store_explicit(&sh->server_requests, requests, memory_order_relaxed);
	return requests;
}

static int64_t lb_now_us(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static void lb_sleep_us(long us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Returns 0 or -errno. */
int lb_sock_set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ? -errno : 0;
}

/* "127.0.0.1:5000" or "[::1]:5000"; just the address when the kernel answers (no port). */
void lb_endpoint_format(const struct lb_flow *w, char *buf, size_t len)
{
	if (!w->type->server_run)
		snprintf(buf, len, "%s", w->addr);
	else if (strchr(w->addr, ':'))
		snprintf(buf, len, "[%s]:%u", w->addr, (unsigned int)w->port);
	else
		snprintf(buf, len, "%s:%u", w->addr, (unsigned int)w->port);
}

/* Format the CPUs in @set as "0-3,6" into @buf. */
static void lb_format_cpus(const cpu_set_t *set, size_t setsize, char *buf, size_t len)
{
	int ncpu = (int)(setsize * 8), cpu, first = -1;
	size_t off = 0;

	buf[0] = '\0';
	for (cpu = 0; cpu <= ncpu; cpu++) {
		bool in = cpu < ncpu && CPU_ISSET_S(cpu, setsize, set);

		if (in && first < 0)
			first = cpu;
		if (in || first < 0)
			continue;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%d", off ? "," : "", first);
		if (cpu - 1 > first && off < len)
			off += snprintf(buf + off, len - off, "-%d", cpu - 1);
		first = -1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* ---- sockets ---- */

/* Returns 0 with the bound socket in w->srv_fd, or -errno with a message in @err. */
int lb_server_socket_open(struct lb_flow *w, int socktype, char *err, size_t errlen)
{
	struct sockaddr_storage ss = {0};
	socklen_t sslen;
	char ep[INET6_ADDRSTRLEN + 16];
	int family, fd, ret;

	if (strchr(w->addr, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		family = AF_INET6;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(w->cfg.port);
		inet_pton(AF_INET6, w->addr, &s6->sin6_addr);
		sslen = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		family = AF_INET;
		s4->sin_family = AF_INET;
		s4->sin_port = htons(w->cfg.port);
		inet_pton(AF_INET, w->addr, &s4->sin_addr);
		sslen = sizeof(*s4);
	}
	w->port = w->cfg.port;
	lb_endpoint_format(w, ep, sizeof(ep));

	fd = socket(family, socktype | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		if (family == AF_INET6 && ret == -EAFNOSUPPORT)
			lb_seterr(err, errlen,
				  "IPv6 is not available on this machine, so %s cannot "
				  "be used: use --addr 127.0.0.1",
				  w->addr);
		else
			lb_seterr(err, errlen,
				  "cannot create a %s socket: %s: raise the open-file "
				  "limit (ulimit -n) or free memory",
				  w->type->proto, strerror(-ret));
		goto out;
	}
	/*
	 * UDP: no SO_REUSEADDR, with it two sockets could share the port silently.
	 * TCP: SO_REUSEADDR, so that a connection of an earlier run in TIME_WAIT
	 * does not block the port; a second listener is still refused.
	 */
	if (socktype == SOCK_STREAM &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int)) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot set SO_REUSEADDR on the server socket: %s: "
			  "this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	if (bind(fd, (struct sockaddr *)&ss, sslen) < 0) {
		ret = -errno;
		if (ret == -EADDRINUSE)
			lb_seterr(err, errlen,
				  "port %s is in use by another program: choose another "
				  "with --port, or 0 for an ephemeral port",
				  ep);
		else if (ret == -EACCES)
			lb_seterr(err, errlen,
				  "binding %s needs privilege (ports below 1024): choose "
				  "a port >= 1024 with --port, or 0 for an ephemeral port",
				  ep);
		else if (ret == -EADDRNOTAVAIL && family == AF_INET6)
			lb_seterr(err, errlen,
				  "%s is not configured on this machine (IPv6 disabled "
				  "on lo?): use --addr 127.0.0.1",
				  w->addr);
		else
			lb_seterr(err, errlen,
				  "cannot bind the server socket to %s: %s: check that "
				  "the loopback interface is up (ip link set lo up)",
				  ep, strerror(-ret));
		goto out_close;
	}
	w->srv_addrlen = sizeof(w->srv_addr);
	if (getsockname(fd, (struct sockaddr *)&w->srv_addr, &w->srv_addrlen) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "getsockname on the server socket %s failed: %s: this is "
			  "a bug, please report it",
			  ep, strerror(-ret));
		goto out_close;
	}
	w->port = ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)&w->srv_addr)->sin6_port
					   : ((struct sockaddr_in *)&w->srv_addr)->sin_port);
	w->srv_fd = fd;
	return 0;

out_close:
	close(fd);
out:
	return ret;
}

/* Returns 0 with the connected socket in w->cli_fd, or -errno with a message in w->errmsg. */
int lb_client_socket_open(struct lb_flow *w, int socktype)
{
	char ep[INET6_ADDRSTRLEN + 16];
	int fd, ret;

	lb_endpoint_format(w, ep, sizeof(ep));
	fd = socket(w->srv_addr.ss_family, socktype | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		lb_seterr(w->errmsg, sizeof(w->errmsg),
			  "cannot create the generator's %s "
			  "socket: %s: raise the open-file limit (ulimit -n) or free memory",
			  w->type->proto, strerror(-ret));
		goto out;
	}
	ret = lb_sock_set_rcvtimeo(fd, LB_RCVTIMEO_MS);
	if (ret < 0) {
		lb_seterr(w->errmsg, sizeof(w->errmsg),
			  "cannot set a receive timeout on the "
			  "generator socket: %s: this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	if (connect(fd, (struct sockaddr *)&w->srv_addr, w->srv_addrlen) < 0) {
		ret = -errno;
		lb_seterr(w->errmsg, sizeof(w->errmsg),
			  "cannot connect the generator socket "
			  "to %s: %s: check that the loopback interface is up (ip link set lo up)",
			  ep, strerror(-ret));
		goto out_close;
	}
	w->cli_addrlen = sizeof(w->cli_addr);
	if (getsockname(fd, (struct sockaddr *)&w->cli_addr, &w->cli_addrlen) < 0) {
		ret = -errno;
		lb_seterr(w->errmsg, sizeof(w->errmsg),
			  "getsockname on the generator socket "
			  "failed: %s: this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	w->cli_fd = fd;
	return 0;

out_close:
	close(fd);
out:
	return ret;
}

/* Reads and drops every datagram queued on @fd, without blocking. */
void lb_sock_drain(int fd)
{
	unsigned char drain[1];

	while (recv(fd, drain, sizeof(drain), MSG_DONTWAIT | MSG_TRUNC) >= 0)
		;
}

/* In the parent: drop its copy of what client_open made for the generator. */
static void lb_client_release(struct lb_flow *w)
{
	if (w->type && w->type->client_release)
		w->type->client_release(w);
	if (w->cli_fd >= 0)
		close(w->cli_fd);
	w->cli_fd = -1;
}

/* ---- the table ---- */

static const struct lb_workload_type *lb_workload_type_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(lb_workload_types) / sizeof(lb_workload_types[0]); i++)
		if (!strcmp(lb_workload_types[i]->name, name))
			return lb_workload_types[i];
	return NULL;
}

/* ---- validation ---- */

/* The affinity mask of this process, CPU_ALLOC'd; its byte size in *@size. NULL + errno. */
static cpu_set_t *lb_affinity_get(size_t *size)
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

static int lb_check_cpu(const char *who, int cpu, const cpu_set_t *allowed, size_t size, char *err,
			size_t errlen)
{
	long nconf = sysconf(_SC_NPROCESSORS_CONF);
	char list[128];

	if (cpu == -1)
		return 0;
	lb_format_cpus(allowed, size, list, sizeof(list));
	if (cpu < -1) {
		lb_seterr(err, errlen,
			  "%s CPU %d is not a CPU number: choose one of %s with "
			  "--cpus, or -1 for unpinned",
			  who, cpu, list);
		return -EINVAL;
	}
	if (cpu >= nconf || (size_t)cpu >= size * 8) {
		lb_seterr(err, errlen,
			  "%s CPU %d does not exist (this machine has CPUs 0-%ld): "
			  "choose one of %s with --cpus, or -1 for unpinned",
			  who, cpu, nconf - 1, list);
		return -EINVAL;
	}
	if (!CPU_ISSET_S(cpu, size, allowed)) {
		lb_seterr(err, errlen,
			  "%s CPU %d is not in this process's allowed CPUs (%s; see "
			  "taskset or the cgroup cpuset): choose one of them with --cpus",
			  who, cpu, list);
		return -EINVAL;
	}
	return 0;
}

/* Validate @cfg (addr, sizes, CPUs, bound); on success also prepare @w's masks. */
static int lb_config_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
			   size_t errlen)
{
	const int cpu[LB_NCHILD] = {cfg->server_cpu, cfg->client_cpu};
	struct in6_addr a6;
	struct in_addr a4;
	cpu_set_t *allowed = NULL;
	size_t size = 0;
	int i, ret, maxcpu;

	if (!cfg->addr || !*cfg->addr || strlen(cfg->addr) >= sizeof(w->addr)) {
		lb_seterr(err, errlen,
			  "no valid server address given: use a loopback literal "
			  "such as --addr 127.0.0.1 or ::1");
		return -EINVAL;
	}
	if (inet_pton(AF_INET, cfg->addr, &a4) == 1) {
		/* In our own namespace (veth topology) the address is one we assigned. */
		if ((ntohl(a4.s_addr) >> 24) != 127 && w->netns_fd < 0) {
			lb_seterr(err, errlen,
				  "address %s is not loopback: the workload runs on "
				  "127.0.0.0/8 or ::1 only; use --addr 127.0.0.1",
				  cfg->addr);
			return -EADDRNOTAVAIL;
		}
	} else if (inet_pton(AF_INET6, cfg->addr, &a6) == 1) {
		if (!IN6_IS_ADDR_LOOPBACK(&a6)) {
			lb_seterr(err, errlen,
				  "address %s is not loopback: the workload runs on "
				  "127.0.0.0/8 or ::1 only; use --addr ::1",
				  cfg->addr);
			return -EADDRNOTAVAIL;
		}
	} else {
		lb_seterr(err, errlen,
			  "'%s' is not an IPv4 or IPv6 address literal (host names "
			  "are not resolved): use --addr 127.0.0.1 or ::1",
			  cfg->addr);
		return -EINVAL;
	}
	if (cfg->msg_size < LB_MSG_MIN || cfg->msg_size > LB_MSG_MAX) {
		lb_seterr(err, errlen,
			  "message size %zu is out of range: choose %d..%d bytes "
			  "with --msg-size",
			  cfg->msg_size, LB_MSG_MIN, LB_MSG_MAX);
		return -EINVAL;
	}
	if (cfg->syscalls_per_op < 0 || cfg->syscalls_per_op > LB_SYSCALLS_MAX) {
		lb_seterr(err, errlen,
			  "%d extra syscalls per operation is out of range: choose "
			  "0..%d with --syscalls-per-op",
			  cfg->syscalls_per_op, LB_SYSCALLS_MAX);
		return -EINVAL;
	}
	if (cfg->window < 0 || cfg->window > LB_WINDOW_MAX ||
	    (cfg->window > 1 && w->type != &lb_icmp_flood_type)) {
		lb_seterr(err, errlen,
			  "a window of %d outstanding requests is not possible for %s: "
			  "choose 1..%d for icmp-flood, 1 for the closed-loop workloads",
			  cfg->window, w->type->name, LB_WINDOW_MAX);
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
		ret = lb_check_cpu(i == LB_SERVER ? "server" : "client", cpu[i], allowed, size, err,
				   errlen);
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

/* Validate @cfg's engine; for uring, ask the kernel what it allows. Returns 0 or -errno. */
static int lb_engine_check(struct lb_flow *w, const struct lb_workload_config *cfg, char *err,
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
	if (!w->type->engine) {
		for (i = 0; i < sizeof(lb_workload_types) / sizeof(lb_workload_types[0]); i++)
			if (lb_workload_types[i]->engine && off < sizeof(names))
				off += snprintf(names + off, sizeof(names) - off, "%s%s",
						off ? ", " : "", lb_workload_types[i]->name);
		lb_seterr(err, errlen,
			  "engine %s does not apply to %s (it has no server loop of its "
			  "own): use --engine syscall, or one of %s",
			  name, w->type->name, names);
		return -EINVAL;
	}
	return lb_uring_probe(&w->uring_mode, err, errlen);
}

/* ---- the API ---- */

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
}

static int lb_flow_stop(struct lb_flow *w, struct lb_workload_stats *st);
static uint64_t lb_flow_ops(const struct lb_flow *w);
static void lb_flow_destroy(struct lb_flow *w);

/*
 * Flow @index of a workload: validate @cfg (already this flow's address,
 * port and CPUs), open its server socket, in @topo's namespace when not NULL.
 * Returns 0 and sets *@out, or -errno with a one-line message in @err.
 */
static int lb_flow_create(const struct lb_workload_config *cfg, int index,
			  const struct lb_topo *topo, struct lb_flow **out, char *err,
			  size_t errlen)
{
	struct lb_flow *w;
	void *sh;
	int ret, i;

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
	w->cfg = *cfg;
	w->index = index;
	w->netns_fd = topo ? lb_topo_netns_fd(topo) : -1;

	w->type = cfg->name ? lb_workload_type_find(cfg->name) : NULL;
	if (!w->type) {
		char names[128] = "";
		size_t off = 0;

		for (i = 0; lb_workload_names[i] && off < sizeof(names); i++)
			off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					lb_workload_names[i]);
		ret = -EINVAL;
		lb_seterr(err, errlen, "unknown workload '%s': choose one of %s",
			  cfg->name ? cfg->name : "(none)", names);
		goto out_free;
	}
	ret = lb_config_check(w, cfg, err, errlen);
	if (ret < 0)
		goto out_free;
	ret = lb_engine_check(w, cfg, err, errlen);
	if (ret < 0)
		goto out_free;
	snprintf(w->addr, sizeof(w->addr), "%s", cfg->addr);
	w->cfg.name = w->type->name;
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
			  "--msg-size",
			  cfg->msg_size);
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

/* Reap @c without blocking; true once it is gone. */
static bool lb_child_poll(struct lb_child *c)
{
	pid_t r;

	if (!c->pid || c->reaped)
		return true;
	r = waitpid(c->pid, &c->status, WNOHANG);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		if (r < 0) /* someone else reaped it (SIGCHLD ignored?) */
			c->status = 0;
		c->reaped = true;
	}
	return c->reaped;
}

static void lb_child_kill(struct lb_child *c)
{
	if (lb_child_poll(c))
		return;
	kill(c->pid, SIGKILL);
	c->killed = true;
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
	c->reaped = true;
}

static const char lb_fix_cpu[] = "the CPU is offline or outside the cpuset: choose another "
				 "with --cpus";

/* Child side: the common setup, then the loop; never returns. */
static void __attribute__((noreturn)) lb_child_main(struct lb_flow *w, int which, pid_t parent)
{
	struct sigaction sa;
	int ret;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (w->cpus[which] && sched_setaffinity(0, w->cpus_size, w->cpus[which]) < 0) {
		lb_child_fail(w, which, errno, "sched_setaffinity to the configured CPU",
			      lb_fix_cpu);
		_exit(1);
	}
	if (which == LB_SERVER && w->netns_fd >= 0 && setns(w->netns_fd, CLONE_NEWNET) < 0) {
		lb_child_fail(w, which, errno, "setns into the servers' network namespace",
			      "this is a bug, please report it");
		_exit(1);
	}
	if (w->netns_fd >= 0)
		close(w->netns_fd);
	if (which == LB_SERVER) {
		ret = w->type->server_run(w);
	} else {
		if (w->srv_fd >= 0)
			close(w->srv_fd);
		ret = w->type->client_run(w);
	}
	_exit(ret < 0 ? 1 : 0);
}

/* Describe how child @i ended and the fix, into @buf; false if it ended cleanly. */
static bool lb_child_failed(const struct lb_flow *w, int i, char *buf, size_t len)
{
	const struct lb_child *c = &w->child[i];
	const struct lb_child_error *e = &w->sh->error[i];
	const char *who = lb_child_names[i];

	if (e->err) {
		snprintf(buf, len, "the %s process failed: %.*s: %s: %.*s", who,
			 (int)sizeof(e->msg), e->msg, strerror(e->err), (int)sizeof(e->fix),
			 e->fix);
		return true;
	}
	if (!c->pid || !c->reaped)
		return false;
	if (c->killed) {
		snprintf(buf, len,
			 "the %s process did not stop within %d ms and was killed: the machine "
			 "is overloaded or the process was stopped (SIGSTOP, debugger); rerun",
			 who, LB_STOP_GRACE_MS);
		return true;
	}
	if (WIFSIGNALED(c->status)) {
		snprintf(buf, len,
			 "the %s process was killed by signal %d (%s) from outside: "
			 "check dmesg (OOM killer?) and what else sends signals, then rerun",
			 who, WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
		return true;
	}
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status)) {
		snprintf(buf, len,
			 "the %s process exited with status %d without a reason (its "
			 "parent changed during start?): rerun",
			 who, WEXITSTATUS(c->status));
		return true;
	}
	return false;
}

/* Fill w->errmsg from the children's fate; -EIO if any failed, else 0. */
static int lb_children_check(struct lb_flow *w)
{
	char msg[LB_NCHILD][LB_ERRLEN];
	int i, nfail = 0;

	for (i = 0; i < LB_NCHILD; i++)
		if (lb_child_failed(w, i, msg[nfail], sizeof(msg[0])))
			nfail++;
	if (!nfail)
		return 0;
	/* Both failed: the first is usually the cause. */
	snprintf(w->errmsg, sizeof(w->errmsg), "%s", msg[0]);
	return -EIO;
}

/* Stop after a failed start, keeping the message that says why it failed. */
static void lb_flow_abort(struct lb_flow *w)
{
	char keep[LB_ERRLEN];

	memcpy(keep, w->errmsg, sizeof(keep));
	lb_flow_stop(w, NULL);
	memcpy(w->errmsg, keep, sizeof(keep));
}

/* Returns 0 once the first operation completed, or -errno (message in lb_workload_error()). */
static int lb_flow_start(struct lb_flow *w, int running)
{
	int timeout_ms = LB_START_TIMEOUT_MS + running * LB_START_PER_FLOW_MS;
	struct lb_shared *sh = w->sh;
	struct timespec now;
	pid_t parent = getpid();
	char ep[INET6_ADDRSTRLEN + 16];
	int64_t end_us;
	int ret, i;
	time_t whole;

	if (w->running) {
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "the workload is already running: stop it "
			 "before starting it again");
		return -EBUSY;
	}
	w->errmsg[0] = '\0';
	memset(w->child, 0, sizeof(w->child));
	w->cli_addrlen = 0;
	memset(sh, 0, sizeof(*sh));
	atomic_store(&sh->ops, 0);
	atomic_store(&sh->timeouts, 0);
	atomic_store(&sh->mismatches, 0);
	atomic_store(&sh->sent, 0);
	atomic_store(&sh->server_requests, 0);
	atomic_store(&sh->server_mismatches, 0);
	atomic_store(&sh->stop, 0);
	clock_gettime(CLOCK_MONOTONIC, &now);
	whole = (time_t)w->cfg.max_seconds; /* validated: 0 < max_seconds <= 1e9 */
	sh->deadline.tv_nsec = now.tv_nsec + (long)((w->cfg.max_seconds - (double)whole) * 1e9);
	sh->deadline.tv_sec = now.tv_sec + whole + sh->deadline.tv_nsec / 1000000000;
	sh->deadline.tv_nsec %= 1000000000;

	/* Requests left over from the previous start would be answered to a closed socket. */
	if (w->type->reset)
		w->type->reset(w);

	/* The server first, so that it does not inherit the generator socket. */
	w->running = true;
	if (!w->type->server_run)
		goto client; /* the kernel answers */
	w->child[LB_SERVER].pid = fork();
	if (w->child[LB_SERVER].pid < 0) {
		ret = -errno;
		w->child[LB_SERVER].pid = 0;
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "cannot fork the server process: %s: "
			 "raise the process limit (ulimit -u) or free memory",
			 strerror(-ret));
		w->running = false;
		goto out;
	}
	if (w->child[LB_SERVER].pid == 0)
		lb_child_main(w, LB_SERVER, parent);

client:
	ret = w->type->client_open(w);
	if (ret < 0)
		goto out_stop;
	w->child[LB_CLIENT].pid = fork();
	if (w->child[LB_CLIENT].pid < 0) {
		ret = -errno;
		w->child[LB_CLIENT].pid = 0;
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "cannot fork the generator process: %s: "
			 "raise the process limit (ulimit -u) or free memory",
			 strerror(-ret));
		goto out_stop;
	}
	if (w->child[LB_CLIENT].pid == 0)
		lb_child_main(w, LB_CLIENT, parent);
	lb_client_release(w);

	end_us = lb_now_us() + timeout_ms * 1000LL;
	for (;;) {
		if (lb_flow_ops(w) > 0)
			return 0;
		for (i = 0; i < LB_NCHILD; i++)
			if (w->child[i].pid && lb_child_poll(&w->child[i]))
				break;
		if (i < LB_NCHILD || lb_now_us() >= end_us)
			break;
		lb_sleep_us(LB_POLL_US);
	}
	if (i < LB_NCHILD) { /* a child ended before the first operation */
		ret = lb_children_check(w);
		if (!ret) {
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "the %s process ended before the first operation: is "
				 "max_seconds too short? rerun",
				 lb_child_names[i]);
			ret = -EIO;
		}
		goto out_stop;
	}
	ret = -ETIMEDOUT;
	lb_endpoint_format(w, ep, sizeof(ep));
	snprintf(w->errmsg, sizeof(w->errmsg),
		 "no %s operation completed on %s within %d ms (%llu timeouts): check that "
		 "nothing filters loopback %s (iptables/nft) and that the chosen CPUs are not "
		 "saturated",
		 w->type->name, ep, timeout_ms,
		 (unsigned long long)atomic_load(&sh->timeouts), w->type->proto);

out_stop:
	lb_flow_abort(w);
out:
	lb_client_release(w);
	return ret;
}

/* Returns the completed operations since the last start (udp-stream: datagrams received). */
static uint64_t lb_flow_ops(const struct lb_flow *w)
{
	if (w->type->ops_by_server)
		return atomic_load_explicit(&w->sh->server_requests, memory_order_relaxed);
	return atomic_load_explicit(&w->sh->ops, memory_order_relaxed);
}

/* Returns how many pids (server first, then generator) were stored in @pids. */
static int lb_flow_pids(const struct lb_flow *w, pid_t *pids, int max)
{
	int i, n = 0;

	if (!w->running)
		return 0;
	for (i = 0; i < LB_NCHILD && n < max; i++)
		if (w->child[i].pid > 0)
			pids[n++] = w->child[i].pid;
	return n;
}

/*
 * Let the children that are still alive run on any CPU this process may use.
 * A pinned process that was busy (udp-stream's two are) can wait seconds for
 * its CPU when another busy pair shares it; the measurement is over, so
 * moving it elsewhere to notice the stop flag costs nothing.
 */
static void lb_children_unpin(struct lb_flow *w)
{
	cpu_set_t *all;
	size_t size;
	int i;

	all = lb_affinity_get(&size);
	if (!all)
		return;
	for (i = 0; i < LB_NCHILD; i++)
		if (w->cpus[i] && w->child[i].pid && !w->child[i].reaped)
			sched_setaffinity(w->child[i].pid, size, all);
	CPU_FREE(all);
}

/* Returns 0, or -EIO when a process died abnormally or reported an error. */
static int lb_flow_stop(struct lb_flow *w, struct lb_workload_stats *st)
{
	struct lb_shared *sh = w->sh;
	int64_t end_us, unpin_us;
	int i, ret;
	bool all;

	if (!w->running) {
		if (st)
			*st = w->last;
		return 0;
	}
	w->errmsg[0] = '\0';
	atomic_store(&sh->stop, 1);
	if (w->type->wake)
		w->type->wake(w);

	end_us = lb_now_us() + LB_STOP_GRACE_MS * 1000;
	unpin_us = lb_now_us() + LB_STOP_UNPIN_MS * 1000;
	for (;;) {
		all = true;
		for (i = 0; i < LB_NCHILD; i++)
			all &= lb_child_poll(&w->child[i]);
		if (all || lb_now_us() >= end_us)
			break;
		if (unpin_us && lb_now_us() >= unpin_us) {
			lb_children_unpin(w);
			unpin_us = 0;
		}
		lb_sleep_us(LB_POLL_US);
	}
	for (i = 0; i < LB_NCHILD; i++)
		lb_child_kill(&w->child[i]);

	w->last.ops = lb_flow_ops(w);
	w->last.timeouts = atomic_load(&sh->timeouts);
	w->last.mismatches = atomic_load(&sh->mismatches) + atomic_load(&sh->server_mismatches);
	w->last.server_requests = atomic_load(&sh->server_requests);
	w->last.sent = atomic_load(&sh->sent);
	w->last.received = w->last.ops;
	if (st)
		*st = w->last;
	ret = lb_children_check(w);
	w->running = false;
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
static const char *lb_flow_describe(const struct lb_flow *w, char *buf, size_t len)
{
	char ep[INET6_ADDRSTRLEN + 16], mid[160], cpu[LB_NCHILD][24], engine[40] = "";
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
	if (w->type->engine)
		snprintf(engine, sizeof(engine), " engine=%s", lb_engine_describe(w));
	for (i = 0; i < LB_NCHILD; i++) {
		if (i == LB_SERVER && !w->type->server_run)
			snprintf(cpu[i], sizeof(cpu[i]), "=kernel");
		else if (c[i] < 0)
			snprintf(cpu[i], sizeof(cpu[i]), " unpinned");
		else
			snprintf(cpu[i], sizeof(cpu[i]), "@cpu%d", c[i]);
	}
	snprintf(buf, len, "%s %s%s server%s client%s", w->type->name, mid, engine,
		 cpu[LB_SERVER], cpu[LB_CLIENT]);
	return buf;
}

/* Stops the workload if running, closes its sockets and frees it. */
static void lb_flow_destroy(struct lb_flow *w)
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

/* ---- a workload: its flows ---- */

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
};

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

/* The CPUs this process may run on, ascending, into @cpus. Returns how many, or -errno. */
static int lb_allowed_cpus(int *cpus, int max)
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

#define LB_CPUS_MAX 4096

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

/* Checks what concerns the flows and the topology. Returns 0 or -EINVAL with @err. */
static int lb_workload_check(const struct lb_workload_config *cfg, char *err, size_t errlen)
{
	if (cfg->flows < 0 || cfg->flows > LB_FLOWS_MAX) {
		lb_seterr(err, errlen, "%d flows is out of range: choose 1..%d with --flows",
			  cfg->flows, LB_FLOWS_MAX);
		return -EINVAL;
	}
	if (cfg->topology != LB_TOPO_LO && cfg->topology != LB_TOPO_VETH) {
		lb_seterr(err, errlen, "unknown topology %d: choose lo or veth",
			  (int)cfg->topology);
		return -EINVAL;
	}
	if (cfg->topology == LB_TOPO_VETH && cfg->addr && strcmp(cfg->addr, "127.0.0.1")) {
		lb_seterr(err, errlen,
			  "--addr %s applies to --topology lo; with veth the servers listen "
			  "on 198.18.0.0/15 addresses loadbench assigns: drop --addr",
			  cfg->addr);
		return -EINVAL;
	}
	if (cfg->port && (int)cfg->port + (cfg->flows ? cfg->flows : 1) - 1 > 65535) {
		lb_seterr(err, errlen,
			  "flows use ports %u and up, one each, past 65535: choose a "
			  "lower --port, or 0 for ephemeral ports",
			  (unsigned int)cfg->port);
		return -EINVAL;
	}
	return 0;
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
		nallowed = lb_allowed_cpus(allowed, LB_CPUS_MAX);
		if (nallowed <= 0) {
			ret = nallowed < 0 ? nallowed : -EINVAL;
			lb_seterr(err, errlen,
				  "cannot read this process's CPU affinity: %s: run "
				  "without pinning (--cpus none)",
				  strerror(-ret));
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
			ret = lb_topo_create(w->nflows, &w->topo, err, errlen);
			if (ret < 0)
				goto out_free;
			i = -1;
		}
	}
	w->type = w->flow[0]->type;
	w->cfg.name = w->type->name;
	free(allowed);
	*out = w;
	return 0;

out_free:
	free(allowed);
	lb_workload_destroy(w);
	return ret;
}

/* Returns 0 once every flow completed its first operation, or -errno (lb_workload_error()). */
int lb_workload_start(struct lb_workload *w)
{
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
	for (i = 0; i < w->nflows; i++) {
		w->flow[i]->nonce = nonce;
		ret = lb_flow_start(w->flow[i], i);
		if (ret < 0) {
			if (w->nflows > 1)
				snprintf(w->errmsg, sizeof(w->errmsg), "flow %d: %.480s", i,
					 w->flow[i]->errmsg);
			else
				snprintf(w->errmsg, sizeof(w->errmsg), "%s", w->flow[i]->errmsg);
			for (j = 0; j < i; j++)
				lb_flow_stop(w->flow[j], NULL);
			return ret;
		}
	}
	w->running = true;
	return 0;
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
	char one[256], ep[INET6_ADDRSTRLEN + 16];
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
		off += snprintf(buf + off, len - off, "; flow%d %s%s", i,
				w->type == &lb_icmp_flood_type ? w->flow[i]->addr : ep,
				p ? p : "");
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
