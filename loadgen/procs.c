// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: a flow's processes. Start forks the server (unless the kernel
 * answers) and the generator, each pinned as configured, and waits for the
 * first operation; stop sets the stop flag, wakes them, unpins them after
 * a while, reaps them (killing them after a grace period) and turns how
 * they ended into one message. Also what the children call: the error slot,
 * the deadline, the request counter; and what start needs of its flow: the
 * endpoint its messages name (also the workload files' and flow.c's) and
 * the parent's copy of the generator's socket dropped. flow.c (a flow's
 * life) calls this file; this file calls nothing of flow.c.
 *
 * The children only call async-signal-safe functions (the caller may have
 * threads) and leave with _exit(), with one exception: a server asked to
 * load the LTTng-UST provider (cfg.ust_provider, a run with an lttng-ust
 * set) calls dlopen() first; loadbench's own threads then (a tracer's
 * consumer or readers) load no library, so no loader lock is held at fork.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpus.h"
#include "flow.h"
#include "sockets.h"
#include "ust.h"
#include "usdt.h"
#include "workload.h"

static const char *const lb_child_names[LB_NCHILD] = {"server", "generator"};

static void lb_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Child side: record errno, what failed and the fix; async-signal-safe. Returns -1. */
int lb_child_fail(struct lb_flow *w, int which, int err, const char *what, const char *fix)
{
	struct lb_child_error *e = &w->sh->error[which];

	lb_strlcpy(e->msg, what, sizeof(e->msg));
	lb_strlcpy(e->fix, fix, sizeof(e->fix));
	e->err = err ? err : EIO;
	return -1;
}

static bool past(const struct timespec *now, const struct timespec *t)
{
	return now->tv_sec > t->tv_sec || (now->tv_sec == t->tv_sec && now->tv_nsec >= t->tv_nsec);
}

/*
 * Returns true once the safety deadline in @sh has passed. A parent overdue
 * is one blocked in the kernel: switching a tracer off waits for an RCU
 * grace period, whose kthread a busy pinned pair on every CPU can starve
 * (6.18 here: rcu_preempt starved 59 s, a run stalled 128 s, until these
 * very processes reached their deadline). Napping until it is back lets
 * the kernel's threads run; the slices are not touched, as the parent
 * measures none while it is away and its next is after a settle time of
 * several naps.
 */
static uint64_t napped_ns; /* this process's naps so far (lb_napped_ns()) */

bool lb_past_deadline(const struct lb_shared *sh)
{
	const struct timespec nap = { 0, LB_NAP_NS };
	uint64_t expect, t, first = 0;
	struct timespec now;
	bool ret;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		t = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
		ret = past(&now, &sh->deadline);
		expect = atomic_load_explicit(&sh->expect_ns, memory_order_relaxed);
		if (ret || !expect || t < expect || lb_stopping(sh))
			break;
		if (!first)
			first = t;
		nanosleep(&nap, NULL);
	}
	if (first)
		napped_ns += t - first;
	return ret;
}

uint64_t lb_napped_ns(void)
{
	return napped_ns;
}

#ifdef HAVE_SDT
/* usdt.h's semaphores: where a USDT tracer's uprobe counts itself (its ref_ctr_offset). */
volatile unsigned short loadbench_request_semaphore __attribute__((section(".probes")));
volatile unsigned short loadbench_reply_semaphore __attribute__((section(".probes")));
#endif

/* Kept out of line and apart from its callers' files, so no compiler clones or inlines it. */
__attribute__((noinline, used)) uint64_t lb_server_request(struct lb_shared *sh,
							   uint64_t requests)
{
	atomic_store_explicit(&sh->server_requests, requests, memory_order_relaxed);
	return requests;
}

/* Returns CLOCK_MONOTONIC in microseconds. */
int64_t lb_now_us(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/* "127.0.0.1:5000" or "[::1]:5000"; just the address when the kernel answers (no port). */
void lb_endpoint_format(const struct lb_flow *w, char *buf, size_t len)
{
	if (!w->type->server_run)
		snprintf(buf, len, "%s", w->addr);
	else
		lb_sock_endpoint(w->addr, w->port, buf, len);
}

/* In the parent: drop its copy of what client_open made for the generator. */
void lb_client_release(struct lb_flow *w)
{
	if (w->type && w->type->client_release)
		w->type->client_release(w);
	if (w->cli_fd >= 0)
		close(w->cli_fd);
	w->cli_fd = -1;
}

static void lb_sleep_us(long us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
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
			      w->fix_cpu[which]);
		_exit(1);
	}
	if (which == LB_SERVER && w->netns_fd >= 0 && setns(w->netns_fd, CLONE_NEWNET) < 0) {
		lb_child_fail(w, which, errno, "setns into the servers' network namespace",
			      "this is a bug, please report it");
		_exit(1);
	}
	if (w->netns_fd >= 0)
		close(w->netns_fd);
	if (w->gate[1] >= 0)
		close(w->gate[1]); /* else the gate never opens */
	if (which == LB_CLIENT && w->gate[0] >= 0) {
		char c;

		while (read(w->gate[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	if (w->gate[0] >= 0)
		close(w->gate[0]);
	if (which == LB_SERVER && w->cfg.ust_provider) {
		char msg[200];

		ret = lb_ust_load(w->cfg.ust_provider, msg, sizeof(msg));
		if (ret) {
			lb_child_fail(w, which, -ret, "loading the LTTng-UST provider", msg);
			_exit(1);
		}
	}
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

/* Returns 0 once the processes are forked, or -errno (message in the flow's errmsg). */
int lb_flow_spawn(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	struct timespec now;
	pid_t parent = getpid();
	int ret;
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
	atomic_store(&sh->late, 0);
	atomic_store(&sh->server_requests, 0);
	atomic_store(&sh->server_mismatches, 0);
	atomic_store(&sh->stop, 0);
	atomic_store(&sh->expect_ns, 0);
	sh->timed = w->timed;
	sh->period_ns = w->cfg.rate > 0 ? (uint64_t)(1e9 / w->cfg.rate + 0.5) : 0;
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
	return 0;

out_stop:
	lb_flow_abort(w);
out:
	lb_client_release(w);
	return ret;
}

/* Returns 0 once the first operation completed, or -errno (the flow stopped, message in errmsg). */
int lb_flow_started(struct lb_flow *w, int64_t end_us, int timeout_ms)
{
	char ep[INET6_ADDRSTRLEN + 16];
	int ret, i;

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
		 w->type->traits.name, ep, timeout_ms,
		 (unsigned long long)atomic_load(&w->sh->timeouts), w->type->proto);

out_stop:
	lb_flow_abort(w);
	return ret;
}

/* Returns the completed operations since the last start (udp-stream: datagrams received). */
uint64_t lb_flow_ops(const struct lb_flow *w)
{
	if (w->type->ops_by_server)
		return atomic_load_explicit(&w->sh->server_requests, memory_order_relaxed);
	return atomic_load_explicit(&w->sh->ops, memory_order_relaxed);
}

/* Returns how many pids (server first, then generator) were stored in @pids. */
int lb_flow_pids(const struct lb_flow *w, pid_t *pids, int max)
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
int lb_flow_stop(struct lb_flow *w, struct lb_workload_stats *st)
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
	w->last.late = atomic_load(&sh->late);
	w->last.received = w->last.ops;
	if (st)
		*st = w->last;
	ret = lb_children_check(w);
	w->running = false;
	return ret;
}
