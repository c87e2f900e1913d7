// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * minimal-rr: the smallest UDP request/response loop over 127.0.0.1 this
 * machine can run, the reference loadbench's udp-rr workload is compared
 * against (bench/udp-rr-vs-minimal). Plain libc, no loadbench code.
 *
 * The same syscall pattern as udp-rr: the client send()s on a connected
 * socket and recv()s the echo; the server (a forked child) recvfrom()s and
 * sendto()s. Nothing else: no sequence numbers, no shared counters.
 *
 *   minimal-rr [--cpu N] [--server-cpu N] [--client-cpu N] [--duration S]
 *              [--warmup S] [--msg-size B]
 *
 * CPUs default to unpinned (-1). Prints one line: "minimal-rr <round trips per second>".
 * Bounded in time: warm-up + duration + at most one receive timeout (100 ms).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RCVTIMEO_MS 100
#define CHECK_EVERY 1024
#define MSG_MAX 65000

static void usage(FILE *f)
{
	fprintf(f,
		"usage: minimal-rr [--cpu N] [--server-cpu N] [--client-cpu N] [--duration S]\n"
		"                  [--warmup S] [--msg-size B]\n"
		"  --cpu N         pin server and client to CPU N (-1 = unpinned, the default)\n"
		"  --server-cpu N  pin the server to CPU N\n"
		"  --client-cpu N  pin the client to CPU N\n"
		"  --duration S    measured seconds (default 3)\n"
		"  --warmup S      unmeasured seconds first (default 0.5)\n"
		"  --msg-size B    payload bytes, 1..%d (default 64)\n",
		MSG_MAX);
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "minimal-rr: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "minimal-rr: %s '%s' must be an integer in %ld..%ld\n", opt, s, lo,
			hi);
		exit(2);
	}
	return v;
}

static double parse_seconds(const char *opt, const char *s, double lo)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo) || v > 3600) {
		fprintf(stderr, "minimal-rr: %s '%s' must be a number of seconds in %g..3600\n",
			opt, s, lo);
		exit(2);
	}
	return v;
}

/* Exit with a message unless @cpu is -1 or in this process's affinity mask. */
static void check_cpu(int cpu, const char *who)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		die("sched_getaffinity: %s", strerror(errno));
	if (!CPU_ISSET(cpu, &set)) {
		fprintf(stderr, "minimal-rr: the %s CPU %d is not allowed here: choose one of", who,
			cpu);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				fprintf(stderr, " %d", c);
		fputc('\n', stderr);
		exit(2);
	}
}

static void pin(int cpu, const char *who)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		fprintf(stderr,
			"minimal-rr: cannot pin the %s to CPU %d: %s: choose an allowed CPU\n", who,
			cpu, strerror(errno));
		exit(1);
	}
}

static void set_rcvtimeo(int fd)
{
	struct timeval tv = {.tv_sec = 0, .tv_usec = RCVTIMEO_MS * 1000};

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		die("setsockopt(SO_RCVTIMEO): %s", strerror(errno));
}

/* The echo server; leaves on a zero-length datagram or when the parent is gone. */
static void __attribute__((noreturn)) server(int fd, int cpu, pid_t parent, size_t len)
{
	struct sockaddr_storage peer;
	socklen_t plen;
	char *buf = malloc(len);
	ssize_t n;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || !buf)
		_exit(1);
	pin(cpu, "server");
	set_rcvtimeo(fd);
	for (;;) {
		plen = sizeof(peer);
		n = recvfrom(fd, buf, len, 0, (struct sockaddr *)&peer, &plen);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
				if (getppid() != parent)
					_exit(0);
				continue;
			}
			_exit(1);
		}
		if (n == 0)
			_exit(0);
		sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&peer, plen);
	}
}

int main(int argc, char **argv)
{
	int server_cpu = -1, client_cpu = -1, sfd, cfd, i, status;
	double duration = 3, warmup = 0.5, t0, t1, end;
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t salen = sizeof(sa);
	size_t len = 64;
	uint64_t ops = 0, timeouts = 0;
	pid_t pid;
	char *buf;
	ssize_t n;

	for (i = 1; i < argc; i++) {
		const char *opt = argv[i];

		if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
			usage(stdout);
			return 0;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "minimal-rr: unknown option or missing value: %s\n", opt);
			usage(stderr);
			return 2;
		}
		if (!strcmp(opt, "--cpu")) {
			server_cpu = (int)parse_long(opt, argv[++i], -1, CPU_SETSIZE - 1);
			client_cpu = server_cpu;
		} else if (!strcmp(opt, "--server-cpu"))
			server_cpu = (int)parse_long(opt, argv[++i], -1, CPU_SETSIZE - 1);
		else if (!strcmp(opt, "--client-cpu"))
			client_cpu = (int)parse_long(opt, argv[++i], -1, CPU_SETSIZE - 1);
		else if (!strcmp(opt, "--duration"))
			duration = parse_seconds(opt, argv[++i], 0.01);
		else if (!strcmp(opt, "--warmup"))
			warmup = parse_seconds(opt, argv[++i], 0);
		else if (!strcmp(opt, "--msg-size"))
			len = (size_t)parse_long(opt, argv[++i], 1, MSG_MAX);
		else {
			fprintf(stderr, "minimal-rr: unknown option: %s\n", opt);
			usage(stderr);
			return 2;
		}
	}
	check_cpu(server_cpu, "server");
	check_cpu(client_cpu, "client");
	buf = calloc(1, len);
	if (!buf)
		die("%s", "out of memory");

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sfd < 0 || bind(sfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(sfd, (struct sockaddr *)&sa, &salen) < 0)
		die("cannot bind a UDP socket on 127.0.0.1: %s", strerror(errno));

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0)
		server(sfd, server_cpu, getppid(), len);

	pin(client_cpu, "client");
	cfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (cfd < 0 || connect(cfd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die("cannot connect a UDP socket to 127.0.0.1: %s", strerror(errno));
	set_rcvtimeo(cfd);

	t0 = now_s();
	end = t0 + warmup;
	for (int measuring = 0; measuring < 2; measuring++) {
		for (;;) {
			if (send(cfd, buf, len, 0) < 0 && errno != EINTR && errno != ENOBUFS)
				die("send: %s", strerror(errno));
			n = recv(cfd, buf, len, 0);
			if (n < 0) {
				if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
					die("recv: %s", strerror(errno));
				timeouts++;
				if (now_s() >= end)
					break;
				continue;
			}
			ops++;
			if (ops % CHECK_EVERY == 0 && now_s() >= end)
				break;
		}
		if (!measuring) {
			ops = 0;
			timeouts = 0;
			t0 = now_s();
			end = t0 + duration;
		}
	}
	t1 = now_s();

	/* A zero-length datagram tells the server to leave (sent from its own socket). */
	sendto(sfd, "", 0, 0, (struct sockaddr *)&sa, sizeof(sa));
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "minimal-rr: the server process did not exit cleanly\n");
	if (timeouts)
		fprintf(stderr, "minimal-rr: %llu receive timeouts\n",
			(unsigned long long)timeouts);
	printf("minimal-rr %.0f\n", ops / (t1 - t0));
	return 0;
}
