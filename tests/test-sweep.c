// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sweep summary (src/results/sweep.c): three values whose added time
 * per operation is known to be 1000 ns + 200 ns per event give back that
 * line, each point's added time and ns/event as the summaries say; a set
 * measured at one value only has no line; sweep.json holds it all.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "sweep.h"

/* A result set whose probe set @name runs @epo events/op and adds @added ns to each. */
static struct lb_results *results_with(const char *name, double epo, double added, bool other)
{
	struct lb_results *res = lb_results_new();
	struct lb_probeset_result *p;
	double s = 0.2; /* slowdown: traced = untraced * 0.8 */

	if (!res)
		return NULL;
	p = lb_results_add_probeset(res, name, "ftrace");
	if (!p)
		return res;
	p->summary.throughput_median = 1e9 * s / added;
	p->summary.slowdown_pct = 100 * s;
	p->summary.slowdown_ci95[0] = 10;
	p->summary.slowdown_ci95[1] = 30;
	p->summary.events_per_op = epo;
	p->summary.ns_per_event = added / epo;
	if (other) {
		p = lb_results_add_probeset(res, "once", "bpf");
		if (p) {
			p->summary.throughput_median = 1e5;
			p->summary.slowdown_pct = 5;
			p->summary.events_per_op = 3;
		}
	}
	return res;
}

/* Two doubles are the same number, or both NAN. */
static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || fabs(a - b) <= 1e-9 * (fabs(a) + 1);
}

/* What lb_sweep_write_json() wrote at @path reads back as @sw, field by field. */
static void check_read_back(const struct lb_sweep *sw, const char *path)
{
	struct lb_sweep *b = NULL;
	char err[256];

	T_CHECK(lb_sweep_read_json(path, &b, err, sizeof(err)) == 0);
	if (!b)
		return;
	T_CHECK(!strcmp(b->key, sw->key) && b->nvalues == sw->nvalues && b->nsets == sw->nsets);
	for (size_t i = 0; i < sw->nvalues && i < b->nvalues; i++)
		T_CHECK(b->values[i] == sw->values[i]);
	for (size_t k = 0; k < sw->nsets && k < b->nsets; k++) {
		const struct lb_sweep_set *x = &sw->sets[k], *y = &b->sets[k];

		T_CHECK(!strcmp(x->name, y->name) && x->npoints == y->npoints);
		for (size_t i = 0; i < x->npoints && i < y->npoints; i++) {
			const struct lb_sweep_point *p = &x->points[i], *q = &y->points[i];

			T_CHECK(p->value == q->value && same(p->events_per_op, q->events_per_op));
			T_CHECK(same(p->slowdown_pct, q->slowdown_pct) &&
				same(p->slowdown_ci95[0], q->slowdown_ci95[0]) &&
				same(p->slowdown_ci95[1], q->slowdown_ci95[1]));
			T_CHECK(same(p->added_ns, q->added_ns) &&
				same(p->added_ns_ci95[0], q->added_ns_ci95[0]) &&
				same(p->added_ns_ci95[1], q->added_ns_ci95[1]));
			T_CHECK(same(p->ns_per_event, q->ns_per_event));
		}
		T_CHECK(x->fit.n == y->fit.n && same(x->fit.slope, y->fit.slope) &&
			same(x->fit.intercept, y->fit.intercept) && same(x->fit.r2, y->fit.r2));
		T_CHECK(same(x->fit.slope_ci95[0], y->fit.slope_ci95[0]) &&
			same(x->fit.slope_ci95[1], y->fit.slope_ci95[1]) &&
			same(x->fit.intercept_ci95[0], y->fit.intercept_ci95[0]) &&
			same(x->fit.intercept_ci95[1], y->fit.intercept_ci95[1]));
	}
	lb_sweep_free(b);
}

/* Files that are not a sweep: each refused with one line naming what is wrong. */
static void check_reject(const char *path)
{
	static const struct {
		const char *text, *needle;
	} bad[] = {
		{ "[1, 2]", "the top level is not an object" },
		{ "{\"values\": [1], \"probesets\": []}", "no \"key\": not a sweep.json" },
		{ "{\"key\": \"x\", \"values\": [1.5], \"probesets\": []}",
		  "values[0]: expected an integer" },
		{ "{\"key\": \"x\", \"values\": [], \"probesets\": []}", "0 values" },
		/* Refused before the sets were allocated: freed without walking them. */
		{ "{\"key\": \"x\", \"values\": [], \"probesets\": [{\"name\": \"a\"}]}",
		  "0 values and 1 probe sets" },
		{ "{\"key\": \"x\", \"values\": [1], \"probesets\": [{\"name\": \"a\"}]}",
		  "probesets[0]: no \"points\" array" },
		{ "{\"key\": \"x\", \"values\": [1], \"probesets\": [{\"name\": \"a\", "
		  "\"points\": [{\"value\": 1}, {\"value\": 2}]}]}", "2 points, more than the 1 values" },
		{ "{\"key\": \"x\", \"values\": [1], \"probesets\": [{\"name\": \"a\", "
		  "\"points\": [{\"events_per_op\": 1}], \"fit\": {}}]}",
		  "probesets[0].points[0]: no \"value\"" },
		{ "{\"key\": \"x\", \"values\": [1], \"probesets\": [{\"name\": \"a\", "
		  "\"points\": [{\"value\": 1, \"slowdown_ci95\": [1]}], \"fit\": {}}]}",
		  "slowdown_ci95: expected [low, high]" },
		{ "{\"key\": \"x\", \"values\": [1], \"probesets\": [{\"name\": \"a\", "
		  "\"points\": [{\"value\": 1}], \"fit\": {\"points\": 5}}]}", "fit.points: 5, not 0 to 1" },
		{ "{\"key\": \"x\"", "json_tokener_parse_ex failed" },
	};
	struct lb_sweep *s;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		T_CHECK(f && fputs(bad[i].text, f) >= 0 && fclose(f) == 0);
		s = (struct lb_sweep *)1;
		if (lb_sweep_read_json(path, &s, err, sizeof(err)) != -EINVAL || s ||
		    !strstr(err, bad[i].needle) || strchr(err, '\n')) {
			fprintf(stderr, "bad sweep %zu: got \"%s\", want \"%s\"\n", i, err,
				bad[i].needle);
			t_failures++;
		}
	}
	T_CHECK(lb_sweep_read_json("/nonexistent/sweep.json", &s, err, sizeof(err)) == -ENOENT);
}

int main(void)
{
	const int values[] = { 0, 4, 16 };
	struct lb_results *res[3];
	struct lb_sweep *sw = NULL;
	char dir[] = "/tmp/lb-test-sweep-XXXXXX", path[64];
	char *text;

	for (int i = 0; i < 3; i++) {
		double epo = 8 + 2 * values[i];

		res[i] = results_with("syscalls-pid", epo, 1000 + 200 * epo, i == 1);
		T_CHECK(res[i] != NULL);
	}
	T_CHECK(lb_sweep_build("syscalls-per-op", values, res, 3, &sw) == 0);
	if (!sw)
		return t_exit();
	T_CHECK(sw->nvalues == 3 && sw->nsets == 2);
	T_CHECK(!strcmp(sw->sets[0].name, "syscalls-pid") && sw->sets[0].npoints == 3);
	/* Each point: the added time the summary's slowdown and throughput give. */
	T_CHECK_NEAR(sw->sets[0].points[0].added_ns, 1000 + 200 * 8, 1e-6);
	T_CHECK_NEAR(sw->sets[0].points[2].added_ns, 1000 + 200 * 40, 1e-6);
	T_CHECK(sw->sets[0].points[1].value == 4);
	/* ... and its CI from the slowdown's: 10% and 30% around 20%. */
	T_CHECK(sw->sets[0].points[1].added_ns_ci95[0] < sw->sets[0].points[1].added_ns);
	T_CHECK(sw->sets[0].points[1].added_ns_ci95[1] > sw->sets[0].points[1].added_ns);
	/* The line: 200 ns per event on top of 1000 ns per operation. */
	T_CHECK_NEAR(sw->sets[0].fit.slope, 200, 1e-6);
	T_CHECK_NEAR(sw->sets[0].fit.intercept, 1000, 1e-6);
	T_CHECK(sw->sets[0].fit.n == 3);
	/* One value only: no line. */
	T_CHECK(!strcmp(sw->sets[1].name, "once") && sw->sets[1].npoints == 1);
	T_CHECK(isnan(sw->sets[1].fit.slope));

	T_CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	T_CHECK(lb_sweep_write_json(sw, AT_FDCWD, path) == 0);
	text = t_read_all(path, NULL);
	T_CHECK(text && strstr(text, "\"key\": \"syscalls-per-op\""));
	{
		const char *k = text ? strstr(text, "\"slope_ns_per_event\": ") : NULL;
		double slope = NAN;

		T_CHECK(k && sscanf(k + strlen("\"slope_ns_per_event\": "), "%lf", &slope) == 1);
		T_CHECK_NEAR(slope, 200, 1e-9);
	}
	T_CHECK(text && strstr(text, "\"values\": [\n    0,\n    4,\n    16\n  ]"));
	T_CHECK(text && strstr(text, "\"slope_ns_per_event\": null,"));
	free(text);
	check_read_back(sw, path);
	check_reject(path);
	unlink(path);
	rmdir(dir);
	lb_sweep_print(sw, stdout);
	lb_sweep_free(sw);
	for (int i = 0; i < 3; i++)
		lb_results_free(res[i]);
	return t_exit();
}
