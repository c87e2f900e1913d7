// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ftrace tracer, through libtracefs: a tracefs instance of its own
 * (loadbench_<pid>), events enabled only there, counts from the per-CPU
 * ring-buffer statistics. The top-level buffer and other instances are never
 * touched. kprobes and uprobes (dynevent.c) can only be created at the top
 * level: they are enabled in our instance only and removed after it is gone.
 *
 * mode consumer: the buffer does not overwrite, and reader threads
 * (ftrace_reader.c) drain every CPU's raw buffer while the workload runs;
 * what they cannot keep up with is dropped by the kernel and counted lost.
 * At attach they are pinned to the workload's CPUs (reader-cpu workload: the
 * reader's CPU time is taken from the workload) or to the others
 * (reader-cpu other). Disarm stops and joins them before the instance goes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "dynevent.h"
#include "ftrace_reader.h"
#include "owner.h"
#include "tracefs_util.h"
#include "tracer.h"
#include "unavailable.h"
#include "util.h"

struct ftrace {
	struct lb_tracefs_event *events;	/* events/SYS[/EVENT]/enable to write "1" to */
	size_t nevents;
	struct lb_dynevents *dyn;	/* kprobes, uprobes, ... */
	int buffer_kb;		/* 0 = leave the kernel's default */
	bool overwrite;
	bool workload;		/* scope workload: set_event_pid at attach, tracing on then */
	char *pids;		/* scope workload, attached: the list set_event_pid gets */
	bool consumer;		/* mode consumer: reader threads drain the buffers */
	enum lb_reader_cpu reader_cpu;
	int ncpus;		/* possible CPUs: per_cpu/cpuN directories to read */
	struct tracefs_instance *inst;
	int slot;		/* armed: its bit in armed_slots, 0 = the plain instance name */
	struct lb_ftrace_reader *reader;	/* armed, mode consumer */
};

/* The instance-name slots of the ftrace tracers armed right now. */
static unsigned int armed_slots;

static int ftrace_available(char *why, size_t len)
{
	char dir[512];
	struct stat st;
	int ret;

	if (geteuid() != 0) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root: tracefs instances and "
				   "events are root-only (run loadbench with sudo)");
		return -EPERM;
	}
	ret = lb_tracefs_mount(why, len);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/instances", lb_tracefs_dir());
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "this kernel's tracefs has no %s: ftrace instances need "
			 "CONFIG_TRACING (Linux 3.10 or later)", dir);
		return -ENODEV;
	}
	return 0;
}

static void ftrace_destroy(void *priv)
{
	struct ftrace *f = priv;

	if (!f)
		return;
	lb_tracefs_events_free(f->events, f->nevents);
	lb_dynevents_free(f->dyn);
	free(f);
}

static int ftrace_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			 void **priv, char *err, size_t len)
{
	enum lb_buffer_mode mode;
	struct ftrace *f;
	int ret;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	f->buffer_kb = opts && opts->buffer_kb ? opts->buffer_kb : ps->buffer_kb;
	mode = opts && opts->mode ? opts->mode : ps->mode;
	f->consumer = mode == LB_MODE_CONSUMER;
	f->overwrite = mode != LB_MODE_DISCARD && !f->consumer;
	f->reader_cpu = ps->reader_cpu;
	f->workload = ps->scope == LB_SCOPE_WORKLOAD;

	ret = lb_tracefs_tracepoints_resolve(ps, "ftrace", &f->events, &f->nevents, err, len);
	if (ret)
		goto err;
	ret = lb_dynevents_resolve(ps, &f->dyn, err, len);
	if (ret)
		goto err;
	if (f->buffer_kb) {
		ret = lb_buffer_check_size(ps, f->buffer_kb, f->ncpus, err, len);
		if (ret)
			goto err;
	}
	*priv = f;
	return 0;
err:
	ftrace_destroy(f);
	return ret;
}

/* Write @val ("1" or "0") to the enable file of every tracepoint of @f in its instance. */
static int events_write(struct ftrace *f, const char *val, char *err, size_t len)
{
	char file[512];
	int ret;

	for (size_t i = 0; i < f->nevents; i++) {
		const struct lb_tracefs_event *ev = &f->events[i];

		if (ev->event)
			snprintf(file, sizeof(file), "events/%s/%s/enable", ev->system, ev->event);
		else
			snprintf(file, sizeof(file), "events/%s/enable", ev->system);
		if (tracefs_instance_file_write(f->inst, file, val) < 0) {
			ret = errno ? -errno : -EIO;
			snprintf(err, len, "cannot %s %s:%s in instance %s: %s",
				 *val == '1' ? "enable" : "disable", ev->system,
				 ev->event ? ev->event : "*", tracefs_instance_get_name(f->inst),
				 strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int ftrace_disarm(void *priv)
{
	struct ftrace *f = priv;
	int ret = 0, ret2;

	if (f->inst)
		tracefs_trace_off(f->inst);
	/* Before the instance: an open trace_pipe_raw keeps it busy. */
	ret = lb_ftrace_reader_stop(f->reader);
	f->reader = NULL;
	/*
	 * The workload is reaped and our readers are joined: what can still
	 * hold the instance is another process reading one of its files (a
	 * user's cat of our stats, a monitoring loop). Wait for it a little.
	 */
	if (f->inst) {
		char why[512];
		int dret = lb_tracefs_instance_remove(tracefs_instance_get_name(f->inst), 2.0, why,
						      sizeof(why));

		if (dret) {
			lb_warn("%s", why);
			if (!ret)
				ret = dret;
		}
		tracefs_instance_free(f->inst);
		f->inst = NULL;
		armed_slots &= ~(1u << f->slot);
	}
	free(f->pids);
	f->pids = NULL;
	/* After the instance: a dynamic event enabled there is busy. */
	ret2 = lb_dynevents_remove(f->dyn);
	return ret ? ret : ret2;
}

static int ftrace_arm(void *priv, char *err, size_t len)
{
	struct ftrace *f = priv;
	char name[64];
	int ret;

	/*
	 * Sets alternated together are armed at once, each in its own
	 * instance: the first armed has the plain name, the others a slot.
	 */
	for (f->slot = 0; f->slot < 32 && (armed_slots & (1u << f->slot)); f->slot++)
		;
	if (f->slot == 32) {
		snprintf(err, len, "more than 32 ftrace probe sets armed at once");
		return -EBUSY;
	}
	lb_owner_name(name, sizeof(name), 0, f->slot);
	if (tracefs_instance_exists(name)) {
		snprintf(err, len, "a tracefs instance named %s already exists: remove it with "
			 "'rmdir %s/instances/%s'", name, lb_tracefs_dir(), name);
		return -EEXIST;
	}
	f->inst = tracefs_instance_create(name);
	if (!f->inst) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "cannot create the tracefs instance %s: %s", name,
			 strerror(-ret));
		return ret;
	}
	armed_slots |= 1u << f->slot;
	if (tracefs_trace_off(f->inst) < 0)
		goto fail;
	if (f->buffer_kb && tracefs_instance_set_buffer_size(f->inst, f->buffer_kb, -1) < 0) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "cannot set a %d KiB per-CPU buffer in instance %s: %s",
			 f->buffer_kb, name, strerror(-ret));
		goto out;
	}
	if ((f->overwrite ? tracefs_option_enable(f->inst, TRACEFS_OPTION_OVERWRITE)
			  : tracefs_option_disable(f->inst, TRACEFS_OPTION_OVERWRITE)) < 0)
		goto fail;
	ret = events_write(f, "1", err, len);
	if (ret)
		goto out;
	ret = lb_dynevents_create(f->dyn, f->inst, err, len);
	if (ret)
		goto out;
	/* Children of the workload's processes are followed (event-fork). */
	if (f->workload && tracefs_option_enable(f->inst, TRACEFS_OPTION_EVENT_FORK) < 0)
		goto fail;
	/* Placed on the workload's CPUs or the others at attach; reads from now on. */
	if (f->consumer) {
		ret = lb_ftrace_reader_start(f->inst, f->ncpus, &f->reader, err, len);
		if (ret)
			goto out;
	}
	/* scope workload: tracing starts at attach, when the pids are known. */
	if (!f->workload && tracefs_trace_on(f->inst) < 0)
		goto fail;
	return 0;
fail:
	ret = errno ? -errno : -EIO;
	snprintf(err, len, "cannot configure the tracefs instance %s: %s", name, strerror(-ret));
out:
	ftrace_disarm(f);
	return ret;
}

/*
 * set_event_pid of our instance: emptied (@list NULL) or set to @list. The
 * file is opened with O_TRUNC, which is what empties the kernel's pid list.
 * Returns 0 or -errno with @err.
 */
static int pid_filter_write(struct ftrace *f, const char *list, char *err, size_t len)
{
	char *path = tracefs_instance_get_file(f->inst, "set_event_pid");
	size_t n = list ? strlen(list) : 0;
	int fd, ret = 0;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 || (n && write(fd, list, n) != (ssize_t)n))
		ret = errno ? -errno : -EIO;
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, len, "cannot %s %s: %s", list ? "write the workload's pids to" :
			 "empty", path, strerror(-ret));
	tracefs_put_tracing_file(path);
	return ret;
}

/*
 * --method alternate: the events off in our instance (the last instance
 * that enables a tracepoint turns its static key off, so the traced code
 * runs as untraced; the kprobes and uprobes are unregistered), and
 * set_event_pid emptied: while it holds pids the kernel keeps probes on
 * sched_switch and sched_wakeup that check every task switch against it,
 * enabled events or not (measured: off slices ~10% slower than the plain
 * ones until it was emptied). The buffer and the consumer's readers stay:
 * they cost nothing while nothing is written.
 */
static int ftrace_disable(void *priv, char *err, size_t len)
{
	struct ftrace *f = priv;
	int ret = lb_dynevents_enable(f->dyn, f->inst, false, err, len);

	if (!ret)
		ret = events_write(f, "0", err, len);
	if (!ret && f->pids)
		ret = pid_filter_write(f, NULL, err, len);
	return ret;
}

static int ftrace_enable(void *priv, char *err, size_t len)
{
	struct ftrace *f = priv;
	int ret = f->pids ? pid_filter_write(f, f->pids, err, len) : 0;

	if (!ret)
		ret = events_write(f, "1", err, len);
	return ret ? ret : lb_dynevents_enable(f->dyn, f->inst, true, err, len);
}

/*
 * mode consumer: pin the readers to the CPUs the workload's @pids may run on
 * (reader-cpu workload), or to the CPUs loadbench may use that they may not
 * (reader-cpu other).
 */
static int place_reader(struct ftrace *f, const pid_t *pids, int n, char *err, size_t len)
{
	cpu_set_t wl, mine, set;
	char a[128], b[128];
	int ret;

	CPU_ZERO(&wl);
	for (int i = 0; i < n; i++) {
		cpu_set_t one;

		if (sched_getaffinity(pids[i], sizeof(one), &one) < 0) {
			ret = -errno;
			snprintf(err, len, "ftrace consumer: cannot read the CPUs of workload "
				 "process %d: %s", (int)pids[i], strerror(-ret));
			return ret;
		}
		CPU_OR(&wl, &wl, &one);
	}
	set = wl;
	if (f->reader_cpu == LB_READER_OTHER) {
		if (sched_getaffinity(0, sizeof(mine), &mine) < 0)
			return -errno;
		CPU_XOR(&set, &mine, &wl);
		CPU_AND(&set, &set, &mine);
		if (!CPU_COUNT(&set)) {
			snprintf(err, len, "reader-cpu other: the workload may run on every CPU "
				 "loadbench may use (%s), so no CPU is left for the reader: pin the "
				 "workload to fewer CPUs (--cpus S,G)",
				 lb_cpus_format(&mine, sizeof(mine), a, sizeof(a)));
			return -EINVAL;
		}
	}
	ret = lb_ftrace_reader_pin(f->reader, &set);
	if (ret)
		snprintf(err, len, "cannot pin the ftrace consumer's threads to CPUs %s (the "
			 "workload's: %s): %s", lb_cpus_format(&set, sizeof(set), a, sizeof(a)),
			 lb_cpus_format(&wl, sizeof(wl), b, sizeof(b)), strerror(-ret));
	return ret;
}

/* Appends " @id" to *@list, grown as needed. Returns 0 or -ENOMEM. */
static int pid_list_add(char **list, size_t *cap, size_t *off, const char *id)
{
	size_t need = *off + strlen(id) + 2;
	char *nl;

	if (need > *cap) {
		nl = realloc(*list, need * 2);
		if (!nl)
			return -ENOMEM;
		*list = nl;
		*cap = need * 2;
	}
	*off += snprintf(*list + *off, *cap - *off, "%s%s", *off ? " " : "", id);
	return 0;
}

/*
 * Appends every thread of @pid to *@list (whole pids only: a list cut short
 * would filter on a prefix of one, another pid); @pid itself when its
 * threads cannot be listed. Returns 0 or -ENOMEM.
 */
static int pid_list_add_threads(char **list, size_t *cap, size_t *off, pid_t pid)
{
	char path[64];
	struct dirent *d;
	int added = 0, ret = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && !ret && (d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		ret = pid_list_add(list, cap, off, d->d_name);
		added++;
	}
	if (dir)
		closedir(dir);
	if (!ret && !added) {
		snprintf(path, sizeof(path), "%d", (int)pid);
		ret = pid_list_add(list, cap, off, path);
	}
	return ret;
}

/*
 * scope workload: record only @pids' events (set_event_pid), from now on.
 * mode consumer: place the reader threads.
 */
static int ftrace_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct ftrace *f = priv;
	size_t off = 0, cap;
	char *list;
	int ret;

	if (f->reader && n > 0) {
		ret = place_reader(f, pids, n, err, len);
		if (ret)
			return ret;
	}
	if (!f->workload)
		return 0;
	if (n < 1) {
		snprintf(err, len, "ftrace: scope workload, but the workload has no process");
		return -ESRCH;
	}
	/*
	 * set_event_pid filters on threads: every thread of each process (a server
	 * started before the run has its threads already; the ones that come later
	 * are followed by event-fork).
	 */
	cap = (size_t)n * 12 + 1;
	list = malloc(cap);
	if (!list)
		return -ENOMEM;
	list[0] = '\0';
	for (int i = 0; i < n; i++) {
		ret = pid_list_add_threads(&list, &cap, &off, pids[i]);
		if (ret) {
			free(list);
			return ret;
		}
	}
	ret = pid_filter_write(f, list, err, len);
	if (!ret && tracefs_trace_on(f->inst) < 0) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "cannot turn tracing on in instance %s: %s",
			 tracefs_instance_get_name(f->inst), strerror(-ret));
	}
	if (ret) {
		free(list);
		return ret;
	}
	/* Kept for --method alternate: enable writes it again after disable emptied it. */
	free(f->pids);
	f->pids = list;
	return 0;
}

/* Value of "KEY: N" in a per_cpu/cpuN/stats text; 0 when absent. */
static uint64_t stats_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
	}
	return 0;
}

static int ftrace_snapshot(void *priv, struct lb_tracer_counts *c)
{
	struct ftrace *f = priv;
	char file[64];

	for (int cpu = 0; cpu < f->ncpus; cpu++) {
		uint64_t entries, overrun, commit, dropped, read;
		char *text;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		if (!tracefs_file_exists(f->inst, file))
			continue;
		text = tracefs_instance_file_read(f->inst, file, NULL);
		if (!text)
			return errno ? -errno : -EIO;
		entries = stats_value(text, "entries");
		overrun = stats_value(text, "overrun");
		commit = stats_value(text, "commit overrun");
		dropped = stats_value(text, "dropped events");
		read = stats_value(text, "read events");
		free(text);
		/*
		 * entries = written - overwritten - read, so everything the
		 * tracer handled is entries + overrun + read, plus what it
		 * had to drop (discard mode) or lost to nesting (commit
		 * overrun).
		 */
		c->events += entries + overrun + read + commit + dropped;
		c->lost += commit + dropped;
		c->overwritten += overrun;
		c->read += read;
	}
	if (f->reader) {
		int error;

		c->read_bytes = lb_ftrace_reader_bytes(f->reader, &error);
		if (error)
			return error;
	}
	return 0;
}

/* The cleanup op: tracefs instances of dead runs. */
static int ftrace_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char dir[512], what[300];
	struct dirent *de;
	int found = 0;
	DIR *d;

	/* Read directly: tracefs_instances() compiles a regex it never frees (libtracefs 1.6). */
	snprintf(dir, sizeof(dir), "%s/instances", lb_tracefs_dir());
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		pid_t pid;
		int err = 0;

		snprintf(what, sizeof(what), "tracefs instance %s", de->d_name);
		if (!lb_cleanup_take(o, de->d_name, what, &pid, report, arg))
			continue;
		found++;
		if (remove)
			err = lb_tracefs_instance_remove(de->d_name, 2.0, NULL, 0);
		if (err)
			lb_owners_failed(o, pid);
		if (report)
			report(what, err, arg);
	}
	closedir(d);
	return found;
}

/* mode consumer: the reader threads' clocks; none otherwise. */
static int ftrace_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	struct ftrace *f = priv;

	return f->reader ? lb_ftrace_reader_clocks(f->reader, clk, max) : 0;
}

const struct lb_tracer_ops lb_tracer_ftrace = {
	.name = "ftrace",
	.available = ftrace_available,
	.create = ftrace_create,
	.arm = ftrace_arm,
	.attach = ftrace_attach,
	.snapshot = ftrace_snapshot,
	.enable = ftrace_enable,
	.disable = ftrace_disable,
	.cpu_clocks = ftrace_cpu_clocks,
	.disarm = ftrace_disarm,
	.destroy = ftrace_destroy,
	.cleanup = ftrace_cleanup,
};
