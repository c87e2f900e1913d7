// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BPF run-time statistics (bpf_stats.h). The programs a process holds are
 * read from /proc/PID/fdinfo, where the kernel shows a "prog_id:" for every
 * program and link descriptor; their counts through libbpf, by ID.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBBPF
#include <bpf/bpf.h>
#endif

#include "bpf_stats.h"
#include "util.h"

bool lb_bpf_stats_built(void)
{
#ifdef HAVE_LIBBPF
	return true;
#else
	return false;
#endif
}

int lb_bpf_stats_enable(char *err, size_t len)
{
#ifdef HAVE_LIBBPF
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0) {
		int e = errno ? errno : -fd;

		lb_seterr(err, len, "the kernel's BPF statistics cannot be turned on "
			  "(BPF_ENABLE_STATS: %s)", strerror(e));
		return -e;
	}
	return fd;
#else
	lb_seterr(err, len, "the kernel's BPF statistics are read through libbpf, and "
		  "loadbench was built without it (install libbpf-dev clang, re-run configure)");
	return -EOPNOTSUPP;
#endif
}

/* Add @id to @ids (of *@n, at most @max) unless it is there. */
static void add_id(uint32_t *ids, int *n, int max, uint32_t id)
{
	for (int i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	if (*n < max)
		ids[(*n)++] = id;
}

/* The "prog_id:" of each descriptor of @pid, into @ids. */
static void progs_of(pid_t pid, uint32_t *ids, int *n, int max)
{
	char path[64], buf[1024];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p;

		if (de->d_name[0] == '.' || lb_read_small(dirfd(d), de->d_name, buf, sizeof(buf)) <= 0)
			continue;
		p = strstr(buf, "prog_id:");
		if (p)
			add_id(ids, n, max, (uint32_t)strtoul(p + 8, NULL, 10));
	}
	closedir(d);
}

int lb_bpf_progs_held(const pid_t *pids, int n, uint32_t *ids, int max)
{
	int nids = 0;

	for (int i = 0; i < n; i++)
		progs_of(pids[i], ids, &nids, max);
	return nids;
}

int lb_bpf_prog_stats(uint32_t id, uint64_t *run_cnt, uint64_t *run_ns)
{
#ifdef HAVE_LIBBPF
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id), ret = 0;

	if (fd < 0)
		return errno ? -errno : fd;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		ret = errno ? -errno : -EIO;
	close(fd);
	if (ret)
		return ret;
	*run_cnt = info.run_cnt;
	*run_ns = info.run_time_ns;
	return 0;
#else
	(void)id;
	(void)run_cnt;
	(void)run_ns;
	return -EOPNOTSUPP;
#endif
}
