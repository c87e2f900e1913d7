/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who owns a loadbench_<pid> name. What a run creates in shared kernel state
 * is named loadbench_<pid> or loadbench_<pid>_<n> (its LTTng trace directory
 * NAME.XXXXXX), and the run holds flock() on LB_OWNER_DIR/loadbench_<pid>.lock
 * for as long as it or its watchdog lives. The kernel drops that lock when
 * its last holder dies, whichever pid namespace holder and asker live in, so
 * a name is a dead run's only when its lock file exists and can be locked.
 * A name without a lock file (a run in a container that does not share
 * /run, or one older than the locks) is not provably dead: it is left alone.
 */
#ifndef LB_OWNER_H
#define LB_OWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LB_OWNER_DIR "/run/loadbench"

/*
 * lb_owner_parse - whether @name is exactly "loadbench_<pid>" or
 * "loadbench_<pid>_<n>" (decimal, no sign, no leading zero, nothing after);
 * the pid into *@pid. Returns true for such a name.
 */
bool lb_owner_parse(const char *name, pid_t *pid);

/*
 * lb_owner_name - the name of state this process (or @pid, when not 0)
 * creates: "loadbench_<pid>" for @n 0, "loadbench_<pid>_<n>" for the n-th
 * more of one kind (a second instance, session or event group). The one
 * place that writes the names lb_owner_parse() reads. Returns @buf.
 */
const char *lb_owner_name(char *buf, size_t len, pid_t pid, int n);

/*
 * lb_owner_claim - take this process's run lock (as root; without root
 * nothing is claimed: such a run creates nothing in shared state). *@earlier
 * is set when the lock file was there already: an earlier run with this pid
 * died without removing it, so what bears this pid is that dead run's.
 * Returns 0, -EBUSY when a live run holds the lock (the same pid in another
 * pid namespace), or -errno; @err gets a one-line reason and fix.
 */
int lb_owner_claim(bool *earlier, char *err, size_t len);

/*
 * lb_owner_release - drop this run's lock (also in the watchdog, which
 * shares it) and remove its lock file, unless @keep_file: state of the run
 * is left (a removal failed), and the free lock is what lets `loadbench
 * cleanup` prove its run dead. Safe to call when nothing was claimed.
 */
void lb_owner_release(bool keep_file);

/*
 * lb_owner_mutex - take a lock that concurrent runs share, LB_OWNER_DIR/
 * @name.lock (e.g. "veth": choosing a /24 and putting an address in it is one
 * step for every run), waiting up to 10 s; close the descriptor to release
 * it. A POSIX record lock: processes forked meanwhile do not hold it. Returns the descriptor, or -errno with a reason in @err (-ETIMEDOUT
 * when it stayed held).
 */
int lb_owner_mutex(const char *name, char *err, size_t len);

/*
 * lb_owner_dir_open - LB_OWNER_DIR, made when missing and refused when it is
 * not root's alone. Returns its descriptor or -errno with a reason in @err.
 */
int lb_owner_dir_open(char *err, size_t len);

/*
 * lb_owner_live - whether the run @pid is alive: its lock file in @dirfd
 * (LB_OWNER_DIR) is held and the process exists. True for this process.
 */
bool lb_owner_live(int dirfd, pid_t pid);

/* lb_owner_holds_fd - whether @fd is one of the run lock's descriptors (the watchdog keeps them). */
bool lb_owner_holds_fd(int fd);

enum lb_owner_verdict {
	LB_OWNER_NOT_OURS,	/* not a loadbench name, or not among those asked for */
	LB_OWNER_SELF,		/* this process's */
	LB_OWNER_LIVE,		/* its run's lock is held */
	LB_OWNER_UNPROVEN,	/* no lock file proves its run dead */
	LB_OWNER_DEAD,		/* its run is dead: the lock is ours now */
};

struct lb_owners;

/*
 * lb_owners_scan - find the dead runs: every lock file in LB_OWNER_DIR that
 * can be locked, the locks held until lb_owners_free() so that no new run
 * takes one of their pids meanwhile. Returns 0 or -ENOMEM.
 */
int lb_owners_scan(struct lb_owners **out);

/*
 * lb_owners_of - the names of @pid alone, taken as dead: for a caller that
 * holds or just took @pid's lock (a new run's own leftovers, the watchdog).
 * Returns 0 or -ENOMEM.
 */
int lb_owners_of(pid_t pid, struct lb_owners **out);

/* lb_owners_judge - what @name is to @o; its pid into *@pid (may be NULL). */
enum lb_owner_verdict lb_owners_judge(struct lb_owners *o, const char *name, pid_t *pid);

/* lb_owners_failed - something of @pid could not be removed: keep its lock file. */
void lb_owners_failed(struct lb_owners *o, pid_t pid);

/*
 * lb_owners_free - drop the locks; with @retire, first remove the lock files
 * of the dead runs (scan only) none of whose state failed to go.
 */
void lb_owners_free(struct lb_owners *o, bool retire);

#endif
