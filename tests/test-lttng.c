// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lttng probe sets without LTTng: the catalog's lttng files parse (LTTng
 * names have no system), and the name check that runs before a session is
 * made, against a fixture list of kernel-domain events: an unknown name (LTTng
 * would record nothing) and an ftrace SYSTEM:EVENT name fail with the closest
 * LTTng names, uprobes are refused. The ftrace-family tracers refuse a bare
 * LTTng name. With libbabeltrace2, the read-back that counts a run's events,
 * on a small real trace (tests/fixtures/lttng-trace: sched_switch, _wakeup and
 * _waking recorded by lttng-modules 2.13 under Debian's 6.1 kernel for 0.3 s;
 * babeltrace2 lists 447 events in 6 packets, 200 of them timestamped from
 * 17866278510 to 18526571500 ns). No root needed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "lttng.h"
#ifdef HAVE_LTTNG
#include "ctf_count.h"
#endif
#include "probeset.h"
#include "tracefs_util.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

#define MAX_NAMES 64

static const char *names[MAX_NAMES];
static size_t nnames;
static char fixture[4096];
static const char *const syscalls[] = { "getppid", "recvfrom", "sendto", "read" };

static int load_fixture(void)
{
	char *text = t_read_all(LB_SRCDIR "/tests/fixtures/lttng-kernel-events", NULL);

	if (!text)
		return -1;
	snprintf(fixture, sizeof(fixture), "%s", text);
	free(text);
	for (char *line = strtok(fixture, "\n"); line && nnames < MAX_NAMES;
	     line = strtok(NULL, "\n"))
		if (line[0] != '#')
			names[nnames++] = line;
	return 0;
}

/* Parse @text and check its names: the return value, and @want in the message. */
static void check(const char *text, int want_ret, const char *want)
{
	struct lb_probeset *ps = NULL;
	char err[1024] = "";
	int ret;

	ret = lb_probeset_parse(text, "t.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "parse: %s\n", err);
		return;
	}
	ret = lb_lttng_check_names(ps, names, nnames, syscalls, 4, err, sizeof(err));
	T_CHECK(ret == want_ret);
	if (want && !strstr(err, want)) {
		fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err, want);
		t_failures++;
	}
	lb_probeset_free(ps);
}

static void test_catalog(void)
{
	static const struct {
		const char *name;
		size_t tracepoints, kprobes, kretprobes, syscalls;
	} sets[] = {
		{ "lttng", 17, 0, 0, 0 },
		{ "lttng+kprobe", 17, 11, 0, 0 },
		{ "lttng+kretprobe", 17, 0, 11, 0 },
		{ "lttng-syscalls", 0, 0, 0, 1 },
		{ "lttng-syscalls-pid", 0, 0, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		size_t n[LB_PROBE_URETPROBE + 1] = { 0 };
		struct lb_probeset *ps = NULL;
		char err[1024] = "";
		int ret;

		ret = lb_probeset_find(sets[i].name, LB_SRCDIR "/probesets", &ps, err, sizeof(err));
		T_CHECK(ret == 0);
		if (ret) {
			fprintf(stderr, "%s: %s\n", sets[i].name, err);
			continue;
		}
		T_CHECK_STR(ps->tracer, "lttng");
		T_CHECK(ps->mode == LB_MODE_DISCARD);
		T_CHECK(ps->buffer_kb == 4096);
		T_CHECK(ps->scope == (strstr(sets[i].name, "-pid") ? LB_SCOPE_WORKLOAD :
				      LB_SCOPE_SYSTEM));
		for (size_t j = 0; j < ps->nprobes; j++) {
			n[ps->probes[j].kind]++;
			if (ps->probes[j].kind == LB_PROBE_TRACEPOINT)
				T_CHECK(ps->probes[j].system == NULL);
		}
		T_CHECK(n[LB_PROBE_TRACEPOINT] == sets[i].tracepoints);
		T_CHECK(n[LB_PROBE_KPROBE] == sets[i].kprobes);
		T_CHECK(n[LB_PROBE_KRETPROBE] == sets[i].kretprobes);
		T_CHECK(n[LB_PROBE_SYSCALL] == sets[i].syscalls);
		/* Every tracepoint name is one LTTng lists (the fixture). */
		ret = lb_lttng_check_names(ps, names, nnames, syscalls, 4, err, sizeof(err));
		T_CHECK(ret == 0);
		if (ret)
			fprintf(stderr, "%s: %s\n", sets[i].name, err);
		lb_probeset_free(ps);
	}
}

static void test_names(void)
{
	check("tracer lttng\ntracepoint net_if_receive_skb\nsyscall getppid\nkprobe schedule\n"
	      "kretprobe schedule\n", 0, NULL);
	check("tracer lttng\nsyscall all\n", 0, NULL);
	/* LTTng would enable these silently and record nothing. */
	check("tracer lttng\ntracepoint sched_switch\ntracepoint netif_receive_skb\n", -ENOENT,
	      "t.probeset:3: unknown LTTng kernel tracepoint netif_receive_skb: the kernel domain "
	      "lists no such event (lttng list -k); similar: net_if_receive_skb");
	check("tracer lttng\ntracepoint sched_wakeupp\n", -ENOENT,
	      "similar: sched_wakeup, sched_wakeup_new, sched_waking");
	check("tracer lttng\ntracepoint zzzzzzzzzzzzzzzzzzzz\n", -ENOENT,
	      "lists no such event (lttng list -k)");
	/* ftrace's names point to LTTng's. */
	check("tracer lttng\ntracepoint net:netif_rx\n", -EINVAL,
	      "t.probeset:2: tracepoint net:netif_rx is an ftrace name: LTTng names kernel "
	      "tracepoints without a system (tracepoint net_if_receive_skb); similar LTTng "
	      "events: net_if_rx");
	check("tracer lttng\ntracepoint skb:consume_skb\n", -EINVAL, "skb_consume");
	check("tracer lttng\nsyscall getpid\n", -ENOENT,
	      "t.probeset:2: unknown syscall getpid: LTTng's kernel domain lists no such system "
	      "call (lttng list -k --syscall); similar: getppid");
	check("tracer lttng\nuprobe lb_server_request\n", -EOPNOTSUPP, "not uprobe lines");
}

/* ftrace, perf and bpf name tracepoints SYSTEM:EVENT: a bare name is refused before tracefs. */
static void test_ftrace_refuses(void)
{
	struct lb_tracefs_event *evs = NULL;
	struct lb_probeset *ps = NULL;
	char err[1024] = "";
	size_t n = 0;
	int ret;

	ret = lb_probeset_parse("tracer ftrace\ntracepoint net_if_rx\n", "f.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (ret)
		return;
	ret = lb_tracefs_events_resolve(ps, "ftrace", &evs, &n, err, sizeof(err));
	T_CHECK(ret == -EINVAL);
	T_CHECK_STR(err, "f.probeset:2: tracepoint net_if_rx has no system: the ftrace tracer "
		    "names tracepoints SYSTEM:EVENT (e.g. net:netif_receive_skb); bare LTTng "
		    "names are for tracer lttng");
	lb_tracefs_events_free(evs, n);
	lb_probeset_free(ps);
}

#ifdef HAVE_LTTNG
static void test_ctf_count(void)
{
	const char *dir = LB_SRCDIR "/tests/fixtures/lttng-trace";
	uint64_t e[3], b[4], de[4], dp[4];
	struct lb_ctf_buckets bk = { .events = b, .discarded_events = de, .discarded_packets = dp };
	struct lb_ctf_counts c;
	char err[512] = "";
	int ret;

	ret = lb_ctf_available(err, sizeof(err));
	if (ret) {
		fprintf(stderr, "skipping the trace read-back check: %s\n", err);
		return;
	}
	ret = lb_ctf_count(dir, NULL, 0, &bk, &c, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "lb_ctf_count: %s\n", err);
		return;
	}
	T_CHECK(b[0] == 447 && c.all_events == 447 && c.packets == 6);
	/* This trace lost nothing. */
	T_CHECK(de[0] == 0 && dp[0] == 0);
	/* A window: from its first edge inclusive to its second exclusive. */
	e[0] = 17866278510ULL;
	e[1] = 18526571501ULL;
	T_CHECK(lb_ctf_count(dir, e, 2, &bk, &c, err, sizeof(err)) == 0);
	T_CHECK(b[1] == 200 && c.all_events == 447 && b[0] + b[1] + b[2] == 447);
	e[0]++;
	e[1]--;
	T_CHECK(lb_ctf_count(dir, e, 2, &bk, &c, err, sizeof(err)) == 0);
	T_CHECK(b[1] == 198 && b[0] + b[1] + b[2] == 447);
	e[0] = 0;
	e[1] = 2;
	T_CHECK(lb_ctf_count(dir, e, 2, &bk, &c, err, sizeof(err)) == 0);
	T_CHECK(b[0] == 0 && b[1] == 0 && b[2] == 447);
	/* Several windows in one pass: the same events where the edges are the same. */
	e[0] = 17866278510ULL;
	e[1] = 18200000000ULL;
	e[2] = 18526571501ULL;
	T_CHECK(lb_ctf_count(dir, e, 3, &bk, &c, err, sizeof(err)) == 0);
	T_CHECK(b[1] + b[2] == 200 && b[1] > 0 && b[2] > 0 &&
		b[0] + b[1] + b[2] + b[3] == 447);
	/* Edges out of order: refused. */
	e[2] = 1;
	T_CHECK(lb_ctf_count(dir, e, 3, &bk, &c, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "edge 2") != NULL);
	/* No trace: said so. */
	ret = lb_ctf_count(LB_SRCDIR "/probesets", e, 2, &bk, &c, err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, "no CTF metadata file below it") != NULL);
}
#endif

/* lttng-ust: the catalog set and the provider's names, nothing else. */
static void test_ust(void)
{
	static const struct {
		const char *text;
		int ret;
		const char *want;
	} cases[] = {
		{ "tracer lttng-ust\ntracepoint loadbench:request\ntracepoint loadbench:reply\n", 0,
		  NULL },
		{ "tracer lttng-ust\ntracepoint loadbench:requests\n", -ENOENT,
		  "t.probeset:2: the lttng-ust tracer records the workload server's LTTng-UST "
		  "tracepoints, 'tracepoint loadbench:request' and 'tracepoint loadbench:reply'" },
		{ "tracer lttng-ust\ntracepoint net_if_rx\n", -ENOENT, "not this tracepoint line" },
		{ "tracer lttng-ust\nsyscall all\n", -EOPNOTSUPP, "not this syscall line" },
		{ "tracer lttng-ust\nusdt loadbench:request\n", -EOPNOTSUPP, "not this usdt line" },
	};
	struct lb_probeset *ps = NULL;
	char err[1024];
	int ret;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		ret = lb_probeset_parse(cases[i].text, "t.probeset", &ps, err, sizeof(err));
		T_CHECK(ret == 0);
		if (ret)
			continue;
		ret = lb_lttng_ust_check_names(ps, err, sizeof(err));
		T_CHECK(ret == cases[i].ret);
		if (cases[i].want && !strstr(err, cases[i].want)) {
			fprintf(stderr, "message \"%s\" lacks \"%s\"\n", err, cases[i].want);
			t_failures++;
		}
		lb_probeset_free(ps);
	}
	ret = lb_probeset_find("lttng-ust", LB_SRCDIR "/probesets", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->tracer, "lttng-ust");
		T_CHECK(ps->nprobes == 2 && lb_lttng_ust_check_names(ps, err, sizeof(err)) == 0);
		lb_probeset_free(ps);
	}
}

int main(void)
{
	if (load_fixture()) {
		fprintf(stderr, "cannot read the fixture tests/fixtures/lttng-kernel-events\n");
		return T_EXIT_ERROR;
	}
	T_CHECK(nnames == 25);
	test_catalog();
	test_names();
	test_ftrace_refuses();
	test_ust();
#ifdef HAVE_LTTNG
	test_ctf_count();
#endif
	return t_exit();
}
