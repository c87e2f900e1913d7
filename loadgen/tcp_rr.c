// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the tcp-rr workload.
 *
 * Closed-loop request/response over one TCP connection on loopback, with
 * TCP_NODELAY on both ends. The generator writes a request carrying a 64-bit
 * sequence number and reads the reply; the server reads the whole request
 * through its engine (syscall: recv; uring: io_uring recv), makes
 * syscalls_per_op extra real syscalls (getppid), and writes it back.
 * Partial reads and writes are completed. One operation = one round trip.
 *
 * TCP does not lose requests, so nothing is resent: "timeouts" counts the
 * receive timeouts (LB_RCVTIMEO_MS without a byte) the generator waited
 * through. The listening socket is bound in create (a busy port is reported
 * there); each start connects a fresh generator socket, which the server
 * process accepts. When one end closes, the other stops: the server
 * quietly (the generator reports why), the generator with an error unless
 * it was told to stop.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "naming.h"
#include "pace.h"
#include "sockets.h"
#include "ust.h"
#include "usdt.h"
#include "util.h"
#include "workload.h"

#define TCP_RR_BACKLOG 4

static int tcp_rr_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	int ret;

	ret = lb_server_socket_open(w, SOCK_STREAM, err, errlen);
	if (ret < 0)
		goto out;
	if (listen(w->srv_fd, TCP_RR_BACKLOG) < 0) {
		ret = -errno;
		if (ret == -EADDRINUSE)
			lb_seterr(err, errlen,
				  "TCP port %u is in use by another program: choose another "
				  "with %s, or 0 for an ephemeral port",
				  (unsigned int)w->port, lb_wf(w->cfg.naming, LB_WF_PORT));
		else
			lb_seterr(err, errlen,
				  "cannot listen on the server socket: %s: this is a bug, "
				  "please report it",
				  strerror(-ret));
		close(w->srv_fd);
		w->srv_fd = -1;
	}
out:
	return ret;
}

/* Close connections a previous start left in the listen backlog. */
static void tcp_rr_reset(struct lb_flow *w)
{
	struct pollfd p = {.fd = w->srv_fd, .events = POLLIN};
	int fd, i;

	for (i = 0; i < 2 * TCP_RR_BACKLOG && poll(&p, 1, 0) == 1; i++) {
		fd = accept4(w->srv_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			break;
		close(fd);
	}
}

static int tcp_rr_nodelay(int fd)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){1}, sizeof(int)) < 0 ? -errno : 0;
}

static int tcp_rr_client_open(struct lb_flow *w)
{
	int ret;

	ret = lb_client_socket_open(w, SOCK_STREAM);
	if (ret < 0)
		goto out;
	ret = tcp_rr_nodelay(w->cli_fd);
	if (ret < 0) {
		lb_seterr(w->errmsg, sizeof(w->errmsg),
			  "cannot set TCP_NODELAY on the generator socket: %s: this is a bug, "
			  "please report it",
			  strerror(-ret));
		close(w->cli_fd);
		w->cli_fd = -1;
	}
out:
	return ret;
}

/*
 * Read exactly @len bytes through @e. Returns 1 when done, 0 at end of file
 * or when told to stop (stop flag or deadline) while waiting, -errno.
 * Each receive timeout is counted in *@timeouts (if not NULL).
 */
static int tcp_rr_read(struct lb_engine *e, struct lb_shared *sh, unsigned char *buf, size_t len,
		       uint64_t *timeouts)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = lb_engine_recv(e, buf + off, len - off, NULL, NULL);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n == 0)
			return 0;
		if (n == -EINTR)
			continue;
		if (n != -EAGAIN)
			return (int)n;
		if (timeouts)
			atomic_store_explicit(&sh->timeouts, ++*timeouts, memory_order_relaxed);
		if (lb_stopping(sh) || lb_past_deadline(sh))
			return 0;
	}
	return 1;
}

/* Write exactly @len bytes through @e. Returns 0 or -errno. */
static int tcp_rr_write(struct lb_engine *e, const unsigned char *buf, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = lb_engine_send(e, buf + off, len - off, NULL, 0);
		if (n >= 0) {
			off += (size_t)n;
			continue;
		}
		if (n != -EINTR)
			return (int)n;
	}
	return 0;
}

/*
 * Server loop: accept the generator's connection (a plain syscall in every
 * engine); then request in, extra syscalls, reply out, through the engine.
 */
static int tcp_rr_server_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	int extra = w->cfg.syscalls_per_op, fd, i, r, ret = 0;
	uint64_t requests = 0;
	struct lb_engine e;

	if (lb_sock_set_rcvtimeo(w->srv_fd, LB_RCVTIMEO_MS) < 0)
		return lb_child_fail(w, LB_SERVER, errno, "setsockopt(SO_RCVTIMEO) on the server",
				     lb_fix_socket);
	for (;;) {
		fd = accept4(w->srv_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			break;
		if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
			return lb_child_fail(w, LB_SERVER, errno, "accept on the server socket",
					     lb_fix_socket);
		if (lb_stopping(sh) || lb_past_deadline(sh))
			return 0;
	}
	close(w->srv_fd);
	if (tcp_rr_nodelay(fd) < 0)
		return lb_child_fail(w, LB_SERVER, errno, "setsockopt on the server connection",
				     lb_fix_socket);
	if (lb_server_engine_open(w, &e, fd, len, LB_ENGINE_STREAM) < 0)
		return -1;
	for (;;) {
		r = tcp_rr_read(&e, sh, buf, len, NULL);
		/*
		 * A generator told to stop closes its socket with replies of an open
		 * loop still unread, which resets the connection: no error then (as
		 * the generator's own side, below).
		 */
		if (r == -ECONNRESET && lb_stopping(sh))
			break;
		if (r < 0) {
			ret = lb_child_fail(w, LB_SERVER, -r, e.what, lb_fix_socket);
			break;
		}
		if (r == 0)
			break; /* stopped, or the generator closed: it says why */
		LB_USDT2(request, requests + 1, len);
		LB_UST2(request, requests + 1, len);
		for (i = 0; i < extra; i++)
			syscall(SYS_getppid);
		r = tcp_rr_write(&e, buf, len);
		if (r == -EPIPE || r == -ECONNRESET)
			break;
		if (r < 0) {
			ret = lb_child_fail(w, LB_SERVER, -r, e.what, lb_fix_socket);
			break;
		}
		LB_USDT2(reply, requests + 1, len);
		LB_UST2(reply, requests + 1, len);
		lb_server_request(sh, ++requests);
		if (lb_stopping(sh))
			break;
		if (requests % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			break;
	}
	lb_engine_close(&e);
	return ret;
}

/*
 * The generator's send failed with @r (-errno): 0 when the server closed
 * the connection because we are stopping, else -1 with the error slot filled.
 */
static int tcp_rr_send_failed(struct lb_flow *w, int r)
{
	bool closed = r == -EPIPE || r == -ECONNRESET;

	if (closed && lb_stopping(w->sh))
		return 0;
	return lb_child_fail(w, LB_CLIENT, -r, "send on the generator socket",
			     closed ? "the server closed the connection: see its error, check "
				      "dmesg, then rerun"
				    : lb_fix_socket);
}

/*
 * Open-loop generator (pace.h): the requests due are written on schedule
 * while no more than @cap are in flight (so that neither side's buffers
 * fill and both block in a write), the replies read as they come, in order,
 * without blocking, between sleeps in ppoll() until the next send is due or
 * a reply arrives. TCP loses nothing: nothing times out.
 */
static int tcp_rr_client_paced(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	struct lb_engine e = {.fd = w->cli_fd, .send_flags = MSG_NOSIGNAL};
	unsigned char *buf = w->buf, *rbuf = w->buf + w->buflen;
	size_t len = w->cfg.msg_size, roff = 0;
	uint64_t got, ops = 0, mismatches = 0, sent = 0, lost = 0, now, when, seq, cap;
	int fd = w->cli_fd, sndbuf = 0, r;
	socklen_t sl = sizeof(sndbuf);
	struct lb_pace *p;
	ssize_t n;

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &sl) < 0 || sndbuf <= 0)
		sndbuf = 16384;
	cap = (uint64_t)sndbuf / 2 / len;
	cap = cap < 1 ? 1 : cap > LB_PACE_RING ? LB_PACE_RING : cap;
	p = lb_pace_start(w);
	if (!p)
		return -1;
	memset(buf, 0, len);
	for (;;) {
		now = lb_clock_ns();
		if (lb_stopping(sh) || lb_past_deadline(sh))
			break;
		lb_pace_skip_naps(p, &now);
		while (lb_pace_due(p, now) && lb_pace_inflight(p) < cap) {
			seq = lb_pace_take(p, sh, now, &lost);
			memcpy(buf, &seq, sizeof(seq));
			r = tcp_rr_write(&e, buf, len);
			if (r < 0)
				goto fail_send;
			atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		}
		for (;;) {
			n = recv(fd, rbuf + roff, len - roff, MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN || errno == EWOULDBLOCK)
					break;
				r = -errno;
				goto fail_recv;
			}
			if (n == 0) {
				r = 0;
				goto fail_recv;
			}
			roff += (size_t)n;
			if (roff < len)
				continue;
			roff = 0;
			memcpy(&got, rbuf, sizeof(got));
			if ((when = lb_pace_answer(p, got))) {
				lb_lat_record(sh, when);
				atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
			} else {
				atomic_store_explicit(&sh->mismatches, ++mismatches,
						      memory_order_relaxed);
			}
		}
		if (lb_pace_wait(w, p, fd, lb_clock_ns(), lb_pace_inflight(p) < cap) < 0) {
			free(p);
			return -1;
		}
	}
	free(p);
	return 0;
fail_send:
	free(p);
	return tcp_rr_send_failed(w, r);
fail_recv:
	free(p);
	if ((r == 0 || r == -ECONNRESET) && (lb_stopping(sh) || lb_past_deadline(sh)))
		return 0;
	if (r == 0)
		return lb_child_fail(w, LB_CLIENT, ECONNRESET, "the server closed the connection",
				     "see the server's error, check dmesg, then rerun");
	return lb_child_fail(w, LB_CLIENT, -r, "recv on the generator socket", lb_fix_socket);
}

/*
 * Generator loop: write request seq, read its reply; a reply with another
 * sequence is a mismatch. Plain syscalls: the syscall engine's calls, without
 * its setup (the socket has its receive timeout already).
 */
static int tcp_rr_client_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	struct lb_engine e = {.fd = w->cli_fd, .send_flags = MSG_NOSIGNAL};
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	int r;
	uint64_t seq = 0, got, ops = 0, timeouts = 0, mismatches = 0, t0;

	if (sh->period_ns)
		return tcp_rr_client_paced(w);
	memset(buf, 0, len);
	for (;;) {
		t0 = lb_lat_start(sh);
		seq++;
		memcpy(buf, &seq, sizeof(seq));
		r = tcp_rr_write(&e, buf, len);
		if (r < 0)
			return tcp_rr_send_failed(w, r);
		atomic_store_explicit(&sh->sent, seq, memory_order_relaxed);
		r = tcp_rr_read(&e, sh, buf, len, &timeouts);
		/* A server that stopped with our next request unread resets the connection. */
		if (r == -ECONNRESET && lb_stopping(sh))
			return 0;
		if (r < 0)
			return lb_child_fail(w, LB_CLIENT, -r, "recv on the generator socket",
					     lb_fix_socket);
		if (r == 0) {
			if (lb_stopping(sh) || lb_past_deadline(sh))
				return 0;
			return lb_child_fail(w, LB_CLIENT, ECONNRESET,
					     "the server closed the connection",
					     "see the server's error, check dmesg, then rerun");
		}
		memcpy(&got, buf, sizeof(got));
		if (got == seq) {
			lb_lat_record(sh, t0);
			atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
		} else
			atomic_store_explicit(&sh->mismatches, ++mismatches, memory_order_relaxed);
		if (lb_stopping(sh))
			return 0;
		if (seq % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			return 0;
	}
}

const struct lb_workload_type lb_tcp_rr_type = {
    .traits =
	{
	    .name = "tcp-rr",
	    .op = "round trip",
	    .ops = "round trips",
	    .addr = "127.0.0.1",
	    .veth = true,
	    .engine = true,
	    .latency = true,
	    .rate = true,
	},
    .proto = "TCP",
    .server_open = tcp_rr_server_open,
    .reset = tcp_rr_reset,
    .client_open = tcp_rr_client_open,
    .server_run = tcp_rr_server_run,
    .client_run = tcp_rr_client_run,
    /* A request is one write, one segment with PSH (TCP_NODELAY, msg < MSS); ip6[53]: its flags. */
    .count_filter = "inbound and tcp and ((ip and tcp[tcpflags] & tcp-push != 0) or "
		    "(ip6 and ip6[53] & 0x08 != 0))",
};
