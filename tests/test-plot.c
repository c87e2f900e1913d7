// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figures: lb_plot_write() writes slowdown.dat (checked against golden text)
 * and slowdown.gp (escaped header + the template); from the fixture
 * results.json, slowdown.dat, throughput.dat, cost.dat and compare.dat
 * against the golden files in tests/fixtures/, and from the --method
 * alternate fixture the slices' figure, and from tests/fixtures/sweep.json
 * (make-fixture --sweep) a sweep's sweep.dat, its slopes as the panels' titles
 * say them and its caption; when gnuplot is on PATH,
 * lb_plot_render() renders a PNG and an SVG (tests/test-render checks
 * every figure), runs only the scripts just written, and finds no gnuplot
 * in an empty or relative PATH entry; strings of a results.json cannot
 * add a command to a script. No root needed.
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

#include "plot.h"
#include "results.h"
#include "sweep.h"
#include "helpers.h"	/* after plot.h: its t_figures() */

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
	"\"bad\\042name\"\tNaN\tNaN\tNaN\tNaN\n";

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
	res->host.cpu_model = strdup("Test CPU\t@ 3.0GHz");	/* the tab shown as \x09 */
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

/*
 * The lines loadbench ends each figure's script with (the figure in each
 * format, written after the template) cut off @gp, once checked: 0, or -1.
 */
static int cut_render(char *gp, const char *name)
{
	char *tail = gp ? strstr(gp, "\n# The figure in each format, W x H inches:") : NULL;
	char want[128];
	int ok = 1;

	T_CHECK(tail != NULL);
	if (!tail)
		return -1;
	for (int i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "set output '%s.%s'\n", name,
			 (const char *[]){ "png", "svg", "pdf" }[i]);
		ok &= strstr(tail, want) != NULL;
	}
	T_CHECK(ok && strstr(tail, "set terminal pdfcairo size W, H font fnt(1)"));
	*tail = '\0';
	return 0;
}

static void check_gp(const char *dir)
{
	char path[4096], *gp, *tmpl;

	snprintf(path, sizeof(path), "%s/slowdown.gp", dir);
	gp = t_read_all(path, NULL);
	tmpl = t_read_all(LB_SRCDIR "/plots/slowdown.gp", NULL);
	T_CHECK(gp != NULL);
	T_CHECK(tmpl != NULL);
	if (!gp || !tmpl || cut_render(gp, "slowdown"))
		goto out;
	/* The style's lines first: the default is a lab notebook's. */
	T_CHECK(strstr(gp, "\nstyle = 'lab'\nW = 8.333333333\nH = 4.861111111\ndpi = 144\nfs = 7\n"));
	T_CHECK(strstr(gp, "\ntitle = 'Throughput slowdown under tracing'\n") != NULL);
	T_CHECK(strstr(gp, "\nsubtitle = 'baseline 88,100 ops/s (median of 3), udp-rr, 2 s x 3'\n")
		!= NULL);
	T_CHECK(strstr(gp, "\nfooter = 'Linux 6.18.44-test x86_64, Test CPU\\x09@ 3.0GHz, 2 CPUs' . "
			   "\"\\n\" . 'udp-rr 127.0.0.1:40213 64B server@cpu1 client@cpu1 "
			   "''pinned'' | engine uring | loadbench 0.1.0-test | "
			   "2026-11-29T18:00:00Z'\nfooter_lines = 2\nnote = ''\n"
			   "op_name = 'round trip'\nop_names = 'round trips'\n") != NULL);
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

/* The value of "NAME = ..." in @dir/@file (up to the end of its line), in @buf. */
static const char *gp_var(const char *dir, const char *file, const char *name, char *buf,
			  size_t len)
{
	char path[4096], key[64], *gp, *p;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	gp = t_read_all(path, NULL);
	snprintf(key, sizeof(key), "\n%s = ", name);
	p = gp ? strstr(gp, key) : NULL;
	snprintf(buf, len, "%.*s", p ? (int)strcspn(p + strlen(key), "\n") : 0,
		 p ? p + strlen(key) : "");
	free(gp);
	return buf;
}

/*
 * The texts around the data: a footer of many flows is shortened and wrapped
 * (no line longer than 140 characters, at most 5), a very long one is cut
 * with a pointer to results.json, keeping a line for the probe sets that
 * could not run; TCG and an interrupted run give the note, a failed one its own;
 * the operation is named after the workload; a tiny share of lost events
 * stays readable in cost.dat; the noise band comes from the baseline's CV.
 */
static void check_texts(void)
{
	char dir[] = "/tmp/test-plot-texts.XXXXXX", err[512], buf[8192], *p, *dat;
	struct lb_flow_place fp[4] = { { 1, 1 }, { 0, 0 }, { 1, 1 }, { 0, 0 } };
	struct lb_results *res = make_results(true);
	size_t len, i;
	int lines;

	if (!res || !mkdtemp(dir)) {
		t_failures++;
		lb_results_free(res);
		return;
	}
	free(res->config.placement);
	res->config.placement = strdup("udp-stream 198.18.69.2:39364 msg=64B syscalls/op=<=1+4 "
				       "engine=uring/multishot server@cpu1 client@cpu1 "
				       "topology=veth flows=4; flow1 198.18.69.6:49320 server@cpu0 "
				       "client@cpu0; flow2 198.18.69.10:35192 server@cpu1 "
				       "client@cpu1; flow3 198.18.69.14:41323 server@cpu0 client@cpu0");
	res->config.flow_placement = malloc(sizeof(fp));
	if (res->config.flow_placement)
		memcpy(res->config.flow_placement, fp, sizeof(fp));
	res->config.nflow_placement = 4;
	free(res->config.workload);
	res->config.workload = strdup("udp-stream");
	free(res->host.virtualization);
	res->host.virtualization = strdup("qemu-tcg");
	res->complete = false;
	res->baseline.summary.throughput_cv = 0.1085;
	res->probesets[0].summary.events = 4344971;
	res->probesets[0].summary.lost_events = 24;
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);

	gp_var(dir, "slowdown.gp", "footer", buf, sizeof(buf));
	T_CHECK(strstr(buf, "(emulated: timings are not real)") != NULL);
	T_CHECK(strstr(buf, "flows=4; flows 1-3") && strstr(buf, "server/client CPU 0/0 1/1 0/0"));
	T_CHECK(strstr(buf, "flow2 198.18") == NULL);
	/* Every line is a '...' string of at most 140 characters between the " . "\n" . ". */
	for (lines = 0, p = buf; *p == '\''; lines++) {
		len = strcspn(p + 1, "\'");
		T_CHECK(len <= 140);
		p += len + 2;
		if (!strncmp(p, " . \"\\n\" . ", 10))
			p += 10;
	}
	T_CHECK(!*p);
	T_CHECK(lines == 3);
	T_CHECK(!strcmp(gp_var(dir, "slowdown.gp", "footer_lines", buf, sizeof(buf)), "3"));
	gp_var(dir, "slowdown.gp", "note", buf, sizeof(buf));
	T_CHECK(strstr(buf, "EMULATED (QEMU TCG)") && strstr(buf, "INTERRUPTED"));
	T_CHECK(!strcmp(gp_var(dir, "cost.gp", "op_name", buf, sizeof(buf)),
			"'datagram received'"));
	T_CHECK(!strcmp(gp_var(dir, "throughput.gp", "op_names", buf, sizeof(buf)),
			"'datagrams received'"));
	T_CHECK(!strcmp(gp_var(dir, "slowdown.gp", "noise_pct", buf, sizeof(buf)), "21.70"));
	snprintf(buf, sizeof(buf), "%s/cost.dat", dir);
	dat = t_read_all(buf, NULL);
	T_CHECK(dat && strstr(dat, "\t24\t0.000552363\t0\t31.2000\t\"24 lost (0.00055%)\"\t"));
	free(dat);

	/* A placement far too long for the footer is cut, pointing to results.json. */
	free(res->config.placement);
	res->config.placement = malloc(2000);
	if (res->config.placement) {
		for (i = 0; i + 8 < 2000; i += 8)
			memcpy(res->config.placement + i, "flowxyz ", 8);
		res->config.placement[i] = '\0';
	}
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	T_CHECK(!strcmp(gp_var(dir, "cost.gp", "footer_lines", buf, sizeof(buf)), "5"));
	gp_var(dir, "cost.gp", "footer", buf, sizeof(buf));
	T_CHECK(strstr(buf, " ... (in full in results.json)'") != NULL);
	T_CHECK(strlen(buf) < 5 * 160);
	T_CHECK(!lb_results_add_skipped(res, "lttng", "no modules") &&
		!lb_results_add_skipped(res, "ftrace+kprobe", "no kprobes"));
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	T_CHECK(!strcmp(gp_var(dir, "cost.gp", "footer_lines", buf, sizeof(buf)), "5"));
	gp_var(dir, "cost.gp", "footer", buf, sizeof(buf));
	T_CHECK(strstr(buf, " ... (in full in results.json)' . \"\\n\" . 'not measured, cannot "
			"run here: lttng, ftrace+kprobe'") != NULL);

	/* Incomplete because a run failed (its warning says so), not interrupted: the note says which. */
	T_CHECK(!lb_results_add_warning(res, "run failed: baseline, round 2: --metric 'x: ([0-9]+)' "
					"found no number above 0 in the command's output"));
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	gp_var(dir, "slowdown.gp", "note", buf, sizeof(buf));
	T_CHECK(strstr(buf, "INCOMPLETE: a run failed") && !strstr(buf, "INTERRUPTED"));

	/* A complete native run has no note, and no band without a CV. */
	res->complete = true;
	free(res->host.virtualization);
	res->host.virtualization = strdup("kvm");
	res->baseline.summary.throughput_cv = NAN;
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	T_CHECK(!strcmp(gp_var(dir, "throughput.gp", "note", buf, sizeof(buf)), "''"));
	T_CHECK(!strcmp(gp_var(dir, "slowdown.gp", "noise_pct", buf, sizeof(buf)), "NaN"));

	/* scripts/loadbench-vm's accelerator and why close the environment line. */
	res->host.vm_accelerator = strdup("kvm: asked for with --accel kvm");
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	gp_var(dir, "throughput.gp", "footer", buf, sizeof(buf));
	{
		static const char want[] = "'Linux 6.18.44-test x86_64, Test CPU\\x09@ 3.0GHz, 2 CPUs, "
			"virtualization kvm, VM accelerator kvm: asked for with --accel kvm' . ";

		T_CHECK(!strncmp(buf, want, sizeof(want) - 1));
	}

	t_remove_dir(dir);
	lb_results_free(res);
}

/* True when @dir holds no staging directory (.loadbench-plot-*): lb_plot_close() removed it. */
static bool no_staging_left(const char *dir)
{
	struct dirent *de;
	bool none = true;
	DIR *d = opendir(dir);

	if (!d)
		return false;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, ".loadbench-plot-", 16)) {
			fprintf(stderr, "%s/%s left behind\n", dir, de->d_name);
			none = false;
		}
	closedir(d);
	return none;
}

/* Write @text to @dir/@name. */
static void put_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	T_CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		T_CHECK(fclose(f) == 0);
	}
}

/*
 * Rendering @res in @dir, when gnuplot is installed: slowdown.png and .svg of
 * their kind; only the scripts just written run, not one that was in @dir
 * already; a template gnuplot rejects gives -EIO and its error line; with no
 * probe sets the figures still render.
 */
static void check_render(const struct lb_results *res, const char *dir)
{
	static const unsigned char png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const char *const figures[] = { "slowdown", "throughput", "cost" };
	char tdir[] = "/tmp/test-plot-templates.XXXXXX";
	unsigned char magic[8] = { 0 };
	char path[4096], err[512] = "", *svg;
	struct lb_results *none;
	struct lb_plot *plot;
	size_t i;
	FILE *f;
	int ret;

	/* A script already there (compare.gp) is not run: it would write stale.txt. */
	put_file(dir, "compare.gp", "set print 'stale.txt'\nprint 'run'\n");
	ret = t_figures(res, NULL, NULL, 0, NULL, dir, LB_SRCDIR "/plots", 1, err, sizeof(err));
	if (ret == -ENOENT) {
		printf("gnuplot is not installed: render check skipped (%s)\n", err);
		return;
	}
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "lb_plot_render: %s\n", err);
		return;
	}
	snprintf(path, sizeof(path), "%s/stale.txt", dir);
	T_CHECK(access(path, F_OK) != 0);
	T_CHECK(no_staging_left(dir));
	snprintf(path, sizeof(path), "%s/compare.gp", dir);
	T_CHECK(unlink(path) == 0);
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

	/* Nothing written: nothing to render. */
	T_CHECK(lb_plot_open(dir, &plot, err, sizeof(err)) == 0);
	T_CHECK(lb_plot_render(plot, err, sizeof(err)) == -EIO);
	T_CHECK(strstr(err, "nothing to render") != NULL);
	T_CHECK(lb_plot_close(plot, err, sizeof(err)) == 0);

	/* A broken script gives -EIO and gnuplot's error line. */
	T_CHECK(mkdtemp(tdir) != NULL);
	for (i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		snprintf(path, sizeof(path), "%s.gp", figures[i]);
		put_file(tdir, path, "# broken\nset terminal nosuchterminal\n");
	}
	ret = t_figures(res, NULL, NULL, 0, NULL, dir, tdir, 1, err, sizeof(err));
	T_CHECK(ret == -EIO);
	T_CHECK(strstr(err, "slowdown.gp") != NULL && strstr(err, " line ") != NULL);
	T_CHECK(no_staging_left(dir));
	t_remove_dir(tdir);

	/* With no probe sets the figure is still written and renders. */
	none = make_results(false);
	T_CHECK(none != NULL);
	if (!none)
		return;
	ret = t_figures(none, NULL, NULL, 0, NULL, dir, LB_SRCDIR "/plots", 1, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_render with no probe sets: %s\n", err);
	lb_results_free(none);
}

/*
 * With LB_UPDATE_GOLDEN=1 in the environment, write @text to the golden file
 * @path (then review the diff with git): the way to change a golden file.
 */
static void update_golden(const char *path, const char *text)
{
	FILE *f;

	if (!getenv("LB_UPDATE_GOLDEN"))
		return;
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "cannot update %s\n", path);
		t_failures++;
	}
}

/* @dir/@name equals tests/fixtures/@golden.golden. */
static void check_golden_as(const char *dir, const char *name, const char *golden)
{
	char path[4096], *got, *want;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	got = t_read_all(path, NULL);
	snprintf(path, sizeof(path), LB_SRCDIR "/tests/fixtures/%s.golden", golden);
	if (got)
		update_golden(path, got);
	want = t_read_all(path, NULL);
	T_CHECK(got != NULL && want != NULL);
	if (got && want && strcmp(got, want)) {
		fprintf(stderr, "%s differs from %s:\n%s\n", name, path, got);
		t_failures++;
	}
	free(got);
	free(want);
}

/* @dir/@name equals tests/fixtures/@name.golden. */
static void check_golden(const char *dir, const char *name)
{
	check_golden_as(dir, name, name);
}

/*
 * @dir/@name.gp is a generated header, equal to
 * tests/fixtures/@golden.gp.header.golden, followed by the template
 * plots/@template.gp verbatim.
 */
static void check_header_as(const char *dir, const char *name, const char *template,
			    const char *golden)
{
	char path[4096], *gp, *tmpl, *want;
	size_t glen, tlen;

	snprintf(path, sizeof(path), "%s/%s.gp", dir, name);
	gp = t_read_all(path, NULL);
	snprintf(path, sizeof(path), LB_SRCDIR "/plots/%s.gp", template);
	tmpl = t_read_all(path, NULL);
	snprintf(path, sizeof(path), LB_SRCDIR "/tests/fixtures/%s.gp.header.golden", golden);
	want = t_read_all(path, NULL);
	T_CHECK(gp && tmpl);
	if (!gp || !tmpl || cut_render(gp, name))
		goto out;
	glen = strlen(gp);
	tlen = strlen(tmpl);
	T_CHECK(glen > tlen && !strcmp(gp + glen - tlen, tmpl));
	if (glen > tlen) {
		gp[glen - tlen] = '\0';
		update_golden(path, gp);
		T_CHECK(want != NULL);
		if (want && strcmp(gp, want)) {
			fprintf(stderr, "the header of %s.gp differs from %s:\n%s\n", name, path, gp);
			t_failures++;
		}
	}
out:
	free(gp);
	free(tmpl);
	free(want);
}

static void check_header(const char *dir, const char *name)
{
	check_header_as(dir, name, name, name);
}

/*
 * A sweep's figure, from tests/fixtures/sweep.json (make-fixture --sweep of
 * the fixture's three sets over syscalls-per-op 2, 4, 8, 16): sweep.dat
 * against its golden file; each set's name, slope and interval as its
 * panel's title says them (in µs from 1 µs, three digits; "no line" without
 * one); a caption that names the key, the values and what sweep.json holds.
 */
static void check_sweep(void)
{
	char dir[] = "/tmp/test-plot-sweep.XXXXXX", err[512] = "", buf[4096], *cap;
	struct lb_sweep *s = NULL;
	struct lb_plot *plot = NULL;

	T_CHECK(lb_sweep_read_json(LB_SRCDIR "/tests/fixtures/sweep.json", &s, err,
				   sizeof(err)) == 0);
	if (!s || s->nsets != 3 || !mkdtemp(dir)) {
		fprintf(stderr, "cannot read the sweep fixture or make a directory: %s\n", err);
		t_failures++;
		lb_sweep_free(s);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		T_CHECK(lb_plot_open(dir, &plot, err, sizeof(err)) == 0);
		if (!plot)
			break;
		T_CHECK(lb_plot_write_sweep(plot, s, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
		T_CHECK(lb_plot_close(plot, err, sizeof(err)) == 0);
		if (pass)
			break;
		check_golden(dir, "sweep.dat");
		T_CHECK_STR(gp_var(dir, "sweep.gp", "nsets", buf, sizeof(buf)), "3");
		T_CHECK_STR(gp_var(dir, "sweep.gp", "values[4]", buf, sizeof(buf)), "16");
		T_CHECK_STR(gp_var(dir, "sweep.gp", "set_name[3]", buf, sizeof(buf)),
			    "'syscalls-discard'");
		T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_text[1]", buf, sizeof(buf)),
			    "'200 ns per event'");
		T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_ci[1]", buf, sizeof(buf)),
			    "'[148, 251]'");
		snprintf(buf, sizeof(buf), "%s/sweep.caption.txt", dir);
		cap = t_read_all(buf, NULL);
		T_CHECK(cap && strstr(cap, "from a sweep of syscalls-per-op over 2, 4, 8, 16 ") &&
			strstr(cap, "The numbers are in sweep.json (the key syscalls-per-op, the "
				    "values 2, 4, 8, 16 and, per probe set,") &&
			strstr(cap, "in the results.json of its syscalls-per-op=VALUE directory"));
		free(cap);
		/* A microsecond and more in µs, three digits; no line, no interval. */
		s->sets[0].fit.slope = 1290.4;
		s->sets[0].fit.slope_ci95[0] = 957.2;
		s->sets[0].fit.slope_ci95[1] = 1622.9;
		s->sets[1].fit.slope = 17576.3;
		s->sets[1].fit.slope_ci95[0] = NAN;
		s->sets[2].fit.slope = NAN;
	}
	T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_text[1]", buf, sizeof(buf)),
		    "'1.29 \u00b5s per event'");
	T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_ci[1]", buf, sizeof(buf)), "'[0.96, 1.62]'");
	T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_text[2]", buf, sizeof(buf)),
		    "'17.6 \u00b5s per event'");
	T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_ci[2]", buf, sizeof(buf)), "''");
	T_CHECK_STR(gp_var(dir, "sweep.gp", "fit_text[3]", buf, sizeof(buf)), "'no line'");
	T_CHECK_STR(gp_var(dir, "sweep.gp", "slope[3]", buf, sizeof(buf)), "NaN");
	t_remove_dir(dir);
	lb_sweep_free(s);
}

/*
 * --method alternate, from tests/fixtures/results-alternate.json (ftrace
 * alone, syscalls+kprobe with its base syscalls; syscalls did not reach the
 * precision): throughput.dat holds one panel per set, each with the slices
 * of its alternation (the pair's in both of its panels, each naming the
 * other), and throughput.gp says alternate = 1 to the template
 * throughput.gp; slowdown.dat gains units, half-width and
 * precision; the whiskers are said to be a moving-block bootstrap over the
 * units, and the footer says how it measured and which sets missed the
 * target. The cost figure is that of the runs method.
 */
static void check_alternate(void)
{
	char dir[] = "/tmp/test-plot-alternate.XXXXXX", err[512] = "", buf[8192], *dat;
	struct lb_results *res = NULL;

	T_CHECK(lb_results_read_json(LB_SRCDIR "/tests/fixtures/results-alternate.json", &res, err,
				     sizeof(err)) == 0);
	if (!res || !mkdtemp(dir)) {
		fprintf(stderr, "cannot read the alternate fixture or make a directory: %s\n", err);
		t_failures++;
		lb_results_free(res);
		return;
	}
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	check_golden_as(dir, "throughput.dat", "throughput-alternate.dat");
	check_golden_as(dir, "slowdown.dat", "slowdown-alternate.dat");
	check_header_as(dir, "throughput", "throughput", "throughput-alternate");
	check_header_as(dir, "slowdown", "slowdown", "slowdown-alternate");
	check_header_as(dir, "cost", "cost", "cost-alternate");

	gp_var(dir, "slowdown.gp", "ci_label", buf, sizeof(buf));
	T_CHECK_STR(buf, "'whiskers: 95% CI, moving-block bootstrap over 6 to 7 units'");
	T_CHECK(!strcmp(gp_var(dir, "slowdown.gp", "noise_pct", buf, sizeof(buf)), "NaN"));
	gp_var(dir, "cost.gp", "footer", buf, sizeof(buf));
	T_CHECK(strstr(buf, "'method alternate: probes on and off in 0.1 s slices (0.02 s "
			"settling), mirrored units; 95% CI: moving-block bootstrap over 6 to 7 "
			"units; not' . \"\\n\" . 'within \u00b10.6 pp after 4 s: syscalls "
			"(\u00b10.69)'"));
	T_CHECK(!strcmp(gp_var(dir, "cost.gp", "footer_lines", buf, sizeof(buf)), "4"));
	snprintf(buf, sizeof(buf), "%s/throughput.dat", dir);
	dat = t_read_all(buf, NULL);
	/* The pair's two entries hold the same slices: each is the other's "other". */
	T_CHECK(dat && strstr(dat, "\n1\t\"syscalls\"\t") &&
		strstr(dat, "\t\"syscalls+kprobe\"\n2\t\"syscalls+kprobe\"\t") &&
		strstr(dat, "\t\"syscalls\"\n\n\n") && strstr(dat, "\n2\tother\t") &&
		strstr(dat, "\n1\tother\t") && !strstr(dat, "\n0\tother\t"));
	free(dat);

	/* Every set reached the precision, the same units each: nothing more to say. */
	for (size_t i = 0; i < res->nprobesets; i++) {
		res->probesets[i].summary.precision_reached = true;
		res->probesets[i].summary.units = 7;
	}
	T_CHECK(t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	gp_var(dir, "slowdown.gp", "ci_label", buf, sizeof(buf));
	T_CHECK_STR(buf, "'whiskers: 95% CI, moving-block bootstrap over 7 units'");
	gp_var(dir, "slowdown.gp", "footer", buf, sizeof(buf));
	T_CHECK(strstr(buf, " . 'method alternate: probes on and off in 0.1 s slices (0.02 s "
			"settling), mirrored units; 95% CI: moving-block bootstrap over 7 "
			"units'") && buf[strlen(buf) - 1] == '\'');
	T_CHECK(!strstr(buf, "not within"));

	t_remove_dir(dir);
	lb_results_free(res);
}

/* The .dat files of every figure, from the fixture, against golden files. */
static void check_fixture(void)
{
	const char *labels[2] = { "6.18", "6.18 again" };
	char dir[] = "/tmp/test-plot-fixture.XXXXXX", err[512] = "";
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
	T_CHECK(t_plot_write(a, dir, LB_SRCDIR "/plots", err, sizeof(err)) == 0);
	check_golden(dir, "slowdown.dat");
	check_golden(dir, "throughput.dat");
	check_golden(dir, "cost.dat");
	check_header(dir, "slowdown");
	check_header(dir, "throughput");
	check_header(dir, "cost");

	/* Two results, the second without two of the probe sets. */
	n = b->nprobesets;
	b->nprobesets = 1;
	both[0] = a;
	both[1] = b;
	T_CHECK(t_figures(NULL, both, labels, 2, "Linux 6.18.44-test, workload udp-rr", dir,
			  LB_SRCDIR "/plots", 0, err, sizeof(err)) == 0);
	b->nprobesets = n;
	check_golden(dir, "compare.dat");
	check_header(dir, "compare");
	t_remove_dir(dir);
out:
	lb_results_free(a);
	lb_results_free(b);
}

/*
 * Whether @dir/@file holds nothing a results.json could have slipped in:
 * each line naming "pwned" is a comment, a NAME = '...' string of the
 * header, or a data row (a number or a "name" first), no byte but
 * newline and tab is a control one (C0, DEL, CSI 0x9b, C1 in UTF-8), and no
 * RIGHT-TO-LEFT OVERRIDE (U+202E, E2 80 AE) reorders its text. Said on
 * stderr.
 */
static bool inert(const char *dir, const char *file)
{
	char path[4096], *text, *line, *next;
	const unsigned char *u;
	bool ok = true;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	text = t_read_all(path, NULL);
	if (!text) {
		fprintf(stderr, "%s: cannot read it\n", path);
		return false;
	}
	for (u = (const unsigned char *)text; *u; u++) {
		if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7f || *u == 0x9b ||
		    (*u == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f) ||
		    (*u == 0xe2 && u[1] == 0x80 && u[2] == 0xae)) {
			fprintf(stderr, "%s: raw byte 0x%02x\n", path, *u);
			ok = false;
		}
	}
	for (line = text; *line; line = next) {
		size_t len = strcspn(line, "\n"), key = strspn(line, "abcdefghijklmnopqrstuvwxyz_");

		next = line + len + !!line[len];
		if (!memmem(line, len, "pwned", 5) || line[0] == '#' || line[0] == '"' ||
		    (line[0] >= '0' && line[0] <= '9') || (key && !strncmp(line + key, " = '", 4)))
			continue;
		fprintf(stderr, "%s: a line of the file's strings: %.*s\n", path, (int)len, line);
		ok = false;
	}
	free(text);
	return ok;
}

/*
 * The version, a probe-set name, the placement and the CPU of a
 * results.json, and a directory's label in compare, each with a newline
 * and a gnuplot command after it, quotes, a `command`, an @macro, an
 * escape sequence and a RIGHT-TO-LEFT OVERRIDE: the scripts and data files
 * hold them inertly (the override as the text \xe2\x80\xae), and
 * gnuplot (when on PATH) renders without running any: the file the
 * commands would touch is not there.
 */
static void check_hostile(void)
{
	static const char *const files[] = {
		"slowdown.gp", "slowdown.dat", "throughput.gp", "throughput.dat", "cost.gp",
		"cost.dat",
	};
	char dir[] = "/tmp/test-plot-hostile.XXXXXX", err[512] = "", path[64], cmd[256];
	struct lb_results *res = make_results(true);
	const struct lb_results *both[2];
	const char *labels[2];
	char *label = NULL;
	size_t i;
	int ret;

	if (!res || !mkdtemp(dir)) {
		t_failures++;
		lb_results_free(res);
		return;
	}
	snprintf(path, sizeof(path), "%s/pwned", dir);
	snprintf(cmd, sizeof(cmd), "'\"\nsystem \"touch %s\"\n# `touch %s` @title \x1b[2J\u202e",
		 path, path);
	free(res->version);
	free(res->probesets[0].name);
	free(res->config.placement);
	free(res->host.cpu_model);
	if (asprintf(&res->version, "0.1%s", cmd) < 0 ||
	    asprintf(&res->probesets[0].name, "ftrace%s", cmd) < 0 ||
	    asprintf(&res->config.placement, "udp-rr%s", cmd) < 0 ||
	    asprintf(&res->host.cpu_model, "cpu%s", cmd) < 0 || asprintf(&label, "a%s", cmd) < 0) {
		t_failures++;
		goto out;
	}
	ret = t_figures(res, NULL, NULL, 0, NULL, dir, LB_SRCDIR "/plots", 1, err, sizeof(err));
	T_CHECK(ret == 0 || ret == -ENOENT);
	if (ret && ret != -ENOENT)
		fprintf(stderr, "rendering the figures: %s\n", err);
	T_CHECK(access(path, F_OK) != 0);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		T_CHECK(inert(dir, files[i]));

	both[0] = both[1] = res;
	labels[0] = label;
	labels[1] = "b";
	ret = t_figures(NULL, both, labels, 2, label, dir, LB_SRCDIR "/plots", 1, err,
			sizeof(err));
	T_CHECK(ret == 0 || ret == -ENOENT);
	if (ret && ret != -ENOENT)
		fprintf(stderr, "rendering the compare figure: %s\n", err);
	T_CHECK(access(path, F_OK) != 0);
	T_CHECK(inert(dir, "compare.gp"));
	T_CHECK(inert(dir, "compare.dat"));
out:
	free(label);
	t_remove_dir(dir);
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

	ret = t_plot_write(res, dir, LB_SRCDIR "/plots", err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "lb_plot_write: %s\n", err);
	snprintf(path, sizeof(path), "%s/slowdown.dat", dir);
	dat = t_read_all(path, NULL);
	T_CHECK_STR(dat, golden_dat);
	free(dat);
	check_gp(dir);

	/* A missing template is an error that names it, and leaves nothing behind. */
	ret = t_plot_write(res, dir, "/nonexistent", err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, "/nonexistent/slowdown.gp") != NULL);
	T_CHECK(no_staging_left(dir));
	snprintf(path, sizeof(path), "%s/slowdown.dat", dir);
	dat = t_read_all(path, NULL);
	T_CHECK_STR(dat, golden_dat);
	free(dat);
	ret = t_plot_write(res, "/nonexistent", LB_SRCDIR "/plots", err, sizeof(err));
	T_CHECK(ret == -ENOENT);

	/*
	 * gnuplot missing from PATH, or only in an empty or relative entry:
	 * -ENOENT, nothing is run, and the .gp and .dat are still written.
	 */
	saved_path = getenv("PATH");
	setenv("PATH", "/nonexistent::.:bin", 1);
	unlink(path);
	T_CHECK(t_figures(res, NULL, NULL, 0, NULL, dir, LB_SRCDIR "/plots", 1, err,
			  sizeof(err)) == -ENOENT);
	T_CHECK(strstr(err, "absolute directory of PATH") != NULL);
	T_CHECK(access(path, F_OK) == 0);
	T_CHECK(no_staging_left(dir));
	if (saved_path)
		setenv("PATH", saved_path, 1);
	else
		unsetenv("PATH");

	check_fixture();
	check_alternate();
	check_sweep();
	check_texts();
	check_hostile();
	check_render(res, dir);

	t_remove_dir(dir);
	lb_results_free(res);
	return t_exit();
}
