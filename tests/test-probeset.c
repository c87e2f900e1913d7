// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Probe-set parser, loader, catalog lookup; and every file in the real
 * catalog parses. No root needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "probeset.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif

static char tmpdir[] = "/tmp/test-probeset.XXXXXX";

static void check_probe(const struct lb_probeset *ps, size_t i, enum lb_probe_kind kind,
			const char *system, const char *event, int line)
{
	const struct lb_probe *p;

	T_CHECK(i < ps->nprobes);
	if (i >= ps->nprobes)
		return;
	p = &ps->probes[i];
	T_CHECK(p->kind == kind);
	if (system)
		T_CHECK_STR(p->system, system);
	else
		T_CHECK(p->system == NULL);
	T_CHECK_STR(p->event, event);
	T_CHECK(p->line == line);
}

static void test_good(void)
{
	static const char text[] =
		"# a probe set with every keyword\n"
		"\n"
		"description\tPackets, and # this is a comment\n"
		"   tracer ftrace   # trailing comment\n"
		"tracepoint\tnet:netif_receive_skb\n"
		"\t\n"
		"tracepoint sched:*\n"
		"tracepoint  Net_2:Event_X9\n"
		"syscall getppid\n"
		"syscall\tread\n"
		"buffer-kb 4096\n"
		"mode discard#no space before the comment\n"
		"# last line without a newline";
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse(text, "dir/my+set.v2.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "unexpected error: %s\n", err);
		return;
	}
	T_CHECK_STR(ps->name, "my+set.v2");
	T_CHECK_STR(ps->path, "dir/my+set.v2.probeset");
	T_CHECK_STR(ps->text, text);
	T_CHECK_STR(ps->description, "Packets, and");
	T_CHECK_STR(ps->tracer, "ftrace");
	T_CHECK(ps->tracer_line == 4);
	T_CHECK(ps->nprobes == 5);
	check_probe(ps, 0, LB_PROBE_TRACEPOINT, "net", "netif_receive_skb", 5);
	check_probe(ps, 1, LB_PROBE_TRACEPOINT, "sched", "*", 7);
	check_probe(ps, 2, LB_PROBE_TRACEPOINT, "Net_2", "Event_X9", 8);
	check_probe(ps, 3, LB_PROBE_SYSCALL, NULL, "getppid", 9);
	check_probe(ps, 4, LB_PROBE_SYSCALL, NULL, "read", 10);
	T_CHECK(ps->buffer_kb == 4096);
	T_CHECK(ps->mode == LB_MODE_DISCARD);
	lb_probeset_free(ps);

	/* The minimum: defaults for everything optional; CRLF line ends. */
	ret = lb_probeset_parse("tracer perf\r\nsyscall all\r\n", "min.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->name, "min");
		T_CHECK(ps->description == NULL);
		T_CHECK(ps->buffer_kb == 0);
		T_CHECK(ps->mode == LB_MODE_DEFAULT);
		check_probe(ps, 0, LB_PROBE_SYSCALL, NULL, "all", 2);
		lb_probeset_free(ps);
	}

	/* Range limits are inclusive; the name of a file without the extension. */
	ret = lb_probeset_parse("tracer lttng+kprobe\ntracepoint a:b\nbuffer-kb 4\n"
				"mode overwrite\n", "/x/lttng+kprobe", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->name, "lttng+kprobe");
		T_CHECK_STR(ps->tracer, "lttng+kprobe");
		T_CHECK(ps->buffer_kb == 4);
		T_CHECK(ps->mode == LB_MODE_OVERWRITE);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer ftrace\ntracepoint a:b\nbuffer-kb 4194304\n", NULL, &ps,
				err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->buffer_kb == 4194304);
		T_CHECK_STR(ps->path, "<string>");
		lb_probeset_free(ps);
	}
}

/* mode consumer, and where its reader runs (reader-cpu, before or after the mode line). */
static void test_consumer(void)
{
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse("tracer ftrace\nsyscall all\nmode consumer\n", "c.probeset", &ps,
				err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->mode == LB_MODE_CONSUMER);
		T_CHECK(ps->reader_cpu == LB_READER_WORKLOAD);
		T_CHECK(ps->reader_cpu_line == 0);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer ftrace\nreader-cpu other # first\nsyscall all\n"
				"mode consumer\n", "c.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->mode == LB_MODE_CONSUMER);
		T_CHECK(ps->reader_cpu == LB_READER_OTHER);
		T_CHECK(ps->reader_cpu_line == 2);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer ftrace\nsyscall all\nmode consumer\nreader-cpu workload\n",
				"c.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->reader_cpu == LB_READER_WORKLOAD);
		T_CHECK(ps->reader_cpu_line == 4);
		lb_probeset_free(ps);
	}
}

/* compare-with: the probe set this one builds on. */
static void test_compare_with(void)
{
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse("tracer lttng\ncompare-with lttng # the base\nkprobe schedule\n",
				"/x/lttng+kprobe.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->compare_with, "lttng");
		T_CHECK(ps->compare_with_line == 2);
		T_CHECK(ps->added_for == NULL);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer ftrace\nsyscall all\n", "s.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->compare_with == NULL && ps->compare_with_line == 0);
		lb_probeset_free(ps);
	}
}

/* kprobe, kretprobe, uprobe, uretprobe: one symbol each; the kinds never overlap each other. */
static void test_symbols(void)
{
	static const char text[] =
		"tracer ftrace\n"
		"kprobe __netif_receive_skb_one_core\n"
		"kretprobe __netif_receive_skb_one_core\n"
		"kprobe __netif_receive_skb_core.constprop.0\n"
		"uprobe lb_server_request\n"
		"uretprobe lb_server_request\n"
		"syscall getppid\n"
		"tracepoint net:netif_rx\n";
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse(text, "sym.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "unexpected error: %s\n", err);
		return;
	}
	T_CHECK(ps->nprobes == 7);
	check_probe(ps, 0, LB_PROBE_KPROBE, NULL, "__netif_receive_skb_one_core", 2);
	check_probe(ps, 1, LB_PROBE_KRETPROBE, NULL, "__netif_receive_skb_one_core", 3);
	check_probe(ps, 2, LB_PROBE_KPROBE, NULL, "__netif_receive_skb_core.constprop.0", 4);
	check_probe(ps, 3, LB_PROBE_UPROBE, NULL, "lb_server_request", 5);
	check_probe(ps, 4, LB_PROBE_URETPROBE, NULL, "lb_server_request", 6);
	check_probe(ps, 5, LB_PROBE_SYSCALL, NULL, "getppid", 7);
	check_probe(ps, 6, LB_PROBE_TRACEPOINT, "net", "netif_rx", 8);
	lb_probeset_free(ps);

	/* A probe set of kprobes alone is a probe set. */
	ret = lb_probeset_parse("tracer ftrace\nkprobe x64_sys_call\n", "k.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		check_probe(ps, 0, LB_PROBE_KPROBE, NULL, "x64_sys_call", 2);
		lb_probeset_free(ps);
	}
}

/* kprobe SYMBOL+OFFSET, kprobe-optimization and reference. */
static void test_kprobe_kinds(void)
{
	static const char text[] =
		"tracer ftrace\n"
		"reference 2006: 35% -> 73%, 2.1x (breakpoint kprobes)\n"
		"kprobe schedule\n"
		"kprobe schedule+5\n"
		"kprobe try_to_wake_up+0x1a\n"
		"kretprobe schedule\n"
		"kprobe-optimization off\n";
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse(text, "k.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "unexpected error: %s\n", err);
		return;
	}
	T_CHECK(ps->nprobes == 4);
	check_probe(ps, 0, LB_PROBE_KPROBE, NULL, "schedule", 3);
	T_CHECK(ps->probes[0].offset == 0);
	check_probe(ps, 1, LB_PROBE_KPROBE, NULL, "schedule", 4);
	T_CHECK(ps->probes[1].offset == 5);
	check_probe(ps, 2, LB_PROBE_KPROBE, NULL, "try_to_wake_up", 5);
	T_CHECK(ps->probes[2].offset == 26);
	T_CHECK(ps->probes[3].offset == 0);
	T_CHECK(ps->kprobe_optimization == 0 && ps->kprobe_optimization_line == 7);
	T_CHECK_STR(ps->reference, "2006: 35% -> 73%, 2.1x (breakpoint kprobes)");
	T_CHECK(ps->reference_line == 2);
	lb_probeset_free(ps);

	ret = lb_probeset_parse("tracer ftrace\nkprobe schedule\nkprobe-optimization on\n",
				"k.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->kprobe_optimization == 1);
		T_CHECK(ps->reference == NULL);
		lb_probeset_free(ps);
	}
	/* Without the line, optimization is left alone. */
	ret = lb_probeset_parse("tracer ftrace\nkprobe schedule\n", "k.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->kprobe_optimization == -1 && ps->kprobe_optimization_line == 0);
		lb_probeset_free(ps);
	}
}

struct bad_case {
	const char *text;
	const char *path;
	int line;		/* 0: a problem with the file, "PATH: ..." */
	const char *message;	/* substring of the message */
};

static const struct bad_case bad_cases[] = {
	{ "tracer ftrace\ntrace net:netif_rx\n", "t.probeset", 2,
	  "unknown keyword 'trace'; expected one of: description, tracer, tracepoint, syscall, "
	  "kprobe, kretprobe, uprobe, uretprobe, usdt, buffer-kb, mode" },
	{ "# no tracer\ntracepoint net:netif_rx\n\n", "t.probeset", 3, "no 'tracer' line" },
	{ "tracer ftrace\nusdt request\n", "t.probeset", 2,
	  "bad usdt 'request': expected PROVIDER:NAME, a USDT marker of the workload server" },
	{ "tracer ftrace\nusdt loadbench:re-quest\n", "t.probeset", 2, "bad usdt 'loadbench:re-quest'" },
	{ "tracer ftrace\nusdt loadbench:request\nusdt loadbench:request\n", "t.probeset", 3,
	  "duplicate probe: usdt loadbench:request is already on line 2" },
	/* The command tracer's lines. */
	{ "tracer command\nready bpf\n", "t.probeset", 2, "no probes; expected at least one" },
	{ "tracer command\nstart\n", "t.probeset", 2, "'start' needs a value" },
	{ "tracer command\nstart bpftrace -e 'x\n", "t.probeset", 2,
	  "bad 'start' command line: an unclosed quote" },
	{ "tracer command\nstart a\nstart b\n", "t.probeset", 3,
	  "second 'start' line (the first is line 2)" },
	{ "tracer command\nstart a\nready line:(\n", "t.probeset", 3, "'ready line:': bad regex '('" },
	{ "tracer command\nstart a\nready soon\n", "t.probeset", 3,
	  "bad 'ready' value 'soon'; expected line:REGEX, delay:SEC, file:PATH, bpf or bpf:N" },
	{ "tracer command\nstart a\nready bpf:0\n", "t.probeset", 3,
	  "bad 'ready bpf:0': expected the number of BPF programs" },
	{ "tracer command\nstart a\nready delay:0\n", "t.probeset", 3,
	  "bad ready delay '0': expected seconds above 0" },
	{ "tracer command\nstart a\nready file:x\n", "t.probeset", 3,
	  "bad 'ready file:x': expected an absolute path" },
	{ "tracer command\nstart a\nstop SIGSTOP\n", "t.probeset", 3, "bad 'stop' signal 'SIGSTOP'" },
	{ "tracer command\nstart a\nstop SIGINT 200\n", "t.probeset", 3,
	  "bad 'stop' timeout '200': expected seconds above 0 and at most 120" },
	{ "tracer command\nstart a\nevents lots\n", "t.probeset", 3,
	  "bad 'events' value 'lots'; expected bpf, regex:REGEX or none" },
	{ "tracer command\nstart a\nevents regex:[\n", "t.probeset", 3, "'events regex:': bad regex" },
	{ "tracer command\nstart a\nready-within -1\n", "t.probeset", 3, "bad ready-within '-1'" },
	{ "tracer command\nstart a\ndefault-run maybe\n", "t.probeset", 3,
	  "bad default-run 'maybe': expected yes or no" },
	{ "tracer ftrace\nbinary python3\nusdt python:line\n", "t.probeset", 2,
	  "bad binary 'python3': expected the absolute path of an executable" },
	{ "tracer ftrace\nbinary /usr/bin/p:y\nusdt python:line\n", "t.probeset", 2,
	  "bad binary '/usr/bin/p:y'" },
	{ "tracer ftrace\nbinary /a\nbinary /b\nusdt python:line\n", "t.probeset", 3,
	  "second 'binary' line (the first is line 2)" },
	{ "tracer ftrace\nbinary /usr/bin/python3\nsyscall all\n", "t.probeset", 2,
	  "'binary' names the executable of the uprobe, uretprobe and usdt lines, but the set "
	  "has none" },
	{ "tracer ftrace\nbinary\n", "t.probeset", 2, "'binary' needs a value: expected the "
	  "absolute path" },
	{ "", "t.probeset", 1, "no 'tracer' line" },
	{ "tracer ftrace\ntracepoint a:b\ntracer perf\n", "t.probeset", 3,
	  "second 'tracer' line (the first is line 1)" },
	{ "tracer\n", "t.probeset", 1, "'tracer' needs a value: expected a tracer name" },
	{ "tracer FTrace\n", "t.probeset", 1, "bad tracer 'FTrace'" },
	{ "tracer ftrace perf\n", "t.probeset", 1, "'tracer' takes one value" },
	{ "tracer ftrace\ntracepoint net/netif_rx\n", "t.probeset", 2,
	  "bad tracepoint 'net/netif_rx': expected SYSTEM:EVENT" },
	{ "tracer lttng\ntracepoint net-if-rx\n", "t.probeset", 2,
	  "or an LTTng event name, e.g. net_if_receive_skb" },
	{ "tracer lttng\ntracepoint net_if_rx\ntracepoint net_if_rx\n", "t.probeset", 3,
	  "duplicate probe: tracepoint net_if_rx is already on line 2" },
	{ "tracer ftrace\ntracepoint :netif_rx\n", "t.probeset", 2, "bad tracepoint" },
	{ "tracer ftrace\ntracepoint net:\n", "t.probeset", 2, "bad tracepoint 'net:'" },
	{ "tracer ftrace\ntracepoint *:*\n", "t.probeset", 2, "bad tracepoint '*:*'" },
	{ "tracer ftrace\ntracepoint net:netif_*\n", "t.probeset", 2, "EVENT may be *" },
	{ "tracer ftrace\ntracepoint net:a:b\n", "t.probeset", 2, "bad tracepoint 'net:a:b'" },
	{ "tracer ftrace\n\n\nsyscall Read\n", "t.probeset", 4,
	  "bad syscall 'Read': expected 'all' or a syscall name" },
	{ "tracer ftrace\nsyscall sys-read\n", "t.probeset", 2, "bad syscall 'sys-read'" },
	{ "tracer ftrace\nsyscall\n", "t.probeset", 2, "'syscall' needs a value" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb 3\n", "t.probeset", 3,
	  "buffer-kb 3 is out of range; expected an integer from 4 to 4194304" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb 4194305\n", "t.probeset", 3,
	  "buffer-kb 4194305 is out of range; expected an integer from 4 to 4194304" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb 99999999999999999999999\n", "t.probeset", 3,
	  "is out of range" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb 4M\n", "t.probeset", 3,
	  "buffer-kb '4M' is not a number; expected an integer from 4 to 4194304" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb -8\n", "t.probeset", 3, "is not a number" },
	{ "tracer ftrace\nsyscall all\nbuffer-kb 64\nbuffer-kb 64\n", "t.probeset", 4,
	  "second 'buffer-kb' line (the first is line 3)" },
	{ "tracer ftrace\nsyscall all\nmode ring\n", "t.probeset", 3,
	  "bad mode 'ring': expected overwrite, discard or consumer" },
	{ "tracer ftrace\nsyscall all\nmode discard\nmode overwrite\n", "t.probeset", 4,
	  "second 'mode' line (the first is line 3)" },
	{ "tracer ftrace\nsyscall all\ncompare-with t\n", "t.probeset", 3,
	  "'compare-with t' names this probe set itself" },
	{ "tracer ftrace\ncompare-with a/b\nsyscall all\n", "t.probeset", 2,
	  "bad compare-with 'a/b': expected a probe-set name" },
	{ "tracer ftrace\ncompare-with ftrace\nsyscall all\ncompare-with bpf\n", "t.probeset", 4,
	  "second 'compare-with' line (the first is line 2)" },
	{ "tracer ftrace\nsyscall all\ncompare-with\n", "t.probeset", 3,
	  "'compare-with' needs a value: expected the name of the probe set this one builds on" },
	{ "tracer ftrace\nsyscall all\nreader-cpu elsewhere\nmode consumer\n", "t.probeset", 3,
	  "bad reader-cpu 'elsewhere': expected workload or other" },
	{ "tracer ftrace\nsyscall all\nmode consumer\nreader-cpu\n", "t.probeset", 4,
	  "'reader-cpu' needs a value: expected workload or other" },
	{ "tracer ftrace\nmode consumer\nreader-cpu other\nreader-cpu workload\nsyscall all\n",
	  "t.probeset", 4, "second 'reader-cpu' line (the first is line 3)" },
	{ "tracer ftrace\nsyscall all\nreader-cpu other\n", "t.probeset", 3,
	  "'reader-cpu' places the reader of 'mode consumer', but there is no 'mode' line" },
	{ "tracer ftrace\nsyscall all\nmode discard\nreader-cpu workload\n", "t.probeset", 4,
	  "'reader-cpu' places the reader of 'mode consumer', but the mode is not consumer" },
	{ "tracer ftrace\nsyscall all\nscope pid\n", "t.probeset", 3,
	  "bad scope 'pid': expected system or workload" },
	{ "tracer ftrace\nsyscall all\nscope\n", "t.probeset", 3,
	  "'scope' needs a value: expected system or workload" },
	{ "tracer ftrace\nsyscall all\nscope workload system\n", "t.probeset", 3,
	  "'scope' takes one value" },
	{ "tracer ftrace\nscope workload\nsyscall all\nscope workload\n", "t.probeset", 4,
	  "second 'scope' line (the first is line 2)" },
	{ "description a\ndescription b\ntracer ftrace\nsyscall all\n", "t.probeset", 2,
	  "second 'description' line (the first is line 1)" },
	{ "description   # only a comment\ntracer ftrace\nsyscall all\n", "t.probeset", 1,
	  "'description' needs a value" },
	{ "tracer ftrace\ntracepoint net:netif_rx\n# x\ntracepoint net:netif_rx  # again\n",
	  "t.probeset", 4, "duplicate probe: tracepoint net:netif_rx is already on line 2" },
	{ "tracer ftrace\ntracepoint net:*\ntracepoint net:netif_rx\n", "t.probeset", 3,
	  "duplicate probe: tracepoint net:netif_rx overlaps tracepoint net:* on line 2" },
	{ "tracer ftrace\nsyscall read\nsyscall read\n", "t.probeset", 3,
	  "duplicate probe: syscall read is already on line 2" },
	{ "tracer ftrace\nsyscall read\nsyscall all\n", "t.probeset", 3,
	  "syscall all overlaps syscall read on line 2" },
	{ "description nothing\ntracer ftrace\nmode overwrite\n", "t.probeset", 3,
	  "no probes; expected at least one 'tracepoint SYSTEM:EVENT', 'syscall NAME', "
	  "'kprobe SYMBOL' or 'uprobe FUNCTION'" },
	{ "tracer ftrace\nkprobe net:netif_rx\n", "t.probeset", 2,
	  "bad kprobe 'net:netif_rx': expected a kernel symbol (letters, digits, _ and .)" },
	{ "tracer ftrace\nkretprobe netif-rx\n", "t.probeset", 2, "bad kretprobe 'netif-rx'" },
	{ "tracer ftrace\nkprobe\n", "t.probeset", 2,
	  "'kprobe' needs a value: expected a kernel symbol" },
	{ "tracer ftrace\nkprobe netif_rx consume_skb\n", "t.probeset", 2,
	  "'kprobe' takes one value" },
	{ "tracer ftrace\nuprobe /bin/true:main\n", "t.probeset", 2,
	  "bad uprobe '/bin/true:main': expected a function of the workload server" },
	{ "tracer ftrace\nuretprobe\n", "t.probeset", 2,
	  "'uretprobe' needs a value: expected a function of the workload server" },
	{ "tracer ftrace\nkprobe netif_rx\nkprobe netif_rx\n", "t.probeset", 3,
	  "duplicate probe: kprobe netif_rx is already on line 2" },
	{ "tracer ftrace\nkretprobe a.isra.0\n\nkretprobe a.isra.0\n", "t.probeset", 4,
	  "duplicate probe: kretprobe a.isra.0 is already on line 2" },
	{ "tracer ftrace\nuprobe f\nuprobe f\n", "t.probeset", 3,
	  "duplicate probe: uprobe f is already on line 2" },
	{ "tracer ftrace\nuretprobe f\nuretprobe f\n", "t.probeset", 3,
	  "duplicate probe: uretprobe f is already on line 2" },
	{ "tracer ftrace\nkprobe schedule+5\nkprobe schedule+0x5\n", "t.probeset", 3,
	  "duplicate probe: kprobe schedule+5 is already on line 2" },
	{ "tracer ftrace\nkprobe schedule+0\n", "t.probeset", 2,
	  "bad kprobe offset '0': expected a number of bytes into the function from 1 to 65535" },
	{ "tracer ftrace\nkprobe schedule+\n", "t.probeset", 2, "bad kprobe offset ''" },
	{ "tracer ftrace\nkprobe schedule+5x\n", "t.probeset", 2, "bad kprobe offset '5x'" },
	{ "tracer ftrace\nkprobe schedule+0x\n", "t.probeset", 2, "bad kprobe offset '0x'" },
	{ "tracer ftrace\nkprobe schedule+65536\n", "t.probeset", 2,
	  "bad kprobe offset '65536'" },
	{ "tracer ftrace\nkprobe schedule+-1\n", "t.probeset", 2, "bad kprobe offset '-1'" },
	{ "tracer ftrace\nkprobe +5\n", "t.probeset", 2,
	  "bad kprobe '': expected a kernel symbol (letters, digits, _ and .), optionally +OFFSET" },
	{ "tracer ftrace\nkretprobe schedule+5\n", "t.probeset", 2,
	  "bad kretprobe 'schedule+5': a kretprobe fires on the function's return and takes no "
	  "offset" },
	{ "tracer ftrace\nuprobe lb_server_request+4\n", "t.probeset", 2,
	  "a uprobe takes a function's name, no offset" },
	{ "tracer ftrace\nkprobe schedule\nkprobe-optimization maybe\n", "t.probeset", 3,
	  "bad kprobe-optimization 'maybe': expected off (breakpoint kprobes, the 2006 kind) or on" },
	{ "tracer ftrace\nkprobe schedule\nkprobe-optimization\n", "t.probeset", 3,
	  "'kprobe-optimization' needs a value: expected off or on" },
	{ "tracer ftrace\nkprobe-optimization off\nkprobe schedule\nkprobe-optimization on\n",
	  "t.probeset", 4, "second 'kprobe-optimization' line (the first is line 2)" },
	{ "tracer ftrace\nkprobe schedule\nreference\n", "t.probeset", 3,
	  "'reference' needs a value" },
	{ "tracer ftrace\nreference a\nkprobe schedule\nreference b\n", "t.probeset", 4,
	  "second 'reference' line (the first is line 2)" },
	{ "tracer ftrace\nsyscall all\ndescription bell\a\n", "t.probeset", 3,
	  "control character 0x07" },
	{ "tracer ftrace\nsyscall all\n", "dir/bad name.probeset", 0,
	  "bad probe-set name 'bad name' (the file name without .probeset)" },
	{ "tracer ftrace\nsyscall all\n", "dir/.probeset", 0, "bad probe-set name ''" },
};

static void check_error(const char *text, const char *path, int line, const char *message)
{
	struct lb_probeset *ps = (struct lb_probeset *)1;
	char err[512] = "", prefix[256];
	int ret;

	ret = lb_probeset_parse(text, path, &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL);
	T_CHECK(ps == NULL);
	if (line)
		snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", path);
	if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, message)) {
		fprintf(stderr, "for \"%s\":\n  got      \"%s\"\n  expected \"%s...%s...\"\n",
			text, err, prefix, message);
		t_failures++;
	}
	if (!ret)
		lb_probeset_free(ps);
}

/* scope: system (the default) or workload, at most once. */
static void test_scope(void)
{
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse("tracer ftrace\nsyscall all\n", "s.probeset", &ps, err,
				sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->scope == LB_SCOPE_SYSTEM);
		T_CHECK(ps->scope_line == 0);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer strace\nsyscall all\n\nscope   workload # pids\n",
				"s.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->scope == LB_SCOPE_WORKLOAD);
		T_CHECK(ps->scope_line == 4);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("scope system\ntracer ftrace\nsyscall all\n", "s.probeset", &ps,
				err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->scope == LB_SCOPE_SYSTEM);
		T_CHECK(ps->scope_line == 1);
		lb_probeset_free(ps);
	}
}

/* The command tracer's lines, and default-run. */
static void test_command(void)
{
	struct lb_probeset *ps = NULL;
	char err[512] = "";
	int ret;

	ret = lb_probeset_parse("tracer  command\n"
				"start   bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'\n"
				"ready   line:^Attaching [0-9]+ probes?\n"
				"ready-within 45\n"
				"stop    SIGTERM 2.5   # then SIGKILL\n"
				"events  regex:^[a-z]+\n"
				"default-run no\n", "c.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	T_CHECK(ps->nprobes == 0);
	T_CHECK_STR(ps->start, "bpftrace -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'");
	T_CHECK(ps->start_line == 2);
	T_CHECK_STR(ps->ready, "line:^Attaching [0-9]+ probes?");
	T_CHECK(ps->ready_within == 45);
	T_CHECK(ps->stop_signal == 15);
	T_CHECK(ps->stop_within == 2.5);
	T_CHECK_STR(ps->events, "regex:^[a-z]+");
	T_CHECK(ps->default_run == 0 && ps->default_run_line == 7);
	lb_probeset_free(ps);

	ret = lb_probeset_parse("tracer command\nstart bpftrace -e x\nready bpf:18\n", "n.probeset",
				&ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->ready, "bpf:18");
		T_CHECK(ps->ready_nprogs == 18);
		lb_probeset_free(ps);
	}

	/* usdt PROVIDER:NAME: the provider as the system, the marker as the event. */
	ret = lb_probeset_parse("tracer ftrace\nusdt loadbench:request\nusdt python:function__entry\n",
				"u.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		check_probe(ps, 0, LB_PROBE_USDT, "loadbench", "request", 2);
		check_probe(ps, 1, LB_PROBE_USDT, "python", "function__entry", 3);
		lb_probeset_free(ps);
	}

	/* The defaults: no ready, stop or events line; in the default run. */
	ret = lb_probeset_parse("tracer command\nstart perf trace -s -p {pids}\n", "d.probeset", &ps,
				err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(!ps->ready && !ps->events && ps->stop_signal == 0 && ps->stop_within == 0);
		T_CHECK(ps->default_run == 1 && ps->default_run_line == 0);
		lb_probeset_free(ps);
	}
	ret = lb_probeset_parse("tracer ftrace\nsyscall all\ndefault-run yes\n", "y.probeset", &ps,
				err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->default_run == 1 && ps->default_run_line == 3);
		T_CHECK(!ps->binary && !ps->binary_line);
		lb_probeset_free(ps);
	}
	/* binary: the executable of the usdt (and uprobe) lines. */
	ret = lb_probeset_parse("tracer ftrace\nusdt python:function__entry\n"
				"binary /usr/bin/python3.11\n", "b.probeset", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK(ps->binary && !strcmp(ps->binary, "/usr/bin/python3.11"));
		T_CHECK(ps->binary_line == 3);
		lb_probeset_free(ps);
	}
}

static void test_bad(void)
{
	size_t i, len = 4097;
	char *text;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
		check_error(bad_cases[i].text, bad_cases[i].path, bad_cases[i].line,
			    bad_cases[i].message);

	/* Lines up to 4096 bytes are fine; longer ones are not. */
	text = malloc(64 + len + 1);
	if (!text) {
		t_failures++;
		return;
	}
	strcpy(text, "tracer ftrace\nsyscall all\n#");
	memset(text + strlen(text), 'x', 4095);
	strcpy(text + 26 + 4096, "\n");
	{
		struct lb_probeset *ps;
		char err[256];

		T_CHECK(lb_probeset_parse(text, "ok.probeset", &ps, err, sizeof(err)) == 0);
		lb_probeset_free(ps);
	}
	strcpy(text + 26 + 4096, "x\ntracer b\n");
	check_error(text, "t.probeset", 3, "line is 4097 bytes long; expected at most 4096");
	free(text);
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static char *tmp_path(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static void test_load(void)
{
	static const char nul[] = "tracer ftrace\nsyscall all\n# a\0b\n";
	struct lb_probeset *ps = NULL;
	char err[512] = "", expect[512];
	size_t big = 1024 * 1024 + 1;
	char *data;
	int ret;

	T_CHECK(write_file(tmp_path("nul.probeset"), nul, sizeof(nul) - 1) == 0);
	ret = lb_probeset_load(tmp_path("nul.probeset"), &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL);
	T_CHECK(ps == NULL);
	snprintf(expect, sizeof(expect), "%s:3: NUL byte", tmp_path("nul.probeset"));
	T_CHECK(strstr(err, expect) == err);

	/* 1 MiB exactly is accepted (a big comment); one byte more is not. */
	data = malloc(big);
	if (!data) {
		t_failures++;
		return;
	}
	memset(data, '\n', big);
	memcpy(data, "tracer ftrace\nsyscall all\n", 26);
	T_CHECK(write_file(tmp_path("big.probeset"), data, big - 1) == 0);
	ret = lb_probeset_load(tmp_path("big.probeset"), &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	lb_probeset_free(ps);
	T_CHECK(write_file(tmp_path("big.probeset"), data, big) == 0);
	ret = lb_probeset_load(tmp_path("big.probeset"), &ps, err, sizeof(err));
	T_CHECK(ret == -EFBIG);
	T_CHECK(ps == NULL);
	T_CHECK(strstr(err, "larger than 1 MiB") != NULL);
	free(data);
	unlink(tmp_path("big.probeset"));
	unlink(tmp_path("nul.probeset"));

	ret = lb_probeset_load(tmp_path("missing.probeset"), &ps, err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, "cannot open") != NULL);
	ret = lb_probeset_load(tmpdir, &ps, err, sizeof(err));
	T_CHECK(ret == -EISDIR);

	/*
	 * A FIFO or a device is refused at once: open() of a FIFO nobody writes to
	 * would block (SIGALRM ends the test then), a device is not a probe set.
	 */
	T_CHECK(mkfifo(tmp_path("fifo.probeset"), 0600) == 0);
	alarm(5);
	ret = lb_probeset_load(tmp_path("fifo.probeset"), &ps, err, sizeof(err));
	alarm(0);
	T_CHECK(ret == -EINVAL && ps == NULL);
	T_CHECK(strstr(err, "fifo.probeset is not a regular file (a FIFO): give a .probeset") != NULL);
	unlink(tmp_path("fifo.probeset"));
	ret = lb_probeset_load("/dev/null", &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL && ps == NULL);
	T_CHECK(strstr(err, "/dev/null is not a regular file (a character device)") == err);
}

/*
 * A name of 3000 bytes (too long to be a file's) is an unknown probe set,
 * quoted short in the message so that what it says after it, the catalog's
 * names and the fix, is whole.
 */
static void test_long_name(void)
{
	static const char fix[] = "(or give a path to a .probeset file)";
	struct lb_probeset *ps = NULL;
	char name[3001], err[1024];
	size_t len;

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	T_CHECK(lb_probeset_find(name, LB_SRCDIR "/probesets", &ps, err, sizeof(err)) == -ENOENT);
	T_CHECK(ps == NULL);
	T_CHECK(strstr(err, "unknown probe set 'aaaa") == err);
	T_CHECK(strstr(err, "a... (3000 bytes)': the catalog in ") != NULL);
	len = strlen(err);
	T_CHECK(len > sizeof(fix) && !strcmp(err + len - (sizeof(fix) - 1), fix));
}

static void test_catalog(void)
{
	static const char good[] = "description d\ntracer ftrace\ntracepoint net:netif_rx\n";
	struct lb_probeset *ps = NULL;
	char *catalog, cwd[4096];
	char err[512] = "";
	char **names = NULL;
	int n, ret;

	catalog = strdup(tmp_path("catalog"));
	if (!catalog || mkdir(catalog, 0755)) {
		t_failures++;
		free(catalog);
		return;
	}
	n = lb_catalog_names(catalog, &names);
	T_CHECK(n == 0);
	T_CHECK(names && names[0] == NULL);
	lb_catalog_names_free(names);

	T_CHECK(write_file(tmp_path("catalog/zeta.probeset"), good, strlen(good)) == 0);
	T_CHECK(write_file(tmp_path("catalog/alpha+beta.probeset"), good, strlen(good)) == 0);
	T_CHECK(write_file(tmp_path("catalog/mid.probeset"), "tracer\n", 7) == 0);
	T_CHECK(write_file(tmp_path("catalog/README"), "x", 1) == 0);
	T_CHECK(write_file(tmp_path("catalog/notes.probeset.txt"), "x", 1) == 0);
	T_CHECK(mkdir(tmp_path("catalog/dir.probeset"), 0755) == 0);

	n = lb_catalog_names(catalog, &names);
	T_CHECK(n == 3);
	if (n == 3) {
		T_CHECK_STR(names[0], "alpha+beta");
		T_CHECK_STR(names[1], "mid");
		T_CHECK_STR(names[2], "zeta");
		T_CHECK(names[3] == NULL);
	}
	lb_catalog_names_free(names);
	lb_catalog_names_free(NULL);
	T_CHECK(lb_catalog_names(tmp_path("nonexistent"), &names) == -ENOENT);
	T_CHECK(names == NULL);

	/* By name. */
	ret = lb_probeset_find("alpha+beta", catalog, &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->name, "alpha+beta");
		T_CHECK_STR(ps->path, tmp_path("catalog/alpha+beta.probeset"));
		lb_probeset_free(ps);
	}
	/* A catalog file with an error reports the error, not "unknown". */
	ret = lb_probeset_find("mid", catalog, &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL);
	T_CHECK(strstr(err, "mid.probeset:1: 'tracer' needs a value") != NULL);

	/* By path: with a '/', or ending in .probeset (relative to the cwd). */
	ret = lb_probeset_find(tmp_path("catalog/zeta.probeset"), "/nonexistent", &ps, err,
			       sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->name, "zeta");
		lb_probeset_free(ps);
	}
	T_CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	T_CHECK(chdir(catalog) == 0);
	ret = lb_probeset_find("zeta.probeset", "/nonexistent", &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (!ret) {
		T_CHECK_STR(ps->path, "zeta.probeset");
		lb_probeset_free(ps);
	}
	T_CHECK(chdir(cwd) == 0);
	ret = lb_probeset_find(tmp_path("catalog/none.probeset"), catalog, &ps, err, sizeof(err));
	T_CHECK(ret == -ENOENT);

	/* Unknown names list the catalog. */
	ret = lb_probeset_find("nope", catalog, &ps, err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(ps == NULL);
	{
		char expect[512];

		snprintf(expect, sizeof(expect), "unknown probe set 'nope': the catalog in %s has: "
			 "alpha+beta, mid, zeta (or give a path to a .probeset file)", catalog);
		T_CHECK_STR(err, expect);
	}
	ret = lb_probeset_find("x", tmp_path("nonexistent"), &ps, err, sizeof(err));
	T_CHECK(ret == -ENOENT);
	T_CHECK(strstr(err, "unknown probe set 'x'") == err);
	ret = lb_probeset_find("", catalog, &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL);
	ret = lb_probeset_find("a b", catalog, &ps, err, sizeof(err));
	T_CHECK(ret == -EINVAL);

	/* A short error buffer truncates, never overflows. */
	{
		char small[8];

		ret = lb_probeset_find("nope", catalog, &ps, small, sizeof(small));
		T_CHECK(ret == -ENOENT);
		T_CHECK_STR(small, "unknown");
	}

	unlink(tmp_path("catalog/zeta.probeset"));
	unlink(tmp_path("catalog/alpha+beta.probeset"));
	unlink(tmp_path("catalog/mid.probeset"));
	unlink(tmp_path("catalog/README"));
	unlink(tmp_path("catalog/notes.probeset.txt"));
	rmdir(tmp_path("catalog/dir.probeset"));
	rmdir(catalog);
	free(catalog);
}

/* Every file in the real catalog parses, and the catalog has the two basic sets. */
static void test_real_catalog(void)
{
	const char *catalog = LB_SRCDIR "/probesets";
	bool have_ftrace = false, have_syscalls = false;
	char **names = NULL;
	int n, i;

	n = lb_catalog_names(catalog, &names);
	T_CHECK(n >= 2);
	for (i = 0; i < n; i++) {
		struct lb_probeset *ps = NULL;
		char err[512] = "";
		int ret;

		ret = lb_probeset_find(names[i], catalog, &ps, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "catalog probe set %s: %s\n", names[i], err);
			t_failures++;
			continue;
		}
		T_CHECK_STR(ps->name, names[i]);
		T_CHECK(ps->description != NULL);
		/* A command set's probes are its tool's; the others name theirs. */
		T_CHECK(ps->nprobes > 0 || (ps->start && !strcmp(ps->tracer, "command")));
		if (ps->start)
			T_CHECK(!ps->default_run);	/* seconds per switch: named only */
		if (!strcmp(names[i], "ftrace")) {
			have_ftrace = true;
			T_CHECK_STR(ps->tracer, "ftrace");
			T_CHECK(ps->buffer_kb == 4096);
			T_CHECK(ps->mode == LB_MODE_OVERWRITE);
			for (size_t j = 0; j < ps->nprobes; j++) {
				T_CHECK(ps->probes[j].kind == LB_PROBE_TRACEPOINT);
				T_CHECK(strcmp(ps->probes[j].event, "*"));
			}
		}
		/* Every catalog file opens with a comment saying what it is and why. */
		T_CHECK(ps->text[0] == '#');
		T_CHECK(strstr(ps->text, "Why") || strstr(ps->text, "What"));
		if (!strncmp(names[i], "ftrace-consumer", 15)) {
			T_CHECK(ps->mode == LB_MODE_CONSUMER);
			T_CHECK(ps->reader_cpu == (strcmp(names[i], "ftrace-consumer") ?
						   LB_READER_OTHER : LB_READER_WORKLOAD));
		}
		/* A compare-with names a catalog set of the same tracer, which names none. */
		if (ps->compare_with) {
			struct lb_probeset *base = NULL;

			T_CHECK(lb_probeset_find(ps->compare_with, catalog, &base, err,
						 sizeof(err)) == 0);
			if (base) {
				T_CHECK_STR(base->tracer, ps->tracer);
				T_CHECK(base->compare_with == NULL);
				lb_probeset_free(base);
			}
		}
		if (!strcmp(names[i], "syscalls")) {
			have_syscalls = true;
			T_CHECK_STR(ps->tracer, "ftrace");
			T_CHECK(ps->nprobes == 1);
			check_probe(ps, 0, LB_PROBE_SYSCALL, NULL, "all", ps->probes[0].line);
		}
		lb_probeset_free(ps);
	}
	T_CHECK(have_ftrace);
	T_CHECK(have_syscalls);
	lb_catalog_names_free(names);
}

/* The agents' templates in examples/probesets parse, as command sets named only by path. */
static void test_examples(void)
{
	static const char *const files[] = { "falco", "tetragon", "tracee" };

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct lb_probeset *ps = NULL;
		char path[512], err[512] = "";

		snprintf(path, sizeof(path), "%s/examples/probesets/%s.probeset", LB_SRCDIR,
			 files[i]);
		T_CHECK(lb_probeset_load(path, &ps, err, sizeof(err)) == 0);
		if (!ps) {
			fprintf(stderr, "%s: %s\n", path, err);
			continue;
		}
		T_CHECK_STR(ps->tracer, "command");
		T_CHECK(ps->start && ps->events && !strcmp(ps->events, "bpf"));
		T_CHECK(strstr(ps->description, "your own install") != NULL);
		lb_probeset_free(ps);
	}
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return T_EXIT_ERROR;
	}
	lb_probeset_free(NULL);
	test_good();
	test_symbols();
	test_kprobe_kinds();
	test_scope();
	test_command();
	test_consumer();
	test_compare_with();
	test_bad();
	test_load();
	test_long_name();
	test_catalog();
	test_real_catalog();
	test_examples();
	if (rmdir(tmpdir))
		fprintf(stderr, "cannot remove %s: %s\n", tmpdir, strerror(errno));
	return t_exit();
}
