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
#include "owner.h"
#include "loadgen.h"
#include "lttng.h"
#include "tracefs_util.h"
#include "util.h"

static int clean_instances(struct lb_owners *o, bool remove, lb_cleanup_report_fn report,
			   void *arg)
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
		pid_t pid;
		int err = 0;

		snprintf(what, sizeof(what), "tracefs instance %s", de->d_name);
		if (!lb_cleanup_take(o, de->d_name, what, &pid, report, arg))
			continue;
		found++;
		if (remove)
			err = lb_tracefs_instance_remove(de->d_name, 2.0, NULL, 0);
		if (err)
			lb_owners_failed(o, pid);
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
static int clean_dynevents(struct lb_owners *o, bool remove, lb_cleanup_report_fn report,
			   void *arg)
{
	char *text = tracefs_instance_file_read(NULL, "dynamic_events", NULL);
	char what[300], cmd[300];
	int found = 0;

	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':'), *sp, group[256];
		pid_t pid;
		int err = 0;

		if (!colon)
			continue;
		sp = strchr(colon, ' ');
		if (sp)
			*sp = '\0';
		snprintf(group, sizeof(group), "%.*s", (int)strcspn(colon + 1, "/"), colon + 1);
		snprintf(what, sizeof(what), "dynamic event %s", colon + 1);
		if (!lb_cleanup_take(o, group, what, &pid, report, arg))
			continue;
		found++;
		if (remove) {
			snprintf(cmd, sizeof(cmd), "-:%s", colon + 1);
			if (tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0)
				err = errno ? -errno : -EIO;
		}
		if (err)
			lb_owners_failed(o, pid);
		if (report)
			report(what, err, arg);
	}
	free(text);
	return found;
}

/* Every kind, in the order that frees each before what it holds busy. */
static int clean_all(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	int n = lb_loadgen_cleanup(o, remove, report, arg);

	if (!tracefs_tracing_dir())
		return -ENODEV;
	/* Instances first: an event enabled in a leftover instance keeps its dynamic event busy. */
	n += clean_instances(o, remove, report, arg);
	n += lb_lttng_cleanup(o, remove, report, arg);
	return n + clean_dynevents(o, remove, report, arg);
}

int lb_cleanup_pid(pid_t pid, bool remove, lb_cleanup_report_fn report, void *arg)
{
	struct lb_owners *o;
	int n;

	if (lb_owners_of(pid, &o))
		return -ENOMEM;
	n = clean_all(o, remove, report, arg);
	lb_owners_free(o, false);
	return n;
}

int lb_cleanup_run(bool remove, lb_cleanup_report_fn report, void *arg)
{
	struct lb_owners *o;
	int n;

	if (lb_owners_scan(&o))
		return -ENOMEM;
	n = clean_all(o, remove, report, arg);
	lb_owners_free(o, remove && n >= 0);
	return n;
}
