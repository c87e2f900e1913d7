// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the udp-stream workload.
 *
 * Open loop: the generator sends msg_size-byte datagrams to the server as
 * fast as send() returns, on a connect()ed socket, without waiting for
 * anything; the server receives each through its engine (syscall: recv;
 * uring: io_uring recv), makes syscalls_per_op extra real syscalls (getppid)
 * and counts it. One operation = one datagram received by
 * the server (what was sent and dropped on the way is in the stats: sent,
 * and sent - received). A datagram of the wrong size is a mismatch.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sockets.h"
#include "workload.h"

static int udp_stream_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	return lb_server_socket_open(w, SOCK_DGRAM, err, errlen);
}

static void udp_stream_reset(struct lb_flow *w)
{
	lb_sock_drain(w->srv_fd);
}

static int udp_stream_client_open(struct lb_flow *w)
{
	return lb_client_socket_open(w, SOCK_DGRAM);
}

/*
 * Server loop: count every datagram received through the engine; a
 * zero-length one is the parent's wake-up at stop. Receives take up to
 * buflen bytes, so that a datagram of the wrong size is seen as one.
 */
static int udp_stream_server_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	int extra = w->cfg.syscalls_per_op, i, ret = 0;
	uint64_t received = 0, mismatches = 0;
	struct lb_engine e;
	ssize_t n;

	if (lb_server_engine_open(w, &e, w->srv_fd, w->buflen, 0) < 0)
		return -1;
	for (;;) {
		n = lb_engine_recv(&e, buf, w->buflen, NULL, NULL);
		if (n < 0) {
			if (n == -EINTR)
				continue;
			if (n != -EAGAIN) {
				ret = lb_child_fail(w, LB_SERVER, (int)-n, e.what, lb_fix_socket);
				break;
			}
			if (lb_stopping(sh) || lb_past_deadline(sh))
				break;
			continue;
		}
		if (n == 0) { /* wake-up from the parent (udp_stream_wake) */
			if (lb_stopping(sh))
				break;
			continue;
		}
		for (i = 0; i < extra; i++)
			syscall(SYS_getppid);
		if ((size_t)n == len)
			atomic_store_explicit(&sh->server_requests, ++received,
					      memory_order_relaxed);
		else
			atomic_store_explicit(&sh->server_mismatches, ++mismatches,
					      memory_order_relaxed);
		if (lb_stopping(sh))
			break;
		if ((received + mismatches) % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			break;
	}
	lb_engine_close(&e);
	return ret;
}

/* Generator loop: send datagram after datagram; one the kernel has no buffer for is not sent. */
static int udp_stream_client_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	int fd = w->cli_fd;
	uint64_t seq, sent = 0;

	memset(buf, 0, len);
	for (seq = 1;; seq++) {
		memcpy(buf, &seq, sizeof(seq));
		if (send(fd, buf, len, 0) >= 0)
			atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		else if (errno != EINTR && errno != ENOBUFS && errno != EAGAIN &&
			 errno != ECONNREFUSED)
			return lb_child_fail(w, LB_CLIENT, errno, "send on the generator socket",
					     lb_fix_socket);
		if (lb_stopping(sh))
			return 0;
		if (seq % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			return 0;
	}
}

/* A zero-length datagram from the parent's copy of the server socket to itself. */
static void udp_stream_wake(struct lb_flow *w)
{
	sendto(w->srv_fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&w->srv_addr, w->srv_addrlen);
}

/* The middle of lb_workload_describe(): "127.0.0.1:4000 msg=64B syscalls/op=1+4". */
static void udp_stream_describe(const struct lb_flow *w, char *buf, size_t len)
{
	char ep[INET6_ADDRSTRLEN + 16];

	lb_endpoint_format(w, ep, sizeof(ep));
	/* uring/multishot: one io_uring_enter may bring several datagrams. */
	snprintf(buf, len, "%s msg=%zuB syscalls/op=%s1+%d", ep, w->cfg.msg_size,
		 w->engine == LB_ENGINE_URING ? "<=" : "", w->cfg.syscalls_per_op);
}

const struct lb_workload_type lb_udp_stream_type = {
    .traits =
	{
	    .name = "udp-stream",
	    .op = "datagram received",
	    .ops = "datagrams received",
	    .addr = "127.0.0.1",
	    .veth = true,
	    .engine = true,
	},
    .proto = "UDP",
    .server_open = udp_stream_server_open,
    .reset = udp_stream_reset,
    .client_open = udp_stream_client_open,
    .server_run = udp_stream_server_run,
    .client_run = udp_stream_client_run,
    .wake = udp_stream_wake,
    .ops_by_server = true,
    .describe = udp_stream_describe,
    .count_filter = "inbound and udp",
};
