// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the pcap-flood workload.
 *
 * Open loop, like udp-stream, but the generator does not use a socket: it
 * crafts Ethernet + IPv6 + UDP frames (frame.c) toward the server's [::1]
 * port and hands them to lo with libpcap's pcap_inject(), as a packet
 * generator or replay tool would. lo loops each frame back into the stack,
 * which delivers it to the server socket like any datagram. The server is
 * udp-stream's: it receives, makes syscalls_per_op extra syscalls and counts.
 * One operation = one datagram the server received; sent = frames injected.
 *
 * IPv6 only: a frame toward 127.0.0.1 injected on lo is dropped by the stack
 * as a martian (route_localnet=0), one toward ::1 is delivered.
 * The stack verifies the UDP checksum of an injected frame (a wrong one is
 * dropped and counted in Udp6InCsumErrors), so every datagram the server
 * counts carried a correct one.
 *
 * The pcap_t is opened in the parent (client_open) and only pcap_inject()
 * (a send() on its packet socket) is called in the generator. It captures
 * nothing: a filter that rejects every packet is attached in the kernel, so
 * the tap costs lo one filter run per packet.
 *
 * Injection needs root or CAP_NET_RAW; create says so when it is missing.
 * Without libpcap at build time, pcap_flood_none.c stands in: the workload
 * exists and says how to get it.
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "frame.h"
#include "naming.h"
#include "sockets.h"
#include "util.h"
#include "workload.h"

/* The fix for an IPv4 address; %s: the address setting ("addr", "--addr"). */
#define PCAP_FLOOD_FIX_ADDR                                                                        \
	"pcap-flood injects toward ::1 (a frame toward 127.0.0.1 on lo is dropped as a martian): " \
	"use %s ::1"

#define PCAP_FLOOD_DEV "lo"
#define PCAP_FLOOD_BUFFER (256 * 1024) /* the capture ring it never fills */

/* The fix when injecting is refused; %s: the workload setting ("name", "--workload"). */
#define PCAP_FLOOD_FIX_PERM                                                                        \
	"pcap-flood injects frames on lo with libpcap, which needs root or CAP_NET_RAW: run as "   \
	"root (sudo), or choose another %s"

/*
 * An activated pcap_t on lo that captures nothing, in *@out. Returns 0, or
 * -errno with a one-line message in @err, naming settings as @names says.
 */
static int pcap_flood_open(pcap_t **out, const struct lb_workload_naming *names, char *err,
			   size_t errlen)
{
	struct bpf_insn reject = BPF_STMT(BPF_RET | BPF_K, 0);
	struct bpf_program none = {.bf_len = 1, .bf_insns = &reject};
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;
	int ret;

	p = pcap_create(PCAP_FLOOD_DEV, ebuf);
	if (!p) {
		lb_seterr(err, errlen, "pcap_create(%s) failed: %s: %s", PCAP_FLOOD_DEV, ebuf,
			  lb_fix_socket);
		return -ENOMEM;
	}
	pcap_set_snaplen(p, 64);
	pcap_set_buffer_size(p, PCAP_FLOOD_BUFFER);
	pcap_set_immediate_mode(p, 1);
	ret = pcap_activate(p);
	if (ret < 0) {
		if (ret == PCAP_ERROR_PERM_DENIED) {
			lb_seterr(err, errlen, PCAP_FLOOD_FIX_PERM, lb_wf(names, LB_WF_NAME));
			ret = -EPERM;
		} else if (ret == PCAP_ERROR_NO_SUCH_DEVICE || ret == PCAP_ERROR_IFACE_NOT_UP) {
			lb_seterr(err, errlen,
				  "pcap-flood needs the loopback interface %s: %s: bring "
				  "it up (ip link set lo up)",
				  PCAP_FLOOD_DEV, pcap_geterr(p));
			ret = -ENODEV;
		} else {
			lb_seterr(err, errlen, "pcap_activate(%s) failed: %s: %s", PCAP_FLOOD_DEV,
				  pcap_geterr(p), lb_fix_socket);
			ret = -EIO;
		}
		goto out_close;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		lb_seterr(err, errlen,
			  "%s has link type %s, not Ethernet: pcap-flood crafts Ethernet "
			  "frames; run it where lo is an Ethernet-framed loopback (Linux)",
			  PCAP_FLOOD_DEV, pcap_datalink_val_to_name(pcap_datalink(p)));
		ret = -EPROTONOSUPPORT;
		goto out_close;
	}
	if (pcap_setfilter(p, &none) < 0) {
		lb_seterr(err, errlen,
			  "cannot attach the reject-all filter to the injecting pcap "
			  "handle: %s: this is a bug, please report it",
			  pcap_geterr(p));
		ret = -EIO;
		goto out_close;
	}
	*out = p;
	return 0;

out_close:
	pcap_close(p);
	return ret;
}

/* In create: ::1 only, injection allowed, then the server socket (udp-stream's kind). */
static int pcap_flood_server_open(struct lb_flow *w, char *err, size_t errlen)
{
	pcap_t *p;
	int ret;

	if (!strchr(w->addr, ':')) {
		lb_seterr(err, errlen, PCAP_FLOOD_FIX_ADDR, lb_wf(w->cfg.naming, LB_WF_ADDR));
		return -EADDRNOTAVAIL;
	}
	ret = pcap_flood_open(&p, w->cfg.naming, err, errlen);
	if (ret < 0)
		return ret;
	pcap_close(p);
	return lb_server_socket_open(w, SOCK_DGRAM, err, errlen);
}

static void pcap_flood_reset(struct lb_flow *w)
{
	lb_udp_stream_type.reset(w);
}

/*
 * Per start: a UDP socket bound to [::1]:0 reserves the source port the
 * frames claim (the generator inherits it), the injecting pcap_t, and the
 * frame, built once in the send half of w->buf.
 */
static int pcap_flood_client_open(struct lb_flow *w)
{
	struct sockaddr_in6 *srv = (struct sockaddr_in6 *)&w->srv_addr;
	struct lb_frame_udp6 a = {0};
	unsigned char *frame = w->buf + w->buflen, *payload = w->buf; /* the receive half */
	pcap_t *p = NULL;
	int ret;

	ret = lb_client_socket_open(w, SOCK_DGRAM);
	if (ret < 0)
		return ret;
	ret = pcap_flood_open(&p, w->cfg.naming, w->errmsg, sizeof(w->errmsg));
	if (ret < 0)
		goto out_close;
	a.src = ((struct sockaddr_in6 *)&w->cli_addr)->sin6_addr;
	a.sport = ntohs(((struct sockaddr_in6 *)&w->cli_addr)->sin6_port);
	a.dst = srv->sin6_addr;
	a.dport = w->port;
	memset(payload, 0, w->cfg.msg_size);
	if (lb_frame_udp6_build(frame, w->buflen, &a, payload, w->cfg.msg_size) < 0) {
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "a %zu-byte payload does not fit in one frame: use a smaller %s",
			 w->cfg.msg_size, lb_wf(w->cfg.naming, LB_WF_MSG_SIZE));
		ret = -EINVAL;
		pcap_close(p);
		goto out_close;
	}
	w->cli_priv = p;
	return 0;

out_close:
	close(w->cli_fd);
	w->cli_fd = -1;
	return ret;
}

static void pcap_flood_client_release(struct lb_flow *w)
{
	if (w->cli_priv)
		pcap_close(w->cli_priv);
	w->cli_priv = NULL;
}

static int pcap_flood_server_run(struct lb_flow *w)
{
	return lb_udp_stream_type.server_run(w);
}

/* Generator loop: number, seal and inject frame after frame; one lo has no room for is not sent. */
static int pcap_flood_client_run(struct lb_flow *w)
{
	struct lb_shared *sh = w->sh;
	unsigned char *frame = w->buf + w->buflen;
	size_t len = LB_FRAME_HDR_LEN + w->cfg.msg_size;
	pcap_t *p = w->cli_priv;
	uint64_t seq, sent = 0;

	for (seq = 1;; seq++) {
		memcpy(frame + LB_FRAME_HDR_LEN, &seq, sizeof(seq));
		lb_frame_udp6_seal(frame, len);
		errno = 0;
		if (pcap_inject(p, frame, len) == (int)len)
			atomic_store_explicit(&sh->sent, ++sent, memory_order_relaxed);
		else if (errno != EINTR && errno != ENOBUFS && errno != EAGAIN)
			return lb_child_fail(w, LB_CLIENT, errno, "pcap_inject on lo",
					     lb_fix_socket);
		if (lb_stopping(sh))
			return 0;
		if (seq % LB_DEADLINE_EVERY == 0 && lb_past_deadline(sh))
			return 0;
	}
}

static void pcap_flood_wake(struct lb_flow *w)
{
	lb_udp_stream_type.wake(w);
}

/* The middle of lb_workload_describe(): "[::1]:4000 msg=64B syscalls/op=1+4 via=pcap_inject(lo)" */
static void pcap_flood_describe(const struct lb_flow *w, char *buf, size_t len)
{
	char ep[INET6_ADDRSTRLEN + 16];

	lb_endpoint_format(w, ep, sizeof(ep));
	snprintf(buf, len, "%s msg=%zuB syscalls/op=%s1+%d via=pcap_inject(lo)", ep,
		 w->cfg.msg_size, w->engine == LB_ENGINE_URING ? "<=" : "", w->cfg.syscalls_per_op);
}

const struct lb_workload_type lb_pcap_flood_type = {
    .traits = LB_PCAP_FLOOD_TRAITS,
    .proto = "UDP",
    .server_open = pcap_flood_server_open,
    .reset = pcap_flood_reset,
    .client_open = pcap_flood_client_open,
    .server_run = pcap_flood_server_run,
    .client_run = pcap_flood_client_run,
    .wake = pcap_flood_wake,
    .ops_by_server = true,
    .describe = pcap_flood_describe,
    .client_release = pcap_flood_client_release,
    .count_filter = "inbound and udp",
};
