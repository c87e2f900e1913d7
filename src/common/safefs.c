// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safefs.h"

#define LB_RMTREE_DEPTH 64

static int rmtree(int dirfd, const char *name, dev_t dev, int depth);

/* Empties the directory open at @fd (closed here), entry by entry. */
static int empty_dir(int fd, dev_t dev, int depth)
{
	struct dirent *de;
	int ret = 0, r;
	DIR *d;

	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		r = rmtree(dirfd(d), de->d_name, dev, depth + 1);
		if (r && !ret)
			ret = r;
	}
	closedir(d);
	return ret;
}

static int rmtree(int dirfd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	int fd, ret;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dirfd, name, 0) && errno != ENOENT ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV;
	if (depth >= LB_RMTREE_DEPTH)
		return -ELOOP;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* Swapped for a link or a file since fstatat: remove that, follow nothing. */
		if (errno == ELOOP || errno == ENOTDIR)
			return unlinkat(dirfd, name, 0) && errno != ENOENT ? -errno : 0;
		return errno == ENOENT ? 0 : -errno;
	}
	ret = fstat(fd, &st) ? -errno : st.st_dev != dev ? -EXDEV : 0;
	if (ret) {
		close(fd);
		return ret;
	}
	ret = empty_dir(fd, dev, depth);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) && errno != ENOENT && !ret)
		ret = -errno;
	return ret;
}

int lb_rmtree_at(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	return rmtree(dirfd, name, st.st_dev, 0);
}

int lb_dir_private_at(int dirfd, const char *name, uid_t uid)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	return S_ISDIR(st.st_mode) && st.st_uid == uid && !(st.st_mode & 077);
}
