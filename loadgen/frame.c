// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen: Ethernet + IPv6 + UDP frames for pcap-flood, and the Internet
 * checksum (RFC 1071) they and icmp-flood's echoes carry.
 *
 * The UDP checksum covers a pseudo-header (source and destination address,
 * the UDP length as 32 bits, three zero bytes and the next-header value 17)
 * and the UDP header and payload. In the frame the two addresses (the last
 * 32 bytes of the IPv6 header) and the UDP datagram are contiguous, so one
 * RFC 1071 sum over them (lb_inet_checksum) plus the two remaining
 * pseudo-header words gives the checksum.
 *
 * This file must not include any tracing header.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "frame.h"

#define LB_ETHERTYPE_IPV6 0x86dd
#define LB_IPPROTO_UDP 17
#define LB_IP6_ADDRS_OFF (LB_FRAME_ETH_LEN + 8) /* source address in the frame */
#define LB_UDP_OFF (LB_FRAME_ETH_LEN + LB_FRAME_IP6_LEN)

/* Returns the RFC 1071 checksum of @len bytes at @data, in host byte order. */
uint16_t lb_inet_checksum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

/* Returns the frame length, or -EINVAL when it does not fit. */
ssize_t lb_frame_udp6_build(unsigned char *frame, size_t cap, const struct lb_frame_udp6 *a,
			    const void *payload, size_t plen)
{
	unsigned char *ip6 = frame + LB_FRAME_ETH_LEN, *udp = frame + LB_UDP_OFF;
	size_t ulen = LB_FRAME_UDP_LEN + plen;

	if (ulen > 0xffff || cap < LB_FRAME_HDR_LEN || cap - LB_FRAME_HDR_LEN < plen)
		return -EINVAL;
	memset(frame, 0, LB_FRAME_HDR_LEN);
	put16(frame + 12, LB_ETHERTYPE_IPV6);
	ip6[0] = 0x60; /* version 6, traffic class 0, flow label 0 */
	put16(ip6 + 4, (uint16_t)ulen);
	ip6[6] = LB_IPPROTO_UDP;
	ip6[7] = LB_FRAME_HOP_LIMIT;
	memcpy(ip6 + 8, &a->src, sizeof(a->src));
	memcpy(ip6 + 24, &a->dst, sizeof(a->dst));
	put16(udp, a->sport);
	put16(udp + 2, a->dport);
	put16(udp + 4, (uint16_t)ulen);
	memcpy(udp + LB_FRAME_UDP_LEN, payload, plen);
	lb_frame_udp6_seal(frame, LB_FRAME_HDR_LEN + plen);
	return (ssize_t)(LB_FRAME_HDR_LEN + plen);
}

/* Returns the checksum to store (host order, never 0), the stored one taken as zero. */
uint16_t lb_frame_udp6_checksum(const unsigned char *frame, size_t len)
{
	const unsigned char *field = frame + LB_UDP_OFF + 6;
	uint32_t ulen = (uint32_t)(len - LB_UDP_OFF), sum;
	uint16_t c;

	/*
	 * ~c is the folded sum of the addresses and the datagram as stored; take
	 * the stored checksum field out (adding its complement subtracts it in
	 * 1's complement), then add the UDP length and next header.
	 */
	c = lb_inet_checksum(frame + LB_IP6_ADDRS_OFF, len - LB_IP6_ADDRS_OFF);
	sum = (uint16_t)~c + (uint16_t)~(field[0] << 8 | field[1]) + (ulen >> 16) + (ulen & 0xffff) +
	      LB_IPPROTO_UDP;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	return c ? c : 0xffff;
}

/* Stores the checksum of the frame's current contents in its UDP header. */
void lb_frame_udp6_seal(unsigned char *frame, size_t len)
{
	put16(frame + LB_UDP_OFF + 6, lb_frame_udp6_checksum(frame, len));
}
