// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the icmp-flood workload.
 *
 * ICMP echo requests to an IPv4 loopback address through a raw socket, like
 * `ping -f`: the kernel itself answers (there is no server process). The
 * generator keeps cfg.window echoes outstanding (1, the default, is ping -f's
 * one in flight) and sends a new one for every reply. One operation = one
 * echo reply that carries our identifier, a sequence number that is
 * outstanding, our payload length and a correct checksum.
 *
 * The identifier is random per start (one per flow: consecutive numbers); the payload begins with a 64-bit
 * sequence number (the 16-bit ICMP sequence is its low half). ICMP_FILTER
 * lets only echo replies through to the socket and connect() only those from
 * the target address, so other ICMP traffic costs the generator nothing.
 * Replies with another identifier (another pinger) are ignored; replies to
 * echoes given up after a receive timeout are stale and ignored; anything
 * else with our identifier is a mismatch.
 *
 * Raw sockets need root or CAP_NET_RAW; create says so when it is missing.
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "naming.h"
#include "pace.h"
#include "sockets.h"
#include "util.h"
#include "workload.h"

#ifndef ICMP_FILTER
#define ICMP_FILTER 1 /* <linux/icmp.h>, which clashes with <netinet/ip_icmp.h> */
#endif
#define ICMP_ECHOREPLY_TYPE 0
#define ICMP_ECHO_TYPE 8
#define ICMP_HDR_LEN 8

/* An ICMP echo header (RFC 792), fields in network byte order. */
struct icmp_echo_hdr {
	uint8_t type;
	uint8_t code;
	uint16_t csum;
	uint16_t id;
	uint16_t seq;
};

/* The fix when the raw socket is refused; %s: the workload setting ("name", "--workload"). */
#define ICMP_FIX_PERM                                                                              \
	"icmp-flood sends ICMP echo through a raw socket, which needs root or CAP_NET_RAW: "       \
	"run as root (sudo), or choose another %s"

static int icmp_socket(int *fd)
{
	*fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	return *fd < 0 ? -errno : 0;
}

/* In create: check the address family, the port and that a raw socket can be opened. */
static int icmp_flood_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	struct sockaddr_in *s4 = (struct sockaddr_in *)&w->srv_addr;
	const struct lb_workload_naming *n = w->cfg.naming;
	int fd, ret;

	if (strchr(w->addr, ':')) {
		lb_seterr(err, errlen,
			  "icmp-flood supports IPv4 only (ICMPv6 is not implemented): use "
			  "%s 127.0.0.1",
			  lb_wf(n, LB_WF_ADDR));
		return -EAFNOSUPPORT;
	}
	if (w->cfg.port) {
		lb_seterr(err, errlen,
			  "icmp-flood has no port (the kernel answers echoes): drop "
			  "%s",
			  lb_wf(n, LB_WF_PORT));
		return -EINVAL;
	}
	ret = icmp_socket(&fd);
	if (ret < 0) {
		if (ret == -EPERM || ret == -EACCES)
			lb_seterr(err, errlen, ICMP_FIX_PERM, lb_wf(n, LB_WF_NAME));
		else
			lb_seterr(err, errlen,
				  "cannot create a raw ICMP socket: %s: raise the open-file "
				  "limit (ulimit -n) or free memory",
				  strerror(-ret));
		return ret == -EACCES ? -EPERM : ret;
	}
	close(fd);
	memset(&w->srv_addr, 0, sizeof(w->srv_addr));
	s4->sin_family = AF_INET;
	inet_pton(AF_INET, w->addr, &s4->sin_addr);
	w->srv_addrlen = sizeof(*s4);
	return 0;
}

/* A fresh raw socket per start: echo replies only, from the target only; a new identifier. */
static int icmp_flood_client_open(struct lb_flow *w)
{
	uint32_t filter = ~(1U << ICMP_ECHOREPLY_TYPE);
	const char *what;
	uint16_t id;
	int fd, ret;

	ret = icmp_socket(&fd);
	if (ret < 0) {
		if (ret == -EPERM)
			lb_seterr(w->errmsg, sizeof(w->errmsg),
				  "cannot create a raw ICMP socket: %s: " ICMP_FIX_PERM,
				  strerror(-ret), lb_wf(w->cfg.naming, LB_WF_NAME));
		else
			lb_seterr(w->errmsg, sizeof(w->errmsg),
				  "cannot create a raw ICMP socket: %s: %s", strerror(-ret),
				  lb_fix_socket);
		goto out;
	}
	what = "setsockopt(ICMP_FILTER)";
	if (setsockopt(fd, SOL_RAW, ICMP_FILTER, &filter, sizeof(filter)) < 0)
		goto out_errno;
	what = "setsockopt(SO_RCVTIMEO)";
	if (lb_sock_set_rcvtimeo(fd, LB_RCVTIMEO_MS) < 0)
		goto out_errno;
	what = "connect";
	if (connect(fd, (struct sockaddr *)&w->srv_addr, w->srv_addrlen) < 0)
		goto out_errno;
	/* Distinct in every flow: a random number per start, plus the flow's index. */
	id = (uint16_t)(w->nonce + w->index);
	w->icmp_id = id;
	w->cli_fd = fd;
	return 0;

out_errno:
	ret = -errno;
	lb_seterr(w->errmsg, sizeof(w->errmsg), "%s on the raw ICMP socket failed: %s: %s", what,
		  strerror(-ret), lb_fix_socket);
	close(fd);
out:
	return ret;
}

/* Send echo @seq from @req (header + msg_size payload). Returns 1 sent, 0 dropped, -1 errno. */
static int icmp_flood_send(int fd, unsigned char *req, size_t len, uint64_t seq)
{
	struct icmp_echo_hdr *h = (struct icmp_echo_hdr *)req;

	h->seq = htons((uint16_t)seq);
	h->csum = 0;
	memcpy(req + ICMP_HDR_LEN, &seq, sizeof(seq));
	h->csum = htons(lb_inet_checksum(req, len));
	while (send(fd, req, len, 0) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS || errno == EAGAIN)
			return 0;
		return -1;
	}
	return 1;
}

/*
 * What the @n bytes at @rbuf (IP header included) are to a generator that
 * sends @len-byte echoes: 1 an echo reply of ours, its sequence number in
 * *@got; 0 someone else's; -1 a reply of ours that is not what was sent.
 */
static int icmp_flood_reply(const struct lb_flow *w, const unsigned char *rbuf, ssize_t n,
			    size_t len, uint64_t *got)
{
	const struct icmp_echo_hdr *r;
	size_t ihl = n > 0 ? (size_t)(rbuf[0] & 0x0f) * 4 : 0;

	/* The raw socket hands us the IP header too. */
	if (ihl < 20 || (size_t)n < ihl + ICMP_HDR_LEN)
		return -1;
	r = (const struct icmp_echo_hdr *)(rbuf + ihl);
	if (r->type != ICMP_ECHOREPLY_TYPE || ntohs(r->id) != w->icmp_id)
		return 0; /* another pinger's */
	if ((size_t)n - ihl != len || lb_inet_checksum(r, len) != 0)
		return -1;
	memcpy(got, rbuf + ihl + ICMP_HDR_LEN, sizeof(*got));
	return ntohs(r->seq) == (uint16_t)*got && *got ? 1 : -1;
}

/*
 * Open-loop generator (pace.h): the echoes due go out on schedule, the
 * replies are taken as they come between sleeps in ppoll(); an echo not
 * answered within LB_RCVTIMEO_MS, or LB_PACE_RING echoes later, is lost.
 */
static int icmp_flood_client_paced(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *rbuf = w->buf, *req = w->buf + w->buflen;
	size_t len = ICMP_HDR_LEN + w->cfg.msg_size;
	struct icmp_echo_hdr *h = (struct icmp_echo_hdr *)req;
	uint64_t got, ops = 0, mismatches = 0, sent = 0, lost, now, when, seq;
	int fd = w->cli_fd, ret;
	struct lb_pace *p;
	ssize_t n;

	p = lb_pace_start(w);
	if (!p)
		return -1;
	memset(req, 0, len);
	h->type = ICMP_ECHO_TYPE;
	h->id = htons(w->icmp_id);
	for (;;) {
		now = lb_clock_ns();
		if (lb_stopping(sh) || lb_past_deadline(sh))
			break;
		lb_pace_skip_naps(p, &now);
		lost = 0;
		while (lb_pace_due(p, now)) {
			seq = lb_pace_take(p, sh, now, &lost);
			ret = icmp_flood_send(fd, req, len, seq);
			if (ret < 0) {
				ret = lb_child_fail(w, LB_CLIENT, errno, "send on the raw ICMP socket",
						    lb_fix_socket);
				goto out;
			}
			if (ret) /* else no buffer: it times out */
				atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		}
		while ((n = recv(fd, rbuf, w->buflen, MSG_DONTWAIT)) >= 0 || errno == EINTR) {
			if (n < 0)
				continue;
			ret = icmp_flood_reply(w, rbuf, n, len, &got);
			if (ret > 0 && (when = lb_pace_answer(p, got))) {
				lb_lat_record(sh, when);
				atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
			} else if (ret < 0 || (ret > 0 && !lb_pace_sent(p, got))) {
				atomic_store_explicit(&sh->mismatches, ++mismatches,
						      memory_order_relaxed);
			} /* else another pinger's, or the late reply to an echo given up on */
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			ret = lb_child_fail(w, LB_CLIENT, errno, "recv on the raw ICMP socket",
					    lb_fix_socket);
			goto out;
		}
		now = lb_clock_ns();
		lb_pace_give_up(p, sh, now, lost);
		if (lb_pace_wait(w, p, fd, now, true) < 0) {
			ret = -1;
			goto out;
		}
	}
	ret = 0;
out:
	free(p);
	return ret;
}

/*
 * Generator loop. slot[seq % LB_WINDOW_MAX] holds each outstanding sequence
 * number (0 = free); after a receive timeout every outstanding echo is given
 * up, so late replies to them are stale.
 */
static int icmp_flood_client_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *rbuf = w->buf, *req = w->buf + w->buflen;
	size_t len = ICMP_HDR_LEN + w->cfg.msg_size;
	struct icmp_echo_hdr *h = (struct icmp_echo_hdr *)req;
	uint64_t slot[LB_WINDOW_MAX] = {0}, sent_at[LB_WINDOW_MAX];
	uint64_t next = 1, got, ops = 0, timeouts = 0, mismatches = 0, sent = 0, loops = 0;
	int fd = w->cli_fd, window = w->cfg.window, outstanding = 0, ret;
	ssize_t n;

	if (sh->period_ns)
		return icmp_flood_client_paced(w);
	memset(req, 0, len);
	h->type = ICMP_ECHO_TYPE;
	h->id = htons(w->icmp_id);
	for (;; loops++) {
		/* Every pass, whatever arrived (foreign replies too): bounded in time. */
		if (lb_stopping(sh))
			return 0;
		if (loops % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			return 0;
		while (outstanding < window) {
			sent_at[next % LB_WINDOW_MAX] = lb_lat_start(sh);
			ret = icmp_flood_send(fd, req, len, next);
			if (ret < 0)
				return lb_child_fail(w, LB_CLIENT, errno,
						     "send on the raw ICMP socket", lb_fix_socket);
			if (!ret)
				break; /* no buffer: wait for replies (or the timeout) */
			slot[next % LB_WINDOW_MAX] = next;
			next++;
			outstanding++;
			atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		}
		n = recv(fd, rbuf, w->buflen, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return lb_child_fail(w, LB_CLIENT, errno,
						     "recv on the raw ICMP socket", lb_fix_socket);
			atomic_store_explicit(&sh->timeouts, ++timeouts, memory_order_relaxed);
			memset(slot, 0, sizeof(slot));
			outstanding = 0;
			if (lb_past_deadline(sh))
				return 0;
			continue;
		}
		ret = icmp_flood_reply(w, rbuf, n, len, &got);
		if (!ret)
			continue; /* another pinger's */
		if (ret < 0 || got >= next)
			goto mismatch;
		if (slot[got % LB_WINDOW_MAX] != got)
			continue; /* stale: given up after a timeout */
		slot[got % LB_WINDOW_MAX] = 0;
		outstanding--;
		lb_lat_record(sh, sent_at[got % LB_WINDOW_MAX]);
		atomic_store_explicit(&sh->ops, ++ops, memory_order_relaxed);
		continue;
	mismatch:
		atomic_store_explicit(&sh->mismatches, ++mismatches, memory_order_relaxed);
	}
}

/* The middle of lb_workload_describe(): "127.0.0.1 msg=64B window=1". */
static void icmp_flood_describe(const struct lb_flow *w, char *buf, size_t len)
{
	snprintf(buf, len, "%s msg=%zuB window=%d", w->addr, w->cfg.msg_size, w->cfg.window);
}

/*
 * No wake-up: the generator never blocks for long (replies come within
 * microseconds, the receive timeout bounds the rest).
 */
const struct lb_workload_type lb_icmp_flood_type = {
    .traits =
	{
	    .name = "icmp-flood",
	    .op = "echo round trip",
	    .ops = "echo round trips",
	    .addr = "127.0.0.1",
	    .window = true,
	    .latency = true,
	    .veth = true,
	    .rate = true,
	},
    .proto = "ICMP",
    .server_open = icmp_flood_server_open,
    .client_open = icmp_flood_client_open,
    .client_run = icmp_flood_client_run,
    .describe = icmp_flood_describe,
};
