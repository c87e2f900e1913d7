// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadbench [run]: plan the probe sets, claim the machine, prepare the
 * results directory and the workload, measure, and write the results, also
 * partial ones; every exit path removes what was created.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "atomic.h"
#include "claim.h"
#include "commands.h"
#include "figures.h"
#include "loadgen.h"
#include "lttng.h"
#include "options.h"
#include "outdir.h"
#include "plot.h"
#include "owner.h"
#include "pcap_count.h"
#include "plan.h"
#include "results.h"
#include "run.h"
#include "skipped.h"
#include "recipe.h"
#include "sweep.h"
#include "sysinfo.h"
#include "table.h"
#include "tracer.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * From the first step of a run on, SIGINT, SIGTERM and SIGHUP only ask the
 * run to stop (SA_RESTART: set-up and tear-down calls are not cut short), so
 * every exit path removes what was created; SIGINT is handled even when a
 * script's background job started with it ignored. SIGHUP stays ignored when
 * it was ignored at start (nohup). SIGPIPE is ignored, so a closed output
 * pipe cannot kill loadbench while a tracer is armed.
 */
static void stop_on_signals(void)
{
	const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] == SIGHUP && sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/*
 * Alternating needs every tracer to switch; without --method, one that
 * cannot means runs. Returns 0, or -EINVAL when --method alternate was
 * asked for and cannot be (said).
 */
static int choose_method(struct lb_options *o, const struct lb_plan *plan)
{
	if (!lb_plan_measured(plan))
		o->alternate = false;	/* the baseline alone: fresh runs */
	for (int i = 0; o->alternate && i < lb_plan_count(plan); i++) {
		const struct lb_plan_entry *e = lb_plan_entry(plan, i);

		if (!e->tracer || lb_tracer_can_switch(e->tracer))
			continue;
		if (o->method_given) {
			lb_err("--method alternate: probe set %s: the %s tracer cannot be switched off "
			       "and on inside one run: use --method runs", e->set->name,
			       lb_tracer_name(e->tracer));
			return -EINVAL;
		}
		if (!o->quiet)
			lb_warn("probe set %s: the %s tracer cannot be switched off and on inside one "
				"run: measuring every set with --method runs", e->set->name,
				lb_tracer_name(e->tracer));
		o->alternate = false;
		o->wl.max_seconds = o->warmup + o->duration + 60;
	}
	return 0;
}

/*
 * A run with an lttng-ust set (its tracer created: it found the provider):
 * the request/response servers load the LTTng-UST provider at their start.
 */
static void ust_provider(struct lb_options *o, const struct lb_plan *plan)
{
	static char path[PATH_MAX];
	char why[512];

	for (int i = 0; i < lb_plan_count(plan); i++) {
		const struct lb_plan_entry *e = lb_plan_entry(plan, i);

		if (e->tracer && !strcmp(lb_tracer_name(e->tracer), "lttng-ust") &&
		    !lb_lttng_ust_provider(path, sizeof(path), why, sizeof(why))) {
			o->wl.ust_provider = path;
			return;
		}
	}
}

/*
 * The workload: binding the server socket here reports a busy port early.
 * Runs with --topology veth choose their /24 one at a time (as root: it
 * needs root anyway): a free /24 and our address in it are one step.
 * Returns 0 and sets *@w, or -errno (said).
 */
static int workload_create(struct lb_options *o, struct lb_workload **w)
{
	char err[1024];
	int mutex = o->wl.topology == LB_TOPO_VETH && geteuid() == 0 ?
		    lb_owner_mutex("veth", err, sizeof(err)) : 0;
	int ret;

	if (mutex < 0) {
		lb_err("%s", err);
		return mutex;
	}
	ret = lb_workload_create(&o->wl, w, err, sizeof(err));
	if (mutex > 0)
		close(mutex);
	if (ret)
		lb_err("%s", err);
	return ret;
}

/* The run's host, version, start and configuration in @res. Returns 0 or -errno. */
static int results_config(struct lb_results *res, const struct lb_options *o,
			  struct lb_workload *w, const struct lb_measure_exec *x)
{
	int scpu[LB_FLOWS_MAX], ccpu[LB_FLOWS_MAX], nflows;
	char place[4096];
	int ret;

	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	ret = lb_sysinfo_read(&res->host);
	if (ret)
		return ret;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	res->version = strdup(PACKAGE_VERSION);
	res->started = strdup(stamp);
	if (!res->version || !res->started)
		return -ENOMEM;
	res->config.workload = strdup(o->wl.name);
	if (x) {
		const int cpus[2] = {o->wl.server_cpu, o->wl.client_cpu};

		lb_measure_exec_describe(x, cpus, place, sizeof(place));
	} else {
		lb_workload_describe(w, place, sizeof(place));
	}
	res->config.placement = strdup(place);
	res->config.command_line = strdup(o->command_line);
	res->config.repeat = o->repeat;
	if (x) { /* a command: none of the loopback workload's settings apply */
		res->config.method = strdup("runs");
		res->config.exec_timeout = o->timeout;
		if (o->metric && !(res->config.exec_metric = strdup(o->metric)))
			return -ENOMEM;
		res->config.exec_metric_lower = o->metric_lower;
		res->config.server_cpu = o->wl.server_cpu;
		res->config.client_cpu = o->wl.client_cpu;
		return res->config.workload && res->config.placement && res->config.command_line &&
		       res->config.method ? 0 : -ENOMEM;
	}
	res->config.engine = strdup(o->wl.engine);
	res->config.duration = o->duration;
	res->config.warmup = o->warmup;
	res->config.method = strdup(o->alternate ? "alternate" : "runs");
	if (!res->config.method)
		return -ENOMEM;
	/* A request/response workload whose operations the clock does not let us time: say so. */
	if (lb_workload_traits(o->wl.name) && lb_workload_traits(o->wl.name)->latency &&
	    lb_workload_latency_off(w) &&
	    lb_results_add_warning(res, "latency not measured: %s", lb_workload_latency_off(w)))
		return -ENOMEM;
	if (o->alternate) {
		res->config.slice = o->slice;
		res->config.settle = o->settle;
		res->config.precision = o->precision;
		res->config.max_time = o->max_time;
		res->config.time_budget = o->time_budget;
	}
	res->config.syscalls_per_op = o->wl.syscalls_per_op;
	res->config.msg_size = (int)o->wl.msg_size;
	res->config.server_cpu = o->wl.server_cpu;
	res->config.client_cpu = o->wl.client_cpu;
	res->config.buffer_kb = o->topts.buffer_kb;
	res->config.topology = strdup(lb_topology_names[o->wl.topology]);
	nflows = lb_workload_placement(w, scpu, ccpu, LB_FLOWS_MAX);
	res->config.flows = nflows;
	res->config.flow_placement = calloc(nflows, sizeof(*res->config.flow_placement));
	if (!res->config.topology || !res->config.flow_placement)
		return -ENOMEM;
	res->config.nflow_placement = nflows;
	for (int i = 0; i < nflows; i++) {
		res->config.flow_placement[i].server_cpu = scpu[i];
		res->config.flow_placement[i].client_cpu = ccpu[i];
	}
	if (lb_workload_traits(o->wl.name) && lb_workload_traits(o->wl.name)->window)
		res->config.window = o->wl.window;
	res->config.rate = o->wl.rate;
	if (!res->config.workload || !res->config.placement || !res->config.engine ||
	    !res->config.command_line)
		return -ENOMEM;
	return 0;
}

/*
 * --count-with pcap: the capture of the workload's packets on lo, recorded
 * in @res's configuration. Returns 0 and sets *@pcap, or -errno (said).
 */
static int pcap_open(const struct lb_options *o, struct lb_workload *w, struct lb_results *res,
		     struct lb_pcap_count **pcap)
{
	char filter[256], err[1024];
	int ret;

	if (lb_workload_count_filter(w, filter, sizeof(filter))) {
		lb_err("--count-with pcap cannot count %s: its packets cannot be told "
		       "from other traffic by a fixed filter; use udp-rr, tcp-rr, "
		       "udp-stream or pcap-flood, or drop --count-with", o->wl.name);
		return -EINVAL;
	}
	ret = lb_pcap_count_open(filter, o->wl.server_cpu, o->wl.client_cpu, pcap, err,
				 sizeof(err));
	if (ret) {
		lb_err("%s", err);
		return ret;
	}
	res->config.count_with = strdup("pcap");
	res->config.pcap_filter = strdup(filter);
	if (!res->config.count_with || !res->config.pcap_filter) {
		lb_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The line that says what the run will do, unless --quiet. */
static void say_plan(const struct lb_options *o, const struct lb_results *res, int nsets,
		     const char *out)
{
	char budget[48] = "";

	if (o->time_budget > 0)
		snprintf(budget, sizeof(budget), ", all within ~%.0f s", o->time_budget);
	if (!o->quiet && o->exec_argv)
		fprintf(stderr, "loadbench: %s; baseline + %d probe set(s), %d round(s), each run "
			"the command to completion (at most %g s); results in %s\n",
			res->config.placement, nsets, o->repeat, o->timeout, out);
	else if (!o->quiet && o->alternate && nsets)
		fprintf(stderr, "loadbench: %s; baseline + %d probe set(s), each alternated off/on "
			"in %.2f s slices until its 95%% CI is +-%.1f pp (at most %.0f s%s); "
			"results in %s\n", res->config.placement, nsets, o->slice, o->precision,
			o->max_time, budget, out);
	else if (!o->quiet)
		fprintf(stderr, "loadbench: %s; baseline + %d probe set(s), %d round(s) of "
			"%.1f s warm-up + %.1f s measured; results in %s\n", res->config.placement,
			nsets, o->repeat, o->warmup, o->duration, out);
}

/* Measure @plan's sets with workload @w (and @pcap) into @res, as @o says. */
static int measure(const struct lb_options *o, const struct lb_plan *plan,
		   struct lb_workload *w, const struct lb_measure_exec *x, struct lb_pcap_count *pcap,
		   struct lb_results *res, char *err, size_t len)
{
	struct lb_measure b = {
		.workload = w,
		.exec = x,
		.plan = plan,
		.duration = o->duration,
		.warmup = o->warmup,
		.sample_interval = o->sample_interval,
		.repeat = o->repeat,
		.progress = !o->quiet,
		.stop = &stop_signal,
		.pcap = pcap,
		.alternate = o->alternate,
		.slice = o->slice,
		.settle = o->settle,
		.precision = o->precision,
		.max_time = o->max_time,
		.time_budget = o->time_budget,
	};

	return lb_measure_run(&b, res, err, len);
}

/* The files of a run's results, as write_results() writes them. */
static const char *const result_files[] = {
	"results.json", "results.csv", "slices.csv", "summary.txt", NULL
};

/*
 * results.json, results.csv, slices.csv and summary.txt in @od, each through
 * its descriptor. Returns 0 or -errno (said).
 */
static int write_results(const struct lb_results *res, struct lb_outdir *od)
{
	int (*const write[])(const struct lb_results *, int, const char *) = {
		lb_results_write_json, lb_results_write_csv, lb_results_write_slices_csv,
		lb_results_write_summary,
	};
	int ret;

	for (size_t i = 0; i < sizeof(write) / sizeof(write[0]); i++) {
		ret = write[i](res, lb_outdir_fd(od), result_files[i]);
		if (ret) {
			lb_err("cannot write %s/%s: %s", lb_outdir_path(od), result_files[i],
			       strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * The results written into @od; when they cannot be, into a fallback
 * directory (said), the directory made for them removed again when nothing
 * else is in it. Returns the directory they are in (@od, or the fallback
 * in *@fallback), or NULL when they could be written nowhere.
 */
static struct lb_outdir *save_results(const struct lb_results *res, struct lb_outdir *od,
				      struct lb_outdir **fallback)
{
	*fallback = NULL;
	if (!write_results(res, od)) {
		if (lb_outdir_moved(od))
			lb_warn("%s was moved or replaced while loadbench ran: the results went into "
				"the directory it opened, wherever that is now, not into what %s "
				"names now", lb_outdir_path(od), lb_outdir_path(od));
		return od;
	}
	if (lb_outdir_fallback(fallback) || write_results(res, *fallback)) {
		lb_outdir_close(*fallback, true, result_files);
		*fallback = NULL;
		lb_err("the results are lost but for the table below: free space or give a "
		       "writable --output");
		return NULL;
	}
	lb_warn("results written to %s instead of %s: move them where they belong",
		lb_outdir_path(*fallback), lb_outdir_path(od));
	return *fallback;
}

/* --output -: results.json on stdout, the table on stderr. Returns 0 or -errno (said). */
static int print_results(const struct lb_results *res)
{
	int ret = lb_results_print_json(res, stdout);

	lb_results_print_table(res, stderr);
	if (ret)
		lb_err("cannot write results.json to standard output: %s", strerror(-ret));
	return ret;
}

/*
 * Steps 3 and 4 for the options as they are: the workload, what the results
 * say of the run, the measurement, and the results written into @od (NULL:
 * --output -, results.json on stdout) and printed. *@measured says whether
 * anything was measured, *@interrupted whether a signal cut it short,
 * *@filled whether the results are in @od (else in a fallback directory,
 * said, or nowhere). Returns the exit status so far (0: the results are
 * complete and where asked).
 */
static int run_into(struct lb_options *o, struct lb_plan *plan, struct lb_outdir *od,
		    struct lb_results *res, bool *measured, bool *interrupted, bool *filled)
{
	const char *out = od ? lb_outdir_path(od) : "standard output";
	struct lb_outdir *fallback = NULL, *saved;
	struct lb_measure_exec xs, *x = NULL;
	struct lb_workload *w = NULL;
	char **server_argv = NULL;
	struct lb_pcap_count *pcap = NULL;
	char err[1024], figs[96];
	int ret, status = 1, plotted = -1;

	*filled = false;

	/* 3. The workload (or the command), and what the results say of the run. */
	if (o->exec_argv) {
		struct lb_measure_exec_config xc = {
			.argv = o->exec_argv, .cpus = {o->wl.server_cpu, o->wl.client_cpu},
			.dir = out, .dirfd = lb_outdir_fd(od), .metric = o->metric, .metric_lower = o->metric_lower,
			.timeout = o->timeout,
			.server_argv = o->server_argv, .ready = o->ready,
			.ready_timeout = o->ready_timeout, .stop = &stop_signal,
		};

		if (o->server && lb_words_split(o->server, NULL, &server_argv) < 0) {
			lb_err("--server '%s': expected the server's command and arguments (words "
			       "split on blanks, '...' quoting one, no more than 64)", o->server);
			goto out;
		}
		if (server_argv)
			xc.server_argv = server_argv;
		ret = lb_measure_exec_open(&xs, &xc, err, sizeof(err));
		if (ret == -EINTR) { /* a signal while the server started: nothing measured */
			*interrupted = true;
			goto out;
		}
		if (ret == -ENOENT && o->recipe)
			lb_err("--workload %s: %s (scripts/bootstrap installs what the recipes run)",
			       o->wl.name, err);
		else if (ret)
			lb_err("%s", err);
		if (ret)
			goto out;
		x = &xs;
	} else if (workload_create(o, &w)) {
		goto out;
	}
	ret = results_config(res, o, w, x);
	if (!ret)
		ret = lb_plan_fill_results(plan, res);
	if (ret) {
		lb_err("out of memory");
		goto out;
	}
	if (o->count_pcap && pcap_open(o, w, res, &pcap))
		goto out;
	say_plan(o, res, lb_plan_measured(plan), out);

	ret = measure(o, plan, w, x, pcap, res, err, sizeof(err));
	*measured = true;
	/* A signal after the last run changes nothing: the results are complete. */
	*interrupted = ret == -EINTR;
	if (*interrupted) {
		lb_warn("interrupted by signal %d: partial results written, marked incomplete",
			stop_signal);
		lb_results_add_warning(res, "interrupted by signal %d: results are incomplete",
				       stop_signal);
	} else if (ret) {
		lb_err("%s", err);
		lb_results_add_warning(res, "run failed: %s", err);
	}

	/* Two runs at once: each measured the other's load too. */
	{
		char who[512];

		if (lb_claim_beside(who, sizeof(who)) > 0) {
			res->config.concurrent = true;
			lb_results_add_warning(res, "measured beside another loadbench run (%s, "
					       "--allow-concurrent): each slowed the other; do not "
					       "compare these numbers with a run alone", who);
		}
	}

	/* 4. Results, even partial ones. */
	if (lb_results_summarize(res)) {
		lb_err("out of memory");
		goto out;
	}
	if (!od) {
		if (print_results(res))
			goto out;
		status = res->complete ? 0 : 1;
		goto out;
	}
	saved = save_results(res, od, &fallback);
	if (!saved) {
		lb_results_print_table(res, stdout);
		goto out;
	}
	out = lb_outdir_path(saved);
	if (!o->no_plot && res->baseline.nruns) {
		struct lb_plot *plot = lb_figures_open_fd(lb_outdir_fd(saved), out, false);

		if (plot)
			lb_plot_set_style(plot, o->style);
		plotted = plot ? lb_figures_render(res, plot, out, false) : -EPERM;
	}
	lb_results_print_table(res, stdout);
	snprintf(figs, sizeof(figs), "slowdown, throughput, cost%s%s",
		 res->baseline.summary.latency.count ? ", latency" : "",
		 res->baseline.summary.cpu.measured ? ", cpu" : "");
	printf("\nresults: %s/results.json, results.csv, %ssummary.txt", out,
	       lb_results_has_slices(res) ? "slices.csv, " : "");
	if (plotted == 0)
		printf("; figures %s (.png .svg .pdf, with .gp and .dat)", figs);
	else if (plotted == -ENOENT)
		printf("; figure scripts and data %s (.gp .dat: no gnuplot to render them)", figs);
	putchar('\n');
	*filled = saved == od;
	status = res->complete && *filled ? 0 : 1;
out:
	lb_outdir_close(fallback, false, NULL);
	lb_pcap_count_close(pcap);
	lb_workload_destroy(w);
	if (x)
		lb_measure_exec_close(x);
	lb_words_free(server_argv);
	return status;
}

/* sweep.txt: what lb_sweep_print() says. */
static void sweep_print(FILE *f, const void *arg)
{
	lb_sweep_print(arg, f);
}

/*
 * --sweep: run_into() once per value, into @out/KEY=V each, then the sweep
 * summary of the values measured completely: printed, and written as
 * @out/sweep.txt and @out/sweep.json. Stops at the first value that was
 * interrupted or failed. Returns the exit status so far.
 */
static int run_sweep(struct lb_options *o, struct lb_plan *plan, struct lb_outdir *od,
		     bool *measured, bool *interrupted, bool *filled)
{
	struct lb_results *res[LB_SWEEP_MAX] = { NULL };
	const char *out = lb_outdir_path(od);
	struct lb_sweep *sw = NULL;
	char sub[PATH_MAX + 64];
	int status = 0, ndone = 0, ret;

	for (int i = 0; i < o->nsweep && !status && !stop_signal; i++) {
		struct lb_outdir *subdir;
		bool m = false, f = false;

		lb_options_sweep_apply(o, o->sweep_values[i]);
		snprintf(sub, sizeof(sub), "%s/%s=%d", out, o->sweep_key, o->sweep_values[i]);
		printf("%ssweep: %s = %d\n", i ? "\n" : "", o->sweep_key, o->sweep_values[i]);
		fflush(stdout);
		if (lb_outdir_open(sub, "results directory", false, &stop_signal, &subdir)) {
			status = 1;
			break;
		}
		res[i] = lb_results_new();
		if (!res[i]) {
			lb_err("out of memory");
			lb_outdir_close(subdir, true, NULL);
			status = 1;
			break;
		}
		status = run_into(o, plan, subdir, res[i], &m, interrupted, &f);
		*measured |= m;
		*filled |= f;
		if (lb_outdir_close(subdir, !f, result_files) == 1 && m)
			lb_warn("%s left as it is: it holds more than results loadbench could not "
				"write", sub);
		if (!status)
			ndone++;
	}
	if (ndone) {
		ret = lb_sweep_build(o->sweep_key, o->sweep_values, res, (size_t)ndone, &sw);
		if (ret) {
			lb_err("out of memory");
			status = 1;
			goto out;
		}
		lb_sweep_print(sw, stdout);
		snprintf(sub, sizeof(sub), "%s/sweep.json", out);
		ret = lb_sweep_write_json(sw, lb_outdir_fd(od), "sweep.json");
		if (!ret) {
			snprintf(sub, sizeof(sub), "%s/sweep.txt", out);
			ret = lb_atomic_write_stream_at(lb_outdir_fd(od), "sweep.txt", sweep_print, sw);
		}
		if (ret) {
			lb_err("cannot write %s: %s", sub, strerror(-ret));
			status = 1;
		} else {
			struct lb_plot *plot = o->no_plot ? NULL :
					       lb_figures_open_fd(lb_outdir_fd(od), out, false);
			int plotted;

			if (plot)
				lb_plot_set_style(plot, o->style);
			plotted = plot ? lb_figures_render_sweep(sw, plot, out) : -1;

			printf("\nsweep: %s/sweep.txt, sweep.json%s; each value's results in %s/%s=V\n",
			       out, plotted == 0 ? ", figure sweep (.png .svg .pdf)" : "", out,
			       o->sweep_key);
		}
	}
	if (ndone < o->nsweep && !status)
		status = 1;
out:
	lb_sweep_free(sw);
	for (int i = 0; i < o->nsweep; i++)
		lb_results_free(res[i]);
	return status;
}

/*
 * --workload NAME that is neither a loopback workload nor exec: the recipe
 * workloads/NAME.workload, its command and metric into @o. Returns 0, or
 * the exit status after one line: 2 for a usage error (no such workload,
 * with the list of what there is; an option the recipe does not take), 1
 * for a recipe that cannot be read.
 */
static int workload_recipe(struct lb_options *o, struct lb_recipe *r)
{
	char dir[PATH_MAX], err[1024], names[1024], q[LB_STR_SHORT_BUF];
	int ret;

	memset(r, 0, sizeof(*r));
	if (lb_workload_traits(o->wl.name) || !strcmp(o->wl.name, "exec"))
		return 0;
	lb_datadir("workloads", dir, sizeof(dir));
	ret = lb_recipe_load(dir, o->wl.name, r, err, sizeof(err));
	if (ret == -ENOENT) {
		lb_err("--workload '%s': no such workload: choose udp-rr, tcp-rr, icmp-flood, "
		       "udp-stream, pcap-flood, exec (-- CMD [ARGS...]), or a recipe of %s: %s",
		       lb_str_short(o->wl.name, q, sizeof(q)), dir,
		       lb_recipe_names(dir, names, sizeof(names)));
		return 2;
	}
	if (ret) {
		lb_err("%s", err);
		return 1;
	}
	return lb_options_recipe(o, r->argv, r->metric, r->server_argv, r->ready) ? 2 : 0;
}

int lb_cmd_run(struct lb_options *o)
{
	char catalog[PATH_MAX], outbuf[PATH_MAX];
	struct lb_results *res = NULL;
	struct lb_plan *plan = NULL;
	struct lb_recipe recipe = {0};
	struct lb_outdir *od = NULL;
	int status = 1;
	bool measured = false, interrupted = false, filled = false;
	bool to_stdout = o->output && !strcmp(o->output, "-");
	const char *out = NULL;

	stop_on_signals();
	if (to_stdout && (o->sweep_key || o->exec_argv || !lb_workload_traits(o->wl.name))) {
		lb_err("--output -: %s needs a results directory (%s): give --output DIR",
		       o->sweep_key ? "--sweep" : "a command's run",
		       o->sweep_key ? "one per value" : "the command's output goes there");
		return 2;
	}
	status = workload_recipe(o, &recipe);
	if (status)
		goto out;
	status = 1;	/* until the run says otherwise */
	lb_datadir("probesets", catalog, sizeof(catalog));

	/* 1. Probe sets: parse and validate everything before touching the kernel. */
	{
		struct lb_plan_request rq = {
			.catalog = catalog,
			.specs = o->specs,
			.nspecs = o->nspecs,
			.alone = o->alone,
			.skip_unavailable = o->skip_unavailable,
			.no_server = o->exec_argv != NULL,
			.topts = &o->topts,
		};
		char why[8192];

		if (lb_plan_new(&rq, &plan, why, sizeof(why))) {
			lb_err("%s", why);
			goto out;
		}
	}
	lb_skipped_warn(plan);
	if (choose_method(o, plan) || lb_claim_take(o->allow_concurrent))
		goto out;
	ust_provider(o, plan);
	if (stop_signal)
		goto out;

	/* 2. The results directory, never silently overwritten, checked before anything is armed. */
	out = o->output ? o->output : lb_outdir_default("results", outbuf, sizeof(outbuf));
	if (!to_stdout && lb_outdir_open(out, "results directory", o->force, &stop_signal, &od))
		goto out;

	if (o->sweep_key) {
		status = run_sweep(o, plan, od, &measured, &interrupted, &filled);
	} else {
		res = lb_results_new();
		if (!res) {
			lb_err("out of memory");
			goto out;
		}
		status = run_into(o, plan, od, res, &measured, &interrupted, &filled);
	}
out:
	if (stop_signal && !measured) {
		/* Stopped in the set-up, before anything was measured or written. */
		lb_warn("interrupted by signal %d before the first run: nothing measured, no "
			"results written", (int)stop_signal);
		interrupted = true;
	}
	/*
	 * A results directory made for a run that measured nothing, or whose
	 * results went elsewhere, goes again (when nothing else is in it).
	 */
	if (lb_outdir_close(od, !filled, result_files) == 1 && measured)
		lb_warn("%s left as it is: it holds more than the results loadbench could not "
			"write there", out);
	/* The documented exit status of an interrupted run: 128 + the signal's number. */
	if (interrupted)
		status = 128 + stop_signal;
	lb_plan_free(plan);
	lb_results_free(res);
	lb_recipe_release(&recipe);
	/*
	 * The watchdog and the run lock go last. State that could not be
	 * removed (an instance held open) keeps the lock file, so that
	 * `loadbench cleanup` can prove this run dead once it has exited.
	 */
	lb_claim_release();
	return status;
}
