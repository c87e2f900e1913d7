// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared by the tracers that enable tracefs events (ftrace, perf): tracefs's
 * location, resolving and checking a probe set's events, tracepoint ids.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "tracefs_util.h"
#include "unavailable.h"
#include "util.h"

/*
 * The processes holding a file below @dir open, as "pid N (COMM), ..." into
 * @buf; returns how many were found. Reads /proc/PID/fd links only.
 */
static int instance_holders(const char *dir, char *buf, size_t len)
{
	size_t dlen = strlen(dir), off = 0;
	struct dirent *p;
	int found = 0;
	DIR *proc;

	buf[0] = '\0';
	proc = opendir("/proc");
	if (!proc)
		return 0;
	while ((p = readdir(proc))) {
		char path[300], link[600], comm[64] = "?";
		struct dirent *fd;
		bool holds = false;
		DIR *fds;
		FILE *f;

		if (p->d_name[0] < '0' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while (!holds && (fd = readdir(fds))) {
			char fpath[600];
			ssize_t n;

			snprintf(fpath, sizeof(fpath), "%s/%s", path, fd->d_name);
			n = readlink(fpath, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			holds = !strncmp(link, dir, dlen) && (link[dlen] == '/' || !link[dlen]);
		}
		closedir(fds);
		if (!holds)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", p->d_name);
		f = fopen(path, "re");
		if (f) {
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		if (off < len)
			off += snprintf(buf + off, len - off, "%spid %s (%s)", found ? ", " : "",
					p->d_name, comm);
		found++;
	}
	closedir(proc);
	return found;
}

int lb_tracefs_instance_remove(const char *name, double wait_s, char *why, size_t len)
{
	struct timespec step = { .tv_nsec = 10 * 1000 * 1000 };
	char dir[512], holders[256];
	int tries = 0, ret;

	snprintf(dir, sizeof(dir), "%s/instances/%s", lb_tracefs_dir(), name);
	for (;;) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		ret = -errno;
		if (ret != -EBUSY || ++tries > wait_s * 100)
			break;
		nanosleep(&step, NULL);
	}
	if (ret == -EBUSY && why) {
		if (instance_holders(dir, holders, sizeof(holders)))
			snprintf(why, len, "instance %s is still in use after %.1f s: held open by %s",
				 name, wait_s, holders);
		else
			snprintf(why, len, "instance %s is still in use after %.1f s, and no process "
				 "holds a file of it open", name, wait_s);
	} else if (why) {
		snprintf(why, len, "cannot remove instance %s: %s", name, strerror(-ret));
	}
	return ret;
}

const char *lb_tracefs_dir(void)
{
	const char *dir = tracefs_tracing_dir();

	return dir ? dir : "/sys/kernel/tracing";
}

int lb_tracefs_mount(char *why, size_t len)
{
	static int mounted_errno = -1;	/* -1: not asked yet; 0: mounted */
	const char *path = NULL;

	/*
	 * Mounts tracefs when it is not mounted yet (libtracefs does the
	 * mount). Asked once per process: libtracefs 1.6 leaks the path it
	 * returns, and the answer does not change while loadbench runs.
	 */
	if (mounted_errno < 0)
		mounted_errno = tracefs_tracing_dir_is_mounted(true, &path) < 0 ?
				(errno ? errno : ENODEV) : 0;
	if (mounted_errno) {
		lb_unavailable_say(LB_UNAVAIL_TRACEFS, why, len, "tracefs is not mounted and could "
				   "not be mounted (%s): mount it with 'mount -t tracefs nodev "
				   "/sys/kernel/tracing' (kernel needs CONFIG_TRACING)",
				   strerror(mounted_errno));
		return -ENODEV;
	}
	return 0;
}

bool lb_tracefs_event_exists(const char *system, const char *event)
{
	char path[1024];
	struct stat st;

	if (event)
		snprintf(path, sizeof(path), "%s/events/%s/%s", lb_tracefs_dir(), system, event);
	else
		snprintf(path, sizeof(path), "%s/events/%s", lb_tracefs_dir(), system);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The (up to 3) events of @system closest to the misspelt @event, for "did you mean". */
static void near_matches(const char *system, const char *event, char *buf, size_t len)
{
	char **events = tracefs_system_events(lb_tracefs_dir(), system);
	int best[3] = { -1, -1, -1 }, dist[3] = { 0 };
	int limit = (int)strlen(event) / 3 + 2;
	size_t off = 0;

	buf[0] = '\0';
	if (!events)
		return;
	for (int i = 0; events[i]; i++) {
		int d = lb_edit_distance(event, events[i]), pos = 0;

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

static int add_event(struct lb_tracefs_event **evs, size_t *n, const char *system,
		     const char *event, int line)
{
	struct lb_tracefs_event *ev;

	ev = realloc(*evs, (*n + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	*evs = ev;
	ev = &ev[*n];
	ev->system = strdup(system);
	ev->event = event ? strdup(event) : NULL;
	ev->line = line;
	if (!ev->system || (event && !ev->event)) {
		free(ev->system);
		free(ev->event);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

void lb_tracefs_events_free(struct lb_tracefs_event *ev, size_t n)
{
	for (size_t i = 0; ev && i < n; i++) {
		free(ev[i].system);
		free(ev[i].event);
	}
	free(ev);
}

int lb_tracefs_events_resolve(const struct lb_probeset *ps, const char *tracer,
			      struct lb_tracefs_event **out, size_t *n, char *err, size_t len)
{
	struct lb_tracefs_event *evs = NULL;
	const char *dir = lb_tracefs_dir();
	size_t nevs = 0;
	char near[256];
	int ret = 0;

	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];

		switch (p->kind) {
		case LB_PROBE_TRACEPOINT: {
			const char *ev = strcmp(p->event, "*") ? p->event : NULL;

			if (!p->system) {
				snprintf(err, len, "%s:%d: tracepoint %s has no system: the %s tracer "
					 "names tracepoints SYSTEM:EVENT (e.g. net:netif_receive_skb); "
					 "bare LTTng names are for tracer lttng", ps->path, p->line,
					 p->event, tracer);
				ret = -EINVAL;
				goto err;
			}
			if (!lb_tracefs_event_exists(p->system, NULL)) {
				lb_unavailable_say(LB_UNAVAIL_TRACEPOINT, err, len, "%s:%d: unknown "
						   "tracepoint system '%s': this kernel has no "
						   "%s/events/%s (see available_events)", ps->path,
						   p->line, p->system, dir, p->system);
				ret = -ENOENT;
				goto err;
			}
			if (ev && !lb_tracefs_event_exists(p->system, ev)) {
				near_matches(p->system, ev, near, sizeof(near));
				lb_unavailable_say(LB_UNAVAIL_TRACEPOINT, err, len, "%s:%d: unknown "
						   "tracepoint %s:%s: this kernel has no "
						   "%s/events/%s/%s%s%s", ps->path, p->line, p->system,
						   ev, dir, p->system, ev,
						   near[0] ? "; similar: " :
						   " (see available_events)", near);
				ret = -ENOENT;
				goto err;
			}
			ret = add_event(&evs, &nevs, p->system, ev, p->line);
			break;
		}
		case LB_PROBE_SYSCALL:
			if (!strcmp(p->event, "all")) {
				if (!lb_tracefs_event_exists("raw_syscalls", "sys_enter") ||
				    !lb_tracefs_event_exists("raw_syscalls", "sys_exit")) {
					snprintf(err, len, "%s:%d: this kernel has no raw_syscalls "
						 "events (CONFIG_FTRACE_SYSCALLS unset)", ps->path,
						 p->line);
					ret = -ENOENT;
					goto err;
				}
				ret = add_event(&evs, &nevs, "raw_syscalls", "sys_enter", p->line);
				if (!ret)
					ret = add_event(&evs, &nevs, "raw_syscalls", "sys_exit",
							p->line);
			} else {
				char enter[128], exit_[128];

				snprintf(enter, sizeof(enter), "sys_enter_%s", p->event);
				snprintf(exit_, sizeof(exit_), "sys_exit_%s", p->event);
				if (!lb_tracefs_event_exists("syscalls", enter) ||
				    !lb_tracefs_event_exists("syscalls", exit_)) {
					snprintf(err, len, "%s:%d: unknown syscall '%s': this kernel "
						 "has no syscalls:%s event (see %s/events/syscalls)",
						 ps->path, p->line, p->event, enter, dir);
					ret = -ENOENT;
					goto err;
				}
				ret = add_event(&evs, &nevs, "syscalls", enter, p->line);
				if (!ret)
					ret = add_event(&evs, &nevs, "syscalls", exit_, p->line);
			}
			break;
		default:
			snprintf(err, len, "%s:%d: the %s tracer does not take %s lines%s",
				 ps->path, p->line, tracer, lb_probe_kind_name(p->kind),
				 p->kind == LB_PROBE_USDT || p->kind == LB_PROBE_UPROBE ||
				 p->kind == LB_PROBE_URETPROBE ? ": use tracer ftrace for them" : "");
			ret = -EOPNOTSUPP;
			goto err;
		}
		if (ret)
			goto err;
	}
	*out = evs;
	*n = nevs;
	return 0;
err:
	lb_tracefs_events_free(evs, nevs);
	return ret;
}

int lb_tracefs_tracepoints_resolve(const struct lb_probeset *ps, const char *tracer,
				   struct lb_tracefs_event **out, size_t *n, char *err,
				   size_t len)
{
	struct lb_probeset tracepoints = *ps;
	int ret;

	tracepoints.probes = calloc(ps->nprobes ? ps->nprobes : 1, sizeof(*ps->probes));
	if (!tracepoints.probes)
		return -ENOMEM;
	tracepoints.nprobes = 0;
	for (size_t i = 0; i < ps->nprobes; i++)
		if (ps->probes[i].kind == LB_PROBE_TRACEPOINT ||
		    ps->probes[i].kind == LB_PROBE_SYSCALL)
			tracepoints.probes[tracepoints.nprobes++] = ps->probes[i];
	ret = lb_tracefs_events_resolve(&tracepoints, tracer, out, n, err, len);
	free(tracepoints.probes);
	return ret;
}

long long lb_tracefs_event_id(const char *system, const char *event)
{
	char path[1024], *text = NULL, *end;
	long long id;
	int ret;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", lb_tracefs_dir(), system, event);
	ret = lb_read_file(path, 64, &text, NULL);
	if (ret)
		return ret;
	errno = 0;
	id = strtoll(text, &end, 10);
	if (errno || end == text || id < 0)
		id = -EINVAL;
	free(text);
	return id;
}

int lb_buffer_check_size(const struct lb_probeset *ps, int kb, int ncpus, char *err, size_t len)
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

struct tp_seen {
	uint64_t *ids;
	size_t n;
};

static int visit_tp(const struct lb_probeset *ps, const char *system, const char *event,
		    bool wildcard, int line, struct tp_seen *seen, lb_tracepoint_fn fn, void *arg,
		    char *err, size_t len)
{
	long long id = lb_tracefs_event_id(system, event);
	uint64_t *ids;

	if (id == -ENOENT && wildcard)
		return 0;
	if (id < 0) {
		snprintf(err, len, "%s:%d: cannot read the id of tracepoint %s:%s from "
			 "%s/events/%s/%s/id: %s", ps->path, line, system, event,
			 lb_tracefs_dir(), system, event, strerror((int)-id));
		return (int)id;
	}
	for (size_t i = 0; i < seen->n; i++)
		if (seen->ids[i] == (uint64_t)id)
			return 0;
	ids = realloc(seen->ids, (seen->n + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	seen->ids = ids;
	seen->ids[seen->n++] = (uint64_t)id;
	return fn(arg, ps, system, event, (uint64_t)id, line, err, len);
}

int lb_tracefs_events_foreach(const struct lb_probeset *ps, const struct lb_tracefs_event *evs,
			      size_t n, lb_tracepoint_fn fn, void *arg, char *err, size_t len)
{
	struct tp_seen seen = { NULL, 0 };
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		char **names;

		if (evs[i].event) {
			ret = visit_tp(ps, evs[i].system, evs[i].event, false, evs[i].line, &seen,
				       fn, arg, err, len);
			continue;
		}
		names = tracefs_system_events(lb_tracefs_dir(), evs[i].system);
		if (!names) {
			snprintf(err, len, "%s:%d: cannot list the events of tracepoint system "
				 "'%s' in %s/events/%s", ps->path, evs[i].line, evs[i].system,
				 lb_tracefs_dir(), evs[i].system);
			ret = -ENOENT;
			break;
		}
		for (int k = 0; names[k] && !ret; k++)
			ret = visit_tp(ps, evs[i].system, names[k], true, evs[i].line, &seen, fn,
				       arg, err, len);
		tracefs_list_free(names);
	}
	free(seen.ids);
	return ret;
}
