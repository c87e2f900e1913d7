// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: the IP sockets every workload opens (see sockets.h).
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "naming.h"
#include "sockets.h"
#include "util.h"

const char lb_fix_socket[] = "unexpected on loopback: check dmesg and socket memory "
			     "(net.core.*mem*), then rerun";

/* Returns 0 or -errno. */
int lb_sock_set_rcvtimeo(int fd, int ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ? -errno : 0;
}

/* Returns @buf: "127.0.0.1:5000", or "[::1]:5000" for an IPv6 @addr. */
const char *lb_sock_endpoint(const char *addr, uint16_t port, char *buf, size_t len)
{
	if (strchr(addr, ':'))
		snprintf(buf, len, "[%s]:%u", addr, (unsigned int)port);
	else
		snprintf(buf, len, "%s:%u", addr, (unsigned int)port);
	return buf;
}

/* Returns 0 with the bound socket in *@fd, or -errno with a message in @err. */
int lb_sock_server_open(const char *addr, uint16_t port, int socktype, const char *proto,
			const struct lb_workload_naming *names, int *fd,
			struct sockaddr_storage *ss, socklen_t *sslen, uint16_t *bound, char *err,
			size_t errlen)
{
	struct sockaddr_storage want = {0};
	socklen_t wantlen;
	char ep[LB_ENDPOINT_LEN];
	int family, sfd, ret;

	if (strchr(addr, ':')) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&want;

		family = AF_INET6;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &s6->sin6_addr);
		wantlen = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&want;

		family = AF_INET;
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		inet_pton(AF_INET, addr, &s4->sin_addr);
		wantlen = sizeof(*s4);
	}
	*bound = port;
	lb_sock_endpoint(addr, port, ep, sizeof(ep));

	sfd = socket(family, socktype | SOCK_CLOEXEC, 0);
	if (sfd < 0) {
		ret = -errno;
		if (family == AF_INET6 && ret == -EAFNOSUPPORT)
			lb_seterr(err, errlen,
				  "IPv6 is not available on this machine, so %s cannot "
				  "be used: use %s 127.0.0.1",
				  addr, lb_wf(names, LB_WF_ADDR));
		else
			lb_seterr(err, errlen,
				  "cannot create a %s socket: %s: raise the open-file "
				  "limit (ulimit -n) or free memory",
				  proto, strerror(-ret));
		goto out;
	}
	/*
	 * UDP: no SO_REUSEADDR, with it two sockets could share the port silently.
	 * TCP: SO_REUSEADDR, so that a connection of an earlier run in TIME_WAIT
	 * does not block the port; a second listener is still refused.
	 */
	if (socktype == SOCK_STREAM &&
	    setsockopt(sfd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int)) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot set SO_REUSEADDR on the server socket: %s: "
			  "this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	if (bind(sfd, (struct sockaddr *)&want, wantlen) < 0) {
		ret = -errno;
		if (ret == -EADDRINUSE)
			lb_seterr(err, errlen,
				  "port %s is in use by another program: choose another "
				  "with %s, or 0 for an ephemeral port",
				  ep, lb_wf(names, LB_WF_PORT));
		else if (ret == -EACCES)
			lb_seterr(err, errlen,
				  "binding %s needs privilege (ports below 1024): choose "
				  "a port >= 1024 with %s, or 0 for an ephemeral port",
				  ep, lb_wf(names, LB_WF_PORT));
		else if (ret == -EADDRNOTAVAIL && family == AF_INET6)
			lb_seterr(err, errlen,
				  "%s is not configured on this machine (IPv6 disabled "
				  "on lo?): use %s 127.0.0.1",
				  addr, lb_wf(names, LB_WF_ADDR));
		else
			lb_seterr(err, errlen,
				  "cannot bind the server socket to %s: %s: check that "
				  "the loopback interface is up (ip link set lo up)",
				  ep, strerror(-ret));
		goto out_close;
	}
	*sslen = sizeof(*ss);
	if (getsockname(sfd, (struct sockaddr *)ss, sslen) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "getsockname on the server socket %s failed: %s: this is "
			  "a bug, please report it",
			  ep, strerror(-ret));
		goto out_close;
	}
	*bound = ntohs(family == AF_INET6 ? ((struct sockaddr_in6 *)ss)->sin6_port
					  : ((struct sockaddr_in *)ss)->sin_port);
	*fd = sfd;
	return 0;

out_close:
	close(sfd);
out:
	return ret;
}

/* Returns 0 with the connected socket in *@fd, or -errno with a message in @err. */
int lb_sock_client_open(const struct sockaddr_storage *srv, socklen_t srvlen, const char *ep,
			int socktype, const char *proto, int *fd, struct sockaddr_storage *ss,
			socklen_t *sslen, char *err, size_t errlen)
{
	int cfd, ret;

	cfd = socket(srv->ss_family, socktype | SOCK_CLOEXEC, 0);
	if (cfd < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot create the generator's %s "
			  "socket: %s: raise the open-file limit (ulimit -n) or free memory",
			  proto, strerror(-ret));
		goto out;
	}
	ret = lb_sock_set_rcvtimeo(cfd, LB_RCVTIMEO_MS);
	if (ret < 0) {
		lb_seterr(err, errlen,
			  "cannot set a receive timeout on the "
			  "generator socket: %s: this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	if (connect(cfd, (const struct sockaddr *)srv, srvlen) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "cannot connect the generator socket "
			  "to %s: %s: check that the loopback interface is up (ip link set lo up)",
			  ep, strerror(-ret));
		goto out_close;
	}
	*sslen = sizeof(*ss);
	if (getsockname(cfd, (struct sockaddr *)ss, sslen) < 0) {
		ret = -errno;
		lb_seterr(err, errlen,
			  "getsockname on the generator socket "
			  "failed: %s: this is a bug, please report it",
			  strerror(-ret));
		goto out_close;
	}
	*fd = cfd;
	return 0;

out_close:
	close(cfd);
out:
	return ret;
}

/* Reads and drops every datagram queued on @fd, without blocking. */
void lb_sock_drain(int fd)
{
	unsigned char drain[1];

	while (recv(fd, drain, sizeof(drain), MSG_DONTWAIT | MSG_TRUNC) >= 0)
		;
}
