// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the udp-rr workload.
 *
 * Closed-loop request/response over UDP on loopback. The generator sends a
 * request carrying a 64-bit sequence number on a connect()ed socket and
 * waits for the echo; the server receives it (engine syscall: recvfrom;
 * uring: io_uring recvmsg), makes syscalls_per_op extra real syscalls
 * (getppid through syscall(2), never the vDSO), sends it back to its sender
 * (sendto; io_uring send) and calls lb_server_request() (a uprobe target).
 * One operation = one round trip.
 *
 * With a rate (open loop, pace.h) the generator sends on its schedule and
 * takes the replies as they come, each request timed from its scheduled send.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pace.h"
#include "sockets.h"
#include "ust.h"
#include "usdt.h"
#include "workload.h"

static int udp_rr_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	return lb_server_socket_open(w, SOCK_DGRAM, err, errlen);
}

/* Drop the requests a previous start left in the server socket. */
static void udp_rr_reset(struct lb_flow *w)
{
	lb_sock_drain(w->srv_fd);
}

static int udp_rr_client_open(struct lb_flow *w)
{
	return lb_client_socket_open(w, SOCK_DGRAM);
}

/*
 * Server loop: one request in, syscalls_per_op getppid() syscalls, the same
 * bytes back, through the configured engine. A zero-length datagram is the
 * parent's wake-up call at stop.
 */
static int udp_rr_server_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	int extra = w->cfg.syscalls_per_op, i, ret = 0;
	uint64_t requests = 0;
	struct sockaddr_storage peer;
	struct lb_engine e;
	socklen_t plen;
	ssize_t n, sent;

	if (lb_server_engine_open(w, &e, w->srv_fd, w->cfg.msg_size, LB_ENGINE_PEER) < 0)
		return -1;
	for (;;) {
		plen = sizeof(peer);
		n = lb_engine_recv(&e, buf, w->cfg.msg_size, (struct sockaddr *)&peer, &plen);
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
		if (n == 0) { /* wake-up from the parent (udp_rr_wake) */
			if (lb_stopping(sh))
				break;
			continue;
		}
		LB_USDT2(request, requests + 1, n);
		LB_UST2(request, requests + 1, n);
		for (i = 0; i < extra; i++)
			syscall(SYS_getppid);
		while ((sent = lb_engine_send(&e, buf, (size_t)n, (struct sockaddr *)&peer, plen)) <
		       0) {
			if (sent == -EINTR)
				continue;
			/* Transient: the request is lost, the generator resends it. */
			if (sent == -ENOBUFS || sent == -EAGAIN || sent == -ECONNREFUSED)
				break;
			ret = lb_child_fail(w, LB_SERVER, (int)-sent, e.what, lb_fix_socket);
			goto out;
		}
		if (sent >= 0) {
			LB_USDT2(reply, requests + 1, sent);
			LB_UST2(reply, requests + 1, sent);
		}
		lb_server_request(sh, ++requests);
		if (lb_stopping(sh))
			break;
		if (requests % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			break;
	}
out:
	lb_engine_close(&e);
	return ret;
}

/*
 * Open-loop generator: every request due is sent (late ones at once, one
 * after the other), then every reply waiting is taken, then it sleeps in
 * ppoll() until the next send is due or a reply arrives. A request not
 * answered within LB_RCVTIMEO_MS, or still unanswered LB_PACE_RING sends
 * later, is a timeout (lost: never resent, the schedule goes on).
 */
static int udp_rr_client_paced(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	uint64_t got = 0, ops = 0, mismatches = 0, sent = 0, lost, now, when, seq;
	struct lb_pace *p;
	int fd = w->cli_fd, r;
	ssize_t n;

	p = lb_pace_start(w);
	if (!p)
		return -1;
	memset(buf, 0, len);
	for (;;) {
		now = lb_clock_ns();
		if (lb_stopping(sh) || lb_past_deadline(sh))
			break;
		lb_pace_skip_naps(p, &now);
		lost = 0;
		while (lb_pace_due(p, now)) {
			seq = lb_pace_take(p, sh, now, &lost);
			memcpy(buf, &seq, sizeof(seq));
			while ((n = send(fd, buf, len, MSG_DONTWAIT)) < 0 && errno == EINTR)
				;
			if (n >= 0)
				atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
			else if (errno != ENOBUFS && errno != EAGAIN && errno != ECONNREFUSED)
				goto fail_send; /* else lost: it times out */
		}
		for (;;) {
			n = recv(fd, buf, len, MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNREFUSED)
					break;
				r = errno;
				free(p);
				return lb_child_fail(w, LB_CLIENT, r, "recv on the generator socket",
						     lb_fix_socket);
			}
			if (n == 0) /* wake-up from the parent (udp_rr_wake) */
				continue;
			if ((size_t)n >= sizeof(got))
				memcpy(&got, buf, sizeof(got));
			if ((size_t)n == len && (when = lb_pace_answer(p, got))) {
				lb_lat_record(sh, when);
				atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
			} else if ((size_t)n != len || !lb_pace_sent(p, got)) {
				atomic_store_explicit(&sh->mismatches, ++mismatches,
						      memory_order_relaxed);
			} /* else the late echo of a request given up on */
		}
		now = lb_clock_ns();
		lb_pace_give_up(p, sh, now, lost);
		if (lb_pace_wait(w, p, fd, now, true) < 0) {
			free(p);
			return -1;
		}
	}
	free(p);
	return 0;
fail_send:
	r = errno;
	free(p);
	return lb_child_fail(w, LB_CLIENT, r, "send on the generator socket", lb_fix_socket);
}

/*
 * Generator loop: send sequence number seq, wait for its echo. Replies with
 * an older sequence (echoes of a request that timed out) are skipped; a
 * reply with a newer sequence or the wrong length is a mismatch. On a
 * timeout the request is resent under a new sequence number.
 */
static int udp_rr_client_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *buf = w->buf;
	size_t len = w->cfg.msg_size;
	int fd = w->cli_fd;
	uint64_t seq = 0, got = 0, ops = 0, timeouts = 0, mismatches = 0, sent = 0, t0 = 0;
	bool resend = false;
	ssize_t n;

	if (sh->period_ns)
		return udp_rr_client_paced(w);
	memset(buf, 0, len);
	for (;;) {
		/* An operation's latency runs from its first send: a resend is part of it. */
		if (!resend)
			t0 = lb_lat_start(sh);
		resend = false;
		seq++;
		memcpy(buf, &seq, sizeof(seq));
		while ((n = send(fd, buf, len, 0)) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS || errno == EAGAIN)
				break; /* lost: the receive times out and we resend */
			return lb_child_fail(w, LB_CLIENT, errno, "send on the generator socket",
					     lb_fix_socket);
		}
		if (n >= 0) /* a request the kernel had no buffer for was not sent */
			atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		for (;;) {
			n = recv(fd, buf, len, 0);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno != EAGAIN && errno != EWOULDBLOCK)
					return lb_child_fail(w, LB_CLIENT, errno,
							     "recv on the generator socket",
							     lb_fix_socket);
				atomic_store_explicit(&sh->timeouts, ++timeouts,
						      memory_order_relaxed);
				if (lb_stopping(sh) || lb_past_deadline(sh))
					return 0;
				resend = true;
				break;
			}
			if (n == 0) { /* wake-up from the parent (udp_rr_wake) */
				if (lb_stopping(sh))
					return 0;
				continue;
			}
			if ((size_t)n >= sizeof(got))
				memcpy(&got, buf, sizeof(got));
			if ((size_t)n == len && got == seq)
				break;
			if ((size_t)n == len && got < seq)
				continue; /* stale echo of a resent request */
			atomic_store_explicit(&sh->mismatches, ++mismatches, memory_order_relaxed);
			if (lb_stopping(sh))
				return 0;
		}
		if (n < 0)
			continue;
		lb_lat_record(sh, t0);
		atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
		if (lb_stopping(sh))
			return 0;
		if (ops % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			return 0;
	}
}

/*
 * Zero-length datagrams from the server socket to the server and to the
 * generator (whose connected socket accepts only the server's address); a
 * real request or reply is never empty.
 */
static void udp_rr_wake(struct lb_flow *w)
{
	if (w->cli_addrlen)
		sendto(w->srv_fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&w->cli_addr,
		       w->cli_addrlen);
	sendto(w->srv_fd, "", 0, MSG_DONTWAIT, (struct sockaddr *)&w->srv_addr, w->srv_addrlen);
}

const struct lb_workload_type lb_udp_rr_type = {
    .traits =
	{
	    .name = "udp-rr",
	    .op = "round trip",
	    .ops = "round trips",
	    .addr = "127.0.0.1",
	    .veth = true,
	    .engine = true,
	    .latency = true,
	    .rate = true,
	},
    .proto = "UDP",
    .server_open = udp_rr_server_open,
    .reset = udp_rr_reset,
    .client_open = udp_rr_client_open,
    .server_run = udp_rr_server_run,
    .client_run = udp_rr_client_run,
    .wake = udp_rr_wake,
    .count_filter = "inbound and udp",
};
