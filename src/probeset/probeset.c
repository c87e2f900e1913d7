// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe-set files: a line-oriented "keyword value" format (see probeset.h).
 * The parser checks syntax only and stops at the first problem, reported as
 * "PATH:LINE: problem" with what was expected.
 *
 * Length (over 600 lines, kept whole): one grammar, its keyword table and
 * each keyword's checks, and the catalog lookup that names the file's
 * path in every error.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probeset.h"
#include "util.h"
#include "words.h"

#define LB_PROBESET_MAX_LINE	4096
#define LB_PROBESET_MAX_FILE	(1024 * 1024)
#define LB_BUFFER_KB_MIN	4
#define LB_BUFFER_KB_MAX	4194304
#define LB_QUOTE_MAX		64	/* bytes of a bad value quoted in a message */
#define LB_KPROBE_OFFSET_MAX	65535	/* a kprobe's +OFFSET: bytes into one function */

static const char *const keywords =
	"description, tracer, tracepoint, syscall, kprobe, kretprobe, uprobe, uretprobe, usdt, "
	"buffer-kb, mode, reader-cpu, scope, compare-with, kprobe-optimization, reference, "
	"default-run, binary, start, ready, ready-within, stop, events";


/* Append to a message already in @err (truncating at @errlen). */
__attribute__((format(printf, 3, 4)))
static void caterr(char *err, size_t errlen, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!err || !errlen)
		return;
	used = strnlen(err, errlen);
	if (used + 1 >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + used, errlen - used, fmt, ap);
	va_end(ap);
}

static bool is_lower_word(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')
			continue;
		if (!extra || !strchr(extra, *s))
			return false;
	}
	return true;
}

/* [A-Za-z0-9_]+ over @len bytes of @s. */
static bool is_event_name(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_'))
			return false;
	}
	return true;
}

/* [A-Za-z0-9_+.-]+ */
static bool is_probeset_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!is_event_name(s, 1) && !strchr("+.-", *s))
			return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The name a probe set read from @path gets; malloc'd, NULL on ENOMEM. */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (ends_with(base, LB_PROBESET_EXT))
		len -= strlen(LB_PROBESET_EXT);
	return strndup(base, len);
}

/* The line @p is on in @text (1-based). */
static int line_of(const char *text, const char *p)
{
	int line = 1;

	for (; text < p; text++)
		if (*text == '\n')
			line++;
	return line;
}

/* The line a problem with the file as a whole is reported at: its last line. */
static int last_line(const char *text)
{
	size_t len = strlen(text);

	if (len && text[len - 1] == '\n')
		len--;
	return line_of(text, text + len);
}

const char *lb_probe_kind_name(enum lb_probe_kind kind)
{
	static const char *const names[] = {
		[LB_PROBE_TRACEPOINT] = "tracepoint", [LB_PROBE_SYSCALL] = "syscall",
		[LB_PROBE_KPROBE] = "kprobe", [LB_PROBE_KRETPROBE] = "kretprobe",
		[LB_PROBE_UPROBE] = "uprobe", [LB_PROBE_URETPROBE] = "uretprobe",
		[LB_PROBE_USDT] = "usdt",
	};

	return names[kind];
}

/* [A-Za-z0-9_.]+: a kernel symbol (NAME.constprop.0) or a C function name. */
static bool is_symbol_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		if (!is_event_name(s, 1) && *s != '.')
			return false;
	}
	return true;
}

/* Write "system:event" or "name" of @p into @buf. */
static const char *probe_str(const struct lb_probe *p, char *buf, size_t len)
{
	if (p->system)
		snprintf(buf, len, "%s:%s", p->system, p->event);
	else if (p->offset)
		snprintf(buf, len, "%s+%lu", p->event, p->offset);
	else
		snprintf(buf, len, "%s", p->event);
	return buf;
}

/* Whether @a (earlier) already enables everything @b does. */
static bool probe_covers(const struct lb_probe *a, const struct lb_probe *b)
{
	if (a->kind != b->kind)
		return false;
	if (!a->system && a->kind != LB_PROBE_SYSCALL)	/* kprobe, LTTng name, ...: one name */
		return !b->system && !strcmp(a->event, b->event) && a->offset == b->offset;
	if (!b->system && b->kind != LB_PROBE_SYSCALL)
		return false;
	if (a->kind == LB_PROBE_SYSCALL)
		return !strcmp(a->event, b->event) || !strcmp(a->event, "all") ||
		       !strcmp(b->event, "all");
	if (strcmp(a->system, b->system))
		return false;
	return !strcmp(a->event, b->event) || !strcmp(a->event, "*") || !strcmp(b->event, "*");
}

/* Parser state: the probe set being built and where the problem goes. */
struct parser {
	struct lb_probeset *ps;
	const char *path;
	int line;
	int description_line;
	int buffer_line;
	int mode_line;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	lb_seterr(p->err, p->errlen, "%s:%d: %s", p->path, p->line, msg);
	return -EINVAL;
}

/* A keyword that may appear once: fail naming both lines when it repeats. */
static int once(struct parser *p, const char *kw, int *seen_line)
{
	if (*seen_line)
		return fail(p, "second '%s' line (the first is line %d); expected at most one",
			    kw, *seen_line);
	*seen_line = p->line;
	return 0;
}

static int add_probe(struct parser *p, enum lb_probe_kind kind, const char *system,
		     size_t syslen, const char *event, unsigned long offset)
{
	struct lb_probeset *ps = p->ps;
	struct lb_probe probe = { .kind = kind, .line = p->line, .offset = offset };
	struct lb_probe *grown;
	char a[160], b[160];
	size_t i;

	probe.event = strdup(event);
	if (!probe.event)
		return -ENOMEM;
	if (system) {
		probe.system = strndup(system, syslen);
		if (!probe.system) {
			free(probe.event);
			return -ENOMEM;
		}
	}
	for (i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *old = &ps->probes[i];

		if (!probe_covers(old, &probe))
			continue;
		probe_str(old, a, sizeof(a));
		probe_str(&probe, b, sizeof(b));
		free(probe.system);
		free(probe.event);
		if (!strcmp(a, b))
			return fail(p, "duplicate probe: %s %s is already on line %d",
				    lb_probe_kind_name(kind), b, old->line);
		return fail(p, "duplicate probe: %s %s overlaps %s %s on line %d",
			    lb_probe_kind_name(kind), b, lb_probe_kind_name(kind), a, old->line);
	}
	grown = realloc(ps->probes, (ps->nprobes + 1) * sizeof(*grown));
	if (!grown) {
		free(probe.system);
		free(probe.event);
		return -ENOMEM;
	}
	ps->probes = grown;
	ps->probes[ps->nprobes++] = probe;
	return 0;
}

static int parse_tracepoint(struct parser *p, const char *v)
{
	const char *colon = strchr(v, ':');
	const char *event = colon ? colon + 1 : NULL;

	/* LTTng names kernel tracepoints without a system (net_if_receive_skb). */
	if (!colon && is_event_name(v, strlen(v)))
		return add_probe(p, LB_PROBE_TRACEPOINT, NULL, 0, v, 0);
	if (!colon || !is_event_name(v, colon - v) ||
	    (strcmp(event, "*") && !is_event_name(event, strlen(event))))
		return fail(p, "bad tracepoint '%.*s': expected SYSTEM:EVENT (letters, digits "
			    "and _; EVENT may be *), e.g. net:netif_receive_skb, or an LTTng "
			    "event name, e.g. net_if_receive_skb",
			    LB_QUOTE_MAX, v);
	return add_probe(p, LB_PROBE_TRACEPOINT, v, colon - v, event, 0);
}

static int parse_syscall(struct parser *p, const char *v)
{
	if (!is_lower_word(v, NULL))
		return fail(p, "bad syscall '%.*s': expected 'all' or a syscall name (a-z, 0-9 "
			    "and _), e.g. getppid", LB_QUOTE_MAX, v);
	return add_probe(p, LB_PROBE_SYSCALL, NULL, 0, v, 0);
}

/*
 * The OFFSET of a kprobe's SYMBOL+OFFSET: decimal or 0x hex, 1 to
 * LB_KPROBE_OFFSET_MAX. Returns 0 with *@out set, or fails.
 */
static int parse_offset(struct parser *p, const char *v, unsigned long *out)
{
	const char *c = v;
	int base = 10;
	char *end;

	if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X')) {
		base = 16;
		c += 2;
	}
	for (const char *d = c; *d; d++) {
		if (!(base == 16 ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
			c = "";
	}
	errno = 0;
	*out = *c ? strtoul(c, &end, base) : 0;
	if (!*c || errno || *out == 0 || *out > LB_KPROBE_OFFSET_MAX)
		return fail(p, "bad kprobe offset '%.*s': expected a number of bytes into the "
			    "function from 1 to %d (decimal or 0x hex), e.g. schedule+5 (an "
			    "instruction boundary: the kernel refuses others)", LB_QUOTE_MAX, v,
			    LB_KPROBE_OFFSET_MAX);
	return 0;
}

/* kprobe, kretprobe (kernel symbols; a kprobe may be SYMBOL+OFFSET), uprobe, uretprobe. */
static int parse_symbol(struct parser *p, enum lb_probe_kind kind, char *v)
{
	bool user = kind == LB_PROBE_UPROBE || kind == LB_PROBE_URETPROBE;
	char *plus = strchr(v, '+');
	unsigned long offset = 0;
	int ret;

	if (plus && kind != LB_PROBE_KPROBE)
		return fail(p, "bad %s '%.*s': %s; expected %s, e.g. %s", lb_probe_kind_name(kind),
			    LB_QUOTE_MAX, v, kind == LB_PROBE_KRETPROBE ?
			    "a kretprobe fires on the function's return and takes no offset" :
			    "a uprobe takes a function's name, no offset",
			    user ? "a function of the workload server" : "a kernel symbol",
			    user ? "lb_server_request" : "netif_rx");
	if (plus) {
		*plus = '\0';
		ret = parse_offset(p, plus + 1, &offset);
		if (ret)
			return ret;
	}
	if (!is_symbol_name(v))
		return fail(p, "bad %s '%.*s': expected %s (letters, digits, _ and .)%s, e.g. %s",
			    lb_probe_kind_name(kind), LB_QUOTE_MAX, v,
			    user ? "a function of the workload server" : "a kernel symbol",
			    kind == LB_PROBE_KPROBE ? ", optionally +OFFSET" : "",
			    user ? "lb_server_request" : "netif_rx");
	return add_probe(p, kind, NULL, 0, v, offset);
}

/* usdt PROVIDER:NAME: a USDT marker of the workload server. */
static int parse_usdt(struct parser *p, const char *v)
{
	const char *colon = strchr(v, ':');

	if (!colon || !is_event_name(v, (size_t)(colon - v)) ||
	    !is_event_name(colon + 1, strlen(colon + 1)))
		return fail(p, "bad usdt '%.*s': expected PROVIDER:NAME, a USDT marker of the "
			    "workload server ([A-Za-z0-9_] each), e.g. loadbench:request",
			    LB_QUOTE_MAX, v);
	return add_probe(p, LB_PROBE_USDT, v, (size_t)(colon - v), colon + 1, 0);
}

/*
 * binary PATH: the executable the uprobe, uretprobe and usdt lines probe,
 * absolute (uprobe_events names it so), of the characters a path in
 * uprobe_events can hold (no blank, no ':' that would end it).
 */
static int parse_binary(struct parser *p, const char *v)
{
	int ret = once(p, "binary", &p->ps->binary_line);

	if (ret)
		return ret;
	if (v[0] != '/' || strpbrk(v, ":()") || strlen(v) >= 1024)
		return fail(p, "bad binary '%.*s': expected the absolute path of an executable "
			    "(no ':', '(' or ')', under 1024 bytes), e.g. /usr/bin/python3.11",
			    LB_QUOTE_MAX, v);
	p->ps->binary = strdup(v);
	return p->ps->binary ? 0 : -ENOMEM;
}

/* kprobe-optimization off|on: debug.kprobes-optimization while the set is on. */
static int parse_kprobe_optimization(struct parser *p, const char *v)
{
	int ret, value;

	if (!strcmp(v, "off"))
		value = 0;
	else if (!strcmp(v, "on"))
		value = 1;
	else
		return fail(p, "bad kprobe-optimization '%.*s': expected off (breakpoint "
			    "kprobes, the 2006 kind) or on", LB_QUOTE_MAX, v);
	ret = once(p, "kprobe-optimization", &p->ps->kprobe_optimization_line);
	if (ret)
		return ret;
	p->ps->kprobe_optimization = value;
	return 0;
}

static int parse_buffer_kb(struct parser *p, const char *v)
{
	const char *range = "expected an integer from 4 to 4194304 (KiB per CPU)";
	long kb = 0;
	const char *c;
	int ret;

	for (c = v; *c; c++) {
		if (*c < '0' || *c > '9')
			return fail(p, "buffer-kb '%.*s' is not a number; %s", LB_QUOTE_MAX, v,
				    range);
	}
	/* Leading zeros aside, more than 7 digits is out of range anyway. */
	while (v[0] == '0' && v[1])
		v++;
	if (strlen(v) <= 7)
		kb = strtol(v, NULL, 10);
	if (strlen(v) > 7 || kb < LB_BUFFER_KB_MIN || kb > LB_BUFFER_KB_MAX)
		return fail(p, "buffer-kb %.*s is out of range; %s", LB_QUOTE_MAX, v, range);
	ret = once(p, "buffer-kb", &p->buffer_line);
	if (ret)
		return ret;
	p->ps->buffer_kb = (int)kb;
	return 0;
}

static int parse_mode(struct parser *p, const char *v)
{
	enum lb_buffer_mode mode;
	int ret;

	if (!strcmp(v, "overwrite")) {
		mode = LB_MODE_OVERWRITE;
	} else if (!strcmp(v, "discard")) {
		mode = LB_MODE_DISCARD;
	} else if (!strcmp(v, "consumer")) {
		mode = LB_MODE_CONSUMER;
	} else {
		return fail(p, "bad mode '%.*s': expected overwrite, discard or consumer",
			    LB_QUOTE_MAX, v);
	}
	ret = once(p, "mode", &p->mode_line);
	if (ret)
		return ret;
	p->ps->mode = mode;
	return 0;
}

static int parse_reader_cpu(struct parser *p, const char *v)
{
	enum lb_reader_cpu where;
	int ret;

	if (!strcmp(v, "workload")) {
		where = LB_READER_WORKLOAD;
	} else if (!strcmp(v, "other")) {
		where = LB_READER_OTHER;
	} else {
		return fail(p, "bad reader-cpu '%.*s': expected workload or other", LB_QUOTE_MAX,
			    v);
	}
	ret = once(p, "reader-cpu", &p->ps->reader_cpu_line);
	if (ret)
		return ret;
	p->ps->reader_cpu = where;
	return 0;
}

static int parse_scope(struct parser *p, const char *v)
{
	enum lb_scope scope;
	int ret;

	if (!strcmp(v, "system")) {
		scope = LB_SCOPE_SYSTEM;
	} else if (!strcmp(v, "workload")) {
		scope = LB_SCOPE_WORKLOAD;
	} else {
		return fail(p, "bad scope '%.*s': expected system or workload", LB_QUOTE_MAX, v);
	}
	ret = once(p, "scope", &p->ps->scope_line);
	if (ret)
		return ret;
	p->ps->scope = scope;
	return 0;
}

/* compare-with NAME: the probe set this one builds on, measured beside it. */
static int parse_compare_with(struct parser *p, const char *v)
{
	int ret;

	if (!is_probeset_name(v))
		return fail(p, "bad compare-with '%.*s': expected a probe-set name (letters, digits, "
			    "_, +, . and -), e.g. lttng", LB_QUOTE_MAX, v);
	if (!strcmp(v, p->ps->name))
		return fail(p, "'compare-with %s' names this probe set itself; expected the set it "
			    "builds on, e.g. lttng for lttng+kprobe", v);
	ret = once(p, "compare-with", &p->ps->compare_with_line);
	if (ret)
		return ret;
	p->ps->compare_with = strdup(v);
	return p->ps->compare_with ? 0 : -ENOMEM;
}

static int parse_tracer(struct parser *p, const char *v)
{
	if (!is_lower_word(v, "+-"))
		return fail(p, "bad tracer '%.*s': expected a tracer name (a-z, 0-9, _, + and -), "
			    "e.g. ftrace", LB_QUOTE_MAX, v);
	if (p->ps->tracer)
		return fail(p, "second 'tracer' line (the first is line %d); expected exactly one",
			    p->ps->tracer_line);
	p->ps->tracer = strdup(v);
	if (!p->ps->tracer)
		return -ENOMEM;
	p->ps->tracer_line = p->line;
	return 0;
}

/* A POSIX ERE that compiles: 0, or fail naming @what. */
static int check_regex(struct parser *p, const char *what, const char *re)
{
	char msg[160];
	regex_t rx;
	int ret;

	if (!*re)
		return fail(p, "'%s' has an empty regex; expected a POSIX extended regex", what);
	ret = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &rx, msg, sizeof(msg));
		return fail(p, "'%s': bad regex '%.*s': %s; expected a POSIX extended regex "
			    "(no '#': it starts a comment)", what, LB_QUOTE_MAX, re, msg);
	}
	regfree(&rx);
	return 0;
}

/* Seconds in (0, @max] into *@out: 0, or fail naming @what. */
static int parse_seconds(struct parser *p, const char *what, const char *v, double max,
			 double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end || !(d > 0) || d > max)
		return fail(p, "bad %s '%.*s': expected seconds above 0 and at most %g",
			    what, LB_QUOTE_MAX, v, max);
	*out = d;
	return 0;
}

static int parse_start(struct parser *p, const char *v)
{
	char **argv = NULL;
	int ret = once(p, "start", &p->ps->start_line);

	if (ret)
		return ret;
	if (!*v)
		return fail(p, "'start' needs a value: expected the tool's command line, "
			    "e.g. bpftrace -e '...'");
	ret = lb_words_split(v, NULL, &argv);
	lb_words_free(argv);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		return fail(p, "bad 'start' command line: an unclosed quote, or more than %d "
			    "words; expected words split on blanks, '...' quoting one",
			    LB_WORDS_MAX);
	p->ps->start = strdup(v);
	return p->ps->start ? 0 : -ENOMEM;
}

/* ready bpf:N: how many BPF programs the tool holds once it is ready, 1 to 1000. */
static int parse_nprogs(struct parser *p, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < 1 || n > 1000)
		return fail(p, "bad 'ready bpf:%.*s': expected the number of BPF programs the "
			    "tool holds once ready, 1 to 1000", LB_QUOTE_MAX, v);
	p->ps->ready_nprogs = (int)n;
	return 0;
}

static int parse_ready(struct parser *p, const char *v)
{
	double d;
	int ret = once(p, "ready", &p->ps->ready_line);

	if (ret)
		return ret;
	if (!strncmp(v, "line:", 5))
		ret = check_regex(p, "ready line:", v + 5);
	else if (!strncmp(v, "delay:", 6))
		ret = parse_seconds(p, "ready delay", v + 6, 600, &d);
	else if (!strncmp(v, "file:", 5))
		ret = v[5] == '/' ? 0 : fail(p, "bad 'ready file:%.*s': expected an absolute path",
					     LB_QUOTE_MAX, v + 5);
	else if (!strncmp(v, "bpf:", 4))
		ret = parse_nprogs(p, v + 4);
	else if (strcmp(v, "bpf"))
		ret = fail(p, "bad 'ready' value '%.*s'; expected line:REGEX, delay:SEC, "
			   "file:PATH, bpf or bpf:N", LB_QUOTE_MAX, *v ? v : "(none)");
	if (ret)
		return ret;
	p->ps->ready = strdup(v);
	return p->ps->ready ? 0 : -ENOMEM;
}

static int parse_stop(struct parser *p, char *v)
{
	static const struct { const char *name; int sig; } sigs[] = {
		{ "SIGINT", SIGINT }, { "SIGTERM", SIGTERM }, { "SIGHUP", SIGHUP },
		{ "SIGQUIT", SIGQUIT }, { "SIGUSR1", SIGUSR1 }, { "SIGUSR2", SIGUSR2 },
		{ "SIGKILL", SIGKILL },
	};
	char *secs = v + strcspn(v, " \t");
	size_t i;
	int ret = once(p, "stop", &p->ps->stop_line);

	if (ret)
		return ret;
	if (*secs) {
		*secs++ = '\0';
		secs += strspn(secs, " \t");
	}
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(v, sigs[i].name))
			break;
	if (i == sizeof(sigs) / sizeof(sigs[0]))
		return fail(p, "bad 'stop' signal '%.*s'; expected SIGINT, SIGTERM, SIGHUP, "
			    "SIGQUIT, SIGUSR1, SIGUSR2 or SIGKILL, then optionally the seconds "
			    "before it is killed", LB_QUOTE_MAX, *v ? v : "(none)");
	p->ps->stop_signal = sigs[i].sig;
	return *secs ? parse_seconds(p, "'stop' timeout", secs, 120, &p->ps->stop_within) : 0;
}

static int parse_events(struct parser *p, const char *v)
{
	int ret = once(p, "events", &p->ps->events_line);

	if (ret)
		return ret;
	if (!strncmp(v, "regex:", 6))
		ret = check_regex(p, "events regex:", v + 6);
	else if (strcmp(v, "bpf") && strcmp(v, "none"))
		ret = fail(p, "bad 'events' value '%.*s'; expected bpf, regex:REGEX or none",
			   LB_QUOTE_MAX, *v ? v : "(none)");
	if (ret)
		return ret;
	p->ps->events = strdup(v);
	return p->ps->events ? 0 : -ENOMEM;
}

/* What each one-value keyword expects, for "needs a value" messages. */
static const char *expected_value(const char *kw)
{
	if (!strcmp(kw, "tracer"))
		return "a tracer name, e.g. ftrace";
	if (!strcmp(kw, "tracepoint"))
		return "SYSTEM:EVENT, e.g. net:netif_receive_skb (lttng: net_if_receive_skb)";
	if (!strcmp(kw, "syscall"))
		return "'all' or a syscall name, e.g. getppid";
	if (!strcmp(kw, "kprobe"))
		return "a kernel symbol, optionally +OFFSET, e.g. netif_rx or schedule+5";
	if (!strcmp(kw, "kretprobe"))
		return "a kernel symbol, e.g. netif_rx";
	if (!strcmp(kw, "usdt"))
		return "PROVIDER:NAME, a USDT marker of the workload server, e.g. loadbench:request";
	if (!strcmp(kw, "uprobe") || !strcmp(kw, "uretprobe"))
		return "a function of the workload server, e.g. lb_server_request";
	if (!strcmp(kw, "buffer-kb"))
		return "an integer from 4 to 4194304 (KiB per CPU)";
	if (!strcmp(kw, "scope"))
		return "system or workload";
	if (!strcmp(kw, "reader-cpu"))
		return "workload or other";
	if (!strcmp(kw, "compare-with"))
		return "the name of the probe set this one builds on, e.g. lttng";
	if (!strcmp(kw, "kprobe-optimization"))
		return "off or on";
	if (!strcmp(kw, "default-run"))
		return "yes or no";
	if (!strcmp(kw, "binary"))
		return "the absolute path of the executable the uprobe and usdt lines probe, "
		       "e.g. /usr/bin/python3.11";
	if (!strcmp(kw, "ready-within"))
		return "the seconds the tool has to get ready, e.g. 30";
	return "overwrite, discard or consumer";
}

/*
 * Parse one line, already cut at '#' and NUL-terminated in @buf (which it
 * may modify).
 */
static int parse_line(struct parser *p, char *buf)
{
	char *kw, *rest, *end, *extra;
	size_t len;

	for (kw = buf; is_blank(*kw); kw++)
		;
	len = strlen(kw);
	while (len && is_blank(kw[len - 1]))
		kw[--len] = '\0';
	if (!len)
		return 0;
	for (end = kw; *end && !is_blank(*end); end++)
		;
	for (rest = end; is_blank(*rest); rest++)
		;
	*end = '\0';

	if (!strcmp(kw, "description")) {
		int ret = once(p, "description", &p->description_line);

		if (ret)
			return ret;
		if (!*rest)
			return fail(p, "'description' needs a value: expected a line of text");
		p->ps->description = strdup(rest);
		return p->ps->description ? 0 : -ENOMEM;
	}
	if (!strcmp(kw, "reference")) {
		int ret = once(p, "reference", &p->ps->reference_line);

		if (ret)
			return ret;
		if (!*rest)
			return fail(p, "'reference' needs a value: expected a line naming the "
				    "published figure the set answers");
		p->ps->reference = strdup(rest);
		return p->ps->reference ? 0 : -ENOMEM;
	}
	/* The command tracer's lines: their values hold blanks. */
	if (!strcmp(kw, "start"))
		return parse_start(p, rest);
	if (!strcmp(kw, "ready"))
		return parse_ready(p, rest);
	if (!strcmp(kw, "stop"))
		return parse_stop(p, rest);
	if (!strcmp(kw, "events"))
		return parse_events(p, rest);
	if (strcmp(kw, "tracer") && strcmp(kw, "tracepoint") && strcmp(kw, "syscall") &&
	    strcmp(kw, "kprobe") && strcmp(kw, "kretprobe") && strcmp(kw, "uprobe") &&
	    strcmp(kw, "uretprobe") && strcmp(kw, "usdt") && strcmp(kw, "buffer-kb") &&
	    strcmp(kw, "mode") &&
	    strcmp(kw, "scope") && strcmp(kw, "reader-cpu") && strcmp(kw, "compare-with") &&
	    strcmp(kw, "kprobe-optimization") && strcmp(kw, "ready-within") &&
	    strcmp(kw, "default-run") && strcmp(kw, "binary"))
		return fail(p, "unknown keyword '%.*s'; expected one of: %s", LB_QUOTE_MAX, kw,
			    keywords);
	if (!*rest)
		return fail(p, "'%s' needs a value: expected %s", kw, expected_value(kw));
	for (extra = rest; *extra && !is_blank(*extra); extra++)
		;
	if (*extra) {
		*extra++ = '\0';
		while (is_blank(*extra))
			extra++;
		return fail(p, "'%s' takes one value, but '%.*s' follows '%.*s'; expected %s", kw,
			    LB_QUOTE_MAX, extra, LB_QUOTE_MAX, rest, expected_value(kw));
	}
	if (!strcmp(kw, "tracer"))
		return parse_tracer(p, rest);
	if (!strcmp(kw, "tracepoint"))
		return parse_tracepoint(p, rest);
	if (!strcmp(kw, "syscall"))
		return parse_syscall(p, rest);
	if (!strcmp(kw, "kprobe"))
		return parse_symbol(p, LB_PROBE_KPROBE, rest);
	if (!strcmp(kw, "kretprobe"))
		return parse_symbol(p, LB_PROBE_KRETPROBE, rest);
	if (!strcmp(kw, "uprobe"))
		return parse_symbol(p, LB_PROBE_UPROBE, rest);
	if (!strcmp(kw, "usdt"))
		return parse_usdt(p, rest);
	if (!strcmp(kw, "uretprobe"))
		return parse_symbol(p, LB_PROBE_URETPROBE, rest);
	if (!strcmp(kw, "buffer-kb"))
		return parse_buffer_kb(p, rest);
	if (!strcmp(kw, "scope"))
		return parse_scope(p, rest);
	if (!strcmp(kw, "reader-cpu"))
		return parse_reader_cpu(p, rest);
	if (!strcmp(kw, "compare-with"))
		return parse_compare_with(p, rest);
	if (!strcmp(kw, "kprobe-optimization"))
		return parse_kprobe_optimization(p, rest);
	if (!strcmp(kw, "default-run")) {
		int ret = once(p, "default-run", &p->ps->default_run_line);

		if (ret)
			return ret;
		if (strcmp(rest, "yes") && strcmp(rest, "no"))
			return fail(p, "bad default-run '%.*s': expected yes or no", LB_QUOTE_MAX,
				    rest);
		p->ps->default_run = !strcmp(rest, "yes");
		return 0;
	}
	if (!strcmp(kw, "binary"))
		return parse_binary(p, rest);
	if (!strcmp(kw, "ready-within")) {
		int ret = once(p, "ready-within", &p->ps->ready_within_line);

		return ret ? ret : parse_seconds(p, "ready-within", rest, 3600,
						 &p->ps->ready_within);
	}
	return parse_mode(p, rest);
}

static int parse_text(struct parser *p, const char *text)
{
	char buf[LB_PROBESET_MAX_LINE + 1];
	const char *s = text;
	int ret;

	for (p->line = 1; *s; p->line++) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *hash;
		size_t i;

		if (len > LB_PROBESET_MAX_LINE)
			return fail(p, "line is %zu bytes long; expected at most %d", len,
				    LB_PROBESET_MAX_LINE);
		memcpy(buf, s, len);
		buf[len] = '\0';
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		for (i = 0; buf[i]; i++) {
			unsigned char c = buf[i];

			if ((c < 0x20 && !is_blank(c)) || c == 0x7f)
				return fail(p, "control character 0x%02x; expected text", c);
		}
		ret = parse_line(p, buf);
		if (ret)
			return ret;
		s += len + (nl ? 1 : 0);
	}
	if (p->ps->reader_cpu_line && p->ps->mode != LB_MODE_CONSUMER) {
		p->line = p->ps->reader_cpu_line;
		return fail(p, "'reader-cpu' places the reader of 'mode consumer', but %s; "
			    "add 'mode consumer' or remove this line", p->mode_line ?
			    "the mode is not consumer" : "there is no 'mode' line");
	}
	if (p->ps->binary_line) {
		bool user = false;

		for (size_t i = 0; i < p->ps->nprobes; i++)
			user |= p->ps->probes[i].kind == LB_PROBE_UPROBE ||
				p->ps->probes[i].kind == LB_PROBE_URETPROBE ||
				p->ps->probes[i].kind == LB_PROBE_USDT;
		if (!user) {
			p->line = p->ps->binary_line;
			return fail(p, "'binary' names the executable of the uprobe, uretprobe and "
				    "usdt lines, but the set has none; add one or remove this line");
		}
	}
	p->line = last_line(text);
	if (!p->ps->tracer)
		return fail(p, "no 'tracer' line; expected exactly one, e.g. 'tracer ftrace'");
	if (!p->ps->nprobes && !p->ps->start)
		return fail(p, "no probes; expected at least one 'tracepoint SYSTEM:EVENT', "
			    "'syscall NAME', 'kprobe SYMBOL' or 'uprobe FUNCTION' line (or, "
			    "for tracer command, a 'start' line)");
	return 0;
}

int lb_probeset_parse(const char *text, const char *path, struct lb_probeset **out,
		      char *err, size_t errlen)
{
	struct parser p = { .err = err, .errlen = errlen };
	struct lb_probeset *ps;
	size_t len = strlen(text);
	int ret = -ENOMEM;

	*out = NULL;
	p.path = path ? path : "<string>";
	if (len > LB_PROBESET_MAX_FILE) {
		lb_seterr(err, errlen, "%s: the text is %zu bytes; a probe set may be at most 1 MiB "
		       "(%d bytes)", p.path, len, LB_PROBESET_MAX_FILE);
		return -EINVAL;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		goto out;
	p.ps = ps;
	ps->kprobe_optimization = -1;
	ps->default_run = 1;
	ps->path = strdup(p.path);
	ps->text = strdup(text);
	ps->name = path ? name_from_path(path) : strdup("unnamed");
	if (!ps->path || !ps->text || !ps->name)
		goto out;
	if (!is_probeset_name(ps->name)) {
		lb_seterr(err, errlen, "%s: bad probe-set name '%.*s' (the file name without %s); "
		       "expected letters, digits, _, +, . and -", p.path, LB_QUOTE_MAX, ps->name,
		       LB_PROBESET_EXT);
		ret = -EINVAL;
		goto out;
	}
	ret = parse_text(&p, text);
	if (ret)
		goto out;
	*out = ps;
	return 0;
out:
	if (ret == -ENOMEM)
		lb_seterr(err, errlen, "%s: out of memory", p.path);
	lb_probeset_free(ps);
	return ret;
}

/*
 * Read at most LB_PROBESET_MAX_FILE bytes of @path into a NUL-terminated
 * buffer; *@len gets the byte count (the file may contain NULs).
 */
static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	int ret = lb_read_file(path, LB_PROBESET_MAX_FILE, text, len);
	char q[LB_STR_SHORT_BUF];

	lb_str_short(path, q, sizeof(q));
	if (ret == -EISDIR)
		lb_seterr(err, errlen, "%s: is a directory; expected a %s file", q,
			  LB_PROBESET_EXT);
	else if (ret == -EINVAL)
		lb_seterr(err, errlen, "%s is not a regular file (%s): give a %s file or a "
			  "catalog name", q, lb_file_kind(path), LB_PROBESET_EXT);
	else if (ret == -EFBIG)
		lb_seterr(err, errlen, "%s: the file is larger than 1 MiB (%d bytes), the limit "
			  "for a probe set; is it the right file?", q, LB_PROBESET_MAX_FILE);
	else if (ret)
		lb_seterr(err, errlen, "%s: cannot open: %s", q, strerror(-ret));
	return ret;
}

int lb_probeset_load(const char *path, struct lb_probeset **out, char *err, size_t errlen)
{
	const char *nul;
	char *text;
	size_t len;
	int ret;

	*out = NULL;
	ret = read_file(path, &text, &len, err, errlen);
	if (ret)
		return ret;
	nul = memchr(text, '\0', len);
	if (nul) {
		lb_seterr(err, errlen, "%s:%d: NUL byte; expected a text file", path,
		       line_of(text, nul));
		ret = -EINVAL;
	} else {
		ret = lb_probeset_parse(text, path, out, err, errlen);
	}
	free(text);
	return ret;
}

int lb_probeset_find(const char *spec, const char *catalog_dir, struct lb_probeset **out,
		     char *err, size_t errlen)
{
	char **names = NULL, q[LB_STR_SHORT_BUF];
	char *path = NULL;
	size_t len;
	int n, i, ret;

	*out = NULL;
	if (strchr(spec, '/') || ends_with(spec, LB_PROBESET_EXT))
		return lb_probeset_load(spec, out, err, errlen);
	lb_str_short(spec, q, sizeof(q));
	if (!is_probeset_name(spec)) {
		lb_seterr(err, errlen, "bad probe-set name '%s': expected a catalog name (letters, "
		       "digits, _, +, . and -) or a path to a %s file", q, LB_PROBESET_EXT);
		return -EINVAL;
	}
	len = strlen(catalog_dir) + strlen(spec) + sizeof("/" LB_PROBESET_EXT);
	path = malloc(len);
	if (!path) {
		lb_seterr(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(path, len, "%s/%s%s", catalog_dir, spec, LB_PROBESET_EXT);
	/* A name too long to be a file's cannot be in the catalog either. */
	if (access(path, F_OK) == 0 || (errno != ENOENT && errno != ENAMETOOLONG)) {
		ret = lb_probeset_load(path, out, err, errlen);
		goto out;
	}
	ret = -ENOENT;
	n = lb_catalog_names(catalog_dir, &names);
	if (n < 0) {
		lb_seterr(err, errlen, "unknown probe set '%s': the catalog %s cannot be read (%s); "
		       "give a path to a %s file", q, catalog_dir, strerror(-n),
		       LB_PROBESET_EXT);
		goto out;
	}
	if (!n) {
		lb_seterr(err, errlen, "unknown probe set '%s': the catalog in %s is empty (give a "
		       "path to a %s file)", q, catalog_dir, LB_PROBESET_EXT);
		goto out;
	}
	lb_seterr(err, errlen, "unknown probe set '%s': the catalog in %s has: ", q, catalog_dir);
	for (i = 0; i < n; i++)
		caterr(err, errlen, "%s%s", i ? ", " : "", names[i]);
	caterr(err, errlen, " (or give a path to a %s file)", LB_PROBESET_EXT);
out:
	lb_catalog_names_free(names);
	free(path);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int lb_catalog_names(const char *catalog_dir, char ***names)
{
	char **list = NULL, **grown;
	size_t n = 0;
	struct dirent *de;
	DIR *dir;
	int ret;

	*names = NULL;
	dir = opendir(catalog_dir);
	if (!dir)
		return -errno;
	list = calloc(1, sizeof(*list));
	if (!list) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		struct stat st;
		char *name;

		errno = 0;
		de = readdir(dir);
		if (!de) {
			ret = -errno;
			if (ret)
				goto out;
			break;
		}
		if (!ends_with(de->d_name, LB_PROBESET_EXT) || de->d_name[0] == '.')
			continue;
		/* Regular files, and symlinks to them. */
		if (fstatat(dirfd(dir), de->d_name, &st, 0) < 0 || !S_ISREG(st.st_mode))
			continue;
		name = name_from_path(de->d_name);
		if (!name) {
			ret = -ENOMEM;
			goto out;
		}
		if (!is_probeset_name(name)) {
			free(name);
			continue;
		}
		grown = realloc(list, (n + 2) * sizeof(*list));
		if (!grown) {
			free(name);
			ret = -ENOMEM;
			goto out;
		}
		list = grown;
		list[n++] = name;
		list[n] = NULL;
	}
	qsort(list, n, sizeof(*list), cmp_names);
	*names = list;
	list = NULL;
	ret = (int)n;
out:
	lb_catalog_names_free(list);
	closedir(dir);
	return ret;
}

void lb_catalog_names_free(char **names)
{
	char **p;

	if (!names)
		return;
	for (p = names; *p; p++)
		free(*p);
	free(names);
}

void lb_probeset_free(struct lb_probeset *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->nprobes; i++) {
		free(ps->probes[i].system);
		free(ps->probes[i].event);
	}
	free(ps->probes);
	free(ps->name);
	free(ps->path);
	free(ps->text);
	free(ps->description);
	free(ps->compare_with);
	free(ps->added_for);
	free(ps->reference);
	free(ps->tracer);
	free(ps->start);
	free(ps->ready);
	free(ps->events);
	free(ps->binary);
	free(ps);
}
