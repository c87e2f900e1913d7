// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --count-with pcap: count the packets lo delivers to the workload's server
 * with a libpcap capture read by a thread of its own.
 *
 * The capture is in immediate mode (libpcap then uses a TPACKET_V2 ring, so
 * each packet is readable at once), non-blocking; the thread poll()s its
 * selectable descriptor and an eventfd (stop), and on every wake-up
 * processes what is buffered with pcap_dispatch(), a batch per hold of the
 * mutex. A reader (lb_pcap_count_read) takes the same mutex, which the
 * thread leaves to it between batches, and drains too, so the count it
 * returns includes every packet captured before the call: at the two edges
 * of a measured window, the count is read right after the workload's own
 * counter. Under a flood the ring never empties, so a reader drains for
 * LB_PCAP_DRAIN_MS at most: the edges stay a few milliseconds apart.
 *
 * Without libpcap at build time, pcap_count_none.c stands in and says how to
 * get it.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "pcap_count.h"

#define LB_PCAP_DEV "lo"
#define LB_PCAP_SNAPLEN 96	       /* headers only: the count needs no payload */
#define LB_PCAP_BUFFER (16 << 20)     /* ring bytes: ~0.4 s of lo at 200k packets/s */
#define LB_PCAP_POLL_MS 100
#define LB_PCAP_BATCH 1024	       /* packets per pcap_dispatch(), per hold of the lock */
#define LB_PCAP_DRAIN_MS 20	       /* a reader drains this long at most */

struct lb_pcap_count {
	pcap_t *p;
	int fd;			/* pcap_get_selectable_fd() */
	int stop_fd;		/* eventfd: wakes the thread to stop */
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;	/* one reader of the capture at a time: thread or lb_pcap_count_read */
	atomic_int waiting;	/* lb_pcap_count_read wants the lock: the thread lets it have it */
	uint64_t packets;	/* under lock */
	int error;		/* -errno once pcap_dispatch failed; under lock */
	char errmsg[PCAP_ERRBUF_SIZE];
	atomic_bool stop;
};

static void lb_pcap_count_one(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
	(*(uint64_t *)user)++;
}

/*
 * Under c->lock: process up to a batch of buffered packets. Returns how many,
 * or the stored error (-errno) once the capture failed.
 */
static int lb_pcap_count_batch(struct lb_pcap_count *c)
{
	int n;

	if (c->error)
		return c->error;
	n = pcap_dispatch(c->p, LB_PCAP_BATCH, lb_pcap_count_one, (u_char *)&c->packets);
	if (n < 0) {
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", pcap_geterr(c->p));
		c->error = -EIO;
		return c->error;
	}
	return n;
}

static double lb_pcap_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *lb_pcap_count_thread(void *arg)
{
	struct lb_pcap_count *c = arg;
	struct pollfd pfd[2] = {{.fd = c->fd, .events = POLLIN}, {.fd = c->stop_fd, .events = POLLIN}};
	int ret;

	while (!atomic_load(&c->stop)) {
		if (poll(pfd, 2, LB_PCAP_POLL_MS) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		do {
			while (atomic_load(&c->waiting))
				sched_yield(); /* a reader is taking its count */
			pthread_mutex_lock(&c->lock);
			ret = lb_pcap_count_batch(c);
			pthread_mutex_unlock(&c->lock);
		} while (ret == LB_PCAP_BATCH && !atomic_load(&c->stop));
		if (ret < 0)
			break;
	}
	return NULL;
}

/* Keep the thread off the workload's CPUs when another CPU is allowed. */
static void lb_pcap_count_place(pthread_t t, int cpu_a, int cpu_b)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	if (cpu_a >= 0 && cpu_a < CPU_SETSIZE)
		CPU_CLR(cpu_a, &set);
	if (cpu_b >= 0 && cpu_b < CPU_SETSIZE)
		CPU_CLR(cpu_b, &set);
	if (CPU_COUNT(&set))
		pthread_setaffinity_np(t, sizeof(set), &set);
}

/* The capture on lo with @filter compiled and attached, in c->p. Returns 0 or -errno + @err. */
static int lb_pcap_count_capture(struct lb_pcap_count *c, const char *filter, char *err,
				 size_t len)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct bpf_program prog;
	int ret;

	c->p = pcap_create(LB_PCAP_DEV, ebuf);
	if (!c->p) {
		snprintf(err, len, "--count-with pcap: pcap_create(%s) failed: %s", LB_PCAP_DEV,
			 ebuf);
		return -ENOMEM;
	}
	pcap_set_snaplen(c->p, LB_PCAP_SNAPLEN);
	pcap_set_buffer_size(c->p, LB_PCAP_BUFFER);
	pcap_set_immediate_mode(c->p, 1);
	ret = pcap_activate(c->p);
	if (ret == PCAP_ERROR_PERM_DENIED) {
		snprintf(err, len, "--count-with pcap captures on %s with libpcap, which needs root "
			 "or CAP_NET_RAW: run as root (sudo), or drop --count-with", LB_PCAP_DEV);
		return -EPERM;
	}
	if (ret < 0) {
		snprintf(err, len, "--count-with pcap: cannot capture on %s: %s: check that it is "
			 "up (ip link set lo up)", LB_PCAP_DEV, pcap_geterr(c->p));
		return -ENODEV;
	}
	if (pcap_compile(c->p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		snprintf(err, len, "--count-with pcap: libpcap refuses the filter '%s': %s: this is "
			 "a bug, please report it", filter, pcap_geterr(c->p));
		return -EINVAL;
	}
	ret = pcap_setfilter(c->p, &prog);
	pcap_freecode(&prog);
	if (ret < 0) {
		snprintf(err, len, "--count-with pcap: cannot attach the filter '%s' on %s: %s",
			 filter, LB_PCAP_DEV, pcap_geterr(c->p));
		return -EINVAL;
	}
	if (pcap_setnonblock(c->p, 1, ebuf) < 0) {
		snprintf(err, len, "--count-with pcap: cannot make the capture non-blocking: %s",
			 ebuf);
		return -EIO;
	}
	c->fd = pcap_get_selectable_fd(c->p);
	if (c->fd < 0) {
		snprintf(err, len, "--count-with pcap: the capture on %s has no selectable "
			 "descriptor: this is a bug, please report it", LB_PCAP_DEV);
		return -EIO;
	}
	return 0;
}

/* Returns 0 with the running counter in *@out, or -errno with a message in @err. */
int lb_pcap_count_open(const char *filter, int cpu_a, int cpu_b, struct lb_pcap_count **out,
		       char *err, size_t len)
{
	struct lb_pcap_count *c;
	sigset_t all, old;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	c->stop_fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	ret = lb_pcap_count_capture(c, filter, err, len);
	if (ret)
		goto out_free;
	c->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (c->stop_fd < 0) {
		ret = -errno;
		snprintf(err, len, "--count-with pcap: cannot create an eventfd: %s",
			 strerror(-ret));
		goto out_free;
	}
	/* Signals stay with the main thread, whose handlers stop the run. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&c->thread, NULL, lb_pcap_count_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, len, "--count-with pcap: cannot start the capture thread: %s",
			 strerror(-ret));
		goto out_free;
	}
	c->running = true;
	lb_pcap_count_place(c->thread, cpu_a, cpu_b);
	*out = c;
	return 0;

out_free:
	lb_pcap_count_close(c);
	return ret;
}

/* Returns 0 with the counts so far, or the capture's error with libpcap's reason in @err. */
int lb_pcap_count_read(struct lb_pcap_count *c, uint64_t *packets, uint64_t *dropped, char *err,
		       size_t len)
{
	double until = lb_pcap_now_ms() + LB_PCAP_DRAIN_MS;
	struct pcap_stat st = {0};
	int ret;

	atomic_fetch_add(&c->waiting, 1);
	pthread_mutex_lock(&c->lock);
	atomic_fetch_sub(&c->waiting, 1);
	do
		ret = lb_pcap_count_batch(c);
	while (ret > 0 && lb_pcap_now_ms() < until);
	ret = ret < 0 ? ret : 0;
	if (ret)
		snprintf(err, len, "--count-with pcap: the capture on %s failed: %s: rerun, or drop "
			 "--count-with", LB_PCAP_DEV, c->errmsg);
	*packets = c->packets;
	*dropped = pcap_stats(c->p, &st) == 0 ? st.ps_drop : 0;
	pthread_mutex_unlock(&c->lock);
	return ret;
}

/* Stops the thread and frees everything; NULL is fine. */
void lb_pcap_count_close(struct lb_pcap_count *c)
{
	uint64_t one = 1;

	if (!c)
		return;
	if (c->running) {
		atomic_store(&c->stop, true);
		/* Wakes it now; if the write fails it sees the flag within LB_PCAP_POLL_MS. */
		if (write(c->stop_fd, &one, sizeof(one)) < 0)
			(void)0;
		pthread_join(c->thread, NULL);
	}
	if (c->stop_fd >= 0)
		close(c->stop_fd);
	if (c->p)
		pcap_close(c->p);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
