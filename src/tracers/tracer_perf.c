// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf tracers: perf_event_open(2) on the probe set's tracepoints
 * (PERF_TYPE_TRACEPOINT, ids from tracefs), one event per online CPU,
 * system-wide (pid -1), as `perf record -a` and `perf stat -a` do. A set's
 * kprobes, uprobes and USDT markers are dynamic events created in tracefs
 * at arm and enabled in no instance, then opened by id like a tracepoint:
 * `perf probe' followed by `perf record -e GROUP:EVENT'. Closing a
 * uprobe's last perf event unregisters it (a USDT semaphore goes back down).
 *
 *   perf        record mode: every event is a sample (sample_period 1) written
 *               to a ring buffer per CPU (all the CPU's events write into the
 *               same ring through PERF_EVENT_IOC_SET_OUTPUT), and a consumer
 *               thread drains the rings while the workload runs, counting
 *               samples and adding up PERF_RECORD_LOST's lost counts. Its cost
 *               is part of what is measured. Events = samples + lost.
 *   perf-count  counting mode: no ring, no thread; events = the summed
 *               counters, lost = 0.
 *
 * The probe set's `mode' does not apply: perf's ring is always drained by the
 * consumer and drops (counts as lost) what does not fit. arm opens, maps and
 * enables; disarm disables, stops the consumer, unmaps and closes, on every
 * path, so nothing outlives a run.
 *
 * scope workload (`perf record -p'/`perf stat -p'): the events are opened at
 * attach, per thread of each workload process (pid = the thread, cpu = -1),
 * not per CPU; everything else is as above, with one ring per thread.
 * Counting inherits (threads and children created later count too);
 * recording cannot (no ring for an inherited per-thread event) and follows
 * the threads there are at attach.
 * Like ftrace's set_event_pid, an event counts when it fires while one of
 * those threads is current, also in interrupts that hit it.
 *
 * Each ring belongs to a carrier, a disabled PERF_COUNT_SW_DUMMY event of
 * its CPU or thread that records nothing itself (as perf record's dummy
 * event): the tracepoint events write into its ring (PERF_EVENT_IOC_SET_OUTPUT).
 * So --method alternate can close the tracepoint events to switch off (a
 * merely disabled event stays registered on its tracepoint: the static key
 * stays on and perf's probe runs, and returns, at every hit) and open them
 * again to switch on, while the rings, their counts and the consumer stay.
 * perf-count adds each closed counter's last value to a running total.
 * What stays while off: the carriers. A CPU's costs nothing; a thread's
 * (scope workload) keeps that thread's perf context, see off_residue.
 *
 * Length (over 600 lines, kept whole): the two tracers share the event
 * opening per CPU and per thread, the enable/disable ioctls and the counts;
 * only record mode adds the rings and the consumer thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <tracefs.h>

#include "dynevent.h"
#include "tracefs_util.h"
#include "tracer.h"
#include "unavailable.h"
#include "util.h"

#define PERF_PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"
#define PERF_DEFAULT_BUFFER_KB 4096
/* How long the consumer sleeps at most between drains, in ms. */
#define PERF_POLL_MS 100
/* Threads of the workload scope workload records at most. */
#define PERF_MAX_TASKS 256

struct perf_tp {
	char name[128];		/* SYSTEM:EVENT, for messages */
	uint64_t id;		/* events/SYSTEM/EVENT/id; a dynamic event's: once created */
	int line;		/* probe-set line */
	long dyn;		/* a dynamic event's index in perf.dyn; -1 = a tracepoint */
};

/* Where a set of events is opened: a CPU (system-wide) or a thread (scope workload). */
struct target {
	pid_t pid;		/* -1: every task */
	int cpu;		/* -1: every CPU */
	pid_t process;		/* scope workload: the workload process the thread is of */
	bool gone;		/* a thread (not its process's first) that exited before its
				 * events opened: it records nothing, and has no events */
};

struct perf {
	bool record;
	bool workload;		/* scope workload: targets are the workload's threads, at attach */
	const char *path;	/* the probe set's file, for messages */
	struct perf_tp *tps;
	size_t ntps;
	struct lb_dynevents *dyn;	/* kprobes, uprobes, USDT markers: created at arm */
	struct target *targets;	/* online CPUs, or up to PERF_MAX_TASKS threads */
	int ntargets;		/* scope workload: 0 until attach */
	int maxtargets;
	size_t page;
	size_t ring_pages;	/* data pages per ring (record), a power of two */

	/* Armed state; fds[target index * ntps + tp index], -1 = not open. */
	int *fds;
	int *carriers;		/* record: per target index, its ring's owner; -1 = none */
	void **rings;		/* per target index, NULL = not mapped */
	struct pollfd *pfds;	/* the ring fds, then stop_fd */
	int stop_fd;		/* eventfd: tells the consumer to return; -1 */
	pthread_t consumer;
	bool consumer_running;
	atomic_bool stop;	/* with stop_fd: the consumer returns */
	pthread_mutex_t drain_lock;	/* one drainer at a time: consumer or snapshot */
	_Atomic uint64_t samples;
	_Atomic uint64_t lost;
	bool off;		/* switched off: the tracepoint events are closed */
	uint64_t closed;	/* perf-count: what the counters closed by disable had counted */
};

static long perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group,
			    unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* perf_event_paranoid, or INT_MAX (the most restrictive) when it cannot be read. */
static int paranoid_level(void)
{
	char *text = NULL;
	int level;

	if (lb_read_file(PERF_PARANOID_PATH, 64, &text, NULL))
		return INT_MAX;
	level = atoi(text);
	free(text);
	return level;
}

static int perf_available(char *why, size_t len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
	};
	int level, fd;

	if (access(PERF_PARANOID_PATH, F_OK)) {
		lb_unavailable_say(LB_UNAVAIL_PERF_EVENTS, why, len, "this kernel has no perf events: "
				   "no %s (kernel needs CONFIG_PERF_EVENTS)", PERF_PARANOID_PATH);
		return -ENODEV;
	}
	level = paranoid_level();
	if (geteuid() != 0 && level > -1) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root or perf_event_paranoid "
				   "<= -1 (it is %d): system-wide tracepoint events are privileged "
				   "(run loadbench with sudo)", level);
		return -EPERM;
	}
	/* The least privileged event there is: fails only when perf_event_open itself does. */
	fd = (int)perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		bool denied = e == EACCES || e == EPERM;

		lb_unavailable_say(denied ? LB_UNAVAIL_ROOT : LB_UNAVAIL_PERF_OPEN, why, len,
				   "perf_event_open(2) fails here (%s): %s", strerror(e),
				   denied ? "needs root or perf_event_paranoid <= -1" :
				   "blocked by seccomp or a kernel without CONFIG_PERF_EVENTS");
		return -e;
	}
	close(fd);
	return lb_tracefs_mount(why, len);
}

/*
 * The online CPUs from /sys/devices/system/cpu/online ("0-3,5"), else
 * 0..NPROCESSORS_ONLN-1, as system-wide targets.
 */
static int online_cpus(struct target **out)
{
	int max = (int)sysconf(_SC_NPROCESSORS_CONF), n = 0;
	char *text = NULL, *p;
	int *cpus;
	struct target *t;

	if (max < 1)
		max = 1;
	cpus = calloc((size_t)max, sizeof(*cpus));
	t = calloc((size_t)max, sizeof(*t));
	if (!cpus || !t) {
		free(cpus);
		free(t);
		return -ENOMEM;
	}
	if (!lb_read_file("/sys/devices/system/cpu/online", 4096, &text, NULL)) {
		for (p = text; *p && *p != '\n';) {
			long lo = strtol(p, &p, 10), hi = lo;

			if (*p == '-')
				hi = strtol(p + 1, &p, 10);
			for (long c = lo; c <= hi && n < max; c++)
				cpus[n++] = (int)c;
			if (*p != ',')
				break;
			p++;
		}
		free(text);
	}
	if (!n) {
		long onln = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < max && n < onln; n++)
			cpus[n] = n;
	}
	for (int i = 0; i < n; i++)
		t[i] = (struct target){ .pid = -1, .cpu = cpus[i] };
	free(cpus);
	*out = t;
	return n;
}

/* Add the threads of process @pid to @p's targets (scope workload). */
static int add_threads(struct perf *p, pid_t pid, char *err, size_t len)
{
	pid_t tids[PERF_MAX_TASKS];
	int n = lb_proc_tids(pid, tids, PERF_MAX_TASKS);

	if (n < 0) {
		snprintf(err, len, "perf: cannot list the threads of workload process %d: %s",
			 (int)pid, n == -E2BIG ? "too many" : strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		bool known = false;

		for (int k = 0; k < p->ntargets; k++)
			known |= p->targets[k].pid == tids[i];
		if (known)
			continue;
		if (p->ntargets == p->maxtargets) {
			snprintf(err, len, "perf: the workload has more than %d threads",
				 p->maxtargets);
			return -E2BIG;
		}
		p->targets[p->ntargets++] = (struct target){ .pid = tids[i], .cpu = -1,
							     .process = pid };
	}
	return 0;
}

/* lb_tracepoint_fn: one distinct tracepoint to open on every CPU. */
static int add_tp(void *arg, const struct lb_probeset *ps, const char *system, const char *event,
		  uint64_t id, int line, char *err, size_t len)
{
	struct perf *p = arg;
	struct perf_tp *tp;

	tp = realloc(p->tps, (p->ntps + 1) * sizeof(*tp));
	if (!tp)
		return -ENOMEM;
	p->tps = tp;
	tp = &tp[p->ntps++];
	snprintf(tp->name, sizeof(tp->name), "%s:%s", system, event);
	tp->id = id;
	tp->line = line;
	tp->dyn = -1;
	return 0;
}

/*
 * The set's dynamic probes (kprobes, uprobes, USDT markers), checked now and
 * created in tracefs at arm, enabled in no instance: what `perf probe' does
 * before `perf record -e GROUP:EVENT'. One tracepoint slot each, its id
 * filled in at arm.
 */
static int add_dynevents(struct perf *p, const struct lb_probeset *ps, char *err, size_t len)
{
	size_t n;
	int ret = lb_dynevents_resolve(ps, &p->dyn, err, len);

	if (ret)
		return ret;
	n = lb_dynevents_count(p->dyn);
	for (size_t i = 0; i < n; i++) {
		const char *group, *name, *what;
		int line;

		lb_dynevents_event(p->dyn, i, &group, &name, &what, &line);
		ret = add_tp(p, ps, group, name, 0, line, err, len);
		if (ret)
			return ret;
		p->tps[p->ntps - 1].dyn = (long)i;
	}
	return 0;
}

/* Create the dynamic events in tracefs and take their ids. */
static int dynevents_create(struct perf *p, char *err, size_t len)
{
	int ret;

	if (!lb_dynevents_count(p->dyn))
		return 0;
	ret = lb_dynevents_create(p->dyn, NULL, err, len);
	if (ret)
		return ret;
	for (size_t t = 0; t < p->ntps; t++) {
		const char *group, *name, *what;
		long long id;
		int line;

		if (p->tps[t].dyn < 0)
			continue;
		lb_dynevents_event(p->dyn, (size_t)p->tps[t].dyn, &group, &name, &what, &line);
		id = lb_tracefs_event_id(group, name);
		if (id < 0) {
			snprintf(err, len, "%s:%d: the dynamic event %s/%s for %s has no id in "
				 "tracefs: %s", p->path, line, group, name, what,
				 strerror((int)-id));
			return (int)id;
		}
		p->tps[t].id = (uint64_t)id;
	}
	return 0;
}

static void perf_destroy(void *priv)
{
	struct perf *p = priv;

	if (!p)
		return;
	pthread_mutex_destroy(&p->drain_lock);
	lb_dynevents_free(p->dyn);
	free(p->tps);
	free(p->targets);
	free(p->fds);
	free(p->carriers);
	free(p->rings);
	free(p->pfds);
	free(p);
}

#define PERF_MAX_RING_BYTES	(1 << 30)

/* The power-of-two number of pages that holds @kb KiB (rounded up, as perf does). */
static size_t ring_pages_for(int kb, size_t page)
{
	size_t want = ((size_t)kb * 1024 + page - 1) / page, pages = 1;

	while (pages < want)
		pages <<= 1;
	return pages;
}

/* "CPU 3" or "thread 1234": where target @ti's events are opened. */
static const char *target_str(const struct perf *p, int ti, char *buf, size_t len)
{
	if (p->targets[ti].pid < 0)
		snprintf(buf, len, "CPU %d", p->targets[ti].cpu);
	else
		snprintf(buf, len, "thread %d", (int)p->targets[ti].pid);
	return buf;
}

/* Refuse @ntargets x the tracepoints (and a carrier each) when that is over RLIMIT_NOFILE. */
static int check_fd_limit(const struct perf *p, int ntargets, char *err, size_t len)
{
	size_t nfds = (p->ntps + p->record) * (size_t)ntargets;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    nfds + 64 > rl.rlim_cur) {
		snprintf(err, len, "%s: %zu tracepoints on %d %s need %zu file descriptors, more "
			 "than the limit of %llu: raise it (ulimit -n) or name fewer events",
			 p->path, p->ntps, ntargets, p->workload ? "threads" : "CPUs", nfds,
			 (unsigned long long)rl.rlim_cur);
		return -EMFILE;
	}
	return 0;
}

static int perf_create_mode(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			    bool record, void **priv, char *err, size_t len)
{
	struct lb_tracefs_event *evs = NULL;
	size_t nevs = 0, nfds;
	struct perf *p;
	int ret, kb, ncpus;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	pthread_mutex_init(&p->drain_lock, NULL);
	p->record = record;
	p->workload = ps->scope == LB_SCOPE_WORKLOAD;
	p->path = ps->path;
	p->stop_fd = -1;
	p->page = (size_t)sysconf(_SC_PAGESIZE);

	ret = lb_tracefs_tracepoints_resolve(ps, ps->tracer, &evs, &nevs, err, len);
	if (ret)
		goto err;
	ret = lb_tracefs_events_foreach(ps, evs, nevs, add_tp, p, err, len);
	if (ret)
		goto err;
	ret = add_dynevents(p, ps, err, len);
	if (ret)
		goto err;
	if (!p->ntps) {
		snprintf(err, len, "%s: no tracepoint, syscall or dynamic probe to record: the perf "
			 "tracers need at least one", ps->path);
		ret = -EINVAL;
		goto err;
	}

	ret = online_cpus(&p->targets);
	if (ret < 0)
		goto err;
	ncpus = ret;
	p->ntargets = p->maxtargets = ncpus;
	if (p->workload) {
		/* The workload's threads, known at attach. */
		free(p->targets);
		p->targets = calloc(PERF_MAX_TASKS, sizeof(*p->targets));
		p->maxtargets = PERF_MAX_TASKS;
		p->ntargets = 0;
		if (!p->targets) {
			ret = -ENOMEM;
			goto err;
		}
	} else {
		ret = check_fd_limit(p, p->ntargets, err, len);
		if (ret)
			goto err;
	}
	nfds = p->ntps * (size_t)p->maxtargets;
	p->fds = malloc(nfds * sizeof(*p->fds));
	p->carriers = malloc((size_t)p->maxtargets * sizeof(*p->carriers));
	p->rings = calloc((size_t)p->maxtargets, sizeof(*p->rings));
	p->pfds = calloc((size_t)p->maxtargets + 1, sizeof(*p->pfds));
	if (!p->fds || !p->carriers || !p->rings || !p->pfds) {
		ret = -ENOMEM;
		goto err;
	}
	for (size_t i = 0; i < nfds; i++)
		p->fds[i] = -1;
	for (int i = 0; i < p->maxtargets; i++)
		p->carriers[i] = -1;

	if (record) {
		kb = opts && opts->buffer_kb ? opts->buffer_kb : ps->buffer_kb;
		p->ring_pages = ring_pages_for(kb ? kb : PERF_DEFAULT_BUFFER_KB, p->page);
		/*
		 * The kernel kmallocs a ring's page array (8 bytes a page, at most 4 MiB):
		 * 1 GiB of 4 KiB pages maps, 2 GiB fails with ENOMEM at mmap, round 1.
		 */
		if (p->ring_pages * p->page > PERF_MAX_RING_BYTES) {
			snprintf(err, len, "%s: a perf ring of %d KiB (rounded up to %zu KiB, a "
				 "power of two pages) is more than the kernel maps, %d KiB per CPU: "
				 "choose a smaller --buffer-kb or buffer-kb", ps->path,
				 kb ? kb : PERF_DEFAULT_BUFFER_KB, p->ring_pages * p->page / 1024,
				 PERF_MAX_RING_BYTES / 1024);
			ret = -EINVAL;
			goto err;
		}
		/* scope workload: one ring per thread; as many as CPUs is the estimate. */
		ret = lb_buffer_check_size(ps, (int)(p->ring_pages * p->page / 1024), ncpus,
					   err, len);
		if (ret)
			goto err;
	}
	lb_tracefs_events_free(evs, nevs);
	*priv = p;
	return 0;
err:
	lb_tracefs_events_free(evs, nevs);
	perf_destroy(p);
	return ret;
}

static int perf_create_record(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			      void **priv, char *err, size_t len)
{
	return perf_create_mode(ps, opts, true, priv, err, len);
}

static int perf_create_count(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			     void **priv, char *err, size_t len)
{
	return perf_create_mode(ps, opts, false, priv, err, len);
}

/* Consume every complete record in @ring; the caller holds drain_lock. */
static void ring_drain(struct perf *p, void *ring)
{
	struct perf_event_mmap_page *meta = ring;
	const unsigned char *data = (const unsigned char *)ring + p->page;
	uint64_t mask = p->ring_pages * p->page - 1, samples = 0, lost = 0;
	/* Pairs with the kernel's release store of data_head after writing the records. */
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail != head) {
		/* Records are u64-aligned and sized: a header never wraps, a u64 neither. */
		const struct perf_event_header *h = (const void *)(data + (tail & mask));

		if (h->size < sizeof(*h)) {
			tail = head;	/* cannot happen; never spin on a broken ring */
			break;
		}
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else if (h->type == PERF_RECORD_LOST)	/* header, u64 id, u64 lost */
			lost += *(const uint64_t *)(data + ((tail + 16) & mask));
		tail += h->size;
	}
	/* Our reads of the records are done before the kernel may overwrite them. */
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	if (samples)
		atomic_fetch_add(&p->samples, samples);
	if (lost)
		atomic_fetch_add(&p->lost, lost);
}

static void rings_drain(struct perf *p)
{
	pthread_mutex_lock(&p->drain_lock);
	for (int c = 0; c < p->ntargets; c++)
		if (p->rings[c])
			ring_drain(p, p->rings[c]);
	pthread_mutex_unlock(&p->drain_lock);
}

/*
 * The consumer polls the carriers and reads the rings, both of which live
 * until disarm has joined it; it never touches a tracepoint event's fd, so
 * enable and disable may open and close those under it.
 */
static void *perf_consumer(void *arg)
{
	struct perf *p = arg;
	int n = p->ntargets + 1;

	for (;;) {
		if (poll(p->pfds, (nfds_t)n, PERF_POLL_MS) < 0 && errno != EINTR)
			break;
		if (p->pfds[n - 1].revents || atomic_load(&p->stop))
			break;
		for (int c = 0; c < n - 1; c++)
			if (p->pfds[c].revents & (POLLHUP | POLLERR))
				p->pfds[c].fd = -1;	/* still drained, on the timeout */
		rings_drain(p);
	}
	return NULL;
}

static int perf_disarm(void *priv)
{
	struct perf *p = priv;
	size_t nfds = p->ntps * (size_t)p->ntargets;
	uint64_t one = 1;
	int ret = 0, ret2;

	for (size_t i = 0; i < nfds; i++)
		if (p->fds[i] >= 0)
			ioctl(p->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (p->consumer_running) {
		atomic_store(&p->stop, true);
		/* Wakes it now; without the write it sees the flag within PERF_POLL_MS. */
		if (write(p->stop_fd, &one, sizeof(one)) != sizeof(one))
			ret = -errno;
		pthread_join(p->consumer, NULL);
		p->consumer_running = false;
	}
	if (p->stop_fd >= 0) {
		close(p->stop_fd);
		p->stop_fd = -1;
	}
	for (int c = 0; c < p->ntargets; c++) {
		if (p->rings[c] && munmap(p->rings[c], (p->ring_pages + 1) * p->page) && !ret)
			ret = -errno;
		p->rings[c] = NULL;
	}
	for (size_t i = 0; i < nfds; i++) {
		if (p->fds[i] >= 0 && close(p->fds[i]) && !ret)
			ret = -errno;
		p->fds[i] = -1;
	}
	for (int c = 0; c < p->ntargets; c++) {
		if (p->carriers[c] >= 0 && close(p->carriers[c]) && !ret)
			ret = -errno;
		p->carriers[c] = -1;
	}
	if (p->workload)
		p->ntargets = 0;	/* the next run's threads are new */
	/* Their perf events closed, the dynamic events are idle: removed. */
	ret2 = lb_dynevents_remove(p->dyn);
	return ret ? ret : ret2;
}

/*
 * Whether perf_event_open's @e on target @ci is a thread that exited since
 * the attach listed it (not its process's first thread: a workload process
 * gone is an error). Such a thread records nothing: it is marked gone and
 * left without events.
 */
static bool thread_gone(struct perf *p, int ci, int e)
{
	struct target *tg = &p->targets[ci];

	if (e != ESRCH || !p->workload || tg->pid == tg->process || tg->pid <= 0)
		return false;
	tg->gone = true;
	p->pfds[ci].fd = -1;
	return true;
}

/* The watermark that wakes the consumer: a quarter of the ring. */
static uint32_t ring_watermark(const struct perf *p)
{
	return (uint32_t)(p->ring_pages * p->page / 4);
}

static int open_event(struct perf *p, size_t t, int ci, char *err, size_t len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = p->tps[t].id,
		.disabled = 1,
	};
	char where[32];
	int fd, e;

	/*
	 * Counting: threads and children the workload creates later count too.
	 * The kernel refuses to map a ring of an inherited per-thread event, so
	 * recording follows the threads there are at attach only (loadbench's
	 * workloads start no more).
	 */
	attr.inherit = p->workload && !p->record;
	if (p->record) {
		/* What `perf record -e TP -a' asks for. */
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
				   PERF_SAMPLE_RAW;
		/* Wake the consumer when a quarter of the ring is full. */
		attr.watermark = 1;
		attr.wakeup_watermark = ring_watermark(p);
	}
	if (p->targets[ci].gone)
		return 0;
	fd = (int)perf_event_open(&attr, p->targets[ci].pid, p->targets[ci].cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		p->fds[(size_t)ci * p->ntps + t] = fd;
		return 0;
	}
	e = errno;
	if (thread_gone(p, ci, e))
		return 0;
	target_str(p, ci, where, sizeof(where));
	if (e == EACCES || e == EPERM)
		snprintf(err, len, "perf_event_open of %s on %s: %s: needs root or "
			 "perf_event_paranoid <= -1 (it is %d; run loadbench with sudo)",
			 p->tps[t].name, where, strerror(e), paranoid_level());
	else if (e == ENOENT || e == EINVAL)
		snprintf(err, len, "%s:%d: perf_event_open refuses tracepoint %s (id %" PRIu64
			 "): %s", p->path, p->tps[t].line, p->tps[t].name, p->tps[t].id,
			 strerror(e));
	else if (e == EMFILE || e == ENFILE)
		snprintf(err, len, "perf_event_open of %s on %s: %s: %zu events on %d %s need "
			 "that many descriptors (ulimit -n)", p->tps[t].name, where,
			 strerror(e), p->ntps * (size_t)p->ntargets, p->ntargets,
			 p->workload ? "threads" : "CPUs");
	else if (e == ESRCH)
		snprintf(err, len, "perf_event_open of %s on %s: it has exited (or is exiting)",
			 p->tps[t].name, where);
	else
		snprintf(err, len, "perf_event_open of %s on %s: %s", p->tps[t].name, where,
			 strerror(e));
	return -e;
}

/*
 * Target @ci's carrier and its ring. The carrier is a dummy software event
 * that stays disabled: it owns the ring and costs nothing on a CPU (a
 * per-thread one keeps the thread's perf context, see off_residue).
 */
static int map_ring(struct perf *p, int ci, char *err, size_t len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		/* The ring's wakeup is its owner's: wake the consumer at a quarter. */
		.watermark = 1,
		.wakeup_watermark = ring_watermark(p),
	};
	size_t bytes = (p->ring_pages + 1) * p->page;
	char where[32];
	void *ring;
	int fd, e;

	target_str(p, ci, where, sizeof(where));
	fd = (int)perf_event_open(&attr, p->targets[ci].pid, p->targets[ci].cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && thread_gone(p, ci, errno))
		return 0;
	if (fd < 0) {
		e = errno;
		snprintf(err, len, "cannot open the dummy perf event that carries the ring of "
			 "%s: %s", where, e == ESRCH ? "it has exited (or is exiting)" : strerror(e));
		return -e;
	}
	p->carriers[ci] = fd;
	ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		e = errno;
		snprintf(err, len, "cannot map a %zu KiB perf ring for %s: %s%s",
			 p->ring_pages * p->page / 1024, where, strerror(e),
			 e == EPERM ? " (over perf_event_mlock_kb and RLIMIT_MEMLOCK: run as root "
			 "or choose a smaller buffer-kb)" : "");
		return -e;
	}
	/* The workload is forked after arm: its processes need no copy of the ring. */
	madvise(ring, bytes, MADV_DONTFORK);
	p->rings[ci] = ring;
	p->pfds[ci].fd = fd;
	p->pfds[ci].events = POLLIN;
	return 0;
}

static int start_consumer(struct perf *p, char *err, size_t len)
{
	sigset_t all, old;
	int ret;

	p->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (p->stop_fd < 0) {
		ret = -errno;
		snprintf(err, len, "cannot create the perf consumer's eventfd: %s", strerror(-ret));
		return ret;
	}
	p->pfds[p->ntargets].fd = p->stop_fd;
	p->pfds[p->ntargets].events = POLLIN;
	atomic_store(&p->stop, false);
	/* Signals stay with the main thread, whose handlers stop the run. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&p->consumer, NULL, perf_consumer, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, len, "cannot start the perf consumer thread: %s", strerror(-ret));
		return ret;
	}
	p->consumer_running = true;
	return 0;
}

/*
 * Close every tracepoint event: none stays registered on its tracepoint.
 * perf-count first stops them all, then adds each one's last value to
 * p->closed; perf drains the rings afterwards, which hold every record the
 * closed events wrote (the carriers keep them). Returns 0 or the first -errno.
 */
static int tps_close(struct perf *p)
{
	size_t nfds = p->ntps * (size_t)p->ntargets;
	int ret = 0;

	if (!p->record)
		for (size_t i = 0; i < nfds; i++)
			if (p->fds[i] >= 0)
				ioctl(p->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	for (size_t i = 0; i < nfds; i++) {
		uint64_t v;

		if (p->fds[i] < 0)
			continue;
		if (!p->record) {
			if (read(p->fds[i], &v, sizeof(v)) == sizeof(v))
				p->closed += v;
			else if (!ret)
				ret = errno ? -errno : -EIO;
		}
		if (close(p->fds[i]) && !ret)
			ret = -errno;
		p->fds[i] = -1;
	}
	if (p->record)
		rings_drain(p);
	return ret;
}

/*
 * Open every tracepoint event of every target (perf: into its target's
 * ring), then enable them all. On failure the events opened so far stay; the
 * caller closes them.
 */
static int tps_open(struct perf *p, char *err, size_t len)
{
	size_t nfds = p->ntps * (size_t)p->ntargets;
	char where[32];
	int ret;

	for (int ci = 0; ci < p->ntargets; ci++) {
		for (size_t t = 0; t < p->ntps; t++) {
			int fd;

			ret = open_event(p, t, ci, err, len);
			if (ret)
				return ret;
			fd = p->fds[(size_t)ci * p->ntps + t];
			if (fd < 0 && p->targets[ci].gone)
				break;
			if (!p->record ||
			    ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p->carriers[ci]) >= 0)
				continue;
			ret = -errno;
			snprintf(err, len, "cannot redirect %s on %s into its perf ring: %s",
				 p->tps[t].name, target_str(p, ci, where, sizeof(where)),
				 strerror(-ret));
			return ret;
		}
	}
	for (size_t i = 0; i < nfds; i++) {
		if (p->fds[i] < 0 && p->targets[i / p->ntps].gone)
			continue;
		if (ioctl(p->fds[i], PERF_EVENT_IOC_ENABLE, 0) < 0) {
			ret = -errno;
			snprintf(err, len, "cannot enable perf event %s: %s",
				 p->tps[i % p->ntps].name, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* Map every target's ring (perf) and start the consumer, then open the events. */
static int open_all(struct perf *p, char *err, size_t len)
{
	int ret;

	if (p->record) {
		for (int ci = 0; ci < p->ntargets; ci++) {
			ret = map_ring(p, ci, err, len);
			if (ret)
				return ret;
		}
		ret = start_consumer(p, err, len);
		if (ret)
			return ret;
	}
	return tps_open(p, err, len);
}

static int perf_arm(void *priv, char *err, size_t len)
{
	struct perf *p = priv;
	int ret;

	atomic_store(&p->samples, 0);
	atomic_store(&p->lost, 0);
	p->off = false;
	p->closed = 0;
	ret = dynevents_create(p, err, len);
	if (ret)
		goto err;
	/* scope workload: at attach, when the threads are known. */
	if (p->workload)
		return 0;
	ret = open_all(p, err, len);
err:
	if (ret)
		perf_disarm(p);
	return ret;
}

/* scope workload: open the events on every thread of the workload's @pids. */
static int perf_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct perf *p = priv;
	int ret = 0;

	if (!p->workload)
		return 0;
	if (n < 1) {
		snprintf(err, len, "perf: scope workload, but the workload has no process");
		return -ESRCH;
	}
	for (int i = 0; i < n && !ret; i++)
		ret = add_threads(p, pids[i], err, len);
	if (!ret)
		ret = check_fd_limit(p, p->ntargets, err, len);
	/* A failure is undone by disarm. */
	return ret ? ret : open_all(p, err, len);
}

static int perf_snapshot(void *priv, struct lb_tracer_counts *c)
{
	struct perf *p = priv;
	size_t nfds = p->ntps * (size_t)p->ntargets;

	if (p->record) {
		/* Everything already in the rings counts: drain them before answering. */
		rings_drain(p);
		c->lost = atomic_load(&p->lost);
		c->events = atomic_load(&p->samples) + c->lost;
		return 0;
	}
	c->events = p->closed;
	for (size_t i = 0; i < nfds && !p->off; i++) {
		uint64_t v;

		if (p->fds[i] < 0 && p->targets[i / p->ntps].gone)
			continue;
		if (p->fds[i] < 0)
			return -EBADF;
		errno = 0;
		if (read(p->fds[i], &v, sizeof(v)) != sizeof(v))
			return errno ? -errno : -EIO;
		c->events += v;
	}
	return 0;
}

/*
 * --method alternate, off: every tracepoint event closed (see the top of
 * the file). Cost: the kernel waits for an RCU grace period when the last
 * perf event of a tracepoint goes (tracepoint_synchronize_unregister, under
 * a mutex: one tracepoint after the other), so about 30 ms per tracepoint
 * on a 2-CPU machine: 0.5 s for the 18 of probesets/perf, 60 ms for
 * syscall all's two. Switching on again takes 0.5 to 2 ms.
 */
/*
 * A per-thread event makes the kernel call perf at every context switch (the
 * perf_sched_events static key) and the thread's switches visit its perf
 * context, even with only a disabled event in it. Scope system, and perf-count
 * (no ring), leave nothing.
 */
static const char *perf_off_residue(void *priv)
{
	const struct perf *p = priv;

	if (!p->record || !p->workload)
		return NULL;
	return "each workload thread keeps the disabled dummy perf event that owns its ring, "
	       "so perf's context-switch hook stays on and visits those threads' perf contexts "
	       "(no event in them runs)";
}

static int perf_disable(void *priv, char *err, size_t len)
{
	struct perf *p = priv;
	int ret;

	if (p->off)
		return 0;
	p->off = true;
	ret = tps_close(p);
	if (ret)
		snprintf(err, len, "cannot close perf's tracepoint events: %s", strerror(-ret));
	return ret;
}

/*
 * On again: the events arm (or attach) opened, opened again on the same
 * targets; a workload thread gone since attach fails it with ESRCH. A
 * failure leaves them all closed (off).
 */
static int perf_enable(void *priv, char *err, size_t len)
{
	struct perf *p = priv;
	int ret;

	if (!p->off)
		return 0;
	ret = tps_open(p, err, len);
	if (ret) {
		tps_close(p);
		return ret;
	}
	p->off = false;
	return 0;
}

/* perf record: the consumer thread's clock while it runs. */
static int perf_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	struct perf *p = priv;

	int ret;

	if (!p->consumer_running || max < 1)
		return 0;
	ret = pthread_getcpuclockid(p->consumer, clk);
	return ret ? -ret : 1;
}

const struct lb_tracer_ops lb_tracer_perf = {
	.name = "perf",
	.available = perf_available,
	.create = perf_create_record,
	.arm = perf_arm,
	.attach = perf_attach,
	.snapshot = perf_snapshot,
	.enable = perf_enable,
	.disable = perf_disable,
	.off_residue = perf_off_residue,
	.cpu_clocks = perf_cpu_clocks,
	.disarm = perf_disarm,
	.destroy = perf_destroy,
};

const struct lb_tracer_ops lb_tracer_perf_count = {
	.name = "perf-count",
	.available = perf_available,
	.create = perf_create_count,
	.arm = perf_arm,
	.attach = perf_attach,
	.snapshot = perf_snapshot,
	.enable = perf_enable,
	.disable = perf_disable,
	.disarm = perf_disarm,
	.destroy = perf_destroy,
};
