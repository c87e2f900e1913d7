// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ftrace tracer, through libtracefs: a tracefs instance of its own
 * (loadbench_<pid>), events enabled only there, counts from the per-CPU
 * ring-buffer statistics. The top-level buffer and other instances are never
 * touched.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracer.h"
#include "util.h"

/* One file to write "1" to, relative to the instance: events/SYS[/EVENT]/enable. */
struct ftrace_event {
	char *system;
	char *event;	/* NULL = every event of the system */
};

struct ftrace {
	struct ftrace_event *events;
	size_t nevents;
	int buffer_kb;		/* 0 = leave the kernel's default */
	bool overwrite;
	int ncpus;		/* possible CPUs: per_cpu/cpuN directories to read */
	struct tracefs_instance *inst;
};

static const char *tracing_dir(void)
{
	const char *dir = tracefs_tracing_dir();

	return dir ? dir : "/sys/kernel/tracing";
}

static int ftrace_available(char *why, size_t len)
{
	const char *path = NULL;
	char dir[512];
	struct stat st;

	if (geteuid() != 0) {
		snprintf(why, len, "needs root: tracefs instances and events are root-only "
			 "(run loadbench with sudo)");
		return -EPERM;
	}
	/* Mounts tracefs when it is not mounted yet (libtracefs does the mount). */
	if (tracefs_tracing_dir_is_mounted(true, &path) < 0) {
		snprintf(why, len, "tracefs is not mounted and could not be mounted (%s): mount it "
			 "with 'mount -t tracefs nodev /sys/kernel/tracing' (kernel needs "
			 "CONFIG_TRACING)", strerror(errno));
		return -ENODEV;
	}
	snprintf(dir, sizeof(dir), "%s/instances", tracing_dir());
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "this kernel's tracefs has no %s: ftrace instances need "
			 "CONFIG_TRACING (Linux 3.10 or later)", dir);
		return -ENODEV;
	}
	return 0;
}

static bool event_exists(const char *system, const char *event)
{
	char path[1024];
	struct stat st;

	if (event)
		snprintf(path, sizeof(path), "%s/events/%s/%s", tracing_dir(), system, event);
	else
		snprintf(path, sizeof(path), "%s/events/%s", tracing_dir(), system);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Levenshtein distance of two short names (longer ones are cut at 63 bytes). */
static int edit_distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, 63), lb = (int)strnlen(b, 63);
	int row[64];

	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* The (up to 3) events of @system closest to the misspelt @event, for "did you mean". */
static void near_matches(const char *system, const char *event, char *buf, size_t len)
{
	char **events = tracefs_system_events(tracing_dir(), system);
	int best[3] = { -1, -1, -1 }, dist[3] = { 0 };
	int limit = (int)strlen(event) / 3 + 2;
	size_t off = 0;

	buf[0] = '\0';
	if (!events)
		return;
	for (int i = 0; events[i]; i++) {
		int d = edit_distance(event, events[i]), pos = 0;

		if (d > limit)
			continue;
		while (pos < 3 && best[pos] >= 0 && dist[pos] <= d)
			pos++;
		if (pos == 3)
			continue;
		for (int k = 2; k > pos; k--) {
			best[k] = best[k - 1];
			dist[k] = dist[k - 1];
		}
		best[pos] = i;
		dist[pos] = d;
	}
	for (int k = 0; k < 3 && best[k] >= 0 && off < len; k++)
		off += snprintf(buf + off, len - off, "%s%s:%s", k ? ", " : "", system,
				events[best[k]]);
	tracefs_list_free(events);
}

static int add_event(struct ftrace *f, const char *system, const char *event)
{
	struct ftrace_event *ev;

	ev = realloc(f->events, (f->nevents + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	f->events = ev;
	ev = &f->events[f->nevents];
	ev->system = strdup(system);
	ev->event = event ? strdup(event) : NULL;
	if (!ev->system || (event && !ev->event)) {
		free(ev->system);
		free(ev->event);
		return -ENOMEM;
	}
	f->nevents++;
	return 0;
}

static void ftrace_destroy(void *priv)
{
	struct ftrace *f = priv;

	if (!f)
		return;
	for (size_t i = 0; i < f->nevents; i++) {
		free(f->events[i].system);
		free(f->events[i].event);
	}
	free(f->events);
	free(f);
}

/* Refuse buffers that would take more than half the available memory. */
static int check_buffer_size(const struct lb_probeset *ps, int kb, int ncpus, char *err,
			     size_t len)
{
	long long avail_kb = 0;
	char *meminfo = NULL, *p = NULL;

	if (lb_read_file("/proc/meminfo", 1 << 20, &meminfo, NULL) == 0)
		p = strstr(meminfo, "MemAvailable:");

	if (p)
		avail_kb = strtoll(p + strlen("MemAvailable:"), NULL, 10);
	free(meminfo);
	if (avail_kb > 0 && (long long)kb * ncpus > avail_kb / 2) {
		snprintf(err, len, "%s: a %d KiB buffer on each of %d CPUs is more than half the "
			 "%lld KiB of available memory: choose a smaller --buffer-kb or buffer-kb",
			 ps->path, kb, ncpus, avail_kb);
		return -EINVAL;
	}
	return 0;
}

static int ftrace_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			 void **priv, char *err, size_t len)
{
	struct ftrace *f;
	char near[256];
	int ret = 0;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	f->buffer_kb = opts && opts->buffer_kb ? opts->buffer_kb : ps->buffer_kb;
	f->overwrite = (opts && opts->mode ? opts->mode : ps->mode) != LB_MODE_DISCARD;

	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];

		switch (p->kind) {
		case LB_PROBE_TRACEPOINT: {
			const char *ev = strcmp(p->event, "*") ? p->event : NULL;

			if (!event_exists(p->system, NULL)) {
				snprintf(err, len, "%s:%d: unknown tracepoint system '%s': this kernel "
					 "has no %s/events/%s (see available_events)", ps->path,
					 p->line, p->system, tracing_dir(), p->system);
				ret = -ENOENT;
				goto err;
			}
			if (ev && !event_exists(p->system, ev)) {
				near_matches(p->system, ev, near, sizeof(near));
				snprintf(err, len, "%s:%d: unknown tracepoint %s:%s: this kernel has no "
					 "%s/events/%s/%s%s%s", ps->path, p->line, p->system, ev,
					 tracing_dir(), p->system, ev,
					 near[0] ? "; similar: " : " (see available_events)", near);
				ret = -ENOENT;
				goto err;
			}
			ret = add_event(f, p->system, ev);
			break;
		}
		case LB_PROBE_SYSCALL:
			if (!strcmp(p->event, "all")) {
				if (!event_exists("raw_syscalls", "sys_enter") ||
				    !event_exists("raw_syscalls", "sys_exit")) {
					snprintf(err, len, "%s:%d: this kernel has no raw_syscalls "
						 "events (CONFIG_FTRACE_SYSCALLS unset)", ps->path,
						 p->line);
					ret = -ENOENT;
					goto err;
				}
				ret = add_event(f, "raw_syscalls", "sys_enter");
				if (!ret)
					ret = add_event(f, "raw_syscalls", "sys_exit");
			} else {
				char enter[128], exit_[128];

				snprintf(enter, sizeof(enter), "sys_enter_%s", p->event);
				snprintf(exit_, sizeof(exit_), "sys_exit_%s", p->event);
				if (!event_exists("syscalls", enter) || !event_exists("syscalls", exit_)) {
					snprintf(err, len, "%s:%d: unknown syscall '%s': this kernel "
						 "has no syscalls:%s event (see %s/events/syscalls)",
						 ps->path, p->line, p->event, enter, tracing_dir());
					ret = -ENOENT;
					goto err;
				}
				ret = add_event(f, "syscalls", enter);
				if (!ret)
					ret = add_event(f, "syscalls", exit_);
			}
			break;
		default:
			snprintf(err, len, "%s:%d: the ftrace tracer does not support this probe kind",
				 ps->path, p->line);
			ret = -EOPNOTSUPP;
			goto err;
		}
		if (ret)
			goto err;
	}
	if (f->buffer_kb) {
		ret = check_buffer_size(ps, f->buffer_kb, f->ncpus, err, len);
		if (ret)
			goto err;
	}
	*priv = f;
	return 0;
err:
	ftrace_destroy(f);
	return ret;
}

static int ftrace_disarm(void *priv)
{
	struct ftrace *f = priv;
	int ret = 0;

	if (!f->inst)
		return 0;
	tracefs_trace_off(f->inst);
	if (tracefs_instance_destroy(f->inst) < 0)
		ret = errno ? -errno : -EIO;
	tracefs_instance_free(f->inst);
	f->inst = NULL;
	return ret;
}

static int ftrace_arm(void *priv, char *err, size_t len)
{
	struct ftrace *f = priv;
	char name[64], file[512];
	int ret;

	snprintf(name, sizeof(name), "loadbench_%d", (int)getpid());
	if (tracefs_instance_exists(name)) {
		snprintf(err, len, "a tracefs instance named %s already exists: remove it with "
			 "'rmdir %s/instances/%s'", name, tracing_dir(), name);
		return -EEXIST;
	}
	f->inst = tracefs_instance_create(name);
	if (!f->inst) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "cannot create the tracefs instance %s: %s", name,
			 strerror(-ret));
		return ret;
	}
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
	for (size_t i = 0; i < f->nevents; i++) {
		const struct ftrace_event *ev = &f->events[i];

		if (ev->event)
			snprintf(file, sizeof(file), "events/%s/%s/enable", ev->system, ev->event);
		else
			snprintf(file, sizeof(file), "events/%s/enable", ev->system);
		if (tracefs_instance_file_write(f->inst, file, "1") < 0) {
			ret = errno ? -errno : -EIO;
			snprintf(err, len, "cannot enable %s:%s in instance %s: %s", ev->system,
				 ev->event ? ev->event : "*", name, strerror(-ret));
			goto out;
		}
	}
	if (tracefs_trace_on(f->inst) < 0)
		goto fail;
	return 0;
fail:
	ret = errno ? -errno : -EIO;
	snprintf(err, len, "cannot configure the tracefs instance %s: %s", name, strerror(-ret));
out:
	ftrace_disarm(f);
	return ret;
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
	}
	return 0;
}

const struct lb_tracer_ops lb_tracer_ftrace = {
	.name = "ftrace",
	.available = ftrace_available,
	.create = ftrace_create,
	.arm = ftrace_arm,
	.snapshot = ftrace_snapshot,
	.disarm = ftrace_disarm,
	.destroy = ftrace_destroy,
};
