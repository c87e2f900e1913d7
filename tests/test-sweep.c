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
	T_CHECK(lb_sweep_write_json(sw, path) == 0);
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
	unlink(path);
	rmdir(dir);
	lb_sweep_print(sw, stdout);
	lb_sweep_free(sw);
	for (int i = 0; i < 3; i++)
		lb_results_free(res[i]);
	return t_exit();
}
