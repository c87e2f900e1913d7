// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 'loadbench compare DIR DIR...': the slowdown of every probe set in
 * several results directories (kernels, machines, engines, workloads) on
 * one figure, compare.png/.svg/.pdf with compare.dat and compare.gp, and
 * a Markdown table on stdout. Each directory is labelled by its name and
 * what differs between them (kernel, CPU, virtualization, workload).
 *
 * 'loadbench compare --baseline BASE [--fail-above PP] [--format F] DIR...':
 * the regression gate (src/results/gate.h) of each DIR against BASE, probe
 * set by probe set, on stdout; exit 1 when a set is worse, 2 on an error.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "gate.h"
#include "gate_print.h"
#include "gnuplot.h"
#include "outdir.h"
#include "figures.h"
#include "options.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "util.h"

/* The last component of @path without trailing slashes, in @buf. */
static const char *base_name(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	const char *start;

	while (n > 1 && path[n - 1] == '/')
		n--;
	start = path;
	for (size_t i = 0; i < n; i++)
		if (path[i] == '/' && i + 1 < n)
			start = path + i + 1;
	snprintf(buf, len, "%.*s", (int)(n - (size_t)(start - path)), start);
	return buf;
}

/* One thing a results directory was measured with, as "kernel 6.18.44" in @buf. */
typedef const char *(*field_fn)(const struct lb_results *r, char *buf, size_t len);

static const char *f_kernel(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "Linux %s", lb_str_or(r->host.kernel_release, "?"));
	return buf;
}

static const char *f_machine(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", lb_str_or(r->host.machine, "?"));
	return buf;
}

static const char *f_cpu(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %d CPUs", lb_str_or(r->host.cpu_model, "?"), r->host.ncpus);
	return buf;
}

static const char *f_virt(const struct lb_results *r, char *buf, size_t len)
{
	const char *v = lb_str_or(r->host.virtualization, "?");

	snprintf(buf, len, "virtualization %s%s", v, lb_results_emulated(r) ? " (emulated)" : "");
	return buf;
}

static const char *f_workload(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "workload %s", lb_str_or(r->config.workload, "?"));
	return buf;
}

/* Results without an engine field predate --engine: their server was the syscall one. */
static const char *f_engine(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "engine %s", r->config.engine ? r->config.engine : "syscall");
	return buf;
}

static const char *f_topology(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "topology %s, %d flow%s", r->config.topology ? r->config.topology : "lo",
		 r->config.flows > 0 ? r->config.flows : 1, r->config.flows > 1 ? "s" : "");
	return buf;
}

static const char *f_length(const struct lb_results *r, char *buf, size_t len)
{
	snprintf(buf, len, "%g s x %d", r->config.duration, r->config.repeat);
	return buf;
}

static const field_fn fields[] = {
	f_kernel, f_machine, f_cpu, f_virt, f_workload, f_engine, f_topology, f_length,
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* Whether field @get differs between any two of the @n results. */
static bool differs(struct lb_results **res, size_t n, field_fn get)
{
	char a[512], b[512];

	get(res[0], a, sizeof(a));
	for (size_t i = 1; i < n; i++)
		if (strcmp(a, get(res[i], b, sizeof(b))))
			return true;
	return false;
}

/*
 * The legend labels and the common line: each directory's name (its path
 * when two names are the same), then the fields that differ between the
 * results ("fig-B: engine uring"), and "(interrupted: partial)" or "(a run
 * failed: partial)" for an incomplete run; @common gets the fields they all
 * share ("Linux 6.18.44 x86_64, ...").
 * Returns 0 or -ENOMEM.
 */
static int make_labels(char **dirs, struct lb_results **res, size_t n, char **labels,
		       char **common)
{
	bool diff[NFIELDS];
	char name[PATH_MAX], other[PATH_MAX], buf[512];
	size_t i, j, k, len = 0;
	FILE *f;

	for (k = 0; k < NFIELDS; k++)
		diff[k] = differs(res, n, fields[k]);
	for (i = 0; i < n; i++) {
		bool dup = false;
		char *s = NULL;

		base_name(dirs[i], name, sizeof(name));
		for (j = 0; j < n && !dup; j++)
			dup = j != i && !strcmp(name, base_name(dirs[j], other, sizeof(other)));
		f = open_memstream(&s, &len);
		if (!f)
			return -ENOMEM;
		fputs(dup ? dirs[i] : name, f);
		for (k = 0, j = 0; k < NFIELDS; k++) {
			if (diff[k])
				fprintf(f, "%s%s", j++ ? ", " : ": ", fields[k](res[i], buf,
									       sizeof(buf)));
		}
		if (lb_results_failed(res[i]))
			fputs(" (a run failed: partial)", f);
		else if (!res[i]->complete)
			fputs(" (interrupted: partial)", f);
		if (fclose(f)) {
			free(s);
			return -ENOMEM;
		}
		labels[i] = s;
	}
	f = open_memstream(common, &len);
	if (!f)
		return -ENOMEM;
	for (k = 0, j = 0; k < NFIELDS; k++)
		if (!diff[k])
			fprintf(f, "%s%s", j++ ? ", " : "", fields[k](res[0], buf, sizeof(buf)));
	if (!j)
		fputs("nothing", f);
	return fclose(f) ? -ENOMEM : 0;
}

/*
 * The gate of each of the @n directories @dirs against @base_dir: lines
 * (@markdown false) or Markdown on stdout. Returns the exit status: 0 no set
 * worse, 1 one is, 2 an error (said).
 */
static int lb_compare_gate(const char *base_dir, char **dirs, size_t n, double fail_above,
			   bool markdown, bool force)
{
	struct lb_results *base = NULL, *cand = NULL;
	char why[1024];
	int status = 2, worse = 0;
	struct lb_gate g;

	if (lb_report_read(base_dir, &base))
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *label = n > 1 ? dirs[i] : NULL;

		if (lb_report_read(dirs[i], &cand))
			goto out;
		if (lb_gate_mismatch(base, cand, why, sizeof(why))) {
			if (!force) {
				lb_err("%s and %s were not measured alike (%s): their slowdowns "
				       "do not compare; add --force to compare them anyway",
				       base_dir, dirs[i], why);
				goto out;
			}
			lb_warn("%s and %s were not measured alike (%s): compared as asked "
				"(--force)", base_dir, dirs[i], why);
		}
		if (lb_gate_compare(base, cand, fail_above, &g)) {
			lb_err("out of memory");
			goto out;
		}
		if (i && !markdown)
			putchar('\n');
		if (markdown)
			lb_gate_print_markdown(&g, label, stdout);
		else
			lb_gate_print_lines(&g, label, stdout);
		worse += g.nworse > 0;
		lb_gate_release(&g);
		lb_results_free(cand);
		cand = NULL;
	}
	status = worse ? 1 : 0;
out:
	lb_results_free(base);
	lb_results_free(cand);
	return status;
}

int lb_cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'F' },
		{ "no-plot", no_argument, NULL, 'n' },
		{ "style", required_argument, NULL, 's' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "fail-above", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },	/* --help is main.c's, from its commands table */
	};
	const char *baseline = NULL, *format = NULL;
	double fail_above = LB_GATE_FAIL_ABOVE;
	bool fail_above_given = false, style_given = false;
	struct lb_results **res = NULL;
	char **labels = NULL, **dirs, *common = NULL;
	char outbuf[64], tdir[PATH_MAX], err[1024];
	const char *out = NULL;
	bool force = false, no_plot = false;
	struct lb_outdir *od = NULL;
	size_t n = 0, i;
	struct lb_plot *plot;
	int opt, ret, cret, status = 1, style = LB_FIG_LAB;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'F':
			force = true;
			break;
		case 'n':
			no_plot = true;
			break;
		case 's':
			style = lb_figures_style(optarg);
			if (style < 0)
				return 2;
			style_given = true;
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'a':
			if (lb_options_double("fail-above", optarg, 0.01, 100, &fail_above))
				return 2;
			fail_above_given = true;
			break;
		case 'f':
			format = optarg;
			if (strcmp(format, "lines") && strcmp(format, "markdown")) {
				lb_err("--format '%s': expected lines or markdown", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "Try 'loadbench compare --help'.\n");
			return 2;
		}
	}
	if (baseline) {
		if (out || no_plot || style_given) {
			lb_err("--baseline prints the regression gate and draws no figure: drop %s, "
			       "or drop --baseline to draw the comparison",
			       out ? "--output" : no_plot ? "--no-plot" : "--style");
			return 2;
		}
		if (argc - optind < 1) {
			lb_err("--baseline needs the results directory to gate: loadbench compare "
			       "--baseline BASE DIR...");
			return 2;
		}
		return lb_compare_gate(baseline, argv + optind, (size_t)(argc - optind), fail_above,
				       format && !strcmp(format, "markdown"), force);
	}
	if (fail_above_given || format) {
		lb_err("%s is for the regression gate: add --baseline DIR, or drop it",
		       format ? "--format" : "--fail-above");
		return 2;
	}
	if (argc - optind < 2) {
		lb_err("compare needs two or more results directories: loadbench compare DIR DIR...");
		return 2;
	}
	dirs = argv + optind;
	n = (size_t)(argc - optind);
	res = calloc(n, sizeof(*res));
	labels = calloc(n, sizeof(*labels));
	if (!res || !labels) {
		lb_err("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (lb_report_read(dirs[i], &res[i]))
			goto out;
	if (make_labels(dirs, res, n, labels, &common)) {
		lb_err("out of memory");
		goto out;
	}

	if (!out)
		out = lb_outdir_default("compare", outbuf, sizeof(outbuf));
	if (lb_outdir_open(out, "output directory", force, NULL, &od))
		goto out;
	ret = lb_plot_open_fd(lb_outdir_fd(od), out, &plot, err, sizeof(err));
	if (ret) {
		lb_err("%s", err);
		goto out;
	}
	lb_plot_set_style(plot, style);
	ret = lb_plot_write_compare(plot, (const struct lb_results *const *)res,
				    (const char *const *)labels, n, common,
				    lb_datadir("plots", tdir, sizeof(tdir)), err, sizeof(err));
	if (ret) {
		lb_plot_close(plot, NULL, 0);
		lb_err("%s", err);
		goto out;
	}
	/* compare.gp only: never a script that was in OUT before (--force). */
	ret = no_plot ? -ECANCELED : lb_plot_render(plot, err, sizeof(err));
	if (ret == -ENOENT)
		lb_gnuplot_say_missing(lb_warn, err, out, "compare");
	else if (ret && ret != -ECANCELED)
		lb_warn("gnuplot failed to render the figure in %s: %s", out, err);
	cret = lb_plot_close(plot, err, sizeof(err));
	if (cret) {
		lb_err("%s", err);
		goto out;
	}
	lb_report_print_compare((const struct lb_results *const *)res,
				(const char *const *)labels, n, stdout);
	if (!ret)
		printf("\nfigure: %s/compare.png (.svg, .pdf; data compare.dat, script compare.gp)\n",
		       out);
	else
		printf("\nfigure not rendered: its data and script are %s/compare.dat and "
		       "compare.gp\n", out);
	status = 0;
out:
	/* An output directory made for a compare that wrote nothing goes again. */
	lb_outdir_close(od, status != 0, NULL);
	for (i = 0; res && labels && i < n; i++) {
		lb_results_free(res[i]);
		free(labels[i]);
	}
	free(res);
	free(labels);
	free(common);
	return status;
}
