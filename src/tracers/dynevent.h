/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dynamic events for the ftrace and perf tracers: kprobes and kretprobes on
 * kernel symbols, uprobes and uretprobes on functions of the workload server
 * (the loadbench executable: the server is a forked child), USDT markers.
 * They are created at the top level of tracefs (that is the only place the
 * kernel has for them) in the group loadbench_<pid>, so they appear in every
 * instance; ftrace enables them only in ours, perf opens them by id with
 * perf_event_open(2), and they are removed after our instance or our perf
 * events are gone (an enabled event is busy).
 */
#ifndef LB_DYNEVENT_H
#define LB_DYNEVENT_H

#include <stdbool.h>
#include <stddef.h>

#include "leftover.h"
#include "probeset.h"

struct tracefs_instance;
struct lb_dynevents;

/*
 * lb_dynevents_resolve - the dynamic probes of @ps (kprobe, kretprobe,
 * uprobe, uretprobe), checked on this kernel without changing it: kprobes
 * need kprobe_events, every kernel symbol must be in /proc/kallsyms, every
 * server function in the executable's symbol table. Returns 0 and sets *@out
 * (also when @ps has none), or -errno with the reason or "PATH:LINE: problem"
 * (naming near matches) in @err: -ENODEV when this kernel has no kprobes or
 * uprobes at all, -ENOENT for a missing symbol or function.
 */
int lb_dynevents_resolve(const struct lb_probeset *ps, struct lb_dynevents **out, char *err,
			 size_t len);

/*
 * lb_uprobe_binary - the executable @ps's uprobe, uretprobe and usdt lines
 * probe, into @buf (@size bytes): its 'binary' line with the symbolic links
 * resolved, else the loadbench executable (the workload server is a fork of
 * it); a path uprobe_events can name (no blank). Returns 0, or -errno with
 * the reason in @err: -ENOENT for a binary that is not installed (the set
 * cannot run here, LB_UNAVAIL_TOOL).
 */
int lb_uprobe_binary(const struct lb_probeset *ps, char *buf, size_t size, char *err,
		     size_t len);

/*
 * lb_dynevents_create - create @d's events in group loadbench_<pid> and
 * enable them in @inst only; with @inst NULL, enable them nowhere (the perf
 * tracers open them by id: `perf probe' then `perf record -e'). Returns 0,
 * or -errno with the reason in @err; what was created stays recorded for
 * lb_dynevents_remove() either way.
 */
int lb_dynevents_create(struct lb_dynevents *d, struct tracefs_instance *inst, char *err,
			size_t len);

/* lb_dynevents_count - how many events @d has (a USDT marker one per place). */
size_t lb_dynevents_count(const struct lb_dynevents *d);

/*
 * lb_dynevents_event - event @i of @d: its group and name in tracefs, what
 * it probes (a symbol, a function or a marker's name) and its probe-set
 * line. Returns 0 once it is created, -ENOENT before, -ERANGE past the end.
 */
int lb_dynevents_event(const struct lb_dynevents *d, size_t i, const char **group,
		       const char **name, const char **what, int *line);

/*
 * lb_dynevents_enable - enable (@on) or disable every created event of @d in
 * @inst. Disabled in every instance, the kernel unregisters the kprobe or
 * uprobe: nothing is left in the probed code. Returns 0, or -errno with the
 * reason in @err.
 */
int lb_dynevents_enable(struct lb_dynevents *d, struct tracefs_instance *inst, bool on,
			char *err, size_t len);

/*
 * lb_dynevents_remove - remove every event lb_dynevents_create() created.
 * Call after the instance that enabled them is destroyed. Returns 0 or the
 * first -errno.
 */
int lb_dynevents_remove(struct lb_dynevents *d);

/* lb_dynevents_free - remove what is left and free @d; NULL is fine. */
void lb_dynevents_free(struct lb_dynevents *d);

/*
 * lb_dynevent_cleanup - the dynamic events (kprobes, uprobes, their return
 * probes) whose group names a dead run in @o; with @remove, removed. Run it
 * after the tracers' cleanup ops: an event enabled in a leftover instance
 * keeps its dynamic event busy. @report as for lb_tracers_cleanup().
 * Returns how many were found.
 */
int lb_dynevent_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg);

#endif
