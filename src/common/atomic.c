// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files replaced atomically (see atomic.h): a mkostemp() file beside the
 * target, fsync(), rename(), then an fsync() of the directory.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"

void lb_atomic_sync_dir(int dirfd)
{
	if (dirfd >= 0)
		fsync(dirfd);
}

/* fsync the directory holding @path so the rename itself is durable; best effort. */
static void lb_fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
 * Write PATH.tmp-XXXXXX in the same directory, fsync it, rename it over
 * @path; on any failure the temporary file is removed.
 */
int lb_atomic_write(const char *path, const void *data, size_t len)
{
	const char *bytes = data;
	char *tmp = NULL;
	bool created = false;
	size_t done = 0;
	int fd = -1, ret;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	created = true;
	/* mkstemp() makes it 0600; what is written here is for everyone to read. */
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
	if (rename(tmp, path)) {
		ret = -errno;
		goto out;
	}
	created = false;
	lb_fsync_dir_of(path);
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (created)
		unlink(tmp);
	free(tmp);
	return ret;
}

int lb_atomic_write_stream(const char *path, void (*print)(FILE *f, const void *arg),
			   const void *arg)
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
	ret = lb_atomic_write(path, data, len);
out:
	free(data);
	return ret;
}
