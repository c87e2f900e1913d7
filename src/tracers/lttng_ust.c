// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lttng-ust tracer's parts outside its ops table: where the workload
 * server's LTTng-UST provider is (the shared object it loads, run as root:
 * only one that no other user can have written), and the check of a probe
 * set's names against the tracepoints that provider defines. Neither needs
 * liblttng-ctl, so both are unit-tested anywhere.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lttng.h"
#include "unavailable.h"

const char *const lb_lttng_ust_events[] = { "loadbench:request", "loadbench:reply", NULL };

/* Owned by root or us, and writable by no one else (a group's write only if it is root's). */
static bool safe_owner(const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return false;
	if (st->st_mode & S_IWOTH)
		return false;
	return !(st->st_mode & S_IWGRP) || st->st_gid == 0;
}

/*
 * @path is a regular file of root's or ours that no one else can write, in
 * a directory no one else can write either: 0, or -errno / -EPERM.
 */
static int trusted(const char *path)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (!safe_owner(&st))
		return -EPERM;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (stat(dir[0] ? dir : "/", &st) < 0)
		return -errno;
	return safe_owner(&st) ? 0 : -EPERM;
}

int lb_lttng_ust_provider(char *buf, size_t len, char *why, size_t whylen)
{
#ifdef HAVE_LTTNG_UST
	char exe[PATH_MAX], built[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ret;

	/* The build tree's loadbench loads the build tree's provider; an installed one, its own. */
	snprintf(built, sizeof(built), "%s/src/loadbench", LB_BUILDDIR);
	if (n > 0 && (exe[n] = '\0', !strcmp(exe, built)))
		snprintf(buf, len, "%s/loadgen/loadbench-ust.so", LB_BUILDDIR);
	else
		snprintf(buf, len, "%s/loadbench-ust.so", LB_PKGLIBDIR);
	ret = trusted(buf);
	if (ret == -EPERM || ret == -EINVAL)
		lb_unavailable_say(LB_UNAVAIL_OTHER, why, whylen, "the LTTng-UST provider %s is "
				   "not a regular file of root's that no other user can write (nor "
				   "is its directory): loadbench loads no code others could have "
				   "changed", buf);
	else if (ret)
		lb_unavailable_say(LB_UNAVAIL_OTHER, why, whylen, "the LTTng-UST provider %s: %s "
				   "(make, or make install)", buf, strerror(-ret));
	return ret;
#else
	(void)buf;
	(void)len;
	lb_unavailable_say(LB_UNAVAIL_LTTNG_UST, why, whylen, "built without liblttng-ust: the "
			   "workload server has no LTTng-UST tracepoints (apt-get install "
			   "liblttng-ust-dev and rebuild)");
	return -EOPNOTSUPP;
#endif
}

int lb_lttng_ust_check_names(const struct lb_probeset *ps, char *err, size_t len)
{
	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];
		char name[256];
		bool known = false;

		if (p->kind == LB_PROBE_TRACEPOINT && p->system) {
			snprintf(name, sizeof(name), "%s:%s", p->system, p->event);
			for (int k = 0; lb_lttng_ust_events[k]; k++)
				known |= !strcmp(name, lb_lttng_ust_events[k]);
		}
		if (known)
			continue;
		snprintf(err, len, "%s:%d: the lttng-ust tracer records the workload server's "
			 "LTTng-UST tracepoints, 'tracepoint loadbench:request' and 'tracepoint "
			 "loadbench:reply'; not this %s line", ps->path, p->line,
			 lb_probe_kind_name(p->kind));
		return p->kind == LB_PROBE_TRACEPOINT ? -ENOENT : -EOPNOTSUPP;
	}
	return 0;
}
