// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The regression gate (src/results/gate.c, src/output/gate_print.c) on a
 * real run (doc/example/results.json: 14 sets of a default alternation)
 * and on the --method runs fixture: the same run against itself is never
 * worse nor better; a candidate whose on slices (or traced runs) lost 10% of
 * their operations is worse for that set only, by about that much, and one
 * that gained 10% is better; a 1% loss is within the threshold; what
 * differs between two runs is named; the printed lines and table say it.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "gate_print.h"
#include "helpers.h"
#include "results.h"

#define EXAMPLE LB_SRCDIR "/doc/example/results.json"
#define RUNS LB_SRCDIR "/tests/fixtures/results.json"

static struct lb_results *load(const char *path)
{
	struct lb_results *res = NULL;
	char err[512];

	if (lb_results_read_json(path, &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read %s: %s\n", path, err);
		exit(T_EXIT_ERROR);
	}
	/* As scale() leaves the candidate: summarized here, not as read. */
	T_CHECK(lb_results_summarize(res) == 0);
	return res;
}

static struct lb_probeset_result *find(struct lb_results *r, const char *name)
{
	for (size_t i = 0; i < r->nprobesets; i++)
		if (!strcmp(r->probesets[i].name, name))
			return &r->probesets[i];
	return NULL;
}

static const struct lb_gate_row *row_of(const struct lb_gate *g, const char *name)
{
	for (size_t i = 0; i < g->nrows; i++)
		if (!strcmp(g->rows[i].name, name))
			return &g->rows[i];
	return NULL;
}

/* Scale the operations of @name's on slices (alternate) or its runs (runs) by @k. */
static void scale(struct lb_results *r, const char *name, double k)
{
	struct lb_probeset_result *p = find(r, name);
	int me = (int)(p - r->probesets);

	for (size_t i = 0; i < p->nslices; i++)
		if (p->slices[i].on == me)
			p->slices[i].ops = (uint64_t)llround(p->slices[i].ops * k);
	for (size_t i = 0; i < p->nruns; i++) {
		p->runs[i].ops = (uint64_t)llround(p->runs[i].ops * k);
		p->runs[i].throughput *= k;
	}
	T_CHECK(lb_results_summarize(r) == 0);
}

/* Every row of @g: not worse, not better; a change of 0 whose CI holds 0. */
static void check_same(const struct lb_gate *g, size_t nsets)
{
	T_CHECK(g->nrows == nsets);
	T_CHECK(g->nworse == 0 && g->nbetter == 0);
	T_CHECK(g->nunchanged + g->ninconclusive == nsets);
	for (size_t i = 0; i < g->nrows; i++) {
		const struct lb_gate_row *r = &g->rows[i];

		T_CHECK_NEAR(r->diff_pp, 0, 1e-9);
		T_CHECK(r->diff_ci95[0] < 0 && r->diff_ci95[1] > 0);
		if (r->verdict == LB_GATE_INCONCLUSIVE) {
			/* Too wide: a CI of +-2 pp would tell, +-1.41 pp from each run. */
			T_CHECK(r->diff_ci95[1] - r->diff_ci95[0] > 2 * g->fail_above);
			T_CHECK_NEAR(r->needed_half_pp, 2, 1e-9);
			T_CHECK_NEAR(r->needed_precision, 2 / sqrt(2), 1e-9);
		} else {
			T_CHECK(r->verdict == LB_GATE_UNCHANGED);
			T_CHECK(r->diff_ci95[0] >= -2 && r->diff_ci95[1] <= 2);
			T_CHECK(isnan(r->needed_half_pp));
		}
	}
}

static char *print(const struct lb_gate *g, bool markdown)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		exit(T_EXIT_ERROR);
	if (markdown)
		lb_gate_print_markdown(g, "cand|dir", f);
	else
		lb_gate_print_lines(g, NULL, f);
	fclose(f);
	return s;
}

static void check_alternate(void)
{
	struct lb_results *base = load(EXAMPLE), *cand = load(EXAMPLE);
	const struct lb_gate_row *r;
	struct lb_gate g;
	char *out;

	/* The same run against itself. */
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	check_same(&g, base->nprobesets);
	/* The example's sets reach +-0.24 to +-4.76 pp: some are told, some not. */
	T_CHECK(g.nunchanged > 0 && g.ninconclusive > 0);
	T_CHECK(g.nonly_base == 0 && g.nonly_cand == 0);
	lb_gate_release(&g);

	/* syscalls-pid's on slices did 10% fewer operations: ~9 pp worse, outside the noise. */
	scale(cand, "syscalls-pid", 0.90);
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	r = row_of(&g, "syscalls-pid");
	T_CHECK(r && r->verdict == LB_GATE_WORSE);
	T_CHECK(r && r->diff_pp > 8 && r->diff_pp < 10);
	T_CHECK(r && r->diff_ci95[0] > 2 && r->diff_ci95[1] < 12);
	T_CHECK(r && r->diff_ns > 0 && r->diff_ns_ci95[0] > 0);
	T_CHECK(g.nworse == 1 && g.nbetter == 0);
	out = print(&g, false);
	T_CHECK(strstr(out, "\nsyscalls-pid: worse: +") != NULL);
	T_CHECK(strstr(out, "gate: 1 worse, 0 better, ") != NULL);
	T_CHECK(strstr(out, ": FAIL\n") != NULL);
	T_CHECK(strstr(out, "bpf: inconclusive: +0.0 pp [") == out);
	T_CHECK(strstr(out, "(--precision 1.41 for both runs)\n") != NULL);
	free(out);
	out = print(&g, true);
	T_CHECK(strstr(out, "### Tracing overhead: cand\\|dir\n") == out);
	T_CHECK(strstr(out, "\n**FAIL**: 1 worse, ") != NULL);
	T_CHECK(strstr(out, "\n| syscalls-pid | 12.9 | ") != NULL);
	T_CHECK(strstr(out, " | **worse** |\n") != NULL);
	free(out);
	lb_gate_release(&g);

	/* ... and 1% fewer: ~0.9 pp, inside +-2 pp. */
	scale(cand, "syscalls-pid", 0.99 / 0.90);
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	r = row_of(&g, "syscalls-pid");
	T_CHECK(r && r->verdict == LB_GATE_UNCHANGED);
	T_CHECK(r && r->diff_pp > 0.5 && r->diff_pp < 1.5);
	T_CHECK(g.nworse == 0);
	lb_gate_release(&g);
	/* A threshold inside the CI: not unchanged any more, and it says what would tell. */
	T_CHECK(lb_gate_compare(base, cand, 0.3, &g) == 0);
	r = row_of(&g, "syscalls-pid");
	T_CHECK(r && r->verdict != LB_GATE_UNCHANGED);
	T_CHECK(r && (r->verdict == LB_GATE_WORSE || r->needed_half_pp > 0));
	lb_gate_release(&g);

	/* ftrace's on slices 10% faster: better. */
	scale(cand, "ftrace", 1.10);
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	r = row_of(&g, "ftrace");
	T_CHECK(r && r->verdict == LB_GATE_BETTER && r->diff_pp < -8);
	T_CHECK(g.nbetter == 1);
	lb_gate_release(&g);

	/* A threshold must be a positive number. */
	T_CHECK(lb_gate_compare(base, cand, 0, &g) == -EINVAL);
	T_CHECK(lb_gate_compare(base, cand, NAN, &g) == -EINVAL);

	lb_results_free(base);
	lb_results_free(cand);
}

static void check_runs(void)
{
	struct lb_results *base = load(RUNS), *cand = load(RUNS), *alt = load(EXAMPLE);
	struct lb_probeset_result *p;
	const struct lb_gate_row *r;
	struct lb_gate g;
	char why[1024];
	char *name;

	T_CHECK(base->nprobesets >= 1);
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	T_CHECK(g.nworse == 0 && g.nbetter == 0);
	for (size_t i = 0; i < g.nrows; i++)
		T_CHECK_NEAR(g.rows[i].diff_pp, 0, 1e-9);
	lb_gate_release(&g);

	/* The first set's traced runs 20% slower in every round: worse. */
	p = &cand->probesets[0];
	name = p->name;
	scale(cand, name, 0.80);
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	r = row_of(&g, name);
	T_CHECK(r && r->verdict == LB_GATE_WORSE && r->diff_pp > 10);
	T_CHECK(r && r->base_n == base->probesets[0].nruns);
	lb_gate_release(&g);

	/* What differs is named; the same is not. */
	T_CHECK(!lb_gate_mismatch(base, cand, why, sizeof(why)));
	T_CHECK_STR(why, "");
	T_CHECK(lb_gate_mismatch(base, alt, why, sizeof(why)));
	T_CHECK(strstr(why, "method runs vs alternate") != NULL);
	free(cand->host.kernel_release);
	cand->host.kernel_release = strdup("6.1.0-test");
	free(cand->config.workload);
	cand->config.workload = strdup("tcp-rr");
	T_CHECK(lb_gate_mismatch(base, cand, why, sizeof(why)));
	T_CHECK(strstr(why, "workload udp-rr (") == why);
	T_CHECK(strstr(why, " vs tcp-rr (") != NULL);
	T_CHECK(strstr(why, ", kernel ") && strstr(why, " vs 6.1.0-test"));

	/* A set in one run only is listed, not gated. */
	free(p->name);
	p->name = strdup("renamed");
	T_CHECK(lb_gate_compare(base, cand, 2, &g) == 0);
	T_CHECK(g.nonly_base == 1 && g.nonly_cand == 1);
	T_CHECK(g.nonly_cand == 1 && !strcmp(g.only_cand[0], "renamed"));
	T_CHECK(g.nrows == base->nprobesets - 1);
	lb_gate_release(&g);

	lb_results_free(base);
	lb_results_free(cand);
	lb_results_free(alt);
}

int main(void)
{
	check_alternate();
	check_runs();
	return t_failures ? T_EXIT_FAIL : T_EXIT_PASS;
}
