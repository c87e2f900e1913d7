/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: the server engines. A server loop (udp_rr.c, tcp_rr.c,
 * udp_stream.c) receives and sends through one struct lb_engine, whatever
 * the engine is:
 *
 *   syscall  plain blocking recvfrom/sendto on the socket, SO_RCVTIMEO for
 *            the wake-ups (engine.c); what the servers always did.
 *   uring    io_uring (liburing): multishot recv from a provided-buffer ring
 *            where the kernel has them, else single-shot recv; replies are
 *            IORING_OP_SEND, submitted with the wait for the next request, so
 *            one io_uring_enter per operation (engine_uring.c; without
 *            liburing engine_uring_none.c says how to get it).
 *
 * Only the server's data path goes through the engine: accept, socket
 * options and the --syscalls-per-op extra syscalls stay plain syscalls in
 * both engines. The generator always uses plain syscalls (it is the
 * measuring client). Not for src/: the API is loadgen.h.
 */
#ifndef LB_ENGINE_H
#define LB_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

enum lb_engine_kind {
	LB_ENGINE_SYSCALL,
	LB_ENGINE_URING,
};

/* How the uring engine receives, chosen in create by lb_uring_probe(). */
enum lb_uring_mode {
	LB_URING_MULTISHOT,	/* multishot recv(msg) into a provided-buffer ring (kernel >= 6.0) */
	LB_URING_SINGLESHOT,	/* one recv(msg) per request into the engine's own buffer */
};

/* lb_engine_open() flags. */
#define LB_ENGINE_PEER 0x1   /* datagrams: each reply goes to the request's sender */
#define LB_ENGINE_STREAM 0x2 /* a connected stream socket: replies are completed, EOF ends */

struct lb_uring;

/* One server socket's engine, in the server process. */
struct lb_engine {
	int fd;
	int send_flags;		/* MSG_NOSIGNAL on streams */
	struct lb_uring *ring;	/* NULL: the syscall engine */
	const char *what;	/* what failed, for lb_child_fail(); set with every error */
};

/* lb_engine_kind_of - the kind named @name ("syscall", "uring"), or -1. */
int lb_engine_kind_of(const char *name);

/*
 * lb_engine_open - set up @e on socket @fd for @kind (the uring engine in
 * @mode) with @flags (LB_ENGINE_*); receives are at most @cap bytes. In the
 * server process. Returns 0, or -errno with e->what set.
 */
int lb_engine_open(struct lb_engine *e, int kind, enum lb_uring_mode mode, int fd, size_t cap,
		   int flags);

/*
 * lb_engine_recv - receive the next request (stream: up to @cap bytes of
 * it) into @buf; with @peer (LB_ENGINE_PEER) its sender's address too.
 * Returns the bytes received (0: an empty datagram, or end of stream),
 * -EAGAIN when nothing arrived within LB_RCVTIMEO_MS (check the stop flag),
 * or -errno with e->what set.
 */
ssize_t lb_engine_recv(struct lb_engine *e, void *buf, size_t cap, struct sockaddr *peer,
		       socklen_t *plen);

/*
 * lb_engine_send - send @len bytes of @buf (to @peer when not NULL). The
 * syscall engine is one sendto (a stream may take part of it); the uring
 * engine copies the bytes and queues the send for its next wait, completing
 * a short stream send itself. Returns the bytes sent or queued, or -errno
 * with e->what set.
 */
ssize_t lb_engine_send(struct lb_engine *e, const void *buf, size_t len,
		       const struct sockaddr *peer, socklen_t plen);

/* lb_engine_close - release what lb_engine_open() set up (not the socket). */
void lb_engine_close(struct lb_engine *e);

/*
 * The uring engine (engine_uring.c, or engine_uring_none.c without
 * liburing); lb_engine_*() call these when e->ring is set.
 */

/*
 * lb_uring_probe - in create, in the parent: can this process use io_uring,
 * and does the kernel take multishot recv and provided-buffer rings? Returns
 * 0 with the mode to use in *@mode, or -errno with a one-line message
 * naming the cause and the fix in @err: -ENOSYS built without liburing or a
 * kernel without io_uring, -EPERM io_uring refused (io_uring_disabled,
 * seccomp). @engine is how the message names the engine setting
 * ("engine", "--engine").
 */
int lb_uring_probe(enum lb_uring_mode *mode, const char *engine, char *err, size_t errlen);

/* lb_uring_open - see lb_engine_open(); sets *@out. Returns 0 or -errno with *@what set. */
int lb_uring_open(struct lb_uring **out, enum lb_uring_mode mode, int fd, size_t cap, int flags,
		  const char **what);
/* lb_uring_recv - see lb_engine_recv(). */
ssize_t lb_uring_recv(struct lb_uring *u, void *buf, size_t cap, struct sockaddr *peer,
		      socklen_t *plen, const char **what);
/* lb_uring_send - see lb_engine_send(). */
ssize_t lb_uring_send(struct lb_uring *u, const void *buf, size_t len,
		      const struct sockaddr *peer, socklen_t plen, const char **what);
/* lb_uring_close - tear down the ring and free @u; NULL is fine. */
void lb_uring_close(struct lb_uring *u);

#endif
