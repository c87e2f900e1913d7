// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run command's options: one row per option, as fio's struct fio_option,
 * and all that comes from the rows: the getopt_long table, the defaults set
 * before parsing, the range checks and their messages, --help with each
 * default and the keys --sweep takes. The options parsed in a way of their
 * own have a handler in their row; the checks across options follow. Over
 * 600 lines: the rows are the options' reference, help text and all.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loadgen.h"
#include "options.h"
#include "plot.h"
#include "results.h"
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

/* How an option's argument is read, and what its value is stored as. */
enum lb_option_kind {
	LB_OPT_FLAG,	/* no argument: a bool, set */
	LB_OPT_INT,	/* a whole number from min to max: an int */
	LB_OPT_SIZE,	/* the same, a size_t */
	LB_OPT_U16,	/* the same, a uint16_t */
	LB_OPT_DOUBLE,	/* a number from min to max: a double */
	LB_OPT_STRING,	/* the argument itself: a const char * */
	LB_OPT_CALL,	/* the row's handler parses and stores it */
	LB_OPT_HELP,	/* the parse stops: LB_OPTIONS_HELP */
	LB_OPT_VERSION,	/* the parse stops: LB_OPTIONS_VERSION */
};

/*
 * One option. Its default is written as an argument giving it would be and
 * parsed as one before argv is (so that a default out of range, or one --help
 * says but the code does not set, cannot be); --help says it as
 * "(default DEF NOTE)", where the help has {default}, else at its end. A help
 * that names the default choice itself has {(default)} after it:
 * "(default NOTE)". {range} is "MIN-MAX", {keys} the options --sweep varies.
 */
struct lb_option {
	const char *name;	/* --NAME */
	char letter;		/* -L, or 0 */
	const char *arg;	/* the argument's name in --help; NULL: a flag, no argument */
	enum lb_option_kind kind;
	size_t off;		/* where the value goes in struct lb_options (not LB_OPT_CALL) */
	/*
	 * LB_OPT_CALL: parse @arg into @o, saying what is wrong (-EINVAL). Called
	 * with NULL before the parse when the row has no def: its default (or none).
	 */
	int (*set)(struct lb_options *o, char *arg);
	double min, max;	/* LB_OPT_INT, _SIZE, _U16, _DOUBLE: the values taken */
	const char *def;	/* the default, as the argument; NULL: none, or the handler's */
	const char *def_note;	/* in --help after DEF (": closed loop"), or the default said */
	size_t given;		/* a bool set when the option is given; 0: none */
	int sweep;		/* 0, or --sweep may vary it: its place (1..) among the keys */
	double sweep_min;	/* --sweep's least value, when above min */
	const char *help;
};

/*
 * AT(member): where an option's value goes, and its kind from the member's
 * type, so that a row cannot store a number into a field of another type.
 */
#define AT(m)                                                                                      \
	.kind = _Generic(((struct lb_options *)0)->m,                                              \
			 bool: LB_OPT_FLAG,                                                        \
			 int: LB_OPT_INT,                                                          \
			 size_t: LB_OPT_SIZE,                                                      \
			 uint16_t: LB_OPT_U16,                                                     \
			 double: LB_OPT_DOUBLE,                                                    \
			 const char *: LB_OPT_STRING),                                             \
	.off = offsetof(struct lb_options, m)

/* GIVEN(member): the bool that says an option was given. */
#define GIVEN(m) \
	.given = _Generic(((struct lb_options *)0)->m, bool: offsetof(struct lb_options, m))
_Static_assert(offsetof(struct lb_options, command_line) == 0, "a .given of 0 means none");

/* A constant's value as a string: a default or a bound kept where its code is. */
#define STR_OF(x) #x
#define STR(x) STR_OF(x)

static int set_probesets(struct lb_options *c, char *list);
static int set_count_with(struct lb_options *c, char *s);
static int set_cpus(struct lb_options *c, char *s);
static int set_topology(struct lb_options *c, char *s);
static int set_mode(struct lb_options *c, char *s);
static int set_method(struct lb_options *c, char *s);
static int set_sweep(struct lb_options *c, char *s);
static int set_output(struct lb_options *c, char *s);
static int set_style(struct lb_options *c, char *s);

/* The rows, in the order of --help (and of getopt_long's "possibilities"). */
static const struct lb_option options[] = {
	{ .name = "probeset", .letter = 'p', .arg = "LIST", .kind = LB_OPT_CALL,
	  .set = set_probesets, .def_note = ": every catalog probe set that runs here",
	  .help = "probe sets to measure: catalog names or .probeset paths, comma-separated, "
		  "repeatable; 'none' = baseline only {default}; a named set with a "
		  "'compare-with' line brings along the set it builds on (lttng+kprobe: lttng); "
		  "an empty list or item (',,') is an error" },
	{ .name = "alone", AT(alone),
	  .help = "measure only the probe sets named, not the sets their 'compare-with' lines "
		  "add" },
	{ .name = "duration", .letter = 'd', .arg = "SEC", AT(duration), .min = 0.1, .max = 3600,
	  .def = "2", .help = "measured seconds per run, --method runs" },
	{ .name = "warmup", .letter = 'w', .arg = "SEC", AT(warmup), .min = 0, .max = 600,
	  .def = "0.5", .help = "seconds of load before each measured window" },
	{ .name = "repeat", .letter = 'r', .arg = "N", AT(repeat), .min = 1, .max = 1000,
	  .def = "5", .help = "rounds; each round runs the baseline then every probe set" },
	{ .name = "workload", .arg = "NAME", AT(wl.name), .def = "udp-rr",
	  .help = "workload: udp-rr, tcp-rr, icmp-flood (root), udp-stream, pcap-flood (root, "
		  "libpcap; ::1), or exec: the command after -- (loadbench [OPTIONS] --workload "
		  "exec -- CMD [ARGS...]), run to completion once per run, pinned per --cpus, or "
		  "a recipe of workloads/ run as exec (hackbench, nginx, redis, stress-ng-cpu)" },
	{ .name = "metric", .arg = "REGEX", AT(metric),
	  .help = "exec: the throughput is the number REGEX's first group (or match) finds in "
		  "the command's stdout (else its stderr), higher is better (e.g. "
		  "'Requests/sec: *([0-9.]+)'); without it, 1 / the seconds the command took" },
	{ .name = "metric-lower-is-better", AT(metric_lower),
	  .help = "exec with --metric: the number is a time or a latency, lower being better: a "
		  "run's throughput is 1 / it, and events/op are per run" },
	{ .name = "timeout", .arg = "SEC", AT(timeout), .min = 0.01, .max = 86400, .def = "600",
	  .help = "exec: a run still going after SEC seconds fails, its process group killed" },
	{ .name = "server", .arg = "'CMD ARGS'", AT(server),
	  .help = "exec: a long-lived server started once before the runs (its words split on "
		  "blanks, '...' quoting, no shell; {output} is the results' output/ directory), "
		  "waited for (--ready), part of the workload the per-process sets follow, "
		  "checked alive after every run, stopped (SIGTERM) at the end; its output in "
		  "output/server.out and .err" },
	{ .name = "ready", .arg = "tcp:PORT|line:REGEX", AT(ready),
	  .help = "exec with --server: the server is ready when 127.0.0.1:PORT accepts a "
		  "connection, or when a line of its output matches REGEX" },
	{ .name = "ready-timeout", .arg = "SEC", AT(ready_timeout), .min = 0.1, .max = 3600,
	  .def = "30",
	  .help = "exec with --server: a server not ready after SEC seconds is killed and "
		  "named" },
	{ .name = "window", .arg = "N", AT(wl.window), .min = 1, .max = 1024, .def = "1",
	  .def_note = ", like ping -f", GIVEN(window_given), .sweep = 4,
	  .help = "icmp-flood: echo requests kept outstanding, {range}" },
	{ .name = "rate", .arg = "OPS", AT(wl.rate), .min = 0, .max = LB_RATE_MAX, .def = "0",
	  .def_note = ": closed loop", .sweep = 5, .sweep_min = 1, /* 0 is no open loop */
	  .help = "udp-rr, tcp-rr, icmp-flood: open loop, each flow sends OPS requests per "
		  "second on a fixed schedule and times each from its scheduled send (no "
		  "coordinated omission); late sends are counted" },
	{ .name = "count-with", .arg = "pcap|none", .kind = LB_OPT_CALL, .set = set_count_with,
	  .def = "none",
	  .help = "also count the workload's delivered packets with a libpcap capture on lo "
		  "(root), recorded per run beside the workload's own count" },
	{ .name = "engine", .arg = "syscall|uring", AT(wl.engine), .def = "syscall",
	  .help = "server engine of udp-rr, tcp-rr and udp-stream: plain blocking syscalls, or "
		  "io_uring (multishot recv from a buffer ring where the kernel has it; needs "
		  "liburing)" },
	{ .name = "syscalls-per-op", .arg = "N", AT(wl.syscalls_per_op), .min = 0, .max = 1000,
	  .def = "4", .sweep = 1,
	  .help = "extra real syscalls the server makes per request" },
	{ .name = "msg-size", .arg = "BYTES", AT(wl.msg_size), .min = 8, .max = 65000,
	  .def = "64", .sweep = 2, .help = "request and reply payload size" },
	{ .name = "cpus", .arg = "S[,G]|none", .kind = LB_OPT_CALL, .set = set_cpus,
	  .def_note = ": both on the last CPU",
	  .help = "pin the server to CPU S and the generator to G" },
	/* Each workload's own default (its traits) when not given: pcap-flood's is ::1. */
	{ .name = "addr", .arg = "ADDR", AT(wl.addr), .def = "127.0.0.1",
	  .def_note = "; ::1 for pcap-flood", GIVEN(addr_given),
	  .help = "server address: a loopback address, 127.0.0.0/8 or ::1" },
	{ .name = "port", .arg = "PORT", AT(wl.port), .min = 0, .max = 65535, .def = "0",
	  .def_note = ": ephemeral", .help = "server port {default}; flow i uses PORT+i" },
	{ .name = "flows", .arg = "N", AT(wl.flows), .min = 1, .max = LB_FLOWS_MAX, .def = "1",
	  .sweep = 3,
	  .help = "independent generator/server pairs, each with its own sockets {default}; "
		  "flow 0 runs where --cpus says, flow i on the i-th allowed CPU after flow 0's "
		  "(wrapping around); the throughput is their sum" },
	{ .name = "topology", .arg = "lo|veth", .kind = LB_OPT_CALL, .set = set_topology,
	  .def = "lo",
	  .help = "lo: everything on loopback {(default)}; veth (root): the servers in a network "
		  "namespace of their own behind one veth pair per flow, 198.18.0.0/15 "
		  "addresses, all created and removed by loadbench" },
	{ .name = "buffer-kb", .arg = "KB", AT(topts.buffer_kb), .min = 4, .max = 4194304,
	  .def_note = ": each probe set's own",
	  .help = "per-CPU trace buffer for every probe set" },
	{ .name = "mode", .arg = "overwrite|discard|consumer", .kind = LB_OPT_CALL,
	  .set = set_mode, .def_note = ": each probe set's own",
	  .help = "buffer-full policy for every probe set; consumer: ftrace reads the buffer "
		  "while the workload runs" },
	{ .name = "bpf-stats", AT(topts.bpf_stats),
	  .help = "bpf, bpf-raw: the kernel's BPF run-time statistics on while a set is armed; "
		  "the summary gives its programs' runs and the ns inside them per run beside "
		  "the cost per event (the statistics add two clock reads to every run, and the "
		  "slowdown includes them); command sets with 'events bpf' always have them" },
	{ .name = "method", .arg = "alternate|runs", .kind = LB_OPT_CALL, .set = set_method,
	  .def = "alternate", GIVEN(method_given),
	  .help = "alternate {(default)}: per probe set, one running workload whose probes are "
		  "switched off and on in short slices, each on slice paired with the off slices "
		  "beside it; runs: a fresh workload per run, baseline and probe sets interleaved "
		  "over --repeat rounds of --duration (for a workload that must restart)" },
	{ .name = "slice", .arg = "SEC", AT(slice), .min = 0.01, .max = 60, .def = "0.1",
	  .help = "alternate: measured seconds per slice" },
	{ .name = "settle", .arg = "SEC", AT(settle), .min = 0, .max = 10, .def = "0.02",
	  .help = "alternate: seconds after each switch not measured" },
	{ .name = "precision", .arg = "PP", AT(precision), .min = 0.01, .max = 100, .def = "1.0",
	  .help = "alternate: alternate until every 95% CI half-width is at most PP percentage "
		  "points" },
	{ .name = "max-time", .arg = "SEC", AT(max_time), .min = 1, .max = 86400, .def = "60",
	  .help = "alternate: seconds of alternation per probe set at most, never fewer than 2 "
		  "units used (then up to " STR(LB_ALT_MAX_TIME_HARD) " times SEC) {default}; "
		  "the summary says which sets did not reach --precision" },
	{ .name = "time-budget", .arg = "SEC", AT(time_budget), .min = 0, .max = 864000,
	  .def = STR(LB_TIME_BUDGET_DEFAULT), .def_note = "; 0 = none",
	  .help = "alternate: seconds for every set's alternation together, set-up included "
		  "{default}: a first pass shares " STR(LB_ALT_FIRST_PASS_PCT) "% of it equally, "
		  "the rest tops up the sets furthest from --precision; at most --max-time each" },
	{ .name = "sweep", .arg = "KEY=V1,V2,...", .kind = LB_OPT_CALL, .set = set_sweep,
	  .help = "measure once per value of a workload parameter ({keys}), 2 to "
		  STR(LB_SWEEP_MAX) " values, each into DIR/KEY=V; then per probe set the line "
		  "through the added time per operation against the events per operation, whose "
		  "slope is the marginal cost of one event (sweep.txt, sweep.json)" },
	{ .name = "sample-interval", .arg = "SEC", AT(sample_interval), .min = 0.01, .max = 3600,
	  .def = "0.25", .help = "throughput sample period within a run" },
	/* The default is made when the run starts (lb_outdir_default()). */
	{ .name = "output", .letter = 'o', .arg = "DIR", .kind = LB_OPT_CALL, .set = set_output,
	  .def_note = " ./loadbench-results-DATE-TIME",
	  .help = "results directory {default}; checked before anything is measured; '-' writes "
		  "results.json to stdout and the table to stderr" },
	{ .name = "force", AT(force),
	  .help = "write into an existing, non-empty results directory" },
	{ .name = "no-plot", AT(no_plot), .help = "do not render figures" },
	{ .name = "style", .arg = "STYLE", .kind = LB_OPT_CALL, .set = set_style, .def = "lab",
	  .def_note = ": a screen, the provenance in a footer",
	  .help = "the figures' style: lab {(default)}, paper (3.3 in wide, 8 pt, captions in "
		  "NAME.caption.txt and .tex) or talk (16:9 slides)" },
	{ .name = "skip-unavailable", AT(skip_unavailable),
	  .help = "skip a named probe set that cannot run here (its tracer is unavailable, or "
		  "this kernel lacks what it needs) with a warning, instead of failing; recorded "
		  "in results.json as skipped" },
	{ .name = "allow-concurrent", AT(allow_concurrent),
	  .help = "measure even while another loadbench run measures on this machine (refused "
		  "otherwise): each slows the other, and both runs' results say so" },
	{ .name = "quiet", .letter = 'q', AT(quiet), .help = "no progress lines" },
	{ .name = "version", .letter = 'V', .kind = LB_OPT_VERSION, .help = "print the version" },
	{ .name = "help", .letter = 'h', .kind = LB_OPT_HELP, .help = "this help" },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* What getopt_long() returns for @r: its letter, or a value past 255 of its own. */
static int option_val(const struct lb_option *r)
{
	return r->letter ? r->letter : 256 + (int)(r - options);
}

/* The row getopt_long() returned @val for; NULL: an unknown option, or one without its argument. */
static const struct lb_option *option_of(int val)
{
	if (val >= 256)
		return val - 256 < (int)NOPTIONS ? &options[val - 256] : NULL;
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].letter && options[i].letter == val)
			return &options[i];
	return NULL;
}

/* The row of the option named by the @len bytes at @name that --sweep may vary; NULL: none. */
static const struct lb_option *sweep_option(const char *name, size_t len)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].sweep && strlen(options[i].name) == len &&
		    !strncmp(options[i].name, name, len))
			return &options[i];
	return NULL;
}

/* The options --sweep may vary, by their .sweep, comma-separated in @buf. Returns @buf. */
static const char *sweep_keys(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int k = 1; k <= (int)NOPTIONS; k++)
		for (size_t i = 0; i < NOPTIONS; i++)
			if (options[i].sweep == k && n < len)
				n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
						      options[i].name);
	return buf;
}

/* @r's default as --help says it: "(default DEF NOTE)"; without DEF when @named. */
static void default_write(FILE *f, const struct lb_option *r, bool named)
{
	fprintf(f, "(default%s%s%s)", r->def && !named ? " " : "", r->def && !named ? r->def : "",
		r->def_note ? r->def_note : "");
}

/* @r's help with its default, range and keys in place (see struct lb_option), into @f. */
static void help_write(FILE *f, const struct lb_option *r)
{
	bool placed = false;
	char keys[128];

	for (const char *p = r->help; *p;) {
		if (!strncmp(p, "{default}", 9) || !strncmp(p, "{(default)}", 11)) {
			default_write(f, r, p[1] == '(');
			p += p[1] == '(' ? 11 : 9;
			placed = true;
		} else if (!strncmp(p, "{range}", 7)) {
			if (r->kind == LB_OPT_DOUBLE)
				fprintf(f, "%g-%g", r->min, r->max);
			else
				fprintf(f, "%ld-%ld", (long)r->min, (long)r->max);
			p += 7;
		} else if (!strncmp(p, "{keys}", 6)) {
			fputs(sweep_keys(keys, sizeof(keys)), f);
			p += 6;
		} else {
			fputc(*p++, f);
		}
	}
	if (!placed && (r->def || r->def_note)) {
		fputc(' ', f);
		default_write(f, r, false);
	}
}

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
		char left[64], *text = NULL;
		size_t size;
		FILE *m;
		int col;

		if (o->letter)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->letter, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		col = fprintf(f, "  %-*s", 27, left);
		m = open_memstream(&text, &size);
		if (m) {
			help_write(m, o);
			if (fclose(m)) {
				free(text);
				text = NULL;
			}
		}
		lb_help_wrap(f, col, 30, 80, text ? text : o->help);
		free(text);
	}
}

/* @s for a message (lb_str_short()), in a buffer of its own: one per message. */
static const char *quoted(const char *s)
{
	static char buf[LB_STR_SHORT_BUF];

	return lb_str_short(s, buf, sizeof(buf));
}

int lb_options_double(const char *name, const char *s, double min, double max, double *out)
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

static int parse_long(const char *name, const char *s, long min, long max, long *out)
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
	*out = v;
	return 0;
}

/* Where @r's value is in @c. */
static void *option_field(struct lb_options *c, const struct lb_option *r)
{
	return (char *)c + r->off;
}

/* @v into @r's field of @c, a whole number of the type its kind says. */
static void store_long(struct lb_options *c, const struct lb_option *r, long v)
{
	if (r->kind == LB_OPT_SIZE)
		*(size_t *)option_field(c, r) = (size_t)v;
	else if (r->kind == LB_OPT_U16)
		*(uint16_t *)option_field(c, r) = (uint16_t)v;
	else
		*(int *)option_field(c, r) = (int)v;
}

/*
 * Option @r with argument @arg (NULL for a flag) into @c. Returns 0,
 * LB_OPTIONS_HELP or LB_OPTIONS_VERSION, or -EINVAL (said).
 */
static int option_set(struct lb_options *c, const struct lb_option *r, char *arg)
{
	long v;

	switch (r->kind) {
	case LB_OPT_FLAG:
		*(bool *)option_field(c, r) = true;
		return 0;
	case LB_OPT_INT:
	case LB_OPT_SIZE:
	case LB_OPT_U16:
		if (parse_long(r->name, arg, (long)r->min, (long)r->max, &v))
			return -EINVAL;
		store_long(c, r, v);
		return 0;
	case LB_OPT_DOUBLE:
		return lb_options_double(r->name, arg, r->min, r->max, option_field(c, r));
	case LB_OPT_STRING:
		*(const char **)option_field(c, r) = arg;
		return 0;
	case LB_OPT_CALL:
		return r->set(c, arg);
	case LB_OPT_HELP:
		return LB_OPTIONS_HELP;
	case LB_OPT_VERSION:
		return LB_OPTIONS_VERSION;
	}
	return -EINVAL;
}

/* --sweep KEY=V1,V2,...: the key, and 2 to LB_SWEEP_MAX distinct values in its range. */
static int set_sweep(struct lb_options *o, char *s)
{
	char *eq, *tok, *save = NULL, name[64], keys[128];
	const struct lb_option *r;
	long min;

	if (!s)
		return 0;
	eq = strchr(s, '=');
	r = eq ? sweep_option(s, (size_t)(eq - s)) : NULL;
	if (!r) {
		lb_err("--sweep '%s': expected KEY=V1,V2,... with KEY one of %s", quoted(s),
		       sweep_keys(keys, sizeof(keys)));
		return -EINVAL;
	}
	o->sweep_key = r->name;
	o->nsweep = 0;
	min = (long)(r->sweep_min > r->min ? r->sweep_min : r->min);
	snprintf(name, sizeof(name), "sweep %s", r->name);
	for (tok = strtok_r(eq + 1, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v;

		if (o->nsweep == LB_SWEEP_MAX) {
			lb_err("--sweep %s: more than %d values", o->sweep_key, LB_SWEEP_MAX);
			return -EINVAL;
		}
		if (parse_long(name, tok, min, (long)r->max, &v))
			return -EINVAL;
		for (int i = 0; i < o->nsweep; i++) {
			if (o->sweep_values[i] == v) {
				lb_err("--sweep %s: %ld is given twice", o->sweep_key, v);
				return -EINVAL;
			}
		}
		o->sweep_values[o->nsweep++] = (int)v;
	}
	if (o->nsweep < 2) {
		lb_err("--sweep %s: give 2 values or more (a line needs two points)",
		       o->sweep_key);
		return -EINVAL;
	}
	return 0;
}

void lb_options_sweep_apply(struct lb_options *o, int value)
{
	const struct lb_option *r;

	if (!o->sweep_key)
		return;
	r = sweep_option(o->sweep_key, strlen(o->sweep_key));
	if (r)
		store_long(o, r, value);
}

/*
 * --output DIR: a path a directory can have. Empty, longer than PATH_MAX, or
 * with a name longer than NAME_MAX, it is a usage error, said here (the
 * kernel's "File name too long" says neither which option nor the fix).
 */
static int set_output(struct lb_options *c, char *s)
{
	size_t name = 0, longest = 0;

	if (!s)
		return 0;
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
	c->output = s;
	return 0;
}

/*
 * --probeset LIST: its comma-separated names into c->specs (split in place).
 * An empty list or an empty item (two commas, a comma at an end) is refused:
 * read as nothing, it would start the default run of every probe set.
 */
static int set_probesets(struct lb_options *c, char *list)
{
	const char *q;
	char *item = list, *comma;
	int n = 0;

	if (!list)
		return 0;
	q = quoted(list);	/* before the list is split */
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

/* --cpus S[,G]|none; NULL: the default, both on the last CPU online. */
static int set_cpus(struct lb_options *c, char *s)
{
	struct lb_workload_config *wl = &c->wl;
	long ncpus;
	int a, b;
	char extra;

	if (!s) {
		ncpus = sysconf(_SC_NPROCESSORS_ONLN);
		wl->server_cpu = wl->client_cpu = ncpus > 0 ? (int)ncpus - 1 : -1;
		return 0;
	}
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
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

/*
 * Which of @names (NULL-terminated) the argument @s of --@opt is. Returns its
 * index, or -EINVAL after saying "expected A, B or C".
 */
static int choice(const char *opt, const char *s, const char *const *names)
{
	char list[128];
	size_t n = 0;

	for (int i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	list[0] = '\0';
	for (int i = 0; names[i] && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      !i ? "" : names[i + 1] ? ", " : " or ", names[i]);
	lb_err("--%s '%s': expected %s", opt, quoted(s), list);
	return -EINVAL;
}

static int set_count_with(struct lb_options *c, char *s)
{
	int i = choice("count-with", s, (const char *const[]){ "pcap", "none", NULL });

	if (i < 0)
		return i;
	c->count_pcap = i == 0;
	return 0;
}

static int set_topology(struct lb_options *c, char *s)
{
	int i = choice("topology", s, lb_topology_names);

	if (i < 0)
		return i;
	c->wl.topology = (enum lb_topology)i;
	return 0;
}

/* --mode; NULL: the default, each probe set's own (LB_MODE_DEFAULT). */
static int set_mode(struct lb_options *c, char *s)
{
	int i;

	if (!s) {
		c->topts.mode = LB_MODE_DEFAULT;
		return 0;
	}
	/* In the order of enum lb_buffer_mode, from LB_MODE_OVERWRITE. */
	i = choice("mode", s, (const char *const[]){ "overwrite", "discard", "consumer", NULL });
	if (i < 0)
		return i;
	c->topts.mode = (enum lb_buffer_mode)(LB_MODE_OVERWRITE + i);
	return 0;
}

static int set_method(struct lb_options *c, char *s)
{
	int i = choice("method", s, (const char *const[]){ "alternate", "runs", NULL });

	if (i < 0)
		return i;
	c->alternate = i == 0;
	return 0;
}

static int set_style(struct lb_options *c, char *s)
{
	int style = lb_fig_style_parse(s);

	if (style < 0) {
		lb_err("--style '%s': choose lab, paper or talk", quoted(s));
		return -EINVAL;
	}
	c->style = style;
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

/* Every option's default into @c, zero first: a row's def, else its handler's. */
static void options_default(struct lb_options *c)
{
	memset(c, 0, sizeof(*c));
	lb_workload_config_init(&c->wl);
	c->wl.naming = &cli_naming;
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct lb_option *r = &options[i];

		/* No handler of a row with a def writes to its argument: a literal will do. */
		if (r->def)
			option_set(c, r, (char *)r->def);
		else if (r->kind == LB_OPT_CALL)
			r->set(c, NULL);
	}
}

int lb_options_parse(int argc, char **argv, struct lb_options *c)
{
	struct option longopts[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 2], *s = shortopts;
	const struct lb_workload_traits *traits;
	int opt, ret = 0;

	*s++ = '+';	/* options end at the first argument that is not one */
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct lb_option *r = &options[i];

		longopts[i] = (struct option){ r->name, r->arg ? required_argument : no_argument,
					       NULL, option_val(r) };
		if (r->letter) {
			*s++ = r->letter;
			if (r->arg)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&longopts[NOPTIONS], 0, sizeof(longopts[0]));
	options_default(c);

	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct lb_option *r = option_of(opt);

		if (!r) {
			fprintf(stderr, "Try 'loadbench --help'.\n");
			return -EINVAL;
		}
		if (r->given)
			*(bool *)((char *)c + r->given) = true;
		ret = option_set(c, r, optarg);
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
