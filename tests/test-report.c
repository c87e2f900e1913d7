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

#include "format.h"
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
 * A set whose BPF programs' statistics were read (a command set's events
 * bpf, --bpf-stats): one line with its runs and the ns inside them per run
 * in every format and in the text table; none for a set without them. @res
 * is changed and restored.
 */
static void check_bpf(struct lb_results *res)
{
	static const char line[] = "500000 runs of its BPF programs, 123.4 ns inside them per "
				   "run (the kernel's BPF statistics), beside ";
	struct lb_summary *s = &res->probesets[0].summary;
	const char *p;
	char *out = NULL;
	size_t len = 0;
	int n = 0;
	FILE *f;

	s->bpf_runs = 500000;
	s->bpf_run_ns = 61700000;
	out = report(res, LB_REPORT_MARKDOWN);
	/* Markdown escapes the parentheses. */
	T_CHECK(out && strstr(out, "\nTime inside the BPF programs:\n\n- ") &&
		strstr(out, "500000 runs of its BPF programs, 123.4 ns inside them per run \\(the "));
	free(out);
	out = report(res, LB_REPORT_LATEX);
	T_CHECK(out && strstr(out, "\\paragraph{Time inside the BPF programs.}") &&
		strstr(out, line));
	free(out);
	out = report(res, LB_REPORT_LINES);
	T_CHECK(out && strstr(out, line) && strstr(out, " ns per event from the slowdown\n"));
	free(out);
	f = open_memstream(&out, &len);
	T_CHECK(f != NULL);
	if (f) {
		lb_results_print_table(res, f);
		fclose(f);
		T_CHECK(out && strstr(out, line));
		/* One set has them: one line. */
		for (p = out; p && (p = strstr(p, "runs of its BPF programs"));) {
			n++;
			p++;
		}
		T_CHECK(n == 1);
		free(out);
	}
	s->bpf_runs = 0;
	s->bpf_run_ns = 0;
	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && !strstr(out, "BPF programs"));
	free(out);
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
			      "PVM guests); baseline (nothing armed) 76{,}966 ops/s (median); "
			      "method runs: median of "));
	free(out);
	out = report(res, LB_REPORT_TEXT);
	T_CHECK(out && strstr(out, "\nkernel: 6.18.44-test (x86_64), virtualization: kvm, VM "
			      "accelerator tcg: /dev/kvm is kvm_pvm (runs only PVM guests)\n"));
	free(out);
	res->host.vm_accelerator = NULL;
}

/* How a format prints its table: where its header starts, its cells' separator, its titles. */
struct table_style {
	enum lb_report_format fmt;
	const char *head;	/* the header line starts with it */
	const char *sep;	/* between cells; NULL: two spaces or more (text) */
	const char *slowdown;	/* the title of the slowdown column */
	const char *group;	/* thousands separator of the throughputs; NULL: none */
};

#define CELLS 16
#define CELL_LEN 64

/*
 * The cells of the table line @line (up to its newline) into @cell: split
 * at @st->sep, a Markdown row without its outer bars, a LaTeX row without its
 * "\\"; the text format's at runs of two spaces or more. Returns how many.
 */
static size_t split_cells(const char *line, const struct table_style *st, char cell[][CELL_LEN])
{
	size_t len = strcspn(line, "\n"), n = 0, i = 0;
	char *buf = strndup(line, len);

	if (!buf)
		return 0;
	if (st->fmt == LB_REPORT_MARKDOWN && len > 4 && !strncmp(buf, "| ", 2) &&
	    !strcmp(buf + len - 2, " |")) {
		buf[len - 2] = '\0';
		i = 2;
	} else if (st->fmt == LB_REPORT_LATEX && len > 3 && !strcmp(buf + len - 3, " \\\\")) {
		buf[len - 3] = '\0';
	}
	while (buf[i] && n < CELLS) {
		const char *end = strstr(buf + i, st->sep ? st->sep : "  ");
		size_t w = end ? (size_t)(end - (buf + i)) : strlen(buf + i);

		snprintf(cell[n++], CELL_LEN, "%.*s", (int)w, buf + i);
		if (!end)
			break;
		i += w + (st->sep ? strlen(st->sep) : 0);
		while (!st->sep && buf[i] == ' ')
			i++;
	}
	free(buf);
	return n;
}

/* The number in @cell without its thousands separators ("76,525", "76{,}525"); NAN if none. */
static double cell_num(const char *cell, const struct table_style *st)
{
	char buf[CELL_LEN], *end;
	size_t o = 0, glen = st->group ? strlen(st->group) : 0;
	double d;

	for (const char *c = cell; *c && o + 1 < sizeof(buf);) {
		if (glen && !strncmp(c, st->group, glen)) {
			c += glen;
			continue;
		}
		buf[o++] = *c++;
	}
	buf[o] = '\0';
	d = strtod(buf, &end);
	return end == buf || *end ? NAN : d;
}

/* The index of the column titled @title in the header @cell[@n]; -1 (said) if none. */
static int column(char cell[][CELL_LEN], size_t n, const char *title)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cell[i], title))
			return (int)i;
	fprintf(stderr, "no column '%s' in the table\n", title);
	return -1;
}

/*
 * In the table whose header line is @head, the row of the set @name: its
 * off, on and slowdown (the columns @col[3]) into @v[3]; NAN where none.
 */
static void row_values(const char *head, const struct table_style *st, const char *name,
		       const int *col, double *v)
{
	char cell[CELLS][CELL_LEN];

	v[0] = v[1] = v[2] = NAN;
	for (const char *l = strchr(head, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		size_t n = split_cells(l + 1, st, cell);

		if (!n || strcmp(cell[0], name))
			continue;
		for (int k = 0; k < 3; k++)
			v[k] = n > (size_t)col[k] ? cell_num(cell[col[k]], st) : NAN;
		return;
	}
}

/*
 * The lines of @out that print the plain baseline's median @base: how many
 * say it is the baseline with nothing armed into *@label, how many do not
 * into *@other (said on stderr).
 */
static void count_baseline(const char *out, const char *base, size_t *label, size_t *other)
{
	*label = *other = 0;
	for (const char *l = out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != '\0')) {
		char *line = strndup(l, strcspn(l, "\n"));

		if (line && strstr(line, "baseline (nothing armed)")) {
			++*label;
			T_CHECK(strstr(line, base) != NULL);
		} else if (line && strstr(line, base)) {
			++*other;
			fprintf(stderr, "the baseline's %s not said to be it: %s\n", base, line);
		}
		free(line);
	}
}

/*
 * Issue 28, "the table contradicts itself": in each format's table, each
 * set's "ops/s off" and "ops/s on" are the throughputs its slowdown compares,
 * so 100 (1 - on / off) is its printed slowdown within @tol pp (the
 * alternation's slowdown is a trimmed mean of unit ratios, the runs' the
 * ratio of these medians); one line says the plain baseline's median, as
 * the baseline with nothing armed, and under alternate no other line
 * prints that number (it is no set's off).
 */
static void check_off_on(const struct lb_results *res, double tol)
{
	static const struct table_style styles[] = {
		{ LB_REPORT_TEXT, "probe set ", NULL, "slowdown %", NULL },
		{ LB_REPORT_MARKDOWN, "| probe set |", " | ", "slowdown %", "," },
		{ LB_REPORT_LATEX, "Probe set & ", " & ", "Slowdown (\\%)", "{,}" },
	};
	double b = res->baseline.summary.throughput_median;
	char cell[CELLS][CELL_LEN], base[64];

	for (size_t k = 0; k < sizeof(styles) / sizeof(styles[0]); k++) {
		const struct table_style *st = &styles[k];
		char *out = report(res, st->fmt), *head = out ? strstr(out, st->head) : NULL;
		size_t n, label, other;
		int col[3];

		T_CHECK(head != NULL);
		if (!head) {
			free(out);
			continue;
		}
		n = split_cells(head, st, cell);
		col[0] = column(cell, n, "ops/s off");
		col[1] = column(cell, n, "ops/s on");
		col[2] = column(cell, n, st->slowdown);
		T_CHECK(col[0] >= 0 && col[1] >= 0 && col[2] >= 0);
		for (size_t i = 0; i < res->nprobesets && col[0] >= 0 && col[1] >= 0 && col[2] >= 0;
		     i++) {
			double v[3];

			row_values(head, st, res->probesets[i].name, col, v);
			if (!(fabs(100 * (1 - v[1] / v[0]) - v[2]) <= tol))
				fprintf(stderr, "format %d, %s: off %g, on %g: 100 (1 - on / off) = "
					"%.2f, its slowdown %g\n", (int)st->fmt,
					res->probesets[i].name, v[0], v[1], 100 * (1 - v[1] / v[0]),
					v[2]);
			T_CHECK(fabs(100 * (1 - v[1] / v[0]) - v[2]) <= tol);
		}
		/* The plain baseline's median as this format prints it. */
		if (st->group)
			lb_fmt_grouped(b, st->group, base, sizeof(base));
		else
			snprintf(base, sizeof(base), "%.0f", b);
		count_baseline(out, base, &label, &other);
		T_CHECK(label == 1);
		T_CHECK(!lb_results_alternate(res) || other == 0);
		free(out);
	}
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
	double plain;

	if (lb_results_read_json(FIXTURES "results-alternate.json", &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read the alternate fixture: %s\n", err);
		t_failures++;
		return;
	}
	check_format(res, "markdown", FIXTURES "report-alternate.md.golden");
	check_format(res, "latex", FIXTURES "report-alternate.tex.golden");
	check_format(res, "lines", FIXTURES "report-alternate-lines.txt.golden");
	check_off_on(res, 3);
	/*
	 * Issue 28's run: the off slices 14% faster than the plain ones (bpf
	 * 67,105 on against 82,607 off, the plain 72,529): the ops/s beside a
	 * slowdown must be its own off slices', not the plain baseline's.
	 */
	plain = res->baseline.summary.throughput_median;
	res->baseline.summary.throughput_median = 66000;
	check_off_on(res, 3);
	res->baseline.summary.throughput_median = plain;

	out = report(res, LB_REPORT_MARKDOWN);
	T_CHECK(out && strstr(out, "\n- method: alternate, each probe set's probes switched on and "
			      "off on one running workload in 0.1 s slices"));
	T_CHECK(out && strstr(out, "| slowdown % | 95% CI | \u00b1pp | units | events/op |"));
	T_CHECK(out && strstr(out, "| ftrace | ftrace | 76,525 | 52,719 | - | 31.1 | [30.4, 31.6] | "
			      "0.56 | 7 (1 dropped) | 24.20 |"));
	T_CHECK(out && strstr(out, "| [22.6, 24.0] | 0.69\\* | 6 |"));
	T_CHECK(out && strstr(out, "\n\\* Wider than the \u00b10.6 pp asked for after 4 s of "
			      "alternation.\n"));
	T_CHECK(out && strstr(out, "\n- baseline (nothing armed): 76,783 ops/s (median), "
			      "CV 0.3%\n"));
	T_CHECK(out && !strstr(out, "| baseline |"));
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
	check_off_on(res, 0.1);	/* the runs' slowdown is the ratio of the two medians */
	check_flags(res);
	check_bpf(res);
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
