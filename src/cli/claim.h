/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's claim on the machine: what dead runs left is said (not removed:
 * that is `loadbench cleanup'), this run's lock is taken and its watchdog
 * started before anything is created in the kernel; all of it given back
 * last.
 */
#ifndef LB_CLAIM_H
#define LB_CLAIM_H

/*
 * lb_claim_take - warn of what dead runs left, take this process's run lock
 * (removing what an earlier run with this pid left, when the lock file was
 * there before us) and start the watchdog. Returns 0, or -1 after saying
 * why in one line (a live run's name bears our pid, the lock or the
 * watchdog failed).
 */
int lb_claim_take(void);

/*
 * lb_claim_release - stop the watchdog and drop the run lock, keeping its
 * file when state of this run could not be removed (so that `loadbench
 * cleanup' can prove the run dead once it has exited). Safe without a claim.
 */
void lb_claim_release(void);

#endif
