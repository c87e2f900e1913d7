// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of a set's kprobes and the verdict on it: lb_kprobes_describe()'s
 * words, the "kprobes" and "reference" keys of results.json (round trip,
 * refusals, cap), and lb_results_verdict() on results built here
 * (tests/fixtures/results-kprobe.json is what the builder writes) against
 * numbers computed here from the slices and rounds, and its line in every
 * format. `test-verdict FILE' writes the fixture to FILE.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "report.h"
#include "results.h"
#include "stats.h"
#include "table.h"
#include "verdict.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define NUNITS 12
#define REFERENCE "2006 (Desnoyers, LKML): LTTng 35% -> LTTng + a breakpoint kprobe per event " \
		  "73%, 2.1x"
/* REFERENCE in Markdown: the parentheses escaped, > an entity (lb_fmt_put_md()). */
#define REFERENCE_MD "2006 \\(Desnoyers, LKML\\): LTTng 35% -&gt; LTTng + a breakpoint kprobe " \
		     "per event 73%, 2.1x"

/* The throughput of each state in unit @u: off, lttng, lttng+kprobe (ops/s). */
static void unit_rates(int u, double rate[3])
{
	rate[0] = 100000 * (1 + 0.01 * sin(u * 0.9));
	rate[1] = rate[0] * 0.7 * exp(0.02 * sin(u * 1.7 + 0.3));
	rate[2] = rate[1] * 0.9 * exp(0.01 * cos(u * 2.3 + 0.1));
}

/* --method alternate, icmp-flood: lttng, and lttng+kprobe with 11 kprobes on top of it. */
static struct lb_results *build(void)
{
	static const double epo[3] = { 0, 10, 31.2 };	/* events per operation of each state */
	struct lb_results *res = lb_results_new();
	struct lb_slice sl[2 + 6 * NUNITS];
	struct lb_run run = { .round = 1, .sample_interval = 0.1 };
	struct lb_probeset_result *p;
	size_t n = 0;
	int ret = 0;

	if (!res)
		return NULL;
	res->version = strdup("0.1.0");
	res->started = strdup("2026-12-02T10:00:00Z");
	res->complete = true;
	res->host.kernel_release = strdup("6.18.44-test");
	res->host.machine = strdup("x86_64");
	res->host.cpu_model = strdup("AMD EPYC");
	res->host.virtualization = strdup("kvm");
	res->host.ncpus = 2;
	res->config.workload = strdup("icmp-flood");
	res->config.placement = strdup("icmp-flood 127.0.0.1 window=1");
	res->config.method = strdup("alternate");
	res->config.command_line = strdup("loadbench --method alternate --probeset lttng+kprobe");
	res->config.repeat = 1;
	res->config.slice = 0.1;
	res->config.settle = 0.02;
	res->config.precision = 1;
	res->config.max_time = 10;
	res->config.server_cpu = res->config.client_cpu = -1;

	/* Two plain slices, then units off, lttng, lttng+kprobe and back. */
	for (int i = 0; i < 2; i++)
		sl[n++] = (struct lb_slice){ .unit = -1, .on = LB_SLICE_PLAIN, .start = 0.12 * i,
					     .seconds = 0.1, .ops = 10050 };
	for (int u = 0; u < NUNITS; u++) {
		static const int order[6] = { 0, 1, 2, 2, 1, 0 };
		double rate[3];

		unit_rates(u, rate);
		for (int k = 0; k < 6; k++) {
			int st = order[k];
			uint64_t ops = (uint64_t)llround(rate[st] * 0.1);

			sl[n] = (struct lb_slice){ .unit = u, .on = st - 1, .start = 0.12 * n,
						   .seconds = 0.1, .switch_s = 0.001, .ops = ops,
						   .events = (uint64_t)llround(epo[st] * ops) };
			n++;
		}
	}
	run.seconds = 0.2;
	run.ops = 20100;
	run.throughput = run.ops / run.seconds;
	ret |= lb_probeset_result_add_run(&res->baseline, &run);

	p = lb_results_add_probeset(res, "lttng", "lttng");
	if (!p)
		goto fail;
	ret |= lb_probeset_result_add_slices(p, sl, n);
	p = lb_results_add_probeset(res, "lttng+kprobe", "lttng");
	if (!p)
		goto fail;
	p->compare_with = strdup("lttng");
	p->reference = strdup(REFERENCE);
	p->kprobes.optimization = 1;
	p->kprobes.optimization_before = 1;
	p->kprobes.source = strdup("debugfs");
	for (int i = 0; i < 11; i++) {
		char sym[32];

		snprintf(sym, sizeof(sym), "lb_probe_fn%d", i);
		ret |= lb_kprobes_info_add(&p->kprobes, sym, i == 10 ? 4 : 0, false,
					   i == 10 ? LB_KPROBE_OPTIMIZED : LB_KPROBE_FTRACE);
	}
	ret |= lb_probeset_result_add_slices(p, sl, n);
	if (ret || !p->compare_with || lb_results_summarize(res))
		goto fail;
	return res;
fail:
	lb_results_free(res);
	return NULL;
}

/* exp of the 20% trimmed mean of the logs of @v (reordered): as the summary means it, here. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double center(const double *v, size_t n)
{
	double l[64], sum = 0;
	size_t k = (size_t)(0.2 * n);

	for (size_t i = 0; i < n; i++)
		l[i] = log(v[i]);
	qsort(l, n, sizeof(l[0]), cmp_double);
	for (size_t i = k; i < n - k; i++)
		sum += l[i];
	return exp(sum / (n - 2 * k));
}

static void test_describe(void)
{
	struct lb_kprobes_info k = { .optimization = -1, .optimization_before = -1 };
	char buf[128];

	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)), "no kprobes");
	k.optimization = 0;
	k.optimization_before = 1;
	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)), "no kprobes (optimization off, was on)");
	for (int i = 0; i < 11; i++)
		T_CHECK(!lb_kprobes_info_add(&k, "f", 0, false, LB_KPROBE_BREAKPOINT));
	k.optimization_before = 0;
	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)),
		    "11 kprobes: 11 breakpoint (optimization off)");
	lb_kprobes_info_release(&k);
	for (int i = 0; i < 11; i++)
		T_CHECK(!lb_kprobes_info_add(&k, "f", 0, false,
					     i ? LB_KPROBE_FTRACE : LB_KPROBE_OPTIMIZED));
	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)),
		    "11 kprobes: 10 ftrace-based, 1 optimized");
	lb_kprobes_info_release(&k);
	for (int i = 0; i < 11; i++)
		T_CHECK(!lb_kprobes_info_add(&k, "f", 0, false, LB_KPROBE_UNKNOWN));
	k.source = strdup("debugfs not readable");
	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)),
		    "11 kprobes: mechanism unknown (debugfs not readable)");
	lb_kprobes_info_release(&k);
	T_CHECK(!lb_kprobes_info_add(&k, "f", 0, false, LB_KPROBE_BREAKPOINT));
	T_CHECK(!lb_kprobes_info_add(&k, "g", 0, true, LB_KPROBE_DISABLED));
	T_CHECK(!lb_kprobes_info_add(&k, "h", 0, true, LB_KPROBE_UNKNOWN));
	T_CHECK_STR(lb_kprobes_describe(&k, buf, sizeof(buf)),
		    "1 kprobe, 2 kretprobes: 1 breakpoint, 1 disabled, 1 unknown");
	/* Cut, never overrun. */
	T_CHECK_STR(lb_kprobes_describe(&k, buf, 8), "1 kprob");
	lb_kprobes_info_release(&k);
	T_CHECK(k.optimization == -1 && !k.nprobes && !lb_kprobes_info_present(&k));
}

/* The slowdowns of the fixture, from its slices, and the verdict's line from them. */
struct expect {
	double ra[NUNITS], rb[NUNITS], rv[NUNITS];
	double set_pct, base_pct, vs_pct, ratio, extra;
};

static void expect_from_slices(const struct lb_probeset_result *p, struct expect *e)
{
	double ops[3] = { 0 }, ev[3] = { 0 };

	for (int u = 0; u < NUNITS; u++) {
		double o[3] = { 0 }, s[3] = { 0 };

		for (size_t i = 0; i < p->nslices; i++) {
			const struct lb_slice *sl = &p->slices[i];

			if (sl->unit != u)
				continue;
			o[sl->on + 1] += sl->ops;
			s[sl->on + 1] += sl->seconds;
			ops[sl->on + 1] += sl->ops;
			ev[sl->on + 1] += sl->events;
		}
		e->ra[u] = (o[2] / s[2]) / (o[0] / s[0]);
		e->rb[u] = (o[1] / s[1]) / (o[0] / s[0]);
		e->rv[u] = (o[2] / s[2]) / (o[1] / s[1]);
	}
	e->set_pct = 100 * (1 - center(e->ra, NUNITS));
	e->base_pct = 100 * (1 - center(e->rb, NUNITS));
	e->vs_pct = 100 * (1 - center(e->rv, NUNITS));
	e->ratio = e->set_pct / e->base_pct;
	e->extra = ev[2] / ops[2] - ev[1] / ops[1];
}

/* @report (a format's whole text) holds @line. */
static void check_has(const char *report, const char *line)
{
	T_CHECK(report && strstr(report, line));
	if (report && !strstr(report, line))
		fprintf(stderr, "not in:\n%s\nwanted: %s\n", report, line);
}

/* How many times @needle is in @s. */
static int count_of(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static char *report_of(const struct lb_results *res, enum lb_report_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	T_CHECK(lb_report_print(res, fmt, f) == 0);
	fclose(f);
	return buf;
}

static void test_verdict_alternate(struct lb_results *res)
{
	const struct lb_probeset_result *set = &res->probesets[1];
	struct lb_verdict v;
	struct expect e;
	char want[1024], want_md[1100], *md, *tex, *txt, *lines;
	double lo, hi;

	expect_from_slices(set, &e);
	/* The fixture's own answer: lttng 30% (noisy), lttng+kprobe 10% more, 37/30 = 1.233x. */
	T_CHECK(fabs(e.base_pct - 30) < 1 && fabs(e.vs_pct - 10) < 0.5);
	T_CHECK(lb_results_verdict(res, &res->probesets[0], &v) == -ENOENT);
	T_CHECK(lb_results_verdict(res, set, &v) == 0);
	T_CHECK_NEAR(set->summary.slowdown_pct, e.set_pct, 1e-9);
	T_CHECK_NEAR(v.base_pct, e.base_pct, 1e-9);
	T_CHECK_NEAR(v.pair.vs_base_pct, e.vs_pct, 1e-9);
	T_CHECK_NEAR(v.ratio, e.ratio, 1e-12);
	T_CHECK_NEAR(v.pair.extra_events_per_op, e.extra, 1e-9);
	T_CHECK(v.ratio_n == NUNITS && !v.ratio_why[0] && !v.emulated);
	/* The interval: the same units paired, the true 1.233 inside it. */
	T_CHECK(!lb_stats_block_ratio_ci95(e.ra, e.rb, NUNITS, 10000, 0x6c6f616462656e63ULL, &lo,
					   &hi));
	T_CHECK(v.ratio_ci95[0] == lo && v.ratio_ci95[1] == hi);
	T_CHECK(lo < e.ratio && e.ratio < hi && lo < 0.37 / 0.3 && 0.37 / 0.3 < hi);
	T_CHECK(!lb_stats_block_ci95(e.rv, NUNITS, 10000, 0x6c6f616462656e63ULL, &lo, &hi));
	T_CHECK(v.pair.vs_base_ci95[0] == lo && v.pair.vs_base_ci95[1] == hi);

	snprintf(want, sizeof(want), "lttng+kprobe: a kprobe per traced event (11 kprobes: 10 "
		 "ftrace-based, 1 optimized (optimization on); %+.1f events/op) slows lttng by a further %.1f%% "
		 "[%.1f, %.1f], on top of lttng's %.1f%% [%.1f, %.1f]: %.3gx [%.3g, %.3g] the "
		 "tracer's impact (%s)", e.extra, e.vs_pct, lo, hi, e.base_pct,
		 v.base_ci95[0], v.base_ci95[1], e.ratio, v.ratio_ci95[0], v.ratio_ci95[1], REFERENCE);
	snprintf(want_md, sizeof(want_md), "lttng+kprobe: a kprobe per traced event \\(11 kprobes: "
		 "10 ftrace-based, 1 optimized \\(optimization on\\); %+.1f events/op\\) slows "
		 "lttng by a further %.1f%% \\[%.1f, %.1f\\], on top of lttng's %.1f%% "
		 "\\[%.1f, %.1f\\]: %.3gx \\[%.3g, %.3g\\] the tracer's impact \\(%s\\)",
		 e.extra, e.vs_pct, lo, hi, e.base_pct, v.base_ci95[0], v.base_ci95[1], e.ratio,
		 v.ratio_ci95[0], v.ratio_ci95[1], REFERENCE_MD);
	printf("verdict: %s\n", want);
	lines = report_of(res, LB_REPORT_LINES);
	txt = report_of(res, LB_REPORT_TEXT);
	md = report_of(res, LB_REPORT_MARKDOWN);
	tex = report_of(res, LB_REPORT_LATEX);
	{
		char line[1200];

		snprintf(line, sizeof(line), "\n%s\n", want);
		check_has(lines, line);
		check_has(txt, line);
		snprintf(line, sizeof(line), "\n### Verdict\n\n- %s\n", want_md);
		check_has(md, line);
	}
	check_has(lines, "  lttng+kprobe: 11 kprobes: 10 ftrace-based, 1 optimized (optimization on)\n");
	check_has(txt, "\nlttng+kprobe: 11 kprobes: 10 ftrace-based, 1 optimized (optimization on)\n");
	check_has(md, "\nKprobes placed:\n\n- lttng+kprobe: 11 kprobes: 10 ftrace-based, 1 optimized "
		      "\\(optimization on\\)\n");
	check_has(tex, "\\paragraph{Verdict.}\nlttng+kprobe: a kprobe per traced event (11 kprobes");
	check_has(tex, "\\% [");
	/* Exactly one verdict line, for scripts to grep. */
	T_CHECK(lines && count_of(lines, "a kprobe per traced event") == 1);
	free(lines);
	free(txt);
	free(md);
	free(tex);
}

/* @text written to a file in @dir and read: 0, or -EINVAL with the reason in @err. */
static int read_text(const char *dir, const char *text, struct lb_results **out, char *err,
		     size_t errlen)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	*out = NULL;
	ret = lb_results_read_json(path, out, err, errlen);
	if (!ret)
		lb_results_free(*out);
	*out = NULL;
	return ret;
}

/* @text with the first @from replaced by @to, malloc'd. */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	if (!at || asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) < 0)
		return NULL;
	return out;
}

/* A refused variant of @text: the error is one line that names @key. */
static void refused(const char *dir, const char *text, const char *from, const char *to,
		    const char *key)
{
	char *bad = replaced(text, from, to), err[512] = "";
	struct lb_results *r;

	T_CHECK(bad != NULL);
	if (!bad)
		return;
	T_CHECK(read_text(dir, bad, &r, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, key) && !strchr(err, '\n'));
	if (!strstr(err, key))
		fprintf(stderr, "error \"%s\" does not name %s\n", err, key);
	free(bad);
}

static void test_json(const struct lb_results *res, const char *dir)
{
	const char *fixture = LB_SRCDIR "/tests/fixtures/results-kprobe.json";
	char path[4096], err[512] = "", *want, *got = NULL, *big = NULL, *text;
	struct lb_results *back = NULL;
	const struct lb_kprobes_info *k;
	size_t len = 0;
	FILE *f;

	/* The builder writes the fixture; the fixture reads back and writes out the same. */
	snprintf(path, sizeof(path), "%s/results.json", dir);
	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	got = t_read_all(path, NULL);
	/* LB_UPDATE_GOLDEN=1: the builder's file becomes the fixture (review the diff with git). */
	if (got && getenv("LB_UPDATE_GOLDEN")) {
		f = fopen(fixture, "w");
		if (!f || fputs(got, f) < 0 || fclose(f)) {
			fprintf(stderr, "cannot update %s\n", fixture);
			t_failures++;
		}
	}
	free(got);
	want = t_read_all(fixture, NULL);
	got = t_read_all(path, NULL);
	T_CHECK(want && got && !strcmp(want, got));
	free(got);
	T_CHECK(lb_results_read_json(fixture, &back, err, sizeof(err)) == 0);
	if (!back || !want)
		goto out;
	k = &back->probesets[1].kprobes;
	T_CHECK(k->nprobes == 11 && k->optimization == 1 && k->optimization_before == 1);
	T_CHECK(!strcmp(k->source, "debugfs") && !strcmp(k->probes[10].symbol, "lb_probe_fn10"));
	T_CHECK(k->probes[10].offset == 4 && k->probes[10].mech == LB_KPROBE_OPTIMIZED &&
		!k->probes[10].ret && k->probes[0].mech == LB_KPROBE_FTRACE);
	T_CHECK(!strcmp(back->probesets[1].reference, REFERENCE));
	/* Absent: no kprobes, the setting left alone. */
	k = &back->probesets[0].kprobes;
	T_CHECK(!k->nprobes && k->optimization == -1 && k->optimization_before == -1);
	T_CHECK(!back->probesets[0].reference);
	T_CHECK(lb_results_write_json(back, AT_FDCWD, path) == 0);
	got = t_read_all(path, NULL);
	T_CHECK(got && !strcmp(want, got));
	free(got);

	/* Kretprobes, a null setting and every mechanism name round-trip too. */
	text = replaced(want, "\"optimization\": \"on\",\n        \"optimization_before\": 1",
			"\"optimization\": null,\n        \"optimization_before\": null");
	got = text ? replaced(text, "\"type\": \"kprobe\",\n            \"mechanism\": \"ftrace\"",
			      "\"type\": \"kretprobe\",\n            \"mechanism\": \"disabled\"") : NULL;
	free(text);
	T_CHECK(got != NULL);
	if (got) {
		struct lb_results *r = NULL;
		char *again;

		f = fopen(path, "w");
		fputs(got, f);
		fclose(f);
		T_CHECK(lb_results_read_json(path, &r, err, sizeof(err)) == 0);
		k = r ? &r->probesets[1].kprobes : NULL;
		T_CHECK(k && k->optimization == -1 && k->optimization_before == -1 &&
			k->probes[0].ret && k->probes[0].mech == LB_KPROBE_DISABLED);
		T_CHECK(r && lb_results_write_json(r, AT_FDCWD, path) == 0);
		again = t_read_all(path, NULL);
		T_CHECK(again && !strcmp(again, got));
		free(again);
		lb_results_free(r);
		free(got);
	}

	refused(dir, want, "\"mechanism\": \"optimized\"", "\"mechanism\": \"int3\"",
		"probesets[1].kprobes.probes[10].mechanism");
	refused(dir, want, "\"type\": \"kprobe\"", "\"type\": \"uprobe\"",
		"probesets[1].kprobes.probes[0].type");
	refused(dir, want, "\"optimization\": \"on\"", "\"optimization\": \"yes\"",
		"probesets[1].kprobes.optimization");
	refused(dir, want, "\"offset\": 4", "\"offset\": \"4\"",
		"probesets[1].kprobes.probes[10].offset");
	refused(dir, want, "\"symbol\": \"lb_probe_fn0\",", "",
		"probesets[1].kprobes.probes[0]");
	refused(dir, want, "\"probes\": [", "\"probes\": [ 1,", "probesets[1].kprobes.probes[0]");

	/* More probes than the cap: refused in one line naming the count and the cap. */
	f = open_memstream(&big, &len);
	T_CHECK(f != NULL);
	if (f) {
		fputs("\"probes\": [", f);
		for (size_t i = 0; i <= LB_RESULTS_MAX_KPROBES; i++)
			fputs("{\"symbol\": \"f\"},", f);
		fclose(f);
		refused(dir, want, "\"probes\": [", big, "kprobes");
		free(big);
	}
out:
	free(want);
	lb_results_free(back);
}

/* The verdict without a ratio, without a reference, and under emulation. */
static void test_verdict_edges(struct lb_results *res)
{
	struct lb_probeset_result *set = &res->probesets[1];
	struct lb_summary *b = &res->probesets[0].summary, keep = *b;
	struct lb_verdict v;
	char *line, *ref = set->reference;

	b->slowdown_ci95[0] = -0.5;
	T_CHECK(lb_results_verdict(res, set, &v) == 0);
	T_CHECK(isnan(v.ratio) && isnan(v.ratio_ci95[0]) && isnan(v.ratio_ci95[1]));
	line = lb_verdict_line(&v);
	T_CHECK(line && strstr(line, ": n/a times the tracer's impact (lttng's slowdown is "
			       "within the noise: its 95% CI includes 0) (2006"));
	free(line);
	*b = keep;
	b->slowdown_pct = -1;
	T_CHECK(lb_results_verdict(res, set, &v) == 0 && isnan(v.ratio));
	T_CHECK_STR(v.ratio_why, "lttng's slowdown is not above 0");
	*b = keep;

	set->reference = NULL;
	free(res->host.virtualization);
	res->host.virtualization = strdup("qemu-tcg");
	T_CHECK(lb_results_emulated(res));
	T_CHECK(lb_results_verdict(res, set, &v) == 0 && v.emulated && isfinite(v.ratio));
	line = lb_verdict_line(&v);
	T_CHECK(line && strlen(line) > strlen(LB_EMULATED_LABEL));
	if (line) {
		size_t n = strlen(line) - strlen(LB_EMULATED_LABEL);

		T_CHECK(!strcmp(line + n, LB_EMULATED_LABEL));
		T_CHECK(!strncmp(line + n - strlen("the tracer's impact"), "the tracer's impact",
				 strlen("the tracer's impact")));
	}
	free(line);
	free(res->host.virtualization);
	res->host.virtualization = strdup("kvm");
	set->reference = ref;

	/* Without kprobes, or without its base: no verdict. */
	set->kprobes.nprobes = 0;
	T_CHECK(lb_results_verdict(res, set, &v) == -ENOENT);
	set->kprobes.nprobes = 11;
	free(set->compare_with);
	set->compare_with = strdup("ftrace");
	T_CHECK(lb_results_verdict(res, set, &v) == -ENOENT);
	free(set->compare_with);
	set->compare_with = strdup("lttng");
}

/* --method runs: the ratio paired over the rounds, against medians computed here. */
static void test_verdict_runs(void)
{
	struct lb_results *res = lb_results_new();
	double base[9], a[9], b[9], mb, ma, mbb, lo, hi;
	struct lb_probeset_result *p[2] = { NULL, NULL };
	struct lb_verdict v;
	int ret = 0;

	T_CHECK(res != NULL);
	if (!res)
		return;
	res->config.method = strdup("runs");
	p[0] = lb_results_add_probeset(res, "lttng", "lttng");
	p[1] = p[0] ? lb_results_add_probeset(res, "lttng+kprobe", "lttng") : NULL;
	if (!p[1])
		goto out;
	p[0] = &res->probesets[0];
	p[1]->compare_with = strdup("lttng");
	ret |= lb_kprobes_info_add(&p[1]->kprobes, "f", 0, false, LB_KPROBE_BREAKPOINT);
	for (int i = 0; i < 9; i++) {
		struct lb_run r = { .round = i + 1, .seconds = 1 };

		base[i] = 100000 * (1 + 0.02 * sin(i * 1.3));
		b[i] = base[i] * 0.65 * (1 + 0.01 * cos(i * 0.7 + 1));
		a[i] = b[i] * 0.52 * (1 + 0.01 * sin(i * 2.9 + 0.5));
		r.throughput = base[i];
		ret |= lb_probeset_result_add_run(&res->baseline, &r);
		r.throughput = b[i];
		ret |= lb_probeset_result_add_run(p[0], &r);
		r.throughput = a[i];
		ret |= lb_probeset_result_add_run(p[1], &r);
	}
	T_CHECK(!ret && lb_results_summarize(res) == 0);
	T_CHECK(lb_results_verdict(res, p[1], &v) == 0);
	mb = lb_stats_median(base, 9);
	mbb = lb_stats_median(b, 9);
	ma = lb_stats_median(a, 9);
	T_CHECK_NEAR(v.base_pct, 100 * (1 - mbb / mb), 1e-9);
	T_CHECK_NEAR(v.ratio, (1 - ma / mb) / (1 - mbb / mb), 1e-12);
	T_CHECK(v.ratio_n == 9);
	T_CHECK(!lb_stats_slowdown_ratio_ci95(base, a, b, 9, 10000, 0x6c6f616462656e63ULL, &lo,
					      &hi));
	T_CHECK(v.ratio_ci95[0] == lo && v.ratio_ci95[1] == hi && lo < v.ratio && v.ratio < hi);
	/* 2006's shape: 35% then 73%, about 2.1x. */
	T_CHECK(fabs(v.base_pct - 35) < 1.5 && fabs(v.ratio - 0.662 / 0.35) < 0.1);
	printf("verdict (runs): ");
	{
		char *line = lb_verdict_line(&v);

		printf("%s\n", line ? line : "(none)");
		free(line);
	}
out:
	lb_results_free(res);
}

int main(int argc, char **argv)
{
	struct lb_results *res = build();

	if (!res) {
		fprintf(stderr, "cannot build the results\n");
		return T_EXIT_ERROR;
	}
	if (argc > 1) {
		int ret = lb_results_write_json(res, AT_FDCWD, argv[1]);

		lb_results_free(res);
		return ret ? T_EXIT_ERROR : T_EXIT_PASS;
	}
	{
		const char *tmpdir = getenv("TMPDIR");
		char *dir;

		if (asprintf(&dir, "%s/lb-test-verdict.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0 ||
		    !mkdtemp(dir)) {
			lb_results_free(res);
			return T_EXIT_ERROR;
		}
		test_describe();
		test_json(res, dir);
		test_verdict_alternate(res);
		test_verdict_edges(res);
		test_verdict_alternate(res);
		test_verdict_runs();
		t_remove_dir(dir);
		free(dir);
	}
	lb_results_free(res);
	return t_exit();
}
