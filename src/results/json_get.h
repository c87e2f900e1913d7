/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Typed lookups in the json-c tree of a results.json being read (internal
 * to src/results: json_read.c, and sweep.c for sweep.json). Every failure is
 * one line "PATH: WHERE.KEY: what is wrong" in the reader's error buffer and
 * -EINVAL; the first one sticks (struct lb_reader).
 */
#ifndef LB_JSON_GET_H
#define LB_JSON_GET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/*
 * One file being read: where its errors go, what it has held so far, and
 * its first failure. The failure is sticky, as json_write.c's writer's:
 * once @ret is set, every lookup below returns it at once and changes
 * nothing, so a reader makes its lookups one after the other and checks
 * @ret once, where a value read decides what comes next, and at its end.
 */
struct lb_reader {
	const char *path;
	char *err;
	size_t errlen;
	size_t nruns;		/* runs read so far, of every entry: LB_RESULTS_MAX_RUNS */
	size_t nslices;		/* slices read so far, of every entry: LB_RESULTS_MAX_SLICES */
	int ret;		/* the first failure (-EINVAL, -ENOMEM), 0 while none */
};

/*
 * lb_reader_fail - "PATH: MESSAGE" into @rd's error buffer, strings
 * escaped, and -EINVAL as @rd's failure unless it has one. The lookups call
 * it only while @rd has not failed, so their message is the first
 * failure's; a caller's own call writes its message in any case (sweep.c
 * names what is missing over what was wrong). Returns -EINVAL.
 */
int lb_reader_fail(struct lb_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * lb_reader_note - @err (0 or -errno, from something other than a lookup:
 * an allocation, an add) as @rd's failure unless it has one. Returns @rd's
 * failure, 0 while none.
 */
int lb_reader_note(struct lb_reader *rd, int err);

/* lb_json_type_name - the name of @o's JSON type ("string", "null", ...). */
const char *lb_json_type_name(const struct json_object *o);

/*
 * lb_json_get - @key of @obj (at path @where) of type @type, in *@val.
 * Returns 1 when there, 0 when missing or null, or -EINVAL when of another
 * type (json_type_double also takes integers); @rd's failure when it has
 * one, *@val untouched.
 */
int lb_json_get(struct lb_reader *rd, const struct json_object *obj, const char *where,
		const char *key, enum json_type type, struct json_object **val);

/*
 * What a number in results.json means, and so the values it may take: a
 * value outside its kind's range, or not finite, is refused ("PATH:
 * FIELD: 1e+308 is out of range [-1e6, 100]: the file is damaged or not
 * loadbench's"), so that the tables and gnuplot get only what a run can
 * write. null stays the missing value. The ranges are in lb_num_ranges[]
 * (json_get.c) and doc/results-schema.md.
 */
enum lb_num {
	LB_NUM_SLOWDOWN_PCT,	/* 100 * (1 - traced / base) */
	LB_NUM_ADDED_PCT,	/* 100 * (traced / base - 1) of a latency */
	LB_NUM_PCT_CI,		/* an end of either's 95% CI: widened by t/z, it passes 100 and -100 */
	LB_NUM_SHARE_PCT,	/* a part of a whole, in % */
	LB_NUM_WIDE_PCT,	/* a % or pp that may pass 100: % of one CPU, a CI's half width */
	LB_NUM_CV,		/* a coefficient of variation */
	LB_NUM_R2,		/* a line's coefficient of determination */
	LB_NUM_THROUGHPUT,	/* operations (or --metric) per second */
	LB_NUM_PER_OP,		/* events per operation */
	LB_NUM_US_PER_OP,	/* CPU microseconds per operation */
	LB_NUM_NS,		/* a time in nanoseconds */
	LB_NUM_NS_DIFF,		/* a time added (or taken) in nanoseconds, per event or op */
	LB_NUM_MS,		/* a time in milliseconds */
	LB_NUM_SECONDS,		/* a time in seconds */
	LB_NUM_COUNT,		/* an int that counts, a size or a round */
	LB_NUM_INDEX,		/* a CPU or a unit, -1 for none */
	LB_NUM_SWITCH,		/* a setting: 0 off, 1 on, -1 unknown */
	LB_NUM_NKINDS
};

/*
 * The value of @key of @obj, converted, into *@out; each returns 0 (also
 * when the key is missing or null) or -errno, and once @rd has failed its
 * failure at once, *@out untouched (as do the lookups below it).
 * lb_json_get_str() replaces *@out by a copy; lb_json_get_double() sets NAN
 * and lb_json_get_u64() 0 when missing; lb_json_get_double() and lb_json_get_int() refuse what is
 * outside the range of @kind (and lb_json_get_int() what does not fit an
 * int), lb_json_get_u64() a count below 0 or above INT64_MAX;
 * lb_json_get_double_present() leaves *@out as it was when the key is not
 * there at all.
 */
int lb_json_get_str(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, char **out);
int lb_json_get_double(struct lb_reader *rd, const struct json_object *obj, const char *where,
		       const char *key, enum lb_num kind, double *out);
int lb_json_get_double_present(struct lb_reader *rd, const struct json_object *obj,
			       const char *where, const char *key, enum lb_num kind, double *out);
int lb_json_get_u64(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, uint64_t *out);
int lb_json_get_int(struct lb_reader *rd, const struct json_object *obj, const char *where,
		    const char *key, enum lb_num kind, int *out);
int lb_json_get_bool(struct lb_reader *rd, const struct json_object *obj, const char *where,
		     const char *key, bool *out);

/*
 * lb_json_get_pair - the [low, high] of @kind under @key of @obj into @out
 * (left as it was when absent or null; an end may be null: NAN). Returns 0,
 * or -EINVAL when not two numbers in range with low <= high.
 */
int lb_json_get_pair(struct lb_reader *rd, const struct json_object *obj, const char *where,
		     const char *key, enum lb_num kind, double out[2]);

/*
 * lb_json_array_double - the number of @kind (NAN for null) at @i of @arr
 * into *@out. Returns 0 or -EINVAL.
 */
int lb_json_array_double(struct lb_reader *rd, const struct json_object *arr, size_t i,
			 const char *where, enum lb_num kind, double *out);

/* lb_json_array_u64 - the count at @i of @arr into *@out, as lb_json_get_u64(). Returns 0 or -EINVAL. */
int lb_json_array_u64(struct lb_reader *rd, const struct json_object *arr, size_t i,
		      const char *where, uint64_t *out);

/*
 * lb_reader_cap - refuse @n more entries of @what at @where past @cap,
 * counting every entry's together in *@total when not NULL. Returns 0 or
 * -EINVAL.
 */
int lb_reader_cap(struct lb_reader *rd, const char *where, const char *what, size_t n,
		  size_t *total, size_t cap);

#endif
