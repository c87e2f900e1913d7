// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files replaced atomically (see atomic.h): a fresh randomly named file
 * beside the target, fsync(), rename(), then an fsync() of the directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"

void lb_atomic_sync_dir(int dirfd)
{
	if (dirfd >= 0)
		fsync(dirfd);
}

/* fsync the directory holding @path (in @dirfd) so the rename itself is durable; best effort. */
static void lb_fsync_dir_of(int dirfd, const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = openat(dirfd, dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		lb_atomic_sync_dir(fd);
		close(fd);
	}
	free(copy);
}

int lb_atomic_move_at(int fromfd, const char *name, int tofd)
{
	int fd = openat(fromfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	if (!ret && renameat(fromfd, name, tofd, name))
		ret = -errno;
	return ret;
}

/*
 * Write NAME.tmp-<64 random bits> beside @name in @dirfd (created anew, never
 * through a link), fsync it, rename it over @name; on any failure the
 * temporary file is removed.
 */
int lb_atomic_write_at(int dirfd, const char *name, const void *data, size_t len)
{
	const char *bytes = data;
	char *tmp = NULL;
	bool created = false;
	uint64_t rnd;
	size_t done = 0;
	int fd = -1, ret, tries = 0;

	do {
		if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
			return errno ? -errno : -EIO;
		free(tmp);
		if (asprintf(&tmp, "%s.tmp-%016" PRIx64, name, rnd) < 0)
			return -ENOMEM;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	} while (fd < 0 && errno == EEXIST && ++tries < 16);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	created = true;
	/* Made 0600 first; what is written here is for everyone to read. */
	if (fchmod(fd, 0644)) {
		ret = -errno;
		goto out;
	}
	while (done < len) {
		ssize_t n = write(fd, bytes + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		done += n;
	}
	if (fsync(fd)) {
		ret = -errno;
		goto out;
	}
	ret = close(fd);
	fd = -1;
	if (ret) {
		ret = -errno;
		goto out;
	}
	if (renameat(dirfd, tmp, dirfd, name)) {
		ret = -errno;
		goto out;
	}
	created = false;
	if (dirfd == AT_FDCWD || strchr(name, '/'))
		lb_fsync_dir_of(dirfd, name);
	else
		lb_atomic_sync_dir(dirfd);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (created)
		unlinkat(dirfd, tmp, 0);
	free(tmp);
	return ret;
}

int lb_atomic_write(const char *path, const void *data, size_t len)
{
	return lb_atomic_write_at(AT_FDCWD, path, data, len);
}

int lb_atomic_write_stream_at(int dirfd, const char *name,
			      void (*print)(FILE *f, const void *arg), const void *arg)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f;
	int ret = -ENOMEM;

	f = open_memstream(&data, &len);
	if (!f)
		return -ENOMEM;
	print(f, arg);
	if (ferror(f)) {
		fclose(f);
		goto out;
	}
	if (fclose(f))
		goto out;
	ret = lb_atomic_write_at(dirfd, name, data, len);
out:
	free(data);
	return ret;
}

int lb_atomic_write_stream(const char *path, void (*print)(FILE *f, const void *arg),
			   const void *arg)
{
	return lb_atomic_write_stream_at(AT_FDCWD, path, print, arg);
}
