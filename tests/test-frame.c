// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test of loadgen/frame.c, the Ethernet + IPv6 + UDP frames pcap-flood
 * injects. The expected bytes and checksums were not computed with
 * frame.c: one is derived by hand below, the others by a separate textbook
 * implementation (Python: the pseudo-header built as bytes, summed as 16-bit
 * words) whose frames, written to a pcap file, tcpdump -vv reports as
 * "[udp sum ok]".
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "helpers.h"

/* ::1.40000 > ::1.5000, payload "loadbench frame\n": the whole frame, byte for byte. */
static const unsigned char frame1[] = {
	/* Ethernet: zero MACs (lo), type IPv6 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x86, 0xdd,
	/* IPv6: version 6, payload length 24, next header 17 (UDP), hop limit 64, ::1, ::1 */
	0x60, 0x00, 0x00, 0x00, 0x00, 0x18, 0x11, 0x40,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	/* UDP: 40000 > 5000, length 24, checksum 0x1c4d */
	0x9c, 0x40, 0x13, 0x88, 0x00, 0x18, 0x1c, 0x4d,
	/* "loadbench frame\n" */
	0x6c, 0x6f, 0x61, 0x64, 0x62, 0x65, 0x6e, 0x63, 0x68, 0x20, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x0a,
};

static struct lb_frame_udp6 addrs(const char *src, const char *dst, uint16_t sport, uint16_t dport)
{
	struct lb_frame_udp6 a = {.sport = sport, .dport = dport};

	T_CHECK(inet_pton(AF_INET6, src, &a.src) == 1);
	T_CHECK(inet_pton(AF_INET6, dst, &a.dst) == 1);
	return a;
}

static uint16_t stored_csum(const unsigned char *f)
{
	return (uint16_t)(f[LB_FRAME_HDR_LEN - 2] << 8 | f[LB_FRAME_HDR_LEN - 1]);
}

static void test_frame_bytes(void)
{
	struct lb_frame_udp6 a = addrs("::1", "::1", 40000, 5000);
	const char payload[] = "loadbench frame\n";
	unsigned char f[128];
	ssize_t n;

	memset(f, 0xaa, sizeof(f)); /* build must not rely on a zeroed buffer */
	n = lb_frame_udp6_build(f, sizeof(f), &a, payload, strlen(payload));
	T_CHECK(n == (ssize_t)sizeof(frame1));
	T_CHECK(n == (ssize_t)sizeof(frame1) && !memcmp(f, frame1, sizeof(frame1)));
	T_CHECK(lb_frame_udp6_checksum(f, (size_t)n) == 0x1c4d);
	/* The known-good frame as given (checksum field already set) yields its own checksum. */
	T_CHECK(lb_frame_udp6_checksum(frame1, sizeof(frame1)) == 0x1c4d);
}

/*
 * By hand: ::1.9 > ::1.9 with 8 zero bytes of payload. The 16-bit words
 * that are not zero: pseudo-header source ::1 (0x0001), destination ::1
 * (0x0001), UDP length 16 (0x0010), next header 17 (0x0011); UDP header
 * ports 9 and 9 (0x0009, 0x0009), length 16 (0x0010). Sum: 1 + 1 + 16 + 17
 * + 9 + 9 + 16 = 69 = 0x0045, no carry; checksum = ~0x0045 = 0xffba.
 */
static void test_hand_derived(void)
{
	struct lb_frame_udp6 a = addrs("::1", "::1", 9, 9);
	unsigned char f[LB_FRAME_HDR_LEN + 8], zero[8] = {0};

	T_CHECK(lb_frame_udp6_build(f, sizeof(f), &a, zero, sizeof(zero)) == (ssize_t)sizeof(f));
	T_CHECK(stored_csum(f) == 0xffba);
}

/* Odd payload length and addresses with high bits: the Python reference's values. */
static void test_reference_values(void)
{
	struct lb_frame_udp6 a = addrs("2001:db8::1", "2001:db8::2", 1234, 53);
	struct lb_frame_udp6 b = addrs("::1", "::1", 9, 9);
	unsigned char f[256], payload[64] = {0};
	uint64_t seq = 1;

	T_CHECK(lb_frame_udp6_build(f, sizeof(f), &a, "odd", 3) == LB_FRAME_HDR_LEN + 3);
	T_CHECK(stored_csum(f) == 0xcbf7);

	/* pcap-flood's own shape: a 64-byte payload starting with the sequence number 1. */
	memcpy(payload, &seq, sizeof(seq)); /* little-endian on the reference machine */
	T_CHECK(lb_frame_udp6_build(f, sizeof(f), &b, payload, sizeof(payload)) ==
		LB_FRAME_HDR_LEN + 64);
	if (payload[0] == 1)
		T_CHECK(stored_csum(f) == 0xfe4a);

	/* Sealing after a payload change (what pcap-flood does per frame) gives the same value. */
	memset(f + LB_FRAME_HDR_LEN, 0, 64);
	lb_frame_udp6_seal(f, LB_FRAME_HDR_LEN + 64);
	/* By hand as above with length 72: 1 + 1 + 72 + 17 + 9 + 9 + 72 = 0x00b5, ~ = 0xff4a. */
	T_CHECK(stored_csum(f) == 0xff4a);
	memcpy(f + LB_FRAME_HDR_LEN, payload, sizeof(payload));
	lb_frame_udp6_seal(f, LB_FRAME_HDR_LEN + 64);
	if (payload[0] == 1)
		T_CHECK(stored_csum(f) == 0xfe4a);
}

/* A sum of 0xffff must be sent as 0xffff, not 0 ("no checksum", forbidden over IPv6). */
static void test_zero_checksum(void)
{
	struct lb_frame_udp6 a = addrs("::", "::", 0, 0);
	unsigned char f[LB_FRAME_HDR_LEN + 2], payload[2];

	/*
	 * Words: UDP length 10 twice (pseudo-header and header) and next header 17
	 * give 37 = 0x0025; a payload word 0xffda makes the sum 0xffff, whose
	 * complement is 0: stored as 0xffff.
	 */
	payload[0] = 0xff;
	payload[1] = 0xda;
	T_CHECK(lb_frame_udp6_build(f, sizeof(f), &a, payload, sizeof(payload)) ==
		(ssize_t)sizeof(f));
	T_CHECK(stored_csum(f) == 0xffff);
}

static void test_errors(void)
{
	struct lb_frame_udp6 a = addrs("::1", "::1", 1, 2);
	static unsigned char big[70000], payload[70000];

	T_CHECK(lb_frame_udp6_build(big, LB_FRAME_HDR_LEN - 1, &a, payload, 0) == -EINVAL);
	T_CHECK(lb_frame_udp6_build(big, LB_FRAME_HDR_LEN + 3, &a, payload, 4) == -EINVAL);
	T_CHECK(lb_frame_udp6_build(big, sizeof(big), &a, payload, 0xffff - 8 + 1) == -EINVAL);
	T_CHECK(lb_frame_udp6_build(big, sizeof(big), &a, payload, 0xffff - 8) ==
		LB_FRAME_HDR_LEN + 0xffff - 8);
}

int main(void)
{
	test_frame_bytes();
	test_hand_derived();
	test_reference_values();
	test_zero_checksum();
	test_errors();
	return t_exit();
}
