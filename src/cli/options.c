// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run command's options: the table behind getopt_long and --help, and
 * their parsing and checks.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadgen.h"
#include "options.h"
#include "plot.h"
#include "run.h"
#include "tracer.h"
#include "util.h"

/* How loadgen's messages name its configuration: by the options that set it. */
static const struct lb_workload_naming cli_naming = {
	.field = {
		[LB_WF_NAME] = "--workload",
		[LB_WF_ADDR] = "--addr",
		[LB_WF_PORT] = "--port",
		[LB_WF_MSG_SIZE] = "--msg-size",
		[LB_WF_SYSCALLS_PER_OP] = "--syscalls-per-op",
		[LB_WF_SERVER_CPU] = "--cpus",
		[LB_WF_CLIENT_CPU] = "--cpus",
		[LB_WF_WINDOW] = "--window",
		[LB_WF_FLOWS] = "--flows",
		[LB_WF_TOPOLOGY] = "--topology",
		[LB_WF_ENGINE] = "--engine",
		[LB_WF_RATE] = "--rate",
	},
	.unpinned = "--cpus none",
};

enum {
	OPT_WORKLOAD = 256,
	OPT_SYSCALLS_PER_OP,
	OPT_MSG_SIZE,
	OPT_CPUS,
	OPT_PORT,
	OPT_ADDR,
	OPT_BUFFER_KB,
	OPT_MODE,
	OPT_SAMPLE_INTERVAL,
	OPT_FORCE,
	OPT_NO_PLOT,
	OPT_SKIP_UNAVAILABLE,
	OPT_FLOWS,
	OPT_TOPOLOGY,
	OPT_WINDOW,
	OPT_RATE,
	OPT_METRIC,
	OPT_METRIC_LOWER,
	OPT_TIMEOUT,
	OPT_SERVER,
	OPT_READY,
	OPT_READY_TIMEOUT,
	OPT_COUNT_WITH,
	OPT_ENGINE,
	OPT_ALONE,
	OPT_METHOD,
	OPT_SLICE,
	OPT_SETTLE,
	OPT_PRECISION,
	OPT_MAX_TIME,
	OPT_TIME_BUDGET,
	OPT_SWEEP,
	OPT_ALLOW_CONCURRENT,
	OPT_STYLE,
};

struct lb_option {
	struct option opt;
	const char *arg;	/* argument name for --help, NULL when none */
	const char *help;
};

/* The one table behind getopt_long and --help. */
static const struct lb_option options[] = {
	{ { "probeset", required_argument, NULL, 'p' }, "LIST",
	  "probe sets to measure: catalog names or .probeset paths, comma-separated, repeatable; "
	  "'none' = baseline only (default: every catalog probe set that runs here); a named "
	  "set with a 'compare-with' line brings along the set it builds on (lttng+kprobe: "
	  "lttng); an empty list or item (',,') is an error" },
	{ { "alone", no_argument, NULL, OPT_ALONE }, NULL,
	  "measure only the probe sets named, not the sets their 'compare-with' lines add" },
	{ { "duration", required_argument, NULL, 'd' }, "SEC",
	  "measured seconds per run, --method runs (default 2)" },
	{ { "warmup", required_argument, NULL, 'w' }, "SEC",
	  "seconds of load before each measured window (default 0.5)" },
	{ { "repeat", required_argument, NULL, 'r' }, "N",
	  "rounds; each round runs the baseline then every probe set (default 5)" },
	{ { "workload", required_argument, NULL, OPT_WORKLOAD }, "NAME",
	  "workload: udp-rr, tcp-rr, icmp-flood (root), udp-stream, pcap-flood (root, libpcap; "
	  "::1), or exec: the command after -- (loadbench [OPTIONS] --workload exec -- CMD "
	  "[ARGS...]), run to completion once per run, pinned per --cpus, or a recipe of "
	  "workloads/ run as exec (hackbench, nginx, redis, stress-ng-cpu) (default udp-rr)" },
	{ { "metric", required_argument, NULL, OPT_METRIC }, "REGEX",
	  "exec: the throughput is the number REGEX's first group (or match) finds in the "
	  "command's stdout (else its stderr), higher is better (e.g. 'Requests/sec: *([0-9.]+)'); without it, "
	  "1 / the seconds the command took" },
	{ { "metric-lower-is-better", no_argument, NULL, OPT_METRIC_LOWER }, NULL,
	  "exec with --metric: the number is a time or a latency, lower being better: a run's "
	  "throughput is 1 / it, and events/op are per run" },
	{ { "timeout", required_argument, NULL, OPT_TIMEOUT }, "SEC",
	  "exec: a run still going after SEC seconds fails, its process group killed "
	  "(default 600)" },
	{ { "server", required_argument, NULL, OPT_SERVER }, "'CMD ARGS'",
	  "exec: a long-lived server started once before the runs (its words split on blanks, "
	  "'...' quoting, no shell; {output} is the results' output/ directory), waited for "
	  "(--ready), part of the workload the per-process sets follow, checked alive after every "
	  "run, stopped (SIGTERM) at the end; its output in output/server.out and .err" },
	{ { "ready", required_argument, NULL, OPT_READY }, "tcp:PORT|line:REGEX",
	  "exec with --server: the server is ready when 127.0.0.1:PORT accepts a connection, or "
	  "when a line of its output matches REGEX" },
	{ { "ready-timeout", required_argument, NULL, OPT_READY_TIMEOUT }, "SEC",
	  "exec with --server: a server not ready after SEC seconds is killed and named "
	  "(default 30)" },
	{ { "window", required_argument, NULL, OPT_WINDOW }, "N",
	  "icmp-flood: echo requests kept outstanding, 1-1024 (default 1, like ping -f)" },
	{ { "rate", required_argument, NULL, OPT_RATE }, "OPS",
	  "udp-rr, tcp-rr, icmp-flood: open loop, each flow sends OPS requests per second on "
	  "a fixed schedule and times each from its scheduled send (no coordinated omission); late "
	  "sends are counted (default 0: closed loop)" },
	{ { "count-with", required_argument, NULL, OPT_COUNT_WITH }, "pcap|none",
	  "also count the workload's delivered packets with a libpcap capture on lo (root), "
	  "recorded per run beside the workload's own count (default none)" },
	{ { "engine", required_argument, NULL, OPT_ENGINE }, "syscall|uring",
	  "server engine of udp-rr, tcp-rr and udp-stream: plain blocking syscalls, or io_uring "
	  "(multishot recv from a buffer ring where the kernel has it; needs liburing) "
	  "(default syscall)" },
	{ { "syscalls-per-op", required_argument, NULL, OPT_SYSCALLS_PER_OP }, "N",
	  "extra real syscalls the server makes per request (default 4)" },
	{ { "msg-size", required_argument, NULL, OPT_MSG_SIZE }, "BYTES",
	  "request and reply payload size (default 64)" },
	{ { "cpus", required_argument, NULL, OPT_CPUS }, "S[,G]|none",
	  "pin the server to CPU S and the generator to G (default: both on the last CPU)" },
	{ { "addr", required_argument, NULL, OPT_ADDR }, "ADDR",
	  "server address: a loopback address, 127.0.0.0/8 or ::1 (default 127.0.0.1; ::1 for "
	  "pcap-flood)" },
	{ { "port", required_argument, NULL, OPT_PORT }, "PORT",
	  "server port (default 0: ephemeral); flow i uses PORT+i" },
	{ { "flows", required_argument, NULL, OPT_FLOWS }, "N",
	  "independent generator/server pairs, each with its own sockets (default 1); flow 0 "
	  "runs where --cpus says, flow i on the i-th allowed CPU after flow 0's (wrapping "
	  "around); the throughput is their sum" },
	{ { "topology", required_argument, NULL, OPT_TOPOLOGY }, "lo|veth",
	  "lo: everything on loopback (default); veth (root): the servers in a network "
	  "namespace of their own behind one veth pair per flow, 198.18.0.0/15 addresses, "
	  "all created and removed by loadbench" },
	{ { "buffer-kb", required_argument, NULL, OPT_BUFFER_KB }, "KB",
	  "per-CPU trace buffer for every probe set (default: each probe set's own)" },
	{ { "mode", required_argument, NULL, OPT_MODE }, "overwrite|discard|consumer",
	  "buffer-full policy for every probe set; consumer: ftrace reads the buffer while the "
	  "workload runs (default: each probe set's own)" },
	{ { "method", required_argument, NULL, OPT_METHOD }, "alternate|runs",
	  "alternate (default): per probe set, one running workload whose probes are switched "
	  "off and on in short slices, each on slice paired with the off slices beside it; "
	  "runs: a fresh workload per run, baseline and probe sets interleaved over "
	  "--repeat rounds of --duration (for a workload that must restart)" },
	{ { "slice", required_argument, NULL, OPT_SLICE }, "SEC",
	  "alternate: measured seconds per slice (default 0.1)" },
	{ { "settle", required_argument, NULL, OPT_SETTLE }, "SEC",
	  "alternate: seconds after each switch not measured (default 0.02)" },
	{ { "precision", required_argument, NULL, OPT_PRECISION }, "PP",
	  "alternate: alternate until every 95% CI half-width is at most PP percentage "
	  "points (default 1.0)" },
	{ { "max-time", required_argument, NULL, OPT_MAX_TIME }, "SEC",
	  "alternate: seconds of alternation per probe set at most, never fewer than 2 units "
	  "used (then up to 3 times SEC) (default 60); the summary "
	  "says which sets did not reach --precision" },
	{ { "time-budget", required_argument, NULL, OPT_TIME_BUDGET }, "SEC",
	  "alternate: seconds for every set's alternation together, set-up included "
	  "(default 270; 0 = none): each set gets an equal share of what is left, at most "
	  "--max-time" },
	{ { "sweep", required_argument, NULL, OPT_SWEEP }, "KEY=V1,V2,...",
	  "measure once per value of a workload parameter (syscalls-per-op, msg-size, flows, "
	  "window, rate), 2 to 16 values, each into DIR/KEY=V; then per probe set the line through "
	  "the added time per operation against the events per operation, whose slope is the "
	  "marginal cost of one event (sweep.txt, sweep.json)" },
	{ { "sample-interval", required_argument, NULL, OPT_SAMPLE_INTERVAL }, "SEC",
	  "throughput sample period within a run (default 0.25)" },
	{ { "output", required_argument, NULL, 'o' }, "DIR",
	  "results directory (default ./loadbench-results-DATE-TIME); checked before anything is "
	  "measured; '-' writes results.json to stdout and the table to stderr" },
	{ { "force", no_argument, NULL, OPT_FORCE }, NULL,
	  "write into an existing, non-empty results directory" },
	{ { "no-plot", no_argument, NULL, OPT_NO_PLOT }, NULL, "do not render figures" },
	{ { "style", required_argument, NULL, OPT_STYLE }, "STYLE",
	  "the figures' style: lab (default: a screen, the provenance in a footer), paper "
	  "(3.3 in wide, 8 pt, captions in NAME.caption.txt and .tex) or talk (16:9 slides)" },
	{ { "skip-unavailable", no_argument, NULL, OPT_SKIP_UNAVAILABLE }, NULL,
	  "skip a named probe set that cannot run here (its tracer is unavailable, or this "
	  "kernel lacks what it needs) with a warning, instead of failing; recorded in "
	  "results.json as skipped" },
	{ { "allow-concurrent", no_argument, NULL, OPT_ALLOW_CONCURRENT }, NULL,
	  "measure even while another loadbench run measures on this machine (refused "
	  "otherwise): each slows the other, and both runs' results say so" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL, "no progress lines" },
	{ { "version", no_argument, NULL, 'V' }, NULL, "print the version" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

void lb_help_wrap(FILE *f, int col, int indent, int width, const char *text)
{
	if (col > indent - 1)
		fprintf(f, "\n%*s", indent - 1, "");
	else
		fprintf(f, "%*s", indent - 1 - col, "");
	col = indent - 1;
	while (*text) {
		const char *sp = strchr(text, ' ');
		int wlen = sp ? (int)(sp - text) : (int)strlen(text);

		if (col + 1 + wlen > width && col > indent - 1) {
			fprintf(f, "\n%*s", indent - 1, "");
			col = indent - 1;
		}
		col += fprintf(f, " %.*s", wlen, text);
		text += wlen;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

/* Each option's help, wrapped at 80 columns beside a 30-column left part. */
void lb_options_help(FILE *f)
{
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct lb_option *o = &options[i];
		char left[64];
		int col;

		if (o->opt.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->opt.val, o->opt.name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->opt.name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		col = fprintf(f, "  %-*s", 27, left);
		lb_help_wrap(f, col, 30, 80, o->help);
	}
}

/* @s for a message (lb_str_short()), in a buffer of its own: one per message. */
static const char *quoted(const char *s)
{
	static char buf[LB_STR_SHORT_BUF];

	return lb_str_short(s, buf, sizeof(buf));
}

static int parse_double(const char *name, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max) {
		lb_err("--%s '%s': expected a number from %g to %g", name, quoted(s), min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_int(const char *name, const char *s, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		lb_err("--%s '%s': expected a whole number from %ld to %ld", name, quoted(s), min,
		       max);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

/* The parameters --sweep knows, and their ranges (as their own options take them). */
static const struct {
	const char *key;
	long min, max;
} sweep_keys[] = {
	{ "syscalls-per-op", 0, 1000 },
	{ "msg-size", 8, 65000 },
	{ "flows", 1, LB_FLOWS_MAX },
	{ "window", 1, 1024 },
	{ "rate", 1, LB_RATE_MAX },
};

/* --sweep KEY=V1,V2,...: the key, and 2 to LB_SWEEP_MAX distinct values in its range. */
static int parse_sweep(char *s, struct lb_options *o)
{
	char *eq = strchr(s, '='), *tok, *save = NULL, name[64];
	size_t k;

	for (k = 0; eq && k < sizeof(sweep_keys) / sizeof(sweep_keys[0]); k++)
		if ((size_t)(eq - s) == strlen(sweep_keys[k].key) &&
		    !strncmp(s, sweep_keys[k].key, (size_t)(eq - s)))
			break;
	if (!eq || k == sizeof(sweep_keys) / sizeof(sweep_keys[0])) {
		lb_err("--sweep '%s': expected KEY=V1,V2,... with KEY one of syscalls-per-op, "
		       "msg-size, flows, window, rate", quoted(s));
		return -EINVAL;
	}
	o->sweep_key = sweep_keys[k].key;
	o->nsweep = 0;
	snprintf(name, sizeof(name), "sweep %s", sweep_keys[k].key);
	for (tok = strtok_r(eq + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int v;

		if (o->nsweep == LB_SWEEP_MAX) {
			lb_err("--sweep %s: more than %d values", o->sweep_key, LB_SWEEP_MAX);
			return -EINVAL;
		}
		if (parse_int(name, tok, sweep_keys[k].min, sweep_keys[k].max, &v))
			return -EINVAL;
		for (int i = 0; i < o->nsweep; i++) {
			if (o->sweep_values[i] == v) {
				lb_err("--sweep %s: %d is given twice", o->sweep_key, v);
				return -EINVAL;
			}
		}
		o->sweep_values[o->nsweep++] = v;
	}
	if (o->nsweep < 2) {
		lb_err("--sweep %s: give 2 values or more (a line needs two points)",
		       o->sweep_key);
		return -EINVAL;
	}
	return 0;
}

/*
 * --output DIR: a path a directory can have. Empty, longer than PATH_MAX, or
 * with a name longer than NAME_MAX, it is a usage error, said here (the
 * kernel's "File name too long" says neither which option nor the fix).
 */
static int parse_output(const char *s)
{
	size_t name = 0, longest = 0;

	if (!*s) {
		lb_err("--output '': the results directory's name is empty: give --output DIR, "
		       "or --output - for results.json on standard output");
		return -EINVAL;
	}
	for (const char *p = s; *p; p++) {
		name = *p == '/' ? 0 : name + 1;
		if (name > longest)
			longest = name;
	}
	if (longest > NAME_MAX) {
		lb_err("--output '%s': a name in it is longer than the %d bytes a file's name may "
		       "have: give a shorter --output DIR", quoted(s), NAME_MAX);
		return -EINVAL;
	}
	if (strlen(s) >= PATH_MAX) {
		lb_err("--output '%s': longer than the %d bytes a path may have: give a shorter "
		       "--output DIR", quoted(s), PATH_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * --probeset LIST: its comma-separated names into c->specs (split in place).
 * An empty list or an empty item (two commas, a comma at an end) is refused:
 * read as nothing, it would start the default run of every probe set.
 */
static int parse_probesets(char *list, struct lb_options *c)
{
	const char *q = quoted(list);	/* before the list is split */
	char *item = list, *comma;
	int n = 0;

	if (!*list) {
		lb_err("--probeset '': the list is empty: name probe sets (--probeset "
		       "ftrace,perf), 'none' for the baseline alone, or drop --probeset for every "
		       "set that runs here");
		return -EINVAL;
	}
	for (;;) {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		n++;
		if (!*item) {
			lb_err("--probeset '%s': item %d is empty (two commas, or one at an end): "
			       "write NAME,NAME with a probe set between every two commas", q, n);
			return -EINVAL;
		}
		if (c->nspecs == LB_MAX_PROBESETS) {
			lb_err("more than %d probe sets: name fewer", LB_MAX_PROBESETS);
			return -EINVAL;
		}
		c->specs[c->nspecs++] = item;
		if (!comma)
			return 0;
		item = comma + 1;
	}
}

void lb_options_sweep_apply(struct lb_options *o, int value)
{
	if (!o->sweep_key)
		return;
	if (!strcmp(o->sweep_key, "syscalls-per-op"))
		o->wl.syscalls_per_op = value;
	else if (!strcmp(o->sweep_key, "msg-size"))
		o->wl.msg_size = (size_t)value;
	else if (!strcmp(o->sweep_key, "flows"))
		o->wl.flows = value;
	else if (!strcmp(o->sweep_key, "window"))
		o->wl.window = value;
	else if (!strcmp(o->sweep_key, "rate"))
		o->wl.rate = value;
}

static int parse_cpus(const char *s, struct lb_workload_config *wl)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int a, b;
	char extra;

	if (!strcmp(s, "none")) {
		wl->server_cpu = wl->client_cpu = -1;
		return 0;
	}
	if (sscanf(s, "%d,%d%c", &a, &b, &extra) == 2) {
		/* both given */
	} else if (sscanf(s, "%d%c", &a, &extra) == 1) {
		b = a;
	} else {
		lb_err("--cpus '%s': expected S,G (server and generator CPUs), one CPU for both, "
		       "or 'none'", quoted(s));
		return -EINVAL;
	}
	if (a < 0 || b < 0 || a >= ncpus || b >= ncpus) {
		lb_err("--cpus '%s': this machine has CPUs 0 to %ld", quoted(s), ncpus - 1);
		return -EINVAL;
	}
	wl->server_cpu = a;
	wl->client_cpu = b;
	return 0;
}

/* Whether @s reads as --ready's tcp:PORT or line:REGEX (the REGEX is compiled later). */
static bool ready_ok(const char *s)
{
	char *end;
	long v;

	if (!strncmp(s, "line:", 5))
		return s[5] != '\0';
	if (strncmp(s, "tcp:", 4))
		return false;
	errno = 0;
	v = strtol(s + 4, &end, 10);
	return !errno && end != s + 4 && !*end && v >= 1 && v <= 65535;
}

/*
 * --workload exec: a command after "--", fresh runs, and none of the
 * options that only a loopback workload has. Returns 0 or -EINVAL (said).
 */
static int exec_check(struct lb_options *c)
{
	bool exec = !strcmp(c->wl.name, "exec") || c->recipe;
	const char *only = NULL;

	if (c->recipe && c->exec_given) {
		lb_err("--workload %s runs its recipe's command: drop the command after --, or use "
		       "--workload exec", c->wl.name);
		return -EINVAL;
	}
	if (!exec && (c->exec_argv || c->metric || c->server || c->ready)) {
		lb_err("%s is for --workload exec: add --workload exec, or drop it",
		       c->exec_argv ? "a command after --" : c->metric ? "--metric" :
		       c->server ? "--server" : "--ready");
		return -EINVAL;
	}
	if (c->metric_lower && !c->metric) {
		lb_err("--metric-lower-is-better says how to read --metric's number: add --metric "
		       "REGEX, or drop it");
		return -EINVAL;
	}
	if (exec && (c->server || c->server_argv) && !c->ready) {
		lb_err("--server: say when it is ready with --ready tcp:PORT or --ready line:REGEX "
		       "(else its start-up would be measured)");
		return -EINVAL;
	}
	if (exec && c->ready && !c->server && !c->server_argv) {
		lb_err("--ready is for a server: add --server 'CMD ARGS', or drop it");
		return -EINVAL;
	}
	if (exec && c->ready && !ready_ok(c->ready)) {
		lb_err("--ready '%s': expected tcp:PORT (PORT 1-65535, a port that accepts on "
		       "127.0.0.1) or line:REGEX (a line of the server's output)", quoted(c->ready));
		return -EINVAL;
	}
	if (!exec)
		return 0;
	if (!c->exec_argv || !c->exec_argv[0]) {
		lb_err("--workload exec: give the command after --, e.g. loadbench --workload exec "
		       "-- dd if=/dev/zero of=/dev/null bs=4k count=500000");
		return -EINVAL;
	}
	if (c->method_given && c->alternate) {
		lb_err("--method alternate: --workload exec runs its command to completion, once "
		       "per run: use --method runs (the default with exec)");
		return -EINVAL;
	}
	c->alternate = false;
	if (c->sweep_key)
		only = "--sweep";
	else if (c->wl.rate)
		only = "--rate";
	else if (c->window_given)
		only = "--window";
	else if (c->wl.flows > 1)
		only = "--flows";
	else if (c->wl.topology != LB_TOPO_LO)
		only = "--topology";
	else if (c->count_pcap)
		only = "--count-with pcap";
	else if (strcmp(c->wl.engine, "syscall"))
		only = "--engine";
	if (only) {
		lb_err("%s applies to the loopback workloads, not to --workload exec: drop it", only);
		return -EINVAL;
	}
	return 0;
}

int lb_options_parse(int argc, char **argv, struct lb_options *c)
{
	struct option longopts[NOPTIONS + 1];
	const struct lb_workload_traits *traits;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	int opt, ret = 0;

	for (size_t i = 0; i < NOPTIONS; i++)
		longopts[i] = options[i].opt;
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));

	memset(c, 0, sizeof(*c));
	c->duration = 2;
	c->warmup = 0.5;
	c->repeat = 5;
	c->sample_interval = 0.25;
	c->alternate = true;
	c->slice = 0.1;
	c->settle = 0.02;
	c->precision = 1.0;
	c->max_time = 60;
	c->time_budget = LB_TIME_BUDGET_DEFAULT;
	c->timeout = 600;
	c->ready_timeout = 30;
	lb_workload_config_init(&c->wl);
	c->wl.naming = &cli_naming;
	c->wl.syscalls_per_op = 4;
	c->wl.server_cpu = c->wl.client_cpu = ncpus > 0 ? (int)ncpus - 1 : -1;

	while ((opt = getopt_long(argc, argv, "+p:d:w:r:o:qVh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			ret = parse_probesets(optarg, c);
			break;
		case 'd':
			ret = parse_double("duration", optarg, 0.1, 3600, &c->duration);
			break;
		case 'w':
			ret = parse_double("warmup", optarg, 0, 600, &c->warmup);
			break;
		case 'r':
			ret = parse_int("repeat", optarg, 1, 1000, &c->repeat);
			break;
		case OPT_WORKLOAD:
			c->wl.name = optarg;
			break;
		case OPT_SYSCALLS_PER_OP:
			ret = parse_int("syscalls-per-op", optarg, 0, 1000, &c->wl.syscalls_per_op);
			break;
		case OPT_MSG_SIZE: {
			int v;

			ret = parse_int("msg-size", optarg, 8, 65000, &v);
			c->wl.msg_size = (size_t)v;
			break;
		}
		case OPT_CPUS:
			ret = parse_cpus(optarg, &c->wl);
			break;
		case OPT_ENGINE:
			c->wl.engine = optarg;
			break;
		case OPT_ADDR:
			c->wl.addr = optarg;
			c->addr_given = true;
			break;
		case OPT_METRIC:
			c->metric = optarg;
			break;
		case OPT_METRIC_LOWER:
			c->metric_lower = true;
			break;
		case OPT_TIMEOUT:
			ret = parse_double("timeout", optarg, 0.01, 86400, &c->timeout);
			break;
		case OPT_SERVER:
			c->server = optarg;
			break;
		case OPT_READY:
			c->ready = optarg;
			break;
		case OPT_READY_TIMEOUT:
			ret = parse_double("ready-timeout", optarg, 0.1, 3600, &c->ready_timeout);
			break;
		case OPT_RATE:
			ret = parse_int("rate", optarg, 0, LB_RATE_MAX, &c->wl.rate);
			break;
		case OPT_WINDOW:
			ret = parse_int("window", optarg, 1, 1024, &c->wl.window);
			c->window_given = true;
			break;
		case OPT_COUNT_WITH:
			if (!strcmp(optarg, "pcap") || !strcmp(optarg, "none")) {
				c->count_pcap = !strcmp(optarg, "pcap");
			} else {
				lb_err("--count-with '%s': expected pcap or none", quoted(optarg));
				ret = -EINVAL;
			}
			break;
		case OPT_PORT: {
			int v;

			ret = parse_int("port", optarg, 0, 65535, &v);
			c->wl.port = (uint16_t)v;
			break;
		}
		case OPT_FLOWS:
			ret = parse_int("flows", optarg, 1, LB_FLOWS_MAX, &c->wl.flows);
			break;
		case OPT_TOPOLOGY:
			if (!strcmp(optarg, "lo")) {
				c->wl.topology = LB_TOPO_LO;
			} else if (!strcmp(optarg, "veth")) {
				c->wl.topology = LB_TOPO_VETH;
			} else {
				lb_err("--topology '%s': expected lo or veth", quoted(optarg));
				ret = -EINVAL;
			}
			break;
		case OPT_BUFFER_KB:
			ret = parse_int("buffer-kb", optarg, 4, 4194304, &c->topts.buffer_kb);
			break;
		case OPT_MODE:
			if (!strcmp(optarg, "overwrite")) {
				c->topts.mode = LB_MODE_OVERWRITE;
			} else if (!strcmp(optarg, "discard")) {
				c->topts.mode = LB_MODE_DISCARD;
			} else if (!strcmp(optarg, "consumer")) {
				c->topts.mode = LB_MODE_CONSUMER;
			} else {
				lb_err("--mode '%s': expected overwrite, discard or consumer",
				       quoted(optarg));
				ret = -EINVAL;
			}
			break;
		case OPT_METHOD:
			c->method_given = true;
			if (!strcmp(optarg, "alternate") || !strcmp(optarg, "runs")) {
				c->alternate = !strcmp(optarg, "alternate");
			} else {
				lb_err("--method '%s': expected alternate or runs", quoted(optarg));
				ret = -EINVAL;
			}
			break;
		case OPT_SLICE:
			ret = parse_double("slice", optarg, 0.01, 60, &c->slice);
			break;
		case OPT_SETTLE:
			ret = parse_double("settle", optarg, 0, 10, &c->settle);
			break;
		case OPT_PRECISION:
			ret = parse_double("precision", optarg, 0.01, 100, &c->precision);
			break;
		case OPT_MAX_TIME:
			ret = parse_double("max-time", optarg, 1, 86400, &c->max_time);
			break;
		case OPT_TIME_BUDGET:
			ret = parse_double("time-budget", optarg, 0, 864000, &c->time_budget);
			break;
		case OPT_SWEEP:
			ret = parse_sweep(optarg, c);
			break;
		case OPT_SAMPLE_INTERVAL:
			ret = parse_double("sample-interval", optarg, 0.01, 3600, &c->sample_interval);
			break;
		case 'o':
			ret = parse_output(optarg);
			c->output = optarg;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_NO_PLOT:
			c->no_plot = true;
			break;
		case OPT_STYLE:
			c->style = lb_fig_style_parse(optarg);
			if (c->style < 0) {
				char q[LB_STR_SHORT_BUF];

				lb_err("--style '%s': choose lab, paper or talk",
				       lb_str_short(optarg, q, sizeof(q)));
				ret = -EINVAL;
			}
			break;
		case OPT_SKIP_UNAVAILABLE:
			c->skip_unavailable = true;
			break;
		case OPT_ALLOW_CONCURRENT:
			c->allow_concurrent = true;
			break;
		case OPT_ALONE:
			c->alone = true;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'V':
			return LB_OPTIONS_VERSION;
		case 'h':
			return LB_OPTIONS_HELP;
		default:
			fprintf(stderr, "Try 'loadbench --help'.\n");
			return -EINVAL;
		}
		if (ret)
			return ret;
	}
	/* What follows "--" is the command of --workload exec. */
	if (optind > 1 && optind <= argc && !strcmp(argv[optind - 1], "--")) {
		c->exec_argv = argv + optind;
		c->exec_given = true;
		optind = argc;
	}
	/* A recipe (neither a loopback workload nor exec) is checked once it is read. */
	ret = !lb_workload_traits(c->wl.name) && strcmp(c->wl.name, "exec") ? 0 : exec_check(c);
	if (ret)
		return ret;
	traits = lb_workload_traits(c->wl.name);
	if (c->sweep_key && !strcmp(c->sweep_key, "window") && traits && !traits->window) {
		lb_err("--sweep window: only icmp-flood keeps several requests outstanding, not %s: "
		       "use --workload icmp-flood, or sweep another parameter", c->wl.name);
		return -EINVAL;
	}
	if (((c->sweep_key && !strcmp(c->sweep_key, "rate")) || c->wl.rate) && traits &&
	    !traits->rate) {
		lb_err("--%s: %s has no open loop (udp-rr, tcp-rr and icmp-flood send on a "
		       "schedule): use one of them, or drop it",
		       c->wl.rate ? "rate" : "sweep rate", c->wl.name);
		return -EINVAL;
	}
	if (c->window_given && c->wl.window > 1 && traits && !traits->window) {
		lb_err("--window %d: only icmp-flood keeps several requests outstanding, not %s: "
		       "drop --window, or use --workload icmp-flood", c->wl.window, c->wl.name);
		return -EINVAL;
	}
	if (c->wl.topology == LB_TOPO_VETH && traits && !traits->veth) {
		lb_err("--workload %s injects its frames on lo, not into a veth namespace: "
		       "use --topology lo", c->wl.name);
		return -EINVAL;
	}
	if (c->wl.topology == LB_TOPO_VETH && c->count_pcap) {
		lb_err("--count-with pcap captures on lo and cannot see packets of --topology veth: "
		       "drop one of them");
		return -EINVAL;
	}
	/* Its own default: 127.0.0.1 is a martian for frames injected on lo (pcap-flood: ::1). */
	if (!c->addr_given && traits)
		c->wl.addr = traits->addr;
	if (c->sample_interval > c->duration)
		c->sample_interval = c->duration;
	/* The workload processes stop by themselves if loadbench ever fails to stop them. */
	c->wl.max_seconds = c->warmup + c->duration + 60;
	/*
	 * Alternating: the units started before max-time (or, with units dropped,
	 * LB_ALT_MAX_TIME_HARD times it), each switch and settle included.
	 */
	if (c->alternate)
		c->wl.max_seconds = c->warmup + (LB_ALT_MAX_TIME_HARD + 1) * c->max_time + 120;
	/* A loopback workload's values (--addr, --engine, ...) are usage errors, said now. */
	if (traits) {
		char err[1024];

		ret = lb_workload_config_check(&c->wl, err, sizeof(err));
		if (ret) {
			lb_err("%s", err);
			return ret;
		}
	}
	return 0;
}

int lb_options_recipe(struct lb_options *o, char **argv, const char *metric, char **server_argv,
		      const char *ready)
{
	o->recipe = true;
	if (!o->exec_given) {
		o->exec_argv = argv;
		if (!o->metric)
			o->metric = metric;
		if (!o->server) {
			o->server_argv = server_argv;
			if (!o->ready)
				o->ready = ready;
		}
	}
	return exec_check(o);
}

char *lb_options_join(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}
