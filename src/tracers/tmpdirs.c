// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracers' directories in $TMPDIR, found again after their run died
 * (tmpdirs.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "safefs.h"
#include "tmpdirs.h"

bool lb_tmpdir_owner(const char *base, const char *suffix, char *owner, size_t len)
{
	const char *dot = strrchr(base, '.');
	size_t n, sl = strlen(suffix);

	if (!dot || strlen(dot + 1) != 6 ||
	    strspn(dot + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != 6)
		return false;
	n = (size_t)(dot - base);
	if (n < sl || strncmp(dot - sl, suffix, sl) || n - sl >= len)
		return false;
	snprintf(owner, len, "%.*s", (int)(n - sl), base);
	return true;
}

/*
 * What @base in @dirfd is: 1 a directory as mkdtemp makes them for root
 * (root's alone, mode 0700), 0 another directory, -1 anything else or
 * nothing (a tracer makes only directories there).
 */
static int tmpdir_shape(int dirfd, const char *base)
{
	struct stat st;

	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
		return -1;
	return lb_dir_private_at(dirfd, base, 0) == 1;
}

/*
 * Another user's directory with a dead run's name: said as a directory, not
 * as what loadbench makes ("LTTng trace directory"), for it is not that.
 */
static void tmpdir_foreign(const char *where, const char *base, lb_cleanup_report_fn report,
			   void *arg)
{
	char what[PATH_MAX + 64];

	snprintf(what, sizeof(what), "directory %s/%s", where, base);
	if (report)
		report(what, LB_CLEANUP_FOREIGN, arg);
}

bool lb_tmpdir_remove(struct lb_owners *o, pid_t pid, int dirfd, const char *base,
		      const char *where, const char *kind, bool remove,
		      lb_cleanup_report_fn report, void *arg)
{
	char what[PATH_MAX + 64];
	int err = 0, shape = tmpdir_shape(dirfd, base);

	if (shape < 0)
		return false;	/* a file, a link: never a tracer's, not a word */
	if (!shape) {
		/* Not as mkdtemp made it for root: someone else's, whatever its name. */
		tmpdir_foreign(where, base, report, arg);
		return false;
	}
	snprintf(what, sizeof(what), "%s %s/%s", kind, where, base);
	if (remove)
		err = lb_rmtree_at(dirfd, base);
	if (err)
		lb_owners_failed(o, pid);
	if (report)
		report(what, err, arg);
	return true;
}

int lb_tmpdirs_cleanup(struct lb_owners *o, const char *suffix, const char *kind, bool remove,
		       lb_cleanup_report_fn report, void *arg)
{
	const char *tmp = getenv("TMPDIR");
	char owner[64], what[PATH_MAX + 64];
	struct dirent *de;
	int found = 0, fd;
	DIR *d;

	tmp = tmp && tmp[0] == '/' ? tmp : "/tmp";
	fd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	d = fdopendir(dup(fd));
	if (!d) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		pid_t pid;
		int shape;

		if (!lb_tmpdir_owner(de->d_name, suffix, owner, sizeof(owner)))
			continue;
		/*
		 * Only a directory as a tracer makes them is one of its directories:
		 * anything else bearing such a name (another user's file or
		 * directory: loadbench_2024.backup) is not loadbench's, said at most
		 * as another's when its name is a dead run's, never as left for the
		 * user to remove.
		 */
		shape = tmpdir_shape(fd, de->d_name);
		if (shape < 0)
			continue;
		if (!shape) {
			if (lb_owners_judge(o, owner, &pid) == LB_OWNER_DEAD)
				tmpdir_foreign(tmp, de->d_name, report, arg);
			continue;
		}
		snprintf(what, sizeof(what), "%s %s/%s", kind, tmp, de->d_name);
		if (!lb_cleanup_take(o, owner, what, &pid, report, arg))
			continue;
		found += lb_tmpdir_remove(o, pid, fd, de->d_name, tmp, kind, remove, report, arg);
	}
	closedir(d);
	close(fd);
	return found;
}
