/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's claim on the machine: what dead runs left is said (not removed:
 * that is `loadbench cleanup'), this run's lock is taken and its watchdog
 * started before anything is created in the kernel; all of it given back
 * last.
 */
#ifndef LB_CLAIM_H
#define LB_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * lb_claim_take - warn of what dead runs left, take this process's run lock
 * (removing what an earlier run with this pid left, when the lock file was
 * there before us), make sure no other run measures now (or, with
 * @allow_concurrent, say that one does and go on) and start the watchdog.
 * Returns 0, or -1 after saying why in one line (another run measures, a
 * live run's name bears our pid, the lock or the watchdog failed).
 */
int lb_claim_take(bool allow_concurrent);

/*
 * lb_claim_beside - the other runs this one measured beside: those
 * measuring when it started and those that started since (--allow-
 * concurrent), described in @buf ("pid N (since DATE TIME), ..."). Returns
 * their number (0: it measured alone).
 */
int lb_claim_beside(char *buf, size_t len);

/*
 * lb_claim_release - stop the watchdog and drop the run lock, keeping its
 * file when state of this run could not be removed (so that `loadbench
 * cleanup' can prove the run dead once it has exited). Safe without a claim.
 */
void lb_claim_release(void);

#endif
