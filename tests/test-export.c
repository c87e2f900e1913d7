// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loadbench export: each format from the fixtures (runs, alternate,
 * interrupted, and a failed run, skipped sets and hostile names made from
 * them), checked against what its reader requires: KCIDB v5 (kcidb-io's
 * schema: required keys and types, no null, the id and path patterns,
 * additionalProperties false), github-action-benchmark's BenchmarkResult
 * (name, unit, value; range and extra strings, range as "± N"), LAVA's
 * lava-test-case (a name of [-_a-zA-Z0-9.], at most 100, a result of pass,
 * fail, skip or unknown, a number as measurement), JUnit XML (well-formed,
 * the counts that the suite's attributes give, the gate's failures). No root.
 * Over 600 lines: a check per format, and a small XML checker (loadbench
 * depends on no XML library).
 */
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "export.h"
#include "gate.h"
#include "helpers.h"
#include "results.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define FIXTURES LB_SRCDIR "/tests/fixtures/"

/* A name no format may carry raw: markup, quotes, a terminal's escape, a dot, a space. */
#define HOSTILE "a.b c<&\"'\x1b]0;x\x07>"

static struct lb_results *load(const char *name)
{
	struct lb_results *res = NULL;
	char path[4096], err[512] = "";

	snprintf(path, sizeof(path), FIXTURES "%s", name);
	if (lb_results_read_json(path, &res, err, sizeof(err))) {
		fprintf(stderr, "cannot read %s: %s\n", path, err);
		exit(T_EXIT_ERROR);
	}
	return res;
}

/* @res in @fmt, malloc'd; *@ret gets what lb_export_print() returned. */
static char *export(const struct lb_results *res, enum lb_export_format fmt, const char *origin,
		    const char *build_id, const struct lb_gate *gate, int *ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		exit(T_EXIT_ERROR);
	*ret = lb_export_print(res, fmt, origin, build_id, gate, f);
	fclose(f);
	return out;
}

static bool matches(const char *re, const char *s)
{
	regex_t r;
	bool ok;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "bad regex %s\n", re);
		exit(T_EXIT_ERROR);
	}
	ok = s && !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return ok;
}

/* Replace probe set @i's name by @name. */
static void rename_set(struct lb_results *res, size_t i, const char *name)
{
	free(res->probesets[i].name);
	res->probesets[i].name = strdup(name);
	if (!res->probesets[i].name)
		exit(T_EXIT_ERROR);
}

/* A failed run: incomplete, with the warning that says why. */
static void make_failed(struct lb_results *res)
{
	res->complete = false;
	T_CHECK(lb_results_add_warning(res, LB_RESULTS_RUN_FAILED "ftrace, round 2: boom") == 0);
}

static void check_names(void)
{
	enum lb_export_format fmt;
	char buf[64];

	for (int i = LB_EXPORT_KCIDB; i <= LB_EXPORT_JUNIT; i++) {
		T_CHECK(lb_export_format_parse(lb_export_format_name(i), &fmt) == 0);
		T_CHECK((int)fmt == i);
	}
	T_CHECK(lb_export_format_parse("xml", &fmt) == -EINVAL);
	T_CHECK(lb_export_component("ftrace+kprobe", buf, sizeof(buf)) == 15);
	T_CHECK_STR(buf, "ftrace_2bkprobe");
	lb_export_component("a_2bb", buf, sizeof(buf));	/* never "a+b"'s */
	T_CHECK_STR(buf, "a_5f2bb");
	lb_export_component("a.b", buf, sizeof(buf));
	T_CHECK_STR(buf, "a_2eb");
	lb_export_component("", buf, sizeof(buf));
	T_CHECK_STR(buf, "_");
	lb_export_component(NULL, buf, sizeof(buf));
	T_CHECK_STR(buf, "_");
	/* Cut at a whole escape: "ab" and not "ab_2". */
	T_CHECK(lb_export_component("ab+cd", buf, 5) == 7);
	T_CHECK_STR(buf, "ab");
	T_CHECK(lb_export_origin_valid("loadbench") && lb_export_origin_valid("lab_2"));
	T_CHECK(!lb_export_origin_valid("Lab") && !lb_export_origin_valid("a-b") &&
		!lb_export_origin_valid(""));
	T_CHECK(lb_export_id_valid("maestro:abc 123/x"));
	T_CHECK(!lb_export_id_valid("maestro") && !lb_export_id_valid(":x") &&
		!lb_export_id_valid("Maestro:x") && !lb_export_id_valid("m:\x01"));
}

/* ---- KCIDB ----------------------------------------------------------------------------------- */

/* Whether every key of @o is one of @allowed (NULL-terminated): additionalProperties false. */
static bool keys_within(struct json_object *o, const char *const *allowed)
{
	json_object_object_foreach(o, key, val) {
		size_t i;

		(void)val;
		for (i = 0; allowed[i] && strcmp(allowed[i], key); i++)
			;
		if (!allowed[i]) {
			fprintf(stderr, "key '%s' is not in the schema\n", key);
			return false;
		}
	}
	return true;
}

/* Whether @v holds a null anywhere (KCIDB: "no properties can be null"). */
static bool has_null(struct json_object *v)
{
	if (!v)
		return true;
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_foreach(v, key, val) {
			(void)key;
			if (has_null(val))
				return true;
		}
	} else if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (has_null(json_object_array_get_idx(v, i)))
				return true;
	}
	return false;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* @s, or "" for NULL: for comparing what may be missing. */
static const char *s0(const char *s)
{
	return s ? s : "";
}

static bool is_number(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int));
}

/* Whether an object of array @arr has "id" @id. */
static bool has_id(struct json_object *arr, const char *id)
{
	for (size_t i = 0; arr && id && i < json_object_array_length(arr); i++)
		if (str(json_object_array_get_idx(arr, i), "id") &&
		    !strcmp(str(json_object_array_get_idx(arr, i), "id"), id))
			return true;
	return false;
}

#define ORIGIN_RE "^[a-z0-9_]+$"
#define ID_RE "^[a-z0-9_]+:"
#define PATH_RE "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$"
#define TIME_RE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?" \
		"(Z|[+-][0-9]{2}:[0-9]{2})$"

/*
 * The KCIDB document @res exports to (with @origin and @build_id), checked
 * against kcidb-io's schema v5 (kcidb_io/schema/v05_00.py .. v05_03.py).
 * Returns its tests (the document is @*root, to put).
 */
static struct json_object *check_kcidb(const struct lb_results *res, const char *origin,
				       const char *build_id, struct json_object **root)
{
	static const char *const top[] = { "version", "checkouts", "builds", "tests", "issues",
					   "incidents", NULL };
	static const char *const version[] = { "major", "minor", NULL };
	static const char *const checkout[] = {
		"id", "origin", "tree_name", "git_repository_url", "git_commit_hash",
		"git_commit_name", "git_commit_tags", "git_commit_message",
		"git_repository_branch", "git_repository_branch_tip", "patchset_files",
		"patchset_hash", "message_id", "comment", "start_time", "log_url", "log_excerpt",
		"valid", "misc", NULL };
	static const char *const build[] = {
		"checkout_id", "id", "origin", "comment", "start_time", "duration", "architecture",
		"command", "compiler", "input_files", "output_files", "config_name", "config_url",
		"log_url", "log_excerpt", "status", "misc", NULL };
	static const char *const test[] = {
		"build_id", "id", "origin", "environment", "path", "comment", "log_url",
		"log_excerpt", "status", "number", "start_time", "duration", "output_files", "misc",
		NULL };
	static const char *const environment[] = { "compatible", "comment", "misc", NULL };
	static const char *const number[] = { "value", "unit", "prefix", NULL };
	static const char *const status_re = "^(FAIL|ERROR|MISS|PASS|DONE|SKIP)$";
	struct json_object *v, *checkouts, *builds, *tests;
	enum json_tokener_error jerr;
	const char *want_origin = origin ? origin : LB_EXPORT_ORIGIN;
	size_t i, j;
	char *out;
	int ret;

	out = export(res, LB_EXPORT_KCIDB, origin, build_id, NULL, &ret);
	T_CHECK(ret == 0);
	*root = json_tokener_parse_verbose(out ? out : "", &jerr);
	T_CHECK(*root != NULL);
	if (!*root) {
		fprintf(stderr, "not JSON (%s):\n%s\n", json_tokener_error_desc(jerr), out);
		free(out);
		return NULL;
	}
	free(out);
	T_CHECK(json_object_is_type(*root, json_type_object));
	T_CHECK(keys_within(*root, top));
	T_CHECK(!has_null(*root));
	v = get(*root, "version");
	T_CHECK(v && keys_within(v, version));
	T_CHECK(json_object_is_type(get(v, "major"), json_type_int) &&
		json_object_get_int(get(v, "major")) == 5);
	T_CHECK(!get(v, "minor") || (json_object_is_type(get(v, "minor"), json_type_int) &&
				     json_object_get_int(get(v, "minor")) >= 0 &&
				     json_object_get_int(get(v, "minor")) <= 3));

	checkouts = get(*root, "checkouts");
	builds = get(*root, "builds");
	/* With a build of the CI's own, the tests name it and nothing else is sent. */
	T_CHECK(build_id ? !checkouts && !builds : checkouts && builds);
	for (i = 0; checkouts && i < json_object_array_length(checkouts); i++) {
		struct json_object *c = json_object_array_get_idx(checkouts, i);

		T_CHECK(keys_within(c, checkout));
		T_CHECK(matches(ID_RE, str(c, "id")));
		T_CHECK(matches(ORIGIN_RE, str(c, "origin")));
	}
	for (i = 0; builds && i < json_object_array_length(builds); i++) {
		struct json_object *b = json_object_array_get_idx(builds, i);

		T_CHECK(keys_within(b, build));
		T_CHECK(matches(ID_RE, str(b, "id")));
		T_CHECK(matches(ORIGIN_RE, str(b, "origin")));
		T_CHECK(has_id(checkouts, str(b, "checkout_id")));
		T_CHECK(!get(b, "architecture") || matches("^[a-z0-9_]*$", str(b, "architecture")));
	}

	tests = get(*root, "tests");
	T_CHECK(tests && json_object_is_type(tests, json_type_array));
	T_CHECK(tests && json_object_array_length(tests) == res->nprobesets + res->nskipped);
	for (i = 0; tests && i < json_object_array_length(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i), *n, *e;

		T_CHECK(keys_within(t, test));
		T_CHECK(matches(ID_RE, str(t, "id")) &&
			!strncmp(s0(str(t, "id")), want_origin, strlen(want_origin)));
		T_CHECK_STR(str(t, "origin"), want_origin);
		T_CHECK(build_id ? !strcmp(s0(str(t, "build_id")), build_id) :
			has_id(builds, str(t, "build_id")));
		T_CHECK(matches(PATH_RE, str(t, "path")));
		T_CHECK(!strncmp(s0(str(t, "path")), "loadbench.", 10));
		T_CHECK(matches(status_re, str(t, "status")));
		T_CHECK(!get(t, "start_time") || matches(TIME_RE, str(t, "start_time")));
		T_CHECK(!get(t, "duration") || is_number(get(t, "duration")));
		T_CHECK(json_object_is_type(get(t, "misc"), json_type_object));
		T_CHECK(str(t, "comment") != NULL);
		n = get(t, "number");
		T_CHECK(!n || (keys_within(n, number) && is_number(get(n, "value")) &&
			       str(n, "unit")));
		e = get(t, "environment");
		T_CHECK(e && keys_within(e, environment) && str(e, "comment") &&
			json_object_is_type(get(e, "misc"), json_type_object));
		for (j = 0; j < i; j++)
			T_CHECK(strcmp(s0(str(t, "id")),
				       s0(str(json_object_array_get_idx(tests, j), "id"))));
	}
	return tests;
}

static struct json_object *test_of(struct json_object *tests, size_t i)
{
	return tests ? json_object_array_get_idx(tests, i) : NULL;
}

static void check_kcidb_formats(void)
{
	struct lb_results *res = load("results.json");
	struct json_object *root, *tests, *t, *misc;
	int ret;

	tests = check_kcidb(res, NULL, NULL, &root);
	for (size_t i = 0; i < res->nprobesets; i++) {
		t = test_of(tests, i);
		T_CHECK_STR(str(t, "status"), "DONE");
		T_CHECK_NEAR(json_object_get_double(get(get(t, "number"), "value")),
			     res->probesets[i].summary.slowdown_pct, 1e-6);
		T_CHECK_STR(str(get(t, "number"), "unit"), "%");
		misc = get(t, "misc");
		T_CHECK_STR(str(misc, "probeset"), res->probesets[i].name);
		T_CHECK(json_object_array_length(get(misc, "slowdown_ci95")) == 2);
		T_CHECK_NEAR(json_object_get_double(get(misc, "ns_per_event")),
			     res->probesets[i].summary.ns_per_event, 1e-6);
		T_CHECK(json_object_is_type(get(misc, "lost_events"), json_type_int));
		T_CHECK(is_number(get(misc, "events_per_op")));
	}
	t = test_of(tests, 0);
	T_CHECK_STR(str(t, "path"), "loadbench.udp-rr.ftrace");
	T_CHECK_STR(str(t, "start_time"), "2026-11-29T19:07:50Z");
	T_CHECK_STR(str(get(get(t, "environment"), "misc"), "kernel_release"), "6.18.44-test");
	T_CHECK_STR(str(get(get(t, "environment"), "misc"), "virtualization"), "kvm");
	T_CHECK_STR(str(get(get(t, "environment"), "misc"), "started"), "2026-11-29T19:07:50Z");
	json_object_put(root);

	/* A set that could not run here; a name with dots, markup and a terminal escape. */
	T_CHECK(lb_results_add_skipped(res, "lttng", "no lttng-modules") == 0);
	rename_set(res, 1, HOSTILE);
	tests = check_kcidb(res, "ci_lab", "maestro:1234", &root);
	t = test_of(tests, 1);
	T_CHECK(matches("^loadbench\\.udp-rr\\.a_2eb_20c_3c_26_22_27_1b_5d0_3bx_07_3e$",
			str(t, "path")));
	T_CHECK_STR(str(get(t, "misc"), "probeset"), "a.b c<&\"'\\x1b]0;x\\x07>");
	t = test_of(tests, 3);
	T_CHECK_STR(str(t, "status"), "SKIP");
	T_CHECK(!get(t, "number"));
	T_CHECK_STR(str(get(t, "misc"), "skipped_reason"), "no lttng-modules");
	json_object_put(root);
	lb_results_free(res);

	/* --method alternate: its '+' set. */
	res = load("results-alternate.json");
	tests = check_kcidb(res, NULL, NULL, &root);
	T_CHECK_STR(str(test_of(tests, 2), "path"), "loadbench.udp-rr.syscalls_2bkprobe");
	T_CHECK(json_object_is_type(get(get(test_of(tests, 2), "misc"), "units"), json_type_int));
	json_object_put(root);
	lb_results_free(res);

	/* Interrupted: MISS, the partial number in misc only; a failed run: ERROR. */
	res = load("results-interrupted.json");
	tests = check_kcidb(res, NULL, NULL, &root);
	for (size_t i = 0; i < res->nprobesets; i++) {
		T_CHECK_STR(str(test_of(tests, i), "status"), "MISS");
		T_CHECK(!get(test_of(tests, i), "number"));
	}
	T_CHECK(get(get(test_of(tests, 0), "misc"), "slowdown_pct") != NULL);
	json_object_put(root);
	lb_results_free(res);
	res = load("results.json");
	make_failed(res);
	tests = check_kcidb(res, NULL, NULL, &root);
	T_CHECK_STR(str(test_of(tests, 0), "status"), "ERROR");
	T_CHECK(get(test_of(tests, 0), "number") != NULL);
	T_CHECK_STR(str(get(test_of(tests, 0), "misc"), "run_failed"), "ftrace, round 2: boom");
	json_object_put(root);

	/* What KCIDB would refuse is refused here, before anything is written. */
	free(export(res, LB_EXPORT_KCIDB, "Bad-Origin", NULL, NULL, &ret));
	T_CHECK(ret == -EINVAL);
	free(export(res, LB_EXPORT_KCIDB, NULL, "no-origin", NULL, &ret));
	T_CHECK(ret == -EINVAL);
	lb_results_free(res);
}

/* ---- github-action-benchmark ----------------------------------------------------------------- */

static void check_benchmark_action(void)
{
	static const char *const entry_keys[] = { "name", "unit", "value", "range", "extra",
						  NULL };
	struct lb_results *res = load("results.json");
	struct json_object *arr;
	size_t i, j, n;
	char *out;
	int ret;

	rename_set(res, 2, HOSTILE);
	out = export(res, LB_EXPORT_BENCHMARK_ACTION, NULL, NULL, NULL, &ret);
	T_CHECK(ret == 0);
	arr = json_tokener_parse(out ? out : "");
	T_CHECK(arr && json_object_is_type(arr, json_type_array));
	n = arr ? json_object_array_length(arr) : 0;
	/* A slowdown and a cost per event for each set (each records events). */
	T_CHECK(n == 2 * res->nprobesets);
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);

		T_CHECK(json_object_is_type(e, json_type_object) && keys_within(e, entry_keys));
		T_CHECK(str(e, "name") && *str(e, "name"));
		T_CHECK(str(e, "unit") != NULL);
		T_CHECK(is_number(get(e, "value")));
		/* extractRangeInfo(): "±" or "+-", then a number. */
		T_CHECK(!get(e, "range") || matches("^(\\+-|\xc2\xb1) *[0-9]", str(e, "range")));
		T_CHECK(!get(e, "extra") || str(e, "extra"));
		T_CHECK(!strchr(s0(str(e, "name")), '\x1b'));
		for (j = 0; j < i; j++)
			T_CHECK(strcmp(s0(str(e, "name")),
				       s0(str(json_object_array_get_idx(arr, j), "name"))));
	}
	if (n >= 2) {
		struct json_object *e = json_object_array_get_idx(arr, 0);

		T_CHECK_STR(str(e, "name"), "ftrace (udp-rr) slowdown");
		T_CHECK_STR(str(e, "unit"), "%");
		T_CHECK_NEAR(json_object_get_double(get(e, "value")),
			     res->probesets[0].summary.slowdown_pct, 1e-6);
		T_CHECK(strstr(s0(str(e, "extra")), "95% CI ") &&
			strstr(s0(str(e, "extra")), "6.18.44"));
		T_CHECK_STR(str(json_object_array_get_idx(arr, 1), "unit"), "ns/event");
	}
	json_object_put(arr);
	free(out);
	lb_results_free(res);

	/* A partial run is no point of a history: nothing to export, nothing written. */
	res = load("results-interrupted.json");
	out = export(res, LB_EXPORT_BENCHMARK_ACTION, NULL, NULL, NULL, &ret);
	T_CHECK(ret == -ENODATA);
	T_CHECK(out && !*out);
	free(out);
	lb_results_free(res);
}

/* ---- LAVA ------------------------------------------------------------------------------------ */

#define LAVA_RE "^lava-test-case [-_a-zA-Z0-9.]{1,100} --result (pass|fail|skip|unknown)" \
		"( --measurement -?[0-9]+(\\.[0-9]+)? --units [^ ]+)?$"

/* The lines of @out, each checked against LAVA_RE; returns how many, @first the first. */
static size_t lava_lines(char *out, char *first, size_t len)
{
	size_t n = 0;

	first[0] = '\0';
	for (char *save = NULL, *l = strtok_r(out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save), n++) {
		if (!matches(LAVA_RE, l)) {
			fprintf(stderr, "not a lava-test-case line: %s\n", l);
			t_failures++;
		}
		if (!n)
			snprintf(first, len, "%s", l);
	}
	return n;
}

static void check_lava(void)
{
	struct lb_results *res = load("results.json");
	char first[256], longname[LB_RESULTS_MAX_NAME + 1], *out, *out2;
	int ret;

	out = export(res, LB_EXPORT_LAVA, NULL, NULL, NULL, &ret);
	T_CHECK(ret == 0);
	T_CHECK(lava_lines(out, first, sizeof(first)) == res->nprobesets);
	T_CHECK_STR(first, "lava-test-case udp-rr.ftrace --result pass --measurement 31.0514 "
		    "--units %");
	free(out);

	/* Names that sh or LAVA would read otherwise; one too long; a set not run here. */
	rename_set(res, 0, HOSTILE);
	memset(longname, '+', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	rename_set(res, 1, longname);
	longname[0] = '-';
	rename_set(res, 2, longname);
	T_CHECK(lb_results_add_skipped(res, "lttng", "no lttng-modules") == 0);
	out = export(res, LB_EXPORT_LAVA, NULL, NULL, NULL, &ret);
	T_CHECK(ret == 0);
	out2 = strdup(out);
	T_CHECK(lava_lines(out, first, sizeof(first)) == res->nprobesets + 1);
	T_CHECK(strstr(out2, "lava-test-case udp-rr.a_2eb_20c_3c_26_22_27_1b_5d0_3bx_07_3e "
			     "--result pass"));
	T_CHECK(strstr(out2, "\nlava-test-case udp-rr.lttng --result skip\n"));
	{
		/* The two long names: 100 characters each, and not the same. */
		char *a = strstr(out2, "udp-rr._2b_2b"), *b = strstr(out2, "udp-rr.-_2b");

		T_CHECK(a && strcspn(a, " ") == 100);
		T_CHECK(b && strcspn(b, " ") == 100);
		T_CHECK(a && b && strncmp(a, b, 100));
	}
	free(out);
	free(out2);
	lb_results_free(res);

	/* Interrupted: skip, no measurement; a failed run: fail, with it. */
	res = load("results-interrupted.json");
	out = export(res, LB_EXPORT_LAVA, NULL, NULL, NULL, &ret);
	T_CHECK(ret == 0 && !strstr(out, "pass") && !strstr(out, "measurement"));
	T_CHECK(lava_lines(out, first, sizeof(first)) == 2);
	T_CHECK_STR(first, "lava-test-case udp-rr.syscalls --result skip");
	free(out);
	lb_results_free(res);
	res = load("results.json");
	make_failed(res);
	out = export(res, LB_EXPORT_LAVA, NULL, NULL, NULL, &ret);
	T_CHECK(lava_lines(out, first, sizeof(first)) == 3);
	T_CHECK_STR(first, "lava-test-case udp-rr.ftrace --result fail --measurement 31.0514 "
		    "--units %");
	free(out);
	lb_results_free(res);
}

/* ---- JUnit ----------------------------------------------------------------------------------- */

/* What a JUnit document holds, counted by xml_check(). */
struct xml_counts {
	int testcases, failures, errors, skipped;
	long suite_tests, suite_failures, suite_errors, suite_skipped;
	bool suite_seen;
};

/* Whether @p starts an entity XML defines (or a character reference); its length in *@n. */
static bool xml_entity(const char *p, size_t *n)
{
	static const char *const ent[] = { "&lt;", "&gt;", "&amp;", "&quot;", "&apos;" };
	size_t i;

	for (i = 0; i < sizeof(ent) / sizeof(ent[0]); i++) {
		if (!strncmp(p, ent[i], strlen(ent[i]))) {
			*n = strlen(ent[i]);
			return true;
		}
	}
	if (p[1] == '#') {
		for (i = 2; p[i] >= '0' && p[i] <= '9'; i++)
			;
		*n = i + 1;
		return i > 2 && p[i] == ';';
	}
	return false;
}

/*
 * Whether @doc is well-formed XML as far as JUnit's readers need: the XML
 * declaration, one root, tags that nest and close, attributes quoted and
 * not given twice, every '&' an entity, no '<' in a value, no control but
 * tab and newline. Counts into @c. Returns 0, or the offset of the fault + 1.
 */
static size_t xml_check(const char *doc, struct xml_counts *c)
{
	static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
	char stack[16][32];
	int depth = 0, roots = 0;
	const char *p = doc;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (strncmp(p, decl, strlen(decl)))
		return 1;
	for (p += strlen(decl); *p; p++) {
		if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
			return (size_t)(p - doc) + 1;
		if (*p == '&') {
			if (!xml_entity(p, &n))
				return (size_t)(p - doc) + 1;
			p += n - 1;
			continue;
		}
		if (*p != '<') {
			if (!depth && *p != '\n' && *p != ' ')
				return (size_t)(p - doc) + 1;	/* text outside the root */
			continue;
		}
		if (p[1] == '/') {	/* </name> */
			n = strcspn(p + 2, ">");
			if (!depth || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[depth - 1], p + 2, n) || !p[2 + n])
				return (size_t)(p - doc) + 1;
			depth--;
			p += 2 + n;
			continue;
		}
		{
			char name[32], attrs[8][32];
			int nattrs = 0;

			n = strspn(p + 1, "abcdefghijklmnopqrstuvwxyz-");
			if (!n || n >= sizeof(name))
				return (size_t)(p - doc) + 1;
			snprintf(name, sizeof(name), "%.*s", (int)n, p + 1);
			if (!depth && roots++)
				return (size_t)(p - doc) + 1;	/* a second root */
			p += 1 + n;
			for (;;) {
				char q;

				p += strspn(p, " \n");
				if (*p == '>' || (p[0] == '/' && p[1] == '>'))
					break;
				n = strspn(p, "abcdefghijklmnopqrstuvwxyz_-");
				if (!n || n >= sizeof(attrs[0]) || p[n] != '=' ||
				    (p[n + 1] != '"' && p[n + 1] != '\'') || nattrs == 8)
					return (size_t)(p - doc) + 1;
				snprintf(attrs[nattrs], sizeof(attrs[0]), "%.*s", (int)n, p);
				for (int i = 0; i < nattrs; i++)
					if (!strcmp(attrs[i], attrs[nattrs]))
						return (size_t)(p - doc) + 1;
				if (!strcmp(name, "testsuite")) {
					long v = strtol(p + n + 2, NULL, 10);

					if (!strcmp(attrs[nattrs], "tests"))
						c->suite_tests = v;
					else if (!strcmp(attrs[nattrs], "failures"))
						c->suite_failures = v;
					else if (!strcmp(attrs[nattrs], "errors"))
						c->suite_errors = v;
					else if (!strcmp(attrs[nattrs], "skipped"))
						c->suite_skipped = v;
				}
				nattrs++;
				q = p[n + 1];
				for (p += n + 2; *p && *p != q; p++) {
					if (*p == '<' || ((unsigned char)*p < 0x20))
						return (size_t)(p - doc) + 1;
					if (*p == '&') {
						if (!xml_entity(p, &n))
							return (size_t)(p - doc) + 1;
						p += n - 1;
					}
				}
				if (!*p)
					return (size_t)(p - doc) + 1;
				p++;
			}
			c->testcases += !strcmp(name, "testcase");
			c->failures += !strcmp(name, "failure");
			c->errors += !strcmp(name, "error");
			c->skipped += !strcmp(name, "skipped");
			c->suite_seen |= !strcmp(name, "testsuite");
			if (*p == '/') {
				p++;	/* <empty/> */
				if (!depth)
					return (size_t)(p - doc) + 1;
			} else if (depth == 16) {
				return (size_t)(p - doc) + 1;
			} else {
				snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
			}
		}
	}
	return depth || roots != 1 ? (size_t)(p - doc) + 1 : 0;
}

/* @res as JUnit with @gate, well-formed, its suite's counts those of its elements. */
static char *junit(const struct lb_results *res, const struct lb_gate *gate,
		   struct xml_counts *c)
{
	size_t bad;
	char *out;
	int ret;

	out = export(res, LB_EXPORT_JUNIT, NULL, NULL, gate, &ret);
	T_CHECK(ret == 0);
	bad = xml_check(out, c);
	T_CHECK(bad == 0);
	if (bad)
		fprintf(stderr, "not well-formed at byte %zu: ...%.60s\n", bad - 1,
			out + bad - 1 - (bad > 20 ? 20 : bad - 1));
	T_CHECK(c->suite_seen);
	T_CHECK(c->suite_tests == c->testcases);
	T_CHECK(c->suite_failures == c->failures);
	T_CHECK(c->suite_errors == c->errors);
	T_CHECK(c->suite_skipped == c->skipped);
	return out;
}

static void check_junit(void)
{
	struct lb_results *res = load("results.json"), *base = load("results.json");
	struct lb_gate_row rows[3];
	const char *only_base[] = { "gone<set>" };
	struct lb_gate gate = {
		.fail_above = 2, .bootstrap = "test", .rows = rows, .nrows = 3,
		.only_base = only_base, .nonly_base = 1, .nworse = 1, .nbetter = 1,
		.ninconclusive = 1,
	};
	struct xml_counts c;
	char *out;

	out = junit(res, NULL, &c);
	T_CHECK(c.testcases == 3 && c.failures == 0 && c.errors == 0 && c.skipped == 0);
	T_CHECK(strstr(out, "<testcase name=\"ftrace\" classname=\"loadbench.udp-rr\" time=\""));
	T_CHECK(strstr(out, "<property name=\"kernel_release\" value=\"6.18.44-test\"/>"));
	T_CHECK(strstr(out, " timestamp=\"2026-11-29T19:07:50\""));
	T_CHECK(strstr(out, "<system-out>slowdown 31.1% (95% CI "));
	free(out);

	/* Names with markup and controls: escaped, never raw. */
	rename_set(res, 0, "<&\"'\x01>");
	T_CHECK(lb_results_add_skipped(res, "lttng", "needs <lttng-modules> & root") == 0);
	out = junit(res, NULL, &c);
	T_CHECK(strstr(out, "<testcase name=\"&lt;&amp;&quot;&apos;\\x01&gt;\""));
	T_CHECK(strstr(out, "could not run here: needs &lt;lttng-modules&gt; &amp; root"));
	T_CHECK(c.testcases == 4 && c.skipped == 1);
	free(out);
	lb_results_free(res);

	/* The gate: worse is a failure saying by how much, with the CI. */
	res = load("results.json");
	for (size_t i = 0; i < 3; i++) {
		rows[i] = (struct lb_gate_row){
			.name = res->probesets[i].name, .base = &base->probesets[i],
			.cand = &res->probesets[i], .base_pct = 4.2, .cand_pct = 7.3,
			.diff_pp = 3.1, .diff_ci95 = { 1.9, 4.3 }, .diff_ns = 12,
			.diff_ns_ci95 = { 7, 17 }, .verdict = LB_GATE_WORSE,
			.needed_half_pp = NAN, .needed_precision = NAN,
		};
	}
	rows[1].verdict = LB_GATE_BETTER;
	rows[1].diff_pp = -3;
	rows[2].verdict = LB_GATE_INCONCLUSIVE;
	rows[2].needed_half_pp = 0.5;
	rows[2].needed_precision = 0.35;
	out = junit(res, &gate, &c);
	T_CHECK(c.testcases == 4 && c.failures == 1 && c.skipped == 1 && c.errors == 0);
	T_CHECK(strstr(out, "<failure type=\"slowdown regression\" message=\"slowdown +3.1 pp "
			    "(95% CI +1.9 to +4.3 pp) worse than the baseline&apos;s (4.2% -&gt; "
			    "7.3%), more than --fail-above 2 pp\">"));
	T_CHECK(strstr(out, "+-0.50 pp would tell (--precision 0.35 for both runs)"));
	T_CHECK(strstr(out, "<testcase name=\"gone&lt;set&gt;\""));
	T_CHECK(strstr(out, "<property name=\"gate_fail_above_pp\" value=\"2\"/>"));
	free(out);
	lb_results_free(res);
	lb_results_free(base);

	/* Interrupted: skipped; a failed run: errors. */
	res = load("results-interrupted.json");
	out = junit(res, NULL, &c);
	T_CHECK(c.testcases == 2 && c.skipped == 2);
	T_CHECK(strstr(out, "<system-err>warning: interrupted by signal 2"));
	free(out);
	lb_results_free(res);
	res = load("results.json");
	make_failed(res);
	out = junit(res, NULL, &c);
	T_CHECK(c.testcases == 3 && c.errors == 3);
	T_CHECK(strstr(out, "<error type=\"run failed\" message=\"the run failed: ftrace, round 2: "
			    "boom\"/>"));
	free(out);
	lb_results_free(res);
}

int main(void)
{
	check_names();
	check_kcidb_formats();
	check_benchmark_action();
	check_lava();
	check_junit();
	return t_exit();
}
