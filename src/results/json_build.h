/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A json-c tree built with a sticky error: any allocation that fails sets
 * the builder's oom, and every later addition is a no-op that still frees
 * what it was given. results.json (json_write.c) and the CI exports
 * (output/export.c) build with it; the caller checks oom once at the end.
 */
#ifndef LB_JSON_BUILD_H
#define LB_JSON_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

struct lb_jb {
	bool oom;
};

/*
 * lb_jb_put - add @val under @key of the object @parent, or append it to
 * the array @parent when @key is NULL. @val NULL stands for JSON null when
 * @is_null, for a failed allocation otherwise. Ownership of @val always
 * passes. Returns true when @val was added.
 */
bool lb_jb_put(struct lb_jb *jb, struct json_object *parent, const char *key,
	       struct json_object *val, bool is_null);

/* lb_jb_child - a new object (array when @array) added to @parent; NULL after a failure. */
struct json_object *lb_jb_child(struct lb_jb *jb, struct json_object *parent, const char *key,
				bool array);

/* lb_jb_str - the string @s, or JSON null when @s is NULL. */
void lb_jb_str(struct lb_jb *jb, struct json_object *parent, const char *key, const char *s);

/*
 * lb_jb_double - @d in the shortest form that reads back as the same
 * double; JSON null when it is not finite.
 */
void lb_jb_double(struct lb_jb *jb, struct json_object *parent, const char *key, double d);

/* lb_jb_int - the integer @v. */
void lb_jb_int(struct lb_jb *jb, struct json_object *parent, const char *key, int64_t v);

/* lb_jb_bool - true or false. */
void lb_jb_bool(struct lb_jb *jb, struct json_object *parent, const char *key, bool v);

/* lb_jb_pair - [@v[0], @v[1]] (each as lb_jb_double()) under @key. */
void lb_jb_pair(struct lb_jb *jb, struct json_object *parent, const char *key, const double v[2]);

#endif
