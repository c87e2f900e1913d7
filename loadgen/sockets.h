/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen internals: the IP sockets every workload opens, on plain
 * addresses (no flow, no workload type): the server's bound socket, the
 * generator's connected one, their receive timeout and the common fix
 * for an unexpected socket error. Includes no other loadgen header.
 */
#ifndef LB_SOCKETS_H
#define LB_SOCKETS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct lb_workload_naming;

#define LB_RCVTIMEO_MS 100 /* children wake this often to see stop flag and deadline */
#define LB_ENDPOINT_LEN 64 /* room for "[ipv6]:port" */

/* The fix for an unexpected socket error on loopback. */
extern const char lb_fix_socket[];

/* lb_sock_set_rcvtimeo - SO_RCVTIMEO of @ms on @fd. Returns 0 or -errno. */
int lb_sock_set_rcvtimeo(int fd, int ms);

/* lb_sock_endpoint - "127.0.0.1:5000" or "[::1]:5000" into @buf. Returns @buf. */
const char *lb_sock_endpoint(const char *addr, uint16_t port, char *buf, size_t len);

/*
 * lb_sock_server_open - a socket of @socktype (SOCK_DGRAM, SOCK_STREAM)
 * bound to @addr (an IPv4 or IPv6 literal) and @port (0 = ephemeral), in
 * *@fd; its bound address in @ss (@sslen bytes), the bound port in *@bound.
 * @proto ("UDP", "TCP") is named in messages, and the settings as @names
 * says (loadgen.h; NULL: by the fields' names). Returns 0, or -errno with a
 * one-line message in @err.
 */
int lb_sock_server_open(const char *addr, uint16_t port, int socktype, const char *proto,
			const struct lb_workload_naming *names, int *fd,
			struct sockaddr_storage *ss, socklen_t *sslen, uint16_t *bound, char *err,
			size_t errlen);

/*
 * lb_sock_client_open - a socket of @socktype connected to @srv (@ep names
 * it in messages), with the receive timeout set, in *@fd; its own address
 * in @ss (@sslen bytes). Returns 0, or -errno with a one-line message in @err.
 */
int lb_sock_client_open(const struct sockaddr_storage *srv, socklen_t srvlen, const char *ep,
			int socktype, const char *proto, int *fd, struct sockaddr_storage *ss,
			socklen_t *sslen, char *err, size_t errlen);

/* lb_sock_drain - read and drop every datagram queued on @fd, without blocking. */
void lb_sock_drain(int fd);

#endif
