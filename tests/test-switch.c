// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --method alternate's switch, against a live udp-rr workload: for every
 * catalog probe set whose tracer runs here, arm, attach, then three times
 * switch off (the events must stop growing, and what the kernel holds must
 * be gone: no enabled event in our tracefs instance, no tracepoint perf
 * event, no BPF link of our programs anywhere, no ptrace) and on again (the
 * events grow again, as many per operation as in the first on slice); the counts
 * never go backwards. After disarm nothing of ours is left. The median and
 * worst time of each switch are printed: that is what one switch costs.
 *
 * Root only (77 otherwise); a tracer that does not run here is noted and
 * skipped, and when none runs the test is skipped. LB_SWITCH_SETS="perf bpf"
 * runs only the sets of those names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBBPF
#include <bpf/bpf.h>
#endif

#include "helpers.h"
#include "loadgen.h"
#include "probeset.h"
#include "tracer.h"
#include "usdt.h"
#include "util.h"

#define CYCLES 3
#define SLICE_MS 200
#define MAX_PIDS (2 * LB_FLOWS_MAX)
#define MAX_PROGS 16

struct set {
	const char *name;	/* catalog name, or a label for @text */
	const char *text;	/* NULL: from the catalog */
	int flows;
};

static const struct set sets[] = {
	{ .name = "ftrace" },
	{ .name = "syscalls" },
	{ .name = "perf" },
	{ .name = "perf-count" },
	{ .name = "perf-syscalls" },
	{ .name = "bpf" },
	{ .name = "bpf-raw" },
	{ .name = "bpf-syscalls" },
	{ .name = "syscalls-pid" },
	{ .name = "usdt" },
	{ .name = "bpf-usdt" },
	{ .name = "perf-usdt" },
	{ .name = "perf-syscalls-pid" },
	{ .name = "perf-count-syscalls-pid",
	  .text = "tracer perf-count\nsyscall all\nscope workload\n" },
	{ .name = "strace" },
	/* 48 processes: every enable seizes them all again within the 5 s ready timeout. */
	{ .name = "strace", .flows = 24 },
};

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* How many of our fds are anonymous inodes named @what ("[perf_event]", "bpf_link", ...). */
static int fds_of(const char *what)
{
	char path[300], target[128], want[64];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	snprintf(want, sizeof(want), "anon_inode:%s", what);
	while ((de = readdir(d))) {
		ssize_t l;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		l = readlink(path, target, sizeof(target) - 1);
		if (l <= 0)
			continue;
		target[l] = '\0';
		n += !strcmp(target, want);
	}
	closedir(d);
	return n;
}

/* The ids of the BPF programs we hold (fdinfo of our bpf-prog fds) into @ids. */
static int our_prog_ids(unsigned int *ids, int max)
{
	char path[300], target[128], line[256];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		unsigned int id;
		ssize_t l;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		l = readlink(path, target, sizeof(target) - 1);
		if (l <= 0)
			continue;
		target[l] = '\0';
		if (strcmp(target, "anon_inode:bpf-prog"))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				ids[n++] = id;
		fclose(f);
	}
	closedir(d);
	return n;
}

/*
 * Links anywhere on the machine (anyone's, by id) that run one of the
 * programs @ids; -1 when they cannot be listed.
 */
static int links_to(const unsigned int *ids, int n)
{
#ifdef HAVE_LIBBPF
	__u32 id = 0;
	int found = 0;

	while (!bpf_link_get_next_id(id, &id)) {
		struct bpf_link_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_link_get_fd_by_id(id);

		if (fd < 0)
			continue;	/* gone meanwhile */
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			for (int i = 0; i < n; i++)
				found += info.prog_id == ids[i];
		close(fd);
	}
	return errno == ENOENT ? found : -1;
#else
	return 0;
#endif
}

/* Threads of @pids altogether. */
static int threads_of(const pid_t *pids, int n)
{
	int total = 0;

	for (int i = 0; i < n; i++) {
		pid_t tids[256];
		int k = lb_proc_tids(pids[i], tids, 256);

		total += k > 0 ? k : 0;
	}
	return total;
}

/* The loadbench_<our pid> tracefs instance's directory into @buf; NULL when it does not exist. */
static const char *our_instance(char *buf, size_t len)
{
	snprintf(buf, len, "/sys/kernel/tracing/instances/loadbench_%d", (int)getpid());
	return access(buf, F_OK) ? NULL : buf;
}

/* Events enabled in our instance (lines of its set_event); -1 when unreadable. */
static int instance_lines(const char *file)
{
	char dir[256], path[300];
	char *text = NULL;
	int n = 0;

	if (!our_instance(dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (lb_read_file(path, 1 << 20, &text, NULL))
		return -1;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct state {
	const char *tracer;
	bool workload;		/* scope workload */
	pid_t pids[MAX_PIDS];
	int npids;
	int ncpus;
	unsigned int progs[MAX_PROGS];
	int nprogs;
	bool usdt;		/* usdt lines: the server's semaphores follow the switch */
};

/*
 * The server's USDT semaphore @sem (an address of ours: the server is a fork
 * of this process, its layout ours), read through /proc/PID/mem; -1 when it
 * cannot be read.
 */
static int semaphore_of(pid_t pid, volatile const unsigned short *sem)
{
	char path[64];
	unsigned short v;
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = pread(fd, &v, sizeof(v), (off_t)(uintptr_t)sem);
	close(fd);
	return r == (ssize_t)sizeof(v) ? v : -1;
}

/* What the kernel holds for us while off (@on false) or on: checked from outside the tracer. */
static void check_kernel(const struct state *s, bool on, const char *when)
{
	const char *tr = s->tracer;
	int k;

#ifdef HAVE_SDT
	/*
	 * usdt: the kernel raises each marker's semaphore in the server while
	 * a uprobe with its reference counter is registered on it (one per
	 * place of the marker), and lowers it to 0 when it is unregistered:
	 * off is the markers not even setting up their arguments.
	 */
	if (s->usdt) {
		int rq = semaphore_of(s->pids[0], &loadbench_request_semaphore);
		int rp = semaphore_of(s->pids[0], &loadbench_reply_semaphore);

		if (on ? rq < 1 || rp < 1 : rq || rp)
			fprintf(stderr, "%s: server semaphores request %d, reply %d\n", when,
				rq, rp);
		T_CHECK(on ? rq >= 1 && rp >= 1 : rq == 0 && rp == 0);
	}
#endif
	if (!strcmp(tr, "ftrace")) {
		k = instance_lines("set_event");
		if (on ? k < 1 : k != 0)
			fprintf(stderr, "%s: %d events enabled in our instance\n", when, k);
		T_CHECK(on ? k >= 1 : k == 0);
		/*
		 * scope workload: the pid list holds the workload's pids while on
		 * and none while off (a list keeps sched_switch probes on).
		 */
		k = instance_lines("set_event_pid");
		if (s->workload && (on ? k < 1 : k != 0))
			fprintf(stderr, "%s: %d pids in our set_event_pid\n", when, k);
		T_CHECK(!s->workload || (on ? k >= 1 : k == 0));
	} else if (!strcmp(tr, "perf") || !strcmp(tr, "perf-count")) {
		/* Off, the carriers alone: one per CPU or thread (perf), none (perf-count). */
		int carriers = !strcmp(tr, "perf") ?
			       (s->workload ? threads_of(s->pids, s->npids) : s->ncpus) : 0;

		k = fds_of("[perf_event]");
		if (on ? k <= carriers : k != carriers)
			fprintf(stderr, "%s: %d perf_event fds, %d carriers\n", when, k, carriers);
		T_CHECK(on ? k > carriers : k == carriers);
	} else if (!strcmp(tr, "bpf") || !strcmp(tr, "bpf-raw")) {
		int links = fds_of("bpf_link"), anywhere = links_to(s->progs, s->nprogs);

		if (on ? links < 1 || anywhere < 1 : links || anywhere)
			fprintf(stderr, "%s: %d bpf_link fds of ours, %d links to our %d "
				"programs\n", when, links, anywhere, s->nprogs);
		T_CHECK(s->nprogs > 0);
		T_CHECK(on ? links >= 1 : links == 0);
		T_CHECK(on ? anywhere >= 1 : anywhere == 0);
		T_CHECK(on || fds_of("[perf_event]") == 0);
	} else if (!strcmp(tr, "strace")) {
		for (int i = 0; i < s->npids; i++) {
			k = t_tracer_pid(s->pids[i]);
			if (on ? k <= 0 : k != 0)
				fprintf(stderr, "%s: workload process %d: TracerPid %d\n", when,
					(int)s->pids[i], k);
			T_CHECK(on ? k > 0 : k == 0);
		}
	}
}

/* Nothing of ours after disarm: no instance, perf event, BPF object, link anywhere, ptrace. */
static void check_gone(const struct state *s)
{
	char dir[256];

	T_CHECK(!our_instance(dir, sizeof(dir)));
	T_CHECK(fds_of("[perf_event]") == 0);
	T_CHECK(fds_of("bpf_link") == 0);
	T_CHECK(fds_of("bpf-prog") == 0);
	T_CHECK(links_to(s->progs, s->nprogs) == 0);
	for (int i = 0; i < s->npids; i++)
		T_CHECK(t_tracer_pid(s->pids[i]) <= 0);
#ifdef HAVE_SDT
	/* The markers' semaphores back to 0: the uprobes are gone from the server. */
	if (s->usdt && s->npids) {
		T_CHECK(semaphore_of(s->pids[0], &loadbench_request_semaphore) == 0);
		T_CHECK(semaphore_of(s->pids[0], &loadbench_reply_semaphore) == 0);
	}
#endif
}

/* Snapshot into @c; its counts must not be below @prev's. */
static void snap(struct lb_tracer *t, struct lb_tracer_counts *c,
		 const struct lb_tracer_counts *prev)
{
	int ret = lb_tracer_snapshot(t, c);

	T_CHECK(ret == 0);
	if (ret)
		fprintf(stderr, "snapshot: %s\n", strerror(-ret));
	if (prev) {
		T_CHECK(c->events >= prev->events);
		T_CHECK(c->lost >= prev->lost);
	}
}

/* Run set @st through CYCLES off/on switches. Returns 1 when run, 0 when skipped. */
static int run_set(const struct set *st, const char *catalog)
{
	struct lb_tracer_counts c0, c1, a, b, c, d, e;
	struct lb_workload_config cfg;
	struct lb_workload_stats ws;
	struct lb_workload *w = NULL;
	struct lb_probeset *ps = NULL;
	struct lb_tracer *t = NULL;
	double ton[CYCLES], toff[CYCLES], t0, rate_on, rate, per_op_on, per_op;
	uint64_t ops0, ops1;
	struct state s = { .ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN) };
	char err[1024] = "", label[64];
	const char *residue;
	int ret, ran = 0;
	bool armed = false;

	if (st->flows > 1)
		snprintf(label, sizeof(label), "%s, %d flows", st->name, st->flows);
	else
		snprintf(label, sizeof(label), "%s", st->name);
	ret = st->text ? lb_probeset_parse(st->text, st->name, &ps, err, sizeof(err))
		       : lb_probeset_find(st->name, catalog, &ps, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "%s: %s\n", label, err);
		return 0;
	}
	s.tracer = ps->tracer;
	s.workload = ps->scope == LB_SCOPE_WORKLOAD;
	for (size_t i = 0; i < ps->nprobes; i++)
		s.usdt |= ps->probes[i].kind == LB_PROBE_USDT;
	ret = lb_tracer_available(ps->tracer, err, sizeof(err));
	if (!ret)
		ret = lb_tracer_create(ps, NULL, &t, NULL, err, sizeof(err));
	if (ret) {
		printf("--- %s not run: %s\n", label, err);
		goto out;
	}
	T_CHECK(lb_tracer_can_switch(t));
	if (!lb_tracer_can_switch(t))
		goto out;

	lb_workload_config_init(&cfg);
	cfg.syscalls_per_op = 2;
	cfg.max_seconds = 60;
	cfg.flows = st->flows;
	ret = lb_workload_create(&cfg, &w, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "%s: workload: %s\n", label, err);
		goto out;
	}
	ret = lb_tracer_arm(t, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "%s: arm: %s\n", label, err);
		goto out;
	}
	armed = true;
	T_CHECK(lb_workload_start(w) == 0);
	s.npids = lb_workload_pids(w, s.pids, MAX_PIDS);
	T_CHECK(s.npids == 2 * (st->flows > 1 ? st->flows : 1));
	t0 = lb_now();
	ret = lb_tracer_attach(t, s.pids, s.npids, err, sizeof(err));
	T_CHECK(ret == 0);
	if (ret) {
		fprintf(stderr, "%s: attach: %s\n", label, err);
		goto out;
	}
	if (s.workload)
		printf("%s: attach took %.1f ms\n", label, (lb_now() - t0) * 1e3);
	s.nprogs = our_prog_ids(s.progs, MAX_PROGS);
	ran = 1;

	/* The first on slice: what an on slice counts. */
	sleep_ms(SLICE_MS / 2);
	ops0 = lb_workload_ops(w);
	snap(t, &c0, NULL);
	t0 = lb_now();
	sleep_ms(SLICE_MS);
	snap(t, &c1, &c0);
	rate_on = (double)(c1.events - c0.events) / (lb_now() - t0);
	ops1 = lb_workload_ops(w);
	T_CHECK(rate_on > 0 && ops1 > ops0);
	per_op_on = ops1 > ops0 ? (double)(c1.events - c0.events) / (double)(ops1 - ops0) : 0;
	check_kernel(&s, true, label);
	printf("%s: on: %.0f events/s, %.2f events/op\n", label, rate_on, per_op_on);

	a = c1;
	for (int i = 0; i < CYCLES; i++) {
		uint64_t grew, limit;

		t0 = lb_now();
		ret = lb_tracer_disable(t, err, sizeof(err));
		toff[i] = lb_now() - t0;
		T_CHECK(ret == 0);
		if (ret)
			fprintf(stderr, "%s: disable: %s\n", label, err);
		snap(t, &b, &a);
		check_kernel(&s, false, label);
		sleep_ms(SLICE_MS);
		snap(t, &c, &b);
		/* A handful in flight at the switch: at most 0.1% of an on slice. */
		grew = c.events - b.events;
		limit = (uint64_t)(rate_on * SLICE_MS / 1e3 / 1000) + 3;
		printf("%s: off %d: +%" PRIu64 " events in %d ms (disable %.2f ms)\n", label, i,
		       grew, SLICE_MS, toff[i] * 1e3);
		T_CHECK(grew <= limit);

		snap(t, &d, &c);
		t0 = lb_now();
		ret = lb_tracer_enable(t, err, sizeof(err));
		ton[i] = lb_now() - t0;
		/* Off until here: the events since d are the operations' since now. */
		ops0 = lb_workload_ops(w);
		T_CHECK(ret == 0);
		if (ret)
			fprintf(stderr, "%s: enable: %s\n", label, err);
		check_kernel(&s, true, label);
		t0 = lb_now();
		sleep_ms(SLICE_MS);
		snap(t, &e, &d);
		rate = (double)(e.events - d.events) / (lb_now() - t0);
		ops1 = lb_workload_ops(w);
		per_op = ops1 > ops0 ? (double)(e.events - d.events) / (double)(ops1 - ops0) : 0;
		printf("%s: on %d: %.0f events/s, %.2f of the first; %.2f events/op, %.2f of the "
		       "first (enable %.2f ms)\n", label, i, rate, rate_on > 0 ? rate / rate_on : 0,
		       per_op, per_op_on > 0 ? per_op / per_op_on : 0, ton[i] * 1e3);
		T_CHECK(e.events > d.events);
		/*
		 * On again is all on: as many events per operation as the first on
		 * slice, give or take what the rest of the machine adds to the
		 * system-wide sets (a count, not a rate: a rate also moves with the
		 * machine's load, and a check on it failed while a compiler ran).
		 */
		if (ops1 > ops0)
			T_CHECK(per_op > per_op_on / 2);
		a = e;
	}
	qsort(ton, CYCLES, sizeof(*ton), cmp_double);
	qsort(toff, CYCLES, sizeof(*toff), cmp_double);
	residue = lb_tracer_off_residue(t);
	printf("switch cost: %-26s disable %8.2f ms (worst %8.2f), enable %7.2f ms "
	       "(worst %7.2f)%s%s\n", label, toff[CYCLES / 2] * 1e3, toff[CYCLES - 1] * 1e3, ton[CYCLES / 2] * 1e3,
	       ton[CYCLES - 1] * 1e3, residue ? "; off leaves: " : "", residue ? residue : "");
out:
	if (armed) {
		T_CHECK(lb_tracer_disarm(t) == 0);
		check_gone(&s);
	}
	if (w) {
		ret = lb_workload_stop(w, &ws);
		T_CHECK(ret == 0);
		if (ret)
			fprintf(stderr, "%s: workload: %s\n", label, lb_workload_error(w));
		else
			T_CHECK(ws.mismatches == 0);
	}
	lb_tracer_destroy(t);
	lb_workload_destroy(w);
	lb_probeset_free(ps);
	return ran;
}

/* Whether @name is in the space-separated list LB_SWITCH_SETS (or it is unset). */
static bool wanted(const char *name)
{
	const char *list = getenv("LB_SWITCH_SETS");
	size_t n = strlen(name);

	if (!list || !*list)
		return true;
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

int main(void)
{
	char catalog[4096];
	int ran = 0;

	if (geteuid() != 0) {
		printf("SKIP: needs root (tracefs instances, perf tracepoints, BPF, ptrace)\n");
		return T_EXIT_SKIP;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	lb_datadir("probesets", catalog, sizeof(catalog));
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (wanted(sets[i].name))
			ran += run_set(&sets[i], catalog);
	if (!ran && !t_failures) {
		printf("SKIP: no tracer runs here\n");
		return T_EXIT_SKIP;
	}
	return t_exit();
}
