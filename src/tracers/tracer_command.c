// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command tracer: the tracer is a program people deploy (bpftrace, perf
 * trace, a libbpf-tools program, an agent), started from a probe set's
 * `start' line and measured like the built-in tracers (probeset.h has the
 * lines).
 *
 * The tool runs under loadbench's keeper (command.h, as the exec workload's
 * command): in a process group of its own, what it leaves behind killed
 * when it ends, and all of it when loadbench dies, SIGKILL included. Its
 * output goes to a pipe a reader thread of loadbench reads: a line matching
 * `ready line:' makes it ready, lines matching `events regex:' are counted,
 * the last lines are kept for the messages. To stop, its group gets the
 * `stop' signal, and SIGKILL after the stop timeout. Its CPU time is its
 * own process's and the reader's (not its children's: cmd_cpu_clocks()).
 *
 * Without {pid} or {pids} in its command line the tool starts at arm, before
 * the workload; with them, at attach. `events bpf' turns on the kernel's BPF
 * run-time statistics for the armed time (bpf_stats.h), finds the programs
 * the tool's process tree holds, and counts their runs; the statistics add
 * two clock reads to every run of every BPF program, the tool's included,
 * so a tool measured that way costs that much more than it would.
 *
 * --method alternate: off is the tool stopped, its process group gone and,
 * with `events bpf', every program it held unloaded (checked); on is a new
 * start, ready again. Counts stay cumulative since arm.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bpf_stats.h"
#include "command.h"
#include "tracer.h"
#include "unavailable.h"
#include "util.h"
#include "words.h"

#define CMD_READY_WITHIN 30.0		/* seconds to get ready, by default */
#define CMD_STOP_WITHIN 5.0		/* seconds from the stop signal to SIGKILL, by default */
#define CMD_BPF_STEADY 0.3		/* ready bpf: its programs unchanged this long */
#define CMD_GONE_WITHIN 2.0		/* seconds a stopped tool's BPF programs have to go */
#define CMD_MAX_PIDS 64			/* workload processes it is told of */
#define CMD_MAX_TREE 64			/* processes of the tool's tree looked at */
#define CMD_MAX_PROGS 256		/* BPF programs followed */
#define CMD_TAIL 6			/* output lines kept for messages */
#define CMD_TAIL_LEN 200
#define CMD_LINE_MAX 4096		/* longer output lines are matched cut */

enum cmd_ready { READY_STARTED, READY_LINE, READY_DELAY, READY_FILE, READY_BPF };
enum cmd_events { EVENTS_NONE, EVENTS_REGEX, EVENTS_BPF };

struct cmd_prog {
	uint32_t id;
	uint64_t runs, ns;		/* as last read: kept once it is gone */
};

struct cmd {
	const struct lb_probeset *ps;
	char **argv;			/* the start line's words, {pid}s unreplaced */
	bool wants_pids;
	enum cmd_ready ready;
	regex_t ready_rx, events_rx;
	bool ready_rx_ok, events_rx_ok;
	double ready_delay, ready_within, stop_within;
	const char *ready_file;
	int stop_signal;
	enum cmd_events events;
	pid_t pids[CMD_MAX_PIDS];
	int npids;
	bool attached, armed;

	/* One start of the tool: */
	struct lb_command *tool;	/* NULL when it is not running */
	pid_t tool_pid;			/* its process (group leader) */
	pthread_t reader;
	bool reader_on;
	int out;			/* read end of its output */
	_Atomic int line_ready;		/* a line matched `ready line:' */
	_Atomic uint64_t matches;	/* lines that matched `events regex:', since arm */
	pthread_mutex_t tail_lock;
	unsigned tail_next;
	char tail[CMD_TAIL][CMD_TAIL_LEN];
	bool died_said;
	char failure[1024];		/* why the last snapshot failed; "" */

	int stats_fd;			/* BPF_ENABLE_STATS, -1 when not on */
	struct cmd_prog progs[CMD_MAX_PROGS];	/* those of the tool's current start */
	int nprogs;
	uint64_t retired_runs, retired_ns;	/* of its earlier starts' programs, all gone */
	bool progs_full_said;
};

static const char *cmd_name(const struct cmd *c)
{
	const char *base = strrchr(c->argv[0], '/');

	return base ? base + 1 : c->argv[0];
}

/* "; it printed last: A | B" or "; it printed nothing", for messages. */
static const char *cmd_said(struct cmd *c, char *buf, size_t len)
{
	size_t off;

	pthread_mutex_lock(&c->tail_lock);
	off = (size_t)snprintf(buf, len, "; it printed %s", c->tail_next ? "last: " : "nothing");
	for (unsigned i = c->tail_next > CMD_TAIL ? c->tail_next - CMD_TAIL : 0;
	     i < c->tail_next && off + 1 < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s",
				 i > (c->tail_next > CMD_TAIL ? c->tail_next - CMD_TAIL : 0) ?
				 " | " : "", c->tail[i % CMD_TAIL]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	pthread_mutex_unlock(&c->tail_lock);
	return buf;
}

static int cmd_available(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;	/* what a set needs (its tool, root, libbpf) is its own: create says */
}

static void cmd_destroy(void *priv);

static int cmd_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
		      void **priv, char *err, size_t len)
{
	struct lb_command_config cfg = { .cpus = { -1, -1 } };
	struct lb_command *probe = NULL;
	struct cmd *c;
	int ret;

	(void)opts;
	if (!ps->start) {
		snprintf(err, len, "%s:%d: tracer command needs a 'start' line: the tool's "
			 "command line, e.g. start bpftrace -e '...'", ps->path, ps->tracer_line);
		return -EINVAL;
	}
	if (ps->nprobes) {
		snprintf(err, len, "%s:%d: tracer command runs the tool's own probes: remove "
			 "this line (the tool's command line says what it traces)", ps->path,
			 ps->probes[0].line);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, len, "tracer command: out of memory");
		return -ENOMEM;
	}
	c->ps = ps;
	c->out = -1;
	c->stats_fd = -1;
	pthread_mutex_init(&c->tail_lock, NULL);
	ret = lb_words_split(ps->start, NULL, &c->argv);
	if (ret < 0) {
		snprintf(err, len, "%s:%d: bad 'start' command line", ps->path, ps->start_line);
		goto fail;
	}
	c->wants_pids = strstr(ps->start, "{pid}") || strstr(ps->start, "{pids}");
	c->ready_within = ps->ready_within > 0 ? ps->ready_within : CMD_READY_WITHIN;
	c->stop_within = ps->stop_within > 0 ? ps->stop_within : CMD_STOP_WITHIN;
	c->stop_signal = ps->stop_signal ? ps->stop_signal : SIGINT;
	ret = -EINVAL;
	if (!ps->ready) {
		c->ready = READY_STARTED;
	} else if (!strncmp(ps->ready, "line:", 5)) {
		c->ready = READY_LINE;
		c->ready_rx_ok = !regcomp(&c->ready_rx, ps->ready + 5, REG_EXTENDED | REG_NOSUB);
		if (!c->ready_rx_ok) {
			snprintf(err, len, "%s:%d: bad regex", ps->path, ps->ready_line);
			goto fail;
		}
	} else if (!strncmp(ps->ready, "delay:", 6)) {
		c->ready = READY_DELAY;
		c->ready_delay = strtod(ps->ready + 6, NULL);
	} else if (!strncmp(ps->ready, "file:", 5)) {
		c->ready = READY_FILE;
		c->ready_file = ps->ready + 5;
	} else {
		c->ready = READY_BPF;
	}
	if (!ps->events || !strcmp(ps->events, "none")) {
		c->events = EVENTS_NONE;
	} else if (!strncmp(ps->events, "regex:", 6)) {
		c->events = EVENTS_REGEX;
		c->events_rx_ok = !regcomp(&c->events_rx, ps->events + 6, REG_EXTENDED | REG_NOSUB);
		if (!c->events_rx_ok) {
			snprintf(err, len, "%s:%d: bad regex", ps->path, ps->events_line);
			goto fail;
		}
	} else {
		c->events = EVENTS_BPF;
	}
	/* The tool found now, as it will be at every start: else the set cannot run here. */
	cfg.argv = c->argv;
	ret = lb_command_create(&cfg, &probe, err, len);
	lb_command_destroy(probe);
	if (ret == -ENOENT) {
		lb_unavailable_say(LB_UNAVAIL_TOOL, err, len, "probe set %s cannot run here: %s "
				   "is not installed (not found on PATH); install it (scripts/bootstrap "
				   "installs the catalog's tools)", ps->name, c->argv[0]);
		goto fail;
	}
	if (ret)
		goto fail;
	if (geteuid()) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, err, len, "probe set %s cannot run here: "
				   "tracer command runs %s as root and reads its BPF programs: run "
				   "loadbench as root", ps->name, c->argv[0]);
		ret = -EPERM;
		goto fail;
	}
	if (c->events == EVENTS_BPF && !lb_bpf_stats_built()) {
		lb_unavailable_say(LB_UNAVAIL_LIBBPF, err, len, "probe set %s cannot run here: "
				   "'events bpf' reads the kernel's BPF statistics through libbpf, and "
				   "loadbench was built without it (install libbpf-dev clang, re-run "
				   "configure)", ps->name);
		ret = -EOPNOTSUPP;
		goto fail;
	}
	*priv = c;
	return 0;
fail:
	cmd_destroy(c);
	return ret;
}

/* The reader: a line of the tool's output. */
static void cmd_line(struct cmd *c, const char *line)
{
	pthread_mutex_lock(&c->tail_lock);
	snprintf(c->tail[c->tail_next % CMD_TAIL], CMD_TAIL_LEN, "%s", line);
	c->tail_next++;
	pthread_mutex_unlock(&c->tail_lock);
	if (c->ready == READY_LINE && !atomic_load(&c->line_ready) &&
	    !regexec(&c->ready_rx, line, 0, NULL, 0))
		atomic_store(&c->line_ready, 1);
	if (c->events == EVENTS_REGEX && !regexec(&c->events_rx, line, 0, NULL, 0))
		atomic_fetch_add(&c->matches, 1);
}

/* The reader thread: the tool's output, line by line, to its end (the keeper's exit). */
static void *cmd_reader(void *arg)
{
	struct cmd *c = arg;
	char buf[CMD_LINE_MAX + 1];
	size_t have = 0;

	for (;;) {
		ssize_t got = read(c->out, buf + have, CMD_LINE_MAX - have);
		char *nl;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		have += (size_t)got;
		while ((nl = memchr(buf, '\n', have)) || have == CMD_LINE_MAX) {
			size_t n = nl ? (size_t)(nl - buf) : have;

			buf[n] = '\0';
			cmd_line(c, buf);
			n += nl ? 1 : 0;
			memmove(buf, buf + n, have - n);
			have -= n;
		}
	}
	if (have) {	/* a last line without a newline */
		buf[have] = '\0';
		cmd_line(c, buf);
	}
	return NULL;
}

/* The workload's pids as {pid} and {pids} in a copy of the start line's words, into *@out. */
static int cmd_argv(const struct cmd *c, char ***out)
{
	char one[16], all[CMD_MAX_PIDS * 12] = "";
	char **v;
	int n = 0, ret;

	while (c->argv[n])
		n++;
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		if (!(v[i] = strdup(c->argv[i]))) {
			lb_words_free(v);
			return -ENOMEM;
		}
	snprintf(one, sizeof(one), "%d", c->npids ? (int)c->pids[0] : 0);
	for (int i = 0, off = 0; i < c->npids; i++)
		off += snprintf(all + off, sizeof(all) - (size_t)off, "%s%d", i ? "," : "",
				(int)c->pids[i]);
	ret = lb_words_subst(v, "{pids}", all);
	if (ret >= 0)
		ret = lb_words_subst(v, "{pid}", one);
	if (ret < 0) {
		lb_words_free(v);
		return ret;
	}
	*out = v;
	return 0;
}

/* The BPF programs the running tool's process tree holds, into @ids; how many. */
static int cmd_progs_held(struct cmd *c, uint32_t *ids, int max)
{
	pid_t tree[CMD_MAX_TREE];
	int n = c->tool ? lb_command_tree(c->tool, tree, CMD_MAX_TREE) : 0;

	return n > 0 ? lb_bpf_progs_held(tree, n, ids, max) : 0;
}

/*
 * The counts of every BPF program the tool holds (@find: looked for again
 * in its tree) or held since arm, into c->progs: one gone keeps its last.
 */
static void cmd_progs_read(struct cmd *c, bool find)
{
	uint32_t ids[CMD_MAX_PROGS];
	int n = find ? cmd_progs_held(c, ids, CMD_MAX_PROGS) : 0;

	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < c->nprogs && c->progs[k].id != ids[i]; k++)
			;
		if (k < c->nprogs)
			continue;
		if (c->nprogs < CMD_MAX_PROGS) {
			c->progs[c->nprogs++] = (struct cmd_prog){ .id = ids[i] };
		} else if (!c->progs_full_said) {
			lb_warn("%s: %s holds more than %d BPF programs: the runs of the others are "
				"not counted", c->ps->name, cmd_name(c), CMD_MAX_PROGS);
			c->progs_full_said = true;
		}
	}
	for (int k = 0; k < c->nprogs; k++) {
		uint64_t runs, ns;

		if (!lb_bpf_prog_stats(c->progs[k].id, &runs, &ns) && runs >= c->progs[k].runs) {
			c->progs[k].runs = runs;
			c->progs[k].ns = ns;
		}
	}
}

/* The tool ended: reap it (its status) and its reader, which then has read it all. */
static void cmd_reap(struct cmd *c)
{
	lb_command_stop(c->tool, SIGKILL, 0);
	if (c->reader_on)
		pthread_join(c->reader, NULL);
	c->reader_on = false;
}

/* Sleep @s seconds. */
static void nap(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/*
 * Stop the tool (its `stop' signal, SIGKILL after the timeout), reap it and
 * its reader; with `events bpf', check that every program it held is gone.
 * Returns 0; -ETIMEDOUT when it had to be killed (said); -EBUSY when a
 * program stayed loaded (in @err).
 */
static int cmd_stop(struct cmd *c, char *err, size_t len)
{
	char said[800], how[160];
	double t0 = lb_now();
	int ret = 0;

	if (!c->tool)
		return 0;
	if (c->events == EVENTS_BPF)
		cmd_progs_read(c, true);	/* the last counts before its programs go */
	if (!lb_command_running(c->tool) && !c->died_said) {
		lb_command_result(c->tool, how, sizeof(how));
		lb_warn("%s: %s %s during the run%s", c->ps->name, cmd_name(c), how,
			cmd_said(c, said, sizeof(said)));
		c->died_said = true;
	}
	if (lb_command_stop(c->tool, c->stop_signal, c->stop_within) == 1) {
		lb_warn("%s: %s did not end within %g s of %s and was killed, with its process "
			"group%s", c->ps->name, cmd_name(c), c->stop_within,
			sigabbrev_np(c->stop_signal) ? sigabbrev_np(c->stop_signal) : "its signal",
			cmd_said(c, said, sizeof(said)));
		ret = -ETIMEDOUT;
	}
	/* Its keeper is gone, and with it the last writer of the pipe: the reader ends. */
	if (c->reader_on)
		pthread_join(c->reader, NULL);
	c->reader_on = false;
	if (c->out >= 0)
		close(c->out);
	c->out = -1;
	lb_command_destroy(c->tool);
	c->tool = NULL;
	/* Off is off: every program it held unloaded (freed after their last user). */
	for (int k = 0; k < c->nprogs; k++) {
		uint64_t runs, ns;

		while (!lb_bpf_prog_stats(c->progs[k].id, &runs, &ns)) {
			if (lb_now() > t0 + c->stop_within + CMD_GONE_WITHIN) {
				snprintf(err, len, "%s: BPF program %u of %s is still loaded %.1f s "
					 "after %s ended: off is not off (does another process hold "
					 "it?)", c->ps->name, c->progs[k].id, cmd_name(c),
					 lb_now() - t0, cmd_name(c));
				return -EBUSY;
			}
			nap(0.01);
		}
	}
	/* All gone: their last counts stay in the sum, and the next start's programs get the list. */
	for (int k = 0; k < c->nprogs; k++) {
		c->retired_runs += c->progs[k].runs;
		c->retired_ns += c->progs[k].ns;
	}
	c->nprogs = 0;
	return ret;
}

/* Whether the running tool is ready, as its `ready' line says. */
static bool cmd_ready(struct cmd *c, double t0, double *steady_at, int *nprogs)
{
	uint32_t ids[CMD_MAX_PROGS];
	double now = lb_now();
	struct stat st;
	int n;

	switch (c->ready) {
	case READY_STARTED:
		return true;
	case READY_LINE:
		return atomic_load(&c->line_ready);
	case READY_DELAY:
		return now - t0 >= c->ready_delay;
	case READY_FILE:
		return !lstat(c->ready_file, &st);
	case READY_BPF:
		n = cmd_progs_held(c, ids, CMD_MAX_PROGS);
		if (n != *nprogs) {
			*nprogs = n;
			*steady_at = now + CMD_BPF_STEADY;
		}
		return n >= (c->ps->ready_nprogs ? c->ps->ready_nprogs : 1) && now >= *steady_at;
	}
	return false;
}

/* Start the tool and wait until it is ready. 0, or -errno with the reason in @err (stopped). */
static int cmd_start(struct cmd *c, char *err, size_t len)
{
	struct lb_command_config cfg = { .cpus = { -1, -1 } };
	char **argv = NULL, said[800], how[160], ignored[256];
	double t0 = lb_now(), steady_at = 0;
	int fds[2] = { -1, -1 }, ret, nprogs = -1;
	pid_t pid;

	ret = cmd_argv(c, &argv);
	if (ret) {
		snprintf(err, len, "out of memory");
		return ret;
	}
	cfg.argv = argv;
	ret = lb_command_create(&cfg, &c->tool, err, len);
	lb_words_free(argv);	/* create keeps a copy */
	if (ret)
		return ret;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(err, len, "cannot create a pipe for %s: %s", cmd_name(c), strerror(-ret));
		goto fail;
	}
	atomic_store(&c->line_ready, 0);
	pthread_mutex_lock(&c->tail_lock);
	c->tail_next = 0;
	pthread_mutex_unlock(&c->tail_lock);
	c->died_said = false;
	pid = lb_command_spawn(c->tool, fds[1], fds[1], err, len);
	close(fds[1]);
	c->out = fds[0];
	if (pid < 0) {
		ret = (int)pid;
		goto fail;
	}
	c->tool_pid = pid;
	ret = pthread_create(&c->reader, NULL, cmd_reader, c);
	if (ret) {
		ret = -ret;
		snprintf(err, len, "cannot start the output reader of %s: %s", cmd_name(c),
			 strerror(-ret));
		goto fail;
	}
	c->reader_on = true;
	ret = lb_command_release(c->tool);
	if (ret) {
		snprintf(err, len, "cannot run %s: %s", lb_command_path(c->tool), strerror(-ret));
		goto fail;
	}
	for (;;) {
		if (!lb_command_running(c->tool)) {
			cmd_reap(c);
			lb_command_result(c->tool, how, sizeof(how));
			snprintf(err, len, "%s %s before it was ready%s", cmd_name(c), how, cmd_said(c, said, sizeof(said)));
			c->died_said = true;
			ret = -ECHILD;
			goto fail;
		}
		if (cmd_ready(c, t0, &steady_at, &nprogs))
			break;
		if (lb_now() - t0 > c->ready_within) {
			snprintf(err, len, "%s did not get ready (%s) within %g s, and was "
				 "stopped%s; give it longer with 'ready-within SEC'", cmd_name(c), c->ps->ready ? c->ps->ready : "started", c->ready_within,
				 cmd_said(c, said, sizeof(said)));
			ret = -ETIMEDOUT;
			goto fail;
		}
		nap(0.005);
	}
	if (c->events == EVENTS_BPF)
		cmd_progs_read(c, true);
	return 0;
fail:
	c->died_said = true;	/* said in @err */
	cmd_stop(c, ignored, sizeof(ignored));
	return ret;
}

static int cmd_arm(void *priv, char *err, size_t len)
{
	struct cmd *c = priv;
	int ret;

	atomic_store(&c->matches, 0);
	c->nprogs = 0;
	c->retired_runs = c->retired_ns = 0;
	if (c->events == EVENTS_BPF) {
		ret = lb_bpf_stats_enable(err, len);
		if (ret < 0)
			return ret;
		c->stats_fd = ret;
	}
	c->armed = true;
	c->attached = false;
	return c->wants_pids ? 0 : cmd_start(c, err, len);
}

static int cmd_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct cmd *c = priv;

	c->npids = n < CMD_MAX_PIDS ? n : CMD_MAX_PIDS;
	memcpy(c->pids, pids, (size_t)c->npids * sizeof(*pids));
	c->attached = true;
	return c->wants_pids ? cmd_start(c, err, len) : 0;
}

static int cmd_enable(void *priv, char *err, size_t len)
{
	struct cmd *c = priv;

	if (c->tool)
		return 0;
	if (c->wants_pids && !c->attached) {
		snprintf(err, len, "%s: the workload's pids are not known yet", c->ps->name);
		return -EINVAL;
	}
	return cmd_start(c, err, len);
}

static int cmd_disable(void *priv, char *err, size_t len)
{
	struct cmd *c = priv;
	int ret = cmd_stop(c, err, len);

	return ret == -ETIMEDOUT ? 0 : ret;	/* killed, and said: off all the same */
}

static int cmd_snapshot(void *priv, struct lb_tracer_counts *cnt)
{
	struct cmd *c = priv;

	memset(cnt, 0, sizeof(*cnt));
	c->failure[0] = '\0';
	if (c->tool && !lb_command_running(c->tool)) {
		char said[800], how[160];

		/* Said once, by the orchestrator's error (the failure op). */
		cmd_reap(c);
		lb_command_result(c->tool, how, sizeof(how));
		snprintf(c->failure, sizeof(c->failure), "%s %s during the run%s", cmd_name(c),
			 how, cmd_said(c, said, sizeof(said)));
		c->died_said = true;
		return -ECHILD;
	}
	if (c->events == EVENTS_REGEX) {
		cnt->events = atomic_load(&c->matches);
	} else if (c->events == EVENTS_BPF) {
		/*
		 * The programs found once it was ready (and again at its stop),
		 * read by ID: a snapshot sits between two reads of the workload's
		 * operations, no place to walk its process tree in /proc.
		 */
		cmd_progs_read(c, false);
		cnt->bpf_runs = c->retired_runs;
		cnt->bpf_run_ns = c->retired_ns;
		for (int k = 0; k < c->nprogs; k++) {
			cnt->bpf_runs += c->progs[k].runs;
			cnt->bpf_run_ns += c->progs[k].ns;
		}
		cnt->events = cnt->bpf_runs;
	}
	return 0;
}

static const char *cmd_failure(void *priv)
{
	struct cmd *c = priv;

	return *c->failure ? c->failure : NULL;
}

static int cmd_disarm(void *priv)
{
	struct cmd *c = priv;
	char err[512];
	int ret;

	if (!c->armed)
		return 0;
	ret = cmd_stop(c, err, sizeof(err));
	if (ret == -EBUSY)
		lb_warn("%s", err);
	if (c->stats_fd >= 0)
		close(c->stats_fd);
	c->stats_fd = -1;
	c->armed = false;
	return ret == -ETIMEDOUT ? 0 : ret;
}

/*
 * The CPU clocks of the tool's own process (all its threads) and of the
 * reader thread. Not its children's: a short-lived one (a shell's sleep)
 * can be gone between the clock's lookup and its read, and a window whose
 * clock cannot be read has no tracer CPU at all (seen under ASan, where
 * everything is slower). The tools of the catalog are one process each.
 */
static int cmd_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	struct cmd *c = priv;
	int n = 0;

	if (!c->tool)
		return 0;
	if (c->reader_on && n < max && !pthread_getcpuclockid(c->reader, &clk[n]))
		n++;
	if (c->tool_pid > 0 && n < max && !clock_getcpuclockid(c->tool_pid, &clk[n]))
		n++;
	return n;
}

static void cmd_destroy(void *priv)
{
	struct cmd *c = priv;

	if (!c)
		return;
	cmd_disarm(c);
	if (c->ready_rx_ok)
		regfree(&c->ready_rx);
	if (c->events_rx_ok)
		regfree(&c->events_rx);
	lb_words_free(c->argv);
	pthread_mutex_destroy(&c->tail_lock);
	free(c);
}

const struct lb_tracer_ops lb_tracer_command = {
	.name = "command",
	.available = cmd_available,
	.create = cmd_create,
	.arm = cmd_arm,
	.attach = cmd_attach,
	.snapshot = cmd_snapshot,
	.failure = cmd_failure,
	.enable = cmd_enable,
	.disable = cmd_disable,
	.disarm = cmd_disarm,
	.cpu_clocks = cmd_cpu_clocks,
	.destroy = cmd_destroy,
};
