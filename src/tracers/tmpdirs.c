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

bool lb_tmpdir_remove(struct lb_owners *o, pid_t pid, int dirfd, const char *base,
		      const char *where, const char *kind, bool remove,
		      lb_cleanup_report_fn report, void *arg)
{
	char what[PATH_MAX + 64];
	int err = 0;

	snprintf(what, sizeof(what), "%s %s/%s", kind, where, base);
	if (lb_dir_private_at(dirfd, base, 0) != 1) {
		/* Not as mkdtemp made it for root: someone else's, whatever its name. */
		if (report)
			report(what, LB_CLEANUP_FOREIGN, arg);
		return false;
	}
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

		if (!lb_tmpdir_owner(de->d_name, suffix, owner, sizeof(owner)))
			continue;
		snprintf(what, sizeof(what), "%s %s/%s", kind, tmp, de->d_name);
		if (!lb_cleanup_take(o, owner, what, &pid, report, arg))
			continue;
		found += lb_tmpdir_remove(o, pid, fd, de->d_name, tmp, kind, remove, report, arg);
	}
	closedir(d);
	close(fd);
	return found;
}
