// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Typed lookups in the json-c tree of a results.json being read: each finds
 * a key of the wanted type or says, in one line naming the file and the
 * field's path ("PATH: probesets[2].runs[0].ops: expected an integer, found
 * string"), what is wrong; and the caps on how many entries a file may
 * hold. Each returns at once, doing nothing, once the reader has failed.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json_get.h"
#include "results_int.h"
#include "util.h"

/*
 * Put "PATH: MESSAGE" in the caller's error buffer, -EINVAL as the reader's
 * failure unless it has one; returns -EINVAL. Strings from the file (and
 * the path) go to a terminal: escape them (lb_str_safe()).
 */
int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	lb_reader_note(rd, -EINVAL);
	if (!rd->err || !rd->errlen)
		return -EINVAL;
	n = snprintf(rd->err, rd->errlen, "%s: ", lb_str_safe(rd->path, path, sizeof(path)));
	if (n >= 0 && (size_t)n < rd->errlen) {
		va_start(ap, fmt);
		vsnprintf(rd->err + n, rd->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int lb_reader_note(struct lb_reader *rd, int err)
{
	if (!rd->ret)
		rd->ret = err;
	return rd->ret;
}

const char *lb_json_type_name(const struct json_object *o)
{
	return json_type_to_name(json_object_get_type(o));
}

static const char *lb_json_type_wanted(enum json_type type)
{
	switch (type) {
	case json_type_boolean:
		return "true or false";
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	default:
		return "null";
	}
}

/*
 * Look up @key in @obj. Returns 1 and sets *@val when present and not null,
 * 0 when missing or null, or -EINVAL (with the message) when present with a
 * type other than @type; json_type_double also accepts integers. Once @rd
 * has failed: its failure, *@val untouched.
 */
int lb_json_get(struct lb_reader *rd, const struct json_object *obj, const char *where,
		const char *key, enum json_type type, struct json_object **val)
{
	struct json_object *v = NULL;
	enum json_type t;

	if (rd->ret)
		return rd->ret;
	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	t = json_object_get_type(v);
	if (t != type && !(type == json_type_double && t == json_type_int))
		return lb_reader_fail(rd, "%s%s%s: expected %s, found %s", where,
				      *where ? "." : "", key, lb_json_type_wanted(type),
				      lb_json_type_name(v));
	*val = v;
	return 1;
}

/*
 * The range of each kind of number (enum lb_num), with its text for the
 * messages. Wide enough for whatever a run can write: a slowdown is at most
 * 100% (the traced throughput is not below 0) and below -1e6% only when
 * tracing made the workload ten thousand times faster; a throughput of
 * 1e12 operations per second, a time of 1e18 ns (31 years), 1e19 events
 * per operation (a uint64 over one) are past any real run. What gnuplot
 * cannot plot (1e308) or a table cannot print is far outside.
 */
static const struct {
	double min, max;
	const char *text;
} lb_num_ranges[LB_NUM_NKINDS] = {
#define LB_RANGE(kind, lo, hi) [kind] = { lo, hi, "[" #lo ", " #hi "]" }
	LB_RANGE(LB_NUM_SLOWDOWN_PCT, -1e6, 100),
	LB_RANGE(LB_NUM_ADDED_PCT, -100, 1e6),
	LB_RANGE(LB_NUM_PCT_CI, -1e6, 1e6),
	LB_RANGE(LB_NUM_SHARE_PCT, 0, 100),
	LB_RANGE(LB_NUM_WIDE_PCT, 0, 1e6),
	LB_RANGE(LB_NUM_CV, 0, 1e6),
	LB_RANGE(LB_NUM_R2, 0, 1),
	LB_RANGE(LB_NUM_THROUGHPUT, 0, 1e12),
	LB_RANGE(LB_NUM_PER_OP, 0, 1e19),
	LB_RANGE(LB_NUM_US_PER_OP, 0, 1e15),
	LB_RANGE(LB_NUM_NS, 0, 1e18),
	LB_RANGE(LB_NUM_NS_DIFF, -1e18, 1e18),
	LB_RANGE(LB_NUM_MS, 0, 1e12),
	LB_RANGE(LB_NUM_SECONDS, 0, 1e9),
	LB_RANGE(LB_NUM_COUNT, 0, 2147483647),
	LB_RANGE(LB_NUM_INDEX, -1, 2147483647),
	LB_RANGE(LB_NUM_SWITCH, -1, 1),
#undef LB_RANGE
};

/* "WHERE.KEY" (@key not NULL) or "WHERE[I]" into @buf: the field a message names. */
static const char *lb_field_name(char *buf, size_t len, const char *where, const char *key,
				 size_t i)
{
	if (key)
		snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
	else
		snprintf(buf, len, "%s[%zu]", where, i);
	return buf;
}

/* @x (at @field) when finite and in the range of @kind; else -EINVAL with the message. */
static int lb_num_check(struct lb_reader *rd, const char *field, double x, enum lb_num kind)
{
	char num[40];

	if (isfinite(x) && x >= lb_num_ranges[kind].min && x <= lb_num_ranges[kind].max)
		return 0;
	lb_format_double(num, sizeof(num), x);
	return lb_reader_fail(rd, "%s: %s is out of range %s: the file is damaged or not "
			      "loadbench's", field, num, lb_num_ranges[kind].text);
}

/*
 * The count @v (at @field) into *@out: written as int64 (see lb_jb_int), so
 * below 0 or above INT64_MAX (json-c keeps a larger one as uint64) it is
 * not a count loadbench wrote.
 */
static int lb_count_from(struct lb_reader *rd, const char *field, struct json_object *v,
			 uint64_t *out)
{
	int64_t x = json_object_get_int64(v);

	if (x < 0 || (x == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX))
		return lb_reader_fail(rd, "%s: %s is out of range [0, %" PRId64 "]: the file is "
				      "damaged or not loadbench's", field,
				      json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
				      INT64_MAX);
	*out = (uint64_t)x;
	return 0;
}

int lb_json_get_str(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, char **out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_string, &v);

	if (ret <= 0)
		return ret;
	free(*out);
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : lb_reader_note(rd, -ENOMEM);
}

int lb_json_get_double(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       const char *key, enum lb_num kind, double *out)
{
	struct json_object *v;
	char field[192];
	int ret;

	if (rd->ret)
		return rd->ret;
	ret = lb_json_get(rd, obj, where, key, json_type_double, &v);
	*out = NAN;
	if (ret <= 0)
		return ret;
	ret = lb_num_check(rd, lb_field_name(field, sizeof(field), where, key, 0),
			   json_object_get_double(v), kind);
	if (!ret)
		*out = json_object_get_double(v);
	return ret;
}

/* As lb_json_get_double(), but *@out keeps its value when @key is not there (null is NAN). */
int lb_json_get_double_present(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, const char *key, enum lb_num kind, double *out)
{
	if (rd->ret)
		return rd->ret;
	if (!json_object_object_get_ex(obj, key, NULL))
		return 0;
	return lb_json_get_double(rd, obj, where, key, kind, out);
}

int lb_json_get_u64(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, uint64_t *out)
{
	struct json_object *v;
	char field[192];
	int ret;

	if (rd->ret)
		return rd->ret;
	ret = lb_json_get(rd, obj, where, key, json_type_int, &v);
	*out = 0;
	if (ret <= 0)
		return ret;
	return lb_count_from(rd, lb_field_name(field, sizeof(field), where, key, 0), v, out);
}

int lb_json_get_int(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, enum lb_num kind, int *out)
{
	struct json_object *v;
	char field[192];
	int ret = lb_json_get(rd, obj, where, key, json_type_int, &v);
	int64_t x;

	if (ret <= 0)
		return ret;
	x = json_object_get_int64(v);
	lb_field_name(field, sizeof(field), where, key, 0);
	if (x < INT_MIN || x > INT_MAX)
		return lb_reader_fail(rd, "%s: %" PRId64 " is out of range", field, x);
	ret = lb_num_check(rd, field, (double)x, kind);
	if (!ret)
		*out = (int)x;
	return ret;
}

int lb_json_get_bool(struct lb_reader *rd, const struct json_object *obj, const char *where,
		     const char *key, bool *out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_boolean, &v);

	if (ret <= 0)
		return ret;
	*out = json_object_get_boolean(v);
	return 0;
}

/* [low, high], each end of @kind or null, low not above high. */
int lb_json_get_pair(struct lb_reader *rd, const struct json_object *obj, const char *where,
		     const char *key, enum lb_num kind, double out[2])
{
	struct json_object *arr;
	char w[192], lo[40], hi[40];
	double v[2];
	int ret;

	ret = lb_json_get(rd, obj, where, key, json_type_array, &arr);
	if (ret <= 0)
		return ret;
	lb_field_name(w, sizeof(w), where, key, 0);
	if (json_object_array_length(arr) != 2)
		return lb_reader_fail(rd, "%s: expected [low, high], found %zu elements", w,
				      json_object_array_length(arr));
	ret = lb_json_array_double(rd, arr, 0, w, kind, &v[0]);
	if (!ret)
		ret = lb_json_array_double(rd, arr, 1, w, kind, &v[1]);
	if (ret)
		return ret;
	if (v[0] > v[1]) {
		lb_format_double(lo, sizeof(lo), v[0]);
		lb_format_double(hi, sizeof(hi), v[1]);
		return lb_reader_fail(rd, "%s: low %s is above high %s: the file is damaged or "
				      "not loadbench's", w, lo, hi);
	}
	out[0] = v[0];
	out[1] = v[1];
	return 0;
}

/* A number of @kind or null at index @i of @arr. */
int lb_json_array_double(struct lb_reader *rd, const struct json_object *arr, size_t i,
			 const char *where, enum lb_num kind, double *out)
{
	struct json_object *v = json_object_array_get_idx(arr, i);
	enum json_type t = json_object_get_type(v);
	char field[192];

	if (rd->ret)
		return rd->ret;
	*out = NAN;
	if (!v)
		return 0;
	if (t != json_type_double && t != json_type_int)
		return lb_reader_fail(rd, "%s[%zu]: expected a number, found %s", where, i,
				      lb_json_type_name(v));
	if (lb_num_check(rd, lb_field_name(field, sizeof(field), where, NULL, i),
			 json_object_get_double(v), kind))
		return -EINVAL;
	*out = json_object_get_double(v);
	return 0;
}

/* A count at index @i of @arr. */
int lb_json_array_u64(struct lb_reader *rd, const struct json_object *arr, size_t i,
		      const char *where, uint64_t *out)
{
	struct json_object *v = json_object_array_get_idx(arr, i);
	char field[192];

	if (rd->ret)
		return rd->ret;
	if (!json_object_is_type(v, json_type_int))
		return lb_reader_fail(rd, "%s[%zu]: expected an integer, found %s", where, i,
				      lb_json_type_name(v));
	return lb_count_from(rd, lb_field_name(field, sizeof(field), where, NULL, i), v, out);
}

/*
 * Refuse @n more entries of @what in the array at @where when they and the
 * *@total read before pass @cap (every entry's together when @total is not
 * NULL); count them in *@total.
 */
int lb_reader_cap(struct lb_reader *rd, const char *where, const char *what, size_t n,
		  size_t *total, size_t cap)
{
	size_t before = total ? *total : 0;

	if (rd->ret)
		return rd->ret;
	if (n > cap - before) {
		if (before)
			return lb_reader_fail(rd, "%s: %zu %s, %zu with those of the entries "
					      "before: more than the %zu a results file may hold",
					      where, n, what, before + n, cap);
		return lb_reader_fail(rd, "%s: %zu %s, more than the %zu a results file may hold",
				      where, n, what, cap);
	}
	if (total)
		*total += n;
	return 0;
}
