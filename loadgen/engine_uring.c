// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the uring server engine (liburing 2.3). See engine.h.
 *
 * Receiving. In multishot mode one IORING_OP_RECV (IORING_OP_RECVMSG when
 * the reply needs the sender's address: UDP request/response) with
 * IORING_RECV_MULTISHOT and IOSQE_BUFFER_SELECT stays armed and posts one
 * completion per datagram or stream chunk, each in a buffer taken from a
 * provided-buffer ring. liburing 2.3 has no io_uring_setup_buf_ring(), so
 * the ring is set up by hand: page-aligned memory, io_uring_register_buf_ring,
 * io_uring_buf_ring_init/add/advance; a buffer goes back to the ring as soon
 * as its bytes are copied out. When the kernel refuses multishot recv or
 * buffer rings (lb_uring_probe, in create), single-shot mode arms one
 * IORING_OP_RECV(MSG) into the engine's own buffer per request instead.
 *
 * Sending. A reply is copied into a send slot and queued as IORING_OP_SEND
 * (to the sender's address in sqe->addr2/addr_len, sendto-style, in
 * multishot mode; IORING_OP_SENDMSG in single-shot mode, for kernels older
 * than 6.0). Nothing is submitted then: the next receive submits it and waits
 * for its completion and the next request in one io_uring_submit_and_wait
 * (with a timeout of LB_RCVTIMEO_MS, so that the stop flag and the deadline
 * are seen): one io_uring_enter per operation in the steady state.
 *
 * Completions are reaped into a small queue of received results, so that a
 * request that completes while a send is awaited is kept in order.
 *
 * This file must not include any tracing header.
 *
 * Length (over 600 lines, kept whole): both receive modes share the send
 * slots, the completion queue and the submit-and-wait loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine.h"
#include "sockets.h"
#include "util.h"

#define LB_URING_ENTRIES 64	/* SQ size; the CQ is twice that */
#define LB_URING_NBUFS 64	/* provided buffers (power of two) */
#define LB_URING_BGID 0		/* the provided-buffer group */
#define LB_URING_NSEND 8	/* sends in flight at most */

enum { LB_UD_RECV = 1, LB_UD_SEND = 2 }; /* user_data: kind in the low byte, slot above */

/* A received result not yet handed to the server loop. */
struct lb_uring_rx {
	int res;		/* bytes, or -errno */
	int bid;		/* provided buffer, -1 = the engine's own */
	unsigned char *data;	/* the payload, and how much of it is left */
	size_t left;
	struct sockaddr_storage peer;
	socklen_t plen;
};

struct lb_uring_tx {
	bool busy;
	unsigned char *buf;	/* a copy of the reply */
	size_t len, off;	/* stream: what is sent so far */
	struct sockaddr_storage peer;
	socklen_t plen;
	struct msghdr msg;	/* single-shot mode, datagrams */
	struct iovec iov;
};

struct lb_uring {
	struct io_uring ring;
	bool ring_ok;
	int fd, flags;
	enum lb_uring_mode mode;
	size_t cap;		/* payload bytes a receive takes */
	bool armed;		/* a receive is outstanding */
	int inflight;		/* sends submitted or queued, not yet completed */
	int send_err;		/* a failed send, reported by the next receive */

	/* Multishot: the provided-buffer ring and its buffers. */
	struct io_uring_buf_ring *br;
	unsigned char *bufs;
	size_t bufsz;
	struct msghdr mshot_msg; /* recvmsg multishot: the layout of each buffer */

	/* Single-shot: the engine's own receive buffer and its header. */
	unsigned char *rbuf;
	struct msghdr rmsg;
	struct iovec riov;
	struct sockaddr_storage rname;

	struct lb_uring_rx rx[LB_URING_NBUFS + 1]; /* FIFO of received results */
	unsigned rx_head, rx_tail;
	struct lb_uring_tx tx[LB_URING_NSEND];
};

#define LB_URING_NRX (LB_URING_NBUFS + 1)

/* ---- the probe, in the parent ---- */

static int lb_uring_disabled(void)
{
	char buf[16] = "";
	ssize_t n;
	int fd;

	fd = open("/proc/sys/kernel/io_uring_disabled", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : 0;
}

/* The one-line message for io_uring_queue_init's -@err; @engine names the engine setting. */
static void lb_uring_refused(int err, const char *engine, char *msg, size_t errlen)
{
	int disabled = lb_uring_disabled();

	if (disabled)
		lb_seterr(msg, errlen,
			  "engine uring unavailable: the kernel refuses io_uring "
			  "(kernel.io_uring_disabled = %d): run sysctl "
			  "kernel.io_uring_disabled=0 as root, or use %s syscall",
			  disabled, engine);
	else if (err == -ENOSYS)
		lb_seterr(msg, errlen,
			  "engine uring unavailable: this kernel has no io_uring "
			  "(CONFIG_IO_URING off, or a seccomp filter): use %s syscall",
			  engine);
	else if (err == -EPERM || err == -EACCES)
		lb_seterr(msg, errlen,
			  "engine uring unavailable: io_uring_setup is not permitted here "
			  "(a seccomp filter or container policy): allow it, or use "
			  "%s syscall",
			  engine);
	else
		lb_seterr(msg, errlen,
			  "engine uring unavailable: io_uring_setup failed: %s: raise "
			  "RLIMIT_MEMLOCK or free memory, or use %s syscall",
			  strerror(-err), engine);
}

/* Ring setup flags: one issuer with deferred task work (6.1+), else none. Returns 0 or -errno. */
static int lb_uring_ring_init(struct io_uring *ring)
{
	int ret;

	ret = io_uring_queue_init(LB_URING_ENTRIES, ring,
				  IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	if (ret == -EINVAL)
		ret = io_uring_queue_init(LB_URING_ENTRIES, ring, 0);
	return ret;
}

/* A buffer ring of @n entries for @ring, page-aligned; NULL + *@err. */
static struct io_uring_buf_ring *lb_uring_br_setup(struct io_uring *ring, unsigned n, int *err)
{
	struct io_uring_buf_reg reg = {0};
	struct io_uring_buf_ring *br = NULL;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	ret = posix_memalign((void **)&br, page > 0 ? (size_t)page : 4096,
			     n * sizeof(struct io_uring_buf));
	if (ret) {
		*err = -ret;
		return NULL;
	}
	memset(br, 0, n * sizeof(struct io_uring_buf));
	reg.ring_addr = (unsigned long)br;
	reg.ring_entries = n;
	reg.bgid = LB_URING_BGID;
	ret = io_uring_register_buf_ring(ring, &reg, 0);
	if (ret < 0) {
		free(br);
		*err = ret;
		return NULL;
	}
	io_uring_buf_ring_init(br);
	return br;
}

/*
 * Does the kernel take a multishot recv from a buffer ring? One datagram over
 * a socketpair must complete with IORING_CQE_F_MORE (still armed) and a
 * buffer. The caller frees *@brp after io_uring_queue_exit (which cancels
 * the request left armed).
 */
static bool lb_uring_multishot_works(struct io_uring *ring, struct io_uring_buf_ring **brp,
				     unsigned char *buf, unsigned len)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int sv[2], err = 0;
	bool ok = false;

	*brp = lb_uring_br_setup(ring, 1, &err);
	if (!*brp)
		return false;
	io_uring_buf_ring_add(*brp, buf, len, 0, io_uring_buf_ring_mask(1), 0);
	io_uring_buf_ring_advance(*brp, 1);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	sqe = io_uring_get_sqe(ring);
	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = LB_URING_BGID;
	if (write(sv[1], "x", 1) == 1 && io_uring_submit_and_wait(ring, 1) >= 0 &&
	    io_uring_peek_cqe(ring, &cqe) == 0) {
		ok = cqe->res == 1 && (cqe->flags & IORING_CQE_F_MORE) &&
		     (cqe->flags & IORING_CQE_F_BUFFER);
		io_uring_cqe_seen(ring, cqe);
	}
	close(sv[0]);
	close(sv[1]);
	return ok;
}

/* Returns 0 with the mode in *@mode, or -errno with a one-line message in @err. */
int lb_uring_probe(enum lb_uring_mode *mode, const char *engine, char *err, size_t errlen)
{
	struct io_uring_buf_ring *br = NULL;
	struct io_uring ring;
	unsigned char buf[64];
	int ret;

	ret = lb_uring_ring_init(&ring);
	if (ret < 0) {
		lb_uring_refused(ret, engine, err, errlen);
		return ret == -EACCES ? -EPERM : ret;
	}
	*mode = lb_uring_multishot_works(&ring, &br, buf, sizeof(buf)) ? LB_URING_MULTISHOT
									: LB_URING_SINGLESHOT;
	io_uring_queue_exit(&ring);
	free(br);
	return 0;
}

/* ---- the engine, in the server process ---- */

static unsigned char *lb_uring_buf(struct lb_uring *u, int bid)
{
	return u->bufs + (size_t)bid * u->bufsz;
}

/* Give provided buffer @bid back to the kernel. */
static void lb_uring_recycle(struct lb_uring *u, int bid)
{
	if (bid < 0)
		return;
	io_uring_buf_ring_add(u->br, lb_uring_buf(u, bid), (unsigned)u->bufsz, (unsigned short)bid,
			      io_uring_buf_ring_mask(LB_URING_NBUFS), 0);
	io_uring_buf_ring_advance(u->br, 1);
}

/* Queue the receive (multishot: once; single-shot: per request). */
static int lb_uring_arm(struct lb_uring *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	bool peer = u->flags & LB_ENGINE_PEER;

	if (!sqe)
		return -EBUSY;
	if (u->mode == LB_URING_MULTISHOT) {
		if (peer)
			io_uring_prep_recvmsg_multishot(sqe, u->fd, &u->mshot_msg, 0);
		else
			io_uring_prep_recv_multishot(sqe, u->fd, NULL, 0, 0);
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = LB_URING_BGID;
	} else if (peer) {
		memset(&u->rmsg, 0, sizeof(u->rmsg));
		u->riov.iov_base = u->rbuf;
		u->riov.iov_len = u->cap;
		u->rmsg.msg_iov = &u->riov;
		u->rmsg.msg_iovlen = 1;
		u->rmsg.msg_name = &u->rname;
		u->rmsg.msg_namelen = sizeof(u->rname);
		io_uring_prep_recvmsg(sqe, u->fd, &u->rmsg, 0);
	} else {
		io_uring_prep_recv(sqe, u->fd, u->rbuf, u->cap, 0);
	}
	io_uring_sqe_set_data64(sqe, LB_UD_RECV);
	u->armed = true;
	return 0;
}

/* Queue slot @i's (remaining) bytes. Returns 0 or -EBUSY (no SQE: cannot happen, SQ > slots). */
static int lb_uring_queue_send(struct lb_uring *u, int i)
{
	struct lb_uring_tx *t = &u->tx[i];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		return -EBUSY;
	if (!t->plen) {
		io_uring_prep_send(sqe, u->fd, t->buf + t->off, t->len - t->off,
				   u->flags & LB_ENGINE_STREAM ? MSG_NOSIGNAL : 0);
	} else if (u->mode == LB_URING_MULTISHOT) {
		/* sendto: the address in addr2/addr_len (kernel >= 6.0; liburing 2.3 has no helper). */
		io_uring_prep_send(sqe, u->fd, t->buf, t->len, 0);
		sqe->addr2 = (unsigned long)&t->peer;
		sqe->addr_len = (unsigned short)t->plen;
	} else {
		memset(&t->msg, 0, sizeof(t->msg));
		t->iov.iov_base = t->buf;
		t->iov.iov_len = t->len;
		t->msg.msg_iov = &t->iov;
		t->msg.msg_iovlen = 1;
		t->msg.msg_name = &t->peer;
		t->msg.msg_namelen = t->plen;
		io_uring_prep_sendmsg(sqe, u->fd, &t->msg, 0);
	}
	io_uring_sqe_set_data64(sqe, LB_UD_SEND | ((__u64)i << 8));
	return 0;
}

/* A send completed: free the slot, finish a short stream send, keep a real error. */
static void lb_uring_sent(struct lb_uring *u, int i, int res)
{
	struct lb_uring_tx *t = &u->tx[i];

	if (res > 0 && (u->flags & LB_ENGINE_STREAM) && t->off + (size_t)res < t->len) {
		t->off += (size_t)res;
		if (lb_uring_queue_send(u, i) == 0)
			return;
		res = -EBUSY;
	}
	t->busy = false;
	u->inflight--;
	/* Datagrams: a reply the kernel had no room for is lost; the generator resends. */
	if (res < 0 && !(u->flags & LB_ENGINE_STREAM) &&
	    (res == -ENOBUFS || res == -EAGAIN || res == -ECONNREFUSED))
		return;
	if (res < 0 && !u->send_err)
		u->send_err = res;
}

/* A receive completed: queue the result (the multishot buffer stays ours until consumed). */
static void lb_uring_received(struct lb_uring *u, const struct io_uring_cqe *cqe)
{
	struct lb_uring_rx *r;
	int res = cqe->res;

	if (!(cqe->flags & IORING_CQE_F_MORE))
		u->armed = false;
	if (res == -ENOBUFS && u->mode == LB_URING_MULTISHOT)
		return; /* every buffer is queued: rearmed once one is consumed */
	r = &u->rx[u->rx_tail % LB_URING_NRX];
	r->res = res;
	r->bid = -1;
	r->data = NULL;
	r->left = 0;
	r->plen = 0;
	if (res >= 0 && (cqe->flags & IORING_CQE_F_BUFFER)) {
		unsigned char *b;

		r->bid = (int)(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
		b = lb_uring_buf(u, r->bid);
		r->data = b;
		r->left = (size_t)res;
		if (u->flags & LB_ENGINE_PEER) {
			struct io_uring_recvmsg_out *o;

			o = io_uring_recvmsg_validate(b, res, &u->mshot_msg);
			if (!o) {
				r->res = -EMSGSIZE;
			} else {
				r->plen = o->namelen < sizeof(r->peer) ? o->namelen
								       : sizeof(r->peer);
				memcpy(&r->peer, io_uring_recvmsg_name(o), r->plen);
				r->data = io_uring_recvmsg_payload(o, &u->mshot_msg);
				r->left = io_uring_recvmsg_payload_length(o, res, &u->mshot_msg);
				if (o->payloadlen < r->left)
					r->left = o->payloadlen;
			}
		}
	} else if (res >= 0 && u->mode == LB_URING_SINGLESHOT) {
		r->data = u->rbuf;
		r->left = (size_t)res;
		if (u->flags & LB_ENGINE_PEER) {
			r->plen = u->rmsg.msg_namelen;
			memcpy(&r->peer, &u->rname, r->plen);
		}
	}
	if (r->res < 0 && r->bid >= 0) {
		lb_uring_recycle(u, r->bid);
		r->bid = -1;
	}
	u->rx_tail++;
}

/* Take every completion there is. */
static void lb_uring_reap(struct lb_uring *u)
{
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;

	/* Not io_uring_peek_cqe: on an empty ring it may enter the kernel. */
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		__u64 ud = io_uring_cqe_get_data64(cqe);

		if ((ud & 0xff) == LB_UD_SEND)
			lb_uring_sent(u, (int)(ud >> 8), cqe->res);
		else
			lb_uring_received(u, cqe);
		n++;
	}
	io_uring_cq_advance(&u->ring, n);
}

/*
 * Submit what is queued and wait for @want completions, at most
 * LB_RCVTIMEO_MS; reap them. Returns 0, -ETIME at the timeout, or -errno.
 */
static int lb_uring_wait(struct lb_uring *u, unsigned want)
{
	struct __kernel_timespec ts = {.tv_sec = 0, .tv_nsec = LB_RCVTIMEO_MS * 1000000L};
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit_and_wait_timeout(&u->ring, &cqe, want, &ts, NULL);
	lb_uring_reap(u);
	if (ret == -EINTR || ret == -EAGAIN || ret == -EBUSY)
		ret = 0;
	return ret < 0 ? ret : 0;
}

/* Returns 0 with *@out set, or -errno with *@what set. */
int lb_uring_open(struct lb_uring **out, enum lb_uring_mode mode, int fd, size_t cap, int flags,
		  const char **what)
{
	struct lb_uring *u;
	size_t hdr = 0;
	int ret, i;

	*out = NULL;
	u = calloc(1, sizeof(*u));
	if (!u) {
		ret = -ENOMEM;
		*what = "allocating the io_uring engine";
		goto out;
	}
	u->fd = fd;
	u->flags = flags;
	u->mode = mode;
	u->cap = cap;
	ret = lb_uring_ring_init(&u->ring);
	if (ret < 0) {
		*what = "io_uring_queue_init in the server";
		goto out_free;
	}
	u->ring_ok = true;
	for (i = 0; i < LB_URING_NSEND; i++) {
		u->tx[i].buf = malloc(cap);
		if (!u->tx[i].buf) {
			ret = -ENOMEM;
			*what = "allocating the io_uring send buffers";
			goto out_free;
		}
	}
	if (mode == LB_URING_MULTISHOT) {
		if (flags & LB_ENGINE_PEER) {
			u->mshot_msg.msg_namelen = sizeof(struct sockaddr_storage);
			hdr = sizeof(struct io_uring_recvmsg_out) + sizeof(struct sockaddr_storage);
		}
		u->bufsz = hdr + cap;
		/* Zeroed: what the kernel writes there later is invisible to valgrind. */
		u->bufs = calloc(LB_URING_NBUFS, u->bufsz);
		if (!u->bufs) {
			ret = -ENOMEM;
			*what = "allocating the io_uring provided buffers";
			goto out_free;
		}
		u->br = lb_uring_br_setup(&u->ring, LB_URING_NBUFS, &ret);
		if (!u->br) {
			*what = "io_uring_register_buf_ring in the server";
			goto out_free;
		}
		for (i = 0; i < LB_URING_NBUFS; i++)
			io_uring_buf_ring_add(u->br, lb_uring_buf(u, i), (unsigned)u->bufsz,
					      (unsigned short)i,
					      io_uring_buf_ring_mask(LB_URING_NBUFS), i);
		io_uring_buf_ring_advance(u->br, LB_URING_NBUFS);
	} else {
		u->rbuf = calloc(1, cap);
		if (!u->rbuf) {
			ret = -ENOMEM;
			*what = "allocating the io_uring receive buffer";
			goto out_free;
		}
	}
	*out = u;
	return 0;

out_free:
	lb_uring_close(u);
out:
	return ret;
}

/* Returns the bytes received, 0 (empty datagram, end of stream), -EAGAIN at the timeout, -errno. */
ssize_t lb_uring_recv(struct lb_uring *u, void *buf, size_t cap, struct sockaddr *peer,
		      socklen_t *plen, const char **what)
{
	struct lb_uring_rx *r;
	bool timed_out = false;
	size_t n;
	int ret;

	for (;;) {
		if (u->rx_head != u->rx_tail) {
			r = &u->rx[u->rx_head % LB_URING_NRX];
			if (r->res < 0) {
				u->rx_head++;
				*what = u->flags & LB_ENGINE_PEER ? "io_uring recvmsg on the server "
								    "socket"
								  : "io_uring recv on the server socket";
				return r->res;
			}
			n = r->left < cap ? r->left : cap;
			if (n)
				memcpy(buf, r->data, n);
			if (peer && plen) {
				*plen = r->plen < *plen ? r->plen : *plen;
				memcpy(peer, &r->peer, *plen);
			}
			r->data += n;
			r->left -= n;
			/* A datagram is consumed whole (the rest is cut, as recvfrom does). */
			if (!r->left || !(u->flags & LB_ENGINE_STREAM)) {
				lb_uring_recycle(u, r->bid);
				u->rx_head++;
			}
			return (ssize_t)n;
		}
		if (u->send_err) {
			ret = u->send_err;
			u->send_err = 0;
			/* The generator closed its end: like end of stream. */
			if ((u->flags & LB_ENGINE_STREAM) && (ret == -EPIPE || ret == -ECONNRESET))
				return 0;
			*what = "io_uring send on the server socket";
			return ret;
		}
		if (timed_out)
			return -EAGAIN;
		if (!u->armed) {
			ret = lb_uring_arm(u);
			if (ret < 0) {
				*what = "io_uring_get_sqe for the receive";
				return ret;
			}
		}
		/* The queued replies' completions and the next request, in one enter. */
		ret = lb_uring_wait(u, 1 + (unsigned)u->inflight);
		if (ret == -ETIME) {
			timed_out = true;
		} else if (ret < 0) {
			*what = "io_uring_submit_and_wait on the server";
			return ret;
		}
	}
}

/* Returns @len, or -errno. */
ssize_t lb_uring_send(struct lb_uring *u, const void *buf, size_t len,
		      const struct sockaddr *peer, socklen_t plen, const char **what)
{
	struct lb_uring_tx *t;
	int i, ret;

	if (len > u->cap) {
		*what = "io_uring send of a reply larger than the message size";
		return -EMSGSIZE;
	}
	for (;;) {
		for (i = 0; i < LB_URING_NSEND && u->tx[i].busy; i++)
			;
		if (i < LB_URING_NSEND)
			break;
		/* Every slot in flight (the socket is backed up): wait for one. */
		ret = lb_uring_wait(u, 1);
		if (ret == -ETIME) {
			*what = "io_uring send on the server socket (no send completed)";
			return -EAGAIN;
		}
		if (ret < 0) {
			*what = "io_uring_submit_and_wait on the server";
			return ret;
		}
	}
	t = &u->tx[i];
	memcpy(t->buf, buf, len);
	t->len = len;
	t->off = 0;
	t->plen = peer && plen <= sizeof(t->peer) ? plen : 0;
	if (t->plen)
		memcpy(&t->peer, peer, t->plen);
	ret = lb_uring_queue_send(u, i);
	if (ret < 0) {
		*what = "io_uring_get_sqe for the send";
		return ret;
	}
	t->busy = true;
	u->inflight++;
	return (ssize_t)len;
}

void lb_uring_close(struct lb_uring *u)
{
	int i;

	if (!u)
		return;
	/* Exit cancels the armed receive and drops the buffer ring's registration. */
	if (u->ring_ok)
		io_uring_queue_exit(&u->ring);
	free(u->br);
	free(u->bufs);
	free(u->rbuf);
	for (i = 0; i < LB_URING_NSEND; i++)
		free(u->tx[i].buf);
	free(u);
}
