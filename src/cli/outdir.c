// SPDX-License-Identifier: GPL-2.0-or-later
/* The results directory of a run: its default name and the rules it must pass. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "outdir.h"
#include "plot.h"
#include "util.h"

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

int lb_outdir_prepare(const char *dir, const char *what, bool force, bool *made,
		      volatile sig_atomic_t *stop)
{
	struct lb_plot *check;
	char err[1024];
	int ret;

	*made = false;
	ret = lb_dir_is_empty(dir);
	if (ret == 0 && !force) {
		lb_err("%s %s exists and is not empty: choose another --output, or add --force "
		       "to write into it", what, dir);
		return -EEXIST;
	}
	*made = ret == -ENOENT;
	ret = lb_mkdir_p(dir);
	if (ret) {
		*made = false;
		if (!stop || !*stop)
			lb_err("cannot create the %s %s: %s", what, dir, strerror(-ret));
		return ret;
	}
	/*
	 * Refused before anything is measured, not only for the figures: a
	 * link (whoever can change it chooses where root writes), or another
	 * user's directory that others may write in.
	 */
	ret = lb_plot_open(dir, &check, err, sizeof(err));
	if (ret) {
		lb_err("--output refused: %s", err);
		return ret < 0 ? ret : -EPERM;
	}
	lb_plot_close(check, NULL, 0);
	return 0;
}
