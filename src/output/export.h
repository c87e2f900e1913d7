/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A results directory's numbers in the formats CI systems read: KCIDB v5
 * JSON (KernelCI), github-action-benchmark's customSmallerIsBetter JSON,
 * LAVA's lava-test-case lines, JUnit XML (with the regression gate's
 * verdicts as failures). One function per format, writing to a FILE;
 * 'loadbench export' (src/cli/cmd_export.c) chooses one and the file.
 * doc/results.md names the document each format was checked against.
 */
#ifndef LB_EXPORT_H
#define LB_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct lb_results;
struct lb_gate;

enum lb_export_format {
	LB_EXPORT_KCIDB,
	LB_EXPORT_BENCHMARK_ACTION,
	LB_EXPORT_LAVA,
	LB_EXPORT_JUNIT,
};

/* The origin a KCIDB document names when none is given (KCIDB: ^[a-z0-9_]+$). */
#define LB_EXPORT_ORIGIN "loadbench"

/*
 * lb_export_format_parse - @s ("kcidb", "benchmark-action", "lava",
 * "junit") as *@fmt. Returns 0 or -EINVAL.
 */
int lb_export_format_parse(const char *s, enum lb_export_format *fmt);

/* lb_export_format_name - @fmt as lb_export_format_parse() reads it. Returns a static string. */
const char *lb_export_format_name(enum lb_export_format fmt);

/*
 * lb_export_component - @s as one component of a dot-separated KCIDB test
 * path, and of a LAVA test case name: A-Z a-z 0-9 and '-' as they are, every
 * other byte ('_' and '.' among them) as '_' and its two hex digits
 * ("ftrace+kprobe" is "ftrace_2bkprobe"), so that two names never give one
 * component and a name can be read back; "_" for an empty or NULL @s. Writes
 * at most @len - 1 bytes and a NUL into @buf (cut at a whole escape).
 * Returns the length the whole of it needs, as snprintf() does.
 */
size_t lb_export_component(const char *s, char *buf, size_t len);

/* lb_export_origin_valid - whether @s is a KCIDB origin: [a-z0-9_]+. Returns true when so. */
bool lb_export_origin_valid(const char *s);

/*
 * lb_export_id_valid - whether @s is a KCIDB object id: an origin, ':', then
 * anything KCIDB takes (here: no control and nothing but UTF-8). Returns
 * true when so.
 */
bool lb_export_id_valid(const char *s);

/*
 * lb_export_kcidb - @res as a KCIDB v5.0 document on @f: one test per probe
 * set (those that could not run here as SKIP) at path
 * loadbench.WORKLOAD.SET, its slowdown as the number (unit "%"), its CI,
 * events/op, ns/event and lost events in misc, the host in environment.
 * Every id starts with @origin (NULL: LB_EXPORT_ORIGIN). With @build_id
 * (NULL: none) the tests name that build and the document holds no checkout
 * or build; without it, a checkout and a build that stand for the kernel
 * @res ran on. Returns 0, -EINVAL for an @origin or @build_id KCIDB would
 * refuse, -ENOMEM, or -EIO when @f could not be written.
 */
int lb_export_kcidb(const struct lb_results *res, const char *origin, const char *build_id,
		    FILE *f);

/*
 * lb_export_benchmark_action - @res as github-action-benchmark's
 * customSmallerIsBetter JSON on @f: an array of {name, unit, value, range,
 * extra}, for each probe set of a complete run with a slowdown its slowdown
 * ("%") and, when it records events, its cost per event ("ns/event"); range
 * "± H" for the 95% CI's half-width H, extra the CI itself and the host.
 * Returns 0, -ENODATA when no set has a complete measurement (the action
 * refuses an empty array: nothing is written), -ENOMEM or -EIO.
 */
int lb_export_benchmark_action(const struct lb_results *res, FILE *f);

/*
 * lb_export_lava - @res as LAVA test shell lines on @f, one per probe set:
 * "lava-test-case WORKLOAD.SET --result R [--measurement V --units %]", R
 * pass for a set measured in a complete run, fail when the run failed or the
 * set has no slowdown, skip when the run was interrupted or the set could
 * not run here. The name is lb_export_component()s joined by '.' (so the
 * line is safe for sh), at most 100 bytes. Returns 0 or -EIO.
 */
int lb_export_lava(const struct lb_results *res, FILE *f);

/*
 * lb_export_junit - @res as JUnit XML on @f: <testsuites> holding one
 * <testsuite> with one <testcase> per probe set, its numbers in its
 * <system-out>, the host in the suite's <properties>. With @gate (from
 * lb_gate_compare() of a baseline and @res; NULL: none), a set whose verdict
 * is LB_GATE_WORSE is a <failure> saying by how much with its CI, and a set
 * measured in the baseline only is <skipped>. A failed run's sets are
 * <error>s, an interrupted run's and those that could not run <skipped>.
 * Every string of @res is XML-escaped. Returns 0, -ENOMEM or -EIO.
 */
int lb_export_junit(const struct lb_results *res, const struct lb_gate *gate, FILE *f);

/*
 * lb_export_print - @res in format @fmt on @f: the function above for it
 * (@origin and @build_id for kcidb, @gate for junit; ignored by the
 * others). Returns what it returns.
 */
int lb_export_print(const struct lb_results *res, enum lb_export_format fmt, const char *origin,
		    const char *build_id, const struct lb_gate *gate, FILE *f);

#endif
