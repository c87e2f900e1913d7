// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make-fixture [--vm] IN.json N OUT.json: results of N probe sets made from a real
 * run's results.json, for the figure tests (1, 2, 14 and 31 sets: the whole
 * catalog). The first sets are IN's own, as measured; when N is larger,
 * further sets are copies of IN's under the catalog's other names, their
 * slowdown, cost and latency scaled so that the values spread as the
 * catalog's do (strace's microseconds beside bpf's tens of nanoseconds).
 * With --vm, the results are those of the VM runner under TCG cut short (as
 * the whole catalog runs there): emulated and incomplete, so every figure
 * carries both notes. A set whose compare-with set is not kept loses that line.
 *
 * make-fixture --sweep IN.json N OUT.json: the sweep.json of a --sweep
 * syscalls-per-op=2,4,8,16 of those N sets (as lb_sweep_write_json() writes
 * it): each set's events per operation grow with the value, the time its
 * probes add is a line in them (its slope about the set's ns per event, its
 * intercept a fifth of what it added) off by a few percent, its 95% CI as
 * wide as its slowdown's, its slowdown that time over an operation's (the
 * untraced one, longer with each syscall); the fit is lb_stats_linfit()'s.
 *
 * Prints the sets' names, one a line. Exit 0, or 1 with the reason.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "stats.h"

/* The catalog's names (probesets/), the order copies take them in. */
static const char *const catalog[] = {
	"bpf", "bpf-raw", "bpf-syscalls", "ftrace", "ftrace-consumer", "ftrace-consumer-other",
	"perf", "perf-count", "perf-syscalls", "perf-syscalls-pid", "strace", "syscalls",
	"syscalls-pid", "uprobe", "bpf+kprobe", "bpf+kprobe-int3", "bpf+kretprobe",
	"ftrace+kprobe", "ftrace+kprobe-int3", "ftrace+kretprobe", "lttng", "lttng+kprobe",
	"lttng+kprobe-int3", "lttng+kretprobe", "lttng-syscalls", "lttng-syscalls-pid", "stap",
	"stap+kprobe", "stap-syscalls", "stap-syscalls-pid", "all",
};

#define NCATALOG (sizeof(catalog) / sizeof(catalog[0]))

static bool taken(json_object *sets, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(sets); i++) {
		json_object *n;

		if (json_object_object_get_ex(json_object_array_get_idx(sets, i), "name", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return true;
	}
	return false;
}

/* Multiply the number @key of @o (a double, or each of a [low, high] pair) by @f. */
static void scale(json_object *o, const char *key, double f)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return;
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *e = json_object_array_get_idx(v, i);

			if (json_object_is_type(e, json_type_double) ||
			    json_object_is_type(e, json_type_int))
				json_object_array_put_idx(v, i, json_object_new_double(
					json_object_get_double(e) * f));
		}
	} else if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
		json_object_object_add(o, key, json_object_new_double(json_object_get_double(v) * f));
	}
}

/* The slices of @set that name it @from as the set that was on now name it @to. */
static void rename_slices(json_object *set, const char *from, const char *to)
{
	json_object *slices, *on;

	if (!json_object_object_get_ex(set, "slices", &slices))
		return;
	for (size_t i = 0; i < json_object_array_length(slices); i++) {
		json_object *sl = json_object_array_get_idx(slices, i);

		if (json_object_object_get_ex(sl, "on", &on) && json_object_is_type(on, json_type_string) &&
		    !strcmp(json_object_get_string(on), from))
			json_object_object_add(sl, "on", json_object_new_string(to));
	}
}

/* Copy @k (k >= 1) of a set: its slowdown scaled by @f (kept under 97%), its cost by @g. */
static void spread(json_object *set, double f, double g)
{
	json_object *s, *v;

	if (!json_object_object_get_ex(set, "summary", &s))
		return;
	if (json_object_object_get_ex(s, "slowdown_pct", &v) &&
	    fabs(json_object_get_double(v) * f) > 97)
		f = 97 / fabs(json_object_get_double(v));
	scale(s, "slowdown_pct", f);
	scale(s, "slowdown_ci95", f);
	scale(s, "ns_per_event", g);
	scale(s, "ns_per_event_ci95", g);
	scale(s, "events_per_op", f / g);
}

/*
 * The N probe sets of @sets (IN's): IN's own first, then copies under the
 * catalog's other names, spread. Returns a new array, or NULL (said).
 */
static json_object *make_sets(json_object *sets, size_t n)
{
	json_object *out = json_object_new_array(), *copy;
	size_t m = json_object_array_length(sets), next = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *src = json_object_array_get_idx(sets, i % m);

		copy = json_tokener_parse(json_object_to_json_string(src));
		if (i >= m) {
			double k = (double)(i / m), f = 0.35 + 0.5 * (double)(i % 5), g;

			while (next < NCATALOG && (taken(sets, catalog[next]) || taken(out, catalog[next])))
				next++;
			if (next == NCATALOG) {
				fprintf(stderr, "make-fixture: more than %zu names needed\n", NCATALOG);
				json_object_put(copy);
				json_object_put(out);
				return NULL;
			}
			rename_slices(copy, json_object_get_string(
				json_object_object_get(src, "name")), catalog[next]);
			json_object_object_add(copy, "name", json_object_new_string(catalog[next++]));
			/* Costs from ~0.2x to ~130x the original's: the catalog's spread. */
			g = pow(2.0, (double)(i % 9) - 2.0) * (k > 1 ? 4 : 1);
			spread(copy, f, g);
		}
		json_object_array_add(out, copy);
	}
	return out;
}

/* The number @key of @o, or @def when it is not one. */
static double num(json_object *o, const char *key, double def)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return def;
	return json_object_get_double(v);
}

/* @v as a JSON number, null when it is not finite (as sweep.c writes it). */
static json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *jpair(double lo, double hi)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, jnum(lo));
	json_object_array_add(a, jnum(hi));
	return a;
}

/* The values of the sweep, and the key. */
static const int sweep_values[] = { 2, 4, 8, 16 };
#define NVALUES (sizeof(sweep_values) / sizeof(sweep_values[0]))

/* What the probes of a set adding @added ns to an operation of @t0 ns slow it by, in %. */
static double slowdown_of(double added, double t0)
{
	return 100 * added / (t0 + added);
}

/* Probe set @set, the @k-th, across the sweep: its points and the line through them. */
static json_object *sweep_set(json_object *set, size_t k)
{
	json_object *s = json_object_object_get(set, "summary"), *o = json_object_new_object();
	json_object *pts = json_object_new_array(), *fit = json_object_new_object(), *ci;
	double pct = num(s, "slowdown_pct", 10), nspe = num(s, "ns_per_event", 100);
	double epo = num(s, "events_per_op", 10), tput = num(s, "throughput_median", 30000);
	double lo = pct, hi = pct, rel, t0, x[NVALUES], y[NVALUES];
	struct lb_linfit lf;

	if (json_object_object_get_ex(s, "slowdown_ci95", &ci) &&
	    json_object_is_type(ci, json_type_array) && json_object_array_length(ci) == 2) {
		lo = json_object_get_double(json_object_array_get_idx(ci, 0));
		hi = json_object_get_double(json_object_array_get_idx(ci, 1));
	}
	/* The interval as wide, relative to the value, as the slowdown's: 3% to 60%. */
	rel = pct > 0 ? (hi - lo) / 2 / pct : 0.2;
	rel = fmin(fmax(rel, 0.03), 0.6);
	if (!(pct < 99))
		pct = 50;
	/* An untraced operation at the value of the summary (4), the set's own. */
	t0 = 1e9 / (tput / (1 - pct / 100));
	json_object_object_add(o, "name", json_object_new_string(
		json_object_get_string(json_object_object_get(set, "name"))));
	json_object_object_add(o, "points", pts);
	for (size_t i = 0; i < NVALUES; i++) {
		int v = sweep_values[i];
		double e = epo * (0.5 + v / 8.0), j = 0.05 * sin(1.7 * (double)k + 2.3 * (double)i);
		double a = (0.8 * nspe * e + 0.2 * nspe * epo) * (1 + j);
		double alo = a * (1 - rel * (0.8 + 0.1 * (double)i)), ahi = a * (1 + rel);
		double t = t0 * (0.8 + 0.05 * v);
		json_object *po = json_object_new_object();

		x[i] = e;
		y[i] = a;
		json_object_array_add(pts, po);
		json_object_object_add(po, "value", json_object_new_int(v));
		json_object_object_add(po, "events_per_op", jnum(e));
		json_object_object_add(po, "slowdown_pct", jnum(slowdown_of(a, t)));
		json_object_object_add(po, "slowdown_ci95", jpair(slowdown_of(alo, t),
								   slowdown_of(ahi, t)));
		json_object_object_add(po, "added_ns_per_op", jnum(a));
		json_object_object_add(po, "added_ns_per_op_ci95", jpair(alo, ahi));
		json_object_object_add(po, "ns_per_event", jnum(a / e));
	}
	lb_stats_linfit(x, y, NVALUES, &lf);
	json_object_object_add(o, "fit", fit);
	json_object_object_add(fit, "points", json_object_new_int((int)lf.n));
	json_object_object_add(fit, "slope_ns_per_event", jnum(lf.slope));
	json_object_object_add(fit, "slope_ci95", jpair(lf.slope_ci95[0], lf.slope_ci95[1]));
	json_object_object_add(fit, "intercept_ns_per_op", jnum(lf.intercept));
	json_object_object_add(fit, "intercept_ci95", jpair(lf.intercept_ci95[0],
							    lf.intercept_ci95[1]));
	json_object_object_add(fit, "r2", jnum(lf.r2));
	return o;
}

/* The sweep.json of the sets @out. */
static json_object *make_sweep(json_object *out)
{
	json_object *root = json_object_new_object(), *vals = json_object_new_array();
	json_object *sets = json_object_new_array();

	json_object_object_add(root, "key", json_object_new_string("syscalls-per-op"));
	for (size_t i = 0; i < NVALUES; i++)
		json_object_array_add(vals, json_object_new_int(sweep_values[i]));
	json_object_object_add(root, "values", vals);
	json_object_object_add(root, "probesets", sets);
	for (size_t k = 0; k < json_object_array_length(out); k++)
		json_object_array_add(sets, sweep_set(json_object_array_get_idx(out, k), k));
	return root;
}

int main(int argc, char **argv)
{
	json_object *root, *sets, *out, *copy, *v;
	bool vm = argc > 1 && !strcmp(argv[1], "--vm");
	bool sweep = argc > 1 && !strcmp(argv[1], "--sweep");
	size_t n;
	char *end;

	if (vm || sweep) {
		argv++;
		argc--;
	}
	if (argc != 4 || (n = strtoul(argv[2], &end, 10)) == 0 || *end) {
		fprintf(stderr, "usage: make-fixture [--vm | --sweep] IN.json N OUT.json\n");
		return 1;
	}
	root = json_object_from_file(argv[1]);
	if (!root || !json_object_object_get_ex(root, "probesets", &sets) ||
	    !json_object_array_length(sets)) {
		fprintf(stderr, "make-fixture: %s: no probesets\n", argv[1]);
		return 1;
	}
	out = make_sets(sets, n);
	if (!out)
		return 1;
	/* A compare-with set that is not kept: the line goes; slices it was on in are off. */
	for (size_t i = 0; i < n; i++) {
		json_object *slices, *on;

		copy = json_object_array_get_idx(out, i);
		if (json_object_object_get_ex(copy, "slices", &slices)) {
			for (size_t k = 0; k < json_object_array_length(slices); k++) {
				json_object *sl = json_object_array_get_idx(slices, k);

				if (json_object_object_get_ex(sl, "on", &on) &&
				    json_object_is_type(on, json_type_string) &&
				    !taken(out, json_object_get_string(on)))
					json_object_object_add(sl, "on", NULL);
			}
		}
		if (json_object_object_get_ex(copy, "compare_with", &v) &&
		    !taken(out, json_object_get_string(v)))
			json_object_object_del(copy, "compare_with");
	}
	json_object_object_add(root, "probesets", out);
	if (vm && json_object_object_get_ex(root, "host", &v)) {
		json_object_object_add(v, "virtualization", json_object_new_string("qemu-tcg"));
		json_object_object_add(root, "complete", json_object_new_boolean(0));
	}
	/* The sets not measured: none, so that every figure's names are those of its sets. */
	if (json_object_object_get_ex(root, "skipped", &v))
		json_object_object_del(root, "skipped");
	v = sweep ? make_sweep(out) : json_object_get(root);
	if (json_object_to_file_ext(argv[3], v, JSON_C_TO_STRING_PRETTY)) {
		fprintf(stderr, "make-fixture: cannot write %s\n", argv[3]);
		return 1;
	}
	json_object_put(v);
	for (size_t i = 0; i < n; i++)
		puts(json_object_get_string(json_object_object_get(json_object_array_get_idx(out, i),
								   "name")));
	json_object_put(root);
	return 0;
}
