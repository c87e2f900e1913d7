// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rendering every figure with gnuplot: from the fixture results.json, the
 * figures of a results directory (slowdown, throughput, cost) and of a
 * comparison are written and rendered; every PNG, SVG and PDF must be there
 * (the PDF whenever this gnuplot has the pdfcairo terminal) and of its kind,
 * each SVG must parse (xmllint, libxml2's parser) and carry the texts a
 * reader needs (title, probe sets, values, lost and overwritten events, the
 * emulation warning of a TCG run, fonts readable at slide size). A results
 * directory without probe sets and one with many still render; so do the
 * figures of --method alternate (tests/fixtures/results-alternate.json),
 * with the slices on and off; so do probe sets whose names hold what
 * gnuplot reads as quotes, escapes or formats. Exits 77
 * (skip) when gnuplot or xmllint is not installed. No root needed.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"
#include "results.h"
#include "helpers.h"	/* after plot.h: its t_figures() */

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define FIXTURE LB_SRCDIR "/tests/fixtures/results.json"

extern char **environ;

static bool have_pdf;

/* Run @argv (a program looked up in PATH) with stdout and stderr as they are: its exit status. */
static int run(char *const argv[])
{
	pid_t pid;
	int status;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
		return -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether @prog runs at all (found in PATH): "@prog --version" exits 0. */
static bool installed(const char *prog)
{
	char *argv[] = { (char *)prog, "--version", NULL };
	pid_t pid;
	int status, devnull;
	posix_spawn_file_actions_t fa;
	bool ok = false;

	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0 || posix_spawn_file_actions_init(&fa))
		return false;
	posix_spawn_file_actions_adddup2(&fa, devnull, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, devnull, STDERR_FILENO);
	if (!posix_spawnp(&pid, prog, &fa, NULL, argv, environ) && waitpid(pid, &status, 0) == pid)
		ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	posix_spawn_file_actions_destroy(&fa);
	close(devnull);
	return ok;
}

/* Whether this gnuplot has the pdfcairo terminal: it prints GPVAL_TERMINALS. */
static bool gnuplot_has_pdf(void)
{
	char dir[] = "/tmp/test-render-terms.XXXXXX", path[4096], cmd[4200], *terms;
	char *argv[] = { "gnuplot", "-d", "-e", cmd, NULL };
	bool pdf;

	if (!mkdtemp(dir))
		return false;
	snprintf(path, sizeof(path), "%s/terminals.txt", dir);
	snprintf(cmd, sizeof(cmd), "set print '%s'; print GPVAL_TERMINALS", path);
	T_CHECK(run(argv) == 0);
	terms = t_read_all(path, NULL);
	T_CHECK(terms && strstr(terms, "pngcairo") && strstr(terms, "svg"));
	pdf = terms && strstr(terms, "pdfcairo");
	free(terms);
	t_remove_dir(dir);
	return pdf;
}

/*
 * The smallest font-size="N" in @svg (1000 when there is none), as it
 * would be on a canvas 1200 px wide: the SVG is in points (600 wide for a
 * lab figure), and what reads on a slide is the type's share of the width.
 */
static double smallest_font(const char *svg)
{
	double min = 1000, vb[4] = { 0, 0, 1200, 0 };
	const char *p = strstr(svg, "viewBox=\"");

	if (p)
		sscanf(p, "viewBox=\"%lf %lf %lf %lf\"", &vb[0], &vb[1], &vb[2], &vb[3]);
	for (p = svg; (p = strstr(p, "font-size=\"")); p++) {
		double v = strtod(p + 11, NULL);

		if (v > 0 && v < min)
			min = v;
	}
	return min < 1000 && vb[2] > 0 ? min * 1200 / vb[2] : min;
}

/*
 * NAME.png, .svg and .pdf in @dir: there, non-empty, of their kind; the SVG
 * parses, holds each of the NULL-terminated @texts and no font under 10 pt.
 */
static void check_outputs(const char *dir, const char *name, const char *const *texts)
{
	char path[4096];
	size_t len = 0;
	char *data;

	snprintf(path, sizeof(path), "%s/%s.png", dir, name);
	data = t_read_all(path, &len);
	T_CHECK(data && len > 1000 && !memcmp(data, "\x89PNG\r\n\x1a\n", 8));
	free(data);

	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	data = t_read_all(path, &len);
	T_CHECK(data && len > 1000 && strstr(data, "<svg"));
	{
		char *argv[] = { "xmllint", "--noout", path, NULL };

		if (run(argv)) {
			fprintf(stderr, "%s does not parse as XML (xmllint above)\n", path);
			t_failures++;
		}
	}
	for (; data && texts && *texts; texts++) {
		if (!strstr(data, *texts)) {
			fprintf(stderr, "%s does not show '%s'\n", path, *texts);
			t_failures++;
		}
	}
	if (data && smallest_font(data) < 10) {
		fprintf(stderr, "%s has a %g pt font: too small for a slide\n", path,
			smallest_font(data));
		t_failures++;
	}
	free(data);

	snprintf(path, sizeof(path), "%s/%s.pdf", dir, name);
	data = t_read_all(path, &len);
	/*
	 * 600 x 350 pt: text sizes stand to the page as in the 1200 x 700 px PNG (a
	 * page twice as large made every label half as large once scaled to a slide).
	 */
	if (have_pdf)
		T_CHECK(data && len > 500 && !memcmp(data, "%PDF", 4) &&
			memmem(data, len, "/MediaBox [ 0 0 600 350 ]", 25));
	else
		printf("%s: no PDF expected (this gnuplot has no pdfcairo)\n", path);
	free(data);
}

/* Write and render the figures of @res in @dir: 0 or the failure, said on stderr. */
static int render(const struct lb_results *res, const char *dir)
{
	char err[512] = "";
	int ret;

	ret = t_figures(res, NULL, NULL, 0, NULL, dir, LB_SRCDIR "/plots", 1, err, sizeof(err));
	if (ret)
		fprintf(stderr, "rendering in %s: %s\n", dir, err);
	return ret;
}

/* Many probe sets (names as long as the catalog's), one with a negative cost: still renders. */
static void check_many(struct lb_results *res, const char *dir)
{
	static const char *const names[] = {
		"perf-syscalls-pid", "ftrace+kretprobe", "lttng-syscalls", "bpf-syscalls",
		"syscalls-discard", "ftrace-consumer-other", "strace", "uprobe", "perf-count",
		"syscalls-pid", "lttng+kprobe",
	};
	static const char *const slowdown[] = { "perf-syscalls-pid", "ftrace-consumer-other", NULL };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct lb_probeset_result *psr = lb_results_add_probeset(res, names[i], "ftrace");
		struct lb_run run = { .round = 1, .seconds = 1, .ops = 1000, .throughput = 1000 };

		T_CHECK(psr && !lb_probeset_result_add_run(psr, &run));
		if (!psr)
			return;
		psr->summary = res->probesets[0].summary;
		psr->summary.slowdown_pct = (double)i * 7 - 10;
		psr->summary.ns_per_event = (double)i * 90 - 100;
	}
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "slowdown", slowdown);
	check_outputs(dir, "cost", NULL);
	check_outputs(dir, "throughput", NULL);
}

/* tests/fixtures/@name read, or NULL with the failure counted and said. */
static struct lb_results *fixture(const char *name)
{
	struct lb_results *res = NULL;
	char path[4096], err[512] = "";

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", LB_SRCDIR, name);
	if (lb_results_read_json(path, &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read the fixture %s: %s\n", name, err);
		t_failures++;
		return NULL;
	}
	return res;
}

/*
 * --method alternate (tests/fixtures/results-alternate.json): the slices'
 * figure has a panel per set under its name (a pair's naming the other),
 * with its medians off and on, and a key for the slices on, off and of the
 * other set, the medians, the plain reference and the dropped unit; the
 * slowdown figure says its whiskers are a moving-block bootstrap over the
 * units and which set missed the precision.
 * Without slices (interrupted before the first) and without probe sets,
 * every figure still renders.
 */
static void check_alternate(const char *dir)
{
	static const char *const throughput[] = {
		"Throughput over time, the probes switched on and off", ">ftrace<",
		"off 76.6k, on 52.7k", ">syscalls+kprobe (\u25b2 syscalls)<", "off 75.8k, on 56.3k",
		">syscalls (\u25b2 syscalls+kprobe)<", ">probes on<", ">all probes off<",
		">other set (\u25b2) on<", ">unit left out<", ">nothing armed<", ">medians<",
		"seconds from the alternation's first slice", "round trips/s", NULL,
	};
	static const char *const slowdown[] = {
		"whiskers: 95% CI, moving-block bootstrap over 6 to 7 units", "7 units",
		"each set vs. its probes off in the same running udp-rr",
		"within \u00b10.6 pp after 4 s: syscalls", NULL,
	};
	static const char *const cost[] = {
		"What each traced event costs", "method alternate", NULL,
	};
	static const char *const no_slices[] = { "no slices in throughput.dat", NULL };
	struct lb_results *res = fixture("results-alternate.json");
	size_t i, n;

	if (!res)
		return;
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "throughput", throughput);
	check_outputs(dir, "slowdown", slowdown);
	check_outputs(dir, "cost", cost);

	for (i = 0; i < res->nprobesets; i++) {
		free(res->probesets[i].slices);
		res->probesets[i].slices = NULL;
		res->probesets[i].nslices = 0;
	}
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "throughput", no_slices);
	n = res->nprobesets;
	res->nprobesets = 0;
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "throughput", NULL);
	res->nprobesets = n;
	lb_results_free(res);
}

/*
 * The latency figure (tests/fixtures/results-interrupted.json, whose
 * operations were timed) names its rows in the SVG as in every format, the
 * baseline's ("nothing armed", its own latency beside it) among them,
 * though only the first of its panels draws names. A set with nothing known
 * at a quantile says so.
 */
static void check_latency(const char *dir)
{
	static const char *const latency[] = {
		"Latency tracing adds per operation", ">nothing armed<", ">syscalls<", ">ftrace<",
		">20.9 \u00b5s<", ">n/a<", NULL,
	};
	struct lb_results *res = fixture("results-interrupted.json");

	if (!res)
		return;
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "latency", latency);
	lb_results_free(res);
}

/* Name the probe set @i of @res @name, and the sets that compare with it by that name. */
static void rename_set(struct lb_results *res, size_t i, const char *name)
{
	const char *old = res->probesets[i].name;

	for (size_t k = 0; k < res->nprobesets; k++) {
		struct lb_probeset_result *psr = &res->probesets[k];

		if (psr->compare_with && !strcmp(psr->compare_with, old)) {
			free(psr->compare_with);
			psr->compare_with = strdup(name);
			T_CHECK(psr->compare_with != NULL);
		}
	}
	free(res->probesets[i].name);
	res->probesets[i].name = strdup(name);
	T_CHECK(res->probesets[i].name != NULL);
}

/*
 * Probe sets named with what means something to gnuplot: a quote, a % (a
 * tic's label is a format), a double quote and a backslash (escapes in a
 * .dat string). Every figure renders, and shows each name as it is: in the
 * keys, the tics, and the panels' titles (issue 34: '100%' stopped
 * throughput.gp with "Bad format character", a"b showed as a'b and
 * back\slash as backslash).
 */
static void check_names(const char *dir)
{
	static const char *const throughput[] = {
		">it's<", ">100% (\u25b2 a\"b)<", ">a\"b (\u25b2 100%)<", NULL,
	};
	static const char *const sets[] = { ">it's<", ">100%<", ">a\"b<", NULL };
	static const char *const named[] = { ">it's<", ">back\\slash<", NULL };
	struct lb_results *res = fixture("results-alternate.json");

	if (!res)
		return;
	rename_set(res, 0, "it's");
	rename_set(res, 1, "100%");
	rename_set(res, 2, "a\"b");
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "throughput", throughput);
	check_outputs(dir, "slowdown", sets);
	check_outputs(dir, "cost", sets);
	lb_results_free(res);

	/* The latency and CPU figures: the interrupted fixture has both. */
	res = fixture("results-interrupted.json");
	if (!res)
		return;
	rename_set(res, 0, "it's");
	rename_set(res, 1, "back\\slash");
	for (size_t i = 0; i < res->nprobesets; i++)
		res->probesets[i].summary.latency = res->baseline.summary.latency;
	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "latency", named);
	check_outputs(dir, "cpu", named);
	check_outputs(dir, "slowdown", named);
	lb_results_free(res);
}

int main(void)
{
	static const char *const slowdown[] = {
		"Throughput slowdown under tracing", "syscalls-discard", "31.1%", "20.9%",
		"baseline 76,966 ops/s", "within noise", "virtualization kvm",
		"whiskers: 95% confidence interval", NULL,
	};
	static const char *const throughput[] = {
		"Throughput over time, every repetition", ">no tracing (baseline, median 77.0k)<",
		">its runs<", ">syscalls-discard<", ">median 60.8k<",
		"round (in each, the measured window of a run, start to end)", "round trips/s", NULL,
	};
	static const char *const cost[] = {
		"What each traced event costs", "1,772,788 lost (61.0%)", "99.7% overwritten",
		"242 ns", "events per round trip", NULL,
	};
	static const char *const compare[] = {
		"Throughput slowdown under tracing, compared", "one, baseline 77.0k ops/s",
		"two: 6.1, baseline 77.0k ops/s", "no mark: not measured in that run",
		"in common: AMD EPYC, 2 CPUs", NULL,
	};
	static const char *const emulated[] = { "EMULATED (QEMU TCG)", "INTERRUPTED", NULL };
	static const char *const one_round[] = {
		"EMULATED (QEMU TCG)", "INTERRUPTED", "no confidence interval: it needs 2 or more rounds",
		NULL,
	};
	const char *labels[2] = { "one", "two: 6.1" };
	char dir[] = "/tmp/test-render.XXXXXX", cmp[] = "/tmp/test-render-cmp.XXXXXX";
	struct lb_results *res = NULL, *res2 = NULL;
	const struct lb_results *both[2];
	char err[512] = "";
	size_t n;
	int ret;

	if (!installed("gnuplot")) {
		printf("gnuplot is not installed (apt-get install gnuplot-nox): nothing to render\n");
		return T_EXIT_SKIP;
	}
	if (!installed("xmllint")) {
		printf("xmllint is not installed (apt-get install libxml2-utils): the SVG figures "
		       "cannot be parsed\n");
		return T_EXIT_SKIP;
	}
	have_pdf = gnuplot_has_pdf();
	ret = lb_results_read_json(FIXTURE, &res, err, sizeof(err));
	if (!ret)
		ret = lb_results_read_json(FIXTURE, &res2, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "cannot read %s: %s\n", FIXTURE, err);
		return T_EXIT_ERROR;
	}
	if (!mkdtemp(dir) || !mkdtemp(cmp)) {
		perror("mkdtemp");
		return T_EXIT_ERROR;
	}

	/* xmllint really parses: a broken SVG fails. */
	{
		char path[4096], *argv[] = { "xmllint", "--noout", path, NULL };
		FILE *f;

		snprintf(path, sizeof(path), "%s/broken.svg", dir);
		f = fopen(path, "w");
		T_CHECK(f != NULL);
		if (f) {
			fputs("<svg><g></svg>\n", f);
			fclose(f);
		}
		printf("xmllint must reject %s:\n", path);
		fflush(stdout);
		T_CHECK(run(argv) != 0);
		unlink(path);
	}

	T_CHECK(render(res, dir) == 0);
	check_outputs(dir, "slowdown", slowdown);
	check_outputs(dir, "throughput", throughput);
	check_outputs(dir, "cost", cost);

	/* A comparison where the second results lack a probe set. */
	free(res2->host.kernel_release);
	res2->host.kernel_release = strdup("6.1.0-13-amd64");
	res2->nprobesets--;
	both[0] = res;
	both[1] = res2;
	ret = t_figures(NULL, both, labels, 2, "AMD EPYC, 2 CPUs", cmp, LB_SRCDIR "/plots", 1, err,
			sizeof(err));
	res2->nprobesets++;
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render (compare): %s\n", err);
	check_outputs(cmp, "compare", compare);

	/* Under TCG, interrupted after one round (no interval): every figure says so. */
	free(res2->host.virtualization);
	res2->host.virtualization = strdup("qemu-tcg");
	res2->complete = false;
	for (n = 0; n < res2->nprobesets; n++)
		res2->probesets[n].summary.slowdown_ci95[0] = NAN;
	T_CHECK(render(res2, cmp) == 0);
	check_outputs(cmp, "slowdown", one_round);
	check_outputs(cmp, "throughput", emulated);
	check_outputs(cmp, "cost", emulated);

	/* A results directory without probe sets still renders every figure. */
	n = res->nprobesets;
	res->nprobesets = 0;
	T_CHECK(render(res, dir) == 0);
	res->nprobesets = n;

	check_many(res2, cmp);
	check_alternate(dir);
	check_latency(dir);
	check_names(dir);

	t_remove_dir(dir);
	t_remove_dir(cmp);
	lb_results_free(res);
	lb_results_free(res2);
	return t_exit();
}
