// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reports: 'loadbench report' in every format, from the fixtures
 * results.json and results-alternate.json (--method alternate), against
 * golden text in tests/fixtures/; summary.txt
 * (written atomically) is the text table; the format names parse; strings
 * of a results.json that would steer a terminal reach no report raw. No root.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "report.h"
#include "results.h"
#include "sweep.h"
#include "table.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define FIXTURES LB_SRCDIR "/tests/fixtures/"

/*
 * The report of @res in @fmt equals the file @golden. With LB_UPDATE_GOLDEN=1
 * in the environment it is written there first (review the diff with git),
 * as tests/test-plot does.
 */
static void check_format(const struct lb_results *res, const char *name, const char *golden)
{
	enum lb_report_format fmt;
	char *out = NULL, *want;
	size_t len = 0;
	FILE *f;

	T_CHECK(lb_report_format_parse(name, &fmt) == 0);
	f = open_memstream(&out, &len);
	T_CHECK(f != NULL);
	if (!f)
		return;
	T_CHECK(lb_report_print(res, fmt, f) == 0);
	fclose(f);
	if (getenv("LB_UPDATE_GOLDEN")) {
		f = fopen(golden, "w");
		if (!f || fputs(out, f) < 0 || fclose(f)) {
			fprintf(stderr, "cannot update %s\n", golden);
			t_failures++;
		}
	}
	want = t_read_all(golden, NULL);
	T_CHECK(want != NULL);
	T_CHECK_STR(out, want);
	free(out);
	free(want);
}

/* The report of @res in @fmt, malloc'd. */
static char *report(const struct lb_results *res, enum lb_report_format fmt)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	T_CHECK(lb_report_print(res, fmt, f) == 0);
	fclose(f);
	return out;
}

/*
 * What a reader must not miss, in every format: a run under QEMU TCG is
 * emulated, an interrupted one partial, and a tiny share of lost events is
 * not rounded to 0.0%. @res is changed and restored.
 */
static void check_flags(struct lb_results *res)
{
	char *virt = res->host.virtualization, *out;
	uint64_t lost = res->probesets[0].summary.lost_events;
	uint64_t events = res->probesets[0].summary.events;

	res->host.virtualization = "qemu-tcg";
	res->complete = false;
	res->probesets[0].summary.lost_events = 24;
	res->probesets[0].summary.events = 4344971;

	T_CHECK(lb_results_add_skipped(res, "lttng", "kernel without module support") == 0);
	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && strstr(out, "\n- not measured: lttng (kernel without module support)\n\n| "));
	T_CHECK(out && strstr(out, "virtualization: qemu-tcg (emulated: timings are not real"));
	T_CHECK(out && strstr(out, "**interrupted: partial results**"));
	T_CHECK(out && strstr(out, "| 24 (0.00055%) |"));
	free(out);
	out = report(res, LB_REPORT_LATEX);
	T_CHECK(out && strstr(out, "(qemu-tcg) (emulated: timings are not real"));
	T_CHECK(out && strstr(out, " Interrupted: partial results.}"));
	T_CHECK(out && strstr(out, " & 24 (0.00055\\%) & "));
	free(out);
	out = report(res, LB_REPORT_LINES);
	T_CHECK(out && strstr(out, "\n(measured under QEMU TCG: the timings are emulated"));
	T_CHECK(out && strstr(out, "\n(interrupted: partial results"));
	free(out);

	res->host.virtualization = virt;
	res->complete = true;
	res->probesets[0].summary.lost_events = lost;
	res->probesets[0].summary.events = events;
	res->nskipped--;
	free(res->skipped[res->nskipped].name);
	free(res->skipped[res->nskipped].reason);
}

/*
 * A set beside the one it builds on (compare-with): the lines format and the
 * text table say how much it adds. @res is changed and restored.
 */
static void check_pair(struct lb_results *res)
{
	struct lb_probeset_result *d = &res->probesets[2];
	char *out;

	T_CHECK_STR(d->name, "syscalls-discard");
	d->compare_with = strdup("syscalls");
	T_CHECK(d->compare_with != NULL);
	out = report(res, LB_REPORT_LINES);
	/* 20.9% against 24.0%; 60,848 against 58,508 ops/s round by round: faster. */
	T_CHECK(out && strstr(out, "with syscalls-discard: 20.9% slower (95% CI of the slowdown: "
			      "17.0% to 25.6%)\n  syscalls-discard on top of syscalls: 0.87 times "
			      "its slowdown, "));
	T_CHECK(out && strstr(out, "% faster than syscalls (95% CI of that slowdown: -"));
	free(out);
	out = report(res, LB_REPORT_TEXT);
	T_CHECK(out && strstr(out, "\nsyscalls-discard vs syscalls (the set it builds on): 20.9% vs "
			      "24.0% slower than the baseline (0.87x the slowdown), slowdown "
			      "against syscalls -"));
	free(out);
	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && !strstr(out, "on top of"));
	free(out);
	free(d->compare_with);
	d->compare_with = NULL;
}

/*
 * scripts/loadbench-vm's accelerator and why, in every format's host line (the lines
 * format has none). @res is changed and restored.
 */
static void check_vm_accelerator(struct lb_results *res)
{
	char *out;

	res->host.vm_accelerator = "tcg: /dev/kvm is kvm_pvm (runs only PVM guests)";
	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && strstr(out, "), virtualization: kvm, VM accelerator: tcg: /dev/kvm is kvm\\_pvm "
			      "\\(runs only PVM guests\\)\n- CPU: "));
	free(out);
	out = report(res, LB_REPORT_LATEX);
	T_CHECK(out && strstr(out, " (kvm), VM accelerator tcg: /dev/kvm is kvm\\_pvm (runs only "
			      "PVM guests); method runs: median of "));
	free(out);
	out = report(res, LB_REPORT_TEXT);
	T_CHECK(out && strstr(out, "\nkernel: 6.18.44-test (x86_64), virtualization: kvm, VM "
			      "accelerator tcg: /dev/kvm is kvm_pvm (runs only PVM guests)\n"));
	free(out);
	res->host.vm_accelerator = NULL;
}

/*
 * --method alternate (tests/fixtures/results-alternate.json): every format
 * says the method; the Markdown table gains the CI's half-width (marked when
 * wider than the precision asked for) and the units; a line says the
 * slowdown against the set's own off slices over its units. A run of the
 * runs method has neither column. @runs is the runs fixture.
 */
static void check_alternate(const struct lb_results *runs)
{
	struct lb_results *res = NULL;
	char err[512], *out;

	if (lb_results_read_json(FIXTURES "results-alternate.json", &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read the alternate fixture: %s\n", err);
		t_failures++;
		return;
	}
	check_format(res, "markdown", FIXTURES "report-alternate.md.golden");
	check_format(res, "latex", FIXTURES "report-alternate.tex.golden");
	check_format(res, "lines", FIXTURES "report-alternate-lines.txt.golden");

	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && strstr(out, "\n- method: alternate, each probe set's probes switched on and "
			      "off on one running workload in 0.1 s slices"));
	T_CHECK(out && strstr(out, "| slowdown % | 95% CI | \u00b1pp | units | events/op |"));
	T_CHECK(out && strstr(out, "| ftrace | ftrace | 52,719 | - | 31.1 | [30.4, 31.6] | 0.56 | "
			      "7 (1 dropped) | 24.20 |"));
	T_CHECK(out && strstr(out, "| [22.6, 24.0] | 0.69\\* | 6 |"));
	T_CHECK(out && strstr(out, "\n\\* Wider than the \u00b10.6 pp asked for after 4 s of "
			      "alternation.\n"));
	T_CHECK(out && strstr(out, "| baseline | none | 76,783 | 0.3 | - | - | - | - | - | - | - "
			      "| - |"));
	free(out);
	out = report(res, LB_REPORT_LINES);
	T_CHECK(out && strstr(out, "76,525 ops/s with its probes off, 52,719 ops/s with ftrace on: "
			      "31.1% slower [30.4, 31.6], 7 units of alternation\n"));
	T_CHECK(out && strstr(out, "with syscalls on: 23.3% slower [22.6, 24.0], 6 units of "
			      "alternation (wider than the \u00b10.6 pp asked for)\n"));
	free(out);
	out = report(res, LB_REPORT_LATEX);
	T_CHECK(out && strstr(out, "; method alternate: ") && strstr(out, "(6--7 units per set)"));
	T_CHECK(out && strstr(out, "moving-block bootstrap 95\\% confidence interval over the "
			      "units (not all within the precision asked for)"));
	free(out);

	/* Every set within the precision, none dropped: no mark, no note. */
	for (size_t i = 0; i < res->nprobesets; i++) {
		res->probesets[i].summary.precision_reached = true;
		res->probesets[i].summary.dropped_units = 0;
	}
	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && !strstr(out, "\\*") && strstr(out, "| 0.56 | 7 | 24.20 |"));
	free(out);
	out = report(res, LB_REPORT_LINES);
	T_CHECK(out && !strstr(out, "wider than"));
	free(out);
	lb_results_free(res);

	out = report(runs, LB_REPORT_MARKDOWN);
	T_CHECK(out && strstr(out, "\n- method: runs, 3 rounds of 1 s measured after 0.5 s "
			      "warm-up, loadbench 0.1.0"));
	T_CHECK(out && !strstr(out, "units") && !strstr(out, "\u00b1pp"));
	free(out);
	out = report(runs, LB_REPORT_LATEX);
	T_CHECK(out && strstr(out, "; method runs: median of 3 rounds of 1\\,s."));
	free(out);
}

/*
 * What someone else's results.json may hold: an OSC that retitles the
 * terminal, a clear-screen CSI, CR, LF, tab, DEL, CSI as the C1 control
 * U+009B in UTF-8 and as a lone 8-bit byte (not UTF-8), then a Markdown
 * cell's '|', a backslash and UTF-8 that is fine (u umlaut).
 */
#define HOSTILE "\x1b]2;owned\x07\x1b[2J\r\n\t\x7f\xc2\x9b" "1m\x9b|\\ \u00fc"
/* HOSTILE in the text and lines formats: every control byte as \xNN, the backslash doubled. */
#define HOSTILE_TEXT "\\x1b]2;owned\\x07\\x1b[2J\\x0d\\x0a\\x09\\x7f\\xc2\\x9b1m\\x9b|\\\\ \u00fc"
/*
 * HOSTILE in a Markdown cell: each control byte as \xNN (as in the text
 * format), its backslash, the brackets, '|' and the backslash escaped.
 */
#define HOSTILE_MD "\\\\x1b\\]2;owned\\\\x07\\\\x1b\\[2J\\\\x0d\\\\x0a\\\\x09\\\\x7f" \
	"\\\\xc2\\\\x9b1m\\\\x9b\\|\\\\ \u00fc"
/* HOSTILE in LaTeX: each control byte as \xNN, every backslash spelled out. */
#define TEX_BS "\\textbackslash{}"
#define HOSTILE_TEX TEX_BS "x1b]2;owned" TEX_BS "x07" TEX_BS "x1b[2J" TEX_BS "x0d" TEX_BS "x0a" \
	TEX_BS "x09" TEX_BS "x7f" TEX_BS "xc2" TEX_BS "x9b1m" TEX_BS "x9b|" TEX_BS " \u00fc"

/* Replace the string *@p by @prefix HOSTILE. */
static void set_hostile(char **p, const char *prefix)
{
	free(*p);
	if (asprintf(p, "%s%s", prefix, HOSTILE) < 0)
		*p = NULL;
	T_CHECK(*p != NULL);
}

/*
 * Whether @out holds a byte a terminal acts on: a C0 control but the
 * newline, DEL, CSI as a byte (0x9b: no character of these reports has it
 * in its UTF-8), or a C1 control in UTF-8 (0xc2 0x80-0x9f). Said on stderr.
 */
static bool raw_control(const char *out, const char *what)
{
	const unsigned char *u = (const unsigned char *)out;
	size_t i;

	for (i = 0; u[i]; i++) {
		if ((u[i] < 0x20 && u[i] != '\n') || u[i] == 0x7f || u[i] == 0x9b ||
		    (u[i] == 0xc2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f)) {
			fprintf(stderr, "%s: raw byte 0x%02x at %zu\n", what, u[i], i);
			return true;
		}
	}
	return false;
}

/* @res written to @path and read back from it, as 'loadbench report' reads it; NULL: failed. */
static struct lb_results *reread(const struct lb_results *res, const char *path)
{
	struct lb_results *back = NULL;
	char err[512] = "";

	T_CHECK(lb_results_write_json(res, AT_FDCWD, path) == 0);
	T_CHECK(lb_results_read_json(path, &back, err, sizeof(err)) == 0);
	if (!back)
		fprintf(stderr, "%s: %s\n", path, err);
	return back;
}

/* As reread(), then @res freed and the file removed. */
static struct lb_results *reread_free(struct lb_results *res, const char *path)
{
	struct lb_results *back = reread(res, path);

	lb_results_free(res);
	T_CHECK(unlink(path) == 0);
	return back;
}

/* The table of 'loadbench compare' of @res alone, labelled @label, malloc'd. */
static char *compare_of(const struct lb_results *res, const char *label)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	T_CHECK(f != NULL);
	if (!f)
		return NULL;
	T_CHECK(lb_report_print_compare((const struct lb_results *const *)&res, &label, 1, f) == 0);
	fclose(f);
	return out;
}

/*
 * A results.json whose every string is HOSTILE after a word (probe-set and
 * tracer names, a compare-with pair, warnings, a skipped set, host and
 * workload strings, version, start time), written and read back as
 * 'loadbench report' reads it: no format prints a control byte raw; each
 * shows it as \xNN (Markdown and LaTeX with the backslash escaped); the
 * table of 'loadbench compare' too.
 */
static void check_hostile(const struct lb_results *fixture, const char *dir)
{
	static const char *const names[] = { "markdown", "latex", "text", "lines" };
	struct lb_results *res;
	char path[4096], *out = NULL;
	enum lb_report_format fmt;
	size_t i;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	res = reread(fixture, path);
	if (!res)
		return;
	set_hostile(&res->probesets[0].name, "evil");
	set_hostile(&res->probesets[0].tracer, "tr");
	free(res->probesets[2].compare_with);
	res->probesets[2].compare_with = strdup(res->probesets[0].name);
	set_hostile(&res->version, "v");
	set_hostile(&res->started, "s");
	set_hostile(&res->host.kernel_release, "k");
	set_hostile(&res->host.machine, "m");
	set_hostile(&res->host.cpu_model, "c");
	set_hostile(&res->host.virtualization, "virt");
	set_hostile(&res->host.vm_accelerator, "a");
	set_hostile(&res->config.workload, "w");
	set_hostile(&res->config.placement, "p");
	set_hostile(&res->config.engine, "e");
	T_CHECK(lb_results_add_warning(res, "warn%s", HOSTILE) == 0);
	T_CHECK(lb_results_add_skipped(res, "sk" HOSTILE, "why" HOSTILE) == 0);
	res = reread_free(res, path);
	if (!res)
		return;
	T_CHECK_STR(res->probesets[0].name, "evil" HOSTILE);

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		T_CHECK(lb_report_format_parse(names[i], &fmt) == 0);
		out = report(res, fmt);
		T_CHECK(out && !raw_control(out, names[i]));
		switch (fmt) {
		case LB_REPORT_TEXT:
			T_CHECK(out && strstr(out, "\nevil" HOSTILE_TEXT "  tr" HOSTILE_TEXT "  "));
			T_CHECK(out && strstr(out, "\nwarning: warn" HOSTILE_TEXT "\n"));
			T_CHECK(out && strstr(out, "\nskipped sk" HOSTILE_TEXT ": why" HOSTILE_TEXT
					      "\n"));
			T_CHECK(out && strstr(out, "\nCPU: c" HOSTILE_TEXT ", 2 online\n"));
			T_CHECK(out && strstr(out, "\nsyscalls-discard vs evil" HOSTILE_TEXT
					      " (the set it builds on): "));
			break;
		case LB_REPORT_LINES:
			T_CHECK(out && strstr(out, " ops/s with evil" HOSTILE_TEXT ": 31.1% "
					      "slower"));
			T_CHECK(out && strstr(out, "\n  syscalls-discard on top of evil"
					      HOSTILE_TEXT ": "));
			break;
		case LB_REPORT_MARKDOWN:
			T_CHECK(out && strstr(out, "\n| evil" HOSTILE_MD " | tr" HOSTILE_MD " | "));
			T_CHECK(out && strstr(out, "\n> **Warning:** warn" HOSTILE_MD "\n"));
			break;
		case LB_REPORT_LATEX:
			T_CHECK(out && strstr(out, "\nevil" HOSTILE_TEX " & tr" HOSTILE_TEX " & "));
			T_CHECK(out && strstr(out, "% loadbench v" HOSTILE_TEX " results"));
			break;
		}
		free(out);
	}

	out = compare_of(res, "dir" HOSTILE);
	T_CHECK(out && !raw_control(out, "compare"));
	T_CHECK(out && strstr(out, "| probe set | dir" HOSTILE_MD " |\n"));
	T_CHECK(out && strstr(out, "\n| evil" HOSTILE_MD " | 31.1% ["));
	free(out);
	lb_results_free(res);
}

/*
 * Markup and reordering in a results.json (issue 34): a probe set named,
 * and a warning saying, an HTML script, a javascript: link and a
 * RIGHT-TO-LEFT OVERRIDE (U+202E: "exe.txt" after it reads "txt.exe").
 * The Markdown report has no raw tag and no link (< > as entities, the
 * brackets and parentheses escaped); no format, nor the compare table,
 * holds the bytes of U+202E (E2 80 AE): each shows it as \xe2\x80\xae.
 */
#define MARKUP "<script>alert(1)</script>[x](javascript:alert(1))\u202eexe.txt"
#define MARKUP_MD "&lt;script&gt;alert\\(1\\)&lt;/script&gt;\\[x\\]\\(javascript:alert\\(1\\)\\)" \
	"\\\\xe2\\\\x80\\\\xaeexe.txt"
static void check_markup(const struct lb_results *fixture, const char *dir)
{
	/* Each format, and U+202E as it shows it. */
	static const struct {
		const char *name, *shown;
	} formats[] = {
		{ "markdown", "\\\\xe2\\\\x80\\\\xae" },
		{ "latex", TEX_BS "xe2" TEX_BS "x80" TEX_BS "xae" },
		{ "text", "\\xe2\\x80\\xae" },
		{ "lines", "\\xe2\\x80\\xae" },
	};
	struct lb_results *res;
	enum lb_report_format fmt;
	char path[4096], *out;

	snprintf(path, sizeof(path), "%s/results.json", dir);
	res = reread(fixture, path);
	if (!res)
		return;
	free(res->probesets[0].name);
	res->probesets[0].name = strdup("set" MARKUP);
	T_CHECK(res->probesets[0].name && lb_results_add_warning(res, "warn%s", MARKUP) == 0);
	res = reread_free(res, path);
	if (!res)
		return;
	T_CHECK_STR(res->probesets[0].name, "set" MARKUP);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		T_CHECK(lb_report_format_parse(formats[i].name, &fmt) == 0);
		out = report(res, fmt);
		T_CHECK(out && !strstr(out, "\xe2\x80\xae") && strstr(out, formats[i].shown));
		if (fmt == LB_REPORT_MARKDOWN) {
			T_CHECK(out && !strstr(out, "<script") && !strstr(out, "](javascript"));
			T_CHECK(out && strstr(out, "\n| set" MARKUP_MD " | ftrace | "));
			T_CHECK(out && strstr(out, "\n> **Warning:** warn" MARKUP_MD "\n"));
		}
		if (out && strstr(out, "\xe2\x80\xae"))
			fprintf(stderr, "%s: U+202E raw in:\n%s\n", formats[i].name, out);
		free(out);
	}

	out = compare_of(res, "dir" MARKUP);
	T_CHECK(out && !strstr(out, "\xe2\x80\xae") && !strstr(out, "<script"));
	T_CHECK(out && strstr(out, "| probe set | dir" MARKUP_MD " |\n"));
	free(out);
	lb_results_free(res);
}

/*
 * A sweep's report (loadbench report on a --sweep directory): the points and
 * the lines, in Markdown and LaTeX, numbers as printed, names escaped.
 */
static void check_sweep(void)
{
	struct lb_sweep_point pts[2] = {
		{ .value = 0, .events_per_op = 8, .slowdown_pct = 20, .slowdown_ci95 = { 18, 22 },
		  .added_ns = 2600, .added_ns_ci95 = { 2300, 2900 }, .ns_per_event = 325 },
		{ .value = 4, .events_per_op = 16, .slowdown_pct = 30, .slowdown_ci95 = { NAN, NAN },
		  .added_ns = 4200, .added_ns_ci95 = { NAN, NAN }, .ns_per_event = 262.5 },
	};
	struct lb_sweep_set set = {
		.name = (char *)"sys_calls|pid", .points = pts, .npoints = 2,
		.fit = { .n = 2, .slope = 200, .intercept = 1000, .slope_ci95 = { NAN, NAN },
			 .intercept_ci95 = { NAN, NAN }, .r2 = 1 },
	};
	int values[2] = { 0, 4 };
	struct lb_sweep s = { .key = (char *)"syscalls-per-op", .values = values, .nvalues = 2,
			      .sets = &set, .nsets = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	T_CHECK(f && lb_report_print_sweep(&s, LB_REPORT_MARKDOWN, f) == 0 && fclose(f) == 0);
	T_CHECK(buf && strstr(buf, "## Sweep of syscalls-per-op\n"));
	T_CHECK(buf && strstr(buf, "| sys\\_calls\\|pid | 0 | 8.00 | 20.0 [18.0, 22.0] | "
			      "2600 [2300, 2900] | 325.0 |\n|  | 4 | 16.00 | 30.0 | 4200 | 262.5 |\n"));
	T_CHECK(buf && strstr(buf, "| sys\\_calls\\|pid | 200.0 | 1000 | 1.000 | 2 |\n"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	T_CHECK(f && lb_report_print_sweep(&s, LB_REPORT_LATEX, f) == 0 && fclose(f) == 0);
	T_CHECK(buf && strstr(buf, "sys\\_calls|pid & 0 & 8.00 & 20.0 [18.0, 22.0] & "
			      "2600 [2300, 2900] & 325.0 \\\\\n"));
	T_CHECK(buf && strstr(buf, "sys\\_calls|pid & 200.0 & 1000 & 1.000 & 2 \\\\\n"));
	T_CHECK(buf && strstr(buf, "\\label{tab:loadbench-sweep-fit}"));
	free(buf);
}

int main(void)
{
	char dir[] = "/tmp/test-report.XXXXXX", path[4096], err[512];
	enum lb_report_format fmt;
	struct lb_results *res = NULL;
	char *got, *want;

	if (lb_results_read_json(FIXTURES "results.json", &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read the fixture: %s\n", err);
		return T_EXIT_ERROR;
	}
	check_format(res, "markdown", FIXTURES "report.md.golden");
	check_format(res, "latex", FIXTURES "report.tex.golden");
	check_format(res, "text", FIXTURES "report.txt.golden");
	check_format(res, "lines", FIXTURES "report-lines.txt.golden");
	check_flags(res);
	check_pair(res);
	check_vm_accelerator(res);
	check_alternate(res);
	check_sweep();
	T_CHECK(lb_report_format_parse("html", &fmt) == -EINVAL);
	T_CHECK(lb_report_format_parse("", &fmt) == -EINVAL);

	/* summary.txt: the text table, and no temporary file left beside it. */
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		lb_results_free(res);
		return T_EXIT_ERROR;
	}
	check_hostile(res, dir);
	check_markup(res, dir);
	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	T_CHECK(lb_results_write_summary(res, AT_FDCWD, path) == 0);
	got = t_read_all(path, NULL);
	want = t_read_all(FIXTURES "report.txt.golden", NULL);
	T_CHECK_STR(got, want);
	free(got);
	free(want);
	T_CHECK(unlink(path) == 0);
	T_CHECK(rmdir(dir) == 0);	/* fails if a temporary file was left */
	T_CHECK(lb_results_write_summary(res, AT_FDCWD, "/nonexistent/summary.txt") == -ENOENT);

	lb_results_free(res);
	return t_exit();
}
