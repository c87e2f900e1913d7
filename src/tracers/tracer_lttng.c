// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lttng tracer, through liblttng-ctl: per measured run one session
 * loadbench_<pid> in the kernel domain, writing to a temporary directory, with
 * one channel (sub-buffer size and count from buffer-kb, discard or overwrite
 * mode) and the probe set's events: tracepoints by LTTng's own names,
 * syscalls, kprobes (LTTNG_EVENT_PROBE) and kretprobes (LTTNG_EVENT_FUNCTION,
 * which records an entry and a return event per call).
 *
 * Counts: no liblttng-ctl call says how many events a channel recorded, so
 * after the run the trace is read back (ctf_count.c, libbabeltrace2) in one
 * pass that sorts its events by timestamp into the intervals between the
 * run's snapshots (LTTng's kernel clock is CLOCK_MONOTONIC, the clock the
 * snapshots read): collect then gives the counts at every snapshot, those of
 * a run's window and those of every slice of an alternation alike. A
 * snapshot only reads the clock (no call to lttng-sessiond, so a slice edge
 * takes no time). Lost events are placed in time the same way: the trace's
 * discarded-events and discarded-packets records (a lost packet counts as the
 * trace's mean events per packet); the channel's own counters, read once at
 * disarm, check them, and losses they count beyond the trace's go to the last
 * window. The session is destroyed and the directory removed at disarm,
 * which every exit path reaches.
 *
 * Switching (--method alternate): off disables the channel, on enables it
 * again. lttng-modules 2.13 then unregisters the channel's tracepoint and
 * syscall probes (lttng_session_sync_event_enablers: a probe is registered
 * only while its event, channel and session are all enabled), so their
 * static keys go off. It does not do so for kprobes and kretprobes: their
 * kprobes stay registered and each hit returns from LTTng's handler at once
 * (it checks the channel's enabled flag). off_residue says so for a probe
 * set that has them.
 *
 * scope workload: the session's kernel process-ID tracker (`lttng track
 * --kernel --pid', which matches a task's thread-group id) is set to an empty
 * inclusion set before the session starts, so nothing is recorded until
 * attach adds the workload's pids.
 *
 * lttng-ust: the same in the user-space domain (per-UID buffers) for the
 * workload server's LTTng-UST tracepoints, loadbench:request and
 * loadbench:reply (loadgen/ust_provider.c, which the server loads for such a
 * run). Off disables the events, not the channel: lttng-ust then sets the
 * tracepoints' state to 0 in the server, whose markers are then a call into
 * the provider and that test.
 *
 * Length (over 600 lines, kept whole): one session's life (create, arm,
 * switch, disarm), its trace read back and bounded (half of $TMPDIR's free
 * space) and its leftovers found (cleanup) all work on the session and
 * trace-directory names this file makes; split, each part would need the
 * others' private state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "leftover.h"
#include "ctf_count.h"
#include "kallsyms.h"
#include "lttng.h"
#include "safefs.h"
#include "tmpdirs.h"
#include "tracefs_util.h"
#include "tracer.h"
#include "unavailable.h"

#define LB_LTTNG_CHANNEL	"loadbench"
#define LB_LTTNG_NUM_SUBBUF	4	/* buffer-kb is split into this many sub-buffers */
#define LB_PAGE_BYTES		4096
#define LB_LTTNG_TRACEFILES	16	/* trace files per stream at most (the bound's ring) */

struct lttng {
	const struct lb_probeset *ps;	/* valid while the tracer is */
	struct lttng_domain dom;
	uint64_t subbuf_size;		/* 0 = LTTng's default */
	bool overwrite;
	char session[LTTNG_NAME_MAX];
	char dir[PATH_MAX];		/* the trace directory, "" when there is none */
	bool created;			/* the session exists */
	struct lttng_handle *handle;
	struct lttng_process_attr_tracker_handle *pid_tracker;	/* scope workload */
	uint64_t *snap_ns;		/* every snapshot since arm: CLOCK_MONOTONIC ns */
	size_t nsnap, snap_cap;
	uint64_t discarded, lost_packets;	/* the channel's counters at disarm */
	int count_ret;			/* reading the trace back at disarm: 0 or -errno */
	char count_err[512];
	bool counted;
	struct lb_tracer_counts *at;	/* counts at each snapshot, read back at disarm */
	size_t nat;
	int nkprobes, nkretprobes;	/* of the probe set: they stay while switched off */
	bool off;			/* switched off: the channel (ust: the events) disabled */
	bool ust;			/* lttng-ust: the user-space domain */
	char residue[256];
	uint64_t tracefile_size;	/* the bound: files of this size per stream, */
	unsigned int tracefile_count;	/* this many at most (0: no bound) */
};

static int lttng_available(char *why, size_t len)
{
	int alive;

	if (access("/proc/lttng", F_OK) && access("/proc/modules", F_OK)) {
		lb_unavailable_say(LB_UNAVAIL_LTTNG_MODULES, why, len, "kernel without module support "
				   "(CONFIG_MODULES unset): LTTng's kernel tracer (lttng-modules) "
				   "cannot load here; use scripts/loadbench-vm");
		return -ENODEV;
	}
	if (geteuid() != 0) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root: LTTng's kernel domain is "
				   "root-only (run loadbench with sudo, with a root lttng-sessiond "
				   "running)");
		return -EPERM;
	}
	alive = lttng_session_daemon_alive();
	if (alive <= 0) {
		lb_unavailable_say(LB_UNAVAIL_LTTNG_SESSIOND, why, len, "no lttng-sessiond "
				   "reachable: start it with lttng-sessiond --daemonize");
		return -ENODEV;
	}
	if (access("/proc/lttng", F_OK)) {
		lb_unavailable_say(LB_UNAVAIL_LTTNG_MODULES, why, len, "the LTTng kernel tracer is "
				   "unavailable: lttng-modules are not loaded and lttng-sessiond "
				   "could not load them (apt-get install lttng-modules-dkms, then "
				   "restart lttng-sessiond)");
		return -ENODEV;
	}
	return lb_ctf_available(why, len);
}

/* lttng-ust: root (the server runs as root), its provider, a session daemon, babeltrace2. */
static int lttng_ust_available(char *why, size_t len)
{
	char path[PATH_MAX];
	int ret;

	if (geteuid() != 0) {
		lb_unavailable_say(LB_UNAVAIL_ROOT, why, len, "needs root: the workload server "
				   "runs as root, and its LTTng-UST tracepoints register with the root "
				   "lttng-sessiond (run loadbench with sudo)");
		return -EPERM;
	}
	ret = lb_lttng_ust_provider(path, sizeof(path), why, len);
	if (ret)
		return ret;
	if (lttng_session_daemon_alive() <= 0) {
		lb_unavailable_say(LB_UNAVAIL_LTTNG_SESSIOND, why, len, "no lttng-sessiond "
				   "reachable: start it with lttng-sessiond --daemonize (the "
				   "user-space domain needs no kernel module)");
		return -ENODEV;
	}
	return lb_ctf_available(why, len);
}

static void lttng_free(struct lttng *l)
{
	if (!l)
		return;
	lttng_destroy_handle(l->handle);
	lttng_process_attr_tracker_handle_destroy(l->pid_tracker);
	free(l->snap_ns);
	free(l->at);
	free(l);
}

/* LTTng's error @code (negative) as "MESSAGE", for messages. */
static const char *lerr(int code)
{
	return lttng_strerror(code < 0 ? code : -code);
}

/* Check kprobe symbols in /proc/kallsyms: LTTng reports a missing one only at enable. */
static int check_symbols(const struct lb_probeset *ps, char *err, size_t len)
{
	struct lb_kallsyms *ks = NULL;
	char where[PATH_MAX + 16];
	int ret = 0;

	for (size_t i = 0; i < ps->nprobes && !ret; i++) {
		const struct lb_probe *p = &ps->probes[i];

		if (p->kind != LB_PROBE_KPROBE && p->kind != LB_PROBE_KRETPROBE)
			continue;
		/*
		 * lttng-tools' liblttng-ctl (2.13.9, and its master in 2026-12) writes an
		 * event's probe address where the offset belongs when it sends the event
		 * to the session daemon (lttng_event_probe_attr_serialize(): comm.offset =
		 * probe->addr): the kernel gets offset 0 and the kprobe goes on the entry.
		 * Seen under Debian's 6.1 (kprobes/list: __dev_queue_xmit+0x0 [FTRACE]
		 * for a kprobe asked at +5). LTTng's other way, by address (`lttng
		 * enable-event --probe 0xADDR', no symbol: kallsyms' address + 5) is
		 * refused by the kernel under the same 6.1 ("Enable kernel event
		 * failed"): the address goes as the offset too, and register_kprobe()
		 * adds the offset to the address. Refused rather than measured as what
		 * it is not.
		 */
		if (p->offset) {
			snprintf(err, len, "%s:%d: LTTng cannot place kprobe %s+%lu: liblttng-ctl "
				 "sends a probe's address where its offset belongs "
				 "(lttng_event_probe_attr_serialize(): comm.offset = probe->addr), "
				 "so the kernel would put it on %s's entry, and refuses it placed "
				 "by address; measure breakpoint kprobes with ftrace+kprobe-int3 or "
				 "bpf+kprobe-int3", ps->path, p->line, p->event, p->offset, p->event);
			ret = -ENOSYS;
			break;
		}
		snprintf(where, sizeof(where), "%s:%d", ps->path, p->line);
		ret = lb_kallsyms_check_probe(&ks, where, p->kind == LB_PROBE_KPROBE ?
					      "an LTTng kprobe" : "an LTTng kretprobe", p->event,
					      p->offset, err, len);
	}
	lb_kallsyms_free(ks);
	return ret;
}

/* The kernel domain's tracepoint and syscall names, checked against @ps. */
static int check_names(const struct lb_probeset *ps, char *err, size_t len)
{
	struct lttng_domain dom = { .type = LTTNG_DOMAIN_KERNEL };
	struct lttng_event *tps = NULL, *sys = NULL;
	const char **tnames = NULL, **snames = NULL;
	struct lttng_handle *h;
	int ntps, nsys = 0, ret;
	bool named_syscall = false;

	for (size_t i = 0; i < ps->nprobes; i++)
		named_syscall |= ps->probes[i].kind == LB_PROBE_SYSCALL &&
				 strcmp(ps->probes[i].event, "all");
	h = lttng_create_handle(NULL, &dom);
	if (!h)
		return -ENOMEM;
	ntps = lttng_list_tracepoints(h, &tps);
	if (ntps < 0) {
		bool na = ntps == -LTTNG_ERR_KERN_NA;

		lb_unavailable_say(na ? LB_UNAVAIL_LTTNG_MODULES : LB_UNAVAIL_OTHER, err, len,
				   "cannot list LTTng's kernel tracepoints: %s%s", lerr(ntps),
				   na ? " (lttng-modules not loaded?)" : "");
		ret = -ENODEV;
		goto out;
	}
	if (named_syscall) {
		nsys = lttng_list_syscalls(&sys);
		if (nsys < 0) {
			snprintf(err, len, "cannot list LTTng's kernel syscalls: %s", lerr(nsys));
			ret = -ENODEV;
			goto out;
		}
	}
	tnames = calloc(ntps + 1, sizeof(*tnames));
	snames = calloc(nsys + 1, sizeof(*snames));
	ret = -ENOMEM;
	if (!tnames || !snames)
		goto out;
	for (int i = 0; i < ntps; i++)
		tnames[i] = tps[i].name;
	for (int i = 0; i < nsys; i++)
		snames[i] = sys[i].name;
	ret = lb_lttng_check_names(ps, tnames, ntps, snames, nsys, err, len);
out:
	free(tnames);
	free(snames);
	free(tps);
	free(sys);
	lttng_destroy_handle(h);
	return ret;
}

static int create_domain(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			 bool ust, void **priv, char *err, size_t len)
{
	static int serial;
	int kb = opts && opts->buffer_kb ? opts->buffer_kb : ps->buffer_kb;
	enum lb_buffer_mode mode = opts && opts->mode ? opts->mode : ps->mode;
	struct lttng *l;
	int ret;

	if (ust) {
		ret = lb_lttng_ust_check_names(ps, err, len);
		if (!ret && ps->scope == LB_SCOPE_WORKLOAD) {
			snprintf(err, len, "%s:%d: the lttng-ust tracer records the workload server "
				 "only already: no 'scope' line", ps->path, ps->scope_line);
			ret = -EINVAL;
		}
	} else {
		ret = check_names(ps, err, len);
		if (!ret)
			ret = check_symbols(ps, err, len);
	}
	if (!ret && kb)
		ret = lb_buffer_check_size(ps, kb, (int)sysconf(_SC_NPROCESSORS_CONF), err, len);
	if (ret)
		return ret;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->ps = ps;
	l->ust = ust;
	/* lttng-ust: per-UID buffers, LTTng's default for the user-space domain. */
	l->dom.type = ust ? LTTNG_DOMAIN_UST : LTTNG_DOMAIN_KERNEL;
	l->dom.buf_type = ust ? LTTNG_BUFFER_PER_UID : LTTNG_BUFFER_GLOBAL;
	/* LTTng's own default is discard: then every recorded event reaches the trace. */
	l->overwrite = mode == LB_MODE_OVERWRITE;
	if (kb) {
		/* Sub-buffers are a power of two bytes, at least a page. */
		uint64_t want = (uint64_t)kb * 1024 / LB_LTTNG_NUM_SUBBUF;

		l->subbuf_size = LB_PAGE_BYTES;
		while (l->subbuf_size * 2 <= want)
			l->subbuf_size *= 2;
	}
	/*
	 * One session per probe set: sets alternated together are armed at
	 * once. The first keeps the plain name.
	 */
	lb_owner_name(l->session, sizeof(l->session), 0, serial);
	serial++;
	for (size_t i = 0; i < ps->nprobes; i++) {
		l->nkprobes += ps->probes[i].kind == LB_PROBE_KPROBE;
		l->nkretprobes += ps->probes[i].kind == LB_PROBE_KRETPROBE;
	}
	*priv = l;
	return 0;
}

static int lttng_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			void **priv, char *err, size_t len)
{
	return create_domain(ps, opts, false, priv, err, len);
}

static int lttng_ust_create(const struct lb_probeset *ps, const struct lb_tracer_opts *opts,
			    void **priv, char *err, size_t len)
{
	return create_domain(ps, opts, true, priv, err, len);
}

/* Remove the trace directory (what lttng-consumerd wrote there too), following no link. */
static int remove_dir(char *dir)
{
	int ret;

	if (!dir[0])
		return 0;
	ret = lb_rmtree_at(AT_FDCWD, dir);
	dir[0] = '\0';
	return ret;
}

/* The channel's discarded-event and lost-packet counters. */
static int read_counters(struct lttng *l, uint64_t *discarded, uint64_t *lost)
{
	struct lttng_channel *chans = NULL;
	int n = lttng_list_channels(l->handle, &chans), ret = -ENOENT;

	if (n < 0)
		return -EIO;
	for (int i = 0; i < n; i++) {
		if (strcmp(chans[i].name, LB_LTTNG_CHANNEL))
			continue;
		ret = 0;
		if (lttng_channel_get_discarded_event_count(&chans[i], discarded) ||
		    lttng_channel_get_lost_packet_count(&chans[i], lost))
			ret = -EIO;
		break;
	}
	free(chans);
	return ret;
}

/*
 * The counts at every snapshot from the trace in l->dir, read back in one
 * pass; kept for collect (a failure too, with its message).
 */
static void count_snapshots(struct lttng *l)
{
	uint64_t *arr = calloc(3 * (l->nsnap + 1), sizeof(*arr)), events = 0, lost = 0;
	uint64_t per_packet, trace_discarded = 0, trace_packets = 0;
	struct lb_ctf_buckets b = {
		.events = arr,
		.discarded_events = arr ? arr + l->nsnap + 1 : NULL,
		.discarded_packets = arr ? arr + 2 * (l->nsnap + 1) : NULL,
	};
	struct lb_ctf_counts cc;

	l->counted = true;
	free(l->at);
	l->nat = 0;
	l->at = calloc(l->nsnap ? l->nsnap : 1, sizeof(*l->at));
	if (!arr || !l->at) {
		l->count_ret = -ENOMEM;
		snprintf(l->count_err, sizeof(l->count_err), "out of memory reading the LTTng "
			 "trace back");
		goto out;
	}
	l->count_ret = lb_ctf_count(l->dir, l->snap_ns, l->nsnap, &b, &cc, l->count_err,
				    sizeof(l->count_err));
	if (l->count_ret)
		goto out;
	per_packet = cc.packets ? cc.all_events / cc.packets : 0;
	for (size_t i = 0; i < l->nsnap; i++) {
		/* Recorded or lost before snapshot i: the buckets before its edge. */
		events += b.events[i];
		lost += b.discarded_events[i] + b.discarded_packets[i] * per_packet;
		l->at[i].lost = lost;
		l->at[i].events = events + lost;
	}
	for (size_t i = 0; i <= l->nsnap; i++) {
		trace_discarded += b.discarded_events[i];
		trace_packets += b.discarded_packets[i];
	}
	/* What the channel counted beyond the trace: in the last window. */
	if (l->nsnap) {
		uint64_t more = (l->discarded > trace_discarded ? l->discarded - trace_discarded : 0) +
				(l->lost_packets > trace_packets ?
				 (l->lost_packets - trace_packets) * per_packet : 0);

		l->at[l->nsnap - 1].lost += more;
		l->at[l->nsnap - 1].events += more;
	}
	l->nat = l->nsnap;
out:
	free(arr);
}

/*
 * The trace's bound: LTTng's consumer keeps at most tracefile_count files of
 * tracefile_size per stream (a ring: past it, it deletes the oldest), all
 * together at most half the space free where the trace goes when the run
 * arms. So even a run whose loadbench and watchdog both died cannot fill
 * $TMPDIR (a RAM-backed /tmp). A trace that reaches the ring's last file is
 * refused at disarm: its oldest events may be gone, and the count with them.
 * @subbuf is the channel's sub-buffer size (a file holds whole ones).
 * Returns 0, or -ENOSPC with a reason when not even two sub-buffers per file
 * and stream fit.
 */
static int trace_bound(struct lttng *l, uint64_t subbuf, char *err, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t avail, bound, per_stream, count;
	struct statvfs sv;

	if (statvfs(l->dir, &sv)) {
		int ret = -errno;

		snprintf(err, len, "cannot read the free space of the LTTng trace's file system "
			 "(%s): %s", l->dir, strerror(-ret));
		return ret;
	}
	if (ncpu < 1)
		ncpu = 1;
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	bound = avail / 2;
	per_stream = bound / (uint64_t)ncpu;
	count = per_stream / (2 * subbuf);
	if (count < 2) {
		snprintf(err, len, "the LTTng trace's file system (%s) has %llu KiB free: a trace of "
			 "%ld streams of 2 files of 2 %llu-byte sub-buffers needs twice %llu KiB; set "
			 "TMPDIR to a file system with more room", l->dir,
			 (unsigned long long)(avail >> 10), ncpu, (unsigned long long)subbuf,
			 (unsigned long long)((uint64_t)ncpu * 4 * subbuf >> 10));
		return -ENOSPC;
	}
	if (count > LB_LTTNG_TRACEFILES)
		count = LB_LTTNG_TRACEFILES;
	l->tracefile_count = (unsigned int)count;
	l->tracefile_size = per_stream / count / subbuf * subbuf;
	return 0;
}

/*
 * Whether the consumer reached the last file of a stream's ring (channel
 * files CHANNEL_CPU_INDEX under @dir, a few levels down): the trace is at
 * its bound, and the oldest files may have been deleted.
 */
static bool trace_at_bound(const char *dir, unsigned int count, int depth)
{
	char path[PATH_MAX], pfx[64];
	struct dirent *de;
	bool at = false;
	DIR *d;

	if (!count || depth > 4 || !(d = opendir(dir)))
		return false;
	snprintf(pfx, sizeof(pfx), "%s_", LB_LTTNG_CHANNEL);
	while (!at && (de = readdir(d))) {
		const char *p = de->d_name + strlen(pfx);
		unsigned long i;
		struct stat st;
		char *end;

		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (de->d_type == DT_DIR || (de->d_type == DT_UNKNOWN && !lstat(path, &st) &&
					     S_ISDIR(st.st_mode))) {
			at = trace_at_bound(path, count, depth + 1);
			continue;
		}
		/* CHANNEL_CPU_INDEX: the index, after the CPU, is what the ring wraps. */
		if (strncmp(de->d_name, pfx, strlen(pfx)))
			continue;
		strtoul(p, &end, 10);
		if (end == p || *end != '_')
			continue;
		p = end + 1;
		i = strtoul(p, &end, 10);
		at = !*end && end != p && i + 1 >= count;
	}
	closedir(d);
	return at;
}

static int lttng_disarm(void *priv)
{
	struct lttng *l = priv;
	int ret = 0, r;

	if (l->created) {
		/* Waits until the consumer has written everything recorded. */
		r = lttng_stop_tracing(l->session);
		if (r < 0 && r != -LTTNG_ERR_TRACE_ALREADY_STOPPED)
			ret = -EIO;
		/* The check of the trace's losses; without it, the trace's alone. */
		l->discarded = l->lost_packets = 0;
		if (l->handle)
			read_counters(l, &l->discarded, &l->lost_packets);
		r = lttng_destroy_session(l->session);
		if (r < 0)
			ret = -EIO;
		else
			l->created = false;
		if (!ret && l->nsnap && trace_at_bound(l->dir, l->tracefile_count, 0)) {
			l->counted = true;
			l->count_ret = -ENOSPC;
			snprintf(l->count_err, sizeof(l->count_err), "the LTTng trace reached its "
				 "bound (%u files of %llu KiB per stream, half the space free in %.200s "
				 "when the run armed): its oldest events may be gone, so it cannot be "
				 "counted; set TMPDIR to a file system with more room, or measure for "
				 "less time", l->tracefile_count,
				 (unsigned long long)(l->tracefile_size >> 10), l->dir);
		} else if (!ret && l->nsnap) {
			count_snapshots(l);
		}
	}
	lttng_destroy_handle(l->handle);
	l->handle = NULL;
	lttng_process_attr_tracker_handle_destroy(l->pid_tracker);
	l->pid_tracker = NULL;
	r = remove_dir(l->dir);
	return ret ? ret : r;
}

/* The channel's description (free with lttng_channel_destroy), or NULL without memory. */
static struct lttng_channel *make_channel(struct lttng *l)
{
	struct lttng_channel *chan = lttng_channel_create(&l->dom);

	if (!chan)
		return NULL;
	snprintf(chan->name, sizeof(chan->name), "%s", LB_LTTNG_CHANNEL);
	chan->attr.overwrite = l->overwrite;
	if (l->subbuf_size) {
		chan->attr.subbuf_size = l->subbuf_size;
		chan->attr.num_subbuf = LB_LTTNG_NUM_SUBBUF;
	}
	chan->attr.tracefile_size = l->tracefile_size;
	chan->attr.tracefile_count = l->tracefile_count;
	return chan;
}

static int enable_event(struct lttng *l, const struct lb_probe *p, char *err, size_t len)
{
	struct lttng_event *ev = lttng_event_create();
	const char *what = "tracepoint";
	int ret;

	if (!ev)
		return -ENOMEM;
	ev->loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
	switch (p->kind) {
	case LB_PROBE_TRACEPOINT:
		ev->type = LTTNG_EVENT_TRACEPOINT;
		/* The kernel domain's names have no system; lttng-ust's are PROVIDER:EVENT. */
		if (l->ust)
			snprintf(ev->name, sizeof(ev->name), "%s:%s", p->system, p->event);
		else
			snprintf(ev->name, sizeof(ev->name), "%s", p->event);
		break;
	case LB_PROBE_SYSCALL:
		what = "syscall";
		ev->type = LTTNG_EVENT_SYSCALL;
		snprintf(ev->name, sizeof(ev->name), "%s", strcmp(p->event, "all") ? p->event : "*");
		break;
	default:
		/* kprobe NAME, kretprobe NAME_ret (LTTng adds _entry and _return); '.' -> '_'. */
		what = p->kind == LB_PROBE_KPROBE ? "kprobe" : "kretprobe";
		ev->type = p->kind == LB_PROBE_KPROBE ? LTTNG_EVENT_PROBE : LTTNG_EVENT_FUNCTION;
		if (p->offset)	/* SYMBOL+OFFSET: beside a kprobe on the entry */
			snprintf(ev->name, sizeof(ev->name), "%s_off%lu", p->event, p->offset);
		else
			snprintf(ev->name, sizeof(ev->name), "%s%s", p->event,
				 p->kind == LB_PROBE_KPROBE ? "" : "_ret");
		for (char *c = ev->name; *c; c++)
			if (*c == '.')
				*c = '_';
		snprintf(ev->attr.probe.symbol_name, sizeof(ev->attr.probe.symbol_name), "%s",
			 p->event);
		ev->attr.probe.offset = p->offset;
		break;
	}
	ret = lttng_enable_event(l->handle, ev, LB_LTTNG_CHANNEL);
	if (ret < 0) {
		char at[32] = "";

		if (p->offset)
			snprintf(at, sizeof(at), "+%lu", p->offset);
		/* LTTng's code does not say why the kernel refused: the hint names both causes. */
		snprintf(err, len, "%s:%d: LTTng cannot enable %s %s%s in session %s: %s%s",
			 l->ps->path, p->line, what, p->event, at, l->session, lerr(ret),
			 p->kind == LB_PROBE_KPROBE || p->kind == LB_PROBE_KRETPROBE ?
			 lb_kprobe_refusal(-EINVAL, p->offset) : "");
	}
	lttng_event_destroy(ev);
	return ret < 0 ? -EIO : 0;
}

/* scope workload: the kernel PID tracker of the session, tracking no process yet. */
static int track_none(struct lttng *l, char *err, size_t len)
{
	enum lttng_process_attr_tracker_handle_status st;
	enum lttng_error_code code;

	code = lttng_session_get_tracker_handle(l->session, LTTNG_DOMAIN_KERNEL,
						LTTNG_PROCESS_ATTR_PROCESS_ID, &l->pid_tracker);
	if (code != LTTNG_OK) {
		snprintf(err, len, "%s:%d: cannot get the LTTng kernel PID tracker of session %s "
			 "(scope workload): %s", l->ps->path, l->ps->scope_line, l->session,
			 lerr(-(int)code));
		return -EIO;
	}
	st = lttng_process_attr_tracker_handle_set_tracking_policy(l->pid_tracker,
								   LTTNG_TRACKING_POLICY_INCLUDE_SET);
	if (st != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK) {
		snprintf(err, len, "%s:%d: cannot make the LTTng kernel PID tracker of session %s "
			 "an inclusion set (scope workload): status %d", l->ps->path,
			 l->ps->scope_line, l->session, (int)st);
		return -EIO;
	}
	return 0;
}

/* scope workload: the workload's processes join the PID tracker's inclusion set. */
static int lttng_attach(void *priv, const pid_t *pids, int n, char *err, size_t len)
{
	struct lttng *l = priv;

	if (l->ps->scope != LB_SCOPE_WORKLOAD)
		return 0;
	if (!l->pid_tracker) {
		snprintf(err, len, "the LTTng session %s is not armed", l->session);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		enum lttng_process_attr_tracker_handle_status st;

		st = lttng_process_attr_process_id_tracker_handle_add_pid(l->pid_tracker, pids[i]);
		/* EXISTS: the same pid twice (a flow's processes are listed once each). */
		if (st != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK &&
		    st != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_EXISTS) {
			snprintf(err, len, "cannot add pid %d to the LTTng kernel PID tracker of "
				 "session %s: status %d", (int)pids[i], l->session, (int)st);
			return -EIO;
		}
	}
	return 0;
}

static int lttng_arm(void *priv, char *err, size_t len)
{
	struct lttng *l = priv;
	struct lttng_channel *chan = NULL;
	const char *tmp = getenv("TMPDIR");
	int ret;

	l->nsnap = 0;
	l->nat = 0;
	l->off = false;
	l->counted = false;
	l->count_ret = 0;
	if ((size_t)snprintf(l->dir, sizeof(l->dir), "%s/%s.XXXXXX",
			     tmp && tmp[0] == '/' ? tmp : "/tmp", l->session) >= sizeof(l->dir)) {
		snprintf(err, len, "cannot create a directory for the LTTng trace: $TMPDIR (%.64s...) "
			 "is too long: set TMPDIR to a shorter directory", tmp);
		l->dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	if (!mkdtemp(l->dir)) {
		ret = -errno;
		snprintf(err, len, "cannot create a directory for the LTTng trace (%s): %s", l->dir,
			 strerror(-ret));
		l->dir[0] = '\0';
		return ret;
	}
	ret = lttng_create_session(l->session, l->dir);
	if (ret < 0) {
		snprintf(err, len, "cannot create the LTTng session %s: %s%s", l->session, lerr(ret),
			 ret == -LTTNG_ERR_EXIST_SESS ? " (remove it with 'lttng destroy "
			 "loadbench_<pid>' or 'loadbench cleanup')" : "");
		ret = ret == -LTTNG_ERR_EXIST_SESS ? -EEXIST : -EIO;
		goto fail;
	}
	l->created = true;
	ret = -ENOMEM;
	l->handle = lttng_create_handle(l->session, &l->dom);
	l->tracefile_size = 0;
	l->tracefile_count = 0;
	chan = make_channel(l);
	if (!l->handle || !chan)
		goto fail;
	/* chan has LTTng's default sub-buffer size when the probe set gives none. */
	ret = trace_bound(l, chan->attr.subbuf_size ? chan->attr.subbuf_size : 1 << 20, err, len);
	if (ret)
		goto fail;
	chan->attr.tracefile_size = l->tracefile_size;
	chan->attr.tracefile_count = l->tracefile_count;
	ret = lttng_enable_channel(l->handle, chan);
	if (ret < 0) {
		snprintf(err, len, "cannot create the LTTng channel %s (%s mode, %llu-byte "
			 "sub-buffers) in session %s: %s", LB_LTTNG_CHANNEL,
			 l->overwrite ? "overwrite" : "discard",
			 (unsigned long long)chan->attr.subbuf_size, l->session, lerr(ret));
		ret = -EIO;
		goto fail;
	}
	for (size_t i = 0; i < l->ps->nprobes; i++) {
		ret = enable_event(l, &l->ps->probes[i], err, len);
		if (ret)
			goto fail;
	}
	if (l->ps->scope == LB_SCOPE_WORKLOAD) {
		ret = track_none(l, err, len);
		if (ret)
			goto fail;
	}
	ret = lttng_start_tracing(l->session);
	if (ret < 0) {
		snprintf(err, len, "cannot start the LTTng session %s: %s", l->session, lerr(ret));
		ret = -EIO;
		goto fail;
	}
	lttng_channel_destroy(chan);
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory setting up the LTTng session %s", l->session);
	lttng_channel_destroy(chan);
	lttng_disarm(l);
	return ret;
}

/* A snapshot: the time only (see the top of the file); the counts come from collect. */
static int lttng_snapshot(void *priv, struct lb_tracer_counts *c)
{
	struct lttng *l = priv;
	struct timespec ts;

	if (l->nsnap == l->snap_cap) {
		size_t cap = l->snap_cap ? 2 * l->snap_cap : 64;
		uint64_t *a = realloc(l->snap_ns, cap * sizeof(*a));

		if (!a)
			return -ENOMEM;
		l->snap_ns = a;
		l->snap_cap = cap;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	l->snap_ns[l->nsnap++] = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	memset(c, 0, sizeof(*c));
	return 0;
}

static int lttng_collect(void *priv, struct lb_tracer_counts *at, size_t n, char *err,
			 size_t len)
{
	struct lttng *l = priv;

	if (!l->counted) {
		snprintf(err, len, "the LTTng trace was not read back: the run took no snapshot");
		return -ENODATA;
	}
	if (l->count_ret) {
		snprintf(err, len, "%s", l->count_err);
		return l->count_ret;
	}
	if (n > l->nat) {
		snprintf(err, len, "the LTTng trace was read back at %zu snapshots, not %zu",
			 l->nat, n);
		return -ERANGE;
	}
	memcpy(at, l->at, n * sizeof(*at));
	return 0;
}

/*
 * lttng-ust switches its events, not the channel: disabled, lttng-ust sets
 * the tracepoints' state to 0 in the server. 0 or -errno with @err.
 */
static int ust_events_switch(struct lttng *l, bool on, char *err, size_t len)
{
	for (size_t i = 0; i < l->ps->nprobes; i++) {
		const struct lb_probe *p = &l->ps->probes[i];
		char name[LTTNG_SYMBOL_NAME_LEN];
		int ret;

		if (on) {
			ret = enable_event(l, p, err, len);
			if (ret)
				return ret;
			continue;
		}
		snprintf(name, sizeof(name), "%s:%s", p->system, p->event);
		ret = lttng_disable_event(l->handle, name, LB_LTTNG_CHANNEL);
		if (ret < 0) {
			snprintf(err, len, "cannot disable the LTTng-UST event %s of session %s: %s",
				 name, l->session, lerr(ret));
			return -EIO;
		}
	}
	return 0;
}

/*
 * Switching off: the channel disabled (see the top of the file). Its
 * sub-buffers, the consumer and the session stay.
 */
static int lttng_disable(void *priv, char *err, size_t len)
{
	struct lttng *l = priv;
	int ret;

	if (l->off)
		return 0;
	if (l->ust) {
		ret = ust_events_switch(l, false, err, len);
		l->off = !ret;
		return ret;
	}
	ret = lttng_disable_channel(l->handle, LB_LTTNG_CHANNEL);
	if (ret < 0) {
		snprintf(err, len, "cannot disable the LTTng channel %s of session %s: %s",
			 LB_LTTNG_CHANNEL, l->session, lerr(ret));
		return -EIO;
	}
	l->off = true;
	return 0;
}

/* Switching on again: enabling the channel that exists enables it, its attributes stay. */
static int lttng_enable(void *priv, char *err, size_t len)
{
	struct lttng *l = priv;
	struct lttng_channel *chan;
	int ret;

	if (!l->off)
		return 0;
	if (l->ust) {
		ret = ust_events_switch(l, true, err, len);
		l->off = ret != 0;
		return ret;
	}
	chan = make_channel(l);
	if (!chan) {
		snprintf(err, len, "out of memory enabling the LTTng channel %s", LB_LTTNG_CHANNEL);
		return -ENOMEM;
	}
	ret = lttng_enable_channel(l->handle, chan);
	lttng_channel_destroy(chan);
	if (ret < 0) {
		snprintf(err, len, "cannot enable the LTTng channel %s of session %s again: %s",
			 LB_LTTNG_CHANNEL, l->session, lerr(ret));
		return -EIO;
	}
	l->off = false;
	return 0;
}

static const char *lttng_off_residue(void *priv)
{
	struct lttng *l = priv;

	if (l->ust)
		return "the server's markers still call into the LTTng-UST provider, which tests "
		       "each tracepoint's state (0 while off); liblttng-ust's two listener threads "
		       "stay in the server, idle";
	if (!l->nkprobes && !l->nkretprobes)
		return NULL;
	snprintf(l->residue, sizeof(l->residue), "%d kprobe%s and %d kretprobe%s stay "
		 "registered (lttng-modules unregisters a disabled channel's tracepoints and "
		 "syscalls, not its kprobes): each hit still takes the kprobe and returns from "
		 "LTTng's handler at once", l->nkprobes, l->nkprobes == 1 ? "" : "s",
		 l->nkretprobes, l->nkretprobes == 1 ? "" : "s");
	return l->residue;
}

static void lttng_destroy(void *priv)
{
	struct lttng *l = priv;

	if (!l)
		return;
	lttng_disarm(l);
	lttng_free(l);
}

#define TRACE_DIR_KIND "LTTng trace directory"

int lb_lttng_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	struct lttng_session *s = NULL;
	char what[LTTNG_NAME_MAX + 64], dir[PATH_MAX], owner[64];
	int n, found = 0;

	if (geteuid() != 0)
		return 0;
	if (lttng_session_daemon_alive() <= 0)
		return lb_tmpdirs_cleanup(o, "", TRACE_DIR_KIND, remove, report, arg);
	n = lttng_list_sessions(&s);
	for (int i = 0; i < n; i++) {
		char *base = NULL;
		pid_t pid;
		int err = 0;

		snprintf(what, sizeof(what), "LTTng session %s", s[i].name);
		if (!lb_cleanup_take(o, s[i].name, what, &pid, report, arg))
			continue;
		found++;
		if (remove && lttng_destroy_session(s[i].name) < 0)
			err = -EIO;
		if (err)
			lb_owners_failed(o, pid);
		if (report)
			report(what, err, arg);
		/* Its trace directory, when it is this session's: NAME.XXXXXX */
		snprintf(dir, sizeof(dir), "%s", s[i].path);
		base = strrchr(dir, '/');
		if (!err && base && base != dir &&
		    lb_tmpdir_owner(base + 1, "", owner, sizeof(owner)) &&
		    !strcmp(owner, s[i].name)) {
			int fd;

			*base++ = '\0';
			fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0) {
				lb_tmpdir_remove(o, pid, fd, base, dir, TRACE_DIR_KIND, remove,
						 report, arg);
				close(fd);
			}
		}
	}
	free(s);
	return found + lb_tmpdirs_cleanup(o, "", TRACE_DIR_KIND, remove, report, arg);
}

/*
 * The daemons that do LTTng's user-space work: lttng-sessiond, and the
 * lttng-consumerd that moves the kernel's sub-buffers to the trace files.
 * They serve every session on the machine, ours included: what they use
 * while our session records is the tracer's. Found by name in /proc.
 */
static int lttng_cpu_clocks(void *priv, clockid_t *clk, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	(void)priv;
	if (!d)
		return -errno;
	while (n < max && (de = readdir(d))) {
		char path[64], comm[32] = "";
		pid_t pid = (pid_t)atoi(de->d_name);
		FILE *f;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		if (strcmp(comm, "lttng-sessiond") && strcmp(comm, "lttng-consumerd"))
			continue;
		if (!clock_getcpuclockid(pid, &clk[n]))
			n++;
	}
	closedir(d);
	return n;
}

const struct lb_tracer_ops lb_tracer_lttng = {
	.name = "lttng",
	.available = lttng_available,
	.create = lttng_create,
	.arm = lttng_arm,
	.attach = lttng_attach,
	.snapshot = lttng_snapshot,
	.enable = lttng_enable,
	.disable = lttng_disable,
	.off_residue = lttng_off_residue,
	.cpu_clocks = lttng_cpu_clocks,
	.collect = lttng_collect,
	.disarm = lttng_disarm,
	.destroy = lttng_destroy,
	.cleanup = lb_lttng_cleanup,
};

const struct lb_tracer_ops lb_tracer_lttng_ust = {
	.name = "lttng-ust",
	.available = lttng_ust_available,
	.create = lttng_ust_create,
	.arm = lttng_arm,
	.attach = lttng_attach,
	.snapshot = lttng_snapshot,
	.enable = lttng_enable,
	.disable = lttng_disable,
	.off_residue = lttng_off_residue,
	.cpu_clocks = lttng_cpu_clocks,
	.collect = lttng_collect,
	.disarm = lttng_disarm,
	.destroy = lttng_destroy,
	/* Its sessions are named as the lttng tracer's, whose cleanup finds them. */
};
