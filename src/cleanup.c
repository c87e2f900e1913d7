// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <tracefs.h>

#include "cleanup.h"
#include "topology.h"
#include "lttng.h"
#include "tracefs_util.h"
#include "util.h"

#define LB_PREFIX "loadbench_"

/* The pid in a name "loadbench_<pid>[...]"; 0 for another name. */
static pid_t name_owner(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, LB_PREFIX, strlen(LB_PREFIX)))
		return 0;
	pid = strtol(name + strlen(LB_PREFIX), &end, 10);
	if (end == name + strlen(LB_PREFIX) || pid <= 0 || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

pid_t lb_cleanup_dead_owner(const char *name)
{
	pid_t pid = name_owner(name);

	if (!pid || pid == getpid())
		return 0;
	/* EPERM means it exists (another user's): only ESRCH is a dead owner. */
	if (kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	return pid;
}

/*
 * Whether @name is a leftover for the walkers below: with @own 0, the name of
 * a dead loadbench; else a name of pid @own (left by an earlier process that
 * had it).
 */
static bool leftover(const char *name, pid_t own)
{
	return own ? name_owner(name) == own : lb_cleanup_dead_owner(name) != 0;
}

static int clean_instances(pid_t own, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char dir[512], what[300];
	struct dirent *de;
	int found = 0;
	DIR *d;

	/* Read directly: tracefs_instances() compiles a regex it never frees (libtracefs 1.6). */
	snprintf(dir, sizeof(dir), "%s/instances", lb_tracefs_dir());
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int err = 0;

		if (!leftover(de->d_name, own))
			continue;
		found++;
		if (remove)
			err = lb_tracefs_instance_remove(de->d_name, 2.0, NULL, 0);
		snprintf(what, sizeof(what), "tracefs instance %s", de->d_name);
		if (report)
			report(what, err, arg);
	}
	closedir(d);
	return found;
}

/*
 * dynamic_events lines look like "p:GROUP/EVENT SYMBOL ..." (kprobes),
 * "p:GROUP/EVENT /PATH:0xOFFSET" (uprobes), "r:..." for the return probes of
 * both; "-:GROUP/EVENT" removes one.
 */
static int clean_dynevents(pid_t own, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char *text = tracefs_instance_file_read(NULL, "dynamic_events", NULL);
	char what[300], cmd[300];
	int found = 0;

	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':'), *sp;
		int err = 0;

		if (!colon)
			continue;
		sp = strchr(colon, ' ');
		if (sp)
			*sp = '\0';
		if (!leftover(colon + 1, own))
			continue;
		found++;
		if (remove) {
			snprintf(cmd, sizeof(cmd), "-:%s", colon + 1);
			if (tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0)
				err = errno ? -errno : -EIO;
		}
		snprintf(what, sizeof(what), "dynamic event %s", colon + 1);
		if (report)
			report(what, err, arg);
	}
	free(text);
	return found;
}

/*
 * Host ends of --topology veth pairs carry the alias loadbench_<pid>
 * (/sys/class/net/IF/ifalias). They die with the run's network namespace,
 * so one is left only while that namespace lives on (or when deleting it
 * failed); deleting an end deletes its peer.
 */
static int clean_veths(pid_t own, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char path[300], alias[64], what[360];
	struct dirent *de;
	int found = 0;
	DIR *d;

	d = opendir("/sys/class/net");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		FILE *f;
		int err = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(alias, sizeof(alias), f))
			alias[0] = '\0';
		fclose(f);
		alias[strcspn(alias, "\n")] = '\0';
		if (!leftover(alias, own))
			continue;
		found++;
		if (remove)
			err = lb_topo_link_delete(de->d_name);
		snprintf(what, sizeof(what), "veth interface %s (alias %s)", de->d_name, alias);
		if (report)
			report(what, err, arg);
	}
	closedir(d);
	return found;
}

int lb_cleanup_own(lb_cleanup_report_fn report, void *arg)
{
	int n;

	if (!tracefs_tracing_dir())
		return -ENODEV;
	n = clean_veths(getpid(), true, report, arg);
	n += clean_instances(getpid(), true, report, arg);
	return n + clean_dynevents(getpid(), true, report, arg);
}

int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg)
{
	int n, v;

	v = clean_veths(0, remove, report, arg);
	if (!tracefs_tracing_dir())
		return -ENODEV;
	/* Instances first: an event enabled in a leftover instance keeps its dynamic event busy. */
	n = clean_instances(0, remove, report, arg);
	n += lb_lttng_cleanup(remove, report, arg);
	return v + n + clean_dynevents(0, remove, report, arg);
}
