// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures: lb_plot_write() writes slowdown.dat (checked against golden text)
 * and slowdown.gp (escaped header + the template); from the fixture
 * results.json, slowdown.dat, throughput.dat, cost.dat and compare.dat
 * against the golden files in tests/fixtures/; when gnuplot is on PATH,
 * lb_plot_render() renders a PNG and an SVG (tests/test-render checks
 * every figure). No root needed.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "plot.h"
#include "results.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

static const char golden_dat[] =
	"# loadbench 0.1.0-test: throughput slowdown per probe set, read by slowdown.gp\n"
	"# slowdown_pct = 100 * (1 - median traced / median baseline throughput);\n"
	"# ci95_low, ci95_high: its 95% confidence interval (paired percentile bootstrap);\n"
	"# throughput_median in operations/s. Sorted by slowdown; NaN = missing value.\n"
	"# baseline throughput_median: 88100.00 ops/s over 3 run(s)\n"
	"# name\tslowdown_pct\tci95_low\tci95_high\tthroughput_median\n"
	"\"syscalls\"\t-1.2500\t-3.0000\t0.5000\t89201.25\n"
	"\"lttng+kprobe\"\t12.5000\t10.1250\tNaN\t77087.50\n"
	"\"ftrace\"\t31.2000\t28.0000\t35.5000\t60612.80\n"
	"\"bad'name\"\tNaN\tNaN\tNaN\tNaN\n";

static struct lb_probeset_result *add(struct lb_results *res, const char *name, double slowdown,
				      double lo, double hi, double tput)
{
	struct lb_probeset_result *psr = lb_results_add_probeset(res, name, "ftrace");
	struct lb_run run = { .round = 1, .seconds = 2, .ops = 1000, .throughput = 500 };

	if (!psr)
		return NULL;
	if (lb_probeset_result_add_run(psr, &run))
		return NULL;
	psr->summary.slowdown_pct = slowdown;
	psr->summary.slowdown_ci95[0] = lo;
	psr->summary.slowdown_ci95[1] = hi;
	psr->summary.throughput_median = tput;
	return psr;
}

static struct lb_results *make_results(bool with_probesets)
{
	struct lb_results *res = lb_results_new();
	double samples[2] = { 88000, 88200 };
	struct lb_run run = { .seconds = 2, .ops = 176200, .throughput = 88100,
			      .sample_interval = 1, .samples = samples, .nsamples = 2 };
	int i;

	if (!res)
		return NULL;
	res->version = strdup("0.1.0-test");
	res->started = strdup("2026-11-29T18:00:00Z");
	res->complete = true;
	res->host.kernel_release = strdup("6.18.44-test");
	res->host.machine = strdup("x86_64");
	res->host.cpu_model = strdup("Test CPU\t@ 3.0GHz");	/* the tab is stripped */
	res->host.virtualization = strdup("none");
	res->host.ncpus = 2;
	res->config.workload = strdup("udp-rr");
	res->config.placement = strdup("udp-rr 127.0.0.1:40213 64B server@cpu1 client@cpu1 "
				       "'pinned'");
	res->config.engine = strdup("uring"); /* the placement does not name it: the footer does */
	res->config.duration = 2;
	res->config.repeat = 3;
	for (i = 1; i <= 3; i++) {
		run.round = i;
		if (lb_probeset_result_add_run(&res->baseline, &run))
			goto fail;
	}
	res->baseline.summary.throughput_median = 88100;
	/* Out of order, with a missing CI end, a negative slowdown and a NaN row. */
	if (with_probesets && (!add(res, "ftrace", 31.2, 28, 35.5, 60612.8) ||
	    !add(res, "bad\"name", NAN, NAN, NAN, NAN) ||
	    !add(res, "lttng+kprobe", 12.5, 10.125, NAN, 77087.5) ||
	    !add(res, "syscalls", -1.25, -3, 0.5, 89201.25)))
		goto fail;
	return res;
fail:
	lb_results_free(res);
	return NULL;
}

static void check_gp(const char *dir)
{
	char path[4096], *gp, *tmpl;

	snprintf(path, sizeof(path), "%s/slowdown.gp", dir);
	gp = t_read_all(path, NULL);
	tmpl = t_read_all(LB_SRCDIR "/plots/slowdown.gp", NULL);
	T_CHECK(gp != NULL);
	T_CHECK(tmpl != NULL);
	if (!gp || !tmpl)
		goto out;
	T_CHECK(strstr(gp, "\ntitle = 'Throughput slowdown under tracing'\n") != NULL);
	T_CHECK(strstr(gp, "\nsubtitle = 'baseline 88,100 ops/s (median of 3), udp-rr, 2 s x 3'\n")
		!= NULL);
	T_CHECK(strstr(gp, "\nfooter = 'Linux 6.18.44-test x86_64, Test CPU@ 3.0GHz, 2 CPUs' . "
			   "\"\\n\" . 'udp-rr 127.0.0.1:40213 64B server@cpu1 client@cpu1 "
			   "''pinned'' | engine uring | loadbench 0.1.0-test | "
			   "2026-11-29T18:00:00Z'\n") != NULL);
	/* The header, then the template verbatim up to the end of the file. */
	T_CHECK(strlen(gp) > strlen(tmpl) &&
		!strcmp(gp + strlen(gp) - strlen(tmpl), tmpl));
	/* Data comes from the file beside it, not from the script. */
	T_CHECK(strstr(tmpl, "'slowdown.dat'") != NULL);
	T_CHECK(strstr(gp, "60612") == NULL);
out:
	free(gp);
	free(tmpl);
}

static void check_render(const char *dir)
{
	static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char magic[8] = { 0 };
	char path[4096], err[512] = "", *svg;
	struct lb_results *res;
	FILE *f;
	int ret;

	ret = lb_plot_render(dir, err, sizeof(err));
	if (ret == -ENOENT) {
		printf("gnuplot is not installed: render check skipped (%s)\n", err);
		return;
	}
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "lb_plot_render: %s\n", err);
		return;
	}
	snprintf(path, sizeof(path), "%s/slowdown.png", dir);
	f = fopen(path, "rb");
	T_CHECK(f != NULL);
	if (f) {
		T_CHECK(fread(magic, 1, sizeof(magic), f) == sizeof(magic));
		T_CHECK(!memcmp(magic, png_magic, sizeof(magic)));
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/slowdown.svg", dir);
	svg = t_read_all(path, NULL);
	T_CHECK(svg != NULL && strstr(svg, "<svg") != NULL);
	free(svg);

	/* A broken script gives -EIO and gnuplot's error line. */
	snprintf(path, sizeof(path), "%s/slowdown.gp", dir);
	f = fopen(path, "w");
	T_CHECK(f != NULL);
	if (!f)
		return;
	fputs("# broken\nset terminal nosuchterminal\n", f);
	fclose(f);
	ret = lb_plot_render(dir, err, sizeof(err));
	T_CHECK(ret == -EIO);
	T_CHECK(strstr(err, "slowdown.gp") != NULL && strstr(err, "line 2") != NULL);

	/* With no probe sets the figure is still written and renders. */
	res = make_results(false);
	T_CHECK(res != NULL);
	if (!res)
		return;
	T_CHECK(lb_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	ret = lb_plot_render(dir, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render with no probe sets: %s\n", err);
	lb_results_free(res);
}

/* @dir/@name equals tests/fixtures/@name.golden. */
static void check_golden(const char *dir, const char *name)
{
	char path[4096], *got, *want;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	got = t_read_all(path, NULL);
	snprintf(path, sizeof(path), LB_SRCDIR "/tests/fixtures/%s.golden", name);
	want = t_read_all(path, NULL);
	T_CHECK(got != NULL && want != NULL);
	if (got && want && strcmp(got, want)) {
		fprintf(stderr, "%s differs from %s:\n%s\n", name, path, got);
		t_failures++;
	}
	free(got);
	free(want);
}

/* The .dat files of every figure, from the fixture, against golden files. */
static void check_fixture(void)
{
	const char *labels[2] = { "6.18", "6.18 again" };
	char dir[] = "/tmp/test-plot-fixture.XXXXXX", err[512] = "", path[4096], *gp;
	struct lb_results *a = NULL, *b = NULL;
	const struct lb_results *both[2];
	size_t n;

	T_CHECK(lb_results_read_json(LB_SRCDIR "/tests/fixtures/results.json", &a, err,
				     sizeof(err)) == 0);
	T_CHECK(lb_results_read_json(LB_SRCDIR "/tests/fixtures/results.json", &b, err,
				     sizeof(err)) == 0);
	if (!a || !b || !mkdtemp(dir)) {
		fprintf(stderr, "cannot read the fixture or make a directory: %s\n", err);
		t_failures++;
		goto out;
	}
	T_CHECK(lb_plot_write(a, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	check_golden(dir, "slowdown.dat");
	check_golden(dir, "throughput.dat");
	check_golden(dir, "cost.dat");
	snprintf(path, sizeof(path), "%s/throughput.gp", dir);
	gp = t_read_all(path, NULL);
	T_CHECK(gp && strstr(gp, "\nsubtitle = 'one 0.25 s sample per point; 1 s measured per "
			      "run, 0.5 s warm-up before it; dashed: median'\n"));
	free(gp);
	snprintf(path, sizeof(path), "%s/cost.gp", dir);
	gp = t_read_all(path, NULL);
	T_CHECK(gp && strstr(gp, "\ntitle = 'What each traced event costs'\n"));
	free(gp);

	/* Two results, the second without two of the probe sets. */
	n = b->nprobesets;
	b->nprobesets = 1;
	both[0] = a;
	both[1] = b;
	T_CHECK(lb_plot_write_compare(both, labels, 2, dir, LB_SRCDIR "/plots", err,
				      sizeof(err)) == 0);
	b->nprobesets = n;
	check_golden(dir, "compare.dat");
	snprintf(path, sizeof(path), "%s/compare.gp", dir);
	gp = t_read_all(path, NULL);
	T_CHECK(gp && strstr(gp, "\nfooter = '' . '6.18: Linux 6.18.44-test x86_64, AMD EPYC, "
			      "2 CPUs, virtualization kvm, udp-rr, 1 s x 3' . \"\\n\" . "
			      "'6.18 again: Linux"));
	T_CHECK(gp && strstr(gp, "\nfooter_lines = 2\n"));
	free(gp);
	t_remove_dir(dir);
out:
	lb_results_free(a);
	lb_results_free(b);
}

int main(void)
{
	char dir[] = "/tmp/test-plot.XXXXXX";
	char path[4096], err[512] = "", *dat;
	const char *saved_path;
	struct lb_results *res;
	int ret;

	res = make_results(true);
	if (!res) {
		fprintf(stderr, "cannot build the results\n");
		return T_EXIT_ERROR;
	}
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		lb_results_free(res);
		return T_EXIT_ERROR;
	}

	ret = lb_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_write: %s\n", err);
	snprintf(path, sizeof(path), "%s/slowdown.dat", dir);
	dat = t_read_all(path, NULL);
	T_CHECK_STR(dat, golden_dat);
	free(dat);
	check_gp(dir);

	/* A missing template is an error that names it, and leaves nothing behind. */
	ret = lb_plot_write(res, dir, "/nonexistent", err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, "/nonexistent/slowdown.gp") != NULL);
	ret = lb_plot_write(res, "/nonexistent", LB_SRCDIR "/plots", err, sizeof(err));
	T_CHECK(ret == -ENOENT);

	/* gnuplot missing from PATH: -ENOENT, and nothing is run. */
	saved_path = getenv("PATH");
	setenv("PATH", "/nonexistent", 1);
	T_CHECK(lb_plot_render(dir, err, sizeof(err)) == -ENOENT);
	if (saved_path)
		setenv("PATH", saved_path, 1);
	else
		unsetenv("PATH");

	check_fixture();
	check_render(dir);

	t_remove_dir(dir);
	lb_results_free(res);
	return t_exit();
}
