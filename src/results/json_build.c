// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A json-c tree built with a sticky error (json_build.h).
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "json_build.h"
#include "results_int.h"

bool lb_jb_put(struct lb_jb *jb, struct json_object *parent, const char *key,
	       struct json_object *val, bool is_null)
{
	int ret;

	if (!val && !is_null) {
		jb->oom = true;
		return false;
	}
	if (!parent) {
		json_object_put(val);
		return false;
	}
	ret = key ? json_object_object_add(parent, key, val) : json_object_array_add(parent, val);
	if (ret) {
		json_object_put(val);
		jb->oom = true;
		return false;
	}
	return true;
}

struct json_object *lb_jb_child(struct lb_jb *jb, struct json_object *parent, const char *key,
				bool array)
{
	struct json_object *child = array ? json_object_new_array() : json_object_new_object();

	return lb_jb_put(jb, parent, key, child, false) ? child : NULL;
}

void lb_jb_str(struct lb_jb *jb, struct json_object *parent, const char *key, const char *s)
{
	lb_jb_put(jb, parent, key, s ? json_object_new_string(s) : NULL, !s);
}

void lb_jb_double(struct lb_jb *jb, struct json_object *parent, const char *key, double d)
{
	char buf[40];

	if (!isfinite(d)) {
		lb_jb_put(jb, parent, key, NULL, true);
		return;
	}
	lb_format_double(buf, sizeof(buf), d);
	lb_jb_put(jb, parent, key, json_object_new_double_s(d, buf), false);
}

void lb_jb_int(struct lb_jb *jb, struct json_object *parent, const char *key, int64_t v)
{
	lb_jb_put(jb, parent, key, json_object_new_int64(v), false);
}

void lb_jb_bool(struct lb_jb *jb, struct json_object *parent, const char *key, bool v)
{
	lb_jb_put(jb, parent, key, json_object_new_boolean(v), false);
}

void lb_jb_pair(struct lb_jb *jb, struct json_object *parent, const char *key, const double v[2])
{
	struct json_object *arr = lb_jb_child(jb, parent, key, true);

	lb_jb_double(jb, arr, NULL, v[0]);
	lb_jb_double(jb, arr, NULL, v[1]);
}
