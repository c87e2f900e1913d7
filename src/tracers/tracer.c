// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tracefs.h>

#include "dynevent.h"
#include "kprobe_list.h"
#include "kprobe_opt.h"
#include "tracer.h"
#include "util.h"

static const struct lb_tracer_ops *const tracers[] = {
	&lb_tracer_ftrace,
	&lb_tracer_perf,
	&lb_tracer_perf_count,
	&lb_tracer_bpf,
	&lb_tracer_bpf_raw,
	&lb_tracer_strace,
	&lb_tracer_lttng,
	&lb_tracer_lttng_ust,
	&lb_tracer_stap,
	&lb_tracer_command,
	NULL,
};

int lb_tracers_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	int n = 0;

	if (!tracefs_tracing_dir())
		return -ENODEV;
	for (int i = 0; tracers[i]; i++)
		if (tracers[i]->cleanup)
			n += tracers[i]->cleanup(o, remove, report, arg);
	n += lb_dynevent_cleanup(o, remove, report, arg);
	/* Last: given back once nothing of a dead run's is left to place another kprobe. */
	return n + lb_kprobe_opt_cleanup(o, remove, report, arg);
}

struct lb_tracer {
	const struct lb_tracer_ops *ops;
	void *priv;
	bool armed;
	struct lb_tracer *next_armed;
	struct lb_tracer_kprobe *kprobes;	/* the probe set's kprobes and kretprobes */
	size_t nkprobes;
	const char *kprobes_source;	/* where their mechanisms were read; NULL: not yet */
	char kprobes_why[256];		/* why they could not be read; "" when they were */
	int kprobe_opt;			/* the set's kprobe-optimization: 0, 1, -1 left alone */
	int kprobe_opt_before;		/* the setting's value before; -1 unknown or absent */
	bool kprobe_opt_held;
	struct lb_tracer_counts last;	/* the last snapshot since arm: counts never go back */
};

/* Armed tracers, so that an error or interrupt path can disarm them all. */
static struct lb_tracer *armed_list;

const struct lb_tracer_ops *lb_tracer_ops_find(const char *name)
{
	for (int i = 0; tracers[i]; i++)
		if (!strcmp(tracers[i]->name, name))
			return tracers[i];
	return NULL;
}

const char *lb_tracer_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; tracers[i] && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? ", " : "", tracers[i]->name);
	return buf;
}

int lb_tracer_available(const char *name, char *why, size_t len)
{
	const struct lb_tracer_ops *ops = lb_tracer_ops_find(name);
	char names[256];

	if (!ops) {
		snprintf(why, len, "unknown tracer '%s' (known: %s)", name,
			 lb_tracer_names(names, sizeof(names)));
		return -ENOENT;
	}
	return ops->available(why, len);
}

int lb_tracer_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
		     struct lb_tracer **out, enum lb_unavailable *why, char *err, size_t len)
{
	const struct lb_tracer_ops *ops = lb_tracer_ops_find(ps->tracer);
	enum lb_unavailable code = LB_UNAVAIL_OTHER;
	struct lb_tracer *t = NULL;
	char reason[512], names[256];
	int ret;

	lb_unavailable_take();	/* an earlier message's code is not this one's */
	if (!ops) {
		snprintf(err, len, "%s:%d: unknown tracer '%s' (known: %s)", ps->path,
			 ps->tracer_line, ps->tracer, lb_tracer_names(names, sizeof(names)));
		ret = -ENOENT;
		goto out;
	}
	ret = ops->available(reason, sizeof(reason));
	code = lb_unavailable_take();
	if (ret) {
		snprintf(err, len, "probe set %s cannot run here: %s", ps->name, reason);
		goto out;
	}
	code = LB_UNAVAIL_OTHER;
	if (ps->scope == LB_SCOPE_WORKLOAD && !ops->attach) {
		snprintf(err, len, "%s:%d: the %s tracer cannot record only the workload's "
			 "processes (scope workload); use scope system", ps->path, ps->scope_line,
			 ops->name);
		ret = -EOPNOTSUPP;
		goto out;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	t->ops = ops;
	t->kprobe_opt = ps->kprobe_optimization;
	t->kprobe_opt_before = -1;
	t->kprobes = calloc(ps->nprobes ? ps->nprobes : 1, sizeof(*t->kprobes));
	if (!t->kprobes) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];

		if (p->kind == LB_PROBE_KPROBE || p->kind == LB_PROBE_KRETPROBE)
			t->kprobes[t->nkprobes++] = (struct lb_tracer_kprobe){
				.symbol = p->event, .offset = p->offset,
				.ret = p->kind == LB_PROBE_KRETPROBE };
	}
	ret = ops->create(ps, opts, &t->priv, err, len);
	code = lb_unavailable_take();
	if (!ret) {
		*out = t;
		t = NULL;
	}
out:
	if (t) {
		free(t->kprobes);
		free(t);
	}
	if (why)
		*why = ret ? code : LB_UNAVAIL_OTHER;
	return ret;
}

/* What getdents64(2) returns, one entry. */
struct lb_dirent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * In every child loadbench forks (the workload's processes above all), after
 * fork: close the copies of perf events and BPF objects (programs, maps,
 * links, BTF) it inherited. They are the tracers', and a copy keeps its
 * kernel object alive: a workload process holding a tracepoint's perf event
 * or a BPF link would keep the tracer's probe registered after the tracer
 * closed its own fd (--method alternate's off, a disarm while the workload
 * runs), and the same BPF program could not be attached there again
 * (EEXIST). No child of loadbench uses them. System calls only: this runs
 * in the child of a threaded process, before fork() returns there.
 */
static void close_inherited(void)
{
	char buf[2048] __attribute__((aligned(8))), target[64];
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (dir < 0)
		return;
	/* The directory is read by fd number: closing the ones read does not disturb it. */
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const struct lb_dirent64 *de = (const void *)(buf + off);
			int fd = atoi(de->name);
			ssize_t l;

			off += de->reclen;
			if (de->name[0] < '0' || de->name[0] > '9' || fd == dir)
				continue;
			l = readlinkat(dir, de->name, target, sizeof(target) - 1);
			if (l <= 0)
				continue;
			target[l] = '\0';
			if (!strcmp(target, "anon_inode:[perf_event]") ||
			    !strncmp(target, "anon_inode:bpf", 14) ||
			    !strcmp(target, "anon_inode:btf"))
				close(fd);
		}
	}
	close(dir);
}

static void close_inherited_register(void)
{
	pthread_atfork(NULL, NULL, close_inherited);
}

static void armed_remove(struct lb_tracer *t)
{
	for (struct lb_tracer **p = &armed_list; *p; p = &(*p)->next_armed) {
		if (*p == t) {
			*p = t->next_armed;
			break;
		}
	}
	t->next_armed = NULL;
}

/*
 * The set's kprobe-optimization, held while its probes are on (arm leaves
 * them on): a global setting is changed for no longer than it must be.
 */
static int opt_hold(struct lb_tracer *t, char *err, size_t len)
{
	int ret;

	if (t->kprobe_opt < 0 || t->kprobe_opt_held)
		return 0;
	ret = lb_kprobe_opt_hold(t->kprobe_opt, &t->kprobe_opt_before, err, len);
	if (!ret)
		t->kprobe_opt_held = true;
	return ret;
}

/* Give the setting back (its failure is the first error unless there is one). */
static int opt_release(struct lb_tracer *t, int ret, char *err, size_t len)
{
	char why[256];
	int rret;

	if (!t->kprobe_opt_held)
		return ret;
	t->kprobe_opt_held = false;
	rret = lb_kprobe_opt_release(why, sizeof(why));
	if (rret && !ret && err) {
		snprintf(err, len, "%s: run 'loadbench cleanup' once loadbench has exited", why);
		return rret;
	}
	if (rret)
		lb_warn("%s: run 'loadbench cleanup' once loadbench has exited", why);
	return ret ? ret : rret;
}

int lb_tracer_arm(struct lb_tracer *t, char *err, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int ret;

	if (t->armed)
		return -EBUSY;
	pthread_once(&once, close_inherited_register);
	/* Listed before arming: an interrupt during arm must still undo it. */
	t->armed = true;
	memset(&t->last, 0, sizeof(t->last));
	t->next_armed = armed_list;
	armed_list = t;
	ret = opt_hold(t, err, len);
	if (!ret)
		ret = t->ops->arm(t->priv, err, len);
	if (ret) {
		t->ops->disarm(t->priv);
		opt_release(t, ret, NULL, 0);
		t->armed = false;
		armed_remove(t);
	}
	return ret;
}

int lb_tracer_attach(struct lb_tracer *t, const pid_t *pids, int n, char *err, size_t len)
{
	if (!t->armed)
		return -EINVAL;
	if (!t->ops->attach)
		return 0;
	return t->ops->attach(t->priv, pids, n, err, len);
}

/* @v, or @last when @v is below it. */
static uint64_t not_back(uint64_t v, uint64_t last)
{
	return v < last ? last : v;
}

/*
 * The counts are cumulative since arm, and a window's are the difference of
 * two: one that went back would wrap. The kernel's do, by a page: ftrace's
 * per-CPU stats are read field by field while a consumer's reader swaps a
 * page out ("entries" falls before "read events" rises; seen: -103 events
 * between two snapshots of an off slice of ftrace-consumer). Such a count is
 * held at its last value until it passes it.
 */
int lb_tracer_snapshot(struct lb_tracer *t, struct lb_tracer_counts *c)
{
	int ret;

	memset(c, 0, sizeof(*c));
	if (!t->armed)
		return -EINVAL;
	ret = t->ops->snapshot(t->priv, c);
	if (ret)
		return ret;
	c->events = not_back(c->events, t->last.events);
	c->lost = not_back(c->lost, t->last.lost);
	c->overwritten = not_back(c->overwritten, t->last.overwritten);
	c->read = not_back(c->read, t->last.read);
	c->read_bytes = not_back(c->read_bytes, t->last.read_bytes);
	c->bpf_runs = not_back(c->bpf_runs, t->last.bpf_runs);
	c->bpf_run_ns = not_back(c->bpf_run_ns, t->last.bpf_run_ns);
	t->last = *c;
	return 0;
}

const char *lb_tracer_why(const struct lb_tracer *t, int ret)
{
	const char *why = t->ops->failure ? t->ops->failure(t->priv) : NULL;

	return why ? why : strerror(-ret);
}

bool lb_tracer_can_switch(const struct lb_tracer *t)
{
	return t->ops->enable && t->ops->disable;
}

int lb_tracer_enable(struct lb_tracer *t, char *err, size_t len)
{
	int ret;

	if (!lb_tracer_can_switch(t)) {
		snprintf(err, len, "the %s tracer cannot be switched on and off", t->ops->name);
		return -EOPNOTSUPP;
	}
	if (!t->armed)
		return -EINVAL;
	ret = opt_hold(t, err, len);
	if (ret)
		return ret;
	ret = t->ops->enable(t->priv, err, len);
	if (ret)
		opt_release(t, ret, NULL, 0);
	return ret;
}

int lb_tracer_disable(struct lb_tracer *t, char *err, size_t len)
{
	int ret;

	if (!lb_tracer_can_switch(t)) {
		snprintf(err, len, "the %s tracer cannot be switched on and off", t->ops->name);
		return -EOPNOTSUPP;
	}
	if (!t->armed)
		return -EINVAL;
	ret = t->ops->disable(t->priv, err, len);
	return opt_release(t, ret, err, len);
}

int lb_tracer_cpu_clocks(const struct lb_tracer *t, clockid_t *clk, int max)
{
	if (!t->armed || !t->ops->cpu_clocks)
		return 0;
	return t->ops->cpu_clocks(t->priv, clk, max);
}

const char *lb_tracer_off_residue(const struct lb_tracer *t)
{
	return t->ops->off_residue ? t->ops->off_residue(t->priv) : NULL;
}

int lb_tracer_disarm(struct lb_tracer *t)
{
	int ret;

	if (!t->armed)
		return 0;
	ret = t->ops->disarm(t->priv);
	ret = opt_release(t, ret, NULL, 0);
	t->armed = false;
	armed_remove(t);
	return ret;
}

int lb_tracer_kprobes_check(struct lb_tracer *t, char *err, size_t len)
{
	const char *source = NULL;
	char *text = NULL;
	int ret;

	if (!t->nkprobes)
		return 0;
	ret = lb_kprobe_list_read(&text, &source, t->kprobes_why, sizeof(t->kprobes_why));
	if (ret) {
		snprintf(err, len, "%s", t->kprobes_why);
		return ret;
	}
	t->kprobes_why[0] = '\0';
	t->kprobes_source = source;
	for (size_t i = 0; i < t->nkprobes; i++) {
		struct lb_tracer_kprobe *k = &t->kprobes[i];
		char there[160];

		k->seen = lb_kprobe_list_find(text, k->symbol, k->offset, k->ret);
		if (k->seen != LB_SEEN_UNKNOWN || t->kprobes_why[0])
			continue;
		/* The first one missing, and what is there instead: said with the source. */
		lb_kprobe_list_entries(text, k->symbol, there, sizeof(there));
		snprintf(t->kprobes_why, sizeof(t->kprobes_why), "%s; no %s %s+0x%lx in kprobes/list%s%s",
			 source, k->ret ? "kretprobe" : "kprobe", k->symbol, k->offset,
			 there[0] ? ", which has " : "", there);
		t->kprobes_source = t->kprobes_why;
	}
	free(text);
	return (int)t->nkprobes;
}

const struct lb_tracer_kprobe *lb_tracer_kprobes(const struct lb_tracer *t, size_t *n,
						 const char **source)
{
	*n = t->nkprobes;
	*source = t->kprobes_source ? t->kprobes_source :
		  t->kprobes_why[0] ? t->kprobes_why : NULL;
	return t->kprobes;
}

int lb_tracer_kprobe_opt(const struct lb_tracer *t, int *before)
{
	*before = t->kprobe_opt_before;
	return t->kprobe_opt;
}

int lb_tracer_collect(struct lb_tracer *t, struct lb_tracer_counts *at, size_t n, char *err,
		      size_t len)
{
	int ret;

	if (!t->ops->collect)
		return 0;
	if (t->armed)
		return -EBUSY;
	memset(at, 0, n * sizeof(*at));
	ret = t->ops->collect(t->priv, at, n, err, len);
	return ret ? ret : 1;
}

void lb_tracer_destroy(struct lb_tracer *t)
{
	if (!t)
		return;
	lb_tracer_disarm(t);
	t->ops->destroy(t->priv);
	free(t->kprobes);
	free(t);
}

const char *lb_tracer_name(const struct lb_tracer *t)
{
	return t->ops->name;
}

void lb_tracer_disarm_all(void)
{
	while (armed_list)
		lb_tracer_disarm(armed_list);
}
