// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes, kretprobes, uprobes and uretprobes through libtracefs's dynamic
 * event API. Event names: NAME for a kprobe, NAME__return for a kretprobe
 * (perf probe's convention), u_NAME and u_NAME__return for the user-space
 * ones; a '.' of a clone's name (NAME.constprop.0) becomes '_'.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "dynevent.h"
#include "elfsym.h"
#include "kallsyms.h"
#include "owner.h"
#include "tracefs_util.h"
#include "unavailable.h"

#define LB_EVENT_NAME_MAX	64	/* the kernel's MAX_EVENT_NAME_LEN, NUL included */
#define LB_USDT_SITES_MAX	8	/* places of one USDT marker in the server */

struct dynev {
	enum lb_probe_kind kind;
	const char *symbol;		/* the probe set's; valid while it is */
	unsigned long koffset;		/* kprobes: SYMBOL+OFFSET's offset; 0 = the entry */
	char addr[LB_EVENT_NAME_MAX + 16]; /* kprobes: what kprobe_events is given */
	char name[LB_EVENT_NAME_MAX];
	uint64_t offset;		/* uprobes: in exe */
	uint64_t sem_offset;		/* usdt: its semaphore's, in exe; 0 = none */
	int line;			/* the probe set's line */
	struct tracefs_dynevent *dev;	/* non-NULL once created in the kernel */
};

struct lb_dynevents {
	struct dynev *ev;
	size_t n;
	char group[32];
	char exe[PATH_MAX];		/* the binary of the uprobes and usdt markers */
	bool self;			/* exe is the loadbench executable (no 'binary' line) */
};

static bool is_kernel(enum lb_probe_kind kind)
{
	return kind == LB_PROBE_KPROBE || kind == LB_PROBE_KRETPROBE;
}

static bool is_dynamic(enum lb_probe_kind kind)
{
	return is_kernel(kind) || kind == LB_PROBE_UPROBE || kind == LB_PROBE_URETPROBE ||
	       kind == LB_PROBE_USDT;
}

static bool is_return(enum lb_probe_kind kind)
{
	return kind == LB_PROBE_KRETPROBE || kind == LB_PROBE_URETPROBE;
}

static const char *kind_str(enum lb_probe_kind kind)
{
	switch (kind) {
	case LB_PROBE_KPROBE:
		return "kprobe";
	case LB_PROBE_KRETPROBE:
		return "kretprobe";
	case LB_PROBE_UPROBE:
		return "uprobe";
	case LB_PROBE_USDT:
		return "usdt";
	default:
		return "uretprobe";
	}
}

/* Whether tracefs has the top-level control file @file. */
static bool have_file(const char *file)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", lb_tracefs_dir(), file);
	return stat(path, &st) == 0;
}

/* Check the kernel symbol (and offset) of @p against @ks (loaded on first use). */
static int check_kernel_symbol(const struct lb_probeset *ps, const struct lb_probe *p,
			       struct lb_kallsyms **ks, char *err, size_t len)
{
	char where[PATH_MAX + 16];

	snprintf(where, sizeof(where), "%s:%d", ps->path, p->line);
	return lb_kallsyms_check_probe(ks, where, NULL, p->event, p->offset, err, len);
}

/* The offset of server function @p->event in the loadbench executable @exe. */
static int check_function(const struct lb_probeset *ps, const struct lb_probe *p,
			  const char *exe, uint64_t *offset, char *err, size_t len)
{
	char near[256];
	int ret = lb_elf_func_offset(exe, p->event, offset, near, sizeof(near));

	if (ret == -ENOENT)
		snprintf(err, len, "%s:%d: unknown %sfunction %s: %s has no function of that "
			 "name%s%s", ps->path, p->line, ps->binary ? "" : "server ", p->event, exe,
			 near[0] ? "; similar: " : "", near);
	else if (ret == -ENOEXEC)
		snprintf(err, len, "%s:%d: cannot place a %s on %s: %s has no symbol table "
			 "(stripped?) or is not a 64-bit ELF file", ps->path, p->line,
			 kind_str(p->kind), p->event, exe);
	else if (ret)
		snprintf(err, len, "%s:%d: cannot read %s to find %s: %s", ps->path, p->line, exe,
			 p->event, strerror(-ret));
	return ret;
}

/*
 * The sites of USDT marker @p (PROVIDER:NAME) in @exe, one event each in
 * @d->ev from @d->n on. Returns 0, or -errno with "PATH:LINE: problem".
 */
static int add_usdt(struct lb_dynevents *d, const struct lb_probeset *ps, const struct lb_probe *p,
		    char *err, size_t len)
{
	struct lb_usdt_site sites[LB_USDT_SITES_MAX];
	char near[256];
	int n = lb_elf_usdt(d->exe, p->system, p->event, sites, LB_USDT_SITES_MAX, near,
			    sizeof(near));

	if (n == -ENOENT) {
		snprintf(err, len, "%s:%d: unknown USDT marker %s:%s: %s has none of that name%s%s",
			 ps->path, p->line, p->system, p->event, d->exe,
			 near[0] ? "; it has: " : d->self ? " (built without sys/sdt.h? configure "
			 "says whether the server has its markers: apt-get install "
			 "systemtap-sdt-dev)" : " (it has no USDT markers: built without them?)",
			 near);
		return n;
	}
	if (n < 0) {
		snprintf(err, len, "%s:%d: cannot read the USDT markers of %s: %s", ps->path, p->line,
			 d->exe, n == -ENOEXEC ? "not a 64-bit ELF file, or a damaged note" :
			 strerror(-n));
		return n;
	}
	if (n > LB_USDT_SITES_MAX) {
		snprintf(err, len, "%s:%d: USDT marker %s:%s is in %d places, more than the %d "
			 "loadbench places uprobes on", ps->path, p->line, p->system, p->event, n,
			 LB_USDT_SITES_MAX);
		return -E2BIG;
	}
	for (int i = 0; i < n; i++) {
		struct dynev *ev = &d->ev[d->n++];

		/* Event usdt_PROVIDER_NAME_I: one per place, all counted as the marker's. */
		if (snprintf(ev->name, sizeof(ev->name), "usdt_%s_%s_%d", p->system, p->event, i) >=
		    (int)sizeof(ev->name)) {
			snprintf(err, len, "%s:%d: usdt %s:%s: the event name would be longer than "
				 "the kernel's %d bytes", ps->path, p->line, p->system, p->event,
				 LB_EVENT_NAME_MAX - 1);
			return -ENAMETOOLONG;
		}
		ev->kind = LB_PROBE_USDT;
		ev->symbol = p->event;
		ev->line = p->line;
		ev->offset = sites[i].offset;
		ev->sem_offset = sites[i].sem_offset;
	}
	return 0;
}

/*
 * The set's 'binary', its symbolic links resolved (the kernel places a
 * uprobe on an inode: /usr/bin/python3 is python3.11's), checked to be a
 * regular file, into @buf.
 */
static int find_binary(const struct lb_probeset *ps, char *buf, size_t size, char *err,
		       size_t len)
{
	char real[PATH_MAX];
	struct stat st;
	int ret;

	if (!realpath(ps->binary, real) || stat(real, &st) < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			lb_unavailable_say(LB_UNAVAIL_TOOL, err, len, "probe set %s cannot run here: "
					   "its binary %s is not installed; install it (scripts/"
					   "bootstrap installs the catalog's tools)", ps->name,
					   ps->binary);
		else
			snprintf(err, len, "%s:%d: binary %s: %s", ps->path, ps->binary_line,
				 ps->binary, strerror(-ret));
		return ret;
	}
	if (!S_ISREG(st.st_mode) || strpbrk(real, " \t\n") || strlen(real) >= size) {
		snprintf(err, len, "%s:%d: binary %s: %s is not a regular file uprobe_events can "
			 "name (no blanks)", ps->path, ps->binary_line, ps->binary, real);
		return -EINVAL;
	}
	snprintf(buf, size, "%s", real);
	return 0;
}

/* The loadbench executable, the server's binary, as uprobe_events can name it, into @buf. */
static int find_exe(char *buf, size_t size, char *err, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	int ret;

	if (n < 0) {
		ret = -errno;
		snprintf(err, len, "cannot read /proc/self/exe for uprobes: %s", strerror(-ret));
		return ret;
	}
	/* A path that filled the buffer may be cut: a uprobe on it would name another file. */
	if ((size_t)n >= size - 1) {
		snprintf(err, len, "uprobes cannot name the loadbench executable: its path is %zu "
			 "bytes or longer: run loadbench from a shorter path", size - 1);
		return -ENAMETOOLONG;
	}
	buf[n] = '\0';
	if (strpbrk(buf, " \t\n")) {
		snprintf(err, len, "uprobes cannot name %s: uprobe_events takes no blanks in "
			 "a path (or it was deleted): run loadbench from a path without blanks",
			 buf);
		return -EINVAL;
	}
	return 0;
}

int lb_uprobe_binary(const struct lb_probeset *ps, char *buf, size_t size, char *err,
		     size_t len)
{
	return ps->binary ? find_binary(ps, buf, size, err, len) : find_exe(buf, size, err, len);
}

int lb_dynevents_resolve(const struct lb_probeset *ps, struct lb_dynevents **out, char *err,
			 size_t len)
{
	static int serial;	/* dynamic-event groups made by this process */
	struct lb_kallsyms *ks = NULL;
	struct lb_dynevents *d;
	bool kernel = false, user = false;
	int ret = 0;

	*out = NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	/*
	 * One group per probe set: two sets alternated together each create
	 * theirs (ftrace+kprobe beside ftrace+kretprobe name the same
	 * functions). The first keeps the plain name.
	 */
	lb_owner_name(d->group, sizeof(d->group), 0, serial);
	serial++;
	for (size_t i = 0; i < ps->nprobes; i++) {
		kernel |= is_kernel(ps->probes[i].kind);
		user |= is_dynamic(ps->probes[i].kind) && !is_kernel(ps->probes[i].kind);
	}
	if (kernel && !have_file("kprobe_events")) {
		lb_unavailable_say(LB_UNAVAIL_KPROBES, err, len, "needs kprobes: this kernel has no "
				   "%s/kprobe_events (CONFIG_KPROBES unset)", lb_tracefs_dir());
		ret = -ENODEV;
		goto err;
	}
	if (user && !have_file("uprobe_events")) {
		lb_unavailable_say(LB_UNAVAIL_UPROBES, err, len, "needs uprobes: this kernel has no "
				   "%s/uprobe_events (CONFIG_UPROBE_EVENTS unset)",
				   lb_tracefs_dir());
		ret = -ENODEV;
		goto err;
	}
	if (user) {
		d->self = !ps->binary;
		ret = lb_uprobe_binary(ps, d->exe, sizeof(d->exe), err, len);
		if (ret)
			goto err;
	}
	d->ev = calloc(ps->nprobes ? ps->nprobes * LB_USDT_SITES_MAX : 1, sizeof(*d->ev));
	if (!d->ev) {
		ret = -ENOMEM;
		goto err;
	}
	for (size_t i = 0; i < ps->nprobes; i++) {
		const struct lb_probe *p = &ps->probes[i];
		struct dynev *ev = &d->ev[d->n];
		int n;

		if (!is_dynamic(p->kind))
			continue;
		if (p->kind == LB_PROBE_USDT) {
			ret = add_usdt(d, ps, p, err, len);
			if (ret)
				goto err;
			continue;
		}
		if (is_kernel(p->kind))
			ret = check_kernel_symbol(ps, p, &ks, err, len);
		else
			ret = check_function(ps, p, d->exe, &ev->offset, err, len);
		if (ret)
			goto err;
		/* SYMBOL+OFFSET is event SYMBOL_offOFFSET: beside a kprobe on the entry. */
		if (p->offset)
			n = snprintf(ev->name, sizeof(ev->name), "%s_off%lu", p->event, p->offset);
		else
			n = snprintf(ev->name, sizeof(ev->name), "%s%s%s",
				     is_kernel(p->kind) ? "" : "u_", p->event,
				     is_return(p->kind) ? "__return" : "");
		if (n >= (int)sizeof(ev->name)) {
			snprintf(err, len, "%s:%d: %s %s: the event name %s would be longer than "
				 "the kernel's %d bytes", ps->path, p->line, kind_str(p->kind),
				 p->event, ev->name, LB_EVENT_NAME_MAX - 1);
			ret = -ENAMETOOLONG;
			goto err;
		}
		for (char *c = ev->name; *c; c++)
			if (*c == '.')
				*c = '_';
		ev->kind = p->kind;
		ev->symbol = p->event;
		ev->line = p->line;
		ev->koffset = p->offset;
		if (p->offset)
			snprintf(ev->addr, sizeof(ev->addr), "%s+%lu", p->event, p->offset);
		else
			snprintf(ev->addr, sizeof(ev->addr), "%s", p->event);
		d->n++;
	}
	lb_kallsyms_free(ks);
	*out = d;
	return 0;
err:
	lb_kallsyms_free(ks);
	lb_dynevents_free(d);
	return ret;
}

static struct tracefs_dynevent *alloc_dynevent(const struct lb_dynevents *d,
					       const struct dynev *ev)
{
	switch (ev->kind) {
	case LB_PROBE_KPROBE:
		return tracefs_kprobe_alloc(d->group, ev->name, ev->addr, NULL);
	case LB_PROBE_KRETPROBE:
		return tracefs_kretprobe_alloc(d->group, ev->name, ev->symbol, NULL, 0);
	case LB_PROBE_UPROBE:
		return tracefs_uprobe_alloc(d->group, ev->name, d->exe, ev->offset, NULL);
	default:
		return tracefs_uretprobe_alloc(d->group, ev->name, d->exe, ev->offset, NULL);
	}
}

/*
 * A USDT marker's uprobe with its reference counter: uprobe_events takes
 * "p:GROUP/EVENT PATH:0xOFFSET(0xSEMAPHORE)", and while the uprobe is
 * registered the kernel raises the semaphore in every process that maps
 * PATH (the markers then set up their arguments and trap), and lowers it
 * again when it is unregistered (disabled in every instance). libtracefs
 * 1.6 has no reference counter in tracefs_uprobe_alloc(): the line is
 * written, then taken back as a tracefs_dynevent for the rest. Returns it,
 * or NULL with errno set.
 */
static struct tracefs_dynevent *create_usdt(const struct lb_dynevents *d, const struct dynev *ev)
{
	char line[PATH_MAX + 200], ref[32] = "";
	struct tracefs_dynevent *dev;
	int e;

	if (ev->sem_offset)
		snprintf(ref, sizeof(ref), "(0x%" PRIx64 ")", ev->sem_offset);
	snprintf(line, sizeof(line), "p:%s/%s %s:0x%" PRIx64 "%s\n", d->group, ev->name, d->exe,
		 ev->offset, ref);
	if (tracefs_instance_file_append(NULL, "uprobe_events", line) < 0) {
		e = errno ? errno : EIO;
		errno = e;
		return NULL;
	}
	dev = tracefs_dynevent_get(TRACEFS_DYNEVENT_UPROBE, d->group, ev->name);
	if (!dev) {
		/* Not to be left behind untracked: taken out again at once. */
		e = errno ? errno : ENOENT;
		snprintf(line, sizeof(line), "-:%s/%s\n", d->group, ev->name);
		tracefs_instance_file_append(NULL, "uprobe_events", line);
		errno = e;
	}
	return dev;
}

/*
 * The uprobes go on the file at d->exe, the path loadbench started from, and
 * the workload server is a fork of loadbench: that file must still be the
 * one running. A rebuild while a run went on put the uprobe on the new
 * file, which no process maps, and the uprobe set read 0 events and -0.7%
 * where it costs 78%. Returns 0, or -ESTALE (or -errno) with @err set.
 */
static int check_exe_runs(const struct lb_dynevents *d, char *err, size_t len)
{
	struct stat path, self;
	int ret;

	if (!d->exe[0] || !d->self)
		return 0;
	if (stat(d->exe, &path) < 0 || stat("/proc/self/exe", &self) < 0) {
		ret = -errno;
		snprintf(err, len, "cannot place uprobes on %s: %s", d->exe, strerror(-ret));
		return ret;
	}
	if (path.st_dev != self.st_dev || path.st_ino != self.st_ino) {
		snprintf(err, len, "%s is no longer the loadbench executable that runs (rebuilt "
			 "or replaced since this run started): a uprobe placed there would never "
			 "fire in the workload; run loadbench again", d->exe);
		return -ESTALE;
	}
	return 0;
}

int lb_dynevents_create(struct lb_dynevents *d, struct tracefs_instance *inst, char *err,
			size_t len)
{
	struct tracefs_dynevent *dev = NULL;
	char file[256];
	int ret = d ? check_exe_runs(d, err, len) : 0;

	if (ret)
		return ret;

	for (size_t i = 0; d && i < d->n; i++) {
		struct dynev *ev = &d->ev[i];

		errno = 0;
		if (ev->kind == LB_PROBE_USDT) {
			dev = create_usdt(d, ev);
			if (!dev) {
				ret = errno ? -errno : -EIO;
				goto fail;
			}
		} else {
			dev = alloc_dynevent(d, ev);
			if (!dev) {
				ret = errno ? -errno : -ENOMEM;
				goto fail;
			}
			if (tracefs_dynevent_create(dev) < 0) {
				ret = errno ? -errno : -EIO;
				goto fail;
			}
		}
		ev->dev = dev;
		dev = NULL;
		if (!inst)
			continue;	/* a perf tracer opens it by id */
		snprintf(file, sizeof(file), "events/%s/%s/enable", d->group, ev->name);
		if (tracefs_instance_file_write(inst, file, "1") < 0) {
			ret = errno ? -errno : -EIO;
			snprintf(err, len, "cannot enable %s %s (event %s/%s) in our instance: "
				 "%s", kind_str(ev->kind), ev->symbol, d->group, ev->name,
				 strerror(-ret));
			return ret;
		}
		continue;
fail:
		tracefs_dynevent_free(dev);
		snprintf(err, len, "cannot create %s %s (event %s/%s): %s%s", kind_str(ev->kind),
			 is_kernel(ev->kind) ? ev->addr : ev->symbol, d->group, ev->name,
			 strerror(-ret), is_kernel(ev->kind) ?
			 lb_kprobe_refusal(ret, ev->koffset) : "");
		return ret;
	}
	return 0;
}

size_t lb_dynevents_count(const struct lb_dynevents *d)
{
	return d ? d->n : 0;
}

int lb_dynevents_event(const struct lb_dynevents *d, size_t i, const char **group,
		       const char **name, const char **what, int *line)
{
	if (!d || i >= d->n)
		return -ERANGE;
	*group = d->group;
	*name = d->ev[i].name;
	*what = d->ev[i].symbol;
	*line = d->ev[i].line;
	return d->ev[i].dev ? 0 : -ENOENT;
}

int lb_dynevents_enable(struct lb_dynevents *d, struct tracefs_instance *inst, bool on,
			char *err, size_t len)
{
	char file[256];
	int ret;

	for (size_t i = 0; d && i < d->n; i++) {
		struct dynev *ev = &d->ev[i];

		if (!ev->dev)
			continue;
		snprintf(file, sizeof(file), "events/%s/%s/enable", d->group, ev->name);
		if (tracefs_instance_file_write(inst, file, on ? "1" : "0") < 0) {
			ret = errno ? -errno : -EIO;
			snprintf(err, len, "cannot %s %s %s (event %s/%s) in our instance: %s",
				 on ? "enable" : "disable", kind_str(ev->kind), ev->symbol,
				 d->group, ev->name, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int lb_dynevents_remove(struct lb_dynevents *d)
{
	int ret = 0;

	for (size_t i = 0; d && i < d->n; i++) {
		struct dynev *ev = &d->ev[i];

		if (!ev->dev)
			continue;
		if (tracefs_dynevent_destroy(ev->dev, false) < 0) {
			if (!ret)
				ret = errno ? -errno : -EIO;
			continue;	/* kept: lb_dynevents_free() tries once more */
		}
		tracefs_dynevent_free(ev->dev);
		ev->dev = NULL;
	}
	return ret;
}

void lb_dynevents_free(struct lb_dynevents *d)
{
	if (!d)
		return;
	lb_dynevents_remove(d);
	for (size_t i = 0; i < d->n; i++)
		tracefs_dynevent_free(d->ev[i].dev);
	free(d->ev);
	free(d);
}

/*
 * dynamic_events lines look like "p:GROUP/EVENT SYMBOL ..." (kprobes),
 * "p:GROUP/EVENT /PATH:0xOFFSET" (uprobes), "r:..." for the return probes of
 * both; "-:GROUP/EVENT" removes one.
 */
int lb_dynevent_cleanup(struct lb_owners *o, bool remove, lb_cleanup_report_fn report, void *arg)
{
	char *text = tracefs_instance_file_read(NULL, "dynamic_events", NULL);
	char what[300], cmd[300];
	int found = 0;

	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *colon = strchr(line, ':'), *sp, group[256];
		pid_t pid;
		int err = 0;

		if (!colon)
			continue;
		sp = strchr(colon, ' ');
		if (sp)
			*sp = '\0';
		snprintf(group, sizeof(group), "%.*s", (int)strcspn(colon + 1, "/"), colon + 1);
		snprintf(what, sizeof(what), "dynamic event %s", colon + 1);
		if (!lb_cleanup_take(o, group, what, &pid, report, arg))
			continue;
		found++;
		if (remove) {
			snprintf(cmd, sizeof(cmd), "-:%s", colon + 1);
			if (tracefs_instance_file_append(NULL, "dynamic_events", cmd) < 0)
				err = errno ? -errno : -EIO;
		}
		if (err)
			lb_owners_failed(o, pid);
		if (report)
			report(what, err, arg);
	}
	free(text);
	return found;
}
