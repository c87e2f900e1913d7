// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the uring server engine when loadbench was built without
 * liburing. The engine still exists and says how to get it. See engine.h.
 *
 * This file must not include any tracing header.
 */
#include <errno.h>

#include "engine.h"
#include "util.h"

/* Returns -ENOSYS with the message naming the fix. */
int lb_uring_probe(enum lb_uring_mode *mode, const char *engine, char *err, size_t errlen)
{
	lb_seterr(err, errlen,
		  "engine uring unavailable: built without liburing (apt-get install "
		  "liburing-dev and rebuild)");
	return -ENOSYS;
}

/* Never reached (create refuses the engine); returns -ENOSYS. */
int lb_uring_open(struct lb_uring **out, enum lb_uring_mode mode, int fd, size_t cap, int flags,
		  const char **what)
{
	*out = NULL;
	*what = "the uring engine (built without liburing)";
	return -ENOSYS;
}

/* Never reached; returns -ENOSYS. */
ssize_t lb_uring_recv(struct lb_uring *u, void *buf, size_t cap, struct sockaddr *peer,
		      socklen_t *plen, const char **what)
{
	*what = "the uring engine (built without liburing)";
	return -ENOSYS;
}

/* Never reached; returns -ENOSYS. */
ssize_t lb_uring_send(struct lb_uring *u, const void *buf, size_t len,
		      const struct sockaddr *peer, socklen_t plen, const char **what)
{
	*what = "the uring engine (built without liburing)";
	return -ENOSYS;
}

void lb_uring_close(struct lb_uring *u)
{
}
