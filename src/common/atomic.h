/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files replaced atomically: written beside the target as PATH.tmp-<random>
 * (created anew, never through a link), made 0644, fsync()ed and renamed over it, then the directory
 * fsync()ed. Readers see the old file or the new one, never a part; the
 * temporary file never outlives a failure.
 */
#ifndef LB_ATOMIC_H
#define LB_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/*
 * lb_atomic_move_at - the other shape of the same rules, for files written
 * under a directory descriptor (the figures' staging directory): fsync
 * regular file @name in @fromfd (not following a link), rename it to @name
 * in @tofd (replacing a file or a planted link there, never following it).
 * Call lb_atomic_sync_dir(@tofd) after the last one. Returns 0 or -errno.
 */
int lb_atomic_move_at(int fromfd, const char *name, int tofd);

/* lb_atomic_sync_dir - fsync directory @dirfd, so renames into it are durable; best effort. */
void lb_atomic_sync_dir(int dirfd);

/*
 * lb_atomic_write_at - replace @name in the directory @dirfd (AT_FDCWD: a
 * path) by the @len bytes at @data; a link named @name is replaced, never
 * followed. Returns 0 or -errno.
 */
int lb_atomic_write_at(int dirfd, const char *name, const void *data, size_t len);

/* lb_atomic_write - lb_atomic_write_at(AT_FDCWD, @path, ...). Returns 0 or -errno. */
int lb_atomic_write(const char *path, const void *data, size_t len);

/*
 * lb_atomic_write_stream_at - replace @name in @dirfd by what @print(@f,
 * @arg) writes, gathered in memory first. Returns 0, -ENOMEM when it could
 * not be gathered, or the -errno of lb_atomic_write_at().
 */
int lb_atomic_write_stream_at(int dirfd, const char *name,
			      void (*print)(FILE *f, const void *arg), const void *arg);

/*
 * lb_atomic_write_stream - lb_atomic_write_stream_at(AT_FDCWD, @path, ...).
 * Returns 0 or -errno.
 */
int lb_atomic_write_stream(const char *path, void (*print)(FILE *f, const void *arg),
			   const void *arg);

#endif
