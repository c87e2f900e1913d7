/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen: crafted Ethernet + IPv6 + UDP frames (pcap-flood injects them on
 * lo), and the Internet checksum they and icmp-flood's echoes carry. Plain
 * byte layout, no kernel or libpcap involved, unit-tested by
 * tests/test-frame.c against checksums derived independently.
 */
#ifndef LB_FRAME_H
#define LB_FRAME_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LB_FRAME_ETH_LEN 14
#define LB_FRAME_IP6_LEN 40
#define LB_FRAME_UDP_LEN 8
/* Where the UDP payload starts. */
#define LB_FRAME_HDR_LEN (LB_FRAME_ETH_LEN + LB_FRAME_IP6_LEN + LB_FRAME_UDP_LEN)
#define LB_FRAME_HOP_LIMIT 64

/* The addresses and ports of a crafted datagram (ports in host byte order). */
struct lb_frame_udp6 {
	struct in6_addr src, dst;
	uint16_t sport, dport;
};

/*
 * lb_frame_udp6_build - write an Ethernet header (both MACs zero, as lo
 * has, type 0x86dd), an IPv6 header (hop limit 64, next header UDP) and a
 * UDP header for @a, then the @plen bytes at @payload, into @frame (@cap
 * bytes), with a correct UDP checksum. Returns the frame's length, or
 * -EINVAL when it does not fit in @cap or in a UDP length.
 */
ssize_t lb_frame_udp6_build(unsigned char *frame, size_t cap, const struct lb_frame_udp6 *a,
			    const void *payload, size_t plen);

/*
 * lb_frame_udp6_checksum - the UDP checksum (RFC 768 over the RFC 8200
 * pseudo-header) of the datagram in the @len-byte frame @frame, computed with
 * the checksum field taken as zero, in host byte order, never 0 (0 is sent as
 * 0xffff: IPv6 forbids "no checksum").
 */
uint16_t lb_frame_udp6_checksum(const unsigned char *frame, size_t len);

/* lb_frame_udp6_seal - store lb_frame_udp6_checksum() in the frame's UDP header (after an edit). */
void lb_frame_udp6_seal(unsigned char *frame, size_t len);

/*
 * lb_inet_checksum - the Internet checksum (RFC 1071) of @len bytes at @data,
 * ready to store in a header (in network byte order when read as bytes).
 * Returns 0 when @data already holds a correct checksum field.
 */
uint16_t lb_inet_checksum(const void *data, size_t len);

#endif
