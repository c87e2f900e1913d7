// SPDX-License-Identifier: GPL-2.0-or-later
/* The results directory of a run: its default name, the rules it must pass, its descriptor. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outdir.h"
#include "util.h"
#include "wdir.h"

struct lb_outdir {
	char *path;		/* as given */
	int fd;			/* the directory */
	int parentfd;		/* the directory holding it, to remove it again; -1 */
	char *base;		/* its name there */
	bool made;		/* made by lb_outdir_open() */
};

const char *lb_outdir_default(const char *kind, char *buf, size_t len)
{
	time_t now = time(NULL);
	char when[32];
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "loadbench-%s-%s", kind, when);
	return buf;
}

/* The directory holding @od, open, and @od's name in it: for removing it again. */
static void outdir_parent(struct lb_outdir *od)
{
	char *copy = strdup(od->path), *copy2 = strdup(od->path);
	struct stat ours, named;

	if (copy && copy2) {
		od->base = strdup(basename(copy2));
		od->parentfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (od->parentfd >= 0 && od->base &&
	    (fstat(od->fd, &ours) ||
	     fstatat(od->parentfd, od->base, &named, AT_SYMLINK_NOFOLLOW) ||
	     ours.st_dev != named.st_dev || ours.st_ino != named.st_ino)) {
		close(od->parentfd);
		od->parentfd = -1;
	}
	free(copy);
	free(copy2);
}

int lb_outdir_close(struct lb_outdir *od, bool remove, const char *const *files)
{
	int ret = 0;

	if (!od)
		return 0;
	if (remove && od->made) {
		ret = od->parentfd >= 0 ? lb_wdir_rmdir(od->parentfd, od->base, od->fd, files) :
		      -ESTALE;
		if (ret == -ENOTEMPTY || ret == -EEXIST || ret == -ESTALE)
			ret = 1;
	}
	if (od->fd >= 0)
		close(od->fd);
	if (od->parentfd >= 0)
		close(od->parentfd);
	free(od->path);
	free(od->base);
	free(od);
	return ret;
}

int lb_outdir_open(const char *dir, const char *what, bool force, volatile sig_atomic_t *stop,
		   struct lb_outdir **out)
{
	struct lb_outdir *od;
	char err[1024];
	int ret;

	*out = NULL;
	od = calloc(1, sizeof(*od));
	if (!od || !(od->path = strdup(dir))) {
		free(od);
		lb_err("out of memory");
		return -ENOMEM;
	}
	od->fd = od->parentfd = -1;
	if (!*dir) {
		lb_err("the %s is an empty path: give a directory (or leave out --output for "
		       "the default)", what);
		ret = -EINVAL;
		goto fail;
	}
	/* Before anything is made: a mkdir in tracefs would be a tracefs instance. */
	ret = lb_wdir_fs_check(dir, err, sizeof(err));
	if (ret) {
		lb_err("%s refused: %s", what, err);
		goto fail;
	}
	ret = lb_dir_is_empty(dir);
	if (ret == 0 && !force) {
		lb_err("%s %s exists and is not empty: choose another --output, or add --force "
		       "to write into it", what, dir);
		ret = -EEXIST;
		goto fail;
	}
	od->made = ret == -ENOENT;
	ret = lb_mkdir_p(dir);
	if (ret) {
		od->made = false;
		if (!stop || !*stop)
			lb_err("cannot create the %s %s: %s", what, dir, strerror(-ret));
		goto fail;
	}
	/*
	 * Refused before anything is measured: a link (whoever can change it
	 * chooses where root writes), another user's directory that others
	 * may write in, a path someone other than root can change.
	 */
	od->fd = lb_wdir_open(dir, err, sizeof(err));
	if (od->fd < 0) {
		ret = od->fd;
		lb_err("%s refused: %s", what, err);
		goto fail;
	}
	outdir_parent(od);
	ret = lb_wdir_probe(od->fd, dir, err, sizeof(err));
	if (ret) {
		lb_err("%s refused: %s: choose another --output", what, err);
		goto fail;
	}
	*out = od;
	return 0;
fail:
	if (od->made && od->fd < 0 && !rmdir(dir))
		od->made = false;	/* made, then refused before it was opened */
	lb_outdir_close(od, true, NULL);
	return ret;
}

int lb_outdir_fallback(struct lb_outdir **out)
{
	static const char *const bases[] = { "/var/tmp", "/tmp" };
	char path[PATH_MAX], name[64];
	int ret = -ENOENT;

	*out = NULL;
	lb_outdir_default("results", name, sizeof(name));
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.XXXXXX", bases[i], name);
		if (!mkdtemp(path)) {
			ret = -errno;
			continue;
		}
		/* mkdtemp() makes it 0700; results are for everyone to read, as elsewhere. */
		chmod(path, 0755);
		ret = lb_outdir_open(path, "fallback directory", true, NULL, out);
		if (!ret) {
			(*out)->made = true;
			return 0;
		}
		rmdir(path);
	}
	lb_err("no fallback directory for the results either (%s): %s", bases[0],
	       strerror(-ret));
	return ret;
}

bool lb_outdir_moved(const struct lb_outdir *od)
{
	struct stat ours, named;

	return fstat(od->fd, &ours) || stat(od->path, &named) || ours.st_dev != named.st_dev ||
	       ours.st_ino != named.st_ino;
}

int lb_outdir_fd(const struct lb_outdir *od)
{
	return od->fd;
}

const char *lb_outdir_path(const struct lb_outdir *od)
{
	return od->path;
}
