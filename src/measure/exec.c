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
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "measure_int.h"
#include "command.h"
#include "cpu.h"
#include "util.h"

#define LB_EXEC_OUTPUT_MAX (64u << 20) /* the most of a run's output --metric reads */
#define LB_EXEC_TREE_MAX 256		/* the server's processes told to the tracer */
#define LB_EXEC_READY_POLL_MS 20	/* how often the server's readiness is tried */

/*
 * Opens DIR/output/@name for the command's output (read back for --metric),
 * as a new file. Returns the fd or -errno.
 */
static int exec_output_open(const struct lb_measure_exec *x, const char *name)
{
	int fd = openat(x->outdir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0644);

	return fd < 0 ? -errno : fd;
}

/*
 * The number @re's first group (or whole match, without a group) captures in
 * the file at @fd (its first LB_EXEC_OUTPUT_MAX bytes), into *@v (NULL: only
 * whether it matches). Returns 0, or -ENOENT when it matches nothing or
 * captures no number.
 */
static int exec_match(const regex_t *re, int fd, double *v)
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
	if (regexec(re, buf, 2, m, 0))
		goto out;
	if (!v) { /* a match is all that is asked */
		ret = 0;
		goto out;
	}
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

/*
 * Whether the server (if any) is still running, @when ("before", "during")
 * the run @set-@round. Returns 0, or -ESRCH with a line naming its log.
 */
static int exec_server_check(const struct lb_measure_exec *x, const char *set, int round,
			     const char *when, char *err, size_t len)
{
	char why[160];

	if (!x->server || lb_command_running(x->server))
		return 0;
	lb_command_wait(x->server, 0, NULL); /* reaped: how it ended */
	if (lb_command_result(x->server, why, sizeof(why)) < 0)
		snprintf(why, sizeof(why), "ended");
	snprintf(err, len, "the server %s %s %s run %s-%d: read %s/server.err and server.out",
		 lb_command_path(x->server), why, when, set, round, x->outdir);
	return -ESRCH;
}

int lb_measure_exec_once(const struct lb_measure *b, struct lb_tracer *tracer, const char *set,
		       int round, struct lb_run *run, char *err, size_t len)
{
	const struct lb_measure_exec *x = b->exec;
	struct lb_tracer_counts c0 = {0}, c1 = {0};
	struct lb_cpu_snap cpu0, cpu1;
	uint64_t user, sys;
	char name[2][300], why[160];
	int fd[2] = {-1, -1}, ret, wret, npids;
	double t0, t1, metric = 0, srv0[2] = {0, 0}, srv1[2] = {0, 0};
	pid_t pid, pids[LB_EXEC_TREE_MAX + 1];

	memset(run, 0, sizeof(*run));
	run->round = round;
	run->samples = calloc(1, sizeof(double));
	if (!run->samples)
		return -ENOMEM;
	for (int i = 0; i < 2; i++) {
		/* The set's name is a file name already (the catalog's rules: no '/'). */
		snprintf(name[i], sizeof(name[i]), "%s-%d.%s", set, round, i ? "err" : "out");
		fd[i] = exec_output_open(x, name[i]);
		if (fd[i] < 0) {
			ret = fd[i];
			snprintf(err, len, "cannot create %s/%s: %s", x->outdir, name[i],
				 strerror(-ret));
			goto out;
		}
	}
	ret = exec_server_check(x, set, round, "before", err, len);
	if (ret)
		goto out;
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
	/* The workload: the command and, with a server, every process of the server. */
	pids[0] = pid;
	npids = 1;
	if (x->server)
		npids += lb_command_tree(x->server, pids + 1, LB_EXEC_TREE_MAX);
	if (tracer) {
		ret = lb_tracer_attach(tracer, pids, npids, err, len);
		if (ret)
			goto out_kill;
		ret = lb_tracer_snapshot(tracer, &c0);
		if (ret) {
			snprintf(err, len, "cannot read the tracer's counts: %s",
				 lb_tracer_why(tracer, ret));
			goto out_kill;
		}
	}
	lb_cpu_snap_take(NULL, &tracer, tracer ? 1 : 0, &cpu0);
	lb_cpu_pids_ns(pids + 1, npids - 1, srv0);
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
	lb_cpu_pids_ns(pids + 1, npids - 1, srv1);
	if (tracer && (ret = lb_tracer_snapshot(tracer, &c1))) {
		snprintf(err, len, "cannot read the tracer's counts: %s",
			 lb_tracer_why(tracer, ret));
		goto out_kill;
	}
	if (wret == -EINTR) {
		ret = -EINTR;
		goto out_kill;
	}
	/* A server that died is the cause, whatever the command then did. */
	ret = exec_server_check(x, set, round, "during", err, len);
	if (ret)
		goto out_kill;
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
	if (x->metric_src && (ret = exec_match(&x->metric, fd[0], &metric)) == -ENOENT)
		ret = exec_match(&x->metric, fd[1], &metric);
	if (x->metric_src && ret) {
		if (ret == -ENOENT)
			snprintf(err, len, "--metric '%s' found no number above 0 in the command's "
				 "output: read %s/%s and .err", x->metric_src, x->outdir, name[0]);
		goto out_kill;
	}
	run->seconds = t1 - t0;
	if (x->metric_src && x->metric_lower) {
		/* A time or a latency: the rate it stands for; no operations to count. */
		run->throughput = 1 / metric;
		run->ops = 1;
	} else if (x->metric_src) {
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
	run->bpf_runs = c1.bpf_runs - c0.bpf_runs;
	run->bpf_run_ns = c1.bpf_run_ns - c0.bpf_run_ns;
	run->read_bytes = c1.read_bytes - c0.read_bytes;
	/* The workload's CPU: the command's and its descendants' (exact, from wait4). */
	lb_cpu_snap_diff(&cpu0, &cpu1, &run->cpu);
	if (!lb_command_cpu(x->command, &user, &sys)) {
		/* And the server's, from /proc (its processes of the attach). */
		run->cpu.workload_user_ns = (double)user + fmax(srv1[0] - srv0[0], 0);
		run->cpu.workload_sys_ns = (double)sys + fmax(srv1[1] - srv0[1], 0);
		run->cpu.workload_ns = run->cpu.workload_user_ns + run->cpu.workload_sys_ns;
	}
out_kill:
	lb_command_kill(x->command);
out_disarm:
	if (tracer)
		lb_measure_disarm_collect(tracer, run, &ret, err, len);
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

/*
 * A copy of @argv with every "{output}" in a word replaced by @outdir, into
 * *@out. Returns 0 or -ENOMEM.
 */
static int exec_words(char *const *argv, const char *outdir, char ***out)
{
	static const char key[] = "{output}";
	size_t n = 0, klen = sizeof(key) - 1;
	char **v;

	while (argv[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	*out = v;
	for (size_t i = 0; i < n; i++) {
		const char *w = argv[i], *hit;
		size_t cap = strlen(w) + 1, off = 0;

		for (hit = w; (hit = strstr(hit, key)); hit += klen)
			cap += strlen(outdir);
		if (!(v[i] = malloc(cap)))
			return -ENOMEM;
		while ((hit = strstr(w, key))) {
			memcpy(v[i] + off, w, (size_t)(hit - w));
			off += (size_t)(hit - w);
			memcpy(v[i] + off, outdir, strlen(outdir));
			off += strlen(outdir);
			w = hit + klen;
		}
		memcpy(v[i] + off, w, strlen(w) + 1);
	}
	return 0;
}

static void exec_words_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* Whether something accepts TCP connections on 127.0.0.1:@port now. */
static bool exec_port_accepts(int port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return false;
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

/*
 * --ready @spec parsed: "tcp:PORT" into *@port, or "line:REGEX" compiled
 * into @re (*@line true). Returns 0, or -EINVAL with @err.
 */
static int exec_ready_parse(const char *spec, int *port, regex_t *re, bool *line, char *err,
			    size_t len)
{
	char *end;
	long v;
	int rc;

	if (!strncmp(spec, "tcp:", 4)) {
		errno = 0;
		v = strtol(spec + 4, &end, 10);
		if (errno || end == spec + 4 || *end || v < 1 || v > 65535) {
			snprintf(err, len, "--ready '%s': expected tcp:PORT with PORT from 1 to 65535",
				 spec);
			return -EINVAL;
		}
		*port = (int)v;
		return 0;
	}
	if (!strncmp(spec, "line:", 5) && spec[5]) {
		rc = regcomp(re, spec + 5, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);
		if (rc) {
			char why[128];

			regerror(rc, re, why, sizeof(why));
			snprintf(err, len, "--ready '%s': not an extended regular expression: %s",
				 spec, why);
			return -EINVAL;
		}
		*line = true;
		return 0;
	}
	snprintf(err, len, "--ready '%s': expected tcp:PORT (a port that accepts on 127.0.0.1) or "
		 "line:REGEX (a line of the server's output)", spec);
	return -EINVAL;
}

/*
 * The server started (output in DIR/output/server.out and .err) and waited
 * for until --ready says it is, it exits, cfg->ready_timeout passes or
 * *cfg->stop is set. Returns 0, or -errno with @err (the server killed).
 */
static int exec_server_start(struct lb_measure_exec *x, const struct lb_measure_exec_config *cfg,
			     char *err, size_t len)
{
	struct lb_command_config sc = {.argv = x->argv[1], .cpus = {cfg->cpus[0], cfg->cpus[1]}};
	struct timespec nap = {.tv_sec = 0, .tv_nsec = LB_EXEC_READY_POLL_MS * 1000000L};
	bool line = false, ready = false;
	double end;
	regex_t re;
	int port = 0, ret;
	pid_t pid;

	ret = exec_ready_parse(cfg->ready ? cfg->ready : "", &port, &re, &line, err, len);
	if (ret)
		return ret;
	/* Someone else's server on the port would answer for ours. */
	if (port && exec_port_accepts(port)) {
		snprintf(err, len, "port %d on 127.0.0.1 already accepts connections (another server "
			 "is running there): stop it, or give the server and --ready another port",
			 port);
		ret = -EADDRINUSE;
		goto out;
	}
	ret = lb_command_create(&sc, &x->server, err, len);
	if (ret)
		goto out;
	for (int i = 0; i < 2; i++) {
		x->server_fd[i] = exec_output_open(x, i ? "server.err" : "server.out");
		if (x->server_fd[i] < 0) {
			ret = x->server_fd[i];
			snprintf(err, len, "cannot create %s/server.%s: %s", x->outdir,
				 i ? "err" : "out", strerror(-ret));
			goto out;
		}
	}
	pid = lb_command_spawn(x->server, x->server_fd[0], x->server_fd[1], err, len);
	if (pid < 0) {
		ret = pid;
		goto out;
	}
	ret = lb_command_release(x->server);
	if (ret) {
		snprintf(err, len, "server %s could not be executed: %s", lb_command_path(x->server),
			 strerror(-ret));
		goto out;
	}
	end = lb_now() + cfg->ready_timeout;
	while (!ready) {
		if (cfg->stop && *cfg->stop) {
			ret = -EINTR;
			goto out;
		}
		if (!lb_command_running(x->server)) {
			char why[160];

			lb_command_wait(x->server, 0, NULL); /* reaped: how it ended */
			if (lb_command_result(x->server, why, sizeof(why)) < 0)
				snprintf(why, sizeof(why), "ended");
			snprintf(err, len, "the server %s %s before it was ready (--ready %s): read "
				 "%s/server.err and server.out", lb_command_path(x->server), why,
				 cfg->ready, x->outdir);
			ret = -ESRCH;
			goto out;
		}
		if (port)
			ready = exec_port_accepts(port);
		else
			ready = !exec_match(&re, x->server_fd[0], NULL) ||
				!exec_match(&re, x->server_fd[1], NULL);
		if (ready)
			break;
		if (lb_now() >= end) {
			snprintf(err, len, "the server %s was not ready after %g s (--ready %s): "
				 "killed; read %s/server.err and server.out", lb_command_path(x->server),
				 cfg->ready_timeout, cfg->ready, x->outdir);
			ret = -ETIMEDOUT;
			goto out;
		}
		nanosleep(&nap, NULL);
	}
out:
	if (line)
		regfree(&re);
	return ret;
}

int lb_measure_exec_open(struct lb_measure_exec *x, const struct lb_measure_exec_config *cfg,
		       char *err, size_t len)
{
	struct lb_command_config cc = {.cpus = {cfg->cpus[0], cfg->cpus[1]}};
	char path[4096];
	int ret, rc;

	memset(x, 0, sizeof(*x));
	x->outdir_fd = x->server_fd[0] = x->server_fd[1] = -1;
	x->timeout = cfg->timeout;
	x->metric_lower = cfg->metric_lower;
	snprintf(path, sizeof(path), "%s/output", cfg->dir);
	x->outdir = strdup(path);
	if (!x->outdir || exec_words(cfg->argv, path, &x->argv[0]) ||
	    (cfg->server_argv && exec_words(cfg->server_argv, path, &x->argv[1]))) {
		snprintf(err, len, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	cc.argv = x->argv[0];
	ret = lb_command_create(&cc, &x->command, err, len);
	if (ret)
		goto fail;
	if (cfg->metric) {
		rc = regcomp(&x->metric, cfg->metric, REG_EXTENDED);
		if (rc) {
			char why[128];

			regerror(rc, &x->metric, why, sizeof(why));
			snprintf(err, len, "--metric '%s' is not an extended regular expression: %s: "
				 "fix it (e.g. 'Requests/sec: *([0-9.]+)')", cfg->metric, why);
			ret = -EINVAL;
			goto fail;
		}
		if (!(x->metric_src = strdup(cfg->metric))) {
			regfree(&x->metric);
			ret = -ENOMEM;
			goto fail;
		}
	}
	/* A results directory of ours, new or emptied: output/ is made here, never followed. */
	if (mkdirat(cfg->dirfd, "output", 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, len, "cannot make %s: %s", path, strerror(-ret));
		goto fail;
	}
	x->outdir_fd = openat(cfg->dirfd, "output", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (x->outdir_fd < 0) {
		ret = -errno;
		snprintf(err, len, "cannot open %s: %s", path, strerror(-ret));
		goto fail;
	}
	if (cfg->server_argv) {
		ret = exec_server_start(x, cfg, err, len);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	lb_measure_exec_close(x);
	return ret;
}

void lb_measure_exec_close(struct lb_measure_exec *x)
{
	/* The server first: asked to stop (SIGTERM), told after 1 s (SIGKILL). */
	lb_command_destroy(x->server);
	x->server = NULL;
	for (int i = 0; i < 2; i++) {
		if (x->server_fd[i] >= 0)
			close(x->server_fd[i]);
		x->server_fd[i] = -1;
		exec_words_free(x->argv[i]);
		x->argv[i] = NULL;
	}
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

/* Append @argv (its first word @path) to @buf, quoting a word with a blank in '...'. */
static void describe_words(char *buf, size_t len, char *const *argv, const char *path)
{
	size_t off;

	for (size_t i = 0; argv[i] && (off = strlen(buf)) < len; i++) {
		const char *w = i ? argv[i] : path;

		snprintf(buf + off, len - off, strpbrk(w, " \t") ? " '%s'" : " %s", w);
	}
}

/* Append where @cpus place a process to @buf. */
static void describe_cpus(char *buf, size_t len, const int *cpus)
{
	size_t off = strlen(buf);

	if (off >= len)
		return;
	if (cpus[0] < 0 && cpus[1] < 0)
		snprintf(buf + off, len - off, " (unpinned)");
	else if (cpus[0] == cpus[1] || cpus[1] < 0)
		snprintf(buf + off, len - off, " (on cpu%d)", cpus[0]);
	else
		snprintf(buf + off, len - off, " (on cpus %d,%d)", cpus[0], cpus[1]);
}

char *lb_measure_exec_describe(const struct lb_measure_exec *x, const int *cpus, char *buf,
			     size_t len)
{
	size_t off;

	snprintf(buf, len, "exec");
	describe_words(buf, len, x->argv[0], lb_command_path(x->command));
	describe_cpus(buf, len, cpus);
	if (!x->server)
		return buf;
	off = strlen(buf);
	if (off < len)
		snprintf(buf + off, len - off, "; server");
	describe_words(buf, len, x->argv[1], lb_command_path(x->server));
	describe_cpus(buf, len, cpus);
	return buf;
}
