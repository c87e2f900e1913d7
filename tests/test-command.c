// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadgen's command (command.h), without root: a program looked up in PATH
 * or refused in one line; the gate holds it until release; its exit status,
 * an exec that fails, a timeout, an interrupt; its CPU time from wait4; and
 * what it leaves (its process group, a daemon that left it) killed when it
 * exits, is killed, or when the process that runs it dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "helpers.h"

static struct lb_command *make(char *const *argv, char *err, size_t len, int *ret)
{
	struct lb_command_config cfg = {.argv = argv, .cpus = {-1, -1}};
	struct lb_command *c = NULL;

	*ret = lb_command_create(&cfg, &c, err, len);
	return c;
}

/* Runs @argv to its end (or @timeout); returns lb_command_wait's value, the result in @why. */
static int run(char *const *argv, double timeout, volatile int *stop, char *why, size_t len,
	       struct lb_command **keep)
{
	char err[256];
	int ret, fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	struct lb_command *c = make(argv, err, sizeof(err), &ret);
	pid_t pid;

	T_CHECK(c && !ret && fd >= 0);
	if (!c)
		return -1;
	pid = lb_command_spawn(c, fd, fd, err, sizeof(err));
	T_CHECK(pid > 0 && getpgid(pid) == pid);
	/* Held at the gate: not the program yet, whatever time passes. */
	usleep(20000);
	T_CHECK(kill(pid, 0) == 0);
	ret = lb_command_release(c);
	if (!ret)
		ret = lb_command_wait(c, timeout, stop);
	if (!ret)
		lb_command_result(c, why, len);
	close(fd);
	if (keep)
		*keep = c;
	else
		lb_command_destroy(c);
	return ret;
}

static double lb_now_test(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether a process whose command line is "@comm @arg" exists ("sleep 9.871"). */
static bool alive(const char *comm, const char *arg)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "pgrep -f '^%s %s$' >/dev/null", comm, arg);
	return system(cmd) == 0;
}

int main(void)
{
	char err[256], why[128];
	char *none[] = {"no-such-program-lb", NULL}, *empty[] = {"", NULL};
	char *ok[] = {"true", NULL}, *three[] = {"sh", "-c", "exit 3", NULL};
	char *slow[] = {"sleep", "9.871", NULL};
	char *group[] = {"sh", "-c", "sleep 9.872 & sleep 9.873 & wait", NULL};
	char *leave[] = {"sh", "-c", "sleep 9.874 & exit 0", NULL};
	char *daemon[] = {"sh", "-c", "setsid sleep 9.875 & sleep 0.2; exit 0", NULL};
	char *orphan[] = {"sh", "-c", "setsid sleep 9.876 & sleep 9.877", NULL};
	char *busy[] = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", NULL};
	char path[] = "/tmp/lb-test-command.XXXXXX", *script[] = {path, NULL};
	struct lb_command *c;
	volatile int stop = 0;
	uint64_t user, sys;
	int ret, fd;

	/* Not found, empty, not executable: refused at create, in one line. */
	c = make(none, err, sizeof(err), &ret);
	T_CHECK(!c && ret == -ENOENT &&
		!strcmp(err, "command no-such-program-lb not found in PATH: install it, or give "
			"its path"));
	c = make(empty, err, sizeof(err), &ret);
	T_CHECK(!c && ret == -ENOENT && strstr(err, "empty"));
	fd = mkstemp(path);
	T_CHECK(fd >= 0);
	c = make(script, err, sizeof(err), &ret);
	T_CHECK(!c && ret == -EACCES && strstr(err, "is not an executable file") && !strchr(err, '\n'));
	/* Executable, but not a program exec takes: exec's errno, at release. */
	T_CHECK(fchmod(fd, 0700) == 0 && write(fd, "\x7f" "ELFgarbage", 11) == 11);
	close(fd);
	c = make(script, err, sizeof(err), &ret);
	T_CHECK(c && !ret && !strcmp(lb_command_path(c), path));
	if (c) {
		int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);

		T_CHECK(lb_command_spawn(c, nul, nul, err, sizeof(err)) > 0);
		T_CHECK(lb_command_release(c) == -ENOEXEC);
		T_CHECK(lb_command_wait(c, 5, NULL) == 0);
		T_CHECK(lb_command_result(c, why, sizeof(why)) == 1 &&
			strstr(why, "could not be executed: Exec format error"));
		lb_command_destroy(c);
		close(nul);
	}
	unlink(path);

	/* Found in PATH; status 0 and 3. */
	T_CHECK(run(ok, 5, NULL, why, sizeof(why), &c) == 0 && !strcmp(why, "exited with status 0"));
	T_CHECK(c && lb_command_result(c, why, sizeof(why)) == 0);
	T_CHECK(c && strstr(lb_command_path(c), "/true"));
	lb_command_destroy(c);
	T_CHECK(run(three, 5, NULL, why, sizeof(why), NULL) == 0 &&
		!strcmp(why, "exited with status 3"));

	/* CPU time: the shell's loop, from wait4. */
	T_CHECK(run(busy, 30, NULL, why, sizeof(why), &c) == 0);
	T_CHECK(c && lb_command_cpu(c, &user, &sys) == 0 && user + sys > 1000000);
	printf("busy loop: user %.1f ms, system %.1f ms\n", user / 1e6, sys / 1e6);
	lb_command_destroy(c);

	/* A timeout, then kill: the program gone. */
	T_CHECK(run(slow, 0.2, NULL, why, sizeof(why), &c) == -ETIMEDOUT);
	T_CHECK(alive("sleep", "9.871"));
	lb_command_destroy(c);
	T_CHECK(!alive("sleep", "9.871"));

	/* An interrupt (the stop flag) while its children run: the whole group goes. */
	stop = 1;
	T_CHECK(run(group, 5, &stop, why, sizeof(why), &c) == -EINTR);
	usleep(100000);
	lb_command_kill(c);
	T_CHECK(!alive("sleep", "9.872") && !alive("sleep", "9.873"));
	lb_command_destroy(c);

	/*
	 * lb_command_stop (a command tracer's tool): its signal to the group, then
	 * SIGKILL after the grace when it is ignored; 1 says it had to kill.
	 */
	{
		char *polite[] = {"sh", "-c", "sleep 9.876 & wait", NULL};
		char *deaf[] = {"sh", "-c", "trap '' INT; sleep 9.877 & wait; sleep 9.877", NULL};
		double t0;

		T_CHECK(run(polite, 0.2, NULL, why, sizeof(why), &c) == -ETIMEDOUT);
		T_CHECK(alive("sleep", "9.876"));
		t0 = lb_now_test();
		T_CHECK(lb_command_stop(c, SIGINT, 5) == 0);
		T_CHECK(lb_now_test() - t0 < 4);
		T_CHECK(lb_command_result(c, why, sizeof(why)) == 1 && strstr(why, "signal 2"));
		T_CHECK(!alive("sleep", "9.876"));
		lb_command_destroy(c);
		T_CHECK(run(deaf, 0.2, NULL, why, sizeof(why), &c) == -ETIMEDOUT);
		t0 = lb_now_test();
		T_CHECK(lb_command_stop(c, SIGINT, 0.3) == 1);
		T_CHECK(lb_now_test() - t0 >= 0.3);
		T_CHECK(!alive("sleep", "9.877"));
		T_CHECK(lb_command_stop(c, SIGINT, 0.3) == 0);	/* not running: nothing to do */
		lb_command_destroy(c);
	}

	/* Exited, with a child left in its group: killed before the group goes away. */
	T_CHECK(run(leave, 5, NULL, why, sizeof(why), NULL) == 0 &&
		!strcmp(why, "exited with status 0"));
	T_CHECK(!alive("sleep", "9.874"));
	/* ... and a daemon that left the group: an orphan of the keeper, killed too. */
	T_CHECK(run(daemon, 5, NULL, why, sizeof(why), NULL) == 0 &&
		!strcmp(why, "exited with status 0"));
	T_CHECK(!alive("sleep", "9.875"));

	/* Its runner dies (as loadbench under SIGKILL): the keeper ends the command and its own. */
	{
		pid_t runner = fork(), gone;
		int st;

		if (!runner) {
			int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);

			c = make(orphan, err, sizeof(err), &ret);
			if (!c || lb_command_spawn(c, nul, nul, err, sizeof(err)) <= 0 ||
			    lb_command_release(c))
				_exit(1);
			for (int i = 0; i < 100 && !alive("sleep", "9.877"); i++)
				usleep(20000);
			_exit(alive("sleep", "9.876") && alive("sleep", "9.877") ? 0 : 2);
		}
		gone = waitpid(runner, &st, 0);
		T_CHECK(gone == runner && WIFEXITED(st) && WEXITSTATUS(st) == 0);
		for (int i = 0; i < 100 && (alive("sleep", "9.876") || alive("sleep", "9.877")); i++)
			usleep(20000);
		T_CHECK(!alive("sleep", "9.876") && !alive("sleep", "9.877"));
	}
	return t_exit();
}
