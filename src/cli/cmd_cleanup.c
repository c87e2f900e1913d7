// SPDX-License-Identifier: GPL-2.0-or-later
/* loadbench cleanup: remove what dead loadbench runs left, those whose run lock is free. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "commands.h"
#include "owner.h"
#include "util.h"

/* One leftover of a dead run: removed, or why not. */
static void report_leftover(const char *what, int err, void *arg)
{
	(void)arg;
	if (err == LB_CLEANUP_LEFT)
		printf("left alone %s: no run lock in %s proves its run ended (a run in "
		       "a container that does not share /run, or from before run locks): "
		       "remove it by hand if you know its run is gone\n", what,
		       LB_OWNER_DIR);
	else if (err == LB_CLEANUP_FOREIGN)
		printf("left alone %s: it bears a dead run's name but is not as loadbench "
		       "makes it (root's, mode 0700): another user's\n", what);
	else if (err)
		printf("could not remove %s: %s\n", what, strerror(-err));
	else
		printf("removed %s\n", what);
}

int lb_cmd_cleanup(int argc, char **argv)
{
	int n;

	(void)argv;
	if (argc > 1) {
		lb_err("usage: loadbench cleanup (takes no arguments)");
		return 2;
	}
	if (geteuid() != 0) {
		lb_err("cleanup needs root: tracefs is root-only (run it with sudo)");
		return 1;
	}
	n = lb_cleanup_run(true, report_leftover, NULL);
	if (n < 0) {
		lb_err("cannot read tracefs: %s (is it mounted at /sys/kernel/tracing?)",
		       strerror(-n));
		return 1;
	}
	printf("%d leftover(s) of dead loadbench runs found%s\n", n, n ? " and handled" : "");
	return 0;
}
