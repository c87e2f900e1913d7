// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a probe set cannot run here, as a code (src/tracers/unavailable.h):
 * every code's brief; the run's "skipping" line grouped by code, from
 * synthetic plan entries and from a plan of catalog sets this machine lacks
 * something for; and every code set by the place that writes its message,
 * through lb_tracer_create() (or the stap tracer's create()) wherever this
 * machine can trigger it: as root, in a child that drops root, in a child
 * whose ptrace, perf_event_open and bpf seccomp refuses, and for the stap
 * modules of `loadbench stap-build' a build tree without symbols. A code no
 * path here triggers must at least be written by a message in the sources.
 * Exits 77 when no code could be triggered.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "helpers.h"
#include "plan.h"
#include "probeset.h"
#include "skipped.h"
#include "stap_script.h"
#include "tracefs_util.h"
#include "tracer.h"
#include "unavailable.h"

#ifndef LB_SRCDIR
#define LB_SRCDIR "."
#endif
#define CATALOG LB_SRCDIR "/probesets"

/* Every code, its name in the sources and the brief a run's warning gives it. */
static const struct {
	enum lb_unavailable code;
	const char *name, *brief;
} codes[] = {
	{ LB_UNAVAIL_OTHER, "LB_UNAVAIL_OTHER", NULL },
	{ LB_UNAVAIL_ROOT, "LB_UNAVAIL_ROOT", "needs root" },
	{ LB_UNAVAIL_KPROBES, "LB_UNAVAIL_KPROBES", "no kprobes" },
	{ LB_UNAVAIL_UPROBES, "LB_UNAVAIL_UPROBES", "no uprobes" },
	{ LB_UNAVAIL_LTTNG_MODULES, "LB_UNAVAIL_LTTNG_MODULES", "no lttng-modules" },
	{ LB_UNAVAIL_LTTNG_SESSIOND, "LB_UNAVAIL_LTTNG_SESSIOND", "no lttng-sessiond" },
	{ LB_UNAVAIL_LTTNG_CTL, "LB_UNAVAIL_LTTNG_CTL", "no liblttng-ctl" },
	{ LB_UNAVAIL_BABELTRACE, "LB_UNAVAIL_BABELTRACE", "no babeltrace2 ctf plugin" },
	{ LB_UNAVAIL_MODULES, "LB_UNAVAIL_MODULES", "no loadable modules" },
	{ LB_UNAVAIL_STAPRUN, "LB_UNAVAIL_STAPRUN", "no staprun" },
	{ LB_UNAVAIL_STAP, "LB_UNAVAIL_STAP", "no stap" },
	{ LB_UNAVAIL_KBUILD, "LB_UNAVAIL_KBUILD", "no kernel headers" },
	{ LB_UNAVAIL_KSYMS, "LB_UNAVAIL_KSYMS", "no kernel symbols to build stap kprobes" },
	{ LB_UNAVAIL_STAP_MODULE, "LB_UNAVAIL_STAP_MODULE", "stap module not built" },
	{ LB_UNAVAIL_LIBBPF, "LB_UNAVAIL_LIBBPF", "no libbpf" },
	{ LB_UNAVAIL_BPF_REFUSED, "LB_UNAVAIL_BPF_REFUSED", "BPF refused" },
	{ LB_UNAVAIL_PERF_EVENTS, "LB_UNAVAIL_PERF_EVENTS", "no perf events" },
	{ LB_UNAVAIL_PERF_OPEN, "LB_UNAVAIL_PERF_OPEN", "perf_event_open fails" },
	{ LB_UNAVAIL_PTRACE, "LB_UNAVAIL_PTRACE", "ptrace blocked" },
	{ LB_UNAVAIL_TRACEFS, "LB_UNAVAIL_TRACEFS", "no tracefs" },
	{ LB_UNAVAIL_TRACEPOINT, "LB_UNAVAIL_TRACEPOINT", "unknown tracepoint" },
	{ LB_UNAVAIL_TOOL, "LB_UNAVAIL_TOOL", "tool not installed" },
	{ LB_UNAVAIL_LTTNG_UST, "LB_UNAVAIL_LTTNG_UST", "no liblttng-ust" },
};
#define NCODES (sizeof(codes) / sizeof(codes[0]))

/* The codes a tracer set here; shared with the children. */
static bool *seen;

/* What this machine has, which says what a set's code must be. */
static struct {
	bool root, ftrace, kprobes, uprobes, modules, lttng_proc;
	int paranoid;		/* perf_event_paranoid; INT_MIN without perf events */
} here;

static const char *code_name(enum lb_unavailable code)
{
	return (unsigned int)code < NCODES ? codes[code].name : "(out of range)";
}

static void test_briefs(void)
{
	T_CHECK(NCODES == LB_UNAVAIL_COUNT);
	for (size_t i = 0; i < NCODES; i++) {
		const char *brief = lb_unavailable_brief(codes[i].code);

		T_CHECK(codes[i].code == (enum lb_unavailable)i);
		if (!codes[i].brief) {
			T_CHECK(brief == NULL);
			continue;
		}
		T_CHECK_STR(brief, codes[i].brief);
		T_CHECK(lb_unavailable_find(codes[i].brief) == codes[i].code);
		for (size_t j = 0; j < i; j++)
			T_CHECK(!codes[j].brief || strcmp(codes[j].brief, codes[i].brief));
	}
	T_CHECK(lb_unavailable_brief(LB_UNAVAIL_COUNT) == NULL);
	T_CHECK(lb_unavailable_brief((enum lb_unavailable)-1) == NULL);
	T_CHECK(lb_unavailable_find("") == LB_UNAVAIL_OTHER);
	T_CHECK(lb_unavailable_find("needs root: run with sudo") == LB_UNAVAIL_OTHER);

	/* The code is what a message says; the last one written, once. */
	lb_unavailable_take();
	T_CHECK(lb_unavailable_take() == LB_UNAVAIL_OTHER);
	{
		char buf[32];

		lb_unavailable_say(LB_UNAVAIL_PTRACE, buf, sizeof(buf), "%s %d", "blocked", 3);
		T_CHECK_STR(buf, "blocked 3");
	}
	T_CHECK(lb_unavailable_take() == LB_UNAVAIL_PTRACE);
	T_CHECK(lb_unavailable_take() == LB_UNAVAIL_OTHER);
}

/* A code's brief, whatever the message says; without one, the message's first clause. */
static void test_skipped_brief(void)
{
	char buf[64];

	for (size_t i = 1; i < NCODES; i++)
		T_CHECK_STR(lb_skipped_brief(codes[i].code, "probe set x cannot run here: it says "
					     "anything at all", buf, sizeof(buf)),
			    codes[i].brief);
	T_CHECK_STR(lb_skipped_brief(LB_UNAVAIL_OTHER, "probe set ftrace cannot run here: this "
				     "kernel's tracefs has no /sys/kernel/tracing/instances: "
				     "ftrace instances need CONFIG_TRACING", buf, sizeof(buf)),
		    "this kernel's tracefs has no");
	T_CHECK_STR(lb_skipped_brief(LB_UNAVAIL_OTHER, "/x/y.probeset:12: unknown tracer 'nope' "
				     "(known: ftrace, perf)", buf, sizeof(buf)),
		    "unknown tracer 'nope'");
	/* No word of it is looked for: "ptrace" in a message is not "ptrace blocked". */
	T_CHECK_STR(lb_skipped_brief(LB_UNAVAIL_OTHER, "probe set strace cannot run here: cannot "
				     "fork to test ptrace: Resource temporarily unavailable", buf,
				     sizeof(buf)),
		    "cannot fork to test ptrace");
}

/* The sets of one code together, in the order the codes come; by code, not by text. */
static void test_skipped_line(void)
{
	static const struct {
		const char *name;
		enum lb_unavailable why;
		const char *reason;	/* NULL: measured */
	} in[] = {
		{ "all", LB_UNAVAIL_KPROBES, "probe set all cannot run here: needs kprobes: no "
					     "kprobe_events" },
		{ "ftrace", LB_UNAVAIL_OTHER, NULL },
		{ "lttng", LB_UNAVAIL_LTTNG_MODULES, "probe set lttng cannot run here: words" },
		{ "bpf+kprobe", LB_UNAVAIL_KPROBES, "probe set bpf+kprobe cannot run here: other "
						    "words entirely" },
		{ "x", LB_UNAVAIL_OTHER, "probe set x cannot run here: cannot fork to test ptrace: "
					 "No space" },
		{ "y", LB_UNAVAIL_OTHER, "/p/y.probeset:3: this kernel has no raw_syscalls events "
					 "(CONFIG_FTRACE_SYSCALLS unset)" },
		{ "z", LB_UNAVAIL_OTHER, "probe set z cannot run here: cannot fork to test ptrace: "
					 "Try again" },
		{ "stap", LB_UNAVAIL_MODULES, "probe set stap cannot run here: kernel without "
					      "module support" },
	};
	struct lb_probeset sets[sizeof(in) / sizeof(in[0])];
	struct lb_plan_entry entries[sizeof(in) / sizeof(in[0])];
	const struct lb_plan_entry *e[sizeof(in) / sizeof(in[0])];
	char *line;

	memset(sets, 0, sizeof(sets));
	memset(entries, 0, sizeof(entries));
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		sets[i].name = (char *)in[i].name;
		entries[i].set = &sets[i];
		entries[i].why = in[i].why;
		entries[i].skipped = in[i].reason;
		e[i] = &entries[i];
	}
	line = lb_skipped_line(e, (int)(sizeof(in) / sizeof(in[0])));
	T_CHECK_STR(line, "all, bpf+kprobe (no kprobes); lttng (no lttng-modules); x, z (cannot "
			  "fork to test ptrace); y (this kernel has no raw_syscalls events); stap "
			  "(no loadable modules)");
	free(line);
	line = lb_skipped_line(e + 1, 1);
	T_CHECK_STR(line, "");
	free(line);
}

/* lb_tracer_create() of @ps failed with code @want: a tracer sets it. */
static void expect_code(const struct lb_probeset *ps, enum lb_unavailable want)
{
	enum lb_unavailable got = LB_UNAVAIL_COUNT;
	struct lb_tracer *t = NULL;
	char err[1024] = "";
	int ret;

	ret = lb_tracer_create(ps, NULL, &t, &got, err, sizeof(err));
	printf("%s (%s): %s: %s\n", ps->name, ps->tracer, code_name(got), ret ? err : "created");
	T_CHECK(ret != 0);
	T_CHECK(got == want);
	if (got != want)
		fprintf(stderr, "%s: expected %s\n", ps->name, code_name(want));
	else if (ret)
		seen[want] = true;
	lb_tracer_destroy(t);
}

/*
 * Catalog set @name, or with @text the set it says (as /t/NAME.probeset).
 * The children's are loaded before they drop what reading the catalog takes.
 */
static struct lb_probeset *load(const char *name, const char *text)
{
	struct lb_probeset *ps = NULL;
	char err[1024], path[128];
	int ret;

	snprintf(path, sizeof(path), "/t/%s.probeset", name);
	ret = text ? lb_probeset_parse(text, path, &ps, err, sizeof(err)) :
		     lb_probeset_find(name, CATALOG, &ps, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		t_failures++;
	}
	return ps;
}

/* load() and expect_code(). */
static void expect_set(const char *name, const char *text, enum lb_unavailable want)
{
	struct lb_probeset *ps = load(name, text);

	if (ps)
		expect_code(ps, want);
	lb_probeset_free(ps);
}

/* What this process can tell without root: the codes the catalog sets must get. */
static void test_here(void)
{
	if (!here.modules)
		expect_set("stap", NULL, LB_UNAVAIL_MODULES);
#ifndef HAVE_LTTNG
	expect_set("lttng", NULL, LB_UNAVAIL_LTTNG_CTL);
#else
	if (!here.modules && !here.lttng_proc)
		expect_set("lttng", NULL, LB_UNAVAIL_LTTNG_MODULES);
#endif
#ifndef HAVE_LIBBPF
	expect_set("bpf", NULL, LB_UNAVAIL_LIBBPF);
#endif
#if defined(HAVE_LTTNG) && !defined(HAVE_LTTNG_UST)
	expect_set("lttng-ust", NULL, LB_UNAVAIL_LTTNG_UST);
#endif
	/* A command set's tool that is not installed, root or not. */
	expect_set("no-tool", "tracer command\nstart loadbench-no-such-tool -e x\n", LB_UNAVAIL_TOOL);
	if (!here.ftrace) {
		printf("SKIP: no kprobes, uprobes or tracepoint codes: the ftrace tracer does not "
		       "run here\n");
		return;
	}
	if (!here.kprobes)
		expect_set("ftrace+kprobe", NULL, LB_UNAVAIL_KPROBES);
	if (!here.uprobes)
		expect_set("uprobe", NULL, LB_UNAVAIL_UPROBES);
	expect_set("no-event", "tracer ftrace\ntracepoint sched:loadbench_no_such_event\n",
		   LB_UNAVAIL_TRACEPOINT);
	expect_set("no-system", "tracer ftrace\ntracepoint loadbench_no_such_system:x\n",
		   LB_UNAVAIL_TRACEPOINT);
}

/* A child's exit, its output written. */
static void __attribute__((noreturn)) child_exit(int status)
{
	fflush(NULL);
	_exit(status);
}

/* Runs @fn in a child; its failures count here. */
static void in_child(const char *what, void (*fn)(void *), void *arg)
{
	pid_t pid;
	int st;

	fflush(NULL);	/* nothing of ours written twice */
	pid = fork();
	if (pid < 0) {
		perror("fork");
		t_failures++;
		return;
	}
	if (!pid) {
		t_failures = 0;
		fn(arg);
		child_exit(t_failures ? T_EXIT_FAIL : T_EXIT_PASS);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || (WEXITSTATUS(st) && WEXITSTATUS(st) != T_EXIT_SKIP)) {
		fprintf(stderr, "%s: the child failed (status %#x)\n", what, st);
		t_failures++;
	}
}

/* Catalog sets loaded as root, for the children. */
enum { FTRACE, BPF, PERF, STAP, LTTNG, STRACE, NSETS };
static const char *const set_names[NSETS] = { "ftrace", "bpf", "perf", "stap", "lttng", "strace" };
static struct lb_probeset *child_sets[NSETS];

/* A child as nobody: every tracer that needs root says so first, or what it lacks before. */
static void unprivileged(void *arg)
{
	(void)arg;
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534)) {
		printf("SKIP: cannot become nobody: %s\n", strerror(errno));
		child_exit(T_EXIT_SKIP);
	}
	expect_code(child_sets[FTRACE], LB_UNAVAIL_ROOT);
#ifdef HAVE_LIBBPF
	expect_code(child_sets[BPF], LB_UNAVAIL_ROOT);
#endif
	expect_code(child_sets[STAP], here.modules ? LB_UNAVAIL_ROOT : LB_UNAVAIL_MODULES);
#ifdef HAVE_LTTNG
	expect_code(child_sets[LTTNG], here.modules || here.lttng_proc ? LB_UNAVAIL_ROOT :
			      LB_UNAVAIL_LTTNG_MODULES);
#endif
	if (here.paranoid != INT_MIN && here.paranoid > -1)
		expect_code(child_sets[PERF], LB_UNAVAIL_ROOT);
}

/*
 * A seccomp filter: ptrace, perf_event_open and bpf fail with errno @e (the
 * native numbers only: enough for this process). Returns 0 or -errno.
 */
static int refuse_syscalls(int e)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_bpf, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned int)e & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

/* A root child whose ptrace, perf_event_open and bpf fail with *@arg. */
static void refused(void *arg)
{
	int e = *(int *)arg, ret = refuse_syscalls(e);

	if (ret) {
		printf("SKIP: no seccomp filter here: %s\n", strerror(-ret));
		child_exit(T_EXIT_SKIP);
	}
	if (e == EPERM) {
		/* perf_event_open(2) refused for want of privilege: root, or paranoid <= -1. */
		if (here.paranoid != INT_MIN)
			expect_code(child_sets[PERF], LB_UNAVAIL_ROOT);
		return;
	}
	expect_code(child_sets[STRACE], LB_UNAVAIL_PTRACE);
	if (here.paranoid != INT_MIN)
		expect_code(child_sets[PERF], LB_UNAVAIL_PERF_OPEN);
#ifdef HAVE_LIBBPF
	expect_code(child_sets[BPF], LB_UNAVAIL_BPF_REFUSED);
#endif
}

static void test_children(void)
{
	int enosys = ENOSYS, eperm = EPERM;
	bool loaded = true;

	if (!here.root) {
		printf("SKIP: no child drops root or blocks syscalls: not root\n");
		return;
	}
	for (int i = 0; i < NSETS; i++)
		loaded &= (child_sets[i] = load(set_names[i], NULL)) != NULL;
	if (loaded) {
		in_child("as nobody", unprivileged, NULL);
		in_child("syscalls refused (ENOSYS)", refused, &enosys);
		in_child("syscalls refused (EPERM)", refused, &eperm);
	}
	for (int i = 0; i < NSETS; i++)
		lb_probeset_free(child_sets[i]);
}

/* The stap tracer's create() with LOADBENCH_STAP_MODULES=@mods, its code into *@why. */
static int stap_create(const struct lb_probeset *ps, const char *mods, enum lb_unavailable *why,
		       char *err, size_t len)
{
	void *priv = NULL;
	int ret;

	setenv("LOADBENCH_STAP_MODULES", mods, 1);
	lb_unavailable_take();
	ret = lb_tracer_stap.create(ps, NULL, &priv, err, len);
	*why = lb_unavailable_take();
	unsetenv("LOADBENCH_STAP_MODULES");
	if (!ret)
		lb_tracer_stap.destroy(priv);
	return ret;
}

/*
 * stap-build against a build tree whose System.map is a stub: the kprobe set
 * is not built and its NAME.why says so with its code, which the stap
 * tracer's create() gives as its own; a .why without a code (an older
 * stap-build's) gives "stap module not built".
 */
static void test_stap_build(void)
{
	char tmp[] = "/tmp/test-skipped.XXXXXX", kbuild[64] = "", mods[64] = "", why[256];
	char map[128], name[64], *script = NULL, *text = NULL, *argv[7], err[1024];
	struct lb_probeset *ps = NULL;
	enum lb_unavailable code;
	FILE *f;
	int ret;

	if (!here.ftrace) {
		printf("SKIP: no stap-build codes: the stap tracer's create() needs tracefs\n");
		return;
	}
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		t_failures++;
		return;
	}
	if (!(ps = load("stap+kprobe", NULL)) || lb_stap_script(ps, &script, err, sizeof(err))) {
		fprintf(stderr, "cannot write stap+kprobe's script: %s\n", err);
		t_failures++;
		goto out;
	}
	lb_stap_module_name(script, name, sizeof(name));
	snprintf(kbuild, sizeof(kbuild), "%s/kbuild", tmp);
	snprintf(mods, sizeof(mods), "%s/mods", tmp);
	snprintf(why, sizeof(why), "%s/%s.why", mods, name);
	snprintf(map, sizeof(map), "%s/System.map", kbuild);
	mkdir(kbuild, 0700);
	f = fopen(map, "w");
	if (f) {
		fputs("ffffffff81000000 T _stext\n", f);
		fclose(f);
	}
	setenv("LOADBENCH_DATADIR", LB_SRCDIR, 1);
	argv[0] = "stap-build";
	argv[1] = "-r";
	argv[2] = kbuild;
	argv[3] = "-o";
	argv[4] = mods;
	argv[5] = "stap+kprobe";
	argv[6] = NULL;
	optind = 0;
	T_CHECK(lb_cmd_stap_build(6, argv) == 1);
	text = t_read_all(why, NULL);
	T_CHECK(text && strstr(text, "need the kernel's symbols at build time") &&
		strstr(text, "\nno kernel symbols to build stap kprobes\n"));
	ret = stap_create(ps, mods, &code, err, sizeof(err));
	if (ret && !strstr(err, "was not built")) {
		printf("SKIP: no stap-build codes: %s's create() fails before its module: %s\n",
		       ps->name, err);
		goto out;
	}
	printf("%s (stap-build .why): %s: %s\n", ps->name, code_name(code), err);
	T_CHECK(ret == -ENOENT && code == LB_UNAVAIL_KSYMS);
	seen[LB_UNAVAIL_KSYMS] |= ret && code == LB_UNAVAIL_KSYMS;
	if (text) {
		/* As an older stap-build wrote it: the message alone. */
		text[strcspn(text, "\n") + 1] = '\0';
		f = fopen(why, "w");
		if (f) {
			fputs(text, f);
			fclose(f);
		}
	}
	ret = stap_create(ps, mods, &code, err, sizeof(err));
	printf("%s (.why without a code): %s: %s\n", ps->name, code_name(code), err);
	T_CHECK(ret == -ENOENT && code == LB_UNAVAIL_STAP_MODULE);
	T_CHECK(strstr(err, "need the kernel's symbols at build time") != NULL);
	seen[LB_UNAVAIL_STAP_MODULE] |= ret && code == LB_UNAVAIL_STAP_MODULE;
out:
	unsetenv("LOADBENCH_DATADIR");
	free(text);
	free(script);
	lb_probeset_free(ps);
	t_remove_dir(kbuild);
	t_remove_dir(mods);
	rmdir(tmp);
}

/*
 * A plan of named sets this machine lacks kprobes, modules and lttng-modules
 * for, with --skip-unavailable: its entries carry the codes, and the warning
 * a run prints groups the sets by them.
 */
static void test_plan(void)
{
	static const char *const specs[] = { "ftrace+kprobe", "stap", "lttng", "ftrace+kretprobe" };
	static const enum lb_unavailable want[] = { LB_UNAVAIL_KPROBES, LB_UNAVAIL_MODULES,
						    LB_UNAVAIL_LTTNG_MODULES, LB_UNAVAIL_KPROBES };
	struct lb_plan_request rq = {
		.catalog = CATALOG, .specs = specs, .nspecs = 4, .alone = true,
		.skip_unavailable = true,
	};
	char err[1024], log[] = "/tmp/test-skipped-warn.XXXXXX", *text;
	struct lb_plan *plan = NULL;
	int fd, saved;

#ifdef HAVE_LTTNG
	bool lttng = true;
#else
	bool lttng = false;	/* its stub says "no liblttng-ctl" */
#endif

	if (!lttng || !here.ftrace || here.kprobes || here.modules || here.lttng_proc) {
		printf("SKIP: no plan test: it wants ftrace without kprobes, a kernel without "
		       "modules and a loadbench with liblttng-ctl\n");
		return;
	}
	T_CHECK(lb_plan_new(&rq, &plan, err, sizeof(err)) == 0);
	if (!plan) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	T_CHECK(lb_plan_count(plan) == 4 && lb_plan_skipped(plan) == 4);
	for (int i = 0; i < lb_plan_count(plan) && i < 4; i++) {
		T_CHECK(lb_plan_entry(plan, i)->skipped != NULL);
		T_CHECK(lb_plan_entry(plan, i)->why == want[i]);
	}
	/* The warning, as a run prints it. */
	fd = mkstemp(log);
	fflush(stderr);
	saved = dup(2);
	if (fd >= 0 && saved >= 0 && dup2(fd, 2) >= 0) {
		lb_skipped_warn(plan);
		fflush(stderr);
		dup2(saved, 2);
	}
	text = t_read_all(log, NULL);
	T_CHECK_STR(text, "loadbench: warning: skipping 4 probe sets that cannot run here: "
			  "ftrace+kprobe, ftrace+kretprobe (no kprobes); stap (no loadable "
			  "modules); lttng (no lttng-modules) (see loadbench list)\n");
	free(text);
	if (saved >= 0)
		close(saved);
	if (fd >= 0)
		close(fd);
	unlink(log);
	lb_plan_free(plan);
}

/* Whether @word is in @text as a whole name (not a prefix of a longer one). */
static bool has_name(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char c = p[n];

		if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return true;
	}
	return false;
}

/* Whether source @path names @code. */
static bool file_names(const char *path, const char *code)
{
	char *text = t_read_all(path, NULL);
	bool found = text && has_name(text, code);

	free(text);
	return found;
}

/* Whether a source that writes the messages (src/tracers, stap-build's .why) names @code. */
static bool in_sources(const char *code)
{
	const char *dir = LB_SRCDIR "/src/tracers";
	bool found = file_names(LB_SRCDIR "/src/cli/cmd_stap_build.c", code);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && !found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char path[512];

		if (n < 3 || strcmp(de->d_name + n - 2, ".c") || !strcmp(de->d_name, "unavailable.c"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		found = file_names(path, code);
	}
	if (d)
		closedir(d);
	return found;
}

int main(void)
{
	char why[512];
	int nseen = 0;

	seen = mmap(NULL, LB_UNAVAIL_COUNT * sizeof(*seen), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (seen == MAP_FAILED) {
		perror("mmap");
		return T_EXIT_ERROR;
	}
	here.root = geteuid() == 0;
	here.ftrace = !lb_tracer_available("ftrace", why, sizeof(why));
	if (here.ftrace) {
		snprintf(why, sizeof(why), "%s/kprobe_events", lb_tracefs_dir());
		here.kprobes = !access(why, F_OK);
		snprintf(why, sizeof(why), "%s/uprobe_events", lb_tracefs_dir());
		here.uprobes = !access(why, F_OK);
	}
	here.modules = !access("/proc/modules", F_OK);
	here.lttng_proc = !access("/proc/lttng", F_OK);
	here.paranoid = INT_MIN;
	{
		char *text = t_read_all("/proc/sys/kernel/perf_event_paranoid", NULL);

		if (text)
			here.paranoid = atoi(text);
		free(text);
	}

	test_briefs();
	test_skipped_brief();
	test_skipped_line();
	test_here();
	test_children();
	test_stap_build();
	test_plan();

	printf("codes set by a tracer here:");
	for (size_t i = 1; i < NCODES; i++)
		if (seen[i]) {
			printf(" %s", codes[i].name);
			nseen++;
		}
	printf("\ncodes only found written in the sources:");
	for (size_t i = 1; i < NCODES; i++) {
		if (seen[i])
			continue;
		if (in_sources(codes[i].name)) {
			printf(" %s", codes[i].name);
		} else {
			fprintf(stderr, "\n%s is set nowhere in src/tracers\n", codes[i].name);
			t_failures++;
		}
	}
	printf("\n");
	if (!t_failures && !nseen) {
		printf("SKIP: no code could be triggered on this machine\n");
		return T_EXIT_SKIP;
	}
	return t_exit();
}
