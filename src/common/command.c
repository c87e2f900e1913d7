// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A command run under a keeper (command.h): the exec workload's, a command
 * tracer's tool.
 *
 * Two processes. The keeper, forked from loadbench, is a child subreaper
 * that asks for SIGTERM when loadbench dies; it forks the command and
 * waits. The command makes itself a process group, takes the caller's
 * descriptors and waits on the gate pipe; then execs the program found at
 * create, with no shell. An exec that fails writes its errno on a
 * close-on-exec pipe the parent reads at release. When the command exits,
 * the keeper kills what it left (its process group, and every orphan that
 * fell to the keeper, daemons that left the group included), reaps them
 * and exits as the command did; when loadbench dies (even by SIGKILL), the
 * keeper does the same at once. loadbench sees the keeper's exit through a
 * pidfd (a poll, no busy wait); wait4 on the keeper gives the command's CPU
 * time (the keeper waited for it).
 *
 * The keeper runs in a child of a process that may have threads (tracer
 * readers): it keeps to async-signal-safe calls.
 *
 * This file must not include any tracing header.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "util.h"

#define LB_CMD_GRACE_MS 1000 /* after SIGTERM, before SIGKILL */
#define LB_CMD_POLL_MS 50    /* longest sleep between two looks at the stop flag */

struct lb_command {
	char **argv;
	char path[PATH_MAX];
	int cpus[2];
	pid_t pid;	/* the command, its process group; 0 = none */
	pid_t keeper;	/* its keeper (our child); 0 = none */
	int pidfd;	/* the keeper's; -1 = none (poll by waitid every ms instead) */
	int gate;	/* write end of the gate; -1 = released */
	int execerr;	/* read end of the exec-error pipe; -1 = read */
	int exec_errno;	/* why exec failed; 0 = it did not */
	bool exited;	/* the keeper exited (the command and what it left are gone) */
	bool reaped;
	int status;	/* the keeper's wait status once reaped: the command's */
	struct rusage ru; /* its CPU time and its waited-for descendants', once reaped */
};

static double lb_cmd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether @p is a regular file this process may execute. */
static bool lb_cmd_executable(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

/* Finds @name as exec would, into c->path. Returns 0, -ENOENT or -EACCES (said). */
static int lb_cmd_find(struct lb_command *c, const char *name, char *err, size_t len)
{
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;

	if (!*name) {
		snprintf(err, len, "the command is empty: give one after --");
		return -ENOENT;
	}
	if (strchr(name, '/')) {
		if (snprintf(c->path, sizeof(c->path), "%s", name) >= (int)sizeof(c->path)) {
			snprintf(err, len, "the command's path is too long");
			return -ENAMETOOLONG;
		}
		if (lb_cmd_executable(name))
			return 0;
		if (stat(name, &st)) {
			snprintf(err, len, "command %.200s: %s: give the path of a program", name,
				 strerror(errno));
			return -ENOENT;
		}
		snprintf(err, len, "command %.200s is not an executable file: give a program "
			 "(a script needs its #! line and the execute bit)", name);
		return -EACCES;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		if (snprintf(c->path, sizeof(c->path), "%.*s/%s", (int)(e - p), e > p ? p : ".",
			     name) >= (int)sizeof(c->path))
			continue;
		if (lb_cmd_executable(c->path))
			return 0;
	}
	snprintf(err, len, "command %.200s not found in PATH: install it, or give its path", name);
	return -ENOENT;
}

/* Returns 0 and sets *@out, or -errno with @err. */
int lb_command_create(const struct lb_command_config *cfg, struct lb_command **out, char *err,
		      size_t len)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	struct lb_command *c;
	size_t n = 0;
	int ret;

	*out = NULL;
	err[0] = '\0';
	if (!cfg->argv || !cfg->argv[0]) {
		snprintf(err, len, "no command: give one after --, e.g. -- dd if=/dev/zero "
			 "of=/dev/null count=100000");
		return -EINVAL;
	}
	for (int i = 0; i < 2; i++) {
		if (cfg->cpus[i] >= ncpus) {
			snprintf(err, len, "CPU %d does not exist here (0 to %ld): choose another",
				 cfg->cpus[i], ncpus - 1);
			return -EINVAL;
		}
	}
	c = calloc(1, sizeof(*c));
	while (cfg->argv[n])
		n++;
	if (!c || !(c->argv = calloc(n + 1, sizeof(*c->argv)))) {
		free(c);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	c->pidfd = c->gate = c->execerr = -1;
	memcpy(c->cpus, cfg->cpus, sizeof(c->cpus));
	for (size_t i = 0; i < n; i++) {
		if (!(c->argv[i] = strdup(cfg->argv[i]))) {
			ret = -ENOMEM;
			snprintf(err, len, "out of memory");
			goto fail;
		}
	}
	ret = lb_cmd_find(c, c->argv[0], err, len);
	if (ret)
		goto fail;
	*out = c;
	return 0;
fail:
	lb_command_destroy(c);
	return ret;
}

const char *lb_command_path(const struct lb_command *c)
{
	return c->path;
}

/* The child, up to exec: never returns. */
static void __attribute__((noreturn)) lb_cmd_child(struct lb_command *c, int gate, int execerr,
						   int out_fd, int err_fd, pid_t parent)
{
	sigset_t none;
	cpu_set_t set;
	char go;
	int fd, e;

	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	CPU_ZERO(&set);
	for (int i = 0; i < 2; i++)
		if (c->cpus[i] >= 0)
			CPU_SET(c->cpus[i], &set);
	if (CPU_COUNT(&set) && sched_setaffinity(0, sizeof(set), &set) < 0)
		goto fail;
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		goto fail;
	/* The gate: one byte is "go"; end of file (the parent gave up) is not. */
	while (read(gate, &go, 1) < 0 && errno == EINTR)
		;
	if (go != 'g')
		_exit(127);
	execv(c->path, c->argv);
fail:
	e = errno;
	while (write(execerr, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Kills every child of the keeper (@self): what the command left and fell to it. */
static void lb_keeper_kill_children(pid_t self)
{
	char path[64] = "/proc/self/task/", num[16], buf[4096];
	size_t off = strlen(path), n = 0;
	ssize_t r;
	pid_t p = 0;
	int fd;

	/* "/proc/self/task/SELF/children", without snprintf (async-signal-safe). */
	do
		num[n++] = (char)('0' + self % 10);
	while ((self /= 10) && n < sizeof(num));
	while (n)
		path[off++] = num[--n];
	memcpy(path + off, "/children", sizeof("/children"));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* no CONFIG_PROC_CHILDREN: the group kill is all there is */
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	for (ssize_t i = 0; i < r; i++) {
		if (buf[i] >= '0' && buf[i] <= '9') {
			p = p * 10 + (buf[i] - '0');
		} else if (p) {
			kill(p, SIGKILL);
			p = 0;
		}
	}
	if (p)
		kill(p, SIGKILL);
}

/*
 * The keeper: the command forked, waited for, what it left killed; exits as it did.
 * SIGTERM (its PR_SET_PDEATHSIG: loadbench died) and SIGCHLD stay blocked and are
 * taken with sigwaitinfo(), so one that arrives before the wait is not lost.
 */
static void __attribute__((noreturn)) lb_keeper_main(struct lb_command *c, int gate, int execerr,
						     int pidw, int out_fd, int err_fd, pid_t parent)
{
	struct sigaction sa;
	sigset_t waitset;
	siginfo_t si;
	pid_t self = getpid(), cmd, r;
	int status = 0, st, e;
	bool orphaned = false;

	sigemptyset(&waitset);
	sigaddset(&waitset, SIGTERM);
	sigaddset(&waitset, SIGCHLD);
	sigprocmask(SIG_SETMASK, &waitset, NULL);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL; /* a blocked SIGCHLD stays pending for sigwaitinfo() */
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL); /* loadbench decides what a Ctrl-C ends */
	sigaction(SIGHUP, &sa, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		goto fail;
	cmd = fork();
	if (cmd < 0)
		goto fail;
	if (!cmd) {
		close(pidw);
		lb_cmd_child(c, gate, execerr, out_fd, err_fd, self);
	}
	setpgid(cmd, cmd);
	while (write(pidw, &cmd, sizeof(cmd)) < 0 && errno == EINTR)
		;
	close(pidw);
	close(gate);
	close(execerr);
	for (;;) {
		r = waitpid(-1, &st, WNOHANG);
		if (r == cmd) {
			status = st;
			break;
		}
		if (r > 0) /* an orphan the command left, reaped */
			continue;
		if (r < 0 && errno != EINTR) /* ECHILD: cannot be, but do not spin */
			break;
		/* SIGTERM from loadbench's death: end the command now (else: someone else's). */
		if (sigwaitinfo(&waitset, &si) == SIGTERM && getppid() != parent) {
			orphaned = true;
			break;
		}
	}
	kill(-cmd, SIGKILL);
	for (;;) {
		lb_keeper_kill_children(self);
		r = waitpid(-1, NULL, 0);
		if (r < 0 && errno != EINTR)
			break;
	}
	if (orphaned)
		_exit(127);
	if (WIFSIGNALED(status)) {
		sigemptyset(&waitset);
		sigprocmask(SIG_SETMASK, &waitset, NULL);
		signal(WTERMSIG(status), SIG_DFL);
		kill(self, WTERMSIG(status));
		_exit(128 + WTERMSIG(status));
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
fail:
	e = errno;
	while (write(execerr, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Returns the command's pid, or -errno with @err. */
pid_t lb_command_spawn(struct lb_command *c, int out_fd, int err_fd, char *err, size_t len)
{
	int gate[2] = {-1, -1}, ee[2] = {-1, -1}, pp[2] = {-1, -1};
	pid_t parent = getpid(), pid, cmd = 0;
	ssize_t n;
	int ret;

	if (c->keeper) {
		snprintf(err, len, "the command is already running: this is a bug");
		return -EBUSY;
	}
	if (pipe2(gate, O_CLOEXEC) < 0 || pipe2(ee, O_CLOEXEC) < 0 || pipe2(pp, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, len, "cannot make a pipe for the command: %s", strerror(-ret));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(err, len, "cannot fork the command: %s", strerror(-ret));
		goto fail;
	}
	if (!pid) {
		close(gate[1]);
		close(ee[0]);
		close(pp[0]);
		/* 'g' is written only by lb_command_release(): anything else is no. */
		lb_keeper_main(c, gate[0], ee[1], pp[1], out_fd, err_fd, parent);
	}
	close(gate[0]);
	close(ee[1]);
	close(pp[1]);
	gate[0] = ee[1] = pp[1] = -1;
	/* The keeper says the command's pid once it has forked it (end of file: it failed). */
	while ((n = read(pp[0], &cmd, sizeof(cmd))) < 0 && errno == EINTR)
		;
	close(pp[0]);
	pp[0] = -1;
	c->keeper = pid;
	c->gate = gate[1];
	c->execerr = ee[0];
	gate[1] = ee[0] = -1;
	if (n != (ssize_t)sizeof(cmd) || cmd <= 0) {
		c->pid = 0; /* no command: lb_command_kill() ends and reaps the keeper */
		c->exited = c->reaped = false;
		lb_command_kill(c);
		snprintf(err, len, "cannot start the command: its keeper process failed");
		ret = -ECHILD;
		goto fail;
	}
	c->pid = cmd;
	c->exec_errno = 0;
	c->exited = c->reaped = false;
	c->status = 0;
	c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	return cmd;
fail:
	for (int i = 0; i < 2; i++) {
		if (gate[i] >= 0)
			close(gate[i]);
		if (ee[i] >= 0)
			close(ee[i]);
		if (pp[i] >= 0)
			close(pp[i]);
	}
	return ret;
}

/* Returns 0, or -errno: the gate could not be opened, or exec failed (exec_errno). */
int lb_command_release(struct lb_command *c)
{
	ssize_t n;
	int e = 0;

	if (c->gate < 0)
		return -EINVAL;
	while ((n = write(c->gate, "g", 1)) < 0 && errno == EINTR)
		;
	close(c->gate);
	c->gate = -1;
	if (n != 1)
		return -EPIPE;
	/* Exec closes the pipe (close-on-exec); a failure writes its errno first. */
	while ((n = read(c->execerr, &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(c->execerr);
	c->execerr = -1;
	if (n == (ssize_t)sizeof(e)) {
		c->exec_errno = e ? e : EIO;
		return -c->exec_errno;
	}
	return 0;
}

/* Whether the keeper has exited: the command did, and what it left is gone. */
static bool lb_cmd_exited(struct lb_command *c)
{
	siginfo_t si;

	if (c->exited || c->reaped || !c->keeper)
		return true;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)c->keeper, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	if (si.si_pid == c->keeper)
		c->exited = true;
	return c->exited;
}

/* The keeper reaped (its wait status and CPU time are the command's). */
static void lb_cmd_reap(struct lb_command *c)
{
	if (c->reaped || !c->keeper)
		return;
	memset(&c->ru, 0, sizeof(c->ru));
	while (wait4(c->keeper, &c->status, 0, &c->ru) < 0) {
		if (errno != EINTR) {
			c->status = 0;
			break;
		}
	}
	c->reaped = true;
	c->exited = true;
}

/* Sleeps until the command may have exited, at most @ms. */
static void lb_cmd_sleep(const struct lb_command *c, int ms)
{
	struct pollfd p = {.fd = c->pidfd, .events = POLLIN};
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 1000000};

	if (c->pidfd >= 0)
		poll(&p, 1, ms);
	else
		nanosleep(&ts, NULL); /* no pidfd (kernel < 5.3): look every ms */
}

/* Returns 0 exited (and reaped), -ETIMEDOUT or -EINTR. */
int lb_command_wait(struct lb_command *c, double timeout, volatile int *stop)
{
	double end = lb_cmd_now() + timeout, left;

	while (!lb_cmd_exited(c)) {
		if (stop && *stop)
			return -EINTR;
		left = end - lb_cmd_now();
		if (left <= 0)
			return -ETIMEDOUT;
		lb_cmd_sleep(c, left * 1000 < LB_CMD_POLL_MS ? (int)(left * 1000) + 1
							      : LB_CMD_POLL_MS);
	}
	lb_cmd_reap(c);
	return 0;
}

/* Returns 0 for exit status 0, 1 otherwise, -ECHILD before it was reaped. */
int lb_command_result(const struct lb_command *c, char *buf, size_t len)
{
	if (!c->reaped)
		return -ECHILD;
	if (c->exec_errno) {
		snprintf(buf, len, "could not be executed: %s", strerror(c->exec_errno));
		return 1;
	}
	if (WIFEXITED(c->status)) {
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(c->status));
		return WEXITSTATUS(c->status) ? 1 : 0;
	}
	if (WIFSIGNALED(c->status)) {
		snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(c->status),
			 strsignal(WTERMSIG(c->status)));
		return 1;
	}
	snprintf(buf, len, "ended with wait status %#x", c->status);
	return 1;
}

/* Returns 0, or -ECHILD before the command was reaped. */
int lb_command_cpu(const struct lb_command *c, uint64_t *user_ns, uint64_t *sys_ns)
{
	if (!c->reaped)
		return -ECHILD;
	*user_ns = (uint64_t)c->ru.ru_utime.tv_sec * 1000000000u +
		   (uint64_t)c->ru.ru_utime.tv_usec * 1000u;
	*sys_ns = (uint64_t)c->ru.ru_stime.tv_sec * 1000000000u +
		  (uint64_t)c->ru.ru_stime.tv_usec * 1000u;
	return 0;
}

bool lb_command_running(struct lb_command *c)
{
	return c && c->keeper && !lb_cmd_exited(c);
}

/* Appends the children of every task of @pid to @pids[*n..@max). */
static void lb_cmd_children(pid_t pid, pid_t *pids, int *n, int max)
{
	char path[320], buf[4096];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) && *n < max) {
		char *p, *end;
		long v;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/children", (int)pid, d->d_name);
		if (lb_read_small(AT_FDCWD, path, buf, sizeof(buf)) <= 0)
			continue;
		for (p = buf; *n < max; p = end) {
			v = strtol(p, &end, 10);
			if (end == p)
				break;
			if (v > 0)
				pids[(*n)++] = (pid_t)v;
		}
	}
	closedir(dir);
}

int lb_command_tree(const struct lb_command *c, pid_t *pids, int max)
{
	int n = 0;

	if (!c->keeper || !c->pid || c->exited || max < 1)
		return 0;
	/* Breadth first from the keeper: its children are the command and its orphans. */
	lb_cmd_children(c->keeper, pids, &n, max);
	for (int i = 0; i < n; i++)
		lb_cmd_children(pids[i], pids, &n, max);
	if (!n)
		pids[n++] = c->pid;
	return n;
}

void lb_command_kill(struct lb_command *c)
{
	lb_command_stop(c, SIGTERM, LB_CMD_GRACE_MS / 1e3);
}

int lb_command_stop(struct lb_command *c, int sig_first, double grace)
{
	const int sig[2] = {sig_first, SIGKILL};
	bool killed = false;
	double end;

	if (!c || !c->keeper)
		return 0;
	if (c->gate >= 0) { /* never released: end of file on the gate ends it */
		close(c->gate);
		c->gate = -1;
	}
	if (c->execerr >= 0) {
		close(c->execerr);
		c->execerr = -1;
	}
	/* The command's group: asked, then told; its keeper follows it out. */
	for (int i = 0; i < 2 && c->pid && !lb_cmd_exited(c); i++) {
		killed = i == 1;
		kill(-c->pid, sig[i]);
		end = lb_cmd_now() + (i ? LB_CMD_GRACE_MS / 1e3 : grace);
		while (!lb_cmd_exited(c) && lb_cmd_now() < end)
			lb_cmd_sleep(c, 10);
	}
	if (!lb_cmd_exited(c)) {
		killed = true;
		kill(c->keeper, SIGKILL);
	}
	lb_cmd_reap(c);
	if (c->pidfd >= 0)
		close(c->pidfd);
	c->pidfd = -1;
	c->pid = 0;
	c->keeper = 0;
	return killed;
}

void lb_command_destroy(struct lb_command *c)
{
	if (!c)
		return;
	lb_command_kill(c);
	if (c->argv) {
		for (size_t i = 0; c->argv[i]; i++)
			free(c->argv[i]);
		free(c->argv);
	}
	free(c);
}
