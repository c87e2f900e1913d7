/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Leftovers: tracing state that a loadbench process which no longer runs
 * (SIGKILL, crash, power loss of the tracer but not the kernel) left behind.
 * Everything loadbench creates is named loadbench_<pid>, and a run lock
 * (owner.h) tells a dead run's names from a live one's, so what a dead run
 * left can be removed without touching anybody else's state.
 */
#ifndef LB_CLEANUP_H
#define LB_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

#include "leftover.h"

/*
 * lb_cleanup_run - find the tracefs instances, dynamic events (kprobes,
 * uprobes), LTTng sessions and trace directories named loadbench_<pid>, and
 * the veth interfaces with that alias (--topology veth), of runs that are
 * dead by their run lock (owner.h); with @remove, remove them and then their
 * lock files. Names no lock proves dead are reported with LB_CLEANUP_LEFT and
 * left alone. @report (may be NULL) is called for each. Returns how many dead
 * runs' leftovers were found, or -errno (-ENODEV: no tracefs).
 */
int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg);

/*
 * lb_cleanup_pid - the same for the names of @pid alone, whose run lock the
 * caller holds or has just taken (a new run's leftovers of an earlier run
 * with its pid; the watchdog, for the run that died). Returns how many were
 * found, or -errno.
 */
int lb_cleanup_pid(pid_t pid, bool remove, lb_cleanup_report_fn report, void *arg);

#endif
