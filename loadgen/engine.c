// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the server engines' common entry points and the syscall engine
 * (plain blocking recvfrom/sendto with SO_RCVTIMEO, what the servers have
 * always done). The uring engine is engine_uring.c. See engine.h.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>
#include <string.h>

#include "engine.h"
#include "loadgen.h"
#include "sockets.h"

/* Indexed by enum lb_engine_kind: keep the two in step. */
const char *const lb_engine_names[] = {"syscall", "uring", NULL};

/* Returns the kind named @name, or -1. */
int lb_engine_kind_of(const char *name)
{
	int i;

	for (i = 0; name && lb_engine_names[i]; i++)
		if (!strcmp(name, lb_engine_names[i]))
			return i;
	return -1;
}

/* Returns 0, or -errno with e->what set. */
int lb_engine_open(struct lb_engine *e, int kind, enum lb_uring_mode mode, int fd, size_t cap,
		   int flags)
{
	int ret;

	memset(e, 0, sizeof(*e));
	e->fd = fd;
	e->send_flags = flags & LB_ENGINE_STREAM ? MSG_NOSIGNAL : 0;
	if (kind == LB_ENGINE_URING)
		return lb_uring_open(&e->ring, mode, fd, cap, flags, &e->what);
	ret = lb_sock_set_rcvtimeo(fd, LB_RCVTIMEO_MS);
	if (ret < 0)
		e->what = "setsockopt(SO_RCVTIMEO) on the server socket";
	return ret;
}

/* Returns the bytes received, -EAGAIN at the receive timeout, or -errno. */
ssize_t lb_engine_recv(struct lb_engine *e, void *buf, size_t cap, struct sockaddr *peer,
		       socklen_t *plen)
{
	ssize_t n;

	if (e->ring)
		return lb_uring_recv(e->ring, buf, cap, peer, plen, &e->what);
	n = recvfrom(e->fd, buf, cap, 0, peer, plen);
	if (n >= 0)
		return n;
	e->what = "recv on the server socket";
	return errno == EWOULDBLOCK ? -EAGAIN : -errno;
}

/* Returns @len (what was sent), or -errno. */
ssize_t lb_engine_send(struct lb_engine *e, const void *buf, size_t len,
		       const struct sockaddr *peer, socklen_t plen)
{
	ssize_t n;

	if (e->ring)
		return lb_uring_send(e->ring, buf, len, peer, plen, &e->what);
	n = sendto(e->fd, buf, len, e->send_flags, peer, plen);
	if (n >= 0)
		return n;
	e->what = "send on the server socket";
	return -errno;
}

void lb_engine_close(struct lb_engine *e)
{
	lb_uring_close(e->ring);
	e->ring = NULL;
}
