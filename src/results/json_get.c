// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Typed lookups in the json-c tree of a results.json being read: each finds
 * a key of the wanted type or says, in one line naming the file and the
 * field's path ("PATH: probesets[2].runs[0].ops: expected an integer, found
 * string"), what is wrong; and the caps on how many entries a file may
 * hold.
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
#include "util.h"

/*
 * Put "PATH: MESSAGE" in the caller's error buffer; returns -EINVAL. Strings
 * from the file (and the path) go to a terminal: escape them (lb_str_safe()).
 */
int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

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
 * type other than @type; json_type_double also accepts integers.
 */
int lb_json_get(struct lb_reader *rd, const struct json_object *obj, const char *where,
		const char *key, enum json_type type, struct json_object **val)
{
	struct json_object *v = NULL;
	enum json_type t;

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

int lb_json_get_str(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, char **out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_string, &v);

	if (ret <= 0)
		return ret;
	free(*out);
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

int lb_json_get_double(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       const char *key, double *out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_double, &v);

	*out = NAN;
	if (ret <= 0)
		return ret;
	*out = json_object_get_double(v);
	return 0;
}

/* As lb_json_get_double(), but *@out keeps its value when @key is not there (null is NAN). */
int lb_json_get_double_present(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, const char *key, double *out)
{
	if (!json_object_object_get_ex(obj, key, NULL))
		return 0;
	return lb_json_get_double(rd, obj, where, key, out);
}

int lb_json_get_u64(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, uint64_t *out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_int, &v);

	*out = 0;
	if (ret <= 0)
		return ret;
	/* Written as int64 (see lb_jb_int); the cast back restores every uint64. */
	*out = (uint64_t)json_object_get_int64(v);
	return 0;
}

int lb_json_get_int(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, int *out)
{
	struct json_object *v;
	int ret = lb_json_get(rd, obj, where, key, json_type_int, &v);
	int64_t x;

	if (ret <= 0)
		return ret;
	x = json_object_get_int64(v);
	if (x < INT_MIN || x > INT_MAX)
		return lb_reader_fail(rd, "%s%s%s: %" PRId64 " is out of range", where,
				      *where ? "." : "", key, x);
	*out = (int)x;
	return 0;
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

/* A number or null at index @i of @arr. */
int lb_json_array_double(struct lb_reader *rd, const struct json_object *arr, size_t i,
			 const char *where, double *out)
{
	struct json_object *v = json_object_array_get_idx(arr, i);
	enum json_type t = json_object_get_type(v);

	*out = NAN;
	if (!v)
		return 0;
	if (t != json_type_double && t != json_type_int)
		return lb_reader_fail(rd, "%s[%zu]: expected a number, found %s", where, i,
				      lb_json_type_name(v));
	*out = json_object_get_double(v);
	return 0;
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
