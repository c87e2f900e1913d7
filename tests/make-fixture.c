// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * make-fixture [--vm] IN.json N OUT.json: results of N probe sets made from a real
 * run's results.json, for the figure tests (1, 2, 14 and 31 sets: the whole
 * catalog). The first sets are IN's own, as measured; when N is larger,
 * further sets are copies of IN's under the catalog's other names, their
 * slowdown, cost and latency scaled so that the values spread as the
 * catalog's do (strace's microseconds beside bpf's tens of nanoseconds).
 * With --vm, the results are those of the VM runner under TCG cut short (as
 * the whole catalog runs there): emulated and incomplete, so every figure
 * carries both notes. A set whose compare-with set is not kept loses that line. Prints the
 * sets' names, one a line. Exit 0, or 1 with the reason.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* The catalog's names (probesets/), the order copies take them in. */
static const char *const catalog[] = {
	"bpf", "bpf-raw", "bpf-syscalls", "ftrace", "ftrace-consumer", "ftrace-consumer-other",
	"perf", "perf-count", "perf-syscalls", "perf-syscalls-pid", "strace", "syscalls",
	"syscalls-pid", "uprobe", "bpf+kprobe", "bpf+kprobe-int3", "bpf+kretprobe",
	"ftrace+kprobe", "ftrace+kprobe-int3", "ftrace+kretprobe", "lttng", "lttng+kprobe",
	"lttng+kprobe-int3", "lttng+kretprobe", "lttng-syscalls", "lttng-syscalls-pid", "stap",
	"stap+kprobe", "stap-syscalls", "stap-syscalls-pid", "all",
};

#define NCATALOG (sizeof(catalog) / sizeof(catalog[0]))

static bool taken(json_object *sets, const char *name)
{
	for (size_t i = 0; i < json_object_array_length(sets); i++) {
		json_object *n;

		if (json_object_object_get_ex(json_object_array_get_idx(sets, i), "name", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return true;
	}
	return false;
}

/* Multiply the number @key of @o (a double, or each of a [low, high] pair) by @f. */
static void scale(json_object *o, const char *key, double f)
{
	json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return;
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			json_object *e = json_object_array_get_idx(v, i);

			if (json_object_is_type(e, json_type_double) ||
			    json_object_is_type(e, json_type_int))
				json_object_array_put_idx(v, i, json_object_new_double(
					json_object_get_double(e) * f));
		}
	} else if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
		json_object_object_add(o, key, json_object_new_double(json_object_get_double(v) * f));
	}
}

/* The slices of @set that name it @from as the set that was on now name it @to. */
static void rename_slices(json_object *set, const char *from, const char *to)
{
	json_object *slices, *on;

	if (!json_object_object_get_ex(set, "slices", &slices))
		return;
	for (size_t i = 0; i < json_object_array_length(slices); i++) {
		json_object *sl = json_object_array_get_idx(slices, i);

		if (json_object_object_get_ex(sl, "on", &on) && json_object_is_type(on, json_type_string) &&
		    !strcmp(json_object_get_string(on), from))
			json_object_object_add(sl, "on", json_object_new_string(to));
	}
}

/* Copy @k (k >= 1) of a set: its slowdown scaled by @f (kept under 97%), its cost by @g. */
static void spread(json_object *set, double f, double g)
{
	json_object *s, *v;

	if (!json_object_object_get_ex(set, "summary", &s))
		return;
	if (json_object_object_get_ex(s, "slowdown_pct", &v) &&
	    fabs(json_object_get_double(v) * f) > 97)
		f = 97 / fabs(json_object_get_double(v));
	scale(s, "slowdown_pct", f);
	scale(s, "slowdown_ci95", f);
	scale(s, "ns_per_event", g);
	scale(s, "ns_per_event_ci95", g);
	scale(s, "events_per_op", f / g);
}

int main(int argc, char **argv)
{
	json_object *root, *sets, *out, *copy, *v;
	size_t n, m, next = 0;
	bool vm = argc > 1 && !strcmp(argv[1], "--vm");
	char *end;

	if (vm) {
		argv++;
		argc--;
	}
	if (argc != 4 || (n = strtoul(argv[2], &end, 10)) == 0 || *end) {
		fprintf(stderr, "usage: make-fixture [--vm] IN.json N OUT.json\n");
		return 1;
	}
	root = json_object_from_file(argv[1]);
	if (!root || !json_object_object_get_ex(root, "probesets", &sets) ||
	    !(m = json_object_array_length(sets))) {
		fprintf(stderr, "make-fixture: %s: no probesets\n", argv[1]);
		return 1;
	}
	out = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *src = json_object_array_get_idx(sets, i % m);

		copy = json_tokener_parse(json_object_to_json_string(src));
		if (i >= m) {
			double k = (double)(i / m), f = 0.35 + 0.5 * (double)(i % 5), g;

			while (next < NCATALOG && (taken(sets, catalog[next]) || taken(out, catalog[next])))
				next++;
			if (next == NCATALOG) {
				fprintf(stderr, "make-fixture: more than %zu names needed\n", NCATALOG);
				return 1;
			}
			rename_slices(copy, json_object_get_string(
				json_object_object_get(src, "name")), catalog[next]);
			json_object_object_add(copy, "name", json_object_new_string(catalog[next++]));
			/* Costs from ~0.2x to ~130x the original's: the catalog's spread. */
			g = pow(2.0, (double)(i % 9) - 2.0) * (k > 1 ? 4 : 1);
			spread(copy, f, g);
		}
		json_object_array_add(out, copy);
	}
	/* A compare-with set that is not kept: the line goes; slices it was on in are off. */
	for (size_t i = 0; i < n; i++) {
		json_object *slices, *on;

		copy = json_object_array_get_idx(out, i);
		if (json_object_object_get_ex(copy, "slices", &slices)) {
			for (size_t k = 0; k < json_object_array_length(slices); k++) {
				json_object *sl = json_object_array_get_idx(slices, k);

				if (json_object_object_get_ex(sl, "on", &on) &&
				    json_object_is_type(on, json_type_string) &&
				    !taken(out, json_object_get_string(on)))
					json_object_object_add(sl, "on", NULL);
			}
		}
		if (json_object_object_get_ex(copy, "compare_with", &v) &&
		    !taken(out, json_object_get_string(v)))
			json_object_object_del(copy, "compare_with");
	}
	json_object_object_add(root, "probesets", out);
	if (vm && json_object_object_get_ex(root, "host", &v)) {
		json_object_object_add(v, "virtualization", json_object_new_string("qemu-tcg"));
		json_object_object_add(root, "complete", json_object_new_boolean(0));
	}
	/* The sets not measured: none, so that every figure's names are those of its sets. */
	if (json_object_object_get_ex(root, "skipped", &v))
		json_object_object_del(root, "skipped");
	if (json_object_to_file_ext(argv[3], root, JSON_C_TO_STRING_PRETTY)) {
		fprintf(stderr, "make-fixture: cannot write %s\n", argv[3]);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		puts(json_object_get_string(json_object_object_get(json_object_array_get_idx(out, i),
								   "name")));
	json_object_put(root);
	return 0;
}
