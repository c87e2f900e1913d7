// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadbench: how much does kernel tracing slow a busy workload?
 * The thin command-line layer over the parts in src/ and loadgen/.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cleanup.h"
#include "owner.h"
#include "watchdog.h"
#include "loadgen.h"
#include "pcap_count.h"
#include "plot.h"
#include "report.h"
#include "probeset.h"
#include "results.h"
#include "run.h"
#include "sysinfo.h"
#include "table.h"
#include "tracer.h"
#include "util.h"


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
	OPT_COUNT_WITH,
	OPT_ENGINE,
	OPT_ALONE,
	OPT_METHOD,
	OPT_SLICE,
	OPT_SETTLE,
	OPT_PRECISION,
	OPT_MAX_TIME,
	OPT_TIME_BUDGET,
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
	  "lttng)" },
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
	  "::1) (default udp-rr)" },
	{ { "window", required_argument, NULL, OPT_WINDOW }, "N",
	  "icmp-flood: echo requests kept outstanding, 1-1024 (default 1, like ping -f)" },
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
	{ { "sample-interval", required_argument, NULL, OPT_SAMPLE_INTERVAL }, "SEC",
	  "throughput sample period within a run (default 0.25)" },
	{ { "output", required_argument, NULL, 'o' }, "DIR",
	  "results directory (default ./loadbench-results-DATE-TIME)" },
	{ { "force", no_argument, NULL, OPT_FORCE }, NULL,
	  "write into an existing, non-empty results directory" },
	{ { "no-plot", no_argument, NULL, OPT_NO_PLOT }, NULL, "do not render figures" },
	{ { "skip-unavailable", no_argument, NULL, OPT_SKIP_UNAVAILABLE }, NULL,
	  "skip a named probe set that cannot run here (its tracer is unavailable, or this "
	  "kernel lacks what it needs) with a warning, instead of failing; recorded in "
	  "results.json as skipped" },
	{ { "quiet", no_argument, NULL, 'q' }, NULL, "no progress lines" },
	{ { "version", no_argument, NULL, 'V' }, NULL, "print the version" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "this help" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

struct cli {
	char *command_line;	/* argv as given, joined before getopt and strtok touch it */
	const char *specs[LB_MAX_PROBESETS];
	int nspecs;
	double duration, warmup, sample_interval;
	int repeat;
	bool alternate;		/* --method alternate */
	bool method_given;	/* --method was given (else alternate when every tracer can) */
	double slice, settle, precision, max_time, time_budget;
	struct lb_workload_config wl;
	struct lb_tracer_opts topts;
	const char *output;
	bool force, no_plot, quiet;
	bool skip_unavailable;	/* named probe sets that cannot run here are skipped */
	bool alone;		/* --alone: no sets added by 'compare-with' lines */
	bool addr_given;	/* --addr was given (else the workload's default) */
	bool window_given;	/* --window was given */
	bool count_pcap;	/* --count-with pcap */
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * From the first step of a run on, SIGINT, SIGTERM and SIGHUP only ask the
 * run to stop (SA_RESTART: set-up and tear-down calls are not cut short), so
 * every exit path removes what was created; SIGINT is handled even when a
 * script's background job started with it ignored. SIGHUP stays ignored when
 * it was ignored at start (nohup). SIGPIPE is ignored, so a closed output
 * pipe cannot kill loadbench while a tracer is armed.
 */
static void stop_on_signals(void)
{
	const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] == SIGHUP && sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* One option's help, its text wrapped at 80 columns beside a 30-column left part. */
static void print_wrapped(FILE *f, const char *left, const char *text)
{
	const int indent = 30, width = 80;
	int col;

	col = fprintf(f, "  %-*s", indent - 3, left);
	if (col > indent - 1) {
		fprintf(f, "\n%*s", indent - 1, "");
	}
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

static void usage(FILE *f)
{
	fprintf(f, "Usage: loadbench [run] [OPTIONS]    measure the baseline and probe sets\n"
		   "       loadbench list               the probe-set catalog and what runs here\n"
		   "       loadbench plot DIR           render the figures of a results directory\n"
		   "       loadbench report [--format markdown|latex|text|lines] DIR\n"
		   "                                    print the summary of a results directory\n"
		   "       loadbench compare [-o OUT] DIR DIR...\n"
		   "                                    draw several results directories side by side\n"
		   "       loadbench cleanup            remove what dead loadbench runs left (tracefs,\n"
		   "                                    LTTng, trace directories, veth): those whose\n"
		   "                                    run lock in /run/loadbench is free\n"
		   "\nMeasures how much each probe set (a tracer and the probes it enables) slows a\n"
		   "loopback request/response workload: throughput slowdown with a 95%% confidence\n"
		   "interval, events recorded and lost, and the cost per event.\n\nOptions:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct lb_option *o = &options[i];
		char left[64];

		if (o->opt.val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->opt.val, o->opt.name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->opt.name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		print_wrapped(f, left, o->help);
	}
	fprintf(f, "\nNeeds root to trace (tracefs). Example: sudo loadbench --probeset ftrace,syscalls\n"
		   "Exit status: 0 done, 1 error or failed run, 2 usage error, 128+N interrupted by\n"
		   "signal N (130 Ctrl-C, 143 SIGTERM): partial results written, kernel state removed.\n"
		   "See loadbench(1) and README.md for the probe-set format and the method.\n");
}

static int parse_double(const char *name, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max) {
		lb_err("--%s '%s': expected a number from %g to %g", name, s, min, max);
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
		lb_err("--%s '%s': expected a whole number from %ld to %ld", name, s, min, max);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
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
		       "or 'none'", s);
		return -EINVAL;
	}
	if (a < 0 || b < 0 || a >= ncpus || b >= ncpus) {
		lb_err("--cpus '%s': this machine has CPUs 0 to %ld", s, ncpus - 1);
		return -EINVAL;
	}
	wl->server_cpu = a;
	wl->client_cpu = b;
	return 0;
}

static int parse_args(int argc, char **argv, struct cli *c)
{
	struct option longopts[NOPTIONS + 1];
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
	lb_workload_config_init(&c->wl);
	c->wl.syscalls_per_op = 4;
	c->wl.server_cpu = c->wl.client_cpu = ncpus > 0 ? (int)ncpus - 1 : -1;

	while ((opt = getopt_long(argc, argv, "+p:d:w:r:o:qVh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': {
			char *save = NULL, *tok, *copy = optarg;

			for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (c->nspecs == LB_MAX_PROBESETS) {
					lb_err("more than %d probe sets", LB_MAX_PROBESETS);
					return -EINVAL;
				}
				c->specs[c->nspecs++] = tok;
			}
			break;
		}
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
		case OPT_WINDOW:
			ret = parse_int("window", optarg, 1, 1024, &c->wl.window);
			c->window_given = true;
			break;
		case OPT_COUNT_WITH:
			if (!strcmp(optarg, "pcap") || !strcmp(optarg, "none")) {
				c->count_pcap = !strcmp(optarg, "pcap");
			} else {
				lb_err("--count-with '%s': expected pcap or none", optarg);
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
				lb_err("--topology '%s': expected lo or veth", optarg);
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
				lb_err("--mode '%s': expected overwrite, discard or consumer", optarg);
				ret = -EINVAL;
			}
			break;
		case OPT_METHOD:
			c->method_given = true;
			if (!strcmp(optarg, "alternate") || !strcmp(optarg, "runs")) {
				c->alternate = !strcmp(optarg, "alternate");
			} else {
				lb_err("--method '%s': expected alternate or runs", optarg);
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
		case OPT_SAMPLE_INTERVAL:
			ret = parse_double("sample-interval", optarg, 0.01, 3600, &c->sample_interval);
			break;
		case 'o':
			c->output = optarg;
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_NO_PLOT:
			c->no_plot = true;
			break;
		case OPT_SKIP_UNAVAILABLE:
			c->skip_unavailable = true;
			break;
		case OPT_ALONE:
			c->alone = true;
			break;
		case 'q':
			c->quiet = true;
			break;
		case 'V':
			printf("loadbench %s\n", PACKAGE_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			fprintf(stderr, "Try 'loadbench --help'.\n");
			return -EINVAL;
		}
		if (ret)
			return ret;
	}
	if (c->window_given && c->wl.window > 1 && strcmp(c->wl.name, "icmp-flood")) {
		lb_err("--window %d: only icmp-flood keeps several requests outstanding, not %s: "
		       "drop --window, or use --workload icmp-flood", c->wl.window, c->wl.name);
		return -EINVAL;
	}
	if (c->wl.topology == LB_TOPO_VETH && !strcmp(c->wl.name, "pcap-flood")) {
		lb_err("--workload pcap-flood injects its frames on lo, not into a veth namespace: "
		       "use --topology lo");
		return -EINVAL;
	}
	if (c->wl.topology == LB_TOPO_VETH && c->count_pcap) {
		lb_err("--count-with pcap captures on lo and cannot see packets of --topology veth: "
		       "drop one of them");
		return -EINVAL;
	}
	/* 127.0.0.1 is a martian for frames injected on lo: pcap-flood defaults to ::1. */
	if (!c->addr_given && !strcmp(c->wl.name, "pcap-flood"))
		c->wl.addr = "::1";
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
	return 0;
}

/* Load one spec; refuses duplicates (the same probe set twice would be compared with itself). */
static int add_probeset(const char *spec, const char *catalog, struct lb_probeset **sets, int *n)
{
	struct lb_probeset *ps;
	char err[1024];
	int ret;

	ret = lb_probeset_find(spec, catalog, &ps, err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		return ret;
	}
	for (int i = 0; i < *n; i++) {
		if (!strcmp(sets[i]->name, ps->name)) {
			lb_err("probe set '%s' is named twice: name each probe set once", ps->name);
			lb_probeset_free(ps);
			return -EINVAL;
		}
	}
	sets[(*n)++] = ps;
	return 0;
}

/*
 * Bring along the set each named set builds on (its compare-with line),
 * just before it, unless it is named too. Returns 0 or -errno (said).
 */
static int add_compared(const char *catalog, struct lb_probeset **sets, int *n)
{
	for (int i = 0; i < *n; i++) {
		struct lb_probeset *ps = sets[i], *base;
		const char *want = ps->compare_with;
		char err[1024];
		int j, ret;

		if (!want || ps->added_for)
			continue;
		for (j = 0; j < *n && strcmp(sets[j]->name, want); j++)
			;
		if (j < *n)
			continue;
		if (*n >= LB_MAX_PROBESETS) {
			lb_err("too many probe sets with those compare-with lines (at most %d): "
			       "name fewer or pass --alone", LB_MAX_PROBESETS);
			return -E2BIG;
		}
		ret = lb_probeset_find(want, catalog, &base, err, sizeof(err));
		if (ret) {
			lb_err("%s:%d: compare-with %s: %s; fix the line or pass --alone", ps->path,
			       ps->compare_with_line, want, err);
			return ret;
		}
		base->added_for = strdup(ps->name);
		if (!base->added_for) {
			lb_probeset_free(base);
			lb_err("out of memory");
			return -ENOMEM;
		}
		memmove(&sets[i + 1], &sets[i], (*n - i) * sizeof(*sets));
		sets[i] = base;
		(*n)++;
		i++;	/* past the set that asked: the one just added is not a named set */
	}
	return 0;
}

static char *join_argv(int argc, char **argv)
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

static int fill_results(struct lb_results *res, const struct cli *c, struct lb_workload *w,
			struct lb_probeset **sets, int nsets, int argc, char **argv)
{
	int scpu[LB_FLOWS_MAX], ccpu[LB_FLOWS_MAX], nflows;
	char place[4096];
	int ret;

	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	ret = lb_sysinfo_read(&res->host);
	if (ret)
		return ret;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	res->version = strdup(PACKAGE_VERSION);
	res->started = strdup(stamp);
	if (!res->version || !res->started)
		return -ENOMEM;
	res->config.workload = strdup(c->wl.name);
	res->config.placement = strdup(lb_workload_describe(w, place, sizeof(place)));
	res->config.engine = strdup(c->wl.engine);
	res->config.command_line = strdup(c->command_line);
	res->config.duration = c->duration;
	res->config.warmup = c->warmup;
	res->config.repeat = c->repeat;
	res->config.method = strdup(c->alternate ? "alternate" : "runs");
	if (!res->config.method)
		return -ENOMEM;
	if (c->alternate) {
		res->config.slice = c->slice;
		res->config.settle = c->settle;
		res->config.precision = c->precision;
		res->config.max_time = c->max_time;
		res->config.time_budget = c->time_budget;
	}
	res->config.syscalls_per_op = c->wl.syscalls_per_op;
	res->config.msg_size = (int)c->wl.msg_size;
	res->config.server_cpu = c->wl.server_cpu;
	res->config.client_cpu = c->wl.client_cpu;
	res->config.buffer_kb = c->topts.buffer_kb;
	res->config.topology = strdup(lb_topology_names[c->wl.topology]);
	nflows = lb_workload_placement(w, scpu, ccpu, LB_FLOWS_MAX);
	res->config.flows = nflows;
	res->config.flow_placement = calloc(nflows, sizeof(*res->config.flow_placement));
	if (!res->config.topology || !res->config.flow_placement)
		return -ENOMEM;
	res->config.nflow_placement = nflows;
	for (int i = 0; i < nflows; i++) {
		res->config.flow_placement[i].server_cpu = scpu[i];
		res->config.flow_placement[i].client_cpu = ccpu[i];
	}
	if (!strcmp(c->wl.name, "icmp-flood"))
		res->config.window = c->wl.window;
	if (!res->config.workload || !res->config.placement || !res->config.engine ||
	    !res->config.command_line)
		return -ENOMEM;
	for (int i = 0; i < nsets; i++) {
		struct lb_probeset_result *psr;

		psr = lb_results_add_probeset(res, sets[i]->name, sets[i]->tracer);
		if (!psr)
			return -ENOMEM;
		psr->description = sets[i]->description ? strdup(sets[i]->description) : NULL;
		psr->file = strdup(sets[i]->path);
		psr->text = strdup(sets[i]->text);
		if (!psr->file || !psr->text)
			return -ENOMEM;
		if (sets[i]->compare_with && !(psr->compare_with = strdup(sets[i]->compare_with)))
			return -ENOMEM;
		if (sets[i]->added_for && !(psr->added_for = strdup(sets[i]->added_for)))
			return -ENOMEM;
	}
	return 0;
}

static const char *default_output(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "loadbench-results-%Y%m%d-%H%M%S", &tm);
	return buf;
}

/*
 * Write the figures of @res through @plot (a handle on @dir, closed here) and
 * render them. Returns 0 when they were rendered; -ENOENT without gnuplot,
 * another -errno when they could not be written or rendered (each case said
 * in one line on stderr, as an error when @is_error, else as a warning).
 */
static int render(const struct lb_results *res, struct lb_plot *plot, const char *dir,
		  bool is_error)
{
	void (*say)(const char *fmt, ...) = is_error ? lb_err : lb_warn;
	char tdir[PATH_MAX], err[512];
	int ret, cret;

	ret = lb_plot_write(plot, res, lb_datadir("plots", tdir, sizeof(tdir)), err, sizeof(err));
	if (ret) {
		say("figures not written: %s", err);
	} else {
		ret = lb_plot_render(plot, err, sizeof(err));
		if (ret == -ENOENT)
			say("gnuplot is not installed (%s), so the figures are only written as .gp "
			    "and .dat files in %s: install it (apt-get install gnuplot-nox) and run "
			    "'loadbench plot %s'", err, dir, dir);
		else if (ret)
			say("gnuplot failed to render the figures in %s: %s", dir, err);
	}
	cret = lb_plot_close(plot, err, sizeof(err));
	if (cret) {
		say("figures not written: %s", err);
		if (!ret || ret == -ENOENT)
			ret = cret;
	}
	return ret;
}

/*
 * Open @dir for figures: the handle, or NULL when it cannot be or is refused
 * (said in one line: an error when @is_error, else a warning that no figures
 * were written).
 */
static struct lb_plot *open_figures(const char *dir, bool is_error)
{
	struct lb_plot *plot;
	char err[1024];

	if (lb_plot_open(dir, &plot, err, sizeof(err))) {
		if (is_error)
			lb_err("%s", err);
		else
			lb_warn("figures not written: %s", err);
		return NULL;
	}
	return plot;
}

static int cmd_plot(int argc, char **argv)
{
	struct lb_results *res = NULL;
	struct lb_plot *plot;
	int ret;

	if (argc != 2) {
		lb_err("usage: loadbench plot DIR (a results directory)");
		return 2;
	}
	/* Before reading anything in it: a directory refused is refused first. */
	plot = open_figures(argv[1], true);
	if (!plot)
		return 1;
	if (lb_report_read(argv[1], &res)) {
		lb_plot_close(plot, NULL, 0);
		return 1;
	}
	ret = render(res, plot, argv[1], true);
	lb_results_free(res);
	return ret ? 1 : 0;
}

static void report_leftover(const char *what, int err, void *arg)
{
	bool *remove = arg;

	if (err == LB_CLEANUP_LEFT) {
		/* Said by cleanup; a run leaves it be without a word on every start. */
		if (*remove)
			printf("left alone %s: no run lock in %s proves its run ended (a run in "
			       "a container that does not share /run, or from before run locks): "
			       "remove it by hand if you know its run is gone\n", what,
			       LB_OWNER_DIR);
	} else if (err == LB_CLEANUP_FOREIGN) {
		if (*remove)
			printf("left alone %s: it bears a dead run's name but is not as loadbench "
			       "makes it (root's, mode 0700): another user's\n", what);
	} else if (!*remove)
		lb_warn("%s was left by a loadbench that no longer runs: remove it with "
			"'loadbench cleanup'", what);
	else if (err)
		printf("could not remove %s: %s\n", what, strerror(-err));
	else
		printf("removed %s\n", what);
}

/* The first name bearing this run's pid that no dead run's lock explains. */
static void report_first(const char *what, int err, void *arg)
{
	char *first = arg;

	if (!first[0] && err != LB_CLEANUP_FOREIGN)
		snprintf(first, 256, "%s", what);
}

static void report_own_leftover(const char *what, int err, void *arg)
{
	(void)arg;
	if (err == LB_CLEANUP_FOREIGN)
		lb_warn("%s bears this run's pid but is not as loadbench makes it: left alone", what);
	else if (err)
		lb_warn("%s was left by an earlier loadbench with this pid and cannot be removed: "
			"%s", what, strerror(-err));
	else
		lb_warn("removed %s, left by an earlier loadbench that had this pid", what);
}

static int cmd_cleanup(int argc, char **argv)
{
	bool remove = true;
	int n;

	if (argc > 1) {
		lb_err("usage: loadbench cleanup (takes no arguments)");
		return 2;
	}
	if (geteuid() != 0) {
		lb_err("cleanup needs root: tracefs is root-only (run it with sudo)");
		return 1;
	}
	n = lb_cleanup_run(remove, report_leftover, &remove);
	if (n < 0) {
		lb_err("cannot read tracefs: %s (is it mounted at /sys/kernel/tracing?)",
		       strerror(-n));
		return 1;
	}
	printf("%d leftover(s) of dead loadbench runs found%s\n", n, n ? " and handled" : "");
	return 0;
}

static int cmd_list(void)
{
	char catalog[PATH_MAX], err[1024];
	char **names = NULL;
	int n, w = 16;

	lb_datadir("probesets", catalog, sizeof(catalog));
	n = lb_catalog_names(catalog, &names);
	if (n < 0) {
		lb_err("cannot read the probe-set catalog %s: %s", catalog, strerror(-n));
		return 1;
	}
	printf("Probe sets in %s:\n\n", catalog);
	for (int i = 0; i < n; i++)
		if ((int)strlen(names[i]) > w)
			w = (int)strlen(names[i]);
	for (int i = 0; i < n; i++) {
		struct lb_probeset *ps = NULL;
		struct lb_tracer *t = NULL;
		const char *why;
		int ret;

		ret = lb_probeset_find(names[i], catalog, &ps, err, sizeof(err));
		if (!ret)
			ret = lb_tracer_create(ps, NULL, &t, err, sizeof(err));
		printf("%-*s %-11s %s\n", w, names[i], ps ? ps->tracer : "?",
		       ps && ps->description ? ps->description : "");
		/* lb_tracer_create() says "probe set NAME cannot run here: WHY": print WHY. */
		why = ret ? strstr(err, "cannot run here: ") : NULL;
		why = why ? why + strlen("cannot run here: ") : err;
		printf("%-*s %-11s %s%s\n", w, "", "", ret ? "cannot run here: " : "runs here",
		       ret ? why : "");
		lb_tracer_destroy(t);
		lb_probeset_free(ps);
	}
	lb_catalog_names_free(names);
	return 0;
}

/*
 * Whether probe set @ps cannot run on this machine, as opposed to being wrong
 * anywhere: its tracer is known but unavailable here, or create() failed
 * because this kernel lacks an event, a symbol, a feature or the privilege
 * (-ENOENT, -ENODEV, -ENOSYS, -EPERM, -EACCES). An unknown tracer, or a probe
 * set its tracer cannot record (-EINVAL, -EOPNOTSUPP), is an error everywhere.
 */
static bool probeset_unavailable(const struct lb_probeset *ps, int ret)
{
	char why[512];

	if (!lb_tracer_ops_find(ps->tracer))
		return false;
	if (lb_tracer_available(ps->tracer, why, sizeof(why)))
		return true;
	return ret == -ENOENT || ret == -ENODEV || ret == -ENOSYS || ret == -EPERM ||
	       ret == -EACCES;
}

static int cmd_run(int argc, char **argv, struct cli *c)
{
	struct lb_probeset *sets[LB_MAX_PROBESETS] = { NULL };
	struct lb_tracer *tracers[LB_MAX_PROBESETS] = { NULL };
	char catalog[PATH_MAX], outbuf[PATH_MAX], path[PATH_MAX + 32], err[1024];
	char budget[48] = "";
	struct lb_workload *w = NULL;
	struct lb_pcap_count *pcap = NULL;
	struct lb_results *res = NULL;
	int nsets = 0, ret, status = 1, plotted = -1;
	bool baseline_only = false, defaults = c->nspecs == 0;
	bool measured = false, interrupted = false, made_out = false;
	const char *out = NULL;
	struct lb_bench b;
	char **names = NULL;

	stop_on_signals();
	lb_datadir("probesets", catalog, sizeof(catalog));
	res = lb_results_new();
	if (!res) {
		lb_err("out of memory");
		goto out;
	}

	/* 1. Probe sets: parse and validate everything before touching the kernel. */
	for (int i = 0; i < c->nspecs; i++) {
		if (!strcmp(c->specs[i], "none")) {
			baseline_only = true;
			continue;
		}
		if (add_probeset(c->specs[i], catalog, sets, &nsets))
			goto out;
	}
	if (baseline_only && nsets) {
		lb_err("--probeset none means baseline only: do not combine it with probe sets");
		goto out;
	}
	if (!c->alone && add_compared(catalog, sets, &nsets))
		goto out;
	if (defaults) {
		int n = lb_catalog_names(catalog, &names);

		if (n < 0) {
			lb_err("cannot read the probe-set catalog %s: %s", catalog, strerror(-n));
			goto out;
		}
		for (int i = 0; i < n && nsets < LB_MAX_PROBESETS; i++)
			if (add_probeset(names[i], catalog, sets, &nsets))
				goto out;
	}
	for (int i = 0; i < nsets; i++) {
		ret = lb_tracer_create(sets[i], &c->topts, &tracers[i], err, sizeof(err));
		if (ret && (defaults || (c->skip_unavailable &&
					     probeset_unavailable(sets[i], ret)))) {
			/* The default run measures what runs here and says what it left out. */
			lb_warn("skipping %s: %s", sets[i]->name, err);
			if (lb_results_add_skipped(res, sets[i]->name, err)) {
				lb_err("out of memory");
				goto out;
			}
			lb_probeset_free(sets[i]);
			for (int j = i; j < nsets - 1; j++) {
				sets[j] = sets[j + 1];
				tracers[j] = tracers[j + 1];
			}
			sets[--nsets] = NULL;
			tracers[nsets] = NULL;
			i--;
			continue;
		}
		if (ret && sets[i]->added_for) {
			lb_err("%s (%s is measured beside %s, whose compare-with names it; --alone "
			       "leaves it out)", err, sets[i]->name, sets[i]->added_for);
			goto out;
		}
		if (ret) {
			lb_err("%s", err);
			goto out;
		}
	}

	/* Alternating needs every tracer to switch; without --method, one that cannot means runs. */
	if (!nsets)
		c->alternate = false;	/* the baseline alone: fresh runs */
	for (int i = 0; c->alternate && i < nsets; i++) {
		if (lb_tracer_can_switch(tracers[i]))
			continue;
		if (c->method_given) {
			lb_err("--method alternate: probe set %s: the %s tracer cannot be switched off "
			       "and on inside one run: use --method runs", sets[i]->name,
			       lb_tracer_name(tracers[i]));
			goto out;
		}
		if (!c->quiet)
			lb_warn("probe set %s: the %s tracer cannot be switched off and on inside one "
				"run: measuring every set with --method runs", sets[i]->name,
				lb_tracer_name(tracers[i]));
		c->alternate = false;
		c->wl.max_seconds = c->warmup + c->duration + 60;
	}

	{
		bool remove = false, earlier;
		char first[256] = "";
		int n;

		lb_cleanup_run(remove, report_leftover, &remove);
		ret = lb_owner_claim(&earlier, err, sizeof(err));
		if (ret) {
			lb_err("%s", err);
			goto out;
		}
		/*
		 * Nothing is ours yet. With the lock file there before us, what
		 * bears our pid is a dead run's that had it; without, it may be a
		 * live run's in another pid namespace that does not share /run.
		 */
		if (earlier) {
			lb_cleanup_pid(getpid(), true, report_own_leftover, NULL);
		} else if ((n = lb_cleanup_pid(getpid(), false, report_first, first)) > 0) {
			lb_err("%s bears this run's pid (loadbench_%d), and no run lock proves the "
			       "run that made it dead (a loadbench with this pid in a container "
			       "that does not share %s?): left alone; start this run with another "
			       "pid, or remove it by hand if you know its run is gone", first,
			       (int)getpid(), LB_OWNER_DIR);
			goto out;
		}
		ret = lb_watchdog_start(err, sizeof(err));
		if (ret) {
			lb_err("%s", err);
			goto out;
		}
	}
	if (stop_signal)
		goto out;

	/* 2. The results directory, never silently overwritten. */
	out = c->output ? c->output : default_output(outbuf, sizeof(outbuf));
	ret = lb_dir_is_empty(out);
	if (ret == 0 && !c->force) {
		lb_err("results directory %s exists and is not empty: choose another --output, or "
		       "add --force to write into it", out);
		goto out;
	}
	made_out = ret == -ENOENT;
	ret = lb_mkdir_p(out);
	if (ret)
		made_out = false;
	if (ret && stop_signal)
		goto out;
	if (ret) {
		lb_err("cannot create the results directory %s: %s", out, strerror(-ret));
		goto out;
	}
	/*
	 * Refused before anything is measured, not only for the figures: a
	 * link (whoever can change it chooses where root writes), or another
	 * user's directory that others may write in.
	 */
	{
		struct lb_plot *check;

		if (lb_plot_open(out, &check, err, sizeof(err))) {
			lb_err("--output refused: %s", err);
			goto out;
		}
		lb_plot_close(check, NULL, 0);
	}

	/*
	 * 3. The workload: binding the server socket here reports a busy port
	 * early. Runs with --topology veth choose their /24 one at a time (as
	 * root: it needs root anyway): a free /24 and our address in it are one step.
	 */
	{
		int mutex = c->wl.topology == LB_TOPO_VETH && geteuid() == 0 ?
			    lb_owner_mutex("veth", err, sizeof(err)) : 0;

		if (mutex < 0) {
			lb_err("%s", err);
			goto out;
		}
		ret = lb_workload_create(&c->wl, &w, err, sizeof(err));
		if (mutex > 0)
			close(mutex);
	}
	if (ret) {
		lb_err("%s", err);
		goto out;
	}

	if (fill_results(res, c, w, sets, nsets, argc, argv)) {
		lb_err("out of memory");
		goto out;
	}
	if (c->count_pcap) {
		char filter[256];

		if (lb_workload_count_filter(w, filter, sizeof(filter))) {
			lb_err("--count-with pcap cannot count %s: its packets cannot be told "
			       "from other traffic by a fixed filter; use udp-rr, tcp-rr, "
			       "udp-stream or pcap-flood, or drop --count-with", c->wl.name);
			goto out;
		}
		ret = lb_pcap_count_open(filter, c->wl.server_cpu, c->wl.client_cpu, &pcap, err,
					 sizeof(err));
		if (ret) {
			lb_err("%s", err);
			goto out;
		}
		res->config.count_with = strdup("pcap");
		res->config.pcap_filter = strdup(filter);
		if (!res->config.count_with || !res->config.pcap_filter) {
			lb_err("out of memory");
			goto out;
		}
	}

	if (c->time_budget > 0)
		snprintf(budget, sizeof(budget), ", all within ~%.0f s", c->time_budget);
	if (!c->quiet && c->alternate && nsets)
		fprintf(stderr, "loadbench: %s; baseline + %d probe set(s), each alternated off/on "
			"in %.2f s slices until its 95%% CI is +-%.1f pp (at most %.0f s%s); "
			"results in %s\n", res->config.placement, nsets, c->slice, c->precision,
			c->max_time, budget, out);
	else if (!c->quiet)
		fprintf(stderr, "loadbench: %s; baseline + %d probe set(s), %d round(s) of "
			"%.1f s warm-up + %.1f s measured; results in %s\n", res->config.placement,
			nsets, c->repeat, c->warmup, c->duration, out);

	memset(&b, 0, sizeof(b));
	b.workload = w;
	b.tracers = tracers;
	b.duration = c->duration;
	b.warmup = c->warmup;
	b.sample_interval = c->sample_interval;
	b.repeat = c->repeat;
	b.progress = !c->quiet;
	b.stop = &stop_signal;
	b.pcap = pcap;
	b.alternate = c->alternate;
	b.slice = c->slice;
	b.settle = c->settle;
	b.precision = c->precision;
	b.max_time = c->max_time;
	b.time_budget = c->time_budget;
	ret = lb_bench_run(&b, res, err, sizeof(err));
	lb_tracer_disarm_all();
	measured = true;
	/* A signal after the last run changes nothing: the results are complete. */
	interrupted = ret == -EINTR;
	if (interrupted) {
		lb_warn("interrupted by signal %d: partial results written, marked incomplete",
			stop_signal);
		lb_results_add_warning(res, "interrupted by signal %d: results are incomplete",
				       stop_signal);
	} else if (ret) {
		lb_err("%s", err);
		lb_results_add_warning(res, "run failed: %s", err);
	}

	/* 4. Results, even partial ones. */
	if (lb_results_summarize(res)) {
		lb_err("out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/results.json", out);
	if ((ret = lb_results_write_json(res, path)) ||
	    (snprintf(path, sizeof(path), "%s/results.csv", out),
	     ret = lb_results_write_csv(res, path)) ||
	    (snprintf(path, sizeof(path), "%s/slices.csv", out),
	     ret = lb_results_write_slices_csv(res, path)) ||
	    (snprintf(path, sizeof(path), "%s/summary.txt", out),
	     ret = lb_results_write_summary(res, path))) {
		lb_err("cannot write %s: %s", path, strerror(-ret));
		goto out;
	}
	if (!c->no_plot && res->baseline.nruns) {
		struct lb_plot *plot = open_figures(out, false);

		plotted = plot ? render(res, plot, out, false) : -EPERM;
	}
	lb_results_print_table(res, stdout);
	printf("\nresults: %s/results.json, results.csv, %ssummary.txt%s\n", out,
	       lb_results_has_slices(res) ? "slices.csv, " : "",
	       plotted == 0 ? "; figures slowdown, throughput, cost (.png .svg .pdf, with .gp "
			      "and .dat)" :
	       plotted == -ENOENT ? "; figure scripts and data slowdown, throughput, cost (.gp "
				    ".dat: no gnuplot to render them)" : "");
	status = res->complete ? 0 : 1;
out:
	lb_tracer_disarm_all();
	if (stop_signal && !measured) {
		/* Stopped in the set-up, before anything was measured or written. */
		lb_warn("interrupted by signal %d before the first run: nothing measured, no "
			"results written", (int)stop_signal);
		interrupted = true;
	}
	/* A results directory made for a run that failed before measuring goes again. */
	if (made_out && !measured)
		rmdir(out);
	/* The documented exit status of an interrupted run: 128 + the signal's number. */
	if (interrupted)
		status = 128 + stop_signal;
	for (int i = 0; i < nsets; i++) {
		lb_tracer_destroy(tracers[i]);
		lb_probeset_free(sets[i]);
	}
	lb_catalog_names_free(names);
	lb_pcap_count_close(pcap);
	lb_workload_destroy(w);
	lb_results_free(res);
	/*
	 * The watchdog and the run lock go last. State that could not be
	 * removed (an instance held open) keeps the lock file, so that
	 * `loadbench cleanup` can prove this run dead once it has exited.
	 */
	lb_watchdog_stop();
	lb_owner_release(geteuid() == 0 && lb_cleanup_pid(getpid(), false, NULL, NULL) > 0);
	return status;
}

int main(int argc, char **argv)
{
	char *cmdline;
	int status;
	const char *cmd = argc > 1 && argv[1][0] != '-' ? argv[1] : "run";
	int shift = argc > 1 && argv[1][0] != '-' ? 1 : 0;
	struct cli c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "list"))
		return cmd_list();
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (!strcmp(cmd, "cleanup"))
		return cmd_cleanup(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return lb_report_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return lb_compare_main(argc - 1, argv + 1);
	if (strcmp(cmd, "run")) {
		lb_err("unknown command '%s': expected run, list, plot, report, compare or cleanup "
		       "(see loadbench --help)", cmd);
		return 2;
	}
	/* Joined first: parsing splits the --probeset lists in place. */
	cmdline = join_argv(argc, argv);
	if (!cmdline) {
		lb_err("out of memory");
		return 1;
	}
	if (parse_args(argc - shift, argv + shift, &c)) {
		free(cmdline);
		return 2;
	}
	c.command_line = cmdline;
	if (optind + shift < argc) {
		lb_err("unexpected argument '%s' (see loadbench --help)", argv[optind + shift]);
		free(cmdline);
		return 2;
	}
	status = cmd_run(argc, argv, &c);
	free(cmdline);
	return status;
}
