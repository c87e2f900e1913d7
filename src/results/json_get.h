/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed lookups in the json-c tree of a results.json being read (internal
 * to src/results: json_read.c). Every failure is one line "PATH: WHERE.KEY:
 * what is wrong" in the reader's error buffer and -EINVAL.
 */
#ifndef LB_JSON_GET_H
#define LB_JSON_GET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* One file being read: where its errors go, and what it has held so far. */
struct lb_reader {
	const char *path;
	char *err;
	size_t errlen;
	size_t nruns;		/* runs read so far, of every entry: LB_RESULTS_MAX_RUNS */
	size_t nslices;		/* slices read so far, of every entry: LB_RESULTS_MAX_SLICES */
};

/* lb_reader_fail - "PATH: MESSAGE" into @rd's error buffer, strings escaped. Returns -EINVAL. */
int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* lb_json_type_name - the name of @o's JSON type ("string", "null", ...). */
const char *lb_json_type_name(const struct json_object *o);

/*
 * lb_json_get - @key of @obj (at path @where) of type @type, in *@val.
 * Returns 1 when there, 0 when missing or null, or -EINVAL when of another
 * type (json_type_double also takes integers).
 */
int lb_json_get(struct lb_reader *rd, const struct json_object *obj, const char *where,
		const char *key, enum json_type type, struct json_object **val);

/*
 * The value of @key of @obj, converted, into *@out; each returns 0 (also
 * when the key is missing or null) or -errno. lb_json_get_str() replaces
 * *@out by a copy; lb_json_get_double() sets NAN and lb_json_get_u64() 0
 * when missing; lb_json_get_int() refuses what does not fit an int;
 * lb_json_get_double_present() leaves *@out as it was when the key is not
 * there at all.
 */
int lb_json_get_str(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, char **out);
int lb_json_get_double(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       const char *key, double *out);
int lb_json_get_double_present(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, const char *key, double *out);
int lb_json_get_u64(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, uint64_t *out);
int lb_json_get_int(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, int *out);
int lb_json_get_bool(struct lb_reader *rd, const struct json_object *obj, const char *where,
		     const char *key, bool *out);

/* lb_json_array_double - the number (NAN for null) at @i of @arr into *@out. Returns 0 or -EINVAL. */
int lb_json_array_double(struct lb_reader *rd, const struct json_object *arr, size_t i,
			 const char *where, double *out);

/*
 * lb_reader_cap - refuse @n more entries of @what at @where past @cap,
 * counting every entry's together in *@total when not NULL. Returns 0 or
 * -EINVAL.
 */
int lb_reader_cap(struct lb_reader *rd, const char *where, const char *what, size_t n,
		  size_t *total, size_t cap);

#endif
