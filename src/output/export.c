// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A results directory's numbers for CI systems (export.h): KCIDB v5 JSON,
 * github-action-benchmark's customSmallerIsBetter JSON, LAVA lava-test-case
 * lines and JUnit XML. What each format requires, and the document it was
 * checked against, is in doc/results.md; tests/test-export checks each.
 *
 * Every string of a results.json is someone else's: it reaches an export
 * as lb_fmt_put_each() shows it (a control, a bidirectional control or a
 * byte that is not UTF-8 as the text "\xNN"), so the JSON is valid UTF-8,
 * the XML holds only characters XML allows, and a LAVA name or a KCIDB path
 * is encoded to the few characters they take (lb_export_component()).
 *
 * Over 600 lines: the four formats share a probe set's state, the host
 * line and the escaping, static here. Split it by format
 * (with a private header for those) when a fifth comes.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export.h"
#include "format.h"
#include "gate.h"
#include "json_build.h"
#include "results.h"
#include "util.h"

/* KCIDB schema v5.0: every field written here is in it (and in 5.1 to 5.3). */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 0

/* LAVA keeps a test case's name in 100 characters (lava_results_app TestCase.name). */
#define LAVA_NAME_MAX 100

/* What became of a probe set, whatever the format calls it. */
enum lb_export_state {
	LB_EXPORT_DONE,		/* measured in a complete run, with a slowdown */
	LB_EXPORT_NO_RESULT,	/* a complete run, but no slowdown (too few runs paired) */
	LB_EXPORT_FAILED,	/* the run failed (LB_RESULTS_RUN_FAILED): cut short */
	LB_EXPORT_INTERRUPTED,	/* a signal cut the run short: partial */
};

static enum lb_export_state set_state(const struct lb_results *res,
				      const struct lb_probeset_result *psr)
{
	if (!res->complete)
		return lb_results_failed(res) ? LB_EXPORT_FAILED : LB_EXPORT_INTERRUPTED;
	return isfinite(psr->summary.slowdown_pct) ? LB_EXPORT_DONE : LB_EXPORT_NO_RESULT;
}

/* The seconds @psr was measured: its units' wall time (alternate), or its runs' windows. */
static double set_seconds(const struct lb_probeset_result *psr)
{
	double s = 0;

	if (isfinite(psr->summary.seconds) && psr->summary.seconds > 0)
		return psr->summary.seconds;
	for (size_t i = 0; i < psr->nruns; i++)
		if (isfinite(psr->runs[i].seconds) && psr->runs[i].seconds > 0)
			s += psr->runs[i].seconds;
	return s;
}

static bool ci_finite(const double ci[2])
{
	return isfinite(ci[0]) && isfinite(ci[1]);
}

/* FNV-1a over @s and its NUL, continuing from @h: a short stable key of a kernel or a name. */
static uint64_t fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)(s ? *s : 0);
		h *= 0x100000001b3ULL;
	} while (s && *s++);
	return h;
}

/* The kernel @res ran on as 8 hex digits (release, version, machine). */
static uint32_t kernel_key(const struct lb_results *res)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv(h, res->host.kernel_release);
	h = fnv(h, res->host.kernel_version);
	h = fnv(h, res->host.machine);
	return (uint32_t)(h ^ h >> 32);
}

size_t lb_export_component(const char *s, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t need = 0, out = 0;
	bool full = !len;

	if (!s || !*s)
		s = NULL;
	for (const unsigned char *p = (const unsigned char *)(s ? s : "_"); *p; p++) {
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			     (*p >= '0' && *p <= '9') || *p == '-' || (!s && *p == '_');
		size_t n = plain ? 1 : 3;

		need += n;
		/* Cut at a whole character or escape: nothing after the first that does not fit. */
		full = full || out + n >= len;
		if (full)
			continue;
		if (plain) {
			buf[out] = (char)*p;
		} else {
			buf[out] = '_';
			buf[out + 1] = hex[*p >> 4];
			buf[out + 2] = hex[*p & 15];
		}
		out += n;
	}
	if (len)
		buf[out] = '\0';
	return need;
}

bool lb_export_origin_valid(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

bool lb_export_id_valid(const char *s)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	char origin[256];

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(origin))
		return false;
	memcpy(origin, s, (size_t)(colon - s));
	origin[colon - s] = '\0';
	if (!lb_export_origin_valid(origin))
		return false;
	for (const char *p = colon + 1; *p;) {
		bool unsafe;
		size_t n = lb_str_char(p, &unsafe);

		if (unsafe)
			return false;
		p += n;
	}
	return true;
}

/* ---- strings made of someone else's ---------------------------------------------------------- */

/* A string built in memory (open_memstream): sb_open(), write to .f, sb_close(). */
struct sbuf {
	char *s;
	size_t n;
	FILE *f;
};

static FILE *sb_open(struct sbuf *b)
{
	b->s = NULL;
	b->n = 0;
	b->f = open_memstream(&b->s, &b->n);
	return b->f;
}

/* The string, malloc'd; NULL when it could not be built (ENOMEM). */
static char *sb_close(struct sbuf *b)
{
	bool bad = !b->f || ferror(b->f);

	if (b->f && fclose(b->f))
		bad = true;
	if (bad) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

/* "Linux 6.18.44 x86_64, AMD EPYC, 2 CPUs, virtualization kvm" on @f, as text. */
static void host_line(FILE *f, const struct lb_results *res)
{
	const struct lb_host *h = &res->host;

	fputs("Linux ", f);
	lb_fmt_put_text(f, lb_fmt_or_unknown(h->kernel_release));
	fputc(' ', f);
	lb_fmt_put_text(f, lb_fmt_or_unknown(h->machine));
	fputs(", ", f);
	lb_fmt_put_text(f, lb_fmt_or_unknown(h->cpu_model));
	fprintf(f, ", %d CPU%s, virtualization ", h->ncpus, h->ncpus == 1 ? "" : "s");
	lb_fmt_put_text(f, lb_fmt_or_unknown(h->virtualization));
	if (lb_results_emulated(res))
		fputs(" (emulated: timings are not real)", f);
}

/* "31.1% (95% CI 28.0% to 34.2%)" or "31.1% (no CI)" on @f. */
static void slowdown_text(FILE *f, const struct lb_summary *s)
{
	if (!isfinite(s->slowdown_pct)) {
		fputs("unknown", f);
		return;
	}
	fprintf(f, "%.1f%%", s->slowdown_pct);
	if (ci_finite(s->slowdown_ci95))
		fprintf(f, " (95%% CI %.1f%% to %.1f%%)", s->slowdown_ci95[0], s->slowdown_ci95[1]);
	else
		fputs(" (no CI)", f);
}

/* ---- JSON: json_build.h's builder; what is absent or not finite gets no key -------------------- */

static struct json_object *jb_obj(struct lb_jb *jb, struct json_object *parent, const char *key)
{
	return lb_jb_child(jb, parent, key, false);
}

static void jb_str(struct lb_jb *jb, struct json_object *parent, const char *key, const char *s)
{
	if (s)
		lb_jb_str(jb, parent, key, s);
}

/* The string @b built (sb_close()), added and freed; a failed one is a sticky ENOMEM. */
static void jb_sbuf(struct lb_jb *jb, struct json_object *parent, const char *key, struct sbuf *b)
{
	char *s = sb_close(b);

	if (!s)
		jb->oom = true;
	jb_str(jb, parent, key, s);
	free(s);
}

/* Someone else's string @s as text (NULL: no key at all). */
static void jb_text(struct lb_jb *jb, struct json_object *parent, const char *key, const char *s)
{
	struct sbuf b;

	if (!s)
		return;
	if (sb_open(&b))
		lb_fmt_put_text(b.f, s);
	jb_sbuf(jb, parent, key, &b);
}

/* A number; not finite: no key (KCIDB allows no null, and JSON has no NaN). */
static void jb_num(struct lb_jb *jb, struct json_object *parent, const char *key, double d)
{
	if (isfinite(d))
		lb_jb_double(jb, parent, key, d);
}

/* [low, high] when both are finite. */
static void jb_ci(struct lb_jb *jb, struct json_object *parent, const char *key, const double ci[2])
{
	if (ci_finite(ci))
		lb_jb_pair(jb, parent, key, ci);
}

/* @root as pretty JSON and a newline on @f; @root is put. Returns 0, -ENOMEM or -EIO. */
static int jb_print(struct lb_jb *jb, struct json_object *root, FILE *f)
{
	const char *text;
	int ret = -ENOMEM;

	if (!root || jb->oom)
		goto out;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_SPACED |
						    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		goto out;
	fputs(text, f);
	fputc('\n', f);
	ret = ferror(f) ? -EIO : 0;
out:
	json_object_put(root);
	return ret;
}

/* ---- KCIDB ----------------------------------------------------------------------------------- */

/* The host, loadbench and the start time: a test's "environment". */
static void kcidb_environment(struct lb_jb *jb, struct json_object *test, const struct lb_results *res)
{
	struct json_object *env = jb_obj(jb, test, "environment"), *misc;
	const struct lb_host *h = &res->host;
	struct sbuf b;

	if (sb_open(&b))
		host_line(b.f, res);
	jb_sbuf(jb, env, "comment", &b);
	misc = jb_obj(jb, env, "misc");
	jb_text(jb, misc, "kernel_release", h->kernel_release);
	jb_text(jb, misc, "kernel_version", h->kernel_version);
	jb_text(jb, misc, "machine", h->machine);
	jb_text(jb, misc, "cpu_model", h->cpu_model);
	lb_jb_int(jb, misc, "ncpus", h->ncpus);
	jb_text(jb, misc, "virtualization", h->virtualization);
	jb_text(jb, misc, "vm_accelerator", h->vm_accelerator);
	lb_jb_bool(jb, misc, "emulated", lb_results_emulated(res));
	jb_text(jb, misc, "loadbench_version", res->version);
	jb_text(jb, misc, "started", res->started);
}

/* Whether @s is an RFC 3339 date-time as results.json writes "started" (…T…Z, or an offset). */
static bool rfc3339(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	if (!s)
		return false;
	for (i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return false;
	s += i;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			;
	if (!strcmp(s, "Z"))
		return true;
	return (s[0] == '+' || s[0] == '-') && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' &&
	       s[2] <= '9' && s[3] == ':' && s[4] >= '0' && s[4] <= '9' && s[5] >= '0' &&
	       s[5] <= '9' && !s[6];
}

/* "loadbench.WORKLOAD.SET" with each of the last two lb_export_component()'d. */
static void kcidb_path(FILE *f, const struct lb_results *res, const char *name)
{
	char buf[3 * LB_RESULTS_MAX_NAME + 8];

	lb_export_component(res->config.workload, buf, sizeof(buf));
	fprintf(f, "loadbench.%s.", buf);
	lb_export_component(name, buf, sizeof(buf));
	fputs(buf, f);
}

/* A test's "id": ORIGIN:loadbench-STARTED-KERNEL:WORKLOAD:SET (unique for its origin). */
static void kcidb_test_id(FILE *f, const struct lb_results *res, const char *origin,
			  const char *name)
{
	fprintf(f, "%s:loadbench-", origin);
	lb_fmt_put_text(f, lb_str_or(res->started, "unknown"));
	fprintf(f, "-%08" PRIx32 ":", kernel_key(res));
	lb_fmt_put_text(f, lb_fmt_or_unknown(res->config.workload));
	fputc(':', f);
	lb_fmt_put_text(f, lb_fmt_or_unknown(name));
}

/* One test: a probe set (@psr), or one that could not run here (@sk). */
static void kcidb_test(struct lb_jb *jb, struct json_object *tests, const struct lb_results *res,
		       const struct lb_probeset_result *psr, const struct lb_skipped *sk,
		       const char *origin, const char *build_id)
{
	static const char *const status[] = {
		[LB_EXPORT_DONE] = "DONE", [LB_EXPORT_NO_RESULT] = "ERROR",
		[LB_EXPORT_FAILED] = "ERROR", [LB_EXPORT_INTERRUPTED] = "MISS",
	};
	const char *name = psr ? psr->name : sk->name;
	struct json_object *t = jb_obj(jb, tests, NULL), *misc, *num;
	enum lb_export_state st = psr ? set_state(res, psr) : LB_EXPORT_DONE;
	const struct lb_summary *s = psr ? &psr->summary : NULL;
	struct sbuf b;

	if (sb_open(&b))
		kcidb_test_id(b.f, res, origin, name);
	jb_sbuf(jb, t, "id", &b);
	jb_str(jb, t, "origin", origin);
	jb_str(jb, t, "build_id", build_id);
	if (sb_open(&b))
		kcidb_path(b.f, res, name);
	jb_sbuf(jb, t, "path", &b);
	jb_str(jb, t, "status", psr ? status[st] : "SKIP");
	/* The number only where KCIDB says to consider it: a test that ran (not MISS). */
	if (psr && isfinite(s->slowdown_pct) && st != LB_EXPORT_INTERRUPTED) {
		num = jb_obj(jb, t, "number");
		jb_num(jb, num, "value", s->slowdown_pct);
		jb_str(jb, num, "unit", "%");
	}
	if (psr && set_seconds(psr) > 0)
		jb_num(jb, t, "duration", set_seconds(psr));
	if (rfc3339(res->started))
		jb_str(jb, t, "start_time", res->started);
	if (sb_open(&b)) {
		if (psr) {
			fputs("slowdown of ", b.f);
			lb_fmt_put_text(b.f, lb_fmt_or_unknown(res->config.workload));
			fputs(" under ", b.f);
			lb_fmt_put_text(b.f, lb_fmt_or_unknown(name));
			fputs(": ", b.f);
			slowdown_text(b.f, s);
			if (st == LB_EXPORT_FAILED)
				fputs("; the run failed, cut short", b.f);
			else if (st == LB_EXPORT_INTERRUPTED)
				fputs("; the run was interrupted: partial", b.f);
		} else {
			lb_fmt_put_text(b.f, lb_fmt_or_unknown(name));
			fputs(" could not run here: ", b.f);
			lb_fmt_put_text(b.f, lb_fmt_or_unknown(sk->reason));
		}
	}
	jb_sbuf(jb, t, "comment", &b);
	kcidb_environment(jb, t, res);
	misc = jb_obj(jb, t, "misc");
	jb_text(jb, misc, "probeset", name);
	jb_text(jb, misc, "workload", res->config.workload);
	if (!psr) {
		jb_text(jb, misc, "skipped_reason", sk->reason);
		return;
	}
	jb_text(jb, misc, "tracer", psr->tracer);
	jb_str(jb, misc, "method", lb_results_alternate(res) ? "alternate" : "runs");
	jb_num(jb, misc, "slowdown_pct", s->slowdown_pct);
	jb_ci(jb, misc, "slowdown_ci95", s->slowdown_ci95);
	jb_num(jb, misc, "events_per_op", s->events_per_op);
	jb_num(jb, misc, "ns_per_event", s->ns_per_event);
	jb_ci(jb, misc, "ns_per_event_ci95", s->ns_per_event_ci95);
	lb_jb_int(jb, misc, "events", (int64_t)s->events);
	lb_jb_int(jb, misc, "lost_events", (int64_t)s->lost_events);
	lb_jb_int(jb, misc, "overwritten_events", (int64_t)s->overwritten_events);
	if (lb_results_alternate(res))
		lb_jb_int(jb, misc, "units", s->units);
	else
		lb_jb_int(jb, misc, "runs", (int64_t)psr->nruns);
	lb_jb_bool(jb, misc, "complete", res->complete);
	if (st == LB_EXPORT_FAILED)
		jb_text(jb, misc, "run_failed", lb_results_failed(res));
}

/* The checkout and the build that stand for the kernel @res ran on; their ids in @co, @bu. */
static void kcidb_kernel(struct lb_jb *jb, struct json_object *root, const struct lb_results *res,
			 const char *origin, char **co, char **bu)
{
	struct json_object *c = jb_obj(jb, lb_jb_child(jb, root, "checkouts", true),
				       NULL);
	struct json_object *b = jb_obj(jb, lb_jb_child(jb, root, "builds", true),
				       NULL);
	const char *arch = res->host.machine;
	struct sbuf s;

	if (sb_open(&s)) {
		fprintf(s.f, "%s:linux-", origin);
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(res->host.kernel_release));
	}
	*co = sb_close(&s);
	if (sb_open(&s)) {
		fprintf(s.f, "%s:", *co ? *co : "");
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(arch));
		fprintf(s.f, ":%08" PRIx32, kernel_key(res));
	}
	*bu = sb_close(&s);
	if (!*co || !*bu) {
		jb->oom = true;
		return;
	}
	jb_str(jb, c, "id", *co);
	jb_str(jb, c, "origin", origin);
	if (sb_open(&s)) {
		fputs("Linux ", s.f);
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(res->host.kernel_release));
		fputs(", the kernel loadbench ran on (its source is not known to loadbench)", s.f);
	}
	jb_sbuf(jb, c, "comment", &s);
	jb_str(jb, b, "id", *bu);
	jb_str(jb, b, "origin", origin);
	jb_str(jb, b, "checkout_id", *co);
	/* KCIDB: architecture ^[a-z0-9_]*$ ("x86_64", "aarch64"); another is left out. */
	if (arch && *arch && strspn(arch, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(arch))
		jb_str(jb, b, "architecture", arch);
	if (sb_open(&s)) {
		fputs("Linux ", s.f);
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(res->host.kernel_release));
		fputc(' ', s.f);
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(res->host.kernel_version));
		fputs(" (", s.f);
		lb_fmt_put_text(s.f, lb_fmt_or_unknown(arch));
		fputs("), as loadbench found it running", s.f);
	}
	jb_sbuf(jb, b, "comment", &s);
}

int lb_export_kcidb(const struct lb_results *res, const char *origin, const char *build_id,
		    FILE *f)
{
	struct json_object *root = json_object_new_object(), *ver, *tests;
	char *co = NULL, *bu = NULL;
	struct lb_jb jb = { .oom = false };
	size_t i;

	if (!origin)
		origin = LB_EXPORT_ORIGIN;
	if (!lb_export_origin_valid(origin) || (build_id && !lb_export_id_valid(build_id))) {
		json_object_put(root);
		return -EINVAL;
	}
	ver = jb_obj(&jb, root, "version");
	lb_jb_int(&jb, ver, "major", KCIDB_MAJOR);
	lb_jb_int(&jb, ver, "minor", KCIDB_MINOR);
	if (!build_id) {
		kcidb_kernel(&jb, root, res, origin, &co, &bu);
		build_id = bu ? bu : "";
	}
	tests = lb_jb_child(&jb, root, "tests", true);
	for (i = 0; i < res->nprobesets; i++)
		kcidb_test(&jb, tests, res, &res->probesets[i], NULL, origin, build_id);
	for (i = 0; i < res->nskipped; i++)
		kcidb_test(&jb, tests, res, NULL, &res->skipped[i], origin, build_id);
	free(co);
	free(bu);
	return jb_print(&jb, root, f);
}

/* ---- github-action-benchmark ----------------------------------------------------------------- */

/* One entry: "SET (WORKLOAD) WHAT", @unit, @value, "± half-width", @extra's lines. */
static void bench_entry(struct lb_jb *jb, struct json_object *arr, const struct lb_results *res,
			const struct lb_probeset_result *psr, const char *what, const char *unit,
			double value, const double ci[2])
{
	const struct lb_summary *s = &psr->summary;
	struct json_object *e = jb_obj(jb, arr, NULL);
	char buf[64], lost[96];
	struct sbuf b;

	if (sb_open(&b)) {
		lb_fmt_put_text(b.f, lb_fmt_or_unknown(psr->name));
		fputs(" (", b.f);
		lb_fmt_put_text(b.f, lb_fmt_or_unknown(res->config.workload));
		fprintf(b.f, ") %s", what);
	}
	jb_sbuf(jb, e, "name", &b);
	jb_str(jb, e, "unit", unit);
	jb_num(jb, e, "value", value);
	if (ci_finite(ci)) {
		/* The action reads a range as "±" or "+-" and a number (extractRangeInfo). */
		snprintf(buf, sizeof(buf), "\u00b1 %.3g", (ci[1] - ci[0]) / 2);
		jb_str(jb, e, "range", buf);
	}
	if (sb_open(&b)) {
		if (ci_finite(ci))
			fprintf(b.f, "95%% CI %.4g to %.4g %s\n", ci[0], ci[1], unit);
		else
			fputs("no 95% CI\n", b.f);
		fputs("tracer ", b.f);
		lb_fmt_put_text(b.f, lb_fmt_or_unknown(psr->tracer));
		fprintf(b.f, "; %.3g events/op; lost events %s\n", s->events_per_op,
			lb_fmt_lost(s, "", "", lost, sizeof(lost)));
		host_line(b.f, res);
		fputs("\nloadbench ", b.f);
		lb_fmt_put_text(b.f, lb_fmt_or_unknown(res->version));
		fprintf(b.f, ", method %s, started ",
			lb_results_alternate(res) ? "alternate" : "runs");
		lb_fmt_put_text(b.f, lb_fmt_or_unknown(res->started));
	}
	jb_sbuf(jb, e, "extra", &b);
}

int lb_export_benchmark_action(const struct lb_results *res, FILE *f)
{
	struct json_object *arr = json_object_new_array();
	struct lb_jb jb = { .oom = false };
	size_t i, n = 0;

	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		const struct lb_summary *s = &psr->summary;

		/* A history holds complete measurements only: no partial run's numbers. */
		if (set_state(res, psr) != LB_EXPORT_DONE)
			continue;
		bench_entry(&jb, arr, res, psr, "slowdown", "%", s->slowdown_pct,
			    s->slowdown_ci95);
		n++;
		if (isfinite(s->ns_per_event) && s->events)
			bench_entry(&jb, arr, res, psr, "cost per event", "ns/event",
				    s->ns_per_event, s->ns_per_event_ci95);
	}
	if (!n && !jb.oom) {
		json_object_put(arr);
		return -ENODATA;
	}
	return jb_print(&jb, arr, f);
}

/* ---- LAVA ------------------------------------------------------------------------------------ */

/*
 * "WORKLOAD.SET", lb_export_component()s: the characters LAVA's names take
 * ([-_a-zA-Z0-9.]) and nothing sh would read. Past LAVA_NAME_MAX, its
 * first 91 bytes, '-' and 8 hex digits of the whole (two names stay two).
 */
static void lava_name(const struct lb_results *res, const char *set, char *buf, size_t len)
{
	char w[3 * LB_RESULTS_MAX_NAME + 8], s[3 * LB_RESULTS_MAX_NAME + 8];
	char whole[sizeof(w) + sizeof(s) + 2];

	lb_export_component(res->config.workload, w, sizeof(w));
	lb_export_component(set, s, sizeof(s));
	snprintf(whole, sizeof(whole), "%s.%s", w, s);
	if (strlen(whole) <= LAVA_NAME_MAX)
		snprintf(buf, len, "%s", whole);
	else
		snprintf(buf, len, "%.*s-%08" PRIx32, LAVA_NAME_MAX - 9, whole,
			 (uint32_t)fnv(0xcbf29ce484222325ULL, whole));
}

int lb_export_lava(const struct lb_results *res, FILE *f)
{
	static const char *const result[] = {
		[LB_EXPORT_DONE] = "pass", [LB_EXPORT_NO_RESULT] = "fail",
		[LB_EXPORT_FAILED] = "fail", [LB_EXPORT_INTERRUPTED] = "skip",
	};
	char name[LAVA_NAME_MAX + 1];
	size_t i;

	for (i = 0; i < res->nprobesets; i++) {
		const struct lb_probeset_result *psr = &res->probesets[i];
		enum lb_export_state st = set_state(res, psr);

		lava_name(res, psr->name, name, sizeof(name));
		fprintf(f, "lava-test-case %s --result %s", name, result[st]);
		/* A measurement with 10 decimals at most (LAVA's DecimalField). */
		if (isfinite(psr->summary.slowdown_pct) && st != LB_EXPORT_INTERRUPTED)
			fprintf(f, " --measurement %.4f --units %%", psr->summary.slowdown_pct);
		fputc('\n', f);
	}
	for (i = 0; i < res->nskipped; i++) {
		lava_name(res, res->skipped[i].name, name, sizeof(name));
		fprintf(f, "lava-test-case %s --result skip\n", name);
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- JUnit ----------------------------------------------------------------------------------- */

/* One character of XML text or of an attribute's value (in double or single quotes). */
static void xml_char(FILE *f, const char *c, size_t n, void *state)
{
	(void)state;
	if (n == 3 && (unsigned char)c[0] == 0xef && (unsigned char)c[1] == 0xbf &&
	    ((unsigned char)c[2] == 0xbe || (unsigned char)c[2] == 0xbf)) {
		/* U+FFFE and U+FFFF are UTF-8, but no character of XML. */
		fprintf(f, "\\xef\\xbf\\x%02x", (unsigned char)c[2]);
		return;
	}
	switch (n == 1 ? *c : 0) {
	case '<':
		fputs("&lt;", f);
		break;
	case '>':
		fputs("&gt;", f);
		break;
	case '&':
		fputs("&amp;", f);
		break;
	case '"':
		fputs("&quot;", f);
		break;
	case '\'':
		fputs("&apos;", f);
		break;
	default:
		fwrite(c, 1, n, f);
	}
}

static void xml_put(FILE *f, const char *s)
{
	lb_fmt_put_each(f, s, xml_char, NULL);
}

/* <property name="@name" value="@value"/>, when @value is there. */
static void xml_property(FILE *f, const char *name, const char *value)
{
	if (!value)
		return;
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	xml_put(f, value);
	fputs("\"/>\n", f);
}

/* The gate's row of @psr; NULL when there is no gate or @psr is not in the baseline. */
static const struct lb_gate_row *gate_row(const struct lb_gate *gate,
					  const struct lb_probeset_result *psr)
{
	for (size_t i = 0; gate && i < gate->nrows; i++)
		if (gate->rows[i].cand == psr)
			return &gate->rows[i];
	return NULL;
}

enum junit_case { JUNIT_PASS, JUNIT_FAILURE, JUNIT_ERROR, JUNIT_SKIPPED };

static enum junit_case junit_case(const struct lb_results *res,
				  const struct lb_probeset_result *psr,
				  const struct lb_gate_row *row)
{
	switch (set_state(res, psr)) {
	case LB_EXPORT_DONE:
		return row && row->verdict == LB_GATE_WORSE ? JUNIT_FAILURE : JUNIT_PASS;
	case LB_EXPORT_INTERRUPTED:
		return JUNIT_SKIPPED;
	default:
		return JUNIT_ERROR;
	}
}

/* "+3.1 pp (95% CI +1.9 to +4.3)" on @f; @unit "pp" or "ns". */
static void change_text(FILE *f, double d, const double ci[2], const char *unit)
{
	fprintf(f, "%+.1f %s", d, unit);
	if (ci_finite(ci))
		fprintf(f, " (95%% CI %+.1f to %+.1f %s)", ci[0], ci[1], unit);
	else
		fputs(" (no CI)", f);
}

/* What the gate says of @row, for its test case's output: one line. */
static void gate_text(FILE *f, const struct lb_gate *gate, const struct lb_gate_row *row)
{
	fprintf(f, "gate against the baseline at --fail-above %g pp: %s, slowdown ",
		gate->fail_above, lb_gate_verdict_name(row->verdict));
	change_text(f, row->diff_pp, row->diff_ci95, "pp");
	fprintf(f, ", %.1f%% -> %.1f%%", row->base_pct, row->cand_pct);
	if (isfinite(row->diff_ns)) {
		fputs(", cost per event ", f);
		change_text(f, row->diff_ns, row->diff_ns_ci95, "ns");
	}
	if (row->verdict == LB_GATE_INCONCLUSIVE && isfinite(row->needed_half_pp))
		fprintf(f, "; +-%.2f pp would tell (--precision %.2f for both runs)",
			row->needed_half_pp, row->needed_precision);
	fputc('\n', f);
}

/* A probe set's <testcase>. */
static void junit_testcase(FILE *f, const struct lb_results *res,
			   const struct lb_probeset_result *psr, const struct lb_gate *gate)
{
	const struct lb_gate_row *row = gate_row(gate, psr);
	const struct lb_summary *s = &psr->summary;
	enum junit_case jc = junit_case(res, psr, row);
	char lost[96];

	fputs("    <testcase name=\"", f);
	xml_put(f, lb_fmt_or_unknown(psr->name));
	fputs("\" classname=\"loadbench.", f);
	xml_put(f, lb_fmt_or_unknown(res->config.workload));
	fprintf(f, "\" time=\"%.3f\">\n", set_seconds(psr));
	if (jc == JUNIT_FAILURE) {
		fputs("      <failure type=\"slowdown regression\" message=\"slowdown ", f);
		change_text(f, row->diff_pp, row->diff_ci95, "pp");
		fprintf(f, " worse than the baseline&apos;s (%.1f%% -&gt; %.1f%%), more than "
			"--fail-above %g pp\">", row->base_pct, row->cand_pct, gate->fail_above);
		fputs("the baseline: ", f);
		xml_put(f, lb_fmt_or_unknown(row->base->name));
		fprintf(f, " %.1f%%, now %.1f%%</failure>\n", row->base_pct, row->cand_pct);
	} else if (jc == JUNIT_ERROR) {
		fprintf(f, "      <error type=\"%s\" message=\"",
			lb_results_failed(res) ? "run failed" : "no result");
		if (lb_results_failed(res)) {
			fputs("the run failed: ", f);
			xml_put(f, lb_results_failed(res));
		} else {
			fputs("no slowdown was measured (see the run&apos;s warnings)", f);
		}
		fputs("\"/>\n", f);
	} else if (jc == JUNIT_SKIPPED) {
		fputs("      <skipped message=\"the run was interrupted: partial results\"/>\n", f);
	}
	fputs("      <system-out>slowdown ", f);
	slowdown_text(f, s);
	fputs("\ntracer ", f);
	xml_put(f, lb_fmt_or_unknown(psr->tracer));
	fprintf(f, "; events/op %.3g; ns/event ", s->events_per_op);
	if (isfinite(s->ns_per_event)) {
		fprintf(f, "%.1f", s->ns_per_event);
		if (ci_finite(s->ns_per_event_ci95))
			fprintf(f, " (95%% CI %.1f to %.1f)", s->ns_per_event_ci95[0],
				s->ns_per_event_ci95[1]);
	} else {
		fputs("none", f);
	}
	fputs("; lost events ", f);
	xml_put(f, lb_fmt_lost(s, "", "", lost, sizeof(lost)));
	fputc('\n', f);
	if (row)
		gate_text(f, gate, row);
	else if (gate)
		fputs("gate: not measured in the baseline\n", f);
	fputs("</system-out>\n    </testcase>\n", f);
}

/* A <testcase> that did not run: @why, then someone else's @detail. */
static void junit_skipped(FILE *f, const struct lb_results *res, const char *name,
			  const char *why, const char *detail)
{
	fputs("    <testcase name=\"", f);
	xml_put(f, lb_fmt_or_unknown(name));
	fputs("\" classname=\"loadbench.", f);
	xml_put(f, lb_fmt_or_unknown(res->config.workload));
	fprintf(f, "\" time=\"0\">\n      <skipped message=\"%s", why);
	xml_put(f, detail);
	fputs("\"/>\n    </testcase>\n", f);
}

/*
 * "tests=... failures=... errors=... skipped=... time=..." of the suite; of
 * <testsuites> (@root) without skipped, which Jenkins' junit-10.xsd has not.
 */
static void junit_counts(FILE *f, const struct lb_results *res, const struct lb_gate *gate,
			 bool root)
{
	size_t n[4] = { 0 }, i;
	double t = 0;

	for (i = 0; i < res->nprobesets; i++) {
		n[junit_case(res, &res->probesets[i], gate_row(gate, &res->probesets[i]))]++;
		t += set_seconds(&res->probesets[i]);
	}
	n[JUNIT_SKIPPED] += res->nskipped + (gate ? gate->nonly_base : 0);
	fprintf(f, "tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"",
		n[JUNIT_PASS] + n[JUNIT_FAILURE] + n[JUNIT_ERROR] + n[JUNIT_SKIPPED],
		n[JUNIT_FAILURE], n[JUNIT_ERROR]);
	if (!root)
		fprintf(f, " skipped=\"%zu\"", n[JUNIT_SKIPPED]);
	fprintf(f, " time=\"%.3f\"", t);
}

int lb_export_junit(const struct lb_results *res, const struct lb_gate *gate, FILE *f)
{
	const struct lb_host *h = &res->host;
	char cpus[16];
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"loadbench\" ", f);
	junit_counts(f, res, gate, true);
	fputs(">\n  <testsuite name=\"loadbench.", f);
	xml_put(f, lb_fmt_or_unknown(res->config.workload));
	fputs("\" ", f);
	junit_counts(f, res, gate, false);
	/* The Ant schema's timestamp: ISO 8601 without a zone (this one is UTC). */
	if (rfc3339(res->started))
		fprintf(f, " timestamp=\"%.19s\"", res->started);
	fputs(">\n    <properties>\n", f);
	xml_property(f, "kernel_release", h->kernel_release);
	xml_property(f, "kernel_version", h->kernel_version);
	xml_property(f, "machine", h->machine);
	xml_property(f, "cpu_model", h->cpu_model);
	snprintf(cpus, sizeof(cpus), "%d", h->ncpus);
	xml_property(f, "ncpus", cpus);
	xml_property(f, "virtualization", h->virtualization);
	xml_property(f, "vm_accelerator", h->vm_accelerator);
	xml_property(f, "emulated", lb_results_emulated(res) ? "true" : "false");
	xml_property(f, "loadbench_version", res->version);
	xml_property(f, "started", res->started);
	xml_property(f, "workload", res->config.workload);
	xml_property(f, "method", lb_results_alternate(res) ? "alternate" : "runs");
	xml_property(f, "complete", res->complete ? "true" : "false");
	if (gate) {
		char fa[32];

		snprintf(fa, sizeof(fa), "%g", gate->fail_above);
		xml_property(f, "gate_fail_above_pp", fa);
		xml_property(f, "gate_bootstrap", gate->bootstrap);
	}
	fputs("    </properties>\n", f);
	for (i = 0; i < res->nprobesets; i++)
		junit_testcase(f, res, &res->probesets[i], gate);
	for (i = 0; i < res->nskipped; i++)
		junit_skipped(f, res, res->skipped[i].name, "could not run here: ",
			      res->skipped[i].reason);
	for (i = 0; gate && i < gate->nonly_base; i++)
		junit_skipped(f, res, gate->only_base[i], "measured in the baseline only", NULL);
	if (res->nwarnings) {
		fputs("    <system-err>", f);
		for (i = 0; i < res->nwarnings; i++) {
			fputs("warning: ", f);
			xml_put(f, res->warnings[i]);
			fputc('\n', f);
		}
		fputs("</system-err>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- the formats ----------------------------------------------------------------------------- */

static const char *const format_names[] = {
	[LB_EXPORT_KCIDB] = "kcidb",
	[LB_EXPORT_BENCHMARK_ACTION] = "benchmark-action",
	[LB_EXPORT_LAVA] = "lava",
	[LB_EXPORT_JUNIT] = "junit",
};

int lb_export_format_parse(const char *s, enum lb_export_format *fmt)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++) {
		if (!strcmp(s, format_names[i])) {
			*fmt = (enum lb_export_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *lb_export_format_name(enum lb_export_format fmt)
{
	return (size_t)fmt < sizeof(format_names) / sizeof(format_names[0]) ?
	       format_names[fmt] : "?";
}

int lb_export_print(const struct lb_results *res, enum lb_export_format fmt, const char *origin,
		    const char *build_id, const struct lb_gate *gate, FILE *f)
{
	switch (fmt) {
	case LB_EXPORT_KCIDB:
		return lb_export_kcidb(res, origin, build_id, f);
	case LB_EXPORT_BENCHMARK_ACTION:
		return lb_export_benchmark_action(res, f);
	case LB_EXPORT_LAVA:
		return lb_export_lava(res, f);
	case LB_EXPORT_JUNIT:
		return lb_export_junit(res, gate, f);
	}
	return -EINVAL;
}
