// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plan of a run: the probe sets named (or the catalog), the sets their
 * compare-with lines bring along, each set's tracer, and the skip rules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "probeset.h"
#include "results.h"
#include "run.h"
#include "tracer.h"

/* What the messages of probe sets and tracers fit in (as they always did). */
#define LB_PLAN_MSG 1024

struct lb_plan {
	struct lb_plan_entry entry[LB_MAX_PROBESETS];
	int n, nmeasured;
	int by_result[LB_MAX_PROBESETS];	/* entry of res->probesets[i] */
};

/* Load one spec; refuses duplicates (the same probe set twice would be compared with itself). */
static int plan_add(struct lb_plan *plan, const char *spec, const char *catalog, char *err,
		    size_t len)
{
	struct lb_probeset *ps;
	char msg[LB_PLAN_MSG];
	int ret;

	ret = lb_probeset_find(spec, catalog, &ps, msg, sizeof(msg));
	if (ret) {
		snprintf(err, len, "%s", msg);
		return ret;
	}
	for (int i = 0; i < plan->n; i++) {
		if (!strcmp(plan->entry[i].set->name, ps->name)) {
			snprintf(err, len, "probe set '%s' is named twice: name each probe set once",
				 ps->name);
			lb_probeset_free(ps);
			return -EINVAL;
		}
	}
	plan->entry[plan->n++].set = ps;
	return 0;
}

/*
 * Bring along the set each named set builds on (its compare-with line),
 * just before it, unless it is named too. Returns 0 or -errno (in @err).
 */
static int plan_add_compared(struct lb_plan *plan, const char *catalog, char *err, size_t len)
{
	struct lb_plan_entry *e = plan->entry;

	for (int i = 0; i < plan->n; i++) {
		struct lb_probeset *ps = e[i].set, *base;
		const char *want = ps->compare_with;
		char msg[LB_PLAN_MSG];
		int j, ret;

		if (!want || ps->added_for)
			continue;
		for (j = 0; j < plan->n && strcmp(e[j].set->name, want); j++)
			;
		if (j < plan->n)
			continue;
		if (plan->n >= LB_MAX_PROBESETS) {
			snprintf(err, len, "too many probe sets with those compare-with lines (at most "
				 "%d): name fewer or pass --alone", LB_MAX_PROBESETS);
			return -E2BIG;
		}
		ret = lb_probeset_find(want, catalog, &base, msg, sizeof(msg));
		if (ret) {
			snprintf(err, len, "%s:%d: compare-with %s: %s; fix the line or pass --alone",
				 ps->path, ps->compare_with_line, want, msg);
			return ret;
		}
		base->added_for = strdup(ps->name);
		if (!base->added_for) {
			lb_probeset_free(base);
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		memmove(&e[i + 1], &e[i], (plan->n - i) * sizeof(*e));
		e[i].set = base;
		plan->n++;
		i++;	/* past the set that asked: the one just added is not a named set */
	}
	return 0;
}

/*
 * The default run: every catalog set but those marked `default-run no'
 * (the command tracer's tools: seconds per switch, and a question of their
 * own), as many as a run measures.
 */
static int plan_add_catalog(struct lb_plan *plan, const char *catalog, char *err, size_t len)
{
	char **names = NULL;
	int n = lb_catalog_names(catalog, &names), ret = 0;

	if (n < 0) {
		snprintf(err, len, "cannot read the probe-set catalog %s: %s", catalog,
			 strerror(-n));
		return n;
	}
	for (int i = 0; i < n && plan->n < LB_MAX_PROBESETS && !ret; i++) {
		ret = plan_add(plan, names[i], catalog, err, len);
		if (!ret && !plan->entry[plan->n - 1].set->default_run)
			lb_probeset_free(plan->entry[--plan->n].set);
	}
	lb_catalog_names_free(names);
	return ret;
}

/*
 * Whether probe set @ps cannot run on this machine, as opposed to being wrong
 * anywhere: its tracer is known but unavailable here, or create() failed
 * because this kernel lacks an event, a symbol, a feature or the privilege
 * (-ENOENT, -ENODEV, -ENOSYS, -EPERM, -EACCES). An unknown tracer, or a probe
 * set its tracer cannot record (-EINVAL, -EOPNOTSUPP), is an error everywhere.
 */
static bool probeset_unavailable(const struct lb_probeset *ps, int ret)
{
	char why[512];

	if (!lb_tracer_ops_find(ps->tracer))
		return false;
	if (lb_tracer_available(ps->tracer, why, sizeof(why)))
		return true;
	return ret == -ENOENT || ret == -ENODEV || ret == -ENOSYS || ret == -EPERM ||
	       ret == -EACCES;
}

/* Whether @ps puts a uprobe on loadgen's server (a function of loadbench itself). */
static bool probeset_needs_server(const struct lb_probeset *ps)
{
	for (size_t i = 0; i < ps->nprobes; i++)
		if (ps->probes[i].kind == LB_PROBE_UPROBE)
			return true;
	return false;
}

/* Every entry's tracer, or why it is skipped; 0 or -errno (in @err). */
static int plan_create(struct lb_plan *plan, const struct lb_plan_request *rq, char *err,
		       size_t len)
{
	bool defaults = rq->nspecs == 0;

	for (int i = 0; i < plan->n; i++) {
		struct lb_plan_entry *e = &plan->entry[i];
		enum lb_unavailable why = LB_UNAVAIL_OTHER;
		char msg[LB_PLAN_MSG];
		int ret;

		e->result = -1;
		if (rq->no_server && probeset_needs_server(e->set)) {
			/* Skipped in the default run, refused when named (-EINVAL: anywhere). */
			snprintf(msg, sizeof(msg), "probe set %s puts a uprobe on loadgen's server "
				 "(lb_server_request), which --workload exec does not run: drop it",
				 e->set->name);
			ret = -EINVAL;
		} else {
			ret = lb_tracer_create(e->set, rq->topts, &e->tracer, &why, msg,
					       sizeof(msg));
		}
		if (ret && (defaults || (rq->skip_unavailable &&
					     probeset_unavailable(e->set, ret)))) {
			/* The default run measures what runs here and says what it left out. */
			e->tracer = NULL;
			e->why = why;
			e->skipped = strdup(msg);
			if (!e->skipped) {
				snprintf(err, len, "out of memory");
				return -ENOMEM;
			}
			continue;
		}
		if (ret && e->set->added_for) {
			snprintf(err, len, "%s (%s is measured beside %s, whose compare-with names "
				 "it; --alone leaves it out)", msg, e->set->name, e->set->added_for);
			return ret;
		}
		if (ret) {
			snprintf(err, len, "%s", msg);
			return ret;
		}
		e->result = plan->nmeasured;
		plan->by_result[plan->nmeasured++] = i;
	}
	return 0;
}

int lb_plan_new(const struct lb_plan_request *rq, struct lb_plan **out, char *err, size_t len)
{
	struct lb_plan *plan = calloc(1, sizeof(*plan));
	bool baseline_only = false;
	int ret = 0;

	if (!plan) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < rq->nspecs && !ret; i++) {
		if (!strcmp(rq->specs[i], "none"))
			baseline_only = true;
		else
			ret = plan_add(plan, rq->specs[i], rq->catalog, err, len);
	}
	if (!ret && baseline_only && plan->n) {
		snprintf(err, len, "--probeset none means baseline only: do not combine it with "
			 "probe sets");
		ret = -EINVAL;
	}
	if (!ret && !rq->alone)
		ret = plan_add_compared(plan, rq->catalog, err, len);
	if (!ret && rq->nspecs == 0)
		ret = plan_add_catalog(plan, rq->catalog, err, len);
	if (!ret)
		ret = plan_create(plan, rq, err, len);
	if (ret) {
		lb_plan_free(plan);
		return ret;
	}
	*out = plan;
	return 0;
}

void lb_plan_free(struct lb_plan *plan)
{
	if (!plan)
		return;
	for (int i = 0; i < plan->n; i++) {
		lb_tracer_destroy(plan->entry[i].tracer);
		lb_probeset_free(plan->entry[i].set);
		free((char *)plan->entry[i].skipped);
	}
	free(plan);
}

int lb_plan_count(const struct lb_plan *plan)
{
	return plan->n;
}

int lb_plan_measured(const struct lb_plan *plan)
{
	return plan->nmeasured;
}

int lb_plan_skipped(const struct lb_plan *plan)
{
	return plan->n - plan->nmeasured;
}

const struct lb_plan_entry *lb_plan_entry(const struct lb_plan *plan, int i)
{
	return &plan->entry[i];
}

struct lb_tracer *lb_plan_tracer(const struct lb_plan *plan, int result)
{
	if (result < 0 || result >= plan->nmeasured)
		return NULL;
	return plan->entry[plan->by_result[result]].tracer;
}

/* Probe set @ps as the result @psr: what the results say of it beside its runs. */
static int plan_describe(struct lb_probeset_result *psr, const struct lb_probeset *ps)
{
	psr->description = ps->description ? strdup(ps->description) : NULL;
	psr->file = strdup(ps->path);
	psr->text = strdup(ps->text);
	if (!psr->file || !psr->text)
		return -ENOMEM;
	if (ps->compare_with && !(psr->compare_with = strdup(ps->compare_with)))
		return -ENOMEM;
	if (ps->added_for && !(psr->added_for = strdup(ps->added_for)))
		return -ENOMEM;
	if (ps->reference && !(psr->reference = strdup(ps->reference)))
		return -ENOMEM;
	return 0;
}

int lb_plan_fill_results(const struct lb_plan *plan, struct lb_results *res)
{
	if (res->nprobesets)
		return -EINVAL;
	for (int i = 0; i < plan->n; i++) {
		const struct lb_plan_entry *e = &plan->entry[i];
		struct lb_probeset_result *psr;
		int ret;

		if (e->skipped) {
			if (lb_results_add_skipped(res, e->set->name, e->skipped))
				return -ENOMEM;
			continue;
		}
		psr = lb_results_add_probeset(res, e->set->name, e->set->tracer);
		if (!psr)
			return -ENOMEM;
		ret = plan_describe(psr, e->set);
		if (ret)
			return ret;
	}
	return 0;
}
