// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures: lb_plot_write() writes slowdown.dat (checked against golden text)
 * and slowdown.gp (escaped header + the template); when gnuplot is on PATH,
 * lb_plot_render() renders a PNG and an SVG. No root needed.
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

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(size + 1);
		if (buf) {
			len = fread(buf, 1, size, f);
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

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

static void remove_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path))
			fprintf(stderr, "cannot remove %s: %s\n", path, strerror(errno));
	}
	closedir(d);
	if (rmdir(dir))
		fprintf(stderr, "cannot remove %s: %s\n", dir, strerror(errno));
}

static void check_gp(const char *dir)
{
	char path[4096], *gp, *tmpl;

	snprintf(path, sizeof(path), "%s/slowdown.gp", dir);
	gp = read_all(path);
	tmpl = read_all(LB_SRCDIR "/plots/slowdown.gp");
	T_CHECK(gp != NULL);
	T_CHECK(tmpl != NULL);
	if (!gp || !tmpl)
		goto out;
	T_CHECK(strstr(gp, "\ntitle = 'Throughput slowdown under tracing'\n") != NULL);
	T_CHECK(strstr(gp, "\nsubtitle = 'baseline 88,100 ops/s (median of 3), udp-rr, 2 s x 3'\n")
		!= NULL);
	T_CHECK(strstr(gp, "\nfooter = 'Linux 6.18.44-test x86_64, Test CPU@ 3.0GHz, 2 CPUs' . "
			   "\"\\n\" . 'udp-rr 127.0.0.1:40213 64B server@cpu1 client@cpu1 "
			   "''pinned'' | loadbench 0.1.0-test | 2026-11-29T18:00:00Z'\n") != NULL);
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
	svg = read_all(path);
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
	dat = read_all(path);
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

	check_render(dir);

	remove_dir(dir);
	lb_results_free(res);
	return t_exit();
}
