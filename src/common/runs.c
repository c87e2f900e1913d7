// SPDX-License-Identifier: GPL-2.0-or-later
/* Which loadbench runs measure on this machine now (runs.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "owner.h"
#include "runs.h"
#include "util.h"

#define LB_RUNS_FILE	"runs"
#define LB_RUNS_MAX	256	/* lines read at most: more are a damaged file */

struct entry {
	unsigned long gen;
	pid_t pid;
	time_t since;
};

/* The record's lines into @e (at most LB_RUNS_MAX). Returns their number (0 without a file). */
static int read_entries(int dirfd, struct entry *e)
{
	char line[128];
	struct stat st;
	int fd, n = 0;
	FILE *f;

	fd = openat(dirfd, LB_RUNS_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* Only loadbench's record counts: a regular file of root's in root's directory. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != 0 || !(f = fdopen(fd, "r"))) {
		close(fd);
		return 0;
	}
	while (n < LB_RUNS_MAX && fgets(line, sizeof(line), f)) {
		long long since;
		int pid;

		if (sscanf(line, "%lu %d %lld", &e[n].gen, &pid, &since) == 3 && pid > 0) {
			e[n].pid = pid;
			e[n].since = (time_t)since;
			n++;
		}
	}
	fclose(f);
	return n;
}

int lb_runs_join(bool allow, struct lb_run_seen *runs, int max, unsigned long *gen, char *err,
		 size_t len)
{
	struct entry *e = calloc(LB_RUNS_MAX + 1, sizeof(*e));
	unsigned long top = 0, oldest = 0;
	int mutex = -1, dirfd = -1, n, nlive = 0, ret;
	char *text = NULL;
	size_t size = 0;
	FILE *f = NULL;

	*gen = 0;
	if (!e) {
		lb_seterr(err, len, "out of memory");
		return -ENOMEM;
	}
	mutex = lb_owner_mutex("runs", err, len);
	if (mutex < 0) {
		ret = mutex;
		goto out;
	}
	dirfd = lb_owner_dir_open(err, len);
	if (dirfd < 0) {
		ret = dirfd;
		goto out;
	}
	n = read_entries(dirfd, e);
	for (int i = 0; i < n; i++) {
		if (e[i].gen > top)
			top = e[i].gen;
		if (e[i].pid == getpid() || !lb_owner_live(dirfd, e[i].pid))
			continue;
		if (nlive < max)
			runs[nlive] = (struct lb_run_seen){ .pid = e[i].pid, .since = e[i].since };
		if (!nlive++ || e[i].gen < oldest)
			oldest = e[i].gen;
	}
	ret = nlive;
	if (nlive && !allow)
		goto out;
	/*
	 * The lines a live run may still ask about (lb_runs_since(): those
	 * after the oldest live run's), and this run's.
	 */
	f = open_memstream(&text, &size);
	if (!f) {
		ret = -ENOMEM;
		lb_seterr(err, len, "out of memory");
		goto out;
	}
	for (int i = 0; nlive && i < n; i++)
		if (e[i].gen >= oldest && e[i].pid != getpid())
			fprintf(f, "%lu %d %lld\n", e[i].gen, (int)e[i].pid, (long long)e[i].since);
	fprintf(f, "%lu %d %lld\n", top + 1, (int)getpid(), (long long)time(NULL));
	if (fclose(f)) {
		f = NULL;
		ret = -ENOMEM;
		lb_seterr(err, len, "out of memory");
		goto out;
	}
	f = NULL;
	n = lb_atomic_write_at(dirfd, LB_RUNS_FILE, text, size);
	if (n) {
		ret = n;
		lb_seterr(err, len, "cannot write %s/%s: %s", LB_OWNER_DIR, LB_RUNS_FILE,
			  strerror(-n));
		goto out;
	}
	*gen = top + 1;
out:
	free(text);
	if (dirfd >= 0)
		close(dirfd);
	if (mutex >= 0)
		close(mutex);
	free(e);
	return ret;
}

int lb_runs_since(unsigned long gen, struct lb_run_seen *runs, int max)
{
	struct entry *e = calloc(LB_RUNS_MAX + 1, sizeof(*e));
	char err[256];
	int dirfd, n, found = 0;

	if (!e)
		return -ENOMEM;
	dirfd = lb_owner_dir_open(err, sizeof(err));
	if (dirfd < 0) {
		free(e);
		return dirfd;
	}
	n = read_entries(dirfd, e);
	for (int i = 0; i < n; i++) {
		if (e[i].gen <= gen || e[i].pid == getpid())
			continue;
		if (found < max)
			runs[found] = (struct lb_run_seen){ .pid = e[i].pid, .since = e[i].since };
		found++;
	}
	close(dirfd);
	free(e);
	return found;
}
