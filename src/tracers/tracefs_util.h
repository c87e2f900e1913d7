/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tracers that use tracefs events share: where tracefs is (and
 * mounting it), resolving a probe set's probes to tracefs events with
 * line-numbered errors, tracepoint ids, and the per-CPU buffer size check.
 */
#ifndef LB_TRACEFS_UTIL_H
#define LB_TRACEFS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probeset.h"

/* One tracefs event: SYSTEM:EVENT, or every event of SYSTEM when event is NULL. */
struct lb_tracefs_event {
	char *system;
	char *event;
	int line;	/* probe-set line it came from */
};

/* lb_tracefs_dir - the tracefs mount point (libtracefs's, else /sys/kernel/tracing). */
const char *lb_tracefs_dir(void);

/*
 * lb_tracefs_mount - make sure tracefs is mounted, mounting it when it is
 * not. Returns 0, or -ENODEV with the reason and the fix in @why.
 */
int lb_tracefs_mount(char *why, size_t len);

/*
 * lb_tracefs_instance_remove - remove instance @name. The kernel refuses
 * (EBUSY) while any process holds a file of the instance open, another
 * tool's reader or a shell reading our stats included: that is retried for
 * up to @wait_s seconds. Returns 0 (also when it is gone already), or
 * -errno; on EBUSY, @why (when not NULL) names the processes holding a file
 * of it open, or says that none could be found.
 */
int lb_tracefs_instance_remove(const char *name, double wait_s, char *why, size_t len);

/* lb_tracefs_event_exists - whether events/@system[/@event] exists (@event NULL: the system). */
bool lb_tracefs_event_exists(const char *system, const char *event);

/*
 * lb_tracefs_events_resolve - the tracefs events @ps's probes name ("syscall
 * all" = raw_syscalls:sys_enter/exit, "syscall NAME" = syscalls:sys_enter_NAME
 * /sys_exit_NAME, "SYS:*" = one entry with event NULL), each checked to exist.
 * Returns 0 with a malloc'd array in *@out (free with lb_tracefs_events_free),
 * or -errno with "PATH:LINE: problem" in @err (-ENOENT for an unknown event,
 * naming similar ones; -EOPNOTSUPP for a kind @tracer cannot record).
 */
int lb_tracefs_events_resolve(const struct lb_probeset *ps, const char *tracer,
			      struct lb_tracefs_event **out, size_t *n, char *err, size_t len);

/*
 * lb_tracefs_tracepoints_resolve - lb_tracefs_events_resolve() of @ps's
 * tracepoint and syscall probes only, for tracers that place the dynamic
 * kinds (kprobes, uprobes) themselves. Returns as that does.
 */
int lb_tracefs_tracepoints_resolve(const struct lb_probeset *ps, const char *tracer,
				   struct lb_tracefs_event **out, size_t *n, char *err,
				   size_t len);

/* lb_tracefs_events_free - free an array from lb_tracefs_events_resolve(); NULL is fine. */
void lb_tracefs_events_free(struct lb_tracefs_event *ev, size_t n);

/* Called by lb_tracefs_events_foreach() once per distinct tracepoint. Returns 0 or -errno. */
typedef int (*lb_tracepoint_fn)(void *arg, const struct lb_probeset *ps, const char *system,
				const char *event, uint64_t id, int line, char *err, size_t len);

/*
 * lb_tracefs_events_foreach - call @fn for each distinct tracepoint of the
 * resolved @evs, with the id perf and bpf attach by: "SYS:*" expanded to the
 * system's events (those without an id, ftrace's internal ones, skipped), a
 * tracepoint named twice (e.g. "sched:*" and "sched:sched_switch") visited
 * once. Returns 0, @fn's -errno, or -errno with "PATH:LINE: problem" in @err.
 */
int lb_tracefs_events_foreach(const struct lb_probeset *ps, const struct lb_tracefs_event *evs,
			      size_t n, lb_tracepoint_fn fn, void *arg, char *err, size_t len);

/*
 * lb_tracefs_event_id - the id perf_event_open knows tracepoint @system:@event
 * by (events/SYSTEM/EVENT/id). Returns the id (>= 0) or -errno.
 */
long long lb_tracefs_event_id(const char *system, const char *event);

/*
 * lb_buffer_check_size - refuse a @kb KiB buffer on each of @ncpus CPUs when
 * that is more than half the available memory. Returns 0, or -EINVAL with a
 * message naming @ps's file in @err.
 */
int lb_buffer_check_size(const struct lb_probeset *ps, int kb, int ncpus, char *err, size_t len);

#endif
