// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gnuplot process (see gnuplot.h): found in an absolute directory of
 * $PATH, started without a shell and without init files in a directory the
 * caller names by file descriptor, its stderr collected (up to
 * LB_GNUPLOT_STDERR_MAX bytes) until it exits or LB_GNUPLOT_TIMEOUT runs
 * out, then killed and reaped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gnuplot.h"
#include "util.h"

#define LB_GNUPLOT_STDERR_MAX	65536	/* bytes of gnuplot's stderr kept */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The line of gnuplot's @out that says what went wrong: the first
 * '"FILE" line N: ...' line that is not a warning, else the first line naming an error, else the
 * last non-empty line. Copied to @buf.
 */
static void error_line(const char *out, char *buf, size_t len)
{
	const char *best = NULL, *last = NULL, *p, *nl;

	for (p = out; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			last = p;
		if (*p == '"' && memmem(p, nl - p, "\" line ", 7) &&
		    !memmem(p, nl - p, ": warning:", 10)) {
			best = p;
			break;
		}
		if (!best && (memmem(p, nl - p, "rror", 4) || memmem(p, nl - p, "cannot", 6)))
			best = p;
		if (!*nl)
			break;
	}
	if (!best)
		best = last;
	if (!best) {
		snprintf(buf, len, "(no message)");
		return;
	}
	snprintf(buf, len, "%.*s", (int)(strchrnul(best, '\n') - best), best);
}

int lb_gnuplot_find(char *path, size_t len, char *err, size_t errlen)
{
	const char *dirs = getenv("PATH");
	const char *p, *end;
	struct stat st;
	int n;

	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (p = dirs;; p = end + 1) {
		end = strchrnul(p, ':');
		if (*p == '/') {
			n = snprintf(path, len, "%.*s/gnuplot", (int)(end - p), p);
			if (n > 0 && (size_t)n < len && !stat(path, &st) && S_ISREG(st.st_mode) &&
			    !access(path, X_OK))
				return 0;
		}
		if (!*end)
			break;
	}
	lb_seterr(err, errlen, "not in any absolute directory of PATH; empty and relative "
		  "entries are skipped");
	return -ENOENT;
}

/*
 * -d: no ~/.gnuplot or gnuplotrc (under sudo, HOME may still be the invoking
 * user's), so only the caller's script runs. Messages for the child are
 * formatted before fork (only async-signal-safe calls in the child).
 */
int lb_gnuplot_run(const char *gnuplot, int dirfd, const char *dirname, const char *script,
		   char *err, size_t errlen)
{
	static const char exec_msg[] = "loadbench: cannot execute gnuplot\n";
	char *const argv[] = { "gnuplot", "-d", (char *)script, NULL };
	double deadline = now() + LB_GNUPLOT_TIMEOUT;
	char *out = NULL, chdir_msg[512], line[512];
	size_t used = 0;
	bool timed_out = false;
	int pipefd[2] = { -1, -1 };
	int status = 0, ret, devnull;
	pid_t pid;

	snprintf(chdir_msg, sizeof(chdir_msg), "loadbench: cannot change to %s\n", dirname);
	out = malloc(LB_GNUPLOT_STDERR_MAX + 1);
	if (!out) {
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		ret = -errno;
		lb_seterr(err, errlen, "cannot run gnuplot: %s", strerror(-ret));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		lb_seterr(err, errlen, "cannot run gnuplot: %s", strerror(-ret));
		goto out;
	}
	if (!pid) {
		devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			dup2(devnull, STDOUT_FILENO);
		}
		dup2(pipefd[1], STDERR_FILENO);
		if (fchdir(dirfd)) {
			if (write(STDERR_FILENO, chdir_msg, strlen(chdir_msg)) < 0)
				_exit(126);
			_exit(126);
		}
		execv(gnuplot, argv);
		if (write(STDERR_FILENO, exec_msg, sizeof(exec_msg) - 1) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	pipefd[1] = -1;

	/* Collect stderr until gnuplot closes it, for at most LB_GNUPLOT_TIMEOUT seconds. */
	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		double left = deadline - now();
		char buf[4096];
		ssize_t n;
		int r;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		r = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		n = read(pipefd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (used < LB_GNUPLOT_STDERR_MAX) {
			size_t keep = (size_t)n < LB_GNUPLOT_STDERR_MAX - used ? (size_t)n :
					LB_GNUPLOT_STDERR_MAX - used;

			memcpy(out + used, buf, keep);
			used += keep;
		}
	}
	out[used] = '\0';

	/* Reap it; past the deadline, kill it first. */
	if (timed_out)
		kill(pid, SIGKILL);
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -EIO;
			lb_seterr(err, errlen, "cannot get the exit status of gnuplot %s: %s", script,
			       strerror(errno));
			goto out;
		}
		if (!timed_out && now() >= deadline) {
			timed_out = true;
			kill(pid, SIGKILL);
		}
		usleep(10000);
	}

	ret = 0;
	if (timed_out) {
		ret = -EIO;
		lb_seterr(err, errlen, "gnuplot %s did not finish within %d s and was killed",
		       script, LB_GNUPLOT_TIMEOUT);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ret = -EIO;
		error_line(out, line, sizeof(line));
		if (WIFSIGNALED(status))
			lb_seterr(err, errlen, "gnuplot %s was killed by signal %d: %s", script,
			       WTERMSIG(status), line);
		else
			lb_seterr(err, errlen, "gnuplot %s: %s", script, line);
	}
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	free(out);
	return ret;
}

void lb_gnuplot_say_missing(void (*say)(const char *fmt, ...), const char *why, const char *dir,
			    const char *figure)
{
	char what[256];

	if (figure)
		snprintf(what, sizeof(what), "the figure is only written as %s.gp and %s.dat",
			 figure, figure);
	else
		snprintf(what, sizeof(what), "the figures are only written as .gp and .dat files");
	say("gnuplot is not installed (%s), so %s in %s: install it (apt-get install gnuplot-nox) "
	    "and run '%s%s%s%s%s'", why, what, dir, figure ? "cd " : "loadbench plot ", dir,
	    figure ? " && gnuplot " : "", figure ? figure : "", figure ? ".gp" : "");
}
