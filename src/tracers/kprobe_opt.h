/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * debug.kprobes-optimization (/proc/sys/debug/kprobes-optimization, with
 * CONFIG_OPTPROBES): whether the kernel may turn a breakpoint kprobe into a
 * jump. A probe set's `kprobe-optimization off' measures the 2006 kind of
 * kprobe; the setting is global, so it is held only while such a set is on
 * and given back after.
 *
 * Runs that hold it share LB_OWNER_DIR/kprobes-optimization: the value
 * before the first of them ("saved N") and one line per holding run
 * ("loadbench_<pid> VALUE"), changed under LB_OWNER_DIR/kprobes-optimization.lock.
 * The file is written before the sysctl, so that the value to give back is
 * on disk whenever the kernel's is not its own. The last holder to let go
 * writes the saved value back and removes the file; a dead holder is let go
 * by the next run that looks, by `loadbench cleanup' and by its watchdog.
 */
#ifndef LB_KPROBE_OPT_H
#define LB_KPROBE_OPT_H

#include <stdbool.h>
#include <stddef.h>

#include "leftover.h"

#define LB_KPROBE_OPT_SYSCTL "/proc/sys/debug/kprobes-optimization"

/*
 * lb_kprobe_opt_hold - set debug.kprobes-optimization to @value (0 or 1) for
 * this run, until as many lb_kprobe_opt_release() calls as holds. *@before
 * gets the value before this run changed it (-1 when the kernel has no such
 * setting: no CONFIG_OPTPROBES, so no kprobe is ever optimized and 0 holds
 * already). Returns 0, or -errno with one line in @err: -EBUSY when another
 * live run (or another set of this one) holds the other value,
 * -EOPNOTSUPP for @value 1 on a kernel without the setting.
 */
int lb_kprobe_opt_hold(int value, int *before, char *err, size_t len);

/*
 * lb_kprobe_opt_release - let go of one hold; the last writes the value back
 * when no other run holds it. Returns 0, or -errno with the reason in @err
 * (the state file stays: `loadbench cleanup' gives the value back).
 */
int lb_kprobe_opt_release(char *err, size_t len);

/*
 * lb_kprobe_opt_cleanup - let go of the holds of the dead runs in @o (with
 * @remove), each reported through @report; when none is left, the saved
 * value goes back. Returns how many dead holders were found.
 */
int lb_kprobe_opt_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report,
			  void *arg);

#endif
