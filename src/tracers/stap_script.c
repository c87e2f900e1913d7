// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SystemTap scripts from probe sets, their modules' names, and stap -p4.
 * See stap_script.h for the script's shape and its procfs files.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "stap_script.h"
#include "unavailable.h"

#define LB_STAP_BUILD_TIMEOUT_S	600
#define LB_STAP_MAX_DEFINES	8

/*
 * The options every module is built with; part of its name's hash. Guru
 * mode (-g) for the skipped-probe count read in C; no overload stop and
 * MAXSKIPPED far above the default 100, after which SystemTap ends the
 * script: a probe skipped (a handler entered while another runs on the CPU,
 * an interrupt's tracepoint inside a probe) is a lost event, counted, and
 * must not end the measurement.
 */
static const char *const build_flags[] = { "-p4", "-g", "-DSTP_NO_OVERLOAD",
					   "-DMAXSKIPPED=2000000000", NULL };

/* Whether @s is a non-empty word of [A-Za-z0-9_] (and '.' when @dot). */
static bool word_ok(const char *s, bool dot)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || (dot && *s == '.')))
			return false;
	return true;
}

/* One probe of @ps as SystemTap probe points into @s. */
static int add_points(FILE *s, const struct lb_probeset *ps, const struct lb_probe *p,
		      bool *first, char *err, size_t len)
{
	const char *sep = *first ? "" : ",\n";

	switch (p->kind) {
	case LB_PROBE_TRACEPOINT:
		if (!p->system) {
			snprintf(err, len, "%s:%d: tracepoint %s: a SystemTap tracepoint is "
				 "SYSTEM:EVENT, as ftrace names it", ps->path, p->line, p->event);
			return -EINVAL;
		}
		if (!word_ok(p->system, false) ||
		    (strcmp(p->event, "*") && !word_ok(p->event, false))) {
			snprintf(err, len, "%s:%d: tracepoint names are [A-Za-z0-9_] words (or "
				 "SYSTEM:*)", ps->path, p->line);
			return -EINVAL;
		}
		fprintf(s, "%s      kernel.trace(\"%s:%s\")", sep, p->system, p->event);
		break;
	case LB_PROBE_SYSCALL:
		if (!strcmp(p->event, "all")) {
			fprintf(s, "%s      kernel.trace(\"raw_syscalls:sys_enter\"),\n"
				  "      kernel.trace(\"raw_syscalls:sys_exit\")", sep);
			break;
		}
		if (!word_ok(p->event, false)) {
			snprintf(err, len, "%s:%d: syscall names are [A-Za-z0-9_] words", ps->path,
				 p->line);
			return -EINVAL;
		}
		/* The non-DWARF syscall tapset: kprobes on the syscall's entry and return. */
		fprintf(s, "%s      nd_syscall.%s,\n      nd_syscall.%s.return",
		       sep, p->event, p->event);
		break;
	case LB_PROBE_KPROBE:
	case LB_PROBE_KRETPROBE:
		if (p->offset) {
			snprintf(err, len, "%s:%d: kprobe %s+%lu: SystemTap's kprobe.function() "
				 "probes a function's entry or return only", ps->path, p->line,
				 p->event, p->offset);
			return -EOPNOTSUPP;
		}
		if (!word_ok(p->event, true)) {
			snprintf(err, len, "%s:%d: kernel symbols are [A-Za-z0-9_.] words",
				 ps->path, p->line);
			return -EINVAL;
		}
		/* kprobe.function: no debuginfo needed (kernel.function would). */
		fprintf(s, "%s      kprobe.function(\"%s\")%s", sep, p->event,
		       p->kind == LB_PROBE_KRETPROBE ? ".return" : "");
		break;
	default:
		snprintf(err, len, "%s:%d: %s: the systemtap tracer places tracepoints, syscalls, "
			 "kprobes and kretprobes (a uprobe needs the binary's debuginfo)", ps->path,
			 p->line, p->event);
		return -EOPNOTSUPP;
	}
	*first = false;
	return 0;
}

int lb_stap_script(const struct lb_probeset *ps, char **out, char *err, size_t len)
{
	bool pid = ps->scope == LB_SCOPE_WORKLOAD, first = true;
	char *buf = NULL;
	size_t size = 0;
	FILE *s;
	int ret;

	/* The name goes into a comment line: nothing that could end it. */
	if (strspn(ps->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+.-") !=
	    strlen(ps->name)) {
		snprintf(err, len, "%s: a probe set's name is [A-Za-z0-9_+.-] for the systemtap "
			 "tracer", ps->path);
		return -EINVAL;
	}
	s = open_memstream(&buf, &size);
	if (!s)
		return -ENOMEM;
	fprintf(s, "# loadbench probe set %s, tracer systemtap: made by loadbench from its\n"
		   "# template (src/tracers/stap_script.c); do not edit.\n\n", ps->name);
	fprintf(s, "global lb_hits\t\t\t# statistics: per-CPU counts, no shared counter\n");
	if (pid)
		fprintf(s, "global lb_pids[65536]\t\t# the workload's processes (tgids)\n");
	fprintf(s, "\nfunction lb_skipped:long () %%{ /* pure */\n"
		   "\tSTAP_RETVALUE = atomic_read(skipped_count());\n%%}\n\n"
		   "probe begin\n{\n\tprintf(\"%s %%s\\n\", module_name())\n}\n\nprobe ",
		   LB_STAP_READY);
	for (size_t i = 0; i < ps->nprobes; i++) {
		ret = add_points(s, ps, &ps->probes[i], &first, err, len);
		if (ret)
			goto err;
	}
	if (first) {
		snprintf(err, len, "%s: no tracepoint, syscall or kprobe: the systemtap tracer "
			 "needs at least one", ps->path);
		ret = -EINVAL;
		goto err;
	}
	if (pid)
		fprintf(s, "\n{\n\tif (pid() in lb_pids)\n\t\tlb_hits <<< 1\n}\n\n"
			   "probe kernel.trace(\"sched:sched_process_fork\")\n{\n"
			   "\tif (pid() in lb_pids)\n\t\tlb_pids[$child->tgid] = 1\n}\n\n"
			   "probe procfs(\"pids\").write\n{\n"
			   "\tlb_pids[strtol($value, 10)] = 1\n}\n");
	else
		fprintf(s, "\n{\n\tlb_hits <<< 1\n}\n");
	fprintf(s, "\nprobe procfs(\"counts\").read\n{\n"
		   "\t$value = sprintf(\"%%d %%d\\n\", @count(lb_hits), lb_skipped())\n}\n");
	if (fclose(s) || !buf)
		ret = -ENOMEM;
	else
		ret = 0;
	if (!ret)
		*out = buf;
	else
		free(buf);
	return ret;
err:
	fclose(s);
	free(buf);
	return ret;
}

const char *lb_stap_module_name(const char *script, char *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a, 64 bits */

	for (int i = 0; build_flags[i]; i++)
		for (const char *c = build_flags[i]; ; c++) {
			h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
			if (!*c)
				break;
		}
	for (const char *c = script; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	snprintf(buf, len, "%s%016llx", LB_STAP_MODULE_PREFIX, (unsigned long long)h);
	return buf;
}

bool lb_stap_find_program(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char all[4096];

	snprintf(all, sizeof(all), "%s:/usr/sbin:/sbin:/usr/bin", path ? path : "");
	for (char *save = NULL, *d = strtok_r(all, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (*d != '/')
			continue;	/* a relative PATH entry: not for a root tool */
		snprintf(buf, len, "%s/%s", d, prog);
		if (!access(buf, X_OK))
			return true;
	}
	return false;
}

/* Whether @st is root's and no one else may write it. */
static bool root_only(const struct stat *st)
{
	return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

int lb_stap_module_check(const char *path, char *err, size_t len)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (lstat(path, &st) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode) || !root_only(&st)) {
		snprintf(err, len, "%s: not a regular file of root's that only root may write: "
			 "not loaded into the kernel", path);
		return -EPERM;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || !root_only(&st)) {
		snprintf(err, len, "%s: its directory is not root's alone (others may write in "
			 "it): not loaded into the kernel", path);
		return -EPERM;
	}
	return 0;
}

int lb_stap_child_stdio(const char *log, mode_t mode)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);

	if (fd < 0)
		return -1;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, STDIN_FILENO);
	return 0;
}

/* The child of lb_stap_build(): into @dir, output to the log, exec stap. */
static void __attribute__((noreturn)) build_child(const char *stap, const char *name,
						  const struct lb_stap_build_opts *o,
						  const char *dir)
{
	const char *argv[20 + LB_STAP_MAX_DEFINES];
	char dflag[LB_STAP_MAX_DEFINES][256];
	char script[PATH_MAX], log[PATH_MAX], home[PATH_MAX];
	int n = 0;

	setpgid(0, 0);
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	snprintf(script, sizeof(script), "%s.stp", name);
	snprintf(home, sizeof(home), "%s/.systemtap", dir);
	if (lb_stap_child_stdio(log, 0644) < 0 || chdir(dir) < 0)
		_exit(126);
	/* stap's own directory (its cache: tracepoint queries, kept for the next build;
	 * certificates) inside ours: nothing in root's home. */
	setenv("SYSTEMTAP_DIR", home, 1);
	argv[n++] = "stap";
	for (int i = 0; build_flags[i]; i++)
		argv[n++] = build_flags[i];
	argv[n++] = "-m";
	argv[n++] = name;
	if (o->kbuild) {
		argv[n++] = "-r";
		argv[n++] = o->kbuild;
	}
	if (o->runtime) {
		argv[n++] = "-R";
		argv[n++] = o->runtime;
	}
	for (int i = 0; o->defines && o->defines[i] && i < LB_STAP_MAX_DEFINES; i++) {
		snprintf(dflag[i], sizeof(dflag[i]), "-D%s", o->defines[i]);
		argv[n++] = dflag[i];
	}
	argv[n++] = script;
	argv[n] = NULL;
	execv(stap, (char *const *)argv);
	fprintf(stderr, "loadbench: cannot run %s: %s\n", stap, strerror(errno));
	_exit(127);
}

int lb_stap_build(const char *script, const char *name, const struct lb_stap_build_opts *o,
		  const char *dir, char *err, size_t len)
{
	static const struct lb_stap_build_opts none;
	char stap[PATH_MAX], path[PATH_MAX], ko[PATH_MAX];
	struct timespec t0, now;
	int status, ret;
	pid_t child;

	if (!o)
		o = &none;
	if (!lb_stap_find_program("stap", stap, sizeof(stap))) {
		lb_unavailable_say(LB_UNAVAIL_STAP, err, len, "stap not found: SystemTap's translator "
				   "builds the probe set's module (apt-get install systemtap)");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s.stp", dir, name);
	snprintf(ko, sizeof(ko), "%s/%s.ko", dir, name);
	ret = lb_atomic_write(path, script, strlen(script));
	if (ret) {
		snprintf(err, len, "cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	child = fork();
	if (child < 0) {
		ret = -errno;
		snprintf(err, len, "cannot fork stap: %s", strerror(errno));
		return ret;
	}
	if (!child)
		build_child(stap, name, o, dir);
	setpgid(child, child);	/* whichever runs first: kill(-child) reaches make and gcc */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t w = waitpid(child, &status, WNOHANG);

		if (w == child)
			break;
		if (w < 0 && errno != EINTR) {
			ret = -errno;
			snprintf(err, len, "waiting for stap: %s", strerror(errno));
			kill(-child, SIGKILL);
			waitpid(child, &status, 0);
			return ret;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > LB_STAP_BUILD_TIMEOUT_S) {
			kill(-child, SIGKILL);
			waitpid(child, &status, 0);
			snprintf(err, len, "stap -p4 took over %d s for %s: killed (see %s/%s.log)",
				 LB_STAP_BUILD_TIMEOUT_S, name, dir, name);
			return -ETIMEDOUT;
		}
		usleep(100 * 1000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, len, "stap -p4 failed to build %s%s%s: see %s/%s.log", name,
			 o->kbuild ? " for " : "", o->kbuild ? o->kbuild : "", dir, name);
		return -EIO;
	}
	if (access(ko, R_OK)) {
		snprintf(err, len, "stap -p4 made no %s: see %s/%s.log", ko, dir, name);
		return -ENOENT;
	}
	return 0;
}
