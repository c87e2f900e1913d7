/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Leftovers: tracing state that a loadbench process which no longer runs
 * (SIGKILL, crash, power loss of the tracer but not the kernel) left behind.
 * Everything loadbench creates is named loadbench_<pid>, so what belongs to a
 * dead pid can be found and removed without touching anybody else's state.
 */
#ifndef LB_CLEANUP_H
#define LB_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Called for each leftover: @what names it ("tracefs instance loadbench_123"); @err is
 * 0, or the -errno of a failed removal (always 0 when not removing). */
typedef void (*lb_cleanup_report_fn)(const char *what, int err, void *arg);

/*
 * lb_cleanup_run - find the tracefs instances, dynamic events (kprobes,
 * uprobes) and LTTng sessions named loadbench_<pid>, and the veth interfaces
 * with that alias (--topology veth), whose pid is not a running process; with
 * @remove, remove them. @report (may be NULL) is called for each. Returns how
 * many were found, or -errno when tracefs cannot be read.
 */
int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg);

/*
 * lb_cleanup_own - remove the tracefs instances, dynamic events and veth
 * interfaces named loadbench_<our pid>: with pids reused, an earlier
 * loadbench that had this pid and was killed may have left them, and they
 * would make this run fail. Only for a process that has created nothing
 * yet. @report (may be NULL) is called for each. Returns how many were
 * found, or -errno when tracefs cannot be read.
 */
int lb_cleanup_own(lb_cleanup_report_fn report, void *arg);

/*
 * lb_cleanup_dead_owner - the pid in a name "loadbench_<pid>[...]" when that
 * process no longer runs; 0 for another name, a live pid or our own.
 */
pid_t lb_cleanup_dead_owner(const char *name);

#endif
