/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sweep (--sweep KEY=V1,V2,...): one result set per value of a workload
 * parameter, and across them, per probe set, the added time per operation
 * against the events per operation, with the least-squares line through
 * them: its slope is the marginal cost of one event, free of the fixed
 * per-operation overhead that divides into each value's ns/event.
 */
#ifndef LB_SWEEP_H
#define LB_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"
#include "stats.h"

/* What one value of the sweep gave one probe set. */
struct lb_sweep_point {
	int value;			/* the swept parameter's value */
	double events_per_op;
	double slowdown_pct, slowdown_ci95[2];
	double added_ns;		/* time the probes add to an operation, ns */
	double added_ns_ci95[2];	/* from the slowdown's CI */
	double ns_per_event;		/* added_ns / events_per_op, as the summary has it */
};

/* One probe set across the sweep. */
struct lb_sweep_set {
	char *name;
	struct lb_sweep_point *points;	/* one per value it was measured at, in order */
	size_t npoints;
	struct lb_linfit fit;		/* added_ns against events_per_op: slope in ns/event */
};

struct lb_sweep {
	char *key;			/* "syscalls-per-op" */
	int *values;			/* the values measured, in order */
	size_t nvalues;
	struct lb_sweep_set *sets;	/* in the order of the first value's results */
	size_t nsets;
};

/*
 * lb_sweep_build - the sweep of @key over @n result sets @res (already
 * summarized), measured at @values: per probe set its points and the line
 * through them. Returns 0 and sets *@out, or -ENOMEM.
 */
int lb_sweep_build(const char *key, const int *values, struct lb_results *const *res, size_t n,
		   struct lb_sweep **out);

/* lb_sweep_print - the sweep's table and, per set, its line, for people, on @f. */
void lb_sweep_print(const struct lb_sweep *s, FILE *f);

/* lb_sweep_write_json - @s as JSON, atomically, to @name in @dirfd (AT_FDCWD: a path). Returns 0 or -errno. */
int lb_sweep_write_json(const struct lb_sweep *s, int dirfd, const char *name);

#define LB_SWEEP_MAX_VALUES 64 /* what a sweep.json may hold, at most */
#define LB_SWEEP_MAX_SETS 256

/*
 * lb_sweep_read_json - the sweep lb_sweep_write_json() wrote at @path (user
 * input: anything else is refused with a message naming the key). Returns 0
 * and sets *@out, or -errno with one line in @err.
 */
int lb_sweep_read_json(const char *path, struct lb_sweep **out, char *err, size_t len);

/*
 * lb_sweep_dir_read - the sweep of a --sweep's directory @dir (its
 * sweep.json; a directory with a results.json is not one). Returns 0 and
 * sets *@out, -ENOENT when @dir is not a sweep's (nothing said), or -errno
 * with one line in @err.
 */
int lb_sweep_dir_read(const char *dir, struct lb_sweep **out, char *err, size_t len);

/* lb_sweep_free - free @s; NULL is fine. */
void lb_sweep_free(struct lb_sweep *s);

#endif
