/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The watchdog: a child that outlives a loadbench killed with SIGKILL (or
 * crashed) just long enough to turn its tracing off and remove what it made
 * (tracefs instance, dynamic events, LTTng session and trace directory, veth
 * interfaces), then its run lock. Without it a killed run's kprobes stay
 * enabled and an LTTng session keeps writing into $TMPDIR until someone runs
 * `loadbench cleanup`. It sleeps in sigwaitinfo() the whole run: the kernel
 * wakes it (PR_SET_PDEATHSIG) when the run dies, the run itself when it ends.
 */
#ifndef LB_WATCHDOG_H
#define LB_WATCHDOG_H

#include <stddef.h>

/*
 * lb_watchdog_start - fork the watchdog (process name lb-watchdog, a process
 * group of its own so that a signal to the run's group spares it). Call it
 * after lb_owner_claim() and before anything is created in the kernel or
 * any thread starts: the child keeps no descriptor but the run lock.
 * Returns 0 (also without root, where nothing is started) or -errno with a
 * reason in @err.
 */
int lb_watchdog_start(char *err, size_t len);

/* lb_watchdog_stop - the run cleaned up after itself: end the watchdog and reap it. */
void lb_watchdog_stop(void);

#endif
