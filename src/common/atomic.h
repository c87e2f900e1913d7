/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files replaced atomically: written beside the target as PATH.tmp-XXXXXX
 * (mkostemp), made 0644, fsync()ed and renamed over it, then the directory
 * fsync()ed. Readers see the old file or the new one, never a part; the
 * temporary file never outlives a failure.
 */
#ifndef LB_ATOMIC_H
#define LB_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/* lb_atomic_write - replace @path by the @len bytes at @data. Returns 0 or -errno. */
int lb_atomic_write(const char *path, const void *data, size_t len);

/*
 * lb_atomic_write_stream - replace @path by what @print(@f, @arg) writes,
 * gathered in memory first. Returns 0, -ENOMEM when it could not be
 * gathered, or the -errno of lb_atomic_write().
 */
int lb_atomic_write_stream(const char *path, void (*print)(FILE *f, const void *arg),
			   const void *arg);

#endif
