// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --workload exec: one run = the command run to completion (loadgen's
 * command.h), its output into DIR/output/SET-ROUND.{out,err}. The tracer is
 * armed before the command starts and told its pid while it waits at its
 * gate, so that a set of the workload's processes follows it (and its
 * children) from its first instruction; the window is from the gate's
 * opening to the command's exit. Throughput is 1 / elapsed seconds, or the
 * number --metric captures in its stdout, else its stderr (higher is better).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_int.h"
#include "command.h"
#include "cpu.h"
#include "util.h"

#define LB_EXEC_OUTPUT_MAX (64u << 20) /* the most of a run's output --metric reads */

/*
 * Opens DIR/output/@name for the command's output (read back for --metric),
 * as a new file. Returns the fd or -errno.
 */
static int exec_output_open(const struct lb_bench *b, const char *name)
{
	int fd = openat(b->exec->outdir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0644);

	return fd < 0 ? -errno : fd;
}

/*
 * The number --metric's first group (or whole match, without a group)
 * captures in the first @n bytes of the file at @fd, into *@v. Returns 0, or
 * -ENOENT when it matches nothing or captures no number.
 */
static int exec_metric(const struct lb_bench *b, int fd, double *v)
{
	regmatch_t m[2];
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1), *end, *nb;
	ssize_t r;
	int ret = -ENOENT, g;

	if (!buf)
		return -ENOMEM;
	while (n < LB_EXEC_OUTPUT_MAX) {
		if (n == cap) {
			cap *= 2;
			if (!(nb = realloc(buf, cap + 1))) {
				ret = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		r = pread(fd, buf + n, cap - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	/* NUL bytes in the output end the text regexec sees: what came before them counts. */
	if (regexec(&b->exec->metric, buf, 2, m, 0))
		goto out;
	g = m[1].rm_so >= 0 ? 1 : 0;
	buf[m[g].rm_eo] = '\0';
	errno = 0;
	*v = strtod(buf + m[g].rm_so, &end);
	if (end != buf + m[g].rm_so && !errno && isfinite(*v) && *v > 0)
		ret = 0;
out:
	free(buf);
	return ret;
}

int lb_bench_exec_once(const struct lb_bench *b, struct lb_tracer *tracer, const char *set,
		       int round, struct lb_run *run, char *err, size_t len)
{
	const struct lb_bench_exec *x = b->exec;
	struct lb_tracer_counts c0 = {0}, c1 = {0};
	struct lb_cpu_snap cpu0, cpu1;
	uint64_t user, sys;
	char name[2][300], why[160];
	int fd[2] = {-1, -1}, ret, wret;
	double t0, t1, metric = 0;
	pid_t pid;

	memset(run, 0, sizeof(*run));
	run->round = round;
	run->samples = calloc(1, sizeof(double));
	if (!run->samples)
		return -ENOMEM;
	for (int i = 0; i < 2; i++) {
		/* The set's name is a file name already (the catalog's rules: no '/'). */
		snprintf(name[i], sizeof(name[i]), "%s-%d.%s", set, round, i ? "err" : "out");
		fd[i] = exec_output_open(b, name[i]);
		if (fd[i] < 0) {
			ret = fd[i];
			snprintf(err, len, "cannot create %s/%s: %s", x->outdir, name[i],
				 strerror(-ret));
			goto out;
		}
	}
	if (tracer) {
		ret = lb_tracer_arm(tracer, err, len);
		if (ret)
			goto out;
	}
	pid = lb_command_spawn(x->command, fd[0], fd[1], err, len);
	if (pid < 0) {
		ret = pid;
		goto out_disarm;
	}
	if (tracer) {
		ret = lb_tracer_attach(tracer, &pid, 1, err, len);
		if (ret)
			goto out_kill;
		ret = lb_tracer_snapshot(tracer, &c0);
		if (ret) {
			snprintf(err, len, "cannot read the tracer's counts: %s", strerror(-ret));
			goto out_kill;
		}
	}
	lb_cpu_snap_take(NULL, &tracer, tracer ? 1 : 0, &cpu0);
	t0 = lb_now();
	ret = lb_command_release(x->command);
	if (ret) {
		snprintf(err, len, "command %s could not be executed: %s", lb_command_path(x->command),
			 strerror(-ret));
		goto out_kill;
	}
	wret = lb_command_wait(x->command, x->timeout, b->stop);
	t1 = lb_now();
	lb_cpu_snap_take(NULL, &tracer, tracer ? 1 : 0, &cpu1);
	if (tracer && (ret = lb_tracer_snapshot(tracer, &c1))) {
		snprintf(err, len, "cannot read the tracer's counts: %s", strerror(-ret));
		goto out_kill;
	}
	if (wret == -EINTR) {
		ret = -EINTR;
		goto out_kill;
	}
	if (wret == -ETIMEDOUT) {
		ret = -ETIMEDOUT;
		snprintf(err, len, "command %s was still running after %g s (--timeout): killed "
			 "with its process group; its output: %s/%s", lb_command_path(x->command),
			 x->timeout, x->outdir, name[0]);
		goto out_kill;
	}
	if (lb_command_result(x->command, why, sizeof(why))) {
		ret = -EIO;
		snprintf(err, len, "command %s %s: read %s/%s", lb_command_path(x->command), why,
			 x->outdir, name[1]);
		goto out_kill;
	}
	/* Its stdout first; then stderr, where dd, time and others report. */
	if (x->metric_src && (ret = exec_metric(b, fd[0], &metric)) == -ENOENT)
		ret = exec_metric(b, fd[1], &metric);
	if (x->metric_src && ret) {
		if (ret == -ENOENT)
			snprintf(err, len, "--metric '%s' found no number above 0 in the command's "
				 "output: read %s/%s and .err", x->metric_src, x->outdir, name[0]);
		goto out_kill;
	}
	run->seconds = t1 - t0;
	if (x->metric_src) {
		run->throughput = metric;
		run->ops = (uint64_t)llround(metric * run->seconds);
	} else {
		run->throughput = run->seconds > 0 ? 1 / run->seconds : 0;
		run->ops = 1;
	}
	if (!run->ops)
		run->ops = 1;
	run->samples[0] = run->throughput;
	run->nsamples = 1;
	run->sample_interval = run->seconds;
	run->events = c1.events - c0.events;
	run->lost_events = c1.lost - c0.lost;
	run->overwritten_events = c1.overwritten - c0.overwritten;
	run->read_events = c1.read - c0.read;
	run->read_bytes = c1.read_bytes - c0.read_bytes;
	/* The workload's CPU: the command's and its descendants' (exact, from wait4). */
	lb_cpu_snap_diff(&cpu0, &cpu1, &run->cpu);
	if (!lb_command_cpu(x->command, &user, &sys)) {
		run->cpu.workload_user_ns = (double)user;
		run->cpu.workload_sys_ns = (double)sys;
		run->cpu.workload_ns = (double)(user + sys);
	}
out_kill:
	lb_command_kill(x->command);
out_disarm:
	if (tracer)
		lb_bench_disarm_collect(tracer, run, &ret, err, len);
out:
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	if (ret) {
		free(run->samples);
		run->samples = NULL;
	}
	return ret;
}

int lb_bench_exec_open(struct lb_bench_exec *x, char *const *argv, const int *cpus,
		       const char *dir, const char *metric, double timeout, char *err, size_t len)
{
	struct lb_command_config cfg = {.argv = argv, .cpus = {cpus[0], cpus[1]}};
	char path[4096];
	int ret, rc;

	memset(x, 0, sizeof(*x));
	x->outdir_fd = -1;
	x->timeout = timeout;
	ret = lb_command_create(&cfg, &x->command, err, len);
	if (ret)
		return ret;
	if (metric) {
		rc = regcomp(&x->metric, metric, REG_EXTENDED);
		if (rc) {
			char why[128];

			regerror(rc, &x->metric, why, sizeof(why));
			snprintf(err, len, "--metric '%s' is not an extended regular expression: %s: "
				 "fix it (e.g. 'Requests/sec: *([0-9.]+)')", metric, why);
			ret = -EINVAL;
			goto fail;
		}
		if (!(x->metric_src = strdup(metric))) {
			regfree(&x->metric);
			ret = -ENOMEM;
			goto fail;
		}
	}
	snprintf(path, sizeof(path), "%s/output", dir);
	/* A results directory of ours, new or emptied: output/ is made here, never followed. */
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, len, "cannot make %s: %s", path, strerror(-ret));
		goto fail;
	}
	x->outdir_fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	x->outdir = strdup(path);
	if (x->outdir_fd < 0 || !x->outdir) {
		ret = x->outdir_fd < 0 ? -errno : -ENOMEM;
		snprintf(err, len, "cannot open %s: %s", path, strerror(-ret));
		goto fail;
	}
	return 0;
fail:
	lb_bench_exec_close(x);
	return ret;
}

void lb_bench_exec_close(struct lb_bench_exec *x)
{
	lb_command_destroy(x->command);
	x->command = NULL;
	if (x->metric_src)
		regfree(&x->metric);
	free(x->metric_src);
	x->metric_src = NULL;
	if (x->outdir_fd >= 0)
		close(x->outdir_fd);
	x->outdir_fd = -1;
	free(x->outdir);
	x->outdir = NULL;
}

char *lb_bench_exec_describe(const struct lb_bench_exec *x, char *const *argv, const int *cpus,
			     char *buf, size_t len)
{
	size_t off;

	snprintf(buf, len, "exec");
	for (size_t i = 0; argv[i] && (off = strlen(buf)) < len; i++)
		snprintf(buf + off, len - off, " %s", i ? argv[i] : lb_command_path(x->command));
	off = strlen(buf);
	if (cpus[0] < 0 && cpus[1] < 0)
		snprintf(buf + off, len - off, " (unpinned)");
	else if (cpus[0] == cpus[1] || cpus[1] < 0)
		snprintf(buf + off, len - off, " (on cpu%d)", cpus[0]);
	else
		snprintf(buf + off, len - off, " (on cpus %d,%d)", cpus[0], cpus[1]);
	return buf;
}
