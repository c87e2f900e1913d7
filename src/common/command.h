/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A command run under a keeper: the workload of loadbench --workload exec --
 * CMD (run to completion, once per measured run), and the tool a command
 * tracer runs (tracer_command.c: started and stopped by loadbench). It is started
 * behind a gate: forked, in a process group of its own, its output on the
 * caller's descriptors, and held before exec until the caller has done what
 * it needs the pid for (a tracer that follows the workload's processes);
 * lb_command_release() lets it exec. Its exit, a timeout or an interrupt
 * end the run; lb_command_kill() and lb_command_stop() end its whole process
 * group. A keeper
 * process between loadbench and the command kills what the command leaves
 * (its group, and any daemon that left it) when it exits, and at once when
 * loadbench dies, however it dies. It knows nothing about tracing.
 */
#ifndef LB_COMMAND_H
#define LB_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct lb_command;

struct lb_command_config {
	char *const *argv;	/* the command and its arguments, NULL-terminated; no shell */
	int cpus[2];		/* CPUs to pin it to (-1 = none; both -1: unpinned) */
};

/*
 * lb_command_create - check @cfg: argv[0] found (in PATH when it has no
 * '/') and executable, the CPUs online. Returns 0 and sets *@out, or -errno
 * (-ENOENT, -EACCES, -EINVAL) with one line naming the cause and the fix in
 * @err.
 */
int lb_command_create(const struct lb_command_config *cfg, struct lb_command **out, char *err,
		      size_t len);

/* lb_command_path - the program lb_command_create() found: what is exec'd. */
const char *lb_command_path(const struct lb_command *c);

/*
 * lb_command_spawn - fork the command (under its keeper) behind its gate,
 * its stdout and stderr on @out_fd and @err_fd, stdin /dev/null. Returns
 * its pid (also its process group), or -errno with a line in @err.
 */
pid_t lb_command_spawn(struct lb_command *c, int out_fd, int err_fd, char *err, size_t len);

/* lb_command_release - open the gate: the command execs now. Returns 0 or -errno. */
int lb_command_release(struct lb_command *c);

/*
 * lb_command_wait - wait until the command exits, @timeout seconds pass or
 * *@stop is set (checked every few ms). Returns 0 when it exited (reaped:
 * lb_command_result()), -ETIMEDOUT, or -EINTR.
 */
int lb_command_wait(struct lb_command *c, double timeout, volatile int *stop);

/*
 * lb_command_result - how the exited command ended, in words, into @buf:
 * "exited with status 3", "killed by signal 9", "could not be executed:
 * Permission denied". Returns 0 when it exited with status 0, else 1
 * (-ECHILD when it has not been reaped).
 */
int lb_command_result(const struct lb_command *c, char *buf, size_t len);

/*
 * lb_command_cpu - the CPU time of the reaped command and of every
 * descendant it waited for (wait4's rusage), user and system, in ns.
 * Returns 0, or -ECHILD before it was reaped.
 */
int lb_command_cpu(const struct lb_command *c, uint64_t *user_ns, uint64_t *sys_ns);

/*
 * lb_command_running - whether the spawned command is still there (its
 * keeper has not exited). Returns false before a spawn and once it ended.
 */
bool lb_command_running(struct lb_command *c);

/*
 * lb_command_tree - the processes of the running command into @pids (at
 * most @max): the command, its descendants, and what left its group and
 * fell to its keeper, walked through /proc/PID/task/TID/children. Returns
 * how many (0 when it is not running, or without CONFIG_PROC_CHILDREN only
 * the command itself).
 */
int lb_command_tree(const struct lb_command *c, pid_t *pids, int max);

/*
 * lb_command_kill - end the command's process group (SIGTERM, then SIGKILL
 * after a grace of 1 s) and reap the command. Safe when not running.
 * Returns nothing.
 */
void lb_command_kill(struct lb_command *c);

/*
 * lb_command_stop - ask the command's process group to end with @sig, and
 * SIGKILL it when it has not ended within @grace seconds; reap the command.
 * Safe when not running. Returns 1 when it had to be killed, else 0.
 */
int lb_command_stop(struct lb_command *c, int sig, double grace);

/* lb_command_destroy - kill (lb_command_kill) and free @c; NULL is fine. */
void lb_command_destroy(struct lb_command *c);

#endif
