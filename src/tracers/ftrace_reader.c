// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reader threads for the ftrace tracer's `mode consumer' (see
 * ftrace_reader.h). Each thread owns one CPU's trace_pipe_raw, opened
 * non-blocking, and waits in poll(2) on it and on an eventfd that says stop.
 * The kernel wakes a poller of trace_pipe_raw when the CPU's buffer is
 * buffer_percent full (50 by default), as it wakes trace-cmd; the thread
 * also drains every READER_POLL_MS, so it never sleeps unboundedly and a stop
 * is seen at once. A thread that fails records the error and returns; stop
 * always joins every thread it started.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <tracefs.h>

#include "ftrace_reader.h"

/* Longest sleep between drains, in ms. */
#define READER_POLL_MS 100

struct cpu_reader {
	struct lb_ftrace_reader *r;
	int cpu;
	int fd;				/* trace_pipe_raw; owned by tcpu once it exists */
	struct tracefs_cpu *tcpu;
	pthread_t thread;
	bool running;
};

struct lb_ftrace_reader {
	struct cpu_reader *cpus;
	int n;
	int null_fd;			/* /dev/null: where the pages go */
	int stop_fd;			/* eventfd */
	atomic_bool stop;
	_Atomic uint64_t bytes;
	atomic_int error;		/* first -errno of a thread, 0 */
};

/* Move every full page there is now, until told to stop; 0, or -errno. */
static int drain(struct cpu_reader *c)
{
	while (!atomic_load(&c->r->stop)) {
		int n;

		errno = 0;
		n = tracefs_cpu_write(c->tcpu, c->r->null_fd, true);
		if (n > 0) {
			atomic_fetch_add(&c->r->bytes, (uint64_t)n);
			continue;
		}
		if (n == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		return -errno;
	}
	return 0;
}

static void *reader_main(void *arg)
{
	struct cpu_reader *c = arg;
	struct pollfd pfd[2] = {
		{ .fd = c->fd, .events = POLLIN },
		{ .fd = c->r->stop_fd, .events = POLLIN },
	};
	int ret = 0;

	while (!atomic_load(&c->r->stop)) {
		if (poll(pfd, 2, READER_POLL_MS) < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (pfd[1].revents || atomic_load(&c->r->stop))
			break;
		ret = drain(c);
		if (ret)
			break;
	}
	if (ret) {
		int none = 0;

		atomic_compare_exchange_strong(&c->r->error, &none, ret);
	}
	return NULL;
}

int lb_ftrace_reader_stop(struct lb_ftrace_reader *r)
{
	uint64_t one = 1;
	int ret = 0;

	if (!r)
		return 0;
	atomic_store(&r->stop, true);
	/* Wakes the threads now; without it they see the flag within READER_POLL_MS. */
	if (r->stop_fd >= 0 && write(r->stop_fd, &one, sizeof(one)) != sizeof(one))
		ret = -errno;
	for (int i = 0; i < r->n; i++) {
		struct cpu_reader *c = &r->cpus[i];

		if (c->running)
			pthread_join(c->thread, NULL);
		c->running = false;
		if (c->tcpu)
			tracefs_cpu_close(c->tcpu);	/* closes c->fd too */
		else if (c->fd >= 0)
			close(c->fd);
	}
	if (r->stop_fd >= 0)
		close(r->stop_fd);
	if (r->null_fd >= 0)
		close(r->null_fd);
	free(r->cpus);
	free(r);
	return ret;
}

/* Open CPU @cpu's raw buffer into @c; -ENOENT when the instance has no such CPU. */
static int open_cpu(struct tracefs_instance *inst, struct cpu_reader *c, int cpu, char *err,
		    size_t len)
{
	char file[64];
	int ret;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	if (!tracefs_file_exists(inst, file))
		return -ENOENT;
	c->cpu = cpu;
	c->fd = tracefs_instance_file_open(inst, file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "cannot open %s of instance %s for the consumer: %s", file,
			 tracefs_instance_get_name(inst), strerror(-ret));
		return ret;
	}
	/* A sub-buffer is a page on every kernel libtracefs 1.6 knows. */
	c->tcpu = tracefs_cpu_alloc_fd(c->fd, (int)sysconf(_SC_PAGESIZE), true);
	if (!c->tcpu) {
		ret = errno && errno != ENOENT ? -errno : -ENOMEM;
		snprintf(err, len, "cannot set up the consumer of %s: %s", file, strerror(-ret));
		return ret;
	}
	return 0;
}

int lb_ftrace_reader_start(struct tracefs_instance *inst, int ncpus,
			   struct lb_ftrace_reader **out, char *err, size_t len)
{
	struct lb_ftrace_reader *r;
	sigset_t all, old;
	int ret = 0;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->null_fd = -1;
	r->stop_fd = -1;
	r->cpus = calloc(ncpus > 0 ? (size_t)ncpus : 1, sizeof(*r->cpus));
	if (!r->cpus) {
		free(r);
		return -ENOMEM;
	}
	r->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	r->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (r->null_fd < 0 || r->stop_fd < 0) {
		ret = -errno;
		snprintf(err, len, "cannot set up the ftrace consumer: %s", strerror(-ret));
		goto err;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct cpu_reader *c = &r->cpus[r->n];

		c->r = r;
		c->fd = -1;
		ret = open_cpu(inst, c, cpu, err, len);
		if (ret == -ENOENT)
			continue;
		r->n++;	/* stop closes what it opened */
		if (ret)
			goto err;
	}
	if (!r->n) {
		snprintf(err, len, "instance %s has no per_cpu/cpuN/trace_pipe_raw to consume",
			 tracefs_instance_get_name(inst));
		ret = -ENOENT;
		goto err;
	}
	/* Signals stay with the main thread, whose handlers stop the run. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (int i = 0; i < r->n && !ret; i++) {
		ret = -pthread_create(&r->cpus[i].thread, NULL, reader_main, &r->cpus[i]);
		r->cpus[i].running = !ret;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, len, "cannot start an ftrace consumer thread: %s", strerror(-ret));
		goto err;
	}
	*out = r;
	return 0;
err:
	lb_ftrace_reader_stop(r);
	return ret;
}

int lb_ftrace_reader_clocks(const struct lb_ftrace_reader *r, clockid_t *clk, int max)
{
	int n = 0;

	for (int i = 0; r && i < r->n && n < max; i++) {
		int ret;

		if (!r->cpus[i].running)
			continue;
		ret = -pthread_getcpuclockid(r->cpus[i].thread, &clk[n]);
		if (ret)
			return ret;
		n++;
	}
	return n;
}

int lb_ftrace_reader_pin(struct lb_ftrace_reader *r, const cpu_set_t *set)
{
	for (int i = 0; i < r->n; i++) {
		int ret;

		if (!r->cpus[i].running)
			continue;
		ret = pthread_setaffinity_np(r->cpus[i].thread, sizeof(*set), set);
		if (ret)
			return -ret;
	}
	return 0;
}

uint64_t lb_ftrace_reader_bytes(struct lb_ftrace_reader *r, int *error)
{
	*error = atomic_load(&r->error);
	return atomic_load(&r->bytes);
}
