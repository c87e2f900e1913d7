// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup.h"
#include "owner.h"
#include "util.h"
#include "watchdog.h"

static pid_t watchdog_pid;

static void report(const char *what, int err, void *arg)
{
	pid_t run = *(pid_t *)arg;

	if (err == LB_CLEANUP_LEFT || err == LB_CLEANUP_FOREIGN)
		return;
	if (err)
		lb_warn("watchdog: run %d ended without removing %s, and it cannot be removed: %s "
			"(try 'loadbench cleanup')", (int)run, what, strerror(-err));
	else
		lb_warn("watchdog: run %d ended without removing %s: removed", (int)run, what);
}

/* Closes every descriptor above 2 but the run lock's; stdin and stdout from /dev/null. */
static void close_others(void)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	d = opendir("/proc/self/fd");
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || fd <= STDERR_FILENO || fd == dirfd(d) ||
		    lb_owner_holds_fd((int)fd))
			continue;
		close((int)fd);
	}
	closedir(d);
}

static void __attribute__((noreturn)) watchdog_main(pid_t run, const sigset_t *set)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	siginfo_t si;

	/* Not stopped by the terminal's signals to the run's group: only by the run or its death. */
	setpgid(0, 0);
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	sigaction(SIGQUIT, &ign, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	prctl(PR_SET_NAME, "lb-watchdog", 0, 0, 0);
	prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
	close_others();
	while (getppid() == run) {
		int sig = sigwaitinfo(set, &si);

		if (sig == SIGTERM && si.si_pid == run)
			_exit(0);	/* the run ended and cleaned up itself */
		/* SIGUSR1 from the kernel when the run died: the loop's test sees it. */
	}
	lb_cleanup_pid(run, true, report, &run);
	/* What could not be removed keeps its lock file: loadbench cleanup can prove it dead. */
	lb_owner_release(lb_cleanup_pid(run, false, NULL, NULL) > 0);
	_exit(0);
}

int lb_watchdog_start(char *err, size_t len)
{
	sigset_t set, old;
	pid_t run = getpid(), pid;
	int ret;

	if (geteuid() != 0 || watchdog_pid > 0)
		return 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	/* Blocked before the fork, so that neither can reach the child before it waits for them. */
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0)
		watchdog_main(run, &set);
	ret = pid < 0 ? -errno : 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, len, "cannot start the watchdog process: %s", strerror(-ret));
		return ret;
	}
	watchdog_pid = pid;
	return 0;
}

void lb_watchdog_stop(void)
{
	if (watchdog_pid <= 0)
		return;
	kill(watchdog_pid, SIGTERM);
	while (waitpid(watchdog_pid, NULL, 0) < 0 && errno == EINTR)
		;
	watchdog_pid = 0;
}
