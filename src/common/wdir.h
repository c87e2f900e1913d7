/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A directory loadbench writes in (a results directory, a compare's output):
 * checked before anything is measured, then held by a descriptor so that
 * every file goes in with openat() and renameat() relative to it. Renaming
 * the directory away, or swapping its name for a link, while loadbench runs
 * changes nothing about where the files go.
 */
#ifndef LB_WDIR_H
#define LB_WDIR_H

#include <stddef.h>

/*
 * lb_wdir_fs_check - whether @path (or, when it does not exist yet, the
 * nearest directory above it that does) is on a file system that holds
 * files: not proc, sysfs, tracefs, debugfs, cgroup, securityfs, bpf, configfs
 * and the like, where a directory made is kernel state (a tracefs instance).
 * Returns 0, -EINVAL when refused, or -errno; @err says why and the fix.
 */
int lb_wdir_fs_check(const char *path, char *err, size_t len);

/*
 * lb_wdir_open - open the existing directory @path to write in. Refused: a
 * symbolic link (-ELOOP); another user's directory that others may write in
 * (-EPERM); and, for root, a directory whose path someone other than root
 * (or the user who ran sudo) can change: an ancestor, or a directory
 * holding a symbolic link on the way, that such a user owns or may write in
 * (-EPERM; a sticky directory counts when the entry is trusted). Returns the
 * descriptor (O_DIRECTORY, close-on-exec), or -errno with the reason and the
 * way out in @err.
 */
int lb_wdir_open(const char *path, char *err, size_t len);

/*
 * lb_wdir_probe - create, fill (64 KiB), fsync and remove a file in @dirfd
 * (@path for messages): whether results can be written there at all (a
 * read-only mount, a full file system, no permission). Returns 0 or -errno
 * with @err saying why.
 */
int lb_wdir_probe(int dirfd, const char *path, char *err, size_t len);

/*
 * lb_wdir_rmdir - remove the directory @name in @parentfd, which must still
 * be the directory open at @dirfd (so that a name swapped meanwhile is left
 * alone), after removing the files @files in it (NULL-terminated; missing
 * ones are fine). Returns 0, -ENOTEMPTY when something else is in it, or
 * -errno.
 */
int lb_wdir_rmdir(int parentfd, const char *name, int dirfd, const char *const *files);

#endif
