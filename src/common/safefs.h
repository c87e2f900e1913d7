/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Files in places other users can write (the temporary directory, a results
 * directory someone else may reach): removed relative to directory
 * descriptors, never through a symbolic link and never across a mount, so
 * that swapping a directory for a link while loadbench works cannot steer
 * root elsewhere.
 */
#ifndef LB_SAFEFS_H
#define LB_SAFEFS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * lb_rmtree_at - remove @name in the directory @dirfd (AT_FDCWD for a path)
 * and, when it is a directory, everything under it: entries are examined
 * with fstatat(AT_SYMLINK_NOFOLLOW), directories entered with
 * openat(O_NOFOLLOW) and only on @name's file system; a link is removed,
 * never followed. Returns 0 (also when @name does not exist) or the -errno
 * of the first failure (-EXDEV for a mount inside, -ELOOP past 64 levels).
 */
int lb_rmtree_at(int dirfd, const char *name);

/*
 * lb_dir_private_at - whether @name in @dirfd is, itself and not through a
 * link, a directory owned by @uid that nobody else may enter or write (mode
 * bits 077 clear), as mkdtemp() makes them. Returns 1, 0 (exists but is
 * not), or -errno (-ENOENT when missing).
 */
int lb_dir_private_at(int dirfd, const char *name, uid_t uid);

#endif
