// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sweep's summary (sweep.h): per probe set and value, the events per
 * operation and the time the probes add to an operation, and the line
 * through them; printed for people and written as sweep.json.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "json_get.h"
#include "results_int.h"
#include "sweep.h"
#include "util.h"

/*
 * The time @s's probes add to an operation at slowdown @pct: 1/traced -
 * 1/untraced, the untraced throughput being the set's own over (1 - the
 * slowdown), so that at the summary's slowdown it is its ns/event times
 * its events per operation. NAN when not computable.
 */
static double lb_sweep_added_ns(const struct lb_summary *s, double pct)
{
	double untraced;

	if (!(s->throughput_median > 0) || !(s->slowdown_pct < 100) || !(pct < 100))
		return NAN;
	untraced = s->throughput_median / (1 - s->slowdown_pct / 100);
	return 1e9 / untraced * (pct / 100) / (1 - pct / 100);
}

static void lb_sweep_point_fill(struct lb_sweep_point *p, int value, const struct lb_summary *s)
{
	p->value = value;
	p->events_per_op = s->events_per_op;
	p->slowdown_pct = s->slowdown_pct;
	p->slowdown_ci95[0] = s->slowdown_ci95[0];
	p->slowdown_ci95[1] = s->slowdown_ci95[1];
	p->added_ns = lb_sweep_added_ns(s, s->slowdown_pct);
	p->added_ns_ci95[0] = lb_sweep_added_ns(s, s->slowdown_ci95[0]);
	p->added_ns_ci95[1] = lb_sweep_added_ns(s, s->slowdown_ci95[1]);
	p->ns_per_event = s->ns_per_event;
}

/* The set named @name in @sw, added when new. NULL on ENOMEM. */
static struct lb_sweep_set *lb_sweep_set_get(struct lb_sweep *sw, const char *name, size_t max)
{
	for (size_t k = 0; k < sw->nsets; k++)
		if (!strcmp(sw->sets[k].name, name))
			return &sw->sets[k];
	if (sw->nsets == max)
		return NULL;
	sw->sets[sw->nsets].name = strdup(name);
	sw->sets[sw->nsets].points = calloc(sw->nvalues ? sw->nvalues : 1,
					    sizeof(struct lb_sweep_point));
	if (!sw->sets[sw->nsets].name || !sw->sets[sw->nsets].points) {
		free(sw->sets[sw->nsets].name);
		free(sw->sets[sw->nsets].points);
		return NULL;
	}
	return &sw->sets[sw->nsets++];
}

int lb_sweep_build(const char *key, const int *values, struct lb_results *const *res, size_t n,
		   struct lb_sweep **out)
{
	struct lb_sweep *sw = calloc(1, sizeof(*sw));
	size_t max = 0;

	*out = NULL;
	if (!sw)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		max += res[i]->nprobesets;
	sw->key = strdup(key);
	sw->values = calloc(n ? n : 1, sizeof(*sw->values));
	sw->sets = calloc(max ? max : 1, sizeof(*sw->sets));
	if (!sw->key || !sw->values || !sw->sets)
		goto nomem;
	sw->nvalues = n;
	memcpy(sw->values, values, n * sizeof(*values));
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < res[i]->nprobesets; k++) {
			const struct lb_probeset_result *psr = &res[i]->probesets[k];
			struct lb_sweep_set *set;

			set = lb_sweep_set_get(sw, lb_str_or(psr->name, "?"), max);
			if (!set)
				goto nomem;
			lb_sweep_point_fill(&set->points[set->npoints++], values[i], &psr->summary);
		}
	}
	for (size_t k = 0; k < sw->nsets; k++) {
		struct lb_sweep_set *set = &sw->sets[k];
		double *x = calloc(set->npoints + 1, sizeof(*x)), *y = calloc(set->npoints + 1,
									     sizeof(*y));

		if (!x || !y) {
			free(x);
			free(y);
			goto nomem;
		}
		for (size_t i = 0; i < set->npoints; i++) {
			x[i] = set->points[i].events_per_op;
			y[i] = set->points[i].added_ns;
		}
		/* Too few points, or the events per operation never changed: no line. */
		lb_stats_linfit(x, y, set->npoints, &set->fit);
		free(x);
		free(y);
	}
	*out = sw;
	return 0;
nomem:
	lb_sweep_free(sw);
	return -ENOMEM;
}

/* "%.1f" of @v, or "-". */
static const char *lb_sweep_num(char *buf, size_t len, int prec, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

void lb_sweep_print(const struct lb_sweep *s, FILE *f)
{
	char b[6][32];

	fputs("\nsweep of ", f);
	lb_str_put_safe(f, s->key);
	fputs(" over", f);
	for (size_t i = 0; i < s->nvalues; i++)
		fprintf(f, "%s %d", i ? "," : "", s->values[i]);
	fputs(":\nprobe set        value  events/op  slowdown %      [95% CI]  added ns/op  "
	      "ns/event\n", f);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_sweep_set *set = &s->sets[k];

		for (size_t i = 0; i < set->npoints; i++) {
			const struct lb_sweep_point *p = &set->points[i];
			char ci[64] = "-";
			int pad = 16;

			if (isfinite(p->slowdown_ci95[0]) && isfinite(p->slowdown_ci95[1]))
				snprintf(ci, sizeof(ci), "[%.1f, %.1f]", p->slowdown_ci95[0],
					 p->slowdown_ci95[1]);
			/* The set's name on its first line only. */
			if (!i) {
				lb_str_put_safe(f, set->name);
				pad -= (int)lb_str_safe_len(set->name);
			}
			fprintf(f, "%*s%6d  %9s  %10s  %12s  %11s  %8s\n", pad > 0 ? pad : 1, "",
				p->value, lb_sweep_num(b[0], sizeof(b[0]), 2, p->events_per_op),
				lb_sweep_num(b[1], sizeof(b[1]), 1, p->slowdown_pct), ci,
				lb_sweep_num(b[2], sizeof(b[2]), 0, p->added_ns),
				lb_sweep_num(b[3], sizeof(b[3]), 1, p->ns_per_event));
		}
	}
	fputs("\nthe line through added ns/op against events/op, per set (slope: what one more "
	      "event costs; intercept: the per-operation cost that is not per event):\n", f);
	for (size_t k = 0; k < s->nsets; k++) {
		const struct lb_linfit *l = &s->sets[k].fit;

		lb_str_put_safe(f, s->sets[k].name);
		if (!isfinite(l->slope)) {
			fputs(": no line (fewer than 2 values, or the events per operation did not "
			      "change)\n", f);
			continue;
		}
		fprintf(f, ": %s ns per event", lb_sweep_num(b[0], sizeof(b[0]), 1, l->slope));
		if (isfinite(l->slope_ci95[0]))
			fprintf(f, " [%.1f, %.1f]", l->slope_ci95[0], l->slope_ci95[1]);
		fprintf(f, ", intercept %s ns/op", lb_sweep_num(b[1], sizeof(b[1]), 0,
								l->intercept));
		if (isfinite(l->intercept_ci95[0]))
			fprintf(f, " [%.0f, %.0f]", l->intercept_ci95[0], l->intercept_ci95[1]);
		fprintf(f, ", r^2 %s over %zu values\n", lb_sweep_num(b[2], sizeof(b[2]), 3, l->r2),
			l->n);
	}
}

/* @v as a JSON number, or null when it is not finite. */
static struct json_object *lb_sweep_json_num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static struct json_object *lb_sweep_json_pair(const double v[2])
{
	struct json_object *a = json_object_new_array();

	if (a) {
		json_object_array_add(a, lb_sweep_json_num(v[0]));
		json_object_array_add(a, lb_sweep_json_num(v[1]));
	}
	return a;
}

static struct json_object *lb_sweep_to_json(const struct lb_sweep *s)
{
	struct json_object *root = json_object_new_object(), *vals, *sets;

	if (!root)
		return NULL;
	json_object_object_add(root, "key", json_object_new_string(s->key));
	vals = json_object_new_array();
	for (size_t i = 0; vals && i < s->nvalues; i++)
		json_object_array_add(vals, json_object_new_int(s->values[i]));
	json_object_object_add(root, "values", vals);
	sets = json_object_new_array();
	json_object_object_add(root, "probesets", sets);
	for (size_t k = 0; sets && k < s->nsets; k++) {
		const struct lb_sweep_set *set = &s->sets[k];
		struct json_object *o = json_object_new_object(), *pts = json_object_new_array();
		struct json_object *fit = json_object_new_object();

		json_object_array_add(sets, o);
		if (!o || !pts || !fit) {
			json_object_put(pts);
			json_object_put(fit);
			continue;
		}
		json_object_object_add(o, "name", json_object_new_string(set->name));
		json_object_object_add(o, "points", pts);
		for (size_t i = 0; i < set->npoints; i++) {
			const struct lb_sweep_point *p = &set->points[i];
			struct json_object *po = json_object_new_object();

			if (!po)
				continue;
			json_object_array_add(pts, po);
			json_object_object_add(po, "value", json_object_new_int(p->value));
			json_object_object_add(po, "events_per_op",
					       lb_sweep_json_num(p->events_per_op));
			json_object_object_add(po, "slowdown_pct", lb_sweep_json_num(p->slowdown_pct));
			json_object_object_add(po, "slowdown_ci95", lb_sweep_json_pair(p->slowdown_ci95));
			json_object_object_add(po, "added_ns_per_op", lb_sweep_json_num(p->added_ns));
			json_object_object_add(po, "added_ns_per_op_ci95",
					       lb_sweep_json_pair(p->added_ns_ci95));
			json_object_object_add(po, "ns_per_event", lb_sweep_json_num(p->ns_per_event));
		}
		json_object_object_add(o, "fit", fit);
		json_object_object_add(fit, "points", json_object_new_int((int)set->fit.n));
		json_object_object_add(fit, "slope_ns_per_event", lb_sweep_json_num(set->fit.slope));
		json_object_object_add(fit, "slope_ci95", lb_sweep_json_pair(set->fit.slope_ci95));
		json_object_object_add(fit, "intercept_ns_per_op",
				       lb_sweep_json_num(set->fit.intercept));
		json_object_object_add(fit, "intercept_ci95",
				       lb_sweep_json_pair(set->fit.intercept_ci95));
		json_object_object_add(fit, "r2", lb_sweep_json_num(set->fit.r2));
	}
	return root;
}

int lb_sweep_write_json(const struct lb_sweep *s, int dirfd, const char *name)
{
	return lb_json_write_file(lb_sweep_to_json(s), dirfd, name);
}

void lb_sweep_free(struct lb_sweep *s)
{
	if (!s)
		return;
	/* A reader that failed before the sets were allocated leaves nsets set, sets NULL. */
	for (size_t k = 0; s->sets && k < s->nsets; k++) {
		free(s->sets[k].name);
		free(s->sets[k].points);
	}
	free(s->sets);
	free(s->values);
	free(s->key);
	free(s);
}

/* The [low, high] of @kind at @key of @o into @v (null or absent: NAN). Returns 0 or -EINVAL. */
static int lb_sweep_read_pair(struct lb_reader *rd, const struct json_object *o, const char *w,
			      const char *key, enum lb_num kind, double v[2])
{
	v[0] = v[1] = NAN;
	return lb_json_get_pair(rd, o, w, key, kind, v);
}

/* An integer at @key of @o into *@v, required. Returns 0 or -EINVAL. */
static int lb_sweep_read_int(struct lb_reader *rd, const struct json_object *o, const char *w,
			     const char *key, int *v)
{
	int ret = lb_json_get_int(rd, o, w, key, LB_NUM_COUNT, v);

	if (!ret && !json_object_object_get_ex(o, key, NULL))
		return lb_reader_fail(rd, "%s: no \"%s\"", w, key);
	return ret;
}

/* One probe set's entry @o (at @w) into @set, its points at most @maxp. */
static int lb_sweep_read_set(struct lb_reader *rd, const struct json_object *o, const char *w,
			     size_t maxp, struct lb_sweep_set *set)
{
	struct json_object *pts, *fit, *po;
	char wp[128];
	int ret, n;

	if (!json_object_is_type(o, json_type_object))
		return lb_reader_fail(rd, "%s: expected an object", w);
	ret = lb_json_get_str(rd, o, w, "name", &set->name);
	if (!ret && !set->name)
		ret = lb_reader_fail(rd, "%s: no \"name\"", w);
	if (!ret && lb_json_get(rd, o, w, "points", json_type_array, &pts) <= 0)
		ret = lb_reader_fail(rd, "%s: no \"points\" array", w);
	if (ret)
		return ret;
	set->npoints = json_object_array_length(pts);
	if (set->npoints > maxp)
		return lb_reader_fail(rd, "%s.points: %zu points, more than the %zu values", w,
				      set->npoints, maxp);
	set->points = calloc(set->npoints ? set->npoints : 1, sizeof(*set->points));
	if (!set->points)
		return -ENOMEM;
	for (size_t i = 0; i < set->npoints && !ret; i++) {
		struct lb_sweep_point *p = &set->points[i];

		snprintf(wp, sizeof(wp), "%s.points[%zu]", w, i);
		po = json_object_array_get_idx(pts, i);
		if (!json_object_is_type(po, json_type_object))
			return lb_reader_fail(rd, "%s: expected an object", wp);
		ret = lb_sweep_read_int(rd, po, wp, "value", &p->value);
		if (!ret)
			ret = lb_json_get_double(rd, po, wp, "events_per_op", LB_NUM_PER_OP,
						 &p->events_per_op);
		if (!ret)
			ret = lb_json_get_double(rd, po, wp, "slowdown_pct", LB_NUM_SLOWDOWN_PCT,
						 &p->slowdown_pct);
		if (!ret)
			ret = lb_sweep_read_pair(rd, po, wp, "slowdown_ci95", LB_NUM_PCT_CI,
						 p->slowdown_ci95);
		if (!ret)
			ret = lb_json_get_double(rd, po, wp, "added_ns_per_op", LB_NUM_NS_DIFF,
						 &p->added_ns);
		if (!ret)
			ret = lb_sweep_read_pair(rd, po, wp, "added_ns_per_op_ci95", LB_NUM_NS_DIFF,
						 p->added_ns_ci95);
		if (!ret)
			ret = lb_json_get_double(rd, po, wp, "ns_per_event", LB_NUM_NS_DIFF,
						 &p->ns_per_event);
	}
	if (ret)
		return ret;
	snprintf(wp, sizeof(wp), "%s.fit", w);
	if (lb_json_get(rd, o, w, "fit", json_type_object, &fit) <= 0)
		return lb_reader_fail(rd, "%s: no \"fit\" object", w);
	ret = lb_sweep_read_int(rd, fit, wp, "points", &n);
	if (!ret && (n < 0 || (size_t)n > set->npoints))
		ret = lb_reader_fail(rd, "%s.points: %d, not 0 to %zu", wp, n, set->npoints);
	set->fit.n = ret ? 0 : (size_t)n;
	if (!ret)
		ret = lb_json_get_double(rd, fit, wp, "slope_ns_per_event", LB_NUM_NS_DIFF,
					 &set->fit.slope);
	if (!ret)
		ret = lb_sweep_read_pair(rd, fit, wp, "slope_ci95", LB_NUM_NS_DIFF,
					 set->fit.slope_ci95);
	if (!ret)
		ret = lb_json_get_double(rd, fit, wp, "intercept_ns_per_op", LB_NUM_NS_DIFF,
					 &set->fit.intercept);
	if (!ret)
		ret = lb_sweep_read_pair(rd, fit, wp, "intercept_ci95", LB_NUM_NS_DIFF,
					 set->fit.intercept_ci95);
	if (!ret)
		ret = lb_json_get_double(rd, fit, wp, "r2", LB_NUM_R2, &set->fit.r2);
	return ret;
}

int lb_sweep_read_json(const char *path, struct lb_sweep **out, char *err, size_t len)
{
	struct lb_reader rd = {.path = path, .err = err, .errlen = len};
	struct json_object *root, *vals, *sets, *v;
	struct lb_sweep *s = NULL;
	char w[64], q[LB_STR_SHORT_BUF];
	int ret, fd;

	*out = NULL;
	err[0] = '\0';
	lb_str_short(path, q, sizeof(q));
	fd = lb_open_regular(path);
	if (fd == -EINVAL) {
		snprintf(err, len, "%s is not a regular file (%s): not a sweep's results; give the "
			 "directory of a loadbench --sweep run (its --output)", q,
			 lb_file_kind(path));
		return fd;
	}
	if (fd < 0) {
		snprintf(err, len, "%s: %s", q, strerror(-fd));
		return fd;
	}
	root = json_object_from_fd(fd);
	close(fd);
	if (!root) {
		snprintf(err, len, "%s: %s", q, json_util_get_last_err());
		err[strcspn(err, "\n")] = '\0'; /* json-c's message ends with one */
		return -EINVAL;
	}
	if (!json_object_is_type(root, json_type_object)) {
		ret = lb_reader_fail(&rd, "the top level is not an object");
		goto out;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ret = -ENOMEM;
		goto out;
	}
	ret = lb_json_get_str(&rd, root, "sweep", "key", &s->key);
	if (!ret && !s->key)
		ret = lb_reader_fail(&rd, "no \"key\": not a sweep.json");
	if (!ret && lb_json_get(&rd, root, "sweep", "values", json_type_array, &vals) <= 0)
		ret = lb_reader_fail(&rd, "no \"values\" array");
	if (!ret && lb_json_get(&rd, root, "sweep", "probesets", json_type_array, &sets) <= 0)
		ret = lb_reader_fail(&rd, "no \"probesets\" array");
	if (ret)
		goto out;
	s->nvalues = json_object_array_length(vals);
	s->nsets = json_object_array_length(sets);
	if (s->nvalues < 1 || s->nvalues > LB_SWEEP_MAX_VALUES || s->nsets > LB_SWEEP_MAX_SETS) {
		ret = lb_reader_fail(&rd, "%zu values and %zu probe sets: expected 1 to %d and at most "
				     "%d", s->nvalues, s->nsets, LB_SWEEP_MAX_VALUES,
				     LB_SWEEP_MAX_SETS);
		goto out;
	}
	s->values = calloc(s->nvalues, sizeof(*s->values));
	s->sets = calloc(s->nsets ? s->nsets : 1, sizeof(*s->sets));
	if (!s->values || !s->sets) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < s->nvalues; i++) {
		v = json_object_array_get_idx(vals, i);
		if (!json_object_is_type(v, json_type_int)) {
			ret = lb_reader_fail(&rd, "values[%zu]: expected an integer", i);
			goto out;
		}
		s->values[i] = json_object_get_int(v);
	}
	for (size_t k = 0; k < s->nsets && !ret; k++) {
		snprintf(w, sizeof(w), "probesets[%zu]", k);
		ret = lb_sweep_read_set(&rd, json_object_array_get_idx(sets, k), w, s->nvalues,
					&s->sets[k]);
	}
out:
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	json_object_put(root);
	if (ret) {
		lb_sweep_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int lb_sweep_dir_read(const char *dir, struct lb_sweep **out, char *err, size_t len)
{
	char path[4096];

	*out = NULL;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (!access(path, F_OK))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	if (access(path, F_OK))
		return -ENOENT;
	return lb_sweep_read_json(path, out, err, len);
}
